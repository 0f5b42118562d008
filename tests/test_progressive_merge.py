"""Merging several alignments, each kept intact (``mafft --merge``):
``ProgressiveAligner.merge`` and ``bioplug profile A B C ...``.

Oracles: ``tests/progressive_reference.py``'s profile DP (every join of the merge tree places
its two sides optimally, from the rows the result gives them), the inputs themselves (each
alignment's rows and columns kept, every residue kept), ``align_profiles`` for two
alignments, and plain loops for the distances between alignments.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from hypothesis import given, settings
from hypothesis import strategies as st
from test_progressive_aligner import (
    DEVICE,
    PROTEIN,
    SETTINGS,
    drop_gap_columns,
    evolve,
    moves_between,
    profile_optimum,
    rows_of,
)

from bioplug.cli import main
from bioplug.errors import InputError
from bioplug.progressive import ProgressiveAligner
from bioplug.progressive.merging import (
    REPRESENTATIVES,
    group_distances,
    representatives,
)


@pytest.fixture(scope="module")
def aligner() -> ProgressiveAligner:
    return ProgressiveAligner(device=DEVICE, distances="ktuple", refinement=0, **PROTEIN)


def split_family(aligner, k: int, g: int, seed: int) -> tuple[list, list[str], list[str]]:
    """A simulated family of ``k`` cut into ``g`` runs of records, each aligned."""
    names, texts, _ = evolve(k, 40, seed)
    bounds = np.linspace(0, k, g + 1).round().astype(int)
    parts = [[SeqRecord(Seq(t), id=n) for n, t in zip(names[a:b], texts[a:b], strict=True)]
             for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    return [aligner.align(p) if len(p) > 1 else p for p in parts], names, texts


def subtree_leaves(link: np.ndarray, g: int, node: int) -> list[int]:
    if node < g:
        return [node]
    left, right = (int(v) for v in link[node - g, :2])
    return subtree_leaves(link, g, left) + subtree_leaves(link, g, right)


@settings(max_examples=8, **SETTINGS)
@given(seed=st.integers(0, 2**16), g=st.integers(3, 5))
def test_every_join_is_optimal_and_each_alignment_is_kept(aligner, seed, g) -> None:
    from bioplug.progressive.trees import linkage_from_tree

    parts, names, texts = split_family(aligner, 12, g, seed)
    merged = aligner.merge(parts)
    rows = rows_of(merged)
    assert [s.id for s in merged.sequences] == names
    assert [r.replace("-", "") for r in rows] == texts
    sizes = [len(p) for p in parts]
    starts = np.cumsum([0, *sizes])
    given_rows = [rows_of(p) if hasattr(p, "sequences") else [str(r.seq) for r in p]
                  for p in parts]
    of_group = [rows[starts[i]:starts[i + 1]] for i in range(g)]
    for mine, original in zip(of_group, given_rows, strict=True):
        assert drop_gap_columns(mine) == original
    # every join of the merge tree: its two sides, as the result lays them out, are placed
    # optimally against each other (the reference DP on the same profiles)
    labels = [f"alignment {i + 1}" for i in range(g)]
    link = linkage_from_tree(merged.merge_tree, labels)
    for t in range(g - 1):
        sides = [[r for leaf in subtree_leaves(link, g, int(link[t, s]))
                  for r in of_group[leaf]] for s in (0, 1)]
        both = drop_gap_columns(sides[0] + sides[1])
        a, b = both[:len(sides[0])], both[len(sides[0]):]
        best, got = profile_optimum(drop_gap_columns(a), drop_gap_columns(b),
                                    moves_between(a, b), PROTEIN)
        assert got == pytest.approx(best, abs=1e-3), t


def test_two_alignments_merge_as_align_profiles(aligner) -> None:
    parts, _, _ = split_family(aligner, 9, 2, 5)
    merged = aligner.merge(parts)
    assert rows_of(merged) == rows_of(aligner.align_profiles(*parts))
    assert merged.merge_tree.count("alignment") == 2


def test_an_alignment_of_gaps_only_is_written_as_gap_rows(aligner, caplog) -> None:
    """As ``align_profiles`` and ``--merge-table`` write it: the others merge as without it,
    and a protein merge is not called mixed because of it."""
    parts, _, _ = split_family(aligner, 9, 3, 2)
    gaps = [SeqRecord(Seq("---"), id="x"), SeqRecord(Seq("---"), id="y")]
    merged = aligner.merge([parts[0], gaps, parts[1], parts[2]])
    alone = rows_of(aligner.merge([parts[0], parts[1], parts[2]]))
    n0 = len(parts[0])
    assert rows_of(merged) == alone[:n0] + ["-" * len(alone[0])] * 2 + alone[n0:]
    assert [s.id for s in merged.sequences][n0:n0 + 2] == ["x", "y"]
    assert "alignment 2 has no residues" in caplog.text
    assert "alignment 2" not in merged.merge_tree
    two = aligner.merge([gaps, parts[1]])
    assert rows_of(two) == ["-" * len(rows_of(parts[1])[0])] * 2 + rows_of(parts[1])
    assert rows_of(aligner.align_profiles(gaps, parts[1])) == rows_of(two)


def test_distances_between_alignments_are_mean_distances() -> None:
    rng = np.random.default_rng(3)
    owner = np.array([0, 0, 1, 2, 2, 2, 1])
    d = rng.random((7, 7))
    d = (d + d.T) / 2
    got = group_distances(d, owner, 3)
    for x in range(3):
        for y in range(3):
            pairs = [d[i, j] for i in range(7) for j in range(7)
                     if owner[i] == x and owner[j] == y]
            assert got[x, y] == pytest.approx(0.0 if x == y else np.mean(pairs))


def test_representatives_are_spread_rows_with_residues() -> None:
    big = np.frombuffer(b"".join(b"AC-D" if i % 2 else b"----" for i in range(40)),
                        np.uint8).reshape(40, 4)
    one = np.frombuffer(b"M-K", np.uint8).reshape(1, 3)
    texts, owner = representatives([big, one])
    assert texts == ["ACD"] * REPRESENTATIVES + ["MK"]
    assert owner.tolist() == [0] * REPRESENTATIVES + [1]


def test_merge_errors(aligner) -> None:
    parts, _, _ = split_family(aligner, 9, 3, 2)
    with pytest.raises(InputError, match="two or more"):
        aligner.merge(parts[:1])
    with pytest.raises(InputError, match="list of two or more"):
        aligner.merge(parts[0])
    with pytest.raises(InputError, match="is in alignment 1 and alignment 3"):
        aligner.merge([parts[0], parts[1], [SeqRecord(Seq("MKV"), id=parts[0].sequences[0].id)]])
    with pytest.raises(InputError, match="given twice"):
        aligner.merge([parts[0], parts[1], parts[0]], names=["a.fa", "b.fa", "a.fa"])
    with pytest.raises(InputError, match="none of the alignments has residues"):
        aligner.merge([[SeqRecord(Seq("--"), id="y")], [SeqRecord(Seq("---"), id="x")]])
    dna = [SeqRecord(Seq("ACGTTGCA"), id="n1"), SeqRecord(Seq("ACGTTGCC"), id="n2")]
    auto = ProgressiveAligner(device=DEVICE, refinement=0)
    with pytest.raises(InputError, match="alignment 1 is protein, alignment 3 nucleotide"):
        auto.merge([parts[0], parts[1], dna])


def test_cli_merges_files_and_refuses_mixed_modes(aligner, tmp_path, capsys) -> None:
    parts, names, texts = split_family(aligner, 10, 3, 8)
    files = []
    for i, part in enumerate(parts):
        files.append(tmp_path / f"g{i}.fa")
        files[-1].write_text("".join(f">{s.id}\n{r}\n" for s, r in
                                     zip(part.sequences, rows_of(part), strict=True)))
    out = tmp_path / "merged.fa"
    scoring = ["--seqtype", "protein", "--matrix", "BLOSUM62", "--gap-open", "10",
               "--gap-extend", "1", "--end-gap-open", "2", "--end-gap-extend", "0.5",
               "--shift", "0", "--distances", "ktuple"]
    assert main(["-q", "profile", *map(str, files), "-o", str(out), *scoring,
                 "--device", DEVICE]) == 0
    got = re.findall(r">(\S+)\n(\S+)", out.read_text())
    assert [n for n, _ in got] == names
    assert [r for _, r in got] == rows_of(aligner.merge([str(f) for f in files]))
    gone = tmp_path / "gone.fa"
    for args, message in (([*map(str, files), "--add", str(files[0])], "give one of"),
                          ([str(files[0]), str(files[1]), str(files[0])], "given twice"),
                          ([str(files[0]), str(files[1]), str(tmp_path / "no.fa")],
                           "no.fa")):
        assert main(["-q", "profile", *args, "-o", str(gone), "--device", DEVICE]) == 2
        assert message in capsys.readouterr().err and not gone.exists()


def test_cli_merge_table_as_mafft_takes_it(aligner, tmp_path, capsys) -> None:
    """``--merge-table``: the sub-alignments a mafft table numbers, kept intact, the unlisted
    sequences aligned singly, rows in the input's order; bad tables named by line."""
    from bioplug.progressive.merging import read_table

    parts, names, texts = split_family(aligner, 9, 3, 4)
    records = [(s.id, r) for p in parts for s, r in zip(p.sequences, rows_of(p), strict=True)]
    # the input interleaves: the second sub-alignment first, a single sequence in between
    order = [3, 4, 5, 0, 6, 1, 2, 7, 8]
    path = tmp_path / "input.fa"
    given = [r.replace("-", "") if i == 6 else r for i, (_, r) in enumerate(records)]
    path.write_text("".join(f">{records[i][0]}\n{given[i]}\n" for i in order))
    table = tmp_path / "table.txt"
    table.write_text("1 2 3   # second\n4 6 7 # first\n\n8 9\n")
    groups, labels = read_table(table.read_text(), 9, "t")
    assert groups == [[0, 1, 2], [3, 5, 6], [7, 8], [4]]
    assert labels == ["t line 1", "t line 2", "t line 4", "sequence 5"]
    out = tmp_path / "out.fa"
    scoring = ["--seqtype", "protein", "--matrix", "BLOSUM62", "--gap-open", "10",
               "--gap-extend", "1", "--end-gap-open", "2", "--end-gap-extend", "0.5",
               "--shift", "0", "--distances", "ktuple"]
    assert main(["-q", "profile", str(path), "--merge-table", str(table), "-o", str(out),
                 *scoring, "--device", DEVICE]) == 0
    got = re.findall(r">(\S+)\n(\S+)", out.read_text())
    assert [n for n, _ in got] == [records[i][0] for i in order]
    single = [SeqRecord(Seq(texts[6]), id=names[6])]
    expected = aligner.merge([parts[1], parts[0], parts[2][1:], single])
    by_id = dict(zip([s.id for s in expected.sequences], rows_of(expected), strict=True))
    assert [r for _, r in got] == [by_id[n] for n, _ in got]
    gone = tmp_path / "gone.fa"
    odd = next(p for p in range(2, 10) if len(given[order[p - 1]]) != len(given[order[0]]))
    for text, message in (("1 2 x\n", "line 1: 'x' is not a sequence number"),
                          ("1 2\n2 3\n", "line 2: sequence 2 is listed on line 1 too"),
                          ("1 2\n3 10\n", "sequence 10, but the input has 9"),
                          ("# nothing\n", "lists no sequences"),
                          (f"1 {odd}\n", "the sub-alignment of")):
        table.write_text(text)
        assert main(["-q", "profile", str(path), "--merge-table", str(table), "-o",
                     str(gone), "--device", DEVICE]) == 2
        err = capsys.readouterr().err
        assert message in err and not gone.exists(), err
    assert main(["-q", "profile", str(path), str(path), "--merge-table", str(table), "-o",
                 str(gone), "--device", DEVICE]) == 2
    assert "reads one input" in capsys.readouterr().err


