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
``bootstrap(alignment, replicates=100, seed=0, method="nj")``
    The NJ (or UPGMA) tree of an alignment with bootstrap support on every branch: the
    replicates' distances a batch per launch, their trees on the device loop.
``to_newick(tree)``, ``to_biophylo(tree, rooted)``
    Tree output.
"""

from __future__ import annotations

from bioplug._front_doors import front_doors

# Front doors resolve on first use: ``bioplug msa`` needs ``linkage`` only, and importing
# phylo.py (Bio.Phylo.TreeConstruction loads ~30 substitution matrices) or the distance
# modules up front costs every command-line call tens of milliseconds.
_FRONT_DOORS = {
    "bootstrap": "support", "linkage": "build", "nj": "build", "upgma": "build",
    "clustalw_fast_distances": "clustalw",
    "Distances": "distance", "distance_matrix": "distance", "identity_distances": "distance",
    "ktuple_distances": "distance", "msa_distances": "distance",
    "DistanceTreeConstructor": "phylo", "to_biophylo": "phylo", "to_newick": "phylo",
}

__all__ = sorted(_FRONT_DOORS)
# No module may be named as a front door: importing it would bind the module to that name
# here, hiding the function (``bootstrap`` lives in support.py).


__getattr__, __dir__ = front_doors(__name__, _FRONT_DOORS)
