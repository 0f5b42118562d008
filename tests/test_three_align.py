"""``bioplug.align_three`` / ``score_three`` against the numpy 3-D DP (``three_reference``).

Runs on PoCL by default; ``BIOPLUG_TEST_DEVICE=gpu`` runs the same checks on a GPU. Tiny tile
shapes are forced so that inputs of a few dozen residues span many tiles and tile diagonals,
and the traceback crosses many tiles (the face hand-over and the bounded-memory recompute are
what these inputs exercise).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from Bio.Align import substitution_matrices
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from three_reference import affine_score, brute_force, linear_score, rescore

import bioplug
from bioplug.errors import BioplugError, InputError
from bioplug.io import alignment_rows
from bioplug.progress import Cancelled
from bioplug.three import device as three_device
from bioplug.three.device import LayerShape, Plan, ThreeEngine, TileShape
from bioplug.three.pipeline import encode, make_scheme

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
#: one row / one column / four planes a tile (every cell its own column of tiles), an uneven
#: shape, and the device's default
SHAPES = [TileShape(1, 1, 1, 4), TileShape(3, 2, 5, 6), None]
DNA = "ACGT"
AMINO = "ACDEFGHIKLMNPQRSTVWY"


def reference(texts, **kw) -> int:
    """The numpy DP's optimum for the front door's keywords (scaled back)."""
    scheme = make_scheme(texts, **kw)
    codes = encode(scheme, texts, ["a", "b", "c"])
    g = scheme.gaps
    value = (affine_score(*codes, scheme.matrix, g.open, g.extend) if g.affine
             else linear_score(*codes, scheme.matrix, g.gap))
    return scheme.unscale(value)


def rescored(alignment, texts, **kw):
    """The returned alignment's own score, column by column."""
    scheme = make_scheme(texts, **kw)
    rows = alignment_rows(alignment)
    index = {c: i for i, c in enumerate(scheme.letters)}
    codes = np.array([[index[chr(x).upper() if scheme.uppercase else chr(x)] if x != 45 else -1
                       for x in row] for row in rows]).reshape(3, -1)
    g = scheme.gaps
    value = (rescore(codes, scheme.matrix, open_=g.open, extend=g.extend) if g.affine
             else rescore(codes, scheme.matrix, gap=g.gap))
    return scheme.unscale(value), [bytes(r[r != 45]).decode() for r in rows]


def check(texts, shape=None, **kw):
    want = reference(texts, **kw)
    got = bioplug.score_three(*texts, device=DEVICE, _shape=shape, **kw)
    aln = bioplug.align_three(*texts, device=DEVICE, _shape=shape, **kw)
    again, degapped = rescored(aln, texts, **kw)
    assert got == want
    assert aln.score == want
    assert again == want
    assert degapped == list(texts)
    return aln


def random_triplet(rng, alphabet, top):
    return ["".join(rng.choice(list(alphabet), int(n))) for n in rng.integers(0, top + 1, 3)]


@pytest.mark.parametrize("seed", range(6))
def test_linear_random_triplets(seed):
    rng = np.random.default_rng(seed)
    texts = random_triplet(rng, DNA if seed % 2 else AMINO, 40)
    kw = ({"substitution_matrix": "BLOSUM62", "gap_score": -4} if seed % 2 == 0 else
          {"match_score": 2, "mismatch_score": -1, "gap_score": int(rng.integers(-3, 0))})
    check(texts, SHAPES[seed % 3], **kw)


@pytest.mark.parametrize("seed", range(6))
def test_affine_random_triplets(seed):
    rng = np.random.default_rng(100 + seed)
    texts = random_triplet(rng, DNA if seed % 2 else AMINO, 40)
    kw = {"open_gap_score": int(rng.integers(-12, -3)),
          "extend_gap_score": int(rng.integers(-3, 0))}
    if seed % 2 == 0:
        kw["substitution_matrix"] = "BLOSUM62"
    else:
        kw.update(match_score=3, mismatch_score=-2)
    check(texts, SHAPES[seed % 3], **kw)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(alphabet="ACG", max_size=12), min_size=3, max_size=3),
       st.integers(-4, -1), st.integers(-8, -1), st.booleans())
