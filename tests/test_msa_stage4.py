"""Stage IV on the whole device (issue 19 §1): the wide path equals the one-work-group path.

``ProfileAligner.path = "group"`` keeps the kernels every alignment used before (one
work-group per profile pair, ``kernels/msa_profile.cl``); the default path
(``kernels/msa_wavefront.cl``: posterior rows, tiled wavefront, tiled traceback) must give the
same moves bit for bit, ties included. Every batch below is aligned by both and the moves
compared; small tiles make small profiles cross many tiles. Runs on PoCL by default;
``BIOPLUG_TEST_DEVICE=gpu`` runs the same checks on a GPU.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pyopencl as cl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.msa.aligner import MultipleSequenceAligner
from bioplug.msa.progressive import ProfileAligner, tile_side
from bioplug.runtime import get_runtime

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / ".." / "shared" / "bench" / "balibase3"

_spec = importlib.util.spec_from_file_location("msa_stage4", ROOT / "benchmarks" / "msa_stage4.py")
_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bench)
random_store, random_link = _bench.random_store, _bench.random_link


class Checked(ProfileAligner):
    """Runs every batch on both paths, asserts equal moves, keeps going with the wide ones."""

    path = "wide"
    batches = 0

    def _launch_wide(self, jobs):
        wide = super()._launch_wide(jobs)
        self._check_posteriors(jobs)
        group = self._launch_group(jobs)
        for w, g in zip(wide, group, strict=True):
            assert w.dtype == g.dtype and np.array_equal(w, g)
        Checked.batches += 1
        return wide

    def _check_posteriors(self, jobs):
        """P_XY of the wide path, bit for bit, against profile_post's partial matrices summed
        in chunk order (what align_nodes adds up, cell by cell, in float32)."""
        q = self.rt.queue
        cells = [LX * LY for _, _, LX, LY, *_ in jobs]
        wide = np.empty(sum(cells), np.float32)
        cl.enqueue_copy(q, wide, self._ws["post"])
        _, d_post, _, _ = self._group_post(jobs)
        parts = np.empty(sum(c * j[6] for c, j in zip(cells, jobs, strict=True)), np.float32)
        if parts.size:
            cl.enqueue_copy(q, parts, d_post)
        at = p_at = 0
        for c, job in zip(cells, jobs, strict=True):
            nch = job[6]
            total = np.zeros(c, np.float32)
            for ch in range(nch):
                total = total + parts[p_at + ch * c:p_at + (ch + 1) * c]
            assert np.array_equal(wide[at:at + c].view(np.uint32), total.view(np.uint32))
            at += c
            p_at += c * nch


@pytest.fixture(scope="module")
def rt():
    return get_runtime(DEVICE)


def _run_both(rt, store, weights, link, tile, passes=4):
    Checked.tile = tile
    try:
        al = Checked(rt, store, weights)
        _, length = al.progressive(link)
        return al.refine(length, passes, 7), al.colmap
    finally:
        Checked.tile = None


@pytest.mark.parametrize("k,lmin,lmax,ties,tile", [
    (2, 1, 9, True, 4),          # profiles shorter than a tile, one-residue sequences
    (6, 20, 70, True, 4),        # exact sums: many equal moves to choose between
    (6, 20, 70, False, 7),       # a tile side that divides nothing
    (14, 30, 60, False, 16),     # > 32 sequence pairs per node: several chunks, scratch folds
    (24, 15, 40, True, 8),       # up to 144 pairs (5 chunks) with ties
])
def test_wide_moves_equal_group(rt, k, lmin, lmax, ties, tile):
    rng = np.random.default_rng(k * 100 + tile)
    store = random_store(rng, rng.integers(lmin, lmax + 1, k), ties=ties)
    weights = (np.full(k, 0.5, np.float32) if ties
               else rng.random(k).astype(np.float32) + 0.05)
    before = Checked.batches
    length, colmap = _run_both(rt, store, weights, random_link(rng, k), tile)
    assert Checked.batches > before
    assert length >= store.lengths.max()
    assert colmap.size == store.lengths.sum()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(k=st.integers(2, 7), lmax=st.integers(1, 30), tile=st.sampled_from([1, 3, 8]),
       ties=st.booleans(), density=st.sampled_from([0.4, 1.0]), seed=st.integers(0, 2**16))
def test_wide_equals_group_property(rt, k, lmax, tile, ties, density, seed):
    rng = np.random.default_rng(seed)
    store = random_store(rng, rng.integers(1, lmax + 1, k), density=density, ties=ties)
    weights = np.ones(k, np.float32) if ties else rng.random(k).astype(np.float32) + 0.05
    _run_both(rt, store, weights, random_link(rng, k), tile, passes=2)


def _families():
    """A few BAliBASE sets when the shared copy is there, and a 14-sequence generated one."""
    out = []
    for name in ("RV11/BB11001", "RV12/BB12003", "RV12/BB12021"):
        path = BENCH / f"{name}.tfa"
        if path.exists():
            out.append(str(path))
    rng = np.random.default_rng(5)
    root = rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 70)
    fam = []
    for _ in range(14):
        seq = [c for c in root if rng.random() > 0.15]
        fam.append("".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY")) if rng.random() < 0.2
                           else c for c in seq))
    out.append(fam)
    return out


@pytest.mark.parametrize("family", _families(), ids=lambda f: Path(f).stem if isinstance(
    f, str) else "generated14")
def test_alignments_identical_before_after(family, monkeypatch):
    aligner = MultipleSequenceAligner(device=DEVICE)
    monkeypatch.setattr(ProfileAligner, "path", "group")
    before = aligner.align(family)
    monkeypatch.setattr(ProfileAligner, "path", "auto")
    after = aligner.align(family)
    rows = [[str(a[i]) for i in range(len(a.sequences))] for a in (before, after)]
    assert rows[0] == rows[1]
    assert format(before, "fasta") == format(after, "fasta")


def test_unknown_path_is_refused(rt, monkeypatch):
    rng = np.random.default_rng(0)
    store = random_store(rng, np.array([5, 6]))
    monkeypatch.setattr(ProfileAligner, "path", "diagonal")
    al = ProfileAligner(rt, store, np.ones(2, np.float32))
    with pytest.raises(ValueError, match="diagonal"):
        al.progressive(np.array([[0.0, 1.0, 1.0, 2.0]]))


def test_a_profile_pair_beyond_the_device_gets_a_clear_error(rt, monkeypatch):
    """A DP matrix larger than one buffer may be (here: a device allowing 1 KiB per buffer)
    raises DeviceError naming the sizes, not the driver's bare INVALID_BUFFER_SIZE."""
    from bioplug.errors import DeviceError

    rng = np.random.default_rng(0)
    store = random_store(rng, np.array([30, 40]))
    monkeypatch.setattr(type(rt), "max_alloc", property(lambda self: 1024))
    al = ProfileAligner(rt, store, np.ones(2, np.float32))
    with pytest.raises(DeviceError, match="30 and 40 columns"):
        al.progressive(np.array([[0.0, 1.0, 1.0, 2.0]]))


