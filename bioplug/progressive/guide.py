"""Stages 1 and 2: distances and the guide tree, with and without a k x k matrix.

Up to ``max_matrix`` sequences (by default as many as the device's memory holds as a packed
float32 triangle): distances of all pairs on the device and UPGMA on the device by rounds of
reciprocal nearest neighbours (:mod:`bioplug.tree.rnn`). The distances are local alignment
scores while their cells fit a per-device budget (:data:`ALIGN_CELLS`), else LCS distances
(:mod:`bioplug.progressive.lcs`, about 60x cheaper a pair), or ClustalW's k-tuples when asked.
Above ``max_matrix`` no k x k matrix is made: by default the tree is single linkage from a
minimum spanning tree of LCS distances computed on the fly (FAMSA's way); the older bisecting
tree (2-means in k-tuple spectra or Clustal Omega's mBed space, UPGMA inside the parts) is
still there on request and aligned worse (RESULTS.md). The result is always a scipy-style
linkage array, so the sequence weights and the progressive stage do not care which way it was
made.
"""

from __future__ import annotations

import logging

import numpy as np

from bioplug.tree import ktuple_distances
from bioplug.tree.distance import NUCLEOTIDE, PROTEIN, ktuple_counts

log = logging.getLogger(__name__)

#: Iterations of 2-means per bisection (the split only steers the tree; a few suffice).
KMEANS_ITERATIONS = 8


def local_engine(nucleotide: bool, device=None):
    """The pairwise engine and encoder for guide-tree scores (local, BLOSUM62 11/1 or
    NUC.4.4 16/4)."""
    from bioplug.alphabet import load_matrix, make_scoring
    from bioplug.pairwise.engine import PairwiseEngine

    name, go, ge = ("NUC.4.4", -16, -4) if nucleotide else ("BLOSUM62", -11, -1)
    scoring = make_scoring(load_matrix(name), gaps=[go, ge] * 6, local=True)
    return PairwiseEngine(scoring, devices=[device] if device is not None else None), scoring


def encoded(texts: list[str], letters: str, nucleotide: bool) -> list[np.ndarray]:
    """Codes for the guide-tree scores: letters the matrix lacks (U, O, J) score as X (N for
    nucleotides); the pipeline has already checked every letter against its own matrix."""
    from bioplug.progressive.pipeline import scoring_table

    table = scoring_table(letters, nucleotide)
    wild = "N" if nucleotide else "X"
    unknown = letters.index(wild) if wild in letters else 0
    out = []
    for t in texts:
        c = table[np.frombuffer(t.encode("latin-1", "replace"), np.uint8)]
        out.append(np.where(c == 255, unknown, c).astype(np.uint8))
    return out


def similarity_distances(scores: np.ndarray, self_a: np.ndarray, self_b: np.ndarray
                         ) -> np.ndarray:
    """1 - s(a, b) / max(s(a, a), s(b, b)), clipped to [0, 1].

    The larger self-score, not the smaller: Pfam-style families mix one-domain fragments with
    full chains of two or more repeats, and a fragment that matches one repeat perfectly must
    not sit at distance 0 from the chain (the tree then scatters the chains among fragments,
    and each is aligned on whichever repeat its first partner matched). On the HomFam dev
    families: SP / TC 79.8 / 62.6 with the smaller, 83.3 / 66.8 with the larger (bowman
    36 -> 90, Bcl-2 38 -> 82); the geometric and arithmetic means land between.
    """
    # float32, in place: for 4,000 sequences the float64 temporaries took a sixth of the tree
    self_a = np.maximum(self_a, 1.0).astype(np.float32)
    self_b = np.maximum(self_b, 1.0).astype(np.float32)
    dist = np.maximum(self_a[:, None], self_b[None, :])
    np.divide(scores, dist, out=dist)
    np.subtract(1.0, dist, out=dist)
    return np.clip(dist, 0.0, 1.0, out=dist)


def seed_embedding(texts: list[str], nucleotide: bool, device=None) -> np.ndarray:
    """Clustal Omega's mBed: each sequence as its distances to O(log^2 k) seed sequences.

    Local alignment distances (:func:`similarity_distances`) of k x seeds pairs on the device,
    no k x k matrix; seeds spread evenly over the sequences sorted by length, as mBed picks
    them. Measured on a simulated 10,000 x 300 family (H100), its bisecting tree aligned worse
    than the k-tuple spectrum's (SP 61.6 against 75.2), so it is used only when asked
    (``ProgressiveAligner(embedding="mbed")``).
    """
    k = len(texts)
    count = int(min(k, max(32, np.ceil(np.log2(k) ** 2))))
    order = np.argsort([len(t) for t in texts], kind="stable")
    seeds = order[np.linspace(0, k - 1, count).round().astype(np.int64)]
    engine, scoring = local_engine(nucleotide, device)
    codes = encoded(texts, "".join(scoring.letters), nucleotide)
    scores = engine.score_indexed(codes, np.repeat(np.arange(k), count),
                                  np.tile(seeds, k)).reshape(k, count)
    own = engine.score_indexed(codes, np.arange(k), np.arange(k))
    return similarity_distances(scores, own, own[seeds])


