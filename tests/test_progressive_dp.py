"""The progressive profile-profile kernel (``kernels/progressive_profile.cl``) on PoCL
(``BIOPLUG_TEST_DEVICE=gpu`` runs the same checks on a GPU: 64-row blocks there).

Oracles: ``tests/progressive_reference.py`` (a numpy transcription of the kernel header's
model, with its tie order), ``profile_columns`` of the merged rows for the merged profiles, and
Biopython's ``PairwiseAligner`` for two single sequences (the model's special case), whose
paths are also rescored by an independent walk with Biopython's gap rules.

Arithmetic is exact (every value a small dyadic fraction) when each side has 1, 2 or 4 rows,
the matrix has integer or half-integer scores and the gap scores are half-integers: then the
device's moves must equal the reference's exactly, ties included. With 3, 5 or 6 rows the
frequencies are not exact in float32 and a near-tie may round either way; there the device's
path must still be co-optimal to 1e-3.
"""

from __future__ import annotations

import os

import numpy as np
import progressive_reference as ref
import pytest
from Bio import Align
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.alphabet import load_matrix
from bioplug.progressive.device import GapScores, ProfileEngine
from bioplug.progressive.pipeline import Substitution, encode, profile_columns

DNA = "ACGT"
AMINO = "ACDEFGHIKLMNPQRSTVWY"
EXACT_ROWS = (1, 2, 4)
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def rt():
    from bioplug.runtime import get_runtime

    return get_runtime(os.environ.get("BIOPLUG_TEST_DEVICE", "cpu"))


@pytest.fixture(scope="module")
def blosum() -> Substitution:
    return Substitution.complete(load_matrix("BLOSUM62"), nucleotide=False)


# -- generators ---------------------------------------------------------------------------
def random_rows(rng: np.random.Generator, n: int, length: int, letters: str,
                gap_rate: float) -> np.ndarray:
    """(n, length) uint8 gapped rows; every row keeps at least one residue."""
    alphabet = np.frombuffer(letters.encode(), dtype=np.uint8)
    rows = alphabet[rng.integers(len(letters), size=(n, length))]
    gaps = rng.random((n, length)) < gap_rate
    gaps[np.arange(n), rng.integers(length, size=n)] = False
    rows[gaps] = ord("-")
    return rows


@st.composite
def gap_scores(draw, unit: float = 0.5) -> GapScores:
    """open <= extend <= 0 and end_open <= end_extend <= 0, multiples of ``unit``."""
    ge = -unit * draw(st.integers(0, 8))
    go = ge - unit * draw(st.integers(0, 12))
    ee = -unit * draw(st.integers(0, 8))
    eo = ee - unit * draw(st.integers(0, 12))
    return GapScores(go, ge, eo, ee)


@st.composite
def half_integer_matrix(draw) -> np.ndarray:
    vals = draw(st.lists(st.integers(-8, 8), min_size=10, max_size=10))
    m = np.zeros((4, 4))
    m[np.triu_indices(4)] = np.asarray(vals) / 2.0
    return m + np.triu(m, 1).T


# -- checks -------------------------------------------------------------------------------
def gap_args(g: GapScores) -> tuple[float, float, float, float]:
    return g.open, g.extend, g.end_open, g.end_extend


