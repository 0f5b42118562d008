"""Biopython side: trees as ``Bio.Phylo`` objects and a drop-in ``DistanceTreeConstructor``."""

from __future__ import annotations

import bisect
import io

import numpy as np
from Bio.Phylo.BaseTree import Clade, Tree
from Bio.Phylo.TreeConstruction import DistanceTreeConstructor as _BioConstructor

from bioplug.faults import device_guard
from bioplug.tree import build
from bioplug.tree.matrix import as_matrix
from bioplug.tree.newick import newick_label


def to_biophylo(node, rooted: bool) -> Tree:
    """A ``Bio.Phylo.BaseTree.Tree`` from a ``skbio.TreeNode`` (iterative; deep trees are fine).

    Unnamed internal nodes are called ``Inner1``, ``Inner2``, ... as Biopython's constructor
    names them.
    """
    clades: dict[int, Clade] = {}
    inner = 0
    for n in node.postorder(include_self=True):
        name = n.name
        if name is None and not n.is_tip():
            inner += 1
            name = f"Inner{inner}"
        clade = Clade(branch_length=n.length if n.length is not None else None, name=name)
        clade.clades = [clades.pop(id(c)) for c in n.children]
        clades[id(n)] = clade
    root = clades[id(node)]
    if root.branch_length is None:
        root.branch_length = 0
    return Tree(root=root, rooted=rooted)


def to_newick(node) -> str:
    """Newick text of a ``skbio.TreeNode`` (one line, ending in ``;`` and a newline).

    The layout is scikit-bio's writer's (iterative, so deep trees are fine; lengths as
    ``str``), but labels are quoted by :func:`newick_label`: scikit-bio leaves a label with a
    ``'`` and no operator unquoted (``d'4`` as ``d''4``, which Bio.Phylo reads as ``4``) and
    writes spaces as ``_``, which Bio.Phylo keeps as ``_``.
    """
    handle = io.StringIO()
    depth = 0
    pending = [(node, 0)]
    while pending:
        entry = pending.pop()
        current, level = entry
        if current.children and level >= depth:
            handle.write("(")
            pending.append(entry)
            pending.extend((child, level + 1) for child in reversed(current.children))
            depth = level + 1
            continue
        if level < depth:
            handle.write(")")
            depth -= 1
        label = current._node_label()  # the name, or the support scikit-bio writes there
        if label:
            handle.write(newick_label(label))
        if current.length is not None:
            handle.write(f":{current.length}")
        if pending and pending[-1][1] == depth:
            handle.write(",")
    handle.write(";\n")
    return handle.getvalue()


class _BioReplay:
    """Biopython's list bookkeeping for a join order found on the device.

    Biopython's constructor keeps its clusters in a list: a join of the clusters at
    positions ``i > j`` puts the new cluster at ``j`` and deletes ``i``, so positions stay
    ordered by each cluster's smallest leaf index (its *slot* here). Knowing the pairs the
    device joined, this replays Biopython's O(n) per-join updates in its own arithmetic and
    order (row updates, sequential row sums), so child order, ``Inner`` names, branch
    lengths and the root are Biopython's. The O(n^2)-per-join pair searches stay on the
    device.
    """

    def __init__(self, distance_matrix):
        self.names = list(distance_matrix.names)
        n = len(self.names)
        self.d = np.zeros((n, n))
        for a, row in enumerate(distance_matrix.matrix):
            self.d[a, : a + 1] = row
        upper = np.triu_indices(n, k=1)
        self.d[upper] = self.d.T[upper]  # Biopython reads dm[i, j], i < j, from row j
        self.active = list(range(n))  # slots in Biopython's position order
        self.clades = {k: Clade(None, name) for k, name in enumerate(self.names)}
        self.inner = 0

    def positions(self, s1: int, s2: int) -> tuple[int, int]:
        return bisect.bisect_left(self.active, s1), bisect.bisect_left(self.active, s2)

    def new_clade(self, first: int, second: int) -> Clade:
        """Biopython's ``Inner<k>`` holding the clusters at slots ``first``, ``second``."""
        self.inner += 1
        clade = Clade(None, f"Inner{self.inner}")
        clade.clades.extend([self.clades[first], self.clades[second]])
        return clade

    def merge(self, keep: int, drop: int, clade: Clade, row: np.ndarray) -> None:
        """The new cluster in slot ``keep`` (Biopython's position ``min_j``) with distances
        ``row`` to the active slots; slot ``drop`` leaves."""
        self.d[keep, self.active] = row
        self.d[self.active, keep] = row
        self.clades[keep] = clade
        self.active.remove(drop)
        self.clades.pop(drop)

    def row_sum(self, slot: int) -> float:
        """Biopython's ``node_dist`` numerator: a sequential sum in position order."""
        return float(np.cumsum(self.d[slot, self.active])[-1])


