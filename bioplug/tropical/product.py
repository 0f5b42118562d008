"""``matmul``: tropical matrix products of numpy arrays on the device."""

from __future__ import annotations

import logging

import numpy as np
import pyopencl as cl

from bioplug.errors import InputError
from bioplug.faults import device_guard
from bioplug.tropical.device import check_fits, compute_dtype, engine

log = logging.getLogger(__name__)

SEMIRINGS = {"max-plus": True, "min-plus": False}


def _operand(x, name: str) -> np.ndarray:
    arr = np.asarray(x)
    if arr.ndim == 0:
        raise InputError(f"{name} is a scalar; matmul needs at least one dimension")
    if not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)
            or arr.dtype == np.bool_):
        raise InputError(f"{name} has dtype {arr.dtype}; numbers are needed")
    return arr


def result_dtype(a: np.ndarray, b: np.ndarray) -> np.dtype:
    """float32 when both operands are float32 (or narrower floats), else float64."""
    narrow = (np.float16, np.float32)
    if a.dtype.type in narrow and b.dtype.type in narrow:
        return np.dtype(np.float32)
    return np.dtype(np.float64)


@device_guard
def matmul(A, B, semiring: str = "max-plus", return_indices: bool = False, *, device=None):
    """Tropical matrix product ``C[..., i, j] = max_k (A[..., i, k] + B[..., k, j])``.

    Shapes follow :func:`numpy.matmul`: leading (batch) dimensions broadcast, a 1-D ``A`` is
    a row vector and a 1-D ``B`` a column vector (their axis is removed from the result).
    The product runs as a tiled kernel (``kernels/tropical_matmul.cl``).

    Parameters
    ----------
    A, B : array_like
        ``(..., M, K)`` and ``(..., K, N)`` numbers. float32 inputs give float32 results;
        everything else is computed in float64 (float32, with a warning, on devices without
        ``cl_khr_fp64``).
    semiring : {"max-plus", "min-plus"}
        ``max`` over ``k`` of sums (log probabilities, scores) or ``min`` (distances).
    return_indices : bool
        Also return the ``k`` that reaches each optimum: the lowest such ``k`` when several
        tie (as :func:`numpy.argmax` / :func:`numpy.argmin`).
    device : str or Runtime, optional
        OpenCL device (see :func:`bioplug.runtime.get_runtime`).

    Returns
    -------
    C : numpy.ndarray
        ``(..., M, N)``. With ``K == 0`` every entry is the semiring's zero (``-inf`` for
        max-plus, ``inf`` for min-plus) and every index is -1.
    indices : numpy.ndarray of intp
        Only with ``return_indices``; same shape as ``C``.

    Notes
    -----
    ``-inf`` (max-plus) and ``inf`` (min-plus) are the semiring's zero and behave as such.
    A sum of opposite infinities (``inf + -inf``) is NaN, which the kernel's ``fmax`` /
    ``fmin`` skip, while numpy's ``max`` would return NaN; NaN inputs are skipped the same
    way.

    Examples
    --------
    >>> import numpy as np
    >>> from bioplug.tropical import matmul
    >>> matmul(np.array([[0.0, 1.0]]), np.array([[2.0], [0.5]]), device="cpu")
    array([[2.]])
    """
    if semiring not in SEMIRINGS:
        raise InputError(f"semiring must be 'max-plus' or 'min-plus', not {semiring!r}")
    a, b = _operand(A, "A"), _operand(B, "B")
    squeeze_rows, squeeze_cols = a.ndim == 1, b.ndim == 1
    a = a[None, :] if squeeze_rows else a
    b = b[:, None] if squeeze_cols else b
    if a.shape[-1] != b.shape[-2]:
        raise InputError(f"matmul: A has {a.shape[-1]} columns but B has {b.shape[-2]} rows "
                         f"(shapes {np.shape(A)} and {np.shape(B)})")
    try:
        batch_shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError as exc:
        raise InputError(f"matmul: batch shapes {a.shape[:-2]} and {b.shape[:-2]} do not "
                         "broadcast") from exc
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    maxplus = SEMIRINGS[semiring]
    out_dtype = result_dtype(a, b)
    c, idx = _product(a, b, batch_shape, m, k, n, maxplus, out_dtype, return_indices, device)
    if squeeze_rows:
        c, idx = c[..., 0, :], (idx[..., 0, :] if idx is not None else None)
    if squeeze_cols:
        c, idx = c[..., 0], (idx[..., 0] if idx is not None else None)
    return (c, idx) if return_indices else c


