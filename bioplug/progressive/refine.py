"""Iterative refinement of a progressive alignment (the third stage of MUSCLE and FAMSA).

A tree edge splits the rows in two groups; each group keeps its columns (all-gap ones
dropped) and the two profiles are aligned again. The guide tree's edges give the splits.
Each round realigns a batch of splits at once, one work-group each, from the same current
alignment (``ProfileEngine.align``: one launch, so the device is not left with a single
work-group), scores every candidate on the host by the sum-of-pairs objective below and keeps
the best if it beats the current alignment. Rounds stop after ``patience`` rounds without a
gain or after ``rounds`` rounds.

The objective (:func:`sp_objective`) is the sum over columns of the substitution scores of
all residue pairs, plus, for each gap opposite a residue in the same column, the extension
score, and the opening score's extra where the gap's run starts (end gaps: the end-gap
scores): the sum-of-pairs score with the profile DP's gap model, O(k L) from column counts.
"""

from __future__ import annotations

import logging

import numpy as np

from bioplug.progress import Progress
from bioplug.progressive.device import GapScores, ProfileEngine
from bioplug.progressive.pipeline import Substitution, profile_columns, scoring_table

log = logging.getLogger(__name__)

GAP = ord("-")
#: Splits realigned per round (one launch), and rounds without a gain before stopping.
BATCH = 32
PATIENCE = 3


def sp_objective(rows: np.ndarray, matrix: Substitution, gaps: GapScores,
                 nucleotide: bool) -> float:
    """Sum-of-pairs score of gapped rows (k, L) uint8 (see the module docstring)."""
    k, L = rows.shape
    A = len(matrix.letters)
    gap = rows == GAP
    res = ~gap
    codes = scoring_table(matrix.letters, nucleotide)[rows]
    col = np.broadcast_to(np.arange(L), rows.shape)[res]
    counts = np.bincount(col * A + codes[res], minlength=L * A).reshape(L, A).astype(np.float64)
    values = matrix.values
    pairs = ((counts @ values) * counts).sum() - (counts @ np.diag(values)).sum()
    residues = counts.sum(axis=1)
    inside = (np.cumsum(res, axis=1) > 0) & (np.cumsum(res[:, ::-1], axis=1)[:, ::-1] > 0)
    starts = gap.copy()
    starts[:, 1:] &= res[:, :-1]
    internal, terminal = gap & inside, gap & ~inside
    per_column = (gaps.extend * internal.sum(0)
                  + (gaps.open - gaps.extend) * (starts & internal).sum(0)
                  + gaps.end_extend * terminal.sum(0)
                  + (gaps.end_open - gaps.end_extend) * (starts & terminal).sum(0))
    return float(0.5 * pairs + residues @ per_column)


def tree_splits(link: np.ndarray, k: int) -> np.ndarray:
    """(edges, k) bool: the leaves below each edge of the rooted guide tree, one per split
    (the root's two edges make the same split: one is kept)."""
    members = np.zeros((2 * k - 1, k), dtype=bool)
    members[np.arange(k), np.arange(k)] = True
    for t in range(k - 1):   # per tree node, vectorised over the leaves
        members[k + t] = members[int(link[t, 0])] | members[int(link[t, 1])]
    root_child = int(link[-1, 0]) if k > 1 else 0
    keep = np.ones(2 * k - 2, dtype=bool)
    if k > 1:
        keep[root_child] = False
    return members[: 2 * k - 2][keep]


def realign_splits(engine: ProfileEngine, rows: np.ndarray, splits: np.ndarray,
                   matrix: Substitution, nucleotide: bool) -> list[np.ndarray]:
    """Rows of each candidate: the split's two groups realigned as profiles (one launch)."""
    engine.clear()
    groups, profiles, weights = [], [], []
    names = ["row"] * rows.shape[0]
    for split in splits:
        parts = []
        for side in (split, ~split):
            sub = rows[side]
            sub = sub[:, ~(sub == GAP).all(axis=0)]
            parts.append(sub)
            profiles.append(profile_columns(sub, matrix.letters, nucleotide, names,
                                            engine.residue))
            weights.append(float(sub.shape[0]))
        groups.append(parts)
    nodes = engine.add_profiles(profiles, weights)
    pairs = list(zip(nodes[0::2], nodes[1::2], strict=True))
    aligned = engine.align(pairs, merge=False)    # moves only: the rows are rebuilt here
    out = []
    for split, (a, b), (_, moves) in zip(splits, groups, aligned, strict=True):
        new = np.full((rows.shape[0], moves.size), GAP, dtype=np.uint8)
        new[np.ix_(np.flatnonzero(split), np.flatnonzero(moves != 2))] = a
        new[np.ix_(np.flatnonzero(~split), np.flatnonzero(moves != 1))] = b
        out.append(new)
    return out


def refine(rows: np.ndarray, link: np.ndarray, matrix: Substitution, gaps: GapScores,
           nucleotide: bool, device=None, rounds: int = 16, seed: int = 0,
           progress: Progress | None = None) -> np.ndarray:
    """Refined rows (k, L') of ``rows`` (k, L); see the module docstring."""
    from bioplug.runtime import get_runtime

    k = rows.shape[0]
    if k < 3 or rounds <= 0:
        return rows
    engine = ProfileEngine(get_runtime(device), matrix.values, gaps)
    progress = progress or Progress()
    rng = np.random.default_rng(seed)
    splits = tree_splits(link, k)
    best = sp_objective(rows, matrix, gaps, nucleotide)
    start, idle, accepted = best, 0, 0
    for r in range(rounds):
        progress.report("refinement", r, rounds)
        chosen = splits[rng.choice(len(splits), size=min(BATCH, len(splits)), replace=False)]
        candidates = realign_splits(engine, rows, chosen, matrix, nucleotide)
        scores = [sp_objective(c, matrix, gaps, nucleotide) for c in candidates]
        top = int(np.argmax(scores))
        if scores[top] > best + 1e-6 * abs(best):
            rows, best, idle, accepted = candidates[top], scores[top], 0, accepted + 1
        else:
            idle += 1
            if idle >= PATIENCE:
                break
    progress.report("refinement", rounds, rounds)
    log.info("refinement: %d of %d rounds kept, objective %.1f -> %.1f", accepted, r + 1,
             start, best)
    return rows
