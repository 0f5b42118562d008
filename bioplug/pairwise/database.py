"""Sequence databases for :func:`bioplug.pairwise.search.search`: encoded, sorted by length,
and cached next to the FASTA file.

A FASTA database is read once into a binary index, the directory ``DB.fa.bioplug-idx/``
beside it (or, when that directory cannot be written, under the user cache directory):

* ``codes.u8``: every sequence's residue codes, concatenated in order of length (shortest
  first), read back as a ``numpy.memmap`` so the database is never held twice in host
  memory (the operating system pages it in as chunks are uploaded);
* ``offsets.i64`` (start of each sorted sequence in ``codes.u8``, plus the end),
  ``order.i64`` (its number in the FASTA file), ``rank.i64`` (the inverse: where the FASTA's
  k-th sequence is in ``codes.u8``, so tracing a hit reads one value; indices built before it
  make it at the first hit), ``ids.txt`` (identifiers, file order) and
  ``ids.i64`` (where each id's line starts, plus the end, as ``titles.i64``; indices built
  before it find them in ``ids.txt``);
* ``titles.txt`` (each record's header line after ``>``, file order) and ``titles.i64`` (where
  each starts, plus the end), read only for the hits that BLAST's ``stitle`` column names;
* ``header.json``: the FASTA file's size, modification time and SHA-256, the alphabet the
  codes stand for, the counts of sequences and residues and the index version. It is
  written last, so an index without it is incomplete. When the FASTA's size or time
  differs, its hash decides whether the index is rebuilt; a second search therefore starts
  at once. The header also keeps each file's size, modification time and inode as the
  build left them (as git's index keeps its files'). A search whose files all still match
  maps them and reads only what it uses; one that finds a file changed (or an index
  written before these stamps) checks the files' contents against the header (sizes,
  offsets, order, the count of ids; not the residues themselves), rebuilds a damaged index
  with a warning and stamps a whole one anew.

Several searches may index one database at once (array jobs on a cluster): each builds in a
private folder beside the index and publishes it by renaming the folder onto the index's
path, which fails while another index is there. A job that finds a current index there drops
its own and opens that one; a stale or damaged one is renamed aside before it is removed,
so that no process ever sees a half index. An opened index reads its files through memory
maps, which outlive their removal.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import logging
import operator
import os
import secrets
import shutil
import stat
import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from bioplug.alphabet import Scoring
from bioplug.errors import InputError
from bioplug.interrupts import cleaning_up
from bioplug.pairwise.fasta import encode_fasta
from bioplug.progress import Progress
from bioplug.runtime import host_memory

log = logging.getLogger(__name__)

#: Bumped whenever the files of an index change meaning.
INDEX_VERSION = 3   # 2: built only from FASTA files whose ids are unique; 3: titles
SUFFIX = ".bioplug-idx"
#: The index's data files (``header.json`` stamps each as it was built).
INDEX_FILES = ("codes.u8", "offsets.i64", "order.i64", "rank.i64", "ids.txt", "ids.i64",
               "titles.txt", "titles.i64")


class Database:
    """Encoded database sequences in order of length.

    Attributes
    ----------
    ids : sequence of str
        Identifiers in input (FASTA) order; hits are numbered in this order (an
        :class:`IndexLines` for an index).
    codes : numpy.ndarray
        uint8 residue codes of every sequence, sorted by length (a memmap for files).
    offsets : numpy.ndarray
        int64, ``codes[offsets[k]:offsets[k + 1]]`` is the k-th shortest sequence (a memmap
        for files).
    order : numpy.ndarray
        int64, input number of the k-th shortest sequence (a memmap for files).
    titles : tuple of (numpy.ndarray, numpy.ndarray) or None
        An index's ``titles.txt`` (uint8, a memmap) and the offsets of its lines (see
        :meth:`title`).
    """

    def __init__(self, ids: Sequence[str], codes: np.ndarray, offsets: np.ndarray,
                 order: np.ndarray, source: str = "<sequences>", titles=None,
                 rank: np.ndarray | None = None):
        self.ids = ids
        self._rank = rank
        self.titles = titles
        self.codes = codes
        self.offsets = offsets
        self.order = order
        self.source = source

    @functools.cached_property
    def lengths(self) -> np.ndarray:
        """int64 length of each sequence in sorted order: made when asked (fitted E-values
        ask for all of them; a scan takes its chunks' from :attr:`offsets`)."""
        return np.diff(np.asarray(self.offsets))

    @property
    def rank(self) -> np.ndarray:
        """Input number -> sorted position: an index's ``rank.i64``, else made when a hit
        first asks (8 bytes a sequence, a pass that takes seconds at UniProt's size)."""
        if self._rank is None:
            self._rank = _inverse(self.order)
        return self._rank

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def residues(self) -> int:
        """Total residues (the ``n`` of E-values)."""
        return int(self.offsets[-1])

    def sequence(self, k: int) -> np.ndarray:
        """Codes of input sequence ``k``."""
        r = self.rank[k]
        return np.asarray(self.codes[self.offsets[r]:self.offsets[r + 1]])

    def length(self, k: int) -> int:
        r = self.rank[k]
        return int(self.offsets[r + 1] - self.offsets[r])

    def title(self, numbers) -> dict[int, str]:
        """The FASTA header lines (after ``>``) of input sequences ``numbers``: read from
        the index's titles file, the id where the database has none."""
        if self.titles is None:
            return {k: self.ids[k] for k in numbers}
        text, starts = self.titles
        out = {}
        for k in sorted(numbers):
            line = bytes(text[int(starts[k]):int(starts[k + 1])])
            out[k] = line.rstrip(b"\n").decode("utf-8", "replace")
        return out

    @classmethod
    def from_sequences(cls, seqs: Sequence[np.ndarray], ids: list[str]) -> Database:
        """An in-memory database of already encoded sequences (input order)."""
        lengths = np.fromiter((len(s) for s in seqs), dtype=np.int64, count=len(seqs))
        order = np.argsort(lengths, kind="stable")
        offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
        np.cumsum(lengths[order], out=offsets[1:])
        codes = (np.concatenate([np.asarray(seqs[k], dtype=np.uint8) for k in order])
                 if len(seqs) else np.zeros(0, dtype=np.uint8))
        return cls(list(ids), codes, offsets, order.astype(np.int64))


class IndexLines(Sequence[str]):
    """The lines of an index's text file (``ids.txt``) as a read-only list of str, each
    read from a memory map when asked for: a database of hundreds of millions of ids is not
    held again in Python strings at every search (hits ask for a few).

    Lines are decoded as UTF-8 whatever the locale (ids are decoded from the FASTA as
    UTF-8)."""

    def __init__(self, path: Path, starts: np.ndarray | None = None):
        size = path.stat().st_size
        self._text = (np.memmap(path, dtype=np.uint8, mode="r", shape=(size,)) if size
                      else np.zeros(0, dtype=np.uint8))
        if starts is not None:   # where each line starts, plus the end (``ids.i64``)
            self._starts = starts

    @functools.cached_property
    def _starts(self) -> np.ndarray:
        # else found at first use: an index build reads a few lines, and only when ids'
        # hashes repeat; an index from before ids.i64 finds them at every search
        return np.concatenate(([0], np.flatnonzero(self._text == 10) + 1))

    def __len__(self) -> int:
        return int(self._starts.size) - 1

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        k = operator.index(k)
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError("line number out of range")
        line = self._text[int(self._starts[k]):int(self._starts[k + 1]) - 1]
        return bytes(line).decode("utf-8", "replace")


# -- the index -------------------------------------------------------------------------------
def open_database(path: str | os.PathLike, scoring: Scoring,
                  progress: Progress | None = None) -> Database:
    """The database of a FASTA file, from its index (built or rebuilt when needed; the
    build reports stage "index" to ``progress``, in bytes of the file)."""
    path = Path(path)
    check_database_file(path)
    letters = "".join(map(str, scoring.letters))
    for where in index_dirs(path):
        db = _load(where, path, letters)
        if db is not None:
            log.info("database index %s is current", where)
            return db
    for where in index_dirs(path):
        try:
            return _build(where, path, scoring, progress or Progress())
        except OSError as err:
            log.info("cannot write the index at %s (%s)", where, err)
    raise InputError(f"{path}: cannot write a database index anywhere (beside it, "
                     f"{index_dir(path)}, or in the user cache)")


def check_database_file(path: str | os.PathLike) -> None:
    """Refuse a database that is not a regular file: its index is kept beside it and
    checked against its size, time and contents, which a pipe or a device does not have.

    Raises
    ------
    InputError
        Naming the path and what it is instead (missing, a folder, a pipe, ...).
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError(f"{path}: no such database file") from None
    except OSError as err:
        raise InputError(f"{path}: cannot read the database file ({err.strerror or err})"
                         ) from None
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise InputError(f"{path}: is a folder, not a database file: give its FASTA file")
    what = "a pipe" if stat.S_ISFIFO(mode) else "not a regular file"
    raise InputError(f"{path}: is {what}, not a file: the database is indexed beside its "
                     "FASTA; write it to a file first")


def index_dir(path: str | os.PathLike) -> Path:
    """The index directory next to a FASTA file."""
    path = Path(path)
    return path.with_name(path.name + SUFFIX)


def index_dirs(path: Path) -> list[Path]:
    """Where a FASTA file's index may be, in the order searched: beside it, then the user
    cache (for a folder that cannot be written)."""
    import platformdirs

    # fsencode: the name's own bytes, which need not be UTF-8 (an old archive's Latin-1)
    key = hashlib.sha256(os.fsencode(path.resolve())).hexdigest()[:16]
    cache = Path(platformdirs.user_cache_dir("bioplug")) / "search-index" / key
    return [index_dir(path), cache]


def _fingerprint(path: Path) -> dict:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _sha256(path: Path, stop: threading.Event | None = None) -> str:
    """The file's SHA-256 ("" once ``stop`` is set: the build it was for gave up)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            if stop is not None and stop.is_set():
                return ""
            digest.update(block)
    return digest.hexdigest()


def _load(where: Path, fasta: Path, letters: str) -> Database | None:
    """The index at ``where`` if it is complete and matches ``fasta`` and the alphabet.

    An index whose files disagree with its header (a file missing or cut short, ids or
    offsets overwritten: :func:`_read_index`) is damaged: None, with a warning, so that it
    is rebuilt rather than failing every later search.
    """
    try:
        header = json.loads((where / "header.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (not isinstance(header, dict) or header.get("version") != INDEX_VERSION
            or header.get("letters") != letters):
        return None
    try:
        now = _fingerprint(fasta)
        if now != header.get("fasta"):
            # touched or copied: the contents decide (hashing reads the file once, still far
            # cheaper than re-encoding and sorting it)
            if now["size"] != header["fasta"]["size"] or _sha256(fasta) != header["sha256"]:
                log.info("%s changed since its index was built: rebuilding", fasta)
                return None
            header["fasta"] = now
            _rewrite_header(where, header)
        stamps = _stamps(where)
        as_built = stamps == header.get("files")
        db = _read_index(where, fasta, header, check=not as_built)
        if not as_built:   # checked whole: stamped as it is now
            header["files"] = stamps
            _rewrite_header(where, header)
        return db
    except (OSError, ValueError, KeyError, TypeError) as err:
        log.warning("the database index %s is damaged (%s): rebuilding it", where, err)
        return None


def _stamps(where: Path) -> dict:
    """Each data file's [size, modification time, inode]: a file written over (in place or
    replaced by another) after the build changes at least one of them."""
    out = {}
    for name in INDEX_FILES:
        try:
            st = (where / name).stat()
        except FileNotFoundError:
            continue
        out[name] = [st.st_size, st.st_mtime_ns, st.st_ino]
    return out


def _rewrite_header(where: Path, header: dict) -> None:
    """``header`` written back (the FASTA's new time, new stamps) when the folder can be
    written; else the next search finds the same and does the same work again."""
    try:
        _write_json(where / "header.json", header)
    except OSError:
        pass


def _map(path: Path, dtype, count: int) -> np.ndarray:
    """A read-only memory map of ``count`` values of the file (nothing read until used)."""
    if not count:
        return np.zeros(0, dtype=dtype)
    return np.memmap(path, dtype=dtype, mode="r", shape=(count,))


def _read_index(where: Path, fasta: Path, header: dict, check: bool = True) -> Database:
    """The index's files, mapped; every file's size checked against the header, and with
    ``check`` their contents too: the offsets and title offsets ascending to their totals,
    the order a permutation, one id per sequence (a pass over 32 bytes a sequence, seconds
    at UniProt's size, so made only when a file changed since the index was stamped).

    Raises
    ------
    ValueError
        Naming the first file that disagrees (OSError for a file that cannot be read).
    """
    n, total = int(header["sequences"]), int(header["residues"])
    sizes = {"offsets.i64": 8 * (n + 1), "order.i64": 8 * n, "codes.u8": total,
             "titles.i64": 8 * (n + 1)}
    # an index from before ids.i64 finds its ids' line starts in ids.txt (IndexLines), one
    # from before rank.i64 makes the rank at its first hit
    has_id_starts, has_rank = (where / "ids.i64").exists(), (where / "rank.i64").exists()
    if has_id_starts:
        sizes["ids.i64"] = 8 * (n + 1)
    if has_rank:
        sizes["rank.i64"] = 8 * n
    for name, size in sizes.items():
        have = (where / name).stat().st_size
        if have != size:
            raise ValueError(f"{name} has {have} bytes, the header says {size}")
    # mapped, not read by path later: the folder may be renamed aside once it is stale
    offsets = _map(where / "offsets.i64", np.int64, n + 1)
    order = _map(where / "order.i64", np.int64, n)
    rank = _map(where / "rank.i64", np.int64, n) if has_rank else None
    starts = _map(where / "titles.i64", np.int64, n + 1)
    id_starts = _map(where / "ids.i64", np.int64, n + 1) if has_id_starts else None
    titles_size = (where / "titles.txt").stat().st_size
    ids_size = (where / "ids.txt").stat().st_size
    if check:
        _check_contents(n, (("offsets.i64", offsets, total),
                            ("titles.i64", starts, titles_size),
                            ("ids.i64", id_starts, ids_size)), order, rank)
    ids = IndexLines(where / "ids.txt", id_starts)
    if len(ids) != n:
        raise ValueError(f"ids.txt has {len(ids)} ids, the header says {n} sequences")
    codes = _map(where / "codes.u8", np.uint8, total)
    text = _map(where / "titles.txt", np.uint8, titles_size)
    return Database(ids, codes, offsets, order, source=str(fasta), titles=(text, starts),
                    rank=rank)


def _check_contents(n: int, ends, order: np.ndarray, rank: np.ndarray | None,
                    block: int = 1 << 22) -> None:
    """Raise ValueError unless every (name, line ends, total) rises from 0 to its total,
    ``order`` holds each of 0 .. n - 1 once and ``rank`` (when given) is its inverse
    (``rank[order[p]] = p`` for every p also proves ``order`` a permutation)."""
    # a byte a sequence of scratch, not 8 (UniProt's 250 million sequences)
    for name, values, last in ends:
        if values is not None and (values[0] != 0 or values[-1] != last
                                   or (values[1:] < values[:-1]).any()):
            raise ValueError(f"{name} does not rise from 0 to {last}")
    if n and (order.min() < 0 or order.max() >= n
              or (rank is None and not _is_permutation(order))):
        raise ValueError("order.i64 is not an order of the sequences")
    for a in range(0, n if rank is not None else 0, block):   # a block of scratch at a time
        b = min(n, a + block)
        if not np.array_equal(rank[np.asarray(order[a:b])], np.arange(a, b)):
            raise ValueError("rank.i64 is not the inverse of order.i64")


def _inverse(order: np.ndarray) -> np.ndarray:
    """The permutation ``rank`` with ``rank[order[p]] = p``."""
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return rank


def _is_permutation(order: np.ndarray) -> bool:
    """Whether ``order`` (n values in ``0 .. n - 1``) holds each of them once."""
    seen = np.zeros(order.size, dtype=bool)
    seen[order] = True
    return bool(seen.all())


def _write_json(target: Path, data: dict) -> None:
    """``data`` written to ``target`` through a temporary file of this process's own:
    searches that find one index touched rewrite its header at once."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8") as handle:
            handle.write(json.dumps(data, indent=1))
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def _build(where: Path, fasta: Path, scoring: Scoring, progress: Progress) -> Database:
    """Encode ``fasta`` a block of records at a time into a new index directory, then sort
    by length; the database it holds (or the index another search published first).

    Raises
    ------
    InputError
        For a FASTA file that is not a database, or one that changed while it was read.
    OSError
        When ``where``'s folder cannot be written.
    """
    log.info("building the database index of %s at %s", fasta, where)
    where.parent.mkdir(parents=True, exist_ok=True)
    before = _fingerprint(fasta)
    with cleaning_up():   # Ctrl-C while building: the temporary folder removed
        return _build_in(where, fasta, scoring, before, progress)


def _build_in(where: Path, fasta: Path, scoring: Scoring, before,
              progress: Progress) -> Database:
    """The index built in a private folder beside ``where``, opened, then published there
    (:func:`_publish`)."""
    tmp = Path(tempfile.mkdtemp(prefix=where.name + ".tmp-", dir=where.parent))
    stop = threading.Event()
    try:
        # mkdtemp's folder is 0700: an index beside a shared database serves every user
        from bioplug.io import new_dir_mode

        os.chmod(tmp, new_dir_mode())
        digest = ThreadPoolExecutor(1)   # the file's hash read beside the encoding
        sha256 = digest.submit(_sha256, fasta, stop)
        digest.shutdown(wait=False)
        lengths, hashes = _write_records(tmp, fasta, scoring, before["size"], progress)
        if not lengths.size:
            raise InputError(f"{fasta}: no FASTA records")
        # once per index, not per search; ids.txt is read only where hashes repeat
        check_distinct_ids(IndexLines(tmp / "ids.txt"), "database", str(fasta), hashes)
        del hashes
        _sort_codes(tmp, lengths)
        header = {"version": INDEX_VERSION, "letters": "".join(map(str, scoring.letters)),
                  "fasta": before, "sha256": sha256.result(), "sequences": int(lengths.size),
                  "residues": int(lengths.sum()), "files": _stamps(tmp)}
        _write_json(tmp / "header.json", header)
        if _fingerprint(fasta) != before:
            raise InputError(f"{fasta}: changed while its index was built; if the file was "
                             "being written, search again once it is complete")
        db = _read_index(tmp, fasta, header)   # mapped: valid wherever the folder goes
        theirs = _publish(tmp, where, fasta, header["letters"])
        return db if theirs is None else theirs
    finally:
        stop.set()
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _write_records(tmp: Path, fasta: Path, scoring: Scoring, size: int,
                   progress: Progress) -> tuple[np.ndarray, np.ndarray]:
    """Encode ``fasta`` into ``tmp``'s ``unsorted.u8``, ``ids.txt``, ``ids.i64``,
    ``titles.txt`` and ``titles.i64``; the records' lengths and id hashes (file order).

    Two arrays of 8 bytes a record stay in memory, never a Python string per id (about 60
    bytes each: 15 GB for UniProt's 250 million records). ``size`` is the file's size in
    bytes, which the progress reports count up to.
    """
    sizes, hashes, titles_end, ids_end = [], [], 0, 0
    with open(tmp / "unsorted.u8", "wb") as raw_out, \
            open(tmp / "titles.txt", "wb") as titles_out, \
            open(tmp / "titles.i64", "wb") as title_starts, \
            open(tmp / "ids.txt", "wb") as ids_out, \
            open(tmp / "ids.i64", "wb") as id_starts:
        np.zeros(1, dtype=np.int64).tofile(title_starts)
        np.zeros(1, dtype=np.int64).tofile(id_starts)
        for block in encode_fasta(fasta, scoring):
            raw_out.write(block.codes.data)
            sizes.append(block.lengths)
            hashes.append(block.id_hashes)
            titles_out.write(block.titles)
            titles_end = _write_ends(title_starts, block.title_sizes, titles_end)
            ids_out.write(block.ids)
            ids_end = _write_ends(id_starts, block.id_sizes, ids_end)
            progress.report("index", min(block.read, size), size)
    lengths = np.concatenate(sizes) if sizes else np.zeros(0, dtype=np.int64)
    sizes.clear()   # freed before the next array is joined
    return lengths, (np.concatenate(hashes) if hashes else np.zeros(0, dtype=np.uint64))


def _write_ends(out, line_sizes: np.ndarray, end: int) -> int:
    """Append where each line of a block ends (the next one's start) to ``out``, a file of
    line starts that began with 0, the lines following ``end``; the new end. Written as the
    blocks come: no array of them all is kept."""
    ends = np.cumsum(line_sizes, dtype=np.int64) + end
    ends.tofile(out)
    return int(ends[-1]) if ends.size else end


def _publish(tmp: Path, where: Path, fasta: Path, letters: str,
             attempts: int = 5) -> Database | None:
    """Rename the finished index ``tmp`` to ``where``: None once it is there, or the index
    another search published there first when that one is current (``tmp`` is then left
    for the caller to remove).

    A directory is renamed only onto a path that is free (or an empty folder), so a
    complete index is never replaced under a search reading it; a stale or damaged one is
    renamed aside, then removed. After ``attempts`` rounds lost to other searches this
    one's index is used unpublished (None, ``tmp`` left).
    """
    for _ in range(attempts):
        try:
            os.rename(tmp, where)
            return None
        except OSError as err:
            if err.errno not in (errno.EEXIST, errno.ENOTEMPTY, errno.ENOTDIR):
                raise
        theirs = _load(where, fasta, letters)
        if theirs is not None:
            log.info("another search published the index %s first: using it", where)
            return theirs
        _remove_aside(where)
    log.info("the index %s kept changing under this search: using its own copy", where)
    return None


def _remove_aside(where: Path) -> None:
    """Rename a stale or damaged index out of ``where``, then remove it: a search that
    opened it keeps its mapped files, and no search finds a half-removed folder."""
    aside = where.with_name(f"{where.name}.old-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        os.rename(where, aside)
    except FileNotFoundError:   # another search moved it first
        return
    if aside.is_dir() and not aside.is_symlink():
        shutil.rmtree(aside, ignore_errors=True)
    else:
        aside.unlink(missing_ok=True)


def _sort_codes(tmp: Path, lengths: np.ndarray, block: int = 1 << 23,
                budget: int | None = None, chunk: int = 1 << 28) -> None:
    """``unsorted.u8`` (input order) -> ``codes.u8`` (shortest first), with ``order.i64``,
    ``rank.i64`` and ``offsets.i64``.

    The sorted file gathers each sequence from wherever it lies in the unsorted one. That is
    fast while the unsorted file stays in the page cache; beyond ``budget`` bytes (default:
    half the memory this process may still use, :func:`_memory_budget`) every gather would
    read the disk (a 1.8 GB file in 1.2 GB of memory read 290 GB in 10 minutes), so the
    file is read in order instead, once per band of the sorted file that fits the budget
    (:func:`_write_sorted_banded`)."""
    order = np.argsort(lengths, kind="stable").astype(np.int64)
    starts = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    offsets = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths[order], out=offsets[1:])
    rank = _inverse(order)
    budget = _memory_budget() if budget is None else budget
    if int(offsets[-1]) <= budget:
        _write_sorted(tmp / "unsorted.u8", tmp / "codes.u8", order, starts, lengths, offsets,
                      block)
    else:
        log.info("the database's residues exceed the memory at hand: sorted in bands of %d "
                 "MB", max(1, budget // 2) >> 20)
        _write_sorted_banded(tmp / "unsorted.u8", tmp / "codes.u8", (rank, starts, lengths,
                             offsets), max(1, budget // 2), min(chunk, budget))
    os.remove(tmp / "unsorted.u8")
    offsets.tofile(tmp / "offsets.i64")
    order.tofile(tmp / "order.i64")
    rank.tofile(tmp / "rank.i64")


def _memory_budget() -> int:
    """Half the memory this process may still fill (:func:`bioplug.runtime.host_memory.
    available`), or no bound where it is not known."""
    room = host_memory.available()
    return room // 2 if room is not None else 1 << 62


def _write_sorted(source: Path, target: Path, order: np.ndarray, starts: np.ndarray,
                  lengths: np.ndarray, offsets: np.ndarray, block: int) -> None:
    """The sequences of ``source`` (``starts``, ``lengths``: input order) written to
    ``target`` in ``order``, blocks of about ``block`` residues gathered on threads (numpy's
    gathers run outside Python's lock) and written in turn: only the source is mapped.

    ``order`` sorts by length, so a block is runs of sequences of one length L, and a run is
    gathered as rows of the source's sliding windows of L residues: a copy of each row,
    where an index per residue cost 3x the time."""
    src = np.memmap(source, dtype=np.uint8, mode="r", shape=(int(offsets[-1]),))
    cuts = _cuts(offsets, block)
    sizes = lengths[order]

    def gather(part: int) -> np.ndarray:
        first, last = int(cuts[part]), int(cuts[part + 1])
        out = np.empty(int(offsets[last] - offsets[first]), dtype=np.uint8)
        runs = first + np.flatnonzero(np.diff(sizes[first:last], prepend=-1))
        for a, b in zip(runs.tolist(), [*runs[1:].tolist(), last], strict=True):
            rows = sliding_window_view(src, int(sizes[a]))   # row p: src[p:p + size], a view
            out[offsets[a] - offsets[first]:offsets[b] - offsets[first]] = \
                rows[starts[order[a:b]]].reshape(-1)
        return out

    workers = min(4, os.cpu_count() or 1)
    with open(target, "wb") as out, ThreadPoolExecutor(workers) as pool:
        for part in range(0, cuts.size - 1, workers):   # a few blocks in memory at a time
            for data in pool.map(gather, range(part, min(part + workers, cuts.size - 1))):
                out.write(data.data)


def _write_sorted_banded(source: Path, target: Path, plan: tuple, band: int,
                         chunk: int) -> None:
    """:func:`_write_sorted` for an unsorted file larger than the memory at hand: the sorted
    file is made a band of about ``band`` residues at a time, each band from one pass over
    ``source`` in order, about ``chunk`` residues read at a time (:func:`_cuts`). ``plan``
    is (rank, starts, lengths, offsets).

    In one read piece of the file, the sequences of length L that belong to the band are
    neighbours in the sorted order (ties keep file order), so each is one row gather of
    sliding windows into its place in the band."""
    rank, starts, lengths, offsets = plan
    bands = _cuts(offsets, band)
    pieces = _cuts(starts, chunk)
    with open(source, "rb") as src, open(target, "wb") as out:
        for first, last in zip(bands[:-1].tolist(), bands[1:].tolist(), strict=True):
            base = int(offsets[first])
            held = np.empty(int(offsets[last]) - base, dtype=np.uint8)
            for a, b in zip(pieces[:-1].tolist(), pieces[1:].tolist(), strict=True):
                mine = np.flatnonzero((rank[a:b] >= first) & (rank[a:b] < last))
                if not mine.size:
                    continue
                src.seek(int(starts[a]))
                text = np.frombuffer(src.read(int(starts[b] - starts[a])), dtype=np.uint8)
                mine = mine[np.argsort(lengths[a + mine], kind="stable")]
                size = lengths[a + mine]
                runs = np.flatnonzero(np.diff(size, prepend=-1))
                for u, v in zip(runs.tolist(), [*runs[1:].tolist(), mine.size], strict=True):
                    rows = sliding_window_view(text, int(size[u]))
                    at = int(offsets[rank[a + mine[u]]]) - base
                    held[at:at + (v - u) * int(size[u])] = \
                        rows[starts[a + mine[u:v]] - starts[a]].reshape(-1)
            out.write(held.data)


def _cuts(ends: np.ndarray, size: int) -> np.ndarray:
    """Record boundaries (indices into ``ends``, a cumulative size with a leading 0) that cut
    the records into runs of about ``size`` (at most one record more), from 0 to the last."""
    n, total = ends.size - 1, int(ends[-1])
    cuts = np.unique(np.searchsorted(ends, np.arange(0, total, max(1, size)), side="right") - 1)
    return np.append(cuts[cuts < n], n)


def check_distinct_ids(ids: Sequence[str], what: str, source: str,
                       hashes: np.ndarray | None = None) -> None:
    """Refuse ids used by more than one record, naming their record numbers.

    :func:`bioplug.io.check_unique_ids` does this for the records of a family; a search
    database may hold hundreds of millions of ids, checked here without a dict of them all
    (:func:`repeated_ids`).

    Parameters
    ----------
    ids : sequence of str
        Identifiers in record order (an :class:`IndexLines` when ``hashes`` are given: only
        the ids whose hashes repeat are read).
    what : str
        ``"query"`` or ``"database"``, for the message.
    source : str
        The file (or a description of the sequences), for the message.
    hashes : numpy.ndarray, optional
        A 64-bit hash of each id, equal for equal ids (an index build's
        :func:`bioplug.pairwise.fasta.id_hashes`); Python's ``hash`` of each by default.

    Raises
    ------
    InputError
        Naming the first repeated ids and the numbers (1-based) of their first two records.
    """
    repeats = repeated_ids(ids, hashes)
    if repeats:
        shown = "; ".join(f"{name!r} (records {a + 1} and {b + 1})"
                          for name, (a, b) in list(repeats.items())[:3])
        more = f"; and {len(repeats) - 3} more" if len(repeats) > 3 else ""
        raise InputError(f"{source}: duplicate {what} id{'s' if len(repeats) > 1 else ''} "
                         f"{shown}{more}: search output names hits by id, so ids must be "
                         "unique")


def repeated_ids(ids: Sequence[str], hashes: np.ndarray | None = None
                 ) -> dict[str, tuple[int, int]]:
    """Each repeated id with the 0-based numbers of its first two records, in the order of
    their second records.

    A database may hold hundreds of millions of ids: a set or dict of them all would cost
    as much again as the list. Their 64-bit hashes (``hashes``, or Python's ``hash`` of
    each) are sorted instead (16 bytes per id for a moment); only ids whose hash repeats
    are read from ``ids`` and compared as strings, so two ids of one hash are not taken for
    one id.
    """
    if hashes is None:
        hashes = np.fromiter(map(hash, ids), dtype=np.int64, count=len(ids))
    if hashes.size < 2:
        return {}
    ordered = np.sort(hashes)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    del ordered
    if not repeated.size:
        return {}
    first: dict[str, int] = {}
    found: dict[str, tuple[int, int]] = {}
    for k in np.flatnonzero(np.isin(hashes, repeated)).tolist():   # equal hashes, in order
        name = ids[k]
        if name not in first:
            first[name] = k
        elif name not in found:
            found[name] = (first[name], k)
    return dict(sorted(found.items(), key=lambda item: item[1][1]))
