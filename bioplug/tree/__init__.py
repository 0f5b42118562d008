"""Distance matrices and neighbor-joining / UPGMA / WPGMA trees on the device.

Front doors
-----------
``linkage(dm, method="average"|"weighted")``
    scipy-style linkage matrix (UPGMA / WPGMA), e.g. for MSA guide trees.
``nj(dm)``, ``upgma(dm)``
    ``skbio.TreeNode`` trees from numpy, scikit-bio or Biopython distance matrices.
``DistanceTreeConstructor``
    Drop-in for ``Bio.Phylo.TreeConstruction.DistanceTreeConstructor`` (trees on the device).
``distance_matrix(data, method="ktuple"|"clustalw-fast"|"identity"|"msa", correction=...)``
    Distances from sequences (k-tuple, ClustalW's fast pairwise, alignment identity) or an
    alignment (p-distance), as
    :class:`Distances` (``to_skbio``, ``to_biopython``, ``to_numpy``, ``write_phylip``).
``to_newick(tree)``, ``to_biophylo(tree, rooted)``
    Tree output.
"""

from __future__ import annotations

from bioplug.tree.build import linkage, nj, upgma
from bioplug.tree.clustalw import clustalw_fast_distances
from bioplug.tree.distance import (
    Distances,
    distance_matrix,
    identity_distances,
    ktuple_distances,
    msa_distances,
)
from bioplug.tree.phylo import DistanceTreeConstructor, to_biophylo, to_newick

__all__ = [
    "DistanceTreeConstructor",
    "Distances",
    "clustalw_fast_distances",
    "distance_matrix",
    "identity_distances",
    "ktuple_distances",
    "linkage",
    "msa_distances",
    "nj",
    "to_biophylo",
    "to_newick",
    "upgma",
]
