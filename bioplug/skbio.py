"""Functions with scikit-bio's signatures and return types, computed on an OpenCL device.

Each function here takes the arguments of its scikit-bio namesake (plus ``device=``) and
returns the same types, so ``from bioplug.skbio import pair_align`` can replace
``from skbio.alignment import pair_align``. Settings the device cannot reproduce exactly are
handed to scikit-bio itself.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import numpy as np

from bioplug.faults import device_guard

if TYPE_CHECKING:
    from bioplug.pairwise.aligner import PairwiseAligner

log = logging.getLogger(__name__)

__all__ = ["pair_align"]


# -- pairwise ---------------------------------------------------------------------------------
def _free_end_flags(local: bool, free_ends, trim_ends: bool) -> tuple[int, int, int, int]:
    """scikit-bio's end-gap policy: (lead1, trail1, lead2, trail2), 0 penalize, 1 free,
    2 free and trimmed (as ``skbio.alignment._pair._prep_free_ends``)."""
    if local:
        return 2, 2, 2, 2
    trim = bool(trim_ends)
    if np.isscalar(free_ends):
        free = int(bool(free_ends))
        free += free and trim
        return free, free, free, free
    flags = [int(bool(x)) for x in free_ends]
    if len(flags) == 2:
        f1, f2 = (x + (x and trim) for x in flags)
        return f1, f1, f2, f2
    if len(flags) == 4:
        return tuple(x + (x and trim) for x in flags)  # type: ignore[return-value]
    raise ValueError("`free_ends` must be one, two or four Booleans.")


def _trim(coords: np.ndarray, lead1: int, trail1: int, lead2: int, trail2: int) -> np.ndarray:
    """Drop leading / trailing gap columns that ``trim_ends`` excludes from the path.

    Row 0 is seq1, row 1 seq2. A segment where only seq2 advances is a gap in seq1.
    """

    def droppable(k: int, lead_or_trail: tuple[int, int]) -> bool:
        d1 = coords[0, k + 1] - coords[0, k]
        d2 = coords[1, k + 1] - coords[1, k]
        flag1, flag2 = lead_or_trail
        return (d1 == 0 and d2 > 0 and flag1 == 2) or (d2 == 0 and d1 > 0 and flag2 == 2)

    while coords.shape[1] > 1 and droppable(0, (lead1, lead2)):
        coords = coords[:, 1:]
    while coords.shape[1] > 1 and droppable(coords.shape[1] - 2, (trail1, trail2)):
        coords = coords[:, :-1]
    return coords


def _plain(seq) -> str | None:
    from skbio import Sequence

    if isinstance(seq, str):
        return seq
    if isinstance(seq, Sequence):
        return str(seq)
    return None


@device_guard
def pair_align(
    seq1, seq2, /, mode: str = "global", sub_score=(1.0, -1.0),
    gap_cost: float | tuple[float, float] = 2.0,
    free_ends: bool | tuple[bool, bool] | tuple[bool, bool, bool, bool] = True,
    trim_ends: bool = False, max_paths: int | None = 1, atol: float = 1e-5,
    keep_matrices: bool = False, *, device=None,
):
    """Pairwise alignment with scikit-bio's :func:`skbio.alignment.pair_align` interface.

    Parameters
    ----------
    seq1, seq2 : skbio.Sequence or str
        The sequences (other types scikit-bio accepts, such as lists of words, are aligned by
        scikit-bio itself).
    mode : {"global", "local"}
        Global (with ``free_ends``) or local alignment.
    sub_score : (float, float), skbio.sequence.SubstitutionMatrix or str
        Match/mismatch scores, a matrix, or a matrix name (``"BLOSUM62"``, ``"NUC.4.4"``).
    gap_cost : float or (float, float)
        Linear penalty ``g`` (a gap of length k costs ``g * k``) or affine ``(o, e)`` (costs
        ``o + e * k``), as in scikit-bio.
    free_ends : bool, 2-tuple or 4-tuple of bool
        Free end gaps (global mode), as in scikit-bio.
    trim_ends : bool
        Leave free end gaps out of the returned path.
    max_paths : int or None
        1 (default): one optimal path, from the device's traceback; 0: score only. Other
        values (several or all co-optimal paths) are computed by scikit-bio.
    atol : float
        A local alignment scoring at most this has no path (as in scikit-bio).
    keep_matrices : bool
        True is handed to scikit-bio (the device does not keep DP matrices).
    device : str, int or Runtime, optional
        The OpenCL device (see :func:`bioplug.runtime.select_device`).

    Returns
    -------
    skbio.alignment._pair.PairAlignResult
        ``(score, paths, matrices)``: the optimal score, a list with one
        :class:`skbio.alignment.PairAlignPath` (None when ``max_paths=0``; an empty list for a
        local alignment without a positive score), and None.

    Notes
    -----
    The device computes the score in exact scaled integers, so it equals scikit-bio's
    whenever scikit-bio's own (float32 by default) arithmetic is exact. When several paths
    are optimal, the one returned may differ from scikit-bio's choice; it has the same score.
    scikit-bio computes the result itself for: ``max_paths`` other than 0 or 1,
    ``keep_matrices=True``, infinite scores, sequences that are not ``str`` or
    ``skbio.Sequence`` (or are of different types), letters outside the substitution
    matrix (scikit-bio replaces degenerate codes by a wildcard), and scores the device
    cannot reproduce exactly (see :class:`bioplug.PairwiseAligner`).

    Examples
    --------
    >>> from skbio import Protein
    >>> from bioplug.skbio import pair_align
    >>> seq1, seq2 = Protein("MKRTLKGHFVQWC"), Protein("MQMLKTHYAQTRN")
    >>> score, paths, _ = pair_align(seq1, seq2, mode="local", sub_score="BLOSUM62",
    ...                              gap_cost=(11, 1))
    >>> score
    23.0
    >>> paths[0].to_aligned((seq1, seq2))
    ['LKGHFVQ', 'LKTHYAQ']
    """
    settings = dict(mode=mode, sub_score=sub_score, gap_cost=gap_cost, free_ends=free_ends,
                    trim_ends=trim_ends, max_paths=max_paths, atol=atol,
                    keep_matrices=keep_matrices)
    reason = _device_refuses(seq1, seq2, mode, max_paths, keep_matrices)
    if reason is None:
        t1, t2 = _plain(seq1), _plain(seq2)
        local = mode == "local"
        flags = _free_end_flags(local, free_ends, trim_ends)
        aligner, reason = _device_aligner(device, mode, sub_score, gap_cost, t1, t2, flags)
        if reason is None:
            return _device_pair_result(aligner, t1, t2, max_paths, local, atol, flags)
    return _skbio_pair_align(seq1, seq2, settings, reason)


def _skbio_pair_align(seq1, seq2, settings: dict, reason: str):
    """scikit-bio's own ``pair_align``, for what the device does not reproduce."""
    from skbio.alignment import pair_align as skbio_pair_align

    log.info("pair_align: %s; using scikit-bio", reason)
    return skbio_pair_align(seq1, seq2, **settings)


