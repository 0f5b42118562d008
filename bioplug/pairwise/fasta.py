"""FASTA records as residue codes: line by line (the definition), or a block of records at once.

:func:`fasta_records` and :func:`encode_bytes` read and check one record at a time; they define
what a record is (a ``>`` line, then its sequence lines stripped of white space at both ends)
and every error message. Building a search index through them cost a Python step per line and
a few numpy calls per record: 8 s for 500,000 proteins (180 MB) on a 2-core development
machine, about 20 s on an H100 host. :func:`encode_fasta` reads whole records a block at a time
and encodes a block with a handful of numpy passes, ids and titles included (from the header
positions, where no white space surrounds a title), several blocks at once on threads. A block
holding anything else than residues and line ends in its sequence lines (white space the line
reader strips, or an error) goes through the line reader, so the results and the messages are
the same.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
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
@dataclass
class Block:
    """The records of one block of a FASTA file, encoded.

    ``titles`` holds each header line after ``>`` (white space around it removed) and
    ``ids`` each identifier, both as bytes with a line end after each (an index writes them
    as they are); ``title_sizes`` and ``id_sizes`` count each one's bytes, its line end
    included, and ``id_hashes`` holds :func:`id_hashes` of ``ids``. No Python string per
    record: an index of hundreds of millions of records checks its ids from the hashes."""

    codes: np.ndarray
    lengths: np.ndarray
    titles: bytes
    title_sizes: np.ndarray
    ids: bytes
    id_sizes: np.ndarray
    id_hashes: np.ndarray
    #: Lines of the file the block covers.
    lines: int
    #: Bytes of the file read by the time the block was cut (of the compressed file for
    #: gzip): what a progress bar counts.
    read: int = 0

    def __len__(self) -> int:
        """The count of records."""
        return int(self.lengths.size)


def encode_fasta(path: Path, scoring: Scoring, block: int | None = None,
                 workers: int | None = None) -> Iterator[Block]:
    """The file's records a block at a time (:class:`Block`, about ``block`` bytes of the
    file each; default :data:`BLOCK`), in order.

    Up to ``workers`` blocks (default: the processor count, at most 8) are encoded at once
    on threads: numpy's passes over a block's bytes run outside Python's lock.

    Raises
    ------
    InputError
        As :func:`fasta_records` and :func:`encode_bytes` would, for the first bad record.
    """
    done, line, table = 0, 1, code_table(scoring)
    workers = workers or min(8, os.cpu_count() or 1)
    with ThreadPoolExecutor(workers) as pool:
        pending: deque = deque()
        pieces = _pieces(path, block or BLOCK)
        while True:
            while len(pending) < workers + 1:   # keep every worker busy, a piece ahead
                nxt = next(pieces, None)
                if nxt is None:
                    break
                pending.append((pool.submit(_encode_piece, nxt[0], table), nxt))
            if not pending:
                return
            future, (piece, skipped, read) = pending.popleft()
            line += skipped
            got = future.result()
            if got is None:   # odd bytes: the line reader's records, errors and numbers
                piece = bytes(piece)
                got = _block_of_records(_encode_by_lines(piece, line, scoring, path, done),
                                        header_lines(piece), piece.count(b"\n"))
            done += len(got)
            line += got.lines
            got.read = read
            yield got


_HEADER = re.compile(rb"^>([^\n]*)", re.MULTILINE)


def header_lines(text: bytes) -> list[bytes]:
    """Each record's header line after ``>`` (white space around it removed), in order."""
    return [m.group(1).strip() for m in _HEADER.finditer(text)]


