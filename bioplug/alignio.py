"""Alignment rows as a ``(k, L)`` uint8 matrix, and alignment files written from it.

``Bio.Align.write`` prints each row through ``Alignment._get_row``, which walks every
coordinate segment of the alignment for every row: minutes for 1,500 rows and thousands of
segments. Here the rows come out of ``alignment.coordinates`` in one numpy pass
(:func:`alignment_rows`), and FASTA, Clustal, Stockholm, A2M, A3M and PHYLIP files are laid
out from that matrix with numpy, a block of lines at a time (:func:`write_rows`,
:func:`write_alignment`). The text is the text ``Bio.Align.write`` writes for the same
alignment; other formats, and what these writers do not lay out themselves (Stockholm ``#=GR``
lines, sequences that are not SeqRecords), go through Biopython's own writers. A3M, which
Biopython does not write, is A2M without the insert gaps ``.`` (HH-suite's ``reformat.pl``
rule): bioplug's alignments have match columns only, so their A3M text is their A2M text.

Use these through :mod:`bioplug.io`, which re-exports them.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterable, Iterator, Sequence

import numpy as np
from Bio import Align
from Bio.Align import Alignment
from Bio.Align.stockholm import AlignmentWriter as _StockholmWriter
from Bio.Seq import MutableSeq, Seq
from Bio.SeqRecord import SeqRecord

log = logging.getLogger(__name__)

#: Formats laid out here; every other one is written by ``Bio.Align.write``.
FAST_FORMATS = ("fasta", "clustal", "stockholm", "a2m", "a3m", "phylip", "msf")
#: Formats of one alignment a file, match columns in upper case (HMM-style FASTA).
_STATE_FORMATS = ("a2m", "a3m")
GAP = ord("-")
_DOT = ord(".")
_NEWLINE = ord("\n")
# Biopython's layouts: Clustal prints 50 columns a block behind names cut to 30 letters and
# padded to 36; PHYLIP pads names to 10 (Bio.Align.phylip._PHYLIP_ID_WIDTH).
_CLUSTAL_BLOCK, _CLUSTAL_CUT, _CLUSTAL_NAME = 50, 30, 36
_PHYLIP_NAME = 10
_CHUNK_BYTES = 1 << 23


class _Unsupported(Exception):
    """Raised inside this module when Biopython must write an alignment itself."""


def _residues(sequence) -> bytes:
    if isinstance(sequence, SeqRecord):
        sequence = sequence.seq
    if isinstance(sequence, str):
        return sequence.encode("latin-1")
    if isinstance(sequence, (Seq, MutableSeq)):
        return bytes(sequence)
    raise TypeError(f"cannot print a {type(sequence).__name__} as an alignment row")


def alignment_rows(alignment: Alignment) -> np.ndarray:
    """The gapped rows of an alignment, as ``alignment[i]`` prints them, in one array.

    Parameters
    ----------
    alignment : Bio.Align.Alignment
        Its sequences are str, ``Bio.Seq.Seq`` or ``SeqRecord`` objects.

    Returns
    -------
    numpy.ndarray
        ``(k, L)`` uint8 character codes (latin-1); gaps are ``-``.

    Raises
    ------
    TypeError
        A sequence of another type (Biopython prints those as lists).
    ValueError
        Letters outside latin-1, undefined sequence contents, or coordinates whose rows
        Biopython would print with different lengths.

    Notes
    -----
    Rows printed forwards are gathered with numpy; a row Biopython prints as a reverse
    complement, or one whose coordinates step backwards or only partly fill a column block,
    is taken from ``alignment[i]`` itself.
    """
    if isinstance(alignment, AlignedRows):
        return alignment.rows
    coords = np.asarray(alignment.coordinates, dtype=np.int64)
    sequences = alignment.sequences
    k = len(sequences)
    if coords.ndim != 2 or coords.shape[0] != k:
        raise ValueError(f"coordinates of shape {coords.shape} for {k} sequences")
    steps = np.diff(coords, axis=1)
    if k == 0 or steps.shape[1] == 0:
        return np.zeros((k, 0), dtype=np.uint8)
    # Biopython prints a row whose aligned steps mostly go backwards as its reverse
    # complement, and sizes every column block after that choice: mirror it.
    # (boolean masks broadcast, not fancy-indexed copies: 10,000 x 1,200 in ms, not 0.4 s)
    aligned = (steps != 0).sum(axis=0) > 1
    forward = ((steps > 0) & aligned).sum(axis=1)
    backward = ((steps < 0) & aligned).sum(axis=1)
    flip = forward < backward
    if flip.any():
        widths = np.maximum(np.where(flip[:, None], -steps, steps).max(axis=0), 0)
    else:
        widths = np.maximum(steps.max(axis=0), 0)
    length = int(widths.sum())
    has = steps > 0
    simple = (~flip & (steps >= 0).all(axis=1)
              & (~has | (steps == widths[None, :])).all(axis=1))
    out = np.full((k, length), GAP, dtype=np.uint8)
    pieces, fast = [], []
    for i in np.flatnonzero(simple):
        lo, hi = int(coords[i, 0]), int(coords[i, -1])
        try:
            piece = _residues(sequences[i])[lo:hi] if lo >= 0 else b""
        except ValueError:  # e.g. a partly defined Seq: Biopython slices the defined part
            piece = None
        if piece is not None and len(piece) == hi - lo:
            pieces.append(piece)
            fast.append(i)
        else:
            simple[i] = False
    if fast:
        mask = np.repeat(has[fast], widths, axis=1)
        block = out if len(fast) == k else np.full((len(fast), length), GAP, dtype=np.uint8)
        block[mask] = np.frombuffer(b"".join(pieces), dtype=np.uint8)
        if block is not out:
            out[fast] = block
    for i in np.flatnonzero(~simple):
        row = alignment[int(i)]
        if not isinstance(row, str):
            raise TypeError(f"row {i} prints as a {type(row).__name__}, not text")
        data = row.encode("latin-1")
        if len(data) != length:
            raise ValueError(f"row {i} prints {len(data)} columns, the others {length}")
        out[i] = np.frombuffer(data, dtype=np.uint8)
    return out


def alignment_texts(alignment: Alignment) -> list:
    """``list(alignment)``: the rows Biopython prints for a ``Bio.Align.Alignment``, as str.

    Taken from :func:`alignment_rows` (one numpy pass; ``list(alignment)`` builds each row
    from every row's coordinates: 80 s for 1,000 x 1,300). An alignment that refuses
    (sequences that are not text, rows of different lengths, letters outside latin-1) is
    read row by row as Biopython reads it, with Biopython's rows or errors.
    """
    try:
        codes = alignment_rows(alignment)
    except (TypeError, ValueError):
        return list(alignment)
    return [row.tobytes().decode("latin-1") for row in codes]


def listed(seqs) -> list:
    """``list(seqs)``, with a ``Bio.Align.Alignment``'s printed rows taken all at once
    (:func:`alignment_texts`), not row by row through Biopython, which builds each row from
    every row's coordinates (80 s for 1,000 x 1,299): what every front door that takes "a
    sequence of sequences" reads its input with, so that an alignment given in their place is
    read, or refused, at once."""
    if isinstance(seqs, Alignment):
        return alignment_texts(seqs)
    return list(seqs)


def _as_matrix(rows) -> np.ndarray:
    if isinstance(rows, np.ndarray):
        if rows.dtype != np.uint8 or rows.ndim != 2:
            raise ValueError(f"rows must be a (k, L) uint8 array, not {rows.dtype} {rows.shape}")
        return rows
    texts = [r.decode("latin-1") if isinstance(r, (bytes, bytearray)) else str(r) for r in rows]
    if not texts:
        return np.zeros((0, 0), dtype=np.uint8)
    length = len(texts[0])
    if any(len(t) != length for t in texts):
        raise ValueError("gapped rows must all have the same length")
    data = "".join(texts).encode("latin-1")
    return np.frombuffer(data, dtype=np.uint8).reshape(len(texts), length)


def alignment_from_rows(records: Sequence, rows, *, molecule_type: str | None = None
                        ) -> Alignment:
    """A ``Bio.Align.Alignment`` of ungapped sequences from their gapped rows.

    Parameters
    ----------
    records : sequence of SeqRecord, Seq or str
        The ungapped sequences, one per row (kept as the alignment's sequences).
    rows : list of str, or numpy.ndarray
        Equal-length gapped rows, or a ``(k, L)`` uint8 array of character codes; ``-`` and
        ``.`` are gaps.
    molecule_type : str, optional
        Set as ``annotations["molecule_type"]`` of SeqRecords that have none (formats such as
        NEXUS need it).

    Returns
    -------
    Bio.Align.Alignment
        With empty ``column_annotations`` (Biopython's Stockholm writer needs the attribute).

    Raises
    ------
    ValueError
        Rows of different lengths, or a row whose letters do not number its record's.
    """
    arr = _as_matrix(rows)
    k, length = arr.shape
    if len(records) != k:
        raise ValueError(f"{len(records)} records for {k} rows")
    residue = (arr != GAP) & (arr != _DOT)
    # int32 counts in a fresh array (a cumsum into an int64 slice is 20x slower), read only at
    # the columns where some row switches between residues and gaps
    counts = np.cumsum(residue, axis=1, dtype=np.int32) if length else np.zeros((k, 1), np.int32)
    totals = counts[:, -1] if length else np.zeros(k, np.int32)
    expected = np.fromiter((len(rec) for rec in records), dtype=np.int64, count=k)
    for i in np.flatnonzero(totals != expected)[:1]:
        name = getattr(records[i], "id", f"row {i + 1}")
        raise ValueError(f"{name}: {totals[i]} letters in its row, {expected[i]} in it")
    if length > 1:
        change = np.flatnonzero((residue[:, 1:] != residue[:, :-1]).any(axis=0)) + 1
    else:
        change = np.zeros(0, dtype=np.int64)
    cols = np.concatenate([[0], change, [length]]) if length else np.zeros(1, dtype=np.int64)
    # one contiguous gather, then int64, not a fancy gather assigned into a column slice of
    # an int64 array (20,032 reads x 5,197 breaks, fresh processes: medians 2.3 -> 1.4 s of
    # the whole call; the coordinates themselves are 830 MB there)
    steps = np.take(counts, np.concatenate([[0], cols[1:] - 1]).astype(np.int64), axis=1
                    ).astype(np.int64)
    steps[:, 0] = 0
    _set_molecule_type(records, molecule_type)
    alignment = Alignment(list(records), steps)
    alignment.column_annotations = {}
    return alignment


def _set_molecule_type(records: Sequence, molecule_type: str | None) -> None:
    if molecule_type is not None:
        for rec in records:
            if isinstance(rec, SeqRecord):
                rec.annotations.setdefault("molecule_type", molecule_type)


class AlignedRows:
    """An alignment held as its records and printed rows, written without Biopython's
    coordinates.

    For 20,000 reads over 5 kb of columns the coordinates of a ``Bio.Align.Alignment`` are
    830 MB and take longer to build (1.4-4 s) than the file takes to write, and writing reads
    them back into rows (1.6 s more). :func:`write_alignment` takes this in place of an
    Alignment and writes the same text; :meth:`to_alignment` builds the Alignment.

    Parameters
    ----------
    sequences : list of SeqRecord
        The ungapped records, one per row.
    rows : list of str, or numpy.ndarray
        Their gapped rows (as for :func:`alignment_from_rows`).
    molecule_type : str, optional
        As for :func:`alignment_from_rows`.
    keep_empty_columns : bool
        Keep columns of gaps only (written in the formats laid out here, as
        :func:`write_rows` keeps them); by default they are left out, as an Alignment
        leaves them out.

    Attributes
    ----------
    sequences, rows, column_annotations
        As a ``Bio.Align.Alignment`` has them (``rows``: ``(k, L)`` uint8 codes). Other
        attributes set on it are set on :meth:`to_alignment`'s result too.
    """

    _OWN = ("sequences", "rows", "column_annotations", "keep_empty_columns")

    def __init__(self, sequences: Sequence, rows, *, molecule_type: str | None = None,
                 keep_empty_columns: bool = False) -> None:
        arr = _as_matrix(rows)
        if len(sequences) != arr.shape[0]:
            raise ValueError(f"{len(sequences)} records for {arr.shape[0]} rows")
        arr = _dashed(arr) if keep_empty_columns else _printed(arr)[0]
        letters = (arr != GAP).sum(axis=1)
        for i in np.flatnonzero(letters != [len(r) for r in sequences])[:1]:
            name = getattr(sequences[i], "id", f"row {i + 1}")
            raise ValueError(f"{name}: {letters[i]} letters in its row, "
                             f"{len(sequences[i])} in it")
        _set_molecule_type(sequences, molecule_type)
        self.sequences = list(sequences)
        self.rows = arr
        self.column_annotations: dict = {}
        self.keep_empty_columns = keep_empty_columns

    @classmethod
    def printed(cls, sequences: Sequence, rows: np.ndarray, *,
                molecule_type: str | None = None) -> AlignedRows:
        """Rows known to be the printed rows of ``sequences`` (``-`` gaps, no column of gaps
        only, each record's letters), made by bioplug itself: taken without the checks, which
        read a (100,000, 5,300) array three times."""
        held = cls.__new__(cls)
        _set_molecule_type(sequences, molecule_type)
        held.sequences, held.rows = list(sequences), rows
        held.column_annotations, held.keep_empty_columns = {}, False
        return held

    @property
    def length(self) -> int:
        """The number of columns."""
        return self.rows.shape[1]

    def __len__(self) -> int:
        return len(self.sequences)

    def to_alignment(self) -> Alignment:
        """The ``Bio.Align.Alignment`` (columns of gaps only left out), with this object's
        other attributes."""
        alignment = alignment_from_rows(self.sequences, self.rows)
        alignment.column_annotations = dict(self.column_annotations)
        for name, value in vars(self).items():
            if name not in self._OWN:
                setattr(alignment, name, value)
        return alignment

    def format(self, fmt: str) -> str:
        """The text of :meth:`to_alignment` in ``fmt`` (Biopython's writer)."""
        return self.to_alignment().format(fmt)


def upper_codes(codes: np.ndarray) -> np.ndarray:
    """ASCII codes with a-z made A-Z."""
    return np.where((codes >= ord("a")) & (codes <= ord("z")), codes - 32, codes)


def _dashed(arr: np.ndarray) -> np.ndarray:
    """Rows with ``.`` gaps written ``-`` (the array itself when it has none)."""
    dots = arr == _DOT
    return np.where(dots, np.uint8(GAP), arr) if dots.any() else arr


def _printed(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Rows as an Alignment made from them prints them: ``-`` gaps, no all-gap column.

    Returns the rows and the indices of the kept columns (None when all are kept).
    """
    arr = _dashed(arr)
    used = (arr != GAP).any(axis=0)
    if used.all():
        return arr, None
    kept = np.flatnonzero(used)
    return arr[:, kept], kept


# -- layouts -------------------------------------------------------------------------------
def _text(values: Iterable[str]) -> list[bytes]:
    """Fixed-width names as latin-1 bytes (the rows' encoding); others go to Biopython."""
    try:
        return [v.encode("latin-1") for v in values]
    except UnicodeEncodeError as exc:
        raise _Unsupported(str(exc)) from exc


def _fixed(names: list[bytes], width: int) -> np.ndarray:
    """Names already padded to ``width`` letters as a ``(k, width)`` array."""
    return np.frombuffer(b"".join(names), dtype=np.uint8).reshape(len(names), width)


def _framed(left: np.ndarray, body: np.ndarray) -> str:
    """Lines of ``left`` + ``body`` + newline, one per row."""
    newline = np.full((body.shape[0], 1), _NEWLINE, dtype=np.uint8)
    return np.concatenate([left, body, newline], axis=1).tobytes().decode("latin-1")


def _row_groups(arr: np.ndarray) -> Iterator[range]:
    step = max(1, _CHUNK_BYTES // max(arr.shape[1], 1))
    for start in range(0, arr.shape[0], step):
        yield range(start, min(start + step, arr.shape[0]))


def _headed(headers: list[str], arr: np.ndarray) -> Iterator[str]:
    """FASTA-like text: each header line, then its whole row on one line."""
    if arr.shape[0] == 0:
        yield "\n"
        return
    width = arr.shape[1]
    for group in _row_groups(arr):
        flat = arr[group.start:group.stop].tobytes().decode("latin-1")
        parts = []
        for n, i in enumerate(group):
            parts += [headers[i], "\n", flat[n * width:(n + 1) * width], "\n"]
        yield "".join(parts)


def _fasta_headers(ids: list[str], descriptions: list[str]) -> list[str]:
    return [f">{i} {d}" if d else f">{i}" for i, d in zip(ids, descriptions, strict=True)]


def _need_rows(arr: np.ndarray) -> None:
    # Biopython's Clustal, Stockholm and PHYLIP writers refuse these with these words.
    if arr.shape[0] == 0:
        raise ValueError("Must have at least one sequence")
    if arr.shape[1] == 0:
        raise ValueError("Non-empty sequences are required")


def _distinct(ids: list[str], names: list[str], fmt: str, width: int) -> None:
    """Raise ValueError when two different IDs print as the same cut name: a reader (this
    project's tree command among them) could no longer tell those rows apart."""
    seen: dict[str, str] = {}
    for full, name in zip(ids, names, strict=True):
        other = seen.setdefault(name, full)
        if other != full:
            raise ValueError(
                f"IDs {other!r} and {full!r} are both {name.strip()!r} in {fmt}, which keeps "
                f"{width} letters of a name; write FASTA or Stockholm, or shorten the IDs")


def _clustal_names(ids: list[str]) -> list[str]:
    cut = [i[:_CLUSTAL_CUT].replace(" ", "_").ljust(_CLUSTAL_NAME) for i in ids]
    _distinct(ids, cut, "Clustal", _CLUSTAL_CUT)
    return cut


def _phylip_names(ids: list[str]) -> list[str]:
    names = []
    for name in ids:
        name = name.strip()
        for char in "[](),":
            name = name.replace(char, "")
        for char in ":;":
            name = name.replace(char, "|")
        names.append(name[:_PHYLIP_NAME].ljust(_PHYLIP_NAME))
    _distinct(ids, names, "PHYLIP", _PHYLIP_NAME)
    return names


def check_printed_names(ids: Sequence[str], fmt: str) -> list[tuple[str, str]]:
    """Raise ValueError, as the writer would after the work, when two of ``ids`` print as
    one name in ``fmt`` (Clustal keeps 30 letters, PHYLIP 10): commands call it before
    aligning. Returns the ``(id, printed name)`` pairs that differ (cut, or characters
    PHYLIP cannot hold removed), for the command to say."""
    fmt = fmt.lower()
    if fmt == "clustal":
        names = _clustal_names(list(ids))
    elif fmt == "phylip":
        names = _phylip_names(list(ids))
    else:
        return []
    return [(i, n.strip()) for i, n in zip(ids, names, strict=True) if i != n.strip()]


def _clustal(ids: list[str], arr: np.ndarray, consensus: str | None) -> Iterator[str]:
    _need_rows(arr)
    names = _text(_clustal_names(ids))
    return _clustal_blocks(_fixed(names, _CLUSTAL_NAME), arr, consensus)


#: ClustalW's conservation groups (``clustalw``'s ``strong`` and ``weak`` residue groups,
#: as Clustal X and Clustal Omega mark columns): ``:`` for a column whose residues all fall
#: in one strong group, ``.`` in one weak group.
CLUSTAL_STRONG = ("STA", "NEQK", "NHQK", "NDEQ", "QHRK", "MILV", "MILF", "HY", "FYW")
CLUSTAL_WEAK = ("CSA", "ATV", "SAG", "STNK", "STPA", "SGND", "SNDEQK", "NDEQHK", "NEQHRK",
                "FVLIM", "HFY")


def _group_bits(groups: tuple[str, ...]) -> np.ndarray:
    """Per byte, a bit for each group its upper-case letter belongs to."""
    bits = np.zeros(256, dtype=np.uint32)
    for g, letters in enumerate(groups):
        for c in letters:
            bits[ord(c)] |= 1 << g
    return bits


def clustal_conservation(rows, protein: bool = True) -> str:
    """The conservation line Clustal prints under each block: ``*`` where a column holds one
    residue in every row (case aside), ``:`` / ``.`` where its residues all fall in one of
    ClustalW's strong / weak groups (proteins only), a space otherwise and wherever a row has
    a gap there. ClustalW 2.1 and MAFFT print this line; Clustal Omega leaves out the weak
    group STPA (a column of A, P and S gets ``.`` here, a space there).

    Parameters
    ----------
    rows : list of str, or numpy.ndarray
        The gapped rows (``-`` or ``.`` gaps), or their ``(k, L)`` uint8 codes.
    protein : bool
        Mark the groups too (nucleotide columns are identical or nothing).
    """
    arr = _as_matrix(rows)
    if arr.size == 0:
        return " " * arr.shape[1]
    upper = upper_codes(arr).astype(np.uint8)
    gapped = ((upper == GAP) | (upper == _DOT)).any(axis=0)
    same = (upper == upper[0]).all(axis=0)
    line = np.full(arr.shape[1], ord(" "), dtype=np.uint8)
    if protein:
        for mark, groups in ((".", CLUSTAL_WEAK), (":", CLUSTAL_STRONG)):
            shared = np.bitwise_and.reduce(_group_bits(groups)[upper], axis=0)
            line[shared != 0] = ord(mark)
    line[same] = ord("*")
    line[gapped] = ord(" ")
    return line.tobytes().decode("ascii")


def _clustal_blocks(names: np.ndarray, arr: np.ndarray, consensus: str | None
                    ) -> Iterator[str]:
    pad = " " * _CLUSTAL_NAME
    for start in range(0, arr.shape[1], _CLUSTAL_BLOCK):
        stop = min(start + _CLUSTAL_BLOCK, arr.shape[1])
        text = _framed(names, arr[:, start:stop])
        if consensus is not None:
            text += pad + consensus[start:stop] + "\n"
        yield text + "\n"
    yield "\n"


def gcg_checksum(rows: np.ndarray) -> np.ndarray:
    """GCG's checksum of each row as written (gaps included): the sum over positions ``i``
    of ``(i mod 57 + 1)`` times the upper-case letter's code, modulo 10,000."""
    upper = upper_codes(rows)
    weights = np.arange(rows.shape[1], dtype=np.int64) % 57 + 1
    return (upper.astype(np.int64) @ weights) % 10000


def _msf(ids: list[str], arr: np.ndarray) -> Iterator[str]:
    """GCG MSF, as ClustalW writes it for Jalview, GCG and SeaView: a header with each row's
    length and checksum, then blocks of 50 columns in groups of 10, every gap written ``.``
    (Clustal Omega and EMBOSS write end gaps as ``~``, which enters their checksums; readers
    take both. Biopython reads it; it has no MSF writer)."""
    _need_rows(arr)
    from bioplug.alphabet import rows_are_nucleotide

    if any(not name or any(c.isspace() for c in name) for name in ids):
        raise ValueError("MSF names are one word each: a row has an empty name or spaces")
    rows = np.where(arr == GAP, np.uint8(_DOT), arr)
    nucleotide = rows_are_nucleotide(rows)
    checks = gcg_checksum(rows)
    length, width = rows.shape[1], max(len(i) for i in ids)
    head = [f"!!{'NA' if nucleotide else 'AA'}_MULTIPLE_ALIGNMENT 1.0\n\n",
            f" bioplug.msf  MSF: {length}  Type: {'N' if nucleotide else 'P'}  "
            f"Check: {int(checks.sum()) % 10000}  ..\n\n"]
    head += [f" Name: {name:<{width}}  Len: {length:>6}  Check: {int(c):>4}  Weight: 1.00\n"
             for name, c in zip(ids, checks, strict=True)]
    yield "".join(head) + "\n//\n"
    names = _fixed(_text([f"{name:<{width}}  " for name in ids]), width + 2)
    space = np.full((rows.shape[0], 1), ord(" "), np.uint8)
    for start in range(0, length, _CLUSTAL_BLOCK):
        stop = min(start + _CLUSTAL_BLOCK, length)
        parts = []
        for a in range(start, stop, 10):
            parts += [rows[:, a:min(a + 10, stop)], space]
        body = np.concatenate(parts[:-1], axis=1)
        first, last = str(start + 1), str(stop)
        numbers = " " * (width + 2) + first + (
            last.rjust(body.shape[1] - len(first)) if stop > start + 1 else "")
        yield "\n" + numbers + "\n" + _framed(names, body)


def _phylip(ids: list[str], arr: np.ndarray) -> Iterator[str]:
    _need_rows(arr)   # first, as Biopython and _clustal: no rows is the message, not names
    fixed = _fixed(_text(_phylip_names(ids)), _PHYLIP_NAME)
    return _phylip_lines(fixed, arr)


def _phylip_lines(names: np.ndarray, arr: np.ndarray) -> Iterator[str]:
    yield f"{arr.shape[0]} {arr.shape[1]}\n"
    for group in _row_groups(arr):
        yield _framed(names[group.start:group.stop], arr[group.start:group.stop])


def _a2m(headers: list[str], arr: np.ndarray, state: str) -> Iterator[str]:
    """A2M text: see :func:`_a2m_rows`."""
    return _headed(headers, _a2m_rows(arr, state))


def _a3m(headers: list[str], arr: np.ndarray, state: str) -> Iterator[str]:
    """A3M text: the A2M rows without their insert gaps ``.`` (rows of match columns only,
    every alignment bioplug makes, are the A2M text as it is)."""
    out = _a2m_rows(arr, state)
    if not (out == _DOT).any():
        return _headed(headers, out)
    return _ragged(headers, [row[row != _DOT] for row in out])


def _ragged(headers: list[str], rows: list[np.ndarray]) -> Iterator[str]:
    """FASTA-like text of rows of different lengths, each on one line."""
    step = max(1, _CHUNK_BYTES // max(max(map(len, rows), default=1), 1))
    for start in range(0, len(rows), step):
        yield "".join(f"{headers[i]}\n{rows[i].tobytes().decode('latin-1')}\n"
                      for i in range(start, min(start + step, len(rows))))


def _a2m_rows(arr: np.ndarray, state: str) -> np.ndarray:
    """Match (``D``) columns upper case, insert (``I``) columns lower case with ``.`` gaps;
    columns in any other state (or past the end of ``state``) are left out, as Biopython does.
    Case is changed for ASCII letters only (a Bio.Seq holds nothing else): lower-case letters
    in match columns (an A3M file's insertions, read as columns) come out upper case, as
    Biopython's A2M writer writes them."""
    codes = np.array([ord(c) for c in state[:arr.shape[1]]], dtype=np.int64)
    match = np.flatnonzero(codes == ord("D"))
    insert = np.flatnonzero(codes == ord("I"))
    keep = np.sort(np.concatenate([match, insert]))
    out = arr[:, keep]
    is_match = np.isin(keep, match)
    table_up = np.arange(256, dtype=np.uint8)
    table_up[ord("a"):ord("z") + 1] -= 32
    table_low = np.arange(256, dtype=np.uint8)
    table_low[ord("A"):ord("Z") + 1] += 32
    table_low[GAP] = _DOT
    return np.where(is_match[None, :], table_up[out], table_low[out])


def _stockholm(ids: list[str], arr: np.ndarray, gs: list[list[str]], gc: list[tuple[str, str]],
               insert: np.ndarray | None,
               gr: list[list[tuple[str, str]]] | None = None) -> Iterator[str]:
    _need_rows(arr)
    width = max(len(i) for i in ids)
    start = max(width, 20) + 12
    head = [f"# STOCKHOLM 1.0\n#=GF SQ   {arr.shape[0]}\n"]
    for name, lines in zip(ids, gs, strict=True):
        pad = name.ljust(width)
        head += [f"#=GS {pad}  {line}\n" for line in lines]
    names = _fixed(_text(i.ljust(start) for i in ids), start)
    tail = [f"#=GC {feature} ".ljust(start) + value + "\n" for feature, value in gc]
    if insert is not None and insert.any():
        cols = np.flatnonzero(insert)
        sub = arr[:, cols]
        arr = arr.copy()
        arr[:, cols] = np.where(sub == GAP, _DOT, sub)
    if gr and any(gr):
        names, arr = _with_letter_rows(ids, arr, gr, width, start)
    return _stockholm_lines("".join(head), names, arr, "".join(tail) + "//\n")


def _with_letter_rows(ids: list[str], arr: np.ndarray, gr: list[list[tuple[str, str]]],
                      width: int, start: int) -> tuple[np.ndarray, np.ndarray]:
    """Names and rows with each sequence's ``#=GR`` lines below it, as Biopython writes them:
    the annotation's letters at the residues, ``.`` at the gaps."""
    names, rows = [], []
    for i, (name, notes) in enumerate(zip(ids, gr, strict=True)):
        names.append(name.ljust(start))
        rows.append(arr[i])
        residues = (arr[i] != GAP) & (arr[i] != _DOT)
        for tag, value in notes:
            label = f"#=GR {name.ljust(width)}  {tag} ".ljust(start)   # a space before the letters
            letters = value.encode("latin-1", "replace")
            if len(label) > start or len(letters) != int(residues.sum()):
                raise _Unsupported("a #=GR line Biopython lays out otherwise")
            row = np.full(arr.shape[1], _DOT, dtype=np.uint8)
            row[residues] = np.frombuffer(letters, dtype=np.uint8)
            names.append(label)
            rows.append(row)
    return _fixed(_text(names), start), np.stack(rows)


def _stockholm_lines(head: str, names: np.ndarray, arr: np.ndarray, tail: str) -> Iterator[str]:
    yield head
    for group in _row_groups(arr):
        yield _framed(names[group.start:group.stop], arr[group.start:group.stop])
    yield tail


def _layout(fmt: str, ids: list[str], arr: np.ndarray, descriptions: list[str], *,
            consensus: str | None = None, state: str | None = None,
            gs: list[list[str]] | None = None, gc: list[tuple[str, str]] | None = None,
            insert: np.ndarray | None = None,
            gr: list[list[tuple[str, str]]] | None = None) -> Iterator[str]:
    """The text of one alignment in ``fmt`` (no file header), checked before it is laid out.

    Raises ``_Unsupported`` for what Biopython must write itself.
    """
    if len(ids) != arr.shape[0] or len(descriptions) != arr.shape[0]:
        raise ValueError(f"{len(ids)} ids and {len(descriptions)} descriptions for "
                         f"{arr.shape[0]} rows")
    if fmt == "fasta":
        return _headed(_fasta_headers(ids, descriptions), arr)
    if fmt in _STATE_FORMATS:
        headers = _fasta_headers(ids, descriptions)
        layout = _a2m if fmt == "a2m" else _a3m
        return layout(headers, arr, "D" * arr.shape[1] if state is None else state)
    if fmt == "clustal":
        return _clustal(ids, arr, consensus)
    if fmt == "phylip":
        return _phylip(ids, arr)
    if fmt == "msf":
        return _msf(ids, arr)
    if fmt == "stockholm":
        if gs is None:
            gs = [[f"DE {d}"] if d else [] for d in descriptions]
        return _stockholm(ids, arr, gs, gc or [], insert, gr)
    raise _Unsupported(fmt)


#: The first line of the Clustal files bioplug writes, ``CLUSTAL (bioplug <version>) multiple
#: sequence alignment``. Biopython's writer starts them with "Biopython 1.88 multiple sequence
#: alignment", which Clustal Omega refuses ("Parse error in ReadSELEX"), as it refuses MAFFT's
#: "CLUSTAL format alignment by MAFFT", and which no sniffer takes for Clustal: readers look
#: for CLUSTAL first and "multiple sequence alignment" after it.
CLUSTAL_HEADER = "CLUSTAL (bioplug {version}) multiple sequence alignment"


def _file_header(fmt: str, alignments=None) -> str:
    """What goes before the first alignment (Clustal only): ``Bio.Align.write``'s header
    where the alignments carry a program's metadata, else :data:`CLUSTAL_HEADER`."""
    if fmt != "clustal":
        return ""
    try:
        metadata = alignments.metadata
        program = metadata["Program"]
    except (AttributeError, KeyError, TypeError):
        from bioplug import __version__

        return CLUSTAL_HEADER.format(version=__version__) + "\n\n\n"
    version = metadata.get("Version", "")
    return f"{program} {version} multiple sequence alignment\n\n\n"


# -- writing ---------------------------------------------------------------------------------
@contextlib.contextmanager
def _opened(target, inputs: Iterable[str | os.PathLike]):
    if hasattr(target, "write"):
        yield target
        return
    from bioplug.io import atomic_output  # bioplug.io re-exports this module

    with atomic_output(target, inputs) as handle:
        yield handle


def write_rows(target, ids: Sequence[str], rows, fmt: str,
               descriptions: Sequence[str] | None = None, *, state: str | None = None,
               inputs: Iterable[str | os.PathLike] = (),
               keep_empty_columns: bool = False) -> None:
    """Write gapped rows as an alignment file, as ``Bio.Align.write`` would.

    The text equals ``Bio.Align.write`` of ``alignment_from_rows`` of SeqRecords with these
    ids and descriptions. Like any ``Bio.Align.Alignment``, that prints ``.`` gaps as ``-``
    and has no all-gap columns: they are left out here too. FASTA, Clustal, Stockholm, A2M,
    A3M and PHYLIP are laid out with numpy in time proportional to the file size; other
    formats go through ``Bio.Align.write``.

    Parameters
    ----------
    target : path-like, text handle or ``"-"``
        A path is written atomically (never over one of ``inputs``); ``"-"`` is standard
        output; a handle is written to and left open.
    ids : sequence of str
        Row names.
    rows : list of str, or numpy.ndarray
        Equal-length gapped rows, or a ``(k, L)`` uint8 array (e.g. :func:`alignment_rows`).
    fmt : str
        A ``Bio.Align`` format name, or ``"a3m"``.
    descriptions : sequence of str, optional
        Record descriptions (FASTA/A2M/A3M headers, Stockholm ``#=GS DE``); none by default.
    state : str, optional
        A2M / A3M state of each column of ``rows`` (``D`` match, ``I`` insert; the states of
        all-gap columns are dropped with them); every column a match by default.
    inputs : iterable of path-like
        Files the output must not replace.
    keep_empty_columns : bool
        Keep columns of gaps only (as no ``Bio.Align.Alignment`` can), in the formats laid
        out here: ``bioplug profile --keep-length`` keeps its input's length so.

    Raises
    ------
    ValueError
        Rows of different lengths; an empty alignment in a format that needs rows; a
        format Biopython cannot write, or one not laid out here with
        ``keep_empty_columns``.
    """
    if keep_empty_columns:   # a kept alignment length (profile --keep-length): as given
        if fmt.lower() not in FAST_FORMATS:
            raise ValueError(f"columns of gaps only are kept in {', '.join(FAST_FORMATS)} "
                             f"files, not {fmt}")
        arr, kept = _dashed(_as_matrix(rows)), None
    else:
        arr, kept = _printed(_as_matrix(rows))
    if state is not None and kept is not None:
        state = "".join(state[c] for c in kept[kept < len(state)])
    fmt = fmt.lower()
    ids = list(ids)
    descriptions = [""] * len(ids) if descriptions is None else list(descriptions)
    try:
        text = _layout(fmt, ids, arr, descriptions, state=state)
    except _Unsupported:
        text = None
    with _opened(target, inputs) as handle:
        if text is None:
            records = [SeqRecord(Seq(bytes(r[(r != GAP) & (r != _DOT)])), id=i, description=d)
                       for i, d, r in zip(ids, descriptions, arr, strict=True)]
            alignment = alignment_from_rows(records, arr)
            if fmt == "a2m":
                alignment.column_annotations["state"] = state or "D" * arr.shape[1]
            if fmt == "clustal":   # the header of every Clustal file bioplug writes
                handle.write(_file_header(fmt) + alignment.format(fmt))
            else:
                Align.write(alignment, handle, fmt)
            return
        handle.write(_file_header(fmt))
        for chunk in text:
            handle.write(chunk)


def _string_map(mapping, what: str) -> list[tuple[str, str]]:
    """(key, value) pairs whose values are text (Biopython adds them to strings)."""
    items = list(mapping.items())
    for key, value in items:
        if not isinstance(value, str):
            raise _Unsupported(f"{what} {key!r} is not text")
    return items


def _alignment_text(alignment: Alignment, fmt: str) -> Iterator[str]:
    """The text of one alignment in a fast format; ``_Unsupported`` for Biopython's writer."""
    records = alignment.sequences
    if not all(isinstance(r, SeqRecord) for r in records):
        raise _Unsupported("sequences that are not SeqRecords")
    ids = [r.id for r in records]
    descriptions = [r.description for r in records]
    if not all(isinstance(v, str) for v in ids + descriptions):
        raise _Unsupported("ids or descriptions that are not text")
    columns = getattr(alignment, "column_annotations", None) or {}
    try:
        arr = alignment_rows(alignment)
    except (TypeError, ValueError) as exc:
        raise _Unsupported(str(exc)) from exc
    if fmt == "clustal":
        consensus = columns.get("clustal_consensus")
        if consensus is not None and not isinstance(consensus, str):
            raise _Unsupported("consensus that is not text")
        return _layout(fmt, ids, arr, descriptions, consensus=consensus)
    if fmt in _STATE_FORMATS:
        state = columns.get("state")
        if fmt == "a3m" and state is None:   # Biopython has no A3M writer to ask
            state = "D" * arr.shape[1]
        if not isinstance(state, str):
            raise _Unsupported(f"{fmt.upper()} without a text state annotation")
        return _layout(fmt, ids, arr, descriptions, state=state)
    if fmt != "stockholm":
        return _layout(fmt, ids, arr, descriptions)
    gr = [[(_StockholmWriter.gr_mapping.get(key, key), value)
           for key, value in _string_map(r.letter_annotations, "letter annotation")]
          for r in records]
    operations = getattr(alignment, "operations", None)
    insert = None
    if operations is not None:
        if not isinstance(operations, (bytes, bytearray)) or len(operations) != arr.shape[1]:
            raise _Unsupported("operations that are not one byte per column")
        insert = np.frombuffer(bytes(operations), dtype=np.uint8) == ord("I")
    if getattr(alignment, "annotations", None):
        if any(gr):   # _flat's rows are gapped text: no letter annotations on them
            raise _Unsupported("#=GF annotations with per-letter annotations (#=GR)")
        return _flat(alignment, arr, fmt)
    gs = []
    for r in records:
        lines = [f"{_StockholmWriter.gs_mapping.get(key, key)} {value}"
                 for key, value in r.annotations.items()]
        lines += [f"DE {r.description}"] if r.description else []
        lines += [f"DR {value}" for value in r.dbxrefs]
        gs.append(lines)
    gc = [(_StockholmWriter.gc_mapping.get(key, key), value)
          for key, value in _string_map(columns, "column annotation")]
    return _layout(fmt, ids, arr, descriptions, gs=gs, gc=gc, insert=insert, gr=gr)


def _flat(alignment: Alignment, arr: np.ndarray, fmt: str) -> Iterator[str]:
    """Biopython's text of the alignment rebuilt on its printed rows (one coordinate block).

    Used for Stockholm ``#=GF`` annotations, whose layout only Biopython's writer knows: with
    a single block per row it prints at Biopython's per-letter speed, not per-segment.
    """
    yield _flat_alignment(alignment, arr).format(fmt)


def _flat_alignment(alignment: Alignment, arr: np.ndarray) -> Alignment:
    """``alignment`` rebuilt on its printed rows ``arr``: one coordinate block a row."""
    k, length = arr.shape
    rows = [SeqRecord(Seq(arr[i].tobytes().decode("latin-1")), id=r.id, name=r.name,
                      description=r.description, dbxrefs=list(r.dbxrefs),
                      annotations=dict(r.annotations))
            for i, r in enumerate(alignment.sequences)]
    flat = Alignment(rows, np.array([[0, length]] * k, dtype=np.int64))
    flat.annotations = getattr(alignment, "annotations", None) or {}
    flat.column_annotations = getattr(alignment, "column_annotations", None) or {}
    if hasattr(alignment, "operations"):
        flat.operations = alignment.operations
    return flat


def _printed_rows_alignment(alignment):
    """For Biopython's NEXUS writer, which prints row by row (80 s for 1,000 x 1,300, each
    row built from every row's coordinates): the alignment on its printed rows, or itself
    where they cannot be taken (sequences not SeqRecords, letters beyond latin-1)."""
    if not isinstance(alignment, (Alignment, AlignedRows)) or not all(
            isinstance(r, SeqRecord) for r in alignment.sequences):
        return _biopythons(alignment)
    try:
        rows = alignment_rows(alignment)
    except (TypeError, ValueError):
        return alignment
    if isinstance(alignment, AlignedRows) and alignment.keep_empty_columns:
        rows, _ = _printed(rows)   # kept only in the formats laid out here
    return _flat_alignment(alignment, rows)


def _biopythons(alignment):
    """What Biopython's writers take: an :class:`AlignedRows` as its Alignment."""
    return alignment.to_alignment() if isinstance(alignment, AlignedRows) else alignment


def write_alignment(alignments, target, fmt: str, *,
                    inputs: Iterable[str | os.PathLike] = ()) -> int:
    """Write alignments as ``Bio.Align.write`` does, in time proportional to the file size.

    Parameters
    ----------
    alignments : Bio.Align.Alignment, AlignedRows, or iterable of them
        What ``Bio.Align.write`` takes, or :class:`AlignedRows` in place of an Alignment.
    target : path-like, text handle or ``"-"``
        As for :func:`write_rows`.
    fmt : str
        A ``Bio.Align`` format name, or ``"a3m"``; FASTA, Clustal, Stockholm, A2M, A3M and
        PHYLIP are laid out here, others written by ``Bio.Align.write``. A2M is written in
        the alignment's ``column_annotations["state"]``, A3M too when it has one, else
        every column a match (upper case, ``-`` gaps).
    inputs : iterable of path-like
        Files the output must not replace.

    Returns
    -------
    int
        The number of alignments written.

    Notes
    -----
    A Stockholm alignment without ``column_annotations`` is written as one with none
    (Biopython raises ``AttributeError``). Alignments with sequences that are not SeqRecords,
    ``#=GR`` letter annotations or names outside latin-1 are written by Biopython's own
    writer (same text, Biopython's speed); one with ``#=GF`` annotations, and NEXUS, by
    Biopython's writer on its printed rows.
    """
    fmt = fmt.lower()
    single = isinstance(alignments, (Alignment, AlignedRows))
    if fmt == "nexus":   # Biopython's writer, on the printed rows
        alignments = (_printed_rows_alignment(alignments) if single
                      else [_printed_rows_alignment(a) for a in alignments])
    elif fmt not in FAST_FORMATS:
        alignments = (_biopythons(alignments) if single
                      else [_biopythons(a) for a in alignments])
    if fmt not in FAST_FORMATS:
        with _opened(target, inputs) as handle:
            return Align.write(alignments, handle, fmt)
    items = [alignments] if single else list(alignments)
    with _opened(target, inputs) as handle:
        handle.write(_file_header(fmt, None if single else alignments))
        for n, alignment in enumerate(items):
            if fmt in _STATE_FORMATS and n == 1:
                raise ValueError(f"Alignment files in the {fmt.upper()} format can contain a "
                                 "single alignment only.")
            try:
                text = _alignment_text(alignment, fmt)
            except _Unsupported as why:
                if fmt == "a3m":
                    raise ValueError(f"A3M is written by bioplug only, which cannot write "
                                     f"this alignment: {why}") from None
                log.debug("%s written by Biopython (%s)", fmt, why)
                text = iter([alignment.format(fmt)])
            for chunk in text:
                handle.write(chunk)
    return len(items)
