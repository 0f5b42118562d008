"""The alignment viewer: visible rows/columns, colours on screen, find, jump, exports."""

import io
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from Bio import Align  # noqa: E402
from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui import colors  # noqa: E402
from bioplug.gui.alignment_view import AlignmentView  # noqa: E402
from bioplug.gui.documents import AlignmentData, alignment_codes, load_file  # noqa: E402

import bioplug  # noqa: E402
from bioplug.errors import InputError  # noqa: E402


def random_rows(n, length, seed=0):
    rng = np.random.default_rng(seed)
    letters = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY-", dtype=np.uint8)
    return rng.choice(letters, (n, length))


def make_data(n=200, length=1000, seed=0):
    codes = random_rows(n, length, seed)
    recs = [SeqRecord(Seq(r.tobytes().decode()), id=f"s{i}", description="")
            for i, r in enumerate(codes)]
    return AlignmentData.from_records(recs, aligned=True), codes


@pytest.fixture
def view(qtbot):
    from gui_windows import shown

    v = AlignmentView()
    v.resize(900, 600)
    return shown(qtbot, v)


def test_alignment_codes_match_biopython_rows():
    codes = random_rows(6, 80, seed=3)
    texts = [r.tobytes().decode() for r in codes]
    seqs, coords = Align.Alignment.parse_printed_alignment([t.encode() for t in texts])
    recs = [SeqRecord(Seq(s.decode()), id=f"r{i}") for i, s in enumerate(seqs)]
    alignment = Align.Alignment(recs, coords)
    assert [r.tobytes().decode() for r in alignment_codes(alignment)] == \
        [alignment[i] for i in range(6)]


@pytest.mark.parametrize("fmt", ["fasta", "clustal", "stockholm"])
def test_fast_export_writes_the_same_text(tmp_path, fmt):
    from bioplug.gui.export import write_alignment_file

    data, _ = make_data(30, 400, seed=5)  # scattered gaps: hundreds of coordinate blocks
    assert data.alignment.coordinates.shape[1] > 256
    slow = io.StringIO()
    alignment = data.alignment
    alignment.column_annotations = {}
    Align.write(alignment, slow, fmt)
    expected = slow.getvalue()
    if fmt == "clustal":   # bioplug's first line names CLUSTAL, which other tools look for
        expected = f"CLUSTAL (bioplug {bioplug.__version__}) multiple sequence alignment\n" + \
            expected.split("\n", 1)[1]
    path = write_alignment_file(data, tmp_path / f"out.{fmt}", fmt)
    assert path.read_text() == expected


def test_one_alignment_writer(tmp_path):
    """documents only reads: what its writer did (unaligned FASTA with titles, never over
    the opened file) is export.write_alignment_file's, the GUI's only writer."""
    from bioplug.gui import documents
    from bioplug.gui.export import write_alignment_file

    from bioplug.errors import InputError

    assert not hasattr(documents, "write_alignment")
    assert not hasattr(documents, "write_alignment_file")
    src = tmp_path / "in.fasta"
    src.write_text(">a first title\nMKVLA\n>b\nMKV\n")
    data = documents.load_file(src)
    assert not data.aligned
    out = write_alignment_file(data, tmp_path / "out.fasta")
    assert out.read_text() == ">a first title\nMKVLA\n>b\nMKV\n"
    with pytest.raises(InputError, match="overwrite"):
        write_alignment_file(data, src)
    assert src.read_text().startswith(">a first title")
    with pytest.raises(InputError, match="not aligned"):
        write_alignment_file(data, tmp_path / "out.aln")


