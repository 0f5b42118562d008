"""Guide trees for big families from LCS distances (``kernels/progressive_lcs.cl``).

All-pairs local alignment costs ~L^2 cells a pair; the longest common subsequence, computed
bit-parallel, costs ~L^2 / 64 word operations, which is what lets FAMSA build trees of 10^5
sequences. Two uses:

* :func:`lcs_packed`: the packed lower triangle of all pairs' distances (UPGMA on the device
  takes it as is), for families up to a k x k matrix that fits;
* :func:`single_linkage`: Prim's minimum spanning tree with distances computed on the fly (one
  launch a vertex, no matrix: O(k) memory), turned into a single-linkage tree, for families
  beyond.

Sequences are processed sorted by length (work-items of a group then do similar work); the
returned linkage arrays use the caller's indices.
"""

from __future__ import annotations

import logging

import numpy as np
import pyopencl as cl

log = logging.getLogger(__name__)

KERNELS = "progressive_lcs.cl"
#: Packed distances per launch of ``lcs_lower`` (float32 entries): bounds the device buffer.
CHUNK = 1 << 26
#: Letter codes: upper-cased ASCII letters & 31 (one fixed program variant per MAXW).
LETTERS = 32


def letter_codes(texts: list[str]) -> list[np.ndarray]:
    """Codes 0..31 of gap-free sequences (case ignored; LCS needs equality only)."""
    return [np.frombuffer(t.upper().encode("latin-1", "replace"), np.uint8) & 31 for t in texts]


