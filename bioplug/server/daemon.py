"""The resident server: a warm process that runs ``bioplug`` commands for short-lived calls.

Threads: socketserver's threads accept connections and read each one (``status``, ``stop``,
a job's ``cancel``); the **main thread** runs the jobs from a queue, one at a time. Jobs run
on the main thread so that a cancel can interrupt them the way Ctrl-C interrupts the command
in its own process: a ``SIGUSR1`` sent to the main thread raises ``KeyboardInterrupt`` in the
job (the command's own handling then removes partial output and exits 130), and the signal
also ends a blocking read of the call's standard input.

Each job runs in the call's world, restored afterwards: its argv, working directory,
environment (``COLUMNS`` from its terminal), umask, standard streams (the call's own
descriptors), a clean root logger (the command configures it), and fresh warning filters.
What a job leaves for the next is only what a process keeps between two calls of the Python
API: opened devices, built programs and kernel objects, imported modules. After each job the
device queues are drained and garbage collected.
"""

from __future__ import annotations

import _thread
import contextlib
import fcntl
import gc
import logging
import os
import queue
import signal
import socket
import socketserver
import struct
import sys
import threading
import time
import traceback
import warnings

from bioplug.server import protocol
from bioplug.server.client import LOCAL_COMMANDS

log = logging.getLogger(__name__)

#: Exit code of a cancelled or interrupted command (the CLI's own).
EXIT_CANCELLED = 130
#: The main thread wakes this often to notice a stop signal and the idle timeout.
POLL_S = 0.25
#: Variables drivers read once, when they start: a job whose values differ from the server's
#: would see other devices than in its own process, so it is refused (and runs there).
DRIVER_VARIABLES = ("CUDA_", "POCL_", "OCL_ICD", "ROCR_", "HIP_", "ZE_", "GPU_DEVICE_ORDINAL")
#: Sent to the main thread to cancel its job. Not SIGUSR1: PoCL installs its own handler for
#: it when it starts (a Python handler set earlier never runs again).
CANCEL_SIGNAL = signal.SIGUSR2


class AlreadyRunning(RuntimeError):
    """Another server holds the lock of this socket directory."""


class Job:
    """One call's command: its ``run`` message, the call's three descriptors, the connection."""

    def __init__(self, message: dict, fds: list[int], conn: socket.socket):
        self.message = message
        self.fds = fds
        self.conn = conn
        self.cancel_requested = False
        self.queued = False  # True from its submission until it runs or is dropped
        self.interruptible = False  # True while the command itself runs (see Server._call)
        self.done = threading.Event()

    @property
    def argv(self) -> list[str]:
        return [str(a) for a in self.message.get("argv", [])]

    def reply(self, message: dict) -> None:
        """Send to the call; a call that went away no longer listens."""
        with contextlib.suppress(OSError):
            protocol.send(self.conn, message)

    def close_fds(self) -> None:
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = []


class _Listener(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, path: str, owner: Server):
        self.owner = owner
        super().__init__(path, _Handler)


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        self.server.owner.handle_connection(self.request)


