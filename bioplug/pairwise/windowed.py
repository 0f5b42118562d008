"""The windowed local traceback's first passes (:meth:`PairwiseEngine._trace_local`): each
pair's score, end cell and the rectangle that holds its co-optimal paths.

Per window of pairs two launches run back to back on the device: ``fill_pairs`` with end
cells (``fill_pairs16`` with ENDS where the 16-bit kernel is exact, :mod:`.packed16`), then
``fill_reverse_starts`` from those ends (:meth:`WindowedTraceback._run_window_corners`).
While the device runs the next window, the host plans the traced pass of the window it
collects (:meth:`WindowedTraceback._rect_windows`, joined by :func:`_join_pieces`); the
engine's traced pass (``PairwiseEngine._run`` with the rectangles) then keeps directions for
the rectangles only.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pyopencl as cl

from bioplug.alphabet import MAXK
from bioplug.pairwise.batch import (
    _Batch,
    _gather_pairs,
    _Pending,
    _Plan,
    _Rect,
    _Table,
    _task_table,
)
from bioplug.progress import Progress
from bioplug.runtime import Runtime


class WindowedTraceback:
    """The passes of :meth:`PairwiseEngine._trace_local` before the traced one, as methods of
    :class:`~bioplug.pairwise.engine.PairwiseEngine` (one of its bases): they use its
    planning and launch methods (``_plan``, ``_windows``, ``_pipeline``, ``_variant``,
    ``_scratch``, ``_pinned``, ``_launch``, ``_launch16``)."""

    def _rectangles(self, seqs, ia: np.ndarray, ib: np.ndarray, progress=None,
                    base: _Plan | None = None):
        """The two passes of :meth:`_trace_local` before the traced one: each pair's
        rectangle (long pairs: the whole matrix) and its end cell in it, and the plan.

        Both passes run window by window, back to back on the device: the reverse pass
        (``fill_reverse_starts``) reads the first pass's scores and ends where that left
        them, and its tasks are the first pass's (a prefix is its pair up to the end), so
        no host round trip or second plan lies between them. Its pairs stay in the first
        pass's order (by whole size): the pruned reverse pass stops where its live columns
        die, which for most pairs is near the end, so the prefix sizes barely matter. While
        the device runs the next window, the host plans the traced pass of the window it
        collects (:meth:`_rect_windows`), so that pass starts without a plan of all pairs.
        """
        progress = progress if isinstance(progress, Progress) else Progress(progress)
        plan = self._plan(seqs, ia, ib, False, windows_only=True, base=base)
        n = len(plan.ia)
        windows = [job for job in plan.jobs if isinstance(job[1], tuple)]
        order = np.concatenate([idx for idx, _ in windows]) if windows else np.zeros(0, int)
        # the whole task table in launch order, uploaded once per device before the first
        # launch (a write queued behind a busy device can block the host on some drivers)
        tasks = _task_table(plan, order)
        values = np.zeros(len(order), np.int32)
        ends, corners = np.zeros((len(order), 2), np.int32), np.zeros((len(order), 2), np.int32)
        stage, done = "pairwise alignment: rectangles", [0.0]
        total = float(sum(plan.costs)) or 1.0
        cost = {job[1]: c for job, c in zip(plan.jobs, plan.costs, strict=True)}
        progress.report(stage, 0, 100)
        shared: dict[int, _Batch] = {}

        def start_job(rt: Runtime, job):
            a, b = job[1]
            if id(rt) not in shared:
                shared[id(rt)] = replace(self._base_batch(rt, plan.flat),
                                         task_buf=rt.to_device(tasks))
            bounds = int(tasks[a:b, 1].max()), int(tasks[a:b, 3].max())
            return self._run_window_corners(shared[id(rt)], a, b, bounds, rt,
                                            (values[a:b], ends[a:b], corners[a:b]))

        pieces: dict[int, tuple] = {}
        prepare = len(order) * 32 <= self._table_limit()

        def collect(job, _result):
            a, b = job[1]
            if prepare:  # the traced pass's windows of these pairs, while the device runs
                pieces[a] = self._rect_windows(tasks[a:b], ends[a:b], corners[a:b],
                                               order[a:b])
            done[0] += cost[job[1]]
            progress.report(stage, int(100 * done[0] / total), 100)

        self._pipeline(windows, [cost[w] for _, w in windows], start_job, collect, progress)
        progress.report(stage, 100, 100)
        launch = _join_pieces(pieces) if prepare and pieces else None
        # rectangles in launch order, then to the pairs' order by one scatter each (an
        # (x, y) pair of int32 moved as one int64); long pairs keep their whole matrix
        ends -= corners
        origin, rel = np.zeros((n, 2), np.int32), np.zeros((n, 2), np.int32)
        size = np.stack([plan.la, plan.lb], axis=1).astype(np.int32)
        # no alignment (ends at (0, 0)): a 1 x 1 rectangle whose walk stops at once
        for whole, part in ((origin, corners), (rel, ends), (size, np.maximum(ends, 1))):
            whole.view(np.int64)[order, 0] = part.view(np.int64)[:, 0]
        return _Rect(origin, size, rel, launch), plan

    def _rect_windows(self, tasks: np.ndarray, ends: np.ndarray, corners: np.ndarray,
                      pairs: np.ndarray):
        """The traced pass's windows of one window of the first passes (its tasks, end
        cells, corners and pairs): the pairs sorted by rectangle size within it
        (:meth:`_windows`), its windows, and their tasks, end cells (relative to the
        corners, and not) and packed path lengths."""
        rel = ends - corners
        size = np.maximum(rel, 1)  # no alignment: a 1 x 1 rectangle, walked not at all
        local, cut = self._windows(np.arange(len(tasks)), size[:, 0], size[:, 1], True)
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
                            bounds: tuple[int, int], rt: Runtime, out: tuple):
        """The first two passes of :meth:`_trace_local` over tasks ``first:stop`` of
        ``batch.task_buf``: ``fill_pairs`` with end cells and no directions (``fill_pairs16``
        with ENDS where the 16-bit kernel is exact: the same scores and end cells), then
        ``fill_reverse_starts`` from those ends, both on the device's queue; the scores,
        ends and corners are read on the copy queue into ``out`` (three host views)."""
        n = stop - first
        maxA, maxB = bounds
        var = self._variant(rt, max(maxA, maxB), False, "fill_pairs", ends=True)
        # two sets of result buffers: one window's reads overlap the next one's launches
        parity = self._next_parity(rt)
        scores = self._scratch(rt, f"scores{parity}", n * 4)
        ends_buf = self._scratch(rt, f"ends{parity}", n * 8)
        corners = self._scratch(rt, f"corners{parity}", n * 8)
        head = (batch.seqs, batch.task_buf, np.int32(first), np.int32(n), batch.matrix,
                np.int32(len(self.scoring.letters)), batch.gaps)
        if self._packed16(rt, batch, maxA, maxB):
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


def _join_pieces(pieces: dict) -> tuple[np.ndarray, list, _Table]:
    """The traced pass's launch plan from :meth:`PairwiseEngine._rect_windows` of each
    window of the first passes (keyed by its start in their launch order; together they
    tile it): launch order, windows and task table."""
    starts = sorted(pieces)

    def joined(k: int) -> np.ndarray:
        return np.concatenate([pieces[a][k] for a in starts])

    launch, tasks, ends, matrix_ends, path_bytes = (joined(k) for k in (0, 2, 3, 4, 5))
    windows = [(a + s, a + e) for a in starts for s, e in pieces[a][1]]
    ops_base = np.zeros(len(tasks) + 1, dtype=np.uint64)
    np.cumsum(path_bytes, out=ops_base[1:])
    return launch, windows, _Table(tasks, ops_base, ends, matrix_ends)
