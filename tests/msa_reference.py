"""Plain numpy references for the QuickProbs stages (small inputs only; loops are fine here)."""

from __future__ import annotations

import numpy as np

from bioplug.msa.model import load_model

NEG = -np.inf


def _lse(*v):
    return np.logaddexp.reduce(np.array(v, dtype=np.float64))


def partition_posterior(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """MSAProbs partition-function posterior (free end gaps), (n+1, m+1), row/col 0 zero."""
    pf = load_model().pf
    w = pf[:441].reshape(21, 21)
    go, ge = pf[441], pf[442]
    n, m = x.size, y.size
    zm = np.full((n + 1, m + 1), NEG)
    ze = np.full((n + 1, m + 1), NEG)
    zf = np.full((n + 1, m + 1), NEG)
    zm[0, 0] = 0.0

    def oh(i):
        return (0.0, 0.0) if i in (0, n) else (go, ge)

    def ov(j):
        return (0.0, 0.0) if j in (0, m) else (go, ge)

    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 and j == 0:
                continue
            if j > 0:
                o, e = oh(i)
                ze[i, j] = _lse(zm[i, j - 1] + o, ze[i, j - 1] + e)
            if i > 0:
                o, e = ov(j)
                zf[i, j] = _lse(zm[i - 1, j] + o, zf[i - 1, j] + e)
            if i > 0 and j > 0:
                zm[i, j] = _lse(zm[i - 1, j - 1], ze[i - 1, j - 1], zf[i - 1, j - 1]) + \
                    w[x[i - 1], y[j - 1]]
    lz = _lse(zm[n, m], ze[n, m], zf[n, m])
    bm = np.full((n + 2, m + 2), NEG)
    be = np.full((n + 2, m + 2), NEG)
    bf = np.full((n + 2, m + 2), NEG)
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n and j == m:
                bm[i, j] = be[i, j] = bf[i, j] = 0.0
                continue
            d = bm[i + 1, j + 1] + w[x[i], y[j]] if (i < n and j < m) else NEG
            o, e = oh(i)
            oo, ee = ov(j)
            bm[i, j] = _lse(d, be[i, j + 1] + o, bf[i + 1, j] + oo)
            be[i, j] = _lse(d, be[i, j + 1] + e)
            bf[i, j] = _lse(d, bf[i + 1, j] + ee)
    post = np.exp(zm + bm[: n + 1, : m + 1] - lz)
    post[0, :] = 0
    post[:, 0] = 0
    return post


def hmm_posterior(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """ProbCons 5-state forward-backward posterior of the match state, (n+1, m+1)."""
    h = load_model().hmm.astype(np.float64)
    li, lt = h[:5], h[5:30].reshape(5, 5)
    les, lep = h[30:51], h[51:].reshape(21, 21)
    n, m = x.size, y.size
    f = np.full((5, n + 1, m + 1), NEG)
    for i in range(n + 1):
        for j in range(m + 1):
            if i > 0 and j > 0:
                e = lep[x[i - 1], y[j - 1]]
                if i == 1 and j == 1:
                    f[0, i, j] = li[0] + e
                else:
                    f[0, i, j] = _lse(*(f[s, i - 1, j - 1] + lt[s, 0] for s in range(5))) + e
            if i > 0:
                e = les[x[i - 1]]
                for s in (1, 3):
                    f[s, i, j] = (li[s] + e if (i == 1 and j == 0) else
                                  _lse(f[0, i - 1, j] + lt[0, s], f[s, i - 1, j] + lt[s, s]) + e)
            if j > 0:
                e = les[y[j - 1]]
                for s in (2, 4):
                    f[s, i, j] = (li[s] + e if (i == 0 and j == 1) else
                                  _lse(f[0, i, j - 1] + lt[0, s], f[s, i, j - 1] + lt[s, s]) + e)
    lp = _lse(*(f[s, n, m] + li[s] for s in range(5)))
    b = np.full((5, n + 2, m + 2), NEG)
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n and j == m:
                b[:, i, j] = li
                continue
            dm = b[0, i + 1, j + 1] + lep[x[i], y[j]] if (i < n and j < m) else NEG
            vx = {s: b[s, i + 1, j] + les[x[i]] if i < n else NEG for s in (1, 3)}
            hy = {s: b[s, i, j + 1] + les[y[j]] if j < m else NEG for s in (2, 4)}
            b[0, i, j] = _lse(dm + lt[0, 0], vx[1] + lt[0, 1], hy[2] + lt[0, 2],
                              vx[3] + lt[0, 3], hy[4] + lt[0, 4])
            for s in (1, 3):
                b[s, i, j] = _lse(dm + lt[s, 0], vx[s] + lt[s, s])
            for s in (2, 4):
                b[s, i, j] = _lse(dm + lt[s, 0], hy[s] + lt[s, s])
    post = np.exp(f[0] + b[0, : n + 1, : m + 1] - lp)
    post[0, :] = 0
    post[:, 0] = 0
    return post


def combined_posterior(x, y, hmm_weight: float = 0.5):
    """Eq. (1): root mean square of the two posteriors, (n+1, m+1); ``hmm_weight`` is the
    pair-HMM's share (QuickProbs 2's weighted form)."""
    pa = np.minimum(hmm_posterior(x, y), 1.0)
    pb = np.minimum(partition_posterior(x, y), 1.0)
    return np.sqrt(hmm_weight * pa * pa + (1.0 - hmm_weight) * pb * pb)


def gapfree_distance(p: np.ndarray) -> float:
    """Algorithm 1 line 9 on P (with row/col 0), as 1 - d / min(len)."""
    n, m = p.shape[0] - 1, p.shape[1] - 1
    d = np.zeros_like(p, dtype=np.float64)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i, j] = max(d[i - 1, j], d[i, j - 1], d[i - 1, j - 1] + p[i, j])
    return 1.0 - d[n, m] / min(n, m)


def relax_dense(mats: dict, weights: np.ndarray, cutoff: float = 0.01) -> dict:
    """One consistency pass (Eq. 2) on dense matrices, no fill-in, cutoff afterwards."""
    k = weights.size
    out = {}
    for (x, y), s in mats.items():
        acc = (weights[x] + weights[y]) * s.astype(np.float64)
        total = weights[x] + weights[y]
        for z in range(k):
            if z in (x, y):
                continue
            acc += weights[z] * (mats[(x, z)].astype(np.float64) @ mats[(z, y)])
            total += weights[z]
        acc /= total
        acc[s == 0] = 0
        acc[acc < cutoff] = 0
        out[(x, y)] = acc
    return out
