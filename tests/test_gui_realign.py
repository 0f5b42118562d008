"""Realign a block / selected sequences and add sequences (ProgressiveAligner on PoCL), each
one undo step; splice_block against hand-worked cases."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui.documents import AlignmentData  # noqa: E402
from bioplug.gui.edit_ops import is_gap  # noqa: E402
from bioplug.gui.realign import block_segments, splice_block  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402

ROWS = {"a": "MKV-LAGHWE--QR", "b": "MKVALAG-WEKLQR", "c": "MR-VLSGHW-ELQK",
        "d": "MKVAL-GHWEKLQR"}


def rows(*texts):
    return np.frombuffer("".join(texts).encode(), dtype=np.uint8).reshape(len(texts), -1)


def text(codes):
    return [r.tobytes().decode() for r in codes]


def test_splice_block_pads_and_keeps_outside_columns():
    codes = rows("AB-CD", "A-BCD", "AXXCD")
    out = splice_block(codes, [0, 1], 1, 2, rows("BQ-", "-BQ"))  # wider: others padded
    assert text(out) == ["ABQ-CD", "A-BQCD", "AXX-CD"]
    out = splice_block(codes, [0, 1], 1, 2, rows("B--", "-B-"))  # gap-only column dropped
    assert text(out) == ["AB-CD", "A-BCD", "AXXCD"]
    out = splice_block(codes, [0, 1], 1, 2, rows("B", "B"))
    assert text(out) == ["AB-CD", "AB-CD", "AXXCD"]
    assert block_segments(codes, [0, 1, 2], 1, 2) == ["B", "B", "XX"]


def cpu_spec():
    from bioplug.runtime import list_devices

    cpus = [d for d in list_devices() if d.kind == "CPU"]
    if not cpus:
        pytest.skip("no CPU (PoCL) OpenCL device")
    return cpus[0].spec


@pytest.fixture
def window(qtbot, tmp_path):
    from bioplug.gui import MainWindow

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, data_dir=tmp_path / "d")
    w.show_dialogs = False
    qtbot.addWidget(w)
    w.devices_panel.select_spec(cpu_spec())
    w.set_data(AlignmentData.from_records([SeqRecord(Seq(t), id=k) for k, t in ROWS.items()],
                                          aligned=True))
    return w


def finish(qtbot, window, start):
    with qtbot.waitSignal(window.jobFinished, timeout=120_000) as blocker:
        assert start() is not None
    assert blocker.args[1] == "done", window.last_error


def ungapped(codes):
    return ["".join(c for c in t if c not in "-. ") for t in text(codes)]


def test_realign_block_is_one_undo_step(window, qtbot):
    before = window.data.codes.copy()
    window.alignment_view.select_block([0, 1, 2], 2, 9)
    finish(qtbot, window, window.realigner.realign_block)
    after = window.data.codes
    assert ungapped(after) == ungapped(before)  # residues never change
    assert (after[:, :2] == before[:, :2]).all()  # columns left of the block stay
    assert text(after[:, -4:]) == text(before[:, -4:])  # and right of it
    assert window.alignment_view.editor.stack.undoText() == "realign block"
    window.alignment_view.editor.stack.undo()
    assert (window.data.codes == before).all()


def test_add_sequences_keeps_the_columns(window, qtbot):
    before = window.data.codes.copy()
    new = [SeqRecord(Seq("MKVALAGHWELQR"), id="e"), SeqRecord(Seq("MRVLSGHWKLQK"), id="f")]
    finish(qtbot, window, lambda: window.realigner.add_sequences(new))
    data = window.data
    assert data.names == list(ROWS) + ["e", "f"]
    assert ungapped(data.codes[4:]) == ["MKVALAGHWELQR", "MRVLSGHWKLQK"]
    old = data.codes[:4]
    kept = ~is_gap(old).all(axis=0)
    assert (old[:, kept] == before[:, ~is_gap(before).all(axis=0)]).all()
    assert window.alignment_view.highlighted_names() == ["e", "f"]
    window.alignment_view.editor.stack.undo()
    assert window.data.names == list(ROWS)


def test_add_fragments_from_the_menu(window, qtbot, tmp_path, monkeypatch):
    """Edit > Add fragments…: each fragment aligned alone (end gaps free), columns kept,
    one undo step named after it."""
    src = tmp_path / "frags.fa"
    src.write_text(">e\nGHWEKLQR\n>f\nMKVAL\n")
    monkeypatch.setattr("bioplug.gui.realign.QFileDialog.getOpenFileName",
                        lambda *a, **k: (str(src), ""))
    action = next(a for a in window.edit_menu.actions() if "fragments" in a.text())
    before = window.data.codes.copy()
    with qtbot.waitSignal(window.jobFinished, timeout=120_000) as blocker:
        action.trigger()
    assert blocker.args[1] == "done", window.last_error
    data = window.data
    assert data.names == list(ROWS) + ["e", "f"]
    assert ungapped(data.codes[4:]) == ["GHWEKLQR", "MKVAL"]
    kept = ~is_gap(data.codes[:4]).all(axis=0)
    assert (data.codes[:4, kept] == before).all()
    # each fragment where it matches best: f over the first columns, e over the last ones
    assert text(data.codes[5:])[0].startswith("MKVAL")
    assert text(data.codes[4:5])[0].rstrip("-").endswith("GHWEKLQR")
    assert window.alignment_view.editor.stack.undoText() == "add fragments: 2"


def test_add_fragments_keeping_the_length(window, qtbot, tmp_path, monkeypatch):
    """Edit > Add fragments, keep length…: the alignment's width and rows stay, a column of
    gaps only included, and a fragment's residues that would open columns are left out."""
    rows = {k: v[:7] + "-" + v[7:] for k, v in ROWS.items()}     # a column of gaps only
    window.set_data(AlignmentData.from_records(
        [SeqRecord(Seq(t), id=k) for k, t in rows.items()], aligned=True))
    before = window.data.codes.copy()
    src = tmp_path / "frags.fa"
    long = "MKVAL" + "W" * 20 + "GHWEKLQR"               # more letters than columns
    src.write_text(f">e\nGHWEKLQR\n>f\n{long}\n")
    monkeypatch.setattr("bioplug.gui.realign.QFileDialog.getOpenFileName",
                        lambda *a, **k: (str(src), ""))
    action = next(a for a in window.edit_menu.actions() if "keep length" in a.text())
    with qtbot.waitSignal(window.jobFinished, timeout=120_000) as blocker:
        action.trigger()
    assert blocker.args[1] == "done", window.last_error
    data = window.data
    assert data.shape[1] == before.shape[1] and (data.codes[:4] == before).all()
    assert ungapped(data.codes[4:5]) == ["GHWEKLQR"]
    kept = ungapped(data.codes[5:])[0]                   # the insertion left out
    assert len(kept) <= before.shape[1] < len(long)
    assert kept.startswith("MKVAL") and kept.endswith("GHWEKLQR")
    assert window.alignment_view.editor.stack.undoText().startswith(
        "add fragments (keep length)")


