"""Project files, offscreen: save and open round trip (alignment, tree with support, heat map,
colours, selection, tree beside), atomic writes, bad files explained."""

import json
import os
import zipfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui import project, tree_ops  # noqa: E402
from bioplug.gui.documents import AlignmentData  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from skbio import TreeNode  # noqa: E402

ROWS = {"a": "AC-GTA", "b": "ACGGTA", "c": "TC-GAA", "d": "TCCGAA"}


def make_window(qtbot, tmp_path, name="s.ini"):
    from bioplug.gui import MainWindow

    settings = QSettings(str(tmp_path / name), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, data_dir=tmp_path / "data")
    w.show_dialogs = False
    qtbot.addWidget(w)
    return w


@pytest.fixture
def window(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    records = [SeqRecord(Seq(t), id=k) for k, t in ROWS.items()]
    w.set_data(AlignmentData.from_records(records, aligned=True))
    return w


def test_round_trip_restores_the_session(window, qtbot, tmp_path):
    tree = TreeNode.read(["((a:1,b:1):0.5,(c:1,d:2):0.5);"])
    tree.children[0].support, tree.children[1].support = 87, 62.5
    window.tree_view.set_tree(tree)
    window.tree_features.show_beside(True)
    window.alignment_view.editor.rename(0, "a_renamed")  # edits are what gets saved
    assert "a_renamed" in tree_ops.leaf_order(window.tree_view.tree)  # the leaf follows
    window.alignment_view.editor.stack.undo()
    assert "a" in tree_ops.leaf_order(window.tree_view.tree)
    window.alignment_view.editor.stack.redo()
    window.alignment_view.set_scheme("BLOSUM62")
    window.alignment_view.select_block([1, 2], 1, 3)
    window.heatmap.set_matrix(window.data.names, np.arange(16.0).reshape(4, 4))
    path = window.save_project(tmp_path / "session.bioplug")
    assert path is not None and zipfile.is_zipfile(path)
    with zipfile.ZipFile(path) as archive:
        state = json.loads(archive.read("project.json"))
        assert set(archive.namelist()) == {"project.json", "alignment.fasta", "tree.nwk",
                                           "heatmap.npz"}
    assert state["format"] == "bioplug-project" and state["version"] == 1

    other = make_window(qtbot, tmp_path, "t.ini")
    assert other.open_file(path)
    view = other.alignment_view
    assert other.data.names == window.data.names
    assert other.data.names[0] in ("a_renamed", "c", "d", "b")
    assert (other.data.codes == window.data.codes).all() and other.data.aligned
    assert view.scheme == "BLOSUM62"
    assert view.highlighted_names() == window.alignment_view.highlighted_names()
    assert view.canvas.sel_columns == (1, 3)
    got = tree_ops.support_values(other.tree_view.tree)
    assert sorted(got.values()) == [62.5, 87.0]
    assert not other.tree_features.panel.isHidden()
    assert other.heatmap.names == window.heatmap.names
    assert (other.heatmap.scores == window.heatmap.scores).all()
    assert str(path.resolve()) in other.recent_files()


def test_save_is_atomic_and_never_over_an_input(window, tmp_path, monkeypatch):
    target = tmp_path / "p.bioplug"
    window.save_project(target)
    before = target.read_bytes()

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(window.tree_view, "newick", boom)
    window.tree_view.set_tree(TreeNode.read(["((a,b),(c,d));"]))
    assert window.save_project(target) is None  # failed: error shown
    assert target.read_bytes() == before  # the old project is intact
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".p.bioplug")] == []
    fasta = tmp_path / "in.fasta"
    fasta.write_text(">x\nAC\n>y\nAG\n")
    window.open_file(fasta)
    assert window.save_project(fasta) is None
    assert "refusing to overwrite" in window.last_error
    assert fasta.read_text() == ">x\nAC\n>y\nAG\n"


def test_bad_project_files_are_explained(window, tmp_path):
    junk = tmp_path / "junk.bioplug"
    junk.write_text("not a zip")
    assert not window.open_file(junk)
    assert "not a readable bioplug project" in window.last_error
    wrong = tmp_path / "wrong.bioplug"
    with zipfile.ZipFile(wrong, "w") as archive:
        archive.writestr("project.json", json.dumps({"format": "bioplug-project",
                                                     "version": 99}))
    assert not window.open_file(wrong)
    assert "newer" in window.last_error


