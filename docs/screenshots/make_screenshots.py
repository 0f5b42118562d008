"""Render the README and getting-started screenshots of the desktop app, with real data.

Usage::

    xvfb-run -a -s "-screen 0 1600x1000x24" python docs/screenshots/make_screenshots.py
    python docs/screenshots/make_screenshots.py --platform offscreen [BALIBASE_DIR]

The app starts as ``bioplug-gui`` does (:func:`bioplug.gui.app._platform_ready` checks the
platform plugin's libraries, then a ``QApplication`` and the ``MainWindow``), so under Xvfb
these are pictures of the real X11 (xcb) window; ``tests/test_gui_xvfb.py`` runs this script
there (``--quick FASTA``: a few views of a small file, into a temporary folder).

Data: BAliBASE 3 (Thompson et al. 2005), reference 1: ``RV11/BB11001.tfa`` (4 very divergent
sequences) and ``RV12/BB12035.tfa`` (27 sequences, 20-40 % identity). Every job runs on the
CPU (PoCL) device, or the first device when there is no CPU device.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # this checkout's bioplug, not an installed one
DEFAULT_DATA = Path("/work/shared/bench/balibase3")


class Session:
    """The running app: start it, run jobs to the end, take screenshots."""

    def __init__(self, platform: str | None, out: Path):
        from bioplug.gui.app import _platform_ready

        if not _platform_ready(platform):  # the start-up check of bioplug-gui
            raise SystemExit(2)
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication

        self.app = QApplication.instance() or QApplication(["bioplug-gui"])
        print("platform", self.app.platformName())
        from bioplug.gui import MainWindow

        tmp = Path(tempfile.mkdtemp())
        settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
        self.w = MainWindow(settings=settings, data_dir=tmp / "data")
        self.w.resize(1400, 900)
        self.w.show()
        devices = self.w.devices_panel.devices
        cpu = next((d for d in devices if d.kind == "CPU"), devices[0])
        self.w.devices_panel.select_spec(cpu.spec)
        self.cpu = cpu
        self.out = out
        self.settle(300)

    def settle(self, ms: int = 150) -> None:
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def run(self, start, *args) -> None:
        from PySide6.QtCore import QEventLoop

        loop = QEventLoop()
        status = []
        hook = lambda name, s: (status.append(s), loop.quit())  # noqa: E731
        self.w.jobFinished.connect(hook)
        start(*args)
        loop.exec()
        self.w.jobFinished.disconnect(hook)
        if status != ["done"]:
            raise SystemExit(f"job ended {status}: {self.w.last_error}")
        self.settle()

    def shot(self, name: str) -> None:
        self.settle()
        path = self.out / f"{name}.png"
        self.w.grab().save(str(path))
        print("wrote", path)

    def close(self) -> None:
        from PySide6.QtCore import QEvent

        self.w.close()
        self.w.deleteLater()
        self.app.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def quick(s: Session, fasta: Path) -> None:
    """A few views of a small file (the Xvfb test)."""
    w = s.w
    w.open_file(fasta)
    s.run(w.run_msa)
    s.shot("alignment")
    s.run(w.tree_features.run_bootstrap, 20, 1, "nj")
    w.tree_features.show_beside(True)
    s.shot("tree_beside")
    s.run(w.run_all_vs_all)
    s.shot("heatmap")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="bioplug-gui screenshots")
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA,
                        help="BAliBASE 3 folder")
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--platform", default=None, help="Qt platform (default: as bioplug-gui)")
    parser.add_argument("--quick", type=Path, default=None, metavar="FASTA",
                        help="only a few views of this small file")
    args = parser.parse_args(argv[1:])
    if args.platform is None and not os.environ.get("DISPLAY") \
            and not os.environ.get("WAYLAND_DISPLAY"):
        args.platform = "offscreen"  # no display at all: still make the pictures
    args.out.mkdir(parents=True, exist_ok=True)
    s = Session(args.platform, args.out)
    if args.quick is not None:
        quick(s, args.quick)
    else:
        full(s, args.data)
    s.close()
    return 0


def full(s: Session, data_dir: Path) -> None:
    """Every README / getting-started picture from BAliBASE families."""
    w, run, shot = s.w, s.run, s.shot
    from bioplug.gui.benchmark_page import BenchSizes

    # 1. the four BB11001 sequences, aligned, with their tree
    w.open_file(data_dir / "RV11" / "BB11001.tfa")
    run(w.run_msa)
    shot("alignment_bb11001")
    # 2. a 27-sequence family: alignment (Clustal X), tree, heat map
    w.open_file(data_dir / "RV12" / "BB12035.tfa")
    run(w.run_msa)
    w.alignment_view.canvas.scroll_to(0, 40)
    shot("alignment")
    run(w.run_tree, "nj")
    w.tree_view.select_leaves([w.data.names[2], w.data.names[5], w.data.names[6]])
    w.tabs.setCurrentWidget(w.tree_view)
    shot("tree")
    w.tabs.setCurrentWidget(w.alignment_view)
    w.alignment_view.set_scheme("Zappo")
    shot("alignment_tree_selection")
    w.alignment_view.set_scheme("Clustal X")
    run(w.run_all_vs_all)
    shot("heatmap")
    run(w.run_pairwise, 0, 7, "local", "BLOSUM62")
    shot("pairwise")
    sizes = BenchSizes(pairwise_n=16, pairwise_len=150, nj_n=200, msa_n=6, msa_len=80,
                       repeats=3)
    run(w.run_benchmarks, [(s.cpu.spec, s.cpu.name)], ["pairwise", "nj", "msa"], sizes)
    shot("benchmarks")
    # the round-2 views: tree beside the alignment with bootstrap support, overview, project
    w.open_file(data_dir / "RV12" / "BB12035.tfa")
    run(w.run_msa)
    run(w.tree_features.run_bootstrap, 100, 1, "nj")
    w.tree_view.reroot_midpoint()
    w.tree_view.ladderize()
    shot("tree_bootstrap")
    w.tree_features.show_beside(True)
    w.alignment_view.set_scheme("BLOSUM62")
    w.alignment_view.highlight_names(w.data.names[3:7])
    shot("tree_beside")
    w.alignment_view.set_scheme("Clustal X")
    run(w.run_all_vs_all)
    w.heatmap.tree_order.setChecked(True)
    shot("heatmap_tree_order")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