class LcsData:
    """Codes, lengths and Peq bit vectors of a family on the device, sorted by length."""

    def __init__(self, codes: list[np.ndarray], letters: int, rt):
        self.rt = rt
        self.n = len(codes)
        lengths = np.fromiter((c.size for c in codes), dtype=np.int64, count=self.n)
        self.order = np.argsort(lengths, kind="stable")
        self.lengths = lengths[self.order].astype(np.int32)
        words = max(1, -(-int(self.lengths.max(initial=1)) // 64))
        self.maxw = 1 << (words - 1).bit_length()   # a few program variants, not one a length
        self.wg = self._group_size(rt)
        local = letters * self.maxw * 8 + 8 * self.wg <= rt.local_mem // 2
        defines = {"A": letters, "MAXW": self.maxw, "WG": self.wg, "PEQ_LOCAL": int(local)}
        self.program = rt.program(KERNELS, defines)     # prim_step's two kernel objects
        self.k_lower = rt.kernel(KERNELS, "lcs_lower", defines)
        start = np.concatenate([[0], np.cumsum(self.lengths[:-1], dtype=np.int64)])
        joined = (np.concatenate([codes[i] for i in self.order]).astype(np.uint8)
                  if self.n else np.zeros(1, np.uint8))
        self.d_codes = rt.to_device(joined if joined.size else np.zeros(1, np.uint8))
        self.d_start = rt.to_device(start.astype(np.int64))
        self.d_len = rt.to_device(self.lengths)
        self.d_peq = rt.empty(max(8, self.n * letters * self.maxw * 8))
        items = self.n * self.maxw
        if items:
            peq = rt.kernel(KERNELS, "lcs_peq", defines)
            peq(rt.queue, (-(-items // 64) * 64,), None, self.d_codes, self.d_start, self.d_len,
                self.d_peq, np.int32(self.n))

    @staticmethod
    def _group_size(rt) -> int:
        return min(128 if rt.is_gpu else 16, 1 << (rt.max_work_group.bit_length() - 1))

    def original(self, link: np.ndarray) -> np.ndarray:
        """A linkage array over sorted indices with leaves renamed to the caller's indices."""
        out = link.copy()
        for c in (0, 1):
            leaf = out[:, c] < self.n
            out[leaf, c] = self.order[out[leaf, c].astype(np.int64)]
        return out


def lower_tiles(r0: int, r1: int, wg: int) -> np.ndarray:
    """(row, first column) of every tile of rows r0 .. r1 - 1 (columns j < row, wg a tile)."""
    rows = np.arange(max(r0, 1), r1, dtype=np.int64)
    per = -(-rows // wg)
    row = np.repeat(rows, per)
    first = (np.arange(int(per.sum())) - np.repeat(np.cumsum(per) - per, per)) * wg
    return np.stack([row, first], axis=1).astype(np.int32)


def packed_bytes(n: int) -> int:
    """Bytes of the packed float32 lower triangle of ``n`` items."""
    return 4 * (n * (n - 1) // 2)


def lcs_packed(data: LcsData) -> cl.Buffer:
    """Device buffer of the packed lower triangle (float32, sorted order) of all pairs' LCS
    distances; launches cover about :data:`CHUNK` cells each (tile lists stay small)."""
    n, rt = data.n, data.rt
    d_out = rt.empty(max(4, packed_bytes(n)))
    row = 1
    while row < n:
        base = row * (row - 1) // 2
        end = row + 1
        while end < n and end * (end - 1) // 2 - base < CHUNK:   # rows of one launch (glue)
            end = min(n, end + max(1, (CHUNK - (end * (end - 1) // 2 - base)) // end))
        tiles = lower_tiles(row, end, data.wg)
        data.k_lower(rt.queue, (tiles.shape[0] * data.wg,), (data.wg,), rt.to_device(tiles),
                     data.d_codes, data.d_start, data.d_len, data.d_peq, d_out)
        row = end
    return d_out


def prim_tree(data: LcsData) -> tuple[np.ndarray, np.ndarray]:
    """Minimum spanning tree (parent, distance to parent) per vertex, sorted order, on the
    device: one ``prim_step`` launch per vertex, two buffers of group minima swapped."""
    n, rt, wg = data.n, data.rt, data.wg
    groups = -(-n // wg)
    first_val = np.full(groups, np.inf, np.float32)
    first_idx = np.full(groups, -1, np.int32)
    first_val[0], first_idx[0] = 0.0, 0             # vertex 0 starts the tree
    vals = [rt.to_device(first_val), rt.to_device(first_val)]
    idxs = [rt.to_device(first_idx), rt.to_device(np.full(groups, -1, np.int32))]
    best = rt.to_device(np.full(n, np.inf, np.float32))
    parent = rt.to_device(np.full(n, -1, np.int32))
    done = rt.to_device(np.zeros(n, np.uint8))
    common = (np.int32(groups), data.d_codes, data.d_start, data.d_len, data.d_peq, best, parent,
              done, np.int32(n))
    kernels = []
    for a in (0, 1):                                # fixed arguments: the loop only enqueues
        k = cl.Kernel(data.program, "prim_step")
        k.set_args(vals[a], idxs[a], vals[1 - a], idxs[1 - a], *common)
        kernels.append(k)
    gsize, lsize = (groups * wg,), (wg,)
    for step in range(n - 1):
        cl.enqueue_nd_range_kernel(rt.queue, kernels[step & 1], gsize, lsize)
    par = np.empty(n, np.int32)
    dist = np.empty(n, np.float32)
    cl.enqueue_copy(rt.queue, par, parent)
    cl.enqueue_copy(rt.queue, dist, best)
    return par, dist


def mst_linkage(parent: np.ndarray, dist: np.ndarray) -> np.ndarray:
    """Single-linkage (k-1, 4) linkage array from a minimum spanning tree: its edges joined in
    order of distance (ties: the vertex's index), clusters tracked by union-find."""
    n = parent.size
    child = np.flatnonzero(parent >= 0)
    order = child[np.lexsort((child, dist[child]))]
    root = np.arange(n)
    node = np.arange(n)                             # the cluster id a set's root stands for
    size = np.ones(n, dtype=np.int64)
    rows = np.empty((n - 1, 4), dtype=np.float64)

    def find(v: int) -> int:
        while root[v] != v:
            root[v] = root[root[v]]
            v = root[v]
        return v

    for t, v in enumerate(order):                    # O(k) union-find steps (glue)
        a, b = find(int(v)), find(int(parent[v]))
        ca, cb = node[a], node[b]
        rows[t] = (min(ca, cb), max(ca, cb), float(dist[v]), size[a] + size[b])
        if size[a] < size[b]:
            a, b = b, a
        root[b] = a
        size[a] += size[b]
        node[a] = n + t
    return rows


def single_linkage(data: LcsData) -> np.ndarray:
    """Single-linkage tree of the family (caller's indices), without a k x k matrix."""
    parent, dist = prim_tree(data)
    return data.original(mst_linkage(parent, dist))


def upgma(data: LcsData) -> np.ndarray:
    """UPGMA tree of the family (caller's indices): all pairs' distances on the device, then
    rounds of reciprocal nearest neighbours (:func:`bioplug.tree.rnn.rnn_upgma`)."""
    from bioplug.tree.build import scipy_relabel
    from bioplug.tree.rnn import rnn_upgma

    raw = rnn_upgma(lcs_packed(data), data.n, data.rt)
    return data.original(scipy_relabel(raw, data.n))
