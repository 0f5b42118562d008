"""The OpenCL pairwise engine: encoded sequences in, scores and alignment paths out.

Plan of a batch (seed 001 §3, extended):

* Pairs up to :data:`LONG_CELLS` cells run one per work-item (``fill_pairs``), sorted by size
  so that a window of neighbouring work-items does similar work, in windows sized from the
  device's memory. Score-only windows whose values provably fit 16 bits run
  ``fill_pairs16`` (``pairwise_fill16.cl``: two cells per packed operation) instead.
* Only the order and the windows are planned before the first launch; the task table of
  every window is uploaded at once (up to :data:`TABLE_BYTES`; beyond, each window's just
  before its launch; all-vs-all scores: by a kernel, ``pairwise_tasks.cl``), so no write
  waits behind a busy device, and a window's results are collected while the next runs.
* Longer pairs run one per work-group (``fill_wavefront_groups``, all of them in as few
  launches as the memory allows, their tracebacks in one launch each): the group sweeps the
  matrix as an anti-diagonal wavefront, so a 30,000 x 30,000 pair stays on the device. Its
  end cell is the one ``fill_pairs`` picks, so a pair's path does not depend on the kernel.
* Local tracebacks of pairs on windows keep directions only for a rectangle per pair
  (:meth:`PairwiseEngine._trace_local`): a first pass (16-bit where exact, with the 32-bit
  pass's end cells) finds the score, the end cell and, by
  a reverse score-only pass from the end (``fill_reverse_starts``, launched right after the
  first on the same window, from its results on the device), where the co-optimal paths can
  start; the traced fill then covers the rectangle between, which for unrelated proteins is
  a small part of the matrix, and gives the whole matrix's path. Each window's traced
  windows are enqueued as soon as its first passes are back, behind the next window's
  (:class:`~bioplug.pairwise.windowed._Stream`), each window's tasks made and uploaded from
  pinned staging on a side queue while the device runs the windows before.
* Tracebacks follow direction bytes on the device (``pairwise_traceback.cl``). When a long
  pair's directions do not fit in the memory budget, it runs alone (``fill_wavefront``): the
  score pass keeps checkpoint rows and the traceback recomputes one band of rows at a time
  from the bottom up.
* Windows are spread over several devices largest-first (``run_lpt``); each pair's result is
  computed by the same kernel whatever the number of devices, so results do not depend on it.

This module holds the front methods, the plan, the windows and their launches. The stages
are bases of :class:`PairwiseEngine` in modules of their own (methods, not functions taking
the engine: they call its planning and launch methods, and tests patch theirs on an
engine): :mod:`.packed16` (the 16-bit fill, :func:`fits_16bit`), :mod:`.long_pairs` (pairs
on work-groups) and :mod:`.windowed` (the windowed traceback's first passes); :mod:`.batch`
holds what they share and imports none of them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pyopencl as cl

from bioplug.alphabet import MAXK, Scoring
from bioplug.errors import InputError
from bioplug.pairwise.batch import (
    _Batch,
    _check_nonempty,
    _pack_sequences,
    _Paths,
    _Pending,
    _Plan,
    _read_paths,
    _subplan,
    _Table,
    _task_table,
    _Walk,
    size_order,
)
from bioplug.pairwise.long_pairs import LongPairs
from bioplug.pairwise.packed16 import LIMIT16 as LIMIT16  # "x as x": re-exported, as before
from bioplug.pairwise.packed16 import PACKED16_ROWS as PACKED16_ROWS
from bioplug.pairwise.packed16 import Packed16Fill
from bioplug.pairwise.packed16 import fits_16bit as fits_16bit
from bioplug.pairwise.windowed import WindowedTraceback
from bioplug.progress import Progress
from bioplug.runtime import Runtime, get_runtimes, run_lpt

log = logging.getLogger(__name__)

#: Rows per strip (GPU, CPU): more rows mean fewer global reads and writes per cell and more
#: registers per work-item; measured best on an H100 (benchmarks/RESULTS.md).
SCORE_ROWS = {"gpu": 64, "cpu": 16}
#: ... when directions are kept (R * bits per cell must fill 1, 2, 4 or 8 uints).
TRACE_ROWS = {"gpu": 32, "cpu": 16}
#: Pairs with more cells than this go to the one-work-group-per-pair kernel.
LONG_CELLS = 1 << 22
#: ... and so do pairs with a sequence longer than this (bounds the per-item column buffer).
LONG_LENGTH = 6000
#: Largest window of pairs in one launch of the per-work-item kernel.
MAX_WINDOW = 1 << 16
#: Largest task table (bytes, 32 a pair) uploaded whole before a batch's first launch; a
#: larger batch writes each window's tasks just before its launch.
TABLE_BYTES = 1 << 28


@dataclass
class _Variant:
    """A built fill kernel and how to read what it writes."""

    kernel: cl.Kernel
    dtype: type
    rows: int
    profile: bool
    defines: dict


class Traces:
    """Scores and optimal paths of a batch, as returned by :meth:`PairwiseEngine.trace_pairs`.

    Paths stay in the arrays the kernels wrote (operations from the end backwards, per
    launch) until :meth:`coordinates` turns one into ``Bio.Align.Alignment`` coordinates, so
    a batch of millions of pairs costs no per-pair Python work until it is used.
    """

    def __init__(self, scores: np.ndarray, launches: list[_Paths], launch: np.ndarray,
                 slot: np.ndarray, swapped: np.ndarray):
        self.scores = scores
        self._launches = launches
        self._launch = launch
        self._slot = slot
        self._swapped = swapped

    def __len__(self) -> int:
        return len(self.scores)

    def _path(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        paths = self._launches[self._launch[k]]
        s = self._slot[k]
        count = int(paths.counts[s])
        start = int(paths.base[s])
        packed = paths.ops[start: start + (count + 3) // 4]  # four 2-bit operations a byte
        ops = ((packed[:, None] >> np.array([0, 2, 4, 6], dtype=np.uint8)) & 3).ravel()
        return ops[:count], paths.ends[s]

    def operations(self, k: int) -> np.ndarray:
        """Pair k's path in alignment order: 0 aligned pair, 1 deletion, 2 insertion."""
        ops = self._path(k)[0][::-1]
        if self._swapped[k]:  # the kernel saw the pair the other way round
            ops = np.where(ops == 0, 0, 3 - ops).astype(np.uint8)
        return ops

    def coordinates(self, k: int) -> np.ndarray:
        """Pair k's path as ``Bio.Align.Alignment`` coordinates."""
        coords = _coordinates(*self._path(k))
        return coords[::-1].copy() if self._swapped[k] else coords

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every pair's path at once, as alignment columns: ``(ops, lengths, starts)``.

        ``ops`` holds the pairs' operations one after the other, each pair's in alignment
        order (0 aligned pair, 1 deletion: A advances, 2 insertion: B advances), ``lengths``
        the number of each pair's operations and ``starts`` the ``(n, 2)`` cell its path
        starts at (A, B). One pass over each launch's packed operations: no per-pair Python
        work, for the hit lists of a database search.
        """
        n = len(self.scores)
        lengths = np.zeros(n, dtype=np.int64)
        ends = np.zeros((n, 2), dtype=np.int64)
        first = np.zeros(n, dtype=np.int64)   # where a pair's reversed ops start, unpacked
        unpacked = []
        at = 0
        for number, paths in enumerate(self._launches):
            mine = np.flatnonzero(self._launch == number)
            slots = self._slot[mine]
            lengths[mine] = paths.counts[slots]
            ends[mine] = paths.ends[slots]
            first[mine] = at + 4 * np.asarray(paths.base, dtype=np.int64)[slots]
            ops = np.asarray(paths.ops, dtype=np.uint8)
            unpacked.append(((ops[:, None] >> np.array([0, 2, 4, 6], np.uint8)) & 3).ravel())
            at += 4 * ops.size
        every = np.concatenate(unpacked) if unpacked else np.zeros(0, np.uint8)
        offset = np.concatenate([[0], np.cumsum(lengths)])
        step = np.arange(offset[-1]) - np.repeat(offset[:-1], lengths)
        ops = every[np.repeat(first + lengths - 1, lengths) - step]   # alignment order
        swapped = np.repeat(self._swapped.astype(bool), lengths)
        ops = np.where(swapped & (ops != 0), 3 - ops, ops).astype(np.uint8)
        ends = np.where(self._swapped.astype(bool)[:, None], ends[:, ::-1], ends)
        totals = np.stack([segment_sums(ops != 2, offset), segment_sums(ops != 1, offset)],
                          axis=1)   # A's and B's steps
        return ops, lengths, ends - totals


class PairwiseEngine(WindowedTraceback, LongPairs, Packed16Fill):
    """Batched pairwise alignment on one or several OpenCL devices.

    Parameters
    ----------
    scoring : bioplug.alphabet.Scoring
        The integer scoring scheme (see :func:`bioplug.alphabet.make_scoring`).
    devices : device specification, Runtime, or list of them, optional
        Where to run (see :func:`bioplug.runtime.select_device`); a list spreads windows of
        pairs over several devices, largest first.
    memory_fraction : float
        Share of each device's global memory one launch may use.
    """

    def __init__(self, scoring: Scoring, devices=None, memory_fraction: float = 0.4):
        if len(scoring.letters) > MAXK:
            raise InputError(f"alphabet of {len(scoring.letters)} letters exceeds {MAXK}")
        self.scoring = scoring
        self.runtimes: list[Runtime] = get_runtimes(devices)
        self.memory_fraction = memory_fraction
        self._matrix = np.ascontiguousarray(scoring.matrix, dtype=np.int32).ravel()
        self._gaps = np.ascontiguousarray(scoring.gaps, dtype=np.int32)
        # Largest score step: every DP value is within _bound * (nA + nB) of zero.
        self._bound = int(max(np.abs(self._matrix).max(initial=0), np.abs(self._gaps).max()))
        #: Kernel variants; None chooses per device. Integer arithmetic without the packed
        #: profile measured fastest on an H100; tests set these to check every variant
        #: against the same oracle.
        self.use_float: bool | None = False
        self.use_profile: bool | None = False
        self.score_rows: int | None = None
        self.trace_rows: int | None = None
        #: Score-only windows and the windowed traceback's ends pass in packed 16-bit
        #: arithmetic (``pairwise_fill16.cl``) when every value fits (:func:`fits_16bit`);
        #: False forces the 32-bit kernel.
        self.use_packed16: bool = True
        #: Rows per strip (16, 32 or 64) of the 16-bit reverse pass (``fill_reverse16``); None:
        #: the device kind's (:data:`~bioplug.pairwise.packed16.REVERSE16_ROWS`: 32 on GPUs,
        #: measured faster than the 16-bit fill's 64 on an H100). Its lanes are pruned each on
        #: its own, so shorter strips follow the live region more closely, with fewer registers.
        self.reverse16_rows: int | None = None
        self._scratch_buffers: dict[tuple, cl.Buffer] = {}
        self._pinned_buffers: dict[tuple, np.ndarray] = {}
        # calls from several host threads take turns: they would share those buffers
        self._calls = threading.RLock()
        self._map_queues: dict[int, cl.CommandQueue] = {}
        self._parities: dict[tuple, int] = {}
        # Four direction bits per cell when extending a gap never scores below opening one
        # (internal and right end gaps; pairwise_fill.cl says why), else eight.
        g = self._gaps
        self._bits = 4 if all(g[k + 1] >= g[k] for k in (0, 2, 8, 10)) else 8
        #: Seconds per kernel, accumulated when set to a dict (waits on each launch).
        self.timings: dict[str, float] | None = None
        #: Pairs of more cells run a work-group each (None: :data:`LONG_CELLS`). A search's
        #: few hits take 0: one work-item alone on a multi-million-cell pair would set the
        #: launch's length while the rest of the device idles.
        self.long_cells: int | None = None
        #: Local tracebacks keep directions only for the rectangle between a path's start
        #: and end (:meth:`_trace_local`, default); False fills and keeps the whole matrix.
        #: Windowed is faster on both kinds of device: PoCL 5.95 s against 16.9 s (200
        #: proteins of 50-1,000 all-vs-all), H100 1.45 s against 1.92 s (2,000 proteins;
        #: benchmarks/RESULTS.md, issue 16, eighth session).
        self.windowed_traceback: bool = True

    # -- public API ---------------------------------------------------------------------------
    def score_pairs(self, targets: Sequence[np.ndarray], queries: Sequence[np.ndarray],
                    progress=None) -> np.ndarray:
        """Optimal scores of ``targets[k]`` against ``queries[k]`` (Biopython's values)."""
        seqs, ia, ib = _pairs(targets, queries)
        return self.score_indexed(seqs, ia, ib, progress)

    def trace_pairs(self, targets: Sequence[np.ndarray], queries: Sequence[np.ndarray],
                    progress=None) -> Traces:
        """Scores and one optimal path per pair, kept as compact arrays (:class:`Traces`)."""
        seqs, ia, ib = _pairs(targets, queries)
        return self.trace_indexed(seqs, ia, ib, progress)

    def align_pairs(self, targets: Sequence[np.ndarray], queries: Sequence[np.ndarray],
                    progress=None) -> list[tuple[float, np.ndarray]]:
        """Optimal score and one optimal alignment per pair.

        Returns
        -------
        list of (float, numpy.ndarray)
            The score and the ``(2, k)`` coordinates of ``Bio.Align.Alignment`` (for local
            alignments, of the aligned region only).
        """
        traces = self.trace_pairs(targets, queries, progress)
        return [(float(traces.scores[k]), traces.coordinates(k)) for k in range(len(traces))]

    def score_indexed(self, seqs: Sequence[np.ndarray], ia, ib, progress=None) -> np.ndarray:
        """Scores of ``seqs[ia[k]]`` against ``seqs[ib[k]]``: each sequence is sent once."""
        with self._calls:
            scores, _ = self._run(seqs, np.asarray(ia), np.asarray(ib), False, progress)
        return self.scoring.unscale(scores)

    def trace_indexed(self, seqs: Sequence[np.ndarray], ia, ib, progress=None) -> Traces:
        """Like :meth:`score_indexed`, with one optimal path per pair."""
        ia, ib = np.asarray(ia), np.asarray(ib)
        with self._calls:
            if self._windowed():
                scores, where = self._trace_local(seqs, ia, ib, progress)
            else:
                scores, where = self._run(seqs, ia, ib, True, progress)
        return Traces(self.scoring.unscale(scores), *where)

    def _windowed(self) -> bool:
        """Whether local tracebacks take :meth:`_trace_local` (``windowed_traceback``)."""
        return self.scoring.local and self.windowed_traceback

    def _trace_local(self, seqs, ia: np.ndarray, ib: np.ndarray, progress=None):
        """Local paths traced in the rectangles that hold them (pairs on windows).

        A first pass gives each pair's score, its end cell (the traced fill's own) and, by
        a score-only pass over the reversed prefixes from that end
        (``fill_reverse_starts``), a rectangle holding every co-optimal path that ends
        there. Directions are then kept for the rectangle only. Inside it no DP value
        exceeds the whole matrix's, and along the path the values are equal, so every
        choice of the walk (a maximum, ties by the same preference) is the same: the path
        is the one the whole matrix gives. Long pairs are traced whole, as before.
        """
        base = self._orient(seqs, ia, ib, lazy=True)
        if not self._long_pairs(base).all():
            return self._trace_windows(seqs, ia, ib, progress, base)
        # e.g. a search's hits, all on work-groups
        return self._run(seqs, ia, ib, True, progress, base=_subplan(base, np.arange(len(ia))))

    def _long_pairs(self, plan: _Plan) -> np.ndarray:
        """Which pairs run on work-groups (:data:`LONG_CELLS`, :data:`LONG_LENGTH`)."""
        la, lb = plan.la, plan.lb
        longest = int(max(la.max(initial=0), lb.max(initial=0)))
        limit = LONG_CELLS if self.long_cells is None else self.long_cells
        if longest <= LONG_LENGTH and longest ** 2 <= limit:
            return np.zeros(len(la), dtype=bool)  # the common case, without the scans
        return (la.astype(np.float64) * lb > limit) | (np.maximum(la, lb) > LONG_LENGTH)

    def _table_limit(self) -> int:
        """Most bytes of a task table uploaded whole (:meth:`_window_table`)."""
        budget = min(rt.memory_budget(self.memory_fraction) for rt in self.runtimes)
        return min(TABLE_BYTES, budget // 8)

    def score_all(self, seqs: Sequence[np.ndarray], progress=None) -> np.ndarray:
        """All-vs-all scores: an (n, n) symmetric array, self-alignment scores on the diagonal.

        ``score(a, b)`` and ``score(b, a)`` differ when insertion and deletion scores differ;
        then the upper triangle holds ``score(seqs[i], seqs[j])`` for i < j and the lower
        triangle its mirror; use :meth:`score_pairs` for the other orientation.
        """
        if self.scoring.symmetric:
            return triangle_square(*self.score_triangle(seqs, progress))
        tri = self.score_indexed(seqs, *np.triu_indices(len(seqs)), progress)
        return triangle_square(tri, np.arange(len(seqs)))

    def score_triangle(self, seqs: Sequence[np.ndarray], progress=None
                       ) -> tuple[np.ndarray, np.ndarray]:
        """All-vs-all scores of a symmetric scoring as a packed triangle, as the kernels make it.

        Returns ``(tri, rank)``: ``rank`` orders the sequences longest first (``rank[a]`` is
        the input index of rank ``a``), and ``tri`` holds the pairs ``a <= b`` of ranks row by
        row, pair ``(a, b)`` at ``a * n - a * (a - 1) // 2 + (b - a)``, self-scores included.
        What :meth:`score_all` spreads into a square; callers that reduce the scores on the
        device (the progressive guide tree) take it as it is.
        """
        if not self.scoring.symmetric:
            raise ValueError("score_triangle needs a symmetric scoring (see score_all)")
        n = len(seqs)
        lengths = np.fromiter((len(s) for s in seqs), dtype=np.int64, count=n)
        if n and lengths.max() <= LONG_LENGTH and lengths.max() ** 2 <= LONG_CELLS:
            with self._calls:
                return self._score_all_windows(seqs, lengths, progress)
        rank = np.argsort(-lengths, kind="stable")  # pairs come out already in kernel order
        ii, jj = np.triu_indices(n)
        return self.score_indexed(seqs, rank[ii], rank[jj], progress), rank

    def _score_all_windows(self, seqs, lengths: np.ndarray, progress=None
                           ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`score_triangle` for sequences whose pairs are all short.

        The pairs (i, j >= i) of the sequences sorted longest first are numbered row by
        row; a window is a range of those numbers, and its tasks are made just before its
        launch, while the device runs the previous one, and its scores go into the triangle
        while the device runs the next: no per-pair array of the whole batch exists.
        """
        progress = progress if isinstance(progress, Progress) else Progress(progress)
        _check_nonempty(seqs)
        n = len(seqs)
        rank = np.argsort(-lengths, kind="stable")
        flat, offsets = _pack_sequences(seqs, lengths)
        off_r = offsets[rank].astype(np.int32)
        len_r = lengths[rank].astype(np.int32)
        row_start = np.zeros(n + 1, dtype=np.int64)  # number of the pair (i, i)
        np.cumsum(n - np.arange(n), out=row_start[1:])
        col_sum = np.zeros(n + 1, dtype=np.float64)  # residues of ranks < j
        np.cumsum(len_r, out=col_sum[1:])
        row_cells = np.zeros(n + 1, dtype=np.float64)  # cells of the rows before i
        np.cumsum(len_r * (col_sum[-1] - col_sum[:-1]), out=row_cells[1:])

        def cells_before(x: int) -> float:
            i = int(np.searchsorted(row_start, x, side="right")) - 1
            if i >= n:
                return float(row_cells[n])
            k = x - int(row_start[i])
            return float(row_cells[i] + len_r[i] * (col_sum[min(i + k, n)] - col_sum[i]))

        windows, start, total = [], 0, int(row_start[-1])
        while start < total:  # the first pair of a window bounds its rows and columns
            longest = int(len_r[np.searchsorted(row_start, start, side="right") - 1])
            size = self._window_size(longest, longest, False, total - start)
            windows.append((start, min(total, start + size)))
            start = windows[-1][1]
        costs = [cells_before(b) - cells_before(a) for a, b in windows]
        widest = max(b - a for a, b in windows)
        tri = np.empty(total, dtype=np.float64)
        stage, done, whole = "pairwise scores", [0.0], sum(costs) or 1.0
        progress.report(stage, 0, 100)
        shared: dict[int, tuple] = {}

        def start_job(rt: Runtime, job):
            a, b = job
            if id(rt) not in shared:
                shared[id(rt)] = (self._base_batch(rt, flat), rt.to_device(row_start),
                                  rt.to_device(off_r), rt.to_device(len_r))
            base, starts_buf, off_buf, len_buf = shared[id(rt)]
            tasks = self._scratch(rt, "tasks", widest * 16)  # sized once
            make = rt.kernel("pairwise_tasks.cl", "all_vs_all_tasks")
            group = rt.preferred_group(make, 256 if rt.is_gpu else 16)
            make(rt.queue, (-(-(b - a) // group) * group,), (group,), starts_buf, np.int32(n),
                 np.int64(a), np.int32(b - a), off_buf, len_buf, tasks)
            longest = int(len_r[np.searchsorted(row_start, a, side="right") - 1])
            return self._run_window(replace(base, task_buf=tasks), 0, b - a, False,
                                    rt=rt, bounds=(longest, longest))

        def collect(job, result):
            a, b = job
            tri[a:b] = self.scoring.unscale(result[0])
            done[0] += cells_before(b) - cells_before(a)
            progress.report(stage, int(100 * done[0] / whole), 100)

        self._pipeline(windows, costs, start_job, collect, progress)
        progress.report(stage, 100, 100)
        return tri, rank

    # -- planning -----------------------------------------------------------------------------
    def _run(self, seqs, ia: np.ndarray, ib: np.ndarray, trace: bool, progress=None,
             base: _Plan | None = None):
        """Plan, launch and collect; returns scores and (for traces) where each path is.

        ``base``: the same pairs' orientation and packing, made before (not redone).
        """
        progress = progress if isinstance(progress, Progress) else Progress(progress)
        plan = self._plan(seqs, ia, ib, trace, base=base)
        n = len(plan.ia)
        scores = np.zeros(n, dtype=np.int64)
        launches: list[_Paths] = []
        launch, slot = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        total, done = float(sum(plan.costs)) or 1.0, [0.0]
        cost = {id(job): c for job, c in zip(plan.jobs, plan.costs, strict=True)}
        stage = "pairwise alignment" if trace else "pairwise scores"
        progress.report(stage, 0, 100)
        table = self._window_table(plan, trace)
        shared: dict[int, _Batch] = {}

        def start_job(rt: Runtime, job):
            idx, window = job
            if id(rt) not in shared:
                shared[id(rt)] = self._base_batch(rt, plan.flat)
                if table is not None:  # every window's tasks, uploaded once
                    shared[id(rt)] = replace(
                        shared[id(rt)], task_buf=rt.to_device(table.tasks),
                        base_buf=rt.to_device(table.ops_base), tasks=table.tasks,
                        ops_base=table.ops_base)
            batch = shared[id(rt)]
            if table is not None and isinstance(window, tuple):
                return self._run_window(batch, *window, trace, rt=rt)
            task = np.empty((len(idx), 4), dtype=np.int32)  # this job's tasks, made now
            task[:, 0], task[:, 1] = plan.off_a[idx], plan.la[idx]
            task[:, 2], task[:, 3] = plan.off_b[idx], plan.lb[idx]
            if window is None:  # a pair too long for the budget: checkpointed, at once
                return self._run_long(rt, batch, task, trace)
            if window == "groups":
                return self._run_groups(rt, batch, task, trace)
            return self._run_window(self._window_batch(rt, batch, plan, task, trace),
                                    0, len(idx), trace, rt=rt)

        def collect(job, result):
            idx, window = job
            values, paths = result
            scores[idx] = values
            if paths is not None:
                launch[idx] = len(launches)
                slot[idx] = np.arange(len(idx))
                launches.append(paths)
            done[0] += cost[id(job)]
            progress.report(stage, int(100 * done[0] / total), 100)

        self._pipeline(plan.jobs, plan.costs, start_job, collect, progress)
        progress.report(stage, 100, 100)
        return scores, (launches, launch, slot, plan.swapped)

    def _window_table(self, plan: _Plan, trace: bool) -> _Table | None:
        """Every window's tasks (and packed-path offsets) in launch order, made at once, or
        None when the table would take more than :data:`TABLE_BYTES` or an eighth of a
        device's budget (then each window's are made before its launch)."""
        windows = [idx for idx, window in plan.jobs if isinstance(window, tuple)]
        if not windows:
            return None
        order = np.concatenate(windows)
        if order.size * 32 > self._table_limit():
            return None
        tasks = _task_table(plan, order)
        ops_base = np.zeros(order.size + 1, dtype=np.uint64)  # packed paths, 2 bits a step
        if trace:
            np.cumsum((tasks[:, 1].astype(np.uint64) + tasks[:, 3] + 3) // 4, out=ops_base[1:])
        return _Table(tasks, ops_base)

    def _window_batch(self, rt: Runtime, batch: _Batch, plan: _Plan, task: np.ndarray,
                      trace: bool) -> _Batch:
        """``batch`` with one window's tasks ``task`` written to reused buffers (no
        :meth:`_window_table`)."""
        base = np.zeros(len(task) + 1, dtype=np.uint64)  # packed paths, 2 bits a step
        if trace:
            np.cumsum((task[:, 1].astype(np.uint64) + task[:, 3] + 3) // 4, out=base[1:])
        # into reused buffers by non-blocking writes (pyopencl keeps the arrays alive);
        # queued behind the previous window (some drivers make the host wait for them)
        task_buf = self._scratch(rt, "tasks", plan.widest * 16)  # sized once
        base_buf = self._scratch(rt, "bases", (plan.widest + 1) * 8)
        cl.enqueue_copy(rt.queue, task_buf, task, is_blocking=False)
        cl.enqueue_copy(rt.queue, base_buf, base, is_blocking=False)
        return replace(batch, task_buf=task_buf, base_buf=base_buf, tasks=task,
                       ops_base=base)

    def _plan(self, seqs, ia: np.ndarray, ib: np.ndarray, trace: bool,
              base: _Plan | None = None) -> _Plan:
        """Orient the pairs (or take ``base``'s, the same pairs' earlier plan) and cut the
        jobs."""
        base = base if base is not None else self._orient(seqs, ia, ib)
        la, lb, off_a, off_b = base.la, base.lb, base.off_a, base.off_b
        longest = int(max(la.max(initial=0), lb.max(initial=0)))
        cells = la.astype(np.float64) * lb
        limit = LONG_CELLS if self.long_cells is None else self.long_cells
        if longest <= LONG_LENGTH and longest ** 2 <= limit:
            is_long = np.zeros(len(la), dtype=bool)  # the common case, without the scans
            short = np.arange(len(la))
        else:
            is_long = self._long_pairs(base)
            short = np.flatnonzero(~is_long)
        order, windows = self._windows(short, la, lb, trace)
        jobs = self._group_jobs(np.flatnonzero(is_long), la, lb, trace)
        costs = [float(cells[idx].sum()) for idx, _ in jobs]
        jobs += [(order[a:b], (a, b)) for a, b in windows]
        running = np.concatenate([[0.0], np.cumsum(cells[order])])  # cells per window
        costs += [float(running[b] - running[a]) for a, b in windows]
        return replace(base, la=la, lb=lb, off_a=off_a, off_b=off_b, cells=cells,
                       is_long=is_long, jobs=jobs, costs=costs,
                       widest=max((b - a for a, b in windows), default=1))

    def _orient(self, seqs, ia: np.ndarray, ib: np.ndarray, lazy: bool = False) -> _Plan:
        """Check the pairs, pack the sequences and orient the pairs (no jobs yet); ``lazy``
        orients only the lengths (a lazy :class:`_Plan`: the windowed traceback orients
        each window's pairs when it makes the window's tasks, while the device runs)."""
        _check_nonempty(seqs)
        if len(ia) != len(ib):
            raise InputError(f"{len(ia)} target indices but {len(ib)} query indices")
        if len(ia) and (min(ia.min(), ib.min()) < 0 or max(ia.max(), ib.max()) >= len(seqs)):
            raise InputError(f"pair indices must lie in 0..{len(seqs) - 1}")
        lengths = np.fromiter((len(s) for s in seqs), dtype=np.int32, count=len(seqs))
        flat, offsets = _pack_sequences(seqs, lengths)
        # With a symmetric scoring the longer sequence goes down the rows: neighbouring
        # work-items then loop the same way (a warp waits for its longest row and column
        # loops, so mixed orientations would cost up to (long/short) times the work).
        swapped = np.zeros(len(ia), dtype=bool)
        la, lb = lengths[ia], lengths[ib]
        if self.scoring.symmetric:
            swapped = la < lb
            lb = np.minimum(la, lb)
            np.maximum(la, lengths[ib], out=la)
        if lazy:
            return _Plan(ia, ib, la, lb, None, None, None, flat, swapped, None, [], [], 1,
                         offsets=offsets)
        ia, ib = np.where(swapped, ib, ia), np.where(swapped, ia, ib)
        return _Plan(ia, ib, la, lb, offsets[ia], offsets[ib], None, flat, swapped, None, [],
                     [], 1)

    def _base_batch(self, rt: Runtime, flat: np.ndarray) -> _Batch:
        """The batch's sequences and scoring on ``rt``, uploaded before its first launch
        (buffers made from host memory during the run would wait for the busy device)."""
        return _Batch(rt.to_device(flat), rt.to_device(self._matrix), rt.to_device(self._gaps),
                      None, None, None, None, flat.size)

    def _pipeline(self, jobs, costs, start_job, collect, progress: Progress) -> None:
        """Every job over the devices, largest cost first, two launches in flight per device.

        ``start_job(rt, job)`` enqueues a launch and returns its :class:`_Pending`;
        ``collect(job, result)`` gets each job's result, one at a time (device threads wait
        for results outside the lock, and collect while their next launch runs).
        """
        in_flight: dict[int, tuple] = {}

        def run_job(rt: Runtime, job):
            pending = start_job(rt, job)
            previous = in_flight.pop(id(rt), None)
            in_flight[id(rt)] = (job, pending)
            return None if previous is None else (previous[0], previous[1].result())

        def on_done(_k, item):
            if item is not None:
                collect(*item)

        report = _serialised(on_done)
        try:
            run_lpt(jobs, costs, self.runtimes, run_job, report,
                    cancelled=lambda: progress.cancelled)
        finally:
            last = list(in_flight.values())
            in_flight.clear()
        for job, pending in last:
            report(None, (job, pending.result()))

    def _windows(self, short: np.ndarray, la, lb, trace: bool, blocks: bool = True,
                 balance: bool = True):
        """Group short pairs by size into launches that fit every device's memory budget.

        Pairs are sorted by rows, then columns, largest first (:func:`size_order`), so
        neighbouring work-items run the same loops; a window's first pair bounds the rows
        of all its pairs, and the longest query of the batch bounds the columns. Returns
        the launch order of the pairs and each window's (start, stop) in it. ``blocks``:
        pairs already ordered by rows are kept (as score_all makes them, each block of one
        target ordered by columns too); the traced rectangles, in no such blocks, pass False.
        ``balance``: see :meth:`_window_size`.
        """
        if short.size == 0:
            return short, []
        every = short.size == len(la)  # all pairs (short is 0..n-1): no gathers of them
        rows = la if every else la[short]
        cols = lb if every else lb[short]
        maxB = int(cols.max())
        order = size_order(short, rows, cols, blocks=blocks)
        return order, self._cut(la, order, maxB, trace, balance=balance)

    def _cut(self, la: np.ndarray, order: np.ndarray, maxB: int, trace: bool,
             most: int = MAX_WINDOW, balance: bool = True) -> list:
        """Windows ``(start, stop)`` of pairs in ``order`` (rows largest first) whose
        queries are up to ``maxB`` long: each as large as its first pair allows (at most
        ``most`` pairs)."""
        windows, start = [], 0
        while start < order.size:
            size = self._window_size(int(la[order[start]]), maxB, trace, order.size - start,
                                     most, balance)
            stop = min(order.size, start + size)
            windows.append((start, stop))
            start = stop
        return windows

    def _window_size(self, rows: int, maxB: int, trace: bool, remaining: int,
                     most: int = MAX_WINDOW, balance: bool = True) -> int:
        """Pairs in one launch whose first pair has ``rows`` rows, queries up to ``maxB``
        (at most ``most``). With several devices and ``balance``, windows are cut smaller so
        that the devices share them; windows that one device runs anyway (the traced pass of
        a windowed traceback, within its device's stream) pass ``balance=False``."""
        budget = min(rt.memory_budget(self.memory_fraction) for rt in self.runtimes)
        max_alloc = min(rt.max_alloc for rt in self.runtimes)
        per_device = max(64, 8 * max(rt.compute_units for rt in self.runtimes))
        ndev = len(self.runtimes)
        column = (maxB + 1) * 8
        # Direction bytes per pair, padded to whole strips of the widest strip used.
        directions = (-(-rows // 32) * 32 * maxB * self._bits // 8) if trace else 0
        size = min(most, budget // (column + directions), max_alloc // column)
        if directions:
            size = min(size, max_alloc // directions)
        if size > 256:  # launches round up to a multiple of the work-group (<= 128)
            size -= 128
        if balance and ndev > 1 and remaining > per_device * ndev:
            # Several devices: windows small enough to balance, big enough to fill one.
            size = min(size, max(per_device, remaining // (4 * ndev)))
        return max(1, size)

    # -- launches -----------------------------------------------------------------------------
    def _variant(self, rt: Runtime, max_len: int, trace: bool, name: str,
                 ends: bool = False) -> _Variant:
        """The kernel variant for a launch.

        Float arithmetic is exact for integers below 2^24 and runs on a GPU's wider FP32
        pipes; 16-row strips halve the global traffic of score-only fills; the packed byte
        profile replaces matrix look-ups when scores fit in a byte.
        """
        use_float = self.use_float if self.use_float is not None else rt.is_gpu
        use_float = use_float and self._bound * 2 * (max_len + 1) < 2**24
        fits_byte = bool(np.abs(self.scoring.matrix).max(initial=0) < 128)
        use_profile = bool(self.use_profile if self.use_profile is not None else rt.is_gpu)
        use_profile = use_profile and fits_byte and not use_float and name == "fill_pairs"
        kind = "gpu" if rt.is_gpu else "cpu"
        if use_profile:
            rows = 8
        elif trace:
            rows = self.trace_rows or TRACE_ROWS[kind]
            rows = min(rows, 32)  # directions of a strip column fill at most 8 uints
        else:
            rows = self.score_rows or SCORE_ROWS[kind]
        # ends in the traced fill's order (strip, column, row): taller strips keep one end
        # per part of its strip height, or the strips are its height
        order_rows = 8 if use_profile else min(self.trace_rows or TRACE_ROWS[kind], 32)
        if ends and rows % order_rows:
            rows = order_rows
        defines = {"LOCAL": int(self.scoring.local), "TRACE": int(trace), "R": rows,
                   "MAXK": MAXK, "SCORE_FLOAT": int(use_float), "PROFILE": int(use_profile),
                   "BITS": self._bits, "ENDS": int(ends), "RT": order_rows if ends else rows}
        return _Variant(rt.kernel("pairwise_fill.cl", name, defines),
                        np.float32 if use_float else np.int32, rows, use_profile, defines)

    def _scratch(self, rt: Runtime, name: str, nbytes: int) -> cl.Buffer:
        """A device buffer reused across launches (the in-order queue serialises its users)."""
        key = (id(rt), name)
        buf = self._scratch_buffers.get(key)
        if buf is None or buf.size < nbytes:
            self._scratch_buffers.pop(key, None)
            buf = self._scratch_buffers[key] = rt.empty(nbytes)
        return buf

    def _pinned(self, rt: Runtime, name: str, nbytes: int) -> np.ndarray:
        """Host memory the device reads into by DMA (an ``ALLOC_HOST_PTR`` buffer, mapped for
        the engine's life), reused across launches: reads into ordinary host memory are not
        asynchronous on some drivers (the host would wait for the kernel they follow)."""
        key = (id(rt), name)
        host = self._pinned_buffers.get(key)
        if host is None or host.size < nbytes:
            buf = cl.Buffer(rt.context, cl.mem_flags.READ_WRITE | cl.mem_flags.ALLOC_HOST_PTR,
                            max(nbytes, 1))
            # mapped on a queue of its own: on the device's queue the map would wait for
            # the launches ahead of it
            host, _ = cl.enqueue_map_buffer(self._side_queue(rt), buf, cl.map_flags.READ
                                            | cl.map_flags.WRITE, 0, (max(nbytes, 1),),
                                            np.uint8)
            self._pinned_buffers[key] = host
        return host

    def _stage_upload(self, rt: Runtime, name: str, arrays: Sequence[np.ndarray]
                ) -> list[cl.Buffer]:
        """``arrays`` in device buffers of their own (``name``), written from pinned staging
        on a side queue while ``rt.queue`` computes; launches enqueued on ``rt.queue`` after
        this call wait for the writes (a barrier), the ones before do not. The buffers and
        the staging are reused by the next upload of ``name``: the caller makes sure the
        launches that read them are done by then."""
        sizes = [int(a.nbytes) for a in arrays]
        stage = self._pinned(rt, f"upload {name}", sum(sizes))
        queue = self._side_queue(rt)
        buffers, events, offset = [], [], 0
        for k, (array, size) in enumerate(zip(arrays, sizes, strict=True)):
            view = stage[offset: offset + size]
            view[:] = np.ascontiguousarray(array).reshape(-1).view(np.uint8)
            buffers.append(self._scratch(rt, f"{name}.{k}", size))
            events.append(cl.enqueue_copy(queue, buffers[-1], view, is_blocking=False))
            offset += size
        queue.flush()
        cl.enqueue_barrier(rt.queue, wait_for=events)
        return buffers

    def _side_queue(self, rt: Runtime) -> cl.CommandQueue:
        """A queue of the engine's own on ``rt`` (maps and uploads): on the device's queue
        they would wait for the launches ahead of them."""
        queue = self._map_queues.get(id(rt))
        if queue is None:
            queue = self._map_queues[id(rt)] = cl.CommandQueue(rt.context, rt.device)
        return queue

    def _launch(self, rt: Runtime, name: str, knl: cl.Kernel, gsize, lsize, *args) -> cl.Event:
        event = knl(rt.queue, gsize, lsize, *args)
        if self.timings is not None:
            event.wait()
            self.timings[name] = self.timings.get(name, 0.0) + 1e-9 * (
                event.profile.end - event.profile.start)
        return event

    def _run_window(self, batch: _Batch, first: int, stop: int, trace: bool, *,
                    rt: Runtime, bounds: tuple[int, int] | None = None,
                    slot: str | None = None):
        """One launch of ``fill_pairs`` (and ``traceback``) over tasks ``first:stop``.

        Every buffer is either the batch's (uploaded once) or a reused scratch buffer, and
        every read is non-blocking, so enqueueing never waits for the device. ``bounds``
        (longest target, longest query) stands in for ``batch.tasks`` when the task table
        exists only on the device (score-only). ``slot`` names a traced window's result
        buffers (default: the next parity, :meth:`_next_parity`); the windowed traceback
        keeps several traced windows in flight, each in a slot of its own.
        """
        n = stop - first
        if bounds is None:
            tasks = batch.tasks[first:stop]
            maxA, maxB = int(tasks[:, 1].max()), int(tasks[:, 3].max())
        else:
            maxA, maxB = bounds
        if not trace and self._packed16(rt, batch, maxA, maxB):
            return self._run_window16(rt, batch, first, n, maxB)
        var = self._variant(rt, max(maxA, maxB), trace, "fill_pairs")
        group = min(rt.preferred_group(var.kernel, 128 if rt.is_gpu else 16), n)
        T = -(-n // group) * group
        work = self._scratch(rt, "work", (maxB + 1) * T * 8)
        # Traced windows alternate between two sets of result buffers: the reads of one run
        # on the copy queue while the next window computes.
        parity = slot if slot is not None else self._next_parity(rt) if trace else 0
        scores = self._scratch(rt, f"scores{parity}", n * 4)
        local = [cl.LocalMemory(MAXK * MAXK * 4)]
        if var.profile:
            local.append(cl.LocalMemory(group * (MAXK + 1) * 8))
        head = (batch.seqs, batch.task_buf, np.int32(first), np.int32(n), batch.matrix,
                np.int32(len(self.scoring.letters)), batch.gaps, work, scores)
        out = np.empty(n, dtype=np.int32)
        if not trace:
            self._launch(rt, "fill", var.kernel, (T,), (group,), *head, *local)
            ev = cl.enqueue_copy(rt.queue, out, scores, is_blocking=False)
            return _Pending([ev], lambda: (out.astype(np.int64), None))
        dirs = self._scratch(rt, "dirs", -(-maxA // var.rows) * var.rows * maxB * T
                             * self._bits // 8)
        ends_buf = self._scratch(rt, f"ends{parity}", n * 8)
        self._launch(rt, "fill+directions", var.kernel, (T,), (group,), *head, dirs,
                     np.int32(maxB), ends_buf, *local)
        # rectangles: the path ends where the whole matrix's does
        if batch.ends_buf is not None:
            cl.enqueue_copy(rt.queue, ends_buf, batch.ends_buf, src_offset=8 * first,
                            byte_count=8 * n)
        base = batch.ops_base[first:stop + 1] - batch.ops_base[first]
        ops_buf = self._scratch(rt, f"ops{parity}", int(base[-1]))
        walk = _Walk(tasks=batch.task_buf, first=first, seqs=batch.seqs, matrix=batch.matrix,
                     gaps=batch.gaps, running=self._scratch(rt, "running", 4 * n),
                     scores=scores)
        state_buf = self._scratch(rt, f"states{parity}", 16 * n)
        done = self._traceback(rt, var.rows, dirs, maxB, T, 0, state_buf, n, ops_buf,
                               batch.base_buf, walk, ends_buf)
        # Pinned staging for the windowed passes only: the whole-matrix path (the GPU default)
        # keeps the reads measured on the H100 until staging is measured there too.
        windowed = batch.ends_buf is not None
        stage = (self._pinned(rt, f"paths{parity}", 28 * n + int(base[-1])) if windowed
                 else None)
        return _read_paths(rt, done, out, scores, ends_buf, state_buf, ops_buf, base, stage)

    def _next_parity(self, rt: Runtime) -> int:
        """0, 1, 0, ... per device: which set of traced-result buffers a window uses. Two
        sets suffice: a device has at most two windows in flight, and a window is enqueued
        only after the one two before it has been read back."""
        key = (id(rt), "parity")
        self._parities[key] = 1 - self._parities.get(key, 1)
        return self._parities[key]

    def _traceback(self, rt: Runtime, rows: int, dirs, maxB: int, T: int, row0: int,
                   state_buf, n: int, ops_buf, base_buf, walk: _Walk,
                   ends_buf=None) -> cl.Event:
        """Enqueue the walk over the directions of rows > ``row0`` for ``n`` tasks.

        With ``ends_buf`` the walks start from the fill's end cells; otherwise they resume
        from the states in ``state_buf``. The new states are left in ``state_buf``.
        """
        knl = rt.kernel("pairwise_traceback.cl", "traceback",
                        {"LOCAL": int(self.scoring.local), "R": rows, "BITS": self._bits})
        group = rt.preferred_group(knl, 64 if rt.is_gpu else 16)
        init = ends_buf is not None
        return self._launch(rt, "traceback", knl, (-(-n // group) * group,), (group,), dirs,
                     np.int32(maxB), np.int32(T), np.int32(row0), np.int32(row0), np.int32(n),
                     state_buf, ends_buf if init else state_buf, np.int32(init), ops_buf,
                     base_buf, walk.running, walk.scores, walk.tasks, np.int32(walk.first),
                     walk.seqs, walk.matrix, np.int32(len(self.scoring.letters)), walk.gaps)


def _serialised(fn):
    """``fn`` behind a lock: device threads report results one at a time."""
    lock = threading.Lock()

    def call(*args):
        with lock:
            return fn(*args)

    return call


def _pairs(targets, queries):
    if len(targets) != len(queries):
        raise InputError(f"batch lengths differ: {len(targets)} targets and {len(queries)} "
                         "queries")
    n = len(targets)
    return list(targets) + list(queries), np.arange(n), np.arange(n, 2 * n)


def segment_sums(values: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Sums of ``values[offset[k]:offset[k + 1]]`` for every k (empty pieces sum to 0)."""
    cum = np.concatenate([[0], np.cumsum(values, dtype=np.int64)])
    return cum[offset[1:]] - cum[offset[:-1]]


def _coordinates(ops: np.ndarray, end) -> np.ndarray:
    """``Bio.Align.Alignment`` coordinates from reversed operations and the end cell."""
    ops = np.asarray(ops, dtype=np.uint8)[::-1]
    step_a = (ops != 2).astype(np.int64)
    step_b = (ops != 1).astype(np.int64)
    start_a = int(end[0]) - int(step_a.sum())
    start_b = int(end[1]) - int(step_b.sum())
    if ops.size == 0:
        return np.array([[start_a, start_a], [start_b, start_b]], dtype=np.int64)
    cuts = np.concatenate([[0], np.flatnonzero(ops[1:] != ops[:-1]) + 1, [ops.size]])
    ca = np.concatenate([[0], np.cumsum(step_a)])[cuts] + start_a
    cb = np.concatenate([[0], np.cumsum(step_b)])[cuts] + start_b
    return np.stack([ca, cb]).astype(np.int64)


def triangle_square(tri: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The symmetric (n, n) float64 square of a :meth:`PairwiseEngine.score_triangle`
    triangle, in input order: filled in rank order (rows written in sequence), mirrored, then
    rows and columns taken in input order (half the time of scattering into input order)."""
    n = rank.size
    square = np.zeros((n, n), dtype=np.float64)
    square[np.triu_indices(n)] = tri
    square += np.triu(square, 1).T
    where = np.empty(n, dtype=np.int64)
    where[rank] = np.arange(n)
    return square[where][:, where]
