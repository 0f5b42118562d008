"""``bioplug pairwise`` end to end (PoCL): outputs checked against Biopython."""

from __future__ import annotations

import numpy as np
import pytest
from Bio import Align, SeqIO
from Bio.Align import substitution_matrices

from bioplug.cli import main

BioAligner = Align.PairwiseAligner
SEQS = {
    "p1": "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQFEVVHSLAKWKRQ",
    "p2": "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ",
    "p3": "MSDKIIHLTDDSFDTDVLKADGAILVDFWAEWCGPCKMIAPILDEIADEYQGKLTVAKLNIDQNPGTAPKYGIRGIP",
    "p4": "SDKIIHLTDDSFDTDVLKADGAILVDFWAEWCGP",
}


def _fasta(path, items):
    path.write_text("".join(f">{k}\n{v}\n" for k, v in items))
    return path


def _blosum(mode="global", **extra):
    aligner = BioAligner(mode="local" if mode == "local" else "global", **extra)
    aligner.substitution_matrix = substitution_matrices.load("BLOSUM62")
    aligner.open_gap_score, aligner.extend_gap_score = -10, -0.5
    if mode == "semiglobal":
        aligner.end_gap_score = 0.0
    return aligner


@pytest.mark.parametrize("mode", ["global", "semiglobal", "local"])
def test_consecutive_pairs(tmp_path, mode):
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    out = tmp_path / "out.sto"
    rc = main(["-q", "pairwise", str(src), "-o", str(out), "--mode", mode, "--matrix",
               "BLOSUM62", "--gap-open", "10", "--gap-extend", "0.5", "--device", "cpu"])
    assert rc == 0
    alignments = list(Align.parse(str(out), "stockholm"))
    assert len(alignments) == 2
    oracle = _blosum(mode)
    for alignment, (a, b) in zip(alignments, [("p1", "p2"), ("p3", "p4")], strict=True):
        assert [r.id for r in alignment.sequences] == [a, b]
        rows = [alignment[i].replace("-", "") for i in range(2)]
        assert rows[0] in SEQS[a] and rows[1] in SEQS[b]
        # the written alignment, rescored by Biopython, is optimal
        assert alignment.counts(oracle).score == oracle.score(SEQS[a], SEQS[b])


def test_gap_sign_conventions_agree(tmp_path):
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    a, b = tmp_path / "a.fa", tmp_path / "b.fa"
    common = ["-q", "pairwise", str(src), "--match", "2", "--mismatch", "-1", "--device", "cpu"]
    assert main(common + ["-o", str(a), "--gap-open", "-3", "--gap-extend", "-1"]) == 0
    assert main(common + ["-o", str(b), "--gap-open", "3", "--gap-extend", "1"]) == 0
    assert a.read_text() == b.read_text()


def test_cross_and_all_vs_all(tmp_path):
    one = _fasta(tmp_path / "one.fa", list(SEQS.items())[:2])
    two = _fasta(tmp_path / "two.fa", list(SEQS.items())[2:])
    out = tmp_path / "cross.sam"
    base = ["-q", "pairwise", "--matrix", "BLOSUM62", "--mode", "local", "--device", "cpu"]
    assert main(base + [str(one), str(two), "-o", str(out)]) == 0
    assert len(list(Align.parse(str(out), "sam"))) == 4

    allin = _fasta(tmp_path / "all.fa", SEQS.items())
    tsv, npy = tmp_path / "m.tsv", tmp_path / "m.npy"
    assert main(base + [str(allin), "--all-vs-all", "-o", str(tsv)]) == 0
    assert main(base + [str(allin), "--all-vs-all", "-o", str(npy)]) == 0
    lines = tsv.read_text().splitlines()
    assert lines[0].split("\t")[1:] == list(SEQS)
    from_tsv = np.array([[float(x) for x in line.split("\t")[1:]] for line in lines[1:]])
    matrix = np.load(npy)
    np.testing.assert_array_equal(from_tsv, matrix)
    oracle = _blosum("local")
    want = np.array([[oracle.score(x, y) for y in SEQS.values()] for x in SEQS.values()])
    np.testing.assert_array_equal(matrix, want)

    rect = tmp_path / "rect.npy"
    assert main(base + [str(one), str(two), "--all-vs-all", "-o", str(rect)]) == 0
    got = np.load(rect)
    assert got.shape == (2, 2)
    assert got[0, 1] == oracle.score(SEQS["p1"], SEQS["p4"])


