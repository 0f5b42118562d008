"""``ProgressiveAligner`` end to end on PoCL (``BIOPLUG_TEST_DEVICE=gpu`` for a GPU).

Oracles: the input itself (rows keep every residue in order, input alignments keep their
columns), Biopython's ``PairwiseAligner`` optimum for every pair the tree aligns as two single
sequences, ``tests/progressive_reference.py`` for the optimum of a profile-profile step
(``align_profiles``, ``add``), scikit-bio for tree topologies, and a simulated family's true
alignment (``benchmarks/simulate.py``) for accuracy.
"""

from __future__ import annotations

import io
import logging
import os
import sys
import time
from pathlib import Path

import numpy as np
import progressive_reference as ref
import pytest
from Bio import Align
from Bio.Align import Alignment
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from skbio import Protein, TreeNode

from bioplug.alphabet import load_matrix
from bioplug.errors import InputError
from bioplug.msa.score import read_reference, sp_tc
from bioplug.progress import Cancelled
from bioplug.progressive import ProgressiveAligner
from bioplug.progressive.device import GapScores
from bioplug.progressive.guide import guide_tree, partition, seed_embedding, spectrum
from bioplug.progressive.pipeline import Substitution, profile_columns
from bioplug.progressive.trees import newick_from_linkage

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from simulate import evolve  # noqa: E402

#: PoCL by default; BIOPLUG_TEST_DEVICE=gpu runs the same checks on a GPU.
DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
AMINO = "ACDEFGHIKLMNPQRSTVWY"
#: Explicit scoring for the optimality oracles (so they do not depend on the defaults table).
#: Random protein strings may consist of IUPAC nucleotide codes only ("C", "AA"), which
#: seqtype="auto" calls DNA, hence seqtype="protein" wherever the input is random protein.
GAPS = dict(gap_open=10.0, gap_extend=1.0, end_gap_open=2.0, end_gap_extend=0.5, shift=0.0)
PROTEIN = dict(GAPS, seqtype="protein", matrix="BLOSUM62")
DNA_PEN = dict(gap_open=15.0, gap_extend=2.0, end_gap_open=3.0, end_gap_extend=1.0, shift=0.0)
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def aligner() -> ProgressiveAligner:
    """Progressive stage only (no refinement): its exact model is what these tests check."""
    return ProgressiveAligner(device=DEVICE, distances="ktuple", refinement=0, **PROTEIN)


@pytest.fixture(scope="module")
def aligner_align() -> ProgressiveAligner:
    """Default distances (local alignment scores of all pairs), no refinement."""
    return ProgressiveAligner(device=DEVICE, refinement=0, **PROTEIN)


# -- helpers --------------------------------------------------------------------------------------
def records(texts, prefix: str = "s") -> list[SeqRecord]:
    return [SeqRecord(Seq(t), id=f"{prefix}{i}", description="") for i, t in enumerate(texts)]


def rows_of(aln: Alignment) -> list[str]:
    return [aln[i] for i in range(len(aln.sequences))]


def ids_of(aln: Alignment) -> list[str]:
    return [s.id for s in aln.sequences]


def check_valid(aln: Alignment, ids: list[str], texts: list[str]) -> list[str]:
    """Rows in input order with ids kept, every row's residues equal to its input (gaps
    removed), rows of one length, no all-gap column; returns the rows."""
    rows = rows_of(aln)
    assert ids_of(aln) == ids
    assert [r.replace("-", "") for r in rows] == [t.replace("-", "").replace(".", "")
                                                 for t in texts]
    assert {len(r) for r in rows} == {aln.length}
    arr = np.array([list(r) for r in rows])
    assert not (arr == "-").all(axis=0).any()
    return rows


def drop_gap_columns(rows: list[str]) -> list[str]:
    arr = np.array([list(r) for r in rows]).reshape(len(rows), -1)
    keep = ~(arr == "-").all(axis=0)
    return ["".join(r) for r in arr[:, keep]]


def pair_score(ra: str, rb: str, matrix, gaps: dict) -> float:
    """Biopython-convention score of a two-row alignment (both-gap columns removed): each
    maximal gap run of ``n`` in one row scores -(open + (n - 1) * extend), with the end-gap
    penalties when it touches either end of that row's sequence."""
    ra, rb = drop_gap_columns([ra, rb])
    total = 0.0
    c = 0
    la, lb = len(ra.replace("-", "")), len(rb.replace("-", ""))
    i = j = 0
    while c < len(ra):
        if ra[c] != "-" and rb[c] != "-":
            total += matrix[ra[c].upper()][rb[c].upper()]
            i, j, c = i + 1, j + 1, c + 1
            continue
        gapped_b = rb[c] == "-"
        n = 1
        while c + n < len(ra) and ((rb if gapped_b else ra)[c + n] == "-"):
            n += 1
        if gapped_b:
            end = j in (0, lb)
            i += n
        else:
            end = i in (0, la)
            j += n
        op, ex = ((gaps["end_gap_open"], gaps["end_gap_extend"]) if end
                  else (gaps["gap_open"], gaps["gap_extend"]))
        total -= op + (n - 1) * ex
        c += n
    return total


def biopython_optimum(a: str, b: str, matrix, gaps: dict) -> float:
    aligner = Align.PairwiseAligner(mode="global", substitution_matrix=matrix,
                                    open_gap_score=-gaps["gap_open"],
                                    extend_gap_score=-gaps["gap_extend"],
                                    open_end_gap_score=-gaps["end_gap_open"],
                                    extend_end_gap_score=-gaps["end_gap_extend"])
    return aligner.score(a, b)


