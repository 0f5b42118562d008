"""UPGMA for large matrices: rounds of reciprocal nearest neighbours (``kernels/tree_rnn.cl``).

The agglomerative loop of :func:`bioplug.tree.device.run_agglomerative` scans the whole live
triangle for every join: O(k^3) in all, right for NJ (whose criterion changes everywhere at
each join) but wasted on UPGMA, where a cluster's nearest neighbour stays nearest unless it was
merged. Here every round merges all reciprocal nearest-neighbour pairs at once and rescans only
the rows whose neighbour changed, so a 30,000-sequence guide tree costs about one pass over its
matrix. The tree equals UPGMA's (average linkage is reducible); on tied distances the merge
order may differ from a global-minimum scan's, so this is used for guide trees, not for the
scipy-exact front doors (:mod:`bioplug.tree.chain`).
"""

from __future__ import annotations

import logging

import numpy as np
import pyopencl as cl

log = logging.getLogger(__name__)

KERNELS = "tree_rnn.cl"
#: Most pairs in the merge launch's second dimension (work-items loop over the rest).
MERGE_ROWS = 4096


class _Rounds:
    """Host state of one run: live clusters, their nearest neighbours, sizes, cluster ids."""

    def __init__(self, n: int):
        self.n = n
        self.live = np.arange(n, dtype=np.int32)
        self.nn = np.full(n, -1, dtype=np.int32)
        self.nd = np.full(n, np.inf, dtype=np.float32)
        self.size = np.ones(n, dtype=np.float32)
        self.cid = np.arange(n, dtype=np.int64)        # cluster id held by each slot
        self.rows: list[np.ndarray] = []

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Reciprocal nearest-neighbour pairs (keeper = the smaller slot, the other dies)."""
        x = self.live
        y = self.nn[x]
        mutual = (y > x) & (self.nn[np.maximum(y, 0)] == x)
        if not mutual.any():                           # a safeguard: the tie rule makes the
            x0 = x[np.argmin(self.nd[x])]              # closest pair reciprocal
            return np.array([min(x0, self.nn[x0])], np.int32), np.array(
                [max(x0, self.nn[x0])], np.int32)
        return x[mutual], y[mutual]

    def record(self, a: np.ndarray, b: np.ndarray) -> None:
        """Join rows (cluster ids, height, size) in this round's order; update slots."""
        first = self.n + sum(r.shape[0] for r in self.rows)
        new = np.arange(first, first + a.size, dtype=np.int64)
        sizes = self.size[a] + self.size[b]
        self.rows.append(np.stack([self.cid[a], self.cid[b], self.nd[a].astype(np.float64),
                                   sizes.astype(np.float64)], axis=1).astype(np.float64))
        self.cid[a] = new
        self.size[a] = sizes

    def rescan(self, a: np.ndarray, b: np.ndarray, flagged: np.ndarray) -> np.ndarray:
        """Rows whose nearest neighbour must be found again after merging (a, b): the merged
        clusters, rows whose neighbour was merged, and ``flagged`` rows (a merged cluster is
        now as near as their neighbour: the tie rule may pick it)."""
        merged = np.zeros(self.n, dtype=bool)
        merged[a] = merged[b] = True
        dead = np.zeros(self.n, dtype=bool)
        dead[b] = True
        self.live = self.live[~dead[self.live]]
        redo = merged[np.maximum(self.nn[self.live], 0)] | flagged[self.live].astype(bool)
        return np.union1d(a, self.live[redo]).astype(np.int32)


def rnn_upgma(d_packed: cl.Buffer, n: int, rt, stats: dict | None = None) -> np.ndarray:
    """UPGMA of ``n`` items whose packed lower triangle (float32) is on the device.

    The buffer is overwritten. Returns raw join rows (cluster ids, height, size) in join order,
    as :func:`bioplug.tree.build.scipy_relabel` takes them; ``stats`` (if given) receives the
    number of ``rounds`` and of rows ``rescanned``.
    """
    if n < 2:
        return np.empty((0, 4))
    k_near, k_merge = rt.kernel(KERNELS, "nearest"), rt.kernel(KERNELS, "merge")
    wg = min(256, 1 << (rt.max_work_group.bit_length() - 1))
    if not rt.is_gpu:
        wg = min(wg, 16)
    state = _Rounds(n)
    d_live = rt.to_device(state.live)
    d_nn = rt.to_device(state.nn)
    d_nd = rt.to_device(state.nd)
    flags = np.zeros(n, dtype=np.uint8)
    d_flags = rt.to_device(flags)
    q = rt.queue
    rescanned = 0

    def nearest(rows: np.ndarray) -> None:
        k_near(q, (rows.size * wg,), (wg,), rt.to_device(rows), d_live, np.int32(state.live.size),
               d_packed, d_nn, d_nd, cl.LocalMemory(4 * wg), cl.LocalMemory(4 * wg))
        cl.enqueue_copy(q, state.nn, d_nn)
        cl.enqueue_copy(q, state.nd, d_nd)

    nearest(state.live)
    rounds = 0
    while state.live.size > 1:
        a, b = state.pairs()
        mate = np.full(n, -1, dtype=np.int32)
        mate[a], mate[b] = b, a
        keeper = np.zeros(n, dtype=np.uint8)
        keeper[a] = 1
        live_items = -(-state.live.size // 64) * 64
        cl.enqueue_fill_buffer(q, d_flags, np.uint8(0), 0, n)
        k_merge(q, (live_items, min(a.size, MERGE_ROWS)), (64, 1), rt.to_device(a),
                rt.to_device(b),
                np.int32(a.size), d_live, np.int32(state.live.size), rt.to_device(mate),
                rt.to_device(keeper), rt.to_device(state.size), d_packed, d_nd, d_flags)
        cl.enqueue_copy(q, flags, d_flags)
        state.record(a, b)
        rows = state.rescan(a, b, flags)
        cl.enqueue_copy(q, d_live, state.live)
        if state.live.size > 1:
            nearest(rows)
            rescanned += rows.size
        rounds += 1
    log.debug("UPGMA of %d items in %d rounds of reciprocal nearest neighbours", n, rounds)
    if stats is not None:
        stats.update(rounds=rounds, rescanned=rescanned)
    return np.concatenate(state.rows)


def rnn_linkage(packed: np.ndarray, n: int, device=None) -> np.ndarray:
    """scipy-style (n - 1, 4) UPGMA linkage of a packed lower triangle on the host."""
    from bioplug.runtime import get_runtime
    from bioplug.tree.build import scipy_relabel

    rt = device if hasattr(device, "kernel") else get_runtime(device)
    data = np.ascontiguousarray(packed, dtype=np.float32)
    buf = rt.to_device(data if data.size else np.zeros(1, np.float32))
    return scipy_relabel(rnn_upgma(buf, n, rt), n)
