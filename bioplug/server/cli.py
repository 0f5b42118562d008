"""``bioplug server start|stop|status``: a resident server for many short calls.

``bioplug server start`` starts a background process that keeps the interpreter, modules,
the OpenCL device and its programs warm; while it runs, ``bioplug COMMAND ...`` calls run in
it (same output, files, messages and exit codes as in their own process; ``--no-server`` or
``BIOPLUG_NO_SERVER=1`` keeps a call in its own process). It exits after --idle-timeout
seconds without a job, on ``bioplug server stop``, or on SIGTERM.

Exit codes (as LSB init scripts): start: 0 started or already running, 1 failed, 2 the
socket directory is another user's or open to others; stop: 0 stopped or not running, 1 still
running after --wait; status: 0 running, 1 not running but its socket was left behind (the
server died; the socket is removed), 3 not running, 4 a server holds the directory but does
not answer (starting, or hung).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator

from bioplug.server import protocol

log = logging.getLogger(__name__)

EXIT_OK, EXIT_FAILED, EXIT_STALE, EXIT_NOT_RUNNING, EXIT_UNKNOWN = 0, 1, 1, 3, 4


def add_parser(sub) -> None:
    p = sub.add_parser("server", help="resident server: calls skip start-up (start|stop|status)",
                       description=__doc__.split("\n\n")[1] + "\n\n" + __doc__.split("\n\n")[2],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    start = actions.add_parser("start", help="start the server (in the background)")
    start.add_argument("--device", default=None,
                       help="device to open and warm at start (default: BIOPLUG_DEVICE, else "
                            "the fastest); each call still uses its own --device or "
                            "BIOPLUG_DEVICE, and another device is opened on first use")
    start.add_argument("--idle-timeout", type=float, default=900.0, metavar="SECONDS",
                       help="exit after this long without a job (default 900; 0: never)")
    start.add_argument("--foreground", action="store_true",
                       help="run in this process, logging to standard error")
    start.add_argument("--wait", type=float, default=600.0, metavar="SECONDS",
                       help="how long to wait for a background server to be ready (default "
                            "600: a machine's first start compiles kernels)")
    start.set_defaults(func=run_start)
    stop = actions.add_parser("stop", help="stop the server (after its running job)")
    stop.add_argument("--wait", type=float, default=60.0, metavar="SECONDS",
                      help="how long to wait for it to exit (default 60)")
    stop.set_defaults(func=run_stop)
    status = actions.add_parser("status", help="is a server running, on which device")
    status.add_argument("--json", action="store_true", help="print the status as JSON")
    status.set_defaults(func=run_status)


def query(op: str, directory: str | None = None, timeout: float = 10.0) -> dict | None:
    """Send ``op`` (``status`` or ``stop``) to the running server: its reply, or None."""
    sock = protocol.connect(directory, timeout=timeout)
    if sock is None:
        return None
    try:
        protocol.send(sock, {"op": op})
        reply, _ = protocol.recv(sock)
        return reply
    except (OSError, ValueError):
        return None
    finally:
        sock.close()


def _directory() -> str:
    directory = protocol.server_dir()
    protocol.make_private_dir(directory)
    return directory


def run_start(args) -> int:
    from bioplug.errors import BioplugError

    try:
        directory = _directory()
    except OSError as exc:
        raise BioplugError(f"server directory: {exc}") from exc
    if args.foreground:
        return _serve(args, directory)
    # Concurrent starts take turns: the second finds the first one's server, and leaves its
    # log alone (starting another would truncate it, and fail on the server's lock).
    with _start_turn(directory, args.wait) as turn:
        if not turn:
            sys.stderr.write(f"bioplug server: another `bioplug server start` still starting "
                             f"after {args.wait:g} s; see {protocol.log_path(directory)}\n")
            return EXIT_FAILED
        return _start_unless_running(args, directory)


def _start_unless_running(args, directory: str) -> int:
    """Start a background server, or say which one runs (exit 0 either way)."""
    reply = query("status", directory)
    if reply is not None:
        sys.stderr.write(f"bioplug server: already running (pid {reply.get('pid')}, device "
                         f"{reply.get('device')})\n")
        return EXIT_OK
    from bioplug.server.daemon import lock_is_free

    if not lock_is_free(protocol.lock_path(directory)):  # e.g. a --foreground one, warming up
        sys.stderr.write("bioplug server: already running (not ready yet: starting, or hung; "
                         "see `bioplug server status`)\n")
        return EXIT_OK
    return _start_background(args, directory)


@contextlib.contextmanager
def _start_turn(directory: str, wait: float) -> Iterator[bool]:
    """Hold the start lock (True), or yield False when another start held it ``wait`` s."""
    fd = os.open(protocol.start_lock_path(directory), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.05)
        yield True
    finally:
        os.close(fd)  # releases the lock (the server started does not inherit it)


def _serve(args, directory: str) -> int:
    from bioplug.server.daemon import AlreadyRunning, Server

    _log_to_stderr(getattr(args, "verbose", 0))
    try:
        return Server(directory, device=args.device, idle_timeout=args.idle_timeout).serve()
    except AlreadyRunning as exc:
        log.error("%s", exc)
        return EXIT_FAILED


def _log_to_stderr(verbose: int) -> None:
    """The server's own log (not its jobs'): its logger, its stderr, with times."""
    logger = logging.getLogger("bioplug.server")
    handler = logging.StreamHandler(sys.__stderr__)
    handler.setFormatter(logging.Formatter(
        f"%(asctime)s bioplug server[{os.getpid()}] %(levelname)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.propagate = False  # jobs configure the root logger for their calls' stderr


def _start_background(args, directory: str) -> int:
    """Start ``bioplug server start --foreground`` detached, its stderr to the log file, and
    wait until it answers ready (or dies)."""
    import bioplug

    root = os.path.dirname(os.path.dirname(os.path.abspath(bioplug.__file__)))
    # the same bioplug as this call, whatever the working directory holds
    code = f"import sys; sys.path[0] = {root!r}; from bioplug.cli import main; main()"
    cmd = [sys.executable, "-c", code, *(["-v"] * getattr(args, "verbose", 0)),
           "server", "start", "--foreground", "--idle-timeout", str(args.idle_timeout)]
    if args.device is not None:
        cmd += ["--device", args.device]
    log_file = protocol.log_path(directory)
    fd = os.open(log_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # one run's log
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=fd, start_new_session=True, close_fds=True)
    finally:
        os.close(fd)
    t0, told = time.monotonic(), False
    while time.monotonic() - t0 < args.wait:
        if proc.poll() is not None:
            sys.stderr.write(f"bioplug server: failed to start (exit {proc.returncode}):\n"
                             f"{_tail(log_file)}")
            return EXIT_FAILED
        reply = query("status", directory)
        if reply is not None and reply.get("ready"):
            sys.stderr.write(f"bioplug server: started (pid {reply.get('pid')}, device "
                             f"{reply.get('device')}, socket {reply.get('socket')})\n")
            return EXIT_OK
        if not told and time.monotonic() - t0 > 3:
            sys.stderr.write("bioplug server: starting (a machine's first start builds the "
                             "kernels)...\n")
            told = True
        time.sleep(0.05)
    sys.stderr.write(f"bioplug server: not ready after {args.wait:g} s (pid {proc.pid}); "
                     f"see {log_file}\n")
    return EXIT_FAILED


def _tail(path: str, lines: int = 20) -> str:
    try:
        with open(path, errors="replace") as handle:
            return "".join(handle.readlines()[-lines:])
    except OSError:
        return ""


def run_stop(args) -> int:
    directory = protocol.server_dir()
    reply = query("stop", directory)
    if reply is None:
        _remove_stale(directory)
        sys.stderr.write("bioplug server: not running\n")
        return EXIT_OK
    from bioplug.server.daemon import lock_is_free

    deadline = time.monotonic() + args.wait
    while time.monotonic() < deadline:
        if lock_is_free(protocol.lock_path(directory)):
            sys.stderr.write(f"bioplug server: stopped (pid {reply.get('pid')})\n")
            return EXIT_OK
        time.sleep(0.05)
    sys.stderr.write(f"bioplug server: still running a job after {args.wait:g} s (pid "
                     f"{reply.get('pid')}); it exits when the job ends\n")
    return EXIT_FAILED


def _remove_stale(directory: str) -> bool:
    """Remove a socket no server holds (its server died); True when there was one."""
    from bioplug.server.daemon import lock_is_free

    path = protocol.socket_path(directory)
    if not os.path.lexists(path) or not lock_is_free(protocol.lock_path(directory)):
        return False
    try:
        os.unlink(path)
    except OSError:
        return False
    return True


def run_status(args) -> int:
    directory = protocol.server_dir()
    reply = query("status", directory)
    if reply is not None:
        reply.pop("op", None)
        reply["state"] = "running" if reply.get("ready") else "starting"
        _print_status(reply, args.json)
        return EXIT_OK
    from bioplug.server.daemon import lock_is_free

    if _remove_stale(directory):
        state, code = "not running (removed the socket of a server that died)", EXIT_STALE
    elif os.path.isdir(directory) and not lock_is_free(protocol.lock_path(directory)):
        state, code = "not answering (starting, or hung)", EXIT_UNKNOWN
    else:
        state, code = "not running", EXIT_NOT_RUNNING
    _print_status({"state": state, "socket": protocol.socket_path(directory)}, args.json)
    return code


def _print_status(info: dict, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps(info, indent=1) + "\n")
        return
    for key, value in info.items():
        sys.stdout.write(f"{key}: {value}\n")
