"""``nj`` with scikit-bio's signature (re-exported as :func:`bioplug.skbio.nj`)."""

from __future__ import annotations

import logging
import sys
import warnings

import numpy as np

from bioplug.errors import InputError
from bioplug.tree import build

log = logging.getLogger(__name__)

#: Element types scikit-bio 0.7.4's ``nj`` computes with (its Cython kernel has no others).
_SKBIO_FLOATS = (np.float32, np.float64)


def _is_skbio_matrix(dm) -> bool:
    return hasattr(dm, "ids") and hasattr(dm, "data")


def _taxon_count(dm) -> int:
    """Number of taxa of any input :func:`bioplug.tree.build.nj` takes."""
    if _is_skbio_matrix(dm):
        return len(dm.ids)
    if hasattr(dm, "names") and hasattr(dm, "matrix"):  # Biopython
        return len(dm.names)
    shape = np.shape(dm)
    if len(shape) == 1:  # condensed
        return int(round((1 + np.sqrt(1 + 8 * shape[0])) / 2))
    return shape[0] if shape else 0


def _user_stacklevel() -> int:
    """``stacklevel`` that points a warning of :func:`nj` at the user's line (through
    :func:`bioplug.skbio.nj` or directly)."""
    caller = sys._getframe(2)  # 0: here, 1: nj, 2: whoever called nj
    return 3 if caller.f_globals.get("__name__") == "bioplug.skbio" else 2


def replay_inplace(data: np.ndarray, link: np.ndarray) -> None:
    """Leave ``data`` as scikit-bio's in-place ``_nj`` leaves its distance matrix.

    scikit-bio's ``nj(dm, inplace=True)`` uses the matrix as its working memory: at each
    join it overwrites row and column ``i`` with the new cluster's distances and moves the
    last active row and column into ``j``. This repeats those O(n) updates for the joins of
    ``link`` (the tree itself comes from the device), so the input holds what scikit-bio
    would leave whenever it joins the same pairs (near-ties may be joined in another,
    equivalent order).

    Parameters
    ----------
    data : numpy.ndarray
        The (n, n) float matrix, modified in place.
    link : numpy.ndarray
        NJ rows ``(c1, c2, length1, length2)`` in scikit-bio's ``_nj`` layout.
    """
    n_taxa = n = data.shape[0]
    idxs = np.arange(n_taxa)  # cluster at each active position
    pos = {k: k for k in range(n_taxa)}  # position of each active cluster
    for c1, c2, _, _ in link[: n_taxa - 3]:  # one join per step (glue, O(n) each)
        i, j = pos.pop(int(c1)), pos.pop(int(c2))
        dm = data[:n, :n]
        half = dm[i, j] / 2
        dm[i] += dm[j]
        dm[i] /= 2
        dm[i] -= half
        dm[:, i] = dm[i]
        last = n - 1
        dm[j] = dm[last]
        dm[:, j] = dm[:, last]
        new = 2 * n_taxa - n
        idxs[i] = new
        pos[new] = i
        if j != last:
            idxs[j] = idxs[last]
            pos[int(idxs[j])] = j
        n -= 1


