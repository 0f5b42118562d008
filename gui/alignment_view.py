"""The alignment viewer: names, ruler, coloured residues, consensus and conservation track.

Painting cost does not depend on the alignment's size: :class:`AlignmentCanvas` paints only
the visible rows and columns. Every (residue, colour class) glyph is rendered once into an
atlas (one small ARGB tile per glyph, rebuilt on zoom or scheme change); a repaint looks the
visible cells' glyph ids up, gathers their tiles with one numpy fancy-index into a single
image and draws it with one ``drawImage`` call.

Colouring and the per-column tracks do not block on wide inputs either: alignments of more
than :data:`EAGER_CELLS` cells are coloured a block of columns at a time
(:class:`colors.LazyColumns`), the visible columns before they are painted and the rest in
idle time; unaligned sequences of different lengths get no consensus or conservation.
"""

from __future__ import annotations

import logging
import math
import time
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from bioplug.errors import InputError

from . import colors
from .documents import AlignmentData
from .editing import AlignmentEditor

log = logging.getLogger(__name__)

#: Symbols with a glyph; code 0 (space) is the blank padding of unaligned rows.
SYMBOLS = [" "] + [chr(c) for c in range(65, 91)] + [chr(c) for c in range(97, 123)] + [
    "-", ".", "*", "?",
]
_SYM_LUT = np.full(256, SYMBOLS.index("?"), dtype=np.uint16)
for _i, _s in enumerate(SYMBOLS):
    _SYM_LUT[ord(_s)] = _i
NSYM = len(SYMBOLS)
#: Largest whole alignment exported as an image (PNG, SVG); bigger ones export the visible
#: part. SVG keeps one text element per residue, so it gets the smaller limit (~10 MB).
MAX_EXPORT_CELLS = {".png": 400_000, ".svg": 60_000}
HIGHLIGHT = QColor(255, 200, 0, 90)
SELECTION = QColor(40, 90, 220, 70)
SELECTION_EDGE = QColor(40, 90, 220)
MARK = QColor(220, 0, 0)
RULER_STEPS = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
#: Alignments up to this many cells are coloured whole when shown (a few tens of ms); larger
#: ones a block of columns at a time (the visible ones first, the rest in idle time).
EAGER_CELLS = 4_000_000
#: Seconds of idle-time colouring per event-loop turn (keeps scrolling and typing smooth).
FILL_SLICE = 0.015


def _text_colour(rgb: tuple[int, int, int]) -> QColor:
    lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    return QColor(255, 255, 255) if lum < 110 else QColor(0, 0, 0)


