"""Reading and writing through Bio.SeqIO / Bio.Align (no hand-written parsers).

Inputs are validated at the door: empty files, empty records, duplicate ids and non-sequence
files give an :class:`~bioplug.errors.InputError` naming what is wrong. Output files are
written atomically (temporary file in the same folder, then rename) and never over an input;
``-`` names standard input (:func:`read_records`) or standard output (:func:`atomic_output`).

Alignments are written by :mod:`bioplug.alignio` (re-exported here): :func:`alignment_rows`,
:func:`alignment_from_rows`, :func:`write_rows` and :func:`write_alignment` give the bytes
``Bio.Align.write`` gives, in time proportional to the file size.
"""

from __future__ import annotations

import contextlib
import errno
import io
import logging
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.alignio import (
    FAST_FORMATS,
    AlignedRows,
    alignment_from_rows,
    alignment_rows,
    check_printed_names,
    clustal_conservation,
    write_alignment,
    write_rows,
)
from bioplug.errors import InputError, OutputWriteError
from bioplug.interrupts import cleaning_up
from bioplug.streams import STDIO, empty_message, is_stream, spooled, stream_bytes

log = logging.getLogger(__name__)

__all__ = [
    "EXTENSION_FORMATS", "AlignedRows", "OutputWriteError", "alignment_from_rows",
    "alignment_rows", "as_record", "atomic_output", "check_ascii", "check_unique_ids",
    "guess_format", "input_format", "is_stream", "spooled", "parse_records", "read_records",
    "sequence_name", "sequence_text", "sniff_format", "write_alignment", "write_rows",
]


#: The extensions of the alignment formats bioplug both reads and writes.
_ALIGNMENT_EXTENSIONS = {
    ".fa": "fasta", ".fasta": "fasta", ".faa": "fasta", ".fna": "fasta", ".fas": "fasta",
    ".tfa": "fasta", ".afa": "fasta", ".mfa": "fasta", ".aln": "clustal",
    ".clustal": "clustal", ".clw": "clustal", ".sto": "stockholm",
    ".stockholm": "stockholm", ".stk": "stockholm", ".sth": "stockholm", ".phy": "phylip",
    ".phylip": "phylip", ".msf": "msf", ".nex": "nexus", ".nxs": "nexus", ".nexus": "nexus",
    ".a2m": "a2m", ".a3m": "a3m", ".maf": "maf",
}

EXTENSION_FORMATS = {
    **_ALIGNMENT_EXTENSIONS, ".gb": "genbank", ".gbk": "genbank", ".embl": "embl",
    ".fastq": "fastq", ".fq": "fastq",
}


#: Alignment formats by output extension (Bio.Align.write names), for ``-o OUT`` without
#: ``--format`` (:func:`output_format`): bioplug reads back what it wrote.
OUTPUT_FORMATS = {
    **_ALIGNMENT_EXTENSIONS, ".xmfa": "mauve", ".sam": "sam", ".bed": "bed", ".psl": "psl",
    ".chain": "chain", ".exn": "exonerate", ".hhr": "hhr",
}


def guess_format(path: str | os.PathLike, default: str | None = "fasta") -> str | None:
    """A Bio.SeqIO / Bio.Align format name from a file extension (``.fa.gz`` as ``.fa``)."""
    suffixes = [s.lower() for s in Path(path).suffixes]
    if len(suffixes) > 1 and suffixes[-1] == ".gz":
        suffixes.pop()
    return EXTENSION_FORMATS.get(suffixes[-1] if suffixes else "", default)


#: First-line signatures of the formats that say what they are, for standard input and files
#: whose extension names no format (``family.txt``, ``aln``): a Clustal alignment piped in
#: is read as Clustal, not refused as broken FASTA.
_SIGNATURES = (("CLUSTAL", "clustal"), ("MUSCLE (", "clustal"), ("PROBCONS", "clustal"),
               ("# STOCKHOLM", "stockholm"), ("#NEXUS", "nexus"), ("LOCUS", "genbank"),
               ("ID ", "embl"), (">", "fasta"), ("@", "fastq"), ("PileUp", "msf"),
               ("!!AA_MULTIPLE_ALIGNMENT", "msf"), ("!!NA_MULTIPLE_ALIGNMENT", "msf"))
#: ColabFold's first line of an A3M file: the query lengths and their copy numbers
#: (``#123<TAB>1``, ``#57,83<TAB>1,1``). A plain A3M file starts with ``>``, as FASTA does.
_COLABFOLD_HEADER = re.compile(r"#\d+(?:,\d+)*\t\d+(?:,\d+)*")


