"""Pairs too long for one work-item (more than ``LONG_CELLS`` cells or a sequence longer than
``LONG_LENGTH``, :mod:`bioplug.pairwise.engine`): one work-group per pair.

``fill_wavefront_groups`` sweeps each matrix as an anti-diagonal wavefront, as many pairs a
launch as the memory allows, their tracebacks in one launch each. A pair whose directions do
not fit in the memory budget runs alone (``fill_wavefront``): the score pass keeps checkpoint
rows and the traceback recomputes one band of rows at a time from the bottom up. A long
pair's end cell is the one ``fill_pairs`` picks, so its path does not depend on the kernel.
"""

from __future__ import annotations

import numpy as np
import pyopencl as cl

from bioplug.alphabet import MAXK
from bioplug.pairwise.batch import _Batch, _done, _Paths, _Pending, _read_paths, _Walk
from bioplug.runtime import Runtime

#: Most pairs in one launch of the work-group-per-pair kernel.
MAX_GROUPS = 1 << 16


class LongPairs:
    """The long pairs' jobs and launches, as methods of
    :class:`~bioplug.pairwise.engine.PairwiseEngine` (one of its bases): they use its
    ``scoring``, ``runtimes``, ``_variant``, ``_scratch``, ``_launch`` and ``_traceback``."""

    def _group_jobs(self, long_pairs: np.ndarray, la, lb, trace: bool) -> list[tuple]:
        """Long pairs as launches of ``fill_wavefront_groups`` (``(pairs, "groups")``),
        largest first, each within every device's memory budget; a pair whose directions
        alone exceed it becomes ``(pair, None)`` (:meth:`_run_long`, checkpointed)."""
        if long_pairs.size == 0:
            return []
        cells = la[long_pairs].astype(np.float64) * lb[long_pairs]
        pairs = long_pairs[np.argsort(-cells, kind="stable")]
        budget = min(min(rt.memory_budget(self.memory_fraction), rt.max_alloc)
                     for rt in self.runtimes)
        # bytes per pair: its top border and (traced) its directions at the tallest strip
        need = (lb[pairs].astype(np.int64) + 1) * 8
        if trace:
            need += -(-la[pairs].astype(np.int64) // 32) * 32 * lb[pairs] * self._bits // 8
        per_job = MAX_GROUPS
        if len(self.runtimes) > 1:  # several devices: enough jobs to balance them
            per_job = max(1, min(per_job, -(-pairs.size // (4 * len(self.runtimes)))))
        jobs, current, used = [], [], 0
        for k, nbytes in zip(pairs.tolist(), need.tolist(), strict=True):
            if nbytes > budget:
                jobs.append((np.array([k]), None))
                continue
            if current and (used + nbytes > budget or len(current) >= per_job):
                jobs.append((np.array(current), "groups"))
                current, used = [], 0
            current.append(k)
            used += nbytes
        if current:
            jobs.append((np.array(current), "groups"))
        return jobs

    def _run_long(self, rt: Runtime, batch: _Batch, tasks: np.ndarray, trace: bool):
        """One pair on one work-group; traceback by checkpointed bands when memory is short.

        The score pass keeps the border row at the start of each band of rows whose
        direction bytes fit in the memory budget; the traceback then recomputes the bands
        from the bottom up, walking each before the next (so memory is one band, and the
        extra work is at most one more fill of the matrix).
        """
        task = tasks[0]
        nA, nB = int(task[1]), int(task[3])
        var = self._variant(rt, max(nA, nB), trace, "fill_wavefront")
        limit = var.kernel.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE,
                                               rt.device)
        group = max(1, min(rt.max_work_group, limit, 1024 if rt.is_gpu else 64,
                           -(-nA // var.rows)))
        border = rt.empty((nB + 1) * 8)
        cl.enqueue_copy(rt.queue, border, self._top_border(nB, var.dtype))
        result = rt.empty(16)
        lmem = (cl.LocalMemory(MAXK * MAXK * 4), cl.LocalMemory(2 * group * 8))
        head = (batch.seqs, cl.cltypes.make_int4(*map(int, task)), batch.matrix,
                np.int32(len(self.scoring.letters)), batch.gaps)
        out = np.empty(4, dtype=var.dtype)

        def fill(name, border_buf, b0, b1, *extra):
            self._launch(rt, name, var.kernel, (group,), (group,), *head, border_buf,
                         np.int32(b0), np.int32(b1), result, *extra, *lmem)
            cl.enqueue_copy(rt.queue, out, result)
            return out.copy()

        if not trace:
            return _done(np.array([int(fill("fill (wavefront)", border, 0, nA)[0])]))
        budget = min(rt.memory_budget(self.memory_fraction), rt.max_alloc)
        strips = max(1, min(budget // (var.rows * nB), -(-nA // var.rows)))
        band = strips * var.rows
        bands = list(range(0, nA, band))
        dirs = rt.empty(strips * nB * var.rows * self._bits // 8)
        checkpoints, best = [], []
        name = "fill+directions (wavefront)"
        for b0 in bands:  # score pass; the last band's directions stay in `dirs`
            checkpoints.append(_copy_buffer(rt, border, (nB + 1) * 8) if len(bands) > 1 else None)
            best.append(fill(name, border, b0, min(nA, b0 + band), dirs))
        if self.scoring.local:
            values = [int(b[0]) for b in best]
            first = values.index(max(values))
            score = values[first]
            end = np.array(best[first][1:3]).astype(np.int32)
            state = np.array([[end[0], end[1], 0 if score > 0 else -1, 0]], dtype=np.int32)
        else:
            first = len(bands) - 1
            score, end = int(best[-1][0]), np.array([nA, nB], dtype=np.int32)
            state = np.array([[nA, nB, 3, 0]], dtype=np.int32)
        base = np.zeros(1, dtype=np.uint64)
        ops_buf = rt.empty((nA + nB + 3) // 4)
        running = np.array([score], dtype=np.int32)  # carried from band to band
        walk = _Walk(tasks=rt.to_device(tasks[:1]), first=0, seqs=batch.seqs,
                     matrix=batch.matrix, gaps=batch.gaps,
                     running=cl.Buffer(rt.context, cl.mem_flags.READ_WRITE
                                       | cl.mem_flags.COPY_HOST_PTR, hostbuf=running),
                     scores=rt.to_device(running))
        for k in range(first, -1, -1):
            if state[0, 2] < 0:
                break
            if k != len(bands) - 1:  # recompute this band's directions from its checkpoint
                again = _copy_buffer(rt, checkpoints[k], (nB + 1) * 8)
                fill(name, again, bands[k], min(nA, bands[k] + band), dirs)
            state_buf = cl.Buffer(rt.context, cl.mem_flags.READ_WRITE
                                  | cl.mem_flags.COPY_HOST_PTR, hostbuf=state)
            self._traceback(rt, var.rows, dirs, nB, 1, bands[k], state_buf, 1, ops_buf,
                            rt.to_device(base), walk)
            cl.enqueue_copy(rt.queue, state, state_buf)
        ops = np.empty((nA + nB + 3) // 4, dtype=np.uint8)
        cl.enqueue_copy(rt.queue, ops, ops_buf)
        return _done(np.array([score]), _Paths(ops, base, state[:, 3].copy(), end[None, :]))

    def _run_groups(self, rt: Runtime, batch: _Batch, tasks: np.ndarray, trace: bool):
        """Pairs ``tasks`` on ``fill_wavefront_groups`` (a work-group each, one launch) and,
        traced, one ``traceback`` launch over all of them; results read back on the copy
        queue while the device runs the next job."""
        n = len(tasks)
        nA, nB = tasks[:, 1].astype(np.int64), tasks[:, 3].astype(np.int64)
        var = self._variant(rt, int(max(nA.max(), nB.max())), trace, "fill_wavefront_groups")
        limit = var.kernel.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE,
                                               rt.device)
        cap = max(1, min(rt.max_work_group, limit, 1024 if rt.is_gpu else 64))
        # as many work-items as the tallest pair has strips (the results do not depend on it)
        group = min(cap, -(-int(nA.max()) // var.rows))
        if rt.is_gpu and group > 32:
            group = min(cap, -(-group // 32) * 32)
        border_base = np.zeros(n + 1, dtype=np.uint64)
        np.cumsum(nB + 1, out=border_base[1:])
        border = self._top_borders(nB, border_base, var.dtype)
        args = [rt.upload(tasks), batch.matrix, np.int32(len(self.scoring.letters)),
                batch.gaps, rt.upload(border), rt.upload(border_base[:-1])]
        scores, ends_buf = rt.empty(n * 4), rt.empty(n * 8)
        args += [scores, ends_buf]
        if trace:
            words = -(-nA // var.rows) * nB * (var.rows * self._bits // 32)
            dir_base = np.zeros(n + 1, dtype=np.uint64)
            np.cumsum(words, out=dir_base[1:])
            dirs = self._scratch(rt, "dirs", int(dir_base[-1]) * 4)
            dir_buf = rt.upload(dir_base[:-1])
            args += [dirs, dir_buf]
        lmem = (cl.LocalMemory(MAXK * MAXK * 4), cl.LocalMemory(2 * group * 8))
        self._launch(rt, "fill+directions (groups)" if trace else "fill (groups)", var.kernel,
                     (n * group,), (group,), batch.seqs, *args, *lmem)
        out = np.empty(n, dtype=np.int32)
        if not trace:
            ev = cl.enqueue_copy(rt.queue, out, scores, is_blocking=False)
            return _Pending([ev], lambda: (out.astype(np.int64), None))
        base = np.zeros(n + 1, dtype=np.uint64)  # packed paths, 2 bits a step
        np.cumsum((nA + nB + 3) // 4, out=base[1:])
        ops_buf, state_buf = rt.empty(int(base[-1])), rt.empty(16 * n)
        knl = rt.kernel("pairwise_traceback.cl", "traceback",
                        {"LOCAL": int(self.scoring.local), "R": var.rows, "BITS": self._bits,
                         "GROUPS": 1})
        tgroup = rt.preferred_group(knl, 64 if rt.is_gpu else 16)
        done = self._launch(rt, "traceback (groups)", knl, (-(-n // tgroup) * tgroup,),
                            (tgroup,), dirs, np.int32(0), np.int32(1), np.int32(0),
                            np.int32(0), np.int32(n), state_buf, ends_buf, np.int32(1), ops_buf,
                            rt.upload(base), rt.empty(4 * n), scores, args[0],
                            np.int32(0), batch.seqs, batch.matrix,
                            np.int32(len(self.scoring.letters)), batch.gaps, dir_buf)
        return _read_paths(rt, done, out, scores, ends_buf, state_buf, ops_buf, base)

    def _top_borders(self, nB: np.ndarray, base: np.ndarray, dtype) -> np.ndarray:
        """:meth:`_top_border` of every pair, one after another (pair k from ``base[k]``)."""
        total = int(base[-1])
        top = np.zeros((total, 2), dtype=dtype)
        top[:, 1] = -(1 << 29)
        if not self.scoring.local:
            g = self.scoring.gaps
            column = np.arange(total, dtype=np.int64) - np.repeat(base[:-1].astype(np.int64),
                                                                  nB + 1)
            top[:, 0] = np.where(column > 0, g[4] + g[5] * (column - 1), 0)
        return top

    def _top_border(self, nB: int, dtype) -> np.ndarray:
        """Row 0 of the DP as (P, X) pairs: left insertion end gaps (global) or zeros."""
        g = self.scoring.gaps
        top = np.zeros((nB + 1, 2), dtype=dtype)
        if not self.scoring.local:
            top[1:, 0] = g[4] + g[5] * np.arange(nB)
        top[:, 1] = -(1 << 29)
        return top


def _copy_buffer(rt: Runtime, src, nbytes: int):
    dst = rt.empty(nbytes)
    cl.enqueue_copy(rt.queue, dst, src, byte_count=nbytes)
    return dst
