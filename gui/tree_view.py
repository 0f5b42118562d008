"""The tree viewer: a rectangular phylogram of a ``skbio.TreeNode`` on a QGraphicsView.

Horizontal position is the distance from the root (branch lengths), leaves are evenly spaced
vertically, each internal node sits midway between its first and last child. Leaf names are
selectable (click, Ctrl+click, rubber band with Shift); the selection is announced with
:attr:`TreeView.leavesSelected` so the alignment viewer can highlight the rows. The wheel
zooms, dragging the background pans.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QWidget,
)

from bioplug.errors import InputError
from bioplug.io import atomic_output

LEAF_SPACING = 18.0
TREE_WIDTH = 600.0
SELECTED = QColor(200, 60, 0)


def _length(node) -> float:
    value = node.length
    return float(value) if value is not None and value == value else 0.0


def layout_tree(tree) -> tuple[dict, dict, float]:
    """Phylogram coordinates.

    Parameters
    ----------
    tree : skbio.TreeNode

    Returns
    -------
    x : dict
        node id -> distance from the root.
    y : dict
        node id -> vertical slot (leaves 0, 1, 2, ...).
    depth : float
        Largest distance from the root (at least a tiny positive number).
    """
    x: dict[int, float] = {}
    y: dict[int, float] = {}
    for node in tree.preorder(include_self=True):
        x[id(node)] = 0.0 if node.is_root() else x[id(node.parent)] + _length(node)
    leaf = 0
    for node in tree.postorder(include_self=True):
        if node.is_tip():
            y[id(node)] = float(leaf)
            leaf += 1
        else:
            ys = [y[id(c)] for c in node.children]
            y[id(node)] = (min(ys) + max(ys)) / 2.0
    depth = max(x.values()) if x else 0.0
    return x, y, depth if depth > 0 else 1e-9


class LeafLabel(QGraphicsSimpleTextItem):
    """A selectable leaf name."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def itemChange(self, change, value):  # noqa: N802
        if change == QGraphicsItem.GraphicsItemChange.ItemSelectedHasChanged:
            self.setBrush(SELECTED if value else QColor(0, 0, 0))
        return super().itemChange(change, value)