def sniff_format(text: str) -> str:
    """The format the first non-blank line of ``text`` announces (a PHYLIP header of two
    numbers included), else FASTA.

    A ColabFold A3M header (``#123<TAB>1``) followed by a ``>`` title is A3M. An A3M file
    without that line cannot be told from FASTA by its first line: it reads as FASTA unless
    its name ends in ``.a3m``.
    """
    lines = (x.strip() for x in text.splitlines() if x.strip())
    line = next(lines, "")
    for signature, fmt in _SIGNATURES:
        if line.upper().startswith(signature.upper()):
            return fmt
    if line.endswith("multiple sequence alignment"):
        # Bio.Align.write's Clustal line ("Biopython 1.88 multiple sequence alignment"),
        # MSAProbs', Kalign's
        return "clustal"
    if _COLABFOLD_HEADER.fullmatch(line) and next(lines, "").startswith(">"):
        return "a3m"
    if re.fullmatch(r"\s*\d+\s+\d+\s*", line):
        return "phylip"
    return "fasta"


def input_format(path: str | os.PathLike) -> str:
    """The format to read ``path`` in: the one its extension names, else the one its first
    line announces (:func:`sniff_format`), else FASTA."""
    fmt = guess_format(path, None)
    if fmt is not None:
        return fmt
    try:
        with open_input(path, "rt", errors="replace") as handle:
            return sniff_format(handle.read(4096))
    except (OSError, InputError):
        return "fasta"   # reading it reports the problem


@contextlib.contextmanager
def open_input(path: str | os.PathLike, mode: str = "rb", **text_options):
    """An input file opened for reading, decompressed when it is gzip data (by its first
    bytes, whatever its name): sequence files often come as ``.fa.gz``. ``text_options``
    (``errors``, ``encoding``) apply in text mode.

    Raises
    ------
    InputError
        When the path is missing, a directory or not readable, or reading inside the block
        finds the gzip data damaged or cut short.
    """
    try:
        with open(path, "rb") as probe:
            gzipped = probe.read(2) == b"\x1f\x8b"
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a sequence file") from None
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    if not gzipped:
        with open(path, mode, **text_options) as handle:
            yield handle
        return
    import gzip
    import zlib

    try:
        with gzip.open(path, mode, **text_options) as handle:
            yield handle
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise InputError(f"{path}: not readable: {exc}") from exc


def read_records(path: str | os.PathLike, fmt: str | None = None) -> list[SeqRecord]:
    """Read every record of a sequence file as Bio.SeqIO reads it (plain FASTA by
    :func:`parse_fasta`, the same records without importing Bio.SeqIO).

    Parameters
    ----------
    path : path-like
        The file, or ``"-"`` for standard input.
    fmt : str, optional
        Bio.SeqIO format name; by default the one the extension names, else the one the
        first line announces (:func:`sniff_format`: Clustal, Stockholm, ...), else FASTA.

    Returns
    -------
    list of Bio.SeqRecord.SeqRecord

    Raises
    ------
    InputError
        Missing or empty file, a file that parses to no record (e.g. not FASTA), or one
        whose records are empty.
    """
    if str(path) == STDIO:
        return _read_stdin(fmt)
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if is_stream(path):   # its size says nothing, and it can be read once
        return _records_of_bytes(stream_bytes(path), fmt or guess_format(path, None),
                                 str(path))
    if path.stat().st_size == 0:
        raise InputError(f"{path}: the file is empty")
    fmt = fmt or input_format(path)
    try:
        records = _parsed_file(path, fmt, "utf-8-sig")   # "-sig": a Windows editor's BOM
    except UnicodeDecodeError:
        with open_input(path) as raw:
            _warn_latin1(raw.read(), str(path))
        records = _parsed_file(path, fmt, "latin-1")
    if not records:
        raise InputError(f"{path}: no {fmt} records found (is it a {fmt} file?)")
    check_ascii(records, str(path))
    return records


def _parsed_file(path: Path, fmt: str, encoding: str) -> list[SeqRecord]:
    with open_input(path, "rt", encoding=encoding) as handle:
        try:
            return parse_records(handle, fmt)
        except UnicodeDecodeError:
            raise
        except (ValueError, AssertionError, TypeError) as exc:
            # Biopython's parsers raise all three on malformed input (a TypeError for a
            # Stockholm #=GR line of the wrong length)
            raise InputError(f"{path}: not readable as {fmt}: {_one_line(exc)}") from exc


def _warn_latin1(raw: bytes, source: str) -> None:
    """Say where text that is not UTF-8 starts: it is read as Latin-1 (titles written by
    older tools; residues are ASCII either way), as mafft and Clustal Omega read it."""
    try:
        raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        log.warning("%s: line %d is not UTF-8 text (byte 0x%02x): the file is read as "
                    "Latin-1", source, line, raw[exc.start])


