"""Exact three-sequence alignment, stage by stage (seed 004).

1. ``make_scheme``: the scoring scheme as integers the kernels reproduce exactly (scores that
   are dyadic fractions are scaled by a power of two; :func:`bioplug.alphabet.make_scoring`).
2. ``encode``: residues to matrix codes; unknown letters are an ``InputError`` naming the
   record, the position and the letter.
3. ``fill`` (phase 1): every tile of the DP cube on the device, one launch per tile diagonal
   (:class:`bioplug.three.device.ThreeEngine`), keeping only tile faces.
4. ``traceback`` (phases 2-3): the tiles the optimal path crosses, recomputed from their
   faces with a move per cell, one after the other from the last cell back.
5. ``columns``: column types to ``Bio.Align.Alignment`` coordinates.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from bioplug.alphabet import make_scoring, match_mismatch_letters
from bioplug.errors import InputError
from bioplug.three.device import Gaps

log = logging.getLogger(__name__)

#: Largest |score| the int32 kernels may reach (NEG_INF is -2**29; kernels add a few scores
#: to it without wrapping).
SCORE_LIMIT = 2**28


@dataclass(frozen=True)
class Scheme:
    """A sum-of-pairs scheme as the device runs it.

    Attributes
    ----------
    letters : tuple of str
        ``letters[code]``.
    matrix : numpy.ndarray
        (K, K) int32 substitution scores times ``scale``.
    gaps : Gaps
        Integer gap scores times ``scale``.
    scale : int
        Device scores divided by this are the user's scores.
    uppercase : bool
        Letters are looked up in upper case (a substitution matrix of upper-case letters).
    """

    letters: tuple
    matrix: np.ndarray
    gaps: Gaps
    scale: int
    uppercase: bool

    def unscale(self, value: int) -> int | float:
        """The user's score: an int where the scheme is integer, else an exact float."""
        return int(value) if self.scale == 1 else value / self.scale

    def check_range(self, lengths) -> None:
        """Refuse inputs whose scores could leave the kernels' int32 range."""
        biggest = max(int(np.abs(self.matrix).max(initial=0)), abs(self.gaps.gap),
                      abs(self.gaps.open), abs(self.gaps.extend), 1)
        if 3 * biggest * sum(lengths) >= SCORE_LIMIT:
            raise InputError(
                f"scores of up to {3 * biggest * sum(lengths)} (scaled) for lengths "
                f"{tuple(lengths)} overflow the device's 32-bit integers; use smaller scores")


def make_scheme(texts, substitution_matrix=None, match_score=1.0, mismatch_score=0.0,
                gap_score=-1.0, open_gap_score=None, extend_gap_score=None) -> Scheme:
    """The integer scheme of the front door's keywords.

    ``gap_score`` scores each residue-gap pair (the seed's beta, linear gaps). Giving
    ``open_gap_score`` or ``extend_gap_score`` selects affine gaps (the other defaults to
    ``gap_score``); equal open and extend scores are the linear model.
    """
    affine = open_gap_score is not None or extend_gap_score is not None
    open_ = float(gap_score if open_gap_score is None else open_gap_score)
    extend = float(gap_score if extend_gap_score is None else extend_gap_score)
    if affine and open_ == extend:
        affine, gap_score = False, open_
    gap = float(gap_score)
    for name, v in (("gap_score", gap), ("open_gap_score", open_),
                    ("extend_gap_score", extend)):
        if not np.isfinite(v):
            raise InputError(f"{name} must be a finite number, got {v!r}")
    letters = None if substitution_matrix is not None else match_mismatch_letters(texts)
    values = [open_, extend] if affine else [gap, gap]
    scoring = make_scoring(substitution_matrix, match_score, mismatch_score,
                           gaps=values * 6, letters=letters)
    if scoring is None:
        raise InputError(
            "scores must be integers or fractions with a power-of-two denominator (such as "
            "-0.5) that an integer engine reproduces exactly, with an alphabet of at most 32 "
            "letters")
    scale = scoring.scale
    gaps = Gaps(affine=affine, gap=round(gap * scale), open=round(open_ * scale),
                extend=round(extend * scale))
    upper = substitution_matrix is not None and not any(
        str(c).islower() for c in scoring.letters)
    return Scheme(scoring.letters, scoring.matrix, gaps, scale, upper)


def encode(scheme: Scheme, texts, names) -> list[np.ndarray]:
    """Codes of each sequence; :class:`InputError` names the sequence, position and letter."""
    from bioplug.alphabet import Scoring

    scoring = Scoring(letters=scheme.letters, matrix=scheme.matrix,
                      gaps=np.zeros(12, np.int32), local=False, scale=scheme.scale)
    out = []
    for text, name in zip(texts, names, strict=True):
        shown = text.upper() if scheme.uppercase else text
        out.append(scoring.encode(shown, name))
    return out


def columns(types: np.ndarray, lengths) -> np.ndarray:
    """``Bio.Align`` coordinates (3, m + 1) from column types (1..7) first to last: one
    coordinate block per run of equal types."""
    types = np.asarray(types, dtype=np.uint8)
    steps = np.stack([(types >> r) & 1 for r in range(3)]).astype(np.int64)
    pos = np.zeros((3, len(types) + 1), dtype=np.int64)
    np.cumsum(steps, axis=1, out=pos[:, 1:])
    if not np.array_equal(pos[:, -1], np.asarray(lengths)):
        raise RuntimeError(f"traceback consumed {pos[:, -1]} residues of {tuple(lengths)}")
    if len(types) == 0:
        return pos
    change = np.flatnonzero(types[1:] != types[:-1]) + 1
    keep = np.concatenate([[0], change, [len(types)]])
    return pos[:, keep]


def score_of(engine, codes, progress) -> int:
    """Phase 1 only: the optimal (scaled) score."""
    if not any(len(c) for c in codes):
        return 0
    return engine.score(codes, progress)


def align_codes(engine, codes, progress) -> tuple[int, np.ndarray]:
    """Phases 1-3: (scaled score, column types first to last)."""
    if not any(len(c) for c in codes):
        return 0, np.zeros(0, dtype=np.uint8)
    return engine.align(codes, progress)
