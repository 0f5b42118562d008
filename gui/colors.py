"""Residue colour schemes for the alignment viewer (pure numpy, no Qt).

A scheme maps an alignment, given as an ``(n, L)`` array of ASCII codes, to an ``(n, L)`` array
of colour classes; ``palette[class]`` is the background colour of a cell (class 0: no colour).
Colouring is vectorised over the whole alignment, so a 1,000 x 5,000 alignment is coloured
once, in a fraction of a second, and painting only looks the classes up.

Schemes
-------
``Clustal X``
    Jalview's Clustal X rules: a residue is coloured by its group only when its column is
    conserved enough (e.g. K/R red where K+R exceed 60 % of the column); G and P always.
``Zappo``, ``Taylor``
    Fixed colour per residue (physico-chemical groups / Taylor 1997).
``Nucleotide``
    A, C, G, T/U.
``Purine/Pyrimidine``
    A, G (and R) one colour, C, T, U (and Y) another.
``Percent identity``
    Jalview's: cells equal to the column consensus, shaded by the share of the column that
    holds it (above 80, 60, 40 %). ``Identity`` is the same scheme under its old name.
``BLOSUM62``
    Jalview's: the consensus residue dark blue, residues scoring above zero against it in
    BLOSUM62 light blue.
``Hydrophobicity``
    Kyte-Doolittle (1982) index in eight steps from blue (hydrophilic) to red (hydrophobic).
``None``
    No background colour.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

import numpy as np

RGB = tuple[int, int, int]
WHITE: RGB = (255, 255, 255)


def _hex(code: str) -> RGB:
    code = code.lstrip("#")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16))


def upper_codes(codes: np.ndarray) -> np.ndarray:
    """ASCII codes with lower-case letters folded to upper case."""
    codes = np.asarray(codes, dtype=np.uint8)
    low = (codes >= ord("a")) & (codes <= ord("z"))
    return np.where(low, codes - 32, codes).astype(np.uint8)


_LAST_FRACTIONS: tuple | None = None  # (weakref to codes, result): one-slot cache


def column_fractions(codes: np.ndarray) -> np.ndarray:
    """Fraction of each upper-case letter per column (cached for the last array).

    Showing an alignment asks for them three times (colour scheme, consensus, conservation);
    on 10,000 x 5,000 each count takes most of a second. The cache holds the last array
    object only: edits make new arrays (:mod:`.edit_ops` never writes in place).

    Parameters
    ----------
    codes : numpy.ndarray
        ``(n, L)`` uint8 ASCII codes.

    Returns
    -------
    numpy.ndarray
        ``(L, 26)`` float32; row ``c`` holds the share of ``A`` .. ``Z`` among the ``n`` rows
        of column ``c`` (gaps count in the denominator, as in Jalview).
    """
    global _LAST_FRACTIONS
    if _LAST_FRACTIONS is not None and _LAST_FRACTIONS[0]() is codes \
            and _LAST_FRACTIONS[1] == codes.shape:
        return _LAST_FRACTIONS[2]
    out = _count_fractions(codes)
    if isinstance(codes, np.ndarray) and codes.dtype == np.uint8:
        out.flags.writeable = False  # shared by every caller
        _LAST_FRACTIONS = (weakref.ref(codes), codes.shape, out)
    return out


#: Letter index 0..25 of every code, both cases; 26 for everything else.
_LETTER = np.full(256, 26, dtype=np.int32)
_LETTER[ord("A"): ord("Z") + 1] = np.arange(26)
_LETTER[ord("a"): ord("z") + 1] = np.arange(26)
#: Rows counted per bincount: keeps the key array (4 bytes a cell) in cache-sized pieces.
COUNT_ROWS = 256


def _count_fractions(codes: np.ndarray) -> np.ndarray:
    codes = np.asarray(codes, dtype=np.uint8)
    n, length = codes.shape
    out = np.zeros((length, 26), dtype=np.float32)
    if n == 0 or length == 0:
        return out
    # One bincount over (column, letter) keys per block of rows; non-letters go to bin 26.
    base = np.arange(length, dtype=np.int32)[None, :] * 27
    counts = np.zeros(length * 27, dtype=np.int64)
    for r in range(0, n, COUNT_ROWS):
        keys = base + _LETTER[codes[r: r + COUNT_ROWS]]
        counts += np.bincount(keys.ravel(), minlength=length * 27)
    out[:] = counts.reshape(length, 27)[:, :26] / float(n)
    return out


#: Most columns handled at once by the per-column functions. Whole-array counts of a
#: 3 x 3,000,000 input made (L, 27) int64 and (L, 26) float64 arrays of 0.3-0.6 GB each and
#: took 9 s; blocks keep every temporary a few MB (cache-sized) and take a tenth of that.
COLUMN_BLOCK = 8192
#: About this many cells per block (fewer columns for tall alignments), never under
#: MIN_BLOCK columns: a block is what the viewer colours at once when it scrolls there.
BLOCK_CELLS = 1 << 20
MIN_BLOCK = 256


def block_width(rows: int) -> int:
    """Columns per block for an alignment of ``rows`` rows (see :data:`BLOCK_CELLS`)."""
    return int(min(COLUMN_BLOCK, max(MIN_BLOCK, BLOCK_CELLS // max(int(rows), 1))))


def _blockwise(codes: np.ndarray, fn: Callable, axis: int):
    """``fn(codes)`` computed a block of columns at a time and joined along ``axis`` (every
    function it serves depends on each column alone, so the result is the same).

    Parameters
    ----------
    codes : numpy.ndarray
        ``(n, L)`` uint8 ASCII codes.
    fn : callable
        ``fn(block) -> array`` or a tuple of arrays, per column along ``axis``.
    axis : int
        1 for ``(n, L)`` results (classes), 0 for ``(L,)`` ones (tracks).
    """
    length = codes.shape[1] if codes.ndim == 2 else 0
    width = block_width(codes.shape[0]) if codes.ndim == 2 else COLUMN_BLOCK
    if length <= width:
        return fn(codes)  # the array itself: column_fractions' cache still applies
    parts = [fn(codes[:, c: c + width]) for c in range(0, length, width)]
    if isinstance(parts[0], tuple):
        return tuple(np.concatenate(p, axis=axis) for p in zip(*parts, strict=True))
    return np.concatenate(parts, axis=axis)


class LazyColumns:
    """Per-column results of one alignment, computed a block of columns at a time when first
    asked for (pure numpy; the viewer asks for the columns it shows).

    Every per-column function of this module depends on each column alone, so a block's
    result is the slice of the whole result: the viewer of a 3,000,000-column input colours
    the screenful it shows instead of the whole width before its first paint.

    Parameters
    ----------
    codes : numpy.ndarray
        ``(n, L)`` uint8 ASCII codes.
    fn : callable
        ``fn(block) -> tuple of arrays`` with the block's columns on the last axis.
    outputs : tuple of numpy.ndarray
        The whole results, columns on the last axis, filled in place.
    """

    def __init__(self, codes: np.ndarray, fn: Callable, outputs: tuple[np.ndarray, ...]):
        self.codes = codes
        self.fn = fn
        self.outputs = outputs
        self.width = block_width(codes.shape[0])
        self.done = np.zeros(-(-codes.shape[1] // self.width), dtype=bool)

    @property
    def complete(self) -> bool:
        """Whether every column is computed."""
        return bool(self.done.all())

    def ensure(self, first: int, end: int) -> list[tuple[int, int]]:
        """Compute the columns ``first .. end - 1`` that are not yet; the ``(start, end)``
        column ranges computed by this call."""
        b0 = max(0, int(first) // self.width)
        b1 = min(self.done.size, -(-int(end) // self.width))
        return [self._fill(b) for b in range(b0, b1) if not self.done[b]]

    def fill_next(self) -> tuple[int, int] | None:
        """Compute the first block not computed yet (None when all are)."""
        missing = np.flatnonzero(~self.done)
        return self._fill(int(missing[0])) if missing.size else None

    def _fill(self, block: int) -> tuple[int, int]:
        start = block * self.width
        end = min(start + self.width, self.codes.shape[1])
        parts = self.fn(self.codes[:, start:end])
        for out, part in zip(self.outputs, parts, strict=True):
            out[..., start:end] = part
        self.done[block] = True
        return start, end


def lazy_classes(codes: np.ndarray, classify: Callable) -> LazyColumns:
    """:class:`LazyColumns` of a colour scheme's ``classify``; ``outputs[0]`` the classes."""
    codes = np.asarray(codes, dtype=np.uint8)
    return LazyColumns(codes, lambda block: (classify(block),),
                       (np.zeros(codes.shape, dtype=np.uint8),))