def moves_between(rows_a: list[str], rows_b: list[str]) -> np.ndarray:
    """Moves of a merged alignment of two groups: 0 both, 1 first only, 2 second only."""
    has_a = (np.array([list(r) for r in rows_a]) != "-").any(axis=0)
    has_b = (np.array([list(r) for r in rows_b]) != "-").any(axis=0)
    assert (has_a | has_b).all()
    return np.where(has_a & has_b, 0, np.where(has_a, 1, 2)).astype(np.uint8)


def profile_optimum(rows_a: list[str], rows_b: list[str], moves: np.ndarray,
                    gaps: dict) -> tuple[float, float]:
    """(reference optimum, reference score of ``moves``) of two gapped groups (BLOSUM62)."""
    sub = Substitution.complete(load_matrix("BLOSUM62"), False, gaps["shift"])
    as_bytes = lambda rows: np.array([list(r.encode()) for r in rows], dtype=np.uint8)  # noqa: E731
    px = profile_columns(as_bytes(rows_a), sub.letters, False, ["a"] * len(rows_a))
    py = profile_columns(as_bytes(rows_b), sub.letters, False, ["b"] * len(rows_b))
    args = (len(sub.letters), sub.values, -gaps["gap_open"], -gaps["gap_extend"],
            -gaps["end_gap_open"], -gaps["end_gap_extend"])
    best, _ = ref.profile_dp(px, py, *args)
    return best, ref.score_of_moves(moves, px, py, *args)


def mutate(rng: np.random.Generator, text: str, letters: str, rate: float) -> str:
    out = []
    for c in text:
        u = rng.random()
        if u < rate / 3:
            continue                                    # deletion
        out.append(letters[rng.integers(len(letters))] if u < rate else c)
        if rng.random() < rate / 4:
            out.append(letters[rng.integers(len(letters))])   # insertion
    return "".join(out) or text[:1]


# -- (a) valid alignments -------------------------------------------------------------------------
@settings(max_examples=25, **SETTINGS)
@given(texts=st.lists(st.text(AMINO, min_size=1, max_size=30), min_size=1, max_size=7),
       gapped=st.booleans(), by_align=st.booleans())
def test_rows_are_the_input(aligner, aligner_align, texts, gapped, by_align) -> None:
    if gapped:       # gap characters in the input are removed first
        texts = ["-" + t[:1] + "." + t[1:] + "--" for t in texts]
    recs = records(texts)
    aln = (aligner_align if by_align else aligner).align(recs)
    check_valid(aln, [r.id for r in recs], texts)


@settings(max_examples=30, **SETTINGS)
@given(a=st.text(AMINO, min_size=1, max_size=35), b=st.text(AMINO, min_size=1, max_size=35))
def test_two_sequences_are_biopython_optimal(aligner, a, b) -> None:
    aln = aligner.align(records([a, b]))
    ra, rb = check_valid(aln, ["s0", "s1"], [a, b])
    matrix = load_matrix("BLOSUM62")
    assert pair_score(ra, rb, matrix, PROTEIN) == biopython_optimum(a, b, matrix, PROTEIN)


@pytest.mark.parametrize("matrix, shift", [("PAM250", 0.0), ("pam250", 3.0),
                                           ("BLOSUM45", -1.0), ("PFASUM43", 4.0)])
def test_matrix_and_shift(matrix, shift) -> None:
    """A matrix by name (any case; PFASUM43 comes from the scoring-matrices package) or as a
    Biopython Array, and a shift added to every score: pairs are optimal under Biopython
    with the shifted matrix."""
    gaps = dict(GAPS, shift=shift)
    by_name = ProgressiveAligner(device=DEVICE, distances="ktuple", seqtype="protein",
                                 matrix=matrix, **gaps)
    array = load_matrix(matrix.upper())
    by_array = ProgressiveAligner(device=DEVICE, distances="ktuple", seqtype="protein",
                                  matrix=array, **gaps)
    rng = np.random.default_rng(len(matrix))
    for _ in range(4):
        a = "".join(rng.choice(list(AMINO), int(rng.integers(5, 40))))
        b = mutate(rng, a, AMINO, 0.4)
        rows = rows_of(by_name.align(records([a, b])))
        assert rows == rows_of(by_array.align(records([a, b])))
        assert (pair_score(*rows, array + shift, gaps)
                == biopython_optimum(a, b, array + shift, gaps))


def test_input_forms(aligner, tmp_path) -> None:
    """Records, plain strings (ids seq1...), skbio sequences, a FASTA path, one sequence."""
    _, texts, _ = evolve(6, 40, 11)
    recs = records(texts, "x")
    by_records = aligner.align(recs)
    path = tmp_path / "in.fa"
    path.write_text("".join(f">x{i} desc\n{t}\n" for i, t in enumerate(texts)))
    by_path = aligner.align(str(path))
    by_str = aligner.align(texts)
    by_skbio = aligner.align([Protein(t, metadata={"id": f"x{i}"}) for i, t in enumerate(texts)])
    assert rows_of(by_path) == rows_of(by_records) == rows_of(by_str) == rows_of(by_skbio)
    assert ids_of(by_skbio) == ids_of(by_records)
    assert ids_of(by_path) == ids_of(by_records) == [f"x{i}" for i in range(6)]
    assert ids_of(by_str) == [f"seq{i + 1}" for i in range(6)]
    one = aligner.align(["MKV"])
    assert rows_of(one) == ["MKV"]


