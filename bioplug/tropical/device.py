"""Device side of the tropical engine: tile choice and launches of ``kernels/tropical_*.cl``.

:class:`TropicalEngine` (one per runtime, :func:`engine`) holds the launch code that the
front doors share: the batched tiled product (``tropical_mm``), used by :func:`matmul
<bioplug.tropical.product.matmul>`, by both shortest-path methods and by the Viterbi product
chain, and the panel kernel of blocked Floyd-Warshall (``fw_panel``).
"""

from __future__ import annotations

import logging
import math
import weakref
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from bioplug.errors import InputError
from bioplug.runtime import Runtime, get_runtime

log = logging.getLogger(__name__)

#: ``skip`` argument meaning "no panel to skip".
NO_SKIP = 0xFFFFFFFF
#: NVIDIA grids hold at most 65,535 groups along the batch axis; larger batches are split.
MAX_GRID_Z = 65535


@dataclass(frozen=True)
class TileConfig:
    """A ``tropical_mm`` tiling: TN x TM items per group, RM x RN outputs per item.

    ``VW`` (the local-memory vector width) divides RM and RN; the group's tile is BM x BN.
    """

    tm: int
    tn: int
    rm: int
    rn: int
    tk: int
    vw: int

    @property
    def bm(self) -> int:
        return self.tm * self.rm

    @property
    def bn(self) -> int:
        return self.tn * self.rn

    def defines(self) -> dict[str, int]:
        return {"TM": self.tm, "TN": self.tn, "RM": self.rm, "RN": self.rn, "TK": self.tk,
                "VW": self.vw}


#: Tilings by device kind, dtype and size class. GPU "large": 128 x 128 float32 tiles of 8 x 8
#: per item (a register-blocked GEMM shape; measured on the H100 in benchmarks/tropical.py);
#: float64 halves the items' blocks (registers). "medium" and "small" keep enough groups for
#: small matrices (Viterbi chain, short batches). PoCL runs a group's items as loops over
#: vector lanes: small register blocks, wide groups.
CONFIGS = {
    ("GPU", 4, "large"): TileConfig(16, 16, 8, 8, 8, 4),
    ("GPU", 8, "large"): TileConfig(16, 16, 4, 4, 16, 2),
    ("GPU", 4, "medium"): TileConfig(16, 16, 4, 4, 16, 4),
    ("GPU", 8, "medium"): TileConfig(16, 16, 4, 4, 16, 2),
    ("GPU", 4, "small"): TileConfig(8, 8, 2, 2, 16, 2),
    ("GPU", 8, "small"): TileConfig(8, 8, 2, 2, 16, 2),
    ("CPU", 4, "large"): TileConfig(8, 8, 4, 4, 16, 4),
    ("CPU", 8, "large"): TileConfig(8, 8, 4, 4, 16, 2),
    ("CPU", 4, "medium"): TileConfig(8, 8, 4, 4, 16, 4),
    ("CPU", 8, "medium"): TileConfig(8, 8, 4, 4, 16, 2),
    ("CPU", 4, "small"): TileConfig(8, 8, 2, 2, 16, 2),
    ("CPU", 8, "small"): TileConfig(8, 8, 2, 2, 16, 2),
}


def compute_dtype(rt: Runtime, requested) -> np.dtype:
    """float64 where asked for and the device has it; float32 (logged) where it has not."""
    dt = np.dtype(requested)
    if dt == np.float64 and not rt.info.fp64:
        log.warning("%s has no float64 (cl_khr_fp64): computing in float32", rt.info.name)
        return np.dtype(np.float32)
    return dt