def _pieces(path: Path, size: int) -> Iterator[tuple[memoryview, int, int]]:
    """Whole records of the file (a piece starts at a ``>`` line and ends with a line end),
    each with the count of lines skipped before it (lines before the first record, checked
    as :func:`fasta_records` checks them; gzip files decompressed) and the bytes of the file
    read so far (compressed bytes for gzip). The file is read straight into each piece's
    buffer: a piece is a view of it, not a copy."""
    from bioplug.io import open_input

    with open_input(path, "rb") as handle:
        raw = getattr(handle, "fileobj", handle)   # a gzip file's own file
        skipped = 0
        while True:   # the lines before the first header: usually none
            at = handle.tell()
            line = handle.readline()
            if not line:
                return
            if line.startswith(b">"):
                handle.seek(at)
                break
            list(_records([line], path, skipped + 1))   # raises for a sequence line here
            skipped += 1
        carry = b""
        while True:
            buf = bytearray(len(carry) + size)
            buf[:len(carry)] = carry
            got = handle.readinto(memoryview(buf)[len(carry):])
            end = len(carry) + got
            if not got:
                if carry:
                    yield memoryview(carry if carry.endswith(b"\n") else carry + b"\n"), \
                        skipped, raw.tell()
                return
            cut = buf.rfind(b"\n>", 0, end)
            if cut < 0:   # a record longer than the block: read on
                carry = bytes(buf[:end])
                continue
            carry = bytes(buf[cut + 1:end])
            yield memoryview(buf)[:cut + 1], skipped, raw.tell()
            skipped = 0


#: The bytes that ``bytes.split()`` and ``bytes.strip()`` take for white space.
_SPACE = np.zeros(256, dtype=bool)
_SPACE[[9, 10, 11, 12, 13, 32]] = True


def _encode_piece(piece, table: np.ndarray) -> Block | None:
    """The piece's records, or None where the line reader must read it: any byte outside
    the alphabet (white space around or inside a sequence line included), an empty record,
    or a header without a name (named after its line)."""
    buf = np.frombuffer(piece, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)                    # every line's end; the piece ends with one
    starts = np.concatenate(([0], ends[:-1] + 1))
    heads = starts[buf[starts] == ord(">")]
    head_ends = ends[np.searchsorted(ends, heads)]
    keep = buf != 10
    crs = np.flatnonzero(buf == 13)
    crs = crs[buf[crs + 1] == 10]                       # CR of a CR LF (a piece ends with LF)
    keep[crs] = False
    keep[_spans(heads, head_ends)] = False              # the header lines: few bytes
    codes = table[buf[keep]]
    # a record's residues: the bytes from its header's end to the next header, less line ends
    body, body_end = head_ends + 1, np.append(heads[1:], buf.size)
    lengths = (body_end - body
               - (np.searchsorted(ends, body_end) - np.searchsorted(ends, body))
               - (np.searchsorted(crs, body_end) - np.searchsorted(crs, body)))
    if (codes.size and codes.max() == 255) or (lengths == 0).any():
        return None
    got = _headers(buf, heads, head_ends)
    if got is None:   # white space around a title, or no name: Python per record
        text = bytes(piece)
        names = [text[s + 1:e].split(None, 1) for s, e in
                 zip(heads.tolist(), head_ends.tolist(), strict=True)]
        if not all(names):
            return None
        return _block_of_records(([w[0].decode("utf-8", "replace") for w in names], codes,
                                  lengths), header_lines(text), ends.size)
    titles, title_sizes, ids = got
    try:
        ids.decode("utf-8")
    except UnicodeDecodeError:   # the index keeps ids as they read, not bytes that do not
        ids = ids.decode("utf-8", "replace").encode("utf-8")
    return Block(codes, lengths, titles, title_sizes, *_ids_of(ids), ends.size)