# -- (b) a given guide tree -----------------------------------------------------------------------
# a ~ c and b ~ d, so the tree computed from distances would be ((a,c),(b,d)); the given tree
# pairs a with b and c with d
FOUR = {"a": "MKVLATGHWQEIRKALNEG", "b": "PDSYNFECTRGWVLMAHK",
        "c": "MKVLATGHWQDIRKALNEG", "d": "PDSYNFECTRGWILMAHK"}
NEWICK = "((a:1,b:1):1,(c:1.5,d:1.5):0.5);"
#: the same tree by hand: heights are twice the tip distances (a,b: 2; c,d: 3; root: 4)
LINKAGE = np.array([[0, 1, 2.0, 2], [2, 3, 3.0, 2], [4, 5, 4.0, 4]])


def tree(newick: str) -> TreeNode:
    return TreeNode.read(io.StringIO(newick), format="newick")


def test_given_guide_tree(aligner) -> None:
    recs = [SeqRecord(Seq(s), id=n, description="") for n, s in FOUR.items()]
    by_text = aligner.align(recs, guide_tree=NEWICK)
    check_valid(by_text, list(FOUR), list(FOUR.values()))
    assert tree(by_text.guide_tree).compare_rfd(tree(NEWICK), rooted=True) == 0
    computed = aligner.align(recs)
    assert tree(computed.guide_tree).compare_rfd(tree(NEWICK)) > 0    # the given one is used
    by_link = aligner.align(recs, guide_tree=LINKAGE)
    by_node = aligner.align(recs, guide_tree=tree(NEWICK))
    assert rows_of(by_text) == rows_of(by_link) == rows_of(by_node)
    # the tree's pairs are aligned first, as two single sequences: Biopython-optimal
    rows = dict(zip(FOUR, rows_of(by_text), strict=True))
    matrix = load_matrix("BLOSUM62")
    for x, y in (("a", "b"), ("c", "d")):
        assert (pair_score(rows[x], rows[y], matrix, PROTEIN)
                == biopython_optimum(FOUR[x], FOUR[y], matrix, PROTEIN))


def test_guide_tree_file_and_bio_phylo(aligner, tmp_path) -> None:
    from Bio import Phylo

    recs = [SeqRecord(Seq(s), id=n, description="") for n, s in FOUR.items()]
    want = rows_of(aligner.align(recs, guide_tree=LINKAGE))
    path = tmp_path / "guide.nwk"
    path.write_text(NEWICK + "\n")
    assert rows_of(aligner.align(recs, guide_tree=str(path))) == want
    assert rows_of(aligner.align(recs, guide_tree=Phylo.read(io.StringIO(NEWICK),
                                                               "newick"))) == want
    with pytest.raises(InputError, match="tips"):
        aligner.align(recs, guide_tree="((a,b),c);")
    with pytest.raises(InputError, match="shape"):
        aligner.align(recs, guide_tree=LINKAGE[:2])


def test_guide_tree_round_trip(aligner, groups) -> None:
    """``alignment.guide_tree`` is the tree used: given back, it gives the same rows."""
    a, _, names, texts = groups
    recs = [SeqRecord(Seq(t), id=n) for n, t in zip(names[:6], texts[:6], strict=True)]
    again = aligner.align(recs, guide_tree=a.guide_tree)
    assert rows_of(again) == rows_of(a)
    assert tree(again.guide_tree).compare_rfd(tree(a.guide_tree), rooted=True) == 0


def test_guide_tree_ids_with_underscores(aligner) -> None:
    """Ids such as sp_P12345 are common; the aligner's own ``guide_tree`` must round-trip."""
    recs = [SeqRecord(Seq(s), id=f"sp_{n}", description="") for n, s in FOUR.items()]
    first = aligner.align(recs, guide_tree="((sp_a,sp_b),(sp_c,sp_d));")
    again = aligner.align(recs, guide_tree=first.guide_tree)
    assert rows_of(again) == rows_of(first)


def test_malformed_linkage_is_input_error(aligner) -> None:
    recs = [SeqRecord(Seq(s), id=n, description="") for n, s in FOUR.items()]
    bad = np.array([[0, 1, 1.0, 2], [0, 1, 1.0, 2], [4, 5, 2.0, 4]])
    with pytest.raises(InputError):
        aligner.align(recs, guide_tree=bad)


# -- (c) two alignments ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def groups(aligner):
    """Two aligned groups of one simulated family, and their unaligned texts."""
    names, texts, _ = evolve(10, 45, 21)
    a = aligner.align([SeqRecord(Seq(t), id=n) for n, t in zip(names[:6], texts[:6],
                                                                 strict=True)])
    b = aligner.align([SeqRecord(Seq(t), id=n) for n, t in zip(names[6:], texts[6:],
                                                                 strict=True)])
    return a, b, names, texts


def test_align_profiles_keeps_columns(aligner, groups, tmp_path) -> None:
    a, b, names, texts = groups
    merged = aligner.align_profiles(a, b)
    rows = check_valid(merged, names, texts)
    assert drop_gap_columns(rows[:6]) == rows_of(a)
    assert drop_gap_columns(rows[6:]) == rows_of(b)
    # the two groups' placement is optimal under the kernel's model (reference DP)
    best, got = profile_optimum(rows_of(a), rows_of(b), moves_between(rows[:6], rows[6:]),
                                PROTEIN)
    assert got == pytest.approx(best, abs=1e-3)
    # the same from a file and from a list of gapped records
    path = tmp_path / "a.fa"
    path.write_text("".join(f">{n}\n{r}\n" for n, r in zip(ids_of(a), rows_of(a),
                                                           strict=True)))
    as_records = [SeqRecord(Seq(r), id=n) for n, r in zip(ids_of(b), rows_of(b), strict=True)]
    assert rows_of(aligner.align_profiles(str(path), as_records)) == rows
    # rows of ``first`` come first
    swapped = aligner.align_profiles(b, a)
    assert ids_of(swapped) == names[6:] + names[:6]
    assert drop_gap_columns(rows_of(swapped)[:4]) == rows_of(b)


