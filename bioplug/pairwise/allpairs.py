"""All-vs-all local scores as a packed triangle, by the kernels that are faster on the device.

Two kernel families can score every pair of a set of sequences, with the same exact scores:

* ``"fill"``: the engine's windows of pairs (:meth:`PairwiseEngine.score_triangle`,
  ``kernels/pairwise_fill16.cl``), several devices at once;
* ``"scan"``: the database scan's query profiles (:meth:`Scanner.score_triangle`,
  ``kernels/pairwise_search.cl``): every sequence is a query against all of them, subjects
  in groups of similar length, each query scoring only the pairs of the upper triangle.

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
from bioplug.pairwise.scan import Scanner

log = logging.getLogger(__name__)

#: Default kernels per device kind (see the module docstring): "auto" takes the scan from a
#: mean length of :data:`SCAN_MIN_MEAN` residues.
KERNELS = {"gpu": "auto", "cpu": "fill"}
SCAN_MIN_MEAN = 300
#: Most sequences the scan path takes (its host block is n x n int32).
SCAN_MAX = 8192


def score_triangle(engine: PairwiseEngine, codes: Sequence[np.ndarray], progress=None,
                   kernels: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(tri, rank)`` as :meth:`PairwiseEngine.score_triangle` gives them, from ``kernels``
    ("fill", "scan", "auto"; default :data:`KERNELS` for the engine's first device) where
    they apply, else from the engine's."""
    scanner = _scanner(engine, codes, kernels)
    if scanner is not None:
        return scanner.score_triangle(codes)
    return engine.score_triangle(codes, progress)


def score_square(engine: PairwiseEngine, codes: Sequence[np.ndarray], progress=None,
                 kernels: str | None = None) -> np.ndarray:
    """The symmetric ``(n, n)`` float64 square of all-vs-all scores in input order (the
    diagonal holds self scores), from the same kernels as :func:`score_triangle`. The scan
    spreads its triangle into the square on the device (:meth:`Scanner.score_square`) where
    the device has double precision; otherwise the host does (``triangle_square``)."""
    scanner = _scanner(engine, codes, kernels)
    if scanner is not None and scanner.rt.info.fp64:
        return scanner.score_square(codes)
    return triangle_square(*score_triangle(engine, codes, progress, kernels))


def _scanner(engine: PairwiseEngine, codes: Sequence[np.ndarray],
             kernels: str | None) -> Scanner | None:
    """The scan for these sequences when ``kernels`` picks it and it applies, else None."""
    rt = engine.runtimes[0]
    kernels = kernels or KERNELS["gpu" if rt.is_gpu else "cpu"]
    if kernels not in ("fill", "scan", "auto"):
        raise ValueError(f"kernels must be 'fill', 'scan' or 'auto', not {kernels!r}")
    if kernels == "auto":
        mean = sum(len(c) for c in codes) / max(1, len(codes))
        kernels = "scan" if mean >= SCAN_MIN_MEAN else "fill"
    if not (kernels == "scan" and len(engine.runtimes) == 1 and engine.scoring.local
            and len(codes) <= SCAN_MAX):
        return None
    scanner = Scanner(rt, engine.scoring)
    if not scanner.packed:
        log.debug("all-vs-all: scores beyond the scan's 16-bit path; engine windows instead")
        return None
    return scanner
