"""The ``bioplug`` command. Each capability adds its sub-command in its own ``cli.py``."""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import logging
import os
import sys

from bioplug.errors import BioplugError, DeviceError, OutputWriteError
from bioplug.progress import Cancelled

log = logging.getLogger("bioplug")

#: Exit codes (README, "Exit codes"): scripts tell bad input from a failed run by them.
EXIT_OK, EXIT_FAILURE, EXIT_INPUT = 0, 1, 2

#: The module that adds each sub-command (its ``add_parser(subparsers)``; each sub-parser sets
#: ``func(args) -> int``).
COMMANDS = {
    "devices": "bioplug.runtime.cli",
    "pairwise": "bioplug.pairwise.cli",
    "search": "bioplug.pairwise.search_cli",
    "msa": "bioplug.msa.cli",
    "score": "bioplug.msa.cli",
    "profile": "bioplug.progressive.cli",
    "tree": "bioplug.tree.cli",
    "viterbi": "bioplug.hmm.cli",
    "align3": "bioplug.three.cli",
    "server": "bioplug.server.cli",
}
COMMAND_MODULES = list(dict.fromkeys(COMMANDS.values()))


def add_device_option(parser: argparse.ArgumentParser, several: bool = False) -> None:
    """The ``--device`` and ``--threads`` options every device sub-command takes
    (``several``: "all" shares the work between every GPU)."""
    parser.add_argument(
        "--device",
        default=None,
        help="OpenCL device: gpu, cpu, P:D, an index or a name part"
        + (", or all (every GPU shares the work)" if several else "")
        + " (default: BIOPLUG_DEVICE, else the fastest GPU, else the CPU); see `bioplug devices`",
    )
    parser.add_argument(
        "--threads", type=_positive_int, default=None, metavar="N",
        help="threads of the CPU device (PoCL), as MAFFT's --thread or BLAST's -num_threads "
             "(default: every core); sets PoCL's POCL_MAX_PTHREAD_COUNT and "
             "POCL_CPU_MAX_CU_COUNT, read when its driver starts",
    )


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, not {text!r}")
    return value


#: PoCL's variables for its CPU driver's thread count (PoCL 3: pthread driver; 4 on: cpu).
POCL_THREAD_VARIABLES = ("POCL_MAX_PTHREAD_COUNT", "POCL_CPU_MAX_CU_COUNT")


def _threads_in_process(threads: int) -> None:
    """``--threads`` of a call in a running process (tests, scripts, the server's jobs): it
    acts only if PoCL's driver has not started yet."""
    if any(os.environ.get(name) != str(threads) for name in POCL_THREAD_VARIABLES):
        started = "pyopencl" in sys.modules
        for name in POCL_THREAD_VARIABLES:
            os.environ[name] = str(threads)
        if started:
            log.warning("--threads %d: the CPU device of this process may have started with "
                        "another number of threads already (it applies when it starts)",
                        threads)


def _thread_limit(argv: list[str]) -> None:
    """Set PoCL's thread-count variables from ``--threads N`` in argv, before its driver
    starts (and before a running server is asked: its PoCL started with its own count, so
    differing variables make the call run in its own process)."""
    if _command_word(argv) not in DEVICE_COMMANDS:
        return
    value = _option_value(argv, "--threads")
    if value is not None and value.strip().isdigit() and int(value) >= 1:
        for name in POCL_THREAD_VARIABLES:
            os.environ[name] = str(int(value))


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``bioplug`` parser, with every sub-command or (``command``) only that one's module.

    A call parses its own command only: the other sub-parsers' ``add_argument`` and argparse's
    message look-ups (``gettext`` searching the locale folders, three per parser) cost about
    10 ms of every call's start-up, beside the OpenCL driver start-up that bounds it.
    """
    parser = _Parser(
        prog="bioplug", description="GPU-accelerated sequence alignment on OpenCL devices."
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--version", action="version", version=_version_text())
    parser.add_argument("--no-server", action="store_true",
                        help="run in this process even when a `bioplug server` is running")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Intermixed)
    for name in [COMMANDS[command]] if command in COMMANDS else COMMAND_MODULES:
        importlib.import_module(name).add_parser(sub)
    for command_parser in sub.choices.values():
        _output_options(command_parser)
    return parser


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose help, usage and version text fail the call when they cannot
    be written (``--help >/dev/full``: exit 1, as ``cat`` fails), where argparse drops the
    error and exits 0; a reader that closed its pipe (``| head``) took what it wanted."""

    def _print_message(self, message, file=None):
        if not message:
            return
        file = file or sys.stderr
        try:
            file.write(message)
        except BrokenPipeError:
            pass
        except OSError:
            if file is sys.stdout:   # standard error's failures have nowhere to be told
                raise
        except AttributeError:   # no stream at all (a library caller's None): as argparse
            pass


