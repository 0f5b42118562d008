"""Several devices at once: largest-first dynamic load balancing (seed 001, §3.5).

Tasks are sorted by estimated cost, largest first, and each device's host thread pulls the
next one when it is idle (Graham's LPT rule). Results are keyed by task index, so what comes
back does not depend on how many devices ran or which one ran what.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_lpt(
    tasks: Sequence[T],
    costs: Sequence[float],
    workers: Sequence[object],
    run: Callable[[object, T], R],
    on_done: Callable[[int, R], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[R]:
    """Run ``run(worker, task)`` for every task over the workers, largest cost first.

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

    Returns
    -------
    list
        Results in the order of ``tasks``.
    """
    order = sorted(range(len(tasks)), key=lambda i: -costs[i])
    results: list = [None] * len(tasks)
    lock = threading.Lock()
    errors: list[BaseException] = []
    position = 0

    def worker_loop(worker):
        nonlocal position
        while True:
            with lock:
                if errors or position >= len(order) or (cancelled and cancelled()):
                    return
                i = order[position]
                position += 1
            try:
                results[i] = run(worker, tasks[i])
                if on_done is not None:
                    on_done(i, results[i])
            except BaseException as exc:  # surfaced in the caller's thread below
                with lock:
                    errors.append(_named_device(exc, worker))
                return

    if len(workers) == 1:
        worker_loop(workers[0])
    else:
        threads = [threading.Thread(target=worker_loop, args=(w,), daemon=True) for w in workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    if errors:
        raise errors[0]
    return results


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