def test_property_exact_and_consistent(texts, extend, open_, affine):
    kw = {"match_score": 2, "mismatch_score": -1}
    if affine:
        kw.update(open_gap_score=min(open_, extend), extend_gap_score=extend)
    else:
        kw.update(gap_score=extend)
    check(texts, TileShape(2, 2, 3, 4), **kw)


def test_reference_is_the_model():
    """The numpy DPs maximise what ``rescore`` defines (every alignment of tiny inputs)."""
    rng = np.random.default_rng(7)
    m = rng.integers(-3, 5, (4, 4))
    m = m + m.T
    for _ in range(12):
        a, b, c = (rng.integers(0, 4, n) for n in rng.integers(0, 3, 3))
        assert linear_score(a, b, c, m, -2) == brute_force(a, b, c, m, gap=-2)
        assert affine_score(a, b, c, m, -5, -1) == brute_force(a, b, c, m, open_=-5, extend=-1)


@pytest.mark.parametrize("lengths", [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0),
                                     (1, 0, 1), (0, 1, 1), (1, 1, 1)])
@pytest.mark.parametrize("affine", [False, True])
def test_empty_and_single_residues(lengths, affine):
    texts = ["ACG"[i] * n for i, n in enumerate(lengths)]
    kw = {"open_gap_score": -3, "extend_gap_score": -1} if affine else {}
    aln = check(texts, TileShape(1, 1, 1, 4), **kw)
    if sum(lengths) == 0:
        assert aln.score == 0 and aln.length == 0


@pytest.mark.parametrize("lengths", [(1, 40, 3), (0, 35, 2), (40, 0, 0), (2, 3, 40)])
@pytest.mark.parametrize("affine", [False, True])
def test_very_unequal_lengths(lengths, affine):
    rng = np.random.default_rng(sum(lengths))
    texts = ["".join(rng.choice(list(DNA), n)) for n in lengths]
    kw = {"open_gap_score": -4, "extend_gap_score": -1} if affine else {"gap_score": -2}
    check(texts, TileShape(2, 2, 4, 4), match_score=3, mismatch_score=-1, **kw)


def test_small_tiles_span_many_diagonals():
    """30-residue inputs on 1 x 1 x 4 tiles: hundreds of tiles on ~70 diagonals; the traceback
    recomputes a tile per step of the path."""
    rng = np.random.default_rng(3)
    texts = ["".join(rng.choice(list(AMINO), n)) for n in (30, 27, 33)]
    plan = Plan((30, 27, 33), TileShape(1, 1, 1, 4))
    assert plan.n_tiles > 500 and len(plan.diagonals) > 60
    for affine in (False, True):
        kw = {"open_gap_score": -9, "extend_gap_score": -1} if affine else {"gap_score": -3}
        check(texts, TileShape(1, 1, 1, 4), substitution_matrix="BLOSUM62", **kw)


def test_affine_with_equal_scores_is_linear():
    rng = np.random.default_rng(11)
    texts = random_triplet(rng, AMINO, 30)
    a = bioplug.score_three(*texts, substitution_matrix="BLOSUM62", open_gap_score=-3,
                            extend_gap_score=-3, device=DEVICE)
    b = bioplug.score_three(*texts, substitution_matrix="BLOSUM62", gap_score=-3,
                            device=DEVICE)
    assert a == b == reference(texts, substitution_matrix="BLOSUM62", gap_score=-3)


def test_input_types_agree():
    skbio = pytest.importorskip("skbio")
    texts = ["MKTAYIAKQR", "MKTAYIAQR", "MKSAYIAKQRQ"]
    want = bioplug.score_three(*texts, substitution_matrix="BLOSUM62", device=DEVICE)
    seqs = [Seq(t) for t in texts]
    recs = [SeqRecord(Seq(t), id=f"r{i}") for i, t in enumerate(texts)]
    skb = [skbio.Protein(t, metadata={"id": f"p{i}"}) for i, t in enumerate(texts)]
    for group in (seqs, recs, skb):
        aln = bioplug.align_three(*group, substitution_matrix="BLOSUM62", device=DEVICE)
        assert aln.score == want
    assert [r.id for r in bioplug.align_three(*recs, device=DEVICE).sequences] == \
        ["r0", "r1", "r2"]
    # lower case is looked up in upper case in an upper-case matrix
    low = bioplug.score_three(*(t.lower() for t in texts), substitution_matrix="BLOSUM62",
                              device=DEVICE)
    assert low == want
    matrix = substitution_matrices.load("BLOSUM62")
    assert bioplug.score_three(*texts, substitution_matrix=matrix, device=DEVICE) == want