def _device_refuses(seq1, seq2, mode: str, max_paths, keep_matrices: bool) -> str | None:
    """Why the device cannot take these arguments at all (None: it can)."""
    if mode not in ("global", "local"):
        return "unknown mode"
    if keep_matrices or max_paths not in (0, 1):
        return "several paths or DP matrices requested"
    t1, t2 = _plain(seq1), _plain(seq2)
    if t1 is None or t2 is None or type(seq1) is not type(seq2) or not t1 or not t2:
        return "sequence types"
    return None


def _device_aligner(device, mode: str, sub_score, gap_cost, t1: str, t2: str,
                    flags: tuple[int, int, int, int]) -> tuple[PairwiseAligner, str | None]:
    """A ``PairwiseAligner`` with scikit-bio's scores and gaps, and the reason to hand the
    alignment to scikit-bio instead (None: the device reproduces these scores exactly)."""
    from bioplug.pairwise.aligner import PairwiseAligner

    aligner = PairwiseAligner(device=device, mode=mode)
    reason = _set_scores(aligner, sub_score, t1, t2)
    if reason is None:
        reason = _set_gaps(aligner, gap_cost, mode == "local", flags)
    if reason is None and aligner.device_scoring((t1, t2)) is None:
        reason = "scores not exactly reproducible on the device"
    return aligner, reason