class GlyphAtlas:
    """One rendered tile per (colour class, symbol), as a numpy array for fast gathering.

    Parameters
    ----------
    palette : list of (int, int, int)
        Background colour per class.
    font : QFont
        Residue font.
    cell : QSize
        Tile size in logical pixels; below 6 pixels wide the tiles are plain colour.
    ratio : float
        Device pixel ratio (HiDPI screens): tiles are rendered at ``cell * ratio`` pixels.
    """

    def __init__(self, palette: list[tuple[int, int, int]], font: QFont, cell: QSize,
                 ratio: float = 1.0):
        self.ratio = float(ratio)
        self.logical = QSize(cell)
        draw_text = cell.width() >= 6 and cell.height() >= 7
        self.cell = QSize(max(1, round(cell.width() * ratio)), max(1, round(cell.height() * ratio)))
        if self.ratio != 1.0:
            font = QFont(font)
            font.setPixelSize(max(1, round(font.pixelSize() * ratio)))
        w, h = self.cell.width(), self.cell.height()
        ncls = len(palette)
        image = QImage(w * NSYM, h * ncls, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor(255, 255, 255))
        painter = QPainter(image)
        painter.setFont(font)
        for cls, rgb in enumerate(palette):
            fg = _text_colour(rgb)
            for s, sym in enumerate(SYMBOLS):
                rect = QRect(s * w, cls * h, w, h)
                if sym == " ":
                    continue
                gap = sym in "-."
                if not gap:
                    painter.fillRect(rect, QColor(*rgb))
                if draw_text:
                    painter.setPen(QColor(150, 150, 150) if gap else fg)
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, sym)
                elif gap:
                    painter.fillRect(
                        QRect(s * w, cls * h + h // 2, w, max(1, h // 8)), QColor(190, 190, 190)
                    )
        painter.end()
        buf = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(
            image.height(), image.bytesPerLine() // 4, 4
        )[:, : w * NSYM]
        # (ncls*h, NSYM*w, 4) -> (ncls*NSYM, h, w, 4), glyph id = cls * NSYM + sym
        tiles = buf.reshape(ncls, h, NSYM, w, 4).transpose(0, 2, 1, 3, 4)
        self.tiles = np.ascontiguousarray(tiles.reshape(ncls * NSYM, h, w, 4))

    def compose(self, ids: np.ndarray) -> np.ndarray:
        """The image of a block of cells: ``(r, c)`` glyph ids -> ``(r*h, c*w, 4)`` ARGB."""
        r, c = ids.shape
        h, w = self.cell.height(), self.cell.width()
        block = self.tiles[ids]  # (r, c, h, w, 4)
        return np.ascontiguousarray(block.transpose(0, 2, 1, 3, 4)).reshape(r * h, c * w, 4)


class AlignmentCanvas(QAbstractScrollArea):
    """The residue grid: paints only the visible cells from a glyph atlas.

    Signals
    -------
    viewChanged()
        Scrolled, resized or zoomed (the names, ruler and tracks follow).
    cellClicked(int, int)
        Row and column under a click.
    """

    viewChanged = Signal()
    cellClicked = Signal(int, int)
    blockSelected = Signal(int, int, int, int)

    ZOOM_POINTS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.viewport().setAutoFillBackground(False)
        self.codes = np.zeros((0, 0), dtype=np.uint8)
        self.classes = np.zeros((0, 0), dtype=np.uint8)
        self.glyph_ids = np.zeros((0, 0), dtype=np.uint16)
        self._lazy = colors.lazy_classes(self.codes, colors.no_classes)
        self._fill_timer = QTimer(self)
        self._fill_timer.setInterval(0)
        self._fill_timer.timeout.connect(self._fill_some)
        self.palette_rgb: list[tuple[int, int, int]] = [colors.WHITE]
        self.highlighted = np.zeros(0, dtype=bool)
        self.marked_column: int | None = None
        self.sel_columns: tuple[int, int] | None = None
        self.cursor: tuple[int, int] | None = None
        self.key_handler = None  # editing keys (AlignmentEditor.handle_key)
        self._anchor: tuple[int, int] | None = None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._zoom = 8
        self._atlas: GlyphAtlas | None = None
        self.horizontalScrollBar().valueChanged.connect(self._scrolled)
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        self._set_font()

    # -- data ---------------------------------------------------------------------------
    def set_rows(self, codes: np.ndarray, classify, palette) -> None:
        """Show ``codes`` coloured by ``classify(codes)`` (indices into ``palette``)."""
        self.codes = np.asarray(codes, dtype=np.uint8)
        self.highlighted = np.zeros(self.codes.shape[0], dtype=bool)
        self.set_classes(classify, palette)

    def set_classes(self, classify, palette) -> None:
        """Change the colouring only.

        Parameters
        ----------
        classify : callable
            A scheme's ``classify(codes) -> classes`` (:data:`colors.SCHEMES`); it is called
            on blocks of columns, all at once up to :data:`EAGER_CELLS` cells.
        palette : list of (int, int, int)
        """
        self._fill_timer.stop()
        self._lazy = colors.lazy_classes(self.codes, classify)
        self.classes = self._lazy.outputs[0]
        self.palette_rgb = list(palette)
        self.glyph_ids = _SYM_LUT[self.codes]  # class 0 until a block is coloured
        if self.codes.size <= EAGER_CELLS:
            self.ensure_columns(0, self.codes.shape[1])
        else:
            self._fill_timer.start()
        self._atlas = None
        self._update_scrollbars()
        self.viewport().update()
        self.viewChanged.emit()

    def ensure_columns(self, first: int, end: int) -> None:
        """Colour the columns ``first .. end - 1`` now if they are not yet."""
        for start, stop in self._lazy.ensure(first, end):
            self._glyphs(start, stop)

    def _glyphs(self, start: int, stop: int) -> None:
        self.glyph_ids[:, start:stop] = (self.classes[:, start:stop].astype(np.uint16) * NSYM
                                         + _SYM_LUT[self.codes[:, start:stop]])

    def _fill_some(self) -> None:
        """Idle time: colour blocks of columns for :data:`FILL_SLICE` seconds."""
        end = time.perf_counter() + FILL_SLICE
        while time.perf_counter() < end:
            span = self._lazy.fill_next()
            if span is None:
                self._fill_timer.stop()
                # a new array: views that cache by the array's identity (the overview) redraw
                self.classes = self.classes.copy()
                self.viewChanged.emit()
                return
            self._glyphs(*span)

    # -- geometry -----------------------------------------------------------------------
    def _set_font(self) -> None:
        font = QFont("Monospace")
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        font.setPixelSize(max(self._zoom + 3, 4))
        fm = QFontMetrics(font)
        if self._zoom >= 6:
            w = max(fm.horizontalAdvance("W") + 2, self._zoom)
            h = fm.height() + 1
        else:  # overview: colour blocks
            w, h = self._zoom, self._zoom + 1
        self.residue_font = font
        self.cell = QSize(w, h)
        self._atlas = None

    @property
    def zoom(self) -> int:
        """Font pixel size step (cells shrink to plain colour blocks below 6)."""
        return self._zoom

    def set_zoom(self, zoom: int) -> None:
        """Change the cell size, keeping the top-left cell in place."""
        zoom = int(min(max(zoom, self.ZOOM_POINTS[0]), self.ZOOM_POINTS[-1]))
        if zoom == self._zoom:
            return
        r0, _, c0, _ = self.visible_cells()
        self._zoom = zoom
        self._set_font()
        self._update_scrollbars()
        self.scroll_to(r0, c0)
        self.viewport().update()
        self.viewChanged.emit()

    def zoom_in(self) -> None:
        """One step larger."""
        bigger = [z for z in self.ZOOM_POINTS if z > self._zoom]
        if bigger:
            self.set_zoom(bigger[0])

    def zoom_out(self) -> None:
        """One step smaller."""
        smaller = [z for z in self.ZOOM_POINTS if z < self._zoom]
        if smaller:
            self.set_zoom(smaller[-1])

    def _update_scrollbars(self) -> None:
        n, length = self.codes.shape
        vw, vh = self.viewport().width(), self.viewport().height()
        hbar, vbar = self.horizontalScrollBar(), self.verticalScrollBar()
        hbar.setRange(0, max(0, length * self.cell.width() - vw))
        hbar.setPageStep(max(vw, 1))
        hbar.setSingleStep(self.cell.width())
        vbar.setRange(0, max(0, n * self.cell.height() - vh))
        vbar.setPageStep(max(vh, 1))
        vbar.setSingleStep(self.cell.height())

    def visible_cells(self) -> tuple[int, int, int, int]:
        """``(first row, end row, first column, end column)`` in view (ends exclusive)."""
        n, length = self.codes.shape
        x0, y0 = self.horizontalScrollBar().value(), self.verticalScrollBar().value()
        w, h = self.cell.width(), self.cell.height()
        vw, vh = self.viewport().width(), self.viewport().height()
        r0, c0 = min(y0 // h, n), min(x0 // w, length)
        r1 = min(n, math.ceil((y0 + vh) / h))
        c1 = min(length, math.ceil((x0 + vw) / w))
        return r0, r1, c0, c1

    def scroll_to(self, row: int | None = None, column: int | None = None) -> None:
        """Put a row at the top and/or a column at the left (as far as the bars allow)."""
        if row is not None:
            self.verticalScrollBar().setValue(int(row) * self.cell.height())
        if column is not None:
            self.horizontalScrollBar().setValue(int(column) * self.cell.width())

    def center_on(self, row: int | None = None, column: int | None = None) -> None:
        """Bring a row and/or column to the middle of the view."""
        vw, vh = self.viewport().width(), self.viewport().height()
        if row is not None:
            y = int(row) * self.cell.height() - (vh - self.cell.height()) // 2
            self.verticalScrollBar().setValue(max(0, y))
        if column is not None:
            x = int(column) * self.cell.width() - (vw - self.cell.width()) // 2
            self.horizontalScrollBar().setValue(max(0, x))

    def cell_at(self, pos: QPoint) -> tuple[int, int]:
        """Row and column under a viewport position (may be out of range)."""
        x = pos.x() + self.horizontalScrollBar().value()
        y = pos.y() + self.verticalScrollBar().value()
        return y // self.cell.height(), x // self.cell.width()

    # -- painting -----------------------------------------------------------------------
    def atlas(self) -> GlyphAtlas:
        """The glyph atlas for the current palette and zoom (built on demand)."""
        if self._atlas is None:
            self._atlas = GlyphAtlas(self.palette_rgb, self.residue_font, self.cell,
                                     self.viewport().devicePixelRatioF())
        elif self._atlas.ratio != self.viewport().devicePixelRatioF():  # moved to another screen
            self._atlas = None
            return self.atlas()
        return self._atlas

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self.viewport())
        painter.fillRect(self.viewport().rect(), QColor(255, 255, 255))
        r0, r1, c0, c1 = self.visible_cells()
        if r1 > r0 and c1 > c0:
            self.ensure_columns(c0, c1)
            w, h = self.cell.width(), self.cell.height()
            x0, y0 = self.horizontalScrollBar().value(), self.verticalScrollBar().value()
            buf = self.atlas().compose(self.glyph_ids[r0:r1, c0:c1])
            image = QImage(
                buf.data, buf.shape[1], buf.shape[0], buf.strides[0],
                QImage.Format.Format_ARGB32_Premultiplied,
            )
            image.setDevicePixelRatio(self._atlas.ratio)
            ox, oy = c0 * w - x0, r0 * h - y0
            painter.drawImage(ox, oy, image)
            rows = np.flatnonzero(self.highlighted[r0:r1])
            if rows.size:
                painter.setPen(Qt.PenStyle.NoPen)
                for r in rows:
                    painter.fillRect(QRect(0, oy + int(r) * h, self.viewport().width(), h),
                                     HIGHLIGHT)
            self._paint_selection(painter, r0, r1, oy)
            if self.marked_column is not None and c0 <= self.marked_column < c1:
                painter.setPen(QPen(MARK, 2))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                x = self.marked_column * w - x0
                painter.drawRect(QRect(x, oy, w, (r1 - r0) * h))
        painter.end()

    def _paint_selection(self, painter: QPainter, r0: int, r1: int, oy: int) -> None:
        """The selected block (selected rows x selected columns) in translucent blue."""
        if self.sel_columns is None:
            return
        w, h = self.cell.width(), self.cell.height()
        x = self.sel_columns[0] * w - self.horizontalScrollBar().value()
        width = (self.sel_columns[1] - self.sel_columns[0] + 1) * w
        rows = np.flatnonzero(self.highlighted[r0:r1])
        if rows.size == 0:  # columns alone: the whole height
            rows = np.arange(r1 - r0)
        painter.setPen(Qt.PenStyle.NoPen)
        for r in rows:
            painter.fillRect(QRect(x, oy + int(r) * h, width, h), SELECTION)
        painter.setPen(QPen(SELECTION_EDGE, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        top = oy + int(rows[0]) * h
        painter.drawRect(QRect(x, top, width, (int(rows[-1]) - int(rows[0]) + 1) * h))

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._update_scrollbars()
        self.viewChanged.emit()

    def wheelEvent(self, event) -> None:  # noqa: N802
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            (self.zoom_in if event.angleDelta().y() > 0 else self.zoom_out)()
            event.accept()
            return
        super().wheelEvent(event)

    def _clamped_cell(self, pos: QPoint) -> tuple[int, int]:
        n, length = self.codes.shape
        r, c = self.cell_at(pos)
        return int(min(max(r, 0), n - 1)), int(min(max(c, 0), length - 1))

    def mousePressEvent(self, event) -> None:  # noqa: N802
        r, c = self.cell_at(event.position().toPoint())
        n, length = self.codes.shape
        if 0 <= r < n and 0 <= c < length:
            if event.button() == Qt.MouseButton.LeftButton:
                self._anchor = self.cursor = (int(r), int(c))
                self.blockSelected.emit(int(r), int(r), int(c), int(c))
            self.cellClicked.emit(int(r), int(c))
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        """A drag selects the block between the press and the pointer."""
        if self._anchor is not None and event.buttons() & Qt.MouseButton.LeftButton \
                and self.codes.size:
            r, c = self._clamped_cell(event.position().toPoint())
            (ar, ac) = self._anchor
            self.blockSelected.emit(min(ar, r), max(ar, r), min(ac, c), max(ac, c))
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        self._anchor = None
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if self.key_handler is not None and self.key_handler(event):
            event.accept()
            return
        super().keyPressEvent(event)

    def _scrolled(self, _value: int) -> None:
        self.viewport().update()
        self.viewChanged.emit()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(800, 500)


class _Strip(QWidget):
    """Base for the names column, ruler and consensus row that follow the canvas."""

    def __init__(self, canvas: AlignmentCanvas, parent: QWidget | None = None):
        super().__init__(parent)
        self.canvas = canvas
        canvas.viewChanged.connect(self.update)
        self.setAutoFillBackground(False)


class NamesColumn(_Strip):
    """Row names for the visible rows; a click selects the row."""

    rowClicked = Signal(int, object)  # row, Qt.KeyboardModifiers
    rowDoubleClicked = Signal(int)
    #: Pixels at the right edge where a drag resizes the column.
    GRIP = 5

    def __init__(self, canvas: AlignmentCanvas, parent: QWidget | None = None):
        super().__init__(canvas, parent)
        self.names: list[str] = []
        self.user_width: int | None = None
        self._resizing = False
        self.setMinimumWidth(60)
        self.setMouseTracking(True)  # the resize cursor shows on hover

    def set_names(self, names: list[str]) -> None:
        """Row labels; the column widens to the longest (at most 240 pixels unless the
        user dragged it wider)."""
        self.names = list(names)
        if self.user_width is None:
            fm = QFontMetrics(self.font())
            width = max((fm.horizontalAdvance(n) for n in self.names), default=40) + 14
            self.setFixedWidth(min(max(width, 60), 240))
        self.update()

    def set_column_width(self, width: int) -> None:
        """The user's width (kept across new data)."""
        self.user_width = int(min(max(width, 40), 1000))
        self.setFixedWidth(self.user_width)

    def row_at(self, y: int) -> int:
        """Row under a widget y coordinate (-1: none)."""
        row = (y + self.canvas.verticalScrollBar().value()) // self.canvas.cell.height()
        return int(row) if 0 <= row < len(self.names) else -1

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:  # the full id, however narrow the column
            row = self.row_at(event.pos().y())
            if row >= 0:
                QToolTip.showText(event.globalPos(), self.names[row], self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(245, 245, 245))
        c = self.canvas
        r0, r1, _, _ = c.visible_cells()
        h = c.cell.height()
        y0 = c.verticalScrollBar().value()
        font = QFont(self.font())
        font.setPixelSize(max(min(h - 2, 14), 4))
        painter.setFont(font)
        if h >= 6:
            for r in range(r0, r1):
                rect = QRect(4, r * h - y0, self.width() - 8, h)
                if r < len(c.highlighted) and c.highlighted[r]:
                    painter.fillRect(QRect(0, r * h - y0, self.width(), h), HIGHLIGHT)
                painter.setPen(QColor(0, 0, 0))
                painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                                 self.names[r] if r < len(self.names) else "")
        painter.end()

    def mousePressEvent(self, event) -> None:  # noqa: N802
        pos = event.position().toPoint()
        if pos.x() >= self.width() - self.GRIP:
            self._resizing = True
            return
        row = self.row_at(pos.y())
        if row >= 0:
            self.rowClicked.emit(row, event.modifiers())

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        x = event.position().toPoint().x()
        if self._resizing:
            self.set_column_width(x)
        edge = x >= self.width() - self.GRIP
        self.setCursor(Qt.CursorShape.SplitHCursor if edge or self._resizing
                       else Qt.CursorShape.ArrowCursor)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        self._resizing = False

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802
        row = self.row_at(event.position().toPoint().y())
        if row >= 0:
            self.rowDoubleClicked.emit(row)


class Ruler(_Strip):
    """Column numbers (1-based) with ticks every 10 columns."""

    columnsSelected = Signal(int, int)

    def __init__(self, canvas: AlignmentCanvas, parent: QWidget | None = None):
        super().__init__(canvas, parent)
        self.setFixedHeight(20)
        self._anchor: int | None = None

    def column_at(self, x: int) -> int:
        """Column under a widget x coordinate, clamped to the alignment."""
        c = self.canvas
        col = (x + c.horizontalScrollBar().value()) // c.cell.width()
        return int(min(max(col, 0), max(c.codes.shape[1] - 1, 0)))

    def mousePressEvent(self, event) -> None:  # noqa: N802
        """Click or drag on the ruler: select whole columns."""
        if self.canvas.codes.size:
            self._anchor = self.column_at(event.position().toPoint().x())
            self.columnsSelected.emit(self._anchor, self._anchor)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._anchor is not None:
            col = self.column_at(event.position().toPoint().x())
            self.columnsSelected.emit(min(self._anchor, col), max(self._anchor, col))

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        self._anchor = None

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(245, 245, 245))
        c = self.canvas
        _, _, c0, c1 = c.visible_cells()
        w = c.cell.width()
        x0 = c.horizontalScrollBar().value()
        step = next((s for s in RULER_STEPS if s * w >= 45), RULER_STEPS[-1])
        painter.setPen(QColor(60, 60, 60))
        font = QFont(self.font())
        font.setPixelSize(10)
        painter.setFont(font)
        first = (c0 // step) * step
        for col in range(max(first, 0), c1 + step, step):
            number = col if col else 1
            x = (number - 1) * w - x0 + w // 2
            painter.drawLine(x, self.height() - 5, x, self.height())
            painter.drawText(QRect(x - 30, 0, 60, self.height() - 5),
                             Qt.AlignmentFlag.AlignCenter, str(number))
        painter.end()


class ConsensusRow(_Strip):
    """The consensus letter of each visible column (upper case: share above 50 %)."""

    def __init__(self, canvas: AlignmentCanvas, parent: QWidget | None = None):
        super().__init__(canvas, parent)
        self.tracks: colors.LazyColumns | None = None
        self.setFixedHeight(18)

    @property
    def letters(self) -> np.ndarray:
        """Consensus letter per column, as far as computed (empty without tracks)."""
        return self.tracks.outputs[0] if self.tracks is not None else np.zeros(0, np.uint8)

    @property
    def share(self) -> np.ndarray:
        """Share of the rows holding the consensus letter, per column."""
        return self.tracks.outputs[1] if self.tracks is not None else np.zeros(0, np.float32)

    def set_tracks(self, tracks: colors.LazyColumns | None) -> None:
        """The per-column tracks (:func:`colors.lazy_tracks`), or None for none."""
        self.tracks = tracks
        self.update()

    def text(self) -> str:
        """The whole consensus line: upper case above 50 %, lower case above 30 %, else ``.``."""
        if self.tracks is not None:
            self.tracks.ensure(0, self.canvas.codes.shape[1])
        out = []
        for code, s in zip(self.letters.tolist(), self.share.tolist(), strict=True):
            ch = chr(code)
            out.append(ch if s > 0.5 else ch.lower() if s > 0.3 else ".")
        return "".join(out)

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(235, 235, 245))
        c = self.canvas
        _, _, c0, c1 = c.visible_cells()
        w = c.cell.width()
        x0 = c.horizontalScrollBar().value()
        if self.tracks is not None:
            self.tracks.ensure(c0, c1)
        if w >= 6 and c1 <= len(self.letters):
            painter.setFont(c.residue_font)
            painter.setPen(QColor(0, 0, 80))
            for col in range(c0, c1):
                s = float(self.share[col])
                ch = chr(int(self.letters[col]))
                ch = ch if s > 0.5 else ch.lower() if s > 0.3 else "."
                painter.drawText(QRect(col * w - x0, 0, w, self.height()),
                                 Qt.AlignmentFlag.AlignCenter, ch)
        painter.end()


class ConservationTrack(pg.PlotWidget):
    """Per-column conservation as a bar-like step curve, following the canvas."""

    def __init__(self, canvas: AlignmentCanvas, parent: QWidget | None = None):
        super().__init__(parent=parent, background="w")
        self.canvas = canvas
        self.setFixedHeight(70)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.setMenuEnabled(False)
        plot = self.getPlotItem()
        plot.hideAxis("bottom")
        plot.getAxis("left").setWidth(0)
        plot.hideAxis("left")
        plot.setYRange(0, 1.05, padding=0)
        plot.getViewBox().setDefaultPadding(0)
        self.curve = pg.PlotDataItem(
            stepMode="center", fillLevel=0, brush=pg.mkBrush(90, 110, 200, 180),
            pen=pg.mkPen(60, 80, 170),
        )
        self.addItem(self.curve)
        self.tracks: colors.LazyColumns | None = None
        canvas.viewChanged.connect(self.follow)

    @property
    def values(self) -> np.ndarray:
        """Conservation per column (0 .. 1), as far as computed (empty without tracks)."""
        return self.tracks.outputs[2] if self.tracks is not None else np.zeros(0, np.float32)

    def set_tracks(self, tracks: colors.LazyColumns | None) -> None:
        """The per-column tracks (:func:`colors.lazy_tracks`), or None for none."""
        self.tracks = tracks
        self.follow()

    def follow(self) -> None:
        """Match the x range to the canvas's visible columns (pixel-exact) and plot those
        columns only (a curve of millions of steps took seconds to draw)."""
        c = self.canvas
        w = c.cell.width()
        x0 = c.horizontalScrollBar().value() / w
        span = max(self.getPlotItem().vb.width(), 1.0) / w
        first = int(x0)
        end = min(int(math.ceil(x0 + span)) + 1, self.values.size)
        if end > first:
            if self.tracks is not None:   # computed as far as shown
                self.tracks.ensure(first, end)
            x = np.arange(first, end + 1, dtype=np.float64)
            self.curve.setData(x, self.values[first:end])
        else:
            self.curve.setData([], [])
        self.getPlotItem().setXRange(x0, x0 + span, padding=0)


class ReliabilityTrack(ConservationTrack):
    """Per-column reliability of an alignment that carries it (a QuickProbs alignment, a
    Stockholm file's ``#=GC PP_cons``), as the conservation track draws its values."""

    def __init__(self, canvas: AlignmentCanvas, parent: QWidget | None = None):
        super().__init__(canvas, parent)
        self.curve.setBrush(pg.mkBrush(80, 160, 90, 180))
        self.curve.setPen(pg.mkPen(40, 120, 50))
        self._values = np.zeros(0, np.float32)

    @property
    def values(self) -> np.ndarray:
        """Reliability per column (0 .. 1; 0 where a column has none), or empty."""
        return self._values

    def set_values(self, values: np.ndarray | None) -> None:
        """The columns' reliabilities (NaN drawn as 0), or None for none."""
        self._values = (np.zeros(0, np.float32) if values is None
                        else np.nan_to_num(np.asarray(values, np.float32)))
        self.tracks = None
        self.follow()


def _warning_label() -> QLabel:
    """The (hidden) note above the residues for input the jobs will refuse.

    A note rather than a dialog: the file stays open to be looked at, but its characters that
    are no sequence letters are drawn as "?" and every job refuses them.
    """
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet("background: rgb(255,243,205); color: rgb(102,77,3); padding: 2px")
    label.hide()
    return label


class AlignmentView(QWidget):
    """Toolbar, names, ruler, canvas, consensus and conservation, kept in step.

    Signals
    -------
    rowsHighlighted(list)
        Names of the highlighted rows after a find, a click or a tree selection.
    warningShown(str)
        A newly shown document has a character that is no sequence letter: the message
        names the record, the position and the character (also shown above the residues).
    """

    rowsHighlighted = Signal(list)
    warningShown = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.data: AlignmentData | None = None
        self._warned = ""
        self.scheme = colors.DEFAULT_SCHEME
        self._make_panes()
        bar = self._make_toolbar()
        self.warning = _warning_label()
        grid = self._make_grid()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        outer.addLayout(bar)
        outer.addWidget(self.warning)
        outer.addLayout(grid, 1)
        self._connect_panes()

    def _make_panes(self) -> None:
        """The canvas and the panes that follow it: names, ruler, consensus and tracks."""
        self.canvas = AlignmentCanvas(self)
        self.names = NamesColumn(self.canvas, self)
        self.ruler = Ruler(self.canvas, self)
        self.consensus_row = ConsensusRow(self.canvas, self)
        self.track = ConservationTrack(self.canvas, self)
        self.reliability = ReliabilityTrack(self.canvas, self)

    def _make_toolbar(self) -> QHBoxLayout:
        """The toolbar: colour scheme, find, go to column, zoom and the status text.

        Returns
        -------
        QHBoxLayout
            The toolbar's row, its controls connected (``self.scheme_box``,
            ``self.find_edit``, ``self.column_box`` and ``self.status`` are set).
        """
        self.scheme_box = QComboBox()
        self.scheme_box.addItems(list(colors.SCHEMES))
        self.scheme_box.setCurrentText(self.scheme)
        self.scheme_box.currentTextChanged.connect(self.set_scheme)
        self.find_edit = QLineEdit()
        self.find_edit.setPlaceholderText("Find a sequence name or a residue motif…")
        self.find_edit.returnPressed.connect(lambda: self.find(self.find_edit.text()))
        self.column_box = QSpinBox()
        self.column_box.setRange(1, 1)
        self.column_box.setPrefix("column ")
        go = QPushButton("Go")
        go.clicked.connect(lambda: self.jump_to_column(self.column_box.value()))
        zin, zout = QToolButton(), QToolButton()
        zin.setText("+")
        zout.setText("−")
        zin.clicked.connect(self.canvas.zoom_in)
        zout.clicked.connect(self.canvas.zoom_out)
        self.status = QLabel()

        bar = QHBoxLayout()
        bar.addWidget(QLabel("Colours:"))
        bar.addWidget(self.scheme_box)
        bar.addWidget(self.find_edit, 1)
        bar.addWidget(self.column_box)
        bar.addWidget(go)
        bar.addWidget(zout)
        bar.addWidget(zin)
        bar.addWidget(self.status)
        return bar

    def _make_grid(self) -> QGridLayout:
        """The ruler, side panels and names, canvas, and the consensus and track rows.

        Returns
        -------
        QGridLayout
            Labels in column 0, the panes in column 1 (``self.side`` and
            ``self.reliability_label`` are set).
        """
        grid = QGridLayout()
        grid.setSpacing(0)
        grid.addWidget(self.ruler, 0, 1)
        self.side = QHBoxLayout()  # panels left of the names (the row-aligned tree)
        self.side.setSpacing(0)
        self.side.addWidget(self.names)
        grid.addLayout(self.side, 1, 0)
        grid.addWidget(self.canvas, 1, 1)
        cons_label = QLabel(" Consensus")
        cons_label.setStyleSheet("background: rgb(235,235,245)")
        grid.addWidget(cons_label, 2, 0)
        grid.addWidget(self.consensus_row, 2, 1)
        grid.addWidget(QLabel(" Conservation"), 3, 0)
        grid.addLayout(self._viewport_wide(self.track), 3, 1)
        self.reliability_label = QLabel(" Reliability")
        self.reliability_label.setToolTip("Mean posterior probability of the residue pairs "
                                          "each column aligns (QuickProbs)")
        grid.addWidget(self.reliability_label, 4, 0)
        grid.addLayout(self._viewport_wide(self.reliability), 4, 1)
        return grid

    def _viewport_wide(self, widget: QWidget) -> QHBoxLayout:
        """``widget`` in a row as wide as the canvas's viewport.

        A track spans the canvas's viewport only (not its vertical scroll bar), so its
        columns stay under the canvas's.
        """
        box = QHBoxLayout()
        box.setContentsMargins(0, 0, self.canvas.verticalScrollBar().sizeHint().width(), 0)
        box.addWidget(widget)
        return box

    def _connect_panes(self) -> None:
        """Clicks, selections, edits, the context menu and scrolling, wired to the view."""
        self.names.rowClicked.connect(self._row_clicked)
        self.names.rowDoubleClicked.connect(self.ask_rename)
        self.ruler.columnsSelected.connect(self.select_columns)
        self.canvas.blockSelected.connect(
            lambda r0, r1, c0, c1: self.select_block(range(r0, r1 + 1), c0, c1))
        self.canvas.cellClicked.connect(self._cell_clicked)
        self.editor = AlignmentEditor(self)
        self.canvas.key_handler = self._edit_key
        self.canvas.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.canvas.customContextMenuRequested.connect(self._context_menu)
        self.canvas.viewChanged.connect(self._update_status)
        self.track.getPlotItem().vb.sigResized.connect(self.track.follow)
        self.reliability.getPlotItem().vb.sigResized.connect(self.reliability.follow)

    def add_side_panel(self, widget: QWidget) -> None:
        """Put ``widget`` left of the names column, rows aligned (it follows the canvas)."""
        self.side.insertWidget(0, widget)

    # -- content ------------------------------------------------------------------------
    def set_data(self, data: AlignmentData) -> None:
        """Show sequences or an alignment (a new document: the undo history is cleared)."""
        self.editor.stack.clear()
        self.clear_selection()
        self._default_scheme_for(data)
        self._show(data)
        self.canvas.scroll_to(0, 0)
        self._update_status()

    def show_edited(self, data: AlignmentData) -> None:
        """Show the result of an edit, keeping the scroll position and the selection."""
        keep = self.canvas.highlighted
        self._show(data)
        if keep.size == data.shape[0]:
            self.canvas.highlighted = keep
        self._update_status()

    def _show(self, data: AlignmentData) -> None:
        self.data = data
        palette, classify = colors.SCHEMES[self.scheme]
        self.canvas.set_rows(data.codes, classify, palette)
        self.names.set_names(data.names)
        # a column of unaligned sequences of different lengths means nothing: no tracks
        tracks = colors.lazy_tracks(data.codes) if data.has_columns else None
        self.consensus_row.set_tracks(tracks)
        self.track.set_tracks(tracks)
        reliability = data.column_reliability
        self.reliability.set_values(reliability)
        self.reliability.setVisible(reliability is not None)
        self.reliability_label.setVisible(reliability is not None)
        self.column_box.setRange(1, max(1, data.shape[1]))
        self._show_warning(data)

    def _show_warning(self, data: AlignmentData) -> None:
        """The note above the residues when a character is no sequence letter."""
        problem = data.letter_problem()
        self.warning.setText(f"{problem}. It is shown as '?'; jobs refuse it until it is "
                             "fixed." if problem else "")
        self.warning.setVisible(bool(problem))
        if problem and problem != self._warned:
            self.warningShown.emit(problem)
        self._warned = problem

    def _default_scheme_for(self, data: AlignmentData) -> None:
        """A new document of nucleotides gets the Nucleotide scheme and one of proteins
        Clustal X, as in Jalview, unless the user chose another scheme (a project's own
        scheme is set after this)."""
        from bioplug.alphabet import is_nucleotide

        if self.scheme not in (colors.DEFAULT_SCHEME, "Nucleotide") or not data.names:
            return
        nucleotide = is_nucleotide([str(r.seq) for r in data.records])
        wanted = "Nucleotide" if nucleotide else colors.DEFAULT_SCHEME
        if wanted != self.scheme:
            self.scheme = wanted
            self.scheme_box.blockSignals(True)   # no recolouring of the old rows
            self.scheme_box.setCurrentText(wanted)
            self.scheme_box.blockSignals(False)

    def set_scheme(self, name: str) -> None:
        """Colour with one of :data:`colors.SCHEMES`."""
        if name not in colors.SCHEMES:
            raise InputError(f"unknown colour scheme {name!r}")
        if name == self.scheme and self.data is not None \
                and self.canvas.classes.shape == self.data.codes.shape:
            return  # already coloured so (a 10,000 x 5,000 recolouring takes a second)
        self.scheme = name
        if self.scheme_box.currentText() != name:
            self.scheme_box.setCurrentText(name)
        if self.data is not None:
            palette, classify = colors.SCHEMES[name]
            self.canvas.set_classes(classify, palette)

    # -- navigation ---------------------------------------------------------------------
    def find(self, text: str) -> int:
        """Highlight and scroll to the first row whose name contains ``text``.

        When no name matches and ``text`` is made of letters, it is searched as a residue
        motif (gaps ignored): the first row holding it is highlighted and its first column
        marked.

        Returns
        -------
        int
            The row, or -1 when nothing matches.
        """
        text = text.strip()
        if not text or self.data is None:
            return -1
        low = text.lower()
        for i, name in enumerate(self.data.names):
            if low in name.lower():
                self.highlight_rows([i])
                self.canvas.center_on(row=i)
                return i
        hit = self.find_motif(text) if text.isalpha() else None
        if hit is not None:
            row, column = hit
            self.highlight_rows([row])
            self.canvas.marked_column = column
            self.canvas.center_on(row=row, column=column)
            self.canvas.viewport().update()
            self.status.setText(f"motif {text.upper()} in {self.data.names[row]} at column "
                                f"{column + 1}")
            return row
        self.status.setText(f"no sequence name or motif matches {text!r}")
        return -1

    def find_motif(self, motif: str) -> tuple[int, int] | None:
        """First ``(row, column)`` where ``motif`` starts in the ungapped residues of a row."""
        if self.data is None:
            return None
        motif = motif.upper()
        up = colors.upper_codes(self.data.codes)
        for row in range(up.shape[0]):
            residues = np.flatnonzero(~np.isin(up[row], np.frombuffer(b"-. ", np.uint8)))
            text = up[row, residues].tobytes().decode("ascii", "replace")
            pos = text.find(motif)
            if pos >= 0:
                return row, int(residues[pos])
        return None

    def residue_number(self, row: int, column: int) -> int | None:
        """1-based position in the ungapped sequence of the residue at a cell (None: a gap)."""
        if self.data is None:
            return None
        cells = self.data.codes[row, : column + 1]
        if chr(int(cells[-1])) in "-. ":
            return None
        return int((~np.isin(cells, np.frombuffer(b"-. ", np.uint8))).sum())

    def jump_to_column(self, column: int) -> None:
        """Mark a column (1-based, as the ruler counts) and bring it to the middle."""
        if self.data is None:
            return
        col = int(min(max(column, 1), self.data.shape[1])) - 1
        self.canvas.marked_column = col
        self.canvas.center_on(column=col)
        self.canvas.viewport().update()

    def highlight_rows(self, rows: list[int]) -> None:
        """Highlight these rows (others cleared) and tell listeners."""
        mask = np.zeros(self.canvas.codes.shape[0], dtype=bool)
        rows = [r for r in rows if 0 <= r < mask.size]
        mask[rows] = True
        self.canvas.highlighted = mask
        self.canvas.viewport().update()
        self.names.update()
        names = [self.data.names[r] for r in rows] if self.data else []
        self.rowsHighlighted.emit(names)

    def highlight_names(self, names: list[str]) -> None:
        """Highlight the rows with these names (e.g. leaves picked in the tree view)."""
        if self.data is None:
            return
        wanted = set(names)
        rows = [i for i, n in enumerate(self.data.names) if n in wanted]
        self.highlight_rows(rows)
        if rows:
            r0, r1, _, _ = self.canvas.visible_cells()
            if not any(r0 <= r < r1 for r in rows):
                self.canvas.center_on(row=rows[0])

    def highlighted_names(self) -> list[str]:
        """Names of the highlighted rows."""
        if self.data is None:
            return []
        return [self.data.names[i] for i in np.flatnonzero(self.canvas.highlighted)]

    def visible_rows(self) -> list[str]:
        """Names of the rows in view."""
        r0, r1, _, _ = self.canvas.visible_cells()
        return self.data.names[r0:r1] if self.data else []

    def _row_clicked(self, row: int, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
        """Click: that row; Ctrl+click: toggle it; Shift+click: the range from the last."""
        current = self.selected_rows()
        self.canvas.sel_columns = None
        if modifiers & Qt.KeyboardModifier.ShiftModifier and current:
            lo, hi = sorted((current[-1], row))
            self.highlight_rows(sorted(set(current) | set(range(lo, hi + 1))))
        elif modifiers & Qt.KeyboardModifier.ControlModifier:
            self.highlight_rows(sorted(set(current) ^ {row}))
        else:
            self.highlight_rows([row])

    # -- selection ----------------------------------------------------------------------
    def selected_rows(self) -> list[int]:
        """Selected rows; every row when whole columns are selected."""
        rows = np.flatnonzero(self.canvas.highlighted).tolist()
        if not rows and self.canvas.sel_columns is not None and self.data is not None:
            return list(range(self.data.shape[0]))
        return rows

    def select_block(self, rows, first: int, last: int) -> None:
        """Select ``rows`` x columns ``first .. last``."""
        if self.data is None:
            return
        length = self.data.shape[1]
        first, last = max(0, min(first, length - 1)), max(0, min(last, length - 1))
        self.canvas.sel_columns = (min(first, last), max(first, last))
        self.highlight_rows(list(rows))

    def select_columns(self, first: int, last: int) -> None:
        """Select whole columns (every row)."""
        self.canvas.sel_columns = (first, last)
        self.highlight_rows([])

    def clear_selection(self) -> None:
        """No rows, no columns selected."""
        self.canvas.sel_columns = None
        self.canvas.cursor = None
        self.highlight_rows([])

    # -- editing ------------------------------------------------------------------------
    def _edit_key(self, event) -> bool:
        try:
            return self.editor.handle_key(event)
        except InputError as exc:
            self.status.setText(str(exc))
            return True

    def ask_rename(self, row: int) -> None:
        """Rename a sequence (double-click on its name)."""
        if self.data is None:
            return
        name, ok = QInputDialog.getText(self, "Rename sequence", "New name:",
                                        text=self.data.names[row])
        if ok:
            self._guarded(self.editor.rename, row, name)

    def _guarded(self, fn, *args) -> None:
        try:
            fn(*args)
        except InputError as exc:
            self.status.setText(str(exc))

    def edit_menu(self) -> QMenu:
        """The editing actions (context menu of the residues)."""
        menu = QMenu(self)
        ed = self.editor
        for text, fn in [("Insert gap (Space)", ed.insert_gap),
                         ("Delete gap (Backspace)", ed.delete_gap),
                         ("Move sequences up (Alt+Up)", lambda: ed.move_sequences(-1)),
                         ("Move sequences down (Alt+Down)", lambda: ed.move_sequences(1)),
                         ("Delete sequences (Delete)", ed.delete_sequences),
                         ("Delete columns", ed.delete_columns),
                         ("Trim to selected columns", ed.trim),
                         ("Remove gap-only columns", ed.remove_gap_columns)]:
            menu.addAction(text, lambda fn=fn: self._guarded(fn))
        return menu

    def _context_menu(self, pos: QPoint) -> None:
        self.edit_menu().exec(self.canvas.mapToGlobal(pos))

    def sort_rows(self, by: str, reference: int | None = None,
                  order: list[str] | None = None) -> None:
        """Sort the rows (undoable): ``by`` is ``"name"``, ``"identity"`` (to the row
        ``reference``, most similar first) or ``"names"`` (the given ``order``, e.g. the
        tree's leaves; rows it does not name keep their order, after it)."""
        if self.data is None:
            return
        names = self.data.names
        if by == "name":
            perm = sorted(range(len(names)), key=lambda i: names[i].lower())
        elif by == "identity":
            from .edit_ops import identity_to

            ident = identity_to(self.data.codes, int(reference or 0))
            perm = sorted(range(len(names)), key=lambda i: (-ident[i], i))
        elif by == "names":
            rank = {name: k for k, name in enumerate(order or [])}
            perm = sorted(range(len(names)), key=lambda i: (rank.get(names[i], len(rank)), i))
        else:
            raise InputError(f"unknown row order {by!r}")
        self.editor.reorder(perm, f"sort by {by}")

    def _cell_clicked(self, row: int, column: int) -> None:
        if self.data is not None:
            ch = chr(int(self.data.codes[row, column]))
            number = self.residue_number(row, column)
            where = f"residue {ch}{number}" if number is not None else "gap"
            self.status.setText(f"{self.data.names[row]}  column {column + 1}  {where}")

    def _update_status(self) -> None:
        if self.data is None:
            self.status.setText("")
            return
        n, length = self.data.shape
        kind = "alignment" if self.data.aligned else "sequences"
        r0, r1, c0, c1 = self.canvas.visible_cells()
        self.status.setText(f"{n} × {length} {kind}; rows {r0 + 1}–{r1}, columns {c0 + 1}–{c1}")

    # -- images -------------------------------------------------------------------------
    def export_image(self, path: str | Path) -> Path:
        """Write the alignment as PNG or SVG (whole if small, else the visible part).

        See :data:`MAX_EXPORT_CELLS` for "small".

        Parameters
        ----------
        path : path-like
            ``.png`` or ``.svg``.
        """
        from .export import paint_to_file

        if self.data is None:
            raise InputError("nothing to export: open sequences first")
        n, length = self.data.shape
        if n * length <= MAX_EXPORT_CELLS.get(Path(path).suffix.lower(), 0):
            r0, r1, c0, c1 = 0, n, 0, length
        else:
            r0, r1, c0, c1 = self.canvas.visible_cells()
            log.info("alignment too large for one image; exporting the visible part")
        inputs = [self.data.source] if self.data.source else []
        size, paint = self._region_painter(r0, r1, c0, c1)
        return paint_to_file(Path(path), size, paint, inputs, title="bioplug alignment")

    def _region_painter(self, r0: int, r1: int, c0: int, c1: int):
        """Size and a ``paint(painter)`` function for a block of rows and columns."""
        assert self.data is not None
        data = self.data
        w, h = max(self.canvas.cell.width(), 10), max(self.canvas.cell.height(), 14)
        font = QFont("Monospace")
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        font.setPixelSize(h - 4)
        fm = QFontMetrics(font)
        names_w = min(max((fm.horizontalAdvance(x) for x in data.names[r0:r1]), default=40), 300)
        names_w += 16
        ruler_h = h + 4
        size = QSize(names_w + (c1 - c0) * w + 8, ruler_h + (r1 - r0) * h + 8)
        self.canvas.ensure_columns(c0, c1)
        classes = self.canvas.classes
        palette = [QColor(*rgb) for rgb in self.canvas.palette_rgb]
        text_pens = [_text_colour(rgb) for rgb in self.canvas.palette_rgb]
        highlighted = self.canvas.highlighted

        def paint(painter: QPainter) -> None:
            painter.fillRect(QRectF(0, 0, size.width(), size.height()), QColor(255, 255, 255))
            painter.setFont(font)
            painter.setPen(QColor(60, 60, 60))
            for col in range(c0, c1):
                if (col + 1) % 10 == 0:
                    x = names_w + (col - c0) * w
                    painter.drawText(QRect(x - 30 + w // 2, 0, 60, ruler_h),
                                     Qt.AlignmentFlag.AlignCenter, str(col + 1))
            for i, r in enumerate(range(r0, r1)):
                y = ruler_h + i * h
                if highlighted[r]:
                    painter.fillRect(QRect(0, y, size.width(), h), HIGHLIGHT)
                painter.setPen(QColor(0, 0, 0))
                painter.drawText(QRect(4, y, names_w - 8, h),
                                 Qt.AlignmentFlag.AlignVCenter, data.names[r])
                row_cls = classes[r, c0:c1]
                # Runs of one colour as single rectangles (small SVG files).
                start = 0
                for j in range(1, len(row_cls) + 1):
                    if j == len(row_cls) or row_cls[j] != row_cls[start]:
                        cls = int(row_cls[start])
                        if cls:
                            painter.fillRect(QRect(names_w + start * w, y, (j - start) * w, h),
                                             palette[cls])
                        start = j
                text = data.codes[r, c0:c1].tobytes().decode("ascii", "replace")
                for j, ch in enumerate(text):
                    if ch == " ":
                        continue
                    gap = ch in "-."
                    painter.setPen(QColor(150, 150, 150) if gap else text_pens[int(row_cls[j])])
                    painter.drawText(QRect(names_w + j * w, y, w, h),
                                     Qt.AlignmentFlag.AlignCenter, ch)

        return size, paint