class Server:
    """The server of one socket directory.

    Parameters
    ----------
    directory : str
        Socket directory (:func:`bioplug.server.protocol.server_dir`); created mode 0700.
    device : str, optional
        Device opened (and its small-family programs loaded) at start. Jobs still choose
        their own device as the command would (``--device``, ``BIOPLUG_DEVICE``, else the
        fastest); another one is opened on first use and kept.
    idle_timeout : float
        Seconds without a job after which the server exits (0: never).
    warm : bool
        Align a tiny family at start, so the first job finds modules and programs loaded.
    """

    def __init__(self, directory: str, device: str | None = None, idle_timeout: float = 900.0,
                 warm: bool = True):
        self.directory = directory
        self.device = device
        self.idle_timeout = float(idle_timeout)
        self.warm = warm
        self.device_name: str | None = None
        self.ready = False
        self.jobs = 0
        self.started_at = time.time()
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._lock = threading.Lock()
        self._accepting = True
        self._stopping: str | None = None
        self._current: Job | None = None
        self._queued = 0  # jobs waiting, not counting those dropped (the queue still holds them)
        self._main = threading.main_thread().ident
        self._signal_works = False  # see _probe_cancel_signal
        self._probing = False
        self._probe_seen = False
        self._fingerprint = protocol.fingerprint()
        self._drivers = driver_environment(os.environ)

    # -- life cycle ---------------------------------------------------------------------------
    def serve(self) -> int:
        """Run until stopped or idle; returns the process exit code (0, or 1 when the device
        cannot be opened).

        Raises
        ------
        AlreadyRunning
            When another server holds this directory's lock.
        """
        protocol.make_private_dir(self.directory)
        lock_fd = _take_lock(protocol.lock_path(self.directory))
        try:
            _absolute_sys_path()
            path = protocol.socket_path(self.directory)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)  # we hold the lock: a socket here was left by a dead server
            listener = _Listener(path, self)
            os.chmod(path, 0o600)
            saved = self._install_signals()
            acceptor = threading.Thread(target=listener.serve_forever, args=(POLL_S,),
                                        name="bioplug-server-accept", daemon=True)
            acceptor.start()
            log.info("listening on %s (pid %d)", path, os.getpid())
            try:
                return self._warm_and_loop()
            finally:
                self._close(listener, path)
                for num, handler in saved.items():
                    signal.signal(num, handler)
        finally:
            os.close(lock_fd)

    def _warm_and_loop(self) -> int:
        os.chdir("/")  # between jobs the server pins no directory
        try:
            self._warm_up()
        except Exception as exc:  # noqa: BLE001 - reported, and the server does not start
            log.error("cannot start: %s: %s", type(exc).__name__, exc)
            log.debug("traceback", exc_info=True)
            return 1
        self._signal_works = self._probe_cancel_signal()
        log.debug("cancel by %s", "signal" if self._signal_works else "interrupt_main")
        self.ready = True
        log.info("ready: device %s, idle timeout %s", self.device_name,
                 f"{self.idle_timeout:g} s" if self.idle_timeout > 0 else "none")
        self._loop()
        log.info("stopping: %s", self._stopping or "stopped")
        return 0

    def _warm_up(self) -> None:
        """Import every command, open the device, and align a tiny family on it."""
        from bioplug import cli
        from bioplug.runtime import get_runtime

        cli.build_parser()
        rt = get_runtime(self.device)
        self.device_name = f"{rt.info.name} [{rt.info.platform}]"
        if not self.warm:
            return
        try:
            from bioplug.msa.aligner import MultipleSequenceAligner

            family = ["MKVLAAGIVGLLLAWQCSAGTEPKLVDEW", "MKVLSAGIVALLAWQSAGSEPRLIDEW",
                      "MRVLAAGLVGLLSWQCTAGTEPKLVDDW"]
            MultipleSequenceAligner(device=rt).align(family)
        except Exception as exc:  # noqa: BLE001 - a warm-up only; jobs report their own
            log.warning("warm-up alignment failed: %s: %s", type(exc).__name__, exc)
        self._after_job()

    def _loop(self) -> None:
        idle_since = time.monotonic()
        while self._stopping is None:
            try:
                job = self._queue.get(timeout=POLL_S)
            except queue.Empty:
                idle = time.monotonic() - idle_since
                if self.idle_timeout > 0 and idle >= self.idle_timeout and self._close_if_idle():
                    self._stopping = f"idle for {idle:.0f} s"
                continue
            if job is not None:
                self._execute(job)
                idle_since = time.monotonic()

    def _close_if_idle(self) -> bool:
        with self._lock:
            if not self._queue.empty():
                return False
            self._accepting = False
            return True

    def _close(self, listener: _Listener, path: str) -> None:
        with self._lock:
            self._accepting = False
        while True:  # calls queued behind the last job run in their own processes
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                break
            with self._lock:
                if job is not None and job.queued:  # not dropped (see cancel)
                    job.close_fds()
                    job.reply({"op": "refused", "reason": "the server is stopping"})
                    job.done.set()
        listener.shutdown()
        listener.server_close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)

    def request_stop(self, reason: str) -> None:
        """Stop after the running job (from a connection thread)."""
        self._stopping = self._stopping or reason
        with self._lock:
            self._accepting = False
        self._queue.put(None)  # wake the main thread

    # -- signals (main thread) ----------------------------------------------------------------
    def _install_signals(self) -> dict[int, object]:
        saved = {CANCEL_SIGNAL: signal.signal(CANCEL_SIGNAL, self._on_cancel_signal)}
        for num in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            saved[num] = signal.signal(num, self._on_stop_signal)
        return saved

    def _on_cancel_signal(self, signum, frame) -> None:
        if self._probing:
            self._probe_seen = True
            return
        # Only the running command is interrupted, never the server's own bookkeeping.
        job = self._current
        if job is not None and job.interruptible and job.cancel_requested:
            raise KeyboardInterrupt

    def _probe_cancel_signal(self) -> bool:
        """Whether a real CANCEL_SIGNAL still reaches our handler.

        A real signal also ends a blocking read (a job waiting on the call's standard input);
        but a library that installs its own handler for it (drivers do, at start-up) would
        get it instead. Then cancels fall back to ``_thread.interrupt_main``, which reaches
        the job at its next Python instruction.
        """
        self._probe_seen, self._probing = False, True
        try:
            signal.pthread_kill(self._main, CANCEL_SIGNAL)
            for _ in range(20):  # the handler runs at this thread's next check for signals
                if self._probe_seen:
                    break
                time.sleep(0.001)
        finally:
            self._probing = False
        return self._probe_seen

    def _on_stop_signal(self, signum, frame) -> None:
        # No locks in a signal handler (the main thread may hold them): the loop polls.
        self._stopping = self._stopping or f"signal {signal.Signals(signum).name}"
        self._accepting = False

    # -- connections (socketserver threads) ---------------------------------------------------
    def handle_connection(self, conn: socket.socket) -> None:
        """Serve one connection: a job, a status query or a stop request."""
        if not _same_user(conn):
            log.warning("refused a connection from another user")
            return
        try:
            message, fds = protocol.recv(conn, max_fds=3)
        except (OSError, ValueError) as exc:
            log.warning("bad request: %s", exc)
            return
        if message is None:
            return
        op = message.get("op")
        if op == "run":
            self._serve_job(conn, message, fds)
            return
        protocol._close_all(fds)
        with contextlib.suppress(OSError):
            if op == "status":
                protocol.send(conn, self.status())
            elif op == "stop":
                # the reply first: once woken, the main thread may end the process before
                # this thread sends, and the caller would read "not running"
                try:
                    protocol.send(conn, {"op": "stopping", "pid": os.getpid()})
                finally:
                    self.request_stop("stop requested")
            else:
                protocol.send(conn, {"op": "error", "reason": f"unknown request {op!r}"})

    def status(self) -> dict:
        """What ``bioplug server status`` prints."""
        current = self._current
        return {"op": "status", "pid": os.getpid(), "ready": self.ready,
                "device": self.device_name, "jobs": self.jobs,
                "running": current.argv if current is not None else None,
                "queued": self._queued, "idle_timeout": self.idle_timeout,
                "uptime": round(time.time() - self.started_at, 1),
                "socket": protocol.socket_path(self.directory),
                "version": self._fingerprint["version"],
                "package": self._fingerprint["package"]}

    def _serve_job(self, conn: socket.socket, message: dict, fds: list[int]) -> None:
        reason = self._refusal(message, fds)
        job = Job(message, fds, conn)
        if reason is None and not self._submit(job):
            reason = "the server is stopping"
        if reason is not None:
            job.close_fds()
            job.reply({"op": "refused", "reason": reason})
            return
        self._watch(job)

    def _refusal(self, message: dict, fds: list[int]) -> str | None:
        if message.get("version") != protocol.VERSION:
            return f"message version {message.get('version')} (server: {protocol.VERSION})"
        if len(fds) != 3:
            return "the call's standard streams did not arrive"
        words = [w for w in message.get("argv") or [] if not str(w).startswith("-")]
        if words and words[0] in LOCAL_COMMANDS:  # `server stop` in the server would wait on itself
            return f"`bioplug {words[0]}` runs in the calling process"
        if message.get("fingerprint") != self._fingerprint:
            theirs = message.get("fingerprint") or {}
            return (f"the server runs bioplug {self._fingerprint['version']} from "
                    f"{self._fingerprint['package']} (Python {sys.prefix}); this call "
                    f"{theirs.get('version')} from {theirs.get('package')}: restart the server")
        theirs = driver_environment(message.get("env") or {})
        if theirs != self._drivers:
            names = sorted(k for k in set(theirs) | set(self._drivers)
                           if theirs.get(k) != self._drivers.get(k))
            return f"driver variables differ from the server's ({', '.join(names)})"
        return None

    def _submit(self, job: Job) -> bool:
        with self._lock:
            if not self._accepting or self._stopping is not None:
                return False
            self._queue.put(job)
            job.queued = True
            self._queued += 1
            return True

    def _watch(self, job: Job) -> None:
        """Read the call's cancel requests; its going away cancels the job too."""
        while True:
            try:
                message, _ = protocol.recv(job.conn)
            except (OSError, ValueError):
                message = None
            if message is None:
                self.cancel(job)
                break
            if message.get("op") == "cancel":
                self.cancel(job)
        job.done.wait()

    def cancel(self, job: Job) -> None:
        """Cancel ``job``: interrupt it when it runs, drop it when it is queued."""
        with self._lock:
            if job.done.is_set():
                return
            job.cancel_requested = True
            log.debug("cancel requested (%s)", "running" if self._current is job else "queued")
            if job.queued:
                self._drop(job)
            elif self._current is job:
                if self._signal_works:
                    signal.pthread_kill(self._main, CANCEL_SIGNAL)
                else:
                    _thread.interrupt_main(CANCEL_SIGNAL)

    def _drop(self, job: Job) -> None:
        """End a queued job now (lock held): its call exits as a cancelled command, without
        waiting for the job ahead of it; the main thread skips it when it comes up."""
        job.queued = False
        self._queued -= 1
        job.close_fds()
        job.reply({"op": "exit", "code": EXIT_CANCELLED})
        job.done.set()

    # -- jobs (main thread) -------------------------------------------------------------------
    def _execute(self, job: Job) -> None:
        signal_works = self._probe_cancel_signal()  # a job may have started another driver
        if self._signal_works and not signal_works:
            log.info("a library took %s: cancels reach jobs between Python instructions only",
                     CANCEL_SIGNAL.name)
        with self._lock:
            if not job.queued:  # dropped while it waited (see cancel)
                return
            job.queued = False
            self._queued -= 1
            self._signal_works = signal_works
            self._current = job
            skip = job.cancel_requested
        t0 = time.perf_counter()
        code, error = (EXIT_CANCELLED if skip else 1), None
        try:
            if not skip:
                job.reply({"op": "started"})
                code = self._run_job(job)
        except Exception as exc:  # noqa: BLE001 - the server's own failure: the call says it
            log.error("job failed outside the command", exc_info=True)
            error = f"{type(exc).__name__}: {exc}"
        finally:
            with self._lock:
                self._current = None
            job.close_fds()
            self._after_job()
            job.reply({"op": "exit", "code": code, **({"error": error} if error else {})})
            job.done.set()
            self.jobs += 1
            log.debug("job %d (pid %s) %s: exit %d in %.3f s", self.jobs,
                     job.message.get("pid"), " ".join(job.argv), code, time.perf_counter() - t0)

    def _run_job(self, job: Job) -> int:
        fds, job.fds = job.fds, []  # the streams own the descriptors now
        with job_context(job.message, fds):
            try:
                os.chdir(str(job.message["cwd"]))
            except (OSError, KeyError) as exc:
                sys.stderr.write(f"bioplug: cannot run in the call's directory: {exc}\n")
                return 1
            return self._call(job)

    def _call(self, job: Job) -> int:
        """Run the command; every way it can end becomes an exit code."""
        from bioplug import cli

        code = 1
        try:
            job.interruptible = True
            try:
                if job.cancel_requested:  # cancelled between the queue and here
                    raise KeyboardInterrupt
                code = cli.main(job.argv)
            finally:
                job.interruptible = False
        except KeyboardInterrupt:  # outside the command's own handler (e.g. while parsing)
            sys.stderr.write("bioplug: interrupted\n")
            code = EXIT_CANCELLED
        except SystemExit as exc:  # argparse: usage errors, --help, --version
            code = _exit_code(exc)
        except BaseException:  # noqa: BLE001 - one job's failure must not end the server
            traceback.print_exc(file=sys.stderr)
            code = 1
        return code

    def _after_job(self) -> None:
        """Leave the devices idle and the job's objects freed before the next job."""
        runtime = sys.modules.get("bioplug.runtime.runtime")  # None until a job used a device
        for rt in runtime.started_runtimes() if runtime is not None else []:
            try:
                rt.queue.finish()
            except Exception as exc:  # noqa: BLE001 - the next job reports a broken device
                log.warning("device %s: %s", rt, exc)
        if runtime is not None:  # the next job's -v names its device, as in its own process
            runtime.forget_logged_devices()
        faults = sys.modules.get("bioplug.runtime.faults")
        if faults is not None:  # the device a failed call names is this job's, not a past one
            faults._last.__dict__.clear()
        gc.collect()


