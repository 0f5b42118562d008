"""``bioplug pairwise --format emboss``: EMBOSS needle / water's srspair report, read back by
Biopython's own EMBOSS parser (``Bio.Align.parse(handle, "emboss")``) and checked against the
alignments bioplug writes in other formats and against Biopython's scores."""

from __future__ import annotations

import io
import os
import shutil
import subprocess

import numpy as np
import pytest
from Bio import Align, SeqIO
from Bio.Align import substitution_matrices
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.cli import main

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
BLOSUM62 = substitution_matrices.load("BLOSUM62")


def pairs_file(tmp_path, seqs):
    path = tmp_path / "pairs.fa"
    path.write_text("".join(f">s{i}\n{s}\n" for i, s in enumerate(seqs)))
    return path


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), mode=st.sampled_from(["global", "local", "semiglobal"]))
def test_report_reads_back_as_the_alignments(tmp_path, seed, mode):
    rng = np.random.default_rng(seed)
    letters = list("ACDEFGHIKLMNPQRSTVWYX")
    base = "".join(rng.choice(letters, int(rng.integers(20, 130))))
    seqs = []
    for _ in range(3):   # three pairs of relatives
        other = list(base)
        for _ in range(len(other) // 5):
            other[int(rng.integers(len(other)))] = str(rng.choice(letters))
        cut = int(rng.integers(0, 10))
        seqs += [base[cut:], "".join(other)[:len(other) - cut] + "WW"]
    path = pairs_file(tmp_path, seqs)
    report, fasta = tmp_path / "out.txt", tmp_path / "out.fa"
    common = ["--matrix", "BLOSUM62", "--mode", mode, "--device", DEVICE]
    assert main(["-q", "pairwise", str(path), "-o", str(report), "--format", "emboss",
                 *common]) == 0
    assert main(["-q", "pairwise", str(path), "-o", str(fasta), *common]) == 0
    back = list(Align.parse(str(report), "emboss"))
    rows = [str(r.seq) for r in SeqIO.parse(fasta, "fasta")]
    assert len(back) == 3
    reference = Align.PairwiseAligner(mode="local" if mode == "local" else "global",
                                      substitution_matrix=BLOSUM62, open_gap_score=-10,
                                      extend_gap_score=-0.5)
    if mode == "semiglobal":
        reference.end_gap_score = 0
    for k, alignment in enumerate(back):
        top, bottom = alignment[0], alignment[1]
        if mode != "local":   # the whole rows, as the FASTA output has them
            assert (top, bottom) == (rows[2 * k], rows[2 * k + 1])
        assert top.replace("-", "") in seqs[2 * k] and bottom.replace("-", "") in seqs[2 * k + 1]
        assert alignment.annotations["Score"] == reference.score(seqs[2 * k], seqs[2 * k + 1])
        same = sum(a == b != "-" for a, b in zip(top, bottom, strict=True))
        assert alignment.annotations["Identity"] == same
        assert alignment.annotations["Gaps"] == sum("-" in (a, b)
                                                    for a, b in zip(top, bottom, strict=True))
    text = report.read_text()
    assert text.startswith("#" * 40 + "\n# Program: " + ("water" if mode == "local" else "needle"))


def test_markup_line_and_match_mismatch_scoring(tmp_path):
    path = pairs_file(tmp_path, ["ACGTACGTTA", "ACGAACGTA"])
    out = tmp_path / "dna.needle"   # the extension names the format
    assert main(["-q", "pairwise", str(path), "-o", str(out), "--match", "2", "--mismatch",
                 "-3", "--device", DEVICE]) == 0
    lines = out.read_text().splitlines()
    assert "# Matrix: match 2 / mismatch -3" in lines
    block = [ln for ln in lines if ln.startswith(("s0 ", "s1 ")) or ln.startswith(" " * 21)]
    top, marks, bottom = block[0][21:].split()[0], block[1][21:], block[2][21:].split()[0]
    expect = "".join(" " if "-" in (a, b) else "|" if a == b else "."
                     for a, b in zip(top, bottom, strict=True))
    assert marks == expect
    back = next(Align.parse(io.StringIO(out.read_text()), "emboss"))
    assert back.annotations["Similarity"] == back.annotations["Identity"]


def test_markup_line_as_emboss_draws_it(tmp_path):
    """EMBOSS 6.6 ``needle`` (EBLOSUM62, 10 / 0.5) on this pair prints the markup line below:
    it looks at the top residue, so X/X (identical, -1) and */* are spaces, X/L a space but
    L/X a '.'; the counts stay EMBOSS's (X/X identical, not similar)."""
    from bioplug.pairwise.emboss import markup, pair_stats

    rows = ("MKX*AXLWBZ*KRX", "MKX*LAXWBZKKRx")
    needle = "||  . .|||.|| "
    assert markup(rows, BLOSUM62) == needle
    stats = pair_stats(rows, BLOSUM62, 32.0)
    assert (stats.length, stats.identity, stats.similarity, stats.gaps) == (14, 10, 8, 0)
    path = pairs_file(tmp_path, rows)
    out = tmp_path / "xx.needle"
    assert main(["-q", "pairwise", str(path), "-o", str(out), "--format", "emboss",
                 "--matrix", "BLOSUM62", "--device", DEVICE]) == 0
    back = next(Align.parse(str(out), "emboss"))
    assert back.column_annotations["emboss_consensus"] == needle
    assert (back.annotations["Identity"], back.annotations["Similarity"]) == (10, 8)


def test_ids_with_colons_read_back(tmp_path, caplog):
    """Biopython's reader splits '# 1: name' at every ':'; ids such as chr1:100-200 are
    written with '_' (said on stderr) so that the report reads back."""
    path = tmp_path / "regions.fa"
    path.write_text(">chr1:100-120\nACGTACGTTAGCATCGATCG\n>chr2:5-24 x\nACGTACGATAGCATCGTTCG\n")
    out = tmp_path / "regions.needle"
    assert main(["pairwise", str(path), "-o", str(out), "--format", "emboss", "--matrix",
                 "NUC.4.4", "--device", DEVICE]) == 0
    back = next(Align.parse(str(out), "emboss"))
    assert [r.id for r in back.sequences] == ["chr1_100-120", "chr2_5-24"]
    assert "chr1:100-120 is written as chr1_100-120" in caplog.text


@pytest.mark.skipif(shutil.which("water") is None or shutil.which("needle") is None,
                    reason="EMBOSS (water, needle) is not on PATH: no oracle to compare with")
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mode", ["local", "global"])
def test_alignment_block_equals_emboss(tmp_path, seed, mode):
    """The report's alignment block and its Length / Identity / Similarity / Gaps / Score
    lines are EMBOSS's own, line for line: water for local, needle with end gaps weighed
    (-endweight) for global (Biopython's global scores end gaps; needle's default does not),
    BLOSUM62 (EMBOSS's EBLOSUM62 scores the 20 amino acids alike), gaps 10 / 0.5."""
    rng = np.random.default_rng(seed)
    amino = "ACDEFGHIKLMNPQRSTVWY"
    a = "".join(rng.choice(list(amino), int(rng.integers(40, 200))))
    b = "".join(c if rng.random() > 0.35 else rng.choice(list(amino)) for c in a)
    cut = len(b) // 3   # an insertion and a deletion
    b = b[:cut] + "".join(rng.choice(list(amino), int(rng.integers(1, 8)))) + \
        b[cut + int(rng.integers(1, 6)):]
    (tmp_path / "a.fa").write_text(f">a\n{a}\n")
    (tmp_path / "b.fa").write_text(f">b\n{b}\n")
    theirs, ours = tmp_path / "emboss.txt", tmp_path / "ours.txt"
    program = ["water"] if mode == "local" else ["needle", "-endweight", "-endopen", "10",
                                                  "-endextend", "0.5"]
    subprocess.run([*program, "-asequence", str(tmp_path / "a.fa"), "-bsequence",
                    str(tmp_path / "b.fa"), "-gapopen", "10", "-gapextend", "0.5", "-outfile",
                    str(theirs), "-auto"], check=True, capture_output=True)
    assert main(["-q", "pairwise", str(tmp_path / "a.fa"), str(tmp_path / "b.fa"), "-o",
                 str(ours), "--format", "emboss", "--mode", mode, "--matrix", "BLOSUM62",
                 "--gap-open", "10", "--gap-extend", "0.5", "--device", DEVICE]) == 0

    def compared(path):
        keep = ("# Length", "# Identity", "# Similarity", "# Gaps", "# Score")
        return [line for line in path.read_text().splitlines()
                if not line.startswith("#") or line.startswith(keep)]

    assert compared(ours) == compared(theirs)
