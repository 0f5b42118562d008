"""Stage III on the device: the weighted consistency transformation (Eq. 2), Jacobi passes.

Every stored S_xy is relaxed by one work-group of ``kernels/msa_consistency.cl`` (sparse x sparse
products with a binary search in the output row, no fill-in); entries below the pair's threshold
are dropped after each pass. Both orientations S_xy and S_yx are relaxed directly, which gives the
transpose without a transposition step. ``zlist`` selects the z sequences: all of them (the
paper), or a subset of anchors for large families (see :mod:`bioplug.msa.pipeline`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np
import pyopencl as cl

from bioplug.msa._kernels import kernel
from bioplug.msa.sparse import SparseStore

log = logging.getLogger(__name__)

#: Entries kept after the last pass (QuickProbs 2.06: no cutoff filtering after the last pass).
LAST_FLOOR = 1e-5
#: Accumulate output rows of up to CMAX entries in local memory (else in global memory).
LOCAL_ROWS = True


def relax(
    rt,
    store: SparseStore,
    weights: np.ndarray,
    zlist: np.ndarray,
    passes: int = 2,
    report: Callable[[int, int], None] | None = None,
    last_floor: float | None = None,
) -> SparseStore:
    """Run ``passes`` consistency passes over every stored pair.

    Parameters
    ----------
    rt : Runtime
        The device.
    store : SparseStore
        Stage I matrices; for each relaxed (x, y) and each z, S_xz and S_zy should be stored
        (missing ones are skipped).
    weights : numpy.ndarray
        (k,) sequence weights (ClustalW scheme).
    zlist : numpy.ndarray
        The z sequences of Eq. (2).
    passes : int
        Number of passes c.
    report : callable, optional
        ``report(done, total)`` between launches.
    last_floor : float, optional
        Keep entries down to this value after the last pass instead of the pairs' thresholds
        (QuickProbs 2 filters at 1e-5 after its last pass, :data:`LAST_FLOOR`: stage IV then
        sees the small transformed values that the cutoff would drop; no entry is added). None
        filters every pass alike.

    Returns
    -------
    SparseStore
        The transformed matrices (same rows, fewer or equal entries).
    """
    npairs = store.pair_x.size
    if passes <= 0 or npairs == 0 or store.nnz == 0:
        return store
    k = store.lengths.size
    wg = 64 if rt.is_gpu else 8
    wg = min(wg, rt.max_work_group)
    defines: dict = {"WG": wg}
    cmax = 48
    while cmax >= 8 and 8 * cmax * wg + 1024 > rt.local_mem:
        cmax //= 2
    if LOCAL_ROWS and cmax >= 8:
        defines["CMAX"] = cmax
    knl = kernel(rt, "msa_consistency.cl", "relax", defines)
    q = rt.queue
    d_px = rt.to_device(store.pair_x.astype(np.int32))
    d_py = rt.to_device(store.pair_y.astype(np.int32))
    d_pid = rt.to_device(store.pair_id.astype(np.int32).ravel())
    d_rb = rt.to_device(store.row_base.astype(np.int64))
    d_z = rt.to_device(np.asarray(zlist, dtype=np.int32))
    d_w = rt.to_device(np.asarray(weights, dtype=np.float32))
    total = passes * npairs
    done = 0
    for it in range(passes):
        # group tasks of similar row widths next to each other (less divergence per launch)
        widths = np.maximum.reduceat(np.diff(store.indptr), store.row_base[:-1]) \
            if store.indptr.size > 1 else np.zeros(npairs, np.int64)
        order = np.argsort(-widths, kind="stable").astype(np.int32)
        d_ip = rt.to_device(store.indptr)
        d_cols = rt.to_device(store.cols)
        d_vals = rt.to_device(store.vals)
        d_out = rt.empty(store.nnz * 4)
        chunk = max(1024, npairs // 20)
        for s in range(0, npairs, chunk):
            part = order[s:s + chunk]
            d_tasks = rt.to_device(part)
            knl(q, (part.size * wg,), (wg,), d_tasks, d_px, d_py, d_pid, d_rb, d_ip,
                       d_cols, d_vals, d_z, np.int32(len(zlist)), d_w, np.int32(k), d_out)
            q.finish()
            done += part.size
            if report is not None:
                report(done, total)
        out = np.empty(store.nnz, dtype=np.float32)
        cl.enqueue_copy(q, out, d_out)
        del d_ip, d_cols, d_vals, d_out
        store = store.filtered(out, last_floor if it == passes - 1 else None)
    return store