def placed(rows: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Rows spread over the merged columns where ``keep`` is True; gaps elsewhere."""
    out = np.full((rows.shape[0], keep.size), ord("-"), dtype=np.uint8)
    out[:, keep] = rows
    return out


def check_pair(engine: ProfileEngine, matrix: np.ndarray, gaps: GapScores, letters: str,
               nucleotide: bool, rx: np.ndarray, ry: np.ndarray, wx: float, wy: float,
               node=None, moves=None) -> tuple[int, np.ndarray]:
    """Align profiles of rows ``rx`` and ``ry`` (unless given) and check the moves, the score
    and the merged profile against the reference; returns (node, moves)."""
    A = len(letters)
    px = profile_columns(rx, letters, nucleotide, [f"x{i}" for i in range(len(rx))])
    py = profile_columns(ry, letters, nucleotide, [f"y{i}" for i in range(len(ry))])
    if node is None:
        x, y = engine.add_profile(px, wx), engine.add_profile(py, wy)
        (node, moves), = engine.align([(x, y)])
    best, want = ref.profile_dp(px, py, A, matrix, *gap_args(gaps))
    assert moves.size == engine.length[node]
    assert (moves != 2).sum() == rx.shape[1] and (moves != 1).sum() == ry.shape[1]
    got_score = ref.score_of_moves(moves, px, py, A, matrix, *gap_args(gaps))
    assert abs(got_score - best) <= 1e-3, (got_score, best)
    if len(rx) in EXACT_ROWS and len(ry) in EXACT_ROWS:
        np.testing.assert_array_equal(moves, want)
    # the merged profile is the weighted mean of the two sides' rows in the merged columns
    mx = profile_columns(placed(rx, moves != 2), letters, nucleotide, ["x"] * len(rx))
    my = profile_columns(placed(ry, moves != 1), letters, nucleotide, ["y"] * len(ry))
    expect = (wx * mx.astype(np.float64) + wy * my) / (wx + wy)
    np.testing.assert_allclose(engine.read_profile(node), expect, rtol=0, atol=2e-6)
    assert engine.weight[node] == pytest.approx(wx + wy)
    return node, moves


# -- 1. profile DP against the reference -----------------------------------------------------
@settings(max_examples=150, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), nx=st.integers(1, 6), ny=st.integers(1, 6),
       lx=st.integers(1, 40), ly=st.integers(1, 40), gap_rate=st.sampled_from([0.0, 0.2, 0.5]),
       matrix=half_integer_matrix(), gaps=gap_scores(), wx=st.integers(1, 4),
       wy=st.integers(1, 4))
def test_dna_profiles_match_reference(rt, seed, nx, ny, lx, ly, gap_rate, matrix, gaps,
                                      wx, wy) -> None:
    rng = np.random.default_rng(seed)
    rx = random_rows(rng, nx, lx, DNA, gap_rate)
    ry = random_rows(rng, ny, ly, DNA, gap_rate)
    engine = ProfileEngine(rt, matrix, gaps)
    check_pair(engine, matrix, gaps, DNA, True, rx, ry, float(wx), float(wy))


@settings(max_examples=60, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), nx=st.integers(1, 6), ny=st.integers(1, 6),
       lx=st.integers(1, 40), ly=st.integers(1, 40), gap_rate=st.sampled_from([0.0, 0.3]),
       gaps=gap_scores(), wx=st.integers(1, 3), wy=st.integers(1, 3))
def test_protein_profiles_match_reference(rt, blosum, seed, nx, ny, lx, ly, gap_rate, gaps,
                                          wx, wy) -> None:
    rng = np.random.default_rng(seed)
    rx = random_rows(rng, nx, lx, AMINO, gap_rate)
    ry = random_rows(rng, ny, ly, AMINO, gap_rate)
    engine = ProfileEngine(rt, blosum.values, gaps)
    check_pair(engine, blosum.values, gaps, blosum.letters, False, rx, ry, float(wx), float(wy))


@settings(max_examples=40, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), matrix=half_integer_matrix(), gaps=gap_scores(),
       n=st.sampled_from((1, 2)), nz=st.sampled_from(EXACT_ROWS),
       lengths=st.lists(st.integers(1, 30), min_size=3, max_size=3))
def test_merged_node_aligns_as_its_profile(rt, seed, matrix, gaps, n, nz, lengths) -> None:
    """A node made on the device (boundary factors derived in the kernel) aligns with a third
    profile as the reference aligns the merged rows' profile."""
    rng = np.random.default_rng(seed)
    rx, ry, rz = (random_rows(rng, rows, L, DNA, 0.3)
                  for rows, L in zip((n, n, nz), lengths, strict=True))
    engine = ProfileEngine(rt, matrix, gaps)
    # weights = row counts: the node's profile is then the equal-weight profile of its rows
    xy, moves = check_pair(engine, matrix, gaps, DNA, True, rx, ry, float(n), float(n))
    merged = np.concatenate([placed(rx, moves != 2), placed(ry, moves != 1)])
    z = engine.add_profile(profile_columns(rz, DNA, True, ["z"] * nz), float(nz))
    for first, second, rows_a, rows_b in ((xy, z, merged, rz), (z, xy, rz, merged)):
        (node, mv), = engine.align([(first, second)])
        check_pair(engine, matrix, gaps, DNA, True, rows_a, rows_b, float(len(rows_a)),
                   float(len(rows_b)), node, mv)


def test_batch_equals_one_at_a_time(rt, blosum) -> None:
    """Several pairs in one launch (different lengths, one node in two pairs, more than one
    row block) give the moves and merged profiles of one launch per pair."""
    rng = np.random.default_rng(7)
    gaps = GapScores(-10.0, -1.0, -2.0, -0.5)
    sides = [random_rows(rng, int(rng.integers(1, 7)), int(rng.integers(1, 41)), AMINO, 0.25)
             for _ in range(12)]
    sides[0] = random_rows(rng, 3, 40, AMINO, 0.0)
    sides[1] = random_rows(rng, 1, 1, AMINO, 0.0)
    sides[2] = random_rows(rng, 2, 17, AMINO, 0.1)
    pairs_rows = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (0, 11), (1, 0)]
    letters = blosum.letters

    def add_all(engine):
        return [engine.add_profile(profile_columns(r, letters, False, ["s"] * len(r)),
                                   float(len(r))) for r in sides]

    batch_engine = ProfileEngine(rt, blosum.values, gaps)
    ids = add_all(batch_engine)
    batch = batch_engine.align([(ids[a], ids[b]) for a, b in pairs_rows])
    single_engine = ProfileEngine(rt, blosum.values, gaps)
    ids = add_all(single_engine)
    for (a, b), (node, moves) in zip(pairs_rows, batch, strict=True):
        (one_node, one_moves), = single_engine.align([(ids[a], ids[b])])
        np.testing.assert_array_equal(moves, one_moves)
        np.testing.assert_array_equal(batch_engine.read_profile(node),
                                      single_engine.read_profile(one_node))
        check_pair(batch_engine, blosum.values, gaps, letters, False, sides[a], sides[b],
                   float(len(sides[a])), float(len(sides[b])), node, moves)


