"""Plain numpy oracles for three-sequence alignment (``bioplug.three``).

* :func:`linear_score`: the seed's 7-case recurrence (004, eq. 1-7) over the whole cube.
* :func:`affine_score`: the affine model of ``kernels/three_sloped.cl`` (sum of pairs, one
  column of memory: a pair's gap extends when the column before gave the pair the same status).
* :func:`rescore`: the score of given gapped rows, column by column (what an alignment scores
  under either model), independent of any DP.
* :func:`brute_force`: the best :func:`rescore` over every alignment (tiny inputs): checks that
  the DPs optimise what :func:`rescore` defines.

Sequences are integer code arrays, ``matrix`` a square integer array indexed by codes. Each
cell (i, j) of the A x B grid is a vector over k; the k-direction move is a max-plus scan.
"""

from __future__ import annotations

import numpy as np

NEG = -(10**15)
#: Column types: mask of the rows holding a residue (bit 0: A, 1: B, 2: C).
TYPES = tuple(range(1, 8))
PAIRS = ((0, 1), (0, 2), (1, 2))


def _status(t: int, pair) -> str:
    x, y = (t >> pair[0]) & 1, (t >> pair[1]) & 1
    return {(1, 1): "M", (1, 0): "X", (0, 1): "Y", (0, 0): "N"}[(x, y)]


#: NG[u]: pairs with one residue in a type-u column; NC[t][u]: those whose gap goes on from a
#: type-t column (same status).
NG = np.array([sum(_status(u, p) in "XY" for p in PAIRS) for u in TYPES])
NC = np.array([[sum(_status(u, p) in "XY" and _status(t, p) == _status(u, p) for p in PAIRS)
                for u in TYPES] for t in TYPES])


def _scan(x: np.ndarray, step: int) -> np.ndarray:
    """y[k] = max(x[k], y[k - 1] + step) for a vector over k."""
    k = np.arange(len(x), dtype=np.int64) * step
    return np.maximum.accumulate(x - k) + k


def linear_score(a, b, c, matrix, gap: int) -> int:
    """Optimal sum-of-pairs score with a linear gap score per residue-gap pair."""
    a, b, c = (np.asarray(s, dtype=np.int64) for s in (a, b, c))
    m = np.asarray(matrix, dtype=np.int64)
    n1, n2, n3 = len(a), len(b), len(c)
    g2 = 2 * gap
    H = np.full((n1 + 1, n2 + 1, n3 + 1), NEG, dtype=np.int64)
    sac = m[a[:, None], c[None, :]] if n1 and n3 else np.zeros((n1, n3), np.int64)
    sbc = m[b[:, None], c[None, :]] if n2 and n3 else np.zeros((n2, n3), np.int64)
    for i in range(n1 + 1):
        for j in range(n2 + 1):
            x = np.full(n3 + 1, NEG, dtype=np.int64)
            if i == 0 and j == 0:
                x[0] = 0
            if i and j:
                sab = m[a[i - 1], b[j - 1]]
                x[1:] = np.maximum(x[1:], H[i - 1, j - 1, :-1] + sab + sac[i - 1] + sbc[j - 1])
                x = np.maximum(x, H[i - 1, j - 1] + sab + g2)
            if i:
                x[1:] = np.maximum(x[1:], H[i - 1, j, :-1] + sac[i - 1] + g2)
                x = np.maximum(x, H[i - 1, j] + g2)
            if j:
                x[1:] = np.maximum(x[1:], H[i, j - 1, :-1] + sbc[j - 1] + g2)
                x = np.maximum(x, H[i, j - 1] + g2)
            H[i, j] = _scan(x, g2)
    return int(H[n1, n2, n3])


