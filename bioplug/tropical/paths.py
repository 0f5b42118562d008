"""``shortest_paths``: all-pairs shortest paths in the min-plus semiring (thesis §6.1.3).

Two methods, both on the device:

``"floyd-warshall"`` (the default; measured faster)
    Blocked Floyd-Warshall: n / BS rounds, each closing a diagonal block (phase 1), its row
    and column panels (phase 2) and taking every other block through the panels with one
    min-plus product launch (phase 3, ``tropical_mm`` with ``ACCUM``). n^3 work in all.
``"squaring"``
    The thesis's matrix form ``D = M^(n-1)`` by repeated squaring ``D <- min(D, D (x) D)``,
    stopping when a squaring changes nothing: n^3 per squaring, up to ceil(log2 n) of them.
"""

from __future__ import annotations

import logging
import math

import numpy as np
import pyopencl as cl
import scipy.sparse
from scipy.sparse.csgraph import NegativeCycleError as ScipyNegativeCycleError
from scipy.sparse.csgraph import csgraph_to_dense

from bioplug.errors import BioplugError, InputError
from bioplug.faults import device_guard
from bioplug.progress import Progress
from bioplug.tropical.device import check_fits, compute_dtype, engine

log = logging.getLogger(__name__)

#: scipy's "no predecessor" value.
NULL_PRED = -9999
METHODS = ("auto", "floyd-warshall", "squaring")


class NegativeCycleError(BioplugError, ScipyNegativeCycleError):
    """The graph has a cycle of negative total weight (shortest paths are undefined).

    A subclass of :class:`scipy.sparse.csgraph.NegativeCycleError`, so code written for
    scipy's ``floyd_warshall`` catches it too. ``nodes`` lists the nodes on such cycles.
    """

    def __init__(self, nodes: np.ndarray):
        self.nodes = np.asarray(nodes)
        shown = ", ".join(str(int(v)) for v in self.nodes[:10])
        more = f" and {len(self.nodes) - 10} more" if len(self.nodes) > 10 else ""
        super().__init__(f"negative cycle: nodes {shown}{more} lie on a cycle of negative "
                         "total weight, so their shortest paths are unbounded")


@device_guard
def shortest_paths(W, return_predecessors: bool = False, *, method: str = "auto",
                   dtype=np.float64, device=None, progress=None):
    """All-pairs shortest path lengths of a directed graph on the device.

    Same input and output conventions as ``scipy.sparse.csgraph.floyd_warshall(W,
    directed=True)``.

    Parameters
    ----------
    W : array_like or scipy.sparse matrix, (n, n)
        Edge weights, ``W[i, j]`` for the edge i -> j. Sparse: every stored entry is an edge
        (explicit zeros too). Dense: zeros, ``inf`` and NaN mean "no edge" (scipy's dense
        convention; pass a sparse matrix for zero-weight edges). The diagonal is ignored
        (a node is at distance 0 from itself).
    return_predecessors : bool
        Also return the (n, n) int32 predecessor matrix: ``P[i, j]`` is the node before j on
        a shortest path from i, -9999 where there is none (and on the diagonal).
    method : {"auto", "floyd-warshall", "squaring"}
        ``auto`` is blocked Floyd-Warshall (see the module notes).
    dtype : numpy dtype
        float64 (default, as scipy) or float32 (faster, about 7 significant digits).
    device : str or Runtime, optional
        OpenCL device.
    progress : callable, optional
        ``progress(stage, done, total)``; returning False cancels.

    Returns
    -------
    dist : numpy.ndarray, (n, n)
        ``inf`` where j is unreachable from i.
    predecessors : numpy.ndarray of int32
        Only with ``return_predecessors``. Where several shortest paths tie, the one kept
        may differ from scipy's.

    Raises
    ------
    NegativeCycleError
        When some cycle has negative total weight.
    """
    if method not in METHODS:
        raise InputError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    weights, zero_missing = edge_matrix(W)
    n = weights.shape[0]
    if n == 0:
        empty = np.zeros((0, 0), dtype=np.float64)
        return (empty, np.zeros((0, 0), np.int32)) if return_predecessors else empty
    eng = engine(device)
    dt = compute_dtype(eng.rt, dtype)
    cfg = eng.choose(dt.itemsize, n, n, 1)
    bs = cfg.bm  # Floyd-Warshall's block is the product's (square) tile: phase 3 skips by tile
    n_pad = math.ceil(n / bs) * bs
    check_fits(eng.rt, n_pad * n_pad * dt.itemsize, f"the {n_pad} x {n_pad} distance matrix")
    dbuf, pbuf = _prepare(eng, weights, zero_missing, n_pad, dt, return_predecessors)
    run = _squaring if method == "squaring" else _floyd_warshall
    dbuf, pbuf = run(eng, dbuf, pbuf, n, n_pad, dt, cfg, Progress(progress))
    dist, pred = _download(eng, dbuf, pbuf, n, n_pad, dt)
    if dtype == np.float64:
        dist = dist.astype(np.float64, copy=False)
    bad = np.flatnonzero(np.diagonal(dist) < 0)
    if bad.size:
        raise NegativeCycleError(bad)
    return (dist, pred) if return_predecessors else dist


