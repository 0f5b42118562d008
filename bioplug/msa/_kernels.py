"""Kernel objects of the msa programs, retrieved once per (device, program, defines, name)."""

from __future__ import annotations

import threading

import pyopencl as cl

_cache: dict = {}
_lock = threading.Lock()


def kernel(rt, source: str, name: str, defines: dict | None = None) -> cl.Kernel:
    """The kernel ``name`` of ``kernels/<source>`` built on ``rt`` with ``defines`` (cached).

    Kernel objects hold their arguments, so the cache is per thread (two alignments running in
    two threads never share one); set the arguments and enqueue in one call
    (``knl(queue, global, local, *args)``).
    """
    key = (id(rt), threading.get_ident(), source, tuple(sorted((defines or {}).items())), name)
    with _lock:
        knl = _cache.get(key)
        if knl is None:
            knl = cl.Kernel(rt.program(source, defines), name)
            _cache[key] = knl
    return knl
