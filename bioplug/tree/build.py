"""Tree pipeline: validated matrix -> device run -> linkage -> TreeNode / Bio.Phylo / Newick."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from bioplug.errors import InputError
from bioplug.faults import device_guard
from bioplug.progress import Progress, ProgressCallback
from bioplug.tree.device import run_agglomerative
from bioplug.tree.matrix import as_matrix

log = logging.getLogger(__name__)


def scipy_relabel(raw: np.ndarray, n: int) -> np.ndarray:
    """Greedy join rows ``(id_i, id_j, height, size)`` -> scipy's linkage convention.

    Rows are stably sorted by height and clusters renumbered in that order (as
    ``scipy.cluster.hierarchy.linkage`` does), with the smaller id first in each row.
    """
    m = raw.shape[0]
    rep = np.arange(n + m)
    a = raw[:, 0].astype(np.int64)
    b = raw[:, 1].astype(np.int64)
    for step in range(m):  # one step per join (glue): a leaf representing each cluster
        rep[n + step] = rep[a[step]]
    order = np.argsort(raw[:, 2], kind="mergesort")
    x = rep[a[order]]
    y = rep[b[order]]
    parent = np.arange(n + m)
    size = np.ones(n + m)

    def find(v: int) -> int:
        root = v
        while parent[root] != root:
            root = parent[root]
        while parent[v] != root:
            parent[v], v = root, parent[v]
        return root

    out = np.empty((m, 4))
    for k in range(m):  # one step per join (glue)
        rx, ry = find(int(x[k])), find(int(y[k]))
        lo, hi = (rx, ry) if rx < ry else (ry, rx)
        new = n + k
        parent[rx] = parent[ry] = new
        size[new] = size[rx] + size[ry]
        out[k] = lo, hi, raw[order[k], 2], size[new]
    return out


def _prepare(dm, ids) -> tuple[np.ndarray, list[str]]:
    """Validated matrix and ids for linkage (negative values allowed, as in scipy)."""
    data, names = as_matrix(dm, ids, allow_negative=True)
    n = len(names)
    if n == 0:
        raise InputError("the distance matrix is empty (no taxa)")
    return data, names


@device_guard
def linkage(
    dm,
    method: str = "average",
    device=None,
    dtype=np.float64,
    progress: ProgressCallback | None = None,
) -> np.ndarray:
    """UPGMA / WPGMA on the device, as ``scipy.cluster.hierarchy.linkage``.

    Parameters
    ----------
    dm : ndarray, skbio.DistanceMatrix or Bio.Phylo.TreeConstruction.DistanceMatrix
        Square or condensed distances of ``k`` items (negative values are accepted, as
        scipy does; NaN/inf, asymmetry and a non-zero diagonal are :class:`InputError`).
    method : {"average", "weighted"}
        ``"average"`` = UPGMA, ``"weighted"`` = WPGMA.
    device : optional
        OpenCL device specification or :class:`~bioplug.runtime.Runtime`.
    dtype : numpy dtype
        Device precision, float64 (default) or float32.
    progress : callable, optional
        ``callback(stage, done, total)``.

    Returns
    -------
    ndarray, shape (k - 1, 4)
        Rows ``(id1, id2, height, size)``: leaves are 0..k-1, the cluster made in row ``t`` is
        ``k + t``; ``id1 < id2``; rows sorted by height. Ties in the minimum are broken on
        the smallest (i, j) slot pair, so results do not depend on the device.
    """
    if method not in ("average", "weighted"):
        raise InputError(f"linkage method must be 'average' or 'weighted', not {method!r}")
    data, names = _prepare(dm, None)
    n = len(names)
    if n < 2:
        return np.empty((0, 4))
    raw = run_agglomerative(data, n, method, device, Progress(progress), dtype=dtype)
    return scipy_relabel(raw, n)


def nj_linkage(
    data: np.ndarray, device=None, dtype=np.float64, progress: ProgressCallback | None = None
) -> np.ndarray:
    """NJ rows in scikit-bio's ``_nj`` layout ``(c1, c2, length1, length2)`` (``n >= 3``)."""
    n = data.shape[0]
    return run_agglomerative(data, n, "nj", device, Progress(progress), dtype=dtype)


# -- trees out ----------------------------------------------------------------------------------
def treenode_from_nj(link: np.ndarray, names: Sequence[str], neg_as_zero: bool = True):
    """An unrooted ``skbio.TreeNode`` (trifurcating root) from NJ rows, as scikit-bio builds it."""
    from skbio import TreeNode

    n = len(names)
    nodes = [TreeNode(name=x) for x in names] + [TreeNode() for _ in range(n - 2)]

    def length(v: float) -> float:
        return v if (v >= 0 or not neg_as_zero) else 0.0

    idx = n
    for c1, c2, l1, l2 in link[:-2]:  # one step per join (glue)
        a, b = nodes[int(c1)], nodes[int(c2)]
        a.length, b.length = length(float(l1)), length(float(l2))
        nodes[idx].extend([a, b], uncache=False)
        idx += 1
    (c0, _, l0, _), (c1, c2, l1, l2) = link[-1], link[-2]
    a, b, c = nodes[int(c0)], nodes[int(c1)], nodes[int(c2)]
    a.length, b.length, c.length = length(float(l0)), length(float(l1)), length(float(l2))
    root = nodes[-1]
    root.extend([a, b, c], uncache=False)
    return root