def test_realign_selected_sequences_and_errors(window, qtbot):
    window.alignment_view.highlight_rows([2])
    finish(qtbot, window, window.realigner.realign_sequences)
    assert sorted(window.data.names) == sorted(ROWS)
    assert ungapped(window.data.codes[[window.data.names.index(k) for k in ROWS]]) == [
        t.replace("-", "") for t in ROWS.values()]
    window.alignment_view.clear_selection()
    with qtbot.waitSignal(window.errorShown):
        next(a for a in window.edit_menu.actions()   # nothing selected
             if a.text() == "Realign selected &block").trigger()
    with pytest.raises(Exception, match="already in the alignment"):
        window.realigner.add_sequences([SeqRecord(Seq("MKV"), id="a")])


def test_realign_and_add_keep_fasta_titles(window, qtbot, tmp_path):
    """Added sequences keep their title (without the id repeated in front) and realigned
    rows keep theirs, although the job puts them last."""
    from bioplug.gui.export import write_alignment_file

    from bioplug.io import read_records

    window.alignment_view.set_data(AlignmentData.from_records(
        [SeqRecord(Seq(t), id=k, description=f"protein {k}") for k, t in ROWS.items()],
        aligned=True))
    src = tmp_path / "add.fasta"
    src.write_text(">e Homo sapiens histone\nMKVALAGHWELQR\n")
    finish(qtbot, window, lambda: window.realigner.add_sequences(read_records(src)))
    window.alignment_view.highlight_rows([0])
    finish(qtbot, window, window.realigner.realign_sequences)
    data = window.alignment_view.data
    assert data.names == ["b", "c", "d", "e", "a"]
    assert data.descriptions == ["protein b", "protein c", "protein d",
                                 "Homo sapiens histone", "protein a"]
    out = write_alignment_file(data, tmp_path / "out.fasta")
    assert ">e Homo sapiens histone" in out.read_text().splitlines()


