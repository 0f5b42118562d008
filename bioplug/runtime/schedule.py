"""Several devices at once: largest-first dynamic load balancing (seed 001, §3.5).

Tasks are sorted by estimated cost, largest first, and each device's host thread pulls the
next one when it is idle (Graham's LPT rule). Results are keyed by task index, so what comes
back does not depend on how many devices ran or which one ran what.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

log = logging.getLogger(__name__)


def run_lpt(
    tasks: Sequence[T],
    costs: Sequence[float],
    workers: Sequence[object],
    run: Callable[[object, T], R],
    on_done: Callable[[int, R], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    start: Callable[[object], object] | None = None,
) -> list[R]:
    """Run ``run(worker, task)`` for every task over the workers, largest cost first.

    Each worker's thread first starts its device (``start``), then takes tasks: a device
    still starting takes none, and one that has not started when the last task ends is not
    waited for (it finishes starting on its own thread, ready for the next call). A second
    GPU's context and programs cost more than a small job's kernels; this way they never
    delay it.

    Parameters
    ----------
    tasks, costs : sequences of equal length
        The work items and their estimated costs (e.g. cells of DP).
    workers : sequence
        One entry per device (typically a :class:`~bioplug.runtime.Runtime`); each gets a
        host thread.
    run : callable
        Does one task on one worker and returns its result.
    on_done : callable, optional
        Called as ``on_done(task_index, result)`` from the worker thread (progress).
    cancelled : callable, optional
        Polled between tasks; when it returns True no new task starts.
    start : callable, optional
        Called as ``start(worker)`` in the worker's thread before its first task; default:
        the worker's own ``start()`` method where it has one (a Runtime makes its context).

    Returns
    -------
    list
        Results in the order of ``tasks``.
    """
    order = sorted(range(len(tasks)), key=lambda i: -costs[i])
    results: list = [None] * len(tasks)
    board = _Board(len(order), cancelled)
    begin = start or _start_worker

    def worker_loop(worker):
        try:
            if board.idle():
                return
            begin(worker)
        except BaseException as exc:  # surfaced in the caller's thread below
            board.fail(_named_device(exc, worker), starting=True)
            return
        while (i := board.take()) is not None:
            try:
                results[order[i]] = run(worker, tasks[order[i]])
                if on_done is not None:
                    on_done(order[i], results[order[i]])
            except BaseException as exc:
                board.fail(_named_device(exc, worker))
                return
            finally:
                board.finish()

    if len(workers) == 1:
        worker_loop(workers[0])
    else:
        for w in workers:
            # Not daemons: an interpreter that ends while one is inside a driver's start-up
            # would unload what the driver is using (as driver_start's thread).
            threading.Thread(target=worker_loop, args=(w,), name="bioplug-device",
                             daemon=False).start()
        board.wait()
    if board.errors:
        raise board.errors[0]
    return results


class _Board:
    """The shared state of :func:`run_lpt`'s threads: the next task, the tasks running, the
    first errors, and a condition the caller waits on until nothing runs and nothing more
    will (every task taken, an error, or cancelled)."""

    def __init__(self, count: int, cancelled: Callable[[], bool] | None):
        self.count, self.cancelled = count, cancelled
        self.position = self.running = 0
        self.errors: list[BaseException] = []
        self.cond = threading.Condition()

    def idle(self) -> bool:
        """True when no task will start any more (checked before a device starts)."""
        with self.cond:
            return self._over()

    def _over(self) -> bool:
        return bool(self.errors or self.position >= self.count
                    or (self.cancelled is not None and self.cancelled()))

    def take(self) -> int | None:
        """The next task's position in the order, or None when the work is over."""
        with self.cond:
            if self._over():
                self.cond.notify_all()
                return None
            self.position += 1
            self.running += 1
            return self.position - 1

    def finish(self) -> None:
        with self.cond:
            self.running -= 1
            self.cond.notify_all()

    def fail(self, exc: BaseException, starting: bool = False) -> None:
        """Record a task's failure, or a device's failure to start while tasks are left (one
        that fails after the others took every task is logged: the results are whole)."""
        with self.cond:
            if starting and self.position >= self.count:
                log.warning("a device failed to start after the work was shared out: %s", exc)
                return
            self.errors.append(exc)
            self.cond.notify_all()

    def wait(self) -> None:
        """Until no task runs and none will start; devices still starting are not waited for."""
        with self.cond:
            while self.running or not self._over():
                self.cond.wait(0.05 if self.cancelled is not None else None)


def _start_worker(worker: object) -> None:
    """A worker's own ``start()``, where it has one (a Runtime, a PooledRuntime)."""
    begin = getattr(worker, "start", None)
    if callable(begin):
        begin()


def _named_device(exc: BaseException, worker: object) -> BaseException:
    """An OpenCL failure as a :class:`~bioplug.errors.DeviceError` naming the worker's device
    (with several devices, only this loop knows which one failed); anything else as it is."""
    from bioplug.faults import device_error
    from bioplug.runtime.runtime import Runtime

    if not isinstance(exc, Exception):
        return exc
    lost = device_error(exc, [worker] if isinstance(worker, Runtime) else None)
    if lost is None or lost is exc:
        return exc
    lost.__cause__ = exc
    return lost


def budget_batches(costs: Sequence[float], budget: float) -> list[tuple[int, int]]:
    """Consecutive ``[start, end)`` runs of items whose costs sum to at most ``budget``
    (an item costlier than the budget gets a run of its own), in order."""
    runs: list[tuple[int, int]] = []
    start, used = 0, 0.0
    for i, cost in enumerate(costs):
        if i > start and used + cost > budget:
            runs.append((start, i))
            start, used = i, 0.0
        used += cost
    if start < len(costs):
        runs.append((start, len(costs)))
    return runs