class _Intermixed(_Parser):
    """A command's parser that takes its positionals between options too (``bioplug profile
    A.fa -o OUT B.fa``), as ``parse_intermixed_args`` does; plain argparse leaves a later
    positional unrecognized once the first run of positionals is consumed. Commands argparse
    cannot parse that way (sub-commands of their own) are parsed as usual."""

    _inside = False

    def parse_known_args(self, args=None, namespace=None):
        # parse_known_intermixed_args calls this twice itself; and it loses "--", after
        # which every word is a positional (`bioplug msa -o o.fa -- -x.fa`)
        if self._inside or (args is not None and "--" in args):
            return super().parse_known_args(args, namespace)
        self._inside = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        except TypeError:
            return super().parse_known_args(args, namespace)
        finally:
            self._inside = False


def _output_options(p: argparse.ArgumentParser) -> None:
    """``-v`` and ``-q`` after the command too (``bioplug msa IN -o OUT -q``), as most tools
    take them: ``-v`` after it adds to the count before it (:func:`_run`), and SUPPRESS keeps
    a ``-q`` given before it."""
    g = p.add_argument_group("output")
    g.add_argument("-v", "--verbose", action="count", default=0, dest="verbose_after",
                   help="more log output (also before the command)")
    g.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                   help="no progress bars (also before the command)")


def _version_text() -> str:
    from bioplug import __version__

    return f"bioplug {__version__}"


def main(argv: list[str] | None = None) -> int:
    """Run the ``bioplug`` command; returns its exit code.

    Called with ``argv=None`` (the ``bioplug`` executable, ``python -m bioplug``), the process
    ends here once output is flushed (:func:`_end_process`), and a running ``bioplug server``
    runs the command when there is one; called with a list (tests, scripts, the server's
    jobs), it runs here and returns the exit code.
    """
    if argv is None:
        _standard_streams()
        _thread_limit(sys.argv[1:])
        forwarded = _forward_to_server(sys.argv[1:])
        if forwarded is not None:
            _end_process(forwarded)
        _narrow_drivers(sys.argv[1:])
        _quiet_blas_threads()
        _defer_codon_tables()
        from bioplug.interrupts import end_at_once

        end_at_once()   # Ctrl-C ends a device wait at once, not after it
    code = _run(argv)
    if argv is None:
        _end_process(code)
    return code


def _forward_to_server(argv: list[str]) -> int | None:
    """The job's exit code when a running ``bioplug server`` took this call, else None.

    Decided before anything heavy is imported: the client is standard library only, so a
    call that goes to the server never imports numpy or pyopencl (``bioplug.server``).
    """
    from bioplug.server.client import forward

    return forward(argv)


