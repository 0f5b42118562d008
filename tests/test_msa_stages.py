"""QuickProbs stages on PoCL against plain numpy references (small inputs)."""

from __future__ import annotations

import os

import msa_reference as ref
import numpy as np
import pyopencl as cl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import linkage as scipy_linkage
from scipy.spatial.distance import squareform

from bioplug.msa.consistency import relax
from bioplug.msa.guide import clustalw_weights, guide_tree
from bioplug.msa.model import ALPHABET, encode, load_model
from bioplug.msa.posterior import compute_posteriors
from bioplug.msa.progressive import ProfileAligner
from bioplug.runtime import get_runtime


@pytest.fixture(scope="module")
def rt():
    return get_runtime(os.environ.get("BIOPLUG_TEST_DEVICE", "cpu"))


def random_protein(rng, n):
    return "".join(rng.choice(list(ALPHABET), size=n))


def mutate(rng, s, rate=0.3):
    out = []
    for c in s:
        r = rng.random()
        if r < rate * 0.6:
            out.append(rng.choice(list(ALPHABET)))
        elif r < rate * 0.8:
            continue
        elif r < rate:
            out.extend([c, rng.choice(list(ALPHABET))])
        else:
            out.append(c)
    return "".join(out) or "A"


def family(seed, k, n):
    rng = np.random.default_rng(seed)
    root = random_protein(rng, n)
    return [mutate(rng, root) for _ in range(k)]


def all_pairs(k):
    ia, ib = np.triu_indices(k, 1)
    return np.stack([ia, ib], axis=1)


def posteriors_of(rt, seqs, **options):
    """(codes, pairs, distances, sparse store) of every pair of ``seqs`` (stage I)."""
    codes = [encode(s, str(i)) for i, s in enumerate(seqs)]
    pairs = all_pairs(len(codes))
    keep = np.ones(len(pairs), bool)
    dist, store = compute_posteriors(rt, codes, pairs, keep, keep, **options)
    return codes, pairs, dist, store


def test_model_tables():
    m = load_model()
    pairs = np.exp(m.hmm[51:].reshape(21, 21)[:20, :20])
    assert abs(pairs.sum() - 1.0) < 1e-3
    assert np.allclose(pairs, pairs.T)
    trans = np.exp(m.hmm[5:30].reshape(5, 5))
    assert np.allclose(trans.sum(axis=1), 1.0, atol=1e-5)
    # wildcard: ProbCons' / QuickProbs 2.06's emissions for letters outside the 20
    assert np.exp(m.hmm[30 + 20]) == pytest.approx(1e-5, rel=1e-5)
    assert np.allclose(np.exp(m.hmm[51:].reshape(21, 21)[20]), 1e-10, rtol=1e-5)


def test_wildcard_models(monkeypatch):
    import bioplug.msa.model as model

    monkeypatch.setattr(model, "WILDCARD_MODEL", "neutral")
    m = model.load_model()
    assert np.exp(m.hmm[30 + 20]) == pytest.approx(0.05)
    assert not m.pf[:21 * 21].reshape(21, 21)[20].any()
    monkeypatch.setattr(model, "WILDCARD_MODEL", "bogus")
    with pytest.raises(ValueError):
        model.load_model()


def test_partition_tables():
    # default: VTML200 (third bits) with QuickProbs 2.06's gap and temperature defaults;
    # Gonnet 160 with MSAProbs' defaults on request
    vt, gon = load_model(), load_model(partition="gonnet160")
    assert vt is load_model("protein", "vtml200") and gon is not vt
    beta = 1.0 / 5.6007
    scores = vt.pf[:21 * 21].reshape(21, 21) / beta
    assert np.allclose(scores, scores.T)
    assert scores[0, 0] == pytest.approx(4) and scores[17, 17] == pytest.approx(15)
    # wildcard (B Z J X U O *): VTML200's X row, as QuickProbs 2.06 scores X; Gonnet 160's is 0
    assert scores[20, :20] == pytest.approx([-1, -1, -1, -2, -1, -1, -1, -2, 0, -1, -1, -1, -1,
                                             -1, -2, -1, -1, -2, -1, -1])
    assert scores[20, 20] == pytest.approx(-1) and np.allclose(scores[:, 20], scores[20])
    assert not gon.pf[:21 * 21].reshape(21, 21)[20].any()
    assert vt.pf[-2:] == pytest.approx([-25.3549 * beta, -1.30113 * beta])
    assert gon.pf[-2:] == pytest.approx([-22 / 5, -1 / 5])
    assert np.array_equal(vt.hmm, gon.hmm)


@pytest.mark.parametrize("roll_local, tables_local, precision",
                         [(True, True, "double"), (False, False, "double"),
                          (True, True, "float"), (False, True, "fast")])
