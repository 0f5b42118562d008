"""The tree viewer: a rectangular phylogram of a ``skbio.TreeNode`` on a QGraphicsView.

Horizontal position is the distance from the root (branch lengths), leaves are evenly spaced
vertically, each internal node sits midway between its first and last child. Leaf names are
selectable (click, Ctrl+click, rubber band with Shift); a click on a branch selects its whole
clade and makes it the current branch (for "Reroot here" and "Collapse"). The selection is
announced with :attr:`TreeView.leavesSelected` so the alignment viewer can highlight the rows.
Collapsed clades are drawn as a triangle with their leaf count and stay collapsed through
reroot and ladderize (a clade is its leaf set); bootstrap support
(``TreeNode.support``) is written at the node that ends each branch. The wheel zooms,
dragging the background pans; the context menu holds the tree edits of :mod:`.tree_ops`.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QMenu,
    QWidget,
)

from bioplug.errors import InputError
from bioplug.io import atomic_output

log = logging.getLogger(__name__)

LEAF_SPACING = 18.0
TREE_WIDTH = 600.0
SELECTED = QColor(200, 60, 0)
SUPPORT = QColor(0, 110, 0)


from .tree_ops import tree_view_text as support_text  # noqa: E402 - one spelling of values


def _length(node) -> float:
    value = node.length
    return float(value) if value is not None and value == value else 0.0


def layout_tree(tree, collapsed=frozenset()) -> tuple[dict, dict, float]:
    """Phylogram coordinates.

    Parameters
    ----------
    tree : skbio.TreeNode
    collapsed : set of int
        ``id`` of the internal nodes drawn as one slot (a collapsed clade).

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
    hidden = hidden_nodes(tree, collapsed)
    leaf = 0
    for node in tree.postorder(include_self=True):
        if id(node) in hidden:
            continue
        if node.is_tip() or id(node) in collapsed:
            y[id(node)] = float(leaf)
            leaf += 1
        else:
            ys = [y[id(c)] for c in node.children]
            y[id(node)] = (min(ys) + max(ys)) / 2.0
    depth = max(x.values()) if x else 0.0
    return x, y, depth if depth > 0 else 1e-9


def hidden_nodes(tree, collapsed) -> set[int]:
    """``id`` of every node inside a collapsed clade (not drawn)."""
    hidden: set[int] = set()
    for node in tree.preorder(include_self=True):
        if id(node) in collapsed and id(node) not in hidden:
            hidden.update(id(d) for d in node.traverse(include_self=False))
    return hidden


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


class BranchItem(QGraphicsLineItem):
    """The horizontal line of one branch; a click selects the clade below it."""

    def __init__(self, node, *coords: float):
        super().__init__(*coords)
        self.node = node
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def shape(self):  # a few pixels of slack around a 1.5 px line
        path = QPainterPath()
        line = self.line()
        path.addRect(QRectF(line.p1(), line.p2()).normalized().adjusted(-2, -4, 2, 4))
        return path


