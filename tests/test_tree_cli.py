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
    assert "taxon A: bad distance value" in capsys.readouterr().err


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