def test_align_profiles_gap_characters_and_gap_columns(aligner) -> None:
    """'.' is a gap; the input's all-gap columns vanish, every other column stays."""
    first = [SeqRecord(Seq("MK.VLA-T"), id="p"), SeqRecord(Seq("MK-ILA-S"), id="q")]
    second = [SeqRecord(Seq("MKVLAT"), id="r")]
    rows = check_valid(aligner.align_profiles(first, second), ["p", "q", "r"],
                       ["MKVLAT", "MKILAS", "MKVLAT"])
    assert drop_gap_columns(rows[:2]) == ["MKVLAT", "MKILAS"]
    with pytest.raises(InputError, match="one length"):
        aligner.align_profiles([SeqRecord(Seq("MK-"), id="p"), SeqRecord(Seq("MK"), id="q")],
                               second)
    with pytest.raises(InputError, match="duplicate"):
        aligner.align_profiles(first, [SeqRecord(Seq("MKV"), id="p")])
    with pytest.raises(InputError, match=r"q.*'1'.*column 3"):
        aligner.align_profiles([SeqRecord(Seq("MKV"), id="p"), SeqRecord(Seq("MK1"), id="q")],
                               second)


def test_align_profiles_keeps_an_all_gap_row(aligner) -> None:
    """An alignment may hold a row of gaps only (a subset of a larger alignment): it stays,
    as gaps, where an 'empty sequence' refusal stopped the job."""
    rows = rows_of(aligner.align_profiles(["MKV-LA", "------", "MKVQLA"], ["MKVLA"]))
    assert rows[1] == "-" * len(rows[0]) and rows[3].replace("-", "") == "MKVLA"


def test_align_profiles_of_plain_strings(aligner) -> None:
    """The docstring accepts lists of gapped strings for both alignments."""
    rows = rows_of(aligner.align_profiles(["MK-VLAT", "MKIVLAS"], ["MKVLAT"]))
    assert drop_gap_columns(rows[:2]) == ["MK-VLAT", "MKIVLAS"]
    aln = aligner.align(["MKVLATGHW", "MKVATGHW"])
    bigger = aligner.add(aln, ["MKVLSTGHW"])
    assert len(bigger.sequences) == 3


def test_align_profiles_refuses_a_nucleotide_beside_a_protein_alignment() -> None:
    dna = ["ACGT-ACGTTGCA", "ACGTTACG-TGCA"]
    protein = ["MKVLATGHWEEIL", "MKILAS-HWEEIL"]
    auto = ProgressiveAligner(device=DEVICE, distances="ktuple", refinement=0)
    for first, second in ((dna, protein), (protein, dna)):
        with pytest.raises(InputError, match="first alignment is .*, the second"):
            auto.align_profiles(first, second)
    assert len(rows_of(auto.align_profiles(dna, ["ACGTACGTTGCA"]))) == 3
    forced = ProgressiveAligner(device=DEVICE, distances="ktuple", refinement=0,
                                seqtype="protein")   # the user's choice: no detection
    assert len(rows_of(forced.align_profiles(protein, ["ACGTACGTTGCA"]))) == 3


# -- (d) adding sequences -------------------------------------------------------------------------
def test_add_keeps_the_alignment(aligner, groups) -> None:
    a, _, names, texts = groups
    new = [SeqRecord(Seq(t), id=n) for n, t in zip(names[6:], texts[6:], strict=True)]
    bigger = aligner.add(a, new)
    rows = check_valid(bigger, names, texts)
    assert drop_gap_columns(rows[:6]) == rows_of(a)
    # the new sequences were aligned among themselves first: that alignment stays too
    assert drop_gap_columns(rows[6:]) == rows_of(aligner.align(new))
    # one new sequence: placed optimally against the profile (reference DP)
    one = aligner.add(a, [new[0]])
    rows = check_valid(one, names[:7], texts[:7])
    assert drop_gap_columns(rows[:6]) == rows_of(a)
    best, got = profile_optimum(rows_of(a), [texts[6]], moves_between(rows[:6], rows[6:]),
                                PROTEIN)
    assert got == pytest.approx(best, abs=1e-3)


def test_add_reads_the_alignment_once_and_keeps_its_descriptions(aligner, tmp_path,
                                                                   monkeypatch, capsys) -> None:
    """``bioplug profile - --add NEW``: the alignment comes from standard input, which can be
    read once; an Alignment's descriptions stay in the result."""
    from bioplug.cli import main

    text = ">a first one\nMKV-LAGHW\n>b second\nMKVQLAGHW\n"
    new = tmp_path / "new.fa"
    new.write_text(">n new\nMKVLAGW\n")
    (tmp_path / "aln.fa").write_text(text)
    assert main(["-q", "profile", str(tmp_path / "aln.fa"), "--add", str(new), "-o", "-",
                 "--device", "cpu"]) == 0
    by_path = capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["-q", "profile", "-", "--add", str(new), "-o", "-", "--device", "cpu"]) == 0
    assert capsys.readouterr().out == by_path
    assert [ln for ln in by_path.splitlines() if ln.startswith(">")] == [
        ">a first one", ">b second", ">n new"]
    out = aligner.add(Align.read(io.StringIO(text), "fasta"), [SeqRecord(Seq("MKVLAGW"), id="n")])
    assert [s.description for s in out.sequences] == ["first one", "second", ""]