def test_integer_and_fractional_scores():
    texts = ["GATTACA", "GATCA", "GTTACA"]
    whole = bioplug.score_three(*texts, device=DEVICE)
    assert isinstance(whole, int) and whole == reference(texts)
    half = bioplug.score_three(*texts, gap_score=-0.5, device=DEVICE)
    assert isinstance(half, float) and half == reference(texts, gap_score=-0.5)
    with pytest.raises(InputError, match="power-of-two"):
        bioplug.score_three(*texts, gap_score=-0.1, device=DEVICE)


def test_bad_letters_name_record_position_and_letter():
    rec = SeqRecord(Seq("ACG#T"), id="second")
    with pytest.raises(InputError, match=r"second.*'#'.*position 4"):
        bioplug.align_three("ACGT", rec, "ACT", device=DEVICE)
    with pytest.raises(InputError, match=r"sequence 3.*'U'.*position 3"):
        bioplug.score_three("MKV", "MKV", "MKU", substitution_matrix="BLOSUM62",
                            device=DEVICE)
    with pytest.raises(InputError, match=r"gap '-' at position 3"):
        bioplug.score_three("AC-T", "ACT", "AT", device=DEVICE)
    with pytest.raises(InputError, match="three sequences"):
        bioplug.three.aligner._inputs(["A", "C"])


def test_scores_that_overflow_int32_are_refused():
    with pytest.raises(InputError, match="32-bit"):
        bioplug.score_three("A" * 4000, "A" * 4000, "A" * 4000, match_score=2**13,
                            device=DEVICE)


def test_faces_that_do_not_fit_are_refused(monkeypatch):
    monkeypatch.setattr(three_device, "MEMORY_SHARE", 1e-12)
    with pytest.raises(BioplugError, match="GiB"):
        bioplug.align_three("ACGT" * 5, "ACG" * 5, "AGT" * 5, device=DEVICE,
                            _shape=TileShape(1, 1, 1, 4))


def test_progress_and_cancel():
    events = []
    texts = ["ACGTTGCA" * 4, "ACGTGCA" * 4, "AGTTGCA" * 4]
    bioplug.align_three(*texts, device=DEVICE, _shape=TileShape(1, 1, 2, 4),
                        progress=lambda *e: events.append(e))
    stages = [s for s, _, _ in events]
    assert stages[0] == "three-way fill" and stages[-1] == "three-way traceback"
    fill = [d for s, d, _ in events if s == "three-way fill"]
    assert fill == sorted(fill) and events[-1][1] == events[-1][2]
    with pytest.raises(Cancelled):
        bioplug.score_three(*texts, device=DEVICE, _shape=TileShape(1, 1, 2, 4),
                            progress=lambda s, d, t: d == 0)


@pytest.mark.parametrize("layers", [LayerShape(1, 2), LayerShape(3, 4), LayerShape(8, 5)])
def test_layered_partition_scores_the_same(layers):
    from bioplug.runtime import get_runtime

    rng = np.random.default_rng(layers.side)
    texts = random_triplet(rng, DNA, 30)
    if not any(texts):
        texts[0] = "A"
    scheme = make_scheme(texts, match_score=2, mismatch_score=-1, gap_score=-2)
    codes = encode(scheme, texts, "abc")
    engine = ThreeEngine(get_runtime(DEVICE), scheme.matrix, scheme.gaps, layers=layers)
    want = linear_score(*codes, scheme.matrix, scheme.gaps.gap)
    assert engine.score(codes, partition="layered") == want
    assert engine.score(codes) == want
