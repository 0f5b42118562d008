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
