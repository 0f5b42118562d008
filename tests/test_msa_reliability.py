"""Column and residue reliability of QuickProbs alignments (``bioplug msa --reliability`` /
``--annot``): the device's sums against a plain-Python walk over the stored posteriors, the
Stockholm annotation lines against Biopython's writer and reader, and the CLI's checks."""

from __future__ import annotations

import io
import math
import os

import numpy as np
import pytest
from Bio import Align
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_msa_stages import family, posteriors_of

from bioplug import MultipleSequenceAligner
from bioplug.alignio import _alignment_text
from bioplug.cli import main
from bioplug.msa.consistency import relax
from bioplug.msa.guide import clustalw_weights, guide_tree
from bioplug.msa.progressive import ProfileAligner
from bioplug.msa.reliability import pp_text, pp_values, reliability
from bioplug.runtime import get_runtime

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")


@pytest.fixture(scope="module")
def rt():
    return get_runtime(DEVICE)


def reference(store, colmap, seq_start, length):
    """Mean posterior per column and per residue (with the gap case), walked pair by pair
    and row by row."""
    col_sum, col_n = np.zeros(length), np.zeros(length)
    res_sum, res_n = np.zeros(seq_start[-1]), np.zeros(seq_start[-1])
    for p, (x, y) in enumerate(zip(store.pair_x, store.pair_y, strict=True)):
        where_y = {int(colmap[seq_start[y] + j]): j for j in range(seq_start[y + 1] - seq_start[y])}
        for i in range(seq_start[x + 1] - seq_start[x]):
            c = int(colmap[seq_start[x] + i])
            row = store.row_base[p] + i
            a, b = store.indptr[row], store.indptr[row + 1]
            entries = dict(zip(store.cols[a:b].tolist(), store.vals[a:b].tolist(), strict=True))
            if c not in where_y:   # across from a gap: the posterior of pairing with nothing
                res_sum[seq_start[x] + i] += min(max(1.0 - sum(entries.values()), 0.0), 1.0)
                res_n[seq_start[x] + i] += 1
                continue
            v = min(entries.get(where_y[c], 0.0), 1.0)
            col_sum[c] += v
            col_n[c] += 1
            res_sum[seq_start[x] + i] += v
            res_n[seq_start[x] + i] += 1
    with np.errstate(invalid="ignore"):
        return col_sum / np.where(col_n, col_n, np.nan), res_sum / np.where(res_n, res_n, np.nan)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), k=st.integers(2, 6), n=st.integers(5, 40))
def test_device_sums_equal_a_walk_over_the_posteriors(rt, seed, k, n):
    seqs = family(seed, k, n)
    _, _, dist, store = posteriors_of(rt, seqs)
    ia, ib = np.triu_indices(k, 1)
    dm = np.zeros((k, k))
    dm[ia, ib] = dm[ib, ia] = dist
    link = guide_tree(dm, rt)
    weights = clustalw_weights(link, k)
    store = relax(rt, store, weights, np.arange(k), 2)
    aligner = ProfileAligner(rt, store, weights)
    _, length = aligner.progressive(link)
    columns, residues = reliability(aligner, length)
    want_c, want_r = reference(store, aligner.colmap, aligner.seq_start, length)
    np.testing.assert_allclose(columns, want_c, atol=1e-5)   # single-precision sums
    np.testing.assert_allclose(residues, want_r, atol=1e-5)
    occupied = np.bincount(aligner.colmap, minlength=length)
    assert np.array_equal(np.isnan(columns), occupied < 2)   # one residue: no pair
    assert not np.isnan(residues).any() and (residues <= 1 + 1e-6).all()


def test_pp_text_is_hmmers_code():
    values = np.array([0.0, 0.049, 0.05, 0.149, 0.5, 0.849, 0.85, 0.9499, 0.95, 1.0, np.nan])
    assert pp_text(values) == "00115899**."


