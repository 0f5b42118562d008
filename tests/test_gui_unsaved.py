"""Unsaved changes, offscreen: the title's modified mark follows the undo stack, and opening
another file (any way), closing or quitting asks Save / Discard / Cancel before a modified
document goes; Save writes a project, Cancel keeps everything."""

import logging
import os
import threading

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")
from bioplug.gui import main_window  # noqa: E402
from gui_windows import family_files, make_window, shown  # noqa: E402
from PySide6.QtCore import QMimeData, QPointF, QSettings, Qt, QTimer, QUrl  # noqa: E402
from PySide6.QtGui import QDropEvent  # noqa: E402
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QMessageBox  # noqa: E402
from skbio import TreeNode  # noqa: E402

Button = QMessageBox.StandardButton
FOUR = ">a\nMKVLAAGIVG\n>b\nMKVLSAGIVG\n>c\nMRVLAAGLVG\n>d\nMRVLSAGLVA\n"
OTHER = ">x1\nMKVLAAGIVGLLLA\n>x2\nMKVLSAGIVGLLL\n"


@pytest.fixture
def window(qtbot, tmp_path):
    w = shown(qtbot, make_window(tmp_path, device=False))
    yield w
    w.pool.waitForDone(30_000)


@pytest.fixture
def files(tmp_path):
    return family_files(tmp_path, FOUR, OTHER)


def edited(window, path):
    """Open ``path`` and delete its first sequence (one undo step)."""
    assert window.open_file(path)
    window.alignment_view.highlight_rows([0])
    window.alignment_view.editor.delete_sequences()
    assert window.data.names == ["b", "c", "d"]


def answer(monkeypatch, window, button):
    """Answer the unsaved-changes question with ``button`` at once; returns the actions
    asked about."""
    asked = []

    def ask(action, answered):
        asked.append(action)
        answered(button)

    monkeypatch.setattr(window, "_ask_unsaved", ask)
    return asked


def test_title_marks_unsaved_changes(window, files):
    assert window.open_file(files[0])
    assert "[*]" in window.windowTitle() and not window.isWindowModified()
    assert not window.is_modified()
    window.alignment_view.editor.rename(0, "renamed")
    assert window.isWindowModified() and window.is_modified()
    window.alignment_view.editor.stack.undo()  # back to the file as opened
    assert not window.isWindowModified()
    window.alignment_view.editor.stack.redo()
    assert window.isWindowModified()


def test_nothing_asked_without_changes(window, files, monkeypatch):
    asked = answer(monkeypatch, window, Button.Cancel)
    assert window.open_file(files[0]) and window.open_file(files[1])
    assert asked == [] and window.data.source == files[1]


def drop(window, path):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    window.dropEvent(QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                                Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))


def open_recent(window, path):
    act = next(a for a in window.recent_menu.actions() if a.text() == str(path.resolve()))
    act.trigger()


