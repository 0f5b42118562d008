"""``bioplug-gui`` / ``python -m bioplug.gui``: start the desktop application."""

from __future__ import annotations

import argparse
import logging
import os
import sys


def build_parser() -> argparse.ArgumentParser:
    """Command-line options of ``bioplug-gui``."""
    parser = argparse.ArgumentParser(
        prog="bioplug-gui", description="bioplug desktop application (alignment on OpenCL)."
    )
    parser.add_argument("files", nargs="*", help="sequence or alignment files to open")
    parser.add_argument("--device", default=None,
                        help="OpenCL device to choose at start (P:D, as `bioplug devices`)")
    parser.add_argument("--platform", default=None,
                        help="Qt platform plugin (xcb, wayland, offscreen, ...; default: "
                        "QT_QPA_PLATFORM, else the session's, after checking its libraries)")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the application until its window closes; returns the exit code."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.WARNING - 10 * min(args.verbose, 2),
                        format="%(levelname)s: %(message)s")
    if not _platform_ready(args.platform):
        return 2
    try:
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QApplication

        from . import MainWindow
        from .main_window import wait_for_jobs
    except ImportError as exc:
        print(f"bioplug-gui: error: {exc}", file=sys.stderr)
        return 2

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("bioplug")
    app.setApplicationName("bioplug")
    window = MainWindow()
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # tidy Qt teardown at exit
    if args.device:
        try:
            window.devices_panel.select_spec(args.device)
        except Exception as exc:  # noqa: BLE001 - shown, not fatal
            window.show_error(str(exc))
    for path in args.files:
        window.open_file(path)
    window.show()
    code = int(app.exec())
    wait_for_jobs(code)  # a job cancelled by closing the window may still be running
    return code


def _platform_ready(requested: str | None) -> bool:
    """Check the platform plugin's libraries before Qt loads it (Qt would abort)."""
    from .platform_check import choose_platform

    choice = choose_platform(requested=requested)
    if choice.message:
        print(choice.message, file=sys.stderr)
    if choice.ok and choice.platform:
        os.environ["QT_QPA_PLATFORM"] = choice.platform
    return choice.ok


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