def test_tile_side_follows_device_limits():
    def fake(wg, local):
        return SimpleNamespace(max_work_group=wg, local_mem=local, is_gpu=True)

    assert tile_side(fake(1024, 48 * 1024)) == 64
    assert tile_side(fake(32, 48 * 1024)) == 32
    assert tile_side(fake(1024, 8 * 1024)) == 32


def test_auto_falls_back_when_the_wide_program_does_not_build(monkeypatch, caplog):
    """A driver that rejects msa_wavefront.cl: "auto" warns and uses the one-work-group
    kernels (same rows); "wide" asked for explicitly raises."""
    import logging

    from bioplug.errors import KernelBuildError
    from bioplug.msa import progressive as prog

    family = _families()[-1]
    aligner = MultipleSequenceAligner(device=DEVICE)
    monkeypatch.setattr(ProfileAligner, "path", "group")
    expected = format(aligner.align(family), "fasta")
    real = prog.kernel

    def failing(rt, source, name, defines=None):
        if source == "msa_wavefront.cl":
            raise KernelBuildError("OpenCL build of msa_wavefront.cl failed (injected)")
        return real(rt, source, name, defines)

    monkeypatch.setattr(prog, "kernel", failing)
    monkeypatch.setattr(ProfileAligner, "path", "auto")
    with caplog.at_level(logging.WARNING, logger="bioplug.msa.progressive"):
        assert format(aligner.align(family), "fasta") == expected
    assert "does not build" in caplog.text
    monkeypatch.setattr(ProfileAligner, "path", "wide")
    with pytest.raises(KernelBuildError):
        aligner.align(family)
