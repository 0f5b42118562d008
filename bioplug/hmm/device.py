"""Device side of Viterbi decoding: buffers and launches of ``kernels/tropical_viterbi.cl``.

Two methods, both returning log-probabilities and state paths:

:func:`decode_steps`
    The step-wise recurrence. Sequences are sorted by length and dealt to work-groups, each
    owning a few sequences and every state for all time steps (``viterbi_steps``, a launch
    per :data:`STEP_CHUNK` steps); backpointers stay on the device, ``viterbi_trace`` reads
    the paths back there. O(n l^2) work, n sequential steps.
:func:`decode_chain`
    The thesis's product chain: the n - 1 per-step matrices multiplied as a balanced tree
    with the tropical product kernel (argmax indices kept per level), then the path filled
    top-down (``viterbi_split``, a launch per level). O(n l^3) work, log2 n sequential levels.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from bioplug.errors import InputError
from bioplug.progress import Progress
from bioplug.runtime import Runtime
from bioplug.tropical.device import engine

log = logging.getLogger(__name__)

#: Time steps per ``viterbi_steps`` launch (progress and cancel points between launches).
STEP_CHUNK = 2048
#: Most sequences an item computes at once (registers).
MAX_R = 8
#: ``viterbi_steps`` groups wanted per GPU compute unit (see :func:`step_layout`).
GROUPS_PER_CU_GPU = 2


@dataclass
class DeviceModel:
    """A log-space HMM on the device: T (l x l), E symbol-major (m x l), pi (l)."""

    rt: Runtime
    dtype: np.dtype
    log_start: np.ndarray
    log_trans: np.ndarray
    log_emit_t: np.ndarray  # (m, l): E[o][i]
    t_buf: cl.Buffer
    e_buf: cl.Buffer
    pi_buf: cl.Buffer

    @property
    def n_states(self) -> int:
        return self.log_start.shape[0]


def upload_model(rt: Runtime, log_start, log_trans, log_emit_t, dtype) -> DeviceModel:
    """Copy the model to the device in ``dtype``."""
    dt = np.dtype(dtype)
    arrays = [np.ascontiguousarray(x, dtype=dt) for x in (log_start, log_trans, log_emit_t)]
    return DeviceModel(rt, dt, *arrays, *(rt.to_device(x) for x in (arrays[1], arrays[2],
                                                                     arrays[0])))


def _pow2ceil(x: int) -> int:
    return 1 << max(0, (int(x) - 1).bit_length())


def _bp_type(ns: int) -> tuple[str, int]:
    if ns <= 256:
        return "uchar", 1
    if ns <= 65536:
        return "ushort", 2
    return "uint", 4


@dataclass(frozen=True)
class StepLayout:
    """Items of a ``viterbi_steps`` group: sp along states x g sequence rows of r each."""

    sp: int
    g: int
    r: int
    lat_global: bool

    @property
    def per_group(self) -> int:
        return self.g * self.r


def step_layout(rt: Runtime, ns: int, k: int, itemsize: int, r: int | None = None) -> StepLayout:
    """Sequences per group: enough groups for two per compute unit on GPUs (one per unit on
    CPUs), within local memory for the two lattice rows. The T entry an item reads serves
    all r of its sequences, but fuller groups leave units idle: at 256 states, 1,000
    sequences on the H100, r = 4 (250 groups) took 0.40 s, r = 8 0.88 s, r = 2 0.47 s."""
    wg = min(256, rt.max_work_group)
    sp = min(_pow2ceil(ns), wg)
    g_cap = max(1, wg // sp)
    wanted = rt.compute_units * (GROUPS_PER_CU_GPU if rt.is_gpu else 1)
    per_group = max(1, min(MAX_R * g_cap, math.ceil(k / wanted)))
    if r is None:
        r = next(x for x in (8, 4, 2, 1) if x <= per_group)
    g = min(g_cap, max(1, per_group // r))
    budget = rt.local_mem - 2048
    while 2 * ns * g * r * itemsize > budget and (g > 1 or r > 1):
        if g > 1:
            g //= 2
        else:
            r //= 2
    return StepLayout(sp, g, r, 2 * ns * g * r * itemsize > budget)


def _pack(seqs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lens = np.array([len(s) for s in seqs], dtype=np.int32)
    offs = np.zeros(len(seqs), dtype=np.uint64)
    if len(seqs) > 1:
        offs[1:] = np.cumsum(lens[:-1], dtype=np.uint64)
    obs = np.concatenate(seqs).astype(np.int32) if seqs else np.zeros(0, np.int32)
    return obs, offs, lens


def _memory_groups(costs: np.ndarray, limit: int, what: str) -> list[np.ndarray]:
    """Indices (in the given order) split into consecutive groups of total cost <= limit."""
    groups, start, total = [], 0, 0
    for i, c in enumerate(costs):
        if c > limit:
            raise InputError(f"{what}: sequence {i + 1} needs {c / 2**30:.2f} GiB of device "
                             f"memory, more than the {limit / 2**30:.2f} GiB available")
        if total + c > limit and i > start:
            groups.append(np.arange(start, i))
            start, total = i, 0
        total += c
    groups.append(np.arange(start, len(costs)))
    return groups


def decode_steps(dm: DeviceModel, seqs: list[np.ndarray], progress: Progress | None = None,
                 r: int | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """Viterbi by the step-wise recurrence for every sequence (each of length >= 1).

    Returns the log-probabilities (float64) and the state paths (int64), in input order.
    """
    rt, ns = dm.rt, dm.n_states
    bp_name, bp_size = _bp_type(ns)
    order = np.argsort([-len(s) for s in seqs], kind="stable")
    costs = np.array([len(seqs[i]) * ns * bp_size for i in order], dtype=np.int64)
    limit = min(rt.max_alloc, rt.memory_budget(0.4))
    logp = np.empty(len(seqs), dtype=np.float64)
    paths: list[np.ndarray] = [None] * len(seqs)  # type: ignore[list-item]
    for group in _memory_groups(costs, limit, "Viterbi backpointers"):
        ids = order[group]
        g_logp, g_paths = _steps_group(dm, [seqs[i] for i in ids], bp_name, bp_size, progress,
                                       r)
        logp[ids] = g_logp
        for i, p in zip(ids, g_paths, strict=True):
            paths[i] = p
    return logp, paths


def _steps_group(dm, seqs, bp_name, bp_size, progress, r_override):
    rt, ns, item = dm.rt, dm.n_states, dm.dtype.itemsize
    k = len(seqs)
    obs, offs, lens = _pack(seqs)  # already sorted longest first
    layout = step_layout(rt, ns, k, item, r_override)
    groups = math.ceil(k / layout.per_group)
    defines = {"REAL_IS_DOUBLE": int(item == 8), "BP_T": bp_name, "SP": layout.sp,
               "G": layout.g, "R": layout.r, "LAT_GLOBAL": int(layout.lat_global)}
    knl = rt.kernel("tropical_viterbi.cl", "viterbi_steps", defines)
    bp_off = (offs * np.uint64(ns)).astype(np.uint64)
    bufs = {name: rt.to_device(arr) for name, arr in
            (("obs", obs), ("offs", offs), ("lens", lens), ("bp_off", bp_off),
             ("ids", np.arange(k, dtype=np.int32)))}
    bp = rt.empty(int(obs.size) * ns * bp_size)
    state = rt.empty(k * ns * item)
    lat_bytes = 2 * ns * layout.per_group * item
    local = cl.LocalMemory(16 if layout.lat_global else lat_bytes)
    glat = rt.empty(groups * lat_bytes if layout.lat_global else 16)
    tmax = int(lens.max())
    log.debug("viterbi steps: %d sequences, %d states, layout %s, %d groups", k, ns, layout,
              groups)
    for t0 in range(0, tmax, STEP_CHUNK):
        t1 = min(tmax, t0 + STEP_CHUNK)
        knl.set_args(dm.t_buf, dm.e_buf, dm.pi_buf, bufs["obs"], bufs["offs"], bufs["lens"],
                     bufs["ids"], np.uint32(k), np.uint32(ns), bp, bufs["bp_off"], state,
                     np.uint32(t0), np.uint32(t1), local, glat)
        cl.enqueue_nd_range_kernel(rt.queue, knl, (layout.sp * groups, layout.g),
                                   (layout.sp, layout.g))
        if progress is not None:
            rt.queue.finish()
            progress.report("viterbi", t1, tmax)
    return _trace(dm, bufs, bp, bp_name, state, k, obs.size, lens)


def _trace(dm, bufs, bp, bp_name, state, k, total, lens):
    rt, ns, item = dm.rt, dm.n_states, dm.dtype.itemsize
    knl = rt.kernel("tropical_viterbi.cl", "viterbi_trace",
                    {"REAL_IS_DOUBLE": int(item == 8), "BP_T": bp_name, "SP": 1, "G": 1,
                     "R": 1, "LAT_GLOBAL": 0})
    path_buf = rt.empty(int(total) * 4)
    logp_buf = rt.empty(k * item)
    wg = 64
    knl(rt.queue, (math.ceil(k / wg) * wg,), (wg,), state, bufs["lens"], bufs["offs"], bp,
        bufs["bp_off"], np.uint32(k), np.uint32(ns), path_buf, logp_buf)
    path = np.empty(int(total), dtype=np.int32)
    logp = np.empty(k, dtype=dm.dtype)
    cl.enqueue_copy(rt.queue, path, path_buf)
    cl.enqueue_copy(rt.queue, logp, logp_buf)
    bounds = np.concatenate([[0], np.cumsum(lens)])
    paths = [path[bounds[i]:bounds[i + 1]].astype(np.int64) for i in range(k)]
    return logp.astype(np.float64), paths


# -- the product chain ------------------------------------------------------------------------
def chain_bytes(n: int, ns: int, itemsize: int) -> int:
    """Device memory the chain needs for one sequence of length n: the leaves and the first
    level of products (values), and every level's index matrices (int32)."""
    leaves = max(n - 1, 0) * ns * ns
    return int(leaves * itemsize * 1.5 + leaves * 4)