def test_posteriors_match_numpy(rt, roll_local, tables_local, precision, monkeypatch):
    import bioplug.msa.posterior as post

    monkeypatch.setattr(post, "ROLL_LOCAL", roll_local)
    monkeypatch.setattr(post, "TABLES_LOCAL", tables_local)
    # one pair longer than the work-group (several columns per work-item), one tiny pair,
    # very different lengths
    seqs = family(1, 3, 90) + ["MKV", random_protein(np.random.default_rng(5), 140)]
    codes = [encode(s, str(i)) for i, s in enumerate(seqs)]
    pairs = all_pairs(len(seqs))
    keep = np.ones(len(pairs), bool)
    dist, store = compute_posteriors(rt, codes, pairs, keep, keep, precision=precision)
    for (a, b), d in zip(pairs, dist, strict=True):
        P = ref.combined_posterior(codes[a], codes[b])
        assert d == pytest.approx(ref.gapfree_distance(P), abs=2e-4)
        want = np.where(P >= 0.01, P, 0)[1:, 1:]
        got = store.dense(a, b)
        # identical sparsity except values within float error of the cutoff
        close = np.abs(P[1:, 1:] - 0.01) < 1e-4
        assert np.abs(np.where(close, 0, got - want)).max() < 5e-4
        assert np.array_equal(store.dense(b, a), got.T)
        # sorted columns in every row
        p = store.pair_id[a, b]
        r0, r1 = store.row_base[p], store.row_base[p + 1]
        for r in range(r0, r1):
            c = store.cols[store.indptr[r]:store.indptr[r + 1]]
            assert np.all(np.diff(c) > 0)


def test_log_sum_exp_shortcut_is_bit_identical(rt, monkeypatch):
    """One exp fewer per log-sum-exp (the largest term's exp(0) is exactly 1) changes no bit."""
    import bioplug.msa.posterior as post

    seqs = family(3, 4, 70) + ["MKVW"]
    codes = [encode(s, str(i)) for i, s in enumerate(seqs)]
    pairs = all_pairs(len(seqs))
    keep = np.ones(len(pairs), bool)
    got = compute_posteriors(rt, codes, pairs, keep, keep)
    plain = post.build_options
    monkeypatch.setattr(post, "build_options",
                        lambda *a, **kw: {**plain(*a, **kw), "LSE_ALL_EXP": 1})
    want = compute_posteriors(rt, codes, pairs, keep, keep)
    assert np.array_equal(got[0], want[0])
    assert np.array_equal(got[1].vals, want[1].vals)
    assert np.array_equal(got[1].cols, want[1].cols)


def test_weighted_combination(rt, monkeypatch):
    """posterior.HMM_WEIGHT gives the weighted root mean square; 0.5 builds the default program."""
    import bioplug.msa.posterior as post

    assert "HMM_WEIGHT" not in post.build_options(rt, 100)
    monkeypatch.setattr(post, "HMM_WEIGHT", 0.8)
    assert post.build_options(rt, 100)["HMM_WEIGHT"] == "0.8f"
    seqs = family(2, 3, 60)
    codes = [encode(s, str(i)) for i, s in enumerate(seqs)]
    pairs = all_pairs(3)
    keep = np.ones(3, bool)
    dist, store = compute_posteriors(rt, codes, pairs, keep, keep)
    for (a, b), d in zip(pairs, dist, strict=True):
        P = ref.combined_posterior(codes[a], codes[b], hmm_weight=0.8)
        assert d == pytest.approx(ref.gapfree_distance(P), abs=2e-4)
        close = np.abs(P[1:, 1:] - 0.01) < 1e-4
        want = np.where(P >= 0.01, P, 0)[1:, 1:]
        assert np.abs(np.where(close, 0, store.dense(a, b) - want)).max() < 5e-4
        assert not np.allclose(P, ref.combined_posterior(codes[a], codes[b]), atol=1e-3)


def test_hmm_only_distances(rt):
    seqs = family(7, 3, 40)
    codes = [encode(s, str(i)) for i, s in enumerate(seqs)]
    pairs = all_pairs(3)
    none = np.zeros(3, bool)
    dist, store = compute_posteriors(rt, codes, pairs, none, none, hmm_only=True)
    assert store.nnz == 0
    for (a, b), d in zip(pairs, dist, strict=True):
        pa = np.minimum(ref.hmm_posterior(codes[a], codes[b]), 1.0)
        assert d == pytest.approx(ref.gapfree_distance(pa), abs=2e-4)


def test_posterior_probabilities_bounded():
    x, y = (encode(s, "s") for s in family(2, 2, 40))
    pa, pb = ref.hmm_posterior(x, y), ref.partition_posterior(x, y)
    for p in (pa, pb):
        assert p.sum(axis=1).max() <= 1 + 1e-6
        assert p.sum(axis=0).max() <= 1 + 1e-6
    assert np.allclose(ref.hmm_posterior(y, x), pa.T, atol=1e-9)
    assert np.allclose(ref.partition_posterior(y, x), pb.T, atol=1e-9)