def alignment_distances(texts: list[str], nucleotide: bool, device=None) -> np.ndarray:
    """Distances of all pairs from local alignment scores (:func:`similarity_distances`).

    The scores come from the pairwise engine's all-vs-all (Smith-Waterman, BLOSUM62 11/1 for
    proteins, NUC.4.4 16/4 for nucleotides): slower than k-tuples but it sees the homology that
    shared short words miss in divergent families.
    """
    engine, scoring = local_engine(nucleotide, device)
    scores = engine.score_all(encoded(texts, "".join(scoring.letters), nucleotide))
    own = np.diag(scores).copy()
    dist = similarity_distances(scores, own, own)
    np.fill_diagonal(dist, 0.0)
    return dist


def alignment_distances_packed(texts: list[str], nucleotide: bool, rt):
    """:func:`alignment_distances` as the packed lower triangle (float32) UPGMA reads, left
    on the device: the scores' triangle goes up once and one kernel
    (``kernels/progressive_distances.cl``) makes the distances in input order. For 3,900
    sequences the host's way (scores spread into a square, distances, packing) took longer
    than the alignments on an H100; the values are the same bits. Returns a ``cl.Buffer``."""
    from bioplug.pairwise import allpairs

    engine, scoring = local_engine(nucleotide, rt)
    tri, rank = allpairs.score_triangle(engine, encoded(texts, "".join(scoring.letters),
                                                       nucleotide))
    n = len(texts)
    row_start = np.zeros(n, dtype=np.int64)
    np.cumsum(n - np.arange(n - 1), out=row_start[1:])
    inv = np.empty(n, dtype=np.int32)
    inv[rank] = np.arange(n, dtype=np.int32)
    out = rt.empty(max(4, 4 * (n * (n - 1) // 2)))
    side = 16
    rt.kernel("progressive_distances.cl", "similarity_pack")(
        rt.queue, (-(-n // side) * side, -(-n // side) * side), (side, side),
        rt.to_device(tri), rt.to_device(row_start), rt.to_device(inv), np.int32(n), out)
    return out


#: Cells of all-pairs local alignment one guide tree may cost: about 2 s on an H100, 15 s
#: on a 2-core PoCL device. Above it, "auto" distances are LCS distances: on simulated
#: families they align as well (2,000 x 300: SP / TC 93.0 / 51.4 against 93.0 / 51.0, at a
#: thirtieth of the time), on real ones alignment scores are better (HomFam dev families of
#: up to 700 sequences: 84.2 / 72.2 against 83.3 / 71.4; 700-1,300: 87.2 / 70.7 against
#: 84.0 / 66.8), so they are kept where they cost about as much as the rest of the job:
#: every HomFam family (<= 4.7e11 cells) and 5,000 x 300 (1.1e12) on a GPU, not 10,000 x 300
#: (4.5e12, 4.5 s: pyfamsa aligns the whole family in 5.8 s on 16 cores).
ALIGN_CELLS = {"gpu": 2e12, "cpu": 2e10}


def resolve_distances(distances: str, texts: list[str], rt) -> str:
    """"align", "lcs" or "ktuple"; "auto" takes "align" while all pairs' cells fit the
    device's :data:`ALIGN_CELLS` budget, "lcs" above it."""
    if distances != "auto":
        return distances
    lengths = np.fromiter((len(t) for t in texts), dtype=np.float64, count=len(texts))
    cells = 0.5 * (lengths.sum() ** 2 - (lengths ** 2).sum())
    budget = ALIGN_CELLS["gpu" if getattr(rt, "is_gpu", False) else "cpu"]
    if cells <= budget:
        return "align"
    log.info("guide tree from LCS distances: alignment distances of all pairs would take "
             "%.1e cells (budget %.0e on this device)", cells, budget)
    return "lcs"


def lcs_tree(texts: list[str], device=None, method: str = "average") -> np.ndarray:
    """Guide tree from LCS distances (:mod:`bioplug.progressive.lcs`): UPGMA on the device
    over all pairs (``method="average"``), or single linkage from a minimum spanning tree built
    without a k x k matrix (``"single"``)."""
    from bioplug.progressive import lcs
    from bioplug.runtime import get_runtime

    rt = device if hasattr(device, "kernel") else get_runtime(device)
    data = lcs.LcsData(lcs.letter_codes(texts), lcs.LETTERS, rt)
    if method == "single":
        return lcs.single_linkage(data)
    return lcs.upgma(data)


def upgma_tree(dist: np.ndarray, device=None) -> np.ndarray:
    """UPGMA of a square distance matrix on the device (:func:`bioplug.tree.rnn.rnn_linkage`:
    rounds of reciprocal nearest neighbours, about one pass over the matrix)."""
    from bioplug.tree.device import pack_lower
    from bioplug.tree.rnn import rnn_linkage

    return rnn_linkage(pack_lower(dist, np.float32), dist.shape[0], device)


def matrix_tree(texts: list[str], nucleotide: bool, device=None,
                distances: str = "align") -> np.ndarray:
    """UPGMA on all-pairs distances (on the device): a (k-1, 4) linkage array."""
    k = len(texts)
    if k < 2:
        return np.empty((0, 4))
    kind = resolve_distances(distances, texts, device)
    if kind == "lcs":
        return lcs_tree(texts, device, "average")
    if kind == "align":
        from bioplug.runtime import get_runtime
        from bioplug.tree.build import scipy_relabel
        from bioplug.tree.rnn import rnn_upgma

        rt = device if hasattr(device, "kernel") else get_runtime(device)
        packed = alignment_distances_packed(texts, nucleotide, rt)
        return scipy_relabel(rnn_upgma(packed, k, rt), k)
    dist = ktuple_distances(texts, k=4 if nucleotide else 2, device=device).to_numpy()
    return upgma_tree(dist, device)


def nj_tree(texts: list[str], nucleotide: bool, device=None, distances: str = "align",
            max_matrix: int | None = None) -> np.ndarray | None:
    """Midpoint-rooted neighbour joining on the distances :func:`matrix_tree` uses (a
    (k-1, 4) linkage array), or None where there is no k x k matrix (more than ``max_matrix``
    sequences, :func:`matrix_limit`, or LCS distances) or fewer than three sequences.

    A second candidate guide tree for small families (``ProgressiveAligner(trees=...)``): NJ
    does not assume a molecular clock, so on families whose branches evolve at unequal rates it
    groups the sequences differently from UPGMA, and neither tree wins on every family.
    """
    from bioplug.progressive.midpoint import nj_midpoint_linkage
    from bioplug.runtime import get_runtime
    from bioplug.tree.build import nj_linkage
    from bioplug.tree.matrix import as_matrix

    k = len(texts)
    rt = device if hasattr(device, "kernel") else get_runtime(device)
    kind = resolve_distances(distances, texts, rt)
    if k < 3 or kind == "lcs" or k > matrix_limit(max_matrix, rt):
        return None
    dist = (alignment_distances(texts, nucleotide, rt) if kind == "align" else
            ktuple_distances(texts, k=4 if nucleotide else 2, device=rt).to_numpy())
    data, _ = as_matrix(dist, [str(i) for i in range(k)])
    link = nj_midpoint_linkage(nj_linkage(data, rt), k)
    if link is None:
        # scikit-bio 0.7's midpoint climb passes the root on families of near-identical
        # short sequences: UPGMA only
        log.info("no NJ guide tree: the midpoint lies beyond the root")
    return link


def spectrum(texts: list[str], nucleotide: bool) -> np.ndarray:
    """(k, T) float32 k-tuple spectra scaled to unit length (the embedding)."""
    counts = ktuple_counts(texts, 4 if nucleotide else 2,
                           NUCLEOTIDE if nucleotide else PROTEIN).astype(np.float32)
    norm = np.linalg.norm(counts, axis=1, keepdims=True)
    return counts / np.maximum(norm, 1e-12)


def _sq_dist(points: np.ndarray, c: np.ndarray) -> np.ndarray:
    return ((points - c) ** 2).sum(axis=1)


def bisect(points: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Boolean split of ``points`` (rows) by 2-means (Euclidean) from two far-apart seeds."""
    first = points[rng.integers(points.shape[0])]
    a = points[np.argmax(_sq_dist(points, first))]   # farthest from a random point
    b = points[np.argmax(_sq_dist(points, a))]       # farthest from that one
    side = np.zeros(points.shape[0], dtype=bool)
    for _ in range(KMEANS_ITERATIONS):
        new = _sq_dist(points, b) < _sq_dist(points, a)
        if new.all() or not new.any():
            break
        if np.array_equal(new, side):
            break
        side = new
        a = points[~side].mean(axis=0)
        b = points[side].mean(axis=0)
    if side.all() or not side.any():                # identical points: split in halves
        side = np.zeros(points.shape[0], dtype=bool)
        side[points.shape[0] // 2:] = True
    return side


def partition(points: np.ndarray, max_part: int, seed: int = 0) -> list:
    """Recursive bisection into parts of at most ``max_part`` rows.

    Returns a nested binary structure: a leaf is an index array, an inner node a pair.
    """
    rng = np.random.default_rng(seed)

    def split(idx: np.ndarray):
        if idx.size <= max_part:
            return idx
        side = bisect(points[idx], rng)
        return (split(idx[~side]), split(idx[side]))

    return split(np.arange(points.shape[0]))


def embedded_tree(texts: list[str], nucleotide: bool, max_part: int, device=None,
                  seed: int = 0, distances: str = "align",
                  embedding: str = "single") -> np.ndarray:
    """Guide tree without a k x k matrix: bisecting 2-means in an embedding ("spectrum":
    normalised k-tuple counts, or "mbed": :func:`seed_embedding`), then UPGMA on
    ``distances`` inside the parts."""
    k = len(texts)
    points = (seed_embedding(texts, nucleotide, device) if embedding == "mbed"
              else spectrum(texts, nucleotide))
    tree = partition(points, max_part, seed)
    rows: list[tuple[int, int, float, int]] = []
    next_id = k

    def build(item) -> tuple[int, float, int]:
        """Linkage rows for ``item``; returns (node id, height, size)."""
        nonlocal next_id
        if isinstance(item, np.ndarray):
            return join_part(item)
        (c1, h1, s1), (c2, h2, s2) = build(item[0]), build(item[1])
        h = max(h1, h2) * 1.05 + 1e-6   # above both parts: heights stay monotone
        rows.append((c1, c2, h, s1 + s2))
        next_id += 1
        return next_id - 1, h, s1 + s2

    def join_part(idx: np.ndarray) -> tuple[int, float, int]:
        nonlocal next_id
        if idx.size == 1:
            return int(idx[0]), 0.0, 1
        sub = matrix_tree([texts[i] for i in idx], nucleotide, device, distances)
        local = np.empty(2 * idx.size - 1, dtype=np.int64)
        local[: idx.size] = idx
        for t, (c1, c2, h, s) in enumerate(sub):
            rows.append((int(local[int(c1)]), int(local[int(c2)]), float(h), int(s)))
            local[idx.size + t] = next_id       # scipy's rule: row r makes node k + r
            next_id += 1
        return next_id - 1, float(sub[-1, 2]), idx.size

    build(tree)
    return np.asarray(rows, dtype=np.float64).reshape(-1, 4)


#: Share of the device's memory the packed k x k matrix may take (``max_matrix=None``).
MATRIX_SHARE = 0.4


def matrix_limit(max_matrix: int | None, rt) -> int:
    """``max_matrix``, or the most sequences whose packed float32 distance triangle fits in
    one buffer within :data:`MATRIX_SHARE` of the device's memory (about 100,000 on an H100,
    where the buffer limit is a quarter of its 80 GB)."""
    if max_matrix is not None:
        return int(max_matrix)
    budget = min(rt.max_alloc, rt.memory_budget(MATRIX_SHARE))
    return int((1 + np.sqrt(1 + 2.0 * budget)) / 2)     # 4 n (n - 1) / 2 <= budget


def guide_tree(texts: list[str], nucleotide: bool, max_matrix: int, device=None,
               seed: int = 0, distances: str = "auto",
               embedding: str = "single") -> np.ndarray:
    """The guide tree as a (k-1, 4) linkage array (see the module docstring).

    ``distances`` is "ktuple" (shared k-tuples, ClustalW's fast mode), "align" (local
    alignment scores of all pairs, :func:`alignment_distances`), "lcs" (:func:`lcs_tree`) or
    "auto" (:func:`resolve_distances`). ``embedding``, above ``max_matrix``: "single" (single
    linkage on LCS distances, no matrix), or the bisecting tree's "spectrum" / "mbed".
    """
    if len(texts) <= max_matrix:
        return matrix_tree(texts, nucleotide, device, distances)
    if embedding == "single":
        log.info("%d sequences > %d: single-linkage guide tree from LCS distances",
                 len(texts), max_matrix)
        return lcs_tree(texts, device, "single")
    log.info("%d sequences > %d: guide tree by bisecting k-tuple spectra", len(texts),
             max_matrix)
    return embedded_tree(texts, nucleotide, max_matrix, device, seed, distances, embedding)
