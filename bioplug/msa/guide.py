"""Stage II: UPGMA guide tree (``bioplug.tree.linkage``) and ClustalW sequence weights."""

from __future__ import annotations

import numpy as np

from bioplug.tree import linkage


def guide_tree(dist: np.ndarray, device=None) -> np.ndarray:
    """UPGMA on a square distance matrix, as a scipy-format (k-1, 4) linkage array."""
    k = dist.shape[0]
    if k < 2:
        return np.empty((0, 4))
    dist = np.asarray(dist, dtype=np.float64)
    return np.asarray(linkage(dist, method="average", device=device))


def clustalw_weights(link: np.ndarray, k: int) -> np.ndarray:
    """Sequence weights from the guide tree (MSAProbs/QuickProbs ``GuideTree`` scheme).

    Each child edge of a join at distance ``h`` has length ``h / 2``; a leaf's weight is the sum,
    over the edges on its path to the root, of edge length / leaves under the edge. The weights
    are normalised to sum to 1 (all equal when the sum is 0).

    Parameters
    ----------
    link : numpy.ndarray
        (k-1, 4) linkage rows (id1, id2, height, size).
    k : int
        Number of sequences.
    """
    if k == 1:
        return np.ones(1)
    nn = 2 * k - 1
    size = np.ones(nn)
    edge = np.zeros(nn)
    parent = np.full(nn, -1, dtype=np.int64)
    for t, (c1, c2, h, s) in enumerate(link):
        node = k + t
        size[node] = s
        for c in (int(c1), int(c2)):
            parent[c] = node
            edge[c] = 0.5 * h
    acc = np.zeros(nn)
    for node in range(nn - 2, -1, -1):  # parents are created after their children
        acc[node] = acc[parent[node]] + edge[node] / size[node]
    w = acc[:k]
    total = w.sum()
    return w / total if total > 0 else np.full(k, 1.0 / k)