def test_accurate_keeps_more(rt):
    seqs = family(3, 3, 50)
    codes = [encode(s, str(i)) for i, s in enumerate(seqs)]
    pairs = all_pairs(3)
    keep = np.ones(3, bool)
    _, s1 = compute_posteriors(rt, codes, pairs, keep, keep)
    _, s2 = compute_posteriors(rt, codes, pairs, keep, keep, accurate=True)
    assert s2.nnz > s1.nnz
    n, m = codes[0].size, codes[1].size
    dense = s2.dense(0, 1)
    assert abs((dense > 0).sum() - 0.3 * n * m) <= 0.02 * n * m + 2


@pytest.mark.parametrize("local_rows", [True, False])
def test_consistency_one_pass(rt, local_rows, monkeypatch):
    import bioplug.msa.consistency as cons

    monkeypatch.setattr(cons, "LOCAL_ROWS", local_rows)
    codes, _, _, store = posteriors_of(rt, family(4, 4, 35))
    k = len(codes)
    w = np.array([0.1, 0.2, 0.3, 0.4])
    mats = {(x, y): store.dense(x, y) for x in range(k) for y in range(k) if x != y}
    want = ref.relax_dense(mats, w)
    got = relax(rt, store, w, np.arange(k), passes=1)
    for (x, y), m in want.items():
        g = got.dense(x, y)
        near = np.abs(m - 0.01) < 1e-5
        assert np.abs(np.where(near, 0, g - m)).max() < 1e-5
        assert np.allclose(got.dense(y, x), g.T, atol=1e-6)


@pytest.mark.parametrize("group, cmax", [(64, 48), (32, 8), (16, 4)])
def test_consistency_same_bits_at_any_group(rt, group, cmax, monkeypatch):
    """The pass kernel's rows spread over any work-group size (GPUs take
    consistency.RELAX_GROUP), with rows in local memory or not (CMAX 4: the global path),
    give the relaxed entries bit for bit."""
    import bioplug.msa.consistency as cons

    codes, _, _, store = posteriors_of(rt, family(5, 6, 60))
    k = len(codes)
    w = np.linspace(0.1, 0.3, k)
    want = relax(rt, store, w, np.arange(k), passes=2, last_floor=cons.LAST_FLOOR)
    monkeypatch.setattr(type(rt), "is_gpu", property(lambda self: True))
    monkeypatch.setattr(cons, "RELAX_GROUP", group)
    monkeypatch.setattr(cons, "RELAX_CMAX", cmax)
    assert cons._relax_kernel(rt)[1] == group
    got = relax(rt, store, w, np.arange(k), passes=2, last_floor=cons.LAST_FLOOR)
    for field in ("indptr", "cols", "vals"):
        assert np.array_equal(getattr(got, field), getattr(want, field)), field


def test_consistency_last_floor(rt):
    # two passes; after the last one entries down to last_floor stay (QuickProbs 2), the
    # earlier pass still filters at the cutoff, and no entry is ever added
    codes, _, _, store = posteriors_of(rt, family(4, 5, 35))
    k = len(codes)
    w = np.array([0.1, 0.2, 0.3, 0.25, 0.15])
    mats = {(x, y): store.dense(x, y) for x in range(k) for y in range(k) if x != y}
    first = ref.relax_dense(mats, w)
    want = ref.relax_dense({key: m.astype(np.float32) for key, m in first.items()}, w,
                           cutoff=1e-5)
    got = relax(rt, store, w, np.arange(k), passes=2, last_floor=1e-5)
    plain = relax(rt, store, w, np.arange(k), passes=2)
    assert plain.nnz < got.nnz <= store.nnz
    for (x, y), m in want.items():
        g = got.dense(x, y)
        near = (np.abs(m - 1e-5) < 1e-7) | (np.abs(first[(x, y)] - 0.01) < 1e-5)
        assert np.abs(np.where(near, 0, g - m)).max() < 1e-5
        assert not np.any((g > 0) & (mats[(x, y)] == 0))