def _as_biopython(dm):
    """A Biopython ``DistanceMatrix`` (validated: NaN, inf, negative values and asymmetry
    are :class:`~bioplug.errors.InputError`) from any matrix :func:`as_matrix` takes."""
    from Bio.Phylo.TreeConstruction import DistanceMatrix

    data, names = as_matrix(dm)
    if isinstance(dm, DistanceMatrix):
        return dm
    return DistanceMatrix(names, [data[a, : a + 1].tolist() for a in range(len(names))])


def _slots(pairs: np.ndarray, n: int) -> list[tuple[int, int]]:
    """Join rows of cluster ids (leaves 0..n-1, the k-th join n + k) as slot pairs."""
    slot = list(range(n))
    out = []
    for c1, c2 in pairs.astype(np.int64).tolist():  # one step per join (glue)
        a, b = slot[c1], slot[c2]
        out.append((a, b))
        slot.append(min(a, b))
    return out


def biopython_upgma(distance_matrix, link: np.ndarray) -> Tree:
    """Biopython's ``upgma`` tree (its WPGMA update, its branch lengths) from the join order
    ``link`` (scipy rows of WPGMA on the device)."""
    rep = _BioReplay(distance_matrix)
    height = {k: 0.0 for k in range(len(rep.names))}
    clade = None
    for a, b in _slots(link[:, :2], len(rep.names)):  # one step per join (glue, O(n) each)
        pj, pi = sorted(rep.positions(a, b))
        si, sj = rep.active[pi], rep.active[pj]
        min_dist = float(rep.d[si, sj])
        clade = rep.new_clade(si, sj)
        for child, s in zip(clade.clades, (si, sj), strict=True):
            child.branch_length = min_dist * 1.0 / 2 - height[s]
        height[sj] = max(height[s] + c.branch_length
                         for s, c in zip((si, sj), clade.clades, strict=True))
        row = (rep.d[si, rep.active] + rep.d[sj, rep.active]) / 2
        row[rep.active.index(sj)] = 0.0
        row[rep.active.index(si)] = rep.d[sj, si]
        rep.merge(sj, si, clade, row)
    clade.branch_length = 0
    return Tree(clade)


def _nj_join(rep: _BioReplay, si: int, sj: int) -> None:
    """One Biopython NJ join of the clusters at slots ``si`` (its ``min_i``) and ``sj``."""
    count = len(rep.active) - 2
    nd_i, nd_j = rep.row_sum(si) / count, rep.row_sum(sj) / count
    dij = float(rep.d[si, sj])
    clade = rep.new_clade(si, sj)
    first, second = clade.clades
    first.branch_length = (dij + nd_i - nd_j) / 2.0
    second.branch_length = dij - first.branch_length
    row = (rep.d[si, rep.active] + rep.d[sj, rep.active] - dij) / 2.0
    # Biopython stores the new cluster at min_j and deletes min_i; when min_i < min_j (its
    # untouched initial pair) the deletion shifts it down: either way the smaller position
    keep, drop = min(si, sj), max(si, sj)
    row[rep.active.index(keep)] = 0.0
    row[rep.active.index(drop)] = dij
    rep.merge(keep, drop, clade, row)


