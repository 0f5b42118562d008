"""Open and repaint times of the GUI alignment viewer on random alignments (offscreen).

Usage: ``QT_QPA_PLATFORM=offscreen python benchmarks/gui_render.py [--sizes 1000x5000,10000x5000]``
(or ``--rows R --cols C`` for one size).

For each size: "open" is the records -> :class:`AlignmentData` conversion (what reading a
file ends with) plus ``AlignmentView.set_data`` (colouring, consensus, conservation) and the
first paint; then ``viewport().repaint()`` (a synchronous full repaint of the visible cells)
is timed at random scroll positions and after one-page scroll steps (what dragging the bar
or paging does), medians after a warm-up; the target is under 30 ms a repaint. Also times a
repaint of the whole viewer (names, ruler, consensus row, conservation track, overview).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Time this checkout's viewer, not an installed copy (the script's folder comes first on
# sys.path, so a plain run would import site-packages' bioplug).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from PySide6.QtCore import QEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


def random_alignment(rows: int, cols: int, seed: int = 0) -> np.ndarray:
    """A ``(rows, cols)`` uint8 array of residues and ~10 % gaps, mutated from one ancestor."""
    rng = np.random.default_rng(seed)
    letters = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY", dtype=np.uint8)
    ancestor = rng.choice(letters, cols)
    codes = np.repeat(ancestor[None, :], rows, axis=0)
    mutate = rng.random((rows, cols)) < 0.3
    codes[mutate] = rng.choice(letters, int(mutate.sum()))
    codes[rng.random((rows, cols)) < 0.1] = ord("-")
    return codes


def time_size(app, rows: int, cols: int, args) -> None:
    """Open one random alignment and time its repaints; prints one block of figures."""
    from bioplug.gui.alignment_view import AlignmentView
    from bioplug.gui.documents import AlignmentData
    from bioplug.gui.overview import OverviewPanel

    codes = random_alignment(rows, cols)
    recs = [
        SeqRecord(Seq(r.tobytes().decode()), id=f"seq{i + 1}", description="")
        for i, r in enumerate(codes)
    ]
    del codes
    view = AlignmentView()
    view.resize(args.width, args.height)
    view.set_scheme(args.scheme)
    overview = OverviewPanel(view.canvas)
    overview.resize(400, 120)
    view.show()
    overview.show()
    app.processEvents()
    t0 = time.perf_counter()
    data = AlignmentData.from_records(recs, aligned=True)
    t_load = time.perf_counter() - t0
    view.set_data(data)
    view.canvas.viewport().repaint()
    overview.repaint()
    t_open = time.perf_counter() - t0
    canvas = view.canvas
    rng = np.random.default_rng(1)
    hbar, vbar = canvas.horizontalScrollBar(), canvas.verticalScrollBar()

    def timed(move, count: int, paint) -> list[float]:
        out = []
        for k in range(count + 5):
            move(k)
            t = time.perf_counter()
            paint()
            if k >= 5:  # warm-up: glyph atlas, first paints
                out.append(time.perf_counter() - t)
        return out

    def jump(_k: int) -> None:
        hbar.setValue(int(rng.integers(0, hbar.maximum() + 1)))
        vbar.setValue(int(rng.integers(0, vbar.maximum() + 1)))

    def page(k: int) -> None:
        vbar.setValue((k * vbar.pageStep()) % max(vbar.maximum(), 1))

    times = timed(jump, args.repeats, canvas.viewport().repaint)
    paging = timed(page, args.repeats, canvas.viewport().repaint)
    full = timed(jump, args.repeats // 2, view.grab)  # every child widget into one pixmap
    r0, r1, c0, c1 = canvas.visible_cells()
    med = statistics.median(times) * 1e3
    print(f"alignment {rows} x {cols}, viewport {canvas.viewport().width()} x "
          f"{canvas.viewport().height()} px, {r1 - r0} rows x {c1 - c0} columns visible, "
          f"scheme {args.scheme}")
    print(f"  open {t_open:.2f} s (records -> AlignmentData {t_load:.2f} s; colouring, "
          f"consensus, conservation, overview and first paint {t_open - t_load:.2f} s)")
    print(f"  repaint after a jump: median {med:.2f} ms (min {min(times) * 1e3:.2f}, max "
          f"{max(times) * 1e3:.2f}, n={len(times)}); target < 30 ms: "
          f"{'OK' if med < 30 else 'SLOW'}")
    print(f"  repaint after a one-page scroll: median {statistics.median(paging) * 1e3:.2f} ms")
    print("  whole viewer render (grab) after a scroll (names, ruler, consensus, conservation "
          f"track): median {statistics.median(full) * 1e3:.2f} ms (n={len(full)})")
    overview.close()
    view.close()
    view.deleteLater()
    overview.deleteLater()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # free before the next size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000x5000,10000x5000",
                        help="comma-separated ROWSxCOLUMNS")
    parser.add_argument("--rows", type=int, default=None)
    parser.add_argument("--cols", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--height", type=int, default=1000)
    parser.add_argument("--scheme", default="Clustal X")
    args = parser.parse_args(argv)
    sizes = [(args.rows, args.cols)] if args.rows else [
        tuple(int(v) for v in size.split("x")) for size in args.sizes.split(",")]
    app = QApplication.instance() or QApplication([])
    for rows, cols in sizes:
        time_size(app, rows, cols, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