def edge_matrix(W) -> tuple[np.ndarray, bool]:
    """The weights as scipy's ``floyd_warshall`` reads them, and whether 0 and NaN still
    mean "no edge" in them (applied on the device by ``fw_init``, not by host passes).

    A sparse matrix's stored entries are edges (an explicit 0 is an edge of weight 0); in a
    dense array 0, inf and NaN are not edges, nor are masked entries of a masked array.
    """
    if scipy.sparse.issparse(W):
        if W.ndim != 2 or W.shape[0] != W.shape[1]:
            raise InputError(f"shortest_paths needs a square matrix, not shape {W.shape}")
        return csgraph_to_dense(W, null_value=np.inf).astype(np.float64, copy=False), False
    arr = np.asanyarray(W)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise InputError(f"shortest_paths needs a square matrix, not shape {arr.shape}")
    if np.ma.isMaskedArray(arr):
        dense = np.array(arr.data, dtype=np.float64)
        dense[np.ma.getmaskarray(arr)] = np.inf
        return dense, True
    if not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
        raise InputError(f"shortest_paths needs numbers, not dtype {arr.dtype}")
    return arr, True


def _prepare(eng, weights, zero_missing, n_pad, dt, want_pred):
    """Distance (and predecessor) buffers built on the device from the weights
    (``fw_init``): for an 8,192-node graph, host passes over the n^2 entries would cost
    more than all the rounds."""
    rt = eng.rt
    n = weights.shape[0]
    raw = rt.to_device(np.ascontiguousarray(weights, dtype=dt))
    dbuf = rt.empty(n_pad * n_pad * dt.itemsize)
    pbuf = rt.empty(n_pad * n_pad * 4) if want_pred else None
    knl = rt.kernel("tropical_fw.cl", "fw_init", {"TB": 16, "RB": 1, "PRED": int(want_pred),
                                                   "REAL_IS_DOUBLE": int(dt.itemsize == 8)})
    total = n_pad * n_pad
    knl(rt.queue, (-(-total // 256) * 256,), (256,), raw, np.uint32(n), np.uint32(n_pad),
        np.uint32(zero_missing), dbuf, pbuf or eng.dummy)
    return dbuf, pbuf


def _download(eng, dbuf, pbuf, n, n_pad, dt):
    dist = np.empty((n_pad, n_pad), dtype=dt)
    cl.enqueue_copy(eng.rt.queue, dist, dbuf)
    pred = None
    if pbuf is not None:
        pred = np.empty((n_pad, n_pad), dtype=np.int32)
        cl.enqueue_copy(eng.rt.queue, pred, pbuf)
    if n_pad != n:
        dist = np.ascontiguousarray(dist[:n, :n])
        pred = None if pred is None else np.ascontiguousarray(pred[:n, :n])
    return dist, pred


def _floyd_warshall(eng, dbuf, pbuf, n, n_pad, dt, cfg, reporter):
    """Blocked Floyd-Warshall, ``n_pad / bs`` rounds of three launches each."""
    rt = eng.rt
    item, bs = dt.itemsize, cfg.bm
    changed = rt.empty(4)
    nb = n_pad // bs
    offs = np.zeros((1, 4), dtype=np.uint64)
    for kb in range(nb):
        eng.fw_panel(dbuf, pbuf, n_pad, kb, 1, bs, item)
        eng.fw_panel(dbuf, pbuf, n_pad, kb, 2, bs, item)
        if nb > 1:
            offs[0, :3] = (kb * bs, kb * bs * n_pad, 0)
            eng.mm(dbuf, dbuf, dbuf, offs, n_pad, n_pad, bs, n_pad, n_pad, n_pad,
                   itemsize=item, maxplus=False, cfg=cfg, accum=True, cin=dbuf,
                   pred=pbuf is not None, p_in=pbuf, p_out=pbuf, pred_base=kb * bs,
                   skip=kb, changed=changed)
        if kb % 8 == 7 or kb == nb - 1:  # the callback may cancel between rounds
            rt.queue.finish()
            reporter.report("shortest paths", kb + 1, nb)
    return dbuf, pbuf


def _squaring(eng, dbuf, pbuf, n, n_pad, dt, cfg, reporter):
    """``D <- min(D, D (x) D)`` until nothing changes (at most ceil(log2 n) + 1 times)."""
    rt = eng.rt
    item = dt.itemsize
    bufs = [dbuf, rt.empty(n_pad * n_pad * item)]
    pbufs = [pbuf, rt.empty(n_pad * n_pad * 4)] if pbuf is not None else [None, None]
    flag = np.zeros(1, dtype=np.int32)
    fbuf = rt.empty(4)
    offs = np.zeros((1, 4), dtype=np.uint64)
    rounds = math.ceil(math.log2(max(n, 2))) + 1  # + 1: the round that sees no change
    cur = 0
    for step in range(rounds):
        cl.enqueue_fill_buffer(rt.queue, fbuf, np.int32(0), 0, 4)
        src, dst = bufs[cur], bufs[1 - cur]
        eng.mm(src, src, dst, offs, n_pad, n_pad, n_pad, n_pad, n_pad, n_pad, itemsize=item,
               maxplus=False, cfg=cfg, accum=True, cin=src, write_all=True,
               pred=pbuf is not None, p_in=pbufs[cur], p_out=pbufs[1 - cur], changed=fbuf)
        cl.enqueue_copy(rt.queue, flag, fbuf)
        cur = 1 - cur
        reporter.report("shortest paths", step + 1, rounds)
        if not flag[0]:
            break
    return bufs[cur], pbufs[cur]