def lazy_tracks(codes: np.ndarray) -> LazyColumns:
    """:class:`LazyColumns` of the consensus letters, their share and the conservation
    (``outputs`` in that order, as :func:`consensus` and :func:`conservation` give them)."""
    codes = np.asarray(codes, dtype=np.uint8)
    length = codes.shape[1]

    def fn(block: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        letters, share = consensus(block)  # both count the block once (column_fractions)
        return letters, share, conservation(block)

    return LazyColumns(codes, fn, (np.full(length, ord("-"), dtype=np.uint8),
                                   np.zeros(length, dtype=np.float32),
                                   np.zeros(length, dtype=np.float32)))


def _table_scheme(colours: dict[str, str]) -> tuple[list[RGB], Callable]:
    """A scheme with one fixed colour per residue letter."""
    names = sorted(set(colours.values()))
    palette = [WHITE] + [_hex(c) for c in names]
    lut = np.zeros(256, dtype=np.uint8)
    for letters, colour in colours.items():
        for letter in letters:
            cls = names.index(colour) + 1
            lut[ord(letter)] = cls
            lut[ord(letter.lower())] = cls

    def classify(codes: np.ndarray) -> np.ndarray:
        return lut[np.asarray(codes, dtype=np.uint8)]

    return palette, classify


# Jalview's Clustal X colours.
CLUSTAL_PALETTE: list[RGB] = [
    WHITE,
    _hex("80a0f0"),  # 1 blue: hydrophobic
    _hex("f01505"),  # 2 red: positive
    _hex("c048c0"),  # 3 magenta: negative
    _hex("15c015"),  # 4 green: polar
    _hex("f08080"),  # 5 pink: cysteine
    _hex("f09048"),  # 6 orange: glycine
    _hex("c0c000"),  # 7 yellow: proline
    _hex("15a4a4"),  # 8 cyan: aromatic
]


def clustal_classes(codes: np.ndarray) -> np.ndarray:
    """Clustal X colour classes (Jalview's threshold rules), vectorised per column.

    Parameters
    ----------
    codes : numpy.ndarray
        ``(n, L)`` uint8 ASCII codes.

    Returns
    -------
    numpy.ndarray
        ``(n, L)`` uint8 classes indexing :data:`CLUSTAL_PALETTE`.
    """
    return _blockwise(np.asarray(codes, dtype=np.uint8), _clustal_block, axis=1)


def _clustal_block(codes: np.ndarray) -> np.ndarray:
    frac = column_fractions(codes)

    def f(letters: str) -> np.ndarray:  # combined share of a residue group, per column
        return frac[:, [ord(c) - 65 for c in letters]].sum(axis=1)

    def any85(letters: str) -> np.ndarray:  # any single residue of the group above 85 %
        return (frac[:, [ord(c) - 65 for c in letters]] > 0.85).any(axis=1)

    hydro = f("WLVIMAFCHP") > 0.6
    kr = f("KR") > 0.6
    qe = f("QE") > 0.5
    ed = f("ED") > 0.5
    ts = f("TS") > 0.5
    n50 = f("N") > 0.5
    # (residues, colour class, condition per column)
    rules = [
        ("ACILMFWV", 1, hydro),
        ("KR", 2, kr | any85("KRQ")),
        ("E", 3, kr | qe | any85("EQD")),
        ("D", 3, kr | any85("KRQ") | ed),
        ("N", 4, n50 | any85("NY")),
        ("Q", 4, kr | qe | any85("QEKR")),
        ("ST", 4, hydro | ts | any85("ST")),
        ("C", 5, any85("C")),
        ("G", 6, np.ones_like(hydro)),
        ("P", 7, np.ones_like(hydro)),
        ("HY", 8, hydro | any85("WYACPQFHILMV")),
    ]
    length = codes.shape[1] if codes.ndim == 2 else 0
    table = np.zeros((256, max(length, 1)), dtype=np.uint8)  # class per (residue, column)
    for letters, cls, cond in rules:
        row = np.where(cond, cls, 0).astype(np.uint8)
        mask = row > 0
        for letter in letters:  # later rules win (C: blue when hydrophobic, pink when C-rich)
            for code in (ord(letter), ord(letter.lower())):
                table[code, :length] = np.where(mask, row, table[code, :length])
    if length == 0:
        return np.zeros(codes.shape, dtype=np.uint8)
    return table[codes, np.arange(length)[None, :]]


ZAPPO_PALETTE, zappo_classes = _table_scheme({
    "ILVAM": "ffafaf", "FWY": "ffc800", "KRH": "6464ff", "DE": "ff0000",
    "STNQ": "00ff00", "PG": "ff00ff", "C": "ffff00",
})

_TAYLOR = {
    "A": "ccff00", "R": "0000ff", "N": "cc00ff", "D": "ff0000", "C": "ffff00", "Q": "ff00cc",
    "E": "ff0066", "G": "ff9900", "H": "0066ff", "I": "66ff00", "L": "33ff00", "K": "6600ff",
    "M": "00ff00", "F": "00ff66", "P": "ffcc00", "S": "ff3300", "T": "ff6600", "W": "00ccff",
    "Y": "00ffcc", "V": "99ff00",
}
TAYLOR_PALETTE, taylor_classes = _table_scheme(_TAYLOR)

NUCLEOTIDE_PALETTE, nucleotide_classes = _table_scheme({
    "A": "64f73f", "C": "ffb340", "G": "eb413c", "TU": "3c88ee",
})

IDENTITY_PALETTE: list[RGB] = [WHITE, _hex("d0d0f0"), _hex("9090d8"), _hex("5050b0")]


def consensus(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Most common residue per column and its share of the rows.

    Parameters
    ----------
    codes : numpy.ndarray
        ``(n, L)`` uint8 ASCII codes.

    Returns
    -------
    letters : numpy.ndarray
        ``(L,)`` uint8 upper-case consensus letters (``-`` for an all-gap column).
    share : numpy.ndarray
        ``(L,)`` float32 share of the rows holding that letter (0 .. 1).
    """
    return _blockwise(np.asarray(codes, dtype=np.uint8), _consensus_block, axis=0)


def _consensus_block(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    frac = column_fractions(codes)
    if frac.shape[0] == 0:
        return np.zeros(0, np.uint8), np.zeros(0, np.float32)
    best = frac.argmax(axis=1)
    share = frac[np.arange(frac.shape[0]), best]
    letters = np.where(share > 0, best + ord("A"), ord("-")).astype(np.uint8)
    return letters, share.astype(np.float32)


def conservation(codes: np.ndarray) -> np.ndarray:
    """Per-column conservation in 0 .. 1: one minus normalised Shannon entropy, times occupancy.

    Parameters
    ----------
    codes : numpy.ndarray
        ``(n, L)`` uint8 ASCII codes.

    Returns
    -------
    numpy.ndarray
        ``(L,)`` float32; 1 for a column of one residue and no gaps, 0 for an all-gap column.
    """
    return _blockwise(np.asarray(codes, dtype=np.uint8), _conservation_block, axis=0)


def _conservation_block(codes: np.ndarray) -> np.ndarray:
    frac = column_fractions(codes).astype(np.float64)
    occ = frac.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(occ[:, None] > 0, frac / occ[:, None], 0.0)
        ent = -np.where(p > 0, p * np.log(p), 0.0).sum(axis=1)
    norm = np.log(20.0)
    return np.clip((1.0 - ent / norm) * occ, 0.0, 1.0).astype(np.float32)


def identity_classes(codes: np.ndarray) -> np.ndarray:
    """Cells equal to their column's consensus, in three shades by column conservation."""
    codes = np.asarray(codes, dtype=np.uint8)
    letters, share = consensus(codes)
    same = upper_codes(codes) == letters[None, :]
    shade = np.select([share > 0.8, share > 0.6, share > 0.4], [3, 2, 1], 0).astype(np.uint8)
    return np.where(same, shade[None, :], 0).astype(np.uint8)


def blosum62_classes(codes: np.ndarray) -> np.ndarray:
    """Jalview's BLOSUM62 scheme: 2 for the column's consensus residue, 1 for residues that
    score above zero against it, 0 otherwise (gaps and all-gap columns)."""
    codes = np.asarray(codes, dtype=np.uint8)
    letters, _ = consensus(codes)
    up = upper_codes(codes)
    table = _blosum62_positive()
    positive = table[up, letters[None, :]] if codes.size else np.zeros(codes.shape, bool)
    same = (up == letters[None, :]) & (letters[None, :] != ord("-"))
    return np.where(same, 2, np.where(positive, 1, 0)).astype(np.uint8)


_BLOSUM_POS: np.ndarray | None = None


def _blosum62_positive() -> np.ndarray:
    """``(256, 256)`` bool: BLOSUM62 score above zero for a pair of upper-case codes."""
    global _BLOSUM_POS
    if _BLOSUM_POS is None:
        from Bio.Align import substitution_matrices

        matrix = substitution_matrices.load("BLOSUM62")
        table = np.zeros((256, 256), dtype=bool)
        for a in matrix.alphabet:
            for b in matrix.alphabet:
                table[ord(a), ord(b)] = matrix[a][b] > 0
        table[ord("-"), :] = table[:, ord("-")] = False
        _BLOSUM_POS = table
    return _BLOSUM_POS


BLOSUM62_PALETTE: list[RGB] = [WHITE, _hex("ccccff"), _hex("9999ff")]

#: Kyte & Doolittle (1982) hydropathy index.
KYTE_DOOLITTLE = {
    "I": 4.5, "V": 4.2, "L": 3.8, "F": 2.8, "C": 2.5, "M": 1.9, "A": 1.8, "G": -0.4,
    "T": -0.7, "S": -0.8, "W": -0.9, "Y": -1.3, "P": -1.6, "H": -3.2, "E": -3.5, "Q": -3.5,
    "D": -3.5, "N": -3.5, "K": -3.9, "R": -4.5,
}
HYDRO_STEPS = 8
HYDROPHOBICITY_PALETTE: list[RGB] = [WHITE] + [
    (int(255 * k / (HYDRO_STEPS - 1)), 0, int(255 * (1 - k / (HYDRO_STEPS - 1))))
    for k in range(HYDRO_STEPS)
]


def _hydro_lut() -> np.ndarray:
    lut = np.zeros(256, dtype=np.uint8)
    lo, hi = min(KYTE_DOOLITTLE.values()), max(KYTE_DOOLITTLE.values())
    for letter, value in KYTE_DOOLITTLE.items():
        step = int(round((value - lo) / (hi - lo) * (HYDRO_STEPS - 1))) + 1
        lut[ord(letter)] = lut[ord(letter.lower())] = step
    return lut


_HYDRO_LUT = _hydro_lut()


def hydrophobicity_classes(codes: np.ndarray) -> np.ndarray:
    """Kyte-Doolittle step of each residue (1 most hydrophilic .. 8 most hydrophobic)."""
    return _HYDRO_LUT[np.asarray(codes, dtype=np.uint8)]


PURINE_PALETTE, purine_classes = _table_scheme({"AGR": "ff83fa", "CTUY": "40e0d0"})


def no_classes(codes: np.ndarray) -> np.ndarray:
    """Every cell uncoloured."""
    return np.zeros(np.shape(codes), dtype=np.uint8)


#: name -> (palette, classify(codes) -> classes)
SCHEMES: dict[str, tuple[list[RGB], Callable[[np.ndarray], np.ndarray]]] = {
    "Clustal X": (CLUSTAL_PALETTE, clustal_classes),
    "Zappo": (ZAPPO_PALETTE, zappo_classes),
    "Taylor": (TAYLOR_PALETTE, taylor_classes),
    "Nucleotide": (NUCLEOTIDE_PALETTE, nucleotide_classes),
    "Purine/Pyrimidine": (PURINE_PALETTE, purine_classes),
    "Percent identity": (IDENTITY_PALETTE, identity_classes),
    "BLOSUM62": (BLOSUM62_PALETTE, blosum62_classes),
    "Hydrophobicity": (HYDROPHOBICITY_PALETTE, hydrophobicity_classes),
    "Identity": (IDENTITY_PALETTE, identity_classes),
    "None": ([WHITE], no_classes),
}
DEFAULT_SCHEME = "Clustal X"
