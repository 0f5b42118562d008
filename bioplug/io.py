"""Reading and writing through Bio.SeqIO / Bio.Align (no hand-written parsers).

Inputs are validated at the door: empty files, empty records, duplicate ids and non-sequence
files give an :class:`~bioplug.errors.InputError` naming what is wrong. Output files are
written atomically (temporary file in the same folder, then rename) and never over an input.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from Bio import SeqIO
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.errors import InputError

EXTENSION_FORMATS = {
    ".fa": "fasta", ".fasta": "fasta", ".faa": "fasta", ".fna": "fasta", ".fas": "fasta",
    ".tfa": "fasta", ".aln": "clustal", ".clustal": "clustal", ".sto": "stockholm",
    ".stockholm": "stockholm", ".phy": "phylip", ".phylip": "phylip", ".msf": "msf",
    ".nex": "nexus", ".nexus": "nexus", ".gb": "genbank", ".gbk": "genbank",
    ".embl": "embl", ".fastq": "fastq", ".fq": "fastq", ".a2m": "a2m",
}


def guess_format(path: str | os.PathLike, default: str = "fasta") -> str:
    """A Bio.SeqIO / Bio.Align format name from a file extension."""
    return EXTENSION_FORMATS.get(Path(path).suffix.lower(), default)


def read_records(path: str | os.PathLike, fmt: str | None = None) -> list[SeqRecord]:
    """Read every record of a sequence file through Bio.SeqIO.

    Raises
    ------
    InputError
        Missing or empty file, a file that parses to no record (e.g. not FASTA), or one
        whose records are empty.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.stat().st_size == 0:
        raise InputError(f"{path}: the file is empty")
    fmt = fmt or guess_format(path)
    try:
        records = list(SeqIO.parse(str(path), fmt))
    except (ValueError, AssertionError) as exc:
        raise InputError(f"{path}: not readable as {fmt}: {exc}") from exc
    if not records:
        raise InputError(f"{path}: no {fmt} records found (is it a {fmt} file?)")
    return records


def as_record(item, index: int = 0) -> SeqRecord:
    """A SeqRecord from str, Bio.Seq.Seq, SeqRecord or skbio.Sequence (ids kept)."""
    if isinstance(item, SeqRecord):
        return item
    if isinstance(item, (str, Seq)):
        return SeqRecord(Seq(str(item)), id=f"seq{index + 1}", description="")
    if hasattr(item, "values") and hasattr(item, "metadata"):  # skbio.Sequence
        name = item.metadata.get("id") or f"seq{index + 1}"
        return SeqRecord(Seq(str(item)), id=str(name), description="")
    raise InputError(f"sequence {index + 1}: unsupported type {type(item).__name__}")


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


def check_unique_ids(records: Iterable[SeqRecord]) -> None:
    """Raise :class:`InputError` naming every id used more than once."""
    seen: dict[str, int] = {}
    for r in records:
        seen[r.id] = seen.get(r.id, 0) + 1
    dups = sorted(k for k, v in seen.items() if v > 1)
    if dups:
        raise InputError(f"duplicate sequence ids: {', '.join(dups)}")


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike, inputs: Iterable[str | os.PathLike] = (), mode="w"):
    """Open a temporary file beside ``path``; rename it into place only on success.

    Refuses to write over any of ``inputs``.
    """
    target = Path(path)
    for src in inputs:
        with contextlib.suppress(OSError):
            if Path(src).exists() and target.exists() and os.path.samefile(src, target):
                raise InputError(f"{target}: refusing to overwrite an input file")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, mode) as handle:
            yield handle
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
