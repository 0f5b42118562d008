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

Reading order: ``matmul`` / ``paths`` (front doors) -> ``device`` (tilings and launches) ->
``kernels/tropical_matmul.cl``, ``kernels/tropical_fw.cl``.
"""

from __future__ import annotations

import importlib

_FRONT_DOORS = {
    "matmul": "matmul",
    "shortest_paths": "paths",
    "NegativeCycleError": "paths",
}

__all__ = sorted(_FRONT_DOORS)


def __getattr__(name: str):
    module = _FRONT_DOORS.get(name)
    if module is None:
        raise AttributeError(f"module 'bioplug.tropical' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"bioplug.tropical.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
