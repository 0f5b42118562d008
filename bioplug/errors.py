"""Exceptions that reach users, each with a message fit to print as it is."""

from __future__ import annotations


class BioplugError(Exception):
    """Base class: the CLI prints these without a traceback."""


class NoOpenCLError(BioplugError):
    """No OpenCL platform or no device matching the request."""


class DeviceError(BioplugError):
    """The OpenCL device failed, not the input: lost, reset or out of resources during a run
    (see :mod:`bioplug.faults`). The message names the device and suggests another
    (``--device cpu``); the command line exits with code 1."""


class KernelBuildError(DeviceError):
    """An OpenCL program failed to build; the message carries the build log."""


class InputError(BioplugError, ValueError):
    """Bad user input: names the record, position and character where it can."""


class OutputWriteError(OSError):
    """An output the system failed to write (a full disk or quota, ``/dev/full``, an I/O
    error): ``cannot write out.fa: No space left on device``. Not an
    :class:`~bioplug.errors.InputError`: the run failed (exit code 1, as ``cp``'s), nothing
    in the command was wrong; an OSError still, for callers that catch those (the GUI).

    Parameters
    ----------
    target : path-like or str
        The output as the user named it (``"standard output"`` for ``-``).
    cause : OSError
        The system's error; its errno and reason are kept.
    """

    def __init__(self, target, cause: OSError):
        super().__init__(cause.errno, cause.strerror or str(cause), str(target))

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"
