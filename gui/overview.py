"""Overview of a whole (large) alignment: one pixel per block of cells, the view's frame on it.

The image is built once per data or colour change by sampling: pixel ``(y, x)`` takes the
colour class of cell ``(rows[y], cols[x])`` where ``rows`` / ``cols`` are evenly spaced
indices (``numpy.linspace``), so a 10,000 x 5,000 alignment becomes a panel-sized image in a
few milliseconds without summing 50 million cells. Gaps are light grey, residues their
scheme's colour (uncoloured residues mid grey, so an alignment coloured with ``None`` still
shows its gap pattern). A click or drag centres the residue view there.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QDockWidget, QWidget

GAP_RGB = (235, 235, 235)
PLAIN_RGB = (150, 150, 150)
FRAME = QColor(220, 0, 0)


def overview_rgb(codes: np.ndarray, classes: np.ndarray, palette, height: int,
                 width: int) -> np.ndarray:
    """A ``(h, w, 3)`` uint8 picture of the alignment, at most ``height x width`` pixels.

    Parameters
    ----------
    codes, classes : numpy.ndarray
        ``(n, L)`` ASCII codes and colour classes (as the canvas holds them).
    palette : list of (int, int, int)
        Colour of each class; class 0 (uncoloured) residues are drawn mid grey.
    height, width : int
        Largest picture; an alignment smaller than that gets one pixel per cell.
    """
    n, length = codes.shape
    h, w = max(1, min(height, n)), max(1, min(width, length))
    if n == 0 or length == 0:
        return np.full((1, 1, 3), 255, dtype=np.uint8)
    rows = np.linspace(0, n - 1, h).astype(np.int64)
    cols = np.linspace(0, length - 1, w).astype(np.int64)
    sample_codes = codes[np.ix_(rows, cols)]
    sample_cls = classes[np.ix_(rows, cols)]
    lut = np.array(list(palette), dtype=np.uint8).reshape(-1, 3)
    lut = lut.copy()
    lut[0] = PLAIN_RGB
    out = lut[sample_cls]
    gap = np.isin(sample_codes, np.frombuffer(b"-. ", dtype=np.uint8))
    out[gap] = GAP_RGB
    return np.ascontiguousarray(out)


class OverviewPanel(QWidget):
    """The whole alignment in miniature, following an :class:`AlignmentCanvas`."""

    def __init__(self, canvas, parent: QWidget | None = None):
        super().__init__(parent)
        self.canvas = canvas
        self._key: tuple | None = None
        self._image: QImage | None = None
        self._rgb = np.zeros((1, 1, 3), np.uint8)
        canvas.viewChanged.connect(self.update)
        self.setMinimumHeight(40)
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setToolTip("Whole alignment: click or drag to move the view")

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(400, 80)

    def image(self) -> QImage:
        """The sampled picture for the current data, colours and size (cached)."""
        c = self.canvas
        key = (id(c.codes), id(c.classes), c.codes.shape, self.width(), self.height())
        if key != self._key or self._image is None:
            self._rgb = overview_rgb(c.codes, c.classes, c.palette_rgb, self.height(),
                                     self.width())
            h, w, _ = self._rgb.shape
            self._image = QImage(self._rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888)
            self._key = key
        return self._image

    def frame(self) -> QRect:
        """The residue view's visible cells, in panel pixels."""
        n, length = self.canvas.codes.shape
        r0, r1, c0, c1 = self.canvas.visible_cells()
        sx = self.width() / max(length, 1)
        sy = self.height() / max(n, 1)
        return QRect(int(c0 * sx), int(r0 * sy), max(2, int((c1 - c0) * sx)),
                     max(2, int((r1 - r0) * sy)))

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(255, 255, 255))
        if self.canvas.codes.size:
            painter.drawImage(self.rect(), self.image())
            painter.setPen(QPen(FRAME, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self.frame())
        painter.end()

    def centre_on(self, x: float, y: float) -> None:
        """Centre the residue view on the cell under a panel position."""
        n, length = self.canvas.codes.shape
        if n and length:
            row = int(min(max(y / max(self.height(), 1) * n, 0), n - 1))
            col = int(min(max(x / max(self.width(), 1) * length, 0), length - 1))
            self.canvas.center_on(row=row, column=col)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        self.centre_on(event.position().x(), event.position().y())

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.centre_on(event.position().x(), event.position().y())


def install_overview(window) -> QDockWidget:
    """Add the overview as a dock of ``window`` (top, toggled from the View menu)."""
    dock = QDockWidget("Overview", window)
    dock.setObjectName("overviewDock")
    dock.setWidget(OverviewPanel(window.alignment_view.canvas))
    window.addDockWidget(Qt.DockWidgetArea.TopDockWidgetArea, dock)
    # a strip, not a pane: the residues keep most of the height
    window.resizeDocks([dock], [80], Qt.Orientation.Vertical)
    view_menu = next(a.menu() for a in window.menuBar().actions()
                     if a.text().replace("&", "") == "View")
    view_menu.addAction(dock.toggleViewAction())
    return dock