def _set_scores(aligner, sub_score, t1: str, t2: str) -> str | None:
    """Match/mismatch scores or a substitution matrix onto ``aligner``; a reason to hand
    the alignment to scikit-bio instead, or None."""
    if isinstance(sub_score, tuple) or (isinstance(sub_score, list) and len(sub_score) == 2):
        match, mismatch = (float(x) for x in sub_score)
        if not (np.isfinite(match) and np.isfinite(mismatch)):
            return "infinite scores"
        aligner.match_score, aligner.mismatch_score = match, mismatch
        return None
    from Bio.Align.substitution_matrices import Array
    from skbio.sequence import SubstitutionMatrix

    matrix = SubstitutionMatrix.by_name(sub_score) if isinstance(sub_score, str) else sub_score
    alphabet = tuple(matrix.alphabet)
    scores = np.asarray(matrix.scores, dtype=np.float64)
    if not all(isinstance(c, str) and len(c) == 1 for c in alphabet):
        return "matrix alphabet"
    if not np.isfinite(scores).all():
        return "infinite scores"
    letters = set(alphabet)
    if not (set(t1) <= letters and set(t2) <= letters):
        return "letters outside the matrix"
    aligner.substitution_matrix = Array(alphabet="".join(alphabet), dims=2, data=scores)
    return None


def _set_gaps(aligner, gap_cost, local: bool, flags: tuple[int, int, int, int]) -> str | None:
    """scikit-bio's gap costs and free end gaps onto ``aligner`` (None, or a reason to hand
    the alignment to scikit-bio)."""
    if np.isscalar(gap_cost):
        opening = extend = -float(gap_cost)
    else:
        o, e = (float(x) for x in gap_cost)
        opening, extend = -(o + e), -e
    if not (np.isfinite(opening) and np.isfinite(extend)):
        return "infinite gap cost"
    aligner.open_gap_score = opening
    aligner.extend_gap_score = extend
    if not local:
        lead1, trail1, lead2, trail2 = flags
        # seq1 is Biopython's target: a gap in seq1 is an insertion, in seq2 a deletion.
        for flag, end, kind in (
            (lead1, "left", "insertion"), (trail1, "right", "insertion"),
            (lead2, "left", "deletion"), (trail2, "right", "deletion"),
        ):
            if flag:
                setattr(aligner, f"open_{end}_{kind}_score", 0.0)
                setattr(aligner, f"extend_{end}_{kind}_score", 0.0)
    return None


def _device_pair_result(aligner, t1: str, t2: str, max_paths, local: bool, atol,
                        flags: tuple[int, int, int, int]):
    """The device's score (and path) as scikit-bio's ``PairAlignResult``."""
    from skbio.alignment import PairAlignPath
    from skbio.alignment._pair import PairAlignResult

    if max_paths == 0:
        score = float(aligner.score_many([t1], [t2])[0])
        return PairAlignResult(score, None, None)
    alignment = aligner.align_many([t1], [t2])[0]
    score = float(alignment.score)
    if local and abs(score) <= (atol or 0.0):
        return PairAlignResult(score, [], None)
    coords = np.asarray(alignment.coordinates, dtype=np.int64)
    if not local:
        coords = _trim(coords, *flags)
    return PairAlignResult(score, [PairAlignPath.from_coordinates(coords)], None)


# -- trees (bioplug.tree) ---------------------------------------------------------------------
__all__.append("nj")