def parse_records(handle, fmt: str) -> list[SeqRecord]:
    """``list(Bio.SeqIO.parse(handle, fmt))``; plain FASTA is read by :func:`parse_fasta`,
    which gives the same records without importing Bio.SeqIO (whose format modules cost about
    0.06 s of every command's start-up). A3M, which Biopython does not read, is read by
    :func:`bioplug.a3m.parse_a3m`: its rows expanded to one length, as ``reformat.pl a3m
    fas`` does."""
    if fmt == "fasta":
        return parse_fasta(handle)
    if fmt == "a3m":
        from bioplug.a3m import parse_a3m

        return parse_a3m(handle)
    if fmt == "stockholm":
        from Bio import AlignIO

        # Bio.SeqIO runs the records of every alignment of a file together: a Pfam-style
        # file of families then read as one family with "duplicate sequence ids"
        alignments = list(AlignIO.parse(handle, "stockholm"))
        if len(alignments) > 1:
            raise ValueError(f"{len(alignments)} alignments in one file (a file of families, "
                             "as Pfam's); bioplug reads one alignment a file")
        return list(alignments[0]) if alignments else []
    from Bio import SeqIO

    try:
        return list(SeqIO.parse(handle, fmt))
    except ValueError as exc:
        if not str(exc).startswith("Unknown format"):
            raise
    # formats only Bio.Align reads (a2m, ...), which bioplug also writes: the rows
    from Bio import Align

    handle.seek(0)
    alignment = Align.read(handle, fmt)
    # all rows at once: Biopython builds each row from every row's coordinates
    rows = alignment_rows(alignment).copy()
    state = (alignment.column_annotations or {}).get("state")
    if fmt == "a2m" and state is not None:
        import numpy as np

        # Biopython upper-cases A2M's insert-state residues (their case is the state): they
        # are given back as the file has them, lower case
        insert = np.frombuffer(state.encode("ascii"), np.uint8) == ord("I")
        letters = (rows >= ord("A")) & (rows <= ord("Z"))
        rows[letters & insert[None, :]] |= 0x20
    return [SeqRecord(Seq(row.tobytes().decode("latin-1")), id=rec.id, name=rec.name,
                      description=rec.description)
            for row, rec in zip(rows, alignment.sequences, strict=True)]


def parse_fasta(handle: Iterable[str]) -> list[SeqRecord]:
    """The records of a FASTA text stream (or any iterable of its lines) as
    ``Bio.SeqIO.parse(handle, "fasta")`` gives them: the title line after ``>`` (trailing
    white space removed) is the description and its first word the id and name; the sequence
    is every following line up to the next ``>`` line, white space removed
    (``tests/test_io_fasta.py`` compares the two).

    Raises
    ------
    ValueError
        Text before the first ``>`` line (Bio.SeqIO's "fasta" refuses it too).
    """
    handle = iter(handle)
    line = next(handle, "")
    if not line:
        return []
    if not line.startswith(">"):
        raise ValueError("the file does not start with a '>' title line (text before the "
                         "first record: comments are not read as FASTA)")
    records = []
    while line:
        title = line[1:].rstrip()
        lines = []
        line = ""
        for line in handle:  # noqa: B007 - the next title line is read on after the loop
            if line[0] == ">":
                break
            lines.append(line)
        else:
            line = ""
        words = title.split(None, 1)
        name = words[0] if words else ""
        residues = "".join(lines).encode().translate(None, b" \t\r\n")
        records.append(SeqRecord(Seq(residues), id=name, name=name, description=title))
    return records


def _read_stdin(fmt: str | None) -> list[SeqRecord]:
    raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
    return _records_of_bytes(raw, fmt, STDIO)


def _records_of_bytes(raw: bytes | str, fmt: str | None, source: str) -> list[SeqRecord]:
    """The records of a whole input read into memory (standard input, a pipe), as
    :func:`read_records` reads a file: gzip data decompressed, UTF-8 else Latin-1, the
    format sniffed when ``fmt`` is None.

    Raises
    ------
    InputError
        Naming ``source`` (``-`` as standard input): nothing in it, no record, not
        readable in the format.
    """
    name = input_name(source)
    if isinstance(raw, bytes):
        text = _decoded(_gunzipped(raw, name), name)
    else:   # a text stream without bytes beneath (a test's StringIO)
        text = raw.removeprefix("\ufeff")
    if not text.strip():
        raise InputError(empty_message(source))
    fmt = fmt or sniff_format(text)
    try:
        records = parse_records(io.StringIO(text), fmt)
    except (ValueError, AssertionError, TypeError) as exc:
        raise InputError(f"{name}: not readable as {fmt}: {_one_line(exc)}") from exc
    if not records:
        what = fmt if source == STDIO else f"a {fmt} file"
        raise InputError(f"{name}: no {fmt} records found (is it {what}?)")
    check_ascii(records, name)
    return records


def _gunzipped(raw: bytes, name: str) -> bytes:
    """``raw``, decompressed when it is gzip data (its first bytes), as files are read."""
    if raw[:2] != b"\x1f\x8b":
        return raw
    import gzip
    import zlib

    try:
        return gzip.decompress(raw)
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise InputError(f"{name}: not readable: {exc}") from exc


