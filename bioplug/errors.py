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