def _quiet_blas_threads() -> None:
    """One OpenBLAS thread for the command's process, unless the user chose a number.

    The command's numpy work is glue around the device kernels (small arrays, no BLAS-heavy
    calls), but OpenBLAS starts a thread per core and its buffers when numpy is imported:
    about 60 ms of each call on a 2-core machine, more on larger hosts. numpy is not imported
    yet here (``bioplug`` and ``bioplug.cli`` do not import it).
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _defer_codon_tables() -> None:
    """Load Biopython's codon tables at their first use instead of with ``Bio.Seq``.

    ``Bio.Seq`` imports ``Bio.Data.CodonTable``, which builds every NCBI codon table as it
    is imported: 21 ms of a 0.4 s ``bioplug msa`` call on an H200 host, whose imports are the
    longest path of such a call, 35 ms on a 2-core host. Only ``translate`` reads them, and
    no command translates. The executable's own process registers the module with
    importlib's ``LazyLoader`` (Python runs it at the first attribute read); library users'
    Biopython stays as it is.
    """
    name = "Bio.Data.CodonTable"
    if name in sys.modules:
        return
    import importlib.util

    try:
        import Bio.Data

        spec = importlib.util.find_spec(name)
    except ImportError:   # no Biopython: the command's own import says so
        return
    if spec is None or spec.loader is None:
        return
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    # set on the package: `from Bio.Data import CodonTable` (Bio.Seq) then takes the module
    # without reading an attribute of it, which would run it
    Bio.Data.CodonTable = module


def _end_process(code: int) -> None:
    """Leave at once, skipping interpreter teardown.

    Every output file is complete and renamed into place before a command returns, so what
    teardown would do is release OpenCL objects and unload modules the OS reclaims anyway;
    it costs about 0.1 s per call, which users running one call per file pay every time.
    """
    logging.shutdown()
    code = _flushed(code)
    # device commands only: a resident server holds its lock file, which a child would keep
    # held for a moment after the server's exit (a quick "stop, start" would find it taken)
    if _gpu_started() and _device_hint(sys.argv[1:])[0]:
        _hand_off_gpu_teardown()
    os._exit(code)


def _flushed(code: int) -> int:
    """Flush standard output and error; the exit code, 1 where output could not be written
    (a full disk, ``>/dev/full``), as ``cp`` and ``cat`` fail. A pipe its reader closed
    (``| head``) took what it wanted: not a failure."""
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        pass
    except OSError as exc:
        code = _stdout_failed(exc, code)
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return code


def _stdout_failed(exc: OSError, code: int) -> int:
    """Tell that standard output could not be written; the exit code, 1 unless it was
    already a failure."""
    print(f"bioplug: cannot write standard output: {exc.strerror or exc}", file=sys.stderr)
    return code or EXIT_FAILURE


class _ClosedStream(io.TextIOBase):
    """Standard output the caller closed (``>&-``), where Python puts None: writing fails
    as on a closed descriptor, where None made ``print`` write elsewhere or raise
    AttributeError from inside the command."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class _ClosedInput(io.TextIOBase):
    """Standard input the caller closed (``<&-``): reading ``-`` fails as on a closed
    descriptor (None gave AttributeError from inside the reader)."""

    def readable(self) -> bool:
        return True

    @property
    def buffer(self) -> _ClosedInput:   # readers of bytes take sys.stdin.buffer
        return self

    def read(self, size: int | None = -1):
        raise OSError(errno.EBADF, "standard input is closed")

    readline = read
    readinto = read


def _standard_streams() -> None:
    """Streams for the executable's process when the caller closed them: errors have nowhere
    to go without standard error (``2>&-``), so they go to the null device; output and input
    fail where they are used (:class:`_ClosedStream`, :class:`_ClosedInput`)."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - the process's
    if sys.stdout is None:
        sys.stdout = _ClosedStream()
    if sys.stdin is None:
        sys.stdin = _ClosedInput()


def _gpu_started() -> bool:
    """Whether this process made a GPU's context (a :class:`bioplug.runtime.Runtime`)."""
    runtime = sys.modules.get("bioplug.runtime.runtime")
    return runtime is not None and any(rt.is_gpu for rt in runtime.started_runtimes())


def _hand_off_gpu_teardown() -> None:
    """Leave the GPU driver's teardown to a child that outlives this process.

    When a process that used an NVIDIA GPU exits, the kernel driver frees its GPU context
    as the last reference to the device files goes: 0.06-0.11 s on an H100 host, after the
    output is written, while the shell waits (a quarter of a small ``bioplug msa`` call;
    4 ms with this hand-off). A forked child shares those files, so this process exits at
    once and the child, holding no output and no terminal, exits (and frees the context)
    when it reads end-of-file on a pipe this process held. The child runs no code but the
    descriptor calls below, and the device is idle: every result has been read back.
    """
    import warnings

    if not sys.platform.startswith("linux"):   # measured there; macOS forbids much after fork
        return
    try:
        read_end, write_end = os.pipe()
        with warnings.catch_warnings():  # "multi-threaded fork" (the drivers' threads)
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:   # no fork (resources, platform): the usual exit
        return
    if pid == 0:
        try:
            os.close(write_end)
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):  # a caller reading our output must not wait for the child
                os.dup2(devnull, fd)
            os.read(read_end, 1)  # end-of-file once the parent has exited
        finally:
            os._exit(0)
    os.close(read_end)


#: Commands that use a device: their drivers start on a thread while the other modules import
#: (:mod:`bioplug.runtime.driver_start`).
DEVICE_COMMANDS = {"msa", "pairwise", "search", "tree", "profile", "viterbi", "align3"}


def _command_word(argv: list[str]) -> str | None:
    """The sub-command argv names (its first word: no top-level option takes a value)."""
    return next((w for w in argv if not w.startswith("-")), None)