def _decoded(raw: bytes, name: str) -> str:
    """UTF-8 text (a BOM dropped), else Latin-1 with a warning (:func:`_warn_latin1`)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        _warn_latin1(raw, name)
        return raw.decode("latin-1")


def _one_line(exc: BaseException) -> str:
    """A parser's message on one line (Biopython's FASTA comment warning has 13): the command
    line prints errors as one line."""
    return " ".join(str(exc).split())


def _first_non_ascii(raw: bytes) -> tuple[int, str]:
    """1-based position and shown form of the first non-ASCII character of ``raw``.

    ``raw`` is decoded as UTF-8 (what Bio.SeqIO reads text files as) so that the position
    counts characters; bytes that are not UTF-8 are shown as ``byte 0x..`` at their offset.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        pos = next(i for i, b in enumerate(raw) if b >= 0x80)
        return pos + 1, f"byte 0x{raw[pos]:02x}"
    pos = next(i for i, c in enumerate(text) if ord(c) >= 0x80)
    return pos + 1, f"letter {text[pos]!r}"


def check_ascii(records: Iterable[SeqRecord], source: str) -> None:
    """Refuse records whose sequence holds a non-ASCII character.

    Bio.SeqIO keeps such letters as UTF-8 bytes, and ``str(record.seq)`` then fails with a
    ``UnicodeDecodeError`` wherever the sequence is used; no sequence alphabet has them.

    Parameters
    ----------
    records : iterable of Bio.SeqRecord.SeqRecord
        Records as Bio.SeqIO parsed them.
    source : str
        The file name (or ``"standard input"``) for the message.

    Raises
    ------
    InputError
        Naming the source, the record, the 1-based position and the character.
    """
    for index, record in enumerate(records):
        try:
            raw = bytes(record.seq)
        except ValueError:  # Bio.Seq.UndefinedSequenceError: no letters to check
            continue
        if raw.isascii():
            continue
        pos, shown = _first_non_ascii(raw)
        name = record.id or f"record {index + 1}"
        raise InputError(
            f"{source}: {name}: {shown} at position {pos} is not a sequence letter "
            "(sequences are ASCII letters, gaps - and ., or *)"
        )


def check_letters(records: Iterable[SeqRecord], source: str, empty_ok: bool = False) -> None:
    """The command-line tools' one letter check: every character a sequence letter
    (:func:`bioplug.alphabet.check_sequence_letters`) and, unless ``empty_ok``, no record
    that is empty or only gaps.

    Raises
    ------
    InputError
        ``"<source>: <id>: letter '#' at position 4 is not a sequence letter ..."`` or
        ``"<source>: <id>: the sequence is empty (record 2)"``.
    """
    from bioplug.alphabet import check_sequence_letters

    for index, record in enumerate(records):
        name = f"{source}: {record.id or f'record {index + 1}'}"
        text = str(record.seq)
        check_sequence_letters(text, name)
        if not empty_ok and not text.replace("-", "").replace(".", ""):
            shown = "the sequence is empty" if not text else "the sequence is only gaps"
            raise InputError(f"{name}: {shown} (record {index + 1})")


def as_record(item, index: int = 0) -> SeqRecord:
    """A SeqRecord from str, Bio.Seq.Seq, SeqRecord or skbio.Sequence (ids kept)."""
    if isinstance(item, SeqRecord):
        return item
    if isinstance(item, (str, Seq)):
        return SeqRecord(_ascii_seq(str(item), f"seq{index + 1}"), id=f"seq{index + 1}",
                         description="")
    if is_skbio_sequence(item):
        name = str(item.metadata.get("id") or f"seq{index + 1}")
        return SeqRecord(_ascii_seq(str(item), name), id=name, description="")
    raise InputError(f"sequence {index + 1}: unsupported type {type(item).__name__}")


def is_skbio_sequence(item) -> bool:
    """Whether ``item`` is a scikit-bio sequence (duck-typed: skbio is imported lazily)."""
    return hasattr(item, "values") and hasattr(item, "metadata")


def _ascii_seq(text: str, name: str) -> Seq:
    """``Seq(text)``; a letter outside ASCII (which Seq cannot hold) is named with its
    position instead of surfacing as Biopython's UnicodeEncodeError."""
    try:
        return Seq(text)
    except UnicodeEncodeError as exc:
        raise InputError(f"{name}: invalid character {text[exc.start]!r} at position "
                         f"{exc.start + 1}") from exc


def sequence_text(item) -> str:
    """The residues of str, Seq, SeqRecord or skbio.Sequence as a str."""
    if isinstance(item, str):
        return item
    if isinstance(item, SeqRecord):
        return str(item.seq)
    return str(item)


def sequence_name(item, index: int) -> str:
    """A readable name for error messages: the record id, else ``sequence N``."""
    if isinstance(item, SeqRecord) and item.id:
        return item.id
    meta = getattr(item, "metadata", None)
    if isinstance(meta, dict) and meta.get("id"):
        return str(meta["id"])
    return f"sequence {index + 1}"


def check_one_length(rows: Iterable, source: str) -> None:
    """Refuse rows of an alignment that differ in length, naming ``source`` and the
    lengths."""
    lengths = sorted({len(r) for r in rows})
    if len(lengths) > 1:
        raise InputError(f"{source}: not an alignment: its rows have different lengths "
                         f"({', '.join(map(str, lengths))})")


