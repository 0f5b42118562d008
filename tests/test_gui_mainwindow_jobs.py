"""The main window's jobs against what the user does meanwhile, offscreen on PoCL's CPU.

A result that replaces the document is one undo step and never replaces a different
document (opened or edited while the job ran); closing the window during a job neither
blocks the UI thread nor leaves a thread that outlives the application; opening another
file forgets the previous one's tree, heat map and pairwise report.
"""

import os
import threading
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui import jobs, main_window  # noqa: E402
from gui_windows import FOUR, family_files, make_window, shown  # noqa: E402
from PySide6.QtCore import Qt, QThreadPool, QTimer  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from bioplug.alignio import alignment_from_rows  # noqa: E402

JOB_TIMEOUT_MS = 180_000
CLOSE_GRACE_MS = getattr(main_window, "CLOSE_GRACE_MS", 1500)
OTHER = """>x1
MKVLAAGIVGLLLA
>x2
MKVLSAGIVGLLL
>x3
MRVLAAGLVGLL
"""


@pytest.fixture
def window(qtbot, tmp_path):
    w = shown(qtbot, make_window(tmp_path))
    yield w
    w.pool.waitForDone(30_000)


@pytest.fixture
def files(tmp_path):
    return family_files(tmp_path, FOUR, OTHER)


def gated_msa(monkeypatch):
    """Make the MSA job wait for the returned event; its result is the rows as given
    (equal lengths: already an alignment)."""
    gate = threading.Event()

    def task(records, device, seed=0, **options):
        records = [SeqRecord(r.seq, id=r.id, description=r.description) for r in records]

        def fn(progress):
            progress("I posteriors", 0, 1)
            assert gate.wait(60)
            return alignment_from_rows(records, [str(r.seq) for r in records])

        return fn

    monkeypatch.setattr(jobs, "msa_task", task)
    return gate


def run_job(qtbot, window, start, *args, **kwargs):
    with qtbot.waitSignal(window.jobFinished, timeout=JOB_TIMEOUT_MS) as blocker:
        assert start(*args, **kwargs) is not None
    return blocker.args[1]


# -- #1: results that replace the document ------------------------------------------------
def test_msa_result_is_one_undo_step(window, files, qtbot):
    window.open_file(files[0])
    stack = window.alignment_view.editor.stack
    assert run_job(qtbot, window, window.run_msa) == "done", window.last_error
    assert window.data.aligned and window.data.title == "MSA of four.fasta"
    assert "MSA of four.fasta (4 aligned sequences)" in window.windowTitle()
    assert stack.canUndo()
    stack.undo()  # the sequences as they were opened
    assert not window.data.aligned and window.data.source == files[0]
    assert "four.fasta (4 sequences)" in window.windowTitle()
    stack.redo()
    assert window.data.aligned


def test_msa_guide_tree_goes_to_the_tree_tab_and_the_tree_menu(window, files, qtbot,
                                                                monkeypatch):
    """The guide tree the alignment followed (the pipeline's own, as ``bioplug msa
    --tree-out`` writes it) fills an empty Tree tab, and Tree ▸ Guide tree of the alignment
    brings it back over another tree; opening another file forgets it."""
    from bioplug import MultipleSequenceAligner
    from bioplug.io import read_sequences

    window.open_file(files[0])
    features = window.tree_features
    assert not features.act_guide.isEnabled()
    assert run_job(qtbot, window, window.run_msa) == "done", window.last_error
    expected = MultipleSequenceAligner(device="cpu").align(read_sequences(files[0])).guide_tree
    shown_tree = window.tree_view.tree
    assert shown_tree is not None and features.act_guide.isEnabled()
    assert sorted(t.name for t in shown_tree.tips()) == sorted(window.data.names)
    assert shown_tree.compare_rfd(features.guide_tree) == 0
    from io import StringIO

    from skbio import TreeNode

    assert features.guide_tree.compare_rfd(TreeNode.read(StringIO(expected))) == 0
    assert window.tabs.currentWidget() is window.alignment_view   # the tab is not raised
    assert run_job(qtbot, window, window.run_tree, "upgma") == "done"
    other = window.tree_view.tree
    features.act_guide.trigger()
    assert window.tree_view.tree is not other
    assert window.tree_view.tree.compare_rfd(features.guide_tree) == 0
    assert window.tabs.currentWidget() is window.tree_view
    monkeypatch.setattr(window, "_ask_unsaved", lambda action, answered: answered(
        QMessageBox.StandardButton.Discard))   # the alignment is not saved: discard it
    assert window.open_file(files[1])
    assert features.guide_tree is None and not features.act_guide.isEnabled()