@pytest.mark.parametrize("accurate, floor", [(False, None), (True, None), (True, 1e-5)])
def test_consistency_filter_on_device_equals_host(rt, accurate, floor):
    # the device drops the same entries, in the same order, as SparseStore.filtered on the
    # host (per-pair thresholds in accurate mode, a floor after the last pass, anchors as z)
    import bioplug.msa.consistency as cons

    codes, _, _, store = posteriors_of(rt, family(6, 6, 40), accurate=accurate)
    assert accurate == (np.unique(store.thresh).size > 1)
    w, zlist = np.linspace(0.1, 0.3, len(codes)), np.array([1, 4])
    host = store
    for it in range(2):    # the old loop: pass on the device, filter on the host
        knl, wg = cons._relax_kernel(rt)
        tables = cons._pair_tables(rt, host, w, zlist)
        rows = cons._Rows.upload(rt, host)
        order = cons._launch_order(host)
        out = rt.empty(rows.nnz * 4)
        knl(rt.queue, (order.size * wg,), (wg,), rt.to_device(order), *tables[:4],
            rows.indptr, rows.cols, rows.vals, tables[4], np.int32(zlist.size), tables[5],
            np.int32(len(codes)), out)
        vals = np.empty(rows.nnz, np.float32)
        cl.enqueue_copy(rt.queue, vals, out)
        host = host.filtered(vals, floor if it == 1 else None)
    got = relax(rt, store, w, zlist, passes=2, last_floor=floor)
    assert 0 < got.nnz < store.nnz
    for field in ("indptr", "cols", "vals"):
        np.testing.assert_array_equal(getattr(got, field), getattr(host, field))


def test_column_refinement(rt):
    # QuickProbs 2's column-oriented refinement: residues kept, seeded, and the weighted sum
    # of aligned posteriors never below the progressive alignment's
    seqs = family(11, 7, 45)
    codes, pairs, dist, store = posteriors_of(rt, seqs)
    k = len(codes)
    dm = np.zeros((k, k))
    dm[pairs[:, 0], pairs[:, 1]] = dist
    link = guide_tree(dm + dm.T, rt)
    w = clustalw_weights(link, k)

    def aligned_sum(rows):
        total = 0.0
        for x in range(k):
            for y in range(x + 1, k):
                ix = np.cumsum([c != "-" for c in rows[x]]) - 1
                iy = np.cumsum([c != "-" for c in rows[y]]) - 1
                both = np.array([a != "-" and b != "-" for a, b in zip(rows[x], rows[y],
                                                                         strict=True)])
                total += w[x] * w[y] * store.dense(x, y)[ix[both], iy[both]].sum()
        return total

    out = []
    for _ in range(2):
        al = ProfileAligner(rt, store, w)
        _, length = al.progressive(link)
        start = aligned_sum(al.rows(seqs, length))
        length = al.refine(length, 12, 3, split="column")
        rows = al.rows(seqs, length)
        assert [r.replace("-", "") for r in rows] == seqs
        assert aligned_sum(rows) >= start - 1e-6
        out.append(rows)
    assert out[0] == out[1]
    with pytest.raises(ValueError, match="column"):
        al.refine(length, 1, 0, split="diagonal")


# (4, 12, 80): every pass changes the alignment (a split drawn again changes it again), so
# skipping every repeated split, not only those that changed nothing, fails there
@pytest.mark.parametrize("k, fam, n, split, skips", [(4, 12, 80, "random", False),
                                                     (5, 25, 40, "random", True),
                                                     (6, 26, 40, "column", True)])
def test_refinement_skips_only_passes_that_would_change_nothing(rt, k, fam, n, split, skips,
                                                                monkeypatch):
    """refine() skips a pass whose split already left the current alignment unchanged; the
    oracle realigns every pass (the same random draws) and must reach the same alignment."""
    seqs = family(fam, k, n)
    codes, pairs, dist, store = posteriors_of(rt, seqs)
    dm = np.zeros((k, k))
    dm[pairs[:, 0], pairs[:, 1]] = dist
    link = guide_tree(dm + dm.T, rt)
    w = clustalw_weights(link, k)
    passes, seed = 16, 5

    def progressive():
        al = ProfileAligner(rt, store, w)
        return al, al.progressive(link)[1]

    oracle, length = progressive()
    rng = np.random.default_rng(seed)
    for _ in range(passes):  # refine()'s draws, every pass realigned
        mask = oracle._column_split(length, rng) if split == "column" else None
        if mask is None:
            mask = rng.random(k) < 0.5
            if mask.all() or not mask.any():
                mask[rng.integers(k)] ^= True
        (X, rx, LX), (Y, ry, LY) = (oracle._compact(sel, length)
                                    for sel in (np.flatnonzero(mask), np.flatnonzero(~mask)))
        length = oracle.align_many([(X, Y, LX, LY)], [(rx, ry)])[0]
    al, start = progressive()
    calls = []
    align_many = al.align_many
    monkeypatch.setattr(al, "align_many", lambda *a: calls.append(1) or align_many(*a))
    got = al.refine(start, passes, seed, split=split)
    assert got == length
    assert al.rows(seqs, got) == oracle.rows(seqs, length)
    assert (len(calls) < passes) == skips   # a split that changed nothing drawn again


