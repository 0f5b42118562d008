"""ClustalW-style progressive alignment, stage by stage (seed 003 §2.2.2; seed 002's pipeline).

1. ``encode``: sequences to codes of the substitution matrix's alphabet (protein or nucleotide).
2. ``guide_tree`` (:mod:`bioplug.progressive.guide`): local-alignment (or k-tuple) distances
   and UPGMA, or the embedded bisecting tree for families too large for a k x k matrix.
3. ``sequence_weights``: ClustalW's weights from the tree
   (:func:`bioplug.msa.guide.clustalw_weights`).
4. ``align_tree``: every tree level's ready nodes aligned in one batch on the device
   (:class:`bioplug.progressive.device.ProfileEngine`); profiles stay on the device.
5. ``assemble``: the moves of every node composed from the root down into gapped rows.

The front door then refines the rows (:mod:`bioplug.progressive.refine`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bioplug.errors import InputError
from bioplug.msa.guide import clustalw_weights
from bioplug.progress import Progress
from bioplug.progressive.device import GapScores, ProfileEngine, ResidueGaps
from bioplug.progressive.guide import guide_tree, matrix_limit

log = logging.getLogger(__name__)

@dataclass
class Result:
    """Rows (k, L) uint8 in input order, the guide tree used, and seconds per stage."""

    rows: np.ndarray
    link: np.ndarray
    times: dict = field(default_factory=dict)


# -- 1. encoding ---------------------------------------------------------------------------
#: Ambiguity codes and the letters they stand for (IUPAC); scored as the mean over the letters
#: when a matrix lacks them.
AMBIGUOUS = {
    False: {"B": "DN", "Z": "EQ", "J": "IL", "X": "ACDEFGHIKLMNPQRSTVWY"},
    True: {"R": "AG", "Y": "CT", "S": "CG", "W": "AT", "K": "GT", "M": "AC", "B": "CGT",
           "D": "AGT", "H": "ACT", "V": "ACG", "N": "ACGT"},
}


@dataclass(frozen=True)
class Substitution:
    """A substitution matrix as the kernels use it: letters and a float (A, A) array."""

    letters: str
    values: np.ndarray
    name: str = ""

    @classmethod
    def complete(cls, matrix, nucleotide: bool, shift: float = 0.0) -> Substitution:
        """From a ``Bio.Align.substitution_matrices.Array``, with rows added for the
        ambiguity codes it lacks (mean score over the letters a code stands for), so that
        every IUPAC letter of real data (X, B, Z in Pfam; N in DNA) can be scored, and
        ``shift`` added to every score."""
        letters = "".join(matrix.alphabet).upper()
        values = np.asarray(matrix, dtype=np.float64)
        index = {c: i for i, c in enumerate(letters)}
        extra = [(code, [index[c] for c in members])
                 for code, members in AMBIGUOUS[nucleotide].items()
                 if code not in index and all(c in index for c in members)]
        if extra:
            n = len(letters) + len(extra)
            full = np.zeros((n, n))
            full[: len(letters), : len(letters)] = values
            for k, (_, members) in enumerate(extra):
                full[len(letters) + k] = full[members].mean(axis=0)
                full[:, len(letters) + k] = full[:, members].mean(axis=1)
            letters += "".join(code for code, _ in extra)
            values = full
        return cls(letters, values + shift, getattr(matrix, "name", None) or "")


def scoring_table(letters: str, nucleotide: bool) -> np.ndarray:
    """Byte -> code table of the matrix alphabet (255 = not scoreable).

    Lower case scores as upper case; U as T in nucleotides; in proteins U (selenocysteine),
    O (pyrrolysine) and J (I or L) score as X when the matrix lacks them. The rows written keep
    the input letters: this table is only for scoring.
    """
    table = np.full(256, 255, dtype=np.uint8)
    for code, c in enumerate(letters):
        table[ord(c)] = table[ord(c.lower())] = code
    if nucleotide and "T" in letters:
        table[ord("U")] = table[ord("u")] = letters.index("T")
    elif not nucleotide and "X" in letters:
        for c in "UOJ":
            if c not in letters:
                table[ord(c)] = table[ord(c.lower())] = letters.index("X")
    return table


def encode(texts: Sequence[str], names: Sequence[str], letters: str,
           nucleotide: bool) -> list[np.ndarray]:
    """Codes of every sequence; :class:`InputError` names record, position and letter."""
    table = scoring_table(letters, nucleotide)
    out = []
    for text, name in zip(texts, names, strict=True):
        raw = np.frombuffer(text.encode("latin-1", "replace"), dtype=np.uint8)
        codes = table[raw]
        bad = np.flatnonzero(codes == 255)
        if bad.size:
            pos = int(bad[0])
            kind = "a nucleotide" if nucleotide else "an amino-acid"
            raise InputError(f"{name}: letter {text[pos]!r} at position {pos + 1} is not "
                             f"{kind} letter of the scoring matrix ({letters})")
        out.append(codes)
    return out


# -- 3. weights -------------------------------------------------------------------------------
def sequence_weights(link: np.ndarray, k: int) -> np.ndarray:
    """ClustalW weights scaled to mean 1, floored so no sequence drops out of a profile.

    A sequence whose path to the root has only zero-length edges (an exact duplicate deep in
    the tree) would get weight 0 and vanish from the profile's frequencies.
    """
    w = clustalw_weights(link, k) * k
    if not np.isfinite(w).all():
        raise InputError("sequence weights are not finite (check the guide tree's heights)")
    return np.maximum(w, 1e-3)


# -- 4. the tree, level by level -----------------------------------------------------------
def tree_levels(link: np.ndarray, k: int) -> list[np.ndarray]:
    """Rows of ``link`` grouped by depth: a node's children are always in earlier groups."""
    depth = np.zeros(2 * k - 1, dtype=np.int64)
    children = link[:, :2].astype(np.int64)
    for t in range(k - 1):
        depth[k + t] = 1 + max(depth[children[t, 0]], depth[children[t, 1]])
    inner = depth[k:]
    order = np.argsort(inner, kind="stable")
    bounds = np.flatnonzero(np.diff(inner[order])) + 1
    return np.split(order, bounds) if k > 1 else []


