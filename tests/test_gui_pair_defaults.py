"""The pairwise and all-vs-all jobs of the main window choose their substitution matrix from
the open sequences (NUC.4.4 for nucleotides), say which one they used, and name the file in
their errors; offscreen on PoCL's CPU."""

import os
import re

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")
from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui import main_window  # noqa: E402
from gui_windows import make_window  # noqa: E402

JOB_TIMEOUT_MS = 120_000
DNA = ">d1\nACGTACGTTAGCATCGATCG\n>d2\nACGTACGATAGCATCGTTCG\n>d3\nACGTTCGATAGCAACGTTCG\n"
#: Proteins, two of which look like DNA on their own.
MIXED = ">p1\nACGTACGTAGCA\n>p2\nACGTTGCAACGT\n>p3\nMKVLWHHEEQRS\n"


@pytest.fixture
def window(qtbot, tmp_path):
    w = make_window(tmp_path)
    w.show_dialogs = False
    qtbot.addWidget(w)
    yield w
    w.pool.waitForDone(30_000)


def opened(window, tmp_path, text, name="seqs.fasta"):
    path = tmp_path / name
    path.write_text(text)
    assert window.open_file(path)
    return path


def run(qtbot, window, start, *args):
    with qtbot.waitSignal(window.jobFinished, timeout=JOB_TIMEOUT_MS) as blocker:
        assert start(*args) is not None
    return blocker.args[1]


def report_matrix_and_score(window):
    text = window.pair_text.toPlainText()
    return (re.search(r"^# Matrix: (\S+)$", text, re.M)[1],
            float(re.search(r"^# Score: (\S+)$", text, re.M)[1]))


@pytest.mark.parametrize("text, matrix", [(DNA, "NUC.4.4"), (MIXED, "BLOSUM62")],
                         ids=["dna", "protein"])
def test_pair_dialog_preselects_the_matrix_of_the_open_sequences(qtbot, text, matrix):
    records = [SeqRecord(Seq(line), id=f"s{k}")
               for k, line in enumerate(text.splitlines()[1::2])]
    dialog = main_window.PairDialog(records, 0, 2)
    qtbot.addWidget(dialog)
    assert dialog.matrix.currentText() == matrix
    assert dialog.a.currentText() == "s0" and dialog.b.currentText() == "s2"


def test_nucleotides_are_scored_with_nuc44_by_default(window, qtbot, tmp_path):
    opened(window, tmp_path, DNA)
    assert run(qtbot, window, window.run_pairwise, 0, 1) == "done", window.last_error
    assert report_matrix_and_score(window)[0] == "NUC.4.4"
    assert run(qtbot, window, window.run_all_vs_all) == "done", window.last_error
    assert "global NUC.4.4 scores" in window.heatmap.info.text()


@pytest.mark.parametrize("text, matrix", [(DNA, "NUC.4.4"), (MIXED, "BLOSUM62")],
                         ids=["dna", "protein"])
def test_heat_map_click_scores_its_pair_as_the_map_did(window, qtbot, tmp_path, text, matrix):
    # the matrix comes from all the open sequences, not from the pair (p1 and p2 alone
    # would be DNA), so the pair's score is the cell's
    opened(window, tmp_path, text)
    assert run(qtbot, window, window.run_all_vs_all) == "done", window.last_error
    heat = window.heatmap
    assert f" {matrix} scores" in heat.info.text()
    with qtbot.waitSignal(window.jobFinished, timeout=JOB_TIMEOUT_MS) as blocker:
        heat.pairClicked.emit(heat.names[0], heat.names[1])  # a click on that cell
    assert blocker.args == ["Pairwise alignment", "done"], window.last_error
    assert report_matrix_and_score(window) == (matrix, heat.scores[0, 1])


def test_pairwise_error_names_the_file(window, qtbot, tmp_path):
    opened(window, tmp_path, ">a\nACDEFGHIKL\n>b\nACDE1FGH#IKL\n", "letters.fasta")
    assert run(qtbot, window, window.run_pairwise, 0, 1) == "failed"
    assert window.last_error.startswith("letters.fasta: b"), window.last_error
    assert "'1' at position 5" in window.last_error