@contextlib.contextmanager
def job_context(message: dict, fds: list[int]):
    """The process as the call would have been: argv, environment, umask, standard streams,
    root logger and warning filters; all restored on exit. The working directory is set by
    the caller (it can fail) and reset to ``/`` here."""
    saved_env = dict(os.environ)
    saved_argv = sys.argv
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    streams = open_streams(fds, message.get("streams") or [{}] * 3)
    saved_mask = os.umask(int(message.get("umask", 0o022)) & 0o777)
    try:
        sys.stdin, sys.stdout, sys.stderr = streams
        sys.argv = ["bioplug", *[str(a) for a in message.get("argv", [])]]
        env = {str(k): str(v) for k, v in (message.get("env") or {}).items()}
        terminal = message.get("terminal")
        if terminal:  # shutil.get_terminal_size reads these before the (server's) terminal
            env.setdefault("COLUMNS", str(terminal[0]))
            env.setdefault("LINES", str(terminal[1]))
        set_environ(env)
        root.handlers = []  # the command's logging.basicConfig installs its own
        root.setLevel(logging.WARNING)
        with warnings.catch_warnings():
            yield
    finally:
        for stream in streams[1:]:
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        for handler in root.handlers:
            if handler not in saved_handlers:
                handler.close()
        root.handlers, root.level = saved_handlers, saved_level
        os.umask(saved_mask)
        set_environ(saved_env)
        sys.argv = saved_argv
        os.chdir("/")
        for stream in streams:
            with contextlib.suppress(OSError, ValueError):
                stream.close()


