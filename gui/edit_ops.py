"""Alignment edits as pure functions on ``(names, codes)``: no Qt, easy to test.

Every function returns new arrays (the undo stack keeps the old ones). ``codes`` is the
``(n, L)`` uint8 ASCII matrix of :class:`~bioplug.gui.documents.AlignmentData`; ``-`` is
the gap written by edits, ``.`` is read as a gap too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bioplug.errors import InputError

GAP = ord("-")
GAP_CODES = np.frombuffer(b"-.", dtype=np.uint8)


def is_gap(codes: np.ndarray) -> np.ndarray:
    """Boolean mask of gap cells."""
    return np.isin(codes, GAP_CODES)


def insert_gaps(codes: np.ndarray, rows: Sequence[int], column: int, count: int = 1) -> np.ndarray:
    """Insert ``count`` gaps before ``column`` in ``rows``, pushing their residues right.

    A row's trailing gaps absorb the shift (as AliView does); when a row has fewer than
    ``count`` trailing gaps, every row grows by gap columns at the end so the alignment
    stays rectangular.
    """
    rows = sorted(set(int(r) for r in rows))
    n, length = codes.shape
    if not rows or count < 1 or not 0 <= column <= length:
        return codes
    tail = is_gap(codes[rows, max(0, length - count):]).all(axis=1) if length >= count else \
        np.zeros(len(rows), dtype=bool)
    grow = 0 if tail.all() else count
    out = np.full((n, length + grow), GAP, dtype=np.uint8)
    out[:, :length] = codes
    for r in rows:  # one row at a time: rows are few next to columns
        row = out[r].copy()
        out[r, column + count:] = row[column: length + grow - count]
        out[r, column: column + count] = GAP
    return out


def delete_gaps(codes: np.ndarray, rows: Sequence[int], column: int, count: int = 1) -> np.ndarray:
    """Remove the gaps at ``column .. column + count - 1`` in ``rows``; residues move left.

    Raises
    ------
    InputError
        When one of those cells holds a residue (deleting it would change the sequence).
    """
    rows = sorted(set(int(r) for r in rows))
    n, length = codes.shape
    end = min(length, column + count)
    if not rows or column < 0 or column >= end:
        return codes
    if not is_gap(codes[rows, column:end]).all():
        raise InputError("only gaps can be deleted: the selection holds residues")
    out = codes.copy()
    width = end - column
    for r in rows:
        out[r, column: length - width] = codes[r, end:]
        out[r, length - width:] = GAP
    return out


def kept_rows(count: int, rows: Sequence[int]) -> list[int]:
    """The indices of ``range(count)`` that remain when ``rows`` are deleted.

    Raises
    ------
    InputError
        When ``rows`` names every row.
    """
    drop = set(int(r) for r in rows)
    keep = [i for i in range(count) if i not in drop]
    if not keep:
        raise InputError("cannot delete every sequence")
    return keep


def delete_rows(names: list[str], codes: np.ndarray, rows: Sequence[int]):
    """Names and codes without ``rows``."""
    keep = kept_rows(len(names), rows)
    return [names[i] for i in keep], codes[keep]


def checked_order(count: int, order: Sequence[int]) -> list[int]:
    """``order`` as a list of ints, checked to be a permutation of ``range(count)``."""
    order = [int(i) for i in order]
    if sorted(order) != list(range(count)):
        raise InputError("the new row order must name every row once")
    return order


def reorder(names: list[str], codes: np.ndarray, order: Sequence[int]):
    """Rows in ``order`` (a permutation of ``range(n)``)."""
    order = checked_order(len(names), order)
    return [names[i] for i in order], codes[order]


def moved_order(count: int, rows: Sequence[int], delta: int) -> tuple[list[int], list[int]]:
    """The row order that moves ``rows`` by ``delta`` as a block, and their new indices."""
    chosen = sorted(set(int(r) for r in rows))
    rest = [i for i in range(count) if i not in set(chosen)]
    first = chosen[0] if chosen else 0
    # where the block goes among the other rows, clamped to the ends
    slot = sum(1 for i in rest if i < first) + int(delta)
    slot = min(max(slot, 0), len(rest))
    return rest[:slot] + chosen + rest[slot:], list(range(slot, slot + len(chosen)))


def move_rows(names: list[str], codes: np.ndarray, rows: Sequence[int], delta: int):
    """Move the rows ``rows`` up (negative ``delta``) or down as a block, keeping their order.

    Returns names, codes and the rows' new indices.
    """
    order, now = moved_order(len(names), rows, delta)
    new_names, new_codes = reorder(names, codes, order)
    return new_names, new_codes, now


def rename(names: list[str], row: int, name: str) -> list[str]:
    """Names with row ``row`` called ``name`` (non-empty, unique, no spaces)."""
    name = name.strip()
    if not name or any(c.isspace() for c in name):
        raise InputError(f"a sequence name must be one word, not {name!r}")
    if name in names and names.index(name) != row:
        raise InputError(f"another sequence is already called {name!r}")
    out = list(names)
    out[row] = name
    return out


def remove_gap_columns(codes: np.ndarray) -> np.ndarray:
    """Drop the columns where every row is a gap."""
    keep = ~is_gap(codes).all(axis=0)
    return codes[:, keep]


def keep_columns(codes: np.ndarray, first: int, last: int) -> np.ndarray:
    """Trim to the columns ``first .. last`` (inclusive)."""
    first, last = max(0, int(first)), min(codes.shape[1] - 1, int(last))
    if first > last:
        raise InputError("the trim range holds no column")
    return codes[:, first: last + 1].copy()


def delete_columns(codes: np.ndarray, first: int, last: int) -> np.ndarray:
    """Remove the columns ``first .. last`` (inclusive)."""
    keep = np.ones(codes.shape[1], dtype=bool)
    keep[max(0, first): last + 1] = False
    if not keep.any():
        raise InputError("cannot delete every column")
    return codes[:, keep]


def identity_to(codes: np.ndarray, row: int) -> np.ndarray:
    """Percent identity of every row to ``row`` over columns where both have a residue."""
    gaps = is_gap(codes) | (codes == ord(" "))
    upper = np.where((codes >= 97) & (codes <= 122), codes - 32, codes)
    both = ~gaps & ~gaps[row]
    same = both & (upper == upper[row])
    compared = both.sum(axis=1)
    return np.where(compared > 0, 100.0 * same.sum(axis=1) / np.maximum(compared, 1), 0.0)
