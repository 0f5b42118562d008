"""BLAST's statistics of a local alignment score: bit scores and E-values.

- :data:`KARLIN_ALTSCHUL`: the gapped ``(lambda, K)`` NCBI BLAST+ publishes for a matrix and
  gap costs, with its length-adjustment parameters ``(alpha, beta)``;
  ``bits = (lambda * S - ln K) / ln 2``.
- Plain E-values (:func:`evalues`): ``E = (m - l) * (n - N * l) * 2**-bits``, BLAST+'s
  effective search space with its length adjustment ``l`` (:func:`length_adjustment`), or
  ``m * n`` for a user's own ``(lambda, K)`` (as SSEARCH reports them). blastp prints these
  with ``OLD_FSC`` set in its environment.
- Spouge's finite-size correction (:func:`spouge_evalues`, BLAST+'s default; blastp 2.12 here):
  each hit's E-value from the query's and the subject's own lengths, with the Gumbel
  parameters BLAST+ tabulates beside ``(lambda, K)`` (:data:`SPOUGE`, :data:`SPOUGE_UNGAPPED`).
  Park, Sheetlin, Ma, Mott and Spouge (2012), "Finite-size correction and bias correction
  in gapped local alignment statistics", BMC Bioinformatics 13, 104 (doi:10.1186/1471-2105-13-104).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

#: Gapped Karlin-Altschul parameters (lambda, K) and BLAST's length-adjustment parameters
#: (alpha, beta; Altschul, Bundschuh, Olsen and Hwa 2001) by matrix and BLAST gap costs
#: (existence, extension), from NCBI BLAST+'s ``blast_stat.c`` tables (``blosum45_values``,
#: ``blosum50_values``, ``blosum62_values``, ``blosum80_values``, ``blosum90_values``,
#: ``pam30_values``, ``pam70_values``, ``pam250_values``; columns 4, 5, 7 and 8).
KARLIN_ALTSCHUL: dict[tuple[str, int, int], tuple[float, float, float, float]] = {
    ("BLOSUM45", 13, 3): (0.207, 0.049, 1.5, -22), ("BLOSUM45", 12, 3): (0.199, 0.039, 1.8, -34),
    ("BLOSUM45", 11, 3): (0.190, 0.031, 2.0, -38), ("BLOSUM45", 10, 3): (0.179, 0.023, 2.4, -51),
    ("BLOSUM45", 16, 2): (0.210, 0.051, 1.5, -24), ("BLOSUM45", 15, 2): (0.203, 0.041, 1.7, -31),
    ("BLOSUM45", 14, 2): (0.195, 0.032, 1.9, -36), ("BLOSUM45", 13, 2): (0.185, 0.024, 2.2, -45),
    ("BLOSUM45", 12, 2): (0.171, 0.016, 2.8, -65), ("BLOSUM45", 19, 1): (0.205, 0.040, 1.9, -43),
    ("BLOSUM45", 18, 1): (0.198, 0.032, 2.0, -43), ("BLOSUM45", 17, 1): (0.189, 0.024, 2.4, -57),
    ("BLOSUM45", 16, 1): (0.176, 0.016, 2.8, -67),
    ("BLOSUM50", 13, 3): (0.212, 0.063, 1.1, -16), ("BLOSUM50", 12, 3): (0.206, 0.055, 1.2, -18),
    ("BLOSUM50", 11, 3): (0.197, 0.042, 1.4, -25), ("BLOSUM50", 10, 3): (0.186, 0.031, 1.7, -34),
    ("BLOSUM50", 9, 3): (0.172, 0.022, 2.1, -48), ("BLOSUM50", 16, 2): (0.215, 0.066, 1.05, -15),
    ("BLOSUM50", 15, 2): (0.210, 0.058, 1.2, -20), ("BLOSUM50", 14, 2): (0.202, 0.045, 1.4, -27),
    ("BLOSUM50", 13, 2): (0.193, 0.035, 1.6, -32), ("BLOSUM50", 12, 2): (0.181, 0.025, 1.9, -41),
    ("BLOSUM50", 19, 1): (0.212, 0.057, 1.2, -21), ("BLOSUM50", 18, 1): (0.207, 0.050, 1.4, -28),
    ("BLOSUM50", 17, 1): (0.198, 0.037, 1.6, -33), ("BLOSUM50", 16, 1): (0.186, 0.025, 1.9, -42),
    ("BLOSUM50", 15, 1): (0.171, 0.015, 2.7, -76),
    ("BLOSUM62", 11, 2): (0.297, 0.082, 1.1, -10), ("BLOSUM62", 10, 2): (0.291, 0.075, 1.3, -15),
    ("BLOSUM62", 9, 2): (0.279, 0.058, 1.5, -19), ("BLOSUM62", 8, 2): (0.264, 0.045, 1.8, -26),
    ("BLOSUM62", 7, 2): (0.239, 0.027, 2.5, -46), ("BLOSUM62", 6, 2): (0.201, 0.012, 3.3, -58),
    ("BLOSUM62", 13, 1): (0.292, 0.071, 1.2, -11), ("BLOSUM62", 12, 1): (0.283, 0.059, 1.5, -19),
    ("BLOSUM62", 11, 1): (0.267, 0.041, 1.9, -30), ("BLOSUM62", 10, 1): (0.243, 0.024, 2.5, -44),
    ("BLOSUM62", 9, 1): (0.206, 0.010, 4.0, -87),
    ("BLOSUM80", 25, 2): (0.342, 0.17, 0.52, -1.6), ("BLOSUM80", 13, 2): (0.336, 0.15, 0.59, -3),
    ("BLOSUM80", 9, 2): (0.319, 0.11, 0.76, -6), ("BLOSUM80", 8, 2): (0.308, 0.090, 0.89, -9),
    ("BLOSUM80", 7, 2): (0.293, 0.070, 1.1, -14), ("BLOSUM80", 6, 2): (0.268, 0.045, 1.4, -19),
    ("BLOSUM80", 11, 1): (0.314, 0.095, 0.90, -9), ("BLOSUM80", 10, 1): (0.299, 0.071, 1.1, -14),
    ("BLOSUM80", 9, 1): (0.279, 0.048, 1.4, -19),
    ("BLOSUM90", 9, 2): (0.310, 0.12, 0.67, -6), ("BLOSUM90", 8, 2): (0.300, 0.099, 0.76, -7),
    ("BLOSUM90", 7, 2): (0.283, 0.072, 0.93, -11), ("BLOSUM90", 6, 2): (0.259, 0.048, 1.2, -16),
    ("BLOSUM90", 11, 1): (0.302, 0.093, 0.78, -8), ("BLOSUM90", 10, 1): (0.290, 0.075, 1.04, -15),
    ("BLOSUM90", 9, 1): (0.265, 0.044, 1.3, -19),
    ("PAM30", 7, 2): (0.305, 0.15, 0.35, -3), ("PAM30", 6, 2): (0.287, 0.11, 0.42, -4),
    ("PAM30", 5, 2): (0.264, 0.079, 0.59, -7), ("PAM30", 10, 1): (0.309, 0.15, 0.35, -3),
    ("PAM30", 9, 1): (0.294, 0.11, 0.48, -6), ("PAM30", 8, 1): (0.270, 0.072, 0.68, -10),
    ("PAM70", 8, 2): (0.301, 0.12, 0.56, -5), ("PAM70", 7, 2): (0.286, 0.093, 0.67, -7),
    ("PAM70", 6, 2): (0.264, 0.064, 0.90, -12), ("PAM70", 11, 1): (0.305, 0.12, 0.59, -6),
    ("PAM70", 10, 1): (0.291, 0.091, 0.71, -9), ("PAM70", 9, 1): (0.270, 0.060, 0.97, -14),
    ("PAM250", 15, 3): (0.205, 0.049, 1.6, -23), ("PAM250", 14, 3): (0.200, 0.043, 1.7, -26),
    ("PAM250", 13, 3): (0.194, 0.036, 1.9, -31), ("PAM250", 12, 3): (0.186, 0.029, 2.2, -41),
    ("PAM250", 11, 3): (0.174, 0.020, 2.5, -48), ("PAM250", 17, 2): (0.204, 0.047, 1.7, -28),
    ("PAM250", 16, 2): (0.198, 0.038, 1.8, -29), ("PAM250", 15, 2): (0.191, 0.031, 2.2, -44),
    ("PAM250", 14, 2): (0.182, 0.024, 2.5, -53), ("PAM250", 13, 2): (0.171, 0.017, 2.9, -64),
    ("PAM250", 21, 1): (0.205, 0.045, 1.8, -34), ("PAM250", 20, 1): (0.199, 0.037, 1.9, -35),
    ("PAM250", 19, 1): (0.192, 0.029, 2.3, -52), ("PAM250", 18, 1): (0.183, 0.021, 2.6, -60),
    ("PAM250", 17, 1): (0.171, 0.014, 3.3, -86),
    # BLASTN's rows for reward 5 / penalty -4 (``blastn_values_5_4``), how NUC.4.4 (EDNAFULL)
    # scores A, C, G and T; BLASTN applies no finite-size correction
    ("NUC.4.4", 10, 6): (0.163, 0.068, 1.0, -19), ("NUC.4.4", 8, 6): (0.146, 0.039, 1.3, -29),
}
def karlin_altschul(matrix_name: str | None, gap_open: int, gap_extend: int):
    """BLAST's gapped ``(lambda, K, alpha, beta)`` for a matrix and gap costs
    (:data:`KARLIN_ALTSCHUL`), or None when not tabulated."""
    if matrix_name is None:
        return None
    return KARLIN_ALTSCHUL.get((matrix_name.upper(), int(gap_open), int(gap_extend)))


def bit_scores(scores, lam: float, k: float) -> np.ndarray:
    """``(lambda * S - ln K) / ln 2``."""
    return (lam * np.asarray(scores, dtype=np.float64) - math.log(k)) / math.log(2)


def length_adjustment(query_length, db_residues, db_sequences, lam: float, k: float,
                      alpha: float, beta: float) -> np.ndarray:
    """BLAST's length adjustment ``l`` (the expected length of a chance alignment's edge
    effect) of each query length against a database, as an int64 array (numpy broadcasting
    over the three sizes).

    With ``m`` the query length, ``n`` the database residues, ``N`` its sequences and
    ``f(l) = (alpha / lambda) * (ln K + ln((m - l) * (n - N * l))) + beta``, ``l`` is the
    largest integer ``0 <= l <= l_max`` with ``l <= f(l)``, where ``l_max`` is the real ``l``
    at which ``K * (m - l) * (n - N * l) = max(m, n)`` (the smaller root of that quadratic,
    itself allowed, as BLAST allows it): the search space must not fall below
    ``max(m, n) / K``. It is 0 when no ``l`` fits (``K m n
    <= max(m, n)``, or ``f(0) < 0``). Altschul et al. 2001; NCBI BLAST+ defines it so
    (``BLAST_ComputeLengthAdjustment``).

    ``f`` decreases on ``[0, l_max]``, so ``f(l) - l`` has one root there (or none: then
    ``l_max`` or 0 bounds the answer) and the integers that fit are ``0 .. floor(root)``. The
    root is found by bisection (64 halvings, which reach float precision), and its floor is
    then checked against the definition, one integer either way, so that rounding next to an
    integer cannot move the answer.
    """
    m, n, big_n = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64)
                                        for v in (query_length, db_residues, db_sequences)))
    slope, log_k = alpha / lam, math.log(k)

    def f(ell):
        with np.errstate(divide="ignore", invalid="ignore"):
            return slope * (log_k + np.log((m - ell) * (n - big_n * ell))) + beta

    # N l^2 - (m N + n) l + (m n - max(m, n) / K) = 0: its smaller root, written as
    # 2 c / (b + sqrt(b^2 - 4 a c)) (no cancellation)
    b = m * big_n + n
    c = m * n - np.maximum(m, n) / k
    room = c > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        top = np.where(room, 2 * c / (b + np.sqrt(b * b - 4 * big_n * c)), 0.0)
    lo, hi = np.zeros_like(top), top.copy()   # f(lo) >= lo (or lo = 0) throughout
    for _ in range(64):
        mid = (lo + hi) / 2
        below = f(mid) >= mid
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    ell = np.floor(lo)

    def fits(x):
        return room & (x <= top) & (f(x) >= x)

    ell = np.where(fits(ell + 1), ell + 1, ell)
    ell = np.where((ell > 0) & ~fits(ell), ell - 1, ell)
    return ell.astype(np.int64)


def search_space(query_length, db_residues: int, db_sequences: int, karlin) -> np.ndarray:
    """The search space of each query length: BLAST+'s effective one, ``(m - l) * (n - N *
    l)`` with :func:`length_adjustment` ``l``, when ``karlin`` is ``(lambda, K, alpha,
    beta)``; ``m * n`` (SSEARCH's, no adjustment) when it is only ``(lambda, K)``."""
    m = np.asarray(query_length, dtype=np.float64)
    if karlin is None or len(karlin) < 4:
        return m * float(db_residues)
    ell = length_adjustment(m, db_residues, db_sequences, *karlin[:4]).astype(np.float64)
    return (m - ell) * (float(db_residues) - float(db_sequences) * ell)


def evalues(bits, query_length, db_residues: int, db_sequences: int = 1,
            karlin=None) -> np.ndarray:
    """``space * 2**-bits`` (``= K * space * exp(-lambda * S)``; ``query_length`` a number or
    one per bit score), ``space`` from :func:`search_space`: BLAST+'s effective search space
    when ``karlin`` has alpha and beta (the table's ``(lambda, K, alpha, beta)``), else ``m *
    n`` (``karlin`` None or a user's ``(lambda, K)``)."""
    # one length adjustment a distinct query length (a bisection each)
    lengths, back = np.unique(np.asarray(query_length, dtype=np.float64), return_inverse=True)
    space = search_space(lengths, db_residues, db_sequences, karlin)[back.reshape(
        np.shape(query_length))]
    return space * np.exp2(-np.asarray(bits, np.float64))


#: Spouge's finite-size parameters of each :data:`KARLIN_ALTSCHUL` entry: ``(Alpha, Sigma)``,
#: the slopes in the score of the variance of an alignment's length and of the covariance of
#: its two lengths (Park et al. 2012); NCBI BLAST+'s ``blast_stat.c`` tables, columns 10 and
#: 11 of the same rows.
SPOUGE: dict[tuple[str, int, int], tuple[float, float]] = {
    ("BLOSUM45", 13, 3): (35.8559, 35.9639), ("BLOSUM45", 12, 3): (45.6936, 45.8517),
    ("BLOSUM45", 11, 3): (62.8741, 63.1037), ("BLOSUM45", 10, 3): (88.2868, 88.6391),
    ("BLOSUM45", 16, 2): (36.2798, 36.4524), ("BLOSUM45", 15, 2): (44.8257, 45.0604),
    ("BLOSUM45", 14, 2): (60.7362, 61.1023), ("BLOSUM45", 13, 2): (85.1481, 85.6894),
    ("BLOSUM45", 12, 2): (127.758, 128.582), ("BLOSUM45", 19, 1): (53.0714, 53.8282),
    ("BLOSUM45", 18, 1): (72.3424, 73.4039), ("BLOSUM45", 17, 1): (103.055, 104.721),
    ("BLOSUM45", 16, 1): (170.1, 173.003),
    ("BLOSUM50", 13, 3): (18.1138, 18.2028), ("BLOSUM50", 12, 3): (22.6546, 22.7777),
    ("BLOSUM50", 11, 3): (29.8611, 30.0457), ("BLOSUM50", 10, 3): (42.3938, 42.674),
    ("BLOSUM50", 9, 3): (66.0696, 66.5164), ("BLOSUM50", 16, 2): (17.9518, 18.0921),
    ("BLOSUM50", 15, 2): (21.9401, 22.1418), ("BLOSUM50", 14, 2): (28.6812, 28.9619),
    ("BLOSUM50", 13, 2): (42.0595, 42.4716), ("BLOSUM50", 12, 2): (63.7476, 64.3973),
    ("BLOSUM50", 19, 1): (26.3112, 26.9233), ("BLOSUM50", 18, 1): (34.9037, 35.7348),
    ("BLOSUM50", 17, 1): (48.8958, 50.1486), ("BLOSUM50", 16, 1): (76.4691, 78.443),
    ("BLOSUM50", 15, 1): (140.053, 144.16),
    ("BLOSUM62", 11, 2): (12.6738, 12.7576), ("BLOSUM62", 10, 2): (16.474, 16.6026),
    ("BLOSUM62", 9, 2): (22.7519, 22.95), ("BLOSUM62", 8, 2): (35.4838, 35.8213),
    ("BLOSUM62", 7, 2): (61.2383, 61.886), ("BLOSUM62", 6, 2): (140.417, 141.882),
    ("BLOSUM62", 13, 1): (19.5063, 19.8931), ("BLOSUM62", 12, 1): (27.8562, 28.4699),
    ("BLOSUM62", 11, 1): (42.6028, 43.6362), ("BLOSUM62", 10, 1): (83.1787, 85.0656),
    ("BLOSUM62", 9, 1): (210.333, 214.842),
    ("BLOSUM80", 25, 2): (1.731, 1.7313), ("BLOSUM80", 13, 2): (2.67347, 2.6923),
    ("BLOSUM80", 9, 2): (5.57609, 5.66786), ("BLOSUM80", 8, 2): (7.53695, 7.68623),
    ("BLOSUM80", 7, 2): (11.5866, 11.8404), ("BLOSUM80", 6, 2): (19.9581, 20.4412),
    ("BLOSUM80", 11, 1): (8.80861, 9.22332), ("BLOSUM80", 10, 1): (13.8338, 14.5334),
    ("BLOSUM80", 9, 1): (24.252, 25.4904),
    ("BLOSUM90", 9, 2): (4.23229, 4.33417), ("BLOSUM90", 8, 2): (5.79702, 5.96142),
    ("BLOSUM90", 7, 2): (9.04088, 9.3216), ("BLOSUM90", 6, 2): (16.0244, 16.5316),
    ("BLOSUM90", 11, 1): (7.14325, 7.61919), ("BLOSUM90", 10, 1): (11.4839, 12.2698),
    ("BLOSUM90", 9, 1): (21.4083, 22.8409),
    ("PAM30", 7, 2): (1.01401, 1.16273), ("PAM30", 6, 2): (1.68806, 1.95143),
    ("PAM30", 5, 2): (3.37701, 3.87195), ("PAM30", 10, 1): (1.37205, 1.78877),
    ("PAM30", 9, 1): (2.46392, 3.18615), ("PAM30", 8, 1): (5.36813, 6.76348),
    ("PAM70", 8, 2): (2.88165, 3.02571), ("PAM70", 7, 2): (4.53454, 4.78578),
    ("PAM70", 6, 2): (7.94263, 8.40272), ("PAM70", 11, 1): (3.6814, 4.10802),
    ("PAM70", 10, 1): (6.00297, 6.71657), ("PAM70", 9, 1): (11.3608, 12.6367),
    ("PAM250", 15, 3): (34.5784, 34.928), ("PAM250", 14, 3): (43.353, 43.4438),
    ("PAM250", 13, 3): (50.9485, 51.0817), ("PAM250", 12, 3): (69.6065, 69.7936),
    ("PAM250", 11, 3): (98.6535, 98.9271), ("PAM250", 17, 2): (41.5838, 41.7358),
    ("PAM250", 16, 2): (51.6352, 51.8439), ("PAM250", 15, 2): (67.2567, 67.5585),
    ("PAM250", 14, 2): (96.3151, 96.7568), ("PAM250", 13, 2): (135.653, 136.339),
    ("PAM250", 21, 1): (48.7282, 49.2188), ("PAM250", 20, 1): (60.832, 61.5141),
    ("PAM250", 19, 1): (84.0197, 84.9856), ("PAM250", 18, 1): (113.829, 115.184),
    ("PAM250", 17, 1): (175.071, 177.196),
}
#: The same two slopes' ungapped values per matrix, ``(alpha, Alpha)`` (the first row of each
#: ``blast_stat.c`` table, columns 7 and 10): the gapped intercepts are ``2 G`` times the
#: ungapped slope minus the gapped one (``G`` = gap existence + extension).
SPOUGE_UNGAPPED: dict[str, tuple[float, float]] = {
    "BLOSUM45": (0.9113, 9.61106), "BLOSUM50": (0.6895, 5.38831), "BLOSUM62": (0.7916, 4.96466),
    "BLOSUM80": (0.5222, 1.91813), "BLOSUM90": (0.4434, 1.37776), "PAM30": (0.1938, 0.161818),
    "PAM70": (0.325, 0.633439), "PAM250": (0.98, 11.7543),
}


#: The matrices the tables were computed for: SHA-256 (its first 16 hex digits) of the 20 x 20
#: block of standard residues of NCBI's matrix of each name (rows and columns in
#: ``STANDARD`` order, int8). A matrix gets a table's parameters only when its block is
#: NCBI's: Biopython's BLOSUM80 is the original 1/3-bit matrix (A/A scores 7), NCBI's the
#: 1/2-bit one (A/A scores 5), so BLAST's BLOSUM80 rows describe another matrix's scores.
NCBI_MATRICES: dict[str, str] = {
    "BLOSUM45": "afe1980c0323001d", "BLOSUM50": "9912e2267a314d57",
    "BLOSUM62": "9b2ded231b0a76ed", "BLOSUM80": "dd731afc43071672",
    "BLOSUM90": "585cb3a639334bab", "PAM30": "b15e7fd103f618d5", "PAM70": "bd2702cbf0c0258e",
    "PAM250": "350661c8ad10196b",
}
#: The residues of :data:`NCBI_MATRICES`' blocks, in their order.
STANDARD = "ARNDCQEGHILKMFPSTWYV"


def table_matrix(matrix) -> str | None:
    """The name under which BLAST's tables list ``matrix`` (a ``Bio.Align.substitution_matrices
    .Array``), or None when its 20 standard residues do not score as one of NCBI's matrices
    (:data:`NCBI_MATRICES`) and its A, C, G and T not as BLASTN's reward 5 / penalty -4 (listed
    as NUC.4.4); the scores of other letters (B, Z, X, N, ``*``) do not enter Karlin-Altschul
    parameters."""
    import hashlib

    alphabet = getattr(matrix, "alphabet", None)
    if alphabet is None:
        return None
    if any(c not in alphabet for c in STANDARD):
        if any(c not in alphabet for c in "ACGT"):
            return None
        index = [alphabet.index(c) for c in "ACGT"]
        block = np.asarray(matrix)[np.ix_(index, index)]
        reward_penalty = np.where(np.eye(4, dtype=bool), 5, -4)
        return "NUC.4.4" if np.array_equal(block, reward_penalty) else None
    index = [alphabet.index(c) for c in STANDARD]
    block = np.asarray(matrix)[np.ix_(index, index)]
    if not np.array_equal(block, np.round(block)) or np.abs(block).max() > 127:
        return None
    digest = hashlib.sha256(block.astype(np.int8).tobytes()).hexdigest()[:16]
    return next((name for name, known in NCBI_MATRICES.items() if known == digest), None)


class Spouge(NamedTuple):
    """Karlin-Altschul parameters with Spouge's finite-size terms (:func:`spouge`); its first
    four fields are :data:`KARLIN_ALTSCHUL`'s ``(lambda, K, alpha, beta)``, so it also serves
    where those are read (:func:`search_space`)."""

    lam: float
    k: float
    alpha: float          # mean length of an alignment's edge: a * score + b
    beta: float
    b: float
    var_slope: float      # variance of that length: var_slope * score + var_intercept
    var_intercept: float
    cov_slope: float      # covariance of the two lengths: cov_slope * score + cov_intercept
    cov_intercept: float


def spouge(matrix_name: str | None, gap_open: int, gap_extend: int) -> Spouge | None:
    """BLAST+'s parameters of Spouge's finite-size correction for a matrix and gap costs,
    or None where its tables do not have them."""
    if matrix_name is None:
        return None
    key = (matrix_name.upper(), int(gap_open), int(gap_extend))
    if key not in SPOUGE or key[0] not in SPOUGE_UNGAPPED:
        return None
    lam, k, alpha, beta = KARLIN_ALTSCHUL[key]
    var_slope, cov_slope = SPOUGE[key]
    alpha_un, var_un = SPOUGE_UNGAPPED[key[0]]
    two_g = 2.0 * (key[1] + key[2])
    return Spouge(lam, k, alpha, beta, two_g * (alpha_un - alpha), var_slope,
                  two_g * (var_un - var_slope), cov_slope, two_g * (var_un - cov_slope))


def spouge_evalues(scores, query_length, subject_length, db_residues: int,
                   params: Spouge) -> np.ndarray:
    """E-values with Spouge's finite-size correction, as BLAST+ computes them by default
    from a score (blastp's own scores may differ: it adjusts the matrix to each pair's
    composition unless ``-comp_based_stats 0``).

    The expected number of chance alignments of score ``y`` or more between a query of ``m``
    residues and a subject of ``n`` is ``K exp(-lambda y)`` times the area ``E[(m - L1)+
    (n - L2)+]`` the lengths ``L1``, ``L2`` of an alignment's edges leave, taken as normal
    with mean ``a y + b``, variance ``max(2 Alpha / lambda, Alpha y + Beta)`` and covariance
    ``max(2 Sigma / lambda, Sigma y + Tau)``: with ``mu = m - (a y + b)``, ``s`` the standard
    deviation and ``z = mu / s``, ``E[(m - L1)+] = mu Phi(z) + s phi(z)``, and the area is
    the product of the two sides' plus the covariance times ``Phi(z1) Phi(z2)``. The pair's
    value is scaled by ``db_residues / n`` to the whole database (Park et al. 2012; BLAST+'s
    ``BLAST_SpougeStoE``). All arguments broadcast.
    """
    y = np.asarray(scores, dtype=np.float64)
    lam = params.lam

    def edge(length):
        mu = np.asarray(length, dtype=np.float64) - (params.alpha * y + params.b)
        sd = np.sqrt(np.maximum(2.0 * params.var_slope / lam,
                                params.var_slope * y + params.var_intercept))
        z = mu / sd
        below = _normal_cdf(z)
        return mu * below + sd * np.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi), below

    side_q, p_q = edge(query_length)
    side_s, p_s = edge(subject_length)
    cov = np.maximum(2.0 * params.cov_slope / lam, params.cov_slope * y + params.cov_intercept)
    area = side_q * side_s + cov * p_q * p_s
    n = np.asarray(subject_length, dtype=np.float64)
    return area * params.k * np.exp(-lam * y) * (float(db_residues) / n)


#: Phi(z) = erfc(-z / sqrt 2) / 2 element by element: a search's hits are few, and importing
#: scipy.special for its ``ndtr`` cost a search command 0.1-0.2 s; erfc keeps the left
#: tail's relative precision as ``ndtr`` does.
_ERFC = np.vectorize(math.erfc, otypes=[np.float64])


def _normal_cdf(z) -> np.ndarray:
    """The standard normal distribution function of every element of ``z``."""
    return 0.5 * _ERFC(-np.asarray(z, dtype=np.float64) / math.sqrt(2.0))