def nj(dm, neg_as_zero: bool = True, result_constructor=None, inplace: bool = False, *,
       device=None, disallow_negative_branch_length: bool | None = None):
    """Neighbor joining with :func:`skbio.tree.nj`'s interface, on an OpenCL device.

    Parameters
    ----------
    dm : skbio.DistanceMatrix
        Distances among taxa, at least 3 (numpy and Biopython matrices are accepted too).
        As in scikit-bio, a ``DistanceMatrix`` must hold float32 or float64 data.
    neg_as_zero : bool
        Turn negative branch lengths into zeros (default, as scikit-bio).
    result_constructor : callable, optional
        Deprecated in scikit-bio (a ``DeprecationWarning``); applied to the Newick string
        of the result.
    inplace : bool
        As in scikit-bio, the input's data is used as working memory and its original
        values are lost: it is left as scikit-bio's in-place algorithm leaves it (see
        :func:`replay_inplace`). False (default) leaves the input untouched.
    device : optional
        OpenCL device specification.
    disallow_negative_branch_length : bool, optional
        Deprecated alias of ``neg_as_zero`` (a ``DeprecationWarning``, as in scikit-bio).

    Returns
    -------
    skbio.TreeNode
        The same unrooted tree as ``skbio.tree.nj`` (topology and branch lengths).

    Raises
    ------
    ValueError
        Fewer than 3 taxa (scikit-bio's message), or an invalid matrix (an
        :class:`~bioplug.errors.InputError`, which is a ``ValueError``).
    TypeError
        A ``DistanceMatrix`` whose data are not float32 or float64 (integers, float16), as
        scikit-bio raises.
    """
    if disallow_negative_branch_length is not None:
        warnings.warn(
            "`nj`'s parameter `disallow_negative_branch_length` was renamed to `neg_as_zero` "
            "in 0.6.3. The old name is kept as an alias but is deprecated.",
            DeprecationWarning, stacklevel=_user_stacklevel(),
        )
        neg_as_zero = disallow_negative_branch_length
    if result_constructor is not None:
        warnings.warn(
            "`nj` has been deprecated since 0.6.3. `result_constructor` is deprecated and "
            "will be removed in a future release.",
            DeprecationWarning, stacklevel=_user_stacklevel(),
        )
    if _taxon_count(dm) < 3:
        raise InputError("Distance matrix must be at least 3x3 to generate a tree.")
    target = None
    if _is_skbio_matrix(dm):
        data = dm.data
        if np.dtype(data.dtype).type not in _SKBIO_FLOATS:
            raise TypeError(
                f"No matching signature found: scikit-bio's nj computes with float32 or "
                f"float64 distances, not {data.dtype}"
            )
        if inplace and isinstance(data, np.ndarray) and data.ndim == 2:
            target = data  # scikit-bio converts a condensed matrix first: that one is a copy
    data, names = build.as_matrix(dm)
    link = build.nj_linkage(data, device)
    if target is not None:
        replay_inplace(target, link)
    tree = build.treenode_from_nj(link, names, neg_as_zero)
    if result_constructor is not None:
        return result_constructor(str(tree))
    return tree


def upgma(dm, weighted=False, *, device=None):
    """UPGMA / WPGMA with :func:`skbio.tree.upgma`'s interface, on an OpenCL device.

    scikit-bio's ``upgma`` is scipy's average (or weighted) linkage, computed by scipy's
    nearest-neighbour chain; here the chain runs on the device
    (:func:`bioplug.tree.chain.chain_linkage`), so merges on tied distances come in scipy's
    order and the tree is scikit-bio's, ties included.

    Parameters
    ----------
    dm : skbio.DistanceMatrix
        Distances among at least 3 taxa (numpy and Biopython matrices are accepted too).
    weighted : bool
        WPGMA instead of UPGMA. As in scikit-bio, only the object ``False`` selects UPGMA
        (scikit-bio tests ``weighted is False``).
    device : optional
        OpenCL device specification (a device with float64).

    Returns
    -------
    skbio.TreeNode
        The rooted ultrametric tree ``skbio.tree.upgma`` returns.

    Raises
    ------
    ValueError
        Fewer than 3 taxa (scikit-bio's message), non-finite distances (scipy's message), or
        an invalid numpy / Biopython matrix (:class:`~bioplug.errors.InputError`).

    Examples
    --------
    >>> from skbio import DistanceMatrix
    >>> from bioplug.skbio import upgma
    >>> dm = DistanceMatrix([[0, 1, 2], [1, 0, 3], [2, 3, 0]], list('abc'))
    >>> print(upgma(dm, device="cpu"))
    (c:1.25,(a:0.5,b:0.5):0.75);
    <BLANKLINE>
    """
    from skbio import TreeNode

    from bioplug.tree.chain import chain_linkage

    if _taxon_count(dm) < 3:
        raise InputError("Distance matrix must be at least 3x3 to generate a tree.")
    if _is_skbio_matrix(dm):
        condensed, names = dm.condensed_form(), list(dm.ids)
    else:
        data, names = build.as_matrix(dm)
        condensed = data[np.triu_indices(len(names), k=1)]
    link = chain_linkage(condensed, device, weighted=weighted is not False)
    return TreeNode.from_linkage_matrix(link, names)