def align_tree(engine: ProfileEngine, link: np.ndarray, k: int,
               progress: Progress) -> tuple[int, dict[int, np.ndarray]]:
    """Align every inner node, one batch per level; returns (root's engine node, moves).

    ``moves[t]`` belongs to linkage row ``t`` (X = first child, Y = second child).
    """
    node_of = np.arange(2 * k - 1, dtype=np.int64)     # linkage node -> engine node
    moves: dict[int, np.ndarray] = {}
    done = 0
    progress.report("progressive", 0, max(k - 1, 1))
    for rows in tree_levels(link, k):
        pairs = [(int(node_of[int(link[t, 0])]), int(node_of[int(link[t, 1])])) for t in rows]
        for t, (node, mv) in zip(rows, engine.align(pairs), strict=True):
            node_of[k + t] = node
            moves[int(t)] = mv
        engine.release([n for pair in pairs for n in pair])   # their columns can be reused
        done += len(rows)
        progress.report("progressive", done, k - 1)
    return int(node_of[2 * k - 2]), moves


# -- 5. rows ---------------------------------------------------------------------------------
def assemble(link: np.ndarray, k: int, moves: dict[int, np.ndarray], root_length: int,
             texts: Sequence[str]) -> np.ndarray:
    """(k, L) uint8 gapped rows: each node's columns mapped to the root's from the top down."""
    to_root: dict[int, np.ndarray] = {2 * k - 2: np.arange(root_length, dtype=np.int64)}
    for t in range(k - 2, -1, -1):
        here = to_root.pop(k + t)
        mv = moves[t]
        to_root[int(link[t, 0])] = here[np.flatnonzero(mv != 2)]
        to_root[int(link[t, 1])] = here[np.flatnonzero(mv != 1)]
    rows = np.full((k, root_length), ord("-"), dtype=np.uint8)
    lengths = np.fromiter((len(s) for s in texts), dtype=np.int64, count=k)
    owner = np.repeat(np.arange(k), lengths)
    cols = np.concatenate([to_root[s] for s in range(k)])
    rows[owner, cols] = np.frombuffer("".join(texts).encode("latin-1"), dtype=np.uint8)
    return rows


def profile_columns(rows: np.ndarray, letters: str, nucleotide: bool,
                    ids: list[str], residue: ResidueGaps | None = None,
                    weights: np.ndarray | None = None) -> np.ndarray:
    """(L, A + 5) profile of gapped rows (equal weights, or ``weights``, one per row summing
    to 1), as ``ProfileEngine.add_profile`` takes it: residue frequencies, then the fractions
    of sequences with a gap, a segment start (residue after a gap or the start), their first
    residue, their last residue, and residues on both sides of the boundary after the column;
    with ``residue`` (residue-specific gaps) a last column, the fraction whose residue lies in
    a hydrophilic stretch of its ungapped sequence."""
    n, L = rows.shape
    A = len(letters)
    codes, features = cell_features(rows, letters, nucleotide, ids, residue)
    res = codes != 255
    col = np.broadcast_to(np.arange(L), rows.shape)[res]
    out = np.zeros((L, A + 5 + (residue is not None)), dtype=np.float32)
    if weights is None:      # counts over n: the bits the profiles always had
        counts = np.bincount(col * A + codes[res], minlength=L * A).reshape(L, A)
        out[:, :A] = counts / n
        for k, v in enumerate(features):
            out[:, A + k] = v.sum(axis=0) / n
        return out
    w = np.asarray(weights, np.float64)
    row_w = np.broadcast_to(w[:, None], rows.shape)[res]
    out[:, :A] = np.bincount(col * A + codes[res], weights=row_w,
                             minlength=L * A).reshape(L, A)
    for k, v in enumerate(features):
        out[:, A + k] = w @ v
    return out


