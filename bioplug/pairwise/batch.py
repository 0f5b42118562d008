"""What the pairwise engine's stages share: a batch's plan and device buffers, launches in
flight, and the host-side helpers that pack sequences, make task tables and read paths back.

:mod:`bioplug.pairwise.engine` plans and launches; its stages (:mod:`.windowed`,
:mod:`.long_pairs`, :mod:`.packed16`) pass these between them. Nothing here imports the
engine, so every stage can import this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pyopencl as cl

from bioplug.errors import InputError
from bioplug.runtime import Runtime

#: Each sequence starts at a multiple of this many residues in the batch buffer (the 16-bit
#: kernel's strip profiles are indexed by offset / rows); padding has the code PAD_CODE.
PAD = 64
PAD_CODE = 255
#: Up to this many sequences (or ones of 32 residues on average or more) are packed a slice
#: each (:func:`_pack_sequences`); more, shorter ones by one scatter of every residue.
PACK_LOOP = 20000


@dataclass
class _Walk:
    """Device buffers the traceback of local alignments reads to keep its running score."""

    tasks: cl.Buffer
    first: int
    seqs: cl.Buffer
    matrix: cl.Buffer
    gaps: cl.Buffer
    running: cl.Buffer
    scores: cl.Buffer


@dataclass
class _Batch:
    """What every launch of a batch on one device shares: uploaded once per device."""

    seqs: cl.Buffer
    matrix: cl.Buffer
    gaps: cl.Buffer
    task_buf: cl.Buffer
    base_buf: cl.Buffer
    tasks: np.ndarray
    ops_base: np.ndarray
    residues: int = 0  # length of the padded sequence buffer
    # device buffers built on first use and shared by copies of this batch (strip profiles)
    cache: dict = field(default_factory=dict)
    # traced windows of rectangles: each pair's end cell relative to its rectangle, given
    # on the device (copied per window there)
    ends_buf: cl.Buffer | None = None


@dataclass
class _Table:
    """Every window of a batch in launch order: tasks and packed-path offsets (traced),
    uploaded once per device."""

    tasks: np.ndarray
    ops_base: np.ndarray


@dataclass
class _Plan:
    """A batch's pairs as the kernels see them (oriented) and its jobs.

    A lazy plan (``offsets`` set, :meth:`PairwiseEngine._orient` with ``lazy``) has the
    oriented lengths and ``swapped`` only: ``ia``, ``ib`` are the pairs as given and
    ``off_a``, ``off_b`` None; :func:`_oriented` orients any subset of its pairs.
    """

    ia: np.ndarray
    ib: np.ndarray
    la: np.ndarray
    lb: np.ndarray
    off_a: np.ndarray
    off_b: np.ndarray
    cells: np.ndarray
    flat: np.ndarray
    swapped: np.ndarray
    is_long: np.ndarray
    jobs: list
    costs: list
    widest: int
    offsets: np.ndarray | None = None  # lazy plans: each sequence's offset in ``flat``


@dataclass
class _Rect:
    """Per pair (oriented as the kernels see it): the traced rectangle's corner and size in
    the matrix, and the path's end cell relative to the corner ((0, 0): no alignment)."""

    origin: np.ndarray
    size: np.ndarray
    ends: np.ndarray


@dataclass
class _Paths:
    """The paths of one launch: operations (reversed), per-pair offsets, counts and ends."""

    ops: np.ndarray
    base: np.ndarray
    counts: np.ndarray
    ends: np.ndarray


class _Pending:
    """A launch in flight: host arrays that non-blocking reads fill, and how to finish."""

    def __init__(self, events, finish):
        self.events = events
        self.finish = finish

    def result(self):
        if self.events:
            cl.wait_for_events(self.events)
        return self.finish()


def _done(values, paths=None) -> _Pending:
    return _Pending([], lambda: (values, paths))


