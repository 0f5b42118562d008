"""Stage IV on the device: progressive alignment along the guide tree, then refinement.

An alignment is kept as ``colmap``: the column of every residue of every sequence in its current
profile. Aligning two profiles X and Y builds P_XY from the stored sparse posteriors (weights
w_x * w_y), solves the gap-free DP of Eq. (3) and returns the moves; the host maps the old
columns to the new ones (numpy, per profile, never per cell). Independent tree nodes of the same
depth are aligned in one batch. Refinement splits the sequences into two random groups (seeded),
removes gap-only columns of each group and realigns them the same way.

Two device paths give the same moves, bit for bit (``ProfileAligner.path``):

* ``"wide"`` (the default, ``"auto"``; ``kernels/msa_wavefront.cl``): the whole device on every
  batch, even one profile pair (refinement aligns one pair at a time): P_XY one work-item per
  row, the DP as a wavefront of TILE x TILE tiles (one launch per tile anti-diagonal, all
  nodes of the batch together), a traceback that walks the direction matrix tile by tile.
  Device buffers are reused between batches and only the moves are read back.
* ``"group"`` (``kernels/msa_profile.cl``): one work-group per profile pair, the path before
  issue 19 (a refinement pass then ran on one compute unit); kept to check the other against.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import numpy.random  # noqa: F401 - imported beside the driver start-up, not after it (refine)
import pyopencl as cl

from bioplug.errors import DeviceError
from bioplug.msa._kernels import kernel
from bioplug.msa.sparse import SparseStore
from bioplug.runtime.schedule import budget_batches

log = logging.getLogger(__name__)

#: Pairs handled by one work-group when building a profile posterior, and the most partial
#: matrices per profile pair (they are summed in a fixed order: deterministic results).
PAIRS_PER_CHUNK = 32
MAX_CHUNKS = 64


def tile_side(rt) -> int:
    """Side of the DP tiles (work-items of ``fill_tiles``) from the device's limits.

    A launch per tile anti-diagonal costs launch latency, so tiles are wide (64: 2L/64 launches
    for a pair of L columns; on PoCL 16, 32 and 64 took the same time); a tile keeps its
    posterior block and moves in local memory (5 bytes a cell).
    """
    side = 64
    while side > 4 and (side > rt.max_work_group or 5 * side * side + 64 * side > rt.local_mem):
        side //= 2
    return side


def wide_bytes(LX: int, LY: int, nch: int, rowres: int, tile: int) -> int:
    """Device bytes one profile pair takes on the wide path (P, scratch, moves, faces)."""
    cells = LX * LY
    faces = 4 * (-(-LX // tile) * (LY + 1) + -(-LY // tile) * (LX + 1))
    return 4 * cells * (2 if nch > 1 else 1) + (LX + 1) * (LY + 1) + faces + 4 * rowres


class Job(NamedTuple):
    """One profile pair of a batch, prepared for the device: the two profiles (sequence
    numbers and column counts), the stored pairs between them, X's rows of residues per
    column, the chunks of its posterior sum and both profiles' residue indices."""

    X: np.ndarray
    Y: np.ndarray
    LX: int
    LY: int
    pairs: np.ndarray
    rowres: np.ndarray
    nch: int
    res_x: np.ndarray
    res_y: np.ndarray


