"""A3M (HH-suite, ColabFold and AlphaFold MSAs) read as an alignment and written back.

Biopython reads and writes no A3M. The oracles: rows expanded by hand for a small file, an
independent plain-Python expansion (each insert run left-justified and padded with ``-`` to
the longest run at its place, as HH-suite's ``reformat.pl a3m fas`` lays them out) for random
files, and Biopython's A2M writer (an A3M file is A2M text without the ``.`` insert gaps).
"""

from __future__ import annotations

import gzip
import io
import sys

import numpy as np
import pytest
from Bio import Align
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.cli import main
from bioplug.errors import InputError
from bioplug.io import (
    alignment_from_rows,
    check_writable,
    read_records,
    sniff_format,
    write_alignment,
)

# A ColabFold header, '.' insert gaps, insert runs before the first match column, in the
# middle and after the last, an all-match row, a row wrapped over two lines; ten match
# columns in every row
A3M = ("#10\t1\n"
       ">101 query\nMKVLAAGIVA\n"
       ">s1 start middle end\nmkMKVlaLAAG\nIVAc\n"
       ">s2\n.aMKVx.LAAG-VAddd\n"
       ">s3\n--VLAAqGIVA\n")
# by hand: insert widths 2 (before M), 2 (after V), 1 (after the second A), 3 (at the end)
EXPANDED = {"101": "--MKV--LAA-GIVA---",
            "s1": "mkMKVlaLAA-GIVAc--",
            "s2": "-aMKVx-LAA-G-VAddd",
            "s3": "----V--LAAqGIVA---"}


def _rows(records):
    return {r.id: str(r.seq) for r in records}


def test_a_hand_made_a3m_reads_as_its_expanded_rows(tmp_path):
    path = tmp_path / "t.a3m"
    path.write_text(A3M)
    records = read_records(path)
    assert _rows(records) == EXPANDED
    assert [r.description for r in records] == ["101 query", "s1 start middle end", "s2", "s3"]


def test_gzip_and_standard_input_and_a_colabfold_header_without_extension(tmp_path,
                                                                         monkeypatch):
    """``.a3m.gz`` by its name inside, standard input and an extension-less file by
    ColabFold's first line; plain FASTA still sniffs as FASTA."""
    packed = tmp_path / "t.a3m.gz"
    packed.write_bytes(gzip.compress(A3M.encode()))
    assert _rows(read_records(packed)) == EXPANDED
    bare = tmp_path / "colabfold_msa"
    bare.write_text(A3M)
    assert _rows(read_records(bare)) == EXPANDED
    monkeypatch.setattr(sys, "stdin", io.StringIO(A3M))
    assert _rows(read_records("-")) == EXPANDED
    assert sniff_format("#57,83\t1,1\n>101\t102\nMKV\n") == "a3m"
    for text, fmt in [(">101\nMKVaL\n>b\nMKVL\n", "fasta"), ("#10\t1\nMKV\n", "fasta"),
                      ("# STOCKHOLM 1.0\n", "stockholm"), ("#NEXUS\n", "nexus"),
                      ("#comment\n>a\nMK\n", "fasta")]:
        assert sniff_format(text) == fmt, text


def test_a_row_with_another_match_count_is_named(tmp_path, capsys):
    path = tmp_path / "bad.a3m"
    path.write_text(">q\nMKVLA\n>ok\nMKvVLA\n>broken desc\nMKVLAG\n")
    with pytest.raises(InputError) as err:
        read_records(path)
    assert str(err.value) == (
        f"{path}: not readable as a3m: broken: 6 match columns (upper-case letters and '-'), "
        "the first record (q) has 5: not an A3M alignment (record 3)")
    assert main(["-q", "score", str(path), str(path)]) == 2
    assert "broken: 6 match columns" in capsys.readouterr().err


def test_a_character_that_is_no_letter_is_named_at_its_place_in_the_file(tmp_path):
    path = tmp_path / "bad.a3m"
    path.write_text(">q\nMKVLA\n>b\nmkkMK1LA\n")
    with pytest.raises(InputError, match=r"b: letter '1' at position 6 is not a sequence"):
        read_records(path)


