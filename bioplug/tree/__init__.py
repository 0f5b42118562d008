"""Distance matrices and neighbor-joining / UPGMA / WPGMA trees on the device.

Front doors
-----------
``linkage(dm, method="average"|"weighted")``
    scipy-style linkage matrix (UPGMA / WPGMA), e.g. for MSA guide trees.
``nj(dm)``, ``upgma(dm)``
    ``skbio.TreeNode`` trees from numpy, scikit-bio or Biopython distance matrices.
``DistanceTreeConstructor``
    Drop-in for ``Bio.Phylo.TreeConstruction.DistanceTreeConstructor``.
``distance_matrix(...)``
    Distances from sequences (k-tuple, alignment identity) or from an alignment (p-distance).
"""

from __future__ import annotations

from bioplug.tree.build import linkage, nj, upgma

__all__ = ["linkage", "nj", "upgma"]
