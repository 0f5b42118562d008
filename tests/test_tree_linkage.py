"""UPGMA / WPGMA linkage on the device against scipy.cluster.hierarchy.linkage."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import linkage as scipy_linkage
from scipy.spatial.distance import pdist, squareform

import bioplug.tree as bt

DEVICE = "cpu"


def assert_same_linkage(ours: np.ndarray, ref: np.ndarray) -> None:
    assert ours.shape == ref.shape
    np.testing.assert_array_equal(ours[:, [0, 1, 3]], ref[:, [0, 1, 3]])
    np.testing.assert_allclose(ours[:, 2], ref[:, 2], rtol=1e-12, atol=1e-15)


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(2, 60),
    dim=st.integers(1, 6),
    seed=st.integers(0, 2**31),
    method=st.sampled_from(["average", "weighted"]),
)
def test_matches_scipy_random(n: int, dim: int, seed: int, method: str) -> None:
    y = pdist(np.random.default_rng(seed).random((n, dim)))
    assert_same_linkage(bt.linkage(y, method=method, device=DEVICE), scipy_linkage(y, method))


@pytest.mark.parametrize("method", ["average", "weighted"])
def test_square_input_and_larger(method: str) -> None:
    y = pdist(np.random.default_rng(7).normal(size=(257, 10)))
    ours = bt.linkage(squareform(y), method=method, device=DEVICE)
    assert_same_linkage(ours, scipy_linkage(y, method))


def test_float32_same_merges() -> None:
    y = pdist(np.random.default_rng(3).random((40, 3)))
    ours = bt.linkage(y, device=DEVICE, dtype=np.float32)
    ref = scipy_linkage(y, "average")
    np.testing.assert_array_equal(ours[:, [0, 1, 3]], ref[:, [0, 1, 3]])
    np.testing.assert_allclose(ours[:, 2], ref[:, 2], rtol=1e-5)


def test_ties_are_deterministic() -> None:
    # all distances equal: every pair ties; the smallest slot pair must win each time
    d = np.ones((6, 6)) - np.eye(6)
    first = bt.linkage(d, device=DEVICE)
    np.testing.assert_array_equal(first, bt.linkage(d, device=DEVICE))
    np.testing.assert_array_equal(first[0, :2], [0, 1])
    assert np.all(first[:, 2] == 1.0)


def test_one_item_gives_empty() -> None:
    assert bt.linkage(np.zeros((1, 1)), device=DEVICE).shape == (0, 4)


def test_bad_method() -> None:
    from bioplug.errors import InputError

    with pytest.raises(InputError):
        bt.linkage(np.zeros((3, 3)), method="single", device=DEVICE)


def test_negative_distances_accepted_like_scipy() -> None:
    y = pdist(np.random.default_rng(9).random((12, 3)))
    y[[3, 20]] = [-1e-7, -0.5]
    assert_same_linkage(bt.linkage(y, device=DEVICE), scipy_linkage(y, "average"))


def test_linkage_rejects_nan() -> None:
    from bioplug.errors import InputError

    y = pdist(np.random.default_rng(9).random((5, 3)))
    y[2] = np.nan
    with pytest.raises(InputError, match="NaN"):
        bt.linkage(y, device=DEVICE)
