"""The packed 16-bit fill (``kernels/pairwise_fill16.cl``): two DP cells per operation.

Score-only windows run it whenever :func:`fits_16bit` proves every value fits, and so does
the windowed traceback's ends pass (``ENDS``: the 32-bit pass's end cells, :mod:`.windowed`);
``PairwiseEngine.use_packed16 = False`` forces the 32-bit kernels. :class:`Packed16Fill`
holds the engine's launches of it.
"""

from __future__ import annotations

import numpy as np
import pyopencl as cl

from bioplug.alphabet import MAXK, Scoring
from bioplug.pairwise.batch import PAD, _Batch, _Pending
from bioplug.runtime import Runtime

#: Work-group size and rows per strip (16, 32 or 64) of the packed 16-bit kernel.
PACKED16_GROUP = {"gpu": 128, "cpu": 16}
PACKED16_ROWS = {"gpu": 64, "cpu": 16}
#: Rows per strip (16, 32 or 64) of the 16-bit reverse pass (``fill_reverse16``): its lanes
#: are pruned each on its own, so shorter strips follow the live region more closely, with
#: fewer registers. H100, 2,000 proteins of 50-1,000 aa all-vs-all (benchmarks/_scratch/
#: ends16c.py): 0.094 s at 32 rows against 0.107 s at 64, the same corners.
REVERSE16_ROWS = {"gpu": 32, "cpu": 16}

#: The band every 16-bit DP value (plus one score step) must stay inside: clear of the
#: "minus infinity" -16384 of pairwise_fill16.cl and of the 16-bit range.
LIMIT16 = 16000


def fits_16bit(scoring: Scoring, max_a: int, max_b: int) -> bool:
    """Whether ``pairwise_fill16.cl`` is exact for pairs up to ``max_a`` x ``max_b``.

    Substitution scores must fit a signed byte (the strip profile). Every DP value is the
    score of a best path into its cell, so it lies between the score of one particular path
    (diagonal steps at the worst substitution, then a straight gap, opened at most twice) and
    the best substitution times the diagonal. Padding rows of the last strip and the extra
    column of the skewed sweep score 0 per substitution, so their H never falls below the
    real H up and to the left, and their other values at most two gap scores below that.
    Both ends, plus one more score step, must stay inside +-16000, clear of the "minus
    infinity" -16384 and of the 16-bit range: no operation can then wrap around.
    """
    m = scoring.matrix
    if m.size == 0 or int(np.abs(m).max()) > 127:
        return False
    g = scoring.gaps.astype(np.int64)
    rows, cols = max_a + PAD, max_b + 1
    short = min(rows, cols)
    s_hi, s_lo = max(int(m.max()), 0), min(int(m.min()), 0)
    g_hi, g_lo = max(int(g.max()), 0), min(int(g.min()), 0)
    open_lo, extend_lo = min(int(g[0::2].min()), 0), min(int(g[1::2].min()), 0)
    step = max(128, g_hi, -g_lo)
    upper = s_hi * short + g_hi * (rows + cols)
    lower = s_lo * short + 2 * open_lo + extend_lo * (rows + cols) + 2 * g_lo
    return upper + step < LIMIT16 and lower - step > -LIMIT16


