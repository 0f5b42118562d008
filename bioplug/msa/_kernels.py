"""Kernel objects of the msa programs, retrieved once per (device, program, defines, name)."""

from __future__ import annotations

import threading

import pyopencl as cl

_cache: dict = {}
_lock = threading.Lock()


def kernel(rt, source: str, name: str, defines: dict | None = None) -> cl.Kernel:
    """The kernel ``name`` of ``kernels/<source>`` built on ``rt`` with ``defines`` (cached).

    Note: a cached kernel is shared, so set its arguments and enqueue it in one call
    (``knl(queue, global, local, *args)``), from one thread per device.
    """
    key = (id(rt), source, tuple(sorted((defines or {}).items())), name)
    with _lock:
        knl = _cache.get(key)
        if knl is None:
            knl = cl.Kernel(rt.program(source, defines), name)
            _cache[key] = knl
    return knl