class TreeView(QGraphicsView):
    """Rectangular phylogram with branch lengths, support, leaf names, zoom, pan and exports.

    Signals
    -------
    leavesSelected(list)
        Names of the selected leaves.
    treeChanged(object)
        A new tree was shown, or the shown one was rerooted or ladderized.
    treeEdited()
        The user rerooted or ladderized the tree (not a new tree, nor a rename followed
        from the alignment): the document has changes a project would save.
    errorShown(str)
        A tree edit could not be done (the message to show).
    """

    leavesSelected = Signal(list)
    treeChanged = Signal(object)
    treeEdited = Signal()
    errorShown = Signal(str)

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
        self.show_support = True
        self.collapsed: set[int] = set()
        self.current_node = None
        self.scene().selectionChanged.connect(self._selection_changed)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)

    # -- content ------------------------------------------------------------------------
    def set_tree(self, tree) -> None:
        """Draw a ``skbio.TreeNode`` (collapsed clades are forgotten)."""
        self.tree = tree
        self.collapsed = set()
        self.current_node = None
        self._draw()
        self.fit()
        self.treeChanged.emit(tree)

    def _draw(self) -> None:
        keep = set(self.selected_leaves()) if self.labels else set()
        scene = self.scene()
        scene.blockSignals(True)
        scene.clear()
        self.labels = {}
        if self.tree is not None:
            self._draw_tree()
            for name in keep & set(self.labels):
                self.labels[name].setSelected(True)
        scene.blockSignals(False)

    def _draw_tree(self) -> None:
        scene = self.scene()
        x, y, depth = layout_tree(self.tree, self.collapsed)
        hidden = hidden_nodes(self.tree, self.collapsed)
        sx = TREE_WIDTH / depth
        pen = QPen(QColor(30, 30, 30), 1.5)
        pen.setCosmetic(True)
        self._n_tips = self.tree.count(tips=True)
        slots = 0
        for node in self.tree.preorder(include_self=True):
            if id(node) in hidden:
                continue
            nx, ny = x[id(node)] * sx, y[id(node)] * LEAF_SPACING
            if not node.is_root():
                self._draw_branch(node, x[id(node.parent)] * sx, nx, ny, pen)
            if node.is_tip() or id(node) in self.collapsed:
                slots += 1
                self._draw_leaf(node, nx, ny, sx)
            else:
                ys = [y[id(c)] * LEAF_SPACING for c in node.children]
                scene.addLine(nx, min(ys), nx, max(ys), pen)
        self._scale_bar(depth, sx, (slots + 0.5) * LEAF_SPACING)
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-20, -20, 20, 20))

    def _draw_branch(self, node, px: float, nx: float, ny: float, pen: QPen) -> None:
        """A branch, its length (where it fits) and its support (at its end node)."""
        scene = self.scene()
        item = BranchItem(node, px, ny, nx, ny)
        item.setPen(QPen(SELECTED, 2.5) if node is self.current_node else pen)
        scene.addItem(item)
        small = QFont()
        small.setPointSizeF(7)
        if self.show_lengths and node.length is not None and self._n_tips <= 300:
            text = QGraphicsSimpleTextItem(f"{_length(node):.3g}")
            text.setFont(small)
            text.setBrush(QColor(90, 90, 160))
            br = text.boundingRect()
            if nx - px >= br.width() + 4:  # only where the branch has room
                text.setPos((px + nx - br.width()) / 2, ny - br.height() - 0.5)
                scene.addItem(text)
        support = getattr(node, "support", None)
        if self.show_support and support is not None and not node.is_tip():
            text = scene.addSimpleText(support_text(support), small)
            text.setBrush(SUPPORT)
            br = text.boundingRect()
            text.setPos(nx - br.width() - 2, ny + 0.5)

    def _draw_leaf(self, node, nx: float, ny: float, sx: float) -> None:
        """A leaf name, or a collapsed clade's triangle and leaf count."""
        scene = self.scene()
        if node.is_tip():
            label = LeafLabel(node.name or "")
            br = label.boundingRect()
            label.setPos(nx + 6, ny - br.height() / 2)
            scene.addItem(label)
            self.labels[label.name] = label
            return
        tips = list(node.tips())
        reach = max(tip.accumulate_to_ancestor(node) for tip in tips) * sx
        h = LEAF_SPACING * 0.4
        tri = QPolygonF([QPointF(nx, ny), QPointF(nx + max(reach, 12), ny - h),
                         QPointF(nx + max(reach, 12), ny + h)])
        item = scene.addPolygon(tri, QPen(QColor(30, 30, 30), 1), QColor(200, 200, 220))
        item.setToolTip(", ".join(t.name for t in tips[:50]))
        text = scene.addSimpleText(f"{len(tips)} leaves ({tips[0].name} …)")
        text.setPos(nx + max(reach, 12) + 6, ny - text.boundingRect().height() / 2)

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

    # -- edits --------------------------------------------------------------------------
    def collapsed_clades(self) -> list[frozenset[str]]:
        """The collapsed clades, each as the set of its leaf names."""
        from .tree_ops import clade_key

        if self.tree is None:
            return []
        return [clade_key(node) for node in self.tree.non_tips(include_self=True)
                if id(node) in self.collapsed]

    def _replace(self, tree) -> None:
        """Show an edited tree, keeping the leaf selection, the collapsed clades and the
        current branch: a clade is its leaf set, so it is found again in the rerooted or
        ladderized copy (whose nodes are new objects). A clade the new root splits is no
        clade any more and is expanded."""
        from .tree_ops import clade_key, find_clades

        keep = self.selected_leaves()
        clades = self.collapsed_clades()
        current = [clade_key(self.current_node)] if self.current_node is not None else []
        self.tree = tree
        found, missing = find_clades(tree, clades)
        self.collapsed = {id(node) for node in found}
        if missing:
            log.info("%d collapsed clade(s) split by the new root: expanded", len(missing))
        now = find_clades(tree, current)[0]
        self.current_node = now[0] if now else None
        self.labels = {}
        self._draw()
        self.select_leaves(keep)
        self.treeChanged.emit(tree)

    def reroot_midpoint(self) -> None:
        """Root halfway along the longest path between two leaves."""
        from .tree_ops import midpoint_root

        if self.tree is not None:
            self._replace(midpoint_root(self.tree))
            self.treeEdited.emit()

    def reroot_selected(self) -> None:
        """Root on the branch above the selected leaves' clade (or the current branch)."""
        from .tree_ops import clade_of, root_on_branch

        if self.tree is None:
            raise InputError("build a tree first")
        leaves = self.selected_leaves()
        if self.current_node is not None and not leaves:
            leaves = [t.name for t in self.current_node.tips(include_self=True)]
        if leaves:
            clade_of(self.tree, leaves)  # names the problem before anything changes
        self._replace(root_on_branch(self.tree, leaves))
        self.treeEdited.emit()

    def ladderize(self, ascending: bool = True) -> None:
        """Order every node's children by clade size."""
        from .tree_ops import ladderize

        if self.tree is not None:
            self._replace(ladderize(self.tree, ascending))
            self.treeEdited.emit()

    def toggle_collapse(self, node=None) -> None:
        """Collapse an expanded clade or expand a collapsed one (default: the current
        branch, else the selected leaves' clade)."""
        from .tree_ops import clade_of

        if self.tree is None:
            return
        if node is None:
            node = self.current_node or clade_of(self.tree, self.selected_leaves())
        if node.is_tip():
            raise InputError("a single leaf cannot be collapsed: pick a clade")
        self.collapsed ^= {id(node)}
        self._draw()

    def set_show_support(self, on: bool) -> None:
        """Write bootstrap support at the nodes (or not)."""
        self.show_support = bool(on)
        self._draw()

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

    def select_branch(self, node) -> None:
        """Make ``node``'s branch the current one and select the leaves of its clade."""
        self.current_node = node
        leaves = [t.name for t in node.tips(include_self=True)]
        self._draw()
        self.select_leaves(leaves)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        item = self.itemAt(event.position().toPoint())
        if isinstance(item, BranchItem) and event.button() == Qt.MouseButton.LeftButton:
            self.select_branch(item.node)
            event.accept()
            return
        super().mousePressEvent(event)

    def tree_menu(self) -> QMenu:
        """The tree edits (context menu; the main window's Tree menu holds the same)."""
        menu = QMenu(self)
        for text, fn in [("Midpoint root", self.reroot_midpoint),
                         ("Reroot on the selected branch", self.reroot_selected),
                         ("Collapse / expand the selected clade", self.toggle_collapse),
                         ("Ladderize", self.ladderize)]:
            menu.addAction(text, lambda fn=fn: self._guarded(fn))
        support = menu.addAction("Show branch support")
        support.setCheckable(True)
        support.setChecked(self.show_support)
        support.toggled.connect(self.set_show_support)
        return menu

    def _guarded(self, fn) -> None:
        """Run a right-click action; any failure becomes a message (a slot's exception would
        vanish in the event loop), as the Tree menu's actions do."""
        try:
            fn()
        except InputError as exc:
            self.errorShown.emit(str(exc))
        except Exception as exc:  # noqa: BLE001
            log.error("tree action failed", exc_info=True)
            self.errorShown.emit(f"the tree action failed: {type(exc).__name__}: {exc}")

    def _context_menu(self, pos) -> None:
        self.tree_menu().exec(self.mapToGlobal(pos))

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
