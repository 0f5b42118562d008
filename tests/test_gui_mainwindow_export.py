"""The main window's exports, offscreen: the save dialogs (driven as a user would), the
formats they offer, and a cancelled export that leaves no file."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")
from Bio import Align  # noqa: E402
from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui.documents import AlignmentData  # noqa: E402
from gui_windows import make_window, shown  # noqa: E402
from PySide6.QtCore import Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit  # noqa: E402

ROWS = {"alpha": "MKV-LAAG", "beta": "MKVSLA-G", "gamma": "MRV-LAAG"}


@pytest.fixture
def window(qtbot, tmp_path):
    w = shown(qtbot, make_window(tmp_path, device=False, size=(1000, 700)))
    yield w
    w.pool.waitForDone(30_000)


@pytest.fixture
def opened(window, tmp_path):
    """An aligned FASTA file opened in the window."""
    path = tmp_path / "fam.fasta"
    path.write_text("".join(f">{k}\n{v}\n" for k, v in ROWS.items()))
    assert window.open_file(path)
    return path


def answer_save_dialog(qtbot, start, path, name_filter):
    """Run ``start`` (which opens a save dialog) and answer it: choose ``name_filter``, type
    ``path``, press Save. Returns what the dialog showed at first."""
    seen = {}

    def answer():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(20, answer)
            return
        edit = dialog.findChild(QLineEdit, "fileNameEdit")
        seen.update(folder=dialog.directory().absolutePath(), name=edit.text(),
                    filters=dialog.nameFilters())
        dialog.selectNameFilter(name_filter)
        edit.setText(str(path))
        dialog.accept()

    QTimer.singleShot(0, answer)
    start()
    return seen


@pytest.mark.parametrize("name_filter, suffix, fmt", [
    ("Clustal (*.aln)", ".aln", "clustal"),
    ("Stockholm (*.sto)", ".sto", "stockholm"),
    ("PHYLIP (*.phy)", ".phy", "phylip"),
    ("NEXUS (*.nex)", ".nex", "nexus"),
])
def test_chosen_filter_decides_format_and_extension(window, opened, qtbot, tmp_path,
                                                    name_filter, suffix, fmt):
    out = tmp_path / "out"
    out.mkdir()
    seen = answer_save_dialog(qtbot, window._ask_export_alignment, out / "myaln", name_filter)
    # the dialog starts beside the input, with a name made from it (not the input's own)
    assert os.path.samefile(seen["folder"], opened.parent)
    assert seen["name"] == "fam_export.fasta"
    assert name_filter in seen["filters"]
    assert sorted(p.name for p in out.iterdir()) == [f"myaln{suffix}"]
    back = Align.read(str(out / f"myaln{suffix}"), fmt)
    assert [back[i] for i in range(3)] == list(ROWS.values())
    assert window.settings.value("export/alignmentFormat") == fmt  # offered first next time


def test_typed_extension_names_the_format(window, opened, qtbot, tmp_path):
    answer_save_dialog(qtbot, window._ask_export_alignment, tmp_path / "mine.sto",
                       "Clustal (*.aln)")
    assert Align.read(str(tmp_path / "mine.sto"), "stockholm")[1] == ROWS["beta"]
    answer_save_dialog(qtbot, window._ask_export_alignment, tmp_path / "mine.clustal",
                       "FASTA (*.fasta)")  # any extension bioplug reads as a format
    assert Align.read(str(tmp_path / "mine.clustal"), "clustal")[1] == ROWS["beta"]


def test_image_filter_adds_its_extension(window, opened, qtbot, tmp_path):
    window.tabs.setCurrentWidget(window.alignment_view)
    seen = answer_save_dialog(qtbot, window._ask_export_image, tmp_path / "mypic",
                              "SVG image (*.svg)")
    assert seen["name"] == "fam_alignment.png"
    assert window.last_error is None
    assert (tmp_path / "mypic.svg").read_text().count("<svg") == 1


def test_phylip_and_nexus_exports(window, opened, tmp_path, qtbot):
    nexus = window.export_alignment(tmp_path / "a.nex")
    assert [s.id for s in Align.read(str(nexus), "nexus").sequences] == list(ROWS)
    phylip = window.export_alignment(tmp_path / "a.phy")
    assert Align.read(str(phylip), "phylip")[2] == ROWS["gamma"]
    long = [SeqRecord(Seq(t), id=f"family0001_{k}") for k, t in ROWS.items()]
    window.set_data(AlignmentData.from_records(long, aligned=True))
    with qtbot.waitSignal(window.errorShown) as blocker:  # 10 letters would merge them
        assert window.export_alignment(tmp_path / "b.phy") is None
    assert "PHYLIP keeps 10 letters" in blocker.args[0] and not (tmp_path / "b.phy").exists()
    cut = [SeqRecord(Seq(t), id=f"{k}_sequence") for k, t in ROWS.items()]
    window.set_data(AlignmentData.from_records(cut, aligned=True))
    assert window.export_alignment(tmp_path / "c.phy") is not None  # cut, but told so
    assert "keeps the first 10 letters" in window.statusBar().currentMessage()


def test_clustal_export_tells_of_cut_names_and_refuses_merged_ones(window, opened, tmp_path,
                                                                   qtbot):
    """Clustal keeps 30 letters of a name (Bio.Align's writer cuts the rest): said in the
    status bar as for PHYLIP, and names that the cut would make equal are refused."""
    cut = [SeqRecord(Seq(t), id=f"{k}_{'x' * 30}") for k, t in ROWS.items()]
    window.set_data(AlignmentData.from_records(cut, aligned=True))
    path = window.export_alignment(tmp_path / "c.aln")
    assert [s.id for s in Align.read(str(path), "clustal").sequences] == [
        r.id[:30] for r in cut]
    assert "Clustal keeps the first 30 letters" in window.statusBar().currentMessage()
    same = [SeqRecord(Seq(t), id=f"{'y' * 30}_{k}") for k, t in ROWS.items()]
    window.set_data(AlignmentData.from_records(same, aligned=True))
    with qtbot.waitSignal(window.errorShown) as blocker:
        assert window.export_alignment(tmp_path / "d.aln") is None
    assert "Clustal keeps 30 letters" in blocker.args[0] and not (tmp_path / "d.aln").exists()


def run_export(qtbot, window, path, on_stage):
    """Export in the background; ``on_stage(job, stage, done, total)`` runs on the worker
    at each progress event. Returns the job's final status."""
    def hook(job):
        job.signals.stage.connect(lambda *event: on_stage(job, *event),
                                  Qt.ConnectionType.DirectConnection)

    window.jobStarted.connect(hook)
    try:
        with qtbot.waitSignal(window.jobFinished, timeout=60_000) as blocker:
            assert window.export_alignment(path, background=True) is None
    finally:
        window.jobStarted.disconnect(hook)
    return blocker.args[1]


def test_cancelled_export_leaves_no_file(window, opened, qtbot, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    titles = []
    window.jobStarted.connect(lambda job: titles.append(window.progress_view.title.text()))
    status = run_export(qtbot, window, out / "cancelled.sto",
                        lambda job, *event: job.cancel())  # Cancel at once
    assert status == "cancelled"
    assert list(out.iterdir()) == []  # neither the file nor a temporary one
    assert titles == ["Export: running…"]  # no OpenCL device is named: it uses none


def test_cancel_after_the_file_is_written_reports_done(window, opened, qtbot, tmp_path):
    path = tmp_path / "late.aln"

    def cancel_when_complete(job, stage, done, total):
        if done >= total:
            job.cancel()

    assert run_export(qtbot, window, path, cancel_when_complete) == "done"
    assert Align.read(str(path), "clustal")[0] == ROWS["alpha"]
