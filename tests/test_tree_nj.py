"""Neighbor-joining and UPGMA on the device against scikit-bio (topology and branch lengths)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import linkage as scipy_linkage
from scipy.spatial.distance import pdist, squareform
from skbio import DistanceMatrix, TreeNode
from skbio.tree import nj as skbio_nj
from skbio.tree import upgma as skbio_upgma

import bioplug.tree as bt
from bioplug.tree.build import treenode_from_nj
from bioplug.tree.device import pack_lower, run_agglomerative

DEVICE = "cpu"


def random_dm(n: int, seed: int, dim: int = 20) -> DistanceMatrix:
    pts = np.random.default_rng(seed).random((n, dim))
    return DistanceMatrix(squareform(pdist(pts)), [f"t{k}" for k in range(n)])


def assert_same_tree(ours: TreeNode, ref: TreeNode, rtol: float = 1e-9) -> None:
    """Same unrooted topology (RF 0) and the same tip-to-tip path lengths."""
    assert ours.compare_rfd(ref) == 0
    a = ref.tip_tip_distances()
    b = ours.tip_tip_distances().filter(a.ids)
    np.testing.assert_allclose(b.data, a.data, rtol=rtol, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 80), seed=st.integers(0, 2**31), dim=st.integers(1, 20))
def test_nj_matches_skbio(n: int, seed: int, dim: int) -> None:
    dm = random_dm(n, seed, dim)
    assert_same_tree(bt.nj(dm, device=DEVICE), skbio_nj(dm))


@pytest.mark.parametrize("n", [3, 4, 5, 129, 300])
def test_nj_sizes_and_branch_lengths(n: int) -> None:
    dm = random_dm(n, n)
    ours, ref = bt.nj(dm, device=DEVICE, neg_as_zero=False), skbio_nj(dm, neg_as_zero=False)
    assert_same_tree(ours, ref)
    lens = sorted(x.length for x in ours.traverse() if x.length is not None)
    ref_lens = sorted(x.length for x in ref.traverse() if x.length is not None)
    np.testing.assert_allclose(lens, ref_lens, rtol=1e-9, atol=1e-12)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 60), seed=st.integers(0, 2**31), weighted=st.booleans())
def test_upgma_matches_skbio(n: int, seed: int, weighted: bool) -> None:
    dm = random_dm(n, seed, 5)
    if n < 3:
        ours = bt.upgma(dm, weighted=weighted, device=DEVICE)
        assert sorted(t.name for t in ours.tips()) == list(dm.ids)
        return
    assert_same_tree(bt.upgma(dm, weighted=weighted, device=DEVICE),
                     skbio_upgma(dm, weighted=weighted))


def random_tree_dm(n: int, seed: int) -> tuple[DistanceMatrix, TreeNode]:
    rng = np.random.default_rng(seed)
    lm = scipy_linkage(rng.random((n, 3)), "average")
    tree = TreeNode.from_linkage_matrix(lm, [f"t{k}" for k in range(n)])
    for node in tree.traverse(include_self=False):
        node.length = float(rng.uniform(0.05, 1.0))
    return tree.tip_tip_distances(), tree


@pytest.mark.parametrize("n,seed", [(4, 1), (10, 2), (57, 3), (200, 4)])
def test_additive_matrix_recovered(n: int, seed: int) -> None:
    dm, tree = random_tree_dm(n, seed)
    ours = bt.nj(dm, device=DEVICE)
    assert_same_tree(ours, tree, rtol=1e-9)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(4, 30), seed=st.integers(0, 2**31))
def test_ties_same_as_skbio_and_independent_of_work_groups(n: int, seed: int) -> None:
    # small integer distances: many exact ties in the Q criterion, all arithmetic exact
    rng = np.random.default_rng(seed)
    d = np.triu(rng.integers(1, 4, size=(n, n)), 1).astype(float)
    d = d + d.T
    packed = pack_lower(d)
    ref = run_agglomerative(packed, n, "nj", DEVICE)
    for wg, groups, shadow in [(2, 1, False), (4, 3, True), (32, 7, False), (8, 5, True)]:
        other = run_agglomerative(packed, n, "nj", DEVICE, wg=wg, max_groups=groups,
                                  shadow=shadow)
        np.testing.assert_array_equal(other, ref)
    ids = [str(k) for k in range(n)]
    skbio_tree = skbio_nj(DistanceMatrix(d, ids), neg_as_zero=False)
    assert_same_tree(treenode_from_nj(ref, ids, neg_as_zero=False), skbio_tree, rtol=1e-12)


@pytest.mark.parametrize("method", ["nj", "average", "weighted"])
def test_shadow_search_gives_identical_joins(method: str) -> None:
    # float32 shadow scan + float64 rescan must pick exactly the float64 joins
    for n, seed in [(5, 0), (64, 1), (301, 2)]:
        packed = pack_lower(random_dm(n, seed).data)
        plain = run_agglomerative(packed, n, method, DEVICE, shadow=False)
        shadow = run_agglomerative(packed, n, method, DEVICE, shadow=True, max_groups=13)
        np.testing.assert_array_equal(shadow, plain)


@pytest.mark.parametrize("scale", [1e-42, 1e39, 1e300])
def test_shadow_search_extreme_magnitudes(scale: float) -> None:
    # float32 subnormals and overflow in the shadow copy must not change the joins
    packed = pack_lower(random_dm(40, 1, 3).data * scale)
    for method in ("nj", "average"):
        plain = run_agglomerative(packed, 40, method, DEVICE, shadow=False)
        shadow = run_agglomerative(packed, 40, method, DEVICE, shadow=True, max_groups=7)
        np.testing.assert_array_equal(shadow, plain)


def test_all_equal_distances() -> None:
    d = np.ones((7, 7)) - np.eye(7)
    assert_same_tree(bt.nj(d, device=DEVICE), skbio_nj(DistanceMatrix(d)))


def test_negative_branch_lengths() -> None:
    # a non-additive matrix that gives a negative branch
    d = np.array([[0, 1, 9, 9], [1, 0, 9, 9], [9, 9, 0, 1], [9, 9, 1, 0]], float)
    d[0, 2] = d[2, 0] = 0.5
    ids = list("abcd")
    for neg in (True, False):
        ours = bt.nj(d, ids=ids, neg_as_zero=neg, device=DEVICE)
        ref = skbio_nj(DistanceMatrix(d, ids), neg_as_zero=neg)
        assert_same_tree(ours, ref)
        lens = [x.length for x in ours.traverse() if x.length is not None]
        assert (min(lens) >= 0) == neg


def test_float32() -> None:
    dm = random_dm(50, 11)
    assert_same_tree(bt.nj(dm, device=DEVICE, dtype=np.float32), skbio_nj(dm), rtol=1e-4)


def test_small_inputs() -> None:
    one = bt.nj(np.zeros((1, 1)), ids=["a"], device=DEVICE)
    assert one.is_tip() and one.name == "a"
    two = bt.nj(np.array([[0, 3.0], [3.0, 0]]), ids=["a", "b"], device=DEVICE)
    assert two.find("a").distance(two.find("b")) == pytest.approx(3.0)
    assert bt.upgma(np.zeros((1, 1)), device=DEVICE).is_tip()


def test_progress_and_cancel() -> None:
    from bioplug.progress import Cancelled

    dm = random_dm(300, 5, 3)
    seen: list[tuple[str, int, int]] = []
    bt.nj(dm, device=DEVICE, progress=lambda *a: seen.append(a))
    assert seen[-1] == ("tree", 297, 297) and len(seen) >= 2
    with pytest.raises(Cancelled):
        bt.upgma(dm, device=DEVICE, progress=lambda *a: False)
    # the device is still usable afterwards
    assert_same_tree(bt.nj(dm, device=DEVICE), skbio_nj(dm))