def test_unaligned_sequences_round_trip(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    recs = [SeqRecord(Seq(s), id=k) for k, s in (("x", "ACDEF"), ("y", "ACD"))]
    w.set_data(AlignmentData.from_records(recs))
    path = w.save_project(tmp_path / "u.bioplug")
    state, data, tree, heat = project.read_project(path)
    assert not data.aligned and [str(r.seq) for r in data.records] == ["ACDEF", "ACD"]
    assert tree is None and heat is None and state["has_tree"] is False


def test_fasta_titles_survive_load_and_save(tmp_path):
    """A FASTA title read through Bio.SeqIO is written back as it was (not ">id id words")."""
    from bioplug.gui.documents import load_file
    from bioplug.gui.export import write_alignment_file

    src = tmp_path / "in.fa"
    src.write_text(">sp|P1|A_HUMAN Kinase 1\nMKV-LA\n>b\nMKVQLA\n")
    out = write_alignment_file(load_file(src), tmp_path / "out.fa")
    assert [ln for ln in out.read_text().splitlines() if ln.startswith(">")] == [
        ">sp|P1|A_HUMAN Kinase 1", ">b"]


def test_descriptions_survive_an_edit_save_and_open(qtbot, tmp_path):
    """FASTA titles (including one whose first word is the id) are saved in the project and
    come back on open, after an edit, and the reopened alignment exports them."""
    from bioplug.gui.export import write_alignment_file

    src = tmp_path / "titled.fasta"
    src.write_text(">seqA Homo sapiens histone H1\nMKV-LA\n>X X ray repair\nMKVQLA\n"
                   ">c\nMR-VLA\n")
    w = make_window(qtbot, tmp_path)
    assert w.open_file(src)
    w.alignment_view.select_block([1], 0, 0)
    w.alignment_view.editor.insert_gap()
    path = w.save_project(tmp_path / "titled.bioplug")
    _, data, _, _ = project.read_project(path)
    expect = ["Homo sapiens histone H1", "X ray repair", ""]
    assert data.names == ["seqA", "X", "c"] and data.descriptions == expect
    other = make_window(qtbot, tmp_path, "other.ini")
    assert other.open_file(path)
    assert other.data.descriptions == expect
    out = write_alignment_file(other.data, tmp_path / "reopened.fasta")
    assert [ln for ln in out.read_text().splitlines() if ln.startswith(">")] == [
        ">seqA Homo sapiens histone H1", ">X X ray repair", ">c"]


def test_a_reopened_project_never_writes_over_the_file_it_was_made_from(qtbot, tmp_path):
    """The project records its source file; reopened, that file is an input again (as when
    it was open itself): an export onto it is refused and it stays as it was."""
    src = tmp_path / "four.fasta"
    src.write_text(">a\nMKV-LA\n>b\nMKVQLA\n")
    w = make_window(qtbot, tmp_path)
    assert w.open_file(src)
    path = w.save_project(tmp_path / "p.bioplug")
    other = make_window(qtbot, tmp_path, "other.ini")
    assert other.open_file(path)
    assert other.export_alignment(src) is None
    assert "refusing to overwrite" in other.last_error
    assert src.read_text() == ">a\nMKV-LA\n>b\nMKVQLA\n"


def test_column_reliability_survives_save_and_open(qtbot, tmp_path):
    """A QuickProbs alignment's reliability track comes back with its project."""
    from Bio.Align import Alignment

    w = make_window(qtbot, tmp_path)
    records = [SeqRecord(Seq(t.replace("-", "")), id=k) for k, t in ROWS.items()]
    alignment = Alignment(records, np.array([[0, 2, 2, 5], [0, 2, 3, 6], [0, 2, 2, 5],
                                             [0, 2, 3, 6]]))
    values = np.array([0.9, 0.8, np.nan, 0.5, 0.99, 1.0])
    alignment.column_reliability = values
    w.set_data(AlignmentData.from_alignment(alignment))
    assert w.alignment_view.reliability.isVisibleTo(w.alignment_view)
    path = w.save_project(tmp_path / "rel.bioplug")
    other = make_window(qtbot, tmp_path, "t.ini")
    other.open_project(path)
    np.testing.assert_array_equal(other.data.column_reliability, values)
    assert other.alignment_view.reliability.isVisibleTo(other.alignment_view)
