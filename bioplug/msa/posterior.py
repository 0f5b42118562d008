"""Stage I on the device: posterior matrices, distances and sparse forms for sequence pairs.

Each unordered pair is one work-group task of ``kernels/msa_posterior.cl`` (partition function in
:data:`PRECISION`, pair-HMM in float, RMS combination, gap-free distance DP, counts at the
cutoff), oriented with the shorter sequence along the columns. Tasks are sorted by width
(descending) and cut into batches whose scratch memory fits the device budget; a second kernel
writes both sparse forms S_xy and S_yx of every pair that the caller asked to keep.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from bioplug.errors import KernelBuildError
from bioplug.msa._kernels import kernel
from bioplug.msa.model import Model, load_model
from bioplug.msa.sparse import DeviceCSR, SparseStore
from bioplug.runtime import run_lpt

log = logging.getLogger(__name__)

JAG = 32
CUTOFF = 0.01
ACCURATE_KEEP = 0.3
#: Keep the rolling DP diagonals in local memory when they fit (else global scratch).
ROLL_LOCAL = True
#: Pairs whose columns do not fit local memory run every pass in column blocks whose rolling
#: diagonals do (``ROLL_BLOCK`` in the kernel; the same cells from the same operands, so the
#: same bits); False keeps their rolling diagonals in global scratch.
ROLL_BLOCKS = True
#: Most columns whose rolling diagonals go to local memory (None: as many as fit); tests force
#: a small value so short pairs take the column-block path.
LOCAL_COLS = None
#: Rows per work-item on the long-pair path (``STRIP_H`` in the kernel): pairs whose columns do
#: not fit local memory may run every pass in strips of rows, each work-item keeping its
#: strip's previous column in registers and the work-group synchronising once per column step
#: of the strips instead of once per anti-diagonal (the same cells from the same operands, so
#: the same bits as the column blocks). None: never strips.
STRIP_ROWS: int | None = 4
#: Which batches of such pairs take the strips: "auto" those holding fewer pairs than the
#: device has compute units, "always", or "never" (column blocks, :data:`ROLL_BLOCKS`). On the
#: H100 the column blocks won with 168-252 pairs of 5,000 columns a batch and the strips with
#: 60-128 pairs of 7,000-10,000 (+17-18 %): with a work-group or less per compute unit, a
#: barrier per anti-diagonal is what the work-group waits on.
STRIPS = "auto"
#: Precision of the partition function unless a caller asks otherwise: "float" (the paper's
#: "double" gave the same SP / TC, 82.90 / 67.85, on all 82 BAliBASE RV11 + RV12 sets, and the
#: kernel runs 26 % faster on an H200: 0.88 s against 1.19 s per 100,000 pairs of 300 x 300).
PRECISION = "float"
#: Weight of the pair-HMM posterior in the root-mean-square combination with the
#: partition-function one (QuickProbs 2's ``hmm-weight``; 0.5 is the paper's Eq. 1).
HMM_WEIGHT = 0.5
#: Copy the score tables to local memory (a warp's reads of __constant memory at different
#: addresses are serialised on GPUs).
TABLES_LOCAL = True
#: Share of device memory one batch's scratch may take, in :data:`SCRATCH_BUFFERS` buffers of
#: at most ``max_alloc`` each (``TASK_SCRATCH`` in the kernel). A pair is one work-group: with
#: one buffer (NVIDIA allows a quarter of the memory per buffer) a batch of 5,000-residue pairs
#: (304 MB each then) held 65 pairs, 65 work-groups on the H100's 132 compute units.
SCRATCH_SHARE = 0.4
#: Long pairs may take up to this share, as far as it takes to run
#: :data:`GROUPS_PER_UNIT` of them per compute unit: on the H100, 150 x 5,000 stage I ran in
#: 36.3 s with 0.6 (252 pairs a batch) against 47.7 s with 0.4 (168); shorter pairs fill the
#: device within 0.4 and keep it.
SCRATCH_SHARE_MAX = 0.6
GROUPS_PER_UNIT = 2
#: Buffers a batch's scratch may span (the kernel's scratch0..scratch3).
SCRATCH_BUFFERS = 4
#: Batches a stage I call is cut into at least, where the device has pairs enough to fill
#: each (:data:`MIN_BATCH_PAIRS`): progress is reported, and a cancel (the desktop app's, or
#: Ctrl-C) taken, between batches only. Memory alone cut 40 proteins of ~400 residues into one
#: batch of 36 s on two PoCL cores, during which the app's Cancel waited.
PROGRESS_BATCHES = 16
#: Fewest pairs a batch keeps per compute unit, by device kind: a GPU's batch must fill its
#: units (a launch and its read-back cost milliseconds), so on a GPU only the largest
#: families (above 64 pairs a unit: 8,448 on 132 units) are cut for progress; a CPU's units
#: are its cores.
MIN_BATCH_PAIRS = {"gpu": 64, "cpu": 8}


def _pow2_floor(v: int) -> int:
    return 1 << (max(int(v), 1).bit_length() - 1)


def strip_delta(n, m, wg: int, height: int):
    """Words of one full matrix of tasks with n rows and m columns (residues) in the strip
    layout (``STRIP_H`` = ``height``, work-group ``wg``; the kernel's ``strip_delta``): bands of
    ``sb`` strips, each ``(m + sb) * height * sb`` words; numpy-friendly."""
    ns = (n + height) // height          # strips covering rows 0..n
    nb = -(-ns // wg)
    sb = -(-ns // nb)                    # strips per band, split evenly
    nb = -(-ns // sb)
    return nb * (m + sb) * height * sb


def scratch_doubles(n, m, strip: tuple[int, int] | None = None, single: bool = False):
    """Scratch (in 8-byte words) of tasks with n rows and m columns (residues); numpy-friendly.
    ``strip`` = (work-group, rows per strip) for the strip layout (:func:`strip_delta`);
    ``single``: the first matrix region holds floats only, 4 bytes a cell instead of 8
    (``ZWORDS`` in the kernel; :func:`packed_scratch`)."""
    rows, cols = n + 1, m + 1
    if strip is None:
        delta = -(-cols // JAG) * (rows + JAG - 1) * JAG
    else:
        delta = strip_delta(n, m, *strip)
    first = (delta + 1) // 2 if single else delta
    return first + (delta + 1) // 2 + np.maximum(10 * cols, 6 * rows)


def pf_float(precision: str | None) -> bool:
    """Whether the partition function runs in single precision (``PF_FLOAT``)."""
    return (precision or PRECISION) in ("float", "fast")


def packed_scratch(defs: dict) -> bool:
    """Whether a program's first matrix region holds floats only (``ZWORDS``): the partition
    function in single precision, or none at all (``HMM_ONLY``)."""
    return "PF_FLOAT" in defs or "HMM_ONLY" in defs


def _strip_of(defs: dict) -> tuple[int, int] | None:
    return (int(defs["WG"]), int(defs["STRIP_H"])) if "STRIP_H" in defs else None


def group_size(rt, widest: int) -> int:
    """Work-group size for a batch: a power of two from the device limit and the widest task."""
    limit = _pow2_floor(min(rt.max_work_group, 256 if rt.is_gpu else 64))
    want = 32
    while want < widest + 1 and want < limit:
        want *= 2
    return min(want, limit)


def _bucket(cols: int) -> int:
    b = 64
    while True:
        if cols <= b:
            return b
        if cols <= b + b // 2:
            return b + b // 2
        b *= 2


def build_options(rt, widest: int, hmm_only: bool = False, ncodes: int = 21,
                  precision: str | None = None, strips: bool = False) -> dict:
    """-D defines of the stage I program for a batch whose widest task has ``widest`` columns
    and a model of ``ncodes`` codes (:attr:`bioplug.msa.model.Model.ncodes`).

    Columns are bucketed to 2^p and 1.5 * 2^p (>= 64), so only a handful of program variants
    exist per device; the score tables (8 NA^2 + 4 (30 + NA + NA^2) bytes) go to local memory,
    and the rolling diagonals too when 72 bytes per column fit beside them; wider batches run
    in strips of :data:`STRIP_ROWS` rows when ``strips`` (and :data:`STRIP_ROWS` set) and
    their exchange slots (48 bytes per work-item) fit, else in column blocks of
    ``ROLL_BLOCK - 1`` columns, ``ROLL_BLOCK`` the most slots that fit, a multiple of the
    work-group (one program for every width)."""
    precision = precision or PRECISION
    wg = group_size(rt, widest)
    bucket = _bucket(widest + 1)
    defs: dict = {"WG": wg, "J": JAG, "NA": int(ncodes)}
    if hmm_only:
        defs["HMM_ONLY"] = 1
    elif pf_float(precision):
        defs["PF_FLOAT"] = 1
    if precision == "fast":
        defs["NATIVE_MATH"] = 1
    if HMM_WEIGHT != 0.5 and not hmm_only:
        defs["HMM_WEIGHT"] = f"{float(HMM_WEIGHT)!r}f"
    local = 4 * wg + 1024
    if TABLES_LOCAL:
        local += 8 * ncodes * ncodes + 4 * (30 + ncodes + ncodes * ncodes)
        defs["TABLES_LOCAL"] = 1
    room = (rt.local_mem - local) // 72
    if LOCAL_COLS is not None:
        room = min(room, int(LOCAL_COLS))
    if ROLL_LOCAL and bucket <= room:
        defs.update(ROLL_LOCAL=1, MAXCOLS=bucket)
    elif ROLL_LOCAL and strips and STRIP_ROWS and local + 48 * wg + 64 <= rt.local_mem:
        defs["STRIP_H"] = int(STRIP_ROWS)
    elif ROLL_LOCAL and ROLL_BLOCKS and room >= max(wg, 2):
        slots = room // wg * wg
        defs.update(ROLL_LOCAL=1, MAXCOLS=slots, ROLL_BLOCK=slots)
    return defs


def prebuild(rt, longest: int = 2048, hmm_only: bool = False, seqtype: str = "protein",
             precision: str | None = None) -> None:
    """Build every stage I program variant up to ``longest`` columns (benchmark warm-up)."""
    ncodes = load_model(seqtype).ncodes
    cols = 64
    while True:
        for strips in (False, True):
            defs = build_options(rt, cols - 1, hmm_only, ncodes, precision, strips)
            for name in ("posterior", "sparsify", "adaptive_threshold"):
                kernel(rt, "msa_posterior.cl", name, defs)
        if cols >= longest:
            break
        cols = _bucket(cols + 1)


def compute_posteriors(
    rt,
    codes: list[np.ndarray],
    pairs: np.ndarray,
    keep_ab: np.ndarray,
    keep_ba: np.ndarray,
    accurate: bool = False,
    report: Callable[[int, int], None] | None = None,
    hmm_only: bool = False,
    model: Model | None = None,
    precision: str | None = None,
    on_device: bool = False,
    devices: Sequence | None = None,
) -> tuple[np.ndarray, SparseStore]:
    """Posteriors of the given pairs on one device, or on several.

    Parameters
    ----------
    rt : Runtime
        The device.
    codes : list of numpy.ndarray
        Encoded sequences (uint8, see :mod:`bioplug.msa.model`).
    pairs : numpy.ndarray
        (T, 2) unordered pairs (a, b), a < b.
    keep_ab, keep_ba : numpy.ndarray
        (T,) bool: store S_ab / S_ba of each pair.
    accurate : bool
        Adaptive per-matrix threshold keeping the top 30 % (QuickProbs-acc) instead of 0.01.
    report : callable, optional
        ``report(done, total)`` between batches (may raise to cancel).
    hmm_only : bool
        Skip the partition function (P = pair-HMM posterior); a cheaper approximation used only
        for guide-tree distances of large families when asked for.
    model : Model, optional
        The pair-HMM and partition-function parameters the codes were encoded for (default
        protein, :func:`bioplug.msa.model.load_model`).
    precision : {"double", "float", "fast"}, optional
        The partition function in double precision (the paper's), in single precision, or
        in single precision with the device's approximate exp / log in every pass ("fast",
        for passes whose matrices are not kept: the all-pairs distances of anchor mode).
        Single precision moves distances by up to ~2e-4. Default :data:`PRECISION`.
    on_device : bool
        Leave the kept entries on the device (``store.device``, for stage III) instead of
        reading them back.
    devices : sequence of Runtime, optional
        Several devices share the batches (:func:`_on_devices`), sized for the one with the
        least memory; ``rt`` (with ``on_device``) keeps the entries.

    Returns
    -------
    dist : numpy.ndarray
        (T,) float32 distances 1 - NW/min(len) of the pairs, in ``pairs`` order.
    store : SparseStore
        The kept sparse matrices.
    """
    model = model or load_model()
    several = devices is not None and len(devices) > 1
    # batches sized for the device with the least memory, which may take any of them
    planner = min(devices, key=lambda d: d.memory_budget(1.0)) if several else rt
    plan = _plan(planner, codes, pairs, keep_ab, keep_ba, (hmm_only, model.ncodes, precision))
    if several and len(plan.batches) > 1:
        return _on_devices(rt if on_device else None, devices, plan, accurate, hmm_only,
                           model, precision, report)
    shared = _shared_buffers(rt, plan, model)
    dist = np.zeros(plan.ntask, dtype=np.float32)
    parts = _StoreParts(rt if on_device else None)
    done = 0
    for batch, strips in zip(plan.batches, plan.strips, strict=True):
        run = _run_batch(rt, plan, batch, shared, accurate, hmm_only, model.ncodes, precision,
                         strips)
        dist[batch] = run.dist
        if plan.keep_rows[batch].any() or plan.keep_cols[batch].any():
            parts.add(plan, batch, run.thresh, _sparsify(rt, plan, batch, run, on_device))
        del run   # its scratch goes before the next batch's is made
        done += batch.size
        if report is not None:
            report(done, plan.ntask)
    return dist, parts.store(plan.lengths)


def _shared_buffers(rt, plan: _Plan, model: Model) -> tuple:
    """What every batch on ``rt`` reads: the sequences and the model's tables."""
    return rt.to_device(plan.allcodes), rt.to_device(model.hmm), rt.to_device(model.pf)


def _on_devices(rt, devices: Sequence, plan: _Plan, accurate: bool, hmm_only: bool,
                model: Model, precision: str | None,
                report: Callable[[int, int], None] | None) -> tuple[np.ndarray, SparseStore]:
    """The plan's batches over several devices, largest first (:func:`run_lpt`), each batch's
    kept entries read back (with ``rt``: other devices' sent to it for stage III, its own
    left there); the store is
    assembled in batch order, so it is the one device's store, bit for bit, wherever each
    batch ran (the devices run the same kernels)."""
    shared: dict[int, tuple] = {}
    lock = threading.Lock()
    done = [0]

    def run(dev, i: int):
        if id(dev) not in shared:   # made on the device's own thread, once
            shared[id(dev)] = _shared_buffers(dev, plan, model)
        batch = plan.batches[i]
        out = _run_batch(dev, plan, batch, shared[id(dev)], accurate, hmm_only, model.ncodes,
                         precision, plan.strips[i])
        # rt's own batches keep their entries where stage III reads them
        sparse = (_sparsify(dev, plan, batch, out, on_device=dev is rt)
                  if plan.keep_rows[batch].any() or plan.keep_cols[batch].any() else None)
        return out.dist, out.thresh, sparse

    def on_done(i: int, _result) -> None:
        with lock:
            done[0] += plan.batches[i].size
            count = done[0]
        if report is not None:
            report(count, plan.ntask)

    cells = [float((plan.lengths[plan.row_seq[b]] * plan.lengths[plan.col_seq[b]]).sum())
             for b in plan.batches]
    results = run_lpt(range(len(plan.batches)), cells, devices, run, on_done)
    dist = np.zeros(plan.ntask, dtype=np.float32)
    parts = _StoreParts(rt)
    for batch, (batch_dist, thresh, sparse) in zip(plan.batches, results, strict=True):
        dist[batch] = batch_dist
        if sparse is not None:
            keep_seg, rowcounts, cols, vals = sparse
            if rt is not None and isinstance(cols, np.ndarray):   # another device's: to rt
                sparse = keep_seg, rowcounts, rt.upload(cols), rt.upload(vals)
            parts.add(plan, batch, thresh, sparse)
    return dist, parts.store(plan.lengths)


@dataclass
class _Plan:
    """Tasks of one stage I call: each pair oriented (longer sequence along the rows), sorted
    widest first and cut into batches whose scratch fits the device budget."""

    lengths: np.ndarray      # (k,) residues
    starts: np.ndarray       # (k + 1,) offsets in allcodes
    allcodes: np.ndarray     # every sequence, concatenated
    row_seq: np.ndarray      # (T,) sequence along the rows of each task
    col_seq: np.ndarray      # (T,) sequence along the columns
    keep_rows: np.ndarray    # (T,) S_rows,cols wanted
    keep_cols: np.ndarray    # (T,) S_cols,rows wanted
    batches: list[np.ndarray]
    strips: list[bool]       # each batch in strips of rows (:data:`STRIPS`)
    bin_bytes: int           # scratch bytes of each of a batch's buffers (at most)

    @property
    def ntask(self) -> int:
        return int(self.row_seq.size)


def _plan(rt, codes, pairs, keep_ab, keep_ba, options: tuple = (False, 21, None)) -> _Plan:
    """Orient, sort and batch the pairs; ``options`` = (hmm_only, ncodes, precision) of the
    program (:func:`build_options`), which sets the scratch layout."""
    k = len(codes)
    lengths = np.array([c.size for c in codes], dtype=np.int64)
    starts = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    a, b = pairs[:, 0], pairs[:, 1]
    a_rows = lengths[a] >= lengths[b]
    row_seq, col_seq = np.where(a_rows, a, b), np.where(a_rows, b, a)
    n, m = lengths[row_seq], lengths[col_seq]
    order = np.lexsort((-n, -m))  # widest first, then tallest
    n, m = n[order], m[order]
    single = packed_scratch(build_options(rt, 1, *options))
    need = scratch_doubles(n, m, single=single).astype(np.int64) * 8
    # a batch in strips lays every task out as strips (a few % larger for some shapes); the
    # column-block layout is kept as a floor so a batch whose strips fail to build still fits.
    # Sizes in strips only where the widest task can take them (usually none can).
    strip_need = need
    if order.size and STRIPS != "never" and "STRIP_H" in build_options(
            rt, int(m[0]), *options, strips=True):
        strip = (group_size(rt, 1 << 30), int(STRIP_ROWS))
        strip_need = np.maximum(need, scratch_doubles(n, m, strip, single).astype(np.int64) * 8)
    widest = int(need.max(initial=0))
    budget = min(max(rt.memory_budget(SCRATCH_SHARE), GROUPS_PER_UNIT * rt.compute_units * widest),
                 rt.memory_budget(max(SCRATCH_SHARE, SCRATCH_SHARE_MAX)))
    cap = max(min(budget // SCRATCH_BUFFERS, rt.max_alloc), int(strip_need.max(initial=0)))
    batches: list[np.ndarray] = []
    strips: list[bool] = []
    need_list, begin = need.tolist(), 0
    strip_list = need_list if strip_need is need else strip_need.tolist()
    most = _batch_pairs(rt, order.size)
    while begin < order.size:
        # the next batch in column blocks; in strips instead if it would hold too few pairs,
        # cut again from the same task with the strips' sizes (the next batch starts after
        # it: a batch of long pairs takes as long as its longest pair, so no remnant batches)
        end = min(_cut(need_list, begin, cap), begin + most)
        strip_batch = _strips_wanted(rt, end - begin, int(m[begin]), options)
        if strip_batch:
            end = min(_cut(strip_list, begin, cap), begin + most)
        batches.append(order[begin:end])
        strips.append(strip_batch)
        begin = end
    return _Plan(lengths, starts, np.concatenate(codes) if k else np.zeros(1, np.uint8),
                 row_seq, col_seq, np.where(a_rows, keep_ab, keep_ba),
                 np.where(a_rows, keep_ba, keep_ab), batches, strips, cap)


def _batch_pairs(rt, tasks: int) -> int:
    """Most pairs of one batch: a :data:`PROGRESS_BATCHES` share of the call's, but never
    fewer than fill the device (:data:`MIN_BATCH_PAIRS`)."""
    fill = MIN_BATCH_PAIRS["gpu" if rt.is_gpu else "cpu"] * max(1, rt.compute_units)
    return max(-(-tasks // PROGRESS_BATCHES), fill, 1)


def _cut(need: list[int], begin: int, cap: int) -> int:
    """End of the batch starting at task ``begin`` when task t takes ``need[t]`` bytes: tasks
    fill a buffer of ``cap`` bytes after another (next fit), :data:`SCRATCH_BUFFERS` a
    batch."""
    used, buffer = 0, 0
    for pos in range(begin, len(need)):
        size = need[pos]
        if pos > begin and used + size > cap:
            buffer, used = buffer + 1, 0
            if buffer == SCRATCH_BUFFERS:   # all full
                return pos
        used += size
    return len(need)


def _strips_wanted(rt, pairs: int, widest: int, options: tuple) -> bool:
    """Whether a batch of ``pairs`` tasks, the widest ``widest`` columns, runs in strips of
    rows (:data:`STRIPS`): only pairs too wide for local rolling diagonals can."""
    if STRIPS == "never" or (STRIPS == "auto" and pairs >= rt.compute_units):
        return False
    return "STRIP_H" in build_options(rt, widest, *options, strips=True)


def _scratch_layout(sizes: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """(buffer, offset in doubles within it) of each task of a batch whose scratch takes
    ``sizes`` doubles: tasks fill a buffer of ``cap`` bytes after another in order, as
    :func:`_plan` cut the batch (sizes at most the plan's, so no more buffers than it had)."""
    buffer = np.zeros(sizes.size, dtype=np.int64)
    offset = np.zeros(sizes.size, dtype=np.int64)
    b, used = 0, 0
    for t, size in enumerate(sizes.tolist()):
        if t and 8 * (used + size) > cap:
            b, used = b + 1, 0
        buffer[t], offset[t] = b, used
        used += size
    if b >= SCRATCH_BUFFERS:   # the plan's sizes were smaller than the program's: a bug
        raise RuntimeError(f"stage I batch needs {b + 1} scratch buffers, the kernel has "
                           f"{SCRATCH_BUFFERS}")
    return buffer, offset


@dataclass
class _BatchRun:
    """One batch after the posterior kernel: its buffers, layout and results."""

    defs: dict
    tasks: cl.Buffer
    offs: np.ndarray         # (B, 4) scratch offset, first row of S_rc, first row of S_cr
    seg: np.ndarray          # (2B,) rows of S_rc, S_cr per task
    scratch: tuple           # the posterior matrices (SCRATCH_BUFFERS buffers, TASK_SCRATCH)
    counts: cl.Buffer        # entries at the cutoff per row
    thresh: np.ndarray       # (B,) per task
    d_thresh: cl.Buffer
    dist: np.ndarray         # (B,) distances

    @property
    def nrows(self) -> int:
        return int(self.seg.sum())


def _run_batch(rt, plan: _Plan, batch: np.ndarray, shared: tuple, accurate: bool,
               hmm_only: bool, ncodes: int, precision: str | None = None,
               strips: bool = False) -> _BatchRun:
    """The posterior kernel over one batch (and, in accurate mode, the adaptive thresholds);
    ``strips``: the batch runs in strips of rows where its pairs allow (:func:`_plan`)."""
    d_codes, d_hmm, d_pf = shared
    nb, mb = plan.lengths[plan.row_seq[batch]], plan.lengths[plan.col_seq[batch]]
    options = (rt, int(mb.max()), hmm_only, ncodes, precision)
    defs = build_options(*options, strips=strips)
    if "STRIP_H" in defs and not _strips_fit(rt, defs):
        defs = build_options(*options)
    wg = int(defs["WG"])
    tasks = np.zeros((batch.size, 4), dtype=np.int32)
    tasks[:, 0], tasks[:, 1] = plan.starts[plan.row_seq[batch]], nb
    tasks[:, 2], tasks[:, 3] = plan.starts[plan.col_seq[batch]], mb
    seg = np.empty(2 * batch.size, dtype=np.int64)
    seg[0::2], seg[1::2] = nb, mb
    seg_start = np.zeros(seg.size + 1, dtype=np.int64)
    np.cumsum(seg, out=seg_start[1:])
    d_tasks, q = rt.to_device(tasks), rt.queue
    d_counts = rt.empty(max(int(seg_start[-1]), 1) * 4)
    d_dist = rt.empty(batch.size * 4)

    def launch(defs):
        """Scratch laid out for ``defs`` (the strip layout differs) and the posterior kernel."""
        sizes = scratch_doubles(nb, mb, _strip_of(defs), packed_scratch(defs)).astype(np.int64)
        offs = np.zeros((batch.size, 4), dtype=np.int64)
        offs[:, 3], offs[:, 0] = _scratch_layout(sizes, plan.bin_bytes)
        offs[:, 1], offs[:, 2] = seg_start[0:-1:2], seg_start[1::2]
        d_scratch = tuple(rt.empty(int(sizes[offs[:, 3] == i].sum()) * 8)
                          for i in range(SCRATCH_BUFFERS))
        args = (d_codes, d_tasks, rt.to_device(offs), *d_scratch, d_hmm, d_pf,
                np.float32(CUTOFF), d_counts, d_dist)
        kernel(rt, "msa_posterior.cl", "posterior", defs)(q, (batch.size * wg,), (wg,), *args)
        return offs, d_scratch, args

    try:
        offs, d_scratch, args = launch(defs)
    except (cl.Error, KernelBuildError) as exc:
        if "ROLL_LOCAL" not in defs and "STRIP_H" not in defs:
            raise
        log.warning("stage I with local rolling diagonals failed (%s); using global", exc)
        defs = {k: v for k, v in defs.items()
                if k not in ("ROLL_LOCAL", "MAXCOLS", "ROLL_BLOCK", "STRIP_H")}
        offs, d_scratch, args = launch(defs)
    thresh = np.full(batch.size, CUTOFF, dtype=np.float32)
    if accurate:
        d_thresh = rt.empty(batch.size * 4)
        kernel(rt, "msa_posterior.cl", "adaptive_threshold", defs)(
            q, (batch.size * wg,), (wg,), d_tasks, args[2], *d_scratch,
            np.float32(ACCURATE_KEEP), np.float32(CUTOFF), d_thresh, d_counts,
            cl.LocalMemory(4 * wg))
        cl.enqueue_copy(q, thresh, d_thresh)
    else:
        d_thresh = rt.to_device(thresh)
    dist = np.empty(batch.size, dtype=np.float32)
    cl.enqueue_copy(q, dist, d_dist)
    return _BatchRun(defs, d_tasks, offs, seg, d_scratch, d_counts, thresh, d_thresh, dist)


def _strips_fit(rt, defs: dict) -> bool:
    """The compiled strip kernel runs at the batch's work-group size (its registers: each
    work-item holds a few states of ``STRIP_H`` rows; the device says how many work-items a
    kernel's registers allow)."""
    try:
        knl = kernel(rt, "msa_posterior.cl", "posterior", defs)
        limit = knl.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, rt.device)
    except (cl.Error, KernelBuildError) as exc:
        log.warning("stage I strips failed to build (%s); using column blocks", exc)
        return False
    if limit < int(defs["WG"]):
        log.info("stage I strips of %s rows allow %d work-items, not %s: column blocks",
                 defs["STRIP_H"], limit, defs["WG"])
    return limit >= int(defs["WG"])


def _sparsify(rt, plan: _Plan, batch: np.ndarray, run: _BatchRun, on_device: bool = False
              ) -> tuple:
    """Both sparse forms of the batch's kept pairs: (kept segments, their row counts, cols,
    vals), written by the ``sparsify`` kernel from the counts at each row's threshold; cols
    and vals as device buffers (None when empty) with ``on_device``."""
    q, nrows, wg = rt.queue, run.nrows, int(run.defs["WG"])
    counts = np.empty(max(nrows, 1), dtype=np.int32)
    cl.enqueue_copy(q, counts, run.counts)
    keep_seg = np.empty(2 * batch.size, dtype=bool)
    keep_seg[0::2], keep_seg[1::2] = plan.keep_rows[batch], plan.keep_cols[batch]
    row_keep = np.repeat(keep_seg, run.seg)
    counts = np.where(row_keep, counts[:nrows], 0).astype(np.int64)
    ptr = np.zeros(nrows + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    nnz = int(ptr[-1])
    cols = np.empty(0 if on_device else nnz, dtype=np.int32)
    vals = np.empty(0 if on_device else nnz, dtype=np.float32)
    d_col = d_val = None
    if nnz:
        d_col, d_val = rt.empty(nnz * 4), rt.empty(nnz * 4)
        offs = run.offs.copy()
        offs[:, 1] = np.where(plan.keep_rows[batch], run.offs[:, 1], -1)
        offs[:, 2] = np.where(plan.keep_cols[batch], run.offs[:, 2], -1)
        kernel(rt, "msa_posterior.cl", "sparsify", run.defs)(
            q, (batch.size * wg,), (wg,), run.tasks, rt.to_device(offs), *run.scratch,
            run.d_thresh, rt.to_device(ptr), d_col, d_val)
        if not on_device:
            cl.enqueue_copy(q, cols, d_col)
            cl.enqueue_copy(q, vals, d_val)
    if on_device:
        return keep_seg, counts[row_keep], d_col, d_val
    return keep_seg, counts[row_keep], cols, vals


#: Share of device memory that stage I's batches and their merged entries may take together;
#: above it (or above one buffer) the entries go to the host, as without ``on_device``.
DEVICE_MERGE_SHARE = 0.5


class _StoreParts:
    """The batches' sparse forms, in batch order, until the store is assembled (their entries
    on the host, or on the device of ``rt`` when given)."""

    def __init__(self, rt=None) -> None:
        self.rt = rt
        self.pair_x: list[np.ndarray] = []
        self.pair_y: list[np.ndarray] = []
        self.thresh: list[np.ndarray] = []
        self.rowcounts: list[np.ndarray] = []
        self.cols: list = []    # numpy arrays, or cl.Buffer with a device
        self.vals: list = []
        self.nnz: list[int] = []

    def add(self, plan: _Plan, batch: np.ndarray, thresh: np.ndarray, sparse: tuple) -> None:
        """One batch's sparse forms (:func:`_sparsify`); ``thresh`` its tasks' thresholds."""
        keep_seg, rowcounts, cols, vals = sparse
        # pair ids in batch order: rows part then column part of each task
        px = np.empty(2 * batch.size, dtype=np.int32)
        py = np.empty(2 * batch.size, dtype=np.int32)
        px[0::2], py[0::2] = plan.row_seq[batch], plan.col_seq[batch]
        px[1::2], py[1::2] = plan.col_seq[batch], plan.row_seq[batch]
        self.pair_x.append(px[keep_seg])
        self.pair_y.append(py[keep_seg])
        self.thresh.append(np.repeat(thresh, 2)[keep_seg])
        self.rowcounts.append(rowcounts)
        if cols is not None and (self.rt is not None or cols.size):
            self.cols.append(cols)
            self.vals.append(vals)
            self.nnz.append(int(rowcounts.sum()))

    def store(self, lengths: np.ndarray) -> SparseStore:
        def joined(parts, dtype):
            return np.concatenate(parts) if parts else np.zeros(0, dtype)

        k = lengths.size
        px, py = joined(self.pair_x, np.int32), joined(self.pair_y, np.int32)
        pair_id = np.full((k, k), -1, dtype=np.int32)
        pair_id[px, py] = np.arange(px.size, dtype=np.int32)
        row_base = np.zeros(px.size + 1, dtype=np.int64)
        np.cumsum(lengths[px], out=row_base[1:])
        rc = joined(self.rowcounts, np.int64)
        indptr = np.zeros(rc.size + 1, dtype=np.int64)
        np.cumsum(rc, out=indptr[1:])
        device, nnz = None, int(indptr[-1])
        if self.rt is not None and not self._merge_fits(nnz):
            self._read_back()   # too big to merge on the device: the host path
        if self.rt is None:
            cols, vals = joined(self.cols, np.int32), joined(self.vals, np.float32)
        else:
            cols, vals = np.zeros(0, np.int32), np.zeros(0, np.float32)
            device = self._merged(nnz)
        return SparseStore(lengths=lengths, pair_id=pair_id, pair_x=px, pair_y=py,
                           row_base=row_base, indptr=indptr, cols=cols, vals=vals,
                           thresh=joined(self.thresh, np.float32), device=device)

    def _merge_fits(self, nnz: int) -> bool:
        """The merged entries fit one buffer, and beside the batches' own (until they are
        copied) within :data:`DEVICE_MERGE_SHARE` of the device's memory."""
        rt = self.rt
        return len(self.cols) <= 1 or (4 * nnz <= rt.max_alloc and
                                       16 * nnz <= DEVICE_MERGE_SHARE * rt.info.global_mem)

    def _read_back(self) -> None:
        """Every batch's entries to the host; the store is then assembled there."""
        q = self.rt.queue
        for lst, dtype in ((self.cols, np.int32), (self.vals, np.float32)):
            for i, (buf, n) in enumerate(zip(lst, self.nnz, strict=True)):
                host = np.empty(n, dtype=dtype)
                if n:
                    cl.enqueue_copy(q, host, buf)
                lst[i] = host
        self.rt = None

    def _merged(self, nnz: int) -> DeviceCSR:
        """The batches' device entries in one pair of buffers, in batch order (device-side
        copies)."""
        if len(self.cols) == 1:
            return DeviceCSR(self.cols[0], self.vals[0], nnz)
        q = self.rt.queue
        cols, vals = self.rt.empty(max(4, 4 * nnz)), self.rt.empty(max(4, 4 * nnz))
        at = 0
        for c, v, n in zip(self.cols, self.vals, self.nnz, strict=True):
            cl.enqueue_copy(q, cols, c, dst_offset=at, byte_count=4 * n)
            cl.enqueue_copy(q, vals, v, dst_offset=at, byte_count=4 * n)
            at += 4 * n
        self.cols, self.vals = [], []
        return DeviceCSR(cols, vals, nnz)
