"""Merging several alignments into one, each kept intact (``mafft --merge``): the stages of
:meth:`bioplug.ProgressiveAligner.merge`.

1. Representatives: up to :data:`REPRESENTATIVES` rows of each alignment, spread over it.
2. Distances between alignments: the mean distance between their representatives (the
   guide-tree distances of the progressive pipeline, all pairs on the device), which is the
   distance UPGMA's average linkage gives two clades of those rows.
3. The merge tree: UPGMA of the alignments on those distances (on the device).
4. The alignments as profiles, aligned to each other up the tree, one device batch a level
   (:func:`bioplug.progressive.pipeline.align_tree`), each alignment's columns kept.
5. Rows: each alignment's columns mapped to the root's.
"""

from __future__ import annotations

import logging
import re

import numpy as np

log = logging.getLogger(__name__)

#: Rows of each alignment that stand for it in the distances: enough to average out one odd
#: member, few enough that a merge of hundreds of alignments costs one small all-pairs job.
REPRESENTATIVES = 8


# -- 1. representatives ----------------------------------------------------------------------
def representatives(groups: list[np.ndarray]) -> tuple[list[str], np.ndarray]:
    """Ungapped texts of up to :data:`REPRESENTATIVES` rows with residues of each group of
    gapped (n, L) uint8 rows, evenly spread over the group, and the group of each."""
    texts, owner = [], []
    for g, rows in enumerate(groups):
        filled = np.flatnonzero((rows != ord("-")).any(axis=1))
        pick = filled[np.unique(np.linspace(0, filled.size - 1, REPRESENTATIVES).round()
                                .astype(np.int64))] if filled.size else filled
        for r in pick:
            row = rows[r]
            texts.append(row[row != ord("-")].tobytes().decode("latin-1"))
            owner.append(g)
    return texts, np.asarray(owner, dtype=np.int64)


# -- 2. distances between alignments ---------------------------------------------------------
def group_distances(dist: np.ndarray, owner: np.ndarray, g: int) -> np.ndarray:
    """(g, g) mean of ``dist`` over the pairs of rows of two groups (0 on the diagonal)."""
    member = np.zeros((owner.size, g))
    member[np.arange(owner.size), owner] = 1.0
    sums = member.T @ dist @ member
    counts = member.sum(axis=0)
    out = sums / np.outer(counts, counts)
    np.fill_diagonal(out, 0.0)
    return out


def representative_distances(texts: list[str], nucleotide: bool, kind: str, rt) -> np.ndarray:
    """All-pairs distances of the representatives: local alignment scores ("align"), or
    k-tuple distances for "ktuple" and "lcs" (LCS distances come as a tree, not a matrix)."""
    from bioplug.progressive.guide import alignment_distances, resolve_distances
    from bioplug.tree import ktuple_distances

    if resolve_distances(kind, texts, rt) == "align":
        return alignment_distances(texts, nucleotide, rt)
    return ktuple_distances(texts, k=4 if nucleotide else 2, device=rt).to_numpy()


# -- 3. the merge tree -----------------------------------------------------------------------
def merge_tree(groups: list[np.ndarray], nucleotide: bool, kind: str, rt) -> np.ndarray:
    """(g - 1, 4) linkage of the groups: UPGMA on their mean representative distances."""
    from bioplug.progressive.guide import upgma_tree

    g = len(groups)
    if g == 2:    # nothing to choose: the first against the second, as align_profiles does
        return np.array([[0.0, 1.0, 0.0, 2.0]])
    texts, owner = representatives(groups)
    between = group_distances(representative_distances(texts, nucleotide, kind, rt), owner, g)
    log.info("merge tree over %d alignments from %d representatives", g, len(texts))
    return upgma_tree(between, rt)


# -- 5. rows ---------------------------------------------------------------------------------
def assemble_groups(link: np.ndarray, moves: dict[int, np.ndarray], root_length: int,
                    groups: list[np.ndarray]) -> np.ndarray:
    """(sum n_i, L) uint8 rows: each group's columns mapped to the root's from the top down,
    groups in the given order."""
    g = len(groups)
    to_root: dict[int, np.ndarray] = {2 * g - 2: np.arange(root_length, dtype=np.int64)}
    for t in range(g - 2, -1, -1):
        here = to_root.pop(g + t)
        to_root[int(link[t, 0])] = here[np.flatnonzero(moves[t] != 2)]
        to_root[int(link[t, 1])] = here[np.flatnonzero(moves[t] != 1)]
    out = np.full((sum(rows.shape[0] for rows in groups), root_length), ord("-"),
                  dtype=np.uint8)
    start = 0
    for i, rows in enumerate(groups):
        out[start:start + rows.shape[0], to_root[i]] = rows
        start += rows.shape[0]
    return out


def with_gap_rows(out: np.ndarray, sizes: list[int], full: list[int]) -> np.ndarray:
    """All groups' rows in the given order: the rows of the groups ``full`` (``out``, in
    that order) and rows of gaps for the others."""
    starts = np.cumsum([0, *sizes])
    rows = np.full((int(starts[-1]), out.shape[1]), ord("-"), dtype=np.uint8)
    taken = np.concatenate([np.arange(starts[i], starts[i + 1]) for i in full])
    rows[taken] = out
    return rows


# -- mafft's table ---------------------------------------------------------------------------
def read_table(text: str, n: int, source: str) -> tuple[list[list[int]], list[str]]:
    """The groups of a ``mafft --merge`` table over ``n`` sequences, 0-based, and their names
    in messages: one line a sub-alignment (its 1-based sequence numbers; ``#`` starts a
    comment), then every sequence the table does not list, each on its own (aligned as a
    single sequence, as MAFFT does).

    Raises
    ------
    InputError
        A word that is no sequence number, a number outside 1..n, or a number listed twice,
        named with its line.
    """
    from bioplug.errors import InputError

    groups: list[list[int]] = []
    names: list[str] = []
    line_of: dict[int, int] = {}
    # lines as editors number them: str.splitlines also breaks at form feeds and other
    # separators, and the line named in a message would not be the one to look at
    for number, line in enumerate(re.split(r"\r\n?|\n", text), start=1):
        words = line.split("#", 1)[0].split()
        group = []
        for word in words:
            # ASCII only: str.isdigit takes "²" or "①" as well, which int() does not
            if not (word.isascii() and word.isdigit()):
                raise InputError(f"{source} line {number}: {word!r} is not a sequence number")
            seq = int(word)
            if not 1 <= seq <= n:
                raise InputError(f"{source} line {number}: sequence {seq}, but the input has "
                                 f"{n} sequences")
            if seq in line_of:
                where = ("twice on this line" if line_of[seq] == number
                         else f"on line {line_of[seq]} too")
                raise InputError(f"{source} line {number}: sequence {seq} is listed {where}")
            line_of[seq] = number
            group.append(seq - 1)
        if group:
            groups.append(group)
            names.append(f"{source} line {number}")
    if not groups:
        raise InputError(f"{source}: lists no sequences")
    single = [i for i in range(n) if i + 1 not in line_of]
    return groups + [[i] for i in single], names + [f"sequence {i + 1}" for i in single]
