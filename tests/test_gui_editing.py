"""Alignment editing in the viewer, offscreen: every action, its undo and redo."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui import edit_ops  # noqa: E402
from bioplug.gui.alignment_view import AlignmentView  # noqa: E402
from bioplug.gui.documents import AlignmentData  # noqa: E402
from bioplug.gui.export import write_alignment_file  # noqa: E402
from PySide6.QtCore import QEvent, QPoint, Qt  # noqa: E402
from PySide6.QtGui import QKeyEvent  # noqa: E402

from bioplug.errors import InputError  # noqa: E402

ROWS = {"alpha_long_sequence_identifier_1": "AC-GT-A", "beta": "ACGGT-A", "gamma": "TC-GA-A"}


@pytest.fixture
def view(qtbot):
    v = AlignmentView()
    qtbot.addWidget(v)
    v.resize(700, 300)
    records = [SeqRecord(Seq(t), id=k) for k, t in ROWS.items()]
    v.set_data(AlignmentData.from_records(records, aligned=True))
    return v


def texts(view):
    return [view.data.row_text(i) for i in range(view.data.shape[0])]


def undo_redo_roundtrip(view, before, after):
    stack = view.editor.stack
    assert texts(view) == after
    stack.undo()
    assert texts(view) == before
    stack.redo()
    assert texts(view) == after


def test_insert_gap_with_space_key_and_undo(view, qtbot):
    before = texts(view)
    view.select_block([0], 1, 1)
    qtbot.keyClick(view.canvas, Qt.Key.Key_Space)
    assert texts(view)[0] == "A-C-GT-A"  # no trailing gap: every row grows
    assert view.data.shape == (3, 8)
    view.select_block([1, 2], 1, 1)
    view.editor.insert_gap()  # rows 1 and 2 end in a gap now: absorbed, no growth
    assert view.data.shape == (3, 8)
    after = texts(view)
    view.editor.stack.undo()
    undo_redo_roundtrip(view, before, ["A-C-GT-A", "ACGGT-A-", "TC-GA-A-"])
    view.editor.stack.redo()
    assert texts(view) == after


def test_insert_gap_grows_when_no_trailing_gap(view):
    view.select_block([1], 0, 0)
    view.editor.insert_gap()
    assert texts(view) == ["AC-GT-A-", "-ACGGT-A", "TC-GA-A-"]


def test_delete_gap_with_backspace(view, qtbot):
    before = texts(view)
    view.select_block([0, 2], 2, 2)
    qtbot.keyClick(view.canvas, Qt.Key.Key_Backspace)
    assert texts(view) == ["ACGT-A-", "ACGGT-A", "TCGA-A-"]
    undo_redo_roundtrip(view, before, texts(view))


def test_delete_residue_refused(view):
    view.select_block([0], 0, 0)
    with pytest.raises(InputError, match="only gaps"):
        view.editor.delete_gap()
    assert view.editor.stack.count() == 0


def test_mouse_drag_selects_block(view, qtbot):
    c = view.canvas
    w, h = c.cell.width(), c.cell.height()
    qtbot.mousePress(c.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(w // 2, h // 2))
    move = QPoint(2 * w + w // 2, h + h // 2)
    from PySide6.QtGui import QMouseEvent

    ev = QMouseEvent(QEvent.Type.MouseMove, move, c.viewport().mapToGlobal(move),
                     Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier)
    c.mouseMoveEvent(ev)
    assert view.selected_rows() == [0, 1] and c.sel_columns == (0, 2)


def test_ruler_selects_columns_and_trim(view):
    before = texts(view)
    view.select_columns(1, 3)
    assert view.selected_rows() == [0, 1, 2]
    view.editor.trim()
    assert texts(view) == ["C-G", "CGG", "C-G"]
    undo_redo_roundtrip(view, before, texts(view))


def test_delete_columns(view):
    view.select_columns(0, 1)
    view.editor.delete_columns()
    assert texts(view) == ["-GT-A", "GGT-A", "-GA-A"]


def test_remove_gap_only_columns(view):
    before = texts(view)
    view.editor.remove_gap_columns()
    assert texts(view) == ["AC-GTA", "ACGGTA", "TC-GAA"]
    undo_redo_roundtrip(view, before, texts(view))


def test_move_rows_with_alt_keys(view, qtbot):
    names = list(view.data.names)
    view._row_clicked(2)
    qtbot.keyClick(view.canvas, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert view.data.names == [names[0], names[2], names[1]]
    assert view.selected_rows() == [1]
    view.editor.stack.undo()
    assert view.data.names == names


def test_delete_rows_with_delete_key(view, qtbot):
    view._row_clicked(0)
    view._row_clicked(1, Qt.KeyboardModifier.ControlModifier)
    assert view.selected_rows() == [0, 1]
    qtbot.keyClick(view.canvas, Qt.Key.Key_Delete)
    assert view.data.names == ["gamma"]
    view.editor.stack.undo()
    assert len(view.data.names) == 3


def test_shift_click_extends_rows(view):
    view._row_clicked(0)
    view._row_clicked(2, Qt.KeyboardModifier.ShiftModifier)
    assert view.selected_rows() == [0, 1, 2]


def test_rename_and_duplicate_refused(view):
    view.editor.rename(1, "delta")
    assert view.data.names[1] == "delta"
    with pytest.raises(InputError, match="already"):
        view.editor.rename(0, "gamma")
    view.editor.stack.undo()
    assert view.data.names[1] == "beta"


def test_sort_by_name_identity_and_order(view):
    view.sort_rows("name")
    assert view.data.names == ["alpha_long_sequence_identifier_1", "beta", "gamma"]
    view.sort_rows("identity", reference=2)
    assert view.data.names[0] == "gamma"
    view.sort_rows("names", order=["beta", "gamma"])
    assert view.data.names == ["beta", "gamma", "alpha_long_sequence_identifier_1"]
    for _ in range(3):
        view.editor.stack.undo()
    assert view.data.names == list(ROWS)


def test_save_after_edit(view, tmp_path):
    view.editor.remove_gap_columns()
    out = write_alignment_file(view.data, tmp_path / "e.fasta")
    assert "ACGGTA" in out.read_text()


def test_names_column_resizes_and_tooltips(view, qtbot):
    col = view.names
    assert col.width() <= 240
    col.set_column_width(400)
    view.set_data(view.data)
    assert col.width() == 400  # the user's width survives new data
    assert col.row_at(1) == 0
    assert col.names[0] == "alpha_long_sequence_identifier_1"  # full id for the tooltip


def test_edit_menu_lists_actions(view):
    texts_ = [a.text() for a in view.edit_menu().actions()]
    assert "Insert gap (Space)" in texts_ and "Remove gap-only columns" in texts_


def test_unaligned_gap_edit_refused(qtbot):
    v = AlignmentView()
    qtbot.addWidget(v)
    v.set_data(AlignmentData.from_records([SeqRecord(Seq("ACGT"), id="a"),
                                           SeqRecord(Seq("AC"), id="b")]))
    v.select_block([0], 0, 0)
    with pytest.raises(InputError, match="alignment"):
        v.editor.insert_gap()


def test_ops_pure_functions():
    codes = np.frombuffer(b"A-C--", np.uint8).reshape(1, 5)
    out = edit_ops.insert_gaps(codes, [0], 0, 2)
    assert out.tobytes() == b"--A-C"
    assert edit_ops.delete_gaps(out, [0], 0, 2).tobytes() == b"A-C--"
    names, codes2, now = edit_ops.move_rows(["a", "b", "c"], np.zeros((3, 1), np.uint8),
                                            [0], 5)
    assert names == ["b", "c", "a"] and now == [2]
    assert edit_ops.identity_to(np.frombuffer(b"ACGTACGA", np.uint8).reshape(2, 4), 0).tolist() \
        == [100.0, 75.0]


def test_key_event_not_an_edit_passes(view):
    ev = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_A, Qt.KeyboardModifier.NoModifier)
    assert view.editor.handle_key(ev) is False


# -- FASTA descriptions ---------------------------------------------------------------------
TITLED = (">seqA Homo sapiens histone H1\nMKV-LAAG\n>seqB Mus musculus histone\nMKVLSA-G\n"
          ">X X ray repair protein\nMKILAAG-\n>seqD\nMRVLAA-G\n")


def titles(view):
    return dict(zip(view.data.names, view.data.descriptions, strict=True))


def headers(path):
    return sorted(ln for ln in path.read_text().splitlines() if ln.startswith(">"))


@pytest.fixture
def titled_view(qtbot, tmp_path):
    from bioplug.gui.documents import load_file

    src = tmp_path / "titled.fasta"
    src.write_text(TITLED)
    v = AlignmentView()
    qtbot.addWidget(v)
    v.set_data(load_file(src))
    return v


def test_every_edit_keeps_the_descriptions(titled_view, tmp_path):
    """A gap, a move, sorts, a rename and a deletion keep each row's title on its row,
    through undo and redo, and the export writes them (they were once all dropped)."""
    v = titled_view
    first = {"seqA": "Homo sapiens histone H1", "seqB": "Mus musculus histone",
             "X": "X ray repair protein", "seqD": ""}
    assert titles(v) == first
    v.select_block([0], 1, 1)
    v.editor.insert_gap()
    assert titles(v) == first
    v.highlight_rows([0])
    v.editor.move_sequences(2)
    v.sort_rows("identity", reference=1)
    v.sort_rows("name")
    assert titles(v) == first and v.data.names != list(first)
    v.editor.rename(v.data.names.index("seqA"), "human")
    v.highlight_rows([v.data.names.index("seqB")])
    v.editor.delete_sequences()
    last = titles(v)
    assert last == {"human": "Homo sapiens histone H1", "X": "X ray repair protein",
                    "seqD": ""}
    out = write_alignment_file(v.data, tmp_path / "edited.fasta")
    assert headers(out) == [">X X ray repair protein", ">human Homo sapiens histone H1",
                            ">seqD"]
    stack = v.editor.stack
    steps = stack.count()
    for _ in range(steps):
        stack.undo()
    assert titles(v) == first and list(titles(v)) == ["seqA", "seqB", "X", "seqD"]
    for _ in range(steps):
        stack.redo()
    assert titles(v) == last


def test_unaligned_export_keeps_titles(qtbot, tmp_path):
    """Unaligned sequences (written by Bio.SeqIO) keep a title whose first word is the id."""
    from bioplug.gui.documents import load_file

    src = tmp_path / "u.fasta"
    src.write_text(">X X ray repair\nMKV\n>seqB Mus musculus\nMKVLSA\n")
    v = AlignmentView()
    qtbot.addWidget(v)
    v.set_data(load_file(src))
    v.highlight_rows([1])
    v.editor.move_sequences(-1)
    out = write_alignment_file(v.data, tmp_path / "u_out.fasta")
    assert out.read_text().splitlines()[::2] == [">seqB Mus musculus", ">X X ray repair"]
