"""All-vs-all score heat map (pyqtgraph ImageItem) with names on the axes and a colour bar."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from bioplug.errors import InputError


class HeatMapView(QWidget):
    """Shows an ``(n, n)`` score matrix; hovering a cell shows the pair and its score."""

    MAX_TICKS = 60

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.plot = pg.PlotWidget(background="w")
        self.plot.setAspectLocked(True)
        self.plot.invertY(True)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.plot.addItem(self.image)
        self.colorbar = pg.ColorBarItem(colorMap=pg.colormap.get("viridis"), interactive=False,
                                        label="score")
        self.colorbar.setImageItem(self.image, insert_in=self.plot.getPlotItem())
        self.info = QLabel("Run Jobs ▸ All-vs-all scores to fill the heat map.")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.info)
        self.names: list[str] = []
        self.scores = np.zeros((0, 0))
        self.plot.scene().sigMouseMoved.connect(self._hover)

    def set_matrix(self, names: list[str], scores: np.ndarray, title: str = "") -> None:
        """Show the scores; ``scores[i, j]`` aligns ``names[i]`` with ``names[j]``."""
        self.names = list(names)
        self.scores = np.asarray(scores, dtype=np.float64)
        n = len(self.names)
        self.image.setImage(self.scores.astype(np.float32))
        self.image.setRect(0, 0, n, n)
        lo, hi = (float(self.scores.min()), float(self.scores.max())) if n else (0.0, 1.0)
        self.colorbar.setLevels((lo, hi if hi > lo else lo + 1))
        ticks = [(i + 0.5, name) for i, name in enumerate(self.names)] if n <= self.MAX_TICKS \
            else []
        for axis in ("left", "bottom"):
            self.plot.getAxis(axis).setTicks([ticks] if ticks else None)
        if ticks:
            fm = QFontMetrics(self.plot.getAxis("left").font() if hasattr(
                self.plot.getAxis("left"), "font") else self.font())
            self.plot.getAxis("left").setWidth(max(fm.horizontalAdvance(t) for _, t in ticks) + 16)
        else:
            self.plot.getAxis("left").setWidth(None)
        self.plot.getAxis("bottom").setStyle(tickTextOffset=4)
        self.plot.setRange(xRange=(0, n), yRange=(0, n), padding=0.02)
        self.info.setText(title or f"{n} × {n} scores")

    def _hover(self, pos) -> None:
        if not self.names:
            return
        p = self.plot.getPlotItem().vb.mapSceneToView(pos)
        i, j = int(np.floor(p.y())), int(np.floor(p.x()))
        if 0 <= i < len(self.names) and 0 <= j < len(self.names):
            self.info.setText(f"{self.names[i]} × {self.names[j]}: {self.scores[i, j]:g}")

    def export_image(self, path: str | os.PathLike, inputs=()) -> Path:
        """The heat map as PNG or SVG (pyqtgraph's exporters, written atomically)."""
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
                                  widget.sceneRect() if hasattr(widget, "sceneRect")
                                  else QRectF(0, 0, widget.width(), widget.height()))

        return paint_to_file(path, size, paint, inputs, title="bioplug heat map")