def _pack_sequences(seqs, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All sequences in one buffer, each starting at a multiple of :data:`PAD` residues
    (gaps filled with :data:`PAD_CODE`); returns the buffer and the start offsets."""
    lengths = lengths.astype(np.int64)
    padded = -(-lengths // PAD) * PAD
    offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
    np.cumsum(padded, out=offsets[1:])
    if offsets[-1] >= 2**31:
        raise InputError("more than 2^31 residues in one batch; split the input")
    flat = np.full(int(offsets[-1]), PAD_CODE, dtype=np.uint8)
    if len(seqs) <= PACK_LOOP or lengths.sum() >= 32 * len(seqs):
        # a slice a sequence: no per-residue index arrays (2,000 proteins: 0.4 ms against
        # 4-30 ms for the gathers below, the larger figure with fresh pages)
        for s, start in zip(seqs, offsets[:-1].tolist(), strict=False):
            flat[start: start + len(s)] = s
    elif lengths.sum():
        data = np.concatenate([np.asarray(s, dtype=np.uint8) for s in seqs])
        # position k of sequence q goes to offsets[q] + k
        shift = np.repeat(offsets[:-1] - np.concatenate([[0], np.cumsum(lengths)[:-1]]),
                          lengths)
        flat[np.arange(data.size) + shift] = data
    return flat, offsets


def _gather_pairs(xy: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Rows ``order`` of an (n, 2) array as int32, each (x, y) moved as one int64 (numpy's
    two-dimensional gathers are several times slower)."""
    pairs = np.ascontiguousarray(xy, np.int32).view(np.int64)[:, 0]
    return pairs[order].view(np.int32).reshape(-1, 2)


def _oriented(plan: _Plan, idx: np.ndarray) -> tuple[np.ndarray, ...]:
    """``(ia, ib, off_a, off_b)`` of the pairs ``idx`` of ``plan``, oriented."""
    if plan.offsets is None:
        return plan.ia[idx], plan.ib[idx], plan.off_a[idx], plan.off_b[idx]
    a, b, swapped = plan.ia[idx], plan.ib[idx], plan.swapped[idx]
    a, b = np.where(swapped, b, a), np.where(swapped, a, b)
    return a, b, plan.offsets[a], plan.offsets[b]


def _task_table(plan: _Plan, order: np.ndarray) -> np.ndarray:
    """Tasks ``(offset of A, nA, offset of B, nB)`` of the pairs ``order`` of ``plan``, as
    the fill kernels read them."""
    tasks = np.empty((order.size, 4), dtype=np.int32)
    _, _, tasks[:, 0], tasks[:, 2] = _oriented(plan, order)
    tasks[:, 1], tasks[:, 3] = plan.la[order], plan.lb[order]
    return tasks


def _subplan(plan: _Plan, idx: np.ndarray) -> _Plan:
    """The pairs ``idx`` of ``plan`` (lazy or not), oriented and packed as there (no jobs)."""
    ia, ib, off_a, off_b = _oriented(plan, idx)
    return replace(plan, ia=ia, ib=ib, la=plan.la[idx], lb=plan.lb[idx], off_a=off_a,
                   off_b=off_b, swapped=plan.swapped[idx], cells=None, is_long=None, jobs=[],
                   costs=[], widest=1, offsets=None)


def size_order(pairs: np.ndarray | None, rows: np.ndarray, cols: np.ndarray | None,
               blocks: bool = False) -> np.ndarray:
    """``pairs`` (None: ``0..len(rows) - 1``) sorted by ``rows``, then ``cols`` (None: rows
    only), largest first; stable.

    Already so ordered: kept. With ``blocks``, pairs ordered by rows alone are kept too:
    the caller vouches that each block of one target is ordered by columns (as score_all
    makes them). Else two stable passes on 16-bit keys (NumPy radix-sorts them): columns,
    then rows. Pairs sorted by rows alone are not kept without ``blocks``: a warp then
    runs as many columns as its longest query (the windowed ends pass on 2,000 proteins
    of 50-1,000 aa: 78% more lockstep steps, 0.324 -> 0.400 s on an H100).
    """
    if np.all(rows[:-1] >= rows[1:]) and (blocks or cols is None or _cols_sorted(rows, cols)):
        return np.arange(len(rows)) if pairs is None else pairs
    wide = int(rows.max()) >= 2**16 or (cols is not None and int(cols.max()) >= 2**16)
    if wide:
        key = rows.astype(np.int64)
        if cols is not None:
            key = key * (int(cols.max()) + 1) + cols
        by = np.argsort(-key, kind="stable")
    elif cols is None:
        key = rows.astype(np.uint16)  # top - rows in place: no wider temporary
        by = np.argsort(np.subtract(np.uint16(rows.max()), key, out=key), kind="stable")
    else:
        by = np.argsort((int(cols.max()) - cols).astype(np.uint16), kind="stable")
        by = by[np.argsort((int(rows.max()) - rows[by]).astype(np.uint16), kind="stable")]
    return by if pairs is None else pairs[by]


def _cols_sorted(rows: np.ndarray, cols: np.ndarray) -> bool:
    """Whether ``cols`` never rises between neighbours of equal ``rows``."""
    same = rows[:-1] == rows[1:]
    return bool(np.all(cols[:-1][same] >= cols[1:][same]))


def _check_nonempty(seqs) -> None:
    for k, s in enumerate(seqs):
        if len(s) == 0:
            raise InputError(f"sequence {k + 1} is empty: alignment needs at least one residue")


def _read_paths(rt: Runtime, done: cl.Event, out: np.ndarray, scores: cl.Buffer,
                ends_buf: cl.Buffer, state_buf: cl.Buffer, ops_buf: cl.Buffer,
                base: np.ndarray, stage: np.ndarray | None = None) -> _Pending:
    """Scores and packed paths of ``n = len(out)`` traced pairs, read back on the copy queue
    once ``done`` (the traceback) has run; through ``stage`` (pinned bytes,
    :meth:`PairwiseEngine._pinned`) when given, copied out when the reads are done."""
    rt.queue.flush()
    n, size = len(out), int(base[-1])
    if stage is None:
        host = [out, np.empty((n, 2), np.int32), np.empty((n, 4), np.int32),
                np.empty(size, np.uint8)]
    else:
        host = [stage[:4 * n].view(np.int32), stage[4 * n: 12 * n].view(np.int32),
                stage[12 * n: 28 * n].view(np.int32), stage[28 * n: 28 * n + size]]
    events = [cl.enqueue_copy(rt.copy_queue, h, buf, is_blocking=False, wait_for=[done])
              for h, buf in zip(host, (scores, ends_buf, state_buf, ops_buf), strict=True)]
    rt.copy_queue.flush()

    def finish():
        values, ends, states, ops = host
        if stage is not None:
            ends, ops = ends.reshape(n, 2).copy(), ops.copy()
            states = states.reshape(n, 4)
        return values.astype(np.int64), _Paths(ops, base[:-1], states[:, 3].copy(), ends)

    return _Pending(events, finish)