def test_result_never_replaces_a_document_opened_and_edited_meanwhile(window, files, qtbot,
                                                                      monkeypatch):
    gate = gated_msa(monkeypatch)
    window.open_file(files[0])
    with qtbot.waitSignal(window.jobFinished, timeout=JOB_TIMEOUT_MS):
        assert window.run_msa() is not None
        window.open_file(files[1])  # Open stays enabled while a job runs
        view = window.alignment_view
        view.highlight_rows([0])
        view.editor.delete_sequences()
        gate.set()
    # the user's document and its edit are kept
    assert window.data.names == ["x2", "x3"] and window.data.source == files[1]
    assert view.editor.stack.canUndo() and view.editor.stack.undoText().startswith("delete")
    assert window.pending_result is not None
    box = window.last_result_box
    assert box is not None and box.isVisible()
    assert "changed while the job ran" in box.text()
    show = next(b for b in box.buttons() if "Show" in b.text())
    show.click()  # the result, as an undo step over the edited document
    assert window.data.names == ["1aab_", "1j46_A", "1k99_A", "2lef_A"]
    assert window.data.aligned and window.pending_result is None
    view.editor.stack.undo()
    assert window.data.names == ["x2", "x3"] and window.data.source == files[1]


def test_result_offered_not_applied_after_an_edit(window, files, qtbot, monkeypatch):
    gate = gated_msa(monkeypatch)
    window.show_dialogs = False
    window.open_file(files[0])
    with qtbot.waitSignal(window.jobFinished, timeout=JOB_TIMEOUT_MS):
        window.run_msa()
        window.alignment_view.editor.rename(0, "renamed")
        gate.set()
    assert window.data.names[0] == "renamed" and not window.data.aligned
    assert "changed while the job ran" in window.statusBar().currentMessage()
    assert window.open_pending_result()
    assert window.data.aligned and window.data.names[0] == "1aab_"


def test_three_way_result_can_be_undone(window, files, qtbot):
    window.open_file(files[0])
    assert run_job(qtbot, window, window.run_three, [0, 2, 3]) == "done", window.last_error
    assert window.data.names == ["1aab_", "1k99_A", "2lef_A"]
    assert "(3 aligned sequences)" in window.windowTitle()
    window.alignment_view.editor.stack.undo()
    assert window.data.names == ["1aab_", "1j46_A", "1k99_A", "2lef_A"]
    assert window.act_three.isEnabled()


@pytest.mark.parametrize("task_name, newick, start, message", [
    ("tree_task", "((1aab_,1j46_A),(1k99_A,2lef_A));", lambda w: w.run_tree(),
     "closed while it ran"),
    ("bootstrap_task", "((1aab_,1j46_A)90,(1k99_A,2lef_A)80);",
     lambda w: w.tree_features.run_bootstrap(10), "Bootstrap: its sequences were closed"),
], ids=["tree", "bootstrap"])
def test_tree_job_of_a_closed_document_is_dropped(window, files, qtbot, monkeypatch,
                                                  task_name, newick, start, message):
    from skbio import TreeNode

    gate = threading.Event()

    def task(data, device, *args, method="nj", **kwargs):
        def fn(progress):
            assert gate.wait(60)
            return jobs.TreeResult(TreeNode.read([newick]), method, "msa", list(data.names))
        return fn

    monkeypatch.setattr(jobs, task_name, task)
    window.open_file(files[0])
    with qtbot.waitSignal(window.jobFinished, timeout=JOB_TIMEOUT_MS) as blocker:
        start(window)
        window.open_file(files[1])
        gate.set()
    assert blocker.args[1] == "done"
    assert window.tree_view.tree is None
    assert message in window.statusBar().currentMessage()


