"""Letters that are no sequence letters: refused at the file door by the CLI (PoCL).

Non-ASCII characters (``MKTÄYIAKQR``) are refused by :func:`bioplug.io.read_records` for every
command; ``#``, digits and other punctuation by ``bioplug pairwise`` in every scoring mode.
The drop-in :class:`bioplug.PairwiseAligner` keeps Biopython's behaviour (any letter).
"""

from __future__ import annotations

import io
import re
import sys

import pytest
from Bio import Align
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.alphabet import SEQUENCE_LETTERS, check_sequence_letters
from bioplug.cli import main
from bioplug.errors import InputError
from bioplug.io import read_records

PROTEINS = ["MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ", "MKTAYIAKQRQISFVKSHFSRQLEEKLGLIEVQ",
            "MKSAYIAKQRQISFVKSHFSRQLEERLGLIEVQ", "MKTAYIAKQRQLSFVKSHFSRQLEERLGLIEVQ"]


def _fasta(path, seqs):
    path.write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(seqs)), encoding="utf-8")
    return path


def _run(argv, capsys, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = main(["-q", *argv])
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def _commands(src, out):
    return {
        "msa": ["msa", str(src), "-o", str(out), "--device", "cpu"],
        "tree": ["tree", str(src), "-o", str(out), "--device", "cpu"],
        "pairwise": ["pairwise", str(src), "-o", str(out), "--device", "cpu"],
        "pairwise-all": ["pairwise", str(src), "-o", str(out), "--all-vs-all", "--device", "cpu"],
    }


@pytest.mark.parametrize("command", ["msa", "tree", "pairwise", "pairwise-all"])
def test_non_ascii_letter_refused(tmp_path, capsys, command):
    seqs = list(PROTEINS)
    seqs[2] = "MKTÄYIAKQR" + seqs[2][10:]
    src = _fasta(tmp_path / "in.fa", seqs)
    out = tmp_path / "out.txt"
    rc, stdout, err = _run(_commands(src, out)[command], capsys)
    assert rc == 2
    assert "Traceback" not in err and stdout == ""
    assert "s2" in err and "'Ä'" in err and "position 4" in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_non_ascii_from_stdin(capsys, monkeypatch):
    text = "".join(f">s{k}\n{s}\n" for k, s in enumerate(PROTEINS[:3] + ["MKTAYIAKQRé"]))
    rc, stdout, err = _run(["msa", "-", "-o", "-", "--device", "cpu"], capsys, text, monkeypatch)
    assert rc == 2 and stdout == ""
    assert "standard input" in err and "s3" in err and "'é'" in err and "position 11" in err


def test_read_records_names_character(tmp_path):
    src = _fasta(tmp_path / "in.fa", ["ACGT", "AC😀GT"])
    with pytest.raises(InputError, match=r"s1: letter '😀' at position 3"):
        read_records(src)
    latin = tmp_path / "latin1.fa"
    latin.write_bytes(b">x\nMKT\xc4YI\n")
    with pytest.raises(InputError, match=r"x: letter 'Ä' at position 4"):  # read as Latin-1
        read_records(latin)


def test_a_bom_and_latin1_titles_are_read(tmp_path, caplog, capsys, monkeypatch):
    """A UTF-8 byte-order mark (Windows editors write one) is skipped; a title that is not
    UTF-8 (older tools write Latin-1) is read as Latin-1 with a warning naming its line, as
    mafft and Clustal Omega read it: from a file and from standard input."""
    bom = tmp_path / "bom.fa"
    bom.write_bytes(b"\xef\xbb\xbf>a one\nACGTACGTAC\n>b\nACGTACGAC\n")
    assert [(r.id, r.description, str(r.seq)) for r in read_records(bom)] == [
        ("a", "a one", "ACGTACGTAC"), ("b", "b", "ACGTACGAC")]
    latin = tmp_path / "latin1.fa"
    latin.write_bytes(b">a\nACGTACGTAC\n>b caf\xe9\nACGTACGAC\n")
    assert [r.description for r in read_records(latin)] == ["a", "b café"]
    assert "latin1.fa: line 3 is not UTF-8 text (byte 0xe9)" in caplog.text

    class Stdin:   # bytes beneath, as a pipe gives them
        buffer = io.BytesIO(latin.read_bytes())

    monkeypatch.setattr("sys.stdin", Stdin)
    assert [r.description for r in read_records("-")] == ["a", "b café"]
    assert "standard input: line 3 is not UTF-8 text" in caplog.text


@pytest.mark.parametrize("letter", ["#", "3", "!", "+", "~"])
@pytest.mark.parametrize("mode", [[], ["--mode", "local"], ["--mode", "semiglobal"],
                                  ["--all-vs-all"], ["--matrix", "BLOSUM62"]])
def test_pairwise_refuses_non_sequence_letters(tmp_path, capsys, letter, mode):
    src = _fasta(tmp_path / "in.fa", ["ACDEFGHIK", f"ACD{letter}FGHIK"])
    out = tmp_path / ("scores.tsv" if "--all-vs-all" in mode else "out.fa")
    rc, stdout, err = _run(["pairwise", str(src), "-o", str(out), "--device", "cpu", *mode],
                           capsys)
    assert rc == 2 and stdout == ""
    assert f"s1: letter {letter!r} at position 4" in err
    assert not out.exists()


def test_pairwise_refuses_in_second_file(tmp_path, capsys):
    a = _fasta(tmp_path / "a.fa", PROTEINS[:2])
    b = _fasta(tmp_path / "b.fa", ["MKTAYIAKQR", "MKTAYIAKQR7"])
    rc, _, err = _run(["pairwise", str(a), str(b), "-o", str(tmp_path / "o.fa"),
                       "--device", "cpu"], capsys)
    assert rc == 2
    assert f"{b}: s1: letter '7' at position 11" in err


def test_pairwise_accepts_sequence_letters(tmp_path, capsys):
    """Lower case, ``*`` and the gaps ``-`` / ``.`` are accepted: the gaps are removed (as msa
    removes them) and letters compare without case, scored as Biopython scores the upper-case,
    ungapped sequences."""
    seqs = ["ACDEFGHIK*", "acd-fg.hik*"]
    src = _fasta(tmp_path / "in.fa", seqs)
    out = tmp_path / "m.tsv"
    rc, _, err = _run(["pairwise", str(src), "-o", str(out), "--all-vs-all",
                       "--match", "2", "--mismatch", "-1", "--device", "cpu"], capsys)
    assert rc == 0, err
    rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    oracle = Align.PairwiseAligner(match_score=2, mismatch_score=-1, open_gap_score=-10,
                                   extend_gap_score=-0.5)
    plain = seqs[1].replace("-", "").replace(".", "").upper()
    assert float(rows[0][2]) == oracle.score(seqs[0], plain) == 8.0


def test_drop_in_aligner_keeps_biopython_alphabet():
    """The Python class takes any letters with match/mismatch, as Biopython does."""
    from bioplug import PairwiseAligner

    a, b = "ACD#FGHIK", "AC3D#FGHK!"
    mine = PairwiseAligner(device="cpu", match_score=2, mismatch_score=-1,
                           open_gap_score=-2, extend_gap_score=-1)
    oracle = Align.PairwiseAligner(match_score=2, mismatch_score=-1,
                                   open_gap_score=-2, extend_gap_score=-1)
    assert mine.score(a, b) == oracle.score(a, b)
    assert mine.align_many([a], [b])[0].score == oracle.score(a, b)


_BAD = re.compile(r"[^A-Za-z.*\-]")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(SEQUENCE_LETTERS + "#0129 !_~+/\\|\t\r\nÄé😀\x00\x7f"),
               max_size=40))
def test_check_sequence_letters_property(text):
    bad = _BAD.search(text)
    if bad is None:
        check_sequence_letters(text, "x")
        return
    with pytest.raises(InputError) as info:
        check_sequence_letters(text, "x")
    assert str(info.value).startswith(
        f"x: letter {bad.group()!r} at position {bad.start() + 1} is not a sequence letter")
