"""Plain FASTA read without Bio.SeqIO (bioplug.io.parse_fasta): the records Bio.SeqIO gives.

Commands read FASTA through :func:`bioplug.io.parse_fasta` so that a call does not import
Bio.SeqIO's format modules (about 0.06 s of start-up); other formats still go through Bio.SeqIO.
The oracle is Bio.SeqIO itself.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from Bio import SeqIO
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.errors import InputError
from bioplug.io import parse_fasta, read_records

ROOT = Path(__file__).resolve().parents[1]


def _fields(records):
    return [(r.id, r.name, r.description, bytes(r.seq), r.annotations, r.features,
             r.dbxrefs, r.letter_annotations) for r in records]


def _both(text: str):
    """(Bio.SeqIO's records or its ValueError, ours or ours)."""
    out = []
    for parse in (lambda h: list(SeqIO.parse(h, "fasta")), parse_fasta):
        try:
            out.append(_fields(parse(io.StringIO(text))))
        except ValueError:
            out.append(ValueError)
    return out


# titles and sequence lines with the characters that matter: '>', white space of every kind
# FASTA files carry, ';' and '#' (comments elsewhere), non-ASCII letters
_chars = st.sampled_from(list("ACDEWY acgt>;#\t\r-*.é|_1"))
_line = st.text(_chars, max_size=12)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.booleans(), _line), max_size=12))
def test_records_are_bio_seqios(lines):
    text = "".join((">" if title else "") + body + "\n" for title, body in lines)
    theirs, ours = _both(text)
    assert ours == theirs


@pytest.mark.parametrize("text", [
    "", ">", ">\n", ">a\n", ">a", ">a\nACD", ">a b  c \nAC D\r\nE\tF\n\n>b\n>c\n",
    ">a\n>b\nAA\n", " >a\nAC\n", "\n>a\nAC\n", ";c\n>a\nAC\n", ">sp|P1|X kinase\nMK\n",
    ">a\nAé\n",
])
def test_edge_cases_are_bio_seqios(text):
    theirs, ours = _both(text)
    assert ours == theirs


def test_read_records_reads_fasta_as_bio_seqio_does(tmp_path):
    path = tmp_path / "f.fasta"
    path.write_text(">x one\nMKV\nLL\n>y\nAC-D\n")
    assert _fields(read_records(path)) == _fields(SeqIO.parse(path, "fasta"))
    bad = tmp_path / "bad.fasta"
    bad.write_text("# comment\n>x\nMK\n")
    with pytest.raises(InputError, match="not readable as fasta"):
        read_records(bad)