def test_pp_text_takes_one_value_and_values_out_of_range():
    """One number is one character (it was "'numpy.uint8' object does not support item
    assignment"); rounding slips past 0 and 1, and infinities, are the ends of the code,
    without numpy's overflow warning."""
    import warnings

    assert pp_text(0.5) == "5" and pp_text(np.float32(0.97)) == "*" and pp_text([]) == ""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pp_text([-1e-9, 1 + 1e-7, np.inf, -np.inf, np.nan]) == "0**0."


def test_alignment_carries_the_annotation_and_stockholm_writes_it(tmp_path):
    records = [">a\nMKVLAAGIVALLLSAGCSSSKEETW\n", ">b\nMKILAAGIVGLLLAGCSSKEETW\n",
               ">c\nMRVLSAGIVALLISAGCSQKEDTW\n", ">d\nMKVLAGIVALLSAGCSSSKEW\n"]
    path = tmp_path / "fam.fa"
    path.write_text("".join(records))
    plain = MultipleSequenceAligner(device=DEVICE).align(str(path))
    annotated = MultipleSequenceAligner(device=DEVICE, reliability=True).align(str(path))
    assert [str(r) for r in annotated] == [str(r) for r in plain]   # the same alignment
    values = annotated.column_reliability
    assert values.shape == (annotated.length,) and np.nanmax(values) <= 1.0
    text = annotated.column_annotations["consensus posterior probability"]
    assert text == pp_text(values)
    for record in annotated.sequences:
        assert len(record.letter_annotations["posterior probability"]) == len(record.seq)
    handle = io.StringIO()
    Align.write(annotated, handle, "stockholm")
    assert "".join(_alignment_text(annotated, "stockholm")) == handle.getvalue()
    back = Align.read(io.StringIO(handle.getvalue()), "stockholm")
    assert back.column_annotations["consensus posterior probability"] == text
    assert [r.letter_annotations["posterior probability"] for r in back.sequences] == [
        r.letter_annotations["posterior probability"] for r in annotated.sequences]


def test_cli_annot_table_and_checks(tmp_path, capsys):
    records = "".join(f">s{i}\n{s}\n" for i, s in enumerate(family(3, 5, 40)))
    path = tmp_path / "fam.fa"
    path.write_text(records)
    out, table = tmp_path / "out.sto", tmp_path / "annot.tsv"
    assert main(["-q", "msa", str(path), "-o", str(out), "--annot", str(table),
                 "--device", DEVICE]) == 0
    alignment = MultipleSequenceAligner(device=DEVICE, reliability=True).align(str(path))
    lines = table.read_text().splitlines()
    assert lines[0] == "column\treliability\tresidues"
    assert len(lines) == alignment.length + 1
    for line, value, column in zip(lines[1:], alignment.column_reliability,
                                   np.array([list(str(r)) for r in alignment]).T, strict=True):
        number, shown, residues = line.split("\t")
        assert int(residues) == sum(ch != "-" for ch in column)
        # cut to three decimals (test_annot_numbers_agree_with_the_pp_cons_code)
        assert shown == "NA" if math.isnan(value) else 0 <= value - float(shown) < 0.001 + 1e-9
    assert "#=GC PP_cons" in out.read_text()
    for extra, message in ((["--method", "progressive"], "QuickProbs options"),
                           (["--cluster"], "not with --cluster")):
        gone = tmp_path / "gone.tsv"
        assert main(["-q", "msa", str(path), "-o", str(tmp_path / "x.sto"), "--annot",
                     str(gone), *extra, "--device", DEVICE]) == 2
        assert message in capsys.readouterr().err and not gone.exists()
    assert main(["-q", "msa", str(path), "--outdir", str(tmp_path / "d"), "--annot",
                 str(tmp_path / "a.tsv"), "--device", DEVICE]) == 2
    assert "not with --outdir" in capsys.readouterr().err


