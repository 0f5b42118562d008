"""Pipeline stage events, shared by the CLI progress bars and the GUI.

An engine reports ``callback(stage, done, total)``; a callback may raise
:class:`Cancelled` (or return ``False`` through :class:`Progress`) to stop work between kernel
launches.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

ProgressCallback = Callable[[str, int, int], object]


class Cancelled(Exception):
    """Raised inside an engine when the user cancelled the job."""


class Progress:
    """Wraps an optional user callback; ``report`` raises :class:`Cancelled` on request.

    Parameters
    ----------
    callback : callable, optional
        ``callback(stage, done, total)``; returning ``False`` cancels the job.
    """

    def __init__(self, callback: ProgressCallback | None = None):
        self.callback = callback
        self.cancelled = False

    def report(self, stage: str, done: int, total: int) -> None:
        if self.cancelled:
            raise Cancelled(stage)
        if self.callback is not None and self.callback(stage, done, total) is False:
            self.cancelled = True
            raise Cancelled(stage)

    def cancel(self) -> None:
        self.cancelled = True


class TerminalBar:
    """A small stderr progress bar per stage, used by the CLI (no dependency)."""

    def __init__(self, stream=None, enabled: bool | None = None):
        self.stream = stream or sys.stderr
        # None: standard error closed (2>&-) in a process that did not replace it
        self.enabled = (self.stream is not None and self.stream.isatty()) if enabled is None \
            else bool(enabled and self.stream is not None)
        self.stage: str | None = None
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.perf_counter()
        if stage != self.stage:
            if self.stage is not None:
                self._line(self.stage, 1, 1, final=True)
            self.stage, self.start, self.last = stage, now, 0.0
        if done >= total or now - self.last > 0.1:
            self.last = now
            self._line(stage, done, total, final=False)

    def _line(self, stage: str, done: int, total: int, final: bool) -> None:
        if not self.enabled:
            return
        frac = done / total if total else 1.0
        bar = "#" * int(30 * frac)
        elapsed = time.perf_counter() - self.start
        end = "\n" if final else "\r"
        self.stream.write(f"{stage:<24} [{bar:<30}] {100 * frac:5.1f}% {elapsed:7.1f}s{end}")
        self.stream.flush()

    def close(self) -> None:
        if self.stage is not None:
            self._line(self.stage, 1, 1, final=True)
            self.stage = None