def test_output_formats_read_back(tmp_path):
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    for fmt in ("fasta", "clustal", "stockholm", "phylip", "maf", "psl", "bed"):
        out = tmp_path / f"out.{fmt}"
        args = ["-q", "pairwise", str(src), "-o", str(out), "--format", fmt,
                "--matrix", "BLOSUM62", "--mode", "local", "--device", "cpu"]
        assert main(args) == 0, fmt
        assert out.stat().st_size > 0


def test_genbank_input(tmp_path):
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    src = tmp_path / "in.gb"
    records = [SeqRecord(Seq(v), id=k, name=k, annotations={"molecule_type": "protein"})
               for k, v in SEQS.items()]
    SeqIO.write(records, src, "genbank")
    out = tmp_path / "out.fa"
    assert main(["-q", "pairwise", str(src), "-o", str(out), "--device", "cpu"]) == 0
    assert out.read_text().count(">") == 4


@pytest.mark.parametrize(
    "content, extra, message",
    [
        (">a\nMKJA\n>b\nMKA\n", ["--matrix", "BLOSUM62"], "'J' at position 3"),
        (">a\n\n>b\nMKA\n", [], "a: the sequence is empty (record 1)"),
        (">a\nM-K\n>b\n-.-\n", [], "b: the sequence is only gaps (record 2)"),
        ("", [], "empty"),
        ("LOCUS nothing\nhello\n", [], "fasta"),
        (">a\nMKA\n>b\nMKA\n", ["--matrix", "NOPE"], "unknown substitution matrix"),
        (">a\nMKA\n>b\nMKA\n>c\nMKA\n", [], "even number"),
        (">a\nMKA\n>b\nMKA\n", ["--matrix", "BLOSUM62", "--match", "2"], "either"),
    ],
)
def test_errors_one_line_exit_2_nothing_written(tmp_path, capsys, content, extra, message):
    src = tmp_path / "in.fa"
    src.write_text(content)
    out = tmp_path / "out.fa"
    rc = main(["-q", "pairwise", str(src), "-o", str(out), "--device", "cpu"] + extra)
    err = capsys.readouterr().err
    assert rc == 2
    lines = [line for line in err.splitlines() if line.startswith("bioplug")]
    assert len(lines) == 1 and message in lines[0]
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.fa"]


def test_never_writes_over_an_input(tmp_path, capsys):
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    before = src.read_text()
    assert main(["-q", "pairwise", str(src), "-o", str(src), "--device", "cpu"]) == 2
    assert "refusing" in capsys.readouterr().err
    assert src.read_text() == before


def test_progress_bar_reports(tmp_path, monkeypatch):
    from bioplug import progress

    calls = []
    original = progress.TerminalBar.__call__

    def spy(self, stage, done, total):
        calls.append((stage, done, total))
        return original(self, stage, done, total)

    monkeypatch.setattr(progress.TerminalBar, "__call__", spy)
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    assert main(["pairwise", str(src), "-o", str(tmp_path / "m.tsv"), "--all-vs-all",
                 "--device", "cpu"]) == 0
    assert calls


