"""FASTA records as residue codes: line by line (the definition), or a block of records at once.

:func:`fasta_records` and :func:`encode_bytes` read and check one record at a time; they define
what a record is (a ``>`` line, then its sequence lines stripped of white space at both ends)
and every error message. Building a search index through them cost a Python step per line and
a few numpy calls per record: 8 s for 500,000 proteins (180 MB) on a 2-core development
machine, about 20 s on an H100 host. :func:`encode_fasta` reads whole records a block at a time
and encodes a block with a handful of numpy passes. A block holding anything else than
residues and line ends in its sequence lines (white space the line reader strips, or an error)
goes through the line reader, so the results and the messages are the same.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from bioplug.alphabet import Scoring
from bioplug.errors import InputError
from bioplug.streams import is_stream, spooled

#: Bytes of FASTA read and encoded at a time by :func:`encode_fasta`.
BLOCK = 1 << 26


# -- line by line: the definition ------------------------------------------------------------
def fasta_records(path: Path) -> Iterator[tuple[str, bytes, int]]:
    """(identifier, residues, line number of the header) of each record, streamed (gzip
    files decompressed)."""
    from bioplug.io import open_input

    with open_input(path, "rb") as handle:
        yield from _records(handle, path, 1)


def _records(lines: Iterable[bytes], path, first_line: int) -> Iterator[tuple[str, bytes, int]]:
    name, parts, line_no, header_line = None, [], 0, 0
    for line_no, line in enumerate(lines, first_line):  # noqa: B007 (used after the loop)
        if line.startswith(b">"):
            if name is not None:
                yield name, b"".join(parts), header_line
            words = line[1:].split()
            name = words[0].decode("utf-8", "replace") if words else f"record{line_no}"
            parts, header_line = [], line_no
        elif name is not None:
            parts.append(line.strip())
        elif line.strip() and not line.startswith(b";"):
            raise InputError(f"{path}: line {line_no} comes before the first '>' header: "
                             "not a FASTA file")
    if name is not None:
        yield name, b"".join(parts), header_line


def encode_bytes(scoring: Scoring, raw: bytes, name: str) -> np.ndarray:
    """Codes of one record's residues (lower case read as upper case); :class:`InputError`
    names the record, the 1-based position and the letter otherwise."""
    codes = code_table(scoring)[np.frombuffer(raw, dtype=np.uint8)]
    bad = np.flatnonzero(codes == 255)
    if bad.size:
        pos = int(bad[0])
        letter = chr(raw[pos]) if raw[pos] < 128 else f"\\x{raw[pos]:02x}"
        raise InputError(f"{name}: letter {letter!r} at position {pos + 1} is not in the "
                         f"scoring alphabet ({''.join(map(str, scoring.letters))})")
    if not codes.size:
        raise InputError(f"{name}: empty sequence")
    return codes


def code_table(scoring: Scoring) -> np.ndarray:
    """Byte -> residue code (255: not in the alphabet; lower case read as upper case)."""
    return _code_table(tuple(scoring.letters))


@functools.cache
def _code_table(letters: tuple) -> np.ndarray:
    # built once per alphabet: encode_bytes asks for it once per query or database record
    table = np.full(256, 255, dtype=np.uint8)
    for code, c in enumerate(letters):
        if isinstance(c, str) and len(c) == 1 and c.isascii():
            table[ord(c)] = code
            if c.isupper() and c.lower() not in letters:
                table[ord(c.lower())] = code
    table.setflags(write=False)
    return table


def record_label(path, number: int, name: str, line: int) -> str:
    """How an error names a database record."""
    return f"{path}: record {number} ({name!r}, line {line})"


# -- pipes -----------------------------------------------------------------------------------
class PipeCopy(os.PathLike):
    """A pipe's contents copied to a private temporary file: opened by the copy's path
    (``os.fspath``), named as the pipe (``str``) in every message about its records."""

    def __init__(self, copy: str, name: str):
        self.copy, self.name = copy, name

    def __fspath__(self) -> str:
        return self.copy

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"PipeCopy({self.copy!r}, {self.name!r})"


@contextlib.contextmanager
def readable_again(path, prefix: str = "bioplug-queries-"):
    """``path`` itself, or for a pipe (:func:`~bioplug.streams.is_stream`) a
    :class:`PipeCopy` of it, removed afterwards: queries are read more than once (records,
    titles, SAM lines), and a pipe gives its data to the first reader only. Anything else is
    given back as it is."""
    if not isinstance(path, (str, os.PathLike)) or not is_stream(path):
        yield path
        return
    with spooled(path, prefix, ".fa") as copy:
        yield PipeCopy(copy, str(path))


# -- a block of records at once --------------------------------------------------------------
def encode_fasta(path: Path, scoring: Scoring, block: int = BLOCK
                 ) -> Iterator[tuple[list[str], np.ndarray, np.ndarray, list[bytes]]]:
    """(identifiers, concatenated codes, lengths, header lines after ``>``) of the file's
    records, a block at a time.

    Raises
    ------
    InputError
        As :func:`fasta_records` and :func:`encode_bytes` would, for the first bad record.
    """
    done, table = 0, code_table(scoring)
    for piece, first_line in _pieces(path, block):
        got = _encode_piece(piece, first_line, table)
        if got[3]:
            got = _encode_by_lines(piece, first_line, scoring, path, done)
        names, codes, lengths = got[:3]
        done += len(names)
        yield names, codes, lengths, header_lines(piece)


_HEADER = re.compile(rb"^>([^\n]*)", re.MULTILINE)


def header_lines(text: bytes) -> list[bytes]:
    """Each record's header line after ``>`` (white space around it removed), in order."""
    return [m.group(1).strip() for m in _HEADER.finditer(text)]


