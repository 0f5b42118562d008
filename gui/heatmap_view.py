"""All-vs-all score heat map (pyqtgraph ImageItem) with names on the axes and a colour bar.

Names are thinned so they never overlap: :func:`thin_ticks` keeps every k-th label, k chosen
from the pixels a cell gets at the current zoom and the widest (bottom) or tallest (left)
label, and is rerun whenever the view's range or size changes, so zooming in brings the
hidden names back. Rows and columns can follow a tree's leaf order; hovering shows the pair
and its score, a click asks for that pair's alignment (:attr:`HeatMapView.pairClicked`).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from bioplug.errors import InputError

#: Pixels kept free between two neighbouring labels.
LABEL_GAP = 3
#: What the view says while it shows no scores.
EMPTY_TEXT = "Run Jobs ▸ All-vs-all scores to fill the heat map."


def thin_ticks(labels: list[str], cell_px: float, size_px, first: int = 0) -> list[tuple]:
    """Every k-th ``(position, label)`` so that no two labels overlap.

    Parameters
    ----------
    labels : list of str
        One label per cell, in display order.
    cell_px : float
        Pixels one cell spans along the axis.
    size_px : callable
        ``size_px(label)``: pixels a label spans along the axis (its width on the bottom axis,
        its height on the left one).
    first : int
        The first cell in view (the kept labels are multiples of k, so they do not jump
        while panning).

    Returns
    -------
    list of (float, str)
        Tick positions (cell centres) and labels; k is the smallest step whose labels fit.
    """
    if not labels or cell_px <= 0:
        return []
    widest = max(size_px(t) for t in labels) + LABEL_GAP
    step = max(1, int(np.ceil(widest / cell_px)))
    start = (max(first, 0) // step) * step
    return [(i + 0.5, labels[i]) for i in range(start, len(labels), step)]


class HeatMapView(QWidget):
    """Shows an ``(n, n)`` score matrix; hovering a cell shows the pair and its score.

    Signals
    -------
    pairClicked(str, str)
        The names of the row and column under a click (their alignment is wanted).
    """

    pairClicked = Signal(str, str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.plot = pg.PlotWidget(background="w")
        self.plot.setAspectLocked(True)
        self.plot.invertY(True)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.plot.addItem(self.image)
        self.colorbar = pg.ColorBarItem(colorMap=pg.colormap.get("viridis"), interactive=False)
        self.colorbar.setImageItem(self.image, insert_in=self.plot.getPlotItem())
        self.info = QLabel(EMPTY_TEXT)
        self.normalise = QCheckBox("Normalise (s_ij / √(s_ii·s_jj))")
        self.normalise.setChecked(True)
        self.normalise.toggled.connect(lambda _: self.names and self._show())
        self.title = ""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.plot, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.info, 1)
        bottom.addWidget(self.normalise)
        layout.addLayout(bottom)
        self.tree_order = QCheckBox("Tree order")
        self.tree_order.setToolTip("Rows and columns in the leaf order of the tree tab")
        self.tree_order.setEnabled(False)
        self.tree_order.toggled.connect(lambda _: self.names and self._show())
        bottom.insertWidget(1, self.tree_order)
        self.names: list[str] = []
        self.scores = np.zeros((0, 0))
        self.order = np.zeros(0, dtype=np.int64)  # display index -> matrix index
        self.leaf_names: list[str] = []
        self.plot.scene().sigMouseMoved.connect(self._hover)
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        self.plot.getPlotItem().vb.sigRangeChanged.connect(lambda *_: self._update_ticks())
        self.plot.getPlotItem().vb.sigResized.connect(lambda *_: self._update_ticks())

    def set_matrix(self, names: list[str], scores: np.ndarray, title: str = "") -> None:
        """Show the scores; ``scores[i, j]`` aligns ``names[i]`` with ``names[j]``."""
        self.names = list(names)
        self.scores = np.asarray(scores, dtype=np.float64)
        self.title = title
        self._show()

    def clear(self) -> None:
        """Show no scores (another document was opened): no image, names, title or
        tooltip of the previous ones."""
        self.names, self.scores = [], np.zeros((0, 0))
        self.order = np.zeros(0, dtype=np.int64)
        self.title = ""
        self.image.clear()  # pyqtgraph refuses an empty image: clear the item instead
        for axis in ("left", "bottom"):  # else the old names stay on the axes
            self.plot.getAxis(axis).setTicks([[], []])
        self.plot.setToolTip("")
        self.info.setText(EMPTY_TEXT)

    def shown_values(self) -> np.ndarray:
        """What the image shows: raw scores, or normalised ``s_ij / sqrt(s_ii * s_jj)``."""
        if not self.normalise.isChecked() or self.scores.size == 0:
            return self.scores
        diag = np.sqrt(np.clip(np.diag(self.scores), 1e-12, None))
        return self.scores / diag[:, None] / diag[None, :]

    def set_tree(self, tree) -> None:
        """Offer (and, when ticked, use) the leaf order of ``tree`` (None: file order)."""
        self.leaf_names = [t.name for t in tree.tips()] if tree is not None else []
        self.tree_order.setEnabled(bool(self.leaf_names))
        if self.names:
            self._show()

    def display_order(self) -> np.ndarray:
        """Matrix index of each displayed row / column (tree order when ticked)."""
        n = len(self.names)
        if not (self.tree_order.isChecked() and self.leaf_names):
            return np.arange(n)
        rank = {name: k for k, name in enumerate(self.leaf_names)}
        return np.array(sorted(range(n), key=lambda i: (rank.get(self.names[i], n), i)),
                        dtype=np.int64)

    def _show(self) -> None:
        n = len(self.names)
        self.order = self.display_order()
        values = self.shown_values()[np.ix_(self.order, self.order)]
        self.image.setImage(values.astype(np.float32))
        self.image.setRect(0, 0, n, n)
        lo, hi = (float(values.min()), float(values.max())) if n else (0.0, 1.0)
        self.colorbar.setLevels((lo, hi if hi > lo else lo + 1))
        label = "normalised score" if self.normalise.isChecked() else "score"
        self.colorbar.getAxis("left").setLabel(label)
        fm = self._metrics()
        shown = [self.names[i] for i in self.order]
        if shown:
            self.plot.getAxis("left").setWidth(min(max(fm.horizontalAdvance(t) for t in shown),
                                                   220) + 16)
        self.plot.setRange(xRange=(0, n), yRange=(0, n), padding=0.02)
        self._update_ticks()
        self.info.setText(self.title or f"{n} × {n} scores")

    def _metrics(self) -> QFontMetrics:
        return QFontMetrics(self.plot.getAxis("left").style.get("tickFont") or self.font())

    def _update_ticks(self) -> None:
        """Thinned names on both axes for the current zoom (never overlapping)."""
        if not self.names:
            return
        vb = self.plot.getPlotItem().vb
        (x0, x1), (y0, y1) = vb.viewRange()
        px_x = vb.width() / max(x1 - x0, 1e-9)
        px_y = vb.height() / max(y1 - y0, 1e-9)
        fm = self._metrics()
        shown = [self.names[i] for i in self.order]
        left = thin_ticks(shown, px_y, lambda t: fm.height(), int(y0))
        bottom = thin_ticks(shown, px_x, fm.horizontalAdvance, int(x0))
        self.plot.getAxis("left").setTicks([left, []])
        self.plot.getAxis("bottom").setTicks([bottom, []])

    def cell_at(self, scene_pos) -> tuple[int, int] | None:
        """Matrix indices ``(i, j)`` of the cell under a scene position (None: outside)."""
        if not self.names:
            return None
        p = self.plot.getPlotItem().vb.mapSceneToView(scene_pos)
        r, c = int(np.floor(p.y())), int(np.floor(p.x()))
        n = len(self.names)
        if 0 <= r < n and 0 <= c < n:
            return int(self.order[r]), int(self.order[c])
        return None

    def _hover(self, pos) -> None:
        cell = self.cell_at(pos)
        if cell is None:
            return
        i, j = cell
        text = f"{self.names[i]} × {self.names[j]}: score {self.scores[i, j]:g}"
        if self.normalise.isChecked():
            text += f" (normalised {self.shown_values()[i, j]:.3f})"
        self.info.setText(text + "; click to align the pair")
        self.plot.setToolTip(text)

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        cell = self.cell_at(event.scenePos())
        if cell is not None:
            self.pairClicked.emit(self.names[cell[0]], self.names[cell[1]])

    def export_image(self, path: str | os.PathLike, inputs=()) -> Path:
        """The heat map as PNG or SVG, written atomically."""
        from PySide6.QtCore import QRectF, QSize
        from PySide6.QtGui import QColor

        from .export import paint_to_file

        if not self.names:
            raise InputError("no heat map to export: run all-vs-all scores first")
        widget = self.plot
        size = QSize(max(widget.width(), 400), max(widget.height(), 400))

        def paint(painter) -> None:
            painter.fillRect(QRectF(0, 0, size.width(), size.height()), QColor(255, 255, 255))
            widget.scene().render(painter, QRectF(0, 0, size.width(), size.height()),
                                  widget.sceneRect())

        return paint_to_file(path, size, paint, inputs, title="bioplug heat map")