def _spans(first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """The positions ``first[k] .. last[k] - 1`` of every k, concatenated."""
    sizes = last - first
    before = np.cumsum(sizes) - sizes
    return np.repeat(first - before, sizes) + np.arange(int(sizes.sum()))


def _headers(buf: np.ndarray, heads: np.ndarray, head_ends: np.ndarray):
    """(titles, their sizes, ids) of headers with no white space around their titles and a
    name each, from the bytes with numpy alone; None for others."""
    t0 = heads + 1
    t1 = head_ends - ((buf[head_ends - 1] == 13) & (head_ends - 1 >= t0))
    sizes = t1 - t0
    if (sizes == 0).any() or _SPACE[buf[t0]].any() or _SPACE[buf[t1 - 1]].any():
        return None
    text = buf[_spans(t0, t1)]                          # the titles, end to end
    before = np.cumsum(sizes) - sizes
    name_sizes = sizes.copy()
    space = np.flatnonzero(_SPACE[text])
    if space.size:                                      # a name ends at its first white space
        owner = np.searchsorted(before + sizes, space, side="right")
        first = np.concatenate(([True], owner[1:] != owner[:-1]))
        name_sizes[owner[first]] = space[first] - before[owner[first]]
    return (_lines(text, before, sizes), sizes + 1,
            _lines(text, before, name_sizes))


def _lines(text: np.ndarray, before: np.ndarray, sizes: np.ndarray) -> bytes:
    """``text[before[k]:before[k] + sizes[k]]`` of every k, each followed by a line end."""
    out = np.full(int(sizes.sum()) + sizes.size, 10, dtype=np.uint8)
    into = np.cumsum(sizes + 1) - (sizes + 1)
    picked = _spans(before, before + sizes)
    out[np.repeat(into - before, sizes) + picked] = text[picked]
    return out.tobytes()


def _block_of_records(got: tuple, titles: list[bytes], lines: int) -> Block:
    """A :class:`Block` of names (written as ids, and hashed), codes and lengths, the
    titles as a list, and the count of the piece's lines."""
    names, codes, lengths = got
    text = [t.replace(b"\n", b" ") + b"\n" for t in titles]
    ids = "".join(n.replace("\n", " ") + "\n" for n in names).encode()
    return Block(codes, lengths, b"".join(text),
                 np.fromiter(map(len, text), dtype=np.int64, count=len(text)),
                 *_ids_of(ids), lines)


def _ids_of(ids: bytes) -> tuple[bytes, np.ndarray, np.ndarray]:
    """``(ids, their sizes with the line end, their hashes)``: one pass for the line ends,
    on the block's encoding thread."""
    ends = np.flatnonzero(np.frombuffer(ids, dtype=np.uint8) == 10)
    sizes = np.diff(ends, prepend=-1)
    return ids, sizes, id_hashes(ids, sizes)


# -- ids' hashes -----------------------------------------------------------------------------
#: Added to a position before it is mixed into that position's weight.
_WEIGHT_SEED = 0x9E3779B97F4A7C15
#: Multiplies an id's size before it is mixed into the hash.
_SIZE_FACTOR = 0xC2B2AE3D27D4EB4F


def id_hashes(ids: bytes, sizes: np.ndarray | None = None) -> np.ndarray:
    """A 64-bit hash (uint64) of each id of ``ids``, the ids each followed by a line end
    (``sizes``: each one's bytes with its line end, when the caller has them).

    The hash of an id ``b`` of ``n`` bytes is ``mix(s ^ (n * SIZE_FACTOR))``, where ``s`` is
    the sum of ``(b[j] + 1) * weight(j)`` over its bytes and the line end after them
    (``b[n]`` = 10) and ``weight(j) = mix(j + WEIGHT_SEED) | 1``, all modulo 2**64, ``mix``
    being splitmix64's finaliser. It depends on the id's bytes alone, not on the other ids
    of the block; equal hashes do not prove equal ids.
    """
    buf = np.frombuffer(ids, dtype=np.uint8)
    if sizes is None:
        sizes = np.diff(np.flatnonzero(buf == 10), prepend=-1)
    if not sizes.size:
        return np.zeros(0, dtype=np.uint64)
    starts = np.cumsum(sizes) - sizes
    sizes = sizes - 1   # without the line end
    # each byte's position within its id (the line end's is the id's size): every id sums
    # at least one term, so reduceat never meets an empty span
    at = np.arange(buf.size) - np.repeat(starts, sizes + 1)
    weights = _mix(np.arange(int(sizes.max()) + 1, dtype=np.uint64) + np.uint64(_WEIGHT_SEED))
    terms = (buf.astype(np.uint64) + np.uint64(1)) * (weights | np.uint64(1))[at]
    sums = np.add.reduceat(terms, starts)
    return _mix(sums ^ (sizes.astype(np.uint64) * np.uint64(_SIZE_FACTOR)))


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser of uint64 values (numpy's uint64 products wrap modulo 2**64)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _encode_by_lines(piece: bytes, first_line: int, scoring: Scoring, path, done: int):
    names, codes, lengths = [], [], []
    for number, (name, raw, line) in enumerate(_records(io.BytesIO(piece), path, first_line),
                                               done + 1):
        codes.append(encode_bytes(scoring, raw, record_label(path, number, name, line)))
        names.append(name)
        lengths.append(codes[-1].size)
    return (names, np.concatenate(codes) if codes else np.zeros(0, np.uint8),
            np.asarray(lengths, dtype=np.int64))