def open_dialog(window, path, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    window.act_open.trigger()


@pytest.mark.parametrize("how", ["dialog", "drop", "recent", "project"])
def test_cancel_keeps_the_edits_whichever_way_a_file_is_opened(window, files, qtbot,
                                                              monkeypatch, tmp_path, how):
    target = files[1]
    if how == "project":  # a saved project of the other file
        assert window.open_file(files[1])
        target = window.save_project(tmp_path / "other.bioplug")
    elif how == "recent":
        assert window.open_file(files[1])
    edited(window, files[0])
    asked = answer(monkeypatch, window, Button.Cancel)
    if how == "dialog":
        open_dialog(window, target, monkeypatch)
    elif how == "drop":
        drop(window, target)
    elif how == "recent":
        open_recent(window, target)
    else:
        assert not window.open_file(target)
    assert asked == [f"opening {target.name}"]
    assert window.data.source == files[0] and window.data.names == ["b", "c", "d"]
    assert window.alignment_view.editor.stack.canUndo() and window.isWindowModified()
    assert "cancelled" in window.statusBar().currentMessage()


def test_discard_opens_the_other_file(window, files, monkeypatch):
    edited(window, files[0])
    asked = answer(monkeypatch, window, Button.Discard)
    assert window.open_file(files[1])
    assert asked == ["opening other.fasta"]
    assert window.data.source == files[1] and not window.isWindowModified()


def answer_file_dialog(path):
    """Type ``path`` into the next save dialog and accept it."""
    def fill():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(20, fill)
            return
        dialog.findChild(QLineEdit, "fileNameEdit").setText(str(path))
        dialog.accept()

    QTimer.singleShot(0, fill)


def test_save_writes_a_project_then_opens(window, files, qtbot, tmp_path):
    edited(window, files[0])
    assert not window.open_file(files[1])  # asked: nothing opened yet
    box = window.last_unsaved_box
    assert box is not None and box.isVisible()
    assert "four.fasta has changes that are not saved" in box.text()
    assert "before opening other.fasta" in box.text()
    assert window.data.source == files[0]
    answer_file_dialog(tmp_path / "kept")  # the project dialog adds .bioplug
    box.button(Button.Save).click()
    assert window.data.source == files[1] and not window.isWindowModified()
    assert window.open_file(tmp_path / "kept.bioplug")  # nothing unsaved: not asked
    assert window.data.names == ["b", "c", "d"] and not window.isWindowModified()


def test_save_dialog_cancelled_opens_nothing(window, files, qtbot, monkeypatch):
    edited(window, files[0])
    answer(monkeypatch, window, Button.Save)
    monkeypatch.setattr(window, "_ask_save", lambda *a, **k: None)  # the dialog's Cancel
    assert not window.open_file(files[1])
    assert window.data.source == files[0] and window.isWindowModified()


def test_saving_a_project_clears_the_mark(window, files, tmp_path):
    edited(window, files[0])
    assert window.save_project(tmp_path / "p.bioplug") is not None
    assert not window.isWindowModified()
    window.alignment_view.editor.stack.undo()  # the saved rows are the edited ones
    assert window.isWindowModified()


def test_reopened_project_is_unmodified_after_its_tree_sorts_the_rows(window, files,
                                                                      tmp_path):
    assert window.open_file(files[0])
    window.tree_view.set_tree(TreeNode.read(["((d:1,c:1):1,(b:1,a:1):1);"]))
    window.tree_features.show_beside(True)  # rows in the tree's order
    window.alignment_view.highlight_rows([0])
    window.alignment_view.editor.move_sequences(1)  # then out of it
    path = window.save_project(tmp_path / "moved.bioplug")
    window.alignment_view.editor.stack.undo()  # an unsaved change to the saved project
    assert window.isWindowModified()
    window.show_dialogs = False  # discarded without a question
    assert window.open_file(path)
    assert window.data.names == ["d", "c", "b", "a"]  # sorted by the tree again on opening
    assert not window.isWindowModified()


def test_close_and_quit_ask_and_cancel_keeps_the_window(window, files, qtbot, monkeypatch):
    edited(window, files[0])
    asked = answer(monkeypatch, window, Button.Cancel)
    assert not window.close()
    window.act_quit.trigger()
    assert asked == ["closing", "closing"] and window.isVisible()
    assert window.data.names == ["b", "c", "d"]


def test_close_asks_with_a_box_and_discard_closes(window, files, qtbot):
    edited(window, files[0])
    assert not window.close()
    box = window.last_unsaved_box
    assert box.isVisible() and "before closing" in box.text()
    box.button(Button.Discard).click()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)