def decode_chain(dm: DeviceModel, seqs: list[np.ndarray], progress: Progress | None = None
                 ) -> tuple[np.ndarray, list[np.ndarray]]:
    """Viterbi by the tropical product chain for every sequence; see the module notes."""
    ns, item = dm.n_states, dm.dtype.itemsize
    logp = np.empty(len(seqs), dtype=np.float64)
    paths: list[np.ndarray] = [None] * len(seqs)  # type: ignore[list-item]
    longer = []
    for i, s in enumerate(seqs):
        if len(s) == 1:  # no step matrix: the first lattice row is the answer
            row = dm.log_start + dm.log_emit_t[s[0]]
            best = int(np.argmax(row))
            logp[i], paths[i] = float(row[best]), np.array([best], dtype=np.int64)
        else:
            longer.append(i)
    costs = np.array([chain_bytes(len(seqs[i]), ns, item) for i in longer], dtype=np.int64)
    limit = min(dm.rt.max_alloc, dm.rt.memory_budget(0.4))
    if longer:
        for group in _memory_groups(costs, limit, "Viterbi product chain"):
            ids = [longer[g] for g in group]
            g_logp, g_paths = _chain_group(dm, [seqs[i] for i in ids], progress)
            for i, lp, p in zip(ids, g_logp, g_paths, strict=True):
                logp[i], paths[i] = lp, p
    return logp, paths