def _by_hand(match_rows: list[str], runs: list[list[str]]) -> list[str]:
    """Rows expanded in plain Python: each insert run left-justified and padded with ``-``
    to the longest at its place, ``.`` written ``-``."""
    widths = [max(len(r[s]) for r in runs) for s in range(len(match_rows[0]) + 1)]
    out = []
    for matches, row_runs in zip(match_rows, runs, strict=True):
        parts = [row_runs[0].ljust(widths[0], "-")]
        for s, letter in enumerate(matches, start=1):
            parts += [letter, row_runs[s].ljust(widths[s], "-")]
        out.append("".join(parts).replace(".", "-"))
    return out


@st.composite
def _a3m_files(draw):
    length = draw(st.integers(0, 8))
    k = draw(st.integers(1, 6))
    match_rows = [draw(st.text("ACDKW-", min_size=length, max_size=length)) for _ in range(k)]
    runs = [[draw(st.text("acdkw.", max_size=4)) for _ in range(length + 1)] for _ in range(k)]
    return match_rows, runs


@settings(max_examples=300, deadline=None)
@given(_a3m_files(), st.integers(1, 7))
def test_expansion_is_the_plain_python_one(tmp_path_factory, file, line_width):
    """Random match rows and insert runs (with ``.``): the rows read are the independent
    expansion; without the insert columns they are the match rows; each row's letters are
    its record's letters in order."""
    match_rows, runs = file
    texts = ["".join(r[0] + "".join(m + i for m, i in zip(matches, r[1:], strict=True)))
             for matches, r in zip(match_rows, runs, strict=True)]
    lines = ["#7\t1"]
    for i, text in enumerate(texts):
        lines.append(f">r{i}")
        lines += [text[j:j + line_width] for j in range(0, len(text), line_width)]
    path = tmp_path_factory.mktemp("a3m") / "x.a3m"
    path.write_text("\n".join(lines) + "\n")
    rows = [str(r.seq) for r in read_records(path)]
    assert rows == _by_hand(match_rows, runs)
    widths = [max(len(r[s]) for r in runs) for s in range(len(match_rows[0]) + 1)]
    match_columns = np.cumsum([w + 1 for w in widths])[:-1] - 1
    for row, matches, text in zip(rows, match_rows, texts, strict=True):
        assert "".join(row[c] for c in match_columns) == matches
        assert row.replace("-", "") == text.replace("-", "").replace(".", "")


def _alignment(rows: dict[str, str]):
    records = [SeqRecord(Seq(t.replace("-", "")), id=name) for name, t in rows.items()]
    return alignment_from_rows(records, list(rows.values()))


def test_written_back_as_a3m_and_a2m(tmp_path):
    """Read with insertions and written back: every column a match state (what bioplug's
    commands write), the insert letters come out upper case, as Biopython's A2M writer
    writes lower case in match columns; the A3M text is that A2M text. With the insert
    columns' states, the A3M text is Biopython's A2M without the ``.`` gaps, read back as
    the file's own rows."""
    path = tmp_path / "t.a3m"
    path.write_text(A3M)
    rows = _rows(read_records(path))
    alignment = _alignment(rows)
    alignment.column_annotations = {"state": "D" * alignment.length}
    theirs = format(alignment, "a2m")
    out = tmp_path / "out.a3m"
    write_alignment(alignment, out, "a3m")
    assert out.read_text() == theirs
    assert _rows(read_records(out)) == {k: v.upper() for k, v in rows.items()}
    state = "".join("I" if any(r[c].islower() for r in rows.values()) or
                    all(r[c] == "-" for r in rows.values()) else "D"
                    for c in range(alignment.length))
    alignment.column_annotations = {"state": state}
    theirs = format(alignment, "a2m")
    write_alignment(alignment, out, "a3m")
    expected = "".join(line.replace(".", "") if not line.startswith(">") else line
                       for line in theirs.splitlines(keepends=True))
    assert out.read_text() == expected
    assert out.read_text().splitlines()[5] == "aMKVxLAAG-VAddd"   # the file's s2, no '.'
    # A3M keeps no place of a '.' in an insertion: s2's run is left-justified again
    assert _rows(read_records(out)) == {**rows, "s2": "a-MKVx-LAA-G-VAddd"}


def test_every_command_accepts_a3m_outputs():
    for fmt in ("a3m", "A3M"):
        check_writable(fmt.lower(), 3, "out.a3m")