def check_unique_ids(records: Iterable[SeqRecord], source: str | None = None) -> None:
    """Raise :class:`InputError` naming every id used more than once, the records (1-based)
    that use it, and ``source``, the file, when given."""
    seen: dict[str, list[int]] = {}
    for number, r in enumerate(records, 1):
        seen.setdefault(r.id, []).append(number)
    dups = sorted(k for k, v in seen.items() if len(v) > 1)
    if dups:
        where = f"{source}: " if source else ""
        numbers = "; ".join(f"{k}: records {', '.join(map(str, seen[k][:-1]))} and "
                            f"{seen[k][-1]}" for k in dups[:5])
        raise InputError(f"{where}duplicate sequence ids: {', '.join(dups)} ({numbers}"
                         f"{'; ...' if len(dups) > 5 else ''})")


def read_sequences(sequences, first: int = 0) -> list[SeqRecord]:
    """SeqRecords with unique ids from a path (``-``: standard input) or an iterable of
    SeqRecord / str / Seq / skbio.Sequence; plain strings are named ``seq<first + 1>``, ...

    Raises :class:`InputError` for an unsupported type, no sequences or duplicate ids.
    """
    if isinstance(sequences, (str, os.PathLike)):
        records = read_records(sequences)  # a path; raw sequences come as a list
    elif isinstance(sequences, Iterable):
        records = [as_record(item, first + i) for i, item in enumerate(sequences)]
    else:
        raise InputError(f"unsupported input type {type(sequences).__name__}")
    if not records:
        raise InputError("no sequences to align")
    check_unique_ids(records)
    return records


def ungapped(records: Iterable[SeqRecord], empty_ok: bool = False) -> list[SeqRecord]:
    """New records without gap characters (``-``, ``.``); an empty one is an
    :class:`InputError` naming it (unless ``empty_ok``: the caller's own check names it)."""
    out = []
    for i, rec in enumerate(records):
        text = str(rec.seq).replace("-", "").replace(".", "")
        if not text and not empty_ok:
            name = rec.id or f"sequence {i + 1}"
            raise InputError(f"{name}: empty sequence (record {i + 1})")
        out.append(SeqRecord(Seq(text), id=rec.id, name=rec.name,
                             description=description_after_id(rec)))
    return out


def description_after_id(record: SeqRecord) -> str:
    """The words of a record's title after its id, as ``Bio.Align``'s writers expect them.

    ``Bio.SeqIO``'s FASTA reader keeps the whole title line as the description (the id is its
    first word), ``Bio.Align``'s readers keep what follows the id, and ``Bio.Align.write``
    prints ``>{id} {description}``: a title ``>sp|P1|X kinase`` read by SeqIO would come out as
    ``>sp|P1|X sp|P1|X kinase``. Records whose description does not start with the id (made
    in code, or read by ``Bio.Align``) keep it; placeholders become empty.
    """
    desc, ident = record.description, record.id
    if desc in (ident, "<unknown description>"):
        return ""
    if ident and desc.startswith(ident) and desc[len(ident)].isspace():
        return desc[len(ident):].lstrip()
    return desc


def _current_umask() -> int:
    # Setting the umask to read it back leaves a window in which a thread (GUI jobs run in
    # threads) would create files with mode 0666; Linux shows it in /proc without that window.
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def new_dir_mode() -> int:
    """Permission bits a new folder gets: 0777 less the umask (``mkdtemp`` makes 0700)."""
    return 0o777 & ~_current_umask()


def new_file_mode(target: Path) -> int:
    """Permission bits for ``target``: kept when it exists, else 0666 less the umask."""
    with contextlib.suppress(OSError):
        return stat.S_IMODE(os.stat(target).st_mode)
    return 0o666 & ~_current_umask()


def _rename_target(path: Path) -> Path | None:
    """Where :func:`atomic_output` renames its temporary file to: the path, or the file a
    symbolic link names (the link stays a link); None for anything that is not a regular
    file (``/dev/null``, a named pipe, ``/dev/stdout``, a shell's ``>(...)``), which must be
    written in place: a rename would replace the device or pipe with a plain file.

    Raises
    ------
    InputError
        When the path is a directory.
    """
    if str(path).startswith(("/dev/", "/proc/")):
        return None
    resolved = Path(os.path.realpath(path))
    try:
        mode = os.stat(resolved).st_mode
    except OSError:   # nothing there yet: a new file (through a dangling link, its target)
        return resolved
    if stat.S_ISDIR(mode):
        raise InputError(f"{path}: is a directory; give a file name for the output")
    return resolved if stat.S_ISREG(mode) else None


def check_one_stdin(*paths) -> None:
    """Raise :class:`InputError` when more than one input is ``-``: standard input can be read
    once (the second reader would find it empty)."""
    if sum(str(p) == STDIO for p in paths if p is not None) > 1:
        raise InputError("standard input (-) can be read once: give at most one input as -")


