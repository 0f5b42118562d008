"""Undoable alignment editing for :class:`~bioplug.gui.alignment_view.AlignmentView`.

Each edit is one :class:`SnapshotCommand` on a ``QUndoStack``: it keeps the names and codes
before and after (a 1,000 x 5,000 alignment is 5 MB a step), which makes undo exact for
every kind of edit without an inverse per operation. The operations themselves are the
pure functions of :mod:`.edit_ops`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QUndoCommand, QUndoStack

from bioplug.errors import InputError

from . import edit_ops
from .documents import AlignmentData

#: Undo steps kept (each holds two snapshots).
UNDO_LIMIT = 100


def rebuild(data: AlignmentData, names: list[str], codes: np.ndarray,
            descriptions: list[str] | None = None) -> AlignmentData:
    """An :class:`AlignmentData` like ``data`` with new names and rows.

    Parameters
    ----------
    data : AlignmentData
        The data before the edit (source and title are kept).
    names : list of str
        Row ids after the edit.
    codes : numpy.ndarray
        ``(n, L)`` rows after the edit.
    descriptions : list of str, optional
        Each new row's title words after its id; default: ``data``'s, row for row (for edits
        that keep every row in its place: gaps, columns, a rename).

    Returns
    -------
    AlignmentData
    """
    if descriptions is None:
        descriptions = data.descriptions
    if len(descriptions) != len(names):
        raise ValueError(f"{len(names)} rows but {len(descriptions)} descriptions")
    texts = [codes[i].tobytes().decode("ascii").rstrip(" ") for i in range(codes.shape[0])]
    # from_records takes titles as Bio.SeqIO reads them ("id words") and strips the id once;
    # a bare description that happened to start with the id would lose its first word.
    records = [SeqRecord(Seq(t), id=name, description=f"{name} {desc}" if desc else name)
               for t, name, desc in zip(texts, names, descriptions, strict=True)]
    out = AlignmentData.from_records(records, data.source, aligned=data.aligned)
    out.title = data.title
    return out


class SnapshotCommand(QUndoCommand):
    """One edit: the data before and after, swapped in by ``apply``."""

    def __init__(self, text: str, before: AlignmentData, after: AlignmentData,
                 apply: Callable[[AlignmentData], None]):
        super().__init__(text)
        self.before, self.after, self.apply = before, after, apply

    def redo(self) -> None:
        self.apply(self.after)

    def undo(self) -> None:
        self.apply(self.before)


class AlignmentEditor(QObject):
    """Edits of the shown alignment, through an undo stack.

    Parameters
    ----------
    view : AlignmentView
        The view whose data is edited; its selection says what an edit acts on.

    Signals
    -------
    edited(object)
        The new :class:`AlignmentData` after an edit, an undo or a redo.
    """

    edited = Signal(object)

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.stack = QUndoStack(self)
        self.stack.setUndoLimit(UNDO_LIMIT)

    # -- plumbing -----------------------------------------------------------------------
    def _apply(self, data: AlignmentData) -> None:
        self.view.show_edited(data)
        self.edited.emit(data)

    def _push(self, text: str, names: list[str], codes: np.ndarray,
              descriptions: list[str] | None = None) -> AlignmentData:
        before = self.view.data
        after = rebuild(before, names, codes, descriptions)
        self.stack.push(SnapshotCommand(text, before, after, self._apply))
        return after

    def _push_rows(self, text: str, order: list[int]) -> AlignmentData:
        """The rows ``order`` (old indices, new order) as one step; each keeps its title."""
        data = self.view.data
        descriptions = data.descriptions
        return self._push(text, [data.names[i] for i in order], data.codes[order],
                          [descriptions[i] for i in order])

    def apply_edit(self, text: str, names: list[str], codes: np.ndarray,
                   descriptions: list[str] | None = None) -> AlignmentData:
        """Show new rows as one undoable step called ``text`` (a realignment, added rows).

        Parameters
        ----------
        text : str
            The undo step's name.
        names : list of str
            Row ids.
        codes : numpy.ndarray
            ``(n, L)`` rows.
        descriptions : list of str, optional
            Title words after each id; default: the current rows', row for row.

        Returns
        -------
        AlignmentData
        """
        return self._push(text, names, codes, descriptions)

    def _need(self, aligned: bool = True) -> AlignmentData:
        data = self.view.data
        if data is None:
            raise InputError("nothing is open")
        if aligned and not data.aligned:
            raise InputError("gap and column edits need an alignment: run a multiple "
                             "alignment first")
        return data

    def _target(self) -> tuple[list[int], int, int]:
        """Rows and the column range an edit acts on (selection, else the cursor)."""
        canvas = self.view.canvas
        rows = self.view.selected_rows()
        if canvas.sel_columns is not None:
            c0, c1 = canvas.sel_columns
        elif canvas.cursor is not None:
            c0 = c1 = canvas.cursor[1]
            rows = rows or [canvas.cursor[0]]
        else:
            raise InputError("select rows and a column first")
        if not rows:
            raise InputError("select the rows to edit")
        return rows, c0, c1

    # -- edits --------------------------------------------------------------------------
    def insert_gap(self, count: int | None = None) -> None:
        """Insert gaps at the left edge of the selection (as many as its width)."""
        data = self._need()
        rows, c0, c1 = self._target()
        count = count or (c1 - c0 + 1)
        self._push("insert gap", data.names, edit_ops.insert_gaps(data.codes, rows, c0, count))
        self.view.select_block(rows, c0 + count, c1 + count)

    def delete_gap(self) -> None:
        """Delete the selected gap cells (the residues to their right move left)."""
        data = self._need()
        rows, c0, c1 = self._target()
        codes = edit_ops.delete_gaps(data.codes, rows, c0, c1 - c0 + 1)
        self._push("delete gap", data.names, codes)
        self.view.select_block(rows, max(0, c0 - 1), max(0, c0 - 1))

    def delete_sequences(self) -> None:
        """Delete the selected rows."""
        data = self._need(aligned=False)
        rows = self.view.selected_rows()
        if not rows:
            raise InputError("select the sequences to delete")
        self._push_rows(f"delete {len(rows)} sequence(s)",
                        edit_ops.kept_rows(len(data.names), rows))
        self.view.highlight_rows([])

    def move_sequences(self, delta: int) -> None:
        """Move the selected rows up (negative) or down."""
        data = self._need(aligned=False)
        rows = self.view.selected_rows()
        if not rows:
            raise InputError("select the sequences to move")
        order, now = edit_ops.moved_order(len(data.names), rows, delta)
        self._push_rows("move sequences", order)
        self.view.highlight_rows(now)

    def reorder(self, order: list[int], text: str = "reorder sequences") -> None:
        """Rows in a new order (a permutation); the selection follows its rows."""
        data = self._need(aligned=False)
        chosen = set(self.view.selected_rows())
        order = edit_ops.checked_order(len(data.names), order)
        self._push_rows(text, order)
        self.view.highlight_rows([k for k, old in enumerate(order) if old in chosen])

    def rename(self, row: int, name: str) -> None:
        """Rename one sequence."""
        data = self._need(aligned=False)
        self._push("rename", edit_ops.rename(data.names, row, name), data.codes)

    def remove_gap_columns(self) -> None:
        """Remove the columns made of gaps only."""
        data = self._need()
        codes = edit_ops.remove_gap_columns(data.codes)
        if codes.shape[1] != data.codes.shape[1]:
            self._push("remove gap-only columns", data.names, codes)

    def trim(self) -> None:
        """Keep only the selected columns."""
        data = self._need()
        if self.view.canvas.sel_columns is None:
            raise InputError("select the columns to keep")
        c0, c1 = self.view.canvas.sel_columns
        self._push("trim", data.names, edit_ops.keep_columns(data.codes, c0, c1))
        self.view.clear_selection()

    def delete_columns(self) -> None:
        """Delete the selected columns."""
        data = self._need()
        if self.view.canvas.sel_columns is None:
            raise InputError("select the columns to delete")
        c0, c1 = self.view.canvas.sel_columns
        self._push("delete columns", data.names, edit_ops.delete_columns(data.codes, c0, c1))
        self.view.clear_selection()

    # -- keys ---------------------------------------------------------------------------
    def handle_key(self, event: QKeyEvent) -> bool:
        """Editing keys (AliView's): Space inserts a gap, Backspace / Delete removes gaps
        (Delete on whole rows deletes them), Alt+Up / Alt+Down move rows. True if used."""
        key, mods = event.key(), event.modifiers()
        alt = bool(mods & Qt.KeyboardModifier.AltModifier)
        if key == Qt.Key.Key_Space:
            self.insert_gap()
        elif key == Qt.Key.Key_Delete and self.view.canvas.sel_columns is None:
            self.delete_sequences()
        elif key in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete):
            self.delete_gap()
        elif alt and key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.move_sequences(-1 if key == Qt.Key.Key_Up else 1)
        else:
            return False
        return True