def biopython_nj(distance_matrix, link: np.ndarray) -> Tree:
    """Biopython's ``nj`` tree from the joins the device made (``link``: scikit-bio ``_nj``
    rows, n >= 4). The joins among four and three clusters, where the Q criterion ties in
    exact arithmetic (complementary pairs of four, every pair of three), are decided by
    Biopython's own float comparisons here."""
    rep = _BioReplay(distance_matrix)
    n = len(rep.names)
    for a, b in _slots(link[: n - 4, :2], n):  # one step per join (glue, O(n) each)
        pa, pb = rep.positions(a, b)
        if {pa, pb} == {0, 1}:  # Biopython's initial (min_i, min_j) = (0, 1) was kept
            si, sj = rep.active[0], rep.active[1]
        else:
            si, sj = rep.active[max(pa, pb)], rep.active[min(pa, pb)]
        _nj_join(rep, si, sj)
    while len(rep.active) > 2:
        _nj_join(rep, *_scan_nj_pair(rep))
    c0, c1 = rep.clades[rep.active[0]], rep.clades[rep.active[1]]
    dist = float(rep.d[rep.active[1], rep.active[0]])
    if c0.name == f"Inner{rep.inner}":
        c0.branch_length, c1.branch_length = 0, dist
        c0.clades.append(c1)
        return Tree(c0, rooted=False)
    c0.branch_length, c1.branch_length = dist, 0
    c1.clades.append(c0)
    return Tree(c1, rooted=False)


def _scan_nj_pair(rep: _BioReplay) -> tuple[int, int]:
    """Biopython's own pick among the few clusters left (its scan and float rounding):
    slots ``(min_i, min_j)``."""
    at = rep.active
    nd = [rep.row_sum(s) / (len(at) - 2) for s in at]
    d = rep.d
    best = d[at[1], at[0]] - nd[1] - nd[0]
    pick = (0, 1)
    for i in range(1, len(at)):
        for j in range(i):
            q = d[at[i], at[j]] - nd[i] - nd[j]
            if best > q:
                best, pick = q, (i, j)
    return at[pick[0]], at[pick[1]]


class DistanceTreeConstructor(_BioConstructor):
    """``Bio.Phylo.TreeConstruction.DistanceTreeConstructor`` with NJ and UPGMA on the device.

    Parameters
    ----------
    distance_calculator : Bio.Phylo.TreeConstruction.DistanceCalculator, optional
        Used by :meth:`build_tree` as in Biopython. Without one, :meth:`build_tree` uses
        bioplug's device p-distance (gaps excluded) instead of raising.
    method : {"nj", "upgma"}
        Method for :meth:`build_tree`.
    device : optional
        OpenCL device specification.

    Notes
    -----
    The trees are Biopython's: the device finds each join (the O(n^2) searches), and
    Biopython's own O(n) bookkeeping is replayed on the host (:class:`_BioReplay`), so child
    order, ``Inner`` names, branch lengths and the root match, and so Biopython's own
    ``Tests/test_TreeConstruction.py`` passes with this class swapped in. As in Biopython,
    :meth:`upgma` is WPGMA (a new cluster's distance is the mean of its two parts'), not
    scipy's average linkage; :func:`bioplug.tree.upgma` builds that. Pairs of exactly equal
    distance may be joined in another order than Biopython's scan would join them.
    """

    def __init__(self, distance_calculator=None, method: str = "nj", device=None):
        super().__init__(distance_calculator, method)
        self.device = device

    @device_guard
    def nj(self, distance_matrix) -> Tree:
        """Neighbor-joining tree (unrooted) from a Biopython ``DistanceMatrix``, as
        Biopython's ``nj`` builds it (other matrix types are accepted too)."""
        bio = _as_biopython(distance_matrix)
        if len(bio) < 5:  # Biopython's special cases and ties: no search to speed up
            return super().nj(bio)
        data, _ = as_matrix(bio)
        return biopython_nj(bio, build.nj_linkage(data, self.device))

    @device_guard
    def upgma(self, distance_matrix) -> Tree:
        """Biopython's ``upgma`` tree (rooted) from a Biopython ``DistanceMatrix`` (other
        matrix types are accepted too)."""
        bio = _as_biopython(distance_matrix)
        if len(bio) < 3:
            return super().upgma(bio)
        return biopython_upgma(bio, build.linkage(bio, "weighted", device=self.device))

    @device_guard
    def build_tree(self, msa) -> Tree:
        """Distances from ``msa`` (the calculator, else device p-distance), then the tree."""
        if self.distance_calculator is not None:
            return super().build_tree(msa)
        from bioplug.tree.distance import msa_distances

        dm = msa_distances(msa, device=self.device)
        return self.upgma(dm) if self.method == "upgma" else self.nj(dm)
