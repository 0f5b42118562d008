"""The OpenCL pairwise engine itself: every kernel variant and path against Biopython.

Each returned path is rescored by an independent walk over its coordinates (``rescore``)
with Biopython's gap rules, and each score is compared with Biopython's.
"""

import itertools
import os

import numpy as np
import pytest
from Bio import Align
from Bio.Align import substitution_matrices
from hypothesis import given, settings
from hypothesis import strategies as st

import bioplug.pairwise.engine as engine_module
import bioplug.pairwise.windowed as windowed_module
from bioplug.alphabet import GAP_FIELDS, make_scoring
from bioplug.errors import InputError
from bioplug.pairwise.engine import PairwiseEngine, fits_16bit

BLOSUM62 = substitution_matrices.load("BLOSUM62")
#: Device of the tests that do not depend on PoCL's work-group sizes (default cpu: PoCL).
DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
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
        engine.use_packed16 = False  # the 32-bit score kernel at this strip height
        check(engine, aligner, targets, queries)
    check(PairwiseEngine(scoring, "cpu"), aligner, targets, queries)  # packed 16-bit scores


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
        engine.use_packed16 = False
        check(engine, aligner, targets, queries)


@settings(max_examples=40, deadline=None)
@given(mode=st.sampled_from(["global", "semiglobal", "local"]),
       gaps=st.sampled_from([(-10, -1), (-5, -5), (-11, -0.5), (-1, -3), (-3, -1)]),
       lengths=st.lists(st.tuples(st.integers(1, 140), st.integers(1, 80)), min_size=1,
                        max_size=12),
       seed=st.integers(0, 2**32 - 1))
def test_packed16_scores_against_biopython(mode, gaps, lengths, seed):
    """The two-lane 16-bit kernel: strips of 16 or 32 rows split in halves one column apart,
    so row counts around 8, 16, 32, 64 and single columns are the edge cases; Biopython is
    the oracle."""
    aligner = aligner_for(mode, *gaps)
    scoring = make_scoring(BLOSUM62, gaps=[getattr(aligner, f) for f in GAP_FIELDS],
                           local=mode == "local")
    rng = np.random.default_rng(seed)
    targets = ["".join(rng.choice(list(AMINO), a)) for a, _ in lengths]
    queries = ["".join(rng.choice(list(AMINO), b)) for _, b in lengths]
    expected = np.array([aligner.score(t, q) for t, q in zip(targets, queries, strict=True)])
    saved = dict(engine_module.PACKED16_ROWS)
    try:
        for rows in (16, 32, 64):  # GPUs use 32 or 64 rows per strip, PoCL 16
            engine_module.PACKED16_ROWS["cpu"] = rows
            engine = PairwiseEngine(scoring, "cpu")
            assert engine.use_packed16 and fits_16bit(scoring, 140, 80)
            got = engine.score_pairs([scoring.encode(t) for t in targets],
                                     [scoring.encode(q) for q in queries])
            np.testing.assert_array_equal(got, expected, err_msg=f"{rows} rows")
    finally:
        engine_module.PACKED16_ROWS.update(saved)