# -- 2. two single sequences: Biopython's global alignment -----------------------------------
def biopython_rescore(moves: np.ndarray, a: str, b: str, matrix, gaps: GapScores) -> float:
    """Score of a path by Biopython's rules, written independently of the kernel's model:
    matched pairs from the matrix; each maximal gap run of ``n`` columns in one sequence
    scores open + (n - 1) * extend, with the end-gap scores when it touches either end of
    that sequence."""
    total, i, j, c = 0.0, 0, 0, 0
    while c < moves.size:
        mv = int(moves[c])
        if mv == 0:
            total += matrix[a[i]][b[j]]
            i, j, c = i + 1, j + 1, c + 1
            continue
        n = 1
        while c + n < moves.size and moves[c + n] == mv:
            n += 1
        if mv == 1:       # residues of a against a gap in b
            end = j == 0 or j == len(b)
            i += n
        else:
            end = i == 0 or i == len(a)
            j += n
        op, ex = (gaps.end_open, gaps.end_extend) if end else (gaps.open, gaps.extend)
        total += op + (n - 1) * ex
        c += n
    assert (i, j) == (len(a), len(b))
    return total


@settings(max_examples=100, **SETTINGS)
@given(a=st.text(AMINO, min_size=1, max_size=40), b=st.text(AMINO, min_size=1, max_size=40),
       gaps=gap_scores(unit=1.0))
def test_two_sequences_score_as_biopython(rt, blosum, a, b, gaps) -> None:
    matrix = load_matrix("BLOSUM62")
    aligner = Align.PairwiseAligner(mode="global", substitution_matrix=matrix,
                                    open_gap_score=gaps.open, extend_gap_score=gaps.extend,
                                    open_end_gap_score=gaps.end_open,
                                    extend_end_gap_score=gaps.end_extend)
    optimum = aligner.score(a, b)
    engine = ProfileEngine(rt, blosum.values, gaps)
    x, y = engine.add_sequences(encode([a, b], ["a", "b"], blosum.letters, False),
                                np.ones(2))
    (node, moves), = engine.align([(x, y)])
    assert biopython_rescore(moves, a, b, matrix, gaps) == optimum
    # the model's own score of the path and the reference's optimum agree with Biopython
    A = len(blosum.letters)
    px = profile_columns(np.frombuffer(a.encode(), np.uint8)[None], blosum.letters, False, ["a"])
    py = profile_columns(np.frombuffer(b.encode(), np.uint8)[None], blosum.letters, False, ["b"])
    best, want = ref.profile_dp(px, py, A, blosum.values, *gap_args(gaps))
    assert best == pytest.approx(optimum, abs=1e-3)
    np.testing.assert_array_equal(moves, want)
    # a leaf made on the device is exactly the profile of its one row
    for node, p in ((x, px), (y, py)):
        np.testing.assert_array_equal(engine.read_profile(node), p)


