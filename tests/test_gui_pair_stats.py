"""EMBOSS needle / water numbers of the Pairwise tab (issue 14): identity, similarity, gaps as
``n/len (pct%)`` and the score.

Oracles: a hand-counted alignment (BLOSUM62 values looked up by hand), EMBOSS's printed lines
of its classic HBA_HUMAN x HBB_HUMAN needle run (64/148, 88/148, 9/148, 293.5), and
Biopython's ``Alignment.counts`` (identities, positives, gaps) on random pairs of standard
residues (where EMBOSS's similarity rule is "the pair scores above 0").
"""

from __future__ import annotations

import os
import re

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from Bio import Align  # noqa: E402
from Bio.Align import substitution_matrices  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

pytest.importorskip("PySide6")

from bioplug.pairwise.emboss import (  # noqa: E402
    emboss_header,
    emboss_percent,
    emboss_report,
    emboss_score,
    pair_stats,
)

BLOSUM62 = substitution_matrices.load("BLOSUM62")
PROTEIN = "ACDEFGHIKLMNPQRSTVWY"


def test_hand_counted_alignment():
    # column:  M/M K/R T/S A/A Y/W I/- A/A -/Q K/K X/X
    # BLOSUM62: 5   2   1   4   2   .   4   .   5  -1
    # identical: M, A, A, K, X (5); similar (score > 0): M, K/R, T/S, A, Y/W, A, K (7),
    # not X/X (-1, and X scores -1 against itself); gaps: I/-, -/Q (2)
    stats = pair_stats(("MKTAYIA-KX", "MRSAW-AQKx"), BLOSUM62, 17.5)
    assert (stats.length, stats.identity, stats.similarity, stats.gaps) == (10, 5, 7, 2)
    header = emboss_header(("a", "b"), stats, "BLOSUM62", -10, -0.5, "needle")
    assert "# Length: 10\n" in header
    assert "# Identity:       5/10 (50.0%)\n" in header
    assert "# Similarity:     7/10 (70.0%)\n" in header
    assert "# Gaps:           2/10 (20.0%)\n" in header
    assert "# Score: 17.5\n" in header
    assert "# Gap_penalty: 10.0\n" in header and "# Extend_penalty: 0.5\n" in header
    assert "# 1: a\n# 2: b\n" in header and "# Matrix: BLOSUM62\n" in header


def test_emboss_number_formats():
    # needle's HBA_HUMAN x HBB_HUMAN report (EBLOSUM62, 10.0 / 0.5)
    assert f"# Identity:   {emboss_percent(64, 148)}" == "# Identity:      64/148 (43.2%)"
    assert f"# Similarity: {emboss_percent(88, 148)}" == "# Similarity:    88/148 (59.5%)"
    assert f"# Gaps:       {emboss_percent(9, 148)}" == "# Gaps:           9/148 ( 6.1%)"
    assert emboss_percent(148, 148) == "  148/148 (100.0%)"
    assert emboss_percent(123456, 123456) == "123456/123456 (100.0%)"
    assert emboss_percent(0, 7) == "    0/7 ( 0.0%)"
    # scores: three decimals, trailing zeros cut down to one
    assert [emboss_score(s) for s in (293.5, 43.0, 12.25, 1.125, -3.0)] == \
        ["293.5", "43.0", "12.25", "1.125", "-3.0"]


def _gap_columns(rows) -> int:
    return sum(1 for a, b in zip(*rows, strict=True) if "-" in (a, b))


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from(PROTEIN), min_size=1, max_size=40),
       st.text(st.sampled_from(PROTEIN), min_size=1, max_size=40),
       st.sampled_from(["global", "local"]))
def test_matches_biopython_counts(a, b, mode):
    aligner = Align.PairwiseAligner(mode=mode, substitution_matrix=BLOSUM62,
                                    open_gap_score=-10, extend_gap_score=-0.5)
    alignments = aligner.align(a, b)
    first = next(iter(alignments), None)
    if first is None:  # local: nothing scores above 0
        return
    rows = (first[0], first[1])
    stats = pair_stats(rows, BLOSUM62, alignments.score)
    counts = first.counts(BLOSUM62)
    assert stats.length == first.length == len(rows[0])
    assert stats.identity == counts.identities
    assert stats.similarity == counts.positives  # every standard residue scores > 0 itself
    assert stats.gaps == counts.gaps == _gap_columns(rows)
    assert stats.score == alignments.score


def test_report_no_local_alignment():
    text = emboss_report(("a", "b"), None, "(no alignment with a positive score)", "local",
                         "BLOSUM62", -10, -0.5)
    assert "no alignment" in text and "Identity" not in text


def test_pairwise_job_shows_emboss_numbers(qtbot, tmp_path):
    """The Pairwise tab of the app: water's block for a local job, numbers equal to
    Biopython's counts of the alignment the job found."""
    from bioplug.gui import MainWindow, jobs
    from PySide6.QtCore import QSettings

    from bioplug.runtime import list_devices

    cpus = [d for d in list_devices() if d.kind == "CPU"]
    if not cpus:
        pytest.skip("no CPU (PoCL) OpenCL device")
    path = tmp_path / "pair.fasta"
    path.write_text(">p1\nGKGDPKKPRGKMSSYAFFVQTSREEHKKKH\n>p2\nMKKLKKHPDFPKKPLTPYFRFFMEKRAKYA\n")
    w = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                   data_dir=tmp_path / "data")
    w.show_dialogs = False
    qtbot.addWidget(w)
    w.devices_panel.select_spec(cpus[0].spec)
    w.open_file(path)
    results = []
    w.jobStarted.connect(lambda job: job.signals.finished.connect(results.append))
    with qtbot.waitSignal(w.jobFinished, timeout=120_000) as done:
        w.run_pairwise(0, 1, "local", "BLOSUM62")
    assert done.args[1] == "done", w.last_error
    result = results[0]
    assert isinstance(result, jobs.PairResult)
    counts = result.alignment.counts(BLOSUM62)
    length = result.alignment.length
    text = w.pair_text.toPlainText()
    assert "# Program: water" in text and "# 1: p1" in text and "# 2: p2" in text

    def shown(label):
        match = re.search(rf"^# {label}:\s+(\d+)/(\d+) \(\s*([\d.]+)%\)$", text, re.M)
        assert match, (label, text)
        return int(match[1]), int(match[2]), float(match[3])

    assert shown("Identity")[:2] == (counts.identities, length)
    assert shown("Similarity")[:2] == (counts.positives, length)
    assert shown("Gaps")[:2] == (counts.gaps, length)
    assert shown("Identity")[2] == round(100 * counts.identities / length, 1)
    score = float(re.search(r"^# Score: (\S+)$", text, re.M)[1])
    theirs = Align.PairwiseAligner(mode="local", substitution_matrix=BLOSUM62,
                                   open_gap_score=-10, extend_gap_score=-0.5)
    assert score == theirs.score("GKGDPKKPRGKMSSYAFFVQTSREEHKKKH",
                                 "MKKLKKHPDFPKKPLTPYFRFFMEKRAKYA")
    assert str(result.alignment).splitlines()[0] in text  # the alignment follows
