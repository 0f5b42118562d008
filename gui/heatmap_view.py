"""All-vs-all score heat map (pyqtgraph ImageItem) with names on the axes and a colour bar."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

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
        self.colorbar = pg.ColorBarItem(colorMap=pg.colormap.get("viridis"), interactive=False)
        self.colorbar.setImageItem(self.image, insert_in=self.plot.getPlotItem())
        self.info = QLabel("Run Jobs ▸ All-vs-all scores to fill the heat map.")
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
        self.names: list[str] = []
        self.scores = np.zeros((0, 0))
        self.plot.scene().sigMouseMoved.connect(self._hover)

    def set_matrix(self, names: list[str], scores: np.ndarray, title: str = "") -> None:
        """Show the scores; ``scores[i, j]`` aligns ``names[i]`` with ``names[j]``."""
        self.names = list(names)
        self.scores = np.asarray(scores, dtype=np.float64)
        self.title = title
        self._show()

    def shown_values(self) -> np.ndarray:
        """What the image shows: raw scores, or normalised ``s_ij / sqrt(s_ii * s_jj)``."""
        if not self.normalise.isChecked() or self.scores.size == 0:
            return self.scores
        diag = np.sqrt(np.clip(np.diag(self.scores), 1e-12, None))
        return self.scores / diag[:, None] / diag[None, :]

    def _show(self) -> None:
        n = len(self.names)
        values = self.shown_values()
        self.image.setImage(values.astype(np.float32))
        self.image.setRect(0, 0, n, n)
        lo, hi = (float(values.min()), float(values.max())) if n else (0.0, 1.0)
        self.colorbar.setLevels((lo, hi if hi > lo else lo + 1))
        label = "normalised score" if self.normalise.isChecked() else "score"
        self.colorbar.getAxis("left").setLabel(label)
        left = [(i + 0.5, name) for i, name in enumerate(self.names)] if n <= self.MAX_TICKS \
            else []
        # Names across the bottom only while they fit; numbers otherwise.
        bottom = left if n <= 12 else [(i + 0.5, str(i + 1)) for i in range(0, n, max(1, n // 20))]
        self.plot.getAxis("left").setTicks([left] if left else None)
        self.plot.getAxis("bottom").setTicks([bottom] if bottom else None)
        if left:
            fm = QFontMetrics(self.plot.getAxis("left").style.get("tickFont") or self.font())
            self.plot.getAxis("left").setWidth(max(fm.horizontalAdvance(t) for _, t in left) + 16)
        self.plot.setRange(xRange=(0, n), yRange=(0, n), padding=0.02)
        self.info.setText(self.title or f"{n} × {n} scores")

    def _hover(self, pos) -> None:
        if not self.names:
            return
        p = self.plot.getPlotItem().vb.mapSceneToView(pos)
        i, j = int(np.floor(p.y())), int(np.floor(p.x()))
        if 0 <= i < len(self.names) and 0 <= j < len(self.names):
            self.info.setText(f"{self.names[i]} × {self.names[j]}: score {self.scores[i, j]:g}"
                              f" (normalised {self.shown_values()[i, j]:.3f})"
                              if self.normalise.isChecked() else
                              f"{self.names[i]} × {self.names[j]}: score {self.scores[i, j]:g}")

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