def cell_features(rows: np.ndarray, letters: str, nucleotide: bool, ids: list[str],
                  residue: ResidueGaps | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """Per row and column of gapped rows: the letter code (255 at gaps) and the bool
    matrices a profile's fractions sum (:func:`profile_columns`): gap, segment start, first
    residue, last residue, span (and hydrophilic stretch with ``residue``).

    Raises
    ------
    InputError
        A letter the matrix lacks, named with its row and column.
    """
    table = scoring_table(letters, nucleotide)
    codes = table[rows]
    gap = rows == ord("-")
    bad = np.argwhere((codes == 255) & ~gap)
    if bad.size:
        r, c = (int(v) for v in bad[0])
        raise InputError(f"{ids[r]}: letter {chr(rows[r, c])!r} at column {c + 1} is not in "
                         f"the scoring matrix ({letters})")
    res = ~gap
    seen_before = np.cumsum(res, axis=1) > 0                 # a residue at or before c
    seen_after = np.cumsum(res[:, ::-1], axis=1)[:, ::-1] > 0  # a residue at or after c
    starts = res.copy()
    starts[:, 1:] &= gap[:, :-1]
    first = res & ~np.pad(seen_before[:, :-1], ((0, 0), (1, 0)))
    last = res & ~np.pad(seen_after[:, 1:], ((0, 0), (0, 1)))
    span = seen_before & np.pad(seen_after[:, 1:], ((0, 0), (0, 1)))
    features = [gap, starts, first, last, span]
    if residue is not None:      # row-major residues are the ungapped sequences back to back
        per_row = res.sum(axis=1)
        begin = np.concatenate([[0], np.cumsum(per_row)[:-1]])[per_row > 0]
        inside = np.zeros(rows.shape, dtype=bool)
        inside[res] = residue.stretches(codes[res], begin)
        features.append(inside)
    return np.where(res, codes, 255).astype(np.uint8), features


def cell_bits(features: list[np.ndarray]) -> np.ndarray:
    """The features of :func:`cell_features` but the gap, packed one byte a cell for the
    ``weighted_profiles`` kernel: 1 start, 2 first, 4 last, 8 span, 16 hydrophilic."""
    bits = np.zeros(features[0].shape, dtype=np.uint8)
    for k, v in enumerate(features[1:]):
        bits |= v.astype(np.uint8) << k
    return bits


# -- the whole pipeline ----------------------------------------------------------------------
def run(texts: list[str], names: list[str], matrix: Substitution, gaps: GapScores,
        nucleotide: bool,
        max_matrix: int | None, device=None, link: np.ndarray | None = None, seed: int = 0,
        progress: Progress | None = None, distances: str = "auto",
        weighting: str = "clustalw", embedding: str = "single") -> Result:
    """Align gap-free ``texts``; see the module docstring for the stages."""
    from bioplug.runtime import get_runtime

    progress = progress or Progress()
    k = len(texts)
    times: dict[str, float] = {}
    t0 = time.perf_counter()
    codes = encode(texts, names, matrix.letters, nucleotide)
    if k == 1:
        return Result(np.frombuffer(texts[0].encode("latin-1"), np.uint8)[None, :].copy(),
                      np.empty((0, 4)), times)
    rt = get_runtime(device)
    if link is None:
        progress.report("guide tree", 0, 1)
        link = guide_tree(texts, nucleotide, matrix_limit(max_matrix, rt), rt, seed, distances,
                          embedding)
        progress.report("guide tree", 1, 1)
    times["tree"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    weights = sequence_weights(link, k) if weighting == "clustalw" else np.ones(k)
    engine = ProfileEngine(rt, matrix.values, gaps)
    engine.add_sequences(codes, weights)
    root, moves = align_tree(engine, link, k, progress)
    times["progressive"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    rows = assemble(link, k, moves, engine.length[root], texts)
    times["assemble"] = time.perf_counter() - t0
    return Result(rows, link, times)