def treenode_from_linkage(link: np.ndarray, names: Sequence[str]):
    """A rooted ultrametric ``skbio.TreeNode`` from a scipy linkage (as ``skbio.tree.upgma``)."""
    from skbio import TreeNode

    n = len(names)
    nodes = [TreeNode(name=x) for x in names]
    heights = np.zeros(n + len(link))
    for k, (c1, c2, h, _) in enumerate(link):  # one step per join (glue)
        a, b = nodes[int(c1)], nodes[int(c2)]
        node = TreeNode()
        a.length = float(h / 2 - heights[int(c1)])
        b.length = float(h / 2 - heights[int(c2)])
        heights[n + k] = h / 2
        node.extend([a, b], uncache=False)
        nodes.append(node)
    return nodes[-1]


def small_tree(data: np.ndarray, names: Sequence[str]):
    """Trees for one taxon (a leaf) or two (one branch, split at its midpoint)."""
    from skbio import TreeNode

    if len(names) == 1:
        return TreeNode(name=names[0])
    half = float(data[0, 1]) / 2
    root = TreeNode()
    root.extend([TreeNode(name=names[0], length=half), TreeNode(name=names[1], length=half)])
    return root


@device_guard
def nj(
    dm,
    neg_as_zero: bool = True,
    device=None,
    ids: Sequence[str] | None = None,
    dtype=np.float64,
    progress: ProgressCallback | None = None,
):
    """Neighbor-joining tree on the device (same trees as ``skbio.tree.nj``).

    Parameters
    ----------
    dm : ndarray, skbio.DistanceMatrix or Bio.Phylo.TreeConstruction.DistanceMatrix
        Distances among taxa (square or condensed numpy data).
    neg_as_zero : bool
        Turn negative branch lengths into zeros (scikit-bio's default).
    device : optional
        OpenCL device specification or :class:`~bioplug.runtime.Runtime`.
    ids : sequence of str, optional
        Taxon names (numpy input; default "0", "1", ...).
    dtype : numpy dtype
        Device precision, float64 (default) or float32.
    progress : callable, optional
        ``callback(stage, done, total)``.

    Returns
    -------
    skbio.TreeNode
        Unrooted tree (three children at the root). One taxon gives a leaf, two taxa a single
        branch split at its midpoint.
    """
    data, names = as_matrix(dm, ids)
    if len(names) == 0:
        raise InputError("the distance matrix is empty (no taxa)")
    if len(names) < 3:
        return small_tree(data, names)
    link = nj_linkage(data, device, dtype, progress)
    return treenode_from_nj(link, names, neg_as_zero)


@device_guard
def upgma(
    dm,
    weighted: bool = False,
    device=None,
    ids: Sequence[str] | None = None,
    dtype=np.float64,
    progress: ProgressCallback | None = None,
):
    """UPGMA (or WPGMA with ``weighted=True``) tree on the device (as ``skbio.tree.upgma``).

    Parameters
    ----------
    dm : ndarray, skbio.DistanceMatrix or Bio.Phylo.TreeConstruction.DistanceMatrix
        Distances among taxa.
    weighted : bool
        WPGMA instead of UPGMA.
    device, ids, dtype, progress
        As for :func:`nj`.

    Returns
    -------
    skbio.TreeNode
        Rooted ultrametric tree. In float64 (default, on devices with float64) the merges
        follow scipy's nearest-neighbour chain (:mod:`bioplug.tree.chain`), so tied distances
        give scikit-bio's tree; float32 joins the global minimum first (ties on the smallest
        slot pair).
    """
    data, names = as_matrix(dm, ids)
    if len(names) == 0:
        raise InputError("the distance matrix is empty (no taxa)")
    if len(names) < 2:
        return small_tree(data, names)
    method = "weighted" if weighted else "average"
    if np.dtype(dtype) == np.float64 and _has_fp64(device):
        # scipy's nearest-neighbour chain: scikit-bio's merge order when distances tie
        from bioplug.tree.chain import chain_linkage

        Progress(progress).report("tree", 0, 1)
        iu = np.triu_indices(len(names), k=1)
        link = chain_linkage(data[iu], device, weighted=weighted)
        Progress(progress).report("tree", 1, 1)
        return treenode_from_linkage(link, names)
    raw = run_agglomerative(data, len(names), method, device, Progress(progress),
                            dtype=dtype)
    return treenode_from_linkage(scipy_relabel(raw, len(names)), names)


def _has_fp64(device) -> bool:
    from bioplug.runtime import get_runtime

    rt = device if hasattr(device, "kernel") else get_runtime(device)
    return bool(rt.info.fp64)
