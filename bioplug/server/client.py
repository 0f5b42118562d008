"""A ``bioplug`` call's side of the server: hand the job over, wait for its exit code.

Standard library only, and nothing from bioplug that imports numpy or pyopencl: a call that
finds a server must not pay those imports (``python -X importtime -m bioplug ...`` shows it).
With no server, :func:`forward` costs one ``stat`` and one refused or missing ``connect``.
"""

from __future__ import annotations

import os
import signal
import sys

from bioplug.server import protocol

#: ``BIOPLUG_NO_SERVER=1`` runs every call in its own process.
NO_SERVER_ENV = "BIOPLUG_NO_SERVER"
#: Commands always run in the calling process: ``server`` manages the server itself.
LOCAL_COMMANDS = frozenset({"server"})
#: After this many signals a waiting call stops waiting (the server still cancels the job,
#: since the connection closes).
GIVE_UP_AFTER = 3


def wanted(argv: list[str]) -> bool:
    """Whether this call may go to a server (before looking for one).

    Not for: ``--no-server`` or ``BIOPLUG_NO_SERVER``; no command (help); ``bioplug server``;
    ``--cluster`` (a Dask run is long and starts its own workers: nothing to gain); paths to
    this process's own descriptors (``<(zcat x.fa.gz)`` is ``/dev/fd/63``), which the server
    would open as its own.
    """
    if os.environ.get(NO_SERVER_ENV, "").strip() not in ("", "0"):
        return False
    words = [w for w in argv if not w.startswith("-")]
    if not words or words[0] in LOCAL_COMMANDS:
        return False
    return not any(w == "--no-server" or is_cluster_option(w) or _own_descriptor(w)
                   for w in argv)


#: Paths that name the calling process's own open files.
OWN_DESCRIPTORS = ("/dev/fd/", "/proc/self/fd/", "/dev/stdin", "/dev/stdout", "/dev/stderr")


def _own_descriptor(word: str) -> bool:
    """``word`` (or an option's ``=VALUE``) names one of this process's descriptors."""
    value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
    return value.startswith(OWN_DESCRIPTORS)


def is_cluster_option(word: str) -> bool:
    """``--cluster``, ``--cluster=ADDRESS``, or an abbreviation argparse takes (``--clus``)."""
    name = word.split("=", 1)[0]
    return len(name) >= 4 and "--cluster".startswith(name)


def forward(argv: list[str]) -> int | None:
    """Run ``bioplug ARGV`` in the running server.

    Returns
    -------
    int or None
        The job's exit code, or None when this call must run in its own process: no server
        (or a stale socket), the call is not one for the server (:func:`wanted`), or the
        server refused the job before starting it (it is stopping, or runs other bioplug
        code: ``-v`` says which).
    """
    if not wanted(argv):
        return None
    sock = protocol.connect()
    if sock is None:
        return None
    try:
        return _run_job(sock, argv)
    except OSError as exc:  # the connection failed before the job started
        _note(argv, f"server connection failed ({exc}); running in this process")
        return None
    finally:
        sock.close()


def job_message(argv: list[str]) -> dict | None:
    """The ``run`` message for this process, or None when it cannot be described (no working
    directory, or a standard stream closed)."""
    try:
        cwd = os.getcwd()
        for fd in (0, 1, 2):
            os.fstat(fd)
    except OSError:
        return None
    streams = []
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if stream is None or not hasattr(stream, "encoding"):
            return None
        streams.append({"encoding": stream.encoding, "errors": stream.errors})
    terminal = None
    if os.isatty(1):
        # argparse sizes its help from the terminal of sys.__stdout__; the server has none
        size = os.get_terminal_size(1)
        terminal = [size.columns, size.lines]
    mask = os.umask(0o022)  # one thread here: reading the umask this way is safe
    os.umask(mask)
    return {"op": "run", "version": protocol.VERSION, "argv": list(argv), "cwd": cwd,
            "env": dict(os.environ), "umask": mask, "streams": streams, "terminal": terminal,
            "fingerprint": protocol.fingerprint(), "pid": os.getpid()}


class _Canceller:
    """Signal handlers of a waiting call: SIGINT, SIGTERM and SIGHUP ask the server to cancel
    the job (the in-process command would stop); the call then exits 128 + the signal."""

    SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")

    def __init__(self, sock):
        self.sock = sock
        self.signum: int | None = None
        self.count = 0
        self.saved: dict[int, object] = {}

    def __enter__(self) -> _Canceller:
        for name in self.SIGNALS:
            num = getattr(signal, name, None)
            # an ignored signal (a background job of a script) is ignored in-process too
            if num is not None and signal.getsignal(num) is not signal.SIG_IGN:
                self.saved[num] = signal.signal(num, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for num, handler in self.saved.items():
            signal.signal(num, handler)

    def _handle(self, signum, frame) -> None:
        self.signum = self.signum or signum
        self.count += 1
        if self.count >= GIVE_UP_AFTER:
            raise _GiveUp(signum)
        try:
            protocol.send(self.sock, {"op": "cancel", "signal": signum})
        except OSError:  # the server is gone: the wait below ends with the stream
            pass

    def exit_code(self, code: int) -> int:
        """The call's exit code: a job cancelled on a signal exits as a killed command."""
        if self.signum is not None and code == 130:
            return 128 + self.signum
        return code


class _GiveUp(BaseException):
    """Raised by the third signal: stop waiting for the server."""


def _run_job(sock, argv: list[str]) -> int | None:
    message = job_message(argv)
    if message is None:
        return None
    protocol.send(sock, message, fds=(0, 1, 2))
    started = False
    with _Canceller(sock) as canceller:
        try:
            while True:
                try:
                    reply, _ = protocol.recv(sock)
                except (OSError, ValueError):  # as if the server closed the connection
                    reply = None
                op = None if reply is None else reply.get("op")
                if op == "started":
                    started = True
                elif op == "exit":
                    if reply.get("error"):
                        sys.stderr.write(f"bioplug: server error: {reply['error']}\n")
                    return canceller.exit_code(int(reply.get("code", 1)))
                elif op == "refused" and not started:
                    _note(argv, f"server refused the job ({reply.get('reason')}); "
                                "running in this process")
                    return None
                elif reply is None:
                    if not started:
                        return None  # it stopped before the job began: nothing happened yet
                    sys.stderr.write("bioplug: the server stopped during the job; see "
                                     f"{protocol.log_path(protocol.server_dir())}\n")
                    return 1
        except _GiveUp as stop:
            return 128 + int(stop.args[0])


def _note(argv: list[str], text: str) -> None:
    """A line on stderr for ``-v`` calls only: without it, output is what it would be
    without a server."""
    if any(w in ("-v", "--verbose") or (w.startswith("-v") and set(w[1:]) == {"v"})
           for w in argv):
        sys.stderr.write(f"bioplug: {text}\n")