class TropicalEngine:
    """Launches of the tropical kernels on one device.

    Parameters
    ----------
    rt : Runtime
        The device.

    Attributes
    ----------
    config_override : dict
        ``{(itemsize, size_class): TileConfig}`` replacing :data:`CONFIGS` entries (used by
        ``benchmarks/tropical.py`` to compare tilings).
    """

    def __init__(self, rt: Runtime):
        self.rt = rt
        self.kind = "GPU" if rt.is_gpu else "CPU"
        self.config_override: dict = {}
        self.dummy = rt.empty(16)  # bound to kernel arguments a launch does not use

    # -- tiling ------------------------------------------------------------------------------
    def config(self, itemsize: int, size_class: str) -> TileConfig:
        return self.config_override.get((itemsize, size_class)) or CONFIGS[
            (self.kind, itemsize, size_class)]

    def choose(self, itemsize: int, m: int, n: int, batch: int) -> TileConfig:
        """The tiling for ``batch`` products of m x n outputs: the largest tile that still
        gives every compute unit about two groups, else the smallest that covers them."""
        want = 2 * self.rt.compute_units
        for size_class in ("large", "medium"):
            cfg = self.config(itemsize, size_class)
            tiles = batch * math.ceil(m / cfg.bm) * math.ceil(n / cfg.bn)
            if tiles >= want:
                return cfg
        if max(m, n) > 16:
            return self.config(itemsize, "medium")
        return self.config(itemsize, "small")

    def mm_kernel(self, cfg: TileConfig, itemsize: int, maxplus: bool, *, want_idx=False,
                  tie_last=False, accum=False, pred=False, write_all=False) -> cl.Kernel:
        defines = dict(cfg.defines(), REAL_IS_DOUBLE=int(itemsize == 8), MAXPLUS=int(maxplus),
                       WANT_IDX=int(want_idx or accum), TIE_LAST=int(tie_last),
                       ACCUM=int(accum), PRED=int(pred), WRITE_ALL=int(write_all))
        return self.rt.kernel("tropical_matmul.cl", "tropical_mm", defines)

    # -- launches ----------------------------------------------------------------------------
    def mm(self, a: cl.Buffer, b: cl.Buffer, c: cl.Buffer, offsets: np.ndarray, m: int, n: int,
           k: int, lda: int, ldb: int, ldc: int, *, itemsize: int, maxplus: bool,
           idx: cl.Buffer | None = None, tie_last: bool = False, cfg: TileConfig | None = None,
           accum: bool = False, cin: cl.Buffer | None = None, pred: bool = False,
           p_in: cl.Buffer | None = None, p_out: cl.Buffer | None = None, pred_base: int = 0,
           write_all: bool = False, skip: int = NO_SKIP, changed: cl.Buffer | None = None,
           offsets_buf: cl.Buffer | None = None) -> cl.Event:
        """Enqueue ``C[b] = A[b] (x) B[b]`` for every batch row of ``offsets``.

        ``offsets`` is a (batch, 4) uint64 array of element offsets into A, B and C (I shares
        C's layout); ``offsets_buf`` may hold it on the device already. Returns the last
        launch's event. See ``kernels/tropical_matmul.cl`` for ``accum`` / ``pred`` /
        ``skip``.
        """
        batch = offsets.shape[0]
        if batch == 0 or m == 0 or n == 0:
            return None
        cfg = cfg or self.choose(itemsize, m, n, batch)
        knl = self.mm_kernel(cfg, itemsize, maxplus, want_idx=idx is not None,
                             tie_last=tie_last, accum=accum, pred=pred, write_all=write_all)
        if offsets_buf is None:
            offsets_buf = self.rt.to_device(np.ascontiguousarray(offsets, dtype=np.uint64))
        d = self.dummy
        grid_x = math.ceil(n / cfg.bn) * cfg.tn
        grid_y = math.ceil(m / cfg.bm) * cfg.tm
        event = None
        for b0 in range(0, batch, MAX_GRID_Z):
            nb = min(MAX_GRID_Z, batch - b0)
            knl.set_args(a, b, cin or d, c, idx or d, offsets_buf, np.uint32(b0), np.uint32(m),
                         np.uint32(n), np.uint32(k), np.uint32(lda), np.uint32(ldb),
                         np.uint32(ldc), np.uint32(skip), p_in or d, p_out or d,
                         np.uint32(pred_base), changed or d)
            event = cl.enqueue_nd_range_kernel(self.rt.queue, knl, (grid_x, grid_y, nb),
                                               (cfg.tn, cfg.tm, 1))
        return event

    def fw_panel(self, d: cl.Buffer, p: cl.Buffer | None, n: int, kb: int, phase: int, bs: int,
                 itemsize: int) -> None:
        """Enqueue phase 1 (diagonal block) or 2 (pivot row and column) of round ``kb``.

        A group of 16 x 16 items holds the ``bs`` x ``bs`` block in registers
        (``bs / 16`` squared cells per item); ``bs`` is a multiple of 16.
        """
        tb = 16
        if bs % tb:
            raise ValueError(f"Floyd-Warshall block {bs} is not a multiple of {tb}")
        knl = self.rt.kernel("tropical_fw.cl", "fw_panel",
                             {"TB": tb, "RB": bs // tb, "PRED": int(p is not None),
                              "REAL_IS_DOUBLE": int(itemsize == 8)})
        groups = 1 if phase == 1 else 2 * (n // bs - 1)
        if groups == 0:
            return
        knl.set_args(d, p or self.dummy, np.uint32(n), np.uint32(kb), np.uint32(phase))
        cl.enqueue_nd_range_kernel(self.rt.queue, knl, (groups * tb, tb), (tb, tb))


_engines: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def engine(device=None) -> TropicalEngine:
    """The shared :class:`TropicalEngine` of a device specification or runtime."""
    rt = get_runtime(device)
    eng = _engines.get(rt)
    if eng is None:
        eng = TropicalEngine(rt)
        _engines[rt] = eng
    return eng


def check_fits(rt: Runtime, nbytes: int, what: str) -> None:
    """Refuse one buffer larger than the device allows, saying which and how large."""
    if nbytes > rt.max_alloc:
        raise InputError(
            f"{what} needs {nbytes / 2**30:.2f} GiB in one buffer; {rt.info.name} allows "
            f"{rt.max_alloc / 2**30:.2f} GiB")
