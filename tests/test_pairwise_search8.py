"""The database scan's 8-bit first pass (``search8``, ``Scanner(precision="8")``) against
Biopython, with its 16-bit and 32-bit rescues.

Runs on PoCL by default (OpenCL ``uchar4`` saturating built-ins); ``BIOPLUG_TEST_DEVICE=gpu``
runs the same checks on a GPU (inline PTX ``vadd4`` / ``vsub4`` / ``vmax4`` on sm_90).
"""

import os

import numpy as np
import pytest
from Bio import Align
from Bio.Align import substitution_matrices
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bioplug.pairwise.scan as scan_module
import bioplug.pairwise.search as search_module
from bioplug.errors import InputError
from bioplug.pairwise.aligner import PairwiseAligner
from bioplug.pairwise.scan import Scanner
from bioplug.pairwise.search import search
from bioplug.progress import Progress
from bioplug.runtime import get_runtime

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
BLOSUM62 = substitution_matrices.load("BLOSUM62")
AMINO = "ACDEFGHIKLMNPQRSTVWY"


def schemes(matrix=BLOSUM62, **gaps):
    """(device scoring, Biopython aligner) of one local scheme."""
    gaps = gaps or {"open_gap_score": -12, "extend_gap_score": -1}  # BLAST 11/1
    ours = PairwiseAligner(mode="local", substitution_matrix=matrix, **gaps)
    bio = Align.PairwiseAligner(mode="local", substitution_matrix=matrix, **gaps)
    return ours.device_scoring([]), bio


def scaled_blosum62(factor: int):
    """BLOSUM62 times ``factor``: large scores, so the 8-bit pass saturates quickly."""
    return substitution_matrices.Array(alphabet=BLOSUM62.alphabet, dims=2,
                                       data=np.asarray(BLOSUM62) * factor)


def scan(scoring, queries, db, precision="8", **forced):
    """Every score of queries x db from a Scanner (``forced`` attributes set), and it."""
    scanner = Scanner(get_runtime(DEVICE), scoring, precision=precision)
    for name, value in forced.items():
        setattr(scanner, name, value)
    best = scanner.scan([scoring.encode(q) for q in queries],
                        search_module._as_database(db, scoring), max(1, len(db)), None,
                        Progress())
    out = np.zeros((len(queries), len(db)))
    for q, (scores, numbers) in enumerate(best):
        out[q, numbers] = scores / scoring.scale
    return out, scanner


def reference(aligner, queries, db):
    ref = np.array([[aligner.score(q, d) if q and d else 0.0 for d in db] for q in queries])
    return np.where(ref > 0, ref, 0)


def make(rng, n):
    return "".join(rng.choice(list(AMINO), int(n)))


