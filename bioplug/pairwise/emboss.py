"""Pairwise alignments as EMBOSS ``needle`` / ``water`` print them (their ``srspair`` report).

``bioplug pairwise --format emboss`` writes this report (Biopython reads it back:
``Bio.Align.parse(handle, "emboss")``), and the desktop app's Pairwise tab shows its numbers.

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

The markup line comes from the consensus ``alignConsStats`` builds and ``alignSim`` draws,
which looks at the top row's residue (:func:`markup`): ``X``/``X`` counts as identical but is
drawn as a space, and so is ``*``/``*``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from bioplug.alignio import upper_codes

log = logging.getLogger(__name__)

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


#: The letters a report's matrix is asked about (either case is looked up upper case).
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ*"


class ScoreTable:
    """A substitution matrix as a (128, 128) array over upper-case ASCII codes, NaN for a gap
    or a letter the matrix lacks: built once per report, so that every column of every pair
    is looked up with NumPy rather than one Python call per column.

    Parameters
    ----------
    matrix : Bio.Align.substitution_matrices.Array, mapping or ScoreTable
        What ``matrix[a][b]`` scores (upper-case letters).
    """

    def __init__(self, matrix):
        if isinstance(matrix, ScoreTable):
            self.scores = matrix.scores
            return
        self.scores = np.full((128, 128), np.nan)
        for a in LETTERS:
            for b in LETTERS:
                value = _score(matrix, a, b)
                if value is not None:
                    self.scores[ord(a), ord(b)] = value


def _score(matrix, a: str, b: str) -> float | None:
    """The matrix entry of two upper-case residues, None for letters it lacks."""
    try:
        return float(matrix[a][b])
    except (KeyError, IndexError, ValueError, TypeError):
        return None


def pair_stats(rows: tuple[str, str], matrix, score: float) -> PairStats:
    """Length, identity, similarity and gaps of two aligned rows, as EMBOSS counts them.

    Parameters
    ----------
    rows : (str, str)
        The two rows of the alignment (equal length, ``-`` for gaps): for a local
        alignment only its aligned region.
    matrix : Bio.Align.substitution_matrices.Array or ScoreTable
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
    columns = _Columns(rows, ScoreTable(matrix))
    return PairStats(len(top), int(columns.identical.sum()), int(columns.similar.sum()),
                     int(columns.gap.sum()), float(score))


def markup(rows: tuple[str, str], matrix) -> str:
    """EMBOSS's line between two aligned rows (``alignSim`` over ``alignConsStats``'s
    consensus): ``|`` identical, ``:`` similar, ``.`` another pair, a space at a gap.

    EMBOSS draws the line from the top row's residue: ``|`` or ``:`` where that residue
    scores above 0 against itself and against the other one, ``.`` where it scores above 0
    against itself only, a space where it scores 0 or less against itself (``X`` in
    BLOSUM62: ``X``/``X`` is counted identical but drawn as a space) or is ``*``; an ``X``
    drawn is a ``.``.
    """
    return _Columns(rows, ScoreTable(matrix)).marks


class _Columns:
    """Per column of two rows: identical, similar (EMBOSS's counts), a gap, and the marks."""

    def __init__(self, rows: tuple[str, str], table: ScoreTable):
        top, bottom = (upper_codes(np.frombuffer(r.encode("ascii", "replace"), np.uint8))
                       for r in rows)
        scores = table.scores
        pair, top_self = scores[top, bottom], scores[top, top]
        self.gap = np.isin(top, GAP_CODES) | np.isin(bottom, GAP_CODES)
        known = ~np.isnan(pair)
        self.identical = known & (top == bottom)
        self.similar = known & (pair > 0) & ((top_self > 0) | (scores[bottom, bottom] > 0))
        # alignConsStats' "himatch": how many of the two residues the top one scores above 0
        # against (itself included); 2 gives its letter, 1 EMBOSS's 'x', 0 no consensus
        himatch = np.where(self.gap, 0, (top_self > 0).astype(np.int8) + (pair > 0))
        marks = np.full(top.size, ord(" "), np.uint8)
        marks[himatch == 1] = ord(".")
        two = himatch == 2
        marks[two] = np.where(self.identical[two], ord("|"), ord(":"))
        marks[two & (top == ord("X"))] = ord(".")
        marks[two & (top == ord("*"))] = ord(" ")
        self.marks = marks.tobytes().decode("ascii")


#: ASCII codes of the gap characters a row may hold.
GAP_CODES = np.frombuffer(b"- ", np.uint8)


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
    lines = [RULE, "#", f"# Program: {program} (bioplug)", "#",
             *_pair_lines(names, stats, matrix_name, gap_open, gap_extend)]
    return "\n".join(lines) + "\n"


