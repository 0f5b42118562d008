"""OpenCL failures in the middle of a job, told to users as :class:`DeviceError`.

A device can fail after a job has started: a GPU reset or lost (``CL_DEVICE_NOT_AVAILABLE``,
``CL_INVALID_COMMAND_QUEUE`` from every later call), out of resources in a launch
(``CL_OUT_OF_RESOURCES``), a driver crash. pyopencl raises ``pyopencl.RuntimeError``,
``MemoryError`` or ``LogicError`` from whichever enqueue or read comes first, deep inside an
engine. The front doors wrap their work in :func:`device_guard`, which turns those into a
:class:`DeviceError` naming the device and suggesting ``--device cpu``; the command line gives
it one line on standard error and exit code 1 (a failed run, not bad input), and writes no
file (outputs are written atomically after the work).

Which device: the one the failing work ran on when the runtime layer knows it
(:func:`bioplug.runtime.run_lpt` names its worker's device), else the device this host thread
used last (:func:`remember`, called by the runtime), else every device started in the process.
"""

from __future__ import annotations

import functools
import logging
import sys
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from bioplug.errors import DeviceError

if TYPE_CHECKING:
    from bioplug.runtime.runtime import Runtime

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable)

_last = threading.local()


def remember(rt: Runtime) -> None:
    """Note ``rt`` as the device this host thread works on (named if a call fails)."""
    _last.runtime = rt


def is_device_failure(exc: BaseException) -> bool:
    """True for the errors pyopencl raises when an OpenCL call fails (``pyopencl.Error``:
    ``RuntimeError``, ``MemoryError``, ``LogicError``), False for everything else.

    pyopencl is not imported here: when no module has imported it, no OpenCL call ran.
    """
    cl = sys.modules.get("pyopencl")
    return cl is not None and isinstance(exc, cl.Error)


def _chosen(runtimes: Iterable[Runtime] | None) -> list:
    """The runtimes given, else this thread's last device, else every started one."""
    chosen = list(runtimes) if runtimes is not None else []
    if not chosen:
        last = getattr(_last, "runtime", None)
        if last is not None:
            chosen = [last]
    if not chosen:
        from bioplug.runtime.runtime import started_runtimes

        chosen = started_runtimes()
    return chosen


def describe(runtimes: Iterable[Runtime] | None = None) -> str:
    """The device(s) to name: ``'NAME' [PLATFORM]``, or a list of them."""
    names = [f"{rt.info.name!r} [{rt.info.platform}]" for rt in _chosen(runtimes)]
    if not names:
        return "the OpenCL device"
    if len(names) == 1:
        return f"the OpenCL device {names[0]}"
    return f"one of the OpenCL devices {', '.join(names)}"


def device_error(exc: BaseException, runtimes: Iterable[Runtime] | None = None
                 ) -> DeviceError | None:
    """The :class:`DeviceError` to raise for ``exc``, or None when ``exc`` is no OpenCL failure.

    Parameters
    ----------
    exc : BaseException
        What a front door caught.
    runtimes : iterable of Runtime, optional
        The device(s) the failing work ran on, when the caller knows them.

    Returns
    -------
    DeviceError or None
        ``exc`` itself when it already is a :class:`DeviceError` (a kernel build failure, an
        inner front door's report).
    """
    if isinstance(exc, DeviceError):
        return exc
    if not is_device_failure(exc):
        return None
    detail = " ".join(str(exc).split()) or "no details"
    return DeviceError(
        f"{describe(runtimes)} failed during the run ({type(exc).__name__}: {detail}); the "
        "device may have been lost, reset or run out of resources, and nothing was kept. Run "
        f"it again, or use another device, {_another(runtimes)}"
    )


def _another(runtimes: Iterable[Runtime] | None) -> str:
    """How to choose a device of the other kind than the one that failed: the CPU after a
    GPU, a GPU after the CPU (the command line's option and the Python argument)."""
    failed_cpu = [rt.info.kind == "CPU" for rt in _chosen(runtimes)]
    kind = "gpu" if failed_cpu and all(failed_cpu) else "cpu"
    return f"e.g. --device {kind} (device='{kind}'; in the app: the Devices panel)"


def device_guard(fn: F) -> F:
    """Decorate a front door: OpenCL failures inside it leave as :class:`DeviceError`.

    Nested front doors are fine: an inner one's :class:`DeviceError` passes through as it is.
    """

    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except DeviceError:
            raise
        except Exception as exc:
            lost = device_error(exc)
            if lost is None:
                raise
            log.debug("OpenCL failure in %s", fn.__qualname__, exc_info=True)
            raise lost from exc

    return guarded  # type: ignore[return-value]
