"""The windowed local traceback (:meth:`PairwiseEngine._trace_local`): each pair's score, end
cell and the rectangle that holds its co-optimal paths, then its path traced in that
rectangle, streamed window by window.

Per window of pairs two launches run back to back on the device: ``fill_pairs`` with end
cells (``fill_pairs16`` with ENDS where the 16-bit kernel is exact, :mod:`.packed16`), then
``fill_reverse_starts`` from those ends (:meth:`WindowedTraceback._run_window_corners`).
Once a window's results are back, the host plans the traced windows of its rectangles
(:meth:`WindowedTraceback._rect_windows`) and enqueues them (``fill_pairs`` with TRACE on
the rectangles, then ``traceback``) behind the next window's first passes, so the device
queue always holds the next launch and no phase waits for all pairs (:class:`_Stream`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace

import numpy as np
import pyopencl as cl

from bioplug.alphabet import MAXK
from bioplug.pairwise.batch import (
    _Batch,
    _gather_pairs,
    _Paths,
    _Pending,
    _Plan,
    _Rect,
    _subplan,
    _task_table,
    size_order,
)
from bioplug.progress import Progress
from bioplug.runtime import Runtime, run_lpt

#: Largest window of the first passes (pairs; the engine's ``MAX_WINDOW`` elsewhere). H100,
#: 2,000 proteins of 50-1,000 aa all-vs-all (benchmarks/RESULTS.md, ninth session): the whole
#: traceback took 1.95 / 1.30 / 0.96 / 0.82 / 0.81 s with windows of 2^14 / 2^15 / 2^16 / 2^17
#: / 2^18 pairs (the last with a wider spread): fewer, fuller launches and less host work
#: between them.
STREAM_WINDOW = 1 << 17

@dataclass
class _Passes:
    """What the windowed passes of a batch share across devices: the first passes' plan
    (lazy, :meth:`PairwiseEngine._orient`), launch order and task table (each window's made
    by its stream), their results (scores, end cells and corners in launch order), and
    with ``trace`` each pair's score and path (plan order: the launch of its traced window
    and its slot there)."""

    plan: _Plan
    order: np.ndarray
    tasks: np.ndarray
    values: np.ndarray
    ends: np.ndarray
    corners: np.ndarray
    trace: bool
    scores: np.ndarray
    launch: np.ndarray
    slot: np.ndarray
    launches: list[_Paths]
    lock: threading.Lock

    @classmethod
    def start(cls, plan: _Plan, order: np.ndarray, trace: bool) -> _Passes:
        """Results for the pairs ``order`` of ``plan``, unset: each window's tasks are made
        and uploaded by its stream (:meth:`_Stream.step`), which fills every pair's values,
        ends and corners and (traced) score and path; long pairs' by
        :meth:`_trace_windows`. Not zeroed: ~90 MB of zeros for 2M pairs took 10-35 ms
        before the first launch."""
        m, n = len(order), len(plan.ia)
        return cls(plan, order, np.empty((m, 4), np.int32), np.empty(m, np.int32),
                   np.empty((m, 2), np.int32), np.empty((m, 2), np.int32), trace,
                   np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64), [],
                   threading.Lock())


def _window_cells(rows: np.ndarray, cols: np.ndarray, windows: list) -> list[float]:
    """Cells of each window ``(start, stop)`` of pairs sorted by ``rows`` (largest first),
    estimated as its rows (exact, from the histogram of the rows) times the batch's mean
    columns: costs only order the windows over devices and pace the progress, and a
    per-pair product would be made before the first launch."""
    top = int(rows.max(initial=0))
    count = np.bincount(rows, minlength=top + 1)[::-1]  # longest rows first
    n_before = np.concatenate([[0], np.cumsum(count)])
    r_before = np.concatenate([[0], np.cumsum(count * np.arange(top, -1, -1))])
    mean = float(cols.mean()) if len(cols) else 0.0

    def before(x: int) -> float:
        k = int(np.searchsorted(n_before, x, side="right")) - 1  # the group of position x
        if k >= len(count):
            return float(r_before[-1]) * mean
        return float(r_before[k] + (x - n_before[k]) * (top - k)) * mean

    return [before(b) - before(a) for a, b in windows]


class _Stream:
    """One device's share of the windowed passes, a window of pairs at a time.

    :meth:`step` enqueues a window's first passes, then finishes the window before it:
    its results back, the traced windows of its rectangles planned and enqueued (behind
    the new window's first passes), and the traced windows enqueued one step earlier
    collected. So the device queue holds a first pass and a traced pass whenever the host
    waits, and at most two windows of each kind are in flight: their buffers alternate
    between two slots (``c0``/``c1``, ``t0``/``t1``).
    """

    def __init__(self, engine, rt: Runtime, passes: _Passes, batch: _Batch):
        self.engine, self.rt, self.passes, self.batch = engine, rt, passes, batch
        self.turn = 0
        self.first: tuple | None = None  # (job, pending) of the last first-pass window
        self.traced: list[tuple] = []  # (pairs, matrix ends, pending) enqueued last step

    def step(self, job):
        """Enqueue ``job``'s first passes; finish the previous window (returned, or None).

        The window's pairs, sorted by rows only so far, are sorted by columns within it
        (:func:`size_order`: pairs sorted by rows alone are not kept) and its tasks made and
        uploaded now, while the device runs the windows before."""
        a, b = job[1]
        p, slot = self.passes, f"c{self.turn % 2}"
        plan = p.plan
        pairs = p.order[a:b]
        pairs[:] = size_order(pairs, plan.la[pairs], plan.lb[pairs])
        tasks = p.tasks[a:b]
        tasks[:] = _task_table(plan, pairs)
        bounds = int(tasks[:, 1].max()), int(tasks[:, 3].max())
        batch = replace(self.batch, task_buf=self.engine._stage_upload(self.rt, slot,
                                                                       (tasks,))[0])
        pending = self.engine._run_window_corners(
            batch, 0, b - a, bounds, self.rt, (p.values[a:b], p.ends[a:b], p.corners[a:b]),
            slot=slot)
        done = self.advance()
        self.first = (job, pending)
        self.turn += 1
        return done

    def advance(self):
        """The last first-pass window's results back and its traced windows enqueued; the
        traced windows enqueued before them collected. Returns that window's job (None)."""
        job, traced = None, []
        if self.first is not None:
            (job, pending), self.first = self.first, None
            pending.result()
            if self.passes.trace:
                traced = self.trace(job)
        for item in self.traced:
            self.collect(*item)
        self.traced = traced
        return job

    def drain(self):
        """Finish every launch in flight (after the last :meth:`step`); the last job."""
        job = self.advance()
        self.advance()
        return job

    def trace(self, job) -> list[tuple]:
        """Enqueue the traced windows of the rectangles of first-pass window ``job``: their
        task table uploaded on a side queue (:meth:`_stage_upload`), then one traced launch each."""
        a, b = job[1]
        p, engine, slot = self.passes, self.engine, f"t{self.turn % 2}"
        pairs, cut, tasks, rel, whole, path_bytes = engine._rect_windows(
            p.tasks[a:b], p.ends[a:b], p.corners[a:b], p.order[a:b])
        ops_base = np.zeros(len(tasks) + 1, dtype=np.uint64)
        np.cumsum(path_bytes, out=ops_base[1:])
        task_buf, base_buf, ends_buf = engine._stage_upload(self.rt, slot, (tasks, ops_base, rel))
        batch = replace(self.batch, task_buf=task_buf, base_buf=base_buf, tasks=tasks,
                        ops_base=ops_base, ends_buf=ends_buf)
        return [(pairs[s:e], whole[s:e],
                 engine._run_window(batch, s, e, True, rt=self.rt, slot=f"{slot}.{k}"))
                for k, (s, e) in enumerate(cut)]

    def collect(self, pairs: np.ndarray, whole: np.ndarray, pending: _Pending) -> None:
        """A traced window's scores and paths (end cells back in the whole matrix)."""
        values, paths = pending.result()
        paths.ends = whole
        p = self.passes
        with p.lock:
            p.scores[pairs] = values
            p.launch[pairs], p.slot[pairs] = len(p.launches), np.arange(len(pairs))
            p.launches.append(paths)


class WindowedTraceback:
    """The windowed local traceback (:meth:`PairwiseEngine._trace_local`), as methods of
    :class:`~bioplug.pairwise.engine.PairwiseEngine` (one of its bases): they use its
    planning and launch methods (``_plan``, ``_windows``, ``_run``, ``_run_window``,
    ``_variant``, ``_scratch``, ``_pinned``, ``_launch``, ``_launch16``)."""

    def _trace_windows(self, seqs, ia: np.ndarray, ib: np.ndarray, progress=None,
                       base: _Plan | None = None):
        """Scores and paths (as :meth:`_run` gives them) of a local traceback: pairs on
        windows through the streamed passes (:meth:`_passes`), long pairs traced whole on
        work-groups afterwards."""
        p = self._passes(seqs, ia, ib, progress, base, trace=True)
        long = np.flatnonzero(p.plan.is_long)
        if long.size:
            values, (launches, launch, slot, _) = self._run(
                seqs, ia, ib, True, progress, base=_subplan(p.plan, long))
            p.scores[long], p.slot[long] = values, slot
            p.launch[long] = launch + len(p.launches)
            p.launches += launches
        return p.scores, (p.launches, p.launch, p.slot, p.plan.swapped)

    def _rectangles(self, seqs, ia: np.ndarray, ib: np.ndarray, progress=None,
                    base: _Plan | None = None) -> tuple[_Rect, _Plan]:
        """The first two passes alone (no traced pass): each pair's rectangle (long pairs:
        the whole matrix) and its end cell in it, and the plan."""
        p = self._passes(seqs, ia, ib, progress, base, trace=False)
        plan, n = p.plan, len(p.plan.ia)
        # rectangles in launch order, then to the pairs' order by one scatter each (an
        # (x, y) pair of int32 moved as one int64); long pairs keep their whole matrix
        ends = p.ends - p.corners
        origin, rel = np.zeros((n, 2), np.int32), np.zeros((n, 2), np.int32)
        size = np.stack([plan.la, plan.lb], axis=1).astype(np.int32)
        # no alignment (ends at (0, 0)): a 1 x 1 rectangle whose walk stops at once
        for whole, part in ((origin, p.corners), (rel, ends), (size, np.maximum(ends, 1))):
            whole.view(np.int64)[p.order, 0] = part.view(np.int64)[:, 0]
        return _Rect(origin, size, rel), _subplan(plan, np.arange(n))

    def _stream_plan(self, base: _Plan) -> tuple[_Plan, np.ndarray]:
        """The first passes' windows over the pairs of ``base`` (a lazy plan) that are not
        long, and their launch order: sorted by rows only, each window sorting its own
        pairs by columns when its tasks are made (:meth:`_Stream.step`; a pair's results
        do not depend on which pairs share its window). Costs come from the histogram of
        the rows: no per-pair array is made but the order."""
        is_long = self._long_pairs(base)
        short = np.flatnonzero(~is_long) if is_long.any() else None
        la = base.la if short is None else base.la[short]
        lb = base.lb if short is None else base.lb[short]
        order = size_order(short, la, None)
        windows = self._cut(base.la, order, int(lb.max(initial=0)), False, STREAM_WINDOW)
        costs = _window_cells(la, lb, windows)
        return replace(base, is_long=is_long, jobs=[(None, w) for w in windows], costs=costs,
                       widest=max((b - a for a, b in windows), default=1)), order

    def _passes(self, seqs, ia: np.ndarray, ib: np.ndarray, progress, base: _Plan | None,
                trace: bool) -> _Passes:
        """The windowed passes over the pairs on windows, every device streaming its
        windows (:class:`_Stream`); with ``trace`` the traced pass too."""
        progress = progress if isinstance(progress, Progress) else Progress(progress)
        base = base if base is not None else self._orient(seqs, ia, ib, lazy=True)
        plan, order = self._stream_plan(base)
        p = _Passes.start(plan, order, trace)
        stage, done = "pairwise alignment", [0.0]
        total = float(sum(plan.costs)) or 1.0
        cost = {job[1]: c for job, c in zip(plan.jobs, plan.costs, strict=True)}
        progress.report(stage, 0, 100)
        streams: dict[int, _Stream] = {}

        def report(job) -> None:
            if job is not None:
                with p.lock:
                    done[0] += cost[job[1]]
                    progress.report(stage, int(100 * done[0] / total), 100)

        def run_job(rt: Runtime, job) -> None:
            if id(rt) not in streams:
                streams[id(rt)] = _Stream(self, rt, p, self._base_batch(rt, plan.flat))
            report(streams[id(rt)].step(job))

        run_lpt(plan.jobs, plan.costs, self.runtimes, run_job,
                cancelled=lambda: progress.cancelled)
        for stream in streams.values():
            report(stream.drain())
        progress.report(stage, 100, 100)
        return p

    def _rect_windows(self, tasks: np.ndarray, ends: np.ndarray, corners: np.ndarray,
                      pairs: np.ndarray):
        """The traced pass's windows of one window of the first passes (its tasks, end
        cells, corners and pairs): the pairs sorted by rectangle size within it
        (:meth:`_windows`), its windows, and their tasks, end cells (relative to the
        corners, and not) and packed path lengths."""
        rel = ends - corners
        size = np.maximum(rel, 1)  # no alignment: a 1 x 1 rectangle, walked not at all
        # one device runs all of them (this window's stream): no cut for sharing, which
        # made four H200s trace 2,000 proteins in 1.1 s against one's 0.74 s
        local, cut = self._windows(np.arange(len(tasks)), size[:, 0], size[:, 1], True,
                                   blocks=False, balance=False)
        corner, size = _gather_pairs(corners, local), _gather_pairs(size, local)
        rect_tasks = np.empty((len(local), 4), np.int32)
        rect_tasks[:, 0] = tasks[:, 0][local] + corner[:, 0]
        rect_tasks[:, 1] = size[:, 0]
        rect_tasks[:, 2] = tasks[:, 2][local] + corner[:, 1]
        rect_tasks[:, 3] = size[:, 1]
        path_bytes = (size[:, 0].astype(np.uint64) + size[:, 1] + 3) // 4  # 2 bits a step
        return (pairs[local], cut, rect_tasks, _gather_pairs(rel, local),
                _gather_pairs(ends, local), path_bytes)

    def _run_window_corners(self, batch: _Batch, first: int, stop: int,
                            bounds: tuple[int, int], rt: Runtime, out: tuple, slot: str):
        """The first two passes of :meth:`_trace_local` over tasks ``first:stop`` of
        ``batch.task_buf``: ``fill_pairs`` with end cells and no directions (``fill_pairs16``
        with ENDS where the 16-bit kernel is exact: the same scores and end cells), then
        ``fill_reverse_starts`` from those ends, both on the device's queue; the scores,
        ends and corners are read on the copy queue into ``out`` (three host views); its
        buffers are ``slot``'s (a device has two such windows in flight)."""
        n = stop - first
        maxA, maxB = bounds
        var = self._variant(rt, max(maxA, maxB), False, "fill_pairs", ends=True)
        parity = slot  # two sets of result buffers: reads overlap the next launches
        scores = self._scratch(rt, f"scores{parity}", n * 4)
        ends_buf = self._scratch(rt, f"ends{parity}", n * 8)
        corners = self._scratch(rt, f"corners{parity}", n * 8)
        head = (batch.seqs, batch.task_buf, np.int32(first), np.int32(n), batch.matrix,
                np.int32(len(self.scoring.letters)), batch.gaps)
        packed = self._packed16(rt, batch, maxA, maxB)
        if packed:
            # the end order's part height is the 32-bit pass's (RT), so the cell is its
            self._launch16(rt, batch, first, n, maxB, scores, "fill+ends (16-bit)",
                           ends=ends_buf, order_rows=var.defines["RT"])
        else:
            group = min(rt.preferred_group(var.kernel, 128 if rt.is_gpu else 16), n)
            T = -(-n // group) * group
            work = self._scratch(rt, "work", (maxB + 1) * T * 8)
            local = [cl.LocalMemory(MAXK * MAXK * 4)]
            if var.profile:
                local.append(cl.LocalMemory(group * (MAXK + 1) * 8))
            self._launch(rt, "fill+ends", var.kernel, (T,), (group,), *head, work, scores,
                         ends_buf, *local)
        if packed:  # the same corners (pairwise_fill16.cl says why)
            done = self._reverse16(rt, batch, first, n, maxB, scores, ends_buf, corners)
        else:
            knl = rt.kernel("pairwise_fill.cl", "fill_reverse_starts", var.defines)
            group = min(rt.preferred_group(knl, 128 if rt.is_gpu else 16), n)
            T = -(-n // group) * group
            work = self._scratch(rt, "work", (maxB + 1) * T * 8)
            done = self._launch(rt, "reverse starts", knl, (T,), (group,), *head, work,
                                scores, ends_buf, corners, cl.LocalMemory(MAXK * MAXK * 4))
        rt.queue.flush()
        stage = self._pinned(rt, f"corners{parity}", n * 20)
        staged = (stage[:4 * n].view(np.int32), stage[4 * n: 12 * n].view(np.int32),
                  stage[12 * n: 20 * n].view(np.int32))
        events = [cl.enqueue_copy(rt.copy_queue, host, buf, is_blocking=False, wait_for=[done])
                  for host, buf in zip(staged, (scores, ends_buf, corners), strict=True)]
        rt.copy_queue.flush()

        def finish():
            for host, pinned in zip(out, staged, strict=True):
                host.reshape(-1)[:] = pinned
        return _Pending(events, finish)