# -- (e) nucleotides ------------------------------------------------------------------------------
def test_dna_end_to_end(aligner) -> None:
    rng = np.random.default_rng(5)
    root = "".join(rng.choice(list("ACGT"), 60))
    texts = [mutate(rng, root, "ACGT", 0.15) for _ in range(5)]
    texts[1] = texts[1].lower()                       # lower case is kept in the rows
    texts[2] = texts[2].replace("T", "U")              # RNA letters too
    recs = records(texts, "n")
    dna = ProgressiveAligner(device=DEVICE, distances="ktuple", **DNA_PEN)
    aln = dna.align(recs)
    rows = check_valid(aln, [r.id for r in recs], texts)
    assert all(s.annotations.get("molecule_type") == "DNA" for s in aln.sequences)
    assert "U" in rows[2] and rows[1] == rows[1].lower()
    # detected as nucleotides: pairs are optimal under NUC.4.4 (scored with U as T)
    nuc = load_matrix("NUC.4.4")
    pair = dna.align(recs[1:3])
    ra, rb = (r.upper().replace("U", "T") for r in rows_of(pair))
    a, b = (t.upper().replace("U", "T") for t in texts[1:3])
    assert pair_score(ra, rb, nuc, DNA_PEN) == biopython_optimum(a, b, nuc, DNA_PEN)
    # seqtype="protein": ACGT are amino-acid letters (U scores as X); BLOSUM62-optimal pairs
    as_protein = ProgressiveAligner(device=DEVICE, distances="ktuple", seqtype="protein",
                                    matrix="BLOSUM62", **GAPS)
    check_valid(as_protein.align(recs), [r.id for r in recs], texts)
    pair = as_protein.align(records(texts[3:5]))
    blosum = load_matrix("BLOSUM62")
    assert (pair_score(*rows_of(pair), blosum, PROTEIN)
            == biopython_optimum(texts[3], texts[4], blosum, PROTEIN))
    assert all(s.annotations.get("molecule_type") == "protein" for s in pair.sequences)


def test_letters_outside_the_matrix(aligner) -> None:
    dna = ProgressiveAligner(device=DEVICE, distances="ktuple", seqtype="dna")
    with pytest.raises(InputError, match=r"bad.*'E'.*position 5"):
        dna.align([SeqRecord(Seq("ACGT"), id="ok"), SeqRecord(Seq("ACGTEA"), id="bad")])
    with pytest.raises(InputError, match=r"odd.*'1'.*position 3"):
        aligner.align([SeqRecord(Seq("MKVL"), id="ok"), SeqRecord(Seq("MK1L"), id="odd")])


def test_rare_amino_acids_with_alignment_distances(aligner_align) -> None:
    texts = ["MKVUELWQ", "MKVCELWQ", "MKOLELWQ", "MKJLEW"]
    recs = records(texts, "sel")
    check_valid(aligner_align.align(recs), [r.id for r in recs], texts)


def test_rare_amino_acids_with_ktuple_distances(aligner) -> None:
    texts = ["MKVUELWQ", "MKVCELWQ", "MKOLELWQ", "MKJLEW"]
    recs = records(texts, "sel")
    check_valid(aligner.align(recs), [r.id for r in recs], texts)


# -- (f) bad input --------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, message", [
    (dict(gap_open=-1.0), "gap_open"),
    (dict(gap_extend=float("nan")), "gap_extend"),
    (dict(end_gap_open=-0.5), "end_gap_open"),
    (dict(seqtype="xna"), "seqtype"),
    (dict(distances="blast"), "distances"),
    (dict(weights="heavy"), "weights"),
    (dict(max_matrix=1), "max_matrix"),
    (dict(shift=float("inf")), "shift"),
])
def test_bad_settings(kwargs, message) -> None:
    with pytest.raises(InputError, match=message):
        ProgressiveAligner(device=DEVICE, **kwargs)


def test_bad_input(aligner) -> None:
    with pytest.raises(InputError, match=r"empty.*record 2"):
        aligner.align([SeqRecord(Seq("MKV"), id="a"), SeqRecord(Seq("--"), id="b")])
    with pytest.raises(InputError, match="empty"):
        aligner.align(["MKV", ""])
    with pytest.raises(InputError, match="duplicate sequence ids: a"):
        aligner.align([SeqRecord(Seq("MKV"), id="a"), SeqRecord(Seq("MKL"), id="a")])
    with pytest.raises(InputError, match="no sequences"):
        aligner.align([])
    with pytest.raises(InputError, match="unknown substitution matrix 'BLOSUM99'"):
        ProgressiveAligner(device=DEVICE, matrix="BLOSUM99").align(["MKV", "MKL"])


# -- (g) progress ---------------------------------------------------------------------------------
def test_progress_and_cancel(aligner) -> None:
    _, texts, _ = evolve(9, 30, 4)
    seen = []
    aligner.align(texts, progress=lambda *event: seen.append(event))
    stages = [s for s, _, _ in seen]
    assert stages.index("guide tree") < stages.index("progressive")
    progressive = [(d, t) for s, d, t in seen if s == "progressive"]
    assert progressive[-1] == (8, 8)
    assert all(d0 <= d1 for (d0, _), (d1, _) in zip(progressive, progressive[1:],
                                                      strict=False))
    with pytest.raises(Cancelled):
        aligner.align(texts, progress=lambda stage, done, total: stage != "progressive")
    with pytest.raises(Cancelled):
        aligner.align(texts, progress=lambda stage, done, total: False)


