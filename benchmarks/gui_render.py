"""Repaint time of the GUI alignment viewer on a 1,000 x 5,000 random alignment (offscreen).

Usage: ``QT_QPA_PLATFORM=offscreen python benchmarks/gui_render.py [--rows 1000] [--cols 5000]``

Times ``viewport().repaint()`` (a synchronous full repaint of the visible cells) at random
scroll positions after a warm-up, and prints the median; the target is under 30 ms. Also
times a repaint of the whole viewer (names, ruler, consensus row, conservation track).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--cols", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--height", type=int, default=1000)
    parser.add_argument("--scheme", default="Clustal X")
    args = parser.parse_args(argv)

    from bioplug.gui.alignment_view import AlignmentView
    from bioplug.gui.documents import AlignmentData

    app = QApplication.instance() or QApplication([])
    codes = random_alignment(args.rows, args.cols)
    t0 = time.perf_counter()
    recs = [
        SeqRecord(Seq(r.tobytes().decode()), id=f"seq{i + 1}", description="")
        for i, r in enumerate(codes)
    ]
    data = AlignmentData.from_records(recs, aligned=True)
    t_load = time.perf_counter() - t0
    view = AlignmentView()
    view.resize(args.width, args.height)
    view.show()
    t0 = time.perf_counter()
    view.set_data(data)
    view.set_scheme(args.scheme)
    t_colour = time.perf_counter() - t0
    app.processEvents()
    canvas = view.canvas
    rng = np.random.default_rng(1)
    hbar, vbar = canvas.horizontalScrollBar(), canvas.verticalScrollBar()
    times = []
    for k in range(args.repeats + 5):
        hbar.setValue(int(rng.integers(0, hbar.maximum() + 1)))
        vbar.setValue(int(rng.integers(0, vbar.maximum() + 1)))
        t0 = time.perf_counter()
        canvas.viewport().repaint()
        dt = time.perf_counter() - t0
        if k >= 5:  # warm-up: glyph atlas, first paints
            times.append(dt)
    # Whole viewer (names, ruler, consensus, pyqtgraph conservation track) after a scroll.
    full = []
    for k in range(args.repeats // 2 + 5):
        hbar.setValue(int(rng.integers(0, hbar.maximum() + 1)))
        vbar.setValue(int(rng.integers(0, vbar.maximum() + 1)))
        t0 = time.perf_counter()
        view.grab()  # renders every child widget into one pixmap
        dt = time.perf_counter() - t0
        if k >= 5:
            full.append(dt)
    r0, r1, c0, c1 = canvas.visible_cells()
    med = statistics.median(times) * 1e3
    print(f"alignment {args.rows} x {args.cols}, viewport {canvas.viewport().width()} x "
          f"{canvas.viewport().height()} px, {r1 - r0} rows x {c1 - c0} columns visible, "
          f"scheme {args.scheme}")
    print(f"load {t_load * 1e3:.0f} ms, colouring + first layout {t_colour * 1e3:.0f} ms")
    print(f"repaint median {med:.2f} ms (min {min(times) * 1e3:.2f}, max {max(times) * 1e3:.2f}, "
          f"n={len(times)}); target < 30 ms: {'OK' if med < 30 else 'SLOW'}")
    print("whole viewer render (grab) after a scroll (names, ruler, consensus, conservation "
          f"track): median {statistics.median(full) * 1e3:.2f} ms (n={len(full)})")
    view.close()
    view.deleteLater()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # tidy teardown before exit
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
