"""``bioplug.tropical.matmul`` against numpy broadcasting (``max``/``min`` of ``A[..., :, :,
None] + B[..., None, :, :]`` over k).

Runs on PoCL by default; ``BIOPLUG_TEST_DEVICE=gpu`` runs the same checks on a GPU. Every
tiling in ``bioplug.tropical.device.CONFIGS`` (the GPU ones included) is forced once on the
test device, so CI runs the shapes the GPU runs.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.errors import InputError
from bioplug.tropical import device as tdev
from bioplug.tropical import matmul

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")


def reference(a, b, semiring):
    a = a[None, :] if a.ndim == 1 else a
    b = b[:, None] if b.ndim == 1 else b
    s = a[..., :, :, None] + b[..., None, :, :]
    if semiring == "max-plus":
        return s.max(axis=-2), s.argmax(axis=-2)
    return s.min(axis=-2), s.argmin(axis=-2)


@pytest.mark.parametrize("semiring", ["max-plus", "min-plus"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1, 1), (5, 7, 3), (33, 17, 65), (70, 130, 9)])
def test_matches_numpy(semiring, dtype, shape):
    m, k, n = shape
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    c, idx = matmul(a, b, semiring, return_indices=True, device=DEVICE)
    ref, ref_idx = reference(a, b, semiring)
    assert c.dtype == dtype and c.shape == (m, n) and idx.dtype == np.intp
    np.testing.assert_array_equal(c, ref)  # one add per entry: exact
    np.testing.assert_array_equal(idx, ref_idx)
    np.testing.assert_array_equal(matmul(a, b, semiring, device=DEVICE), ref)


def test_ties_take_the_lowest_index():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 3, size=(4, 2, 19, 23)).astype(np.float64)
    b = rng.integers(0, 3, size=(23, 21)).astype(np.float64)
    for semiring in ("max-plus", "min-plus"):
        c, idx = matmul(a, b, semiring, return_indices=True, device=DEVICE)
        ref, ref_idx = reference(a, b, semiring)
        np.testing.assert_array_equal(c, ref)
        np.testing.assert_array_equal(idx, ref_idx)


def test_batches_broadcast_and_vectors():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((3, 1, 6, 5))
    b = rng.standard_normal((4, 5, 7))
    c, idx = matmul(a, b, return_indices=True, device=DEVICE)
    ref, ref_idx = reference(a, b, "max-plus")
    assert c.shape == (3, 4, 6, 7)
    np.testing.assert_array_equal(c, ref)
    np.testing.assert_array_equal(idx, ref_idx)
    v = rng.standard_normal(5)
    np.testing.assert_array_equal(matmul(v, b[0], device=DEVICE), reference(v, b[0],
                                                                             "max-plus")[0][0])
    np.testing.assert_array_equal(matmul(a[0, 0], v, "min-plus", device=DEVICE),
                                  reference(a[0, 0], v, "min-plus")[0][:, 0])
    assert matmul(v, v, device=DEVICE).shape == ()


def test_infinities_are_the_semiring_zero():
    a = np.array([[0.0, -np.inf], [-np.inf, -np.inf]])
    b = np.array([[1.0, -np.inf], [2.0, 3.0]])
    c, idx = matmul(a, b, return_indices=True, device=DEVICE)
    np.testing.assert_array_equal(c, [[1.0, -np.inf], [-np.inf, -np.inf]])
    np.testing.assert_array_equal(idx, [[0, 0], [0, 0]])  # all -inf: lowest index, as argmax
    d = matmul(np.array([[0.0, np.inf]]), np.array([[np.inf], [1.0]]), "min-plus",
               device=DEVICE)
    assert d[0, 0] == np.inf


def test_empty_dimensions():
    c, idx = matmul(np.zeros((3, 0)), np.zeros((0, 2)), return_indices=True, device=DEVICE)
    assert c.shape == (3, 2) and np.all(c == -np.inf) and np.all(idx == -1)
    assert matmul(np.zeros((0, 4)), np.zeros((4, 2)), "min-plus", device=DEVICE).shape == (0, 2)
    assert np.all(matmul(np.zeros((1, 0)), np.zeros((0, 1)), "min-plus", device=DEVICE)
                  == np.inf)


def test_integer_inputs_give_float64():
    c = matmul(np.array([[1, 2]]), np.array([[3], [4]]), device=DEVICE)
    assert c.dtype == np.float64 and c[0, 0] == 6


def test_bad_input():
    with pytest.raises(InputError, match="3 columns but B has 2 rows"):
        matmul(np.zeros((2, 3)), np.zeros((2, 2)), device=DEVICE)
    with pytest.raises(InputError, match="semiring"):
        matmul(np.zeros((2, 2)), np.zeros((2, 2)), "plus-times", device=DEVICE)
    with pytest.raises(InputError, match="do not broadcast"):
        matmul(np.zeros((2, 2, 2)), np.zeros((3, 2, 2)), device=DEVICE)


@pytest.mark.parametrize("key", sorted(k for k in tdev.CONFIGS if k[1] == 8 or k[2] == "large"),
                         ids=lambda k: f"{k[0]}-{k[1]}-{k[2]}")
def test_every_tiling(key, monkeypatch):
    """Each tiling, forced for every size class, on a shape with partial tiles and steps."""
    cfg = tdev.CONFIGS[key]
    item = key[1]
    eng = tdev.engine(DEVICE)
    monkeypatch.setattr(eng, "config_override",
                        {(item, c): cfg for c in ("large", "medium", "small")})
    rng = np.random.default_rng(3)
    dtype = np.float64 if item == 8 else np.float32
    m, k, n = cfg.bm + 3, cfg.tk * 2 + 5, cfg.bn + 1
    a = rng.integers(-3, 3, size=(2, m, k)).astype(dtype)
    b = rng.integers(-3, 3, size=(2, k, n)).astype(dtype)
    for semiring in ("max-plus", "min-plus"):
        c, idx = matmul(a, b, semiring, return_indices=True, device=DEVICE)
        ref, ref_idx = reference(a, b, semiring)
        np.testing.assert_array_equal(c, ref)
        np.testing.assert_array_equal(idx, ref_idx)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(1, 9), st.integers(0, 3),
       st.sampled_from(["max-plus", "min-plus"]), st.integers(0, 2**32 - 1))
def test_property_matches_numpy(m, k, n, batch, semiring, seed):
    rng = np.random.default_rng(seed)
    shape_a = (batch, m, k) if batch else (m, k)
    a = rng.integers(-4, 4, size=shape_a).astype(np.float64)
    b = rng.integers(-4, 4, size=(k, n)).astype(np.float64)
    b[rng.random(b.shape) < 0.2] = -np.inf if semiring == "max-plus" else np.inf
    c, idx = matmul(a, b, semiring, return_indices=True, device=DEVICE)
    ref, ref_idx = reference(a, b, semiring)
    np.testing.assert_array_equal(c, ref)
    np.testing.assert_array_equal(idx, ref_idx)
