"""E-values from a search's own scores, for any scoring (what SSEARCH does by default).

BLAST's tables give Karlin-Altschul parameters for a few matrices and gap costs only. An exact
search scores every database sequence, so the scores of the unrelated ones give the
statistics of any scoring, nucleotide matrices and custom aligners included. This module
follows the regression method of Pearson (1998, "Empirical statistical estimates for sequence
similarity searches", J Mol Biol 276:71-84), the FASTA package's default:

1. For each query, the database sequences are binned by the logarithm of their length and
   the scores are counted per bin (:class:`ScoreCounts`, filled chunk by chunk during the
   scan: a histogram, never the scores themselves).
2. The mean score of a bin grows linearly with ln(length): a weighted least-squares line
   ``mean = rho * ln(n) + mu`` through the bins' means, and ``sigma`` the standard deviation
   of the scores around it (:func:`fit`).
3. Scores more than :data:`OUTLIER_Z` standard deviations above the line (homologues) are
   left out, and the fit repeated until the set no longer changes.
4. A hit of score s against a sequence of length n has ``z = (s - rho ln n - mu) / sigma``,
   and the scores of unrelated sequences follow an extreme-value distribution of mean 0 and
   variance 1 in z: ``P(Z >= z) = 1 - exp(-exp(-(pi / sqrt 6) z - gamma))``; its E-value is
   ``N * P`` over the N database sequences (:func:`evalues`).

The bit score reported with such an E-value is the one BLAST's relation gives,
``bits = log2(m * N_residues / E)`` (m the query length), so both columns stay consistent.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numpy as np

#: Length bins (equal counts of database sequences, by ln length).
BINS = 16
#: Scores counted exactly up to this value (in the scoring's units, times its scale on the
#: device); higher ones share the last count (homologues: left out of the fit anyway). A query's
#: counts take BINS * (SCORE_CAP + 1) * 4 bytes: 33 KB, 330 MB for 10,000 queries.
SCORE_CAP = 512
#: Queries counted by one numpy call (its count array stays small).
QUERY_BLOCK = 64
#: Most scores (queries x database sequences) kept to rank hits by fitted E-value: 128
#: million, 512 MB. A bigger search ranks its hits by score (and says so).
KEEP_SCORES = 1 << 27
#: Scores this many standard deviations above the line are left out of the fit.
OUTLIER_Z = 5.0
#: Fewest unrelated database sequences a fit needs.
MIN_SEQUENCES = 100
_EULER = 0.5772156649015329


@dataclass
class Fit:
    """One query's line and spread: ``mean = rho * ln(n) + mu``, standard deviation
    ``sigma`` (scores in the scoring's units)."""

    rho: float
    mu: float
    sigma: float
    used: int

    @property
    def lam(self) -> float:
        """The extreme-value distribution's lambda, ``pi / (sigma sqrt 6)`` (Karlin-Altschul's
        lambda where the scores follow their theory)."""
        return math.pi / (self.sigma * math.sqrt(6))


class ScoreCounts:
    """Per query, how many database sequences of each length bin reached each score.

    Parameters
    ----------
    queries : int
        Number of queries.
    lengths : numpy.ndarray
        Every database sequence's length (any order): the bins' edges are its quantiles in
        ln length.
    scale : int
        The device scores' scale (counts are kept in device units).

    Attributes
    ----------
    kept : list or None
        Every chunk's ``(scores, database numbers, lengths)`` while the search has at most
        :data:`KEEP_SCORES` scores, for :meth:`ranked`; None beyond.
    """

    def __init__(self, queries: int, lengths: np.ndarray, scale: int = 1):
        logs = np.log(np.maximum(np.asarray(lengths, dtype=np.float64), 1.0))
        bins = max(1, min(BINS, logs.size // 50))
        self.edges = np.unique(np.quantile(logs, np.linspace(0, 1, bins + 1)[1:-1])) \
            if logs.size else np.zeros(0)
        nb = self.edges.size + 1
        which = np.searchsorted(self.edges, logs, side="right")
        self.centers = (np.bincount(which, weights=logs, minlength=nb)
                        / np.maximum(np.bincount(which, minlength=nb), 1))
        self.scale = int(scale)
        self.cap = SCORE_CAP * self.scale
        self.counts = np.zeros((queries, nb, self.cap + 1), dtype=np.int32)
        self.kept: list | None = [] if queries * logs.size <= KEEP_SCORES else None
        self._lock = threading.Lock()

    def add(self, scores: np.ndarray, lengths: np.ndarray,
            numbers: np.ndarray | None = None) -> None:
        """Count a chunk: ``scores[q, j]`` (device units) of query q against database
        sequence ``numbers[j]`` of length ``lengths[j]`` (kept too, see :attr:`kept`)."""
        scores = np.asarray(scores)
        if self.kept is not None and numbers is not None:
            with self._lock:
                self.kept.append((scores.astype(np.int32), np.asarray(numbers),
                                  np.asarray(lengths)))
        nq, nb, width = self.counts.shape
        which = np.searchsorted(self.edges, np.log(np.maximum(lengths, 1)), side="right")
        cell = which[None, :] * width + np.clip(scores, 0, self.cap)
        for q0 in range(0, nq, QUERY_BLOCK):
            part = cell[q0:q0 + QUERY_BLOCK]
            keys = np.arange(part.shape[0])[:, None] * (nb * width) + part
            counted = np.bincount(keys.ravel(), minlength=part.shape[0] * nb * width)
            with self._lock:   # chunks of several devices arrive from their own threads
                self.counts[q0:q0 + part.shape[0]] += counted.reshape(-1, nb, width).astype(
                    np.int32)

    def ranked(self, fits: list, sequences: int, top: int) -> list[tuple] | None:
        """Each query's ``top`` hits by fitted E-value (then database number), from the kept
        scores: ``(device scores, database numbers, log E-values)``; a query without a fit
        by score. None when no scores were kept."""
        if self.kept is None:
            return None
        scores = np.concatenate([k[0] for k in self.kept], axis=1)
        numbers = np.concatenate([k[1] for k in self.kept])
        lengths = np.concatenate([k[2] for k in self.kept])
        out = []
        for q, fitted in enumerate(fits):
            mine, positive = scores[q], scores[q] > 0
            log_e = (log_evalues(mine / self.scale, lengths, fitted, sequences)
                     if fitted is not None else -mine.astype(np.float64))
            cand = np.flatnonzero(positive)
            if cand.size > top:   # the top by key, ties at the cut kept, before the sort
                cut = np.partition(log_e[cand], top - 1)[top - 1]
                cand = cand[log_e[cand] <= cut]
            order = cand[np.lexsort((numbers[cand], log_e[cand]))][:top]
            out.append((mine[order].astype(np.int64), numbers[order].astype(np.int64),
                        log_e[order] if fitted is not None else np.full(order.size, np.nan)))
        return out

    def fits(self) -> list[Fit | None]:
        """Each query's :func:`fit` (in the scoring's units), None where it cannot be made."""
        return [fit(self.counts[q], self.centers, self.scale) for q in range(len(self.counts))]


def fit(counts: np.ndarray, centers: np.ndarray, scale: int = 1) -> Fit | None:
    """Pearson's regression of one query's scores on ln(length), high outliers left out.

    Parameters
    ----------
    counts : numpy.ndarray
        ``(bins, scores)`` counts of :class:`ScoreCounts`.
    centers : numpy.ndarray
        The bins' mean ln length.
    scale : int
        Divide the score values by this.

    Returns
    -------
    Fit or None
        None with fewer than :data:`MIN_SEQUENCES` sequences or no spread.
    """
    values = np.arange(counts.shape[1], dtype=np.float64) / scale
    keep = np.ones(counts.shape, dtype=bool)
    keep[:, -1] = False   # the capped count holds scores of unknown value
    result = None
    for _ in range(10):
        used = np.where(keep, counts, 0)
        n = used.sum(axis=1).astype(np.float64)
        total = n.sum()
        if total < MIN_SEQUENCES:
            return None
        means = (used * values).sum(axis=1) / np.maximum(n, 1)
        rho, mu = _line(centers, means, n)
        residual = values[None, :] - (rho * centers + mu)[:, None]
        sigma = math.sqrt(float((used * residual**2).sum()) / total)
        if sigma <= 0:
            return None
        result = Fit(rho, mu, sigma, int(total))
        now = (residual < OUTLIER_Z * sigma) & (np.arange(counts.shape[1]) < counts.shape[1] - 1)
        if np.array_equal(now, keep):
            break
        keep = now
    return result


def _line(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """Weighted least-squares ``y = rho * x + mu`` (a flat line through one bin)."""
    total = w.sum()
    mx, my = (w * x).sum() / total, (w * y).sum() / total
    sxx = (w * (x - mx) ** 2).sum()
    rho = float((w * (x - mx) * (y - my)).sum() / sxx) if sxx > 0 else 0.0
    return rho, float(my - rho * mx)


def log_evalues(scores, lengths, fitted: Fit, sequences: int) -> np.ndarray:
    """Natural log of the E-values of ``scores`` against sequences of ``lengths`` among
    ``sequences`` database sequences (see the module docstring)."""
    z = (np.asarray(scores, np.float64) - fitted.rho * np.log(np.maximum(lengths, 1))
         - fitted.mu) / fitted.sigma
    t = math.pi / math.sqrt(6) * z + _EULER
    with np.errstate(over="ignore", divide="ignore"):
        # log P = log(1 - exp(-exp(-t))), which is -t where exp(-t) is tiny
        log_p = np.where(t > 30, -t, np.log(-np.expm1(-np.exp(-np.minimum(t, 30)))))
    return math.log(sequences) + log_p