def test_viewer_reads_the_reliability_of_a_stockholm_file(tmp_path):
    """The desktop app's reliability track reads ``#=GC PP_cons`` back (HMMER's code)."""
    pytest.importorskip("PySide6")
    from bioplug.gui.documents import load_file

    path = tmp_path / "fam.fa"
    path.write_text("".join(f">s{i}\n{s}\n" for i, s in enumerate(family(5, 4, 30))))
    out = tmp_path / "out.sto"
    assert main(["-q", "msa", str(path), "-o", str(out), "--reliability", "--device",
                 DEVICE]) == 0
    data = load_file(out)
    text = data.alignment.column_annotations["consensus posterior probability"]
    np.testing.assert_array_equal(data.column_reliability, pp_values(text))
    assert pp_text(np.nan_to_num(pp_values("09*.5"), nan=np.nan)) == "09*.5"


def test_auto_keeps_quickprobs_for_reliability_and_says_so(tmp_path, monkeypatch, caplog):
    """--method auto on a family it would give the progressive pipeline (above 300 proteins;
    here above 3) keeps the QuickProbs pipeline for --reliability, said on stderr (it is many
    times slower), one file or a batch; without --reliability it still switches."""
    import logging

    import bioplug.msa.cli as msa_cli

    monkeypatch.setattr(msa_cli, "AUTO_PROGRESSIVE_PROTEIN_K", 3)
    caplog.set_level(logging.WARNING)
    path = tmp_path / "fam.fa"
    path.write_text("".join(f">s{i}\n{s}\n" for i, s in enumerate(family(7, 5, 30))))
    out = tmp_path / "out.sto"
    assert main(["-q", "msa", str(path), "-o", str(out), "--reliability",
                 "--device", DEVICE]) == 0
    assert "#=GC PP_cons" in out.read_text()
    said = "5 protein sequences: aligning with the QuickProbs pipeline, since --reliability"
    assert said in caplog.text and "aligning with --method progressive" not in caplog.text
    caplog.clear()
    assert main(["-q", "msa", str(path), "--outdir", str(tmp_path / "d"), "--format",
                 "stockholm", "--reliability", "--device", DEVICE]) == 0
    assert said in caplog.text and "#=GC PP_cons" in (tmp_path / "d" / "fam.sto").read_text()
    caplog.clear()
    assert main(["-q", "msa", str(path), "-o", str(tmp_path / "plain.sto"),
                 "--device", DEVICE]) == 0
    assert "5 protein sequences: aligning with --method progressive (above 3" in caplog.text


@pytest.mark.parametrize("fmt", ["fasta", "clustal", "a2m", "a3m", "phylip", "nexus"])
def test_formats_without_annotation_lines_say_so(tmp_path, caplog, fmt):
    """--reliability to a format with no annotation lines writes the plain alignment and says
    on stderr that the reliabilities are not written; Stockholm and --annot say nothing."""
    import logging

    caplog.set_level(logging.WARNING)
    path = tmp_path / "fam.fa"
    path.write_text("".join(f">s{i}\n{s}\n" for i, s in enumerate(family(9, 4, 25))))
    plain, annotated = tmp_path / "plain.out", tmp_path / "annotated.out"
    for out, extra in ((plain, []), (annotated, ["--reliability"])):
        assert main(["-q", "msa", str(path), "-o", str(out), "--format", fmt, *extra,
                     "--device", DEVICE]) == 0
    assert annotated.read_bytes() == plain.read_bytes()
    assert f"--reliability: {fmt} output has no annotation lines" in caplog.text
    caplog.clear()
    assert main(["-q", "msa", str(path), "-o", str(tmp_path / "a.sto"), "--reliability",
                 "--device", DEVICE]) == 0
    assert main(["-q", "msa", str(path), "-o", str(annotated), "--format", fmt, "--annot",
                 str(tmp_path / "a.tsv"), "--device", DEVICE]) == 0
    assert "no annotation lines" not in caplog.text


