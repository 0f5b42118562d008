"""The main window's Edit menu: undo / redo, the editing actions and the row orders."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu

from bioplug.errors import InputError


def tree_order(tree) -> list[str]:
    """Leaf names of a ``skbio.TreeNode`` from top to bottom as the tree view draws them."""
    return [tip.name for tip in tree.tips()] if tree is not None else []


def build_edit_menu(window) -> QMenu:
    """Add the Edit menu to ``window`` (a :class:`MainWindow`) and keep its data in step.

    Edits replace ``window.data``, so saving (File > Export alignment) writes the edited rows.
    """
    view = window.alignment_view
    stack = view.editor.stack
    menu = QMenu("&Edit", window)
    undo = stack.createUndoAction(window, "&Undo")
    undo.setShortcut(QKeySequence.StandardKey.Undo)
    redo = stack.createRedoAction(window, "&Redo")
    redo.setShortcut(QKeySequence.StandardKey.Redo)
    menu.addAction(undo)
    menu.addAction(redo)
    menu.addSeparator()
    for act in view.edit_menu().actions():
        menu.addAction(act)
    menu.addSeparator()
    sort = menu.addMenu("&Sort sequences")
    sort.addAction("By &tree order", lambda: _guarded(window, sort_by_tree, window))
    sort.addAction("By &name", lambda: _guarded(window, view.sort_rows, "name"))
    sort.addAction("By &identity to the selected sequence",
                   lambda: _guarded(window, sort_by_identity, window))
    view.editor.edited.connect(lambda data: setattr(window, "data", data))
    window.menuBar().insertMenu(window.menuBar().actions()[1], menu)
    return menu


def sort_by_tree(window) -> None:
    """Rows in the order of the tree's leaves (tree and alignment side by side)."""
    order = tree_order(window.tree_view.tree)
    if not order:
        raise InputError("build a tree first (Jobs > Tree)")
    window.alignment_view.sort_rows("names", order=order)


def sort_by_identity(window) -> None:
    """Rows by percent identity to the first selected row, most similar first."""
    rows = window.alignment_view.selected_rows()
    if not rows:
        raise InputError("select the reference sequence first")
    window.alignment_view.sort_rows("identity", reference=rows[0])


def _guarded(window, fn, *args) -> None:
    try:
        fn(*args)
    except InputError as exc:
        window.show_error(str(exc))