@dataclass
class _Level:
    """The split records of one tree level (positions into the packed path)."""

    left: np.ndarray
    right: np.ndarray
    mid: np.ndarray
    ioff: np.ndarray
    index: cl.Buffer


def _chain_group(dm, seqs, progress):
    rt, ns, item = dm.rt, dm.n_states, dm.dtype.itemsize
    eng = engine(rt)
    obs, offs, lens = _pack(seqs)
    k = len(seqs)
    # leaves: (sequence, t) for t = 1 .. n-1, sequence-major
    node_seq = np.repeat(np.arange(k, dtype=np.int64), lens - 1)
    starts = np.concatenate([[0], np.cumsum(lens - 1)[:-1]])
    leaf_t = (np.arange(node_seq.size) - starts[node_seq] + 1).astype(np.int64)
    values = _leaves(dm, obs, offs, node_seq, leaf_t)
    node_a, node_b = leaf_t.copy(), leaf_t.copy()
    levels: list[_Level] = []
    depth, total_depth = 0, max(1, math.ceil(math.log2(max(int(lens.max()) - 1, 1))))
    while node_seq.size > k:
        values, node_seq, node_a, node_b, level = _reduce_level(
            dm, eng, values, node_seq, node_a, node_b, offs)
        levels.append(level)
        depth += 1
        if progress is not None:
            rt.queue.finish()
            progress.report("viterbi chain", min(depth, total_depth), total_depth)
    # node i is now sequence i's root, covering steps 1 .. n-1
    lat0 = dm.log_start[None, :] + dm.log_emit_t[obs[offs.astype(np.int64)]]
    lat0_buf = rt.to_device(np.ascontiguousarray(lat0, dtype=dm.dtype))
    v_buf, i_buf = rt.empty(k * ns * item), rt.empty(k * ns * 4)
    fin = np.zeros((k, 4), dtype=np.uint64)
    fin[:, 0] = fin[:, 2] = np.arange(k, dtype=np.uint64) * np.uint64(ns)
    fin[:, 1] = np.arange(k, dtype=np.uint64) * np.uint64(ns * ns)
    eng.mm(lat0_buf, values, v_buf, fin, 1, ns, ns, ns, ns, ns, itemsize=item, maxplus=True,
           idx=i_buf, tie_last=True)
    v, vi = np.empty((k, ns), dtype=dm.dtype), np.empty((k, ns), dtype=np.int32)
    cl.enqueue_copy(rt.queue, v, v_buf)
    cl.enqueue_copy(rt.queue, vi, i_buf)
    end = np.argmax(v, axis=1)  # first maximum, as std::max_element
    path = np.zeros(obs.size, dtype=np.int32)
    last = offs.astype(np.int64) + lens - 1
    path[last] = end
    path[offs.astype(np.int64)] = vi[np.arange(k), end]
    path_buf = cl.Buffer(rt.context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                         hostbuf=path)
    _fill_splits(dm, levels, path_buf)
    cl.enqueue_copy(rt.queue, path, path_buf)
    bounds = np.concatenate([[0], np.cumsum(lens)])
    logp = v[np.arange(k), end].astype(np.float64)
    return logp, [path[bounds[i]:bounds[i + 1]].astype(np.int64) for i in range(k)]