# -- (h) the embedded (bisecting) guide tree ------------------------------------------------------
def check_linkage(link: np.ndarray, k: int) -> None:
    """A scipy-style linkage: every node a child once, children before parents, sizes add up,
    heights non-decreasing towards the root."""
    assert link.shape == (k - 1, 4)
    children = link[:, :2].astype(np.int64)
    assert np.array_equal(np.sort(children.ravel()), np.arange(2 * k - 2))
    size = np.ones(2 * k - 1)
    height = np.zeros(2 * k - 1)
    for t, (c1, c2) in enumerate(children):
        assert max(c1, c2) < k + t
        size[k + t] = size[c1] + size[c2]
        height[k + t] = link[t, 2]
        assert height[k + t] >= max(height[c1], height[c2])
    np.testing.assert_array_equal(link[:, 3], size[k:])


@pytest.mark.parametrize(("distances", "embedding"), [("ktuple", "spectrum"),
                                                      ("align", "mbed")])
def test_embedded_guide_tree(distances, embedding, caplog) -> None:
    """80 sequences, at most 20 in a distance matrix: bisecting 2-means over the k-tuple
    spectra or over distances to seed sequences (mBed)."""
    names, texts, _ = evolve(80, 60, 8)
    small = ProgressiveAligner(device=DEVICE, distances=distances, max_matrix=20,
                               embedding=embedding)
    with caplog.at_level(logging.INFO, logger="bioplug.progressive.guide"):
        aln = small.align([SeqRecord(Seq(t), id=n) for n, t in zip(names, texts, strict=True)])
    assert "bisecting" in caplog.text
    check_valid(aln, names, texts)
    link = guide_tree(texts, False, 20, DEVICE, 0, distances, embedding)
    check_linkage(link, 80)
    assert tree(aln.guide_tree).compare_rfd(tree(newick_from_linkage(link, names)),
                                            rooted=True) == 0
    # the parts: every index once, none above max_matrix
    parts = []

    def walk(item):
        if isinstance(item, np.ndarray):
            parts.append(item)
        else:
            walk(item[0])
            walk(item[1])

    points = (seed_embedding(texts, False, DEVICE) if embedding == "mbed"
              else spectrum(texts, False))
    walk(partition(points, 20, 0))
    assert max(p.size for p in parts) <= 20 and len(parts) >= 4
    assert np.array_equal(np.sort(np.concatenate(parts)), np.arange(80))


@pytest.mark.parametrize("distances", ["ktuple", "align"])
def test_embedded_tree_of_identical_sequences(distances) -> None:
    """Identical spectra cannot be split by 2-means (halves instead); zero distances give
    zero heights: the rows are then the sequences themselves, without gaps."""
    texts = ["MKVLATGHWQEIRKAL"] * 30
    aln = ProgressiveAligner(device=DEVICE, distances=distances, max_matrix=8).align(texts)
    assert rows_of(aln) == texts
    check_linkage(guide_tree(texts, False, 8, DEVICE, 0, distances), 30)


# -- (i) accuracy on a simulated family -----------------------------------------------------------
@pytest.mark.parametrize("distances", ["align", "ktuple"])
def test_simulated_family_accuracy(distances, tmp_path) -> None:
    """60 x 120 simulated (measured SP 0.97-0.996 over seeds 1-3 with both distances)."""
    names, texts, true_rows = evolve(60, 120, 2)
    path = tmp_path / "true.fa"
    path.write_text("".join(f">{n}\n{r}\n" for n, r in zip(names, true_rows, strict=True)))
    aln = ProgressiveAligner(device=DEVICE, distances=distances).align(
        [SeqRecord(Seq(t), id=n) for n, t in zip(names, texts, strict=True)])
    rows = check_valid(aln, names, texts)
    sp, tc = sp_tc(names, rows, read_reference(path))
    assert sp > 0.9, (sp, tc)


def test_fragments_sit_apart_from_repeat_chains(aligner_align) -> None:
    """Alignment distances divide by the larger self-score: a one-domain fragment identical
    to one repeat of a two-repeat chain is far from it (by the smaller self-score it was at
    distance 0, and HomFam's repeat families, e.g. bowman, fell apart), and two chains are
    closer to each other than to the fragment."""
    from bioplug.progressive.guide import alignment_distances

    rng = np.random.default_rng(5)
    domain = "".join(rng.choice(list(AMINO), 60))
    other = mutate(rng, domain, AMINO, 0.3)
    chain_a = domain + other
    chain_b = mutate(rng, domain, AMINO, 0.1) + mutate(rng, other, AMINO, 0.1)
    d = alignment_distances([domain, chain_a, chain_b], False, DEVICE)
    assert d[0, 1] > 0.3 and d[0, 2] > 0.3
    assert d[1, 2] < min(d[0, 1], d[0, 2])


