"""Three-sequence DP on the device: tile plan, face buffers and launches.

The DP cube is cut into tiles (``kernels/three_sloped.cl`` for the SLOPED tiles used by both
score and alignment, ``kernels/three_layered.cl`` for the seed's LAYERED tiles, score only).
Tiles on one diagonal (``ci + cj + cq``) do not depend on each other: one launch per diagonal
runs all of them, one work-group each. Neighbours hand over faces through global memory.

Memory grows as the cube over the tile size, never as the cube: for scoring, the faces
between tile rows and tile columns (``4 / RT + 4 / TJ`` bytes a cell for linear gaps) and one
q-face per tile column; for the alignment also a q-face per tile (``12 / TQ`` bytes a cell),
from which :meth:`ThreeEngine.align` recomputes the tiles the optimal path crosses.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from bioplug.errors import BioplugError
from bioplug.progress import Progress

log = logging.getLogger(__name__)

#: Substitution matrices are padded to this side (``alphabet.MAXK``); the kernels index
#: ``code * 32 + code``.
ALPHA = 32
#: Launches the host lets run ahead of the progress report (each waits for an older one, so
#: the bar follows the device and a cancel lands within a few launches).
IN_FLIGHT = 8
#: Share of the device's global memory one alignment may use.
MEMORY_SHARE = 0.6


@dataclass(frozen=True)
class TileShape:
    """The SLOPED tile: ``rows`` x ``strips`` rows (a work-item owns ``rows`` of them in one
    column), ``cols`` columns (work-items per strip) and ``planes`` planes ``q = i + j + k``.
    """

    rows: int
    strips: int
    cols: int
    planes: int

    @property
    def rt(self) -> int:
        return self.rows * self.strips

    @property
    def wg(self) -> int:
        return self.strips * self.cols

    def defines(self, affine: bool) -> dict:
        return {"R": self.rows, "S": self.strips, "TJ": self.cols, "TQ": self.planes,
                "AFFINE": int(affine)}


@dataclass(frozen=True)
class LayerShape:
    """The LAYERED tile: ``side`` x ``side`` cells a layer (one work-item a row), ``depth``
    layers ``k``."""

    side: int
    depth: int


#: Tile shapes by device kind and gap model: a shape that needs more memory than the device
#: has gives way to the next (fewer, larger faces). The first GPU shapes were the fastest of
#: those measured on an H100 (``benchmarks/three.py --shapes``; RESULTS.md).
GPU_SHAPES = {
    False: [TileShape(4, 8, 32, 64), TileShape(8, 8, 32, 64), TileShape(16, 8, 32, 64)],
    True: [TileShape(4, 4, 16, 32), TileShape(4, 8, 32, 32), TileShape(8, 8, 32, 32)],
}
CPU_SHAPES = {
    False: [TileShape(4, 2, 16, 16), TileShape(8, 4, 16, 32)],
    True: [TileShape(2, 2, 16, 16), TileShape(4, 4, 16, 16)],
}
GPU_LAYERS = LayerShape(32, 32)
CPU_LAYERS = LayerShape(16, 16)


@dataclass(frozen=True)
class Gaps:
    """Integer gap scores as the kernels take them (already scaled).

    ``affine`` False: ``gap`` per residue-gap pair (the seed's beta). True: a pair's gap of
    ``n`` columns scores ``open + (n - 1) * extend``.
    """

    affine: bool
    gap: int = 0
    open: int = 0
    extend: int = 0

    def args(self) -> tuple:
        return (np.int32(2 * self.gap), np.int32(2 * self.open),
                np.int32(self.extend - self.open))


class Plan:
    """Tiles of one problem and their launch order.

    Parameters
    ----------
    lengths : tuple of int
        ``(n1, n2, n3)``.
    shape : TileShape
        The tile.
    """

    def __init__(self, lengths: tuple[int, int, int], shape: TileShape):
        n1, n2, n3 = self.lengths = tuple(int(n) for n in lengths)
        self.shape = shape
        rt, tj, tq = shape.rt, shape.cols, shape.planes
        self.ni = -(-(n1 + 1) // rt)
        self.nj = -(-(n2 + 1) // tj)
        ci, cj = np.meshgrid(np.arange(self.ni), np.arange(self.nj), indexing="ij")
        ci, cj = ci.ravel(), cj.ravel()
        i0, j0 = ci * rt, cj * tj
        # a tile column's cells lie on planes I0 + J0 .. imax + jmax + n3
        lo = (i0 + j0) // tq
        hi = (np.minimum(i0 + rt - 1, n1) + np.minimum(j0 + tj - 1, n2) + n3) // tq
        count = hi - lo + 1
        self.base = np.zeros(len(count), dtype=np.int64)
        np.cumsum(count[:-1], out=self.base[1:])
        self.n_tiles = int(count.sum())
        col = np.repeat(np.arange(len(count), dtype=np.int32), count)
        cq = (lo - self.base).astype(np.int32)[col] + np.arange(self.n_tiles, dtype=np.int32)
        tiles = np.zeros((self.n_tiles, 4), dtype=np.int32)
        tiles[:, 0], tiles[:, 1], tiles[:, 2] = ci[col], cj[col], cq
        diag = tiles[:, 0] + tiles[:, 1] + cq
        # 16-bit keys sort by radix (a 3,000^3 plan: 6 ms instead of 60)
        key = diag.astype(np.int16) if diag.max() < 2**15 else diag
        self.tiles = tiles[np.argsort(key, kind="stable")]
        per_diag = np.bincount(diag, minlength=int(diag.max()) + 1)
        self.diagonals = [(int(f), int(c)) for f, c in
                          zip(np.concatenate([[0], np.cumsum(per_diag)[:-1]]), per_diag,
                              strict=True)
                          if c > 0]

    def face_bytes(self, affine: bool, per_tile: bool) -> dict:
        """Bytes of every face buffer."""
        n1, n2, n3 = self.lengths
        rec = 16 if affine else 4
        slots = self.n_tiles if per_tile else self.ni * self.nj
        cells = self.shape.rt * self.shape.cols
        return {
            "iface": max(self.ni - 1, 0) * (n2 + 1) * (n3 + 1) * rec,
            "jface": max(self.nj - 1, 0) * (n1 + 1) * (n3 + 1) * rec,
            "qf1": slots * cells * (32 if affine else 4),
            "qf2": slots * cells * rec,
            "qf3": slots * cells * 4,
        }


class ThreeEngine:
    """The three-sequence DP of one scoring scheme on one device.

    Parameters
    ----------
    rt : Runtime
        The device.
    matrix : numpy.ndarray
        (K, K) integer substitution scores, K <= 32.
    gaps : Gaps
        Gap scores.
    shape : TileShape, optional
        Force a tile (tests use tiny ones so that small inputs span many tiles); default:
        the first of the device's shapes whose faces fit its memory.
    layers : LayerShape, optional
        Force the LAYERED tile.
    """

    def __init__(self, rt, matrix: np.ndarray, gaps: Gaps, shape: TileShape | None = None,
                 layers: LayerShape | None = None):
        self.rt = rt
        self.layers = layers
        self.gaps = gaps
        k = matrix.shape[0]
        if k > ALPHA:
            raise BioplugError(f"alphabet of {k} letters; the kernels take at most {ALPHA}")
        padded = np.zeros((ALPHA, ALPHA), dtype=np.int32)
        padded[:k, :k] = matrix
        self.d_matrix = rt.to_device(padded)
        self.shape = shape
        #: seconds of the last call's device phases (OpenCL profiling): fill, trace
        self.last_times: dict = {}
        self._held: dict = {}
        self._plans: dict = {}

    # -- sizing ------------------------------------------------------------------------------
    def shapes(self) -> list[TileShape]:
        if self.shape is not None:
            return [self.shape]
        table = GPU_SHAPES if self.rt.is_gpu else CPU_SHAPES
        return table[self.gaps.affine]

    def plan(self, lengths, per_tile: bool) -> Plan:
        """The first shape whose buffers fit the device (each under ``max_alloc``).

        Raises
        ------
        BioplugError
            No shape fits: the bytes needed and allowed, and for an alignment whether the
            score alone (which keeps fewer faces) would fit.
        """
        key = (tuple(lengths), per_tile)
        if key in self._plans:
            return self._plans[key]
        plan, need, budget = self._fitting(lengths, per_tile)
        if plan is not None:
            self._plans = {key: plan}  # the last one: repeated sizes skip the tiling
            return plan
        if not per_tile:
            what, hint = "score", "use a larger device or shorter sequences"
        elif self._fitting(lengths, False)[0] is not None:
            what, hint = "alignment", ("the score alone fits: bioplug align3 --score-only "
                                       "or score_three; or use a larger device")
        else:
            what, hint = "alignment", ("the score alone does not fit either; use a larger "
                                       "device or shorter sequences")
        raise BioplugError(
            f"three-sequence {what} of lengths {tuple(lengths)} needs {need / 2**30:.1f} GiB "
            f"of device memory for its tile faces; {self.rt.info.name} allows "
            f"{budget / 2**30:.1f} GiB ({hint})")

    def _fitting(self, lengths, per_tile: bool) -> tuple[Plan | None, int, int]:
        """(the first shape's plan whose faces fit, else None; the last shape's bytes; the
        budget)."""
        budget = self.rt.memory_budget(MEMORY_SHARE)
        need = 0
        for shape in self.shapes():
            plan = Plan(lengths, shape)
            sizes = plan.face_bytes(self.gaps.affine, per_tile)
            need = sum(sizes.values())
            if need <= budget and max(sizes.values()) <= self.rt.max_alloc:
                log.debug("three: %s, %d tiles, %.1f MB of faces", shape, plan.n_tiles,
                          need / 1e6)
                return plan, need, budget
        return None, need, budget

    # -- phases ------------------------------------------------------------------------------
    def _kernels(self, shape: TileShape):
        defines = shape.defines(self.gaps.affine)
        return (self.rt.kernel("three_sloped.cl", "three_fill", defines),
                self.rt.kernel("three_sloped.cl", "three_trace", defines))

    def _buffers(self, plan: Plan, codes, per_tile: bool) -> dict:
        """Face buffers (kept for the next call while they are large enough: allocating
        gigabytes takes longer than scoring them), codes and the plan's tables."""
        rt = self.rt
        bufs = {}
        for name, size in plan.face_bytes(self.gaps.affine, per_tile).items():
            held = self._held.get(name)
            if held is None or held.size < max(size, 1):
                self._held.pop(name, None)
                held = self._held[name] = rt.empty(size)
            bufs[name] = held
        bufs.update(sa=rt.to_device(codes[0]), sb=rt.to_device(codes[1]),
                    sc=rt.to_device(codes[2]), base=rt.to_device(plan.base.astype(np.int32)),
                    tiles=rt.to_device(plan.tiles), result=rt.empty(4))
        return bufs

    def release(self) -> None:
        """Free the face buffers kept between calls."""
        self._held.clear()

    @property
    def held_bytes(self) -> int:
        """Device memory kept between calls."""
        return sum(b.size for b in self._held.values())

    def fill(self, plan: Plan, bufs: dict, per_tile: bool, progress: Progress) -> int:
        """Phase 1: every tile, one launch per tile diagonal; returns the optimal score."""
        rt = self.rt
        fill, _ = self._kernels(plan.shape)
        n1, n2, n3 = plan.lengths
        wg = plan.shape.wg
        fill.set_args(np.int32(n1), np.int32(n2), np.int32(n3), np.int32(plan.nj),
                      *self.gaps.args(), bufs["sa"], bufs["sb"], bufs["sc"], self.d_matrix,
                      bufs["tiles"], np.int32(0), np.int32(per_tile), bufs["base"],
                      bufs["iface"], bufs["jface"], bufs["qf1"], bufs["qf2"], bufs["qf3"],
                      bufs["result"])
        pending: deque = deque()
        events = []
        done_tiles = 0
        progress.report("three-way fill", 0, plan.n_tiles)
        for first, count in plan.diagonals:
            fill.set_arg(12, np.int32(first))
            event = cl.enqueue_nd_range_kernel(rt.queue, fill, (count * wg,), (wg,))
            events.append(event)
            pending.append((event, count))
            if len(pending) > IN_FLIGHT:
                old, n = pending.popleft()
                old.wait()
                done_tiles += n
                progress.report("three-way fill", done_tiles, plan.n_tiles)
        score = np.zeros(1, dtype=np.int32)
        cl.enqueue_copy(rt.queue, score, bufs["result"])
        progress.report("three-way fill", plan.n_tiles, plan.n_tiles)
        self.last_times["fill"] = _span(events)
        return int(score[0])

    def trace(self, plan: Plan, bufs: dict, progress: Progress) -> np.ndarray:
        """Phases 2-3: the path's tiles recomputed in turn; returns the column types
        (1..7, bit 0: A has a residue, bit 1: B, bit 2: C) from first to last."""
        rt = self.rt
        _, trace = self._kernels(plan.shape)
        n1, n2, n3 = plan.lengths
        shape = plan.shape
        progress.report("three-way traceback", 0, 1)
        dir_bytes = 4 if self.gaps.affine else 1
        dirs = rt.empty(shape.planes * shape.rt * shape.cols * dir_bytes)
        pos = rt.to_device(np.array([n1, n2, n3, 7], dtype=np.int32))
        moves = rt.empty(n1 + n2 + n3 + 1)
        count = rt.empty(4)
        event = trace(rt.queue, (shape.wg,), (shape.wg,),
                      np.int32(n1), np.int32(n2), np.int32(n3), np.int32(plan.nj),
                      *self.gaps.args(), bufs["sa"], bufs["sb"], bufs["sc"], self.d_matrix,
                      bufs["base"], bufs["iface"], bufs["jface"], bufs["qf1"], bufs["qf2"],
                      bufs["qf3"], dirs, pos, moves, count)
        n = np.zeros(1, dtype=np.int32)
        cl.enqueue_copy(rt.queue, n, count)
        out = np.zeros(n1 + n2 + n3 + 1, dtype=np.uint8)
        cl.enqueue_copy(rt.queue, out, moves)
        self.last_times["trace"] = _span([event])
        progress.report("three-way traceback", 1, 1)
        return out[: int(n[0])][::-1].copy()

    def score(self, codes, progress: Progress | None = None, partition: str = "sloped") -> int:
        """The optimal sum-of-pairs score (scaled integers) of three encoded sequences.

        ``partition`` "layered" runs the seed's LAYERED tiles (linear gaps only); SLOPED was
        faster at every size measured (``benchmarks/RESULTS.md``).
        """
        progress = progress or Progress()
        lengths = tuple(len(c) for c in codes)
        if partition == "layered":
            return self.score_layered(codes, progress)
        if partition != "sloped":
            raise ValueError(f"partition must be 'sloped' or 'layered', not {partition!r}")
        plan = self.plan(lengths, per_tile=False)
        bufs = self._buffers(plan, codes, per_tile=False)
        return self.fill(plan, bufs, False, progress)

    def score_layered(self, codes, progress: Progress) -> int:
        """The score by the seed's LAYERED tiles (``kernels/three_layered.cl``)."""
        if self.gaps.affine:
            raise BioplugError("the LAYERED kernel scores linear gaps only")
        rt = self.rt
        n1, n2, n3 = (len(c) for c in codes)
        shape = self.layers or (GPU_LAYERS if rt.is_gpu else CPU_LAYERS)
        side, depth = shape.side, shape.depth
        ni, nj, nk = (-(-(n + 1) // w) for n, w in ((n1, side), (n2, side), (n3, depth)))
        ci, cj, ck = (a.ravel() for a in np.meshgrid(np.arange(ni), np.arange(nj),
                                                     np.arange(nk), indexing="ij"))
        diag = ci + cj + ck
        order = np.argsort(diag, kind="stable")
        tiles = np.zeros((len(diag), 4), dtype=np.int32)
        tiles[:, 0], tiles[:, 1], tiles[:, 2] = ci[order], cj[order], ck[order]
        counts = np.bincount(diag)
        firsts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        sizes = [max(ni - 1, 0) * (n2 + 1) * (n3 + 1) * 4,
                 max(nj - 1, 0) * (n1 + 1) * (n3 + 1) * 4, ni * nj * side * side * 4]
        if sum(sizes) > rt.memory_budget(MEMORY_SHARE) or max(sizes) > rt.max_alloc:
            raise BioplugError(f"LAYERED faces of {sum(sizes) / 2**30:.1f} GiB do not fit "
                               f"{rt.info.name}")
        knl = rt.kernel("three_layered.cl", "three_layered", {"T": side, "D": depth})
        result = rt.empty(4)
        # set_args keeps no reference: hold the buffers until the launches are done
        held = [rt.to_device(c) for c in codes] + [rt.to_device(tiles)]
        faces = [rt.empty(b) for b in sizes]
        knl.set_args(np.int32(n1), np.int32(n2), np.int32(n3), np.int32(nj),
                     np.int32(2 * self.gaps.gap), *held[:3], self.d_matrix, held[3],
                     np.int32(0), *faces, result)
        events = []
        progress.report("three-way fill (layered)", 0, len(diag))
        for first, count in zip(firsts, counts, strict=True):
            knl.set_arg(10, np.int32(first))
            events.append(cl.enqueue_nd_range_kernel(rt.queue, knl, (int(count) * side,),
                                                     (side,)))
            if len(events) % IN_FLIGHT == 0:
                events[-IN_FLIGHT].wait()
                progress.report("three-way fill (layered)", int(first), len(diag))
        score = np.zeros(1, dtype=np.int32)
        cl.enqueue_copy(rt.queue, score, result)
        progress.report("three-way fill (layered)", len(diag), len(diag))
        self.last_times["fill"] = _span(events)
        return int(score[0])

    def align(self, codes, progress: Progress | None = None) -> tuple[int, np.ndarray]:
        """(optimal score, column types first to last) of three encoded sequences."""
        progress = progress or Progress()
        lengths = tuple(len(c) for c in codes)
        plan = self.plan(lengths, per_tile=True)
        bufs = self._buffers(plan, codes, per_tile=True)
        score = self.fill(plan, bufs, True, progress)
        return score, self.trace(plan, bufs, progress)


def _span(events) -> float:
    """Seconds from the first event's start to the last one's end (profiling queue)."""
    if not events:
        return 0.0
    try:
        cl.wait_for_events(events[-1:])
        return (events[-1].profile.end - events[0].profile.start) * 1e-9
    except cl.Error:  # a queue without profiling
        return float("nan")


def wall(fn, *args, **kwargs):
    """(result, seconds) of a call (benchmarks)."""
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t
