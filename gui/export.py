"""Writing views as PNG or SVG files and alignments in any offered format, atomically (never
over an opened input), and what the save dialogs offer.

A save dialog's file-type filter decides the format of a name without a known extension and
gives it that format's extension (:func:`resolve_save`); the extensions and the formats they
mean are bioplug.io's (:data:`bioplug.io.OUTPUT_FORMATS`, as ``-o`` of the command line).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRect, QSize
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

from bioplug.errors import InputError
from bioplug.io import atomic_output, output_format
from bioplug.progress import Cancelled

#: Formats offered by a save dialog: ``format -> (label, extension a new file gets, other
#: extensions in its filter)``. A typed alignment name may have any extension that
#: :data:`bioplug.io.OUTPUT_FORMATS` gives an offered format (``.fa``, ``.clustal``, ...).
ALIGNMENT_EXPORTS = {
    "fasta": ("FASTA", ".fasta"), "clustal": ("Clustal", ".aln"),
    "stockholm": ("Stockholm", ".sto"), "phylip": ("PHYLIP", ".phy"),
    "nexus": ("NEXUS", ".nex"), "a3m": ("A3M", ".a3m"),
}
IMAGE_EXPORTS = {"png": ("PNG image", ".png"), "svg": ("SVG image", ".svg")}
NEWICK_EXPORTS = {"newick": ("Newick", ".nwk", ".newick", ".tree")}
CSV_EXPORTS = {"csv": ("CSV", ".csv")}
#: PHYLIP (as Bio.Align writes it) keeps this many letters of a name.
PHYLIP_NAME = 10
#: Letters of a name each format keeps (Bio.Align's writers cut the rest without a word).
NAME_LETTERS = {"phylip": PHYLIP_NAME, "clustal": 30}
ProgressFn = Callable[[str, int, int], bool]


def paint_to_bytes(
    suffix: str, size: QSize, paint: Callable[[QPainter], None], title: str = "bioplug"
) -> bytes:
    """Run ``paint`` on a PNG raster or an SVG generator and return the file's bytes.

    Parameters
    ----------
    suffix : str
        ``.png`` or ``.svg``.
    size : QSize
        Picture size in pixels.
    paint : callable
        ``paint(painter)`` draws the picture in ``(0, 0, size)``.
    title : str
        SVG title.
    """
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if suffix == ".svg":
        gen = QSvgGenerator()
        gen.setOutputDevice(buffer)
        gen.setSize(size)
        gen.setViewBox(QRect(0, 0, size.width(), size.height()))
        gen.setTitle(title)
        gen.setDescription("made with bioplug")
        painter = QPainter(gen)
        paint(painter)
        painter.end()
    elif suffix == ".png":
        image = QImage(size, QImage.Format.Format_ARGB32)
        image.fill(0xFFFFFFFF)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        paint(painter)
        painter.end()
        image.save(buffer, "PNG")
    else:
        raise InputError(f"cannot write {suffix or 'suffix-less'} images: use .png or .svg")
    buffer.close()
    return bytes(data.data())


def paint_to_file(
    path: str | os.PathLike,
    size: QSize,
    paint: Callable[[QPainter], None],
    inputs: Iterable[str | os.PathLike] = (),
    title: str = "bioplug",
) -> Path:
    """Write a painted picture to ``path`` (``.png`` or ``.svg``), atomically.

    Returns
    -------
    pathlib.Path
    """
    path = Path(path)
    payload = paint_to_bytes(path.suffix.lower(), size, paint, title)
    with atomic_output(path, inputs, mode="wb") as handle:
        handle.write(payload)
    return path


# -- save dialogs ------------------------------------------------------------------------------
def extensions(formats: dict, fmt: str) -> list[str]:
    """The extensions of ``fmt`` in ``formats``, the one a new file gets first."""
    return list(formats[fmt][1:])


def name_filters(formats: dict) -> list[str]:
    """File-dialog filters, one per format: ``"Clustal (*.aln)"``."""
    return [f"{spec[0]} ({' '.join('*' + e for e in extensions(formats, fmt))})"
            for fmt, spec in formats.items()]


def filter_format(formats: dict, chosen: str) -> str:
    """The format of a filter from :func:`name_filters` (the first for an unknown one)."""
    for fmt, text in zip(formats, name_filters(formats), strict=True):
        if chosen == text or chosen.split(" (")[0] == formats[fmt][0]:
            return fmt
    return next(iter(formats))


def suffix_format(formats: dict, path: str | os.PathLike,
                  known: dict | None = None) -> str | None:
    """The offered format whose extension ``path`` has, in ``formats`` or in ``known``
    (``extension -> format``; :data:`bioplug.io.OUTPUT_FORMATS` for alignments); None:
    no offered format's."""
    suffix = Path(path).suffix.lower()
    for fmt in formats:
        if suffix in extensions(formats, fmt):
            return fmt
    fmt = (known or {}).get(suffix)
    return fmt if fmt in formats else None


def resolve_save(path: str | os.PathLike, chosen: str, formats: dict,
                 known: dict | None = None) -> tuple[Path, str]:
    """The file and format a save dialog's answer means.

    A name whose extension is one of an offered format's is written in that format (the
    name says what the file holds, and bioplug reads it back so); any other name gets the
    chosen filter's format and its extension (``myaln`` with "Clustal" is ``myaln.aln``).

    Parameters
    ----------
    path : path-like
        What the dialog returned.
    chosen : str
        The selected filter (from :func:`name_filters`).
    formats : dict
        :data:`ALIGNMENT_EXPORTS`, :data:`IMAGE_EXPORTS`, ...
    known : dict, optional
        More extensions of the formats (see :func:`suffix_format`).

    Returns
    -------
    (pathlib.Path, str)
    """
    path = Path(path)
    named = suffix_format(formats, path, known)
    if named is not None:
        return path, named
    fmt = filter_format(formats, chosen)
    return path.with_name(path.name + extensions(formats, fmt)[0]), fmt