@pytest.mark.parametrize("local", [True, False])
def test_packed16_bound_is_honest_near_its_limit(local):
    """Scores close to the 16-bit band: the kernel is chosen only while exact, and the
    largest length it accepts still gives Biopython's score (match 100 per residue)."""
    aligner = Align.PairwiseAligner(mode="local" if local else "global", match_score=100,
                                    mismatch_score=-100, open_gap_score=-120,
                                    extend_gap_score=-60)
    scoring = make_scoring(None, 100, -100, gaps=[getattr(aligner, f) for f in GAP_FIELDS],
                           local=local, letters="ACGT")
    longest = max(n for n in range(1, 400) if fits_16bit(scoring, n, n))
    assert 30 < longest < 160  # 100 * n must stay below 16000
    assert not fits_16bit(scoring, longest + 1, longest + 1)
    rng = np.random.default_rng(11)
    saved = dict(engine_module.PACKED16_ROWS)
    try:
        for rows, n in itertools.product((16, 64), (longest, longest + 1, longest + 40)):
            # longest + 1 and + 40 run the 32-bit kernel; 64-row strips pad the most rows
            engine_module.PACKED16_ROWS["cpu"] = rows
            a = "".join(rng.choice(list("ACGT"), n))
            b = a[: n // 3] + "T" + a[n // 3 + 1:]
            c = "".join(rng.choice(list("ACGT"), n))
            engine = PairwiseEngine(scoring, "cpu")
            got = engine.score_pairs([scoring.encode(a), scoring.encode(a)],
                                     [scoring.encode(b), scoring.encode(c)])
            np.testing.assert_array_equal(got, [aligner.score(a, b), aligner.score(a, c)])
    finally:
        engine_module.PACKED16_ROWS.update(saved)


def test_packed16_refuses_wide_scores():
    wide = make_scoring(None, 200, -1, gaps=[-1] * 12, letters="ACGT")  # 200 needs 2 bytes
    assert not fits_16bit(wide, 10, 10)
    assert fits_16bit(make_scoring(BLOSUM62, gaps=[-11, -1] * 6), 1000, 1000)


@pytest.mark.parametrize("packed16", [True, False])
def test_all_vs_all_windows_made_on_the_fly(monkeypatch, packed16):
    """score_all's windowed path (tasks made per window, many tiny windows, one and two
    devices, uneven lengths) against Biopython, cell by cell."""
    from bioplug.runtime import Runtime, select_device

    aligner = aligner_for("local", -11, -1)
    scoring = make_scoring(BLOSUM62, gaps=[-11, -1] * 6, local=True)
    rng = np.random.default_rng(17)
    texts = ["".join(rng.choice(list(AMINO), int(k))) for k in rng.integers(1, 60, 23)]
    seqs = [scoring.encode(t) for t in texts]
    expected = np.array([[aligner.score(a, b) for b in texts] for a in texts])
    monkeypatch.setattr(engine_module, "MAX_WINDOW", 7)
    monkeypatch.setattr(windowed_module, "STREAM_WINDOW", 7)
    for devices in ("cpu", [Runtime(select_device("cpu")), Runtime(select_device("cpu"))]):
        engine = PairwiseEngine(scoring, devices)
        engine.use_packed16 = packed16
        seen: list[int] = []
        got = engine.score_all(seqs, progress=lambda _stage, done, _total, seen=seen:
                               seen.append(done))
        np.testing.assert_array_equal(got, expected)
        assert seen[-1] == 100 and seen == sorted(seen)


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


def _tie_rich_pairs(seed: int) -> tuple[list[str], list[str]]:
    """Random pairs plus pairs with many equal maxima (repeats), single residues, and tall
    thin pairs that take two bands of a 64-item work-group on the CPU (the repeat has equal
    maxima in both bands: the first work-item's second strip must not win over strip 1)."""
    targets, queries = random_pairs(seed, 10, 160)
    rng = np.random.default_rng(seed)
    targets += ["AC" * 60, "W" * 40, "K", "WCW" * 30, "".join(rng.choice(list(AMINO), 1500)),
                "AC" * 800]
    queries += ["CA" * 15, "W" * 6, "KKKK", "CWC" * 9, "".join(rng.choice(list(AMINO), 40)),
                "CA" * 10]
    return targets, queries


@pytest.mark.parametrize("mode", ["local", "global"])
@pytest.mark.parametrize("gaps", [(-11, -1), (-1, -3)])  # four and eight direction bits
def test_group_kernel_traces_like_the_windows(mode, gaps):
    """Pairs on ``fill_wavefront_groups`` (a work-group each, one launch, one traceback
    launch) get the per-work-item kernel's scores and paths exactly, ties included; so do
    pairs alone on the checkpointed ``fill_wavefront`` (its end cell is fill_pairs' too)."""
    aligner = aligner_for(mode, *gaps)
    scoring = make_scoring(BLOSUM62, gaps=[getattr(aligner, f) for f in GAP_FIELDS],
                           local=mode == "local")
    targets, queries = _tie_rich_pairs(5)
    ta = [scoring.encode(t) for t in targets]
    tb = [scoring.encode(q) for q in queries]
    want = PairwiseEngine(scoring, "cpu").trace_pairs(ta, tb)
    groups = PairwiseEngine(scoring, "cpu")
    groups.long_cells, groups.timings = 0, {}
    banded = PairwiseEngine(scoring, "cpu", memory_fraction=1e-7)  # checkpointed bands
    banded.long_cells, banded.timings = 0, {}
    for engine, kernel in ((groups, "fill+directions (groups)"),
                           (banded, "fill+directions (wavefront)")):
        got = engine.trace_pairs(ta, tb)
        assert kernel in engine.timings
        np.testing.assert_array_equal(got.scores, want.scores)
        for k in range(len(want)):
            np.testing.assert_array_equal(got.coordinates(k), want.coordinates(k))
        np.testing.assert_array_equal(engine.score_pairs(ta, tb), want.scores)
    assert "fill (groups)" in groups.timings
    for (score, coords), t, q in zip(groups.align_pairs(ta, tb), targets, queries, strict=True):
        assert rescore(aligner, t, q, coords, mode == "local") == pytest.approx(score)


def _local_case(gaps, seed: int, count: int, longest: int):
    """Local scoring with ``gaps`` (open, extend) and encoded pairs: tie-rich ones (seed)
    and ``count`` random ones up to ``longest`` residues (seed + 1)."""
    aligner = aligner_for("local", *gaps)
    scoring = make_scoring(BLOSUM62, gaps=[getattr(aligner, f) for f in GAP_FIELDS], local=True)
    targets, queries = _tie_rich_pairs(seed)
    more = random_pairs(seed + 1, count, longest)
    targets, queries = targets + more[0], queries + more[1]
    return (scoring, [scoring.encode(t) for t in targets],
            [scoring.encode(q) for q in queries])


@pytest.mark.parametrize("gaps", [(-11, -1), (-1, -3), (-5, -5), (0, 0)])
def test_windowed_local_traceback_is_the_whole_matrix_one(gaps):
    """Local paths traced in the rectangle between the reverse pass's start bound and the
    end cell (``fill_reverse_starts``) equal the whole matrix's paths, ties included (repeats,
    single residues, pairs without a positive score; free gaps, where a gap state can equal
    the end's value before the end), and the rectangles are small for unrelated pairs."""
    scoring, ta, tb = _local_case(gaps, 8, 30, 300)
    whole = PairwiseEngine(scoring, "cpu")
    whole.windowed_traceback = False
    want = whole.trace_pairs(ta, tb)
    engine = PairwiseEngine(scoring, "cpu")
    engine.timings = {}
    mixed = PairwiseEngine(scoring, "cpu")  # the larger pairs whole, on work-groups
    mixed.long_cells, mixed.timings = 20000, {}
    tall = PairwiseEngine(scoring, "cpu")  # ends from 32-row strips in 8-row order
    tall.score_rows, tall.trace_rows, tall.timings = 32, 8, {}
    whole.trace_rows = 8
    want8 = whole.trace_pairs(ta, tb)
    got = tall.trace_pairs(ta, tb)
    np.testing.assert_array_equal(got.scores, want8.scores)
    for k in range(len(want8)):
        np.testing.assert_array_equal(got.coordinates(k), want8.coordinates(k))
    for eng in (engine, mixed):
        got = eng.trace_pairs(ta, tb)
        assert _reversed(eng.timings)
        np.testing.assert_array_equal(got.scores, want.scores)
        for k in range(len(want)):
            np.testing.assert_array_equal(got.coordinates(k), want.coordinates(k))
    assert "fill+directions (groups)" in mixed.timings
    if gaps == (-11, -1):  # BLAST's costs: random pairs align over short stretches
        seqs, ia, ib = ta + tb, np.arange(len(ta)), np.arange(len(ta), 2 * len(ta))
        rect, _ = engine._rectangles(seqs, ia, ib)
        cells = sum(len(a) * len(b) for a, b in zip(ta, tb, strict=True))
        assert rect.size.prod(axis=1).sum() < cells / 10


def _reversed(timings: dict) -> bool:
    """Whether a reverse pass ran (32- or 16-bit: ``reverse starts`` timings)."""
    return any(name.startswith("reverse starts") for name in timings)


def _counting(fn, calls: dict, key: str):
    """``fn``, counting its calls in ``calls[key]``."""
    def counted(*args, **kwargs):
        calls[key] += 1
        return fn(*args, **kwargs)
    return counted


@pytest.mark.parametrize("gaps", [(-11, -1), (-1, -3)])  # four and eight direction bits
@pytest.mark.parametrize("table, ndev", [(True, 1), (False, 1), (True, 2)])
def test_windowed_passes_run_window_by_window(monkeypatch, gaps, table, ndev):
    """Many small windows, each running the end pass and the reverse pass back to back on
    the device (``_run_window_corners``), long pairs mixed in on work-groups: the paths
    are the whole matrix's, ties included, whether every window's tasks are uploaded at
    once (``_window_table``; the traced pass's windows planned per window of the first
    passes, ``_rect_windows``) or written before each launch (``TABLE_BYTES`` = 0), on one
    device or spread over two (``BIOPLUG_TEST_DEVICE``: PoCL unless set, e.g. to gpu)."""
    from bioplug.runtime import Runtime, select_device

    scoring, ta, tb = _local_case(gaps, 11, 25, 200)
    reference = PairwiseEngine(scoring, DEVICE)
    reference.windowed_traceback = False
    want = reference.trace_pairs(ta, tb)  # default windows, whole matrices
    monkeypatch.setattr(engine_module, "MAX_WINDOW", 7)
    monkeypatch.setattr(windowed_module, "STREAM_WINDOW", 7)
    if not table:
        monkeypatch.setattr(engine_module, "TABLE_BYTES", 0)
    calls = {"corners": 0, "per-window tasks": 0, "traced windows planned early": 0}
    for eng_kind in (False, True):
        devices = [Runtime(select_device(DEVICE)) for _ in range(ndev)]
        engine = PairwiseEngine(scoring, devices)
        engine.windowed_traceback, engine.long_cells, engine.timings = eng_kind, 20000, {}
        for name, key in (("_run_window_corners", "corners"),
                          ("_window_batch", "per-window tasks"),
                          ("_rect_windows", "traced windows planned early")):
            monkeypatch.setattr(engine, name, _counting(getattr(engine, name), calls, key))
        got = engine.trace_pairs(ta, tb)
        assert "fill+directions (groups)" in engine.timings
        np.testing.assert_array_equal(got.scores, want.scores)
        for k in range(len(want)):
            np.testing.assert_array_equal(got.coordinates(k), want.coordinates(k))
    assert calls["corners"] >= len(ta) // 7 - 1  # the windowed engine's end windows
    assert (calls["per-window tasks"] > 0) == (not table)
    # each window's traced windows, planned as its first passes come back
    assert calls["traced windows planned early"] == calls["corners"]


def test_traced_windows_do_not_depend_on_the_number_of_devices():
    """The traced pass of a window of the first passes runs on that window's device: its
    windows are cut as one device cuts them (cutting them smaller to share them between
    devices made four H200s trace slower than one), while the first passes' windows are
    still cut smaller to be shared."""
    from bioplug.runtime import Runtime, select_device

    scoring, *_ = _local_case((-11, -1), 11, 25, 200)
    one = PairwiseEngine(scoring, [Runtime(select_device(DEVICE))])
    four = PairwiseEngine(scoring, [Runtime(select_device(DEVICE)) for _ in range(4)])
    rng = np.random.default_rng(7)
    # enough pairs that four devices share them (engine._window_size: 8 per compute unit)
    n = max(4000, 80 * one.runtimes[0].compute_units)
    tasks = np.zeros((n, 4), np.int32)
    tasks[:, 1], tasks[:, 3] = rng.integers(20, 400, n), rng.integers(20, 400, n)
    corners = np.zeros((n, 2), np.int32)
    ends = np.stack([rng.integers(0, 20, n), rng.integers(0, 20, n)], axis=1).astype(np.int32)
    pairs = np.arange(n)
    cut_one = one._rect_windows(tasks, ends, corners, pairs)[1]
    cut_four = four._rect_windows(tasks, ends, corners, pairs)[1]
    assert cut_four == cut_one
    la = tasks[:, 1].astype(np.int64)
    order = np.argsort(-la, kind="stable")
    assert len(four._cut(la, order, 400, False)) > len(one._cut(la, order, 400, False))


def test_local_traceback_windowed_on_every_device(monkeypatch):
    """The windowed passes are the default on CPU and GPU devices alike; False keeps whole
    matrices, with the same scores."""
    from bioplug.runtime.runtime import Runtime

    scoring = make_scoring(BLOSUM62, gaps=[-11, -1] * 6, local=True)
    ta, tb = random_pairs(4, 20, 80)
    ta, tb = [scoring.encode(t) for t in ta], [scoring.encode(q) for q in tb]
    engine = PairwiseEngine(scoring, "cpu")
    engine.timings = {}
    want = engine.trace_pairs(ta, tb)
    assert _reversed(engine.timings)
    monkeypatch.setattr(Runtime, "is_gpu", property(lambda self: True))
    engine.timings = {}
    got = engine.trace_pairs(ta, tb)
    assert _reversed(engine.timings)
    engine.windowed_traceback, engine.timings = False, {}
    whole = engine.trace_pairs(ta, tb)
    assert not _reversed(engine.timings)
    np.testing.assert_array_equal(got.scores, want.scores)
    np.testing.assert_array_equal(whole.scores, want.scores)


def _reverse_corner(a: np.ndarray, b: np.ndarray, end: tuple[int, int], best: int,
                    m: np.ndarray, g: np.ndarray) -> tuple[int, int]:
    """Reference for ``fill_reverse_starts`` without pruning: the DP over the reversed
    prefixes anchored at ``end``; the corner of the box of the cells where M' == best."""
    ie, je = end
    ra, rb = a[:ie][::-1], b[:je][::-1]
    neg = -(1 << 29)
    M = np.full((ie + 1, je + 1), neg, dtype=np.int64)
    X, Y = M.copy(), M.copy()
    imax = jmax = 0
    for i in range(1, ie + 1):
        for j in range(1, je + 1):
            corner = 0 if (i, j) == (1, 1) else neg
            diag = max(corner, M[i - 1, j - 1], X[i - 1, j - 1], Y[i - 1, j - 1])
            M[i, j] = diag + m[ra[i - 1], rb[j - 1]]
            X[i, j] = max(max(M[i - 1, j], Y[i - 1, j]) + g[2], X[i - 1, j] + g[3])
            Y[i, j] = max(max(M[i, j - 1], X[i, j - 1]) + g[0], Y[i, j - 1] + g[1])
            if M[i, j] == best:
                imax, jmax = max(imax, i), max(jmax, j)
    return ie - imax, je - jmax


@pytest.mark.parametrize("gaps", [(-11, -1), (-1, -3)])
@pytest.mark.parametrize("packed16", [False, True])
def test_reverse_starts_prune_nothing_that_matters(gaps, packed16):
    """The pruned reverse pass (values below 0 dropped, dead columns skipped; 32-bit
    ``fill_reverse_starts`` or 16-bit ``fill_reverse16``) gives the corner an unpruned DP
    gives, pair by pair."""
    aligner = aligner_for("local", *gaps)
    scoring = make_scoring(BLOSUM62, gaps=[getattr(aligner, f) for f in GAP_FIELDS], local=True)
    targets, queries = random_pairs(8, 40, 160)
    targets += ["AC" * 30, "WCW" * 12, "K"]
    queries += ["CA" * 9, "CWC" * 5, "KKK"]
    seqs = [scoring.encode(s) for s in targets + queries]
    engine = PairwiseEngine(scoring, "cpu")
    engine.use_packed16, engine.timings = packed16, {}
    engine.reverse16_rows = 32  # reverse strips other than the 16-bit fill's (16 on PoCL)
    ia, ib = np.arange(len(targets)), np.arange(len(targets), len(seqs))
    rect, plan = engine._rectangles(seqs, ia, ib)
    assert ("reverse starts (16-bit)" in engine.timings) == packed16
    scores = engine.score_indexed(seqs, ia, ib) * scoring.scale
    ends = rect.origin + rect.ends
    checked = 0
    for k in range(len(ia)):
        a, b = seqs[plan.ia[k]], seqs[plan.ib[k]]
        want = _reverse_corner(a, b, tuple(ends[k]), int(round(scores[k])), scoring.matrix,
                               scoring.gaps)
        if scores[k] > 0:
            assert tuple(rect.origin[k]) == want, k
            checked += 1
    assert checked > 30


def _first_passes(engine: PairwiseEngine, seqs, ia, ib, monkeypatch):
    """Scores, end cells and corners of the windowed traceback's first two passes
    (``_run_window_corners``, every window), in the pairs' order, and the engine's timings."""
    windows: list[tuple] = []
    run = engine._run_window_corners

    def kept(batch, first, stop, bounds, rt, out, **kwargs):
        windows.append(out)
        return run(batch, first, stop, bounds, rt, out, **kwargs)

    monkeypatch.setattr(engine, "_run_window_corners", kept)
    engine.timings = {}
    rect, plan = engine._rectangles(seqs, ia, ib)
    # the pass's own values in launch order: ends are relative to the corners by now
    values = np.concatenate([out[0] for out in windows])
    ends = np.concatenate([out[1] + out[2] for out in windows])
    return values, ends, rect.origin + rect.ends, rect.origin, engine.timings


@pytest.mark.parametrize("gaps", [(-11, -1), (-1, -3), (-5, -5), (0, 0)])
@pytest.mark.parametrize("rows16, order_rows", [(16, None), (16, 8), (32, 32), (64, 32),
                                                (64, 8)])
def test_packed16_ends_are_the_32bit_ones(monkeypatch, gaps, rows16, order_rows):
    """The 16-bit ends pass (``fill_pairs16`` with ENDS) gives the 32-bit pass's scores and
    end cells, pair by pair, ties included (repeats, single residues, pairs without a
    positive score, free gaps), whatever the 16-bit strip height (its lanes within, across
    or beside the end order's parts: 16, 32, 64 rows against parts of 8, 16, 32); the 16-bit
    reverse pass (``fill_reverse16``, lanes of 8, 16, 32 rows each pruned on its own) gives
    the 32-bit one's corners, and the traced paths are the whole matrix's."""
    scoring, ta, tb = _local_case(gaps, 8, 30, 300)
    seqs, ia, ib = ta + tb, np.arange(len(ta)), np.arange(len(ta), 2 * len(ta))
    monkeypatch.setitem(engine_module.PACKED16_ROWS, "cpu", rows16)
    runs = []
    for packed16 in (False, True):
        engine = PairwiseEngine(scoring, "cpu")
        engine.use_packed16, engine.trace_rows = packed16, order_rows
        engine.reverse16_rows = rows16
        runs.append(_first_passes(engine, seqs, ia, ib, monkeypatch))
    (values, ends, whole_ends, origin, t32), (values16, ends16, whole16, origin16, t16) = runs
    assert "fill+ends" in t32 and "fill+ends" not in t16 and "fill+ends (16-bit)" in t16
    assert "reverse starts" in t32 and "reverse starts" not in t16
    assert "reverse starts (16-bit)" in t16
    np.testing.assert_array_equal(values16, values)
    np.testing.assert_array_equal(ends16, ends)
    np.testing.assert_array_equal(whole16, whole_ends)
    np.testing.assert_array_equal(origin16, origin)
    assert (values == 0).any() and (values > 0).sum() > 30
    if order_rows is None:  # the paths, with the 16-bit ends on, against whole matrices
        whole = PairwiseEngine(scoring, "cpu")
        whole.windowed_traceback = False
        want = whole.trace_pairs(ta, tb)
        engine = PairwiseEngine(scoring, "cpu")
        engine.timings = {}
        got = engine.trace_pairs(ta, tb)
        assert "fill+ends (16-bit)" in engine.timings
        np.testing.assert_array_equal(got.scores, want.scores)
        for k in range(len(want)):
            np.testing.assert_array_equal(got.coordinates(k), want.coordinates(k))


def test_packed16_ends_fall_back_near_the_16bit_limit(monkeypatch):
    """Windows whose scores may leave the 16-bit band run the 32-bit ends and reverse
    passes, the others the 16-bit ones, in one batch: the same scores, ends, corners and
    paths as the 32-bit passes alone (match 100 a residue: repeats near the limit,
    tie-rich, and near-identical pairs)."""
    aligner = Align.PairwiseAligner(mode="local", match_score=100, mismatch_score=-100,
                                    open_gap_score=-120, extend_gap_score=-60)
    scoring = make_scoring(None, 100, -100, gaps=[getattr(aligner, f) for f in GAP_FIELDS],
                           local=True, letters="ACGT")
    longest = max(n for n in range(1, 400) if fits_16bit(scoring, n, n))
    rng = np.random.default_rng(3)
    targets, queries = [], []
    for n in (longest, longest + 1, longest + 30, 20, 7, 1, longest // 2):
        a = "".join(rng.choice(list("ACGT"), n))
        targets += [a, a, "AC" * (n // 2 + 1), "A" * n]
        queries += [a[: n // 3] + "T" + a[n // 3 + 1:], "".join(rng.choice(list("ACGT"), n)),
                    "CA" * (n // 3 + 1), "A" * max(1, n // 4)]
    seqs = [scoring.encode(s) for s in targets + queries]
    ia, ib = np.arange(len(targets)), np.arange(len(targets), len(seqs))
    monkeypatch.setattr(engine_module, "MAX_WINDOW", 5)
    monkeypatch.setattr(windowed_module, "STREAM_WINDOW", 5)
    runs = []
    for packed16 in (False, True):
        engine = PairwiseEngine(scoring, "cpu")
        engine.use_packed16 = packed16
        runs.append(_first_passes(engine, seqs, ia, ib, monkeypatch))
    (values, ends, whole_ends, origin, _), (values16, ends16, whole16, origin16, t16) = runs
    assert "fill+ends" in t16 and "fill+ends (16-bit)" in t16  # both kernels in one batch
    assert "reverse starts" in t16 and "reverse starts (16-bit)" in t16
    np.testing.assert_array_equal(values16, values)
    np.testing.assert_array_equal(ends16, ends)
    np.testing.assert_array_equal(whole16, whole_ends)
    np.testing.assert_array_equal(origin16, origin)
    assert values.max() > 100 * longest - 200  # a score at the 16-bit band's edge
    whole = PairwiseEngine(scoring, "cpu")
    whole.windowed_traceback = False
    want = whole.trace_indexed(seqs, ia, ib)
    np.testing.assert_array_equal(want.scores, [aligner.score(t, q)
                                                for t, q in zip(targets, queries, strict=True)])
    got = PairwiseEngine(scoring, "cpu").trace_indexed(seqs, ia, ib)
    np.testing.assert_array_equal(got.scores, want.scores)
    for k in range(len(want)):
        np.testing.assert_array_equal(got.coordinates(k), want.coordinates(k))


def test_windowed_first_passes_sort_each_window_by_rows_then_columns(monkeypatch):
    """The windowed traceback sorts its pairs by rows alone and each window's by columns
    when its tasks are made (``_Stream.step``): every window's tasks are ordered by rows,
    then columns, largest first, so a warp's work-items run similar column loops. Pairs
    already sorted by rows alone are not kept (a warp would run as many columns as its
    longest query: 78% more lockstep steps on 2,000 proteins, benchmarks/_scratch/
    lockstep16d.py), unless the caller vouches for columns sorted per target (score_all)."""
    from bioplug.pairwise.batch import size_order

    rows = np.array([9, 9, 9, 7, 7, 3], np.int32)
    cols = np.array([2, 8, 5, 1, 6, 3], np.int32)
    np.testing.assert_array_equal(size_order(None, rows, cols), [1, 2, 0, 4, 3, 5])
    np.testing.assert_array_equal(size_order(None, rows, cols, blocks=True), np.arange(6))
    np.testing.assert_array_equal(size_order(None, rows, None), np.arange(6))
    np.testing.assert_array_equal(size_order(np.arange(6) + 10, rows[[1, 2, 0, 4, 3, 5]],
                                             cols[[1, 2, 0, 4, 3, 5]]), np.arange(6) + 10)
    rng = np.random.default_rng(3)
    lengths = rng.integers(1, 90, 60)
    scoring = make_scoring(BLOSUM62, gaps=[-11, -1] * 6, local=True)
    seqs = [scoring.encode("".join(rng.choice(list(AMINO), int(k)))) for k in lengths]
    ia, ib = np.triu_indices(len(seqs), 1)
    monkeypatch.setattr(engine_module, "MAX_WINDOW", 300)
    monkeypatch.setattr(windowed_module, "STREAM_WINDOW", 300)
    engine = PairwiseEngine(scoring, DEVICE)
    p = engine._passes(seqs, ia, ib, None, None, trace=False)
    assert len(p.plan.jobs) > 3
    for _, (a, b) in p.plan.jobs:
        r, c = p.tasks[a:b, 1], p.tasks[a:b, 3]
        assert np.all(r[:-1] >= r[1:])
        same = r[:-1] == r[1:]
        assert np.all(c[:-1][same] >= c[1:][same])
    assert sorted(p.order.tolist()) == list(range(len(ia)))
