"""Fast alignment rows and writers (``bioplug.io``) against Biopython's own output.

The oracle is Biopython: alignments are built with ``Alignment.parse_printed_alignment`` and
written with ``Bio.Align.write``; rows are Biopython's ``alignment[i]``.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import Bio
import numpy as np
import pytest
from Bio import Align, SeqIO
from Bio.Align import Alignment, PairwiseAligner
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import bioplug
from bioplug.alignio import AlignedRows, alignment_texts
from bioplug.errors import InputError
from bioplug.io import alignment_from_rows, alignment_rows, write_alignment, write_rows

FORMATS = ["fasta", "clustal", "stockholm", "a2m", "phylip"]
LETTERS = "ACDEFGHIKLMNPQRSTVWYXacdeklmnwy"
NAME_CHARS = "abcXYZ019_|.:;()[],-é "


def bio_text(alignments, fmt: str) -> str:
    """Bio.Align.write's text, its Clustal header line replaced by the one bioplug writes
    (which Clustal Omega reads; Biopython's it refuses)."""
    handle = io.StringIO()
    Align.write(alignments, handle, fmt)
    text = handle.getvalue()
    if fmt == "clustal" and text.startswith(f"Biopython {Bio.__version__} multiple"):
        text = f"CLUSTAL (bioplug {bioplug.__version__}) multiple sequence alignment\n" + \
            text.split("\n", 1)[1]
    return text


def ours_rows(ids, rows, fmt, descriptions=None, **kw) -> str:
    handle = io.StringIO()
    write_rows(handle, ids, rows, fmt, descriptions, **kw)
    return handle.getvalue()


def ours_alignment(alignments, fmt) -> str:
    handle = io.StringIO()
    write_alignment(alignments, handle, fmt)
    return handle.getvalue()


def biopython_alignment(ids, rows, descriptions) -> Alignment:
    """Biopython's own reading of printed rows into an Alignment (``-`` gaps)."""
    sequences, coordinates = Alignment.parse_printed_alignment([r.encode() for r in rows])
    records = [SeqRecord(Seq(s), id=i, description=d)
               for s, i, d in zip(sequences, ids, descriptions, strict=True)]
    alignment = Alignment(records, coordinates)
    alignment.column_annotations = {}
    return alignment


@st.composite
def gapped_rows(draw, max_rows: int = 30, max_length: int = 170):
    k = draw(st.integers(1, max_rows))
    length = draw(st.integers(1, max_length))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    letters = np.frombuffer(LETTERS.encode(), dtype=np.uint8)
    arr = letters[rng.integers(0, len(letters), (k, length))]
    gap_rate = draw(st.sampled_from([0.0, 0.1, 0.4, 0.9]))
    arr[rng.random((k, length)) < gap_rate] = ord("-")
    if draw(st.booleans()):  # whole gap columns, and sometimes a row of gaps only
        arr[:, rng.random(length) < 0.2] = ord("-")
    if k > 1 and draw(st.booleans()):
        arr[rng.integers(k)] = ord("-")
    rows = [r.tobytes().decode() for r in arr]
    # short and long names (Clustal cuts at 30, Stockholm pads to the longest past 20)
    sizes = rng.choice([1, 3, 8, 19, 21, 29, 30, 31, 40], size=k)
    chars = np.array(list(NAME_CHARS))
    ids = ["".join(rng.choice(chars, size=n)) for n in sizes]
    if draw(st.integers(0, 9)) == 0:  # a name outside latin-1: Biopython writes those
        ids[0] += "Ω"
    words = st.sampled_from(["", " ", "a protein", "x  y", "<unknown description>"])
    descriptions = draw(st.lists(words, min_size=k, max_size=k))
    return ids, rows, descriptions


def without_gap_columns(rows: list[str]) -> list[int]:
    return [c for c in range(len(rows[0])) if any(r[c] != "-" for r in rows)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=gapped_rows(), fmt=st.sampled_from(FORMATS), states=st.text("DIDIX", min_size=170,
                                                                         max_size=170))
# found by CI: rows of gaps only whose IDs also print alike (Biopython names the empty rows)
@example(data=([")", " "], ["-", "-"], ["", ""]), fmt="phylip", states="D" * 170)
def test_write_rows_is_biopythons_text(data, fmt, states):
    ids, rows, descriptions = data
    alignment = biopython_alignment(ids, rows, descriptions)
    state = None
    if fmt == "a2m":
        # An Alignment holds no all-gap column; write_rows drops their states with them.
        state = states[:len(rows[0])]
        kept = without_gap_columns(rows)
        alignment.column_annotations["state"] = "".join(state[c] for c in kept)
    try:
        expected = bio_text(alignment, fmt)
    except ValueError as exc:  # e.g. Clustal refuses an alignment of gaps only
        with pytest.raises(ValueError, match=str(exc)):
            ours_rows(ids, rows, fmt, descriptions, state=state)
        return
    held = AlignedRows(alignment.sequences, rows)   # the same alignment as records and rows
    held.column_annotations = dict(alignment.column_annotations)
    if fmt in ("clustal", "phylip") and cut_names_collide(ids, expected, fmt):
        for ours in (lambda: ours_rows(ids, rows, fmt, descriptions, state=state),
                     lambda: ours_alignment(alignment, fmt),
                     lambda: ours_alignment(held, fmt)):
            with pytest.raises(ValueError, match="letters of a name"):
                ours()
        return
    assert ours_rows(ids, rows, fmt, descriptions, state=state) == expected
    assert ours_alignment(alignment, fmt) == expected
    assert ours_alignment(held, fmt) == expected


def cut_names_collide(ids: list[str], text: str, fmt: str) -> bool:
    """Two different IDs printed as one name in Biopython's Clustal / PHYLIP text (its
    first block's rows): bioplug refuses those, Biopython writes them."""
    if fmt == "phylip":
        names = [line[:10] for line in text.splitlines()[1:1 + len(ids)]]
    else:
        rows = [line for line in text.splitlines()[1:] if line.strip()]
        names = [line[:36] for line in rows[:len(ids)]]
    first: dict[str, str] = {}
    return any(first.setdefault(n, i) != i for n, i in zip(names, ids, strict=True))


@pytest.mark.parametrize("fmt, ids", [("clustal", ["x" * 30 + "_alpha", "x" * 30 + "_beta"]),
                                      ("phylip", ["sample_0001", "sample_0002"]),
                                      ("phylip", ["a(b", "a[b"])])
def test_ids_that_print_alike_are_refused(fmt, ids):
    rows = ["MKV-L", "MKVAL"]
    assert cut_names_collide(ids, bio_text(biopython_alignment(ids, rows, ["", ""]), fmt), fmt)
    with pytest.raises(ValueError, match=re.escape(repr(ids[1])) + ".*letters of a name"):
        ours_rows(ids, rows, fmt)
    same = [ids[0], ids[0]]   # one ID twice: no name is lost, written as Biopython does
    assert ours_rows(same, rows, fmt) == bio_text(biopython_alignment(same, rows, ["", ""]),
                                                  fmt)


@settings(max_examples=40, deadline=None)
@given(data=gapped_rows())
def test_rows_are_biopythons_rows(data):
    ids, rows, descriptions = data
    alignment = biopython_alignment(ids, rows, descriptions)
    expected = [alignment[i] for i in range(len(rows))]
    got = alignment_rows(alignment)
    assert [r.tobytes().decode() for r in got] == expected
    # the same from plain str and Seq sequences
    for kind in (str, Seq):
        plain = Alignment([kind(str(r.seq)) for r in alignment.sequences],
                          alignment.coordinates)
        assert [r.tobytes().decode() for r in alignment_rows(plain)] == expected


@settings(max_examples=40, deadline=None)
@given(data=gapped_rows())
def test_alignment_texts_are_list_of_the_alignment(data):
    ids, rows, descriptions = data
    alignment = biopython_alignment(ids, rows, descriptions)
    assert alignment_texts(alignment) == list(alignment)


def test_alignment_texts_where_the_fast_path_falls_back():
    aligner = PairwiseAligner(mode="local", match_score=2, mismatch_score=-1,
                              open_gap_score=-2, extend_gap_score=-1)
    target = Seq("AACCGGTTACGTAGCTAGCTAGGATCGATCGGATTACAGGCT")
    query = Seq("CGATCCGATCCTAGCTAGCTACG").reverse_complement()
    coordinates = np.array([[0, 1, 2, 3], [0, 1, 1, 2]])
    for alignment in (aligner.align(target, query, strand="-")[0],   # a reverse strand
                      Alignment([[1, 2, 3], [1, 3]], coordinates),     # rows printed as lists
                      Alignment(["A\u03a9C", "AC"], coordinates)):      # beyond latin-1
        assert alignment_texts(alignment) == list(alignment)


@settings(max_examples=20, deadline=None)
@given(data=gapped_rows(), fmt=st.sampled_from(["nexus", "msf", "fasta"]),
       keep=st.booleans())
def test_aligned_rows_are_their_alignment(data, fmt, keep):
    """``AlignedRows`` is written as the Alignment it builds is written; with
    ``keep_empty_columns`` its columns of gaps only stay in the formats bioplug lays out (FASTA,
    MSF) and are dropped in those Biopython writes (NEXUS)."""
    ids, rows, descriptions = data
    records = [SeqRecord(Seq(r.replace("-", "")), id=f"s{n}", description=d)
               for n, (r, d) in enumerate(zip(rows, descriptions, strict=True))]
    held = AlignedRows(records, rows, molecule_type="protein", keep_empty_columns=keep)
    held.residue_columns = {"s0": np.arange(3)}
    alignment = held.to_alignment()
    assert alignment.residue_columns is held.residue_columns   # its attributes carried over
    kept = without_gap_columns(rows)
    assert alignment_texts(alignment) == ["".join(r[c] for c in kept) for r in rows]
    if keep and fmt == "fasta":
        assert ours_alignment(held, fmt) == "".join(
            f">{r.id} {r.description}\n{row}\n" if r.description else f">{r.id}\n{row}\n"
            for r, row in zip(records, rows, strict=True))
        return
    if keep and fmt == "msf":   # laid out by bioplug: the columns kept, as write_rows keeps them
        handle = io.StringIO()
        try:
            write_rows(handle, [r.id for r in records], rows, fmt, descriptions,
                       keep_empty_columns=True)
        except ValueError as exc:
            with pytest.raises(ValueError, match=re.escape(str(exc))):
                ours_alignment(held, fmt)
            return
        assert ours_alignment(held, fmt) == handle.getvalue()
        return
    try:
        expected = ours_alignment(alignment, fmt)
    except ValueError as exc:   # Biopython's refusal (no rows, no residues), the same
        with pytest.raises(ValueError, match=re.escape(str(exc))):
            ours_alignment(held, fmt)
        return
    assert ours_alignment(held, fmt) == expected


def test_aligned_rows_refuse_rows_that_are_not_their_records():
    records = [SeqRecord(Seq("MKV"), id="a"), SeqRecord(Seq("MK"), id="b")]
    with pytest.raises(ValueError, match="b: 3 letters in its row, 2 in it"):
        AlignedRows(records, ["MKV", "MKV"])
    with pytest.raises(ValueError, match="2 records for 1 rows"):
        AlignedRows(records, ["MKV"])


def test_front_doors_read_an_alignment_in_one_pass(monkeypatch):
    """An ``Alignment`` given where sequences are expected is read through its printed rows at
    once (Biopython's row by row took 80 s for 1,000 x 1,299 before a refusal): each front
    door answers as it answers for the list of those rows, and no row is built by Biopython."""
    from bioplug import PairwiseAligner as DeviceAligner
    from bioplug.msa.skbio_api import multi_align as quickprobs_align
    from bioplug.skbio import multi_align

    rows = ["MKV-LAW", "MK-ILAW", "MKVIL-W"]
    _, coordinates = Alignment.parse_printed_alignment([r.encode() for r in rows])
    alignment = Alignment([r.replace("-", "") for r in rows], coordinates)
    aligner = DeviceAligner(device="cpu", match_score=2, mismatch_score=-1)
    expected = aligner.score_matrix(rows)

    def no_rows(*args, **kwargs):
        raise AssertionError("a row was built through Biopython")

    monkeypatch.setattr(Alignment, "_get_row", no_rows)   # what list(alignment) calls
    assert np.array_equal(aligner.score_matrix(alignment), expected)
    assert np.array_equal(aligner.score_many(alignment, alignment),
                          aligner.score_many(rows, rows))
    with pytest.raises(ValueError, match="ungapped"):
        multi_align(alignment, device="cpu")
    with pytest.raises(InputError, match="ungapped"):
        quickprobs_align(alignment, device="cpu")


@settings(max_examples=40, deadline=None)
@given(data=gapped_rows())
def test_alignment_from_rows_prints_the_rows(data):
    ids, rows, _ = data
    records = [SeqRecord(Seq(r.replace("-", "")), id=i) for i, r in zip(ids, rows, strict=True)]
    kept = without_gap_columns(rows)
    printed = ["".join(r[c] for c in kept) for r in rows]
    for given_rows in (rows, np.array([list(r.encode()) for r in rows], dtype=np.uint8)):
        alignment = alignment_from_rows(records, given_rows)
        assert [alignment[i] for i in range(len(rows))] == printed
        assert alignment.sequences == records


def test_alignment_from_rows_names_a_row_that_does_not_match_its_record():
    records = [SeqRecord(Seq("MKV"), id="a"), SeqRecord(Seq("MRVW"), id="b")]
    with pytest.raises(ValueError, match="b: 3 letters in its row, 4 in it"):
        alignment_from_rows(records, ["MK-V", "MR-V"])
    empty = alignment_from_rows([SeqRecord(Seq(""), id="e")], np.zeros((1, 0), np.uint8))
    assert empty.coordinates.tolist() == [[0]] and empty.length == 0


def test_reverse_strand_and_partial_rows_come_from_biopython():
    aligner = PairwiseAligner(mode="local", match_score=2, mismatch_score=-1,
                              open_gap_score=-2, extend_gap_score=-1)
    target = Seq("AACCGGTTACGTAGCTAGCTAGGATCGATCGGATTACAGGCT")
    query = Seq("CGATCCGATCCTAGCTAGCTACG").reverse_complement()
    alignment = aligner.align(target, query, strand="-")[0]
    expected = [alignment[i] for i in range(2)]
    assert [r.tobytes().decode() for r in alignment_rows(alignment)] == expected
    for fmt in ("fasta", "clustal"):
        assert ours_alignment(alignment, fmt) == bio_text(alignment, fmt)


def test_annotated_alignments_write_as_biopython():
    ids, rows = ["seq one", "b", "cc"], ["AC-DEFG-H" * 9, "A--DEFGKH" * 9, "ACGDE-GKH" * 9]
    alignment = biopython_alignment(ids, rows, ["first", "", "third"])
    for rec in alignment.sequences:
        rec.annotations["molecule_type"] = "protein"
        rec.annotations["organism"] = "Homo sapiens"
    alignment.sequences[1].dbxrefs = ["PDB; 1ABC A; 1-20;"]
    length = len(rows[0])
    alignment.column_annotations = {"clustal_consensus": ("*: ." * length)[:length],
                                    "secondary structure": ("HE-C" * length)[:length]}
    alignment.operations = bytes(np.where(np.arange(length) % 7 == 3, ord("I"), ord("M"))
                                 .astype(np.uint8))
    for fmt in ("clustal", "stockholm", "fasta", "phylip"):
        assert ours_alignment(alignment, fmt) == bio_text(alignment, fmt)
    alignment.annotations = {"identifier": "FAM1", "comment": "a long comment " * 12}
    assert ours_alignment(alignment, "stockholm") == bio_text(alignment, "stockholm")
    alignment.sequences[2].letter_annotations["secondary structure"] = "H" * len(
        alignment.sequences[2])
    assert ours_alignment(alignment, "stockholm") == bio_text(alignment, "stockholm")
    # #=GR lines without #=GF ones: the fast writer's own layout, insert columns included
    alignment.annotations = {}
    alignment.sequences[0].letter_annotations["posterior probability"] = "*987654" * 9
    assert ours_alignment(alignment, "stockholm") == bio_text(alignment, "stockholm")


@pytest.mark.parametrize(("id_length", "tag"), [(20, "score"), (19, "scores"), (5, "PP"),
                                                (20, "PP"), (5, "x" * 25)])
def test_letter_annotation_label_filling_the_name_column(id_length, tag):
    """A ``#=GR`` label exactly as wide as the name column still has its space before the
    letters (Biopython's layout; the fast writer glued ``scoreGHH..`` together)."""
    alignment = Alignment([SeqRecord(Seq("ACGT"), id="a" * id_length, description=""),
                           SeqRecord(Seq("ACT"), id="b", description="")],
                          np.array([[0, 2, 3, 4], [0, 2, 2, 3]]))
    alignment.column_annotations = {}
    alignment.sequences[0].letter_annotations[tag] = "1234"
    text = ours_alignment(alignment, "stockholm")
    assert text == bio_text(alignment, "stockholm")
    back = Align.read(io.StringIO(text), "stockholm")
    key = "posterior probability" if tag == "PP" else tag
    assert back.sequences[0].letter_annotations == {key: "1234"}


def test_several_alignments_in_one_file():
    a = biopython_alignment(["x", "y"], ["AC-D", "ACGD"], ["", "d"])
    b = biopython_alignment(["p", "q", "r"], ["MK-" * 30, "M-K" * 30, "MKK" * 30], ["", "", ""])
    for fmt in ("fasta", "clustal", "stockholm", "phylip"):
        assert ours_alignment([a, b], fmt) == bio_text([a, b], fmt)
    a.column_annotations["state"] = "DDDD"
    b.column_annotations["state"] = "D" * 90
    with pytest.raises(ValueError, match="single alignment"):
        ours_alignment([a, b], "a2m")


def test_other_formats_go_to_biopython(tmp_path):
    ids, rows = ["a", "b"], ["ACDE-FG", "AC-EKFG"]
    alignment = biopython_alignment(ids, rows, ["", ""])
    for rec in alignment.sequences:
        rec.annotations["molecule_type"] = "protein"
    for fmt in ("maf", "nexus"):
        assert ours_alignment(alignment, fmt) == bio_text(alignment, fmt)
    assert ours_rows(ids, rows, "maf") == bio_text(alignment, "maf")


@settings(max_examples=25, deadline=None)
@given(data=gapped_rows(), molecule=st.sampled_from(["protein", "DNA"]))
def test_nexus_is_biopythons_text(data, molecule):
    """NEXUS goes to Biopython's writer on the printed rows (its own walks the rows one by
    one, 80 s for 1,000 x 1,300): the same text, for one alignment and several."""
    ids, rows, descriptions = data
    ids = [f"s{i}" for i in range(len(ids))]   # NEXUS names: Biopython's writer quotes others
    alignment = biopython_alignment(ids, rows, descriptions)
    for rec in alignment.sequences:
        rec.annotations["molecule_type"] = molecule
    try:
        expected = bio_text(alignment, "nexus")
    except ValueError as exc:   # rows without a letter: Biopython's message, from ours too
        with pytest.raises(ValueError, match=re.escape(str(exc))):
            ours_alignment(alignment, "nexus")
        return
    assert ours_alignment(alignment, "nexus") == expected


def test_targets_path_stdout_handle(tmp_path, capsys):
    ids, rows = ["a", "b"], ["ACDE-FG", "AC-EKFG"]
    expected = bio_text(biopython_alignment(ids, rows, ["", ""]), "clustal")
    write_rows(tmp_path / "out.aln", ids, rows, "clustal")
    assert (tmp_path / "out.aln").read_text() == expected
    write_rows("-", ids, rows, "clustal")
    assert capsys.readouterr().out == expected
    assert not (tmp_path / "-").exists()
    with pytest.raises(ValueError):
        write_rows(tmp_path / "bad.aln", ids, ["ACD", "AC"], "clustal")
    assert not (tmp_path / "bad.aln").exists()


def test_large_alignment_with_many_segments_writes_quickly(tmp_path):
    """2,000 x 2,000 with ~2,000 coordinate segments (Biopython's writer takes minutes)."""
    rng = np.random.default_rng(0)
    k = length = 2000
    letters = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY", dtype=np.uint8)
    arr = letters[rng.integers(0, 20, (k, length))]
    arr[rng.random((k, length)) < 0.3] = ord("-")
    records = [SeqRecord(Seq(bytes(r[r != ord("-")])), id=f"s{i}", description="")
               for i, r in enumerate(arr)]
    alignment = alignment_from_rows(records, arr)
    assert alignment.coordinates.shape[1] > 1500
    assert (alignment_rows(alignment) == arr).all()
    for fmt in ("fasta", "clustal", "stockholm"):
        write_alignment(alignment, tmp_path / f"big.{fmt}", fmt)
    back = [str(r.seq) for r in SeqIO.parse(tmp_path / "big.fasta", "fasta")]
    assert back == [r.tobytes().decode() for r in arr]
    clustal = Align.read(str(tmp_path / "big.clustal"), "clustal")
    assert [r.id for r in clustal.sequences] == [f"s{i}" for i in range(k)]
    assert clustal.shape == (k, length)
    stockholm_rows = [line.split()[1] for line in (tmp_path / "big.stockholm").read_text()
                      .splitlines()[2:-1]]
    assert stockholm_rows == [r.tobytes().decode() for r in arr]


def test_description_after_id():
    from bioplug.io import description_after_id

    def rec(ident, desc):
        return SeqRecord(Seq("A"), id=ident, description=desc)

    assert description_after_id(rec("sp|P1|X", "sp|P1|X Kinase OS=Homo sapiens")) == \
        "Kinase OS=Homo sapiens"
    assert description_after_id(rec("a", "a\tb  c")) == "b  c"
    assert description_after_id(rec("a", "a")) == ""
    assert description_after_id(rec("a", "<unknown description>")) == ""
    assert description_after_id(rec("a", "")) == ""
    assert description_after_id(rec("a", "ab c")) == "ab c"        # not the id word
    assert description_after_id(rec("a", "made in code")) == "made in code"
    assert description_after_id(rec("", " x")) == " x"


def test_write_rows_keeps_columns_of_gaps_only_when_asked():
    """``keep_empty_columns`` (profile --keep-length) writes the rows as given, '.' as '-';
    a format bioplug does not lay out itself cannot hold such columns."""
    from bioplug.alignio import write_rows

    rows = ["MK--V.A", "MK--I-A"]
    out = io.StringIO()
    write_rows(out, ["a", "b"], rows, "fasta", keep_empty_columns=True)
    assert out.getvalue() == ">a\nMK--V-A\n>b\nMK--I-A\n"
    out = io.StringIO()
    write_rows(out, ["a", "b"], rows, "fasta")
    assert out.getvalue() == ">a\nMKVA\n>b\nMKIA\n"
    with pytest.raises(ValueError, match="not nexus"):
        write_rows(io.StringIO(), ["a", "b"], rows, "nexus", keep_empty_columns=True)


def test_clustal_files_name_clustal_for_other_readers(tmp_path):
    """bioplug's Clustal files start with the word CLUSTAL (Biopython's "Biopython 1.88
    multiple sequence alignment" line made Clustal Omega fail with "Parse error"); both that
    line and Biopython's are sniffed as Clustal (standard input has no extension)."""
    import shutil
    import subprocess

    from bioplug.io import sniff_format

    ids, rows = ["a", "b", "c"], ["ACDE-FGHIK", "AC-EKFGHIK", "ACDEKF--IK"]
    path = tmp_path / "out.aln"
    write_rows(path, ids, rows, "clustal")
    text = path.read_text()
    assert text.startswith("CLUSTAL ") and sniff_format(text) == "clustal"
    assert sniff_format(bio_text(biopython_alignment(ids, rows, [""] * 3), "clustal")) == \
        "clustal"
    assert sniff_format(f"Biopython {Bio.__version__} multiple sequence alignment\n") == \
        "clustal"
    if shutil.which("clustalo") is None:
        pytest.skip("Clustal Omega is not installed (apt-get install clustalo)")
    out = tmp_path / "back.fa"
    run = subprocess.run(["clustalo", "-i", str(path), "-o", str(out), "--force"],
                         capture_output=True, text=True)
    assert run.returncode == 0 and out.read_text().count(">") == 3, run.stderr


def conservation_by_definition(rows: list[str], protein: bool) -> str:
    """ClustalW's marks column by column, from the groups as the Clustal documentation
    lists them."""
    strong = ["STA", "NEQK", "NHQK", "NDEQ", "QHRK", "MILV", "MILF", "HY", "FYW"]
    weak = ["CSA", "ATV", "SAG", "STNK", "STPA", "SGND", "SNDEQK", "NDEQHK", "NEQHRK",
            "FVLIM", "HFY"]
    line = ""
    for column in zip(*rows, strict=True):
        letters = {c.upper() for c in column}
        if letters & {"-", "."}:
            line += " "
        elif len(letters) == 1:
            line += "*"
        elif protein and any(letters <= set(g) for g in strong):
            line += ":"
        elif protein and any(letters <= set(g) for g in weak):
            line += "."
        else:
            line += " "
    return line


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6).flatmap(lambda k: st.lists(
    st.text("STANEQKHRDMILVFYWCGPstan-.", min_size=12, max_size=12), min_size=k,
    max_size=k)), st.booleans())
