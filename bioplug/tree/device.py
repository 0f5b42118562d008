"""Device side of the distance-tree methods (``kernels/tree_nj.cl``).

The distance matrix lives on the device as a packed lower triangle; each of the ``n - 3``
(NJ) or ``n - 1`` (UPGMA/WPGMA) iterations is two kernel launches (``scan_min`` over the live
triangle, ``join`` on one work-group) and no host read. The linkage rows accumulate on the
device and come back once at the end.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import pyopencl as cl

from bioplug.errors import InputError
from bioplug.progress import Progress
from bioplug.runtime import Runtime, get_runtime

log = logging.getLogger(__name__)

METHODS = {"nj": 0, "average": 1, "weighted": 2}
#: Relative bound on the float32 shadow's error in the criterion (2^-22, generous).
SHADOW_EPS = "2.384185791015625e-7"


def packed_size(n: int) -> int:
    """Cells in the packed lower triangle of an ``n x n`` matrix."""
    return n * (n - 1) // 2


def pack_lower(dm: np.ndarray, dtype=np.float64) -> np.ndarray:
    """The strict lower triangle of a square matrix, row by row (``d[a, :a]`` for each a)."""
    n = dm.shape[0]
    out = np.empty(packed_size(n), dtype=dtype)
    offset = 0
    for a in range(1, n):  # one slice per row (glue, O(n) Python steps)
        out[offset : offset + a] = dm[a, :a]
        offset += a
    return out


def check_fits(n: int, rt: Runtime, itemsize: int, shadow: bool = False) -> None:
    """Raise :class:`InputError` when an ``n``-taxon matrix does not fit on the device."""
    need = packed_size(n) * itemsize
    total = need + (packed_size(n) * 4 if shadow else 0)
    extra = 8 * n * itemsize + (1 << 20)
    budget = rt.memory_budget(0.9)
    if need > rt.max_alloc or total + extra > budget:
        raise InputError(
            f"a distance matrix of {n} taxa needs {total / 2**30:.2f} GiB of device memory "
            f"(packed triangle, {itemsize}-byte values{' + float32 copy' if shadow else ''}) "
            f"but {rt.info.name} allows "
            f"{rt.max_alloc / 2**30:.2f} GiB per buffer and {budget / 2**30:.2f} GiB in all; "
            "use float32, a smaller matrix or a larger device"
        )


class TreeKernels:
    """The built ``tree_nj.cl`` program for one device, method and precision.

    Parameters
    ----------
    rt : Runtime
        Device runtime.
    method : {"nj", "average", "weighted"}
        Criterion and update rule.
    dtype : numpy dtype
        ``float64`` (default in the front doors) or ``float32``.
    """

    def __init__(
        self, rt: Runtime, method: str, dtype=np.float64, wg: int | None = None,
        max_groups: int | None = None, shadow: bool = True,
    ):
        self.rt = rt
        self.method = method
        self.dtype = np.dtype(dtype)
        if self.dtype == np.float64 and not rt.info.fp64:
            raise InputError(f"{rt.info.name} has no float64 support; use dtype=float32")

        def pow2(limit: int) -> int:
            size = 1
            while size * 2 <= min(limit, rt.max_work_group):
                size *= 2
            return size

        self.wg = wg or pow2(256)
        # the join runs on one work-group: as large as the device allows (latency-bound)
        self.join_wg = wg or pow2(1024 if rt.is_gpu else 256)
        self.shadow = bool(shadow) and self.dtype == np.float64
        defines = {
            "REAL_IS_DOUBLE": int(self.dtype == np.float64),
            "METHOD": METHODS[method],
            "SHADOW": int(self.shadow),
            "SHADOW_EPS": SHADOW_EPS,
        }
        self.prog = rt.program("tree_nj.cl", {**defines, "WG": self.wg})
        self.join_prog = self._fitting_join(defines)
        self.max_groups = max_groups or max(
            1, min(4096, rt.compute_units * (16 if rt.is_gpu else 4))
        )

    def _fitting_join(self, defines: dict) -> cl.Program:
        """The join program at the largest work-group size the compiled kernel allows."""
        while True:
            prog = self.rt.program("tree_nj.cl", {**defines, "WG": self.join_wg})
            limit = cl.Kernel(prog, "join").get_work_group_info(
                cl.kernel_work_group_info.WORK_GROUP_SIZE, self.rt.device
            )
            if limit >= self.join_wg or self.join_wg <= 32:
                return prog
            log.debug("join kernel allows %d work-items, not %d", limit, self.join_wg)
            self.join_wg //= 2


def run_agglomerative(
    packed: np.ndarray,
    n: int,
    method: str,
    device=None,
    progress: Progress | None = None,
    report_every: int = 256,
    wg: int | None = None,
    max_groups: int | None = None,
    shadow: bool | None = None,
    stats: dict | None = None,
) -> np.ndarray:
    """Run NJ / UPGMA / WPGMA on the device.

    Parameters
    ----------
    packed : ndarray
        Packed strict lower triangle (see :func:`pack_lower`), float64 or float32.
    n : int
        Number of taxa (``n >= 3`` for NJ, ``n >= 2`` otherwise).
    method : {"nj", "average", "weighted"}
        Algorithm.
    device : optional
        Device specification or :class:`Runtime`.
    progress : Progress, optional
        Receives ``("tree", done, total)`` every ``report_every`` iterations.
    report_every : int
        Iterations between progress reports (and queue flushes).
    wg, max_groups : int, optional
        Work-group size (a power of two) and most work-groups per scan; chosen from the device
        when omitted (set in tests to show the result does not depend on them).
    shadow : bool, optional
        For float64: scan a float32 copy first and rescan in float64 only the chunks that
        can hold the minimum (same result, about half the memory traffic). Default: on for
        GPUs with room for the copy.
    stats : dict, optional
        Filled with ``upload_s`` (buffers and row sums, finished), ``loop_s`` (the joins,
        finished), ``shadow`` and ``iterations``.

    Returns
    -------
    link : ndarray, shape (n - 1, 4)
        NJ: ``(id_i, id_j, length_i, length_j)`` rows in scikit-bio's ``_nj`` layout, the last
        two rows holding the final trichotomy.  UPGMA/WPGMA: ``(id_i, id_j, height, size)``
        in join order, before scipy's relabelling.
    """
    t_start = time.perf_counter()
    rt = get_runtime(device)
    dtype = np.dtype(packed.dtype)
    if shadow is None:  # a win where memory bandwidth is the limit (GPUs)
        shadow = dtype == np.float64 and rt.is_gpu
        if shadow:
            try:
                check_fits(n, rt, dtype.itemsize, shadow=True)
            except InputError:
                shadow = False
    check_fits(n, rt, dtype.itemsize, shadow=bool(shadow) and dtype == np.float64)
    if dtype == np.float32 and packed.size and float(packed.max()) > 1e37 / n:
        raise InputError(
            f"distances up to {float(packed.max()):.3g} are too large for float32 with {n} "
            "taxa; use float64 or rescale"
        )
    kern = TreeKernels(rt, method, dtype, wg, max_groups, bool(shadow))
    q = rt.queue
    ctx = rt.context
    mf = cl.mem_flags
    d_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.ascontiguousarray(packed))
    if kern.shadow:
        with np.errstate(over="ignore", under="ignore"):  # inf / subnormal: kernel copes
            shadow_copy = packed.astype(np.float32)
        f_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=shadow_copy)
        del shadow_copy
    else:
        f_buf = rt.empty(4)
    r_buf = rt.empty(n * dtype.itemsize)
    ids_buf = cl.Buffer(
        ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.arange(n, dtype=np.uint32)
    )
    sizes_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.ones(n, dtype))
    link_buf = rt.empty(max(n - 1, 1) * 4 * dtype.itemsize)
    cand_q = rt.empty(kern.max_groups * dtype.itemsize)
    cand_ij = rt.empty(kern.max_groups * 2 * 4)
    lo_buf = rt.empty(kern.max_groups * dtype.itemsize)
    hi_buf = rt.empty(kern.max_groups * dtype.itemsize)
    wg = kern.wg
    is_nj = method == "nj"
    if is_nj:
        cl.Kernel(kern.prog, "row_sums")(q, (n * wg,), (wg,), d_buf, np.uint32(n), r_buf)
    stop = 3 if is_nj else 1
    total_iters = n - stop
    join = cl.Kernel(kern.join_prog, "join")
    join.set_args(
        d_buf, f_buf, r_buf, ids_buf, sizes_buf, np.uint32(0), np.uint32(0), cand_q, cand_ij,
        link_buf, np.uint32(0), np.uint32(0),
    )
    if kern.shadow:
        scan = cl.Kernel(kern.prog, "scan_bound")
        scan.set_args(f_buf, r_buf, np.uint32(0), np.uint64(0), np.uint64(0), lo_buf, hi_buf)
        rescan = cl.Kernel(kern.prog, "rescan")
        rescan.set_args(d_buf, r_buf, np.uint32(0), np.uint64(0), np.uint64(0), np.uint32(0),
                        lo_buf, hi_buf, cand_q, cand_ij)
    else:
        scan = cl.Kernel(kern.prog, "scan_min")
        scan.set_args(d_buf, r_buf, np.uint32(0), np.uint64(0), np.uint64(0), cand_q, cand_ij)
    min_per_item = 8
    if stats is not None:
        q.finish()
        stats["upload_s"] = time.perf_counter() - t_start
        stats["shadow"] = kern.shadow
        stats["iterations"] = total_iters
        t_loop = time.perf_counter()
    for step in range(total_iters):
        r = n - step
        total = r * (r - 1) // 2
        groups = max(1, min(kern.max_groups, -(-total // (wg * min_per_item))))
        chunk = -(-total // groups)
        scan.set_arg(2, np.uint32(r))
        scan.set_arg(3, np.uint64(total))
        scan.set_arg(4, np.uint64(chunk))
        cl.enqueue_nd_range_kernel(q, scan, (groups * wg,), (wg,))
        if kern.shadow:
            rescan.set_arg(2, np.uint32(r))
            rescan.set_arg(3, np.uint64(total))
            rescan.set_arg(4, np.uint64(chunk))
            rescan.set_arg(5, np.uint32(groups))
            cl.enqueue_nd_range_kernel(q, rescan, (groups * wg,), (wg,))
        join.set_arg(5, np.uint32(r))
        join.set_arg(6, np.uint32(groups))
        join.set_arg(10, np.uint32(step))
        join.set_arg(11, np.uint32(n + step))
        cl.enqueue_nd_range_kernel(q, join, (kern.join_wg,), (kern.join_wg,))
        if (step + 1) % report_every == 0:
            q.flush()
            if progress is not None:
                progress.report("tree", step + 1, total_iters)
    if stats is not None:
        q.finish()
        stats["loop_s"] = time.perf_counter() - t_loop
    link = np.empty((max(n - 1, 1), 4), dtype=dtype)
    cl.enqueue_copy(q, link, link_buf)
    if is_nj:
        ids = np.empty(3, np.uint32)
        tail = np.empty(3, dtype)
        cl.enqueue_copy(q, ids, ids_buf)
        cl.enqueue_copy(q, tail, d_buf)  # d(1,0), d(2,0), d(2,1)
        q.finish()
        d01, d02, d12 = (float(x) for x in tail)
        l0 = (d01 + d02 - d12) / 2
        link[n - 3] = ids[1], ids[2], d01 - l0, d02 - l0
        link[n - 2] = ids[0], 2 * n - 3, l0, 0.0
    else:
        q.finish()
    if progress is not None:
        progress.report("tree", total_iters, total_iters)
    return link.astype(np.float64)
