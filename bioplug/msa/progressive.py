"""Stage IV on the device: progressive alignment along the guide tree, then refinement.

An alignment is kept as ``colmap``: the column of every residue of every sequence in its current
profile. Aligning two profiles X and Y (``kernels/msa_profile.cl``, one work-group per profile
pair) builds P_XY from the stored sparse posteriors (weights w_x * w_y), solves the gap-free DP of
Eq. (3) and returns the moves; the host maps the old columns to the new ones (numpy, per profile,
never per cell). Independent tree nodes of the same depth are aligned in one launch.
Refinement splits the sequences into two random groups (seeded), removes gap-only columns of
each group and realigns them the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np
import pyopencl as cl

from bioplug.msa._kernels import kernel
from bioplug.msa.sparse import SparseStore
from bioplug.runtime.schedule import budget_batches

log = logging.getLogger(__name__)

#: Pairs handled by one work-group when building a profile posterior, and the most partial
#: matrices per profile pair (they are summed in a fixed order: deterministic results).
PAIRS_PER_CHUNK = 32
MAX_CHUNKS = 64


class ProfileAligner:
    """Device state for stage IV: the sparse store and weights stay on the device.

    Parameters
    ----------
    rt : Runtime
        The device.
    store : SparseStore
        Transformed posteriors (both orientations of the pairs that will be used).
    weights : numpy.ndarray
        (k,) sequence weights.
    """

    def __init__(self, rt, store: SparseStore, weights: np.ndarray):
        self.rt = rt
        self.store = store
        self.k = store.lengths.size
        self.lengths = store.lengths.astype(np.int64)
        self.seq_start = np.zeros(self.k + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=self.seq_start[1:])
        self.colmap = np.zeros(int(self.seq_start[-1]), dtype=np.int32)
        for s in range(self.k):  # every sequence starts as its own profile
            self.colmap[self.seq_start[s]:self.seq_start[s + 1]] = np.arange(self.lengths[s])
        self.wg = min(128 if rt.is_gpu else 8, rt.max_work_group)
        self.k_post = kernel(rt, "msa_profile.cl", "profile_post")
        self.k_align = kernel(rt, "msa_profile.cl", "align_nodes")
        self.d_seq_start = rt.to_device(self.seq_start)
        self.d_px = rt.to_device(store.pair_x.astype(np.int32))
        self.d_rb = rt.to_device(store.row_base.astype(np.int64))
        self.d_ip = rt.to_device(store.indptr)
        self.d_cols = rt.to_device(store.cols)
        self.d_vals = rt.to_device(store.vals)
        self.d_w = rt.to_device(np.asarray(weights, dtype=np.float32))
        self.budget = max(min(rt.memory_budget(0.25), rt.max_alloc), 1 << 20)

    # -- helpers --------------------------------------------------------------------------
    def _residues(self, seqs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Global residue indices of ``seqs`` and the position (in ``seqs``) of each."""
        lens = self.lengths[seqs]
        owner = np.repeat(np.arange(seqs.size), lens)
        first = np.repeat(self.seq_start[seqs] - np.concatenate([[0], np.cumsum(lens)[:-1]]),
                          lens)
        return first + np.arange(int(lens.sum())), owner

    def _node_arrays(self, X: np.ndarray, Y: np.ndarray, LX: int):
        xg, yg = np.meshgrid(X, Y, indexing="ij")
        xi = np.broadcast_to(np.arange(X.size)[:, None], xg.shape)
        pid = self.store.pair_id[xg, yg]
        ok = pid >= 0
        pairs = np.zeros((int(ok.sum()), 4), dtype=np.int32)
        pairs[:, 0] = xi[ok]
        pairs[:, 1] = pid[ok]
        pairs[:, 2] = yg[ok]
        res, owner = self._residues(X)
        rowres = np.full((X.size, LX), -1, dtype=np.int32)
        local = res - self.seq_start[X][owner]
        rowres[owner, self.colmap[res]] = local
        return pairs, rowres

    # -- one launch ---------------------------------------------------------------------------
    def align_many(self, jobs: list[tuple[np.ndarray, np.ndarray, int, int]]) -> list[int]:
        """Align profile pairs (X, Y, LX, LY) in one or more launches; update ``colmap``.

        Returns the new profile lengths, in job order.
        """
        prepared = []
        for X, Y, LX, LY in jobs:
            pairs, rowres = self._node_arrays(X, Y, LX)
            nch = min(MAX_CHUNKS, -(-pairs.shape[0] // PAIRS_PER_CHUNK))
            prepared.append((X, Y, LX, LY, pairs, rowres, nch))
        costs = [4 * LX * LY * max(nch, 1) + (LX + 2) * (LY + 2) * 2 + 4 * rowres.size
                 for _, _, LX, LY, _, rowres, nch in prepared]
        out: list[int] = []
        for start, end in budget_batches(costs, self.budget):
            out.extend(self._launch(prepared[start:end]))
        return out

    def _launch(self, jobs) -> list[int]:
        rt, q = self.rt, self.rt.queue
        nodes = np.zeros((len(jobs), 8), dtype=np.int32)
        noff = np.zeros((len(jobs), 4), dtype=np.int64)
        roff = np.zeros(len(jobs), dtype=np.int64)
        chunks, pair_parts, rowres_parts = [], [], []
        p_off = d_off = r_off = roll_off = pair_off = 0
        for g, (_, _, LX, LY, pairs, rowres, nch) in enumerate(jobs):
            npairs = pairs.shape[0]
            bounds = np.linspace(0, npairs, nch + 1).round().astype(np.int64)
            for c in range(nch):
                chunks.append((g, pair_off + bounds[c], bounds[c + 1] - bounds[c], c))
            nodes[g, :4] = (len(chunks) - nch, nch, LX, LY)
            noff[g] = (p_off, d_off, 0, roll_off)
            roff[g] = r_off
            pair_parts.append(pairs)
            rowres_parts.append(rowres.ravel())
            pair_off += npairs
            p_off += LX * LY * nch
            d_off += (LX + 1) * (LY + 1) + LX + LY + 1
            r_off += rowres.size
            roll_off += 3 * (LY + 1)
        d_nodes = rt.to_device(nodes)
        d_noff = rt.to_device(noff)
        d_post = rt.empty(4 * p_off)
        if chunks:
            self.k_post(q, (len(chunks) * self.wg,), (self.wg,),
                        rt.to_device(np.asarray(chunks, dtype=np.int32)), d_nodes, d_noff,
                        rt.to_device(roff), rt.to_device(np.concatenate(pair_parts)),
                        rt.to_device(np.concatenate(rowres_parts)), rt.to_device(self.colmap),
                        self.d_seq_start, self.d_px, self.d_rb, self.d_ip, self.d_cols,
                        self.d_vals, self.d_w, d_post)
        d_dirs = rt.empty(d_off)
        d_roll = rt.empty(4 * roll_off)
        d_nm = rt.empty(4 * len(jobs))
        self.k_align(q, (len(jobs) * self.wg,), (self.wg,), d_nodes, d_noff, d_post, d_dirs,
                     d_roll, d_nm)
        dirs = np.empty(d_off, dtype=np.uint8)
        cl.enqueue_copy(q, dirs, d_dirs)
        nm = np.empty(len(jobs), dtype=np.int32)
        cl.enqueue_copy(q, nm, d_nm)
        lengths = []
        for g, (X, Y, LX, LY, _, _, _) in enumerate(jobs):
            base = int(noff[g, 1]) + (LX + 1) * (LY + 1)
            mv = dirs[base:base + int(nm[g])]
            newcol = np.arange(mv.size, dtype=np.int32)
            col_x = newcol[mv != 2]
            col_y = newcol[mv != 1]
            for S, cmap in ((X, col_x), (Y, col_y)):
                res, _ = self._residues(S)
                self.colmap[res] = cmap[self.colmap[res]]
            lengths.append(int(mv.size))
        return lengths

    # -- stages ---------------------------------------------------------------------------
    def progressive(self, link: np.ndarray, report: Callable[[int, int], None] | None = None
                    ) -> tuple[np.ndarray, int]:
        """Align along the guide tree; returns (members of the root, alignment length)."""
        k = self.k
        if k == 1:
            return np.arange(1), int(self.lengths[0])
        members: dict[int, np.ndarray] = {s: np.array([s]) for s in range(k)}
        length = {s: int(self.lengths[s]) for s in range(k)}
        level = np.zeros(2 * k - 1, dtype=np.int64)
        for t, row in enumerate(link):
            level[k + t] = 1 + max(level[int(row[0])], level[int(row[1])])
        done = 0
        for lv in range(1, int(level.max()) + 1):
            ids = [k + t for t in range(k - 1) if level[k + t] == lv]
            jobs = []
            for node in ids:
                c1, c2 = int(link[node - k, 0]), int(link[node - k, 1])
                jobs.append((members[c1], members[c2], length[c1], length[c2]))
            new_lengths = self.align_many(jobs)
            for node, L in zip(ids, new_lengths, strict=False):
                c1, c2 = int(link[node - k, 0]), int(link[node - k, 1])
                members[node] = np.concatenate([members.pop(c1), members.pop(c2)])
                length[node] = L
            done += len(ids)
            if report is not None:
                report(done, k - 1)
        root = 2 * k - 2
        return members[root], length[root]

    def refine(self, length: int, passes: int, seed: int,
               report: Callable[[int, int], None] | None = None) -> int:
        """``passes`` random two-group realignments (seeded); returns the alignment length."""
        k = self.k
        rng = np.random.default_rng(seed)
        for it in range(passes):
            if k < 3:
                break
            mask = rng.random(k) < 0.5
            if mask.all() or not mask.any():
                mask[rng.integers(k)] ^= True
            groups = []
            for sel in (np.flatnonzero(mask), np.flatnonzero(~mask)):
                res, _ = self._residues(sel)
                used = np.unique(self.colmap[res])
                self.colmap[res] = np.searchsorted(used, self.colmap[res]).astype(np.int32)
                groups.append((sel, int(used.size)))
            (X, LX), (Y, LY) = groups
            length = self.align_many([(X, Y, LX, LY)])[0]
            if report is not None:
                report(it + 1, passes)
        return length

    def rows(self, texts: list[str], length: int) -> list[str]:
        """Gapped rows of the current alignment, in input order."""
        out = []
        for s, text in enumerate(texts):
            row = np.full(length, ord("-"), dtype=np.uint8)
            cm = self.colmap[self.seq_start[s]:self.seq_start[s + 1]]
            row[cm] = np.frombuffer(text.encode("latin-1"), dtype=np.uint8)
            out.append(row.tobytes().decode("latin-1"))
        return out
