"""The OpenCL pairwise engine: encoded sequences in, scores and alignment paths out.

Plan of a batch (seed 001 §3, extended):

* Pairs up to :data:`LONG_CELLS` cells run one per work-item (``fill_pairs``), sorted by size
  so that a window of neighbouring work-items does similar work, in windows sized from the
  device's memory.
* Longer pairs run one per work-group (``fill_wavefront``): the group sweeps the matrix as an
  anti-diagonal wavefront, so a 30,000 x 30,000 pair stays on the device.
* Tracebacks follow direction bytes on the device (``pairwise_traceback.cl``). When a long
  pair's directions do not fit in the memory budget, the score pass keeps checkpoint rows
  and the traceback recomputes one band of rows at a time from the bottom up.
* Windows are spread over several devices largest-first (``run_lpt``); each pair's result is
  computed by the same kernel whatever the number of devices, so results do not depend on it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from bioplug.alphabet import MAXK, Scoring
from bioplug.errors import InputError
from bioplug.progress import Progress
from bioplug.runtime import Runtime, get_runtimes, run_lpt

log = logging.getLogger(__name__)

#: Rows per strip (one work-item sweeps R rows at a time; fixed by the trace layout).
R = 8
#: Pairs with more cells than this go to the one-work-group-per-pair kernel.
LONG_CELLS = 1 << 22
#: ... and so do pairs with a sequence longer than this (bounds the per-item column buffer).
LONG_LENGTH = 6000
#: Largest window of pairs in one launch of the per-work-item kernel.
MAX_WINDOW = 1 << 16


@dataclass
class _Window:
    """A launch of ``fill_pairs``: task indices of similar size."""

    index: np.ndarray  # positions in the caller's pair list
    cells: float


class PairwiseEngine:
    """Batched pairwise alignment on one or several OpenCL devices.

    Parameters
    ----------
    scoring : bioplug.alphabet.Scoring
        The integer scoring scheme (see :func:`bioplug.alphabet.make_scoring`).
    devices : device specification, Runtime, or list of them, optional
        Where to run (see :func:`bioplug.runtime.select_device`); a list spreads windows of
        pairs over several devices, largest first.
    memory_fraction : float
        Share of each device's global memory one window may use.
    """

    def __init__(self, scoring: Scoring, devices=None, memory_fraction: float = 0.4):
        if len(scoring.letters) > MAXK:
            raise InputError(f"alphabet of {len(scoring.letters)} letters exceeds {MAXK}")
        self.scoring = scoring
        self.runtimes: list[Runtime] = get_runtimes(devices)
        self.memory_fraction = memory_fraction
        self._matrix = np.ascontiguousarray(scoring.matrix, dtype=np.int32).ravel()
        self._gaps = np.ascontiguousarray(scoring.gaps, dtype=np.int32)
        self._buffers: dict[int, tuple] = {}

    # -- public API ---------------------------------------------------------------------------
    def score_pairs(self, targets: Sequence[np.ndarray], queries: Sequence[np.ndarray],
                    progress=None) -> np.ndarray:
        """Optimal scores of ``targets[k]`` against ``queries[k]`` (Biopython's values)."""
        seqs, ta, tb = self._pairs(targets, queries)
        raw = self._run(seqs, ta, tb, trace=False, progress=progress)
        return self.scoring.unscale([r[0] for r in raw])

    def align_pairs(self, targets: Sequence[np.ndarray], queries: Sequence[np.ndarray],
                    progress=None) -> list[tuple[float, np.ndarray]]:
        """Optimal score and one optimal alignment per pair.

        Returns
        -------
        list of (float, numpy.ndarray)
            The score and the ``(2, k)`` coordinates of ``Bio.Align.Alignment`` (for local
            alignments, of the aligned region only).
        """
        seqs, ta, tb = self._pairs(targets, queries)
        raw = self._run(seqs, ta, tb, trace=True, progress=progress)
        scale = self.scoring.scale
        return [(score / scale, _coordinates(ops, end)) for score, ops, end in raw]

    def score_all(self, seqs: Sequence[np.ndarray], progress=None) -> np.ndarray:
        """All-vs-all scores: an (n, n) symmetric array, self-alignment scores on the diagonal.

        ``score(a, b)`` and ``score(b, a)`` differ when insertion and deletion scores differ;
        then the upper triangle holds ``score(seqs[i], seqs[j])`` for i < j and the lower
        triangle its mirror, so use :meth:`score_pairs` for the other orientation.
        """
        n = len(seqs)
        _check_nonempty(seqs, "sequence")
        ii, jj = np.triu_indices(n)
        # Longest sequences first so that neighbouring pairs in a window have similar sizes.
        lengths = np.fromiter((len(s) for s in seqs), dtype=np.int64, count=n)
        raw = self._run(list(seqs), ii, jj, trace=False, progress=progress, lengths=lengths)
        out = np.zeros((n, n), dtype=np.float64)
        vals = self.scoring.unscale([r[0] for r in raw])
        out[ii, jj] = vals
        out[jj, ii] = vals
        return out

    # -- planning -----------------------------------------------------------------------------
    @staticmethod
    def _pairs(targets, queries):
        if len(targets) != len(queries):
            raise InputError(
                f"batch lengths differ: {len(targets)} targets and {len(queries)} queries"
            )
        _check_nonempty(targets, "target")
        _check_nonempty(queries, "query")
        n = len(targets)
        seqs = list(targets) + list(queries)
        return seqs, np.arange(n), np.arange(n, 2 * n)

    def _run(self, seqs, ta, tb, trace: bool, progress=None, lengths=None):
        progress = progress if isinstance(progress, Progress) else Progress(progress)
        if lengths is None:
            lengths = np.fromiter((len(s) for s in seqs), dtype=np.int64, count=len(seqs))
        offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        if offsets[-1] >= 2**31:
            raise InputError("more than 2^31 residues in one batch; split the input")
        flat = np.concatenate([np.asarray(s, dtype=np.uint8) for s in seqs]) if len(seqs) else \
            np.zeros(1, np.uint8)
        la, lb = lengths[ta], lengths[tb]
        cells = la.astype(np.float64) * lb
        long_mask = (cells > LONG_CELLS) | (np.maximum(la, lb) > LONG_LENGTH)
        tasks = np.stack([offsets[ta], la, offsets[tb], lb], axis=1).astype(np.int32)

        jobs: list[tuple[str, object, float]] = []
        for k in np.flatnonzero(long_mask):
            jobs.append(("long", int(k), float(cells[k])))
        short = np.flatnonzero(~long_mask)
        for window in self._windows(short, la, lb, trace):
            jobs.append(("short", window, window.cells))

        results: list = [None] * len(ta)
        total = float(cells.sum()) or 1.0
        done = [0.0]
        stage = "pairwise alignment" if trace else "pairwise scores"
        progress.report(stage, 0, 100)
        device_data: dict[int, cl.Buffer] = {}

        def device_buffers(rt: Runtime):
            key = id(rt)
            if key not in device_data:
                device_data[key] = (rt.to_device(flat), rt.to_device(self._matrix),
                                    rt.to_device(self._gaps))
            return device_data[key]

        def run_job(rt: Runtime, job):
            kind, what, _ = job
            seq_buf, mat_buf, gap_buf = device_buffers(rt)
            if kind == "long":
                k = what
                return [(k, self._run_long(rt, seq_buf, mat_buf, gap_buf, tasks[k], trace))]
            return list(zip(what.index, self._run_window(
                rt, seq_buf, mat_buf, gap_buf, tasks[what.index], trace), strict=True))

        def on_done(_i, out):
            for k, value in out:
                results[k] = value
            done[0] += sum(float(cells[k]) for k, _ in out)
            progress.report(stage, int(100 * done[0] / total), 100)

        run_lpt(jobs, [j[2] for j in jobs], self.runtimes, run_job, on_done,
                cancelled=lambda: progress.cancelled)
        progress.report(stage, 100, 100)
        return results

    def _windows(self, short: np.ndarray, la, lb, trace: bool) -> list[_Window]:
        """Group short pairs by size into launches that fit every device's memory budget."""
        if short.size == 0:
            return []
        # Sort by (longer, shorter) length, largest first: neighbours do similar work.
        order = short[np.lexsort((-np.minimum(la[short], lb[short]),
                                  -np.maximum(la[short], lb[short])))]
        budget = min(rt.memory_budget(self.memory_fraction) for rt in self.runtimes)
        max_alloc = min(rt.max_alloc for rt in self.runtimes)
        min_items = max(64, 8 * sum(rt.compute_units for rt in self.runtimes) // len(self.runtimes))
        windows = []
        start = 0
        while start < order.size:
            # The first (largest) pair of the window bounds its per-item memory.
            a0, b0 = int(la[order[start]]), int(lb[order[start]])
            rows, cols = max(a0, int(la[order[start]])), max(b0, 1)
            per_item = (cols + 1) * 8 + (((rows + R - 1) // R) * cols * 8 if trace else 0)
            size = max(1, min(MAX_WINDOW, budget // per_item, max_alloc // per_item))
            # Keep windows big enough to fill the device, but spread over all devices.
            remaining = order.size - start
            if len(self.runtimes) > 1 and remaining > min_items * len(self.runtimes):
                size = min(size, max(min_items, remaining // (4 * len(self.runtimes))))
            idx = order[start:start + size]
            # Later pairs of the window must not need more rows/columns than the first one.
            maxa, maxb = int(la[idx].max()), int(lb[idx].max())
            while len(idx) > 1 and (((maxa + R - 1) // R) * maxb * 8 * trace + (maxb + 1) * 8) \
                    * len(idx) > budget:
                idx = idx[: len(idx) // 2]
                maxa, maxb = int(la[idx].max()), int(lb[idx].max())
            windows.append(_Window(index=idx, cells=float((la[idx] * lb[idx]).sum())))
            start += len(idx)
        return windows

    # -- launches -----------------------------------------------------------------------------
    def _kernel(self, rt: Runtime, name: str, trace: bool) -> cl.Kernel:
        return rt.kernel("pairwise_fill.cl", name, {"LOCAL": int(self.scoring.local),
                                                    "TRACE": int(trace), "R": R, "MAXK": MAXK})

    def _run_window(self, rt: Runtime, seq_buf, mat_buf, gap_buf, tasks: np.ndarray,
                    trace: bool):
        """One launch of ``fill_pairs`` (+ ``traceback``) over a window of short pairs."""
        knl = self._kernel(rt, "fill_pairs", trace)
        n = len(tasks)
        group = rt.preferred_group(knl, 128 if rt.is_gpu else 16)
        T = -(-n // group) * group
        maxA, maxB = int(tasks[:, 1].max()), int(tasks[:, 3].max())
        q = rt.queue
        task_buf = rt.to_device(tasks)
        work = rt.empty((maxB + 1) * T * 8)
        scores = rt.empty(n * 4)
        lmat = cl.LocalMemory(MAXK * MAXK * 4)
        if not trace:
            knl(q, (T,), (group,), seq_buf, task_buf, np.int32(n), mat_buf,
                np.int32(len(self.scoring.letters)), gap_buf, work, scores, lmat)
            out = np.empty(n, dtype=np.int32)
            cl.enqueue_copy(q, out, scores)
            return [(int(v), None, None) for v in out]
        strips = (maxA + R - 1) // R
        dirs = rt.empty(strips * maxB * T * 8)
        ends = rt.empty(n * 8)
        knl(q, (T,), (group,), seq_buf, task_buf, np.int32(n), mat_buf,
            np.int32(len(self.scoring.letters)), gap_buf, work, scores, dirs,
            np.int32(maxB), ends, lmat)
        out = np.empty(n, dtype=np.int32)
        end = np.empty((n, 2), dtype=np.int32)
        cl.enqueue_copy(q, out, scores)
        cl.enqueue_copy(q, end, ends)
        del work
        states = _start_states(end, self.scoring.local)
        capacity = (tasks[:, 1] + tasks[:, 3]).astype(np.int64)
        ops_buf, ops_base = _ops_buffer(rt, capacity)
        states = self._traceback(rt, dirs, np.zeros(n, np.uint64), maxB, T, 0, states,
                                 ops_buf, ops_base)
        ops = np.empty(int(capacity.sum()), dtype=np.uint8)
        cl.enqueue_copy(rt.queue, ops, ops_buf)
        return [(int(out[k]), ops[ops_base[k]: ops_base[k] + states[k, 3]], end[k])
                for k in range(n)]

    def _traceback(self, rt: Runtime, dirs, dir_base, maxB: int, T: int, row0: int,
                   states: np.ndarray, ops_buf, ops_base: np.ndarray) -> np.ndarray:
        """Walk the directions of rows > ``row0`` for every task; returns the new states."""
        knl = rt.kernel("pairwise_traceback.cl", "traceback", {"LOCAL": int(self.scoring.local)})
        n = len(states)
        state_buf = cl.Buffer(rt.context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                              hostbuf=np.ascontiguousarray(states, dtype=np.int32))
        group = rt.preferred_group(knl, 64 if rt.is_gpu else 16)
        knl(rt.queue, (-(-n // group) * group,), (group,), dirs, rt.to_device(dir_base),
            np.int32(maxB), np.int32(T), np.int32(row0), np.int32(row0), np.int32(n),
            state_buf, ops_buf, rt.to_device(ops_base.astype(np.uint64)))
        new_states = np.empty((n, 4), dtype=np.int32)
        cl.enqueue_copy(rt.queue, new_states, state_buf)
        return new_states

    def _run_long(self, rt: Runtime, seq_buf, mat_buf, gap_buf, task: np.ndarray, trace: bool):
        """One pair on one work-group; traceback by checkpointed bands when memory is short.

        The score pass keeps the border row at the start of each band of rows whose
        direction bytes fit in the memory budget; the traceback then recomputes the bands
        from the bottom up, walking each before the next (so memory is one band, and the
        extra work is at most one more fill of the matrix).
        """
        nA, nB = int(task[1]), int(task[3])
        fill = self._kernel(rt, "fill_wavefront", trace)
        limit = fill.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, rt.device)
        group = max(1, min(rt.max_work_group, limit, 1024 if rt.is_gpu else 64, -(-nA // R)))
        border = rt.empty((nB + 1) * 8)
        cl.enqueue_copy(rt.queue, border, self._top_border(nB))
        result = rt.empty(16)
        lmem = (cl.LocalMemory(MAXK * MAXK * 4), cl.LocalMemory(2 * group * 8))
        task4 = np.array(task, dtype=np.int32)
        head = (seq_buf, cl.cltypes.make_int4(*map(int, task4)), mat_buf,
                np.int32(len(self.scoring.letters)), gap_buf)
        out = np.empty(4, dtype=np.int32)
        if not trace:
            fill(rt.queue, (group,), (group,), *head, border, np.int32(0), np.int32(nA),
                 result, *lmem)
            cl.enqueue_copy(rt.queue, out, result)
            return (int(out[0]), None, None)

        budget = min(rt.memory_budget(self.memory_fraction), rt.max_alloc)
        strips = max(1, min(budget // (8 * nB), -(-nA // R)))
        band = strips * R
        bands = list(range(0, nA, band))
        dirs = rt.empty(strips * nB * 8)
        checkpoints, best = [], []
        for b0 in bands:  # score pass; the last band's directions stay in `dirs`
            checkpoints.append(_copy_buffer(rt, border, (nB + 1) * 8) if len(bands) > 1 else None)
            fill(rt.queue, (group,), (group,), *head, border, np.int32(b0),
                 np.int32(min(nA, b0 + band)), result, dirs, *lmem)
            cl.enqueue_copy(rt.queue, out, result)
            best.append(out.copy())
        if self.scoring.local:
            values = [int(b[0]) for b in best]
            first = values.index(max(values))
            score, end = values[first], np.array(best[first][1:3], dtype=np.int32)
            if score == 0:
                return (0, np.zeros(0, np.uint8), np.zeros(2, np.int32))
            state = np.array([[end[0], end[1], 0, 0]], dtype=np.int32)
        else:
            first = len(bands) - 1
            score, end = int(best[-1][0]), np.array([nA, nB], dtype=np.int32)
            state = np.array([[nA, nB, 3, 0]], dtype=np.int32)
        ops_buf, ops_base = _ops_buffer(rt, np.array([nA + nB]))
        for k in range(first, -1, -1):
            if k != len(bands) - 1:  # recompute this band's directions from its checkpoint
                again = _copy_buffer(rt, checkpoints[k], (nB + 1) * 8)
                fill(rt.queue, (group,), (group,), *head, again, np.int32(bands[k]),
                     np.int32(min(nA, bands[k] + band)), result, dirs, *lmem)
            state = self._traceback(rt, dirs, np.zeros(1, np.uint64), nB, 1, bands[k], state,
                                    ops_buf, ops_base)
            if state[0, 2] < 0:
                break
        ops = np.empty(int(state[0, 3]), dtype=np.uint8)
        cl.enqueue_copy(rt.queue, ops, ops_buf)
        return (score, ops, end)

    def _top_border(self, nB: int) -> np.ndarray:
        """Row 0 of the DP as (P, X) pairs: left insertion end gaps (global) or zeros."""
        g = self.scoring.gaps
        j = np.arange(nB + 1, dtype=np.int64)
        top = np.zeros((nB + 1, 2), dtype=np.int32)
        if not self.scoring.local:
            top[1:, 0] = g[4] + g[5] * (j[1:] - 1)
        top[:, 1] = -(1 << 29)
        return top


def _ops_buffer(rt: Runtime, capacity: np.ndarray):
    """One device buffer for the operations of several tasks, and each task's offset."""
    base = np.zeros(len(capacity), dtype=np.int64)
    base[1:] = np.cumsum(capacity)[:-1]
    return rt.empty(int(np.sum(capacity))), base


def _copy_buffer(rt: Runtime, src, nbytes: int):
    dst = rt.empty(nbytes)
    cl.enqueue_copy(rt.queue, dst, src, byte_count=nbytes)
    return dst


def _start_states(ends: np.ndarray, local: bool) -> np.ndarray:
    """Traceback start: the end cell, in state M (local maximum) or H-pending (global)."""
    n = len(ends)
    states = np.zeros((n, 4), dtype=np.int32)
    states[:, 0:2] = ends
    states[:, 2] = 0 if local else 3
    if local:  # a local score of 0 is the empty alignment
        empty = (ends[:, 0] == 0) | (ends[:, 1] == 0)
        states[empty, 2] = -1
    return states


def _coordinates(ops: np.ndarray, end) -> np.ndarray:
    """``Bio.Align.Alignment`` coordinates from reversed operations and the end cell."""
    ops = np.asarray(ops, dtype=np.uint8)[::-1]
    step_a = (ops != 2).astype(np.int64)
    step_b = (ops != 1).astype(np.int64)
    start_a = int(end[0]) - int(step_a.sum())
    start_b = int(end[1]) - int(step_b.sum())
    if ops.size == 0:
        return np.array([[start_a, start_a], [start_b, start_b]], dtype=np.int64)
    change = np.flatnonzero(ops[1:] != ops[:-1]) + 1
    cuts = np.concatenate([[0], change, [ops.size]])
    ca = np.concatenate([[0], np.cumsum(step_a)])[cuts] + start_a
    cb = np.concatenate([[0], np.cumsum(step_b)])[cuts] + start_b
    return np.stack([ca, cb]).astype(np.int64)


def _check_nonempty(seqs, what: str) -> None:
    for k, s in enumerate(seqs):
        if len(s) == 0:
            raise InputError(f"{what} {k + 1} is empty: alignment needs at least one residue")