@device_guard
def nj(dm, neg_as_zero=True, result_constructor=None, inplace=False, *, device=None,
       disallow_negative_branch_length=None):
    """Neighbor joining with :func:`skbio.tree.nj`'s interface, on an OpenCL device.

    See :func:`bioplug.tree.skbio_api.nj`; returns scikit-bio's unrooted tree (topology and
    branch lengths, to rounding), with its errors and deprecation warnings. Where the tree
    is drawn from (which three clusters sit at the root) and the children's order may
    differ from scikit-bio's, so compare trees as scikit-bio's own tests do
    (``compare_tip_distances``, ``compare_rfd``), not by their Newick strings.
    """
    from bioplug.tree.skbio_api import nj as _nj

    return _nj(dm, neg_as_zero, result_constructor, inplace, device=device,
               disallow_negative_branch_length=disallow_negative_branch_length)


__all__.append("upgma")


@device_guard
def upgma(dm, weighted=False, *, device=None):
    """UPGMA / WPGMA with :func:`skbio.tree.upgma`'s interface, on an OpenCL device.

    See :func:`bioplug.tree.skbio_api.upgma`: scipy's nearest-neighbour chain on the device,
    so the tree is scikit-bio's, ties included, with its errors.

    Examples
    --------
    >>> from skbio import DistanceMatrix
    >>> from bioplug.skbio import upgma
    >>> dm = DistanceMatrix([[0, 1, 2], [1, 0, 3], [2, 3, 0]], list('abc'))
    >>> print(upgma(dm, device="cpu"))
    (c:1.25,(a:0.5,b:0.5):0.75);
    <BLANKLINE>
    """
    from bioplug.tree.skbio_api import upgma as _upgma

    return _upgma(dm, weighted, device=device)


# -- multiple alignment (bioplug.progressive.skbio_method) ------------------------------------
__all__ += ["multi_align", "multi_align_nucl", "multi_align_prot"]


@device_guard
def multi_align(sequences, /, sub_score=(1.0, -1.0), gap_cost=2.0, free_ends=True,
                guide_tree=None, ids=None, atol=1e-5, keep_tree=False, keep_distmat=False,
                *, device=None):
    """scikit-bio's progressive alignment (:func:`skbio.alignment.multi_align`) on the device.

    The same method and result as scikit-bio 0.7.4: ``pair_align`` scores of every pair,
    Feng-Doolittle score distances, UPGMA, profile merges with scikit-bio's ties. See
    :func:`bioplug.progressive.skbio_method.multi_align` for the parameters; ``device`` picks
    the OpenCL device. (bioplug's own QuickProbs aligner with this signature is
    :func:`bioplug.msa.skbio_api.multi_align`.)

    Examples
    --------
    >>> from skbio import DNA
    >>> from bioplug.skbio import multi_align
    >>> seqs = [DNA('CATTAACGT'), DNA('CGTTACGGT'), DNA('AGTTAACGG')]
    >>> path = multi_align(seqs, device="cpu").path
    >>> path.to_aligned(seqs)
    ['CA-TTAACGT-', '-CGTTA-CGGT', '-AGTTAACGG-']
    """
    from bioplug.progressive.skbio_method import multi_align as _multi_align

    return _multi_align(sequences, sub_score, gap_cost, free_ends, guide_tree, ids, atol,
                        keep_tree, keep_distmat, device=device)


def multi_align_nucl(sequences, /, **kwargs):
    """:func:`multi_align` with BLASTN's scores (``skbio.alignment.multi_align_nucl``): match
    2, mismatch -3, gap opening 5, extension 2; every keyword can be given."""
    params = dict(sub_score=(2.0, -3.0), gap_cost=(5.0, 2.0))
    params.update(kwargs)
    return multi_align(sequences, **params)


def multi_align_prot(sequences, /, **kwargs):
    """:func:`multi_align` with BLASTP's scores (``skbio.alignment.multi_align_prot``):
    BLOSUM62, gap opening 11, extension 1; every keyword can be given."""
    params = dict(sub_score="BLOSUM62", gap_cost=(11.0, 1.0))
    params.update(kwargs)
    return multi_align(sequences, **params)
