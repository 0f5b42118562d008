"""Guide-tree distances made on the device from the score triangle
(``guide.alignment_distances_packed``, ``kernels/progressive_distances.cl``) against the host's
way: Biopython-checked all-vs-all scores spread into a square, ``similarity_distances``, packed.
Same bits, same trees, on PoCL (``BIOPLUG_TEST_DEVICE=gpu`` for a GPU)."""

from __future__ import annotations

import os

import numpy as np
import pyopencl as cl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.pairwise import engine as pairwise_engine
from bioplug.progressive import guide
from bioplug.runtime import get_runtime
from bioplug.tree.device import pack_lower

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
AMINO = "ACDEFGHIKLMNPQRSTVWY"


@pytest.fixture(scope="module")
def rt():
    return get_runtime(DEVICE)


def family(seed: int, k: int, length: int, copies: int) -> list[str]:
    """Mutated fragments of one ancestor, plus exact copies (tied distances and lengths)."""
    rng = np.random.default_rng(seed)
    base = rng.choice(list(AMINO), length)
    texts = []
    for _ in range(k):
        t = base[: rng.integers(1, length + 1)].copy()
        t[rng.integers(t.size, size=rng.integers(0, t.size + 1))] = rng.choice(list(AMINO))
        texts.append("".join(t))
    return texts + texts[:copies]


def packed_on_device(texts, rt) -> np.ndarray:
    buf = guide.alignment_distances_packed(texts, False, rt)
    out = np.empty(len(texts) * (len(texts) - 1) // 2, dtype=np.float32)
    cl.enqueue_copy(rt.queue, out, buf)
    return out


def packed_on_host(texts, rt) -> np.ndarray:
    return pack_lower(guide.alignment_distances(texts, False, rt), np.float32)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), k=st.integers(2, 40), length=st.integers(1, 50),
       copies=st.integers(0, 6))
def test_device_distances_equal_host_bits(rt, seed, k, length, copies):
    texts = family(seed, k, length, copies)
    host, device = packed_on_host(texts, rt), packed_on_device(texts, rt)
    assert np.array_equal(host.view(np.uint32), device.view(np.uint32))


def test_distances_of_known_pairs(rt):
    """Against the definition: 1 - s(a, b) / max(s(a, a), s(b, b)), from the engine's own
    Biopython-exact scores, in input order (lower triangle d[i, j], j < i)."""
    texts = ["MKVLAAGIVG", "MKVLAAGIVGLLLAQDEK", "W", "MKVLSAGIVGLLLQDK", "MKVLAAGIVG"]
    engine, scoring = guide.local_engine(False, rt)
    codes = guide.encoded(texts, "".join(scoring.letters), False)
    s = engine.score_all(codes)
    got = packed_on_device(texts, rt)
    n, t = len(texts), 0
    for i in range(1, n):
        for j in range(i):
            want = np.float32(1.0) - np.float32(s[i, j] / np.float32(max(s[i, i], s[j, j], 1)))
            assert got[t] == np.clip(want, 0, 1), (i, j)
            t += 1
    assert got[n * (n - 1) // 2 - 1 - 3] == 0.0       # (4, 0): the copy, distance 0


def test_long_sequences_take_the_indexed_path(rt, monkeypatch):
    """Sequences past the windows' limits go through score_indexed in the same order."""
    texts = family(7, 12, 40, 3)
    host = packed_on_host(texts, rt)
    monkeypatch.setattr(pairwise_engine, "LONG_LENGTH", 10)
    assert np.array_equal(packed_on_device(texts, rt).view(np.uint32), host.view(np.uint32))


def test_matrix_tree_unchanged(rt):
    texts = family(3, 60, 45, 10)
    old = guide.upgma_tree(guide.alignment_distances(texts, False, rt), rt)
    assert np.array_equal(guide.matrix_tree(texts, False, rt, "align"), old)