def _device_hint(argv: list[str]) -> tuple[bool, str | None]:
    """(command uses a device, its --device value) read from argv before the parser exists.

    A guess: when it is wrong, the thread started a device the command does not use.
    """
    if _command_word(argv) not in DEVICE_COMMANDS:
        return False, None
    return True, _option_value(argv, "--device")


def _option_value(argv: list[str], option: str) -> str | None:
    """The last value argv gives ``option`` (``--device gpu`` or ``--device=gpu``), read
    before the parser exists."""
    value = None
    for i, word in enumerate(argv):
        if word == option and i + 1 < len(argv):
            value = argv[i + 1]
        elif word.startswith(option + "="):
            value = word.split("=", 1)[1]
    return value


def _narrow_drivers(argv: list[str]) -> None:
    """Show NVIDIA's driver only the GPU a one-device command uses
    (:func:`bioplug.runtime.driver_start.narrow`): the executable's own process, after a
    server declined the call (the variable would make its driver environment differ), and
    not for ``--cluster``, whose workers inherit the environment and use every GPU."""
    from bioplug.server.client import is_cluster_option

    uses_device, spec = _device_hint(argv)
    if uses_device and not any(is_cluster_option(w) for w in argv):
        from bioplug.runtime import driver_start

        driver_start.narrow(spec)


def _say_narrowed() -> None:
    """With ``-v``: which GPUs :func:`_narrow_drivers` hid from NVIDIA's driver (it ran
    before logging was set up)."""
    driver_start = sys.modules.get("bioplug.runtime.driver_start")
    if driver_start is not None and "CUDA_VISIBLE_DEVICES" in driver_start.narrowed:
        shown = os.environ.get("CUDA_VISIBLE_DEVICES", "")
        log.info("NVIDIA's driver is shown %s (CUDA_VISIBLE_DEVICES=%r: this call uses one "
                 "device; set the variable to choose)", f"GPU {shown}" if shown else "no GPU",
                 shown)


def _run(argv: list[str] | None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    warm, spec = _device_hint(words)
    if warm and "pyopencl" not in sys.modules:   # else the drivers are up (server, tests)
        from bioplug.runtime import driver_start

        driver_start.start(spec)
    # help lists every command; a call builds its own command's parser only
    full = any(w in ("-h", "--help") for w in words)
    parser = build_parser(None if full else _command_word(words))
    try:
        args = parser.parse_args(argv)
    except OSError as exc:   # --help or --version could not be written
        if argv is not None:
            raise
        return _stdout_failed(exc, EXIT_OK)
    except SystemExit as exc:
        if argv is not None:   # tests, scripts and the server's jobs see argparse's exit
            raise
        # The executable leaves through _end_process (os._exit): an interpreter teardown while
        # the driver start-up thread is inside an OpenCL driver can abort the process
        # (seen as exit -6 for a usage error under load).
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    args.verbose += getattr(args, "verbose_after", 0)
    logging.basicConfig(
        level=logging.WARNING - 10 * min(args.verbose, 2), format="%(levelname)s: %(message)s"
    )
    _say_narrowed()
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_INPUT
    if getattr(args, "threads", None) and argv is not None:
        _threads_in_process(args.threads)
    try:
        return int(args.func(args) or 0)
    except (DeviceError, OutputWriteError) as exc:
        # the device failed (build, lost, resources), or the system an output's write (a
        # full disk, /dev/full: one line naming it, as cp tells it), not the input
        print(f"bioplug {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except BioplugError as exc:
        print(f"bioplug {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except Cancelled:
        print(f"bioplug {args.command}: cancelled", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print(f"bioplug {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a runtime failure: one line, exit code 1
        if isinstance(exc, BrokenPipeError) and str(getattr(args, "output", "-")) == "-":
            # the reader of standard output took what it wanted (| head), as with cat:
            # nothing failed (the exit's flush of the rest meets the closed pipe, dropped)
            log.debug("standard output was closed by its reader")
            return EXIT_OK
        from bioplug.faults import device_error

        lost = device_error(exc)  # an OpenCL call failed outside a guarded front door
        if lost is not None:
            log.debug("traceback", exc_info=True)
            print(f"bioplug {args.command}: error: {lost}", file=sys.stderr)
            return EXIT_FAILURE
        # scripts read one line on stderr; the traceback is for bug reports (-v)
        log.info("traceback", exc_info=True)
        print(f"bioplug {args.command}: failed: {type(exc).__name__}: {exc}"
              f"{'' if args.verbose else ' (run with -v for the traceback)'}", file=sys.stderr)
        return EXIT_FAILURE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