def test_merge_alignments_keeps_each_one_and_is_one_undo_step(window, qtbot, tmp_path):
    """Edit ▸ Merge alignments…: the open alignment and two files' alignments, each kept
    intact (columns of gaps only aside), rows appended with their titles; one undo step."""
    from bioplug.io import read_records

    before = window.data.codes.copy()
    first = tmp_path / "x.fa"
    first.write_text(">e enzyme e\nMKVALAG-HWELQR\n>f\nMRV-LSGKHW-LQK\n")
    second = tmp_path / "y.fa"
    second.write_text(">g\nMKVLAGHWEQR\n")
    others = [read_records(first), read_records(second)]
    finish(qtbot, window, lambda: window.realigner.merge_alignments(others))
    data = window.data
    assert data.names == list(ROWS) + ["e", "f", "g"]
    assert data.descriptions[4:] == ["enzyme e", "", ""]
    for rows_now, given in ((data.codes[:4], before), (data.codes[4:6], rows(
            "MKVALAG-HWELQR", "MRV-LSGKHW-LQK")), (data.codes[6:], rows("MKVLAGHWEQR"))):
        assert text(rows_now[:, ~is_gap(rows_now).all(axis=0)]) == text(
            given[:, ~is_gap(given).all(axis=0)])
    assert window.alignment_view.highlighted_names() == ["e", "f", "g"]
    assert window.alignment_view.editor.stack.undoText() == "merge 3 alignments"
    window.alignment_view.editor.stack.undo()
    assert (window.data.codes == before).all()
    with pytest.raises(Exception, match="in two of the alignments"):
        window.realigner.merge_alignments([read_records(first), read_records(first)])


def test_merge_from_the_menu_names_the_file_in_errors(window, qtbot, tmp_path, monkeypatch):
    """Edit ▸ Merge alignments…: an error about one of the chosen files names that file, not
    "alignment 2" (which of them, with several chosen?)."""
    good = tmp_path / "good.fa"
    good.write_text(">g\nMKVLAGHWEQR\n")
    dna = tmp_path / "genes.fa"
    dna.write_text(">n1\nACGTTGCA-ACGT\n>n2\nACGTTGCAGACGT\n")
    twice = tmp_path / "twice.fa"
    twice.write_text(">t\nMKVLAG\n>t\nMKILAG\n")
    action = next(a for a in window.edit_menu.actions() if "Merge" in a.text())
    for chosen, message in (([good, dna], "genes.fa nucleotide"),
                            ([twice, good], "twice.fa: duplicate sequence ids: t")):
        monkeypatch.setattr("bioplug.gui.realign.QFileDialog.getOpenFileNames",
                            lambda *a, chosen=chosen, **k: ([str(p) for p in chosen], ""))
        with qtbot.waitSignal(window.jobFinished, timeout=120_000) as blocker:
            action.trigger()
        assert blocker.args[1] == "failed"
        assert message in window.last_error, window.last_error
        assert window.data.names == list(ROWS)
    with pytest.raises(Exception, match=r"'x' is in two of the alignments \(x.fa and y.fa\)"):
        window.realigner.merge_alignments([[SeqRecord(Seq("MKV"), id="x")],
                                           [SeqRecord(Seq("MKI"), id="x")]], ["x.fa", "y.fa"])
