"""The main window's Edit menu, offscreen: undo / redo, tree-order sort, edits reach saving."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui.documents import AlignmentData  # noqa: E402
from bioplug.gui.edit_menu import sort_by_identity, sort_by_tree, tree_order  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from skbio import TreeNode  # noqa: E402

ROWS = {"a": "AC-GTA", "b": "ACGGTA", "c": "TC-GAA", "d": "TCCGAA"}


@pytest.fixture
def window(qtbot, tmp_path):
    from bioplug.gui import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, data_dir=tmp_path / "data")
    qtbot.addWidget(w)
    records = [SeqRecord(Seq(t), id=k) for k, t in ROWS.items()]
    w.set_data(AlignmentData.from_records(records, aligned=True))
    return w


def actions(window):
    return {a.text().replace("&", ""): a for a in window.edit_menu.actions() if a.text()}


def test_sort_by_tree_order_then_undo_from_the_menu(window):
    tree = TreeNode.read(["((d,c),(b,a));"])
    window.tree_view.set_tree(tree)
    sort_by_tree(window)
    assert window.alignment_view.data.names == tree_order(tree) == ["d", "c", "b", "a"]
    assert window.data.names == ["d", "c", "b", "a"]  # what Export alignment writes
    undo = next(a for text, a in actions(window).items() if text.startswith("Undo"))
    undo.trigger()
    assert window.data.names == list(ROWS)


def test_sort_by_identity_to_selection(window):
    window.alignment_view.highlight_rows([2])
    sort_by_identity(window)
    assert window.data.names[:2] == ["c", "d"]


def test_sort_without_tree_shows_error(window, qtbot):
    menu = window.edit_menu
    sort = next(a.menu() for a in menu.actions() if a.menu() is not None)
    by_tree = next(a for a in sort.actions() if "tree" in a.text())
    with qtbot.waitSignal(window.errorShown):
        by_tree.trigger()


def test_menu_holds_editing_actions(window):
    texts = list(actions(window))
    assert any(t.startswith("Redo") for t in texts)
    assert "Remove gap-only columns" in texts and "Trim to selected columns" in texts


def test_edits_update_title_and_actions(window):
    window.show_dialogs = False
    assert "(4 aligned sequences)" in window.windowTitle()
    assert window.act_three.isEnabled()
    window.alignment_view.highlight_rows([0, 1])
    window.alignment_view.editor.delete_sequences()
    assert "(2 aligned sequences)" in window.windowTitle()
    assert not window.act_three.isEnabled()  # it needs three sequences
    assert window.act_msa.isEnabled()
    window.alignment_view.highlight_rows([0])
    window.alignment_view.editor.delete_sequences()
    assert "(1 aligned sequence)" in window.windowTitle() and not window.act_msa.isEnabled()
    undo = next(a for text, a in actions(window).items() if text.startswith("Undo"))
    undo.trigger()
    undo.trigger()
    assert "(4 aligned sequences)" in window.windowTitle() and window.act_three.isEnabled()


def copy_action(window):
    return next(a for text, a in actions(window).items() if text == "Copy")


def test_copy_without_selection_copies_everything_as_fasta(window):
    from PySide6.QtGui import QGuiApplication, QKeySequence

    act = copy_action(window)
    assert act.shortcut() == QKeySequence(QKeySequence.StandardKey.Copy)
    act.trigger()
    text = QGuiApplication.clipboard().text()
    assert text == "".join(f">{k}\n{v}\n" for k, v in ROWS.items())


def test_copy_selected_rows_and_block(window):
    from PySide6.QtGui import QGuiApplication

    view = window.alignment_view
    view.highlight_rows([1, 3])
    copy_action(window).trigger()
    assert QGuiApplication.clipboard().text() == ">b\nACGGTA\n>d\nTCCGAA\n"
    view.select_block([0, 1], 2, 4)  # columns 3-5: "-GT" and "GGT"
    copy_action(window).trigger()
    assert QGuiApplication.clipboard().text() == ">a/3-4\n-GT\n>b/3-5\nGGT\n"
    view.select_block([0], 2, 2)  # a gap only: no residue numbers
    copy_action(window).trigger()
    assert QGuiApplication.clipboard().text() == ">a\n-\n"


def test_copy_keeps_descriptions_and_unaligned_rows(window):
    from PySide6.QtGui import QGuiApplication

    records = [SeqRecord(Seq("MKVL"), id="p1", description="p1 histone H1"),
               SeqRecord(Seq("MK"), id="p2", description="p2")]
    window.set_data(AlignmentData.from_records(records))
    copy_action(window).trigger()
    assert QGuiApplication.clipboard().text() == ">p1 histone H1\nMKVL\n>p2\nMK\n"