class TreeView(QGraphicsView):
    """Rectangular phylogram with branch lengths, leaf names, zoom, pan and exports.

    Signals
    -------
    leavesSelected(list)
        Names of the selected leaves.
    """

    leavesSelected = Signal(list)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setBackgroundBrush(QColor(255, 255, 255))
        self.tree = None
        self.labels: dict[str, LeafLabel] = {}
        self.show_lengths = True
        self.scene().selectionChanged.connect(self._selection_changed)

    # -- content ------------------------------------------------------------------------
    def set_tree(self, tree) -> None:
        """Draw a ``skbio.TreeNode``."""
        self.tree = tree
        self._draw()
        self.fit()

    def _draw(self) -> None:
        scene = self.scene()
        scene.blockSignals(True)
        scene.clear()
        scene.blockSignals(False)
        self.labels = {}
        if self.tree is None:
            return
        x, y, depth = layout_tree(self.tree)
        sx = TREE_WIDTH / depth
        pen = QPen(QColor(30, 30, 30), 1.5)
        pen.setCosmetic(True)
        small = QFont()
        small.setPointSizeF(7)
        tips = list(self.tree.tips(include_self=True))
        lengths = self.show_lengths and len(tips) <= 300
        for node in self.tree.preorder(include_self=True):
            nx, ny = x[id(node)] * sx, y[id(node)] * LEAF_SPACING
            if not node.is_root():
                px = x[id(node.parent)] * sx
                scene.addLine(px, ny, nx, ny, pen)
                if lengths and node.length is not None:
                    text = scene.addSimpleText(f"{_length(node):.3g}", small)
                    text.setBrush(QColor(90, 90, 160))
                    br = text.boundingRect()
                    if nx - px < br.width() + 4:  # no room on this branch
                        scene.removeItem(text)
                    else:
                        text.setPos((px + nx - br.width()) / 2, ny - br.height() - 0.5)
            if node.children:
                ys = [y[id(c)] * LEAF_SPACING for c in node.children]
                scene.addLine(nx, min(ys), nx, max(ys), pen)
            else:
                name = node.name or ""
                label = LeafLabel(name)
                br = label.boundingRect()
                label.setPos(nx + 6, ny - br.height() / 2)
                scene.addItem(label)
                self.labels[name] = label
        self._scale_bar(depth, sx, (len(tips) + 0.5) * LEAF_SPACING)
        rect = scene.itemsBoundingRect().adjusted(-20, -20, 20, 20)
        scene.setSceneRect(rect)

    def _scale_bar(self, depth: float, sx: float, y: float) -> None:
        """A bar of a round length under the tree."""
        import math

        target = depth / 5
        power = 10 ** math.floor(math.log10(target)) if target > 0 else 1
        length = next(m * power for m in (1, 2, 5, 10) if m * power >= target)
        pen = QPen(QColor(30, 30, 30), 1.5)
        pen.setCosmetic(True)
        self.scene().addLine(0, y + 10, length * sx, y + 10, pen)
        text = self.scene().addSimpleText(f"{length:g}")
        text.setPos(length * sx / 2 - text.boundingRect().width() / 2, y + 12)

    # -- view ---------------------------------------------------------------------------
    def fit(self) -> None:
        """Show the whole tree (keeping leaf names readable for big trees)."""
        rect = self.scene().sceneRect()
        if rect.isEmpty():
            return
        self.resetTransform()
        view = self.viewport().rect()
        sx = view.width() / rect.width()
        sy = view.height() / rect.height()
        scale = min(sx, max(sy, 0.6))
        self.scale(scale, scale)
        self.centerOn(rect.center().x(), rect.top() + view.height() / (2 * scale))

    def zoom(self, factor: float) -> None:
        """Zoom by ``factor`` about the mouse position."""
        self.scale(factor, factor)

    def wheelEvent(self, event) -> None:  # noqa: N802
        self.zoom(1.25 if event.angleDelta().y() > 0 else 0.8)
        event.accept()

    # -- selection ----------------------------------------------------------------------
    def select_leaves(self, names: list[str]) -> None:
        """Select these leaves (others cleared)."""
        wanted = set(names)
        scene = self.scene()
        scene.blockSignals(True)
        for name, label in self.labels.items():
            label.setSelected(name in wanted)
        scene.blockSignals(False)
        self._selection_changed()

    def selected_leaves(self) -> list[str]:
        """Names of the selected leaves, top to bottom."""
        chosen = [lab for lab in self.labels.values() if lab.isSelected()]
        return [lab.name for lab in sorted(chosen, key=lambda lab: lab.pos().y())]

    def _selection_changed(self) -> None:
        self.leavesSelected.emit(self.selected_leaves())

    # -- exports ------------------------------------------------------------------------
    def newick(self) -> str:
        """The tree as Newick text."""
        if self.tree is None:
            raise InputError("no tree to export: build one first")
        from bioplug.tree import to_newick

        return to_newick(self.tree)

    def export_newick(self, path: str | os.PathLike, inputs=()) -> Path:
        """Write the Newick file atomically."""
        text = self.newick()
        with atomic_output(path, inputs) as handle:
            handle.write(text)
        return Path(path)

    def export_image(self, path: str | os.PathLike, inputs=()) -> Path:
        """Write the whole tree as PNG or SVG."""
        from .export import paint_to_file

        if self.tree is None:
            raise InputError("no tree to export: build one first")
        rect = self.scene().sceneRect()
        scale = 2.0 if Path(path).suffix.lower() == ".png" else 1.0
        size = QSize(int(rect.width() * scale), int(rect.height() * scale))

        def paint(painter: QPainter) -> None:
            painter.fillRect(QRectF(0, 0, size.width(), size.height()), QColor(255, 255, 255))
            self.scene().render(painter, QRectF(0, 0, size.width(), size.height()), rect)

        return paint_to_file(path, size, paint, inputs, title="bioplug tree")