def check_output(path: str | os.PathLike, inputs: Iterable[str | os.PathLike]) -> None:
    """Raise :class:`InputError` when ``path`` is one of ``inputs``; commands call it before
    any work (:func:`atomic_output` checks again when it writes)."""
    if str(path) == STDIO:
        return
    target = Path(path)
    for src in inputs:
        with contextlib.suppress(OSError):
            if Path(src).exists() and target.exists() and os.path.samefile(src, target):
                raise InputError(f"{target}: refusing to overwrite an input file")
    _check_writable_place(target)


def _check_writable_place(target: Path) -> None:
    """Refuse, before any work, an output whose folder (or the nearest existing folder above
    it, where the missing ones would be made) cannot take a new file: the run would fail
    only once its work was done. A device or pipe is written in place, so it is not asked."""
    if target.exists() and not target.is_file() and not target.is_dir():
        return
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if folder.exists() and (not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK)):
        why = "is not a folder" if not folder.is_dir() else "is not writable"
        raise InputError(f"{target}: cannot be written ({folder} {why})")
    _check_not_write_protected(target)


def _check_not_write_protected(target: Path) -> None:
    """Refuse an existing output file this process may not write (``chmod 444 out.fa``), as
    ``cp`` and ``>`` refuse it: the rename that puts the new file in place asks the folder,
    not the file, and would replace it silently.

    The kernel's own answer (``access(2)``) is asked, the one ``cp`` and ``>`` get: a user's
    file mode bits and groups, and for root the capability to override them (root writes a
    read-only file, as ``cp`` does as root). Tests running as root check the refusal in a
    process without that capability (``tests/test_io_environment.py``).
    """
    resolved = Path(os.path.realpath(target))   # a link's file is the one replaced
    if resolved.is_file() and not os.access(resolved, os.W_OK):
        raise InputError(f"{target}: cannot be written (Permission denied: the file is "
                         "write-protected)")


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike, inputs: Iterable[str | os.PathLike] = (), mode="w"):
    """Open a temporary file beside ``path``; rename it into place only on success.

    ``"-"`` yields standard output instead (binary for ``mode="wb"``), flushed but not
    closed. A symbolic link's target is written (the link stays); a path that is not a
    regular file (``/dev/null``, a named pipe) is written in place. The file gets the
    permissions of a file written by any other tool: an existing file keeps its own, a new
    one gets ``0666`` less the umask (``mkstemp`` makes ``0600``). A name ending in ``.gz``
    is written gzip-compressed. Missing folders are made, with a warning. When the body raises
    (a cancelled or failed job), no file is left behind, nor a folder made for it.

    Raises
    ------
    InputError
        When ``path`` is one of ``inputs``, a directory, an existing file this process may
        not write, or a place that takes no file.
    OutputWriteError
        When the system fails the write (a full disk or quota, ``/dev/full``): the message
        names the output and the reason; the temporary file is removed and an existing
        output kept as it was.
    """
    if str(path) == STDIO:
        yield from _standard_output(mode)
        return
    check_output(path, inputs)
    target = _rename_target(Path(path))
    if target is None:   # a device, pipe or terminal: written in place, as `cat > path` does
        try:
            handle = open(path, mode, **_text_encoding(mode))
        except OSError as exc:
            raise _opening_error(path, exc) from exc
        with _naming_write_errors(path), handle:
            yield handle
        return
    with cleaning_up():   # Ctrl-C while the file is written: the temporary file removed
        yield from _atomic_file(target, mode, path)


def _standard_output(mode: str):
    """:func:`atomic_output`'s standard output, flushed (not closed) after the block; text
    in UTF-8 (:func:`_utf8_stdout`)."""
    stream = sys.stdout.buffer if "b" in mode else _utf8_stdout()
    # a reader that left (`| head`) stays a BrokenPipeError: the command line ends quietly
    with _naming_write_errors("standard output", BrokenPipeError):
        yield stream
        stream.flush()
    if stream is not sys.stdout and "b" not in mode:
        stream.detach()   # standard output stays open


def _utf8_stdout():
    """Standard output as UTF-8 text, as every output file is written: ids and titles are
    read as UTF-8, and an ASCII locale (``LC_ALL=C`` with ``PYTHONUTF8=0``) cannot write the
    first one that is not ASCII."""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "")
    if encoding == "utf8" or not hasattr(sys.stdout, "buffer"):
        return sys.stdout
    sys.stdout.flush()
    return io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8")


def _atomic_file(target: Path, mode: str, shown):
    """:func:`atomic_output`'s temporary file beside ``target``, renamed into place;
    ``shown`` is the output as the user named it, for messages."""
    made = [d for d in (target.parent, *target.parent.parents) if not d.exists()]
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=_temporary_prefix(target.name), dir=target.parent)
    except OSError as exc:   # a place the early check could not foresee (/proc, a full disk)
        _remove_folders(made)
        raise _opening_error(shown, exc) from exc
    gzipped = target.name.lower().endswith(".gz")   # as inputs so named are read
    try:
        with _naming_write_errors(shown):
            raw_mode = "wb" if gzipped else mode
            with os.fdopen(fd, raw_mode, **_text_encoding(raw_mode)) as raw, \
                    _compressed(raw, mode) if gzipped else contextlib.nullcontext(raw) as handle:
                yield handle
        try:
            os.chmod(tmp, new_file_mode(target))
            os.replace(tmp, target)
        except OSError as exc:   # it names the temporary file, which the user never saw
            raise OutputWriteError(shown, exc) from exc
        if made:   # said, so that a mistyped folder does not pass unseen
            log.warning("%s: made the folder %s for it", target, made[-1])
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _remove_folders(made)
        raise


