"""Distance matrices: k-tuple and MSA p-distance kernels against numpy references."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.errors import InputError
from bioplug.tree.distance import (
    correct,
    distance_matrix,
    identity_from_coordinates,
    ktuple_distances,
    msa_distances,
    pair_identity,
)

DEVICE = "cpu"
AA = "ACDEFGHIKLMNPQRSTVWY"


def ref_ktuple(a: str, b: str, k: int) -> float:
    ca = Counter(a[i : i + k] for i in range(len(a) - k + 1))
    cb = Counter(b[i : i + k] for i in range(len(b) - k + 1))
    m = min(sum(ca.values()), sum(cb.values()))
    return 1.0 - sum(min(v, cb[x]) for x, v in ca.items()) / m if m else 1.0


def ref_pdist(a: str, b: str) -> float:
    both = [(x, y) for x, y in zip(a, b, strict=True) if x != "-" and y != "-"]
    return 1.0 - sum(x == y for x, y in both) / len(both) if both else 1.0


@settings(max_examples=15, deadline=None)
@given(n=st.integers(1, 70), k=st.integers(1, 3), seed=st.integers(0, 2**31))
def test_ktuple_matches_reference(n: int, k: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    seqs = ["".join(rng.choice(list(AA[:6]), rng.integers(1, 40))) + "W" for _ in range(n)]
    got = ktuple_distances(seqs, k=k, device=DEVICE).data
    ref = np.array([[0.0 if i == j else ref_ktuple(a, b, k) for j, b in enumerate(seqs)]
                    for i, a in enumerate(seqs)])
    np.testing.assert_allclose(got, ref, atol=1e-12)


def test_ktuple_nucleotide_default_k_and_jc() -> None:
    rng = np.random.default_rng(1)
    seqs = ["".join(rng.choice(list("ACGT"), 80)) for _ in range(9)]
    got = ktuple_distances(seqs, correction="auto", device=DEVICE).data
    p = np.array([[0.0 if i == j else ref_ktuple(a, b, 4) for j, b in enumerate(seqs)]
                  for i, a in enumerate(seqs)])
    np.testing.assert_allclose(got, correct(p, "jc"), atol=1e-12)


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 40), width=st.integers(1, 50), seed=st.integers(0, 2**31),
       corr=st.sampled_from(["none", "kimura", "jc"]))
def test_msa_pdistance_matches_reference(n: int, width: int, seed: int, corr: str) -> None:
    rng = np.random.default_rng(seed)
    rows = ["".join(rng.choice(list("ACDE--"), width)) for _ in range(n)]
    got = msa_distances(rows, correction=corr, device=DEVICE).data
    p = np.array([[0.0 if i == j else ref_pdist(a, b) for j, b in enumerate(rows)]
                  for i, a in enumerate(rows)])
    np.testing.assert_allclose(got, correct(p, corr), rtol=1e-12, atol=1e-12)


def test_corrections() -> None:
    p = np.array([0.0, 0.1, 0.5, 0.74, 0.9, 1.0])
    np.testing.assert_allclose(correct(p, "kimura")[:4], -np.log(1 - p[:4] - 0.2 * p[:4] ** 2))
    assert correct(p, "kimura")[-1] == 10.0
    np.testing.assert_allclose(correct(p, "jc")[:3], -0.75 * np.log(1 - 4 * p[:3] / 3))
    assert correct(p, "jc")[-1] == 10.0


def test_outputs_and_biopython_alignment(tmp_path) -> None:
    from Bio.Align import MultipleSeqAlignment
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    msa = MultipleSeqAlignment([SeqRecord(Seq(s), id=i) for s, i in
                                [("AC-GT", "x"), ("ACGGT", "y"), ("TCGG-", "z")]])
    d = distance_matrix(msa, method="msa", device=DEVICE)
    assert d.ids == ["x", "y", "z"]
    assert d.data[0, 1] == pytest.approx(0.0)
    assert d.data[0, 2] == pytest.approx(1 - 2 / 3)
    assert list(d.to_skbio().ids) == ["x", "y", "z"]
    assert d.to_biopython()["x", "z"] == pytest.approx(d.data[0, 2])
    path = tmp_path / "d.phy"
    d.write_phylip(path)
    from bioplug.tree.matrix import read_phylip

    data, ids = read_phylip(path)
    assert ids == ["x", "y", "z"]
    np.testing.assert_allclose(data, d.data, atol=1e-6)


def test_identity_from_coordinates() -> None:
    a = np.frombuffer(b"HEAGAWGHEE", np.uint8)
    b = np.frombuffer(b"PAWHEAE", np.uint8)
    coords = np.array([[0, 3, 10], [0, 0, 7]])
    # target columns 3..10 (GAWGHEE) are aligned to query 0..7 (PAWHEAE)
    same = sum(x == y for x, y in zip(b"GAWGHEE", b"PAWHEAE", strict=True))
    assert identity_from_coordinates(a, b, coords) == pytest.approx(1 - same / 7)


def random_path(la: int, lb: int, rng) -> np.ndarray:
    a = b = 0
    cols = [(0, 0)]
    while a < la or b < lb:
        move = rng.integers(0, 3)
        if move == 0 and a < la and b < lb:
            k = int(min(rng.integers(1, 5), la - a, lb - b))
            a, b = a + k, b + k
        elif move == 1 and a < la:
            a += int(min(rng.integers(1, 3), la - a))
        elif b < lb:
            b += int(min(rng.integers(1, 3), lb - b))
        else:
            continue
        cols.append((a, b))
    return np.array(cols).T


@settings(max_examples=10, deadline=None)
@given(n=st.integers(2, 9), seed=st.integers(0, 2**31))
def test_pair_identity_kernel_matches_host(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    enc = [rng.integers(0, 4, rng.integers(1, 30)).astype(np.uint8) for _ in range(n)]
    ii, jj = np.triu_indices(n, 1)
    coords = [random_path(len(enc[i]), len(enc[j]), rng) for i, j in zip(ii, jj, strict=True)]
    got = pair_identity(enc, ii, jj, coords, DEVICE)
    ref = [identity_from_coordinates(enc[i], enc[j], c)
           for i, j, c in zip(ii, jj, coords, strict=True)]
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-15)


def test_identity_distances_with_pairwise_engine() -> None:
    pytest.importorskip("bioplug.pairwise.engine", reason="bioplug.pairwise not available yet")
    from Bio import Align

    rng = np.random.default_rng(5)
    base = "".join(rng.choice(list(AA), 60))
    seqs = [base, base[:30] + "W" + base[31:], base[5:], base[:20] + base[25:]]
    d = distance_matrix(seqs, method="identity", device=DEVICE)
    assert d.data[0, 1] == pytest.approx(1 / 60)
    aligner = Align.PairwiseAligner(mode="global", open_gap_score=-10, extend_gap_score=-1)
    aligner.substitution_matrix = Align.substitution_matrices.load("BLOSUM62")
    for i, j in [(0, 2), (0, 3), (2, 3)]:
        c = aligner.align(seqs[i], seqs[j])[0].counts()
        assert d.data[i, j] == pytest.approx(1 - c.identities / c.aligned)


def test_bad_inputs() -> None:
    with pytest.raises(InputError, match="differ in length"):
        msa_distances(["AC-", "A"], device=DEVICE)
    with pytest.raises(InputError, match="duplicate"):
        ktuple_distances(["ACD", "ACD"], ids=["a", "a"], device=DEVICE)
    with pytest.raises(InputError, match="no sequences"):
        ktuple_distances([], device=DEVICE)
    with pytest.raises(InputError, match="correction"):
        ktuple_distances(["ACD", "ACE"], correction="bogus", device=DEVICE)
    with pytest.raises(InputError, match="method"):
        distance_matrix(["ACD"], method="bogus")


def test_alignment_object_inputs() -> None:
    from Bio.Align import Alignment
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord
    from skbio import Protein, TabularMSA

    records = [SeqRecord(Seq("ACDEF"), id="a"), SeqRecord(Seq("ACEW"), id="b")]
    aln = Alignment(records, np.array([[0, 1, 2, 3, 5], [0, 1, 2, 2, 4]]))  # AC-EW
    d = msa_distances(aln, device=DEVICE)
    assert d.ids == ["a", "b"] and d.data[0, 1] == pytest.approx(1 / 4)
    msa = TabularMSA([Protein("AC-DE"), Protein("ACQDW")], index=["x", "y"])
    d = msa_distances(msa, device=DEVICE)
    assert d.ids == ["x", "y"] and d.data[0, 1] == pytest.approx(1 / 4)


def test_sequence_distances_of_an_alignment_are_those_of_its_rows() -> None:
    from Bio.Align import Alignment
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    rows = ["AC-DEFGHIK-LM", "ACQDEF--IKWLM", "-CQDEYGHIKWL-", "ACQ-EFGHIRWLM"]
    records = [SeqRecord(Seq(r.replace("-", "")), id=f"r{i}") for i, r in enumerate(rows)]
    aln = Alignment(records, Alignment.parse_printed_alignment([r.encode() for r in rows])[1])
    printed = [aln[i] for i in range(len(rows))]   # Biopython's rows, one at a time
    assert printed == rows
    for method in ("ktuple", "identity"):
        got = distance_matrix(aln, method, device=DEVICE)
        want = distance_matrix(printed, method, device=DEVICE)
        assert got.ids == want.ids == [f"sequence {i + 1}" for i in range(len(rows))]
        assert np.array_equal(got.data, want.data)


def test_rows_with_no_column_in_common_are_said(caplog) -> None:
    """Reads of different regions have nothing to compare: the distance is the largest (as
    ClustalW sets it), and a warning counts such pairs and names one."""
    rows = ["MKV-------", "---LAA----", "-------GGW", "MKVLAAGGGW"]
    d = msa_distances(rows, correction="kimura", device=DEVICE, ids=list("abcd"))
    assert d.data[0, 1] == d.data[0, 2] == d.data[1, 2] == d.data.max()
    assert "3 pair(s) of rows share no residue column (a ends before c begins" in caplog.text
    caplog.clear()
    msa_distances(["MKV-LA", "MKVQ--", "--VQLA"], device=DEVICE)
    assert "share no residue column" not in caplog.text