def _batch_offsets(shape: tuple, batch_shape: tuple, stride: int) -> np.ndarray:
    """Element offset of each broadcast batch entry into a contiguous operand."""
    count = int(np.prod(shape, dtype=np.int64))
    own = np.arange(count, dtype=np.uint64).reshape(shape) if shape else np.uint64(0)
    return np.broadcast_to(own, batch_shape).reshape(-1) * np.uint64(stride)


def _product(a, b, batch_shape, m, k, n, maxplus, out_dtype, want_idx, device):
    batch = int(np.prod(batch_shape, dtype=np.int64))
    shape = (*batch_shape, m, n)
    if k == 0 or batch == 0 or m == 0 or n == 0:
        c = np.full(shape, -np.inf if maxplus else np.inf, dtype=out_dtype)
        return c, (np.full(shape, -1, dtype=np.intp) if want_idx else None)
    eng = engine(device)
    rt = eng.rt
    dt = compute_dtype(rt, out_dtype)
    a_host = np.ascontiguousarray(a, dtype=dt)
    b_host = np.ascontiguousarray(b, dtype=dt)
    check_fits(rt, a_host.nbytes, "A")
    check_fits(rt, b_host.nbytes, "B")
    a_off = _batch_offsets(a.shape[:-2], batch_shape, m * k)
    b_off = _batch_offsets(b.shape[:-2], batch_shape, k * n)
    abuf, bbuf = rt.to_device(a_host), rt.to_device(b_host)
    c = np.empty((batch, m, n), dtype=dt)
    idx = np.empty((batch, m, n), dtype=np.int32) if want_idx else None
    # Output in slices of whole batch entries (or of row blocks for one huge matrix), each
    # within the device's per-buffer limit and a share of its memory.
    limit = min(rt.max_alloc, rt.memory_budget(0.25))
    per_row = n * (dt.itemsize + (4 if want_idx else 0))
    rows = max(1, min(m, limit // max(per_row, 1)))
    per_batch = max(1, limit // max(per_row * m, 1)) if rows == m else 1
    for b0 in range(0, batch, per_batch):
        b1 = min(batch, b0 + per_batch)
        for r0 in range(0, m, rows):
            r1 = min(m, r0 + rows)
            _slice(eng, abuf, bbuf, a_off[b0:b1] + np.uint64(r0 * k), b_off[b0:b1], r1 - r0,
                   k, n, dt, maxplus, c[b0:b1, r0:r1], None if idx is None else
                   idx[b0:b1, r0:r1])
    c = c.reshape(shape).astype(out_dtype, copy=False)
    return c, (idx.reshape(shape).astype(np.intp) if want_idx else None)


def _slice(eng, abuf, bbuf, a_off, b_off, m, k, n, dt, maxplus, c_out, i_out):
    """One launch group: rows ``m`` of each batch entry in ``a_off`` into ``c_out``."""
    rt = eng.rt
    nb = len(a_off)
    offs = np.zeros((nb, 4), dtype=np.uint64)
    offs[:, 0], offs[:, 1] = a_off, b_off
    offs[:, 2] = np.arange(nb, dtype=np.uint64) * np.uint64(m * n)
    cbuf = rt.empty(nb * m * n * dt.itemsize)
    ibuf = rt.empty(nb * m * n * 4) if i_out is not None else None
    eng.mm(abuf, bbuf, cbuf, offs, m, n, k, k, n, n, itemsize=dt.itemsize, maxplus=maxplus,
           idx=ibuf)
    _read(rt, c_out, cbuf)
    if i_out is not None:
        _read(rt, i_out, ibuf)


def _read(rt, out: np.ndarray, buf) -> None:
    """Device buffer into ``out`` (straight in when ``out`` is contiguous)."""
    if out.flags.c_contiguous:
        cl.enqueue_copy(rt.queue, out, buf)
    else:
        host = np.empty(out.shape, dtype=out.dtype)
        cl.enqueue_copy(rt.queue, host, buf)
        out[...] = host