def _text_encoding(mode: str) -> dict:
    """UTF-8 for a text output whatever the locale (see :func:`_utf8_stdout`)."""
    return {} if "b" in mode else {"encoding": "utf-8"}


#: Bytes of an output's name kept in its temporary file's name: ``.NAME.XXXXXXXX`` of a
#: name of 247 bytes or more would pass the 255 bytes a file name may have, refused as
#: "File name too long" where the output's own name is legal.
TEMPORARY_NAME_BYTES = 128


def _temporary_prefix(name: str) -> str:
    """``.NAME.`` for :func:`tempfile.mkstemp`, NAME cut to :data:`TEMPORARY_NAME_BYTES`
    bytes (a letter cut in two is kept as its bytes, which a file name may hold)."""
    return f".{os.fsdecode(os.fsencode(name)[:TEMPORARY_NAME_BYTES])}."


#: Reasons an output cannot be made that are failures of the system, not of the name given
#: (those are :class:`~bioplug.errors.InputError`: a folder that is a file, /proc).
_SYSTEM_FAILURES = {getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EIO", "EFBIG")
                    if hasattr(errno, name)}


def _opening_error(target, exc: OSError) -> Exception:
    """The error for an output that could not be opened or made: the system's failure
    (:class:`OutputWriteError`), else a place that takes no file (InputError)."""
    if exc.errno in _SYSTEM_FAILURES:
        return OutputWriteError(target, exc)
    return InputError(f"{target}: cannot be written ({exc.strerror or exc})")


@contextlib.contextmanager
def _naming_write_errors(target, *passed: type[BaseException]) -> Iterator[None]:
    """An OSError of a write, flush or close in the block as an :class:`OutputWriteError`
    naming ``target``: the system's own ("[Errno 28] No space left on device") names no file.

    Errors that name a file (another file opened in the block), those already named and the
    ``passed`` types go on as they are.
    """
    try:
        yield
    except OSError as exc:
        if isinstance(exc, (OutputWriteError, *passed)) or exc.filename is not None:
            raise
        raise OutputWriteError(target, exc) from exc


def _remove_folders(made: list[Path]) -> None:
    """The folders an output made for itself, deepest first, where they are still empty: a
    failed job leaves nothing behind."""
    for folder in made:
        with contextlib.suppress(OSError):
            folder.rmdir()


@contextlib.contextmanager
def _compressed(raw, mode: str):
    """A gzip stream over the open file ``raw``, text or binary as ``mode`` asks (no name
    or time stamp in the header: the same output gives the same bytes)."""
    import gzip

    with gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as packed:
        if "b" in mode:
            yield packed
        else:
            with io.TextIOWrapper(packed, encoding="utf-8") as text:
                yield text


# -- what the commands check and write -------------------------------------------------------
def output_format(output, given: str | None = None) -> str:
    """The format to write ``output`` in: ``given`` (--format), else the one its extension
    names, so that bioplug reads back what it wrote.

    The extensions are those of :data:`OUTPUT_FORMATS` (``.aln`` Clustal, ``.sto``
    Stockholm, ``.phy`` PHYLIP, ...; a final ``.gz`` aside); any other extension, ``-`` and
    no output (``--outdir``) give FASTA.
    """
    if given:
        return given.lower()
    if output is None or str(output) == "-":
        return "fasta"
    name = Path(output).name.lower().removesuffix(".gz")
    return OUTPUT_FORMATS.get(Path(name).suffix, "fasta")


def write_checked(alignment, output, source, fmt: str) -> None:
    """Write one command's alignment atomically, a format that cannot hold it an
    :class:`InputError` (shared by ``msa``, its batches and ``profile``)."""
    if fmt in ("a2m", "a3m", "clustal") and getattr(alignment, "column_annotations",
                                                     None) is None:
        # align3's alignments come without the attribute (Bio.Align sets it only when read)
        alignment.column_annotations = {}
    if fmt in ("a2m", "a3m"):  # every column is a match state
        alignment.column_annotations["state"] = "D" * alignment.length
    if fmt == "clustal" and "clustal_consensus" not in alignment.column_annotations:
        # the line under each block that ClustalW and MAFFT print (alignio.clustal_conservation)
        from bioplug.alphabet import rows_are_nucleotide

        rows = alignment_rows(alignment)
        alignment.column_annotations["clustal_consensus"] = clustal_conservation(
            rows, protein=not rows_are_nucleotide(rows))
    try:
        write_alignment(alignment, output, fmt, inputs=[source])
    except InputError:   # the output path's own message (an input, a folder, ...)
        raise
    except (ValueError, AttributeError, KeyError) as exc:
        raise InputError(f"cannot write format {fmt!r}: {exc}") from exc


