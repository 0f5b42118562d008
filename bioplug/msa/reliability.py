"""How reliable each column and residue of a QuickProbs alignment is: the mean relaxed
posterior of the residue pairs the alignment puts together (ProbCons' and QuickProbs'
``--annot``), computed on the device by ``kernels/msa_reliability.cl``.

A column's reliability is the mean, over the ordered pairs of residues it holds (x's residue i
and y's residue j, for every stored pair of sequences), of the posterior S_xy(i, j) that stage
IV aligned. In full mode every pair of sequences is stored, so a column of n residues averages
n(n - 1) posteriors; in anchor mode only the stored pairs count. A column with a single residue
has none (NaN). A residue's reliability is the mean, over the other sequences y, of the
posterior of what the alignment does with it: S_xy(i, j) when y's residue j shares its column,
else (a gap of y there) the posterior that it pairs with none of y's residues, 1 - sum_j
S_xy(i, j).

The text form is HMMER's posterior-probability code (``#=GC PP_cons`` and ``#=GR <seq> PP`` in
Stockholm files): ``*`` for 0.95 and above, else the digit nearest to ten times the value
(``0`` below 0.05), and ``.`` where there is no value.
"""

from __future__ import annotations

import numpy as np
import pyopencl as cl

from bioplug.msa._kernels import kernel

#: Work-items over a pair's residues.
GROUP = 64
#: Fixed point of the kernel's sums.
FIXED_ONE = float(2**32)


def reliability(aligner, length: int) -> tuple[np.ndarray, np.ndarray]:
    """(column, residue) reliabilities of ``aligner``'s alignment (a
    :class:`~bioplug.msa.progressive.ProfileAligner` after stage IV, ``length`` columns).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        float64 of ``length`` columns and of every residue (sequences concatenated in input
        order); NaN where no pair counts.
    """
    rt, store = aligner.rt, aligner.store
    npairs, nres = int(store.pair_x.size), int(aligner.seq_start[-1])
    mf = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    host = [np.zeros(length, np.uint64), np.zeros(length, np.uint32),
            np.zeros(nres, np.uint64), np.zeros(nres, np.uint32)]
    bufs = [cl.Buffer(rt.context, mf, hostbuf=h if h.size else np.zeros(1, h.dtype))
            for h in host]
    if npairs:
        wg = min(GROUP if rt.is_gpu else 8, rt.max_work_group)
        knl = kernel(rt, "msa_reliability.cl", "reliability")
        knl(rt.queue, (npairs * wg,), (wg,), aligner.d_px,
            rt.to_device(store.pair_y.astype(np.int32)), aligner.d_rb, aligner.d_ip,
            aligner.d_cols, aligner.d_vals, aligner.d_seq_start,
            rt.to_device(aligner.colmap.astype(np.int32)), *bufs)
        for h, buf in zip(host, bufs, strict=True):
            if h.size:
                cl.enqueue_copy(rt.queue, h, buf)
    out = []
    for sums, counts in ((host[0], host[1]), (host[2], host[3])):
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append(np.where(counts > 0, sums.astype(np.float64) / FIXED_ONE / counts,
                                np.nan))
    return out[0], out[1]


def pp_text(values: np.ndarray) -> str:
    """HMMER's posterior-probability characters of ``values`` (``*``, ``0``-``9``, ``.``)."""
    values = np.asarray(values, dtype=np.float64)
    digits = np.clip(np.floor(np.nan_to_num(values) * 10 + 0.5), 0, 9).astype(np.uint8)
    chars = (digits + ord("0")).astype(np.uint8)
    chars[values >= 0.95] = ord("*")
    chars[np.isnan(values)] = ord(".")
    return chars.tobytes().decode("ascii")
