"""The database scan: exact local scores of queries against many subjects on one device.

:class:`Scanner` drives the query-profile kernels of ``kernels/pairwise_search.cl`` (packed
16-bit ``search16``, a work-item per pair; ``search16_long``, a work-group per pair of more
than :data:`LONG_PAIR_CELLS` cells) and ``kernels/pairwise_search8.cl`` (the optional 8-bit
first pass), with exact 32-bit rescue of saturated pairs by
:class:`~bioplug.pairwise.engine.PairwiseEngine`. :func:`scan_devices` shares a database's
chunks between several devices. :func:`bioplug.pairwise.search.search` is the front door;
:mod:`bioplug.pairwise.allpairs` uses the same kernels for all-vs-all scores.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyopencl as cl
from pyopencl import cltypes

from bioplug.alphabet import Scoring
from bioplug.errors import InputError
from bioplug.pairwise.database import Database
from bioplug.pairwise.engine import PairwiseEngine
from bioplug.pairwise.packed16 import LIMIT16
from bioplug.progress import Progress
from bioplug.runtime import PooledRuntime, Runtime
from bioplug.runtime.schedule import run_lpt

log = logging.getLogger(__name__)

#: A (query, subject) pair of more cells is scored by ``search16_long`` (a work-group per
#: pair, every long pair of a chunk in one launch) instead of by one work-item: a work-item
#: shares its compute unit with the others resident there, so one carrying a pair this large
#: would still run when the rest of the launch has finished.
LONG_PAIR_CELLS = 1 << 24
#: Rows per strip of the scan kernels and work-group sizes (GPU, CPU).
SCAN_ROWS = {"gpu": 64, "cpu": 16}
SCAN_GROUP = {"gpu": 128, "cpu": 16}
LONG_GROUP = {"gpu": 64, "cpu": 8}
#: Rows per strip of ``search8`` (2 x rows registers of row state per work-item).
SCAN8_ROWS = {"gpu": 32, "cpu": 16}
#: ``Scanner`` precision when none is given. "auto" (the 8-bit first pass where the scoring
#: leaves it a useful range) is to become the default once it is measured faster on the H100
#: (benchmarks/RESULTS.md, "8-bit first pass"); until then the 16-bit scan stays the default.
DEFAULT_PRECISION = "16"
#: ``search16`` keeps F offset by up to (R / 2) |eB| (FHAT); offsets up to this leave the
#: 16-bit values within range (they stay below 16,000 + 4,096 + a substitution score).
FHAT_HEADROOM = 4096
PRECISIONS = ("auto", "8", "16")
#: "auto" takes the 8-bit pass only when its ceiling (:meth:`Scanner.limit8`) is at least
#: this: below it most related pairs saturate and are scored twice.
AUTO_MIN_LIMIT8 = 64


class Scanner:
    """The query-profile scan on one device (``kernels/pairwise_search.cl``,
    ``kernels/pairwise_search8.cl``).

    Parameters
    ----------
    rt : Runtime
        The device.
    scoring : Scoring
        A local scoring scheme whose substitution scores fit a signed byte.
    precision : {"auto", "8", "16"}, optional
        The first pass over the short pairs (default :data:`DEFAULT_PRECISION`). "16": the
        packed 16-bit ``search16``. "8": the 8-bit ``search8`` (four pairs per 32-bit word)
        whenever the scheme allows it (H-form cell, gap costs and biased scores within a
        byte), pairs whose 8-bit best reaches :attr:`limit8` rescored by the 16-bit scan.
        "auto": "8" when :attr:`limit8` is at least :data:`AUTO_MIN_LIMIT8`, else "16".
        Long pairs always run on ``search16_long``; 16-bit bests at ``LIMIT16`` always go to
        the 32-bit kernels, so every precision gives the same exact scores.
    """

    def __init__(self, rt: Runtime, scoring: Scoring, precision: str | None = None):
        if not scoring.local:
            raise InputError("the scan computes local alignments only")
        precision = DEFAULT_PRECISION if precision is None else str(precision)
        if precision not in PRECISIONS:
            raise InputError(f"precision must be one of {', '.join(PRECISIONS)}, "
                             f"not {precision!r}")
        # buffers made per chunk are pooled: releasing them would stall other devices'
        # threads (PooledRuntime); the engine (32-bit rescue, traceback) is rarely called
        self.rt = PooledRuntime(rt)
        self.scoring = scoring
        self.precision = precision
        self.engine = PairwiseEngine(scoring, devices=[rt])
        kind = "gpu" if rt.is_gpu else "cpu"
        #: Rows per strip and work-group sizes; tests force other values.
        self.rows = SCAN_ROWS[kind]
        self.rows8 = SCAN8_ROWS[kind]
        self.group = SCAN_GROUP[kind]
        self.long_group = LONG_GROUP[kind]
        self.memory_fraction = 0.4
        #: A (query, subject) pair of more cells goes to ``search16_long``.
        self.long_cells = LONG_PAIR_CELLS
        #: Seconds per stage: kernels from OpenCL profiling events (read once a launch has
        #: finished, so collecting them never waits), the 32-bit rescue, the database
        #: upload and the top-hit selection as wall time.
        self.timings: dict[str, float] = {}
        #: Pairs sent to a wider pass: "16-bit rescue" (8-bit saturated), "32-bit rescue".
        self.counts: dict[str, int] = {}
        fits = int(np.abs(scoring.matrix).max(initial=0)) <= 127
        self.packed = fits and int(np.abs(scoring.gaps).max()) < 1000
        g = [int(v) for v in scoring.gaps]
        # The H-form cell equals fill16's three-state cell when opening a gap never scores
        # above extending one (pairwise_search.cl says why); otherwise keep fill16's cell.
        self.hform = g[0] <= g[1] and g[2] <= g[3]
        #: search8's inline PTX (vadd4 / vsub4 / vmax4, prmt) on NVIDIA sm_90; False runs
        #: the OpenCL uchar4 built-ins there too (the sweep compares them).
        self.ptx8 = rt.supports_ptx_s16x2

    def start(self) -> None:
        """Start the device (its context, :meth:`Runtime.start`): each scanner's thread of
        :func:`~bioplug.runtime.run_lpt` does, before it takes a piece of work."""
        self.rt.start()

    @property
    def bias8(self) -> int:
        """Added to every substitution score in the 8-bit profile (scores become >= 0)."""
        return max(0, -int(self.scoring.matrix.min(initial=0)))

    @property
    def limit8(self) -> int:
        """An 8-bit best at this ceiling may have saturated; below it it is exact
        (``pairwise_search8.cl`` says why)."""
        return 255 - self.bias8

    def _costs8(self) -> np.ndarray | None:
        """Gap costs (oA, eA, oB, eB) for ``search8``, or None when they are not bytes."""
        costs = -np.asarray(self.scoring.gaps[:4], dtype=np.int64)
        return costs.astype(np.uint32) if np.all((costs >= 0) & (costs <= 255)) else None

    @property
    def eight(self) -> bool:
        """Whether this scan runs the 8-bit first pass (see ``precision``)."""
        if self.precision == "16" or not (self.packed and self.hform):
            return False
        if self._costs8() is None:
            return False
        return self.limit8 >= (AUTO_MIN_LIMIT8 if self.precision == "auto" else 1)

    def _fill16_defines(self) -> dict:
        return {"LOCAL": 1, "PTX16": int(self.rt.supports_ptx_s16x2), "ROW_GAPS": 0,
                "R": self.rows}

    def _defines(self) -> dict:
        defines = {**self._fill16_defines(), "HFORM": int(self.hform), "LSTRIDE": self._lstride}
        o_b, e_b = (int(v) for v in self.scoring.gaps[2:4])
        if self.hform and self.rows // 2 * abs(e_b) <= FHAT_HEADROOM:
            # the F chain in the row-offset form, its gap scores built in
            # (pairwise_search.cl, FHAT): one operation a cell less
            defines.update(FHAT=1, FOB=o_b, FEB=e_b)
        return defines

    @property
    def _lstride(self) -> int:
        """uint4 words between two letters' profile entries in ``search16``'s local memory
        (``LSTRIDE``: one word more than an entry, which spreads the entries over the
        banks: 1.5 % faster on an H200)."""
        return self.rows // 16 + 1

    def _record(self, name: str, seconds: float) -> None:
        self.timings[name] = self.timings.get(name, 0.0) + seconds

    def _count(self, name: str, pairs: int) -> None:
        self.counts[name] = self.counts.get(name, 0) + int(pairs)

    def _record_event(self, name: str, event: cl.Event) -> None:
        self._record(name, 1e-9 * (event.profile.end - event.profile.start))

    def scan(self, qcodes: list[np.ndarray], db: Database, top: int,
             chunk_residues: int | None, progress: Progress) -> list[tuple]:
        """Top hits per query as (scaled scores, input numbers), best first."""
        return scan_devices([self], qcodes, db, top, chunk_residues, progress)

    def prepare(self, qcodes: list[np.ndarray]) -> tuple:
        """The queries' profiles on this device: (16-bit profile, table, 8-bit or None)."""
        profile, qtable = self._query_profiles(qcodes)
        eight = self.eight
        log.info("scan: %s-bit first pass (precision %r)", 8 if eight else 16, self.precision)
        return profile, qtable, self._query_profiles8(qcodes) if eight else None

    def chunk_top(self, qcodes: list[np.ndarray], db: Database, a: int, b: int, top: int,
                  prepared: tuple, counts=None) -> list[tuple]:
        """Each query's top hits among the database's sorted sequences ``a:b`` (one upload,
        the scan, the 32-bit rescue); every score also goes to ``counts`` (a
        :class:`~bioplug.pairwise.statistics.ScoreCounts`) when given."""
        profile, qtable, first8 = prepared
        lengths = np.diff(np.asarray(db.offsets[a:b + 1]))   # not db.lengths: all of them
        if self.packed:
            # a view of the memmap: the upload reads the pages, no second host copy
            codes = np.asarray(db.codes[db.offsets[a]:db.offsets[b]])
            began = time.perf_counter()
            dbuf = self.rt.upload(codes if codes.size else np.zeros(1, np.uint8))
            self._record("upload (host wall)", time.perf_counter() - began)
            starts = db.offsets[a:b] - db.offsets[a]
            if first8 is not None:
                scores, launch = self._scan_chunk8(dbuf, starts, lengths, first8,
                                                   (profile, qtable))
            else:
                scores, launch = self._scan_chunk(dbuf, starts, lengths, profile, qtable)
            dbuf.release()
            # scores stay in launch order (a column permutation of 8 bytes x queries x
            # subjects cost a quarter of the H100's search); the numbers follow them
            rescue, columns = [], None
            if scores.max(initial=0) >= LIMIT16:  # rare; the scan over all pairs is not
                rows, columns = np.nonzero(scores >= LIMIT16)
                rescue = list(zip(rows, a + launch[columns], strict=True))
        else:  # scores beyond a byte: every pair on the 32-bit kernels
            scores = np.zeros((len(qcodes), b - a), dtype=np.int64)
            launch = np.arange(b - a)
            rescue = [(q, s) for s in range(a, b) for q in range(len(qcodes))]
            columns = np.array([s - a for _, s in rescue], dtype=np.int64)
        if rescue:
            began = time.perf_counter()
            self._rescore(qcodes, db, rescue, scores, columns)
            self._record("32-bit rescue", time.perf_counter() - began)
            self._count("32-bit rescue", len(rescue))
        numbers = db.order[a:b][launch]
        if counts is not None:
            counts.add(scores, lengths[launch], numbers)
        began = time.perf_counter()
        empty = (np.zeros(0, np.int64), np.zeros(0, np.int64))
        with ThreadPoolExecutor(max(1, min(8, os.cpu_count() or 1, len(qcodes)))) as pool:
            # numpy's partition and compress run outside Python's lock
            found = list(pool.map(lambda q: _merge_top(empty, scores[q], numbers, top),
                                  range(len(qcodes))))
        self._record("top hits (host wall)", time.perf_counter() - began)
        return found

    def score_triangle(self, codes: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """All-vs-all local scores with the scan kernels, in
        :meth:`PairwiseEngine.score_triangle`'s layout: ``(tri, rank)``, ``rank`` the
        sequences longest first and ``tri`` the pairs ``a <= b`` of ranks row by row.

        Every sequence is a query against all of them as the database (one query profile
        each, subjects in groups of similar length, as a search runs): query ``a`` scores
        launch positions ``b >= a`` only (``search16`` leaves the columns before a query's
        first position alone, and whole groups before it are not launched), long pairs go
        to ``search16_long`` and scores at ``LIMIT16`` to the 32-bit kernels, so the scores
        are the engine's exactly. The whole square of borders and scores must fit the
        device (one chunk); callers fall back to the engine otherwise.
        """
        n = len(codes)
        out = np.zeros((n, n), dtype=np.int32)
        rank, ranked, pending = self._scan_ranked(codes, out)
        if pending is not None:
            q_idx, pos, values = pending()
            out[q_idx, pos] = values
        return self.triangle_from_rows(out, ranked), rank

    def triangle_from_rows(self, out: np.ndarray, ranked: list[np.ndarray]) -> np.ndarray:
        """The packed triangle (pairs ``a <= b`` of ranks, row by row) of a scanned ``(n, n)``
        int32 block whose upper triangle is written, saturated pairs rescored (32 bits)."""
        iu = np.triu_indices(out.shape[0])
        tri = out[iu].astype(np.int64)
        wide = np.flatnonzero(tri >= LIMIT16)
        if wide.size:
            tri[wide] = self._exact(ranked, iu[0][wide], iu[1][wide])
            self._count("32-bit rescue", wide.size)
        return self.scoring.unscale(tri)

    def score_square(self, codes: Sequence[np.ndarray]) -> np.ndarray:
        """All-vs-all local scores as the symmetric ``(n, n)`` float64 square in input order
        (what ``PairwiseAligner.score_matrix`` returns): :meth:`score_triangle`'s kernels
        and scores, the triangle kept on the device and spread into the square there
        (``square_from_ranked``, ``kernels/pairwise_square.cl``). Needs a device with
        double precision (``Runtime.info.fp64``)."""
        block = self.rt.empty(len(codes) ** 2 * 4)
        rank, ranked, pending = self._scan_ranked(codes, block)
        return self.square_from_block(block, rank, ranked, pending)

    def square_from_block(self, block: cl.Buffer, rank: np.ndarray, ranked: list[np.ndarray],
                          pending=None) -> np.ndarray:
        """The input-order float64 square of a scanned ``(n, n)`` int32 block on this device
        (upper triangle written, in rank order; ``pending`` as :meth:`scan_rows` returns
        it), saturated pairs rescored (32 bits)."""
        rt, n = self.rt, len(ranked)
        where = np.empty(n, dtype=np.int32)
        where[rank] = np.arange(n, dtype=np.int32)
        square = np.empty((n, n), dtype=np.float64)
        if n:
            out = rt.empty(square.nbytes)
            knl = rt.kernel("pairwise_square.cl", "square_from_ranked")
            G = rt.preferred_group(knl, 256)
            knl(rt.queue, (-(-n * n // G) * G,), (G,), block, np.int32(n), rt.upload(where),
                np.float64(self.scoring.scale), out)
            cl.enqueue_copy(rt.queue, square, out)
        if pending is not None:
            q_idx, pos, values = pending()
            i, j = rank[q_idx], rank[pos]
            square[i, j] = square[j, i] = self.scoring.unscale(values)
        self._rescue_square(square, ranked, where)
        return square

    def _rescue_square(self, square: np.ndarray, ranked: list[np.ndarray],
                       where: np.ndarray) -> None:
        """Scores at ``LIMIT16`` in :meth:`score_square`'s square (the 16-bit kernels'
        ceiling) rescored by the 32-bit kernels, both mirror entries set. Scores are
        integers over the scale, so half a unit below the ceiling separates them."""
        wide = square >= (LIMIT16 - 0.5) / self.scoring.scale
        if not wide.any():  # the common case, at a fifth of nonzero's cost
            return
        i, j = np.nonzero(wide)
        upper = i <= j
        if not upper.any():
            return
        i, j = i[upper], j[upper]
        a, b = np.minimum(where[i], where[j]), np.maximum(where[i], where[j])
        square[i, j] = square[j, i] = self.scoring.unscale(self._exact(ranked, a, b))
        self._count("32-bit rescue", i.size)

    def _scan_ranked(self, codes: Sequence[np.ndarray], out) -> tuple:
        """The scan of every pair ``a <= b`` of ranks (sequences longest first) into ``out``
        (an (n, n) int32 array, or a device buffer of it; entries below the diagonal not
        written): ``(rank, ranked codes, long-pair results or None)``, as
        :meth:`_launch_long` gives them."""
        rank, ranked, starts = ranked_codes(codes)
        return rank, ranked, self.scan_rows(ranked, starts, out, 0, len(ranked))

    def scan_rows(self, ranked: list[np.ndarray], starts: np.ndarray, out, first: int,
                  last: int):
        """Rows ``first .. last - 1`` of the all-vs-all scan of ``ranked`` (longest first,
        ``starts`` as :func:`ranked_codes` gives them): query ``a`` against ranks ``b >= a``
        into row ``a - first`` of ``out`` (an int32 array of ``last - first`` rows of
        ``len(ranked)``, or a device buffer of them). Returns the long pairs' results as
        :meth:`_launch_long` gives them (rows counted from ``first``), or None."""
        n = len(ranked)
        lengths = np.diff(starts)
        flat = np.concatenate(ranked) if n and starts[-1] else np.zeros(1, np.uint8)
        dbuf = self.rt.upload(flat)
        profile, qtable = self._query_profiles(ranked[first:last])
        launch, subj, skip = self._launch_order(starts[:-1], lengths, qtable[:, 1])
        # launch is the identity (already longest first, stable)
        long_table, table = qtable.copy(), qtable.copy()
        long_table[:, 3] = skip
        table[:, 3] = np.maximum(skip, np.arange(first, last))
        pending = self._launch_long(dbuf, subj, long_table, profile,
                                    self.rt.upload(long_table))
        self._launch_scan(dbuf, subj, table, profile, self.rt.upload(table), out)
        dbuf.release()
        return pending

    def default_chunk(self) -> int:
        """Residues per chunk: codes plus one border column per residue and query slot
        (4 bytes) must fit the memory budget with room for several query slots."""
        rt = self.rt
        budget = rt.memory_budget(self.memory_fraction)
        return int(max(1 << 16, min(rt.max_alloc // 4, budget // (1 + 4 * 8))))

    def _query_profiles(self, qcodes: list[np.ndarray]):
        """Every query's strip profile in one buffer (``build_profile16``), and per query
        (first uint4, length, strips, 0)."""
        rt, R = self.rt, self.rows
        K = len(self.scoring.letters)
        strips = np.array([-(-len(q) // R) for q in qcodes], dtype=np.int64)
        first = np.zeros(len(qcodes) + 1, dtype=np.int64)
        np.cumsum(strips, out=first[1:])
        padded = np.full(int(first[-1]) * R, 255, dtype=np.uint8)
        for q, codes in enumerate(qcodes):
            padded[first[q] * R: first[q] * R + len(codes)] = codes
        profile = rt.empty(max(1, int(first[-1]) * K * R))
        build = rt.kernel("pairwise_fill16.cl", "build_profile16", self._fill16_defines())
        group = rt.preferred_group(build, 256 if rt.is_gpu else 16)
        n = int(first[-1]) * K
        build(rt.queue, (max(1, -(-n // group)) * group,), (group,), rt.upload(padded),
              np.int32(first[-1]), rt.upload(self.scoring.matrix.ravel().astype(np.int32)),
              np.int32(K), profile)
        table = np.zeros((len(qcodes), 4), dtype=np.int32)
        table[:, 0] = first[:-1] * K * (R // 16)
        table[:, 1] = [len(q) for q in qcodes]
        table[:, 2] = strips
        return profile, table

    def _query_profiles8(self, qcodes: list[np.ndarray]):
        """Every query's biased 8-bit strip profile in one buffer (``build_profile8``: K + 1
        letters, the last one padding), and per query (first uint4, length, strips, 0)."""
        rt, R = self.rt, self.rows8
        K = len(self.scoring.letters)
        strips = np.array([-(-len(q) // R) for q in qcodes], dtype=np.int64)
        first = np.zeros(len(qcodes) + 1, dtype=np.int64)
        np.cumsum(strips, out=first[1:])
        padded = np.full(max(1, int(first[-1]) * R), 255, dtype=np.uint8)
        for q, codes in enumerate(qcodes):
            padded[first[q] * R: first[q] * R + len(codes)] = codes
        profile = rt.empty(max(1, int(first[-1]) * (K + 1) * R))
        build = rt.kernel("pairwise_search8.cl", "build_profile8", self._defines8())
        group = rt.preferred_group(build, 256 if rt.is_gpu else 16)
        n = int(first[-1]) * (K + 1)
        build(rt.queue, (max(1, -(-n // group)) * group,), (group,), rt.upload(padded),
              np.int32(first[-1]), rt.upload(self.scoring.matrix.ravel().astype(np.int32)),
              np.int32(K), np.int32(self.bias8), profile)
        table = np.zeros((len(qcodes), 4), dtype=np.int32)
        table[:, 0] = first[:-1] * (K + 1) * (R // 16)
        table[:, 1] = [len(q) for q in qcodes]
        table[:, 2] = strips
        return profile, table

    def _defines8(self) -> dict:
        return {"R8": self.rows8, "PTX8": int(bool(self.ptx8))}

    def _launch_order(self, starts: np.ndarray, lengths: np.ndarray, qlen: np.ndarray):
        """Subjects longest first: (launch permutation, (offset, length) rows, and per query
        the number of leading subjects whose pairs are long)."""
        if lengths.size and lengths.max() <= 0xFFFF:
            # 16-bit keys take numpy's radix sort: a sixth of the time of 64-bit ones
            launch = np.argsort((0xFFFF - lengths).astype(np.uint16), kind="stable")
        else:
            launch = np.argsort(-lengths, kind="stable")
        ls = lengths[launch].astype(np.int64)
        subj = np.stack([starts[launch], ls], axis=1).astype(np.int32)
        limit = self.long_cells // np.maximum(qlen.astype(np.int64), 1)
        skip = np.searchsorted(-ls, -limit, side="left")  # subjects longer than limit
        return launch, subj, skip

    def _scan_chunk8(self, dbuf, starts: np.ndarray, lengths: np.ndarray, first8: tuple,
                     first16: tuple) -> tuple[np.ndarray, np.ndarray]:
        """(queries, subjects) scores of one chunk from the 8-bit first pass, in launch order,
        and the launch order (as :meth:`_scan_chunk`).

        Long pairs go to ``search16_long`` as in :meth:`_scan_chunk`, the others to
        ``search8``; pairs whose 8-bit best reaches :attr:`limit8` are rescored by the 16-bit
        scan (:meth:`_scan_chunk`, on the saturated queries x subjects only), so the scores
        are 16-bit exact (the caller sends ``LIMIT16`` and above to the 32-bit kernels).
        """
        (profile8, qtable8), (profile16, qtable16) = first8, first16
        launch, subj, skip = self._launch_order(starts, lengths, qtable16[:, 1])
        table16, table8 = qtable16.copy(), qtable8.copy()
        table16[:, 3] = table8[:, 3] = skip
        out = np.zeros((len(qtable16), subj.shape[0]), dtype=np.int32)
        pending = self._launch_long(dbuf, subj, table16, profile16,
                                    self.rt.upload(table16))
        self._launch_scan8(dbuf, subj, table8, profile8, out)
        saturated = out >= self.limit8
        saturated[np.arange(subj.shape[0])[None, :] < skip[:, None]] = False  # long pairs
        if pending is not None:
            q_idx, pos, values = pending()
            out[q_idx, pos] = values
        if saturated.any():
            qs = np.flatnonzero(saturated.any(axis=1))
            ss = np.flatnonzero(saturated.any(axis=0))
            block = np.ix_(qs, ss)
            wide_launched, order = self._scan_chunk(dbuf, subj[ss, 0], subj[ss, 1], profile16,
                                                    qtable16[qs])
            wide = np.empty_like(wide_launched)
            wide[:, order] = wide_launched
            out[block] = np.where(saturated[block], wide, out[block])
            self._count("16-bit rescue", int(saturated.sum()))
            log.info("%d pairs saturated 8 bits: rescored on the 16-bit scan (%d x %d)",
                     int(saturated.sum()), qs.size, ss.size)
        return out, launch

    def _launch_scan8(self, dbuf, subj: np.ndarray, table: np.ndarray, profile,
                      out: np.ndarray) -> None:
        """``search8`` over every short pair (four a work-item, 4 G a group task); 8-bit bests
        into ``out`` (launch order)."""
        rt = self.rt
        knl = rt.kernel("pairwise_search8.cl", "search8", self._defines8())
        G = rt.preferred_group(knl, self.group)
        if subj.shape[0] == 0:
            return
        K = len(self.scoring.letters)
        costs = cltypes.make_uint4(*(int(c) for c in self._costs8()))
        head = (dbuf, rt.upload(subj), np.int32(subj.shape[0]), profile,
                rt.upload(table), np.int32(K), costs, np.int32(self.bias8))
        self._scan_slots(knl, G, 4 * G, subj, table, head, (K + 1) * self.rows8 // 16,
                         np.uint8, 8, "scan kernel 8-bit", out)

    def _scan_chunk(self, dbuf, starts: np.ndarray, lengths: np.ndarray, profile,
                    qtable: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(queries, subjects) 16-bit scores of one chunk in launch order, and the launch
        order (column t is the chunk's subject ``launch[t]``).

        Subjects are launched longest first. A pair of more than ``long_cells`` cells is
        long for its query alone: for query q those are the first ``skip[q]`` subjects of
        the launch order, which ``search16`` skips and ``search16_long`` scores, all long
        pairs of the chunk in one launch (a work-group each).
        """
        launch, subj, skip = self._launch_order(starts, lengths, qtable[:, 1])
        table = qtable.copy()
        table[:, 3] = skip
        out = np.zeros((len(qtable), subj.shape[0]), dtype=np.int32)
        qbuf = self.rt.upload(table)
        pending = self._launch_long(dbuf, subj, table, profile, qbuf)
        self._launch_scan(dbuf, subj, table, profile, qbuf, out)
        if pending is not None:
            q_idx, pos, values = pending()
            out[q_idx, pos] = values
        return out, launch

    def _launch_long(self, dbuf, subj: np.ndarray, table: np.ndarray, profile, qbuf):
        """Enqueue ``search16_long`` over every long pair; returns a function giving
        (queries, launch positions, scores) once done, or None without long pairs."""
        rt = self.rt
        skip = table[:, 3].astype(np.int64)
        m = int(skip.sum())
        if m == 0:
            return None
        q_idx = np.repeat(np.arange(skip.size), skip)
        pos = np.concatenate([np.arange(k) for k in skip])
        cost = subj[pos, 1].astype(np.int64) * table[q_idx, 1]
        heavy = np.argsort(-cost, kind="stable")  # heaviest first: the launch ends light
        q_idx, pos = q_idx[heavy], pos[heavy]
        tasks = np.zeros((m, 4), dtype=np.int32)
        tasks[:, :2] = subj[pos]
        tasks[:, 2] = q_idx
        base = np.zeros(m, dtype=np.int64)
        np.cumsum(subj[pos[:-1], 1].astype(np.int64) + 1, out=base[1:])
        work = rt.empty(int(base[-1] + subj[pos[-1], 1] + 1) * 4)
        scores = rt.upload(np.zeros(m, dtype=np.int32))
        knl = rt.kernel("pairwise_search.cl", "search16_long", self._defines())
        G = rt.preferred_group(knl, self.long_group)
        event = knl(rt.queue, (m * G,), (G,), dbuf, rt.upload(tasks), profile, qbuf,
                    np.int32(len(self.scoring.letters)), rt.upload(self.scoring.gaps), work,
                    rt.upload(base), scores)
        values = np.empty(m, dtype=np.int32)
        copy = cl.enqueue_copy(rt.queue, values, scores, is_blocking=False)
        log.info("%d long pairs on search16_long (%.3g cells)", m, float(cost.sum()))

        def finish():
            copy.wait()
            self._record_event("long-pair kernel", event)
            return q_idx, pos, values

        return finish

    def _launch_scan(self, dbuf, subj: np.ndarray, table: np.ndarray, profile, qbuf,
                     out: np.ndarray | cl.Buffer) -> None:
        """``search16`` over every short pair (one a work-item); scores into ``out`` (launch
        order)."""
        rt = self.rt
        knl = rt.kernel("pairwise_search.cl", "search16", self._defines())
        G = rt.preferred_group(knl, self.group)
        K = len(self.scoring.letters)
        head = (dbuf, rt.upload(subj), np.int32(subj.shape[0]), profile, qbuf, np.int32(K),
                rt.upload(self.scoring.gaps))
        self._scan_slots(knl, G, G, subj, table, head, K * self._lstride, np.int32, 4,
                         "scan kernel", out)

    def _scan_slots(self, knl, G: int, span: int, subj: np.ndarray, table: np.ndarray,
                    head: tuple, words: int, dtype, itemsize: int, name: str,
                    out: np.ndarray | cl.Buffer) -> None:
        """The launches of ``search16`` / ``search8``: subjects in groups of ``span`` (a group
        task), each group's border columns at its own base, query slots as the memory
        allows, each launch's tasks heaviest first. The kernel takes ``head`` then (border
        work, group bases, stride, tasks, scores, profile blocks in local memory, their
        number); ``itemsize`` bytes per border cell, ``words`` uint4 words per profile row
        block in local memory."""
        rt = self.rt
        n = subj.shape[0]
        ls = subj[:, 1].astype(np.int64)
        group_max = np.maximum.reduceat(ls, np.arange(0, n, span))
        work_base = np.zeros(group_max.size, dtype=np.int64)
        np.cumsum((group_max[:-1] + 1) * G, out=work_base[1:])
        stride = int(work_base[-1] + (group_max[-1] + 1) * G)
        qlen, skip = table[:, 1].astype(np.int64), table[:, 3].astype(np.int64)
        slots = self._query_slots(n, stride, len(table), itemsize=itemsize)
        SB = max(1, min(64, min(rt.local_mem // 4, 16384) // (words * 16)))
        d_base, work = rt.upload(work_base), rt.empty(slots * stride * itemsize)
        order = np.argsort(-qlen, kind="stable")
        for q0 in range(0, len(order), slots):
            sel = order[q0:q0 + slots]
            tasks = _group_tasks(sel, skip, qlen, ls, span)
            if not len(tasks):
                continue
            scores = rt.empty(len(sel) * n * np.dtype(dtype).itemsize)
            event = knl(rt.queue, (len(tasks) * G,), (G,), *head, work, d_base,
                        np.int64(stride), rt.upload(tasks), scores,
                        cl.LocalMemory(SB * words * 16), np.int32(SB))
            if isinstance(out, np.ndarray):
                part = np.empty((len(sel), n), dtype=dtype)
                cl.enqueue_copy(rt.queue, part, scores)
                out[sel] = part
            else:  # rows of a device block: the queries of a launch are consecutive there
                _check_consecutive(sel)
                cl.enqueue_copy(rt.queue, out, scores, byte_count=scores.size,
                                dst_offset=int(sel[0]) * n * np.dtype(dtype).itemsize)
                event.wait()
            self._record_event(name, event)

    def _query_slots(self, n: int, stride: int, nq: int, itemsize: int = 4) -> int:
        """Queries per launch: as many as the memory budget of the border columns allows.

        More queries per launch fill the device when a chunk has few subjects, and let the
        other queries' short pairs run beside each query's longest ones (the launch's tail).
        """
        rt = self.rt
        room = max(1, rt.memory_budget(self.memory_fraction) // max(1, stride * itemsize))
        room = min(room, max(1, rt.max_alloc // max(1, stride * itemsize)))
        return int(max(1, min(nq, room)))

    def _rescore(self, qcodes, db: Database, pairs: list[tuple[int, int]], scores,
                 columns: np.ndarray):
        """Exact 32-bit scores (the engine) for pairs given as (query, sorted position),
        written to ``scores[query, columns[i]]`` for pair i."""
        subjects = sorted({s for _, s in pairs})
        where = {s: len(qcodes) + k for k, s in enumerate(subjects)}
        seqs = list(qcodes) + [np.asarray(db.codes[db.offsets[s]:db.offsets[s + 1]])
                               for s in subjects]
        ia = np.array([q for q, _ in pairs], dtype=np.int64)
        ib = np.array([where[s] for _, s in pairs], dtype=np.int64)
        scores[np.array([q for q, _ in pairs]), columns] = self._exact(seqs, ia, ib)
        log.info("%d pairs scored by the 32-bit kernels", len(pairs))

    def _exact(self, seqs, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
        """Scaled scores of pairs ``(seqs[ia[k]], seqs[ib[k]])`` from the engine's 32-bit
        kernels (past the 16-bit band)."""
        self.engine.use_packed16 = False
        values = self.engine.score_indexed(seqs, ia, ib)
        return np.rint(values * self.scoring.scale).astype(np.int64)


def scan_devices(scanners: Sequence[Scanner], qcodes: list[np.ndarray], db: Database,
                 top: int, chunk_residues: int | None, progress: Progress,
                 counts=None) -> list[tuple]:
    """Top hits per query over the whole database, its chunks shared by the scanners' devices
    (one host thread each, largest chunk first, the next chunk to whichever is free).

    With several devices the chunks are cut to about a quarter of each device's share, so a
    faster device takes more of them. The merge keeps score descending, then database number
    ascending, so the hits do not depend on which device scanned what.
    """
    chunk = chunk_residues or min(s.default_chunk() for s in scanners)
    if len(scanners) > 1:
        chunk = min(chunk, max(1 << 16, -(-int(db.residues) // (4 * len(scanners)))))
    chunks = _chunks(db.offsets, chunk)
    prepared: dict[int, tuple] = {}
    best = [(np.zeros(0, np.int64), np.zeros(0, np.int64)) for _ in qcodes]
    lock, scanned = threading.Lock(), [0]
    total = float(db.residues) or 1.0
    progress.report("database search", 0, 100)

    def merge(i: int, found: list[tuple]) -> None:
        a, b = chunks[i]
        with lock:
            for q, (scores, numbers) in enumerate(found):
                best[q] = _merge_top(best[q], scores, numbers, top)
            scanned[0] += int(db.offsets[b] - db.offsets[a])
            progress.report("database search", int(100 * scanned[0] / total), 100)

    run_lpt(chunks, [float(db.offsets[b] - db.offsets[a]) for a, b in chunks], scanners,
            lambda s, ab: s.chunk_top(qcodes, db, ab[0], ab[1], top, prepared[id(s)], counts),
            merge,
            cancelled=lambda: progress.cancelled,
            start=lambda s: prepared.setdefault(id(s), s.prepare(qcodes)))
    return best


def ranked_codes(codes: Sequence[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """``(rank, ranked, starts)``: the sequences longest first (a stable order), their codes
    in that order and where each starts in their concatenation (``n + 1`` entries)."""
    n = len(codes)
    lengths = np.fromiter((len(c) for c in codes), dtype=np.int64, count=n)
    rank = np.argsort(-lengths, kind="stable")
    ranked = [np.asarray(codes[i], dtype=np.uint8) for i in rank]
    starts = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths[rank], out=starts[1:])
    return rank, ranked, starts


def _group_tasks(sel: np.ndarray, skip: np.ndarray, qlen: np.ndarray, ls: np.ndarray,
                 G: int) -> np.ndarray:
    """``search16``'s group tasks (subject group, query, slot, 0) for the queries ``sel``
    (slot k is ``sel[k]``), heaviest first.

    A group's cost is its longest scanned subject times the query length (its work-items
    walk the strips in lockstep); NVIDIA and PoCL start groups in launch order, so the
    heaviest start first and the launch ends on light ones. Query by query, groups in
    order, then a stable sort by cost (ties keep that order).
    """
    n = ls.size
    sel = np.asarray(sel, dtype=np.int64)
    first = skip[sel].astype(np.int64) // G  # groups wholly made of long pairs are left out
    count = np.maximum(-(-n // G) - first, 0)
    slot = np.repeat(np.arange(sel.size, dtype=np.int64), count)
    if not slot.size:
        return np.zeros((0, 4), dtype=np.int32)
    offset = np.zeros(sel.size, dtype=np.int64)
    np.cumsum(count[:-1], out=offset[1:])
    groups = first[slot] + np.arange(slot.size, dtype=np.int64) - offset[slot]
    q = sel[slot]
    head = np.maximum(groups * G, skip[q])  # the group's longest scanned subject
    cost = ls[np.minimum(head, n - 1)].astype(np.int64) * qlen[q]
    heavy = np.argsort(-cost, kind="stable")
    return np.ascontiguousarray(np.stack([groups, q, slot, np.zeros_like(q)], axis=1)[heavy],
                                dtype=np.int32)


def _check_consecutive(sel: np.ndarray) -> None:
    """A launch writing rows of a device block takes queries ``k, k + 1, ...`` (the ranked
    triangle's are: longest first is the launch order)."""
    if sel.size and not np.array_equal(sel, np.arange(sel[0], sel[0] + sel.size)):
        raise AssertionError("scan launch with queries out of order for a device block")


def _chunks(offsets: np.ndarray, chunk: int) -> list[tuple[int, int]]:
    """Ranges of sorted sequences of at most ``chunk`` residues (at least one sequence)."""
    out, a, n = [], 0, offsets.size - 1
    while a < n:
        b = int(np.searchsorted(offsets, offsets[a] + chunk, side="right")) - 1
        b = min(n, max(b, a + 1))
        out.append((a, b))
        a = b
    return out


def _merge_top(current: tuple, scores: np.ndarray, numbers: np.ndarray, top: int) -> tuple:
    """The ``top`` best of the current hits and a chunk's (positive scores only), ordered by
    score descending, then database number ascending."""
    cut = 1
    if scores.size > top:  # every score tied with the top-th stays a candidate
        cut = max(cut, int(np.partition(scores, -top)[-top]))
    keep = np.flatnonzero(scores >= cut)   # indices: a boolean mask of the row cost 4x more
    s = np.concatenate([current[0], scores[keep]])
    k = np.concatenate([current[1], numbers[keep]])
    order = np.lexsort((k, -s))[:top]
    return s[order], k[order]
