"""The ``bioplug`` command. Each capability adds its sub-command in its own ``cli.py``."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

from bioplug.errors import BioplugError
from bioplug.progress import Cancelled

# Modules with ``add_parser(subparsers)``; each sub-parser sets ``func(args) -> int``.
COMMAND_MODULES = [
    "bioplug.runtime.cli",
    "bioplug.pairwise.cli",
    "bioplug.msa.cli",
    "bioplug.tree.cli",
]


def add_device_option(parser: argparse.ArgumentParser) -> None:
    """The ``--device`` option every sub-command takes."""
    parser.add_argument(
        "--device",
        default=None,
        help="OpenCL device: gpu, cpu, P:D, an index or a name part (default: BIOPLUG_DEVICE, "
        "else the fastest GPU, else the CPU); see `bioplug devices`",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bioplug", description="GPU-accelerated sequence alignment on OpenCL devices."
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``bioplug`` command; returns its exit code.

    Called with ``argv=None`` (the ``bioplug`` executable, ``python -m bioplug``), the process
    ends here once output is flushed (:func:`_end_process`); called with a list (tests,
    scripts), it returns the exit code.
    """
    code = _run(argv)
    if argv is None:
        _end_process(code)
    return code


def _end_process(code: int) -> None:
    """Leave at once, skipping interpreter teardown.

    Every output file is complete and renamed into place before a command returns, so what
    teardown would do is release OpenCL objects and unload modules the OS reclaims anyway;
    it costs about 0.1 s per call, which users running one call per file pay every time.
    """
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed pipe: nothing left to deliver
            pass
    os._exit(code)


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.WARNING - 10 * min(args.verbose, 2), format="%(levelname)s: %(message)s"
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BioplugError as exc:
        print(f"bioplug {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except Cancelled:
        print(f"bioplug {args.command}: cancelled", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print(f"bioplug {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
