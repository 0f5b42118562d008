"""Profiles on the device: a column pool, and batched profile-profile alignment with traceback.

Every profile (a leaf sequence, an input alignment, or a tree node made from two children)
lives in one pool buffer of columns (``kernels/progressive_profile.cl`` documents the column
layout). A tree level's nodes are aligned in one launch per memory-sized batch: each work-group
fills its node's DP and traces back; the host reads back the node lengths and moves (one byte
per column: what it needs to assemble the rows at the end), places the merged profiles back to
back at the pool's top, and a second launch writes them. Profiles never leave the device.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from bioplug.runtime.schedule import budget_batches

log = logging.getLogger(__name__)

#: Bytes of direction matrix one launch may fill, as a share of the device's memory.
DIRS_SHARE = 0.25
#: ... and at most 2 GiB: on the H100 (NVIDIA OpenCL) a launch of 3.9 GB of directions (the
#: first level of 100,000 x 300, 33,683 pairs) failed with OUT_OF_RESOURCES; the same level
#: in launches of at most 2 GiB ran.
DIRS_MAX = 1 << 31


@dataclass(frozen=True)
class ResidueGaps:
    """ClustalW's residue-specific gap opening (``kernels/progressive_profile.cl``, RESGAP):
    a gap-open factor and a hydrophilic flag per letter code of the matrix, the factor that
    hydrophilic stretches (runs of at least ``run`` hydrophilic residues) take instead, and
    the gap separation raise (``dist`` columns; ``sep`` 1 is ClustalW's, 0 turns it off)."""

    factor: tuple
    hydrophilic: tuple
    hyd: float
    dist: int
    sep: float
    run: int = 5

    def stretches(self, codes: np.ndarray, starts: np.ndarray) -> np.ndarray:
        """Bool per residue of concatenated sequences (first residues at ``starts``): inside a
        run of at least ``run`` hydrophilic residues of its own sequence."""
        hyd = np.asarray(self.hydrophilic, dtype=bool)[codes]
        if not hyd.size:
            return hyd
        new = np.ones(hyd.size, dtype=bool)         # a run starts: value change or sequence
        new[1:] = hyd[1:] != hyd[:-1]
        new[starts] = True
        run = np.cumsum(new) - 1
        return hyd & (np.bincount(run)[run] >= self.run)


@dataclass(frozen=True)
class GapScores:
    """Affine gap scores in Biopython's sign convention (negative = penalty).

    A gap of ``n`` columns inside a profile scores ``open + (n - 1) * extend`` for every
    sequence it opens in (position-specific: see ``kernels/progressive_profile.cl``); end gaps
    score ``end_open + (n - 1) * end_extend``.
    """

    open: float
    extend: float
    end_open: float
    end_extend: float
    residue: ResidueGaps | None = None


def kernel_matrix(values: np.ndarray, stride: int) -> np.ndarray:
    """The (A, stride) float32 matrix the kernel reads (rows padded with zeros)."""
    a = values.shape[0]
    out = np.zeros((a, stride), dtype=np.float32)
    out[:, :a] = values
    return out


class ProfileEngine:
    """Pool of profile columns and the node-alignment launches on one device.

    Parameters
    ----------
    rt : Runtime
        The device.
    matrix : numpy.ndarray
        (A, A) substitution scores (float).
    gaps : GapScores
        Gap scores.
    """

    def __init__(self, rt, matrix: np.ndarray, gaps: GapScores):
        self.rt = rt
        self.A = int(matrix.shape[0])
        self.residue = gaps.residue
        self.stride = -(-(self.A + (9 if self.residue else 7)) // 4) * 4
        self.wg = self._group_size(rt)
        defines = {"A": self.A, "STRIDE": self.stride, "WG": self.wg}
        if self.residue:         # the define only when on: the plain build stays as it was
            defines["RESGAP"] = 1
            self.k_factors = rt.kernel("progressive_profile.cl", "open_factors", defines)
            self.d_factor = rt.to_device(np.asarray(self.residue.factor, np.float32))
        self.k_leaf = rt.kernel("progressive_profile.cl", "leaf_profiles", defines)
        self.k_weighted = rt.kernel("progressive_profile.cl", "weighted_profiles", defines)
        self.k_align = rt.kernel("progressive_profile.cl", "align_nodes", defines)
        self.k_merge = rt.kernel("progressive_profile.cl", "merge_nodes", defines)
        self.d_matrix = rt.to_device(kernel_matrix(np.asarray(matrix, np.float64), self.stride))
        self.gap_args = (np.float32(0.5 * (gaps.open - gaps.extend)), np.float32(gaps.extend),
                         np.float32(gaps.end_open - gaps.end_extend),
                         np.float32(gaps.end_extend))
        self.col_bytes = 4 * self.stride
        self.capacity = 0
        self.top = 0
        self.pool: cl.Buffer | None = None
        self.offset: list[int] = []
        self.length: list[int] = []
        self.weight: list[float] = []
        self.released: list[bool] = []

    @staticmethod
    def _group_size(rt) -> int:
        # Rows of one block = work-items; a block costs LY + WG barrier steps, so a small group
        # wastes little on short profiles while many groups share a compute unit.
        return min(64 if rt.is_gpu else 16, rt.max_work_group)

    # -- pool --------------------------------------------------------------------------------
    def _reserve(self, columns: int) -> int:
        """Offset of ``columns`` new columns at the pool's top (room made by :meth:`_ensure`)."""
        self._ensure(columns)
        start, self.top = self.top, self.top + columns
        return start

    def _ensure(self, columns: int) -> None:
        """Room for ``columns`` more columns at the top. When the pool is full, a new one holds
        the live nodes back to back (released nodes dropped) with half again as much room: the
        live nodes move, so call this before their offsets go to a kernel."""
        need = self.top + columns
        if need <= self.capacity:
            return
        live = [n for n in range(len(self.offset)) if not self.released[n]]
        target = sum(self.length[n] for n in live) + columns     # what must fit
        limit = self.rt.max_alloc // self.col_bytes
        if target > limit:
            from bioplug.errors import BioplugError

            raise BioplugError(
                f"the profiles need {target * self.col_bytes / 2**30:.2f} GiB in one buffer, "
                f"more than {self.rt.info.name} allows ({self.rt.max_alloc / 2**30:.2f} GiB)")
        cap = min(max(int(target * 1.5), 1024), limit)
        self._move_live(live, cap)

    def _move_live(self, live: list[int], cap: int) -> None:
        """A new pool of ``cap`` columns holding the live nodes back to back (runs of adjacent
        nodes copied at once), zeroed above them."""
        new = self.rt.empty(cap * self.col_bytes)
        top = 0
        runs: list[list[int]] = []                       # [src, dst, columns]
        for node in sorted(live, key=lambda n: self.offset[n]):
            src, cols = self.offset[node], self.length[node]
            if runs and runs[-1][0] + runs[-1][2] == src:
                runs[-1][2] += cols
            else:
                runs.append([src, top, cols])
            self.offset[node] = top
            top += cols
        for src, dst, cols in runs:
            if cols:
                cl.enqueue_copy(self.rt.queue, new, self.pool, byte_count=cols * self.col_bytes,
                                src_offset=src * self.col_bytes, dst_offset=dst * self.col_bytes)
        self.rt.fill(new, np.float32(0), top * self.col_bytes, (cap - top) * self.col_bytes)
        if self.pool is not None:
            self.pool.release()
        self.pool, self.capacity, self.top = new, cap, top

    def release(self, nodes) -> None:
        """Nodes no longer needed (merged into their parent): their columns may be reused."""
        for node in nodes:
            self.released[node] = True

    def clear(self) -> None:
        """Forget every node; the pool buffer is kept for the next ones (refinement rounds)."""
        self.top = 0
        self.offset.clear()
        self.length.clear()
        self.weight.clear()
        self.released.clear()

    def add_sequences(self, codes: list[np.ndarray], weights: np.ndarray) -> list[int]:
        """One single-sequence profile per code array; returns their node ids."""
        lengths = np.fromiter((c.size for c in codes), dtype=np.int64, count=len(codes))
        n = int(lengths.sum())
        base = self._reserve(n)
        column = base + np.arange(n, dtype=np.int64)
        allcodes = np.concatenate(codes).astype(np.uint8) if codes else np.zeros(0, np.uint8)
        starts = base + np.concatenate([[0], np.cumsum(lengths)[:-1]])
        flags = np.zeros(n, dtype=np.uint8)
        flags[starts - base] |= 1
        flags[starts - base + lengths - 1] |= 2
        if self.residue:
            flags[self.residue.stretches(allcodes, starts - base)] |= 4
        if n:
            self.k_leaf(self.rt.queue, (-(-n // 256) * 256,), (256,), self.pool,
                        self.rt.to_device(allcodes), self.rt.to_device(flags),
                        self.rt.to_device(column), np.int64(n))
            self._open_factors(starts, lengths)
        return self._register(starts, lengths, weights)

    def _open_factors(self, offsets, lengths) -> None:
        """The MU slot of these profiles (residue-specific gaps only; one launch)."""
        if not self.residue or not len(lengths):
            return
        nodes = np.stack([np.asarray(offsets, np.int64), np.asarray(lengths, np.int64)], 1)
        r = self.residue
        self.k_factors(self.rt.queue, (len(nodes) * self.wg,), (self.wg,),
                       self.rt.to_device(nodes), self.pool, self.d_factor, np.float32(r.hyd),
                       np.int32(r.dist), np.float32(r.sep))

    def slots(self) -> list[int]:
        """Pool slots of the host layout: residues, g, st, first, last, span (and the
        hydrophilic stretch share with residue-specific gaps)."""
        A = self.A
        return [*range(A + 1), A + 2, A + 5, A + 6, A + 4] + ([A + 7] if self.residue else [])

    def add_profile(self, columns: np.ndarray, weight: float) -> int:
        """A profile given as (L, A + 5) columns: residue frequencies, then the fractions gap,
        segment start, first, last and span (``kernels/progressive_profile.cl``); returns its
        node id."""
        return self.add_profiles([columns], [weight])[0]

    def add_profiles(self, profiles: list[np.ndarray], weights: list[float]) -> list[int]:
        """Several profiles as :meth:`add_profile` takes them, in one upload; their node ids."""
        lengths = [c.shape[0] for c in profiles]
        columns = (np.concatenate(profiles) if profiles else
                   np.zeros((0, len(self.slots()))))
        A = self.A
        host = np.zeros((columns.shape[0], self.stride), dtype=np.float32)
        host[:, self.slots()] = columns
        # The next column's occupancy and first-residue share, within each profile only.
        ends = np.cumsum(lengths) - 1
        occ_next = np.append(1.0 - host[1:, A], 0.0)
        first_next = np.append(host[1:, A + 5], 0.0)
        occ_next[ends], first_next[ends] = 0.0, 0.0
        host[:, A + 1] = (1.0 - host[:, A] - host[:, A + 6]) + (occ_next - first_next)
        host[:, A + 3] = host[:, A + 6] + first_next
        start = self._reserve(host.shape[0])
        if host.size:
            cl.enqueue_copy(self.rt.queue, self.pool, host, dst_offset=start * self.col_bytes)
        offsets = start + np.cumsum([0, *lengths[:-1]], dtype=np.int64)
        self._open_factors(offsets, lengths)
        return self._register(offsets, lengths, weights)

    def add_weighted_profiles(self, cells: np.ndarray, bits: np.ndarray,
                              weights: np.ndarray) -> list[int]:
        """Profiles of one alignment's rows, each under its own row weights, made on the
        device (``weighted_profiles``); their node ids.

        Parameters
        ----------
        cells, bits : numpy.ndarray
            ``(n, L)`` uint8: letter codes (255 at gaps) and feature bits of each cell
            (``pipeline.cell_features`` / ``pipeline.cell_bits``).
        weights : numpy.ndarray
            ``(F, n)``: a profile's row weights, summing to 1.
        """
        count, n = weights.shape
        length = cells.shape[1]
        start = self._reserve(count * length)
        if count and length:
            group = min(64, self.rt.max_work_group)
            self.k_weighted(self.rt.queue, (-(-length // group) * group, count), (group, 1),
                            self.pool, self.rt.to_device(np.ascontiguousarray(cells, np.uint8)),
                            self.rt.to_device(np.ascontiguousarray(bits, np.uint8)),
                            self.rt.to_device(np.ascontiguousarray(weights, np.float32)),
                            np.int32(n), np.int32(length), np.int32(count), np.int64(start))
        offsets = start + length * np.arange(count, dtype=np.int64)
        self._open_factors(offsets, [length] * count)
        return self._register(offsets, [length] * count, [1.0] * count)

    def _register(self, offsets, lengths, weights) -> list[int]:
        """New nodes at pool ``offsets``; their ids."""
        first = len(self.offset)
        self.offset.extend(int(v) for v in offsets)
        self.length.extend(int(v) for v in lengths)
        self.weight.extend(float(w) for w in weights)
        self.released.extend([False] * (len(self.offset) - first))
        return list(range(first, len(self.offset)))

    def _pool_columns(self, node: int) -> np.ndarray:
        """A node's (L, STRIDE) pool columns, read back."""
        host = np.empty((self.length[node], self.stride), dtype=np.float32)
        cl.enqueue_copy(self.rt.queue, host, self.pool,
                        src_offset=self.offset[node] * self.col_bytes)
        return host

    def read_profile(self, node: int) -> np.ndarray:
        """(L, A + 5) columns of a node, as :meth:`add_profile` takes them (for tests)."""
        return self._pool_columns(node)[:, self.slots()]

    def open_multipliers(self, node: int) -> np.ndarray:
        """The MU slot of a node's columns (residue-specific gaps; for tests)."""
        return self._pool_columns(node)[:, self.A + 8]

    # -- alignment ---------------------------------------------------------------------------
    def dirs_bytes(self, lx: int, ly: int) -> int:
        return -(-lx // self.wg) * (ly + self.wg) * self.wg

    def align(self, pairs: list[tuple[int, int]], merge: bool = True
              ) -> list[tuple[int, np.ndarray]]:
        """Align node pairs (X, Y); each makes a new node. Returns (node id, moves) per pair
        (node id -1 with ``merge=False``: moves only, no merged profiles are made).

        ``moves[c]`` is 0 when new column ``c`` holds a column of both, 1 of X only, 2 of Y only.
        Pairs are split into launches so that one launch's direction bytes fit the budget.
        """
        budget = max(min(self.rt.max_alloc, self.rt.memory_budget(DIRS_SHARE), DIRS_MAX),
                     1 << 24)
        costs = [self.dirs_bytes(self.length[x], self.length[y]) for x, y in pairs]
        out: list[tuple[int, np.ndarray]] = []
        for start, end in budget_batches(costs, budget):
            out.extend(self._launch(pairs[start:end], merge))
        return out

    def _launch(self, pairs: list[tuple[int, int]], merge: bool = True
                ) -> list[tuple[int, np.ndarray]]:
        """One batch: DP and traceback, read back the lengths and moves, place the merged
        profiles back to back at the pool's top, merge (a second launch)."""
        rt, q = self.rt, self.rt.queue
        n = len(pairs)
        lx = np.array([self.length[x] for x, _ in pairs], dtype=np.int64)
        ly = np.array([self.length[y] for _, y in pairs], dtype=np.int64)
        span = lx + ly
        if merge:      # room for the merged profiles now: a compaction moves the children
            self._ensure(int(span.sum()))
        dirs = -(-lx // self.wg) * (ly + self.wg) * self.wg
        nodes = np.zeros((n, 8), dtype=np.int64)
        nodes[:, 0] = [self.offset[x] for x, _ in pairs]
        nodes[:, 1] = [self.offset[y] for _, y in pairs]
        nodes[:, 3] = np.concatenate([[0], np.cumsum(dirs)[:-1]])
        nodes[:, 4] = np.concatenate([[0], np.cumsum(span)[:-1]])
        nodes[:, 5] = lx
        nodes[:, 6] = ly
        nodes[:, 7] = np.concatenate([[0], np.cumsum(2 * (ly + 1))[:-1]])
        wts = np.array([(self.weight[x], self.weight[y]) for x, y in pairs], dtype=np.float32)
        d_nodes, d_wts = rt.to_device(nodes), rt.to_device(wts)
        d_moves = rt.empty(int(span.sum()))
        d_src = rt.empty(8 * int(span.sum()))
        d_len = rt.empty(4 * n)
        self.k_align(q, (n * self.wg,), (self.wg,), d_nodes, self.pool, self.d_matrix,
                     rt.empty(int(dirs.sum())), d_moves, d_src,
                     rt.empty(16 * int((2 * (ly + 1)).sum())), d_len, *self.gap_args)
        lengths = np.empty(n, dtype=np.int32)
        moves = np.empty(int(span.sum()), dtype=np.uint8)
        cl.enqueue_copy(q, lengths, d_len)
        cl.enqueue_copy(q, moves, d_moves)
        if not merge:
            return [(-1, moves[int(nodes[g, 4] + span[g] - lengths[g]):
                              int(nodes[g, 4] + span[g])].copy()) for g in range(n)]
        out = self._reserve(int(lengths.sum())) + np.concatenate(
            [[0], np.cumsum(lengths, dtype=np.int64)[:-1]])
        self.k_merge(q, (n * self.wg,), (self.wg,), d_nodes, d_wts, self.pool, d_src, d_len,
                     rt.to_device(out.astype(np.int64)))
        self._open_factors(out, lengths)
        result = []
        for g, (x, y) in enumerate(pairs):
            end = int(nodes[g, 4] + span[g])
            L = int(lengths[g])
            self.offset.append(int(out[g]))
            self.length.append(L)
            self.weight.append(self.weight[x] + self.weight[y])
            self.released.append(False)
            result.append((len(self.offset) - 1, moves[end - L:end].copy()))
        return result