def test_clustal_conservation_equals_its_definition(rows, protein):
    from bioplug.alignio import clustal_conservation

    assert clustal_conservation(rows, protein) == conservation_by_definition(rows, protein)


def test_clustal_files_of_the_commands_have_the_conservation_line(tmp_path):
    """``bioplug msa -o x.aln`` writes the line ClustalW and MAFFT print
    under each block, and Biopython reads it back as the consensus annotation."""
    from bioplug.alignio import clustal_conservation
    from bioplug.cli import main

    src = tmp_path / "p.fa"
    src.write_text(">a\nMKVLAAGIVGSTNQ\n>b\nMKILSAGIVGTTNE\n>c\nMRVLAAGLVGSSNQ\n")
    out = tmp_path / "p.aln"
    assert main(["-q", "msa", str(src), "-o", str(out), "--device", "cpu"]) == 0
    alignment = Align.read(out, "clustal")
    line = alignment.column_annotations["clustal_consensus"]
    assert line == clustal_conservation(list(alignment)) and "*" in line and ":" in line


@pytest.mark.skipif(shutil.which("clustalw") is None and shutil.which("mafft") is None,
                    reason="neither ClustalW nor MAFFT is on PATH: no oracle to compare with")
@pytest.mark.parametrize("seed", range(4))
def test_clustal_conservation_line_equals_clustalw_and_mafft(tmp_path, seed):
    """The conservation line of a protein alignment equals ClustalW 2.1's for the same rows
    (``clustalw -CONVERT -OUTPUT=CLUSTAL``) and MAFFT's (``mafft --clustalout`` on the rows
    MAFFT aligned itself); simulated families of 6 proteins, a third of the letters changed
    within ClustalW's groups or freely."""
    from bioplug.alignio import clustal_conservation

    rng = np.random.default_rng(seed)
    amino = "ACDEFGHIKLMNPQRSTVWY"
    root = "".join(rng.choice(list(amino), 80))
    family = ["".join(c if rng.random() > 0.35 else rng.choice(list(
        "STPA" if c in "STPA" else "FVLIM" if c in "FVLIM" else amino)) for c in root)
        for _ in range(6)]
    src = tmp_path / "family.fa"
    src.write_text("".join(f">p{k}\n{s}\n" for k, s in enumerate(family)))
    checked = 0
    if shutil.which("mafft"):
        fasta = subprocess.run(["mafft", "--quiet", str(src)], capture_output=True,
                               text=True, check=True).stdout
        clustal = subprocess.run(["mafft", "--quiet", "--clustalout", str(src)],
                                 capture_output=True, text=True, check=True).stdout
        rows = [str(r.seq) for r in SeqIO.parse(io.StringIO(fasta), "fasta")]
        theirs = Align.read(io.StringIO(clustal), "clustal").column_annotations
        assert clustal_conservation(rows) == theirs["clustal_consensus"]
        checked += 1
    if shutil.which("clustalw"):
        aligned = tmp_path / "aligned.fa"
        aligned.write_text("".join(f">p{k}\n{s}\n" for k, s in enumerate(
            [r + "-" * (len(max(family, key=len)) - len(r)) for r in family])))
        subprocess.run(["clustalw", f"-INFILE={aligned}", "-CONVERT", "-OUTPUT=CLUSTAL",
                        f"-OUTFILE={tmp_path / 'cw.aln'}"], capture_output=True, check=True)
        rows = [str(r.seq) for r in SeqIO.parse(aligned, "fasta")]
        theirs = Align.read(tmp_path / "cw.aln", "clustal").column_annotations
        assert clustal_conservation(rows) == theirs["clustal_consensus"]
        checked += 1
    assert checked >= 1


