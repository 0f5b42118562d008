"""The one-launch-per-iteration tree loop: last-group joins, the single-group tail, shadow scan,
joins as their own many-group launch for large live sizes.

Every configuration (work-group size, number of groups, where the tail starts, float32 shadow
or not, where joins split off) must give exactly the same joins; the oracle is scikit-bio /
scipy.

Runs on PoCL by default; ``BIOPLUG_TEST_DEVICE=gpu`` runs the same checks on a GPU (the
last-work-group pattern depends on the device's memory model).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import linkage as scipy_linkage
from scipy.spatial.distance import pdist, squareform
from skbio import DistanceMatrix
from skbio.tree import nj as skbio_nj

from bioplug.runtime.runtime import smaller_group
from bioplug.tree.build import scipy_relabel, treenode_from_nj
from bioplug.tree.device import pack_lower, run_agglomerative, scan_groups, tail_size

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")


def points_dm(n: int, seed: int, dim: int = 5) -> np.ndarray:
    return squareform(pdist(np.random.default_rng(seed).random((n, dim))))


def tie_dm(n: int, seed: int, top: int = 3) -> np.ndarray:
    """Small integer distances: many exact ties, all arithmetic exact."""
    d = np.triu(np.random.default_rng(seed).integers(1, top + 1, size=(n, n)), 1).astype(float)
    return d + d.T


def test_tail_size() -> None:
    for wg in (1, 2, 8, 256, 1024):
        r = tail_size(wg)
        assert r * (r - 1) // 2 <= 32 * wg or r == 2
        assert (r + 1) * r // 2 > 32 * wg
    assert tail_size(1024) == 256


@pytest.mark.parametrize("size", [64, 256, 512, 1024])
@pytest.mark.parametrize("limit", [1, 31, 32, 40, 200, 256, 511, 1023])
def test_smaller_group_is_the_largest_power_of_two_within_the_limit(size, limit) -> None:
    if limit >= size:
        return   # _fitting keeps the size
    got = smaller_group(size, limit, 32)
    assert got & (got - 1) == 0 and 32 <= got < size
    assert got <= max(limit, 32) and (2 * got > limit or 2 * got >= size)
    assert smaller_group(1024, 256, 32) == 256 and smaller_group(1024, 200, 32) == 128


def test_scan_groups() -> None:
    assert scan_groups(3, 256, 100) == 1
    assert scan_groups(10000, 256, 2112) == 2112
    assert scan_groups(100, 2, 1000) == 310  # 4950 cells, 16 per group


@pytest.mark.parametrize("method", ["nj", "average", "weighted"])
@pytest.mark.parametrize("n", [3, 4, 5, 17, 64, 131])
def test_fused_tail_and_mixed_identical(method: str, n: int) -> None:
    if method == "nj" and n < 3:
        pytest.skip("NJ needs three taxa")
    packed = pack_lower(points_dm(n, n))
    # same work-group size everywhere: identical arithmetic, so identical rows
    ref = run_agglomerative(packed, n, method, DEVICE, wg=8, tail=n)  # all in the tail
    for groups, tail, shadow, split in [(1, 0, False, 0), (5, 0, True, 0), (64, 0, False, 0),
                                        (64, 0, True, 0), (3, n // 2, False, 0),
                                        (1000, 7, True, 0), (64, 0, True, 3),
                                        (5, n // 3, False, 20), (1000, 0, True, 4)]:
        other = run_agglomerative(packed, n, method, DEVICE, wg=8, max_groups=groups,
                                  tail=tail, shadow=shadow, split_r=split)
        np.testing.assert_array_equal(other, ref,
                                      err_msg=f"{groups=} {tail=} {shadow=} {split=}")


@settings(max_examples=25, deadline=None)
@given(n=st.integers(4, 45), seed=st.integers(0, 2**31), wg=st.sampled_from([1, 2, 4, 16]),
       groups=st.integers(1, 200), tail=st.integers(0, 50), shadow=st.booleans(),
       split=st.sampled_from([0, 3, 12, 40]))
def test_fused_ties_any_configuration(n: int, seed: int, wg: int, groups: int, tail: int,
                                      shadow: bool, split: int) -> None:
    # exact ties everywhere: the smallest slot pair must win in every configuration,
    # including joins as separate many-group launches from `split` live clusters on
    packed = pack_lower(tie_dm(n, seed))
    ref = run_agglomerative(packed, n, "nj", DEVICE, wg=1, max_groups=1, tail=0)
    other = run_agglomerative(packed, n, "nj", DEVICE, wg=wg, max_groups=groups, tail=tail,
                              shadow=shadow, split_r=split)
    np.testing.assert_array_equal(other, ref)
    ids = [str(k) for k in range(n)]
    ours = treenode_from_nj(ref, ids, neg_as_zero=False)
    assert ours.compare_rfd(skbio_nj(DistanceMatrix(tie_dm(n, seed), ids),
                                     neg_as_zero=False)) == 0


@pytest.mark.parametrize("n", [201, 333])
def test_fused_many_groups_against_skbio(n: int) -> None:
    # hundreds of work-groups per launch, all racing for the last-group ticket
    d = points_dm(n, 7, 20)
    link = run_agglomerative(pack_lower(d), n, "nj", DEVICE, wg=4, max_groups=4096, tail=0,
                             shadow=True, split_r=50)
    ids = [str(k) for k in range(n)]
    ref = skbio_nj(DistanceMatrix(d, ids), neg_as_zero=False)
    ours = treenode_from_nj(link, ids, neg_as_zero=False)
    assert ours.compare_rfd(ref) == 0
    a = ref.tip_tip_distances()
    np.testing.assert_allclose(ours.tip_tip_distances().filter(a.ids).data, a.data,
                               rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("method", ["average", "weighted"])
def test_fused_linkage_against_scipy(method: str) -> None:
    y = pdist(np.random.default_rng(5).normal(size=(157, 4)))
    for tail, shadow in [(0, False), (0, True), (40, True)]:
        raw = run_agglomerative(pack_lower(squareform(y)), 157, method, DEVICE, wg=16,
                                max_groups=37, tail=tail, shadow=shadow)
        ours = scipy_relabel(raw, 157)
        ref = scipy_linkage(y, method)
        np.testing.assert_array_equal(ours[:, [0, 1, 3]], ref[:, [0, 1, 3]])
        np.testing.assert_allclose(ours[:, 2], ref[:, 2], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("scale", [1e-42, 1e-39, 3e-38, 1e37, 1e39, 1e300])
def test_fused_shadow_extreme_magnitudes(scale: float) -> None:
    # float32 subnormals, zeros and overflow in the device-made shadow copy (1e37: the
    # distances fit float32 but the row sums overflow it)
    packed = pack_lower(points_dm(60, 3, 3) * scale)
    for method in ("nj", "average"):
        plain = run_agglomerative(packed, 60, method, DEVICE, wg=4, tail=0, shadow=False)
        shadow = run_agglomerative(packed, 60, method, DEVICE, wg=4, max_groups=9, tail=0,
                                   shadow=True)
        np.testing.assert_array_equal(shadow, plain)


def test_all_ties_shadow() -> None:
    # every criterion equal: every cell goes to the exact test; smallest pair still wins
    d = np.ones((40, 40)) - np.eye(40)
    packed = pack_lower(d)
    plain = run_agglomerative(packed, 40, "average", DEVICE, wg=4, tail=0, shadow=False)
    shadow = run_agglomerative(packed, 40, "average", DEVICE, wg=4, max_groups=11, tail=0,
                               shadow=True)
    np.testing.assert_array_equal(shadow, plain)
    np.testing.assert_array_equal(plain[0, :2], [0, 1])


def test_stats_and_launch_count() -> None:
    n = 150
    packed = pack_lower(points_dm(n, 1))
    stats: dict = {}
    run_agglomerative(packed, n, "nj", DEVICE, wg=8, tail=20, stats=stats)
    assert stats["iterations"] == n - 3
    assert stats["tail_r"] == 20
    assert stats["launches"] == (n - 20) + 1  # one per fused iteration, one for the tail
    stats = {}
    run_agglomerative(packed, n, "nj", DEVICE, wg=8, tail=0, stats=stats)
    assert stats["launches"] == n - 3
    stats = {}
    run_agglomerative(packed, n, "average", DEVICE, wg=8, tail=10**6, stats=stats)
    assert stats["launches"] == 1


def test_repeated_runs_reset_device_state() -> None:
    # the counter / iteration state is per run; back-to-back runs on one queue agree
    packed = pack_lower(points_dm(90, 4))
    first = run_agglomerative(packed, 90, "nj", DEVICE, wg=4, max_groups=50, tail=0)
    for _ in range(3):
        np.testing.assert_array_equal(
            run_agglomerative(packed, 90, "nj", DEVICE, wg=4, max_groups=50, tail=0), first)


@pytest.mark.parametrize("method", ["nj", "average"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_square_upload_packs_on_device(method: str, dtype, monkeypatch) -> None:
    # the square rows go up in blocks and are packed by the device: same rows as a host pack
    import bioplug.tree.device as dev

    n = 97
    d = points_dm(n, 12)
    ref = run_agglomerative(pack_lower(d, dtype), n, method, DEVICE)
    for stage in (8 * n * 5, 8 * n, 1 << 26):  # 5 rows, 1 row, all rows per block
        monkeypatch.setattr(dev, "STAGE_BYTES", stage)
        for data in (d, np.asfortranarray(d), np.pad(d, ((0, 0), (0, 3)))[:, :n]):
            out = run_agglomerative(data, n, method, DEVICE, dtype=dtype)
            np.testing.assert_array_equal(out, ref)


def test_square_upload_wrong_shape() -> None:
    from bioplug.errors import InputError

    with pytest.raises(InputError, match="expected"):
        run_agglomerative(np.zeros((4, 5)), 4, "nj", DEVICE)


def test_validation_fast_path_tiles() -> None:
    # the tiled validator accepts float noise and names the cells of real problems, in
    # blocks far from the diagonal and across tile edges
    from bioplug.errors import InputError
    from bioplug.tree.matrix import validate_square

    n = 300
    d = points_dm(n, 2)
    ids = [f"t{k}" for k in range(n)]
    noisy = d.copy()
    noisy[290, 3] *= 1 + 1e-12
    assert validate_square(noisy, ids, tile=64) is noisy
    for (a, b), value, match in [((290, 3), None, r"not symmetric at .*\(t290, t3\)"),
                                 ((5, 257), np.nan, r"NaN or infinite values at \(t5, t257\)"),
                                 ((255, 256), -1.0, r"negative distances at \(t255, t256\)"),
                                 ((128, 128), 1.0, r"diagonal"),
                                 ((64, 1), np.inf, r"infinite")]:
        bad = d.copy()
        if value is None:
            bad[a, b] *= 1 + 1e-6
        else:
            bad[a, b] = value
            if a != b:
                bad[b, a] = value
        for tile in (64, 100, 256):
            with pytest.raises(InputError, match=match):
                validate_square(bad, ids, tile=tile)
    negative = d.copy()
    negative[7, 200] = negative[200, 7] = -0.5
    assert validate_square(negative, ids, tile=64, allow_negative=True) is negative
    with pytest.raises(InputError, match="too large"):
        validate_square(d * 1e305, ids, tile=64)


def test_validation_threaded_blocks() -> None:
    # n >= 2048: row blocks are checked on several threads; same verdicts and messages
    from bioplug.errors import InputError
    from bioplug.tree.matrix import validate_square

    n = 2100
    d = points_dm(n, 9, 3)
    ids = [f"t{k}" for k in range(n)]
    assert validate_square(d, ids) is d
    bad = d.copy()
    bad[2099, 17] *= 1 + 1e-6
    with pytest.raises(InputError, match=r"not symmetric at .*\(t2099, t17\)"):
        validate_square(bad, ids)
    bad = d.copy()
    bad[1500, 1500] = np.nan
    with pytest.raises(InputError, match="NaN"):
        validate_square(bad, ids)
