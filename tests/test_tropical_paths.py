"""``bioplug.tropical.shortest_paths`` against ``scipy.sparse.csgraph.floyd_warshall``.

Runs on PoCL by default; ``BIOPLUG_TEST_DEVICE=gpu`` runs the same checks on a GPU. Both
methods (blocked Floyd-Warshall and min-plus squaring) are forced.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import NegativeCycleError as ScipyNegativeCycleError
from scipy.sparse.csgraph import floyd_warshall

from bioplug.errors import InputError
from bioplug.tropical import NegativeCycleError, shortest_paths
from bioplug.tropical.paths import NULL_PRED

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
METHODS = ["floyd-warshall", "squaring"]


def random_graph(rng, n, density, low=1.0, high=10.0):
    w = rng.uniform(low, high, size=(n, n))
    w[rng.random((n, n)) > density] = 0  # dense convention: 0 = no edge
    return w


def check_predecessors(weights, dist, pred):
    """Every reachable pair's predecessor closes a shortest path: d(i,j) = d(i,p) + w(p,j)."""
    n = dist.shape[0]
    reach = np.isfinite(dist) & ~np.eye(n, dtype=bool)
    assert np.all((pred == NULL_PRED) == ~reach)
    i, j = np.nonzero(reach)
    p = pred[i, j]
    np.testing.assert_allclose(dist[i, p] + weights[p, j], dist[i, j], rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n,density", [(1, 1.0), (2, 0.5), (9, 0.3), (45, 0.1), (100, 0.05),
                                       (130, 0.5)])
def test_matches_scipy(method, n, density):
    rng = np.random.default_rng(n)
    w = random_graph(rng, n, density)
    dist, pred = shortest_paths(w, return_predecessors=True, method=method, device=DEVICE)
    ref, ref_pred = floyd_warshall(w, directed=True, return_predecessors=True)
    assert dist.dtype == np.float64 and pred.dtype == np.int32
    np.testing.assert_allclose(dist, ref, rtol=1e-12)
    np.testing.assert_array_equal(np.isinf(dist), np.isinf(ref))
    dense = np.where(w == 0, np.inf, w)
    check_predecessors(dense, dist, pred)
    # continuous random weights: no ties, so scipy's predecessors too
    np.testing.assert_array_equal(pred, ref_pred)


@pytest.mark.parametrize("method", METHODS)
def test_unreachable_components(method):
    rng = np.random.default_rng(4)
    w = np.zeros((40, 40))
    w[:20, :20] = random_graph(rng, 20, 0.3)
    w[20:, 20:] = random_graph(rng, 20, 0.3)
    w[5, 30] = 2.5  # one way only
    dist = shortest_paths(w, method=method, device=DEVICE)
    ref = floyd_warshall(w)
    np.testing.assert_allclose(dist, ref)
    assert np.isinf(dist[30, 5]) and np.all(np.isinf(dist[25:, :20]))


@pytest.mark.parametrize("method", METHODS)
def test_negative_weights_without_negative_cycle(method):
    rng = np.random.default_rng(5)
    n = 50
    potential = rng.uniform(0, 10, size=n)
    w = random_graph(rng, n, 0.2)
    w = np.where(w != 0, w + potential[:, None] - potential[None, :], 0)  # reweighted: no
    w[w == 0] = 0                                                          # negative cycles
    dist, pred = shortest_paths(w, return_predecessors=True, method=method, device=DEVICE)
    np.testing.assert_allclose(dist, floyd_warshall(w), rtol=1e-10, atol=1e-10)
    check_predecessors(np.where(w == 0, np.inf, w), dist, pred)


@pytest.mark.parametrize("method", METHODS)
def test_negative_cycle_raises(method):
    rng = np.random.default_rng(6)
    w = random_graph(rng, 70, 0.1)
    w[10, 11], w[11, 12], w[12, 10] = 1.0, -5.0, 2.0
    with pytest.raises(ScipyNegativeCycleError):
        floyd_warshall(w)
    with pytest.raises(NegativeCycleError, match="negative cycle") as info:
        shortest_paths(w, method=method, device=DEVICE)
    assert {10, 11, 12} <= set(info.value.nodes.tolist())
    assert isinstance(info.value, ScipyNegativeCycleError)  # scipy code catches ours


def test_sparse_input_explicit_zeros_are_edges():
    w = sp.csr_matrix(([0.0, 2.0, 1.0, 0.5], ([0, 1, 2, 3], [1, 2, 0, 3])), shape=(5, 5))
    dist, pred = shortest_paths(w, return_predecessors=True, device=DEVICE)
    ref, ref_pred = floyd_warshall(w, return_predecessors=True)
    np.testing.assert_array_equal(dist, ref)
    np.testing.assert_array_equal(pred, ref_pred)
    assert dist[0, 1] == 0 and np.isinf(dist[4, 0])


def test_dense_conventions():
    w = np.array([[0, 3, np.inf], [np.nan, 5, 1], [2, 0, 0]], dtype=float)
    np.testing.assert_array_equal(shortest_paths(w, device=DEVICE), floyd_warshall(w))
    masked = np.ma.masked_array([[0, 1], [1, 0]], mask=[[False, True], [False, False]])
    np.testing.assert_array_equal(shortest_paths(masked, device=DEVICE),
                                  floyd_warshall(masked))


def test_float32_and_empty_and_bad_shapes():
    rng = np.random.default_rng(8)
    w = random_graph(rng, 33, 0.2)
    d32 = shortest_paths(w, dtype=np.float32, device=DEVICE)
    assert d32.dtype == np.float32
    np.testing.assert_allclose(d32, floyd_warshall(w), rtol=1e-5)
    assert shortest_paths(np.zeros((0, 0)), device=DEVICE).shape == (0, 0)
    with pytest.raises(InputError, match="square"):
        shortest_paths(np.zeros((2, 3)), device=DEVICE)
    with pytest.raises(InputError, match="method"):
        shortest_paths(np.zeros((2, 2)), method="dijkstra", device=DEVICE)


def test_progress_and_cancel():
    from bioplug.progress import Cancelled

    w = random_graph(np.random.default_rng(9), 40, 0.2)
    seen = []
    shortest_paths(w, device=DEVICE, progress=lambda *a: seen.append(a))
    assert seen and seen[-1][1] == seen[-1][2]
    with pytest.raises(Cancelled):
        shortest_paths(w, device=DEVICE, progress=lambda *a: False)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 40), st.floats(0.02, 0.6), st.integers(0, 2**32 - 1),
       st.sampled_from(METHODS))
def test_property_integer_weights(n, density, seed, method):
    """Integer weights (many ties): distances exact, predecessors valid."""
    rng = np.random.default_rng(seed)
    w = np.where(rng.random((n, n)) < density, rng.integers(1, 5, size=(n, n)), 0)
    w = w.astype(float)
    dist, pred = shortest_paths(w, return_predecessors=True, method=method, device=DEVICE)
    np.testing.assert_array_equal(dist, floyd_warshall(w))
    check_predecessors(np.where(w == 0, np.inf, w), dist, pred)