@pytest.mark.parametrize(("k", "want"), [
    (99, ("PFASUM43", -14.0, -0.75, -2.0, -0.25, 0.0)),     # small: BAliBASE-tuned
    (100, ("PFASUM43", -10.0, -1.0, -0.66, -0.66, 6.0)),    # large: HomFam-tuned, unchanged
])
def test_protein_defaults_by_family_size(k, want) -> None:
    """Small and large protein families take their own ``DEFAULTS`` rows (the matrix compared
    by its scores: PFASUM43 plus the shift), and explicit settings still win."""
    texts = ["MKVLWTHE"] * k
    matrix, gaps, nucleotide = ProgressiveAligner().scoring(texts)
    name, *penalties, shift = want
    base = Substitution.complete(load_matrix(name), False, shift)
    assert not nucleotide and matrix.letters == base.letters
    np.testing.assert_array_equal(matrix.values, base.values)
    assert gaps == GapScores(*penalties)
    mine, gaps, _ = ProgressiveAligner(matrix="BLOSUM62", gap_open=9.0).scoring(texts)
    np.testing.assert_array_equal(
        mine.values, Substitution.complete(load_matrix("BLOSUM62"), False, shift).values)
    assert (gaps.open, gaps.extend) == (-9.0, penalties[1])


def test_stop_letter_with_a_matrix_that_lacks_it() -> None:
    """PFASUM43 has no ``*``: input with one gets a ``*`` row (1 with itself, the matrix's
    lowest score against the rest, as in BLOSUM62); input without one keeps the plain matrix."""
    plain = Substitution.complete(load_matrix("PFASUM43"), False)
    matrix, _, _ = ProgressiveAligner().scoring(["MKVL*", "MKIL*", "MRVL"])
    star = matrix.letters.index("*")
    assert matrix.values[star, star] == 1.0
    others = np.delete(matrix.values[star], star)
    assert (others == plain.values.min()).all()
    same, _, _ = ProgressiveAligner().scoring(["MKVL", "MKIL"])
    assert same.letters == plain.letters
    aln = ProgressiveAligner(device=DEVICE).align(["MKVLAGH*", "MKILAGH*", "MRVLGH*"])
    assert {aln[i][-1] for i in range(3)} == {"*"}        # the stops end up in one column


# -- (j) a large family ---------------------------------------------------------------------------
@pytest.mark.slow
def test_large_family_ktuple() -> None:
    """1,500 x ~60 on PoCL (measured about 1 s on 2 cores). Rows through
    ``bioplug.io.alignment_rows``: Biopython's ``alignment[i]`` takes ~15 ms a row here."""
    from bioplug.io import alignment_rows
    from bioplug.msa.score import Reference

    names, texts, true_rows = evolve(1500, 60, 1, scale=0.03)
    t0 = time.perf_counter()
    aln = ProgressiveAligner(device=DEVICE, distances="ktuple").align(
        [SeqRecord(Seq(t), id=n) for n, t in zip(names, texts, strict=True)])
    wall = time.perf_counter() - t0
    rows = [r.tobytes().decode() for r in alignment_rows(aln)]
    assert rows[:3] == [aln[i] for i in range(3)]
    assert ids_of(aln) == names and {len(r) for r in rows} == {aln.length}
    assert [r.replace("-", "") for r in rows] == texts
    sp, _ = sp_tc(names, rows, Reference(names, true_rows, np.ones(len(true_rows[0]), bool)))
    assert sp > 0.95
    assert wall < 30, wall


def test_auto_distances_follow_the_device_budget(monkeypatch) -> None:
    """"auto" aligns all pairs while their cells fit the device's budget, else LCS."""
    from bioplug.progressive import guide
    from bioplug.runtime import get_runtime

    rt = get_runtime(DEVICE)
    texts = ["M" * 100] * 10                                  # 45 pairs x 10^4 cells
    kind = "gpu" if rt.is_gpu else "cpu"
    monkeypatch.setitem(guide.ALIGN_CELLS, kind, 4.5e5)
    assert guide.resolve_distances("auto", texts, rt) == "align"
    monkeypatch.setitem(guide.ALIGN_CELLS, kind, 4.4e5)
    assert guide.resolve_distances("auto", texts, rt) == "lcs"
    assert guide.resolve_distances("align", texts, rt) == "align"
    assert guide.resolve_distances("ktuple", texts, rt) == "ktuple"


def test_matrix_limit_follows_the_device(monkeypatch) -> None:
    """max_matrix=None: the most sequences whose packed float32 triangle fits the device's
    share; single linkage without a matrix starts above it."""
    from bioplug.progressive import guide
    from bioplug.progressive.lcs import packed_bytes
    from bioplug.runtime import get_runtime

    rt = get_runtime(DEVICE)
    limit = guide.matrix_limit(None, rt)
    budget = min(rt.max_alloc, rt.memory_budget(guide.MATRIX_SHARE))
    assert packed_bytes(limit) <= budget < packed_bytes(limit + 1)
    assert guide.matrix_limit(7, rt) == 7
    monkeypatch.setattr(guide, "MATRIX_SHARE", 4 * 21 / rt.memory_budget(1.0))   # 7 sequences
    assert guide.matrix_limit(None, rt) == 7
    seen = []
    real = guide.lcs_tree
    monkeypatch.setattr(guide, "lcs_tree", lambda texts, device, method="average":
                        seen.append((len(texts), method)) or real(texts, device, method))
    texts = ["MKVLAAGIV", "MKVLAGIVW", "MRVLAAGIW", "WKVLAAGIV", "MKVPAAGIV", "MKVLAQGIV",
             "MKWLAAGIV", "MKVLAAGIW"]
    ProgressiveAligner(device=DEVICE, refinement=0).align(texts)
    assert seen == [(8, "single")]
    ProgressiveAligner(device=DEVICE, refinement=0, max_matrix=8, distances="lcs").align(texts)
    assert seen == [(8, "single"), (8, "average")]