def test_merge_names_the_alignment_it_cannot_read(aligner, tmp_path, capsys) -> None:
    """Errors about one input name it (among fifty, "rows must have one length" alone does
    not say which); ``names`` of the wrong length is an InputError, not an IndexError."""
    parts, _, _ = split_family(aligner, 9, 3, 6)
    ragged = [SeqRecord(Seq("MKV"), id="r1"), SeqRecord(Seq("MKVL"), id="r2")]
    twice = [SeqRecord(Seq("MKV"), id="t"), SeqRecord(Seq("MKI"), id="t")]
    for bad, message in ((ragged, "alignment 2: an alignment's rows must have one length"),
                         (twice, "alignment 2: duplicate sequence ids: t"),
                         ([], "alignment 2: no sequences")):
        with pytest.raises(InputError, match=re.escape(message)):
            aligner.merge([parts[0], bad, parts[2]])
    with pytest.raises(InputError, match="b.fa: duplicate sequence ids: t"):
        aligner.merge([parts[0], twice, parts[2]], names=["a.fa", "b.fa", "c.fa"])
    with pytest.raises(InputError, match="one name for each of the 3 alignments, got 2"):
        aligner.merge(parts, names=["a.fa", "b.fa"])
    files = []
    for i, rows in enumerate((["MKVL-AG", "MKIL-AG"], ["MRVLSAG"], ["MKVLAG", "MKILAG"])):
        files.append(tmp_path / f"f{i}.fa")
        files[-1].write_text("".join(f">{'dup' if i == 2 else f's{i}_{j}'}\n{r}\n"
                                     for j, r in enumerate(rows)))
    out = tmp_path / "out.fa"
    for args in ([files[0], files[1], files[2]], [files[0], files[2]]):
        assert main(["-q", "profile", *map(str, args), "-o", str(out), "--device", DEVICE]) == 2
        assert f"{files[2]}: duplicate sequence ids: dup" in capsys.readouterr().err
        assert not out.exists()