# -- #11: another file forgets the previous one's results -----------------------------------
def test_opening_another_file_clears_tree_heat_map_and_tree_beside(window, files, qtbot,
                                                                   tmp_path, monkeypatch):
    window.open_file(files[0])
    assert run_job(qtbot, window, window.run_tree, "nj") == "done", window.last_error
    window.tree_features.show_beside(True)
    assert run_job(qtbot, window, window.run_all_vs_all) == "done", window.last_error
    assert run_job(qtbot, window, window.run_pairwise, 0, 1) == "done", window.last_error
    assert window.tree_view.tree is not None and window.heatmap.names
    # the tree beside sorted the rows (an edit): the user discards it when asked
    monkeypatch.setattr(window, "_ask_unsaved", lambda action, answered: answered(
        QMessageBox.StandardButton.Discard))
    assert window.open_file(files[1])
    assert window.tree_view.tree is None and window.tree_view.labels == {}
    assert window.heatmap.names == [] and window.heatmap.scores.size == 0
    assert not window.tree_features.act_beside.isChecked()
    assert window.tree_features.panel.isHidden()
    assert window.pair_text.toPlainText() == ""
    with qtbot.waitSignal(window.errorShown) as blocker:
        assert window.export_newick(tmp_path / "old.nwk") is None
    assert "no tree" in blocker.args[0] and not (tmp_path / "old.nwk").exists()


# -- #3: closing during a job ----------------------------------------------------------------
class Heartbeat:
    """The longest gap between 20 ms timer ticks: how long the UI thread was blocked."""

    def __init__(self):
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.last = time.perf_counter()
        self.longest = 0.0
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self):
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last)
        self.last = now


def stubborn_task(release: threading.Event):
    """A job inside one long kernel: no progress report (so no cancel) until released."""
    def fn(progress):
        progress("I posteriors", 0, 1)
        release.wait(4.0)
        return None
    return fn


def test_close_during_a_job_shows_cancelling_and_does_not_block(window, qtbot):
    release = threading.Event()
    job = window._start_job("Multiple alignment", stubborn_task(release), None)
    qtbot.wait(50)
    beat = Heartbeat()
    t0 = time.perf_counter()
    window.close()
    assert time.perf_counter() - t0 < 0.3
    assert job.cancel_requested
    assert "cancelling" in window.progress_view.title.text()
    assert "cancelling" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=CLOSE_GRACE_MS + 2000)
    assert beat.longest < 0.3
    assert window.jobs_running()  # it ends unseen; nothing waited for it
    release.set()
    assert window.pool.waitForDone(10_000)


def test_a_job_that_finished_is_done_though_cancelled_meanwhile(window, qtbot):
    """Cancel pressed during the last kernel, after the last progress report: the task
    returns its result, which is shown and reported as done."""
    release = threading.Event()
    results = []

    def task(progress):
        progress("tree", 0, 1)
        assert release.wait(60)  # the last kernel: no progress report after it
        return 42

    with qtbot.waitSignal(window.jobFinished, timeout=JOB_TIMEOUT_MS) as blocker:
        job = window._start_job("Tree (NJ)", task, results.append)
        window.cancel_job()
        release.set()
    assert job.cancel_requested
    assert blocker.args == ["Tree (NJ)", "done"] and results == [42]
    assert ": done (" in window.progress_view.title.text()


def test_window_deleted_on_close_during_a_job(qtbot, tmp_path):
    from shiboken6 import isValid

    window = make_window(tmp_path)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # as bioplug-gui does
    window.show()
    release = threading.Event()
    window._start_job("Multiple alignment", stubborn_task(release), None)
    beat = Heartbeat()
    window.close()
    window.close()  # a second close goes at once
    qtbot.waitUntil(lambda: not isValid(window), timeout=2000)
    qtbot.wait(100)
    assert beat.longest < 0.3  # deleting the window did not wait for the job
    release.set()
    assert window.pool.waitForDone(10_000)
    # the job's end and the grace period's timer reach a deleted window: nothing happens
    qtbot.wait(CLOSE_GRACE_MS + 200)


