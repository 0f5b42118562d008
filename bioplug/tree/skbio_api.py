"""``nj`` with scikit-bio's signature (re-exported as :func:`bioplug.skbio.nj`)."""

from __future__ import annotations

import logging

from bioplug.tree import build

log = logging.getLogger(__name__)


def nj(dm, neg_as_zero: bool = True, result_constructor=None, inplace: bool = False, *,
       device=None):
    """Neighbor joining with :func:`skbio.tree.nj`'s interface, on an OpenCL device.

    Parameters
    ----------
    dm : skbio.DistanceMatrix
        Distances among taxa (numpy and Biopython matrices are accepted too).
    neg_as_zero : bool
        Turn negative branch lengths into zeros (default, as scikit-bio).
    result_constructor : callable, optional
        Deprecated in scikit-bio; applied to the Newick string of the result.
    inplace : bool
        Accepted for compatibility; the input is never modified.
    device : optional
        OpenCL device specification.

    Returns
    -------
    skbio.TreeNode
        The same unrooted tree as ``skbio.tree.nj`` (topology and branch lengths).
    """
    tree = build.nj(dm, neg_as_zero=neg_as_zero, device=device)
    if result_constructor is not None:
        return result_constructor(str(tree))
    return tree
