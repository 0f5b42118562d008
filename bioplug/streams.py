"""Inputs that can be read once only: named pipes, a shell's ``<(zcat x.fa.gz)``
(``/dev/fd/63``), character devices. Their size says nothing of their content, and their data
go to their first reader: they are read whole, once (:func:`stream_bytes`), by the readers of
records (:mod:`bioplug.io`) and of search queries (:mod:`bioplug.pairwise.fasta`).
Standard library only."""

from __future__ import annotations

import os
import stat

from bioplug.errors import InputError

#: The path that means standard input (reading) or standard output (writing).
STDIO = "-"


def is_stream(path) -> bool:
    """Whether ``path`` can be read once only. Regular files, folders, missing paths and
    ``-`` are not (each has its own handling and messages)."""
    if str(path) == STDIO:
        return False
    try:
        mode = os.stat(path).st_mode
    except (OSError, TypeError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def stream_bytes(path) -> bytes:
    """Everything the stream ``path`` gives, in one read.

    Raises
    ------
    InputError
        Naming the path, when it cannot be read.
    """
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
