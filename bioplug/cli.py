"""The ``bioplug`` command. Each capability adds its sub-command in its own ``cli.py``."""

from __future__ import annotations

import argparse
import importlib
import logging
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