def test_quickprobs_aligns_along_a_given_guide_tree(tmp_path, caplog):
    """``--guide-tree`` with the QuickProbs pipeline (as Clustal Omega's --guidetree-in):
    the tree written back is the one given, and auto no longer switches methods for it."""
    import logging

    from skbio import TreeNode

    seqs = family(11, 6, 40)
    path = tmp_path / "fam.fa"
    path.write_text("".join(f">s{i}\n{s}\n" for i, s in enumerate(seqs)))
    given = "((s0,(s5,s3)),((s1,s4),s2));"
    tree = tmp_path / "given.nwk"
    tree.write_text(given + "\n")
    out_tree = tmp_path / "used.nwk"
    caplog.set_level(logging.WARNING)
    assert main(["-q", "msa", str(path), "-o", str(tmp_path / "out.fa"), "--guide-tree",
                 str(tree), "--tree-out", str(out_tree), "--device", DEVICE]) == 0
    assert "aligning with --method progressive" not in caplog.text
    used = TreeNode.read(str(out_tree), convert_underscores=False)
    assert used.compare_rfd(TreeNode.read([given])) == 0
    own = MultipleSequenceAligner(device=DEVICE).align(str(path))
    along = MultipleSequenceAligner(device=DEVICE).align(str(path), guide_tree=given)
    assert TreeNode.read([along.guide_tree]).compare_rfd(TreeNode.read([given])) == 0
    assert TreeNode.read([own.guide_tree]).compare_rfd(TreeNode.read([given])) > 0 or \
        [str(r) for r in own] == [str(r) for r in along]


def test_tree_keeps_only_reliable_columns(tmp_path, capsys):
    """``bioplug tree ALN.sto --min-reliability X`` builds the tree the alignment cut by hand
    to its columns of PP_cons X or more gives; without the annotation it is refused."""
    path = tmp_path / "fam.fa"
    path.write_text("".join(f">s{i}\n{s}\n" for i, s in enumerate(family(11, 6, 60))))
    sto = tmp_path / "aln.sto"
    assert main(["-q", "msa", str(path), "-o", str(sto), "--reliability",
                 "--device", DEVICE]) == 0
    alignment = Align.read(str(sto), "stockholm")
    code = alignment.column_annotations["consensus posterior probability"]
    # HMMER's code by hand: "*" is 0.95 and above, digit d stands for d / 10, "." for none
    kept = [i for i, ch in enumerate(code) if ch == "*" or (ch.isdigit() and int(ch) >= 7)]
    assert 0 < len(kept) < len(code), code   # the cut must leave some columns out
    cut = Align.Alignment([Align.SeqRecord(Align.Seq("".join(str(row)[i] for i in kept)),
                                           id=r.id)
                           for row, r in zip(alignment, alignment.sequences, strict=True)])
    by_hand = tmp_path / "cut.aln"
    Align.write(cut, str(by_hand), "clustal")
    expected, got = tmp_path / "hand.nwk", tmp_path / "got.nwk"
    assert main(["-q", "tree", str(by_hand), "-o", str(expected), "--device", DEVICE]) == 0
    assert main(["-q", "tree", str(sto), "--min-reliability", "0.7", "-o", str(got),
                 "--device", DEVICE]) == 0
    assert got.read_text() == expected.read_text()
    assert main(["-q", "tree", str(sto), "--min-reliability", "0.7", "--bootstrap", "5",
                 "-o", str(got), "--device", DEVICE]) == 0
    for args, message in (([str(path), "--min-reliability", "0.5"], "#=GC PP_cons"),
                          ([str(by_hand), "--min-reliability", "0.5"], "#=GC PP_cons"),
                          ([str(sto), "--min-reliability", "1.5"], "from 0 to 1"),
                          ([str(sto), "--min-reliability", "1"], "no column")):
        gone = tmp_path / "gone.nwk"
        assert main(["-q", "tree", *args, "-o", str(gone), "--device", DEVICE]) == 2
        assert message in capsys.readouterr().err and not gone.exists()


@given(st.integers(0, 10**6))
def test_annot_numbers_agree_with_the_pp_cons_code(millionths):
    """``--annot`` prints three decimals cut, not rounded: the printed number falls in the
    same HMMER code as the value (0.9496 printed 0.950 beside a 9 misled
    ``tree --min-reliability 0.95``)."""
    from bioplug.msa.cli import shown_reliability

    value = millionths / 10**6
    printed = float(f"{shown_reliability(value):.3f}")
    assert pp_text(printed) == pp_text(value)
    assert 0 <= value - printed < 0.001 + 1e-12