def test_an_msa_call_does_not_import_bio_seqio(tmp_path):
    """The start-up it saves: a FASTA in, FASTA out ``bioplug msa`` imports no Bio.SeqIO."""
    out = tmp_path / "out.fasta"
    code = ("import sys\nfrom bioplug.cli import main\n"
            f"rc = main(['-q', '--no-server', 'msa', {str(ROOT / 'examples' / 'BB11001.fasta')!r},"
            f" '-o', {str(out)!r}, '--device', 'cpu'])\n"
            "print(rc, 'Bio.SeqIO' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout.split() == ["0", "False"], proc.stderr
    assert out.read_text().count(">") == 4


@pytest.mark.parametrize("first, fmt", [
    ("CLUSTAL W (1.83) multiple sequence alignment", "clustal"),
    ("MUSCLE (3.8) multiple sequence alignment", "clustal"),
    ("# STOCKHOLM 1.0", "stockholm"), ("#nexus", "nexus"), (">seq1 title", "fasta"),
    ("@read1", "fastq"), (" 3 12", "phylip"), ("LOCUS       X 12 bp", "genbank"),
    ("some text", "fasta")])
def test_sniffed_formats(first, fmt):
    from bioplug.io import sniff_format

    assert sniff_format(f"\n\n{first}\nrest\n") == fmt


def test_a_clustal_file_without_its_extension_reads_as_clustal(tmp_path, monkeypatch):
    """Standard input and files whose extension names no format are read in the format their
    first line announces (they were read as FASTA and refused)."""
    import io as _io
    import sys

    from bioplug.io import read_records

    text = "CLUSTAL W\n\na   AC-GT\nb   ACAGT\n"
    path = tmp_path / "family.txt"
    path.write_text(text)
    assert [str(r.seq) for r in read_records(path)] == ["AC-GT", "ACAGT"]
    monkeypatch.setattr(sys, "stdin", _io.StringIO(text))
    assert [r.id for r in read_records("-")] == ["a", "b"]
    fasta = tmp_path / "plain"
    fasta.write_text(">x\nACGT\n")
    assert [str(r.seq) for r in read_records(fasta)] == ["ACGT"]


@pytest.mark.parametrize("ext", [".a2m", ".maf", ".aln", ".sto", ".phy", ".nex"])
def test_bioplug_reads_back_the_alignment_formats_it_writes(tmp_path, ext):
    """The formats ``-o`` writes by extension are read again by the same extension (a2m was
    "Unknown format", maf read as FASTA)."""
    from Bio import Align
    from Bio.Seq import Seq as _Seq
    from Bio.SeqRecord import SeqRecord as _Rec

    from bioplug.io import output_format, read_records, write_alignment

    rows = ["MKVLLAGH", "MKVELLAH", "MKV-LAGH"]
    records = [_Rec(_Seq(r.replace("-", "")), id=f"s{i}",
                    annotations={"molecule_type": "protein"}) for i, r in enumerate(rows)]
    _, coords = Align.Alignment.parse_printed_alignment([r.encode() for r in rows])
    alignment = Align.Alignment(records, coords)
    alignment.column_annotations = {"state": "D" * alignment.length}  # a2m's match states
    path = tmp_path / f"aln{ext}"
    write_alignment(alignment, path, output_format(path))
    got = read_records(path)
    assert [r.id for r in got] == ["s0", "s1", "s2"]
    assert [str(r.seq).upper().replace(".", "-") for r in got] == rows


def test_a2m_insert_residues_keep_their_lower_case(tmp_path):
    """A2M marks insert-state residues by lower case; Biopython's reader upper-cases them
    (the case goes to ``column_annotations["state"]``): bioplug gives back the file's
    letters, never changed."""
    from bioplug.io import read_records

    path = tmp_path / "hmm.a2m"
    path.write_text(">a\nMKVLAgaGIVAL\n>b\nMKVLA..GIVAL\n>c\nMKV-Ac.GIVAL\n")
    assert [str(r.seq) for r in read_records(path)] == [
        "MKVLAgaGIVAL", "MKVLA--GIVAL", "MKV-Ac-GIVAL"]
    path.write_text(">a\nMKVL\n>b\nmKVL\n")   # a column both match and insert
    with pytest.raises(InputError, match="not readable as a2m"):
        read_records(path)


def test_stockholm_extensions_and_malformed_annotation(tmp_path):
    """``.stk`` / ``.sth`` (Rfam's and Easel's names) are Stockholm both ways; a ``#=GR``
    line of the wrong length is an input error naming the file, not a TypeError."""
    from bioplug.io import input_format, output_format, read_records

    assert output_format("out.stk") == output_format("out.sth") == "stockholm"
    assert input_format(tmp_path / "in.stk") == "stockholm"
    path = tmp_path / "bad.sth"
    path.write_text("# STOCKHOLM 1.0\na MKV-L\nb MKVAL\n#=GR a PP 99\n//\n")
    with pytest.raises(InputError, match="bad.sth: not readable as stockholm"):
        read_records(path)


def test_a_stockholm_file_of_several_alignments_is_named_as_such(tmp_path):
    """A Pfam-style file of families was read as one family ("duplicate sequence ids")."""
    from bioplug.io import read_records

    one = "# STOCKHOLM 1.0\na MKV-L\nb MKVAL\n//\n"
    path = tmp_path / "fams.sto"
    path.write_text(one)
    assert [str(r.seq) for r in read_records(path)] == ["MKV-L", "MKVAL"]
    path.write_text(one + one)
    with pytest.raises(InputError, match="fams.sto: not readable as stockholm: 2 alignments"):
        read_records(path)