def check_names(fmt: str, ids: Sequence[str]) -> None:
    """Refuse, before any work, ids that two rows would print as one name in ``fmt``
    (Clustal keeps 30 letters, PHYLIP 10): :func:`write_checked` would refuse them after it.
    Ids printed otherwise than given (cut, or PHYLIP's ``[](),`` dropped and ``:;`` as
    ``|``) are named in a warning.

    Raises
    ------
    InputError
        Naming the format and the two ids.
    """
    try:
        changed = check_printed_names(ids, fmt)
    except ValueError as exc:
        raise InputError(f"cannot write format {fmt!r}: {exc}") from exc
    if changed:
        shown = ", ".join(f"{i!r} as {n!r}" for i, n in changed[:3])
        log.warning("%s keeps %s: %s printed otherwise (%s%s); FASTA, Stockholm or MSF "
                    "keep them whole", "Clustal" if fmt == "clustal" else "PHYLIP",
                    "30 letters of a name" if fmt == "clustal" else
                    "10 letters of a name, without []() and commas, : and ; as |",
                    "1 id is" if len(changed) == 1 else f"{len(changed)} ids are", shown,
                    ", ..." if len(changed) > 3 else "")


def check_writable(fmt: str, rows: int = 2, output=None, given: str | None = None) -> None:
    """Refuse, before any work, a format :func:`write_checked` cannot write: one Bio.Align
    cannot write at all (emboss, hhr, an unknown name), or a pairwise one (bed, sam, ...) for
    more than two ``rows`` (3 stands for any more). A two-column alignment of that many rows
    is written to memory (the formats bioplug lays out itself take any alignment).

    Raises
    ------
    InputError
        Naming the format, and the extension of ``output`` it came from when ``given`` (the
        --format value) is None.
    """
    if fmt in FAST_FORMATS:   # laid out by bioplug for any number of rows
        return
    import numpy as np
    from Bio.Align import Alignment

    records = [SeqRecord(Seq("AC"), id=f"s{i + 1}", annotations={"molecule_type": "protein"})
               for i in range(max(rows, 2))]
    probe = Alignment(records, np.array([[0, 2]] * len(records)))
    probe.column_annotations = {}   # as the aligners' alignments have (a2m writes its states)
    try:
        write_checked(probe, io.StringIO(), "-", fmt)
    except InputError as exc:
        if given is None and output is not None and str(output) != "-":
            raise InputError(f"{exc} (the format {output}'s extension names; choose one "
                             "with --format)") from exc
        raise


def check_distinct_outputs(outputs: dict[str, object]) -> None:
    """Refuse two outputs of one command that are one file, and ``-`` for more than one.

    The second write would replace the first (a tree by its alignment); paths are compared
    as files (symbolic links and ``..`` resolved; hard links by inode when they exist).
    :data:`os.devnull` may take any number of outputs.

    Parameters
    ----------
    outputs : dict
        Option (``"-o"``, ``"--tree-out"``, ...) -> path, or None when not given.

    Raises
    ------
    InputError
        Naming both options and the path.
    """
    given = {opt: str(path) for opt, path in outputs.items() if path is not None}
    stdout = [opt for opt, path in given.items() if path == "-"]
    if len(stdout) > 1:
        raise InputError(f"{', '.join(stdout[:-1])} and {stdout[-1]} would write to "
                         "standard output (-) together: give - to one of them at most")
    seen: dict[object, str] = {}
    for opt, path in given.items():
        if path == "-" or os.path.realpath(path) == os.path.realpath(os.devnull):
            continue   # a discarded output: any number may go there
        key = _file_identity(path)
        if key in seen:
            raise InputError(f"{seen[key]} and {opt} name the same file ({path}): each "
                             "output needs its own")
        seen[key] = opt


def _file_identity(path: str) -> tuple:
    """What makes two paths one file: its inode when it exists, else its resolved path."""
    try:
        info = os.stat(path)
    except OSError:
        return ("path", Path(path).resolve())
    return ("inode", info.st_dev, info.st_ino)


def input_name(source) -> str:
    """An input's name in messages (``-`` is standard input)."""
    return "standard input" if str(source) == "-" else str(source)


@contextlib.contextmanager
def naming_input(records_of: dict[str, list]) -> Iterator[None]:
    """Name the input file in an aligner's error about one of its records.

    The aligners name a record only (``a: letter 'E' at position 5 is not a nucleotide
    letter ...``): the command adds the file it came from, as its own letter check does.

    Parameters
    ----------
    records_of : dict
        Input name -> its records.
    """
    try:
        yield
    except InputError as exc:
        text = str(exc)
        for name, records in records_of.items():
            if any(text.startswith(f"{r.id}: ") for r in records):
                raise InputError(f"{name}: {text}") from exc
        raise