@pytest.mark.parametrize("values", [
    [[0.0, 12.0, -3.0], [999999.0, -999999.0, 7.0]],           # whole numbers: the int path
    [[0.0, 1e6, 5.0], [2.0, 3.0, 4.0]],                         # 10**6: %g writes 1e+06
    [[-0.0, 1.0, 2.0], [3.0, 4.0, 5.0]],                        # -0 stays "-0"
    [[0.5, -10.25, 1234567.5], [1e-7, np.nan, np.inf]],        # fractions and specials
])
def test_matrix_text_matches_g_formatting(values):
    from bioplug.pairwise.cli import _matrix_text

    scores = np.array(values)
    assert [list(row) for row in _matrix_text(scores)] == \
        [[f"{v:g}" for v in row] for row in scores]


def test_alignment_headers_are_the_input_titles(tmp_path):
    """Records come from Bio.SeqIO (the whole title as description) and alignments are
    printed as ">{id} {description}": the id must not appear twice."""
    src = tmp_path / "in.fa"
    src.write_text(">sp|P1|A_HUMAN Kinase OS=Homo sapiens\nMKVLAAGIVALLL\n>b\nMKVLGIVALL\n")
    out = tmp_path / "out.fa"
    assert main(["-q", "pairwise", str(src), "-o", str(out), "--device", "cpu"]) == 0
    assert [ln for ln in out.read_text().splitlines() if ln.startswith(">")] == [
        ">sp|P1|A_HUMAN Kinase OS=Homo sapiens", ">b"]


def _rows(path):
    return [(r.id, str(r.seq)) for r in SeqIO.parse(str(path), "fasta")]


@pytest.mark.parametrize("extra", [[], ["--matrix", "BLOSUM62"]])
def test_gaps_in_the_input_are_removed(tmp_path, extra):
    """Aligned input (here FASTA with - and .) is realigned from its residues, as msa reads
    it: the gaps are not letters, with or without a matrix."""
    gapped = _fasta(tmp_path / "gapped.fa", [("a", "MKV-LAQW"), ("b", "MK.VLAQ")])
    plain = _fasta(tmp_path / "plain.fa", [("a", "MKVLAQW"), ("b", "MKVLAQ")])
    base = ["-q", "pairwise", "--device", "cpu", *extra]
    outputs = {}
    for src in (gapped, plain):
        out, matrix = tmp_path / f"{src.stem}.out.fa", tmp_path / f"{src.stem}.tsv"
        assert main(base + [str(src), "-o", str(out)]) == 0
        assert main(base + [str(src), "-o", str(matrix), "--all-vs-all"]) == 0
        outputs[src.stem] = (out.read_text(), matrix.read_text())
    assert outputs["gapped"] == outputs["plain"]
    assert [row.replace("-", "") for _, row in _rows(tmp_path / "gapped.out.fa")] == [
        "MKVLAQW", "MKVLAQ"]


def test_clustal_input_self_scores_count_residues_only(tmp_path):
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    src = tmp_path / "in.aln"
    rows = [SeqRecord(Seq("MKV--LAQW"), id="a"), SeqRecord(Seq("MKVIILAQ-"), id="b")]
    Align.write(Align.Alignment(rows), str(src), "clustal")
    out = tmp_path / "m.tsv"
    assert main(["-q", "pairwise", str(src), "-o", str(out), "--all-vs-all",
                 "--device", "cpu"]) == 0
    lines = [line.split("\t") for line in out.read_text().splitlines()]
    assert [lines[1][1], lines[2][2]] == ["7", "8"]   # match 1 per residue, not per column


@pytest.mark.parametrize("extra", [["--mode", "local"], ["--matrix", "BLOSUM62"]])
def test_letters_compared_without_case_and_written_as_given(tmp_path, extra):
    """Soft-masked (lower-case) residues score as upper case, as in msa and search; the
    output keeps the letters of the input."""
    src = _fasta(tmp_path / "in.fa", [("a", "mkvLAQWtr"), ("b", "MKVlaqwTR")])
    out = tmp_path / "out.fa"
    assert main(["-q", "pairwise", str(src), "-o", str(out), "--device", "cpu", *extra]) == 0
    assert _rows(out) == [("a", "mkvLAQWtr"), ("b", "MKVlaqwTR")]
    matrix = tmp_path / "m.tsv"
    assert main(["-q", "pairwise", str(src), "-o", str(matrix), "--all-vs-all",
                 "--device", "cpu", *extra]) == 0
    rows = [line.split("\t")[1:] for line in matrix.read_text().splitlines()[1:]]
    assert rows[0][1] == rows[0][0] == rows[1][1]   # a vs b scores as a vs a