# -- the commands on an A3M input and with an A3M output ----------------------------------------
@pytest.fixture
def files(tmp_path):
    (tmp_path / "t.a3m").write_text(A3M)
    (tmp_path / "t.fa").write_text("".join(f">{k}\n{v}\n" for k, v in EXPANDED.items()))
    (tmp_path / "new.fa").write_text(">n\nMKVLAGIVA\n")
    (tmp_path / "x.fa").write_text(">a\nMKVLAAGIVALL\n>b\nMKVLGIVALL\n>c\nMKVAGIVALL\n")
    return tmp_path


def test_score_reads_an_a3m_as_its_expanded_alignment(files, capsys):
    assert main(["-q", "score", str(files / "t.a3m"), str(files / "t.fa")]) == 0
    assert capsys.readouterr().out == "SP 100.00\nTC 100.00\n"
    assert main(["-q", "score", str(files / "t.fa"), str(files / "t.a3m")]) == 0
    assert capsys.readouterr().out == "SP 100.00\nTC 100.00\n"


def test_tree_takes_an_a3m_as_an_alignment(files):
    """Alignment distances (identity over the expanded columns), the ones the expanded
    FASTA gives: not k-tuple distances of unaligned sequences (what an A3M without its '#'
    line gave, read as FASTA with rows of different lengths)."""
    (files / "bare.a3m").write_text(A3M.split("\n", 1)[1])
    for name in ("t.a3m", "bare.a3m", "t.fa"):
        assert main(["-q", "tree", str(files / name), "-o", str(files / f"{name}.nwk"),
                     "--distances-out", str(files / f"{name}.phy"), "--device", "cpu"]) == 0
    for name in ("t.a3m", "bare.a3m"):
        assert (files / f"{name}.phy").read_text() == (files / "t.fa.phy").read_text()
        assert (files / f"{name}.nwk").read_text() == (files / "t.fa.nwk").read_text()


def test_msa_aligns_the_sequences_of_an_a3m(files):
    """As any aligned input: its gaps removed, its letters (case kept) aligned."""
    out = files / "m.fa"
    assert main(["-q", "msa", str(files / "t.a3m"), "-o", str(out), "--device", "cpu"]) == 0
    got = {r.id: str(r.seq).replace("-", "") for r in read_records(out)}
    assert got == {k: v.replace("-", "") for k, v in EXPANDED.items()}


def test_profile_adds_to_an_a3m_and_writes_a3m(files):
    out = files / "added.a3m"
    assert main(["-q", "profile", str(files / "t.a3m"), "--add", str(files / "new.fa"),
                 "-o", str(out), "--device", "cpu"]) == 0
    rows = _rows(read_records(out))
    assert list(rows) == [*EXPANDED, "n"]
    kept = np.array([list(rows[k]) for k in EXPANDED])
    kept = kept[:, (kept != "-").any(axis=0)]   # the columns the new row alone opened
    assert ["".join(r) for r in kept] == [v.upper() for v in EXPANDED.values()]
    assert rows["n"].replace("-", "") == "MKVLAGIVA"


def test_msa_writes_a3m_read_back_as_written(files):
    """``-o out.a3m`` (was "cannot write format 'a3m'"): the A2M text of the alignment,
    read back as the same rows; ``--outdir --format a3m`` and align3 too."""
    fa, a3m, a2m = (files / f"m.{ext}" for ext in ("fa", "a3m", "a2m"))
    for out in (fa, a3m, a2m):
        assert main(["-q", "msa", str(files / "x.fa"), "-o", str(out), "--method",
                     "progressive", "--device", "cpu"]) == 0
    assert a3m.read_text() == a2m.read_text()
    assert _rows(read_records(a3m)) == _rows(read_records(fa))
    assert main(["-q", "msa", str(files / "x.fa"), "--outdir", str(files / "d"), "--format",
                 "a3m", "--method", "progressive", "--device", "cpu"]) == 0
    assert (files / "d" / "x.a3m").read_text() == a3m.read_text()
    three = files / "three.a3m"
    assert main(["-q", "align3", str(files / "x.fa"), "-o", str(three),
                 "--device", "cpu"]) == 0
    assert [r.id for r in read_records(three)] == ["a", "b", "c"]
    theirs = Align.read(three, "a2m")   # Biopython reads it as the A2M it is
    assert [theirs[i].replace("-", "") for i in range(3)] == [
        "MKVLAAGIVALL", "MKVLGIVALL", "MKVAGIVALL"]