def default_name(stem: str, formats: dict, fmt: str, folder: Path,
                 taken: Iterable[Path] = ()) -> Path:
    """``folder/stem.ext`` for a save dialog; ``stem_export.ext`` when some offered
    extension would name a file in ``taken`` (an opened input, which is never written)."""
    taken = {Path(p).resolve() for p in taken}
    exts = [e for f in formats for e in extensions(formats, f)]
    if any((folder / f"{stem}{e}").resolve() in taken for e in exts):
        stem = f"{stem}_export"
    return folder / f"{stem}{extensions(formats, fmt)[0]}"


# -- alignments --------------------------------------------------------------------------------
class _CheckedHandle:
    """A text handle that reports the characters written and stops a cancelled write."""

    def __init__(self, handle, report: Callable[[int], None]):
        self.handle, self.report, self.written = handle, report, 0

    def write(self, text: str) -> int:
        self.written += len(text)
        self.report(self.written)
        return self.handle.write(text)


def alignment_format(path: str | os.PathLike, fmt: str | None = None) -> str:
    """``fmt``, else the format ``path``'s extension names (FASTA for any other), as the
    command line's ``-o``; InputError for a format that is not offered."""
    fmt = output_format(path, fmt)
    if fmt not in ALIGNMENT_EXPORTS:
        offered = ", ".join(label for label, *_ in ALIGNMENT_EXPORTS.values())
        raise InputError(f"{path}: cannot export as {fmt} (use {offered})")
    return fmt


def write_alignment_file(data, path: str | os.PathLike, fmt: str | None = None,
                         inputs: Iterable[str | os.PathLike] = (),
                         progress: ProgressFn | None = None) -> Path:
    """Write an :class:`~bioplug.gui.documents.AlignmentData` atomically, cancellably.

    The text goes to a temporary file beside ``path`` that is renamed into place only once
    complete: a cancel (``progress`` returned False) or an error leaves no file.

    Parameters
    ----------
    data : AlignmentData
        Unaligned sequences can be written as FASTA only.
    path : path-like
    fmt : str, optional
        A key of :data:`ALIGNMENT_EXPORTS`; default: from the extension.
    inputs : iterable of path-like
        Files never written (the opened ones).
    progress : callable, optional
        ``progress(stage, done, total)``; returning False cancels the write.

    Raises
    ------
    InputError
        Unaligned sequences in an alignment format, a format not offered, an input file.
    bioplug.progress.Cancelled
        ``progress`` returned False (no file was written).
    """
    path = Path(path)
    fmt = alignment_format(path, fmt)
    stage = f"write {path.name}"
    total = max(1, data.shape[0] * (data.shape[1] + 1))  # about the residues' share of it

    def report(done: int) -> None:
        if progress is not None and progress(stage, min(done, total - 1), total) is False:
            raise Cancelled(stage)

    alignment = None if (fmt == "fasta" and not data.aligned) else _for_format(data, fmt)
    inputs = [*inputs, *([data.source] if data.source is not None else [])]
    report(0)
    with atomic_output(path, inputs) as raw:
        handle = _CheckedHandle(raw, report)
        if alignment is None:
            from Bio import SeqIO

            from .documents import titled_records

            SeqIO.write(titled_records(data), handle, "fasta")
        else:
            from bioplug.io import write_alignment

            write_alignment(alignment, handle, fmt)
        # the last chance to cancel: after the rename the file is the user's
        if progress is not None and progress(stage, total, total) is False:
            raise Cancelled(stage)
    return path


def export_note(data, fmt: str) -> str:
    """What a format leaves out of the rows, to tell the user ("" when nothing)."""
    letters = NAME_LETTERS.get(fmt)
    if letters is not None and any(len(name) > letters for name in data.names):
        return f"{ALIGNMENT_EXPORTS[fmt][0]} keeps the first {letters} letters of each name"
    return ""


def _for_format(data, fmt: str):
    """The alignment to write as ``fmt``: NEXUS needs each record's molecule type; PHYLIP
    and Clustal refuse names that their cut (:data:`NAME_LETTERS`) would make equal."""
    alignment = data.to_alignment()
    letters = NAME_LETTERS.get(fmt)
    if letters is not None:
        label = ALIGNMENT_EXPORTS[fmt][0]
        cut: dict[str, str] = {}
        for name in data.names:
            other = cut.setdefault(name[:letters], name)
            if other != name:
                raise InputError(f"{label} keeps {letters} letters of a name: {other!r} "
                                 f"and {name!r} would both be {name[:letters]!r}; rename "
                                 "them (double-click a name) or choose another format")
    if fmt != "nexus":
        return alignment
    from Bio.SeqRecord import SeqRecord

    from bioplug.alignio import alignment_from_rows
    from bioplug.msa.model import molecule_type, resolve_seqtype

    kind = molecule_type(resolve_seqtype([str(r.seq) for r in data.records]))
    records = [SeqRecord(r.seq, id=r.id, name=r.name, description=r.description)
               for r in data.records]
    rows = [data.row_text(i).replace(" ", "-") for i in range(data.shape[0])]
    return alignment_from_rows(records, rows, molecule_type=kind)