def test_viewer_paints_only_visible_cells_with_scheme_colours(view, qtbot):
    data, codes = make_data()
    view.set_data(data)
    canvas = view.canvas
    r0, r1, c0, c1 = canvas.visible_cells()
    assert (r0, c0) == (0, 0)
    w, h = canvas.cell.width(), canvas.cell.height()
    assert r1 == -(-canvas.viewport().height() // h)
    assert c1 == -(-canvas.viewport().width() // w)
    assert view.visible_rows() == data.names[r0:r1]
    # scroll: the first visible row/column follow the scroll bars
    canvas.scroll_to(row=50, column=300)
    r0, r1, c0, c1 = canvas.visible_cells()
    assert (r0, c0) == (50, 300)
    # the pixel at a cell's corner has the cell's Clustal X background colour
    image = canvas.viewport().grab().toImage()
    palette, classify = colors.SCHEMES["Clustal X"]
    cls = classify(codes)
    checked = 0
    for r, c in [(50, 300), (52, 305), (55, 310), (60, 301), (51, 320)]:
        if chr(codes[r, c]) in "-":
            continue
        px = image.pixelColor((c - c0) * w + 1, (r - r0) * h + 1)
        assert (px.red(), px.green(), px.blue()) == palette[cls[r, c]]
        checked += 1
    assert checked >= 3


def test_find_jump_and_highlight(view, qtbot):
    data, _ = make_data()
    view.set_data(data)
    with qtbot.waitSignal(view.rowsHighlighted) as blocker:
        assert view.find("s150") == 150
    assert blocker.args == [["s150"]]
    r0, r1, _, _ = view.canvas.visible_cells()
    assert r0 <= 150 < r1
    assert view.find("no-such-name") == -1
    view.jump_to_column(777)
    _, _, c0, c1 = view.canvas.visible_cells()
    assert c0 <= 776 < c1 and view.canvas.marked_column == 776
    view.highlight_names(["s3", "s7"])
    assert view.highlighted_names() == ["s3", "s7"]


def test_motif_search_and_residue_numbers(view):
    recs = [SeqRecord(Seq(t), id=n, description="") for n, t in
            [("alpha", "MK--VLWQ-T"), ("beta", "MKAAV-W--T"), ("gamma", "--AAVLWQ-T")]]
    view.set_data(AlignmentData.from_records(recs, aligned=True))
    assert view.find("vlwq") == 0  # no name matches: residue motif, gaps ignored
    assert view.canvas.marked_column == 4 and view.highlighted_names() == ["alpha"]
    assert view.find("AVW") == 1 and view.canvas.marked_column == 3
    assert view.find("zzz") == -1
    assert view.residue_number(0, 4) == 3  # alpha: M K - - V -> V is residue 3
    assert view.residue_number(0, 2) is None
    assert view.residue_number(2, 9) == 7


def test_nucleotides_open_in_the_nucleotide_scheme(view):
    """As in Jalview: a new document of DNA / RNA gets the Nucleotide scheme and one of
    proteins Clustal X; a scheme the user chose stays."""
    dna = [SeqRecord(Seq(t), id=f"d{i}") for i, t in enumerate(["ACGTTGCA", "ACGTAGCA"])]
    protein = [SeqRecord(Seq(t), id=f"p{i}") for i, t in enumerate(["MKVLWAAK", "MKVLYAAK"])]
    view.set_data(AlignmentData.from_records(dna))
    assert view.scheme == "Nucleotide" and view.scheme_box.currentText() == "Nucleotide"
    view.set_data(AlignmentData.from_records(protein))
    assert view.scheme == colors.DEFAULT_SCHEME
    view.set_scheme("Zappo")
    view.set_data(AlignmentData.from_records(dna))
    assert view.scheme == "Zappo"


def test_schemes_and_zoom(view):
    data, _ = make_data(20, 100)
    view.set_data(data)
    for name in colors.SCHEMES:
        view.set_scheme(name)
        view.canvas.viewport().repaint()
    with pytest.raises(InputError):
        view.set_scheme("rainbow")
    before = view.canvas.cell
    view.canvas.zoom_out()
    view.canvas.zoom_out()
    view.canvas.zoom_out()
    assert view.canvas.cell.width() < before.width()
    view.canvas.viewport().repaint()


def test_image_exports(view, tmp_path):
    data, _ = make_data(10, 60)
    view.set_data(data)
    png = view.export_image(tmp_path / "aln.png")
    svg = view.export_image(tmp_path / "aln.svg")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = svg.read_text()
    assert "<svg" in text and "s9" in text
    with pytest.raises(InputError):
        view.export_image(tmp_path / "aln.bmp")


def test_load_formats_and_bad_files(tmp_path):
    fasta = tmp_path / "a.fasta"
    fasta.write_text(">x\nAC-GT\n>y\nACGGT\n")
    data = load_file(fasta)
    assert data.aligned and data.names == ["x", "y"] and data.shape == (2, 5)
    assert str(data.records[0].seq) == "ACGT"
    plain = tmp_path / "b.fa"
    plain.write_text(">p\nMKV\n>q\nMKVLL\n")
    data = load_file(plain)
    assert not data.aligned and data.shape == (2, 5) and data.row_text(0) == "MKV"
    aln = tmp_path / "c.aln"
    aln.write_text("CLUSTAL W multiple sequence alignment\n\nx   AC-GT\ny   ACGGT\n\n")
    assert load_file(aln).aligned
    sto = tmp_path / "d.txt"  # unknown extension: format given (as the Open dialog's filter)
    sto.write_text("# STOCKHOLM 1.0\nx AC-GT\ny ACGGT\n//\n")
    data = load_file(sto, "stockholm")
    assert data.aligned and data.row_text(0) == "AC-GT"
    assert load_file(sto).aligned  # also sniffed from the first line
    phy = tmp_path / "f.phy"
    phy.write_text(" 2 5\nx         AC-GT\ny         ACGGT\n")
    assert load_file(phy).row_text(1) == "ACGGT"
    empty = tmp_path / "e.fasta"
    empty.write_text("")
    with pytest.raises(InputError, match="empty"):
        load_file(empty)
    with pytest.raises(InputError, match="no such file"):
        load_file(tmp_path / "missing.fasta")
