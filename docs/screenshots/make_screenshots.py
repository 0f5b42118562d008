"""Render the README screenshots of the desktop app offscreen, with real data.

Usage: ``QT_QPA_PLATFORM=offscreen python docs/screenshots/make_screenshots.py [BALIBASE_DIR]``

Data: BAliBASE 3 (Thompson et al. 2005), reference 1: ``RV11/BB11001.tfa`` (4 very divergent
sequences) and ``RV12/BB12035.tfa`` (27 sequences, 20-40 % identity). Every job runs on the
CPU (PoCL) device, or the first device when there is no CPU device.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QEventLoop, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = Path("/work/shared/bench/balibase3")


def main(argv: list[str]) -> int:
    data_dir = Path(argv[1]) if len(argv) > 1 else DEFAULT_DATA
    app = QApplication.instance() or QApplication([])
    from bioplug.gui import MainWindow
    from bioplug.gui.benchmark_page import BenchSizes

    tmp = Path(tempfile.mkdtemp())
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, data_dir=tmp / "data")
    w.resize(1400, 900)
    w.show()
    devices = w.devices_panel.devices
    cpu = next((d for d in devices if d.kind == "CPU"), devices[0])
    w.devices_panel.select_spec(cpu.spec)

    def settle(ms: int = 150) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def run(start, *args) -> None:
        loop = QEventLoop()
        status = []
        w.jobFinished.connect(lambda name, s: (status.append(s), loop.quit()))
        start(*args)
        loop.exec()
        w.jobFinished.disconnect()
        if status != ["done"]:
            raise SystemExit(f"job ended {status}: {w.last_error}")
        settle()

    def shot(name: str) -> None:
        settle()
        path = HERE / f"{name}.png"
        w.grab().save(str(path))
        print("wrote", path)

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
    run(w.run_benchmarks, [(d.spec, d.name) for d in devices], ["pairwise", "nj", "msa"], sizes)
    shot("benchmarks")
    w.close()
    w.deleteLater()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
