"""Ctrl-C in a command: the process ends at once, except while it writes or builds a file.

Python turns SIGINT into ``KeyboardInterrupt`` only between bytecodes of the main thread, so
a command waiting on the device (one search chunk, a stage of a big family) went on for the
whole of that wait, 20-30 s on a CPU device, before it stopped and threw its work away.
:func:`end_at_once` gives SIGINT its default action, as SIGTERM has: the kernel ends the
process (exit status 130) while nothing of it is on disk yet. Code that puts files in place
(temporary files renamed over an output, an index built in a temporary folder) runs inside
:func:`cleaning_up`, where Ctrl-C raises ``KeyboardInterrupt`` as usual, so that those files
are removed. Library users and the GUI keep Python's handler: neither function changes it
unless :func:`end_at_once` ran in the main thread. (PoCL installs a SIGINT handler of its own
as it lists its devices; it passes the signal on to the handler it found, so this holds on the
CPU device too.)
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

_ended_at_once = False


def end_at_once() -> None:
    """Let SIGINT end the process at once (the command-line executable's own process only;
    a SIGINT that is ignored, as in a script's background job, stays ignored)."""
    global _ended_at_once
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        _ended_at_once = True


@contextlib.contextmanager
def cleaning_up() -> Iterator[None]:
    """Inside: Ctrl-C raises ``KeyboardInterrupt`` (the block's clean-up runs), where
    :func:`end_at_once` made it end the process; nested blocks and other threads leave the
    handler as it is."""
    if (not _ended_at_once or threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.SIG_DFL):
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
