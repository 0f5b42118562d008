"""Exceptions that reach users, each with a message fit to print as it is."""

from __future__ import annotations


class BioplugError(Exception):
    """Base class: the CLI prints these without a traceback."""


class NoOpenCLError(BioplugError):
    """No OpenCL platform or no device matching the request."""


class KernelBuildError(BioplugError):
    """An OpenCL program failed to build; the message carries the build log."""


class InputError(BioplugError, ValueError):
    """Bad user input: names the record, position and character where it can."""