@pytest.mark.skipif(shutil.which("clustalw") is None,
                    reason="ClustalW is not on PATH: no oracle to compare with")
def test_msf_checksums_equal_clustalws(tmp_path):
    """Each row's checksum and the file's total equal ClustalW 2.1's MSF of the same rows
    (``clustalw -CONVERT -OUTPUT=GCG``), end gaps included (written ``.`` by both)."""
    from bioplug.alignio import write_rows

    ids = ["a1", "b22", "c333", "d4"]
    rows = ["--MKVLAAG-IVGSTNQ", "MKMKILSAGGIVGTT--", "----VLAAGLIVGSSNQ", "MKMRVLA--LVGSSNE-"]
    fasta = tmp_path / "rows.fa"
    fasta.write_text("".join(f">{i}\n{r}\n" for i, r in zip(ids, rows, strict=True)))
    subprocess.run(["clustalw", f"-INFILE={fasta}", "-CONVERT", "-OUTPUT=GCG",
                    f"-OUTFILE={tmp_path / 'cw.msf'}"], capture_output=True, check=True)
    ours = tmp_path / "ours.msf"
    write_rows(ours, ids, rows, "msf")

    def checks(path):
        text = path.read_text()
        rows = dict(re.findall(r"Name:\s+(\S+).*?Check:\s+(\d+)", text))
        total = re.search(r"MSF:.*?Check:\s+(\d+)", text).group(1)
        return rows, total

    assert checks(ours) == checks(tmp_path / "cw.msf")


