"""Biopython side: trees as ``Bio.Phylo`` objects and a drop-in ``DistanceTreeConstructor``."""

from __future__ import annotations

import io

from Bio.Phylo.BaseTree import Clade, Tree
from Bio.Phylo.TreeConstruction import DistanceTreeConstructor as _BioConstructor

from bioplug.tree import build


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
    """Newick text of a ``skbio.TreeNode`` (one line, ending in ``;`` and a newline)."""
    handle = io.StringIO()
    node.write(handle, format="newick")
    return handle.getvalue()


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
    :meth:`upgma` builds a true UPGMA tree (average linkage, ultrametric), which is what
    scikit-bio and scipy compute; Biopython's own ``upgma`` uses a different branch-length
    rule, so branch lengths (not the clustering order) can differ from Biopython's.
    """

    def __init__(self, distance_calculator=None, method: str = "nj", device=None):
        super().__init__(distance_calculator, method)
        self.device = device

    def nj(self, distance_matrix) -> Tree:
        """Neighbor-joining tree (unrooted) from a distance matrix."""
        node = build.nj(distance_matrix, neg_as_zero=False, device=self.device)
        return to_biophylo(node, rooted=False)

    def upgma(self, distance_matrix) -> Tree:
        """UPGMA tree (rooted) from a distance matrix."""
        return to_biophylo(build.upgma(distance_matrix, device=self.device), rooted=True)

    def build_tree(self, msa) -> Tree:
        """Distances from ``msa`` (the calculator, else device p-distance), then the tree."""
        if self.distance_calculator is not None:
            return super().build_tree(msa)
        from bioplug.tree.distance import msa_distances

        dm = msa_distances(msa, device=self.device)
        return self.upgma(dm) if self.method == "upgma" else self.nj(dm)
