"""Pairwise alignment numbers as EMBOSS ``needle`` / ``water`` print them (no Qt).

EMBOSS (``ajax/core/ajalign.c``: ``alignConsStats``, ``ajAlignSetSubStandard``,
``ajAlignSetScoreR``) counts, over the alignment's columns (for ``water`` only the local
alignment's columns):

* identity: both rows have the same residue (case ignored);
* similarity: the pair scores above 0 in the substitution matrix and so does one of the two
  residues against itself (EMBOSS counts a residue as "matching" each row, itself included,
  and needs more than half of the two rows: ``X``/``X`` in BLOSUM62 is identical but not
  similar);
* gaps: columns with a gap in either row.

Each is printed as ``n/length (pct%)`` with ``pct`` computed in single precision and one
decimal (``%4.1f``), and the score with up to 3 decimals, trailing zeros cut to one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GAP = "-"
#: Width of EMBOSS's separator lines.
RULE = "#" + "=" * 39


@dataclass(frozen=True)
class PairStats:
    """What EMBOSS reports for one pairwise alignment."""

    length: int
    identity: int
    similarity: int
    gaps: int
    score: float


def _score(matrix, a: str, b: str) -> float | None:
    """The matrix entry of two residues (either case), None for letters it lacks."""
    try:
        return float(matrix[a.upper()][b.upper()])
    except (KeyError, IndexError, ValueError):
        return None


def pair_stats(rows: tuple[str, str], matrix, score: float) -> PairStats:
    """Length, identity, similarity and gaps of two aligned rows, as EMBOSS counts them.

    Parameters
    ----------
    rows : (str, str)
        The two rows of the alignment (equal length, ``-`` for gaps): for a local
        alignment only its aligned region.
    matrix : Bio.Align.substitution_matrices.Array
        The substitution matrix the alignment was scored with.
    score : float
        The alignment's score.

    Returns
    -------
    PairStats
    """
    top, bottom = rows
    if len(top) != len(bottom):
        raise ValueError("aligned rows differ in length")
    identity = similarity = gaps = 0
    for a, b in zip(top, bottom, strict=True):
        if a in (GAP, " ") or b in (GAP, " "):
            gaps += 1
            continue
        pair = _score(matrix, a, b)
        if pair is None:  # a letter outside the matrix: neither identical nor similar
            continue
        if a.upper() == b.upper():
            identity += 1
        self_a, self_b = _score(matrix, a, a) or 0.0, _score(matrix, b, b) or 0.0
        if pair > 0 and (self_a > 0 or self_b > 0):
            similarity += 1
    return PairStats(len(top), identity, similarity, gaps, float(score))


def emboss_percent(count: int, length: int) -> str:
    """``count/length (pct%)`` with EMBOSS's single-precision percentage (``%4.1f``)."""
    pct = np.float32(100.0) * np.float32(count) / np.float32(length) if length else 0.0
    return f"{count:5d}/{length} ({float(pct):4.1f}%)"


def emboss_score(score: float) -> str:
    """The score as ``ajAlignSetScoreR`` writes it: 3 decimals, trailing zeros cut to one."""
    text = f"{np.float32(score):.3f}"
    for _ in range(2):
        if not text.endswith("0"):
            break
        text = text[:-1]
    return text


def emboss_header(names: tuple[str, str], stats: PairStats, matrix_name: str,
                  gap_open: float, gap_extend: float, program: str) -> str:
    """The ``srspair`` header block of ``needle`` (global) or ``water`` (local).

    Parameters
    ----------
    names : (str, str)
        Target and query names.
    stats : PairStats
    matrix_name : str
        Substitution matrix name (e.g. ``BLOSUM62``).
    gap_open, gap_extend : float
        Gap penalties as EMBOSS states them (positive numbers).
    program : str
        ``needle`` or ``water`` (the EMBOSS program whose output this mirrors).

    Returns
    -------
    str
        Lines starting with ``#``, ending with a newline.
    """
    lines = [
        RULE, "#", f"# Program: {program} (bioplug)", "#", RULE, "#",
        "# Aligned_sequences: 2", f"# 1: {names[0]}", f"# 2: {names[1]}",
        f"# Matrix: {matrix_name}", f"# Gap_penalty: {abs(gap_open):.1f}",
        f"# Extend_penalty: {abs(gap_extend):.1f}", "#",
        f"# Length: {stats.length}",
        f"# Identity:   {emboss_percent(stats.identity, stats.length)}",
        f"# Similarity: {emboss_percent(stats.similarity, stats.length)}",
        f"# Gaps:       {emboss_percent(stats.gaps, stats.length)}",
        f"# Score: {emboss_score(stats.score)}", "#", "#", RULE,
    ]
    return "\n".join(lines) + "\n"


def emboss_report(names: tuple[str, str], stats: PairStats | None, alignment_text: str,
                  mode: str, matrix_name: str, gap_open: float, gap_extend: float) -> str:
    """What the Pairwise tab shows: the ``needle`` (global) or ``water`` (local) header
    block, then the alignment.

    Parameters
    ----------
    names : (str, str)
    stats : PairStats or None
        None: a local alignment found nothing with a positive score (only a note is shown).
    alignment_text : str
    mode : {"global", "local"}
    matrix_name : str
    gap_open, gap_extend : float

    Returns
    -------
    str
    """
    if stats is None:
        return f"{names[0]} × {names[1]}: {alignment_text}\n"
    program = "water" if mode == "local" else "needle"
    header = emboss_header(names, stats, matrix_name, gap_open, gap_extend, program)
    return f"{header}\n{alignment_text}"