def mutate(rng, seq, rate):
    """Point changes at ``rate`` and a few single-residue insertions and deletions."""
    out = [rng.choice(list(AMINO)) if rng.random() < rate else c for c in seq]
    for _ in range(max(1, len(out) // 80)):
        k = int(rng.integers(0, len(out)))
        if rng.random() < 0.5:
            out.insert(k, rng.choice(list(AMINO)))
        else:
            del out[k]
    return "".join(out)


def saturating_set(seed):
    """Queries of 1 to 420 residues; subjects of mixed lengths, among them near copies of the
    queries (scores far beyond the 8-bit ceiling), a 16-bit overflow (W x 1,500 scores
    16,500) and subjects of 1 to 3 residues."""
    rng = np.random.default_rng(seed)
    queries = [make(rng, 420), make(rng, 150), "W", make(rng, 33), "W" * 1500]
    db = [make(rng, n) for n in rng.integers(1, 500, 40)] + ["W", "AC", "MKW"]
    db[5] = mutate(rng, queries[0], 0.1)
    db[11] = queries[0][50:300]
    db[12] = mutate(rng, queries[1], 0.3) + make(rng, 60)
    db[20] = queries[3] + queries[1]
    db[21] = "W" * 1500
    db[22] = "W" * 30  # 330: saturates 8 bits, not 16
    return queries, db


def test_every_score_equals_biopython():
    queries, db = saturating_set(1)
    scoring, bio = schemes()
    got, scanner = scan(scoring, queries, db)
    assert scanner.eight and scanner.limit8 == 255 - 4
    np.testing.assert_array_equal(got, reference(bio, queries, db))
    # saturated pairs went through the 16-bit scan, W x 1,500 on to the 32-bit kernels
    assert scanner.counts["16-bit rescue"] >= 6 and scanner.counts["32-bit rescue"] >= 1
    assert scanner.timings["scan kernel 8-bit"] > 0 and scanner.timings["scan kernel"] > 0


def test_saturation_rescue_is_what_makes_it_exact(monkeypatch):
    # the same data with the rescue threshold out of reach: the 8-bit bests are capped
    queries, db = saturating_set(1)
    scoring, bio = schemes()
    monkeypatch.setattr(Scanner, "limit8", property(lambda self: 256))
    got, scanner = scan(scoring, queries, db)
    ref = reference(bio, queries, db)
    wrong = got != ref
    assert wrong.any() and np.all(ref[wrong] >= 251) and "16-bit rescue" not in scanner.counts


@pytest.mark.parametrize("rows8,group", [(16, 4), (32, 8), (16, 1)])
def test_strip_heights_groups_and_long_pairs(rows8, group):
    # 6,000 cells: the 420-residue query's pairs with subjects over 14 residues are long
    # (search16_long), the others run four to a work-item on search8
    queries, db = saturating_set(2)
    scoring, bio = schemes()
    got, scanner = scan(scoring, queries, db, rows8=rows8, group=group, long_cells=6000)
    np.testing.assert_array_equal(got, reference(bio, queries, db))
    assert scanner.timings["long-pair kernel"] > 0


def test_large_scores_saturate_quickly():
    # BLOSUM62 x 8: scores -32..88, ceiling 223 (a few aligned residues reach it)
    queries, db = saturating_set(3)
    matrix = scaled_blosum62(8)
    scoring, bio = schemes(matrix, open_gap_score=-40, extend_gap_score=-6)
    got, scanner = scan(scoring, queries[:4], db[:30])
    assert scanner.eight and scanner.limit8 == 255 - 32
    np.testing.assert_array_equal(got, reference(bio, queries[:4], db[:30]))
    assert scanner.counts["16-bit rescue"] > 10


def test_auto_and_fallbacks(monkeypatch):
    scoring, _ = schemes(scaled_blosum62(8), open_gap_score=-40, extend_gap_score=-6)
    rt = get_runtime(DEVICE)
    assert Scanner(rt, scoring).precision == scan_module.DEFAULT_PRECISION == "16"
    assert not Scanner(rt, scoring).eight  # the default stays 16-bit until measured
    assert Scanner(rt, scoring, precision="auto").eight
    monkeypatch.setattr(scan_module, "AUTO_MIN_LIMIT8", 240)  # 223 < 240: 16 bits
    assert not Scanner(rt, scoring, precision="auto").eight
    assert Scanner(rt, scoring, precision="8").eight
    # opening above extending (no H-form cell) and gap costs beyond a byte: 16 bits
    opening, _ = schemes(open_gap_score=-2, extend_gap_score=-5)
    assert not Scanner(rt, opening, precision="8").eight
    wide, _ = schemes(open_gap_score=-300, extend_gap_score=-1)
    assert not Scanner(rt, wide, precision="8").eight
    with pytest.raises(InputError, match="precision"):
        Scanner(rt, scoring, precision="4")


@pytest.mark.parametrize("gaps", [
    {"open_insertion_score": -10, "extend_insertion_score": -1,  # asymmetric
     "open_deletion_score": -13, "extend_deletion_score": -2},
    {"open_gap_score": -5, "extend_gap_score": -5},  # linear
    {"open_gap_score": -2, "extend_gap_score": -5},  # opening above extending: 16 bits
])
def test_gap_schemes(gaps):
    queries, db = saturating_set(4)
    scoring, bio = schemes(**gaps)
    got, _ = scan(scoring, queries[:4], db)
    np.testing.assert_array_equal(got, reference(bio, queries[:4], db))


def test_hits_and_traceback_equal_the_16_bit_path(tmp_path):
    queries, db = saturating_set(5)
    eight = search(queries, db, top=8, device=DEVICE, precision="8")
    sixteen = search(queries, db, top=8, device=DEVICE, precision="16")
    assert eight.tabular() == sixteen.tabular()
    for a, b in zip(eight.hits, sixteen.hits, strict=True):
        assert [(h.subject, h.score, h.coordinates.tolist()) for h in a] == \
               [(h.subject, h.score, h.coordinates.tolist()) for h in b]
    assert "scan: scan kernel 8-bit" in eight.seconds
    # chunks of ~300 residues: the same hits
    chunked = search(queries, db, top=8, device=DEVICE, precision="8", chunk_residues=300)
    assert chunked.tabular() == eight.tabular()


def test_tiny_sequences():
    queries = ["W", "AC", "MKW", "C"]
    db = ["W", "C", "A", "WW", "MKWV", "P", "CW"]
    scoring, bio = schemes()
    got, scanner = scan(scoring, queries, db, group=2)
    assert scanner.eight
    np.testing.assert_array_equal(got, reference(bio, queries, db))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), extend=st.integers(1, 4), extra=st.integers(0, 12),
       factor=st.sampled_from([1, 1, 3, 6]), nq=st.integers(1, 4), nd=st.integers(1, 14))
def test_property_scores_equal_biopython(seed, extend, extra, factor, nq, nd):
    rng = np.random.default_rng(seed)
    queries = [make(rng, n) for n in rng.integers(1, 90, nq)]
    db = [make(rng, n) for n in rng.integers(1, 120, nd)]
    for k in range(0, nd, 3):  # related subjects, some above the 8-bit ceiling
        q = queries[k % nq]
        db[k] = mutate(rng, q, float(rng.uniform(0, 0.5))) if len(q) > 2 else q
    matrix = BLOSUM62 if factor == 1 else scaled_blosum62(factor)
    gaps = {"open_gap_score": -factor * (extend + extra), "extend_gap_score": -factor * extend}
    scoring, bio = schemes(matrix, **gaps)
    got, scanner = scan(scoring, queries, db, group=4)
    assert scanner.eight
    np.testing.assert_array_equal(got, reference(bio, queries, db))