def affine_score(a, b, c, matrix, open_: int, extend: int) -> int:
    """Optimal sum-of-pairs score with affine pair gaps (one column of memory)."""
    a, b, c = (np.asarray(s, dtype=np.int64) for s in (a, b, c))
    m = np.asarray(matrix, dtype=np.int64)
    n1, n2, n3 = len(a), len(b), len(c)
    if n1 == n2 == n3 == 0:
        return 0
    de = extend - open_
    start = NG * open_
    # P[i, j, k, u - 1]: best score of alignments ending at (i, j, k), with the gap scores of
    # a following column of type u already added
    P = np.full((n1 + 1, n2 + 1, n3 + 1, 7), NEG, dtype=np.int64)
    sac = m[a[:, None], c[None, :]] if n1 and n3 else np.zeros((n1, n3), np.int64)
    sbc = m[b[:, None], c[None, :]] if n2 and n3 else np.zeros((n2, n3), np.int64)
    last = None
    for i in range(n1 + 1):
        for j in range(n2 + 1):
            H = np.full((n3 + 1, 7), NEG, dtype=np.int64)
            sab = m[a[i - 1], b[j - 1]] if i and j else 0
            if i:
                H[:, 0] = P[i - 1, j, :, 0]
                H[1:, 4] = P[i - 1, j, :-1, 4] + sac[i - 1]
            if j:
                H[:, 1] = P[i, j - 1, :, 1]
                H[1:, 5] = P[i, j - 1, :-1, 5] + sbc[j - 1]
            if i and j:
                H[:, 2] = P[i - 1, j - 1, :, 2] + sab
                H[1:, 6] = P[i - 1, j - 1, :-1, 6] + sab + sac[i - 1] + sbc[j - 1]
            # C-only columns: from the cell below in k, whose own C-only value extends both
            # of its gaps (NC[4][4] = 2)
            others = H[:-1].copy()
            others[:, 3] = NEG
            y = np.full(n3 + 1, NEG, dtype=np.int64)
            y[1:] = NG[3] * open_ + (others + NC[:, 3] * de).max(axis=1)
            if i == 0 and j == 0 and n3:
                y[1] = start[3]
            H[:, 3] = _scan(y, NG[3] * open_ + NC[3, 3] * de)
            P[i, j] = NG * open_ + (H[:, :, None] + NC[None, :, :] * de).max(axis=1)
            if i == 0 and j == 0:
                P[0, 0, 0] = start
            last = H
    return int(last[n3].max())


def rescore(rows, matrix, gap=None, open_=None, extend=None) -> int:
    """Score of three gapped rows (code arrays with -1 for a gap).

    ``gap`` scores every residue-gap pair (linear); ``open_`` / ``extend`` the affine model.
    """
    rows = np.asarray(rows)
    m = np.asarray(matrix)
    total = 0
    prev = None
    for col in rows.T:
        t = sum(1 << r for r in range(3) if col[r] >= 0)
        if t == 0:
            raise ValueError("a column of gaps only")
        for pair in PAIRS:
            st = _status(t, pair)
            if st == "M":
                total += int(m[col[pair[0]], col[pair[1]]])
            elif st in "XY":
                if gap is not None:
                    total += gap
                else:
                    same = prev is not None and _status(prev, pair) == st
                    total += extend if same else open_
        prev = t
    return total


def rows_from_types(types, a, b, c) -> np.ndarray:
    """Gapped rows (codes, -1 for gaps) from column types first to last."""
    seqs = [list(a), list(b), list(c)]
    pos = [0, 0, 0]
    rows = np.full((3, len(types)), -1, dtype=np.int64)
    for x, t in enumerate(types):
        for r in range(3):
            if (t >> r) & 1:
                rows[r, x] = seqs[r][pos[r]]
                pos[r] += 1
    if pos != [len(s) for s in seqs]:
        raise ValueError(f"columns consume {pos} residues of {[len(s) for s in seqs]}")
    return rows


def brute_force(a, b, c, matrix, gap=None, open_=None, extend=None) -> int:
    """Best :func:`rescore` over every alignment of three tiny sequences."""
    lengths = (len(a), len(b), len(c))
    best = None

    def walk(pos, types):
        nonlocal best
        if pos == lengths:
            rows = rows_from_types(types, a, b, c)
            s = rescore(rows, matrix, gap, open_, extend)
            best = s if best is None else max(best, s)
            return
        for t in TYPES:
            nxt = tuple(p + ((t >> r) & 1) for r, p in enumerate(pos))
            if all(x <= n for x, n in zip(nxt, lengths, strict=True)):
                walk(nxt, types + [t])

    walk((0, 0, 0), [])
    return 0 if best is None else best


def all_alignments_count(lengths) -> int:
    """Number of alignments (3-D Delannoy number) - keeps brute-force tests small."""
    n = [0]

    def walk(pos):
        if pos == tuple(lengths):
            n[0] += 1
            return
        for t in TYPES:
            nxt = tuple(p + ((t >> r) & 1) for r, p in enumerate(pos))
            if all(x <= m for x, m in zip(nxt, lengths, strict=True)):
                walk(nxt)

    walk((0, 0, 0))
    return n[0]


__all__ = ["NC", "NG", "affine_score", "brute_force", "linear_score", "rescore",
           "rows_from_types", "all_alignments_count"]