def test_align_many_equals_align_and_names_a_bad_family(tmp_path) -> None:
    """``align_many`` shares the QuickProbs aligner's batch loop: same rows as ``align`` per
    family; a bad family is named, and skipped with ``keep_going``."""
    from bioplug.progressive import ProgressiveAligner

    good = tmp_path / "good.fa"
    good.write_text(">a\nMKVLATGHW\n>b\nMKVATGHW\n>c\nMRVLSTGHW\n")
    bad = tmp_path / "bad.fa"
    bad.write_text(">a\nMKVL\n>a\nMKV\n")
    al = ProgressiveAligner(device=DEVICE, distances="ktuple")
    many = al.align_many([good, ["MKVLAT", "MKLAT"]])
    assert rows_of(many[0]) == rows_of(al.align(good))
    assert rows_of(many[1]) == rows_of(al.align(["MKVLAT", "MKLAT"]))
    with pytest.raises(InputError, match="bad.fa.*duplicate"):
        al.align_many([good, bad])
    kept = al.align_many([bad, good], keep_going=True)
    assert kept[0] is None and rows_of(kept[1]) == rows_of(many[0])
    assert [r.name for r in al.last_errors] == [str(bad)]


def test_msa_auto_takes_progressive_above_full_mode(tmp_path, caplog) -> None:
    """`bioplug msa` (--method auto): protein families above 300 sequences go to the
    progressive pipeline, and the command says so; 300 stay with QuickProbs."""
    import bioplug.msa.cli as msa_cli
    from bioplug.cli import build_parser

    rng = np.random.default_rng(3)
    root = "".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 30))
    chosen = []
    for k in (300, 301):
        src = tmp_path / f"k{k}.fa"
        src.write_text("".join(f">s{i}\n{root[: 20 + i % 10]}\n" for i in range(k)))
        args = build_parser().parse_args(["msa", str(src), "-o", str(tmp_path / "out.fa")])
        method, records = msa_cli.choose_method(args, args.input[0])
        assert len(records) == k
        chosen.append(method)
    assert chosen == ["quickprobs", "progressive"]
    assert "301 protein sequences: aligning with --method progressive" in caplog.text


def test_msa_choose_method_takes_progressive_options_as_the_method(tmp_path, caplog) -> None:
    """`--matrix` (an option only the progressive pipeline reads) chooses it under --method
    auto, at WARNING; a caller's namespace without those options (the cluster worker's)
    still gets the size-based choice."""
    from types import SimpleNamespace

    import bioplug.msa.cli as msa_cli
    from bioplug.cli import build_parser

    src = tmp_path / "small.fa"
    src.write_text(">a\nMKVLAAGIV\n>b\nMKVLGIV\n>c\nMKVAGIVA\n")
    caplog.set_level(logging.WARNING)
    args = build_parser().parse_args(["msa", str(src), "-o", "out.fa", "--matrix", "BLOSUM62"])
    assert msa_cli.choose_method(args, args.input[0]) == ("progressive", args.input[0])
    assert "--matrix given: aligning with --method progressive" in caplog.text
    worker = SimpleNamespace(method="auto", guide_tree=None, tree_out=None, seqtype="auto")
    method, records = msa_cli.choose_method(worker, str(src))
    assert method == "quickprobs" and len(records) == 3


def test_msa_auto_batch_chooses_per_family(tmp_path, caplog) -> None:
    """`bioplug msa A B --outdir D` with --method auto: each family takes its own pipeline
    (the same files as the single calls with that method)."""
    from bioplug.cli import main

    rng = np.random.default_rng(4)
    root = "".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 30))
    big = tmp_path / "big.fa"
    big.write_text("".join(f">s{i}\n{root[: 20 + i % 10]}\n" for i in range(301)))
    small = tmp_path / "small.fa"
    small.write_text("".join(f">t{i}\n{root[i: 24 + i]}\n" for i in range(5)))
    assert main(["-q", "msa", str(big), str(small), "--outdir", str(tmp_path / "out"),
                 "--device", "cpu"]) == 0
    assert "301 protein sequences: aligning with --method progressive" in caplog.text
    for src, method in ((big, "progressive"), (small, "quickprobs")):
        one = tmp_path / f"{src.stem}.{method}.fasta"
        assert main(["-q", "msa", str(src), "-o", str(one), "--method", method,
                     "--device", "cpu"]) == 0
        assert (tmp_path / "out" / f"{src.stem}.fasta").read_bytes() == one.read_bytes()


def test_cli_positionals_may_follow_options(tmp_path, capsys) -> None:
    """``bioplug profile A.fa -o OUT B.fa`` (a positional after an option) is the command
    ``bioplug profile A.fa B.fa -o OUT`` (plain argparse left B.fa unrecognized)."""
    from bioplug.cli import main

    first, second = tmp_path / "a1.fa", tmp_path / "a2.fa"
    first.write_text(">a\nMKVLAAG-IV\n>b\nMKVLAAGAIV\n")
    second.write_text(">c\nMKVAAGIV\n>d\nMKVLAGIV\n")
    assert main(["-q", "profile", str(first), str(second), "-o", "-", "--device", "cpu"]) == 0
    together = capsys.readouterr().out
    assert main(["-q", "profile", str(first), "-o", "-", str(second), "--device", "cpu"]) == 0
    assert capsys.readouterr().out == together
    assert main(["-q", "profile", "--device", "cpu", "-o", "-", str(first), str(second)]) == 0
    assert capsys.readouterr().out == together and together.count(">") == 4
