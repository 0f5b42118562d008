"""The GUI's pairwise and all-vs-all jobs: the input checks of the other jobs (record,
position and character named) and a nucleotide matrix for nucleotides (on the CPU device)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("PySide6")

from Bio import Align  # noqa: E402
from Bio.Align import substitution_matrices  # noqa: E402
from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui import jobs  # noqa: E402

from bioplug.errors import InputError  # noqa: E402

DNA = {"d1": "ACGTACGTTAGCATCGATCGACTAGCTAGCATCG", "d2": "ACGTACGATAGCATCGTTCGACTAGCAAGCATCG",
       "d3": "ACGTTCGTTAGCATCGATCGACTGGCTAGCATCC"}


def rec(name, text):
    return SeqRecord(Seq(text), id=name)


@pytest.fixture(scope="module")
def device():
    from bioplug.runtime import list_devices

    if not any(d.kind == "CPU" for d in list_devices()):
        pytest.skip("no CPU (PoCL) OpenCL device")
    return "cpu"


def run(task):
    return task(lambda stage, done, total: True)


@pytest.mark.parametrize(("a", "b", "message"), [
    ("ACDEFGHIKL", "ACDE1FGH#IKL", r"invalid\.fasta: b: letter '1' at position 5 "),
    ("ACDEFGHIKL", "ACDEFJGHIKL", r"invalid\.fasta: b: letter 'J' at position 6 is not in "
                                  r"the BLOSUM62 alphabet"),
    ("ACDEFGHIKL", "", r"invalid\.fasta: b \(the query\): the sequence is empty"),
    ("", "ACDEF", r"invalid\.fasta: a \(the target\): the sequence is empty"),
])
def test_pairwise_errors_name_record_position_and_character(device, a, b, message):
    task = jobs.pairwise_task(rec("a", a), rec("b", b), device, "local", "BLOSUM62",
                              source="invalid.fasta")
    with pytest.raises(InputError, match=message):
        run(task)


def test_nucleotides_default_to_nuc44(device):
    records = [rec(k, t) for k, t in DNA.items()]
    assert jobs.default_matrix(records) == "NUC.4.4"
    assert jobs.default_matrix([rec("p", "MKVLAAGIVGLL")]) == "BLOSUM62"
    pair = run(jobs.pairwise_task(records[0], records[1], device))
    nuc = substitution_matrices.load("NUC.4.4")
    theirs = Align.PairwiseAligner(mode="global", substitution_matrix=nuc,
                                   open_gap_score=-10, extend_gap_score=-0.5)
    assert pair.matrix == "NUC.4.4" and pair.score == theirs.score(DNA["d1"], DNA["d2"])
    scores = run(jobs.all_vs_all_task(records, device))
    assert scores.matrix == "NUC.4.4"
    assert scores.scores[0, 1] == theirs.score(DNA["d1"], DNA["d2"])
    chosen = run(jobs.pairwise_task(records[0], records[1], device, matrix="BLOSUM62"))
    assert chosen.matrix == "BLOSUM62"  # a chosen matrix is kept


@pytest.mark.parametrize("make", [
    lambda: jobs.pairwise_task(rec("d1", DNA["d1"]), rec("d2", DNA["d2"]), "cpu"),
    lambda: jobs.all_vs_all_task([rec(k, t) for k, t in DNA.items()], "cpu"),
], ids=["pairwise", "all-vs-all"])
def test_cancelled_before_it_starts_is_cancelled(make):
    """A job cancelled while queued stops at its first progress report (a task that
    returns is reported done, so the tasks must not run on past a refused report)."""
    job = jobs.Job("queued", make())
    seen = []
    job.signals.cancelled.connect(lambda: seen.append("cancelled"))
    job.signals.finished.connect(lambda result: seen.append("done"))
    job.cancel()
    job.run()  # on this thread: the signals are delivered at once
    assert seen == ["cancelled"]


def test_the_cyclic_collector_rests_while_any_job_runs():
    """A collection on a worker thread could free the GUI thread's dead Qt objects there
    and deadlock against it (seen once in a realign job): jobs pause the collector, and the
    last one to finish turns it back on; a collector the app had turned off stays off."""
    import gc

    inside = []
    outer = jobs.Job("outer", lambda progress: inside.append(gc.isenabled()) or 1)
    assert gc.isenabled()
    with jobs.cyclic_gc_paused():   # another job still running
        outer.run()
        assert not gc.isenabled()
    assert inside == [False] and gc.isenabled()
    gc.disable()
    try:
        jobs.Job("off", lambda progress: 1).run()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_jobs_align_the_residues_of_rows_with_stray_gaps(device):
    """Unaligned rows that carry gaps (kept by the viewer as the file has them) are aligned
    as their residues, as the command line does; an empty row is refused by name."""
    gapped = [rec("g1", "MK-LAAGIV.GLL"), rec("g2", "MKVLAAGIVGLLA"), rec("g3", "MK-VLAGIVG")]
    plain = [SeqRecord(Seq(str(r.seq).replace("-", "").replace(".", "")), id=r.id)
             for r in gapped]
    pair = run(jobs.pairwise_task(gapped[0], gapped[1], device))
    assert pair.score == run(jobs.pairwise_task(plain[0], plain[1], device)).score
    scores = run(jobs.all_vs_all_task(gapped, device)).scores
    assert (scores == run(jobs.all_vs_all_task(plain, device)).scores).all()
    three = run(jobs.three_task(gapped, device))
    assert [str(three[i]).replace("-", "") for i in range(3)] == [str(r.seq) for r in plain]
    with pytest.raises(InputError, match="g3: the sequence is empty"):
        run(jobs.three_task([gapped[0], gapped[1], rec("g3", "--")], device))
