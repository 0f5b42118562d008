"""Device side of the distance-tree methods (``kernels/tree_nj.cl``).

The distance matrix lives on the device as a packed lower triangle. Each of the ``n - 3``
(NJ) or ``n - 1`` (UPGMA/WPGMA) iterations is ONE launch of ``iterate`` (scan of the live
triangle by many work-groups; the last group to finish picks the pair and does the join), with
no host read, no event wait and no kernel-argument change (the iteration number lives on the
device). While the live matrix is large (:data:`SPLIT_R_GPU` clusters or more on GPUs), an
iteration is two launches instead: ``iterate_pick`` (scan and pick) and ``join`` (the join
spread over every compute unit). When the live matrix has become small, one launch of
``iterate_tail`` on a single work-group does all remaining iterations. The linkage rows
accumulate on the device and come back once at the end.
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from bioplug.errors import InputError
from bioplug.progress import Progress
from bioplug.runtime import Runtime, get_runtime

METHODS = {"nj": 0, "average": 1, "weighted": 2}
#: Relative margin on the float32 shadow criterion's error (2^-20; the error is <= ~2^-22).
SHADOW_EPS = "9.5367431640625e-7"
#: The single-work-group tail takes over when the live triangle has at most this many cells
#: per work-item (a few microseconds per iteration on a GPU, cheaper than a launch).
TAIL_CELLS_PER_ITEM = 32
#: Least cells per work-item of a multi-group scan (fewer groups for small live triangles,
#: so the last group has fewer candidates to reduce): CPUs, GPUs.
MIN_CELLS_PER_ITEM = 8
MIN_CELLS_PER_ITEM_GPU = 64
#: Most work-groups per scan, per compute unit. GPUs: many equal chunks, so the last wave of
#: groups is a small fraction whatever number of groups fits on a compute unit at once
#: (48 = 2^4 * 3: whole waves for 1, 2, 3, 4, 6, 8, 12 or 16 resident groups).
GROUPS_PER_CU_GPU = 48
GROUPS_PER_CU_CPU = 4
#: From this many live clusters on, the join is its own launch (`join`) spread over every
#: compute unit instead of being done by the scan's last work-group (GPUs; 0: never).
SPLIT_R_GPU = 2048
#: Bytes of square-matrix rows per upload block (device staging buffer).
STAGE_BYTES = 64 << 20

_queues: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def plain_queue(rt: Runtime) -> cl.CommandQueue:
    """An in-order queue without profiling on ``rt``'s context, one per runtime.

    The tree loop enqueues thousands of small launches; a profiling queue makes the driver
    record timestamps for each, and nothing here reads them.
    """
    q = _queues.get(rt)
    if q is None:
        q = cl.CommandQueue(rt.context, rt.device)
        _queues[rt] = q
    return q


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
    extra = 8 * n * itemsize + (1 << 20) + STAGE_BYTES
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
    """The built ``tree_nj.cl`` programs for one device, method and precision.

    Parameters
    ----------
    rt : Runtime
        Device runtime.
    method : {"nj", "average", "weighted"}
        Criterion and update rule.
    dtype : numpy dtype
        ``float64`` (default in the front doors) or ``float32``.
    wg : int, optional
        Work-group size of every kernel (a power of two); from the device when omitted.
    max_groups : int, optional
        Most work-groups of one ``iterate`` launch.
    shadow : bool
        Scan a float32 copy (float64 runs only).
    split_r : int, optional
        Live size from which joins are a separate many-group launch (0: never); default
        :data:`SPLIT_R_GPU` on GPUs, 0 on CPUs.
    """

    def __init__(
        self, rt: Runtime, method: str, dtype=np.float64, wg: int | None = None,
        max_groups: int | None = None, shadow: bool = True, split_r: int | None = None,
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

        self.shadow = bool(shadow) and self.dtype == np.float64
        if split_r is None:
            split_r = SPLIT_R_GPU if rt.is_gpu else 0
        self.split_r = max(0, int(split_r))
        self.defines = {
            "REAL_IS_DOUBLE": int(self.dtype == np.float64),
            "METHOD": METHODS[method],
            "SHADOW": int(self.shadow),
            "SHADOW_EPS": SHADOW_EPS,
        }
        self.wg, self.prog = self._fitting(wg or pow2(256), "iterate", fixed=wg is not None)
        # the tail runs on one work-group: as large as the device allows (latency-bound)
        self.tail_wg, self.tail_prog = self._fitting(
            wg or pow2(1024 if rt.is_gpu else 256), "iterate_tail", fixed=wg is not None
        )
        per_cu = GROUPS_PER_CU_GPU if rt.is_gpu else GROUPS_PER_CU_CPU
        self.max_groups = max_groups or max(1, min(8192, rt.compute_units * per_cu))
        self.min_cells = MIN_CELLS_PER_ITEM_GPU if rt.is_gpu else MIN_CELLS_PER_ITEM
        self.tail_r = tail_size(self.tail_wg)

    def _fitting(self, size: int, kernel: str, fixed: bool) -> tuple[int, cl.Program]:
        """The program at the largest work-group size (<= size) the compiled kernel allows
        (``size`` itself when the caller fixed it)."""
        def program(wg: int) -> cl.Program:
            return self.rt.program("tree_nj.cl", {**self.defines, "WG": wg})

        if not fixed:
            size, _ = self.rt.fitted_group(lambda wg: cl.Kernel(program(wg), kernel), size, 32)
        return size, program(size)


def tail_size(wg: int) -> int:
    """Largest live size r handled by the single-work-group tail of ``wg`` work-items."""
    cells = TAIL_CELLS_PER_ITEM * wg
    if cells <= 0:
        return 0
    r = int((1 + (1 + 8 * cells) ** 0.5) / 2)
    while r * (r - 1) // 2 > cells:
        r -= 1
    return max(r, 2)


def scan_groups(r: int, wg: int, max_groups: int, min_cells: int = MIN_CELLS_PER_ITEM) -> int:
    """Work-groups of the ``iterate`` launch for ``r`` live clusters."""
    total = r * (r - 1) // 2
    return max(1, min(max_groups, -(-total // (wg * min_cells))))


def _upload_square(q, kern: TreeKernels, data: np.ndarray, n: int, dtype, d_buf) -> None:
    """The square matrix's lower triangle to the device in row blocks, packed there.

    Rows ``s .. e-1`` travel as ``data[s:e, :e]`` (about the triangle's bytes, no host pack)
    through two halves of a pinned (``ALLOC_HOST_PTR``, mapped) staging buffer, so the
    transfers are DMA and the host fills one half while the other is sent; ``pack_rows``
    scatters each block into the packed triangle. float32 runs convert during the fill.
    Returns when the transfers are done (the staging buffer is unmapped).
    """
    if not data.flags.c_contiguous and data.T.flags.c_contiguous:
        data = data.T  # symmetric: the transpose is the same matrix, C-ordered
    rt = kern.rt
    itemsize = np.dtype(dtype).itemsize
    rows_per = max(1, min(n, STAGE_BYTES // (n * itemsize)))
    slot = rows_per * n  # elements per staging half
    mf = cl.mem_flags
    pinned = cl.Buffer(rt.context, mf.READ_WRITE | mf.ALLOC_HOST_PTR, 2 * slot * itemsize)
    host, _ = cl.enqueue_map_buffer(q, pinned, cl.map_flags.WRITE, 0, (2 * slot,), dtype)
    stage = rt.empty(slot * itemsize)
    pack = cl.Kernel(kern.prog, "pack_rows")
    wg = kern.wg
    sent: list = [None, None]
    try:
        for k, s in enumerate(range(0, n, rows_per)):  # one block of rows per step (glue)
            e = min(n, s + rows_per)
            half = k % 2
            if sent[half] is not None:  # that half's previous transfer is done
                sent[half].wait()
            block = host[half * slot : half * slot + (e - s) * e].reshape(e - s, e)
            with np.errstate(over="ignore", under="ignore"):
                np.copyto(block, data[s:e, :e], casting="same_kind")
            sent[half] = cl.enqueue_copy(q, stage, block, is_blocking=False)
            cells = (e - s) * e
            groups = max(1, min(-(-cells // wg), kern.max_groups * 4))
            pack(q, (groups * wg,), (wg,), stage, np.uint32(s), np.uint32(e - s),
                 np.uint32(e), d_buf)
    finally:
        for ev in sent:
            if ev is not None:
                ev.wait()
        host.base.release(q)


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
    tail: int | None = None,
    dtype=None,
    split_r: int | None = None,
) -> np.ndarray:
    """Run NJ / UPGMA / WPGMA on the device.

    Parameters
    ----------
    packed : ndarray
        Packed strict lower triangle (see :func:`pack_lower`), or the validated square
        ``(n, n)`` matrix itself: its rows go to the device in blocks and are packed there
        (no host-side pack, no extra host copy for float64).
    n : int
        Number of taxa (``n >= 3`` for NJ, ``n >= 2`` otherwise).
    method : {"nj", "average", "weighted"}
        Algorithm.
    device : optional
        Device specification or :class:`Runtime`.
    progress : Progress, optional
        Receives ``("tree", done, total)`` every ``report_every`` iterations.
    report_every : int
        Iterations between progress reports.
    wg, max_groups : int, optional
        Work-group size (a power of two) and most work-groups per scan; chosen from the device
        when omitted (set in tests to show the result does not depend on them).
    shadow : bool, optional
        For float64: scan a float32 copy (made on the device) and read float64 only for the
        cells that can hold the minimum (same result, about half the memory traffic).
        Default: on for GPUs with room for the copy.
    stats : dict, optional
        Filled with ``upload_s`` (buffers, shadow copy and row sums, finished), ``loop_s``
        (the joins, finished), ``shadow``, ``iterations``, ``launches`` and ``tail_r``.
    tail : int, optional
        Live sizes ``r <= tail`` run in the single-work-group tail launch (0: never; at least
        ``n``: the whole run). Default: from the tail work-group size.
    dtype : numpy dtype, optional
        Device precision (float64 or float32); default: the dtype of ``packed``.
    split_r : int, optional
        Live size from which each join is its own launch over all compute units (0: never);
        chosen from the device when omitted (set in tests: the result must not change).

    Returns
    -------
    link : ndarray, shape (n - 1, 4)
        NJ: ``(id_i, id_j, length_i, length_j)`` rows in scikit-bio's ``_nj`` layout, the last
        two rows holding the final trichotomy.  UPGMA/WPGMA: ``(id_i, id_j, height, size)``
        in join order, before scipy's relabelling.
    """
    t_start = time.perf_counter()
    rt = get_runtime(device)
    dtype = np.dtype(dtype if dtype is not None else packed.dtype)
    shadow = _checked_fit(packed, n, rt, dtype, shadow)
    kern = TreeKernels(rt, method, dtype, wg, max_groups, bool(shadow), split_r)
    q = plain_queue(rt)
    d_buf = _upload_triangle(q, kern, packed, n, dtype)
    finish = launch_agglomerative(kern, q, d_buf, n, progress, report_every, stats, tail,
                                  t_start)
    return finish()


def _checked_fit(packed: np.ndarray, n: int, rt: Runtime, dtype: np.dtype,
                 shadow: bool | None) -> bool | None:
    """Validate the input against the device and return ``shadow`` (chosen when None).

    Raises :class:`InputError` for a square matrix of the wrong shape, a matrix the device
    cannot hold, or float32 distances large enough to overflow in the joins' sums.
    """
    if packed.ndim == 2 and packed.shape != (n, n):
        raise InputError(f"expected a {n} x {n} matrix, got shape {packed.shape}")
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
    return shadow


def _upload_triangle(q: cl.CommandQueue, kern: TreeKernels, packed: np.ndarray, n: int,
                     dtype: np.dtype) -> cl.Buffer:
    """The packed triangle on the device, from a packed array or a square matrix."""
    d_buf = cl.Buffer(kern.rt.context, cl.mem_flags.READ_WRITE,
                      max(packed_size(n), 1) * dtype.itemsize)
    if packed.ndim == 2:
        _upload_square(q, kern, packed, n, dtype, d_buf)
    else:  # one transfer, no extra copy when the dtype matches
        host = np.ascontiguousarray(packed, dtype=dtype)
        cl.enqueue_copy(q, d_buf, host, is_blocking=True)
        del host
    return d_buf


def launch_agglomerative(
    kern: TreeKernels,
    q: cl.CommandQueue,
    d_buf: cl.Buffer,
    n: int,
    progress: Progress | None = None,
    report_every: int = 256,
    stats: dict | None = None,
    tail: int | None = None,
    t_start: float | None = None,
):
    """Enqueue one whole run on ``q`` over a packed triangle already on the device.

    Nothing waits for the device here (unless ``stats`` asks for timings), so several runs
    can be in flight on several queues at once: bootstrap replicates are latency-bound, one
    alone leaves most compute units idle.

    Parameters
    ----------
    kern : TreeKernels
        Built programs (method, precision, work-group sizes).
    q : pyopencl.CommandQueue
        In-order queue of the run.
    d_buf : pyopencl.Buffer
        The packed strict lower triangle (consumed: the joins overwrite it).
    n : int
        Number of taxa.
    progress, report_every, stats, tail
        As for :func:`run_agglomerative`.
    t_start : float, optional
        ``perf_counter`` at the start of the upload (``stats["upload_s"]``).

    Returns
    -------
    callable
        ``finish() -> link``: waits for the run and returns the rows
        :func:`run_agglomerative` returns.
    """
    bufs = _RunBuffers.allocate(kern, q, d_buf, n)
    plan = _LoopPlan.of(kern, n, tail)
    kernels = _loop_kernels(kern, bufs, n)
    if stats is not None:
        t_loop = _record_upload(stats, q, kern, plan, t_start)
    _enqueue_scans(q, kern, kernels, plan, progress, report_every)
    keep_tail = _enqueue_tail(q, kern, bufs, plan, progress, report_every)
    q.flush()
    if stats is not None:
        q.finish()
        stats["loop_s"] = time.perf_counter() - t_loop
    return _read_back(q, kern, bufs, plan, progress, keep_tail)


@dataclass(frozen=True)
class _LoopPlan:
    """How the iterations of one run are split between launches."""

    n: int
    is_nj: bool
    stop: int  # live clusters left by the loop (NJ: 3, the final trichotomy)
    total_iters: int
    tail_r: int  # live sizes r <= tail_r run in the single-work-group tail
    fused_iters: int  # iterations with r > tail_r: one launch each (two when split)

    @classmethod
    def of(cls, kern: TreeKernels, n: int, tail: int | None) -> _LoopPlan:
        is_nj = kern.method == "nj"
        stop = 3 if is_nj else 1
        tail_r = kern.tail_r if tail is None else int(tail)
        return cls(n, is_nj, stop, n - stop, tail_r, max(0, n - max(tail_r, stop)))


@dataclass(frozen=True)
class _RunBuffers:
    """The device buffers of one run besides the triangle ``d``."""

    d: cl.Buffer
    f: cl.Buffer  # float32 shadow (triangle, then row sums), or a placeholder
    r: cl.Buffer  # NJ row sums
    ids: cl.Buffer
    sizes: cl.Buffer
    state: cl.Buffer  # iterations done, ticket, and (split joins) the pair and scan groups
    parts: cl.Buffer  # new-row block sums
    pick: cl.Buffer  # d(i, j) / 2 and the two sizes
    link: cl.Buffer
    cand_q: cl.Buffer
    cand_ij: cl.Buffer
    seed: cl.Buffer  # upper bound of the next minimum for the shadow scan (inf: none yet)
    seed_ij: cl.Buffer
    seed_q: cl.Buffer

    @classmethod
    def allocate(cls, kern: TreeKernels, q: cl.CommandQueue, d_buf: cl.Buffer,
                 n: int) -> _RunBuffers:
        """Allocate the buffers; enqueue the row sums and shadow copies of ``d_buf``."""
        rt, dtype, wg = kern.rt, kern.dtype, kern.wg
        ctx, mf = rt.context, cl.mem_flags
        r_buf, f_buf = _row_sums_and_shadow(kern, q, d_buf, n)

        def filled(host: np.ndarray) -> cl.Buffer:
            return cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)

        return cls(
            d=d_buf, f=f_buf, r=r_buf,
            ids=filled(np.arange(n, dtype=np.uint32)),
            sizes=filled(np.ones(n, dtype)),
            state=filled(np.zeros(8, np.uint32)),
            parts=rt.empty(max(1, -(-n // (4 * wg))) * dtype.itemsize),
            pick=rt.empty(3 * dtype.itemsize),
            link=rt.empty(max(n - 1, 1) * 4 * dtype.itemsize),
            cand_q=rt.empty(kern.max_groups * dtype.itemsize),
            cand_ij=rt.empty(kern.max_groups * 2 * 4),
            seed=filled(np.full(1, np.inf, dtype)),
            seed_ij=rt.empty(kern.max_groups * 2 * 4),
            seed_q=rt.empty(kern.max_groups * dtype.itemsize),
        )

    def args(self, n: int) -> tuple:
        """The arguments ``iterate`` and ``iterate_tail`` begin with."""
        return (self.d, self.f, self.r, self.ids, self.sizes, self.link, self.state,
                np.uint32(n))

    def kept(self) -> list[cl.Buffer]:
        """Every buffer, for the read-back to keep alive until the run is done."""
        return [self.d, self.f, self.r, self.ids, self.sizes, self.state, self.parts,
                self.pick, self.link, self.cand_q, self.cand_ij, self.seed, self.seed_ij,
                self.seed_q]


def _row_sums_and_shadow(kern: TreeKernels, q: cl.CommandQueue, d_buf: cl.Buffer,
                         n: int) -> tuple[cl.Buffer, cl.Buffer]:
    """Enqueue NJ's row sums and (shadow runs) their float32 copies; ``(r_buf, f_buf)``."""
    rt, wg = kern.rt, kern.wg
    cells = packed_size(n)
    r_buf = rt.empty(n * kern.dtype.itemsize)
    is_nj = kern.method == "nj"
    if is_nj:
        cl.Kernel(kern.prog, "row_sums")(q, (n * wg,), (wg,), d_buf, np.uint32(n), r_buf)
    if kern.shadow:  # float32 copies (triangle, then row sums) made on the device
        f_buf = rt.empty((cells + n) * 4)
        to_shadow = cl.Kernel(kern.prog, "to_shadow")
        groups = max(1, min(-(-cells // wg), kern.max_groups * 4))
        to_shadow(q, (groups * wg,), (wg,), d_buf, f_buf, np.uint64(cells), np.uint64(0))
        if is_nj:
            to_shadow(q, (-(-n // wg) * wg,), (wg,), r_buf, f_buf, np.uint64(n),
                      np.uint64(cells))
    else:
        f_buf = rt.empty(4)
    return r_buf, f_buf


def _loop_kernels(kern: TreeKernels, bufs: _RunBuffers,
                  n: int) -> tuple[cl.Kernel, cl.Kernel | None, cl.Kernel | None]:
    """``iterate`` and (split joins) ``iterate_pick`` and ``join``, their arguments set once:
    the launches of the loop change no argument."""
    scan_args = (*bufs.args(n), bufs.cand_q, bufs.cand_ij, bufs.seed, bufs.seed_ij,
                 bufs.seed_q, bufs.parts, bufs.pick)
    iterate = cl.Kernel(kern.prog, "iterate")
    iterate.set_args(*scan_args)
    pick = join = None
    if kern.split_r:
        pick = cl.Kernel(kern.prog, "iterate_pick")
        pick.set_args(*scan_args)
        join = cl.Kernel(kern.prog, "join")
        join.set_args(bufs.d, bufs.f, bufs.r, bufs.ids, bufs.sizes, bufs.state, np.uint32(n),
                      bufs.parts, bufs.pick, bufs.seed, bufs.seed_ij, bufs.seed_q)
    return iterate, pick, join


def _record_upload(stats: dict, q: cl.CommandQueue, kern: TreeKernels, plan: _LoopPlan,
                   t_start: float | None) -> float:
    """Fill ``stats`` with the upload's time and the loop's shape; the loop's start time."""
    q.finish()
    stats["upload_s"] = time.perf_counter() - (t_start or time.perf_counter())
    stats["shadow"] = kern.shadow
    stats["iterations"] = plan.total_iters
    stats["tail_r"] = min(plan.tail_r, plan.n)
    split_r, fused_iters = kern.split_r, plan.fused_iters
    joins = max(0, min(fused_iters, plan.n - split_r + 1)) if split_r else 0
    stats["launches"] = fused_iters + joins + (fused_iters < plan.total_iters)
    return time.perf_counter()


def _enqueue_scans(q: cl.CommandQueue, kern: TreeKernels, kernels: tuple, plan: _LoopPlan,
                   progress: Progress | None, report_every: int) -> None:
    """The iterations with more than ``tail_r`` live clusters, one or two launches each."""
    iterate, pick, join = kernels
    n, wg, split_r = plan.n, kern.wg, kern.split_r
    max_groups, min_cells = kern.max_groups, kern.min_cells
    local = (wg,)
    enqueue = cl.enqueue_nd_range_kernel
    flush_every = min(report_every, 32)
    for step in range(plan.fused_iters):
        r = n - step
        groups = scan_groups(r, wg, max_groups, min_cells)
        if split_r and r >= split_r:  # then the join over every compute unit
            enqueue(q, pick, (groups * wg,), local)
            blocks = -(-r // (4 * wg))
            enqueue(q, join, (min(blocks, max_groups) * wg,), local)
        else:
            enqueue(q, iterate, (groups * wg,), local)
        if (step + 1) % flush_every == 0:
            q.flush()
        if progress is not None and (step + 1) % report_every == 0:
            progress.report("tree", step + 1, plan.total_iters)


def _enqueue_tail(q: cl.CommandQueue, kern: TreeKernels, bufs: _RunBuffers, plan: _LoopPlan,
                  progress: Progress | None, report_every: int) -> list[cl.Buffer]:
    """The remaining iterations in one single-work-group launch; the buffers it needs kept."""
    fused_iters, total_iters = plan.fused_iters, plan.total_iters
    if fused_iters >= total_iters:
        return []
    if progress is not None and fused_iters % report_every:
        q.flush()
        progress.report("tree", fused_iters, total_iters)
    tail_knl = cl.Kernel(kern.tail_prog, "iterate_tail")
    tail_parts = kern.rt.empty(max(1, -(-plan.n // (4 * kern.tail_wg))) * kern.dtype.itemsize)
    tail_knl(q, (kern.tail_wg,), (kern.tail_wg,), *bufs.args(plan.n), np.uint32(plan.stop),
             tail_parts)
    return [tail_parts]


def _read_back(q: cl.CommandQueue, kern: TreeKernels, bufs: _RunBuffers, plan: _LoopPlan,
               progress: Progress | None, keep_tail: list[cl.Buffer]):
    """Enqueue the reads of the linkage rows; ``finish()`` waits and completes them."""
    n, is_nj, dtype, total_iters = plan.n, plan.is_nj, kern.dtype, plan.total_iters
    link = np.empty((max(n - 1, 1), 4), dtype=dtype)
    cl.enqueue_copy(q, link, bufs.link, is_blocking=False)
    ids = np.empty(3, np.uint32)
    tail3 = np.empty(3, dtype)
    if is_nj:
        cl.enqueue_copy(q, ids, bufs.ids, is_blocking=False)
        cl.enqueue_copy(q, tail3, bufs.d, is_blocking=False)  # d(1,0), d(2,0), d(2,1)
    q.flush()
    # the buffers stay referenced by this closure until the run is read back
    keep = [*bufs.kept(), *keep_tail]

    def finish() -> np.ndarray:
        q.finish()
        keep.clear()
        if is_nj:
            d01, d02, d12 = (float(x) for x in tail3)
            l0 = (d01 + d02 - d12) / 2
            link[n - 3] = ids[1], ids[2], d01 - l0, d02 - l0
            link[n - 2] = ids[0], 2 * n - 3, l0, 0.0
        if progress is not None:
            progress.report("tree", total_iters, total_iters)
        return link.astype(np.float64)

    return finish