def open_streams(fds: list[int], specs: list[dict]) -> tuple:
    """Text streams over the call's stdin, stdout and stderr descriptors, set up as Python
    sets up its own on POSIX (newline ``\\n``; stdout line-buffered on a terminal; stderr
    line-buffered, ``backslashreplace``), with the call's encodings."""
    for fd in fds:
        os.set_inheritable(fd, False)
    names = ("stdin", "stdout", "stderr")
    streams = []
    try:
        for i, (fd, name) in enumerate(zip(fds, names, strict=True)):
            spec = specs[i] if i < len(specs) and isinstance(specs[i], dict) else {}
            errors = spec.get("errors") or ("backslashreplace" if name == "stderr" else "strict")
            line = name == "stderr" or (name == "stdout" and os.isatty(fd))
            streams.append(open(fd, "r" if name == "stdin" else "w", buffering=1 if line else -1,
                                encoding=spec.get("encoding") or "utf-8", errors=errors,
                                newline="\n", closefd=True))
    except BaseException:
        for stream in streams:
            stream.close()
        for fd in fds[len(streams):]:
            with contextlib.suppress(OSError):
                os.close(fd)
        raise
    return tuple(streams)


def driver_environment(env) -> dict[str, str]:
    """The :data:`DRIVER_VARIABLES` of an environment."""
    return {str(k): str(v) for k, v in env.items() if str(k).startswith(DRIVER_VARIABLES)}


