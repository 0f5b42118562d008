"""The OpenCL pairwise engine itself: every kernel variant and path against Biopython.

Each returned path is rescored by an independent walk over its coordinates (``rescore``)
with Biopython's gap rules, and each score is compared with Biopython's.
"""

import itertools

import numpy as np
import pytest
from Bio import Align
from Bio.Align import substitution_matrices

import bioplug.pairwise.engine as engine_module
from bioplug.alphabet import GAP_FIELDS, make_scoring
from bioplug.errors import InputError
from bioplug.pairwise.engine import PairwiseEngine

BLOSUM62 = substitution_matrices.load("BLOSUM62")
AMINO = "ACDEFGHIKLMNPQRSTVWY"


def random_pairs(seed: int, count: int, longest: int):
    rng = np.random.default_rng(seed)
    make = lambda: "".join(rng.choice(list(AMINO), int(rng.integers(1, longest + 1))))  # noqa: E731
    targets = [make() for _ in range(count)]
    queries = [make() for _ in range(count)]
    # edge cases: single residues, a pair with no positive local score, a gap-rich pair
    targets[:3] = ["W", "AAAA", "WWWCCWWW"]
    queries[:3] = ["W", "W", "WWWWWW"]
    return targets, queries


def aligner_for(mode: str, open_: float, extend: float) -> Align.PairwiseAligner:
    aligner = Align.PairwiseAligner(mode="local" if mode == "local" else "global",
                                    substitution_matrix=BLOSUM62, open_gap_score=open_,
                                    extend_gap_score=extend)
    if mode == "semiglobal":
        aligner.end_gap_score = 0
    if mode == "global":  # asymmetric end gaps: the engine must not swap sides
        aligner.open_left_insertion_score = -2
        aligner.extend_right_deletion_score = -3
    return aligner


def rescore(aligner, a: str, b: str, coords: np.ndarray, local: bool) -> float:
    """Score of an alignment path under Biopython's rules, walked segment by segment."""
    gaps = {f: getattr(aligner, f) for f in GAP_FIELDS}
    matrix = aligner.substitution_matrix
    total = 0.0
    for k in range(coords.shape[1] - 1):
        (i0, j0), (i1, j1) = coords[:, k], coords[:, k + 1]
        if i1 > i0 and j1 > j0:
            pairs = zip(range(i0, i1), range(j0, j1), strict=True)
            total += sum(matrix[a[i], b[j]] for i, j in pairs)
        elif j1 > j0:  # insertion: a gap in the target
            side = "internal" if local else "left" if i0 == 0 else \
                "right" if i1 == len(a) else "internal"
            total += gaps[f"open_{side}_insertion_score"] + \
                (j1 - j0 - 1) * gaps[f"extend_{side}_insertion_score"]
        elif i1 > i0:  # deletion: a gap in the query
            side = "internal" if local else "left" if j0 == 0 else \
                "right" if j1 == len(b) else "internal"
            total += gaps[f"open_{side}_deletion_score"] + \
                (i1 - i0 - 1) * gaps[f"extend_{side}_deletion_score"]
    if not local:
        assert tuple(coords[:, 0]) == (0, 0) and tuple(coords[:, -1]) == (len(a), len(b))
    return total


def check(engine: PairwiseEngine, aligner, targets, queries) -> None:
    local = aligner.mode == "local"
    scoring = engine.scoring
    ta = [scoring.encode(t) for t in targets]
    tb = [scoring.encode(q) for q in queries]
    expected = np.array([aligner.score(t, q) for t, q in zip(targets, queries, strict=True)])
    np.testing.assert_array_equal(engine.score_pairs(ta, tb), expected)
    for (score, coords), t, q, want in zip(engine.align_pairs(ta, tb), targets, queries,
                                           expected, strict=True):
        assert score == want
        assert rescore(aligner, t, q, coords, local) == pytest.approx(want)


@pytest.mark.parametrize("mode", ["global", "semiglobal", "local"])
@pytest.mark.parametrize("gaps", [(-10, -1), (-5, -5), (-11, -0.5), (-1, -3)])
def test_short_pairs_every_strip_height(mode, gaps):
    aligner = aligner_for(mode, *gaps)
    scoring = make_scoring(BLOSUM62, gaps=[getattr(aligner, f) for f in GAP_FIELDS],
                           local=mode == "local")
    targets, queries = random_pairs(sum(map(ord, f"{mode}{gaps}")), 25, 60)  # stable seed
    for rows in (8, 16, 32):
        engine = PairwiseEngine(scoring, "cpu")
        engine.trace_rows, engine.score_rows = rows, 2 * rows
        check(engine, aligner, targets, queries)


@pytest.mark.parametrize("mode", ["global", "local"])
def test_long_pair_kernel_and_checkpointed_bands(mode, monkeypatch):
    """Pairs on the work-group kernel, with a memory budget so small that the traceback
    recomputes the matrix band by band from checkpoints."""
    aligner = aligner_for(mode, -7, -1)
    scoring = make_scoring(BLOSUM62, gaps=[getattr(aligner, f) for f in GAP_FIELDS],
                           local=mode == "local")
    targets, queries = random_pairs(7, 8, 300)
    monkeypatch.setattr(engine_module, "LONG_CELLS", 0)
    check(PairwiseEngine(scoring, "cpu"), aligner, targets, queries)
    tiny = PairwiseEngine(scoring, "cpu", memory_fraction=1e-7)  # a few strips per band
    check(tiny, aligner, targets, queries)


def test_float_and_profile_variants():
    aligner = aligner_for("local", -11, -1)
    scoring = make_scoring(BLOSUM62, gaps=[getattr(aligner, f) for f in GAP_FIELDS], local=True)
    targets, queries = random_pairs(3, 20, 80)
    for use_float, use_profile in itertools.product([False, True], repeat=2):
        engine = PairwiseEngine(scoring, "cpu")
        engine.use_float, engine.use_profile = use_float, use_profile
        check(engine, aligner, targets, queries)


def test_indexed_batches_and_all_vs_all_agree():
    scoring = make_scoring(BLOSUM62, gaps=[-11, -1] * 6, local=True)
    seqs = [scoring.encode(s) for s in random_pairs(5, 12, 90)[0]]
    engine = PairwiseEngine(scoring, "cpu")
    ii, jj = np.triu_indices(len(seqs), 1)
    traces = engine.trace_indexed(seqs, ii, jj)
    all_scores = engine.score_all(seqs)
    np.testing.assert_array_equal(traces.scores, all_scores[ii, jj])
    np.testing.assert_array_equal(engine.score_indexed(seqs, ii, jj), traces.scores)
    for k in range(len(traces)):  # operations and coordinates describe the same path
        ops, coords = traces.operations(k), traces.coordinates(k)
        assert (ops != 2).sum() == coords[0, -1] - coords[0, 0]
        assert (ops != 1).sum() == coords[1, -1] - coords[1, 0]


def test_bad_batches_are_refused():
    scoring = make_scoring(BLOSUM62, gaps=[-11, -1] * 6)
    engine = PairwiseEngine(scoring, "cpu")
    one = scoring.encode("ACD")
    with pytest.raises(InputError, match="batch lengths differ"):
        engine.score_pairs([one, one], [one])
    with pytest.raises(InputError, match="empty"):
        engine.score_pairs([one], [np.zeros(0, np.uint8)])
    with pytest.raises(InputError, match="indices"):
        engine.score_indexed([one], [0], [1])