@settings(max_examples=10, deadline=None)
@given(st.integers(3, 9), st.integers(0, 10_000))
def test_tree_and_weights(k, seed):
    rng = np.random.default_rng(seed)
    pts = rng.random((k, 3))
    d = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
    link = guide_tree(d, "cpu")
    want = scipy_linkage(squareform(d, checks=False), method="average")
    assert np.allclose(link[:, 2], want[:, 2])
    w = clustalw_weights(link, k)
    # reference: walk every leaf up the tree
    parent, edge, size = {}, {}, {i: 1 for i in range(k)}
    for t, (a, b, h, s) in enumerate(link):
        for c in (int(a), int(b)):
            parent[c], edge[c] = k + t, h / 2
        size[k + t] = s
    raw = []
    for leaf in range(k):
        v, node = 0.0, leaf
        while node in parent:
            v += edge[node] / size[node]
            node = parent[node]
        raw.append(v)
    raw = np.array(raw)
    assert np.allclose(w, raw / raw.sum())
    assert w.sum() == pytest.approx(1.0)


def test_profile_dp_two_sequences(rt):
    seqs = family(6, 2, 60)
    codes = [encode(s, str(i)) for i, s in enumerate(seqs)]
    keep = np.ones(1, bool)
    _, store = compute_posteriors(rt, codes, all_pairs(2), keep, keep)
    al = ProfileAligner(rt, store, np.array([0.5, 0.5]))
    link = np.array([[0.0, 1.0, 0.5, 2.0]])
    _, L = al.progressive(link)
    rows = al.rows(seqs, L)
    # numpy reference: gap-free max-sum DP on P (Eq. 3)
    P = store.dense(0, 1).astype(np.float64) * 0.25
    n, m = P.shape
    D = np.zeros((n + 1, m + 1))
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            D[i, j] = max(D[i - 1, j - 1] + P[i - 1, j - 1], D[i - 1, j], D[i, j - 1])
    score = 0.0
    ia = ib = 0
    for c0, c1 in zip(rows[0], rows[1], strict=True):
        if c0 != "-" and c1 != "-":
            score += P[ia, ib]
        ia += c0 != "-"
        ib += c1 != "-"
    assert score == pytest.approx(D[n, m], rel=1e-5)
    assert rows[0].replace("-", "") == seqs[0] and rows[1].replace("-", "") == seqs[1]


def test_entries_kept_on_the_device_equal_the_host_path(rt, monkeypatch):
    """Stage I -> III -> IV hand-off on the device (``on_device``): the same entries as the host
    path, with several stage I batches merged on the device (a tiny memory budget makes every
    pair its own batch)."""
    from bioplug.msa.progressive import ProfileAligner

    seqs = family(9, 5, 60) + ["MKVLA"]
    codes = [encode(s, str(i)) for i, s in enumerate(seqs)]
    pairs = all_pairs(len(seqs))
    keep = np.ones(len(pairs), bool)
    keep_ba = keep.copy()
    keep_ba[1] = False                      # one orientation missing
    host_dist, host = compute_posteriors(rt, codes, pairs, keep, keep_ba)
    # on the class: an instance attribute would outlive undo() on this shared runtime
    monkeypatch.setattr(type(rt), "memory_budget", lambda self, fraction=0.5: 1)
    dist, dev = compute_posteriors(rt, codes, pairs, keep, keep_ba, on_device=True)
    monkeypatch.undo()
    assert dev.device is not None and dev.cols.size == 0 and dev.nnz == host.nnz
    back = dev.on_host(rt.queue)
    assert np.array_equal(dist, host_dist)
    for name in ("indptr", "cols", "vals", "pair_x", "row_base", "thresh"):
        assert np.array_equal(getattr(back, name), getattr(host, name)), name
    import bioplug.msa.posterior as post

    monkeypatch.setattr(type(rt), "memory_budget", lambda self, fraction=0.5: 1)
    monkeypatch.setattr(post, "DEVICE_MERGE_SHARE", 0.0)   # no room to merge: host path
    _, fallback = compute_posteriors(rt, codes, pairs, keep, keep_ba, on_device=True)
    monkeypatch.undo()
    assert fallback.device is None
    for name in ("indptr", "cols", "vals"):
        assert np.array_equal(getattr(fallback, name), getattr(host, name)), name
    weights = np.ones(len(seqs)) / len(seqs)
    zs = np.arange(len(seqs))
    want = relax(rt, host, weights, zs, 2, last_floor=1e-5)
    got = relax(rt, dev, weights, zs, 2, last_floor=1e-5, on_device=True)
    assert got.device is not None
    got_host = got.on_host(rt.queue)
    for name in ("indptr", "cols", "vals"):
        assert np.array_equal(getattr(got_host, name), getattr(want, name)), name
    rows = []
    for store in (want, got):
        al = ProfileAligner(rt, store, weights)
        tree = scipy_linkage(np.arange(len(seqs), dtype=float)[:, None], "average")
        _, length = al.progressive(tree)
        rows.append(al.rows(seqs, length))
    assert rows[0] == rows[1]