def set_environ(env: dict[str, str]) -> None:
    """Make ``os.environ`` equal ``env``, touching only the variables that differ (fewer
    ``setenv`` calls while driver threads may read the environment)."""
    for key in [k for k in os.environ if k not in env]:
        del os.environ[key]
    for key, value in env.items():
        if os.environ.get(key) != value:
            os.environ[key] = value


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    sys.stderr.write(f"{exc.code}\n")
    return 1


def _take_lock(path: str) -> int:
    """Hold ``path`` with ``flock`` for the server's lifetime; it records the pid."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        raise AlreadyRunning(f"a server is already running (pid {pid or '?'})") from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def lock_is_free(path: str) -> bool:
    """True when no server holds the lock file (or there is none)."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)  # closing releases a lock taken here
    return True


def _absolute_sys_path() -> None:
    # Jobs change the working directory: a relative entry ('' or '.' from PYTHONPATH) would
    # make later lazy imports depend on the caller's directory.
    sys.path[:] = [os.path.abspath(p) if p else os.getcwd() for p in sys.path]


def _same_user(conn: socket.socket) -> bool:
    """The peer runs as this user (Linux SO_PEERCRED; elsewhere the 0700 directory guards)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    try:
        _, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, option,
                                                        struct.calcsize("3i")))
    except OSError:
        return False
    return uid == os.getuid()