class _ClosedPipe:
    """Standard output whose reader has gone (``bioplug pairwise ... -o - | head -1``)."""

    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self):
        raise BrokenPipeError(32, "Broken pipe")


def test_reader_closing_standard_output_ends_quietly(tmp_path, capsys, monkeypatch):
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    monkeypatch.setattr("sys.stdout", _ClosedPipe())
    assert main(["-q", "pairwise", str(src), "-o", "-", "--device", "cpu"]) == 0
    assert capsys.readouterr().err == ""
    # a file cannot close on bioplug: a broken pipe there is still an error
    def broken(*args, **kwargs):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("bioplug.io.write_alignment", broken)
    assert main(["-q", "pairwise", str(src), "-o", str(tmp_path / "o.fa"),
                 "--device", "cpu"]) != 0
    assert "Broken pipe" in capsys.readouterr().err


def test_pairs_with_countless_co_optimal_alignments(tmp_path):
    """Scores the device cannot reproduce go to Biopython, whose ``len()`` of the alignments
    counts every co-optimal path: an OverflowError for repeats with gaps as cheap as
    -0.1. The first alignment is taken without counting them."""
    target, query = "MK" * 100, "MK" * 40
    with pytest.raises(OverflowError):   # what the command used to meet
        len(BioAligner(open_gap_score=-0.1, extend_gap_score=-0.1).align(target, query))
    src = _fasta(tmp_path / "in.fa", [("t", target), ("q", query)])
    out = tmp_path / "out.fa"
    assert main(["-q", "pairwise", str(src), "-o", str(out), "--gap-open", "-0.1",
                 "--gap-extend", "-0.1", "--device", "cpu"]) == 0
    alignment = Align.read(str(out), "fasta")
    assert [alignment[i].replace("-", "") for i in range(2)] == [target, query]
    oracle = BioAligner(open_gap_score=-0.1, extend_gap_score=-0.1)
    assert alignment.counts(oracle).score == pytest.approx(oracle.score(target, query))


@pytest.mark.parametrize("extra, group", [([], "none"), (["in2"], "reference")])
def test_sam_has_the_header_samtools_needs(tmp_path, extra, group):
    """@HD, one @SQ per target (samtools refuses SAM without them; the header is
    ``bioplug search``'s), @PG; Bio.Align reads the alignments back with the targets'
    lengths."""
    src = _fasta(tmp_path / "in.fa", SEQS.items())
    second = _fasta(tmp_path / "in2.fa", [("p2", SEQS["p2"]), ("p4", SEQS["p4"])])
    out = tmp_path / "out.sam"
    inputs = [str(src)] + [str(second) for _ in extra]
    assert main(["-q", "pairwise", *inputs, "-o", str(out), "--matrix", "BLOSUM62",
                 "--mode", "local", "--device", "cpu"]) == 0
    lines = [line.split("\t") for line in out.read_text().splitlines()]
    header = [line for line in lines if line[0].startswith("@")]
    targets = ["p1", "p3"] if not extra else list(SEQS)
    assert header[0] == ["@HD", "VN:1.6", "SO:unsorted", f"GO:{group}"]
    assert header[1:-1] == [["@SQ", f"SN:{t}", f"LN:{len(SEQS[t])}"] for t in targets]
    assert header[-1][:3] == ["@PG", "ID:bioplug", "PN:bioplug"]
    alignments = list(Align.parse(str(out), "sam"))
    assert len(alignments) == len(lines) - len(header) == (8 if extra else 2)
    for alignment in alignments:
        target = alignment.sequences[0]
        assert len(target) == len(SEQS[target.id])


