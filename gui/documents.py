"""What the GUI holds open: sequences or an alignment, read and written through Biopython.

:class:`AlignmentData` keeps the rows as an ``(n, L)`` uint8 array of ASCII codes (what the
viewer paints), the ungapped records (what jobs take) and, for an alignment, the
``Bio.Align.Alignment`` (what the exports write). Files are only ever read; the one writer
of alignments is :func:`bioplug.gui.export.write_alignment_file` (atomic, cancellable, never
over the opened file).
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from Bio import Align
from Bio.Align import Alignment
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.errors import InputError
from bioplug.io import (
    check_letters,
    description_after_id,
    input_format,
    open_input,
    read_records,
)
from bioplug.msa.reliability import pp_values

#: Formats read with ``Bio.Align.read`` (gapped alignments); every other one with Bio.SeqIO.
ALIGNMENT_FORMATS = {"clustal", "stockholm", "phylip", "msf", "nexus", "a2m", "emboss"}
#: PHYLIP dialects and their Bio.AlignIO names, in the order :func:`read_phylip` tries them.
PHYLIP_DIALECTS = {"strict": "phylip", "relaxed": "phylip-relaxed",
                   "sequential": "phylip-sequential"}
GAPS = b"-."


@dataclass
class AlignmentData:
    """Sequences or an alignment as the viewer and the jobs need them.

    Attributes
    ----------
    names : list of str
        Row labels (record ids).
    codes : numpy.ndarray
        ``(n, L)`` uint8 ASCII codes; unaligned rows are padded with spaces.
    records : list of Bio.SeqRecord.SeqRecord
        Ungapped sequences, in row order (the input of MSA, pairwise and tree jobs).
    alignment : Bio.Align.Alignment or None
        The alignment when the rows are aligned.
    source : pathlib.Path or None
        The file it came from (never written).
    """

    names: list[str]
    codes: np.ndarray
    records: list[SeqRecord]
    alignment: Alignment | None = None
    source: Path | None = None
    title: str = field(default="")

    @property
    def aligned(self) -> bool:
        """Whether the rows form an alignment."""
        return self.alignment is not None

    @property
    def has_columns(self) -> bool:
        """Whether a column means something: an alignment, or sequences of one length (not
        unaligned sequences of different lengths, whose per-column tracks are noise)."""
        return self.aligned or len({len(r.seq) for r in self.records}) <= 1

    @property
    def column_reliability(self) -> np.ndarray | None:
        """Each column's reliability (0 .. 1, NaN for none) when the alignment carries it: a
        QuickProbs alignment's ``column_reliability``, or a Stockholm file's ``#=GC PP_cons``
        line (HMMER's code: a digit d is d / 10, ``*`` 0.975); None otherwise, and for rows
        edited since (their columns are no longer the annotated ones)."""
        alignment = self.alignment
        values = getattr(alignment, "column_reliability", None)
        if values is None:
            text = (getattr(alignment, "column_annotations", None) or {}).get(
                "consensus posterior probability")
            values = pp_values(text) if isinstance(text, str) else None
        if values is None or len(values) != self.shape[1]:
            return None
        return np.asarray(values, dtype=np.float64)

    @property
    def descriptions(self) -> list[str]:
        """Each row's title words after its id (``""`` when the title is only the id)."""
        return [r.description for r in self.records]

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)``."""
        return (int(self.codes.shape[0]), int(self.codes.shape[1]))

    def letter_problem(self) -> str:
        """The first character that is no sequence letter, as the command-line tools report
        it (:func:`bioplug.io.check_letters`: record, 1-based position in the ungapped
        sequence, character), or ``""``. The viewer warns with it; the jobs refuse it.
        """
        try:
            check_letters(self.records, self.title or "sequences", empty_ok=True)
        except InputError as exc:
            return str(exc)
        return ""

    def row_text(self, i: int) -> str:
        """Row ``i`` as text (padding removed)."""
        return self.codes[i].tobytes().decode("ascii").rstrip(" ")

    @classmethod
    def from_records(
        cls, records: list[SeqRecord], source: Path | None = None, aligned: bool | None = None
    ) -> AlignmentData:
        """Rows from SeqRecords; equal-length records with gaps are taken as an alignment."""
        texts = [str(r.seq) for r in records]
        lengths = {len(t) for t in texts}
        if aligned is None:
            aligned = len(records) > 1 and len(lengths) == 1 and any(
                ("-" in t or "." in t) for t in texts
            )
        if aligned:
            if len(lengths) != 1:
                raise InputError("the aligned sequences have different lengths")
            seqs, coords = Alignment.parse_printed_alignment([t.encode() for t in texts])
            rows = [
                SeqRecord(Seq(s.decode()), id=r.id, name=r.name,
                          description=description_after_id(r))
                for s, r in zip(seqs, records, strict=True)
            ]
            return cls.from_alignment(Alignment(rows, coords), source, codes=_pack(texts))
        codes = _pack(texts)
        ungapped = [
            SeqRecord(Seq(t), id=r.id, name=r.name, description=description_after_id(r))
            for t, r in zip(texts, records, strict=True)
        ]
        return cls([r.id for r in records], codes, ungapped, None, source, _title(source))

    @classmethod
    def from_alignment(
        cls, alignment: Alignment, source: Path | None = None, codes: np.ndarray | None = None
    ) -> AlignmentData:
        """Rows from a ``Bio.Align.Alignment`` (its sequences must be SeqRecords or Seqs)."""
        if codes is None:
            codes = alignment_codes(alignment)
        records = []
        for i, seq in enumerate(alignment.sequences):
            if isinstance(seq, SeqRecord):
                rec = SeqRecord(
                    Seq(str(seq.seq).replace("-", "").replace(".", "")), id=seq.id,
                    name=seq.name, description=seq.description,
                )
            else:
                rec = SeqRecord(Seq(str(seq)), id=f"seq{i + 1}", description="")
            records.append(rec)
        # Only the aligned part is shown; keep the residue text of the rows.
        return cls([r.id for r in records], codes, records, alignment, source, _title(source))

    def to_alignment(self) -> Alignment:
        """The alignment for export.

        Raises
        ------
        InputError
            When the rows are unaligned sequences.
        """
        if self.alignment is None:
            raise InputError("the sequences are not aligned: run a multiple alignment first")
        return self.alignment


def titled_records(data: AlignmentData, gapped: bool = False) -> list[SeqRecord]:
    """The rows as records whose description is the whole title line, ``"id words"``.

    Bio.SeqIO's FASTA writer prints a description whose first word is the id as it is, so
    a bare description that happens to start with the id (``>X X-ray ...``) would lose that
    word; the whole title is always printed exactly, and read back by
    :meth:`AlignmentData.from_records` (which strips the id once).

    Parameters
    ----------
    data : AlignmentData
    gapped : bool
        The rows as shown (gapped), else the ungapped sequences.

    Returns
    -------
    list of Bio.SeqRecord.SeqRecord
    """
    out = []
    for i, (name, rec) in enumerate(zip(data.names, data.records, strict=True)):
        seq = Seq(data.row_text(i)) if gapped else rec.seq
        title = f"{name} {rec.description}" if rec.description else name
        out.append(SeqRecord(seq, id=name, name=rec.name, description=title))
    return out


def _title(source: Path | None) -> str:
    return source.name if source is not None else ""


def _pack(texts: list[str]) -> np.ndarray:
    """Rows of text as an ``(n, L)`` uint8 array, space-padded."""
    width = max((len(t) for t in texts), default=0)
    out = np.full((len(texts), width), ord(" "), dtype=np.uint8)
    for i, t in enumerate(texts):
        if t:
            out[i, : len(t)] = np.frombuffer(t.encode("ascii", "replace"), dtype=np.uint8)
    return out


def alignment_codes(alignment: Alignment) -> np.ndarray:
    """The gapped rows of an alignment as ``(n, L)`` uint8 codes (numpy, no per-column loop).

    Falls back to ``alignment[i]`` for what the fast path does not cover (reverse strands,
    rows that only partly fill a block).
    """
    coords = np.asarray(alignment.coordinates, dtype=np.int64)
    steps = np.diff(coords, axis=1)
    spans = steps.max(axis=0) if steps.size else np.zeros(0, np.int64)
    simple = (steps >= 0).all() and ((steps == 0) | (steps == spans[None, :])).all()
    if not simple:
        return _pack([alignment[i] for i in range(len(alignment.sequences))])
    length = int(spans.sum())
    n = coords.shape[0]
    out = np.full((n, length), ord("-"), dtype=np.uint8)
    if length == 0:
        return out
    seg = np.repeat(np.arange(spans.size), spans)
    starts = np.concatenate([[0], np.cumsum(spans)[:-1]])
    offset = np.arange(length) - np.repeat(starts, spans)
    for i, seq in enumerate(alignment.sequences):
        seq = seq.seq if isinstance(seq, SeqRecord) else seq
        raw = np.frombuffer(bytes(seq), dtype=np.uint8) if not isinstance(seq, str) else (
            np.frombuffer(seq.encode(), dtype=np.uint8))
        has = steps[i][seg] > 0
        idx = coords[i][seg] + offset
        out[i, has] = raw[idx[has]]
    return out


def read_phylip(text: str, path: Path, fmt: str = "phylip") -> Alignment:
    """A PHYLIP alignment in whichever dialect reads: strict, then relaxed, then sequential.

    Strict PHYLIP (10-character names, Bio.Align's reader) comes first: its names may hold
    spaces, which the relaxed reader would split. Relaxed PHYLIP (names of any length ended by
    white space, interleaved or not) is what Bio.AlignIO's ``phylip-relaxed``, IQ-TREE and
    RAxML write; sequential is strict names with each sequence on consecutive lines.

    Parameters
    ----------
    text : str
        The file's contents.
    path : pathlib.Path
        For messages.
    fmt : str
        ``"phylip"`` (try every dialect) or one dialect's Bio.AlignIO name
        (``"phylip-relaxed"``, ``"phylip-sequential"``).

    Returns
    -------
    Bio.Align.Alignment

    Raises
    ------
    InputError
        No dialect reads the file: each one's reason is given.
    """
    from Bio import AlignIO

    tried = []
    for dialect, name in PHYLIP_DIALECTS.items():
        if fmt not in ("phylip", name):
            continue
        try:
            if dialect == "strict":
                alignment = Align.read(io.StringIO(text), "phylip")
            else:
                alignment = AlignIO.read(io.StringIO(text), name).alignment
            _check_phylip_header(text, alignment)
        except (ValueError, AssertionError, IndexError) as exc:
            tried.append(f"{dialect}: {' '.join(str(exc).split())}")  # one line
            continue
        for record in alignment.sequences:  # AlignIO repeats the id as the description
            if record.description == record.id:
                record.description = ""
        return alignment
    raise InputError(f"{path}: not readable as PHYLIP (tried {'; '.join(tried)})")


def _check_phylip_header(text: str, alignment: Alignment) -> None:
    """Raise ValueError unless ``alignment`` has the rows and columns the first line gives
    (Bio.Align's strict reader returns a truncated file's rows cut short, without a word)."""
    rows, columns = (int(x) for x in text.split(None, 2)[:2])
    got = (len(alignment.sequences), int(alignment.length) if alignment.sequences else 0)
    if got != (rows, columns):
        raise ValueError(f"the first line gives {rows} sequences of {columns} columns, "
                         f"but {got[0]} of {got[1]} were read")


def load_file(path: str | os.PathLike, fmt: str | None = None) -> AlignmentData:
    """Read a sequence or alignment file (any Bio.SeqIO / Bio.Align format).

    Parameters
    ----------
    path : path-like
        The file; it is only read.
    fmt : str, optional
        Format name; guessed from the extension (FASTA otherwise).

    Returns
    -------
    AlignmentData

    Raises
    ------
    InputError
        Missing, empty or unparsable file, with the same words as the command line.
    """
    path = Path(path)
    fmt = fmt or input_format(path)   # the extension's, else the first line's, else FASTA
    if fmt in ALIGNMENT_FORMATS or fmt in PHYLIP_DIALECTS.values():
        if not path.exists():
            raise InputError(f"{path}: no such file")
        if path.stat().st_size == 0:
            raise InputError(f"{path}: the file is empty")
        with open_input(path, "rt") as handle:
            if fmt == "phylip" or fmt in PHYLIP_DIALECTS.values():
                alignment = read_phylip(handle.read(), path, fmt)
            else:
                try:
                    alignment = Align.read(handle, fmt)
                except (ValueError, AssertionError, IndexError) as exc:
                    raise InputError(f"{path}: not readable as {fmt}: {exc}") from exc
        if len(alignment.sequences) == 0:
            raise InputError(f"{path}: no {fmt} records found (is it a {fmt} file?)")
        return AlignmentData.from_alignment(alignment, path)
    records = read_records(path, fmt)
    # an A3M file is an alignment even without gaps (its rows were expanded to one length)
    return AlignmentData.from_records(records, path, aligned=True if fmt == "a3m" else None)