class Packed16Fill:
    """The 16-bit launches of :class:`~bioplug.pairwise.engine.PairwiseEngine` (one of its
    bases): whether a window takes them, the score-only window, and the kernel's launch
    shared with the windowed ends pass. They use the engine's ``scoring``, ``_scratch`` and
    ``_launch``."""

    def _packed16(self, rt: Runtime, batch: _Batch, max_a: int, max_b: int) -> bool:
        """Whether a window of pairs up to ``max_a`` x ``max_b`` runs ``pairwise_fill16.cl``:
        allowed, exact (:func:`fits_16bit`), and the batch's strip profiles fit a buffer."""
        return (self.use_packed16 and fits_16bit(self.scoring, max_a, max_b)
                and batch.residues * len(self.scoring.letters) <= rt.max_alloc // 2)

    def _run_window16(self, rt: Runtime, batch: _Batch, first: int, n: int, maxB: int):
        """Score-only launch of ``fill_pairs16`` (two 16-bit cells per operation)."""
        scores = self._scratch(rt, "scores", n * 4)
        self._launch16(rt, batch, first, n, maxB, scores, "fill (16-bit)")
        out = np.empty(n, dtype=np.int32)
        ev = cl.enqueue_copy(rt.queue, out, scores, is_blocking=False)
        return _Pending([ev], lambda: (out.astype(np.int64), None))

    def _reverse16(self, rt: Runtime, batch: _Batch, first: int, n: int, maxB: int,
                   scores: cl.Buffer, ends: cl.Buffer, starts: cl.Buffer) -> cl.Event:
        """Enqueue ``fill_reverse16`` (``fill_reverse_starts`` in packed 16-bit arithmetic)
        over tasks ``first:first + n`` of ``batch.task_buf``: from each pair's score and
        end cell (``scores``, ``ends``) the corner of its rectangle into ``starts``, the
        32-bit kernel's. Exact where :func:`fits_16bit` holds for the window (the caller's
        :meth:`_packed16`)."""
        kind = "gpu" if rt.is_gpu else "cpu"
        rows = self.reverse16_rows or REVERSE16_ROWS[kind]
        defines = {"LOCAL": 1, "PTX16": int(rt.supports_ptx_s16x2), "ROW_GAPS": 0,
                   "R": rows, "MAXK": MAXK}
        knl = rt.kernel("pairwise_fill16.cl", "fill_reverse16", defines)
        group = min(rt.preferred_group(knl, PACKED16_GROUP[kind]), n)
        T = -(-n // group) * group
        work = self._scratch(rt, "work", (maxB + 1) * T * 4)
        return self._launch(rt, "reverse starts (16-bit)", knl, (T,), (group,), batch.seqs,
                            batch.task_buf, np.int32(first), np.int32(n), batch.matrix,
                            np.int32(len(self.scoring.letters)), batch.gaps, work, scores,
                            ends, starts, cl.LocalMemory(MAXK * MAXK * 4))

    def _launch16(self, rt: Runtime, batch: _Batch, first: int, n: int, maxB: int,
                  scores: cl.Buffer, name: str, ends: cl.Buffer | None = None,
                  order_rows: int = 0) -> cl.Event:
        """Enqueue ``fill_pairs16`` over tasks ``first:first + n`` of ``batch.task_buf``
        (the batch's strip profiles built on first use).

        Parameters
        ----------
        rt : Runtime
            The device.
        batch : _Batch
            Sequences, scoring and task table on ``rt``.
        first, n : int
            The window: ``n`` tasks from ``first``.
        maxB : int
            Longest query of the window (the column buffer's length).
        scores : pyopencl.Buffer
            Receives the ``n`` scores (int32).
        name : str
            The launch's name in :attr:`timings`.
        ends : pyopencl.Buffer, optional
            Local scoring: receives each pair's end cell (int32 pairs), the one ``fill_pairs``
            with ENDS gives, whose end order has parts of ``order_rows`` rows.
        order_rows : int
            With ``ends``: the 32-bit pass's RT.

        Returns
        -------
        pyopencl.Event
            The fill's launch.
        """
        g = self.scoring.gaps  # the last row's Iy uses (8, 9) instead of (0, 1)
        row_gaps = not self.scoring.local and (g[8] != g[0] or g[9] != g[1])
        kind = "gpu" if rt.is_gpu else "cpu"
        rows = PACKED16_ROWS[kind]
        defines = {"LOCAL": int(self.scoring.local), "PTX16": int(rt.supports_ptx_s16x2),
                   "ROW_GAPS": int(row_gaps), "R": rows}
        K = len(self.scoring.letters)
        profile = batch.cache.get(("profile16", rows))
        if profile is None:  # every strip of every sequence, once per batch
            strips = batch.residues // rows
            profile = rt.empty(max(1, strips * K) * rows)
            batch.cache[("profile16", rows)] = profile
            build = rt.kernel("pairwise_fill16.cl", "build_profile16", defines)
            group = rt.preferred_group(build, 256 if rt.is_gpu else 16)
            self._launch(rt, "strip profiles (16-bit)", build,
                         (-(-strips * K // group) * group,), (group,), batch.seqs,
                         np.int32(strips), batch.matrix, np.int32(K), profile)
        extra = ()
        if ends is not None:  # a variant of its own (the profile is the score kernel's)
            defines = {**defines, "ENDS": 1, "RT": order_rows}
            extra = (ends,)
        knl = rt.kernel("pairwise_fill16.cl", "fill_pairs16", defines)
        group = min(rt.preferred_group(knl, PACKED16_GROUP[kind]), n)
        T = -(-n // group) * group
        work = self._scratch(rt, "work", (maxB + 1) * T * 4)
        return self._launch(rt, name, knl, (T,), (group,), batch.seqs, batch.task_buf,
                            np.int32(first), np.int32(n), profile, np.int32(K), batch.gaps,
                            work, scores, *extra)
