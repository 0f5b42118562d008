"""``bioplug align3`` end to end (PoCL; ``BIOPLUG_TEST_DEVICE=gpu`` for a GPU)."""

from __future__ import annotations

import io
import os
import sys

import pytest
from Bio import Align

import bioplug
from bioplug.cli import main

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
SEQS = {"a": "MKTAYIAKQRQISFVKSHFSRQ", "b": "MKTAYIAQRQISFVKSHFSRQLE",
        "c": "MKSAYIAKQRQISFVRSHFSR"}


def _fasta(path, items):
    path.write_text("".join(f">{k}\n{v}\n" for k, v in items))
    return path


def test_alignment_file_is_optimal(tmp_path):
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    out = tmp_path / "out.fa"
    rc = main(["-q", "align3", str(src), "-o", str(out), "--matrix", "BLOSUM62",
               "--open", "-10", "--extend", "-1", "--device", DEVICE])
    assert rc == 0
    aln = Align.read(str(out), "fasta")
    assert [r.id for r in aln.sequences] == ["a", "b", "c"]
    assert [aln[i].replace("-", "") for i in range(3)] == list(SEQS.values())
    want = bioplug.align_three(*SEQS.values(), substitution_matrix="BLOSUM62",
                               open_gap_score=-10, extend_gap_score=-1, device=DEVICE)
    assert [aln[i] for i in range(3)] == [want[i] for i in range(3)]


def test_clustal_format_and_score_only(tmp_path, capsys):
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    out = tmp_path / "out.aln"
    assert main(["-q", "align3", str(src), "-o", str(out), "--format", "clustal",
                 "--device", DEVICE]) == 0
    assert Align.read(str(out), "clustal").length >= 23
    assert main(["-q", "align3", str(src), "-o", "-", "--score-only", "--gap", "-2",
                 "--device", DEVICE]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed == str(bioplug.score_three(*SEQS.values(), gap_score=-2, device=DEVICE))


@pytest.mark.parametrize("name, fmt", [("out.aln", "clustal"), ("out.sto", "stockholm"),
                                       ("out.txt", "fasta")])
def test_output_format_follows_the_extension(tmp_path, name, fmt):
    """As msa, pairwise and progressive: bioplug reads back what it wrote (tree, score)."""
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    out = tmp_path / name
    assert main(["-q", "align3", str(src), "-o", str(out), "--device", DEVICE]) == 0
    aln = Align.read(str(out), fmt)
    assert [aln[i].replace("-", "") for i in range(3)] == list(SEQS.values())


def test_a_format_that_cannot_hold_three_rows_is_refused_first(tmp_path, capsys):
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    rc = main(["-q", "align3", str(src), "-o", str(tmp_path / "o.sam"), "--device", DEVICE])
    assert rc == 2 and "--format" in capsys.readouterr().err
    assert not (tmp_path / "o.sam").exists()


@pytest.mark.parametrize("count", [1, 2, 4])
def test_wrong_record_count_names_it(tmp_path, capsys, count):
    src = _fasta(tmp_path / "in.fa", [(f"s{i}", "ACGT") for i in range(count)])
    rc = main(["-q", "align3", str(src), "-o", str(tmp_path / "o.fa"), "--device", DEVICE])
    assert rc == 2
    err = capsys.readouterr().err
    assert f"holds {count} sequence record" in err and "exactly 3" in err
    assert not (tmp_path / "o.fa").exists()


def test_stdin_to_stdout(monkeypatch, capsys):
    text = "".join(f">{k}\n{v}\n" for k, v in SEQS.items())
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["-q", "align3", "-", "-o", "-", "--device", DEVICE]) == 0
    out = capsys.readouterr().out
    aln = Align.read(io.StringIO(out), "fasta")
    assert [aln[i].replace("-", "") for i in range(3)] == list(SEQS.values())


def test_bad_letter_names_record_position_and_letter(tmp_path, capsys):
    src = _fasta(tmp_path / "in.fa", [("x", "ACGT"), ("y", "AC9T"), ("z", "AGT")])
    assert main(["-q", "align3", str(src), "-o", str(tmp_path / "o.fa"),
                 "--device", DEVICE]) == 2
    err = capsys.readouterr().err
    assert "y" in err and "'9'" in err and "position 3" in err
    src = _fasta(tmp_path / "in2.fa", [("x", "MKV"), ("y", "MKV"), ("z", "MKJ")])
    assert main(["-q", "align3", str(src), "-o", str(tmp_path / "o.fa"), "--matrix",
                 "BLOSUM62", "--device", DEVICE]) == 2
    err = capsys.readouterr().err
    assert "z" in err and "'J'" in err and "position 3" in err


def test_gapped_input_is_aligned_without_its_gaps(tmp_path):
    src = _fasta(tmp_path / "in.fa", [("x", "AC-GT"), ("y", "A.CGT"), ("z", "ACG--")])
    out = tmp_path / "out.fa"
    assert main(["-q", "align3", str(src), "-o", str(out), "--device", DEVICE]) == 0
    aln = Align.read(str(out), "fasta")
    assert [aln[i].replace("-", "") for i in range(3)] == ["ACGT", "ACGT", "ACG"]


