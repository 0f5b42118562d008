"""Pipes as a shell hands them to a command, for the tests of inputs that are streams."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def shell_pipe(data: bytes) -> Iterator[str]:
    """``/dev/fd/N`` of a pipe a thread fills with ``data``: what bash's ``<(zcat x.fa.gz)``
    gives a command."""
    read_end, write_end = os.pipe()

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError), os.fdopen(write_end, "wb") as pipe:
            pipe.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        yield f"/dev/fd/{read_end}"
    finally:
        os.close(read_end)
        writer.join(10)