@pytest.mark.parametrize("gaps", [GapScores(-10.0, -1.0, -2.0, -0.5),
                                  GapScores(-5.0, -2.0, 0.0, 0.0),
                                  GapScores(-12.0, -12.0, -12.0, -12.0)])
def test_long_sequences_score_as_biopython(rt, blosum, gaps) -> None:
    """Pairs of related sequences of 60 to 300 residues (up to 19 row blocks), one launch."""
    matrix = load_matrix("BLOSUM62")
    aligner = Align.PairwiseAligner(mode="global", substitution_matrix=matrix,
                                    open_gap_score=gaps.open, extend_gap_score=gaps.extend,
                                    open_end_gap_score=gaps.end_open,
                                    extend_end_gap_score=gaps.end_extend)
    rng = np.random.default_rng(int(-gaps.open))
    pairs = []
    for _ in range(6):
        a = "".join(rng.choice(list(AMINO), int(rng.integers(60, 300))))
        keep = rng.random(len(a)) > 0.15
        b = "".join(c if rng.random() > 0.3 else rng.choice(list(AMINO))
                    for c in np.array(list(a))[keep])
        b = "".join(rng.choice(list(AMINO), int(rng.integers(0, 20)))) + b
        pairs.append((a, b))
    engine = ProfileEngine(rt, blosum.values, gaps)
    nodes = engine.add_sequences(encode([s for p in pairs for s in p], ["s"] * 2 * len(pairs),
                                        blosum.letters, False), np.ones(2 * len(pairs)))
    results = engine.align([(nodes[2 * i], nodes[2 * i + 1]) for i in range(len(pairs))])
    for (a, b), (_, moves) in zip(pairs, results, strict=True):
        assert biopython_rescore(moves, a, b, matrix, gaps) == aligner.score(a, b)


def test_biopython_rescore_itself() -> None:
    """The independent rescoring walk against Biopython's own alignments (its paths, its
    score), so a wrong walk cannot make the test above pass."""
    matrix = load_matrix("BLOSUM62")
    gaps = GapScores(-7.0, -2.0, -3.0, -1.0)
    aligner = Align.PairwiseAligner(mode="global", substitution_matrix=matrix,
                                    open_gap_score=gaps.open, extend_gap_score=gaps.extend,
                                    open_end_gap_score=gaps.end_open,
                                    extend_end_gap_score=gaps.end_extend)
    rng = np.random.default_rng(3)
    for _ in range(20):
        a = "".join(rng.choice(list(AMINO), int(rng.integers(1, 30))))
        b = "".join(rng.choice(list(AMINO), int(rng.integers(1, 30))))
        aln = aligner.align(a, b)[0]
        ra, rb = aln[0], aln[1]
        moves = np.array([0 if p != "-" and q != "-" else 1 if q == "-" else 2
                          for p, q in zip(ra, rb, strict=True)], dtype=np.uint8)
        assert biopython_rescore(moves, a, b, matrix, gaps) == aln.score