def _pair_lines(names: tuple[str, str], stats: PairStats, matrix_name: str, gap_open: float,
                gap_extend: float) -> list[str]:
    """One alignment's ``#=``-ruled block of numbers (the lines Biopython's reader takes)."""
    return [
        RULE, "#", "# Aligned_sequences: 2", f"# 1: {names[0]}", f"# 2: {names[1]}",
        f"# Matrix: {matrix_name}", f"# Gap_penalty: {abs(gap_open):.1f}",
        f"# Extend_penalty: {abs(gap_extend):.1f}", "#",
        f"# Length: {stats.length}",
        f"# Identity:   {emboss_percent(stats.identity, stats.length)}",
        f"# Similarity: {emboss_percent(stats.similarity, stats.length)}",
        f"# Gaps:       {emboss_percent(stats.gaps, stats.length)}",
        f"# Score: {emboss_score(stats.score)}", "#", "#", RULE,
    ]


#: Columns of a block; the name field's width (EMBOSS cuts longer names).
BLOCK, NAME = 50, 13
#: EMBOSS's file header rule and the rule after each alignment.
FILE_RULE, END_RULE = "#" * 40, "#" + "-" * 39


def srspair(alignments, matrix, matrix_name: str, gap_open: float, gap_extend: float,
            program: str) -> str:
    """Pairwise alignments as EMBOSS ``needle`` / ``water`` write them (``srspair``).

    Parameters
    ----------
    alignments : iterable of Bio.Align.Alignment
        Two rows each (a local alignment's aligned region only).
    matrix : Bio.Align.substitution_matrices.Array or mapping
        What ``matrix[a][b]`` scores (for identity, similarity and the markup line).
    matrix_name : str
    gap_open, gap_extend : float
        Gap penalties as EMBOSS states them (a gap of length k costs
        ``gap_open + (k - 1) * gap_extend``).
    program : {"needle", "water"}

    Returns
    -------
    str
        The file's text: a header, then each alignment's numbers and its blocks of 50
        columns (name, first residue, the rows' letters, last residue; a markup line of
        ``|`` identical, ``:`` similar, ``.`` other pairs between the rows).
    """
    out = [FILE_RULE, f"# Program: {program} (bioplug)", "# Align_format: srspair",
           FILE_RULE, ""]
    table = ScoreTable(matrix)
    for alignment in alignments:
        rows = (alignment[0], alignment[1])
        names = report_names(alignment.sequences)
        columns = _Columns(rows, table)
        stats = PairStats(len(rows[0]), int(columns.identical.sum()),
                          int(columns.similar.sum()), int(columns.gap.sum()),
                          float(getattr(alignment, "score", 0.0)))
        out += [*_pair_lines(names, stats, matrix_name, gap_open, gap_extend), ""]
        out += _blocks(rows, names, alignment.coordinates[:, 0], columns.marks)
        out += ["", END_RULE, END_RULE]
    return "\n".join(out) + "\n"


def report_names(sequences) -> tuple[str, ...]:
    """The rows' names as a report prints them: the record ids (``seq1``, ``seq2`` for rows
    without one), ``:`` written as ``_``. Biopython's reader splits ``# 1: name`` at every
    colon, so an id such as ``chr1:100-200`` made the whole file unreadable (EMBOSS itself
    never prints one: it reads ``db:id`` as a database and an id)."""
    names = []
    for i, record in enumerate(sequences):
        name = getattr(record, "id", None) or f"seq{i + 1}"
        if ":" in name:
            log.warning("EMBOSS report: %s is written as %s (Biopython's reader takes no ':' "
                        "in a name)", name, name.replace(":", "_"))
        names.append(name.replace(":", "_"))
    return tuple(names)


def _blocks(rows: tuple[str, str], names: tuple[str, str], starts, marks: str) -> list[str]:
    """The alignment in blocks of :data:`BLOCK` columns: each row with its first and last
    residue (1-based; a block of gaps only repeats the last one, as srspair does) and the
    markup line between them, a blank line after each block."""
    lines, at = [], [int(s) for s in starts]
    for c in range(0, len(rows[0]), BLOCK):
        for i, row in enumerate(rows):
            chunk = row[c:c + BLOCK]
            residues = len(chunk) - chunk.count(GAP)
            first = at[i] + 1 if residues else at[i]
            at[i] += residues
            lines.append(f"{names[i][:NAME]:<{NAME}} {first:6d} {chunk} {at[i]:6d}")
            if i == 0:
                lines.append(" " * (NAME + 8) + marks[c:c + BLOCK])
        lines.append("")
    return lines


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
