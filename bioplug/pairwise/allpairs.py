"""All-vs-all local scores as a packed triangle, by the kernels that are faster on the device.

Two kernel families can score every pair of a set of sequences, with the same exact scores:

* ``"fill"``: the engine's windows of pairs (:meth:`PairwiseEngine.score_triangle`,
  ``kernels/pairwise_fill16.cl``), several devices at once;
* ``"scan"``: the database scan's query profiles (:meth:`Scanner.score_triangle`,
  ``kernels/pairwise_search.cl``): every sequence is a query against all of them, subjects
  in groups of similar length, each query scoring only the pairs of the upper triangle.
  Several devices share the rows of the triangle (:func:`scan_shared`).

:data:`KERNELS` names the default per device kind: on a GPU the scan for long sequences and
the windows for short ones (on an H100, 2,000 proteins of 50-1,000 residues: scan 0.216 s,
windows 0.275 s; the 12 largest HomFam families, 3,300-3,900 sequences of 32-164 residues on
average: scan 3.91 s, windows 2.52 s in all). The scan applies to local schemes on one device
whose scores fit its 16-bit path, up to :data:`SCAN_MAX` sequences (it keeps an ``n x n``
int32 block). :func:`score_square` gives the whole square, built on the device after the
scan.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from bioplug.pairwise.engine import PairwiseEngine, triangle_square
from bioplug.pairwise.scan import Scanner, ranked_codes
from bioplug.runtime.schedule import run_lpt

log = logging.getLogger(__name__)

#: Default kernels per device kind (see the module docstring): "auto" takes the scan from a
#: mean length of :data:`SCAN_MIN_MEAN` residues.
KERNELS = {"gpu": "auto", "cpu": "fill"}
SCAN_MIN_MEAN = 300
#: Most sequences the scan path takes (its host block is n x n int32).
SCAN_MAX = 8192
#: Pieces of the triangle's rows per device when several share the scan (equal costs, each
#: to whichever device is free): one each would leave a faster device idle at the end.
PIECES_PER_DEVICE = 2


def score_triangle(engine: PairwiseEngine, codes: Sequence[np.ndarray], progress=None,
                   kernels: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(tri, rank)`` as :meth:`PairwiseEngine.score_triangle` gives them, from ``kernels``
    ("fill", "scan", "auto"; default :data:`KERNELS` for the engine's first device) where
    they apply, else from the engine's."""
    scanners = _scanners(engine, codes, kernels)
    if len(scanners) == 1:
        return scanners[0].score_triangle(codes)
    if scanners:
        out, rank, ranked = scan_shared(scanners, codes)
        return scanners[0].triangle_from_rows(out, ranked), rank
    return engine.score_triangle(codes, progress)


def score_square(engine: PairwiseEngine, codes: Sequence[np.ndarray], progress=None,
                 kernels: str | None = None) -> np.ndarray:
    """The symmetric ``(n, n)`` float64 square of all-vs-all scores in input order (the
    diagonal holds self scores), from the same kernels as :func:`score_triangle`. The scan
    spreads its triangle into the square on the (first) device (:meth:`Scanner.score_square`)
    where it has double precision; otherwise the host does (``triangle_square``)."""
    scanners = _scanners(engine, codes, kernels)
    if scanners and scanners[0].rt.info.fp64:
        if len(scanners) == 1:
            return scanners[0].score_square(codes)
        out, rank, ranked = scan_shared(scanners, codes)
        return scanners[0].square_from_block(scanners[0].rt.upload(out), rank, ranked)
    return triangle_square(*score_triangle(engine, codes, progress, kernels))


def scan_shared(scanners: Sequence[Scanner], codes: Sequence[np.ndarray]
                ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """The scan's ``(n, n)`` int32 block (upper triangle, rank order, long pairs included),
    ``rank`` and the ranked codes, its rows cut into pieces of equal cost that the scanners'
    devices take largest first (:func:`~bioplug.runtime.schedule.run_lpt`). The block does
    not depend on which device scanned which rows."""
    rank, ranked, starts = ranked_codes(codes)
    n = len(ranked)
    out = np.zeros((n, n), dtype=np.int32)
    pieces, costs = _row_pieces(np.diff(starts), PIECES_PER_DEVICE * len(scanners))

    def scan(scanner: Scanner, piece: tuple[int, int]) -> None:
        first, last = piece
        rows = out[first:last]
        pending = scanner.scan_rows(ranked, starts, rows, first, last)
        if pending is not None:
            q_idx, pos, values = pending()
            rows[q_idx, pos] = values

    run_lpt(pieces, costs, scanners, scan)
    return out, rank, ranked


def _row_pieces(lengths: np.ndarray, count: int) -> tuple[list[tuple[int, int]], list[float]]:
    """Consecutive row ranges of about equal cost: row ``a`` (ranks longest first) costs its
    length times the residues of ranks ``a`` and after, the cells it scans."""
    after = np.cumsum(lengths[::-1])[::-1].astype(np.float64)
    cum = np.cumsum(lengths * after)
    total = float(cum[-1]) if cum.size else 0.0
    cuts = np.searchsorted(cum, total * np.arange(1, count) / count, side="left") + 1
    bounds = np.unique(np.concatenate([[0], np.minimum(cuts, lengths.size), [lengths.size]]))
    pieces = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]
    starts = np.concatenate([[0.0], cum])
    return pieces, [float(starts[b] - starts[a]) for a, b in pieces]


def _scanners(engine: PairwiseEngine, codes: Sequence[np.ndarray],
              kernels: str | None) -> list[Scanner]:
    """One scan per device of the engine when ``kernels`` picks the scan and it applies,
    else none."""
    rt = engine.runtimes[0]
    kernels = kernels or KERNELS["gpu" if rt.is_gpu else "cpu"]
    if kernels not in ("fill", "scan", "auto"):
        raise ValueError(f"kernels must be 'fill', 'scan' or 'auto', not {kernels!r}")
    if kernels == "auto":
        mean = sum(len(c) for c in codes) / max(1, len(codes))
        kernels = "scan" if mean >= SCAN_MIN_MEAN else "fill"
    if not (kernels == "scan" and engine.scoring.local and len(codes) <= SCAN_MAX):
        return []
    scanners = [Scanner(device, engine.scoring) for device in engine.runtimes]
    if not scanners[0].packed:
        log.debug("all-vs-all: scores beyond the scan's 16-bit path; engine windows instead")
        return []
    return scanners