class WidePlan:
    """Host tables of one wide batch: one int32 array (segments for sub-buffers) and offsets.

    Parameters
    ----------
    jobs : list
        Prepared jobs (X, Y, LX, LY, pairs, rowres, nch).
    colmap : numpy.ndarray
        Columns of every residue in its current profile.
    tile, post_wg : int
        DP tile side; work-items per group of ``post_rows``.
    align : int
        Segment alignment in int32 units (the device's sub-buffer alignment).
    """

    def __init__(self, jobs, colmap: np.ndarray, tile: int, post_wg: int, align: int):
        n = len(jobs)
        self.nodes = np.zeros((n, 8), dtype=np.int32)
        self.noff = np.zeros((n, 8), dtype=np.int64)
        self.size = dict.fromkeys(("post", "scratch", "dirs", "hface", "vface", "moves"), 0)
        self.moves_at = np.zeros(n, dtype=np.int64)
        bounds, groups, tiles = [], [], []
        pair_off = rowres_off = 0
        for g, job in enumerate(jobs):
            LX, LY, pairs, rowres, nch = job.LX, job.LY, job.pairs, job.rowres, job.nch
            npairs = pairs.shape[0]
            cut = np.linspace(0, npairs, nch + 1).round().astype(np.int64) + pair_off
            n_ti, n_tj = -(-LX // tile), -(-LY // tile)
            self.nodes[g, :6] = (LX, LY, nch, sum(b.size for b in bounds), n_ti, n_tj)
            bounds.append(cut)
            self.noff[g, :7] = self._offsets(LX, LY, nch, rowres_off, n_ti, n_tj)
            self.moves_at[g] = self.noff[g, 6]
            rows = np.arange(0, LX, post_wg, dtype=np.int32)
            groups.append(np.stack([np.full_like(rows, g), rows], axis=1))
            ti, tj = np.divmod(np.arange(n_ti * n_tj, dtype=np.int32), n_tj)
            tiles.append(np.stack([np.full_like(ti, g), ti, tj, ti + tj], axis=1))
            pair_off += npairs
            rowres_off += rowres.size
        tiles_all = np.concatenate(tiles)
        tiles_all = tiles_all[np.argsort(tiles_all[:, 3], kind="stable")]
        counts = np.bincount(tiles_all[:, 3]) if tiles_all.size else np.zeros(0, np.int64)
        firsts = np.concatenate([[0], np.cumsum(counts)[:-1]]) if counts.size else counts
        #: (first tile, tile count) of every tile anti-diagonal, in launch order
        self.diagonals = [(int(f), int(c)) for f, c in zip(firsts, counts, strict=True) if c]
        groups_all = np.concatenate(groups)
        self.n_groups = int(groups_all.shape[0])
        self._pack(align, noff=self.noff, tiles=tiles_all, groups=groups_all, nodes=self.nodes,
                   bounds=np.concatenate(bounds).astype(np.int32),
                   pairs=np.concatenate([j.pairs for j in jobs]),
                   rowres=np.concatenate([j.rowres.ravel() for j in jobs]).astype(np.int32),
                   colmap=colmap.astype(np.int32, copy=False))

    def _offsets(self, LX, LY, nch, rowres_off, n_ti, n_tj) -> tuple:
        """This node's offsets in the batch buffers, and the buffers' growth."""
        sz = self.size
        out = (sz["post"], sz["scratch"], sz["dirs"], rowres_off, sz["hface"], sz["vface"],
               sz["moves"])
        sz["post"] += LX * LY
        sz["scratch"] += LX * LY if nch > 1 else 0
        sz["dirs"] += (LX + 1) * (LY + 1)
        sz["hface"] += n_ti * (LY + 1)
        sz["vface"] += n_tj * (LX + 1)
        sz["moves"] += LX + LY
        return out

    def _pack(self, align: int, **parts: np.ndarray) -> None:
        """One int32 array (one upload); ``segments[name]`` = (start, length) in int32 units,
        every start a multiple of ``align``. int64 parts are stored as their bytes."""
        self.segments: dict[str, tuple[int, int]] = {}
        assert all(arr.dtype in (np.int32, np.int64) for arr in parts.values())
        flat = {name: np.ascontiguousarray(arr).reshape(-1).view(np.int32)
                for name, arr in parts.items()}
        at = 0
        for name, arr in flat.items():
            self.segments[name] = (at, arr.size)
            at += -(-max(arr.size, 1) // align) * align
        self.ints = np.zeros(at, dtype=np.int32)
        for name, arr in flat.items():
            start, size = self.segments[name]
            self.ints[start:start + size] = arr


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

    Attributes
    ----------
    path : str
        Class default "auto" (= "wide"); "group" selects the one-work-group-per-pair kernels.
    tile : int or None
        DP tile side; None takes :func:`tile_side` (tests force small tiles).
    """

    path: str = "auto"
    tile: int | None = None

    def __init__(self, rt, store: SparseStore, weights: np.ndarray):
        self.rt = rt
        self.store = store
        self.k = store.lengths.size
        self.lengths = store.lengths.astype(np.int64)
        self.seq_start = np.zeros(self.k + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=self.seq_start[1:])
        self._all_res = np.arange(int(self.seq_start[-1]), dtype=np.int64)
        # every sequence starts as its own profile: residue i in column i
        self.colmap = (self._all_res - np.repeat(self.seq_start[:-1], self.lengths)
                       ).astype(np.int32)
        self.wg = min(128 if rt.is_gpu else 8, rt.max_work_group)
        self._tile = self.tile or tile_side(rt)
        self._wide_ok: bool | None = None
        self.post_wg = min(64 if rt.is_gpu else 16, rt.max_work_group)
        # sub-buffer origins must be multiples of the device's base address alignment
        self._align = max(int(rt.device.mem_base_addr_align) // 8, 64)
        self._ws: dict[str, cl.Buffer] = {}
        self.d_seq_start = rt.to_device(self.seq_start)
        self.d_px = rt.to_device(store.pair_x.astype(np.int32))
        self.d_rb = rt.to_device(store.row_base.astype(np.int64))
        dev = store.device  # stage III may leave the entries on the device
        self.d_ip = dev.indptr if dev is not None and dev.indptr is not None \
            else rt.to_device(store.indptr)
        self.d_cols = dev.cols if dev is not None else rt.to_device(store.cols)
        self.d_vals = dev.vals if dev is not None else rt.to_device(store.vals)
        self.d_w = rt.to_device(np.asarray(weights, dtype=np.float32))
        self.budget = max(min(rt.memory_budget(0.25), rt.max_alloc), 1 << 20)

    # -- device workspace (kept between launches: refinement reuses it every pass) ----------
    def _buffer(self, name: str, nbytes: int) -> cl.Buffer:
        buf = self._ws.get(name)
        if buf is None or buf.size < nbytes:
            buf = self._ws[name] = self.rt.empty(nbytes)
        return buf

    def _upload(self, name: str, array: np.ndarray) -> cl.Buffer:
        """``array`` in a reused buffer (non-blocking: the caller keeps ``array`` alive until
        its blocking read-back)."""
        buf = self._buffer(name, array.nbytes)
        if array.nbytes:
            cl.enqueue_copy(self.rt.queue, buf, array, is_blocking=False)
        return buf

    def _zeroed(self, name: str, nbytes: int) -> cl.Buffer:
        buf = self._buffer(name, nbytes)
        if nbytes:
            self.rt.fill(buf, np.float32(0), 0, nbytes)
        return buf

    def _scratch(self, nbytes: int) -> cl.Buffer:
        """post_rows' scratch matrix: zeroed when allocated, and post_rows leaves it zero."""
        buf = self._ws.get("scratch")
        if buf is None or buf.size < nbytes:
            buf = self._zeroed("scratch", nbytes)
        return buf

    @staticmethod
    def _view(buf: cl.Buffer, segment: tuple[int, int]) -> cl.Buffer:
        """A sub-buffer of (start, length) int32 units (length 0: one unit)."""
        start, size = segment
        return buf.get_sub_region(4 * start, 4 * max(size, 1))

    def _wide_builds(self) -> bool:
        """Whether the wide path's program builds here ("auto" falls back to the one-work-group
        kernels, with a warning, on a driver that rejects it: both give the same moves)."""
        if self._wide_ok is None:
            from bioplug.errors import KernelBuildError

            try:
                self._wide_kernels()
                self._wide_ok = True
            except KernelBuildError as exc:
                log.warning("stage IV: msa_wavefront.cl does not build on %s; using the "
                            "one-work-group kernels (%s)", self.rt.info.name,
                            str(exc).splitlines()[0])
                self._wide_ok = False
        return self._wide_ok

    def _wide_kernels(self):
        defines = {"TILE": self._tile}
        return tuple(kernel(self.rt, "msa_wavefront.cl", name, defines)
                     for name in ("post_rows", "fill_tiles", "trace_tiles"))

    # -- helpers --------------------------------------------------------------------------
    def _residues(self, seqs: np.ndarray) -> np.ndarray:
        """Global residue indices of ``seqs`` (in that order; each sequence's ascending).

        Slices of one index array joined (a copy), cheaper than building them by repeats:
        stage IV calls this on every residue of a profile at each step."""
        ss = self.seq_start
        return np.concatenate([self._all_res[ss[s]:ss[s + 1]] for s in seqs.tolist()]) \
            if seqs.size else self._all_res[:0]

    def _node_arrays(self, X: np.ndarray, Y: np.ndarray, LX: int, res: np.ndarray):
        """The sequence pairs of X x Y with a stored matrix, and X's rows of residues per
        column (-1: a gap); ``res`` are X's residues (:meth:`_residues`)."""
        xg, yg = np.meshgrid(X, Y, indexing="ij")
        xi = np.broadcast_to(np.arange(X.size)[:, None], xg.shape)
        pid = self.store.pair_id[xg, yg]
        ok = pid >= 0
        pairs = np.zeros((int(ok.sum()), 4), dtype=np.int32)
        pairs[:, 0] = xi[ok]
        pairs[:, 1] = pid[ok]
        pairs[:, 2] = yg[ok]
        lens = self.lengths[X]
        rowres = np.full((X.size, LX), -1, dtype=np.int32)
        # residue r of X's j-th sequence goes to rowres[j, colmap[r]] (flat: j * LX + column)
        row_of = np.repeat(np.arange(X.size, dtype=np.int64) * LX, lens)
        local = res - np.repeat(self.seq_start[X], lens)
        rowres.reshape(-1)[row_of + self.colmap[res]] = local
        return pairs, rowres

    # -- one batch of profile pairs ------------------------------------------------------------
    def align_many(self, jobs: list[tuple[np.ndarray, np.ndarray, int, int]],
                   residues: list[tuple[np.ndarray, np.ndarray]] | None = None) -> list[int]:
        """Align profile pairs (X, Y, LX, LY) in one or more launches; update ``colmap``.

        ``residues``: (X's, Y's) residue indices of every job (:meth:`_residues`), when the
        caller has them. Returns the new profile lengths, in job order.
        """
        if residues is None:
            residues = [(self._residues(X), self._residues(Y)) for X, Y, _, _ in jobs]
        prepared = []
        for (X, Y, LX, LY), (res_x, res_y) in zip(jobs, residues, strict=True):
            pairs, rowres = self._node_arrays(X, Y, LX, res_x)
            nch = min(MAX_CHUNKS, -(-pairs.shape[0] // PAIRS_PER_CHUNK))
            prepared.append(Job(X, Y, LX, LY, pairs, rowres, nch, res_x, res_y))
        if self.path not in ("auto", "wide", "group"):
            raise ValueError(f"ProfileAligner.path: {self.path!r} (auto, wide or group)")
        wide = self.path == "wide" or (self.path == "auto" and self._wide_builds())
        if wide:
            costs = [wide_bytes(j.LX, j.LY, j.nch, j.rowres.size, self._tile) for j in prepared]
        else:
            costs = [4 * j.LX * j.LY * max(j.nch, 1) + (j.LX + 2) * (j.LY + 2) * 2
                     + 4 * j.rowres.size for j in prepared]
        self._check_fits(prepared, costs)
        out: list[int] = []
        for start, end in budget_batches(costs, self.budget):
            batch = prepared[start:end]
            moves = self._launch_wide(batch) if wide else self._launch_group(batch)
            out.extend(self._apply_moves(batch, moves))
        return out

    def _check_fits(self, prepared, costs) -> None:
        """A clear error for a profile pair whose DP matrix cannot be allocated on this device
        (the driver would fail with a bare INVALID_BUFFER_SIZE or OUT_OF_RESOURCES)."""
        rt = self.rt
        for job, cost in zip(prepared, costs, strict=True):
            LX, LY = job.LX, job.LY
            if 4 * LX * LY > rt.max_alloc or cost > rt.memory_budget(0.9):
                raise DeviceError(
                    f"stage IV: aligning two profiles of {LX:,} and {LY:,} columns needs "
                    f"{cost / 2**30:.1f} GiB of device memory, {4 * LX * LY / 2**30:.1f} GiB "
                    f"of it in one buffer; {rt.info.name} allows {rt.max_alloc / 2**30:.1f} GiB "
                    f"per buffer. Use a device with more memory, or --method progressive")

    def _apply_moves(self, jobs, moves: list[np.ndarray]) -> list[int]:
        """Map every residue of X and Y to its column of the merged profile; new lengths."""
        lengths = []
        for job, mv in zip(jobs, moves, strict=True):
            newcol = np.arange(mv.size, dtype=np.int32)
            col_x = newcol[mv != 2]
            col_y = newcol[mv != 1]
            for res, cmap in ((job.res_x, col_x), (job.res_y, col_y)):
                self.colmap[res] = cmap[self.colmap[res]]
            lengths.append(int(mv.size))
        return lengths

    def _group_post(self, jobs):
        """Group path, step 1: ``profile_post``'s partial matrices of every node (one per chunk
        of 32 sequence pairs). Returns (nodes, noff, post buffer, dirs bytes, roll floats)."""
        rt, q = self.rt, self.rt.queue
        k_post = kernel(rt, "msa_profile.cl", "profile_post")
        nodes = np.zeros((len(jobs), 8), dtype=np.int32)
        noff = np.zeros((len(jobs), 4), dtype=np.int64)
        roff = np.zeros(len(jobs), dtype=np.int64)
        chunks, pair_parts, rowres_parts = [], [], []
        p_off = d_off = r_off = roll_off = pair_off = 0
        for g, job in enumerate(jobs):
            LX, LY, pairs, rowres, nch = job.LX, job.LY, job.pairs, job.rowres, job.nch
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
            k_post(q, (len(chunks) * self.wg,), (self.wg,),
                   rt.to_device(np.asarray(chunks, dtype=np.int32)), d_nodes, d_noff,
                   rt.to_device(roff), rt.to_device(np.concatenate(pair_parts)),
                   rt.to_device(np.concatenate(rowres_parts)), rt.to_device(self.colmap),
                   self.d_seq_start, self.d_px, self.d_rb, self.d_ip, self.d_cols,
                   self.d_vals, self.d_w, d_post)
        return (d_nodes, d_noff, noff), d_post, d_off, roll_off

    def _launch_group(self, jobs) -> list[np.ndarray]:
        """One work-group per profile pair (``msa_profile.cl``): the path before issue 19."""
        rt, q = self.rt, self.rt.queue
        (d_nodes, d_noff, noff), d_post, d_off, roll_off = self._group_post(jobs)
        k_align = kernel(rt, "msa_profile.cl", "align_nodes")
        d_dirs = rt.empty(d_off)
        d_roll = rt.empty(4 * roll_off)
        d_nm = rt.empty(4 * len(jobs))
        k_align(q, (len(jobs) * self.wg,), (self.wg,), d_nodes, d_noff, d_post, d_dirs,
                d_roll, d_nm)
        dirs = np.empty(d_off, dtype=np.uint8)
        cl.enqueue_copy(q, dirs, d_dirs)
        nm = np.empty(len(jobs), dtype=np.int32)
        cl.enqueue_copy(q, nm, d_nm)
        moves = []
        for g, job in enumerate(jobs):
            LX, LY = job.LX, job.LY
            base = int(noff[g, 1]) + (LX + 1) * (LY + 1)
            moves.append(dirs[base:base + int(nm[g])])
        return moves

    def _launch_wide(self, jobs) -> list[np.ndarray]:
        """The whole device per batch (``msa_wavefront.cl``): posterior rows, tile diagonals,
        tiled traceback. One upload (every table in one int32 array, sub-buffers for the
        kernels), one read-back (move counts and moves); the scratch matrix stays zero between
        batches (post_rows clears what it touched), so only P is cleared each time."""
        q, T = self.rt.queue, self._tile
        plan = WidePlan(jobs, self.colmap, T, self.post_wg, self._align // 4)
        k_post, k_fill, k_trace = self._wide_kernels()
        d_plan = self._upload("plan", plan.ints)
        d_noff, d_tiles, d_groups, d_nodes, d_bounds, d_pairs, d_rowres, d_colmap = (
            self._view(d_plan, plan.segments[name]) for name in
            ("noff", "tiles", "groups", "nodes", "bounds", "pairs", "rowres", "colmap"))
        d_post = self._zeroed("post", 4 * plan.size["post"])
        d_scratch = self._scratch(4 * plan.size["scratch"]) if plan.size["scratch"] else d_post
        d_dirs = self._buffer("dirs", plan.size["dirs"])
        d_h = self._buffer("hface", 4 * plan.size["hface"])
        d_v = self._buffer("vface", 4 * plan.size["vface"])
        head = -(-4 * len(jobs) // self._align) * self._align  # counts, then the moves
        d_out = self._buffer("moves", head + plan.size["moves"])
        d_counts = self._view(d_out, (0, len(jobs)))
        d_moves = d_out.get_sub_region(head, max(plan.size["moves"], 1))
        if plan.n_groups:
            k_post(q, (plan.n_groups * self.post_wg,), (self.post_wg,), d_groups, d_nodes,
                   d_noff, d_bounds, d_pairs, d_rowres, d_colmap, self.d_seq_start, self.d_px,
                   self.d_rb, self.d_ip, self.d_cols, self.d_vals, self.d_w, d_post, d_scratch)
        k_fill.set_args(d_tiles, d_nodes, d_noff, d_post, d_dirs, d_h, d_v)
        for first, count in plan.diagonals:  # one launch per tile anti-diagonal
            cl.enqueue_nd_range_kernel(q, k_fill, (count * T,), (T,),
                                       global_work_offset=(first * T,))
        k_trace(q, (len(jobs) * T,), (T,), d_nodes, d_noff, d_dirs, d_moves, d_counts)
        out = np.empty(head + plan.size["moves"], dtype=np.uint8)
        cl.enqueue_copy(q, out, d_out)
        counts = out[:4 * len(jobs)].view(np.int32)
        return [out[head + o:head + o + int(n)] for o, n in zip(plan.moves_at, counts,
                                                                 strict=True)]

    # -- stages ---------------------------------------------------------------------------
    def progressive(self, link: np.ndarray, report: Callable[[int, int], None] | None = None
                    ) -> tuple[np.ndarray, int]:
        """Align along the guide tree; returns (members of the root, alignment length)."""
        k = self.k
        if k == 1:
            return np.arange(1), int(self.lengths[0])
        members: dict[int, np.ndarray] = {s: np.array([s]) for s in range(k)}
        # residues of every profile, joined as the members are (no per-step rebuilding)
        ss = self.seq_start
        res: dict[int, np.ndarray] = {s: self._all_res[ss[s]:ss[s + 1]] for s in range(k)}
        length = {s: int(self.lengths[s]) for s in range(k)}
        level = np.zeros(2 * k - 1, dtype=np.int64)
        for t, row in enumerate(link):
            level[k + t] = 1 + max(level[int(row[0])], level[int(row[1])])
        done = 0
        for lv in range(1, int(level.max()) + 1):
            ids = [k + t for t in range(k - 1) if level[k + t] == lv]
            jobs, job_res = [], []
            for node in ids:
                c1, c2 = int(link[node - k, 0]), int(link[node - k, 1])
                jobs.append((members[c1], members[c2], length[c1], length[c2]))
                job_res.append((res[c1], res[c2]))
            new_lengths = self.align_many(jobs, job_res)
            for node, L in zip(ids, new_lengths, strict=False):
                c1, c2 = int(link[node - k, 0]), int(link[node - k, 1])
                members[node] = np.concatenate([members.pop(c1), members.pop(c2)])
                res[node] = np.concatenate([res.pop(c1), res.pop(c2)])
                length[node] = L
            done += len(ids)
            if report is not None:
                report(done, k - 1)
        root = 2 * k - 2
        return members[root], length[root]

    def refine(self, length: int, passes: int, seed: int,
               report: Callable[[int, int], None] | None = None, split: str = "random") -> int:
        """``passes`` two-group realignments (seeded); returns the alignment length.

        ``split`` chooses the groups: "random" (the default; ProbCons / MSAProbs: every sequence
        joins either group with probability 1/2) or "column" (QuickProbs 2's column-oriented
        refinement: a random column of the current alignment that has both gaps and residues
        splits the sequences into those with a residue there and those with a gap). Each
        realignment solves the DP over the cross pairs with the old split as one of its
        paths, so the weighted sum of aligned posteriors never decreases. A pass whose split
        already left the current alignment unchanged is skipped: the realignment is
        deterministic and would give that alignment again (small families draw the same split
        often; the random draws, and so the result, are the same as without the skip).
        """
        if split not in ("random", "column"):
            raise ValueError(f"refine split: {split!r} (random or column)")
        k = self.k
        rng = np.random.default_rng(seed)
        idle: set[bytes] = set()   # splits that left the current alignment as it was
        for it in range(passes):
            if k < 3:
                break
            mask = self._column_split(length, rng) if split == "column" else None
            if mask is None:
                mask = rng.random(k) < 0.5
                if mask.all() or not mask.any():
                    mask[rng.integers(k)] ^= True
            key = mask.tobytes()
            if key not in idle:   # else the pass would give this alignment again
                before = (length, self.colmap.copy())
                groups = [self._compact(sel, length)
                          for sel in (np.flatnonzero(mask), np.flatnonzero(~mask))]
                (X, res_x, LX), (Y, res_y, LY) = groups
                length = self.align_many([(X, Y, LX, LY)], [(res_x, res_y)])[0]
                if length == before[0] and np.array_equal(self.colmap, before[1]):
                    idle.add(key)
                else:
                    idle.clear()
            if report is not None:
                report(it + 1, passes)
        return length

    def _compact(self, sel: np.ndarray, length: int) -> tuple[np.ndarray, np.ndarray, int]:
        """Remove the gap-only columns of the group ``sel``: its columns renumbered in order.

        Returns (sel, its residues, its column count). A column's new number is the count of
        occupied columns before it (a running sum over the ``length`` columns: O(residues +
        columns), where sorting the residues' columns cost ~10x more on long families)."""
        res = self._residues(sel)
        cols = self.colmap[res]
        used = np.zeros(length, dtype=bool)
        used[cols] = True
        rank = np.cumsum(used, dtype=np.int32) - 1
        self.colmap[res] = rank[cols]
        return sel, res, int(rank[-1]) + 1 if length else 0

    def _column_split(self, length: int, rng: np.random.Generator) -> np.ndarray | None:
        """Sequences with a residue in a random column that also holds a gap (None when no
        column holds a gap: the alignment has no gaps to move)."""
        owner = np.repeat(np.arange(self.k), self.lengths)
        occupied = np.zeros((self.k, length), dtype=bool)
        occupied[owner, self.colmap] = True
        filled = occupied.sum(axis=0)
        candidates = np.flatnonzero(filled < self.k)
        if candidates.size == 0:
            return None
        return occupied[:, candidates[rng.integers(candidates.size)]]

    def rows(self, texts: list[str], length: int) -> list[str]:
        """Gapped rows of the current alignment, in input order."""
        out = []
        for s, text in enumerate(texts):
            row = np.full(length, ord("-"), dtype=np.uint8)
            cm = self.colmap[self.seq_start[s]:self.seq_start[s + 1]]
            row[cm] = np.frombuffer(text.encode("latin-1"), dtype=np.uint8)
            out.append(row.tobytes().decode("latin-1"))
        return out
