"""Stage I's strips of rows (posterior.STRIP_ROWS, ``STRIP_H`` in kernels/msa_posterior.cl)
against the anti-diagonal kernel, bit for bit, on PoCL."""

from __future__ import annotations

import os

import numpy as np
import pytest

import bioplug.msa.posterior as post
from bioplug.msa.model import ALPHABET, encode, load_model
from bioplug.runtime import get_runtime


@pytest.fixture(scope="module")
def rt():
    return get_runtime(os.environ.get("BIOPLUG_TEST_DEVICE", "cpu"))


def sidx(i, j, n, m, wg, h):
    """The kernel's strip layout (sidx with strip_sb), in numpy."""
    ns = (n + h) // h
    nb = -(-ns // wg)
    sb = -(-ns // nb)
    r, hh = i // h, i % h
    g, k = r // sb, r % sb
    return (g * (m + sb) + (j + k)) * (h * sb) + hh * sb + k


@pytest.mark.parametrize("n, m, wg, h", [(0, 0, 64, 4), (1, 1, 64, 2), (300, 2, 64, 2),
                                         (700, 299, 64, 8), (129, 129, 32, 3),
                                         (5000, 4999, 256, 4)])
def test_strip_layout_is_one_to_one(n, m, wg, h):
    """Every cell (i, j) of 0..n x 0..m gets its own word below strip_delta, and the cells a
    band writes at one step (row h of every strip, j + k fixed) are consecutive words."""
    i, j = np.meshgrid(np.arange(n + 1), np.arange(m + 1), indexing="ij")
    q = sidx(i, j, n, m, wg, h)
    assert np.unique(q).size == q.size
    assert q.min() >= 0 and q.max() < post.strip_delta(n, m, wg, h)
    assert post.strip_delta(n, m, wg, h) < (n + h * wg + h) * (m + wg + 1)
    if n + 1 >= 2 * h:   # strips 0 and 1 of band 0, row h = 0, step j + k = s
        s = 1
        assert sidx(h, s - 1, n, m, wg, h) == sidx(0, s, n, m, wg, h) + 1


def family(rng, letters, lengths):
    """Sequences of the given lengths sharing a random root (mutated, so the posteriors are
    neither flat nor a single path)."""
    root = rng.choice(letters, size=max(lengths))
    out = []
    for n in lengths:
        s = root[:n].copy()
        hit = rng.random(n) < 0.3
        s[hit] = rng.choice(letters, size=int(hit.sum()))
        out.append("".join(s))
    return out


# rows of 1 / 2 residues, lengths that are no multiple of the strip height, several bands of
# strips (PoCL's work-group of 64: 2-row strips hold 128 rows a band, 8-row strips 512), the
# last band shorter than the others, very unequal pairs (700 x 1, 300 x 2)
LENGTHS = (1, 2, 17, 64, 157, 300, 301, 700)


@pytest.mark.parametrize("rows, seqtype, hmm_only, precision, accurate",
                         [(2, "protein", False, "double", False),
                          (3, "protein", False, "float", True),
                          (8, "protein", True, "float", False),
                          (4, "dna", False, "fast", False)])
def test_strips_are_bit_identical(rt, rows, seqtype, hmm_only, precision, accurate, monkeypatch):
    """Strips of ``rows`` rows give the same distances, thresholds and sparse entries (every
    cell: CUTOFF 0; accurate mode: the adaptive thresholds read the strip layout) as the
    anti-diagonal kernel with its rolling diagonals in local memory; some pairs keep only one
    of their two sparse forms."""
    model = load_model(seqtype)
    rng = np.random.default_rng(rows)
    letters = np.array(list("ACGT" if seqtype == "dna" else ALPHABET))
    seqs = family(rng, letters, LENGTHS)
    codes = [encode(s, str(i), model) for i, s in enumerate(seqs)]
    ia, ib = np.triu_indices(len(codes), 1)
    pairs = np.stack([ia, ib], axis=1)
    keep_ab = rng.random(len(pairs)) < 0.8
    keep_ba = rng.random(len(pairs)) < 0.8
    keep_ab[0] = keep_ba[0] = True
    monkeypatch.setattr(post, "CUTOFF", 0.0)

    monkeypatch.setattr(post, "STRIPS", "always")

    def run(strip_rows, local_cols):
        monkeypatch.setattr(post, "STRIP_ROWS", strip_rows)
        monkeypatch.setattr(post, "LOCAL_COLS", local_cols)
        return post.compute_posteriors(rt, codes, pairs, keep_ab, keep_ba, accurate=accurate,
                                       model=model, hmm_only=hmm_only, precision=precision)

    monkeypatch.setattr(post, "STRIP_ROWS", rows)
    monkeypatch.setattr(post, "LOCAL_COLS", 16)   # every pair wider than 16 columns: strips
    defs = post.build_options(rt, max(LENGTHS), hmm_only, model.ncodes, precision, True)
    assert defs["STRIP_H"] == rows and "ROLL_BLOCK" not in defs and "MAXCOLS" not in defs
    assert "STRIP_H" not in post.build_options(rt, max(LENGTHS), hmm_only, model.ncodes,
                                               precision, strips=False)
    dist, store = run(rows, 16)
    want_dist, want = run(None, None)
    assert np.array_equal(dist, want_dist)
    for field in ("indptr", "cols", "vals", "thresh", "pair_x", "pair_y", "row_base"):
        assert np.array_equal(getattr(store, field), getattr(want, field)), field
    if not accurate:
        kept = sum(len(codes[a]) * len(codes[b]) * (int(x) + int(y))
                   for (a, b), x, y in zip(pairs, keep_ab, keep_ba, strict=True))
        assert store.vals.size == kept


def test_strips_go_to_batches_with_fewer_pairs_than_compute_units(rt, monkeypatch):
    """``STRIPS = "auto"``: a batch of pairs too wide for local memory runs in strips when it
    holds fewer pairs than the device has compute units (the widest pairs, few to a batch),
    in column blocks when it holds more; the same bits as either layout alone."""
    model = load_model()
    rng = np.random.default_rng(7)
    seqs = family(rng, np.array(list(ALPHABET)), (700, 650, 600, 301, 300, 157, 120, 90, 64, 40))
    codes = [encode(s, str(i), model) for i, s in enumerate(seqs)]
    ia, ib = np.triu_indices(len(codes), 1)
    pairs = np.stack([ia, ib], axis=1)
    keep = np.ones(len(pairs), bool)
    units = 6
    monkeypatch.setattr(type(rt), "compute_units", property(lambda self: units))
    monkeypatch.setattr(post, "CUTOFF", 0.0)
    monkeypatch.setattr(post, "STRIP_ROWS", 4)
    monkeypatch.setattr(post, "LOCAL_COLS", 16)   # every pair wider than 16 columns may strip
    share = 4 * 8 * float(post.scratch_doubles(700, 650, single=True)) / rt.memory_budget(1.0)
    monkeypatch.setattr(post, "SCRATCH_SHARE", share)   # about a wide pair a buffer
    monkeypatch.setattr(post, "SCRATCH_SHARE_MAX", share)

    def eligible(widest):
        return "STRIP_H" in post.build_options(rt, widest, strips=True)

    results = {}
    for mode in ("auto", "never", "always"):
        monkeypatch.setattr(post, "STRIPS", mode)
        plan = post._plan(rt, codes, pairs, keep, keep)
        assert np.array_equal(np.sort(np.concatenate(plan.batches)), np.arange(len(pairs)))
        widest = [int(plan.lengths[plan.col_seq[b]].max()) for b in plan.batches]
        if mode == "auto":
            flags = list(plan.strips)
            assert True in flags and False in flags
            for batch, strip, w in zip(plan.batches, flags, widest, strict=True):
                if strip:
                    assert batch.size < units and eligible(w)
                elif eligible(w):
                    assert batch.size >= units
        else:
            assert plan.strips == [mode == "always" and eligible(w) for w in widest]
        results[mode] = post.compute_posteriors(rt, codes, pairs, keep, keep, model=model)
    for mode in ("never", "always"):
        assert np.array_equal(results["auto"][0], results[mode][0])
        for field in ("indptr", "cols", "vals", "thresh", "pair_x", "pair_y", "row_base"):
            assert np.array_equal(getattr(results["auto"][1], field),
                                  getattr(results[mode][1], field)), field
