"""Tropical (max-plus / min-plus) engine on the device (seed 003, thesis §2.3 and §6.1.3).

Front doors
-----------
``matmul(A, B, semiring="max-plus"|"min-plus", return_indices=False)``
    Batched tropical matrix products of numpy arrays (a tiled kernel), with the arg-optimum
    indices on request.
``shortest_paths(W, return_predecessors=False, method="auto")``
    All-pairs shortest paths (blocked Floyd-Warshall or min-plus squaring), scipy's
    ``floyd_warshall`` conventions, :class:`NegativeCycleError` for negative cycles.

HMM Viterbi decoding, which runs on the same engine, is its own capability: ``bioplug.hmm``.

Reading order: ``product`` / ``paths`` (front doors) -> ``device`` (tilings and launches) ->
``kernels/tropical_matmul.cl``, ``kernels/tropical_fw.cl``.
"""

from __future__ import annotations

from bioplug._front_doors import front_doors

_FRONT_DOORS = {
    "matmul": "product",
    "shortest_paths": "paths",
    "NegativeCycleError": "paths",
}

__all__ = sorted(_FRONT_DOORS)
# No module may be named as a front door: importing it would bind the module to that name
# here, hiding the function (``matmul`` lives in product.py).


__getattr__, __dir__ = front_doors(__name__, _FRONT_DOORS)