def test_discard_deletes_a_window_deleted_on_close(files, qtbot, tmp_path):
    from bioplug.gui import MainWindow
    from shiboken6 import isValid

    settings = QSettings(str(tmp_path / "del.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, data_dir=tmp_path / "data")
    w.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # as bioplug-gui does
    w.show()
    edited(w, files[0])
    assert not w.close() and isValid(w)
    w.last_unsaved_box.button(Button.Discard).click()
    qtbot.waitUntil(lambda: not isValid(w), timeout=2000)


def test_escape_cancels(window, files, qtbot):
    edited(window, files[0])
    assert not window.close()
    window.last_unsaved_box.reject()  # Escape, or the box's close button
    qtbot.wait(50)
    assert window.isVisible() and window.isWindowModified()


def test_cancel_during_a_job_keeps_the_job(window, files, qtbot, monkeypatch):
    edited(window, files[0])
    release = threading.Event()

    def task(progress):
        release.wait(10)
        return progress("wait", 1, 1)

    job = window._start_job("Slow", task, None, uses_device=False)
    answer(monkeypatch, window, Button.Cancel)
    assert not window.close()
    assert not job.cancel_requested and window.isVisible()
    answer(monkeypatch, window, Button.Discard)
    window.close()  # now the job is cancelled and the window goes when it stops
    assert job.cancel_requested
    release.set()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=5000)


def test_without_dialogs_changes_are_discarded_with_a_warning(window, files, caplog):
    edited(window, files[0])
    window.show_dialogs = False
    with caplog.at_level(logging.WARNING, logger=main_window.__name__):
        assert window.open_file(files[1])
    assert "discarding unsaved changes to four.fasta" in caplog.text


# -- the tree and the heat map: saved in a project, not on the undo stack -------------------
TREE = "((a:1,b:2):1,(c:1,d:3):2);"


def run_job(qtbot, window, start, *args):
    with qtbot.waitSignal(window.jobFinished, timeout=120_000) as blocker:
        assert start(*args) is not None
    assert blocker.args[1] == "done", window.last_error


@pytest.fixture
def device_window(qtbot, tmp_path):
    """A window on the CPU OpenCL device, for the jobs."""
    w = shown(qtbot, make_window(tmp_path))
    yield w
    w.pool.waitForDone(30_000)


def tree_action(window, text):
    return next(a for a in window.tree_features.menu.actions()
                if a.text().replace("&", "") == text)


def test_a_rerooted_tree_asks_before_opening_another_file(window, files, monkeypatch):
    assert window.open_file(files[0])
    window.tree_view.set_tree(TreeNode.read([TREE]))  # as a project opens it: no change
    assert not window.is_modified() and not window.isWindowModified()
    tree_action(window, "Midpoint root").trigger()
    assert window.is_modified() and window.isWindowModified()
    asked = answer(monkeypatch, window, Button.Cancel)
    assert not window.open_file(files[1])
    assert asked == ["opening other.fasta"] and window.data.source == files[0]
    answer(monkeypatch, window, Button.Discard)
    assert window.open_file(files[1])  # the tree goes with its document
    assert window.tree_view.tree is None and not window.isWindowModified()


def test_an_undone_edit_keeps_a_ladderized_tree_modified(window, files):
    assert window.open_file(files[0])
    window.tree_view.set_tree(TreeNode.read([TREE]))
    window.alignment_view.editor.rename(0, "renamed")
    window.tree_view.ladderize()  # the right-click menu's edit, as the Tree menu's
    window.alignment_view.editor.stack.undo()  # clean rows, a changed tree
    assert window.is_modified() and window.isWindowModified()


def test_a_computed_heat_map_asks_and_saving_the_project_clears_it(device_window, files,
                                                                  qtbot, monkeypatch,
                                                                  tmp_path):
    window = device_window
    assert window.open_file(files[0])
    run_job(qtbot, window, window.run_all_vs_all)
    assert window.heatmap.names and window.isWindowModified()
    asked = answer(monkeypatch, window, Button.Cancel)
    assert not window.close()
    assert asked == ["closing"] and window.heatmap.names
    assert window.save_project(tmp_path / "heat.bioplug") is not None
    assert not window.is_modified() and not window.isWindowModified()
    assert window.open_file(files[1]) and asked == ["closing"]  # saved: not asked


def test_a_tree_job_asks_until_the_project_is_saved(device_window, files, qtbot,
                                                    monkeypatch, tmp_path):
    window = device_window
    assert window.open_file(files[0])
    run_job(qtbot, window, window.run_tree)
    assert window.tree_view.tree is not None and window.isWindowModified()
    asked = answer(monkeypatch, window, Button.Save)
    monkeypatch.setattr(window, "_ask_save", lambda *a, **k: (tmp_path / "t.bioplug", ""))
    assert window.open_file(files[1])  # Save wrote the project, then the file opened
    assert asked == ["opening other.fasta"] and not window.isWindowModified()
    assert window.open_project(tmp_path / "t.bioplug")  # as saved: nothing unsaved
    assert window.tree_view.tree is not None and not window.isWindowModified()