@pytest.mark.parametrize("per_item, seqtype, hmm_only, precision",
                         [(1, "protein", False, "double"), (2, "protein", False, "float"),
                          (1, "protein", True, "float"), (1, "dna", False, "float"),
                          (2, "dna", False, "fast"), (1, "protein", False, "fast")])
def test_column_blocks_are_bit_identical(rt, per_item, seqtype, hmm_only, precision,
                                         monkeypatch):
    """Pairs too wide for local memory run every pass in column blocks (ROLL_BLOCK): the same
    posteriors (every cell: CUTOFF 0 keeps them all), distances and entries as with the rolling
    diagonals in global scratch (the path they took before) and as with as many local columns
    as fit (one block on PoCL). Blocks of per_item * WG - 1 columns (posterior.LOCAL_COLS)."""
    import bioplug.msa.posterior as post

    model = load_model(seqtype)
    wg = post.group_size(rt, 1 << 20)
    local_cols, b1 = per_item * wg, wg - 1
    rng = np.random.default_rng(11)
    letters = list("ACGT" if seqtype == "dna" else ALPHABET)
    root = "".join(rng.choice(letters, size=3 * b1 + 1))
    # with blocks of b1 (2 b1) columns: columns (m + 1) a multiple of the block, one more (a
    # last block of one column), one block exactly, several blocks, and a tiny pair
    seqs = [root[:m] for m in (2 * b1 - 1, 2 * b1, b1 - 1, 3 * b1)]
    seqs = [s[: len(s) // 2] + "".join(rng.choice(letters, 3)) + s[len(s) // 2 + 2:]
            for s in seqs] + ["".join(rng.choice(letters, 4))]
    codes = [encode(s, str(i), model) for i, s in enumerate(seqs)]
    pairs = all_pairs(len(codes))
    keep = np.ones(len(pairs), bool)
    monkeypatch.setattr(post, "CUTOFF", 0.0)
    monkeypatch.setattr(post, "STRIPS", "never")   # the column blocks, however few the pairs

    def run(roll_local, cols):
        monkeypatch.setattr(post, "ROLL_LOCAL", roll_local)
        monkeypatch.setattr(post, "LOCAL_COLS", cols)
        return compute_posteriors(rt, codes, pairs, keep, keep, model=model, hmm_only=hmm_only,
                                  precision=precision)

    monkeypatch.setattr(post, "LOCAL_COLS", local_cols)
    defs = post.build_options(rt, 3 * b1, hmm_only, model.ncodes, precision)
    assert defs["ROLL_BLOCK"] == defs["MAXCOLS"] == local_cols and defs["WG"] == wg
    blocks = run(True, local_cols)
    for want in (run(False, None), run(True, None)):
        assert np.array_equal(blocks[0], want[0])
        for field in ("indptr", "cols", "vals", "thresh"):
            assert np.array_equal(getattr(blocks[1], field), getattr(want[1], field)), field
    assert blocks[1].vals.size == sum(len(codes[a]) * len(codes[b]) for a, b in pairs) * 2


def _every_cell_family(monkeypatch, seed: int, shortest: int, longest: int, k: int):
    """Random proteins, all their pairs kept, and stage I keeping every cell (CUTOFF 0)."""
    import bioplug.msa.posterior as post

    model = load_model()
    rng = np.random.default_rng(seed)
    codes = [encode(random_protein(rng, int(n)), str(i), model)
             for i, n in enumerate(rng.integers(shortest, longest, k))]
    pairs = all_pairs(len(codes))
    monkeypatch.setattr(post, "CUTOFF", 0.0)
    return codes, pairs, np.ones(len(pairs), bool)


@pytest.mark.parametrize("accurate, hmm_only", [(False, False), (True, False), (False, True)])
def test_batches_over_scratch_buffers_are_bit_identical(rt, accurate, hmm_only, monkeypatch):
    """A batch's scratch split over its buffers (``TASK_SCRATCH``): with a share of memory too
    small for two tasks a buffer, batches spread over all four buffers, and the distances,
    thresholds and entries (every cell: CUTOFF 0) equal one buffer's (also for the pair-HMM
    alone, the large families' distance pass)."""
    import bioplug.msa.posterior as post

    codes, pairs, keep = _every_cell_family(monkeypatch, 5, 20, 160, 9)
    opts = {"accurate": accurate, "hmm_only": hmm_only}
    want_dist, want = compute_posteriors(rt, codes, pairs, keep, keep, **opts)
    monkeypatch.setattr(post, "SCRATCH_SHARE", 1e-12)   # a buffer holds the largest task
    monkeypatch.setattr(post, "SCRATCH_SHARE_MAX", 1e-12)
    monkeypatch.setattr(post, "STRIPS", "never")   # the column-block layout checked below
    single = post.packed_scratch(post.build_options(rt, 1, hmm_only))
    assert single   # float partition function (the default), or none
    plan = post._plan(rt, codes, pairs, keep, keep, (hmm_only, 21, None))
    assert np.array_equal(np.concatenate(plan.batches), np.lexsort(
        (-plan.lengths[plan.row_seq], -plan.lengths[plan.col_seq])))
    full = 0
    for batch in plan.batches:
        sizes = post.scratch_doubles(plan.lengths[plan.row_seq[batch]],
                                     plan.lengths[plan.col_seq[batch]],
                                     single=single).astype(np.int64)
        buffer, offset = post._scratch_layout(sizes, plan.bin_bytes)
        assert np.all(np.diff(buffer) >= 0) and buffer.max() < post.SCRATCH_BUFFERS
        for i in range(post.SCRATCH_BUFFERS):  # each within the cap, packed from its start
            assert 8 * sizes[buffer == i].sum() <= plan.bin_bytes
            assert np.array_equal(offset[buffer == i],
                                  np.cumsum(sizes[buffer == i]) - sizes[buffer == i])
        full += int(buffer.max() == post.SCRATCH_BUFFERS - 1)
    assert full > len(plan.batches) // 2   # most batches spread over every buffer
    dist, store = compute_posteriors(rt, codes, pairs, keep, keep, **opts)
    assert np.array_equal(dist, want_dist)
    for field in ("indptr", "cols", "vals", "thresh", "pair_x", "pair_y"):
        assert np.array_equal(getattr(store, field), getattr(want, field)), field


@pytest.mark.parametrize("rolls, hmm_only", [("local", False), ("blocks", False),
                                             ("strips", False), ("global", False),
                                             ("blocks", True)])
def test_single_precision_scratch_packs_tasks_without_overlap(rt, rolls, hmm_only,
                                                              monkeypatch):
    """With the partition function in float (or none, HMM_ONLY), a task's first matrix region
    takes 4 bytes a cell (ZWORDS): tasks packed that tightly give the same bits as with the
    padded 8 bytes a cell (a task writing past its region would change its neighbour's
    entries)."""
    import bioplug.msa.posterior as post

    codes, pairs, keep = _every_cell_family(monkeypatch, 11, 30, 200, 8)
    if rolls in ("blocks", "strips"):   # the wider pairs leave the local rolling diagonals
        monkeypatch.setattr(post, "LOCAL_COLS", 64)
        monkeypatch.setattr(post, "STRIPS", "always" if rolls == "strips" else "never")
    elif rolls == "global":
        monkeypatch.setattr(post, "ROLL_LOCAL", False)
    assert post.pf_float(None)
    packed = compute_posteriors(rt, codes, pairs, keep, keep, hmm_only=hmm_only)
    real = post.scratch_doubles
    monkeypatch.setattr(post, "scratch_doubles",
                        lambda n, m, strip=None, single=False: real(n, m, strip, False))
    padded = compute_posteriors(rt, codes, pairs, keep, keep, hmm_only=hmm_only)
    assert np.array_equal(packed[0], padded[0])
    for field in ("indptr", "cols", "vals", "thresh"):
        assert np.array_equal(getattr(packed[1], field), getattr(padded[1], field)), field


def test_long_pairs_take_a_larger_share_only_to_fill_the_device(rt, monkeypatch):
    """The scratch budget: SCRATCH_SHARE of memory, raised up to SCRATCH_SHARE_MAX only as far
    as GROUPS_PER_UNIT of the widest tasks per compute unit need."""
    import bioplug.msa.posterior as post

    model = load_model()
    rng = np.random.default_rng(3)
    codes = [encode(random_protein(rng, 300), str(i), model) for i in range(6)]
    pairs = all_pairs(len(codes))
    keep = np.ones(len(pairs), bool)
    one = int(post.scratch_doubles(300, 300, single=True)) * 8
    units, memory = rt.compute_units, rt.memory_budget(1.0)   # on a CPU: the free memory
    groups = post.GROUPS_PER_UNIT * units
    for share, share_max, budget in [(one / memory, 1.0, groups * one),          # raised to fill
                                     (one / memory, units * one / memory, units * one),  # capped
                                     (0.5, 0.6, memory // 2)]:                 # full already
        monkeypatch.setattr(post, "SCRATCH_SHARE", share)
        monkeypatch.setattr(post, "SCRATCH_SHARE_MAX", share_max)
        plan = post._plan(rt, codes, pairs, keep, keep)
        expect = max(min(budget // post.SCRATCH_BUFFERS, rt.max_alloc), one)
        assert abs(plan.bin_bytes - expect) <= 8, (share, share_max)


def test_stage_one_reports_between_batches_cut_for_progress(rt, monkeypatch):
    """A call is cut into PROGRESS_BATCHES batches where the device has pairs to fill each,
    reporting after every one (a cancel is taken there), with the bits of one batch."""
    import bioplug.msa.posterior as post

    # more pairs than compute units: one batch of the cut per unit at least (a GPU's 132)
    k = next(k for k in range(9, 200) if k * (k - 1) // 2 >= 2 * rt.compute_units)
    codes, pairs, keep = _every_cell_family(monkeypatch, 5, 20, 160, k)
    monkeypatch.setattr(post, "PROGRESS_BATCHES", 1)
    monkeypatch.setattr(post, "MIN_BATCH_PAIRS", {"gpu": 1, "cpu": 1})
    assert len(post._plan(rt, codes, pairs, keep, keep).batches) == 1   # memory allows one
    want_dist, want = compute_posteriors(rt, codes, pairs, keep, keep)
    monkeypatch.setattr(post, "PROGRESS_BATCHES", 16)
    reports = []
    dist, store = compute_posteriors(rt, codes, pairs, keep, keep,
                                     report=lambda done, total: reports.append((done, total)))
    per_batch = max(-(-len(pairs) // 16), rt.compute_units)
    assert len(reports) == -(-len(pairs) // per_batch) > 1
    assert reports[-1] == (len(pairs), len(pairs))
    assert [done for done, _ in reports] == sorted({done for done, _ in reports})
    assert np.array_equal(dist, want_dist)
    for field in ("indptr", "cols", "vals", "thresh", "pair_x", "pair_y"):
        assert np.array_equal(getattr(store, field), getattr(want, field)), field


def _second_runtime(rt):
    """Another Runtime (its own context and queue) on rt's device: two "devices" on PoCL."""
    from bioplug.runtime import Runtime

    return Runtime(rt.info)


@pytest.mark.parametrize("on_device", [False, True])
def test_stage_one_shared_by_devices_equals_one_device(rt, monkeypatch, on_device):
    """Several devices take the batches largest first; the distances and the store (in batch
    order, read back to the host) are one device's bit for bit, and progress counts every
    batch once."""
    import bioplug.msa.posterior as post

    codes, pairs, keep = _every_cell_family(monkeypatch, 6, 20, 160, 10)
    monkeypatch.setattr(post, "MIN_BATCH_PAIRS", {"gpu": 0, "cpu": 0})   # batches of 3 pairs
    assert len(post._plan(rt, codes, pairs, keep, keep).batches) > 2
    want_dist, want = compute_posteriors(rt, codes, pairs, keep, keep)
    other = _second_runtime(rt)
    ran = set()
    real = post._run_batch

    def spy(dev, *args, **kwargs):
        ran.add(id(dev))
        return real(dev, *args, **kwargs)

    monkeypatch.setattr(post, "_run_batch", spy)
    reports = []
    dist, store = compute_posteriors(rt, codes, pairs, keep, keep, on_device=on_device,
                                     devices=[rt, other],
                                     report=lambda done, total: reports.append((done, total)))
    assert (store.device is not None) == on_device   # on rt, for stage III
    if on_device:
        store = store.on_host(rt.queue)
    assert np.array_equal(dist, want_dist)
    for field in ("indptr", "cols", "vals", "thresh", "pair_x", "pair_y", "pair_id"):
        assert np.array_equal(getattr(store, field), getattr(want, field)), field
    assert reports[-1] == (len(pairs), len(pairs)) and len(reports) == len(
        post._plan(rt, codes, pairs, keep, keep).batches)
    assert ran <= {id(rt), id(other)} and ran


def test_pipeline_on_every_gpu_aligns_as_on_one(rt, monkeypatch):
    """``device="all"``: stage I over every GPU (here two runtimes of one device), the same
    rows as one device; a job that cannot share (``get_runtime("all")``) takes the first."""
    import bioplug.msa.pipeline as pipeline
    import bioplug.msa.posterior as post
    from bioplug.runtime import get_runtimes

    monkeypatch.setattr(post, "MIN_BATCH_PAIRS", {"gpu": 0, "cpu": 0})   # several batches
    rng = np.random.default_rng(12)
    texts = [random_protein(rng, int(n)) for n in rng.integers(30, 90, 9)]
    names = [f"s{i}" for i in range(len(texts))]
    want = pipeline.run(texts, names, device=rt)
    devices = [rt, _second_runtime(rt)]
    asked = []

    def every(spec):
        asked.append(spec)
        return devices

    monkeypatch.setattr(pipeline, "get_runtimes", every)
    got = pipeline.run(texts, names, device="all")
    assert asked == ["all"] and got.rows == want.rows
    assert get_runtime("all") is get_runtimes("all")[0]