def _pieces(path: Path, size: int) -> Iterator[tuple[bytes, int]]:
    """Whole records of the file (a piece starts at a ``>`` line and ends with a line end),
    each with the number of its first line; lines before the first record are checked as
    :func:`fasta_records` checks them (gzip files decompressed)."""
    from bioplug.io import open_input

    with open_input(path, "rb") as handle:
        first_line = 1
        while True:   # the lines before the first header: usually none
            at = handle.tell()
            line = handle.readline()
            if not line:
                return
            if line.startswith(b">"):
                handle.seek(at)
                break
            list(_records([line], path, first_line))   # raises for a sequence line here
            first_line += 1
        carry = b""
        while True:
            data = handle.read(size)
            if not data:
                if carry:
                    yield (carry if carry.endswith(b"\n") else carry + b"\n"), first_line
                return
            buf = carry + data
            cut = buf.rfind(b"\n>")
            if cut < 0:   # a record longer than the block: read on
                carry = buf
                continue
            piece, carry = buf[:cut + 1], buf[cut + 1:]
            yield piece, first_line
            first_line += piece.count(b"\n")


def _encode_piece(piece: bytes, first_line: int, table: np.ndarray):
    """(names, codes, lengths, whether the line reader must read it): any byte outside the
    alphabet, white space around or inside a sequence line included, or an empty record."""
    buf = np.frombuffer(piece, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)                    # every line's end; the piece ends with one
    starts = np.concatenate(([0], ends[:-1] + 1))
    heads = starts[buf[starts] == ord(">")]
    head_ends = ends[np.searchsorted(ends, heads)]
    mark = np.zeros(buf.size + 1, dtype=np.int8)        # +1 where a header line starts, -1 after
    mark[heads] = 1
    mark[head_ends + 1] -= 1
    in_head = np.cumsum(mark[:-1], dtype=np.int8).view(bool)
    line_end = buf == 10
    crs = np.flatnonzero((buf[:-1] == 13) & line_end[1:])    # CR of a CR LF
    line_end[crs] = True
    codes = table[buf[~(in_head | line_end)]]
    # a record's residues: the bytes from its header's end to the next header, less line ends
    body, body_end = head_ends + 1, np.append(heads[1:], buf.size)
    lengths = (body_end - body
               - (np.searchsorted(ends, body_end) - np.searchsorted(ends, body))
               - (np.searchsorted(crs, body_end) - np.searchsorted(crs, body)))
    names = [piece[s + 1:e].split(None, 1) for s, e in
             zip(heads.tolist(), head_ends.tolist(), strict=True)]
    if not all(names):   # a header without a name: "record<line number>"
        lines = first_line + np.searchsorted(ends, heads)
        names = [w or [f"record{lines[i]}".encode()] for i, w in enumerate(names)]
    names = [w[0].decode("utf-8", "replace") for w in names]
    return names, codes, lengths, bool((codes == 255).any() or (lengths == 0).any())


def _encode_by_lines(piece: bytes, first_line: int, scoring: Scoring, path, done: int):
    names, codes, lengths = [], [], []
    for number, (name, raw, line) in enumerate(_records(io.BytesIO(piece), path, first_line),
                                               done + 1):
        codes.append(encode_bytes(scoring, raw, record_label(path, number, name, line)))
        names.append(name)
        lengths.append(codes[-1].size)
    return (names, np.concatenate(codes) if codes else np.zeros(0, np.uint8),
            np.asarray(lengths, dtype=np.int64))
