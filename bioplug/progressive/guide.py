"""Stages 1 and 2: distances and the guide tree, with and without a k x k matrix.

Up to ``max_matrix`` sequences: distances of all pairs on the device (local alignment scores,
or ClustalW's k-tuples: :func:`bioplug.tree.ktuple_distances`) and UPGMA on the device
(:func:`bioplug.tree.linkage`). Above it no k x k matrix is made: every sequence is embedded
as its distances to O(log^2 k) seed sequences (Clustal Omega's mBed; with k-tuple distances,
as its normalised k-tuple spectrum), the set is split by bisecting 2-means until the parts fit
``max_matrix``, and each part gets its own UPGMA tree; the bisections form the tree above.
The result is always a scipy-style linkage array, so the sequence weights and the progressive
stage do not care which way it was made.
"""

from __future__ import annotations

import logging

import numpy as np

from bioplug.tree import ktuple_distances, linkage
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


def seed_embedding(texts: list[str], nucleotide: bool, device=None) -> np.ndarray:
    """Clustal Omega's mBed: each sequence as its distances to O(log^2 k) seed sequences.

    Distances are 1 - s(a, b) / min(s(a, a), s(b, b)) from local alignment scores on the
    device (k x seeds pairs, no k x k matrix); seeds are spread evenly over the sequences
    sorted by length, as mBed picks them.
    """
    from bioplug.progressive.pipeline import scoring_table

    k = len(texts)
    count = int(min(k, max(32, np.ceil(np.log2(k) ** 2))))
    order = np.argsort([len(t) for t in texts], kind="stable")
    seeds = order[np.linspace(0, k - 1, count).round().astype(np.int64)]
    engine, scoring = local_engine(nucleotide, device)
    table = scoring_table("".join(scoring.letters), nucleotide)
    x = scoring.letters.index("X") if "X" in scoring.letters else 0
    codes = []
    for t in texts:
        c = table[np.frombuffer(t.encode("latin-1", "replace"), np.uint8)]
        codes.append(np.where(c == 255, x, c).astype(np.uint8))   # checked by the pipeline
    ia = np.repeat(np.arange(k), count)
    ib = np.tile(seeds, k)
    scores = engine.score_indexed(codes, ia, ib).reshape(k, count)
    self_scores = np.maximum(engine.score_indexed(codes, np.arange(k), np.arange(k)), 1.0)
    dist = 1.0 - scores / np.minimum(self_scores[:, None], self_scores[seeds][None, :])
    return np.clip(dist, 0.0, 1.0).astype(np.float32)


def alignment_distances(texts: list[str], nucleotide: bool, device=None) -> np.ndarray:
    """1 - s(a, b) / min(s(a, a), s(b, b)) from local alignment scores of all pairs.

    The scores come from the pairwise engine's all-vs-all (Smith-Waterman, BLOSUM62 11/1 for
    proteins, NUC.4.4 16/4 for nucleotides): slower than k-tuples but it sees the homology that
    shared short words miss in divergent families.
    """
    from bioplug.alphabet import load_matrix
    from bioplug.pairwise.aligner import PairwiseAligner

    matrix = load_matrix("NUC.4.4" if nucleotide else "BLOSUM62")
    aligner = PairwiseAligner(mode="local", substitution_matrix=matrix, device=device,
                              open_gap_score=-16 if nucleotide else -11,
                              extend_gap_score=-4 if nucleotide else -1)
    upper = [t.upper().replace("U", "T") if nucleotide else t.upper() for t in texts]
    scores = aligner.score_matrix(upper)
    self_score = np.maximum(np.diag(scores), 1.0)
    dist = 1.0 - scores / np.minimum.outer(self_score, self_score)
    np.clip(dist, 0.0, 1.0, out=dist)
    np.fill_diagonal(dist, 0.0)
    return dist


def matrix_tree(texts: list[str], nucleotide: bool, device=None,
                distances: str = "align") -> np.ndarray:
    """UPGMA on all-pairs distances (on the device): a (k-1, 4) linkage array."""
    k = len(texts)
    if k < 2:
        return np.empty((0, 4))
    if distances == "align":
        dist = alignment_distances(texts, nucleotide, device)
    else:
        dist = ktuple_distances(texts, k=4 if nucleotide else 2, device=device).to_numpy()
    return np.asarray(linkage(dist, method="average", device=device))


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
                  seed: int = 0, distances: str = "align") -> np.ndarray:
    """Guide tree without a k x k matrix: bisecting 2-means, then UPGMA inside the parts."""
    k = len(texts)
    points = (seed_embedding(texts, nucleotide, device) if distances == "align"
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


def guide_tree(texts: list[str], nucleotide: bool, max_matrix: int, device=None,
               seed: int = 0, distances: str = "align") -> np.ndarray:
    """The guide tree as a (k-1, 4) linkage array (see the module docstring).

    ``distances`` is "ktuple" (shared k-tuples, ClustalW's fast mode) or "align" (local
    alignment scores of all pairs, :func:`alignment_distances`).
    """
    if len(texts) <= max_matrix:
        return matrix_tree(texts, nucleotide, device, distances)
    log.info("%d sequences > %d: guide tree by bisecting k-tuple spectra", len(texts),
             max_matrix)
    return embedded_tree(texts, nucleotide, max_matrix, device, seed, distances)
