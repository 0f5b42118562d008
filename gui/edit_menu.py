"""The main window's Edit menu: undo / redo, copy, the editing actions and the row orders."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMenu

from bioplug.errors import InputError

#: Codes that are no residue: gaps and the padding of unaligned rows.
_NOT_RESIDUE = np.frombuffer(b"-. ", dtype=np.uint8)


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
    window.act_copy = menu.addAction("&Copy", lambda: _guarded(window, copy_selection, window))
    window.act_copy.setShortcut(QKeySequence.StandardKey.Copy)
    window.act_copy.setStatusTip("The selected rows or block (else everything) as FASTA text")
    menu.addSeparator()
    for act in view.edit_menu().actions():
        menu.addAction(act)
    menu.addSeparator()
    sort = menu.addMenu("&Sort sequences")
    sort.addAction("By &tree order", lambda: _guarded(window, sort_by_tree, window))
    sort.addAction("By &name", lambda: _guarded(window, view.sort_rows, "name"))
    sort.addAction("By &identity to the selected sequence",
                   lambda: _guarded(window, sort_by_identity, window))
    view.editor.edited.connect(window.document_edited)
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


def selection_fasta(data, rows: list[int], columns: tuple[int, int] | None) -> str:
    """FASTA text of ``rows`` (all when empty) x ``columns`` (all when None), as shown.

    Rows of an alignment keep their gaps. A block's records are named ``name/first-last``
    after the residues they hold, as Jalview copies them; whole rows keep their
    descriptions.
    """
    n, length = data.shape
    rows = list(rows) or list(range(n))
    c0, c1 = columns if columns is not None else (0, length - 1)
    whole = columns is None or (c0 == 0 and c1 >= length - 1)
    out = []
    for i in rows:
        name = data.names[i]
        cells = data.codes[i, c0: c1 + 1]
        if not data.aligned:   # unaligned rows are padded with spaces
            cells = cells[cells != ord(" ")]
        if whole:  # a record's description is its title's words after the id
            desc = data.records[i].description.strip()
            head = f"{name} {desc}" if desc else name
        else:
            before = int((~np.isin(data.codes[i, :c0], _NOT_RESIDUE)).sum())
            held = int((~np.isin(cells, _NOT_RESIDUE)).sum())
            head = f"{name}/{before + 1}-{before + held}" if held else name
        out.append(f">{head}\n{cells.tobytes().decode('ascii', 'replace')}\n")
    return "".join(out)


def copy_selection(window) -> str:
    """Put the selected rows or block (everything when nothing is selected) on the clipboard
    as FASTA text, and return it."""
    view = window.alignment_view
    data = view.data
    if data is None:
        raise InputError("nothing to copy: open sequences first")
    rows = view.selected_rows()
    text = selection_fasta(data, rows, view.canvas.sel_columns)
    QGuiApplication.clipboard().setText(text)
    count = len(rows) or data.shape[0]
    window.statusBar().showMessage(f"copied {count} sequence(s) as FASTA", 4000)
    return text
