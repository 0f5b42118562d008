"""Where the server's socket lives, and the messages on it (standard library only).

Location: ``$BIOPLUG_SERVER_DIR`` when set (tests, a server per project), else
``$XDG_RUNTIME_DIR/bioplug`` (a per-user tmpfs on systemd hosts), else
``$XDG_CACHE_HOME/bioplug/run`` (``~/.cache/bioplug/run``). The directory must belong to the
user and be closed to everyone else (mode 0700): it is created so, and one that is not is
refused (a socket another user can reach would run commands as this user). Files, named with
the user id: ``server-UID.sock`` (the socket), ``server-UID.lock`` (held with ``flock`` by the
running server, so a socket beside an unlocked lock file is stale: the server died),
``server-UID.start.lock`` (held by ``bioplug server start`` while it starts one: concurrent
starts take turns), ``server-UID.log`` (a background server's log).

Messages are a 4-byte big-endian length and a UTF-8 JSON object with an ``op`` key. The first
message of a job carries the call's standard input, output and error descriptors
(``SCM_RIGHTS``): the job reads and writes the call's own files, pipes and terminal.

========================  ======================================================================
client -> server          ``run`` {argv, cwd, env, umask, streams, terminal, fingerprint},
                          ``cancel`` {signal}, ``status``, ``stop``
server -> client          ``started``, ``exit`` {code}, ``refused`` {reason} (the call then runs
                          in its own process), ``status`` {...}, ``stopping``
========================  ======================================================================
"""

from __future__ import annotations

import os
import stat
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import socket

# json and socket are imported where used: a call with no server (no socket
# directory) decides after one stat, without them.

#: Overrides the socket directory (tests use a temporary one).
DIR_ENV = "BIOPLUG_SERVER_DIR"
#: The message format; a server refuses jobs of another version.
VERSION = 1
#: Messages above this are refused (the largest is a job's environment).
MAX_MESSAGE = 16 << 20
#: Bytes of a message's length prefix (big-endian unsigned).
HEADER_SIZE = 4


class UnsafeDirectory(OSError):
    """The socket directory belongs to another user or is open to others."""


def supported() -> bool:
    """True on POSIX systems (Unix-domain sockets that carry file descriptors)."""
    return hasattr(os, "getuid") and hasattr(os, "fork")


def server_dir() -> str:
    """The socket directory for this user and environment (it may not exist yet)."""
    given = os.environ.get(DIR_ENV)
    if given:
        return os.path.abspath(given)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
        return os.path.join(runtime, "bioplug")
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "bioplug", "run")


def check_private(directory: str) -> None:
    """Raise :class:`UnsafeDirectory` unless ``directory`` is this user's and mode 0700.

    Raises
    ------
    FileNotFoundError
        When the directory does not exist.
    UnsafeDirectory
        When it is not a directory, belongs to someone else or others may enter it.
    """
    info = os.stat(directory)
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeDirectory(f"{directory}: not a directory")
    if info.st_uid != os.getuid():
        raise UnsafeDirectory(f"{directory}: belongs to user id {info.st_uid}, not to this user")
    if info.st_mode & 0o077:
        raise UnsafeDirectory(f"{directory}: mode {stat.S_IMODE(info.st_mode):04o}; the "
                              "socket directory must be closed to others (chmod 700)")


def make_private_dir(directory: str) -> None:
    """Create ``directory`` (and its parents) with mode 0700 and check it."""
    os.makedirs(directory, mode=0o700, exist_ok=True)
    check_private(directory)


def _path(directory: str, suffix: str) -> str:
    return os.path.join(directory, f"server-{os.getuid()}.{suffix}")


def socket_path(directory: str) -> str:
    """The server's socket in ``directory``."""
    return _path(directory, "sock")


def lock_path(directory: str) -> str:
    """The lock file a running server holds."""
    return _path(directory, "lock")


def start_lock_path(directory: str) -> str:
    """The lock file a ``bioplug server start`` holds while it starts a background server."""
    return _path(directory, "start.lock")


def log_path(directory: str) -> str:
    """A background server's log."""
    return _path(directory, "log")


def fingerprint() -> dict:
    """What must match between a call and the server for the job to run there: the same
    bioplug source, version and Python (a server started from another checkout or virtual
    environment would run other code)."""
    import bioplug

    return {"package": os.path.dirname(os.path.abspath(bioplug.__file__)),
            "version": bioplug.__version__, "python": sys.version, "prefix": sys.prefix}


def connect(directory: str | None = None, timeout: float | None = None) -> socket.socket | None:
    """A connection to the running server, or None (no server, a stale socket, an unsafe
    directory, or no Unix sockets here). Never raises and never creates anything."""
    if not supported():
        return None
    directory = directory or server_dir()
    try:
        check_private(directory)
    except OSError:
        return None
    import socket

    if not hasattr(socket, "send_fds"):
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(socket_path(directory))
    except OSError:  # no socket, a stale one (refused), a path too long: no server
        sock.close()
        return None
    return sock


def send(sock: socket.socket, message: dict, fds: list[int] | tuple[int, ...] = ()) -> None:
    """Send one message; ``fds`` ride on its header."""
    import json
    import socket

    body = json.dumps(message).encode()
    header = len(body).to_bytes(HEADER_SIZE, "big")
    if fds:
        sent = socket.send_fds(sock, [header], list(fds))
        sock.sendall(header[sent:] + body)
    else:
        sock.sendall(header + body)


def _recv_exact(sock: socket.socket, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        data = sock.recv(min(left, 1 << 20))
        if not data:
            return None
        chunks.append(data)
        left -= len(data)
    return b"".join(chunks)


def recv(sock: socket.socket, max_fds: int = 0) -> tuple[dict | None, list[int]]:
    """(message, descriptors) of the next message; (None, []) at the end of the stream.

    Raises
    ------
    ValueError
        For a malformed or oversized message (descriptors received with it are closed).
    """
    import json
    import socket

    header, fds = b"", []
    while len(header) < HEADER_SIZE:
        if max_fds:
            data, got, flags, _ = socket.recv_fds(sock, HEADER_SIZE - len(header), max_fds)
            fds.extend(got)
        else:
            data = sock.recv(HEADER_SIZE - len(header))
        if not data:
            _close_all(fds)
            return None, []
        header += data
    size = int.from_bytes(header, "big")
    body = _recv_exact(sock, size) if size <= MAX_MESSAGE else None
    try:
        if body is None:
            raise ValueError(f"message of {size} bytes cut short or too large")
        message = json.loads(body)
        if not isinstance(message, dict):
            raise ValueError("message is not a JSON object")
    except ValueError:
        _close_all(fds)
        raise
    return message, fds


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass
