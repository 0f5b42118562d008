"""``bioplug tree`` command: inputs, outputs, errors."""

from __future__ import annotations

import numpy as np
import pytest
from skbio import DistanceMatrix, TreeNode
from skbio.tree import nj as skbio_nj

from bioplug.cli import main
from bioplug.tree.matrix import write_phylip

AA = "ACDEFGHIKLMNPQRSTVWY"


def family(n: int = 7, length: int = 90, seed: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    base = list(rng.choice(list(AA), length))
    out = []
    for k in range(n):
        s = list(base)
        for pos in rng.integers(0, length, 6 * k):
            s[pos] = rng.choice(list(AA))
        out.append("".join(s))
    return out


@pytest.fixture
def fasta(tmp_path):
    path = tmp_path / "seqs.fa"
    path.write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(family())))
    return path


@pytest.mark.parametrize("distance", ["ktuple", "identity", "kimura"])
@pytest.mark.parametrize("method", ["nj", "upgma"])
def test_sequences_to_newick(tmp_path, fasta, distance: str, method: str) -> None:
    if distance != "ktuple":
        pytest.importorskip("bioplug.pairwise.engine", reason="bioplug.pairwise not available")
    out = tmp_path / "t.nwk"
    rc = main(["-q", "tree", str(fasta), "-o", str(out), "--distance", distance,
               "--method", method, "--device", "cpu"])
    assert rc == 0
    tree = TreeNode.read(str(out))
    assert sorted(t.name for t in tree.tips()) == [f"s{k}" for k in range(7)]


def test_alignment_input_and_distances_out(tmp_path) -> None:
    path = tmp_path / "aln.fa"
    rows = ["ACD-EFGH", "ACDQEFGH", "AC--EFGW", "TCDQEYGW"]
    path.write_text("".join(f">r{k}\n{s}\n" for k, s in enumerate(rows)))
    out, dist = tmp_path / "t.nwk", tmp_path / "d.phy"
    assert main(["-q", "tree", str(path), "-o", str(out), "--distances-out", str(dist),
                 "--device", "cpu"]) == 0
    assert dist.read_text().split()[0] == "4"
    assert TreeNode.read(str(out)).count(tips=True) == 4


def test_phylip_matrix_input_matches_skbio(tmp_path) -> None:
    rng = np.random.default_rng(4)
    pts = rng.random((9, 5))
    d = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
    ids = [f"taxon{k}" for k in range(9)]
    path = tmp_path / "m.phy"
    with open(path, "w") as handle:
        write_phylip(d, ids, handle)
    out = tmp_path / "t.nwk"
    assert main(["-q", "tree", str(path), "-o", str(out), "--device", "cpu"]) == 0
    ours = TreeNode.read(str(out))
    from bioplug.tree.matrix import read_phylip

    data, names = read_phylip(path)
    assert ours.compare_rfd(skbio_nj(DistanceMatrix(data, names))) == 0


def test_lower_triangular_phylip(tmp_path) -> None:
    path = tmp_path / "low.phy"
    path.write_text("4\na\nb 1.0\nc 2.0 2.0\nd 3.0 3.0 2.0\n")
    out = tmp_path / "t.nwk"
    assert main(["-q", "tree", str(path), "-o", str(out), "--method", "upgma",
                 "--device", "cpu"]) == 0
    assert TreeNode.read(str(out)).count(tips=True) == 4


@pytest.mark.parametrize("text", [
    # square, names with spaces in their 10 characters (values right after them too)
    "    3\nHomo sapie 0.0 0.1 0.2\nMus muscul0.1 0.0 0.3\nE. coli    0.2 0.3 0.0\n",
    # lower-triangular, a row's values wrapping onto a line of their own
    "3\nHomo sapie\nMus muscul0.1\nE. coli   0.2\n 0.3\n",
])
def test_strict_phylip_matrix_names_with_spaces(tmp_path, text) -> None:
    """PHYLIP's own programs write names in 10 characters, spaces allowed: read as such
    when the relaxed reading (an id is a word) fails."""
    from bioplug.tree.matrix import read_phylip

    path = tmp_path / "strict.phy"
    path.write_text(text)
    data, names = read_phylip(path)
    assert names == ["Homo sapie", "Mus muscul", "E. coli"]
    assert np.allclose(data, [[0, 0.1, 0.2], [0.1, 0, 0.3], [0.2, 0.3, 0]])
    out = tmp_path / "t.nwk"
    assert main(["-q", "tree", str(path), "-o", str(out), "--device", "cpu"]) == 0
    assert sorted(t.name for t in TreeNode.read(str(out)).tips()) == sorted(names)


def test_a_bad_relaxed_matrix_keeps_its_own_message(tmp_path, capsys) -> None:
    path = tmp_path / "bad.phy"
    path.write_text("3\nA 0 1 x\nB 1 0 2\nC 2 2 0\n")
    assert main(["-q", "tree", str(path), "-o", str(tmp_path / "t.nwk"), "--device", "cpu"]) == 2
    assert "taxon A: 3 distances expected, 2 found before 'x'" in capsys.readouterr().err
    # a row one value short: said so, not as the next taxon's id that is not a number
    path.write_text("4\na 0 1 2 3\nb 1 0 2\nc 2 2 0 1\nd 3 3 1 0\n")
    assert main(["-q", "tree", str(path), "-o", str(tmp_path / "t.nwk"), "--device", "cpu"]) == 2
    assert ("taxon b: 4 distances expected, 3 found before 'c' (a row too short"
            in capsys.readouterr().err)


def test_keep_negative_with_upgma_is_said(tmp_path, caplog) -> None:
    path = tmp_path / "t.fa"
    path.write_text(">a\nMKVLAAG\n>b\nMKILAAG\n>c\nMRVLSAG\n")
    assert main(["-q", "tree", str(path), "-o", str(tmp_path / "t.nwk"), "--method", "upgma",
                 "--keep-negative", "--device", "cpu"]) == 0
    assert "--keep-negative: NJ's option" in caplog.text


@pytest.mark.parametrize("text", ["4\na\nb 1.0\nc 2.0 2.0\nd 3.0 3.0 2.0\n",
                                  "3\na 0 1 2\nb 1 0 2\nc 2 2 0\n"])
def test_gzipped_phylip_matrix_is_a_matrix(tmp_path, capsys, text) -> None:
    """A .phy.gz matrix was sniffed and read with plain open(): parsed as a PHYLIP
    alignment ("First line should have two integers"), while every other input reads gzip."""
    import gzip

    plain, packed = tmp_path / "m.phy", tmp_path / "m.phy.gz"
    plain.write_text(text)
    packed.write_bytes(gzip.compress(text.encode()))
    for path in (plain, packed):
        assert main(["-q", "tree", str(path), "-o", str(tmp_path / f"{path.name}.nwk"),
                     "--method", "upgma", "--device", "cpu"]) == 0
    assert (tmp_path / "m.phy.gz.nwk").read_text() == (tmp_path / "m.phy.nwk").read_text()
    # --bootstrap refuses a matrix for what it is, not as an alignment it cannot parse
    assert main(["-q", "tree", str(packed), "-o", str(tmp_path / "b.nwk"), "--bootstrap",
                 "3", "--device", "cpu"]) == 2
    assert "--bootstrap needs an alignment (its columns are resampled); this is a distance " \
        "matrix" in capsys.readouterr().err
    assert not (tmp_path / "b.nwk").exists()


def test_errors_leave_no_output(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.phy"
    bad.write_text("3\na 0 1 2\nb 1 0 nan\nc 2 3 0\n")
    out = tmp_path / "t.nwk"
    assert main(["-q", "tree", str(bad), "-o", str(out), "--device", "cpu"]) == 2
    assert "NaN" in capsys.readouterr().err
    assert not out.exists()
    assert main(["-q", "tree", str(tmp_path / "missing.fa"), "-o", str(out)]) == 2
    dup = tmp_path / "dup.fa"
    dup.write_text(">a\nACDE\n>a\nACDF\n>b\nACDG\n")
    assert main(["-q", "tree", str(dup), "-o", str(out), "--device", "cpu"]) == 2
    assert "duplicate" in capsys.readouterr().err
    assert not out.exists()


def test_refuses_to_overwrite_input(tmp_path, fasta) -> None:
    before = fasta.read_text()
    assert main(["-q", "tree", str(fasta), "-o", str(fasta), "--device", "cpu"]) == 2
    assert fasta.read_text() == before


LABELS = ["d'4", "a(b)", "c,d", "e:f", "g;h", "[i]", "j_k", "plain"]


def test_newick_labels_read_back_by_biophylo_and_skbio(tmp_path) -> None:
    """IDs with ' ( ) , : ; [ ] and _ come back as they were from the written Newick."""
    import io

    from Bio import Phylo

    path = tmp_path / "odd.fa"
    path.write_text("".join(f">{name}\n{s}\n" for name, s in zip(LABELS, family(8),
                                                                  strict=True)))
    out = tmp_path / "t.nwk"
    assert main(["-q", "tree", str(path), "-o", str(out), "--device", "cpu"]) == 0
    text = out.read_text()
    assert sorted(c.name for c in Phylo.read(io.StringIO(text), "newick").get_terminals()) \
        == sorted(LABELS)
    assert sorted(t.name for t in TreeNode.read(io.StringIO(text)).tips()) == sorted(LABELS)


def test_to_newick_quotes_spaces_and_quotes() -> None:
    import io

    from Bio import Phylo

    from bioplug.tree.phylo import to_newick

    names = [*LABELS, "with space", "tab\there"]
    tree = TreeNode.read(io.StringIO("(" + ",".join(f"x{k}:1" for k in range(len(names)))
                                     + ");"))
    for tip, name in zip(tree.tips(), names, strict=True):
        tip.name = name
    text = to_newick(tree)
    assert text.endswith(";\n") and "\n" not in text[:-1]
    assert [c.name for c in Phylo.read(io.StringIO(text), "newick").get_terminals()] == names
    assert [t.name for t in TreeNode.read(io.StringIO(text)).tips()] == names


def test_to_newick_is_skbio_layout_for_plain_labels() -> None:
    import io

    from bioplug.tree.phylo import to_newick

    tree = TreeNode.read(io.StringIO("((a:1,b:2.5)95:0.1,(c,d)x:3,e);"))
    expected = io.StringIO()
    tree.write(expected, format="newick")
    assert to_newick(tree) == expected.getvalue()


@pytest.mark.parametrize("distance", [[], ["--distance", "kimura"]])
def test_bootstrap_writes_the_alignment_distances(tmp_path, distance) -> None:
    """--distances-out with --bootstrap: the distances of the alignment itself, as without
    --bootstrap."""
    path = tmp_path / "aln.fa"
    rows = ["ACD-EFGHIK", "ACDQEFGHIK", "AC--EFGWIK", "TCDQEYGWLK", "TCDQEYGWLR"]
    path.write_text("".join(f">r{k}\n{s}\n" for k, s in enumerate(rows)))
    boot, plain = tmp_path / "boot.phy", tmp_path / "plain.phy"
    assert main(["-q", "tree", str(path), "-o", str(tmp_path / "b.nwk"), "--distances-out",
                 str(boot), "--bootstrap", "20", *distance, "--device", "cpu"]) == 0
    assert main(["-q", "tree", str(path), "-o", str(tmp_path / "p.nwk"), "--distances-out",
                 str(plain), *distance, "--device", "cpu"]) == 0
    assert boot.read_text() == plain.read_text()


@pytest.mark.parametrize("argv, message", [
    (["--ktuple", "0"], "--ktuple 0: must be 1 or more"),
    (["--ktuple", "-3", "--distance", "clustalw-fast"], "--ktuple -3: must be 1 or more"),
    (["--ktuple", "3", "--distance", "identity"], "--ktuple needs --distance ktuple"),
    (["--topdiags", "0", "--distance", "clustalw-fast"], "--topdiags 0: must be 1 or more"),
    (["--bootstrap", "-1"], "--bootstrap -1: must be 0 or more"),
    (["--bootstrap", "5", "--seed", "-1"], "--seed -1: must be 0 or more"),
])
def test_values_that_make_no_sense_are_refused(tmp_path, fasta, capsys, argv, message) -> None:
    out = tmp_path / "t.nwk"
    assert main(["-q", "tree", str(fasta), "-o", str(out), *argv, "--device", "cpu"]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_standard_input_is_named_and_its_format_sniffed(monkeypatch, capsys) -> None:
    """Piped input that is no sequence file fails naming standard input (not the spooled
    copy's temporary path); a Clustal alignment piped in is read as Clustal."""
    import io
    import sys

    def pipe(text: str) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))

    pipe("no sequences here\n")
    assert main(["-q", "tree", "-", "-o", "-", "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "standard input" in err and "bioplug-tree-" not in err
    pipe("CLUSTAL W\n\na   AC-GTACGT\nb   ACAGTACGT\nc   ACAGTTCGT\n")
    assert main(["-q", "tree", "-", "-o", "-", "--device", "cpu"]) == 0
    assert capsys.readouterr().out.strip().endswith(";")


def hmmalign_stockholm(seed: int = 3, block: int = 200) -> tuple[str, list[str], str]:
    """(Stockholm text, rows with "-" for every gap, PP_cons) of a 5-sequence alignment laid
    out as hmmalign writes one: #=GF / #=GS lines, lower-case insert columns with "." gaps
    (PP_cons "." there), #=GR PP lines, interleaved in blocks of ``block`` columns."""
    rng = np.random.default_rng(seed)
    match = 230
    base = rng.choice(list(AA), match)
    inserts = {40: 2, 150: 3, 210: 1}   # match column after which an insert run comes
    rows, code = [], []
    for k in range(5):
        s = base.copy()
        s[rng.integers(0, match, 8 * k)] = rng.choice(list(AA), 8 * k)
        s[rng.integers(0, match, 4)] = "-"   # deletions
        row = []
        for i, letter in enumerate(s):
            row.append(letter)
            if i in inserts:
                n = inserts[i]
                row += (list(rng.choice(list(AA), n).astype(str)) if k % 2 else ["."] * n)
        rows.append("".join(row))
    for i in range(match):
        code.append(rng.choice(list("0123456789*")))
        if i in inserts:
            code += ["."] * inserts[i]
    code = "".join(code)
    rows = ["".join(c.lower() if code[j] == "." and c != "." else c for j, c in enumerate(r))
            for r in rows]
    ids = [f"q{k}/1-{match}" for k in range(5)]
    pps = ["".join("." if c in "-." else rng.choice(list("0123456789*")) for c in r)
           for r in rows]
    lines = ["# STOCKHOLM 1.0", "#=GF ID   fam", "#=GF AU   hmmalign-like", ""]
    lines += [f"#=GS {name} AC P{k:05d}.1" for k, name in enumerate(ids)] + [""]
    for at in range(0, len(code), block):
        for name, row, pp in zip(ids, rows, pps, strict=True):
            lines += [f"{name:<16} {row[at:at + block]}",
                      f"#=GR {name:<11} PP {pp[at:at + block]}"]
        part = code[at:at + block]
        lines += [f"#=GC PP_cons       {part}",
                  f"#=GC RF            {''.join('.' if c == '.' else 'x' for c in part)}", ""]
    return "\n".join(lines) + "//\n", [r.replace(".", "-") for r in rows], code


def test_min_reliability_reads_interleaved_hmmalign_stockholm(tmp_path, monkeypatch,
                                                              caplog) -> None:
    """hmmalign (Easel) writes Stockholm in blocks of 200 columns: --min-reliability read
    it with Bio.Align, which refuses interleaved files ("failed: ValueError: Aligned sequence
    ... consists of 43 letters, expected 200"). The tree is the one of the alignment cut by
    hand to the columns coded 7, 8, 9 or * (0.7 or more), from a file, gzip and a pipe."""
    import gzip
    import io
    import logging
    import sys

    text, rows, code = hmmalign_stockholm()
    sto = tmp_path / "hmm.sto"
    sto.write_text(text)
    kept = [i for i, ch in enumerate(code) if ch == "*" or (ch.isdigit() and int(ch) >= 7)]
    assert 40 < len(kept) < len(code) - 40
    cut = ["".join(r[i] for i in kept) for r in rows]
    assert all("-" in r for r in cut[1:])   # read as an alignment, not as sequences
    by_hand = tmp_path / "cut.fa"
    by_hand.write_text("".join(f">q{k}/1-230\n{r}\n" for k, r in enumerate(cut)))
    want_tree, want_dist = tmp_path / "hand.nwk", tmp_path / "hand.phy"
    assert main(["-q", "tree", str(by_hand), "-o", str(want_tree), "--distances-out",
                 str(want_dist), "--device", "cpu"]) == 0
    caplog.set_level(logging.INFO)
    got_tree, got_dist = tmp_path / "got.nwk", tmp_path / "got.phy"
    assert main(["tree", str(sto), "--min-reliability", "0.7", "-o", str(got_tree),
                 "--distances-out", str(got_dist), "--device", "cpu"]) == 0
    assert f"hmm.sto: {len(kept)} of {len(code)} columns have a reliability of 0.7" \
        in caplog.text
    assert got_tree.read_text() == want_tree.read_text()
    assert got_dist.read_text() == want_dist.read_text()
    packed = tmp_path / "hmm.sto.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    assert main(["-q", "tree", str(packed), "--min-reliability", "0.7", "-o",
                 str(tmp_path / "gz.nwk"), "--device", "cpu"]) == 0
    assert (tmp_path / "gz.nwk").read_text() == want_tree.read_text()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["-q", "tree", "-", "--format", "stockholm", "--min-reliability", "0.7",
                 "-o", str(tmp_path / "pipe.nwk"), "--device", "cpu"]) == 0
    assert (tmp_path / "pipe.nwk").read_text() == want_tree.read_text()
    assert main(["-q", "tree", str(sto), "--min-reliability", "0.7", "--bootstrap", "5",
                 "-o", str(tmp_path / "boot.nwk"), "--device", "cpu"]) == 0
    boot = TreeNode.read(str(tmp_path / "boot.nwk"), convert_underscores=False)
    assert sorted(t.name for t in boot.tips()) == [f"q{k}/1-230" for k in range(5)]


