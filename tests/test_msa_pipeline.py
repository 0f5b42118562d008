"""QuickProbs end to end on PoCL: BAliBASE accuracy floor, determinism, inputs, bad inputs, CLI."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from Bio import SeqIO
from Bio.Align import Alignment
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.cli import main as cli_main
from bioplug.errors import InputError
from bioplug.msa.aligner import MultipleSequenceAligner
from bioplug.msa.score import read_reference, sp_tc
from bioplug.progress import Cancelled

BENCH = Path(__file__).resolve().parents[1] / ".." / "shared" / "bench" / "balibase3"
# small BAliBASE 3 sets (Thompson et al. 2005), read from the shared benchmark copy
SMALL_SETS = ["RV12/BB12032", "RV12/BB12003", "RV12/BB12021", "RV11/BB11001", "RV12/BB12020",
              "RV12/BB12040"]

FAMILY = [
    "MKVLAAGIVGLLLAWQCSAGTEPKLVDEW",
    "MKVLSAGIVALLAWQSAGSEPRLIDEW",
    "MRVLAAGLVGLLSWQCTAGTEPKLVDDW",
    "MKILAAGIVGLFLAWSAGTEPKIVEEW",
]


def rows(aln: Alignment) -> list[str]:
    return [aln[i] for i in range(len(aln.sequences))]


def check_alignment(aln: Alignment, texts: list[str]):
    r = rows(aln)
    assert len({len(x) for x in r}) == 1
    assert [x.replace("-", "") for x in r] == texts
    assert not any(all(x[c] == "-" for x in r) for c in range(len(r[0])))


@pytest.fixture(scope="module")
def aligner():
    return MultipleSequenceAligner(device="cpu")


@pytest.mark.skipif(not BENCH.exists(), reason="shared BAliBASE copy not present")
def test_balibase_accuracy_floor(aligner):
    sps, tcs = [], []
    for name in SMALL_SETS:
        aln = aligner.align(str(BENCH / f"{name}.tfa"))
        ids = [s.id for s in aln.sequences]
        sp, tc = sp_tc(ids, rows(aln), read_reference(BENCH / f"{name}.xml"))
        sps.append(sp)
        tcs.append(tc)
    # ProbCons 1.12 scores 0.97 / 0.93 on these sets; QuickProbs should be close
    assert np.mean(sps) >= 0.93
    assert np.mean(tcs) >= 0.85
    assert set(aligner.last_times) == {"I", "II", "III", "IV"}


def test_determinism_and_seed():
    recs = [SeqRecord(Seq(s), id=f"s{i}") for i, s in enumerate(FAMILY * 2)]
    recs[4:] = [SeqRecord(Seq(s[3:] + "KK"), id=f"t{i}") for i, s in enumerate(FAMILY)]
    a = MultipleSequenceAligner(seed=7, device="cpu")
    r1 = rows(a.align(recs))
    r2 = rows(a.align(recs))
    assert r1 == r2


def test_input_types(aligner, tmp_path):
    from skbio import Protein

    path = tmp_path / "in.fasta"
    SeqIO.write([SeqRecord(Seq(s), id=f"p{i}", description="") for i, s in enumerate(FAMILY)],
                path, "fasta")
    from_path = aligner.align(str(path))
    assert [s.id for s in from_path.sequences] == ["p0", "p1", "p2", "p3"]
    from_str = aligner.align(FAMILY)
    assert rows(from_str) == rows(from_path)
    from_skbio = aligner.align([Protein(s, metadata={"id": f"q{i}"}) for i, s in
                                enumerate(FAMILY)])
    assert [s.id for s in from_skbio.sequences] == ["q0", "q1", "q2", "q3"]
    check_alignment(from_skbio, FAMILY)


def test_edge_cases(aligner):
    one = aligner.align(["MKVLA"])
    assert rows(one) == ["MKVLA"]
    two = aligner.align(FAMILY[:2])
    check_alignment(two, FAMILY[:2])
    same = aligner.align([FAMILY[0]] * 3)
    assert rows(same) == [FAMILY[0]] * 3
    tiny = ["M", "MKV", "MKVL"]
    check_alignment(aligner.align(tiny), tiny)
    uneven = [FAMILY[0], "MKV", FAMILY[1] * 4]
    check_alignment(aligner.align(uneven), uneven)
    gapped = aligner.align(["MKV-LAA", "MK.VLA"])
    check_alignment(gapped, ["MKVLAA", "MKVLA"])
    lower = aligner.align(["mkvlaag", "MKVLSAG", "mkxlaag"])
    check_alignment(lower, ["mkvlaag", "MKVLSAG", "mkxlaag"])


def test_bad_inputs(aligner, tmp_path):
    with pytest.raises(InputError, match="duplicate sequence ids: a"):
        aligner.align([SeqRecord(Seq("MKV"), id="a"), SeqRecord(Seq("MKL"), id="a")])
    with pytest.raises(InputError, match="empty"):
        aligner.align([SeqRecord(Seq("MKV"), id="a"), SeqRecord(Seq("--"), id="b")])
    with pytest.raises(InputError, match="'E' at position 5 is not a nucleotide letter"):
        MultipleSequenceAligner(seqtype="dna", device="cpu").align(["ACGTACGTAC", "ACGTEF"])
    with pytest.raises(InputError, match=r"'1' at position 3"):
        aligner.align(["MKVL", "MK1L"])
    with pytest.raises(InputError, match="no such file"):
        aligner.align(str(tmp_path / "missing.fa"))
    with pytest.raises(InputError):
        aligner.align([])
    with pytest.raises(InputError):
        MultipleSequenceAligner(refinement=-1)


def test_progress_and_cancel(aligner):
    seen = []

    def record(stage, done, total):
        seen.append(stage)

    aligner.align(FAMILY, progress=record)
    assert [s for s in dict.fromkeys(seen)][:3] == ["I posteriors", "II guide tree",
                                                     "III consistency"]
    assert "IV refinement" in seen
    with pytest.raises(Cancelled):
        aligner.align(FAMILY, progress=lambda *a: False)


def test_accurate_mode():
    aln = MultipleSequenceAligner(accurate=True, device="cpu").align(FAMILY)
    check_alignment(aln, FAMILY)


def test_cli_msa_and_score(tmp_path, capsys):
    src = tmp_path / "in.fa"
    SeqIO.write([SeqRecord(Seq(s), id=f"p{i}", description="") for i, s in enumerate(FAMILY)],
                src, "fasta")
    out = tmp_path / "out.aln"
    assert cli_main(["-q", "msa", str(src), "-o", str(out), "--format", "clustal",
                     "--device", "cpu", "--seed", "3"]) == 0
    assert out.read_text().startswith("Biopython") or "p0" in out.read_text()
    fa = tmp_path / "out.fa"
    assert cli_main(["-q", "msa", str(src), "-o", str(fa), "--device", "cpu"]) == 0
    capsys.readouterr()
    assert cli_main(["score", str(fa), str(fa)]) == 0
    text = capsys.readouterr().out
    assert "SP 100.00" in text and "TC 100.00" in text
    for fmt in ("stockholm", "phylip", "nexus", "a2m"):
        assert cli_main(["-q", "msa", str(src), "-o", str(tmp_path / f"o.{fmt}"), "--format",
                         fmt, "--device", "cpu"]) == 0
    assert cli_main(["-q", "msa", str(src), "-o", str(tmp_path / "o.x"), "--format", "bogus",
                     "--device", "cpu"]) == 2
    capsys.readouterr()
    assert cli_main(["msa", str(src), "-o", str(src), "--device", "cpu"]) == 2
    assert capsys.readouterr().err.strip() == \
        f"bioplug msa: error: {src}: refusing to overwrite an input file"
    assert cli_main(["msa", str(tmp_path / "none.fa"), "-o", str(fa)]) == 2


TITLED = (">sp|P0A1|KIN_HUMAN Kinase 1 OS=Homo sapiens\nMKVLAAGIVALLLAAGHW\n"
          ">b\nMKVLGIVALLAAGHW\n>c c\nMKVAGIVALLAGHWK\n>d  two  spaces\nMKVLAGIVALLAAGW\n")


@pytest.mark.parametrize("command", [["msa"], ["msa", "--method", "progressive"], ["align3"]])
def test_output_headers_are_the_input_titles(tmp_path, command):
    """Bio.SeqIO keeps the whole title as the description; written as Bio.Align.write does
    (">{id} {description}") the id came out twice, and again on every realignment."""
    src, out, again = tmp_path / "in.fa", tmp_path / "out.fa", tmp_path / "again.fa"
    text = TITLED if command != ["align3"] else "".join(TITLED.splitlines(True)[:6])
    src.write_text(text)
    # the words after the id as given (">c c": a description "c"), one space after the id
    expected = [line.replace(">d  two", ">d two") for line in text.splitlines()
                if line.startswith(">")]
    assert cli_main(["-q", *command, str(src), "-o", str(out), "--device", "cpu"]) == 0
    assert [ln for ln in out.read_text().splitlines() if ln.startswith(">")] == expected
    assert cli_main(["-q", *command, str(out), "-o", str(again), "--device", "cpu"]) == 0
    assert [ln for ln in again.read_text().splitlines() if ln.startswith(">")] == expected


def test_score_definitions(tmp_path):
    ref = tmp_path / "ref.fa"
    ref.write_text(">a\nAB-C\n>b\nA-BC\n>c\nABBC\n")
    from bioplug.msa.score import read_reference as rr

    r = rr(ref)
    # test moves b's B next to a's B: column 2 (AB pair) of ref changes
    sp, tc = sp_tc(["a", "b", "c"], ["AB-C", "AB-C", "ABBC"], r)
    # ref pairs: col0 3, col1 a-c 1, col2 b-c 1, col3 3 -> 8; test keeps col0, col3, a-c -> 7
    assert sp == pytest.approx(7 / 8)
    assert tc == pytest.approx(3 / 4)


XML = ("<?xml version='1.0'?><EMBED><alignment>{seqs}<column-score><colsco-name>coreblock"
       "</colsco-name><colsco-data>{core}</colsco-data></column-score></alignment></EMBED>")


def _xml(rows: dict[str, str], core: str = "1 1 1 1") -> str:
    seqs = "".join(f"<sequence><seq-name>{k}</seq-name><seq-data>{v}</seq-data></sequence>"
                   for k, v in rows.items())
    return XML.format(seqs=seqs, core=core)


@pytest.mark.parametrize(("name", "text", "message"), [
    # a repeated id counted its pairs twice (reference) or hid a row (test): SP 100 either way
    ("dup.fa", ">a\nAB-C\n>a\nAB-C\n>b\nA-BC\n", "dup.fa: duplicate sequence ids: a"),
    ("digit.fa", ">a\nAB-C\n>b\nA-1C\n",
     "digit.fa: b: letter '1' at position 3 is not a sequence letter"),
    ("short.xml", _xml({"a": "AB-C", "b": "A-BC"}, "1 1"),
     "short.xml: coreblock has 2 column scores for 4 columns"),
    ("cut.xml", _xml({"a": "AB-C", "b": "A-BC"})[:60], "cut.xml: not readable as BAliBASE XML"),
    ("noname.xml", _xml({"a": "AB-C", "": "A-BC"}), "noname.xml: sequence 2 has no <seq-name>"),
    ("ragged.xml", _xml({"a": "AB-C", "b": "A-BC-"}),
     "ragged.xml: not an alignment: its rows have different lengths"),
])
def test_score_refuses_bad_references_naming_them(tmp_path, capsys, name, text, message):
    """Each was a traceback (exit 1: IndexError, ParseError, AttributeError) or a silent
    score; now exit 2 with the file, record and position. The test file gets the same
    checks."""
    good = tmp_path / "test.fa"
    good.write_text(">a\nAB-C\n>b\nA-BC\n")
    bad = tmp_path / name
    bad.write_text(text)
    assert cli_main(["score", str(good), str(bad)]) == 2
    assert message in capsys.readouterr().err
    if name.endswith(".fa"):
        assert cli_main(["score", str(bad), str(good)]) == 2
        assert message in capsys.readouterr().err


def test_score_reads_the_a2m_bioplug_writes(tmp_path, capsys):
    """``-o x.a2m`` writes A2M, which Bio.AlignIO cannot read ("Unknown format 'a2m'"):
    score read it through Bio.AlignIO only."""
    from Bio import Align

    ref = tmp_path / "ref.fa"
    ref.write_text(">a\nAB-C\n>b\nA-BC\n")
    test = tmp_path / "test.a2m"
    alignment = Align.read(str(ref), "fasta")
    alignment.column_annotations = {"state": "DDDD"}
    Align.write(alignment, str(test), "a2m")
    assert cli_main(["score", str(test), str(ref)]) == 0
    assert capsys.readouterr().out == "SP 100.00\nTC 100.00\n"


def test_score_names_the_first_residue_that_differs(tmp_path, capsys):
    (tmp_path / "t.fa").write_text(">a\nAB-C\n>b\nA-BD\n")
    (tmp_path / "r.fa").write_text(">a\nAB-C\n>b\nA-BC\n")
    assert cli_main(["score", str(tmp_path / "t.fa"), str(tmp_path / "r.fa")]) == 2
    assert ("b: residues differ between test and reference (residue 3: 'D' in the test, 'C' in "
            "the reference)") in capsys.readouterr().err


def _simulate(k, length, seed):
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "simulate.py"
    spec = importlib.util.spec_from_file_location("bioplug_bench_simulate", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.evolve(k, length, seed)


def test_anchor_mode_large_family_path(tmp_path):
    """Anchor mode (forced on a small family): valid alignment, accuracy near full mode."""
    from bioplug.msa import pipeline
    from bioplug.msa.score import Reference

    names, texts, true_rows = _simulate(24, 60, 3)
    ref = Reference(names, true_rows, np.ones(len(true_rows[0]), dtype=bool))
    full = pipeline.run(texts, names, device="cpu", refinement=2)
    anchor = pipeline.run(texts, names, device="cpu", refinement=2, max_full_k=10, anchors=4,
                          node_pairs=12)
    assert full.mode == "full" and anchor.mode == "anchor"
    assert [r.replace("-", "") for r in anchor.rows] == texts
    assert len({len(r) for r in anchor.rows}) == 1
    sp_full, _ = sp_tc(names, full.rows, ref)
    sp_anchor, _ = sp_tc(names, anchor.rows, ref)
    assert sp_full > 0.8
    assert sp_anchor > sp_full - 0.1
    assert anchor.nnz < full.nnz


def test_a_letter_outside_ascii_is_named_with_its_position():
    """Seq cannot hold it: the error names the sequence, position and letter instead of
    Biopython's UnicodeEncodeError."""
    from bioplug.errors import InputError
    from bioplug.msa.aligner import MultipleSequenceAligner
    from bioplug.progressive.aligner import ProgressiveAligner

    for aligner in (MultipleSequenceAligner(device="cpu"), ProgressiveAligner(device="cpu")):
        with pytest.raises(InputError, match="seq2: invalid character 'Ä' at position 6"):
            aligner.align(["MKTAYIAKQ", "MKTAYÄQ"])


def test_profiles_that_share_ids_are_refused_with_the_reason():
    from bioplug.errors import InputError
    from bioplug.progressive.aligner import ProgressiveAligner

    aligner = ProgressiveAligner(device="cpu")
    first = aligner.align(["MKTAYIAKQ", "MKTAYQ"])
    second = aligner.align(["MKAYIAK", "MKTAYIQ"])
    with pytest.raises(InputError, match=r"duplicate sequence ids across the two alignments "
                                         r"\(seq1, seq2\).*plain strings"):
        aligner.align_profiles(first, second)


def test_score_refuses_a_reference_without_pairs(tmp_path, capsys):
    """One reference sequence has no residue pairs: SP / TC 0.00 read as "all wrong"."""
    one = tmp_path / "one.fa"
    one.write_text(">s1\nMKVLA\n")
    assert cli_main(["-q", "score", str(one), str(one)]) == 2
    assert "at least two" in capsys.readouterr().err