def test_sam_refuses_one_target_id_for_two_lengths(tmp_path, capsys):
    src = _fasta(tmp_path / "in.fa", [("a", "MKVLAQW"), ("b", "MKVLAQ"), ("a", "MKV"),
                                      ("c", "MKV")])
    out = tmp_path / "out.sam"
    assert main(["-q", "pairwise", str(src), "-o", str(out), "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "'a'" in err and "7 and 3 residues" in err and not out.exists()


@pytest.mark.parametrize("extra, name, message", [
    ([], "x.npy", "a .npy file holds the score matrix of --all-vs-all"),
    (["--all-vs-all"], "y.sam", "--all-vs-all writes the score matrix as TSV (or .npy), "
                                "not as sam"),
    (["--all-vs-all"], "y.fa.gz", "not as fasta"),
    (["--all-vs-all", "--format", "clustal"], "y.tsv", "--format clustal: the alignments'"),
])
def test_outputs_the_options_do_not_write_are_refused(tmp_path, capsys, extra, name,
                                                        message):
    """An output named for what the command would not write (a .npy of alignments, a SAM
    of the score matrix) is refused before any work; it was written in the other format."""
    src = tmp_path / "ab.fa"
    src.write_text(">a\nMKVLAAG\n>b\nMKILAAG\n")
    assert main(["-q", "pairwise", str(src), "-o", str(tmp_path / name), *extra,
                 "--device", "99:99"]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / name).exists()


def test_cluster_options_without_cluster_are_said(tmp_path, caplog):
    src = tmp_path / "ab.fa"
    src.write_text(">a\nMKVLAAG\n>b\nMKILAAG\n")
    assert main(["-q", "pairwise", str(src), "-o", str(tmp_path / "s.tsv"), "--all-vs-all",
                 "--top", "3", "--tile", "64", "--device", "cpu"]) == 0
    assert "--top, --tile: read with --cluster only" in caplog.text


@pytest.mark.skipif(__import__("shutil").which("maf-convert") is None,
                    reason="LAST's maf-convert is not on PATH: no oracle to compare with")
@pytest.mark.parametrize("seed", range(3))
def test_maf_converts_to_the_psl_bioplug_writes(tmp_path, seed):
    """LAST's ``maf-convert psl`` of bioplug's MAF is bioplug's own PSL line: both formats
    carry the same blocks, counts and coordinates (a read with substitutions, an insertion
    and a deletion against its reference)."""
    import subprocess

    rng = np.random.default_rng(seed)
    ref = "".join(rng.choice(list("ACGT"), 300))
    read = ref[20:120] + "".join(rng.choice(list("ACGT"), 5)) + ref[125:200] + ref[203:260]
    read = "".join(c if rng.random() > 0.1 else rng.choice(list("ACGT")) for c in read)
    a, b = _fasta(tmp_path / "ref.fa", [("chrA", ref)]), _fasta(tmp_path / "read.fa",
                                                                 [("read1", read)])
    lines = {}
    for fmt in ("maf", "psl"):
        out = tmp_path / f"hit.{fmt}"
        assert main(["-q", "pairwise", str(a), str(b), "-o", str(out), "--mode", "local",
                     "--matrix", "NUC.4.4", "--gap-open", "10", "--gap-extend", "6",
                     "--device", "cpu"]) == 0
        lines[fmt] = out
    converted = subprocess.run(["maf-convert", "psl", str(lines["maf"])], check=True,
                               capture_output=True, text=True).stdout.split()
    ours = [line for line in lines["psl"].read_text().splitlines() if line[:1].isdigit()]
    assert len(ours) == 1 and ours[0].split() == converted