@pytest.mark.parametrize("sign", [1, -1])
def test_gap_values_are_penalties_of_either_sign(tmp_path, capsys, sign):
    """As in ``bioplug pairwise``, 3 and -3 both mean a gap score of -3 (a positive value was
    a bonus: an all-gap alignment)."""
    src = _fasta(tmp_path / "in.fa", [("a", "MKVLAQW"), ("b", "MKVLAQ"), ("c", "MKVIAQ")])
    for gaps in (["--gap", str(3 * sign)], ["--open", str(4 * sign), "--extend", str(sign)]):
        out = tmp_path / "out.fa"
        assert main(["-q", "align3", str(src), "-o", str(out), *gaps, "--device",
                     DEVICE]) == 0
        assert [Align.read(str(out), "fasta")[i] for i in range(3)] == [
            "MKVLAQW", "MKVLAQ-", "MKVIAQ-"]
    assert main(["-q", "align3", str(src), "-o", "-", "--score-only", "--gap", str(3 * sign),
                 "--device", DEVICE]) == 0
    want = bioplug.score_three("MKVLAQW", "MKVLAQ", "MKVIAQ", gap_score=-3, device=DEVICE)
    assert capsys.readouterr().out.strip() == str(want)


@pytest.mark.parametrize("extra", [[], ["--matrix", "BLOSUM62"]])
def test_letters_compared_without_case_and_written_as_given(tmp_path, capsys, extra):
    """Soft-masked (lower-case) residues score as upper case; the rows keep the input's
    letters."""
    items = [("a", "mkvLAQW"), ("b", "MKVlaq"), ("c", "MKVIAQ")]
    src = _fasta(tmp_path / "in.fa", items)
    out = tmp_path / "out.fa"
    assert main(["-q", "align3", str(src), "-o", str(out), *extra, "--device", DEVICE]) == 0
    assert [Align.read(str(out), "fasta")[i] for i in range(3)] == [
        "mkvLAQW", "MKVlaq-", "MKVIAQ-"]
    assert main(["-q", "align3", str(src), "-o", "-", "--score-only", *extra,
                 "--device", DEVICE]) == 0
    upper = _fasta(tmp_path / "upper.fa", [(k, v.upper()) for k, v in items])
    assert main(["-q", "align3", str(upper), "-o", "-", "--score-only", *extra,
                 "--device", DEVICE]) == 0
    lower_score, upper_score = capsys.readouterr().out.split()
    assert lower_score == upper_score


@pytest.mark.parametrize("options, named", [
    (["--matrix", "BLOSUM62", "--match", "2"], ["--matrix", "--match/--mismatch"]),
    (["--matrix", "BLOSUM62", "--mismatch", "-1"], ["--matrix", "--match/--mismatch"]),
    (["--gap", "2", "--open", "5", "--extend", "1"], ["--gap", "--open/--extend"]),
    (["--gap", "2", "--open", "5"], ["--gap", "--open/--extend"]),
    (["--gap", "2", "--extend", "1"], ["--gap", "--open/--extend"]),
    (["--open", "5"], ["--open needs --extend"]),
    (["--extend", "1"], ["--extend needs --open"]),
])
def test_conflicting_scoring_options_are_refused(tmp_path, capsys, options, named):
    """Options that would go unused, or be used in another meaning (``--gap`` as the
    extension of ``--open`` alone), are refused naming them, as ``pairwise`` refuses
    ``--matrix`` with ``--match``."""
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    out = tmp_path / "out.fa"
    assert main(["-q", "align3", str(src), "-o", str(out), *options, "--device",
                 DEVICE]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bioplug align3: error:") and err.count("\n") == 1
    assert all(name in err for name in named), err
    assert not out.exists()


@pytest.mark.parametrize("options", [["--matrix", "BLOSUM62", "--open", "10", "--extend", "1"],
                                     ["--match", "2", "--mismatch", "-1", "--gap", "2"], []])
def test_scoring_options_that_go_together(tmp_path, capsys, options):
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    assert main(["-q", "align3", str(src), "-o", "-", "--score-only", *options, "--device",
                 DEVICE]) == 0
    keywords = {"--matrix": "substitution_matrix", "--match": "match_score",
                "--mismatch": "mismatch_score", "--gap": "gap_score",
                "--open": "open_gap_score", "--extend": "extend_gap_score"}
    given = dict(zip(options[::2], options[1::2], strict=True))
    kw = {keywords[k]: v if k == "--matrix" else (float(v) if k in ("--match", "--mismatch")
                                                   else -float(v)) for k, v in given.items()}
    assert capsys.readouterr().out.strip() == str(bioplug.score_three(*SEQS.values(),
                                                                      device=DEVICE, **kw))


@pytest.mark.parametrize("budget, options, hint", [
    ("score", [], "the score alone fits: bioplug align3 --score-only"),
    ("none", [], "the score alone does not fit either"),
    ("none", ["--score-only"], "use a larger device or shorter sequences"),
])
def test_memory_message_fits_the_case(tmp_path, capsys, monkeypatch, budget, options, hint):
    """The message for faces that do not fit says whether the score alone would (it keeps
    a face per tile column, not per tile), and never suggests --score-only to a call that
    gave it (it said "score only needs less" to both)."""
    import bioplug.three.device as device_module
    from bioplug.runtime import get_runtime

    lengths = (400, 400, 400)
    plans = [device_module.Plan(lengths, shape) for shape in device_module.CPU_SHAPES[False]]
    score = min(sum(p.face_bytes(False, False).values()) for p in plans)
    assert score < min(sum(p.face_bytes(False, True).values()) for p in plans)
    # room for the score's faces and not the alignment's, or for neither
    allowed = score if budget == "score" else 1
    rt = get_runtime(DEVICE)
    monkeypatch.setattr(type(rt), "memory_budget", lambda self, fraction=0.5: allowed)
    src = _fasta(tmp_path / "in.fa", [(k, "MKVLAQW" * 57 + "M") for k in "abc"])
    assert main(["-q", "align3", str(src), "-o", "-", *options, "--device", DEVICE]) == 2
    err = capsys.readouterr().err
    assert hint in err and err.count("\n") == 1
    assert "score only needs less" not in err
    assert "--score-only" not in err or not options
