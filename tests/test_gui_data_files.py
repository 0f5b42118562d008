"""Opening files in the GUI: PHYLIP dialects (strict, relaxed, sequential) and the warning
for characters that are no sequence letters."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from Bio import AlignIO  # noqa: E402
from Bio.Align import MultipleSeqAlignment  # noqa: E402
from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui.documents import load_file  # noqa: E402

from bioplug.errors import InputError  # noqa: E402

# names longer than strict PHYLIP's 10 characters, rows longer than one interleaved block
BASE = "MKVLAAGIVGLLLAVSQAAKKGATPKKPAAKKPAAKRVTKPAAKKAPAAKKA" * 3
ROWS = {"Homo_sapiens_H1": BASE, "Mus_musculus_H1": BASE[:40] + "--" + BASE[42:],
        "Danio_rerio": "-" + BASE[1:-3] + "GGG"}


def write(path, fmt):
    records = [SeqRecord(Seq(t), id=k, description="") for k, t in ROWS.items()]
    AlignIO.write(MultipleSeqAlignment(records), path, fmt)
    return path


@pytest.mark.parametrize(("written", "lines"), [("phylip-relaxed", 4), ("phylip", 4),
                                                ("phylip-sequential", 1)])
def test_phylip_dialects_open(tmp_path, written, lines):
    """Relaxed interleaved PHYLIP (IQ-TREE / RAxML, Bio.AlignIO's phylip-relaxed) opens with
    its full names; strict and sequential still do."""
    path = write(tmp_path / "msa.phy", written)
    assert len(path.read_text().splitlines()) >= lines * 3
    data = load_file(path)
    names = list(ROWS) if written == "phylip-relaxed" else [k[:10] for k in ROWS]
    assert data.aligned and data.names == names
    assert [data.row_text(i) for i in range(3)] == list(ROWS.values())
    assert data.descriptions == ["", "", ""]


def test_unreadable_phylip_names_every_dialect_tried(tmp_path):
    bad = tmp_path / "bad.phy"
    bad.write_text(" 2 10\nshort ACGT\n")
    with pytest.raises(InputError) as err:
        load_file(bad)
    message = str(err.value)
    assert message.startswith(f"{bad}: not readable as PHYLIP")
    assert all(f"{d}:" in message for d in ("strict", "relaxed", "sequential"))


def test_invalid_characters_are_named_when_opened(qtbot, tmp_path):
    """A file with characters that are no sequence letters opens with a warning naming the
    record, the position and the character (they were silently drawn as '?')."""
    from bioplug.gui.alignment_view import AlignmentView

    src = tmp_path / "invalid.fasta"
    src.write_text(">a\nACDEFGHIKL\n>b\nACDE1FGH#IKL\n>c\nACDEFGHIKL\n")
    view = AlignmentView()
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.warningShown) as shown:
        view.set_data(load_file(src))
    assert shown.args[0].startswith("invalid.fasta: b: letter '1' at position 5 ")
    assert not view.warning.isHidden() and shown.args[0] in view.warning.text()
    view.highlight_rows([1])
    view.editor.delete_sequences()  # the bad record gone: the warning goes too
    assert view.warning.isHidden()
    view.editor.stack.undo()
    assert not view.warning.isHidden()
    good = tmp_path / "good.fasta"
    good.write_text(">a\nACDEF\n>b\nAC*EF\n")
    view.set_data(load_file(good))
    assert view.warning.isHidden()


def test_an_a3m_opens_as_its_expanded_alignment_and_exports_as_a3m(tmp_path):
    """An A3M (HH-suite, ColabFold) opens as an alignment, its insertions as columns (it was
    refused as FASTA after its '#' line), even with no gap in it; File > Export offers A3M."""
    from bioplug.gui.export import ALIGNMENT_EXPORTS, write_alignment_file

    from bioplug.io import read_records

    src = tmp_path / "msa.a3m"
    src.write_text("#6\t1\n>101\nMKVLAA\n>hit some title\nMKvVLAAg\n")
    data = load_file(src)
    assert data.aligned and data.names == ["101", "hit"]
    assert [data.row_text(i) for i in range(2)] == ["MK-VLAA-", "MKvVLAAg"]
    plain = tmp_path / "plain.a3m"
    plain.write_text(">a\nMKV\n>b\nMKI\n")
    assert load_file(plain).aligned
    assert "a3m" in ALIGNMENT_EXPORTS
    out = write_alignment_file(data, tmp_path / "out.a3m")
    assert out.read_text() == ">101\nMK-VLAA-\n>hit some title\nMKVVLAAG\n"
    assert [str(r.seq) for r in read_records(out)] == ["MK-VLAA-", "MKVVLAAG"]