# -- 5. residue-specific gap opening (RESGAP) ------------------------------------------------
def open_multipliers_reference(columns: np.ndarray, A: int, residue) -> np.ndarray:
    """MU of every column of a (L, A + 6) host profile, from the kernel header's definition
    (ClustalW's residue-specific factors, hydrophilic stretches, gap separation)."""
    L = columns.shape[0]
    factor = np.asarray(residue.factor, np.float64)
    g, hy = columns[:, A].astype(np.float64), columns[:, A + 5].astype(np.float64)
    occ = 1.0 - g
    r = np.ones(L)
    for c in range(L):
        if occ[c] > 1e-6:
            h = min(hy[c] / occ[c], 1.0)
            r[c] = (1 - h) * (columns[c, :A] @ factor / occ[c]) + h * residue.hyd
    mu = np.empty(L)
    D = residue.dist
    for c in range(L):
        mu[c] = 0.5 * (r[c] + (r[c + 1] if c + 1 < L else r[c]))
        if g[c] <= 0 and (c + 1 >= L or g[c + 1] <= 0):
            for d in range(1, D + 1):
                if (c - d >= 0 and g[c - d] > 0) or (c + 1 + d < L and g[c + 1 + d] > 0):
                    mu[c] *= 1 + residue.sep * (1 + 2 * (D - d) / D)
                    break
    return mu


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_open_multipliers_match_reference(rt, blosum, seed) -> None:
    """Leaves, host profiles and merged nodes get the MU the header defines; hydrophilic
    stretches are runs of >= 5 in each ungapped sequence, and merged profiles carry their
    share (the merged rows' ``profile_columns``)."""
    from dataclasses import replace

    from bioplug.progressive.aligner import residue_gaps

    rng = np.random.default_rng(seed)
    letters, A = blosum.letters, len(blosum.letters)
    residue = replace(residue_gaps(letters), sep=1.0)     # the separation raise on as well
    gaps = GapScores(-10.0, -1.0, -2.0, -0.5, residue)
    engine = ProfileEngine(rt, blosum.values, gaps)
    texts = ["".join(rng.choice(list("DEGKNQPRS" if rng.random() < 0.5 else AMINO), 7))
             + "".join(rng.choice(list(AMINO), int(rng.integers(5, 30)))) for _ in range(4)]
    leaves = engine.add_sequences(encode(texts, ["s"] * 4, letters, False), np.ones(4))
    for leaf, text in zip(leaves, texts, strict=True):
        rows = np.frombuffer(text.encode(), np.uint8)[None, :]
        cols = profile_columns(rows, letters, False, ["s"], residue)
        np.testing.assert_allclose(engine.read_profile(leaf), cols, atol=2e-6)
        np.testing.assert_allclose(engine.open_multipliers(leaf),
                                   open_multipliers_reference(cols, A, residue), rtol=1e-5)
    rx, ry = random_rows(rng, 3, 25, AMINO, 0.3), random_rows(rng, 2, 20, AMINO, 0.3)
    px = profile_columns(rx, letters, False, ["x"] * 3, residue)
    x = engine.add_profile(px, 3.0)
    np.testing.assert_allclose(engine.open_multipliers(x),
                               open_multipliers_reference(px, A, residue), rtol=1e-5)
    y = engine.add_profile(profile_columns(ry, letters, False, ["y"] * 2, residue), 2.0)
    (node, moves), = engine.align([(x, y)])
    merged = np.vstack([placed(rx, moves != 2), placed(ry, moves != 1)])
    cols = profile_columns(merged, letters, False, ["m"] * 5, residue)
    np.testing.assert_allclose(engine.read_profile(node), cols, atol=2e-6)
    np.testing.assert_allclose(engine.open_multipliers(node),
                               open_multipliers_reference(cols, A, residue), rtol=1e-5)


def test_residue_gaps_setting() -> None:
    """``residue_gaps`` turns ClustalW's residue-specific gap opening on for proteins only;
    by default it follows ``RESIDUE_GAPS`` for small families and is off for large ones."""
    from bioplug.progressive import ProgressiveAligner
    from bioplug.progressive.aligner import PASCARELLA, RESIDUE_GAPS

    small, large = ["MKVLWTHE"] * 5, ["MKVLWTHE"] * 100
    _, gaps, _ = ProgressiveAligner(residue_gaps=True).scoring(small)
    letters = ProgressiveAligner().scoring(small)[0].letters
    assert gaps.residue.factor[letters.index("G")] == PASCARELLA["G"]
    assert gaps.residue.hydrophilic[letters.index("D")]
    assert not gaps.residue.hydrophilic[letters.index("W")]
    assert ProgressiveAligner(residue_gaps=False).scoring(small)[1].residue is None
    assert ProgressiveAligner(residue_gaps=True).scoring(["ACGTAC"] * 3)[1].residue is None
    assert (ProgressiveAligner().scoring(small)[1].residue is not None) == bool(RESIDUE_GAPS)
    assert ProgressiveAligner().scoring(large)[1].residue is None
