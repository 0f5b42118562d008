"""Stage III's inclusive sum (kernels/msa_scan.cl) against numpy's cumsum."""

from __future__ import annotations

import os

import numpy as np
import pyopencl as cl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.msa.consistency import inclusive_sum
from bioplug.runtime import get_runtime


@pytest.fixture(scope="module")
def rt():
    return get_runtime(os.environ.get("BIOPLUG_TEST_DEVICE", "cpu"))


def scanned(rt, values: np.ndarray, **tile) -> np.ndarray:
    """``values`` (with a sentinel after them, which must stay) scanned on the device."""
    data = np.concatenate([values, [-7]]).astype(np.int64)
    buf = rt.empty(8 * data.size)
    cl.enqueue_copy(rt.queue, buf, data)
    inclusive_sum(rt, buf, values.size, **tile)
    out = np.empty_like(data)
    cl.enqueue_copy(rt.queue, out, buf)
    assert out[-1] == -7   # nothing written past n
    return out[:-1]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 3000), tile=st.sampled_from([(1, 2), (2, 3), (4, 5), (8, 2)]),
       seed=st.integers(0, 2**32 - 1), big=st.booleans())
def test_inclusive_sum_equals_cumsum(rt, n, tile, seed, big):
    """Any length against tiles of 2-20 values (so up to eleven levels of tile totals), small
    counts and values near 2^50 whose sums need more than 32 bits."""
    wg, per = tile
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 1 << 50 if big else 50, size=n, dtype=np.int64)
    assert np.array_equal(scanned(rt, values, wg=wg, per=per), np.cumsum(values))


def test_inclusive_sum_with_the_device_tiles(rt):
    """The tile the device gets by default, over several tiles and a partial last one."""
    rng = np.random.default_rng(1)
    values = rng.integers(0, 1000, size=300_001, dtype=np.int64)
    assert np.array_equal(scanned(rt, values), np.cumsum(values))
