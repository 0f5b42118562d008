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
    nres = int(aligner.seq_start[-1])
    aligned_sum = np.zeros(nres, np.float32)
    aligned_pairs = np.zeros(nres, np.int32)
    residue = np.full(nres, np.nan, np.float32)
    if store.pair_x.size and nres:
        order = np.argsort(store.pair_x, kind="stable").astype(np.int32)   # x's pairs
        x_first = np.searchsorted(store.pair_x[order], np.arange(aligner.k + 1)).astype(np.int32)
        owner = np.repeat(np.arange(aligner.k, dtype=np.int32), aligner.lengths)
        outs = [rt.empty(a.nbytes) for a in (aligned_sum, aligned_pairs, residue)]
        knl = kernel(rt, "msa_reliability.cl", "reliability")
        wg = min(64, rt.max_work_group)
        knl(rt.queue, (-(-nres // wg) * wg,), (wg,), rt.to_device(order), rt.to_device(x_first),
            rt.to_device(store.pair_y.astype(np.int32)), aligner.d_rb, aligner.d_ip,
            aligner.d_cols, aligner.d_vals, aligner.d_seq_start,
            rt.to_device(aligner.colmap.astype(np.int32)), rt.to_device(owner),
            np.int32(nres), *outs)
        for host, buf in zip((aligned_sum, aligned_pairs, residue), outs, strict=True):
            cl.enqueue_copy(rt.queue, host, buf)
    colmap = aligner.colmap.astype(np.int64)
    sums = np.bincount(colmap, weights=aligned_sum, minlength=length)
    pairs = np.bincount(colmap, weights=aligned_pairs, minlength=length)
    with np.errstate(invalid="ignore", divide="ignore"):
        columns = np.where(pairs > 0, sums / pairs, np.nan)
    return columns, residue.astype(np.float64)


def pp_text(values: np.ndarray) -> str:
    """HMMER's posterior-probability characters of ``values`` (``*``, ``0``-``9``, ``.``)."""
    # one value as one character; clipped to 0..1 first so that an infinity is no overflow
    # warning (and a rounding slip below 0 or above 1 still a character)
    values = np.atleast_1d(np.asarray(values, dtype=np.float64)).ravel()
    digits = np.floor(np.nan_to_num(np.clip(values, 0.0, 1.0)) * 10 + 0.5)
    digits = np.minimum(digits, 9).astype(np.uint8)
    chars = (digits + ord("0")).astype(np.uint8)
    chars[values >= 0.95] = ord("*")
    chars[np.isnan(values)] = ord(".")
    return chars.tobytes().decode("ascii")


def pp_values(text: str) -> np.ndarray:
    """The numbers HMMER's posterior-probability characters stand for (:func:`pp_text`'s
    inverse, to a tenth): a digit d is d / 10, ``*`` 0.975 (0.95 and above), anything else
    (``.``) NaN."""
    codes = np.frombuffer(text.encode("latin-1", "replace"), dtype=np.uint8)
    values = np.full(codes.size, np.nan)
    digits = (codes >= ord("0")) & (codes <= ord("9"))
    values[digits] = (codes[digits] - ord("0")) / 10.0
    values[codes == ord("*")] = 0.975
    return values