def test_application_waits_for_a_job_that_outlived_its_window(monkeypatch):
    pool = QThreadPool()
    release = threading.Event()
    jobs.Job("Slow", lambda progress: release.wait(10)).start(pool)
    ended = []
    monkeypatch.setattr(os, "_exit", ended.append)
    main_window.wait_for_jobs(3, timeout_ms=100, pools=[pool])  # too long: ended at once
    assert ended == [3]
    release.set()
    main_window.wait_for_jobs(0, timeout_ms=10_000, pools=[pool])
    assert ended == [3] and pool.activeThreadCount() == 0


SCRIPT = """
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from bioplug.gui import MainWindow
marker, settings, data = sys.argv[1:4]
w = MainWindow(settings=QSettings(settings, QSettings.Format.IniFormat), data_dir=data)
w.show()
def slow(progress):  # one long kernel: the cancel is seen only after it
    progress("I posteriors", 0, 1)
    time.sleep(1.5)
    progress("I posteriors", 1, 1)
    open(marker, "w").write("ended")
w._start_job("Slow", slow, None)
app.processEvents()
w.close()
w.close()
app.processEvents()
print("closed", flush=True)
"""


def test_script_exit_waits_for_the_job_of_a_closed_window(tmp_path):
    """A script that closes its window during a job and ends: the job finishes before the
    interpreter tears down (no error from a worker thread running on during the teardown)."""
    import subprocess
    import sys

    marker = tmp_path / "ended"
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(marker), str(tmp_path / "s.ini"),
                          str(tmp_path / "data")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "closed" and marker.read_text() == "ended"
    assert "Traceback" not in out.stderr and "Error calling" not in out.stderr, out.stderr


def test_database_search_reports_the_hits_in_the_pairwise_tab(window, files, qtbot, tmp_path):
    """Jobs ▸ Database search: the selected rows against a FASTA database; the report is the
    library's (:meth:`SearchResults.report`) and goes to the Pairwise tab."""
    from Bio import SeqIO
    from bioplug.gui import search_job

    from bioplug.pairwise.search import search

    window.open_file(files[0])
    records = list(SeqIO.parse(files[0], "fasta"))
    database = tmp_path / "db.fa"
    database.write_text("".join(f">hit{i} from {r.id}\n{str(r.seq).replace('-', '')[5:60]}\n"
                                for i, r in enumerate(records)))
    window.alignment_view.highlight_rows([1])
    assert window.act_search.isEnabled()
    with qtbot.waitSignal(window.jobFinished, timeout=JOB_TIMEOUT_MS) as blocker:
        assert search_job.run_search(window, str(database), top=2) is not None
    assert blocker.args[1] == "done", window.last_error
    text = window.pair_text.toPlainText()
    query = search_job.query_records(window)
    assert [q.id for q in query] == [window.data.names[1]]
    expected = search(query, str(database), top=2, device="cpu").report(database=str(database))
    assert text == expected and "> hit1" in text
    assert window.tabs.currentWidget() is window.pair_text


def test_msa_along_the_tree_in_the_tree_tab(window, files, qtbot):
    """Jobs ▸ Multiple alignment with options…: "Along the tree in the Tree tab" aligns along
    the tree shown there (either method), which then comes back as the guide tree."""
    from io import StringIO

    from bioplug.gui.main_window import MsaDialog
    from skbio import TreeNode

    window.open_file(files[0])
    assert run_job(qtbot, window, window.run_tree, "upgma") == "done", window.last_error
    newick = window.tree_view.newick()
    dialog = MsaDialog(window, newick)
    assert dialog.along_tree.isEnabled()
    dialog.along_tree.setChecked(True)
    options = dialog.options()
    assert options["guide_tree"] == newick
    assert not MsaDialog(window, None).along_tree.isEnabled()
    assert run_job(qtbot, window, window.run_msa, **options) == "done", window.last_error
    assert window.tree_features.guide_tree.compare_rfd(TreeNode.read(StringIO(newick))) == 0
