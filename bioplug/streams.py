"""Inputs that can be read once only: named pipes, a shell's ``<(zcat x.fa.gz)``
(``/dev/fd/63``), character devices. Their size says nothing of their content, and their data
go to their first reader: they are read whole, once (:func:`stream_bytes`), or copied to a
private file once (:func:`spooled`) where a command reads its input twice, by the readers of
records (:mod:`bioplug.io`), the tree command and search's queries. Standard library only."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator

from bioplug.errors import InputError
from bioplug.interrupts import cleaning_up

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


def empty_message(source) -> str:
    """What an input with nothing in it is told as: a pipe's size is 0 whatever it
    carries, so its emptiness is that of its content."""
    if str(source) == STDIO:
        return "standard input is empty"
    return f"{source}: the input is empty (nothing was read from it)"


@contextlib.contextmanager
def spooled(source, prefix: str, suffix: str = "") -> Iterator[str]:
    """Standard input (``-``) or a stream (:func:`is_stream`) copied to a private temporary
    file (its path), removed afterwards: for commands that read their input more than once
    or by path (sniffing, indexes); a pipe gives its data to its first reader only.

    Raises
    ------
    InputError
        When there is nothing in it, or it cannot be read (naming it).
    """
    data = sys.stdin.buffer.read() if str(source) == STDIO else stream_bytes(source)
    if not data.strip():
        raise InputError(empty_message(source))
    with cleaning_up():   # Ctrl-C removes the copy too
        fd, copy = tempfile.mkstemp(prefix=prefix, suffix=suffix)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            yield copy
        finally:
            with contextlib.suppress(OSError):
                os.unlink(copy)
