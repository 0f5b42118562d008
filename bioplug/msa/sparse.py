"""Sparse posterior matrices for many ordered pairs, in one global CSR structure.

Pair ``p`` (an ordered pair of sequences x, y) owns ``len(x)`` consecutive global rows starting at
``row_base[p]``; row ``row_base[p] + i`` holds residue i of x (0-based), its entries are the
columns (residues of y, 0-based, increasing) and posterior values ``vals``.
``pair_id[x, y]`` is ``p`` or -1 when that orientation is not stored.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np


@dataclass
class DeviceCSR:
    """A store's entries on the device (``cl.Buffer`` of int32 ``cols`` and float32 ``vals``,
    and the int64 ``indptr`` or None when only the host holds it): stages I, III and IV hand
    the matrices on without a round trip through the host (4 GB each way for 1,000 x 300)."""

    cols: object
    vals: object
    nnz: int
    indptr: object | None = None


@dataclass
class SparseStore:
    """Every stored S_xy of one family.

    Attributes
    ----------
    lengths : numpy.ndarray
        (k,) sequence lengths.
    pair_id : numpy.ndarray
        (k, k) int32 pair index, -1 where absent (always on the diagonal).
    pair_x, pair_y : numpy.ndarray
        (P,) sequences of each pair.
    row_base : numpy.ndarray
        (P + 1,) int64 first global row of each pair (last entry = number of rows).
    indptr : numpy.ndarray
        (R + 1,) int64 start of each global row in ``cols``/``vals``.
    cols : numpy.ndarray
        int32 column (residue of y, 0-based) of each entry.
    vals : numpy.ndarray
        float32 posterior value of each entry.
    thresh : numpy.ndarray
        (P,) float32 filter threshold of each pair (the cutoff, or the adaptive one).
    device : DeviceCSR or None
        The entries on the device; ``cols`` and ``vals`` are then empty on the host until
        :meth:`on_host` (``indptr`` is always on the host).
    """

    lengths: np.ndarray
    pair_id: np.ndarray
    pair_x: np.ndarray
    pair_y: np.ndarray
    row_base: np.ndarray
    indptr: np.ndarray
    cols: np.ndarray
    vals: np.ndarray
    thresh: np.ndarray
    device: DeviceCSR | None = None

    @property
    def nnz(self) -> int:
        return int(self.vals.size) if self.device is None else self.device.nnz

    def on_host(self, queue) -> SparseStore:
        """This store with its entries read back to the host (itself when they are there)."""
        if self.device is None:
            return self
        import pyopencl as cl

        cols = np.empty(self.device.nnz, dtype=np.int32)
        vals = np.empty(self.device.nnz, dtype=np.float32)
        if cols.size:
            cl.enqueue_copy(queue, cols, self.device.cols)
            cl.enqueue_copy(queue, vals, self.device.vals)
        return replace(self, cols=cols, vals=vals, device=None)

    @property
    def nbytes(self) -> int:
        return int(self.indptr.nbytes + self.cols.nbytes + self.vals.nbytes + self.row_base.nbytes)

    def dense(self, x: int, y: int) -> np.ndarray:
        """S_xy as a dense (len x, len y) float32 array (for tests and small checks)."""
        p = int(self.pair_id[x, y])
        out = np.zeros((int(self.lengths[x]), int(self.lengths[y])), dtype=np.float32)
        if p < 0:
            return out
        r0 = int(self.row_base[p])
        for i in range(out.shape[0]):
            a, b = self.indptr[r0 + i], self.indptr[r0 + i + 1]
            out[i, self.cols[a:b]] = self.vals[a:b]
        return out

    def filtered(self, new_vals: np.ndarray, floor: float | None = None) -> SparseStore:
        """A store with the same rows, values replaced and entries below the threshold dropped
        (below ``floor`` instead of the pairs' thresholds when it is given). The host's
        version of what stage III does on the device (``consistency._Rows.kept``), and the
        reference the tests hold it to."""
        if floor is not None:
            keep = new_vals >= np.float32(floor)
        elif self.thresh.size and np.all(self.thresh == self.thresh[0]):
            keep = new_vals >= self.thresh[0]
        else:  # per-pair thresholds (accurate mode)
            row_len = np.diff(self.indptr)
            pair_of_row = np.repeat(np.arange(self.pair_x.size, dtype=np.int32),
                                    np.diff(self.row_base).astype(np.int64))
            keep = new_vals >= self.thresh[np.repeat(pair_of_row, row_len)]
            del pair_of_row, row_len
        kept_before = np.zeros(keep.size + 1, dtype=np.int64)
        np.cumsum(keep, out=kept_before[1:])
        indptr = kept_before[self.indptr]
        del kept_before
        return SparseStore(
            lengths=self.lengths, pair_id=self.pair_id, pair_x=self.pair_x, pair_y=self.pair_y,
            row_base=self.row_base, indptr=indptr, cols=self.cols[keep],
            vals=new_vals[keep].astype(np.float32), thresh=self.thresh,
        )