def test_msf_is_read_back_with_gcg_checksums(tmp_path):
    """MSF (Biopython reads it but has no writer): the rows read back by Biopython, every gap
    written ``.``, and each row's GCG checksum as its definition computes it; a nucleotide
    alignment is typed N."""
    from bioplug.alignio import write_rows

    def checksum(row: str) -> int:
        return sum((i % 57 + 1) * ord(c.upper()) for i, c in enumerate(row)) % 10000

    for rows, kind in ((["MKV-LAWGHE" * 7, "MK-ILAWgh-" * 7, "-KVIL-WGHE" * 7], "P"),
                       (["ACGT-ACGTT" * 3, "ACG-TACGTA" * 3], "N")):
        path = tmp_path / "x.msf"
        ids = [f"s{i}" for i in range(len(rows))]
        write_rows(path, ids, rows, "msf")
        text = path.read_text()
        assert f"Type: {kind}" in text and "-" not in text.split("//")[1]
        assert list(Align.read(path, "msf")) == rows
        written = [r.replace("-", ".") for r in rows]
        for name, row in zip(ids, written, strict=True):
            assert f"Name: {name}  Len: {len(row):>6}  Check: {checksum(row):>4}" in text
        assert f"Check: {sum(map(checksum, written)) % 10000}  .." in text