GOOD_ROWS = "a ACDEFG\nb ACDEFH\nc ACDQFH\n"


@pytest.mark.parametrize("text, message", [
    ("# STOCKHOLM 1.0\na ACDEFG\nb ACDEF\n#=GC PP_cons 999999\n//\n", "different lengths"),
    (f"# STOCKHOLM 1.0\n{GOOD_ROWS}#=GC PP_cons 9999\n//\n", "PP_cons length 4, expected 6"),
    (f"# STOCKHOLM 1.0\n{GOOD_ROWS}#=GC PP_cons 999999\n#=GR a PP 99\n//\n", "per-letter"),
    (f"# STOCKHOLM 1.0\n{GOOD_ROWS}#=GC PP_cons 999999\n//\n" * 2, "2 Stockholm alignments"),
    ("# STOCKHOLM 1.0\n//\n", "no Stockholm alignments"),
    ("# STOCKHOLM 1.0\na ACDEFG\nb AC\xe9EFG\n#=GC PP_cons 999999\n//\n", "codec"),
], ids=["ragged", "short-PP_cons", "short-GR", "two-alignments", "empty", "not-utf8"])
def test_min_reliability_bad_stockholm_is_an_input_error(tmp_path, capsys, text,
                                                         message) -> None:
    """A Stockholm file --min-reliability cannot read fails as an input error naming the
    file (exit 2, no output), not as a crash ("failed: ValueError / AssertionError /
    UnicodeDecodeError", exit 1)."""
    path = tmp_path / "bad.sto"
    path.write_bytes(text.encode("latin-1"))
    out = tmp_path / "t.nwk"
    assert main(["-q", "tree", str(path), "--min-reliability", "0.5", "-o", str(out),
                 "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "bioplug tree: error: " in err and "bad.sto" in err and message in err, err
    assert len(err.strip().splitlines()) == 1 and not out.exists()


def test_min_reliability_refuses_a_distance_matrix(tmp_path, capsys) -> None:
    """A PHYLIP matrix has no columns to filter: --min-reliability was ignored without a
    word, the tree being the unfiltered one."""
    path = tmp_path / "m.phy"
    path.write_text("3\na 0 1 2\nb 1 0 2\nc 2 2 0\n")
    out = tmp_path / "t.nwk"
    assert main(["-q", "tree", str(path), "--min-reliability", "0.5", "-o", str(out),
                 "--device", "cpu"]) == 2
    assert "m.phy: --min-reliability needs an alignment" in capsys.readouterr().err
    assert not out.exists()


def test_min_reliability_a_sequence_left_without_residues(tmp_path, capsys) -> None:
    """A row with no residue in the kept columns: one error naming it and the threshold
    (it was a warning, then "c: the sequence is only gaps (record 3)", which does not say
    that the filter emptied it)."""
    path = tmp_path / "gaps.sto"
    path.write_text("# STOCKHOLM 1.0\na ACDEFGHIKLMN\nb ACDEFGHIKLMN\nc ACDEFG------\n"
                    "d ------HIKLMN\n#=GC PP_cons 222222999999\n//\n")
    out = tmp_path / "t.nwk"
    for extra in ([], ["--bootstrap", "3"], ["--distance", "kimura"]):
        assert main(["-q", "tree", str(path), "--min-reliability", "0.9", "-o", str(out),
                     *extra, "--device", "cpu"]) == 2
        err = capsys.readouterr().err
        assert "gaps.sto: c: no residue in the 6 columns of reliability 0.9 or more" in err
        assert len(err.strip().splitlines()) == 1 and not out.exists()
    assert main(["-q", "tree", str(path), "--min-reliability", "0.2", "-o", str(out),
                 "--device", "cpu"]) == 0


def test_min_reliability_above_what_the_code_shows(tmp_path, capsys) -> None:
    """HMMER's "*" says 0.95 or more and no more: a threshold above 0.975 (what "*" is read
    as) keeps nothing, and the error says why and what keeps the "*" columns instead of
    only "no column has a reliability of 0.99 or more" (bioplug msa --annot may well have
    printed 0.990 for them)."""
    path = tmp_path / "sure.sto"
    path.write_text("# STOCKHOLM 1.0\na ACDEFG\nb ACDEFH\nc ACDQFH\n"
                    "#=GC PP_cons ***9*8\n//\n")
    out = tmp_path / "t.nwk"
    assert main(["-q", "tree", str(path), "--min-reliability", "0.99", "-o", str(out),
                 "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "no column has a reliability of 0.99 or more" in err
    assert "4 column(s) are *" in err and "--min-reliability 0.95 keeps them" in err
    assert not out.exists()
    assert main(["-q", "tree", str(path), "--min-reliability", "0.95", "-o", str(out),
                 "--device", "cpu"]) == 0


def test_min_reliability_says_how_the_input_was_read(tmp_path, capsys) -> None:
    """A Stockholm file under a FASTA name is read as FASTA (the extension decides): the
    refusal says so and how to read it as Stockholm."""
    path = tmp_path / "aln.fa"
    path.write_text("# STOCKHOLM 1.0\na ACDEFG\nb ACDEFH\nc ACDQFH\n#=GC PP_cons 999999\n//\n")
    assert main(["-q", "tree", str(path), "--min-reliability", "0.5", "-o",
                 str(tmp_path / "t.nwk"), "--device", "cpu"]) == 2
    assert "this is read as fasta (--format stockholm" in capsys.readouterr().err
    assert main(["-q", "tree", str(path), "--format", "stockholm", "--min-reliability", "0.5",
                 "-o", str(tmp_path / "t.nwk"), "--device", "cpu"]) == 0


@pytest.mark.parametrize("distance", ["ktuple", "clustalw-fast"])
def test_min_reliability_needs_column_distances(tmp_path, capsys, distance) -> None:
    """ktuple and clustalw-fast ungap the rows: after the cut their k-tuples would span the
    joins of the columns left out. They ran without a word; refused as --bootstrap refuses
    them."""
    text, _, _ = hmmalign_stockholm()
    path = tmp_path / "hmm.sto"
    path.write_text(text)
    out = tmp_path / "t.nwk"
    assert main(["-q", "tree", str(path), "--min-reliability", "0.7", "--distance", distance,
                 "-o", str(out), "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "--min-reliability keeps alignment columns: --distance identity or kimura" in err
    assert not out.exists()
    assert main(["-q", "tree", str(path), "--distance", distance, "-o", str(out),
                 "--device", "cpu"]) == 0   # without the cut, as before


def test_phylip_matrix_never_writes_negative_zero():
    """A distance that rounds to zero from below (kimura's -1e-17) is written 0.00000000."""
    import io as _io

    import numpy as _np

    from bioplug.tree.matrix import write_phylip

    out = _io.StringIO()
    write_phylip(_np.array([[0.0, -1e-17], [-0.0, 0.0]]), ["a", "b"], out)
    assert "-0" not in out.getvalue() and out.getvalue().count("0.00000000") == 4


def test_duplicate_ids_name_the_file_and_the_records(tmp_path, capsys) -> None:
    path = tmp_path / "d.fa"
    path.write_text(">a\nMKVLAAG\n>b\nMKILAAG\n>a\nMRVLSAG\n")
    for command in (["tree", str(path), "-o", str(tmp_path / "t.nwk")],
                    ["align3", str(path), "-o", str(tmp_path / "t.fa")]):
        assert main(["-q", *command, "--device", "cpu"]) == 2
        assert (f"{path}: duplicate sequence ids: a (a: records 1 and 3)"
                in capsys.readouterr().err)


@pytest.mark.skipif(__import__("shutil").which("quicktree") is None,
                    reason="QuickTree is not on PATH: no oracle to compare with")
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n", [5, 12, 40])
def test_nj_equals_quicktrees(tmp_path, seed, n):
    """``bioplug tree MATRIX.phy --method nj`` and QuickTree (``quicktree -in m``, an NJ
    program) give one tree: every pair of tips equally far apart along it, to QuickTree's
    five printed decimals (Euclidean distances of random points: no ties)."""
    import io
    import subprocess

    from Bio import Phylo

    rng = np.random.default_rng(seed)
    points = rng.random((n, 5))
    dist = np.sqrt(((points[:, None] - points[None]) ** 2).sum(-1))
    names = [f"t{i}" for i in range(n)]
    matrix = tmp_path / "d.phy"
    matrix.write_text(f"{n}\n" + "".join(
        f"{name:<10}" + " ".join(f"{x:.6f}" for x in row) + "\n"
        for name, row in zip(names, dist, strict=True)))
    theirs = subprocess.run(["quicktree", "-in", "m", "-out", "t", str(matrix)],
                            capture_output=True, text=True, check=True).stdout
    out = tmp_path / "ours.nwk"
    assert main(["-q", "tree", str(matrix), "-o", str(out), "--method", "nj",
                 "--device", "cpu"]) == 0

    def along(newick):
        tree = Phylo.read(io.StringIO(newick), "newick")
        return np.array([[tree.distance(a, b) for b in names] for a in names])

    np.testing.assert_allclose(along(out.read_text()), along(theirs), atol=1e-4)