def _leaves(dm, obs, offs, node_seq, leaf_t) -> cl.Buffer:
    rt, ns, item = dm.rt, dm.n_states, dm.dtype.itemsize
    count = node_seq.size
    knl = rt.kernel("tropical_viterbi.cl", "viterbi_leaves", _plain_defines(item))
    out = rt.empty(count * ns * ns * item)
    total = count * ns * ns
    wg = 256
    knl(rt.queue, (math.ceil(total / wg) * wg,), (wg,), dm.t_buf, dm.e_buf, rt.to_device(obs),
        rt.to_device(offs), rt.to_device(node_seq.astype(np.uint32)),
        rt.to_device(leaf_t.astype(np.uint32)), np.uint64(count), np.uint32(ns), out)
    return out


def _plain_defines(item: int) -> dict:
    return {"REAL_IS_DOUBLE": int(item == 8), "BP_T": "uchar", "SP": 1, "G": 1, "R": 1,
            "LAT_GLOBAL": 0}


def _reduce_level(dm, eng, values, node_seq, node_a, node_b, offs):
    """Multiply adjacent nodes of each sequence pairwise; an odd last node is carried."""
    rt, ns, item = dm.rt, dm.n_states, dm.dtype.itemsize
    ll = ns * ns
    count = node_seq.size
    first = np.searchsorted(node_seq, node_seq, side="left")
    per_seq = np.bincount(node_seq, minlength=int(node_seq.max()) + 1)
    rank = np.arange(count) - first
    has_next = rank + 1 < per_seq[node_seq]
    left = np.flatnonzero((rank % 2 == 0) & has_next)
    carry = np.flatnonzero((rank % 2 == 0) & ~has_next)
    new_first = np.concatenate([[0], np.cumsum((per_seq + 1) // 2)[:-1]])
    new_count = int(((per_seq + 1) // 2).sum())
    pos_left = new_first[node_seq[left]] + rank[left] // 2
    pos_carry = new_first[node_seq[carry]] + rank[carry] // 2
    out = rt.empty(new_count * ll * item)
    index = rt.empty(new_count * ll * 4)
    prod = np.zeros((left.size, 4), dtype=np.uint64)
    prod[:, 0] = left.astype(np.uint64) * np.uint64(ll)
    prod[:, 1] = (left + 1).astype(np.uint64) * np.uint64(ll)
    prod[:, 2] = pos_left.astype(np.uint64) * np.uint64(ll)
    eng.mm(values, values, out, prod, ns, ns, ns, ns, ns, ns, itemsize=item, maxplus=True,
           idx=index, tie_last=True)
    if carry.size:
        knl = rt.kernel("tropical_viterbi.cl", "copy_blocks", _plain_defines(item))
        total = carry.size * ll
        knl(rt.queue, (math.ceil(total / 256) * 256,), (256,), values, out,
            rt.to_device(carry.astype(np.uint64)), rt.to_device(pos_carry.astype(np.uint64)),
            np.uint64(carry.size), np.uint32(ll))
    base = offs.astype(np.int64)[node_seq[left]]
    level = _Level(left=base + node_a[left] - 1, right=base + node_b[left + 1],
                   mid=base + node_b[left], ioff=pos_left.astype(np.int64) * ll, index=index)
    new_seq = np.empty(new_count, dtype=np.int64)
    new_a, new_b = np.empty(new_count, np.int64), np.empty(new_count, np.int64)
    new_seq[pos_left], new_a[pos_left], new_b[pos_left] = (node_seq[left], node_a[left],
                                                           node_b[left + 1])
    new_seq[pos_carry], new_a[pos_carry], new_b[pos_carry] = (node_seq[carry], node_a[carry],
                                                              node_b[carry])
    values.release()
    return out, new_seq, new_a, new_b, level


def _fill_splits(dm, levels: list[_Level], path_buf: cl.Buffer) -> None:
    """Top-down: each level's split states from its index matrices and the known ends."""
    rt, ns = dm.rt, dm.n_states
    knl = rt.kernel("tropical_viterbi.cl", "viterbi_split", _plain_defines(dm.dtype.itemsize))
    for level in reversed(levels):
        nodes = level.left.size
        if nodes == 0:
            continue
        args = [rt.to_device(x.astype(np.uint64)) for x in (level.left, level.right, level.mid,
                                                             level.ioff)]
        knl(rt.queue, (math.ceil(nodes / 64) * 64,), (64,), path_buf, *args, level.index,
            np.uint32(nodes), np.uint32(ns))
        level.index.release()
