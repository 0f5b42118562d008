"""A3M alignments (HH-suite's format; ColabFold and AlphaFold write their MSAs in it), read as
the equal-length rows every other alignment has.

An A3M file is FASTA whose rows hold two kinds of characters (HH-suite's ``reformat.pl``):

* upper-case letters, ``-`` (and ``*``) are *match* columns: every row has the same number;
* lower-case letters are *insertions* after a match column (or before the first), and ``.``
  a gap aligned to an insertion. Other rows are not padded for them (A3M), or padded with
  ``.`` (A2M, which is an A3M too): rows may differ in length.

Lines starting with ``#`` may precede the first record (ColabFold writes ``#123<TAB>1``: the
query lengths and copy numbers).

:func:`parse_a3m` expands the insertions as ``reformat.pl a3m fas`` does: between two match
columns (and before the first and after the last) come as many columns as the longest insert
run there (lower-case letters and ``.`` together); each row's run starts that block and is
padded with ``-`` to its width; ``.`` is written ``-``. Letters keep the case the file gives
them, so the insert columns stay lower case (no residue is dropped or changed).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.alphabet import SEQUENCE_LETTERS, check_sequence_letters
from bioplug.errors import InputError
from bioplug.io import parse_fasta

__all__ = ["expand_a3m", "parse_a3m"]

GAP = ord("-")
_DOT = ord(".")
#: Insert cells: lower-case ASCII letters and the insert gap ``.``; any other byte is a match.
_INSERT = np.zeros(256, dtype=bool)
_INSERT[ord("a"):ord("z") + 1] = True
_INSERT[_DOT] = True
_LETTER = np.zeros(256, dtype=bool)
_LETTER[np.frombuffer(SEQUENCE_LETTERS.encode("ascii"), dtype=np.uint8)] = True
#: Cells laid out per block of rows (index arrays of 8 bytes a cell: about 100 MB a block).
_BLOCK_CELLS = 1 << 21


def parse_a3m(handle: Iterable[str]) -> list[SeqRecord]:
    """The records of an A3M text stream, their rows expanded to one length.

    Titles are read as :func:`bioplug.io.parse_fasta` reads them (the whole title is the
    description, its first word the id); lines starting with ``#`` and blank lines before
    the first record are skipped.

    Parameters
    ----------
    handle : text stream or iterable of lines

    Returns
    -------
    list of Bio.SeqRecord.SeqRecord
        One per record, each row as long as the others (see :func:`expand_a3m`).

    Raises
    ------
    InputError
        A character that is no sequence letter (named with its record and its position in
        the file's row), or a row whose match columns do not number the first row's.
    ValueError
        Text other than ``#`` lines before the first record (as for FASTA).
    """
    lines = iter(handle)
    for line in lines:
        if line.strip() and not line.startswith("#"):
            break
    else:
        return []
    records = parse_fasta(itertools.chain([line], lines))
    rows = expand_a3m([r.id for r in records], [bytes(r.seq) for r in records])
    return [SeqRecord(Seq(rows[i].tobytes()), id=r.id, name=r.name, description=r.description)
            for i, r in enumerate(records)]


def expand_a3m(ids: Sequence[str], rows: Sequence[bytes]) -> np.ndarray:
    """A3M rows (white space removed) as equal-length aligned rows.

    Parameters
    ----------
    ids : sequence of str
        Record names, for the messages.
    rows : sequence of bytes
        Each record's characters as the file holds them.

    Returns
    -------
    numpy.ndarray
        ``(k, L)`` uint8 character codes: the match columns in order, each gap between two
        of them (and both ends) widened to its longest insert run; insert letters start their
        block, ``-`` pads it, ``.`` is written ``-``. ``L`` is the match count plus the
        widths.

    Raises
    ------
    InputError
        A character that is no sequence letter, or a row with another number of match
        columns than the first: ``"s2: 11 match columns (upper-case letters and '-'), the
        first record (101) has 12: not an A3M alignment (record 3)"``.
    """
    k = len(rows)
    if k == 0:
        return np.zeros((0, 0), dtype=np.uint8)
    blocks = list(_blocks(rows))
    matches = _match_count(ids, rows)
    widths = np.zeros(matches + 1, dtype=np.int64)
    for start, stop in blocks:   # first pass: every row checked, the insert widths
        cells = _Cells(rows[start:stop])
        _check(cells, ids, rows, start, matches)
        np.maximum.at(widths, cells.run_slot, cells.run_length)
    # before[s]: insert columns ahead of gap s; gap s's block starts after s matches and
    # those, match m (0-based) after m matches and the blocks of gaps 0..m
    before = np.zeros(matches + 2, dtype=np.int64)
    np.cumsum(widths, out=before[1:])
    out = np.full((k, matches + int(before[-1])), GAP, dtype=np.uint8)
    slots = np.arange(matches + 1, dtype=np.int64)
    insert_at = slots + before[:-1]
    match_at = slots[:-1] + before[1:-1]
    for start, stop in blocks:   # second pass: every cell to its column
        cells = _Cells(rows[start:stop])
        columns = np.where(cells.insert, insert_at[cells.slot] + cells.rank(),
                           match_at[np.minimum(cells.slot, matches - 1)] if matches else 0)
        out[start + cells.row, columns] = np.where(cells.data == _DOT, np.uint8(GAP),
                                                   cells.data)
    return out


def _blocks(rows: Sequence[bytes]):
    """(start, stop) of consecutive rows of about :data:`_BLOCK_CELLS` cells (at least one
    row), so that the index arrays of a large MSA stay small."""
    start, cells = 0, 0
    for i, row in enumerate(rows):
        cells += len(row)
        if cells >= _BLOCK_CELLS:
            yield start, i + 1
            start, cells = i + 1, 0
    if start < len(rows):
        yield start, len(rows)


def _match_count(ids: Sequence[str], rows: Sequence[bytes]) -> int:
    """The first row's match columns (the count every row must have)."""
    first = np.frombuffer(rows[0], dtype=np.uint8)
    _check_letters(first, ids, rows, 0, 1)
    return int((~_INSERT[first]).sum())


def _check_letters(data: np.ndarray, ids: Sequence[str], rows: Sequence[bytes], start: int,
                   stop: int) -> None:
    """Refuse a character that is no sequence letter in rows ``start:stop`` (``data``, their
    bytes): its place in the expanded row would be no place in the file, so the message gives
    the file's position."""
    if _LETTER[data].all():
        return
    for i in range(start, stop):
        check_sequence_letters(rows[i].decode("utf-8", "replace"), _name(ids, i))


def _check(cells: _Cells, ids: Sequence[str], rows: Sequence[bytes], start: int,
           matches: int) -> None:
    """Refuse rows of the block from ``start`` with a bad letter or another match count."""
    _check_letters(cells.data, ids, rows, start, start + cells.matches.size)
    bad = np.flatnonzero(cells.matches != matches)
    if bad.size:
        i = start + int(bad[0])
        raise InputError(
            f"{_name(ids, i)}: {cells.matches[bad[0]]} match columns (upper-case letters and "
            f"'-'), the first record ({_name(ids, 0)}) has {matches}: not an A3M alignment "
            f"(record {i + 1})")


def _name(ids: Sequence[str], i: int) -> str:
    return ids[i] or f"record {i + 1}"


class _Cells:
    """The cells of a block of A3M rows, flattened, with what places them.

    Attributes
    ----------
    data : numpy.ndarray
        Every row's bytes, one after another.
    row : numpy.ndarray
        Each cell's row in the block.
    insert : numpy.ndarray
        Whether each cell is an insert cell (lower case or ``.``).
    slot : numpy.ndarray
        Match cells before each cell in its row: a match cell's index among the matches, an
        insert cell's gap (0: before the first match).
    matches : numpy.ndarray
        Match cells of each row.
    run_slot, run_length : numpy.ndarray
        The gap and the length of every insert run (consecutive insert cells of a row).
    """

    def __init__(self, rows: Sequence[bytes]):
        lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
        self.data = np.frombuffer(b"".join(rows), dtype=np.uint8)
        self.row = np.repeat(np.arange(len(rows), dtype=np.int64), lengths)
        self.insert = _INSERT[self.data]
        bounds = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=bounds[1:])
        seen = np.zeros(self.data.size + 1, dtype=np.int64)   # matches before each cell
        np.cumsum(~self.insert, out=seen[1:])
        self.slot = seen[:-1] - seen[bounds[:-1]][self.row]
        self.matches = seen[bounds[1:]] - seen[bounds[:-1]]
        # a run starts at an insert cell that opens its row or follows a match cell
        opens = np.ones(self.data.size, dtype=bool)
        opens[1:] = ~self.insert[:-1]
        opens[bounds[:-1][lengths > 0]] = True
        self._opens = self.insert & opens
        self._starts = np.flatnonzero(self._opens)
        ends = np.ones(self.data.size, dtype=bool)
        ends[:-1] = ~self.insert[1:]
        ends[bounds[1:][lengths > 0] - 1] = True
        self.run_slot = self.slot[self._starts]
        self.run_length = np.flatnonzero(self.insert & ends) - self._starts + 1

    def rank(self) -> np.ndarray:
        """Each insert cell's place in its run (0 for the first); 0 for match cells."""
        if not self._starts.size:
            return np.zeros(self.data.size, dtype=np.int64)
        run = np.maximum(np.cumsum(self._opens) - 1, 0)
        return np.where(self.insert, np.arange(self.data.size) - self._starts[run], 0)
