"""UPGMA / WPGMA with scipy's merge order: the nearest-neighbour chain on the device.

``scipy.cluster.hierarchy.linkage(y, "average" | "weighted")`` (and so ``skbio.tree.upgma``
and scikit-bio's ``multi_align`` guide tree) runs the nearest-neighbour chain algorithm. Its
merges on tied distances come in another order than a global-minimum scan's
(:func:`bioplug.tree.build.linkage`), which changes the tree when a matrix has ties: on
scikit-bio's 100-taxon ``mp100.phy`` (70 distinct values) the two differ by an RF distance of
8. :func:`chain_linkage` follows the chain in ``kernels/tree_chain.cl`` (one work-group) and
returns scipy's linkage matrix bit for bit.
"""

from __future__ import annotations

import logging

import numpy as np
import pyopencl as cl

log = logging.getLogger(__name__)

KERNELS = "tree_chain.cl"


def condensed_size(m: int) -> int:
    """Number of items of a condensed matrix of ``m`` entries (scipy's ``num_obs_y``)."""
    n = int(round((1 + np.sqrt(1 + 8 * m)) / 2))
    if n * (n - 1) // 2 != m:
        raise ValueError("Incompatible vector size. It must be a binomial coefficient n "
                         "choose 2 for some integer n >= 2.")
    return n


def chain_linkage(dm: np.ndarray, device=None, weighted: bool = False) -> np.ndarray:
    """``scipy.cluster.hierarchy.linkage(dm, "weighted" if weighted else "average")``.

    Parameters
    ----------
    dm : numpy.ndarray
        Condensed distances (``n (n - 1) / 2`` values, float64 after conversion).
    device : str, int or Runtime, optional
        The OpenCL device (it needs ``cl_khr_fp64``).
    weighted : bool
        WPGMA (scipy's ``"weighted"``) instead of UPGMA (``"average"``).

    Returns
    -------
    numpy.ndarray, shape (n - 1, 4)
        scipy's linkage matrix: rows sorted by height (stably), clusters labelled in that
        order, the smaller label first.

    Raises
    ------
    ValueError
        Non-finite distances (scipy's message) or a size that is not ``n choose 2``.
    """
    from bioplug.runtime import get_runtime
    from bioplug.tree.build import scipy_relabel

    dm = np.array(dm, dtype=np.float64).ravel()  # a copy: the kernel updates it in place
    if not np.isfinite(dm).all():
        raise ValueError("The condensed distance matrix must contain only finite values.")
    n = condensed_size(dm.size)
    rt = device if hasattr(device, "kernel") else get_runtime(device)
    knl = rt.kernel(KERNELS, "nn_chain_linkage")
    wg = rt.preferred_group(knl, 256)
    wg = 1 << (wg.bit_length() - 1)  # the reductions halve it
    merges = rt.empty((n - 1) * 4 * 8)
    dist = cl.Buffer(rt.context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                     hostbuf=dm if dm.size else np.zeros(1))
    raw = np.empty((n - 1, 4), dtype=np.float64)
    knl(rt.queue, (wg,), (wg,), dist, np.int32(n), np.int32(bool(weighted)),
        rt.empty(n * 4), rt.empty(n * 4), merges, cl.LocalMemory(wg * 8),
        cl.LocalMemory(wg * 4))
    if n > 1:
        cl.enqueue_copy(rt.queue, raw, merges)
    return scipy_relabel(raw, n)
