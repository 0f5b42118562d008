"""Stage III on the device: the weighted consistency transformation (Eq. 2), Jacobi passes.

Every stored S_xy is relaxed by one work-group of ``kernels/msa_consistency.cl`` (sparse x sparse
products with a binary search in the output row, no fill-in); entries below the pair's threshold
are dropped after each pass, on the device (``kept_count``, :func:`inclusive_sum`,
``kept_copy``), so the matrices go up once and come back once. Both orientations S_xy and
S_yx are relaxed directly, which gives the transpose without a transposition step. ``zlist``
selects the z sequences: all of them (the paper), or a subset of anchors for large families
(see :mod:`bioplug.msa.pipeline`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

from bioplug.msa._kernels import kernel
from bioplug.msa.sparse import DeviceCSR, SparseStore

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
    on_device: bool = False,
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
    on_device : bool
        Leave the result's entries on the device (``store.device``, for stage IV). A store
        that arrives with ``device`` entries is read from there either way.

    Returns
    -------
    SparseStore
        The transformed matrices (same rows, fewer or equal entries).
    """
    npairs = store.pair_x.size
    if passes <= 0 or npairs == 0 or store.nnz == 0:
        return store if on_device else store.on_host(rt.queue)
    knl, wg = _relax_kernel(rt)
    tables = _pair_tables(rt, store, weights, zlist)
    rows = _Rows.upload(rt, store)
    order = _launch_order(store)   # pairs of similar row widths side by side (less divergence)
    total, done = passes * npairs, 0
    for it in range(passes):
        out = rt.empty(rows.nnz * 4)
        chunk = max(1024, npairs // 20)
        for s in range(0, npairs, chunk):
            part = order[s:s + chunk]
            knl(rt.queue, (part.size * wg,), (wg,), rt.to_device(part), *tables[:4],
                rows.indptr, rows.cols, rows.vals, tables[4], np.int32(len(zlist)), tables[5],
                np.int32(store.lengths.size), out)
            rt.queue.finish()
            done += part.size
            if report is not None:
                report(done, total)
        rows = rows.kept(rt, store, out, last_floor if it == passes - 1 else None)
    return rows.download(rt, store, entries=not on_device)


#: Work-group size of the pass kernel on GPUs (a pair's rows spread over its work-items),
#: and the most entries of a row kept in local memory (``CMAX``; wider rows take the global
#: path, same bits), within a quarter of the device's local memory. On the H100 (120 x 2,000,
#: two passes, ``benchmarks/RESULTS.md``) 64 work-items took 5.5-5.7 s, 256 3.2-3.3 s and
#: 1,024 3.1 s, and with 256 the local rows (8 or 16 entries) were no faster than global.
RELAX_GROUP = 256
RELAX_CMAX = 48


def _relax_kernel(rt) -> tuple[cl.Kernel, int]:
    """The pass kernel and its work-group size (rows of up to CMAX entries in local memory)."""
    def relax_at(wg: int) -> cl.Kernel:
        defines: dict = {"WG": wg}
        cmax = RELAX_CMAX
        while cmax >= 8 and 8 * cmax * wg > rt.local_mem // 4:
            cmax //= 2
        if LOCAL_ROWS and cmax >= 8:
            defines["CMAX"] = cmax
        return kernel(rt, "msa_consistency.cl", "relax", defines)

    wg = 1 << (min(RELAX_GROUP if rt.is_gpu else 8, rt.max_work_group).bit_length() - 1)
    wg, knl = rt.fitted_group(relax_at, wg)   # the kernel's registers may allow fewer
    return knl, wg


def _pair_tables(rt, store: SparseStore, weights, zlist) -> tuple:
    """(pair_x, pair_y, pair_id, row_base, zlist, weights) on the device."""
    return (rt.to_device(store.pair_x.astype(np.int32)),
            rt.to_device(store.pair_y.astype(np.int32)),
            rt.to_device(store.pair_id.astype(np.int32).ravel()),
            rt.to_device(store.row_base.astype(np.int64)),
            rt.to_device(np.asarray(zlist, dtype=np.int32)),
            rt.to_device(np.asarray(weights, dtype=np.float32)))


def _launch_order(store: SparseStore) -> np.ndarray:
    """Pairs by their widest row, widest first (the first pass's widths serve every pass:
    filtering only narrows rows, and the order changes no value)."""
    npairs = store.pair_x.size
    widths = np.maximum.reduceat(np.diff(store.indptr), store.row_base[:-1]) \
        if store.indptr.size > 1 else np.zeros(npairs, np.int64)
    return np.argsort(-widths, kind="stable").astype(np.int32)


@dataclass
class _Rows:
    """The stored matrices' CSR arrays on the device, between passes."""

    indptr: cl.Buffer
    cols: cl.Buffer
    vals: cl.Buffer
    nnz: int

    @classmethod
    def upload(cls, rt, store: SparseStore) -> _Rows:
        """The store's arrays on the device (its entries may be there already)."""
        dev = store.device
        if dev is not None:
            indptr = dev.indptr if dev.indptr is not None else rt.to_device(store.indptr)
            return cls(indptr, dev.cols, dev.vals, dev.nnz)
        return cls(rt.to_device(store.indptr), rt.to_device(store.cols),
                   rt.to_device(store.vals), store.nnz)

    def kept(self, rt, store: SparseStore, new_vals: cl.Buffer, floor: float | None) -> _Rows:
        """The entries of ``new_vals`` at or above their thresholds (``floor`` when given, else
        the pairs' ``thresh``), as :meth:`SparseStore.filtered` keeps them, on the device."""
        nrows = int(store.row_base[-1])
        counts = cl_array.zeros(rt.queue, nrows + 1, np.int64)
        head = (np.int64(nrows), rt.to_device(store.row_base.astype(np.int64)),
                np.int32(store.pair_x.size), rt.to_device(store.thresh.astype(np.float32)),
                np.int32(floor is not None), np.float32(floor if floor is not None else 0.0))
        items = (max(1, -(-nrows // 64)) * 64,)
        kernel(rt, "msa_consistency.cl", "kept_count")(
            rt.queue, items, (64,), *head, self.indptr, new_vals, counts.data)
        inclusive_sum(rt, counts.data, nrows + 1)
        nnz = int(counts[nrows].get())
        cols, vals = rt.empty(4 * nnz), rt.empty(4 * nnz)
        kernel(rt, "msa_consistency.cl", "kept_copy")(
            rt.queue, items, (64,), *head, self.indptr, self.cols, new_vals, counts.data,
            cols, vals)
        return _Rows(counts.data, cols, vals, nnz)

    def download(self, rt, store: SparseStore, entries: bool = True) -> SparseStore:
        """The store with these rows: ``indptr`` read back, and the entries too (else they
        stay on the device as ``store.device``)."""
        indptr = np.empty(int(store.row_base[-1]) + 1, dtype=np.int64)
        cl.enqueue_copy(rt.queue, indptr, self.indptr)
        out = replace(store, indptr=indptr, device=DeviceCSR(self.cols, self.vals, self.nnz,
                                                             self.indptr))
        return out.on_host(rt.queue) if entries else out


def inclusive_sum(rt, data: cl.Buffer, n: int, wg: int | None = None, per: int = 8) -> None:
    """Inclusive sum of the first ``n`` int64 of ``data``, in place (``kernels/msa_scan.cl``):
    tiles of ``wg * per`` values scanned by a work-group each, then the scanned tile totals
    added back; more tiles than one work-group holds are scanned the same way, recursively.

    pyopencl's ``InclusiveScanKernel`` did this before; constructing it in every process (mako
    and pygments imports, then a source build that pyopencl leaves to the driver's cache on
    NVIDIA and PoCL) took 0.08 s of each 0.66 s ``bioplug msa`` call on the H100, where a
    program of ours loads from the binary cache in 2 ms.
    """
    if n <= 0:
        return
    if wg is not None and wg * per < 2:
        raise ValueError("a tile of the scan needs at least two values")
    if wg is None:
        wg = 1 << (min(rt.max_work_group, 256).bit_length() - 1)
        while wg > 1 and 8 * wg * (per + 1) > rt.local_mem // 2:
            wg //= 2
    defs = {"WG": wg, "PER": per}
    tiles = -(-n // (wg * per))
    sums = rt.empty(8 * tiles)
    kernel(rt, "msa_scan.cl", "scan_tiles", defs)(rt.queue, (tiles * wg,), (wg,), data,
                                                   np.int64(n), sums)
    if tiles > 1:
        inclusive_sum(rt, sums, tiles, wg, per)
        kernel(rt, "msa_scan.cl", "add_tiles", defs)(rt.queue, (tiles * wg,), (wg,), data,
                                                      np.int64(n), sums)