def test_merge_table_edge_cases_as_mafft(tmp_path, capsys) -> None:
    """A table's odd lines (a number in another script's digits, a form feed) are errors
    named by the line an editor shows; an unlisted sequence without residues comes out as a
    row of gaps (as mafft --merge writes it), unlisted sequences are named by file and id, and
    a table that leaves nothing to merge says so."""
    from bioplug.progressive.merging import read_table

    with pytest.raises(InputError, match=r"t line 2: '²' is not a sequence number"):
        read_table("1 2\n3 ²\n", 5, "t")
    with pytest.raises(InputError, match=r"t line 2: 'x' is not a sequence number"):
        read_table("1\f2\nx\n", 5, "t")
    with pytest.raises(InputError, match="sequence 2 is listed twice on this line"):
        read_table("1 2 2\n", 5, "t")
    path = tmp_path / "in.fa"
    path.write_text(">a1 first of a\nMKVLAAGIVALLLA\n>a2\nMKVL--GIVALLLA\n>e empty\n----\n"
                    ">b1\nMKVLSAGIVGLLA\n>b2\nMRVLSAGIVGLLA\n>s\nMKVLAGIVALLLAW\n")
    table = tmp_path / "table.txt"
    table.write_text("1 2\n4 5\n")
    out = tmp_path / "out.fa"
    assert main(["-q", "profile", str(path), "--merge-table", str(table), "-o", str(out),
                 "--device", DEVICE]) == 0
    got = re.findall(r">([^\n]+)\n(\S+)", out.read_text())
    assert [n for n, _ in got] == ["a1 first of a", "a2", "e empty", "b1", "b2", "s"]
    rows = [r for _, r in got]
    assert len({len(r) for r in rows}) == 1 and set(rows[2]) == {"-"}
    assert [r.replace("-", "") for r in rows] == ["MKVLAAGIVALLLA", "MKVLGIVALLLA", "",
                                                  "MKVLSAGIVGLLA", "MRVLSAGIVGLLA",
                                                  "MKVLAGIVALLLAW"]
    assert drop_gap_columns(rows[:2]) == ["MKVLAAGIVALLLA", "MKVL--GIVALLLA"]
    dna = tmp_path / "mixed.fa"
    dna.write_text(">p1\nMKVLAG\n>p2\nMKILAG\n>n1\nACGTACGTAC\n")
    table.write_text("1 2\n")
    assert main(["-q", "profile", str(dna), "--merge-table", str(table), "-o", str(out),
                 "--device", DEVICE]) == 2
    assert f"{dna}, sequence 3 (n1) nucleotide" in capsys.readouterr().err
    # the sub-alignment and a sequence without residues: there is nothing to merge
    path.write_text(">a1\nMKVLAAGIVALLLA\n>a2\nMKVL--GIVALLLA\n>e\n----\n")
    out.unlink()
    assert main(["-q", "profile", str(path), "--merge-table", str(table), "-o", str(out),
                 "--device", DEVICE]) == 2
    assert not out.exists()
    assert "nothing to merge" in capsys.readouterr().err


def test_merge_warns_that_trees_is_not_read(aligner, tmp_path, caplog) -> None:
    files = []
    for i, rows in enumerate((["MKVL-AG", "MKIL-AG"], ["MRVLSAG"], ["MKVLAG"])):
        files.append(tmp_path / f"f{i}.fa")
        files[-1].write_text("".join(f">s{i}_{j}\n{r}\n" for j, r in enumerate(rows)))
    with caplog.at_level("WARNING", logger="bioplug.progressive.cli"):
        assert main(["-q", "profile", *map(str, files), "--trees", "nj", "-o",
                     str(tmp_path / "out.fa"), "--device", DEVICE]) == 0
    assert "--trees: not read when merging" in caplog.text