@pytest.mark.skipif(shutil.which("hmmbuild") is None,
                    reason="HMMER (hmmbuild) is not on PATH: no oracle to compare with")
def test_hmmer_reads_every_format_it_knows_alike(tmp_path):
    """HMMER 3's hmmbuild (Easel's parsers) reads the family bioplug msa writes as Stockholm,
    A2M, aligned FASTA, Clustal and PHYLIP, and builds the same model from each: four
    sequences and one match-state count."""
    from bioplug.cli import main

    src = tmp_path / "input.fa"
    src.write_text(">a\nMKVLAAGIVGSTNQWERTY\n>b\nMKILSAGIVGTTNEWRY\n>c\nMRVLAAGLVGSSNQWEKTY\n"
                   ">d\nMKVLAGIVGSTNQWERTF\n")
    formats = {"sto": "stockholm", "a2m": "a2m", "fa": "afa", "aln": "clustal",
               "phy": "phylip"}
    models = {}
    for ext, informat in formats.items():
        out = tmp_path / f"family.{ext}"
        assert main(["-q", "msa", str(src), "-o", str(out), "--device", "cpu"]) == 0
        hmm = tmp_path / f"{ext}.hmm"
        subprocess.run(["hmmbuild", "--amino", "--informat", informat, str(hmm), str(out)],
                       check=True, capture_output=True)
        fields = dict(line.split(None, 1) for line in hmm.read_text().splitlines()
                      if line.startswith(("LENG", "NSEQ")))
        models[ext] = (fields["LENG"].strip(), fields["NSEQ"].strip())
    assert len(set(models.values())) == 1 and models["sto"][1] == "4", models
