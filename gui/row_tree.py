"""The tree beside the alignment: leaves on the rows of their sequences (as Jalview does).

:class:`RowTree` sits left of the names column and scrolls with the residue canvas: a leaf is
drawn at the row holding its sequence, so after Edit ▸ Sort ▸ By tree order (which
:class:`~bioplug.gui.tree_menu.TreeFeatures` does when the panel is shown) the tree reads
top to bottom in the alignment's order. Highlighted rows are drawn in the selection colour;
a click on a node selects its clade's rows (and, through the main window's links, the tree
tab's leaves). It paints only what is in view, so 10,000 rows cost what 50 do.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from .tree_view import SELECTED, support_text

#: Pixels between the panel's edges and the tree.
MARGIN = 6


def row_layout(tree, names: list[str]) -> tuple[dict, dict, float]:
    """Node coordinates with leaves on their rows.

    Parameters
    ----------
    tree : skbio.TreeNode
    names : list of str
        The alignment's row names (leaves not among them are left out).

    Returns
    -------
    x : dict
        node id -> distance from the root.
    y : dict
        node id -> row (fractional for internal nodes: midway between their children).
    depth : float
        Largest distance from the root (at least a tiny positive number).
    """
    row = {name: k for k, name in enumerate(names)}
    x: dict[int, float] = {}
    y: dict[int, float] = {}
    for node in tree.preorder(include_self=True):
        length = node.length if node.length is not None and node.length == node.length else 0.0
        x[id(node)] = 0.0 if node.is_root() else x[id(node.parent)] + max(float(length), 0.0)
    for node in tree.postorder(include_self=True):
        if node.is_tip():
            if node.name in row:
                y[id(node)] = float(row[node.name])
        else:
            ys = [y[id(c)] for c in node.children if id(c) in y]
            if ys:
                y[id(node)] = (min(ys) + max(ys)) / 2.0
    depth = max(x.values()) if x else 0.0
    return x, y, depth if depth > 0 else 1e-9


class RowTree(QWidget):
    """A phylogram whose leaves line up with the alignment's rows.

    Parameters
    ----------
    view : AlignmentView
        The alignment it follows (rows, scrolling, highlighted rows).

    Signals
    -------
    cladeClicked(list)
        Names of the leaves under the clicked node.
    """

    cladeClicked = Signal(list)

    def __init__(self, view, parent: QWidget | None = None):
        super().__init__(parent)
        self.view = view
        self.canvas = view.canvas
        self.tree = None
        self._layout: tuple[dict, dict, float] | None = None
        self._names: list[str] = []
        self.setFixedWidth(180)
        self.canvas.viewChanged.connect(self.update)
        self.setToolTip("Click a node to select its clade")

    def set_tree(self, tree) -> None:
        """Show a tree (None: nothing)."""
        self.tree = tree
        self._layout = None
        self.update()

    def positions(self):
        """The cached :func:`row_layout` of the tree on the current rows."""
        names = self.view.data.names if self.view.data is not None else []
        if self._layout is None or names != self._names:
            self._names = list(names)
            self._layout = row_layout(self.tree, self._names) if self.tree is not None else None
        return self._layout

    def _to_px(self, x: float, y: float, depth: float) -> QPointF:
        h = self.canvas.cell.height()
        span = self.width() - 2 * MARGIN
        return QPointF(MARGIN + x / depth * span, y * h + h / 2 - self.canvas.verticalScrollBar()
                       .value())

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(255, 255, 255))
        geometry = self.positions() if self.tree is not None else None
        if geometry is not None:
            self._paint_tree(painter, *geometry)
        painter.end()

    def _paint_tree(self, painter: QPainter, x: dict, y: dict, depth: float) -> None:
        r0, r1, _, _ = self.canvas.visible_cells()
        chosen = self.canvas.highlighted
        normal, hot = QPen(QColor(30, 30, 30), 1), QPen(SELECTED, 2)
        drawn: list[QRectF] = []  # support labels so far: a label that would overlap is left out
        for node in self.tree.preorder(include_self=True):
            if id(node) not in y:
                continue
            tips = [y[id(c)] for c in node.children if id(c) in y] if node.children else []
            lo, hi = (min(tips), max(tips)) if tips else (y[id(node)], y[id(node)])
            if hi < r0 - 1 or lo > r1 + 1:  # whole clade out of view
                continue
            p = self._to_px(x[id(node)], y[id(node)], depth)
            if not node.is_root() and id(node.parent) in x:
                q = self._to_px(x[id(node.parent)], y[id(node)], depth)
                row = int(y[id(node)])
                lit = node.is_tip() and row < chosen.size and chosen[row]
                painter.setPen(hot if lit else normal)
                painter.drawLine(q, p)
            if tips:
                painter.setPen(normal)
                painter.drawLine(self._to_px(x[id(node)], lo, depth),
                                 self._to_px(x[id(node)], hi, depth))
                self._paint_support(painter, node, p, drawn)

    def _paint_support(self, painter: QPainter, node, p: QPointF, drawn: list) -> None:
        """The node's support left of it, unless it would overlap one already drawn."""
        support = getattr(node, "support", None)
        if support is None or self.canvas.cell.height() < 10:
            return
        text = support_text(support)
        fm = painter.fontMetrics()
        rect = QRectF(p.x() - fm.horizontalAdvance(text) - 2, p.y() - fm.height(),
                      fm.horizontalAdvance(text), fm.height())
        rect.moveLeft(max(rect.left(), 0.0))  # near the root: inside the panel
        if any(rect.intersects(other) for other in drawn):
            return
        drawn.append(rect)
        painter.setPen(QColor(0, 110, 0))
        painter.drawText(rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)

    def node_at(self, px: float, py: float):
        """The internal node (or leaf) nearest a point of the panel, within 8 pixels."""
        geometry = self.positions() if self.tree is not None else None
        if geometry is None:
            return None
        x, y, depth = geometry
        best, dist = None, 8.0
        for node in self.tree.preorder(include_self=True):
            if id(node) in y:
                p = self._to_px(x[id(node)], y[id(node)], depth)
                d = float(np.hypot(p.x() - px, p.y() - py))
                if d < dist:
                    best, dist = node, d
        return best

    def mousePressEvent(self, event) -> None:  # noqa: N802
        pos = event.position()
        node = self.node_at(pos.x(), pos.y())
        if node is None and event.button() == Qt.MouseButton.LeftButton:
            self.view.highlight_rows([])
            return
        if node is not None:
            names = [t.name for t in node.tips(include_self=True)]
            self.view.highlight_names(names)
            self.cladeClicked.emit(names)
