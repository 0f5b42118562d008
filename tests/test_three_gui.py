"""The GUI's three-sequence job, offscreen on the PoCL CPU device: enabled with three or more
sequences, progress in the progress view, the optimal alignment in the viewer."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")
from gui_windows import FOUR, make_window, shown  # noqa: E402

import bioplug  # noqa: E402

FASTA = FOUR


@pytest.fixture
def window(qtbot, tmp_path):
    return shown(qtbot, make_window(tmp_path))


def test_three_way_job_shows_the_optimal_alignment(window, tmp_path, qtbot):
    path = tmp_path / "four.fasta"
    path.write_text(FASTA)
    assert window.open_file(path)
    assert window.act_three.isEnabled()
    window.alignment_view.highlight_names(["1j46_A", "1k99_A", "2lef_A"])
    events = []
    window.jobStarted.connect(
        lambda job: job.signals.stage.connect(lambda *e: events.append(e)))
    with qtbot.waitSignal(window.jobFinished, timeout=120_000) as blocker:
        window.act_three.trigger()
    assert blocker.args == ["Three-sequence alignment", "done"], window.last_error
    qtbot.wait(10)
    stages = [s for s, _, _ in events]
    assert stages[0] == "three-way fill" and stages[-1] == "three-way traceback"
    data = window.data
    assert data.aligned and data.names == ["1j46_A", "1k99_A", "2lef_A"]
    records = [r for r in bioplug.io.read_records(path)][1:]
    want = bioplug.align_three(*records, substitution_matrix="BLOSUM62", open_gap_score=-10,
                               extend_gap_score=-0.5, device="cpu")
    assert data.alignment.score == want.score
    assert [data.alignment[i] for i in range(3)] == [want[i] for i in range(3)]
    assert "score" in window.windowTitle()


def test_three_way_needs_three_sequences(window, tmp_path):
    path = tmp_path / "two.fasta"
    path.write_text(">a\nACGT\n>b\nAGT\n")
    assert window.open_file(path)
    assert not window.act_three.isEnabled()
