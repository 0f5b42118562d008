"""Realign part of the open alignment, or add sequences to it, as undoable edits.

Three jobs, each run off the GUI thread on the chosen device with
:class:`bioplug.ProgressiveAligner`, whose result becomes one step on the editor's undo stack:

``Realign block``
    The selected rows x selected columns: their residues are aligned afresh among themselves
    and spliced back (:func:`splice_block`); the other rows' part of those columns is padded
    with gaps when the new block is wider. Columns outside the block never move.
``Realign selected sequences``
    The selected rows are taken out, ungapped, and aligned to the rest of the alignment as a
    profile (``ProgressiveAligner.add``), whose columns are kept.
``Add sequences…``
    Sequences from a file are aligned to the open alignment the same way (as ``mafft --add``).
``Merge alignments…``
    Alignments from files are merged with the open one, each kept intact, along a tree of
    their distances (``ProgressiveAligner.merge``, as ``mafft --merge``); their rows follow.
``Add fragments…``
    Each sequence from a file is aligned to the open alignment on its own, end gaps free (as
    ``mafft --addfragments``: reads, partial genes); their insertions are not aligned to each
    other. ``Add fragments, keep length…`` keeps the alignment's width (as ``mafft
    --keeplength``: the residues that would open columns are left out).

A result is applied only if the alignment is still the one the job started from: an edit made
while the job ran would otherwise be silently thrown away.
"""

from __future__ import annotations

import numpy as np
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from PySide6.QtWidgets import QFileDialog

from bioplug.errors import InputError
from bioplug.io import description_after_id

from .edit_ops import GAP, is_gap, remove_gap_columns

#: Codes that are not residues inside a row (gaps and the padding of unaligned rows).
NOT_RESIDUE = np.frombuffer(b"-. ", dtype=np.uint8)


def block_segments(codes: np.ndarray, rows: list[int], c0: int, c1: int) -> list[str]:
    """The ungapped residues of ``rows`` within columns ``c0 .. c1`` (inclusive)."""
    out = []
    for r in rows:
        seg = codes[r, c0: c1 + 1]
        out.append(seg[~np.isin(seg, NOT_RESIDUE)].tobytes().decode("ascii"))
    return out


def splice_block(codes: np.ndarray, rows: list[int], c0: int, c1: int,
                 block: np.ndarray) -> np.ndarray:
    """Codes with ``rows`` x columns ``c0 .. c1`` replaced by ``block`` (``(len(rows), W)``).

    The block region becomes ``max(W, c1 - c0 + 1)`` columns wide: the narrower side is padded
    with gaps on its right, then columns of the region that hold only gaps are dropped.
    """
    n, length = codes.shape
    old_w = c1 - c0 + 1
    width = max(old_w, block.shape[1])
    region = np.full((n, width), GAP, dtype=np.uint8)
    region[:, :old_w] = codes[:, c0: c1 + 1]
    region[rows, :] = GAP
    region[np.ix_(rows, np.arange(block.shape[1]))] = block
    region = remove_gap_columns(region)
    return np.concatenate([codes[:, :c0], region, codes[:, c1 + 1:]], axis=1)


def rows_of(alignment) -> np.ndarray:
    """``(k, L)`` uint8 codes of a ``Bio.Align.Alignment``."""
    from bioplug.io import alignment_rows

    return np.asarray(alignment_rows(alignment), dtype=np.uint8)


def realign_block_task(codes: np.ndarray, rows: list[int], c0: int, c1: int, device):
    """Job function: the block's new codes (all of them, ready for the undo stack)."""
    segments = block_segments(codes, rows, c0, c1)
    keep = [k for k, s in enumerate(segments) if s]
    if len(keep) < 2:
        raise InputError("the block needs residues in at least two selected rows")

    def fn(progress):
        from bioplug import ProgressiveAligner

        records = [SeqRecord(Seq(segments[k]), id=f"r{k}") for k in keep]
        aligned = rows_of(ProgressiveAligner(device=device).align(records, progress=progress))
        block = np.full((len(rows), aligned.shape[1]), GAP, dtype=np.uint8)
        block[keep] = aligned
        return splice_block(codes, rows, c0, c1, block)

    return fn


def add_rows_task(names: list[str], codes: np.ndarray, records: list[SeqRecord], device,
                  fragments: bool = False, keep_length: bool = False):
    """Job function: ``(names, codes)`` of the alignment with ``records`` profile-aligned
    to it (``ProgressiveAligner.add``: the alignment's columns are kept), each on its own
    with ``fragments``; with ``keep_length`` the alignment's width stays, columns of gaps
    only included (residues that would open columns are left out, as mafft --keeplength)."""
    clash = sorted(set(names) & {r.id for r in records})
    if clash:
        raise InputError(f"a sequence called {clash[0]!r} is already in the alignment")
    if not records:
        raise InputError("no sequences to add")

    def fn(progress):
        from bioplug import ProgressiveAligner
        from bioplug.progressive.adding import with_empty_columns

        given = [SeqRecord(Seq(codes[i].tobytes().decode("ascii").replace(" ", "-")), id=name)
                 for i, name in enumerate(names)]
        merged = ProgressiveAligner(device=device).add(given, records, progress=progress,
                                                       fragments=fragments,
                                                       keep_length=keep_length)
        out = rows_of(merged)
        if keep_length:
            out = with_empty_columns(out, merged.given_columns, codes.shape[1])
        return names + [r.id for r in records], out

    return fn


def merge_task(names: list[str], codes: np.ndarray, others: list[list[SeqRecord]], device,
               sources: list[str] | None = None):
    """Job function: ``(names, codes)`` of the alignment merged with the alignments
    ``others`` (gapped records), each kept intact (``ProgressiveAligner.merge``);
    ``sources`` name ``others`` in errors (default "alignment 2", ...)."""
    labels = ["the open alignment", *(sources or [f"alignment {i + 2}"
                                                 for i in range(len(others))])]
    owner = dict.fromkeys(names, 0)
    for i, group in enumerate(others, start=1):
        clash = sorted(set(owner) & {r.id for r in group})
        if clash:
            raise InputError(f"a sequence called {clash[0]!r} is in two of the alignments "
                             f"({labels[owner[clash[0]]]} and {labels[i]})")
        owner.update(dict.fromkeys((r.id for r in group), i))

    def fn(progress):
        from bioplug import ProgressiveAligner

        given = [SeqRecord(Seq(codes[i].tobytes().decode("ascii").replace(" ", "-")), id=name)
                 for i, name in enumerate(names)]
        merged = ProgressiveAligner(device=device).merge([given, *others], progress=progress,
                                                         names=labels)
        return [s.id for s in merged.sequences], rows_of(merged)

    return fn


class Realigner:
    """The realign / add jobs of a :class:`MainWindow`, applied through its editor."""

    def __init__(self, window):
        self.window = window
        self.view = window.alignment_view

    def _start(self, name: str, fn, text: str, after,
               descriptions: list[str] | None = None) -> object:
        """Run ``fn`` as a job; its rows replace the shown ones as one undo step.

        ``descriptions`` are the titles of the result's rows in its order (default: the
        shown rows', row for row).
        """
        data = self.view.data

        def done(result) -> None:
            if self.view.data is not data:
                raise InputError(f"{name}: the alignment changed while the job ran; "
                                 "run it again")
            names, codes = result if isinstance(result, tuple) else (data.names, result)
            self.view.editor.apply_edit(text, names, codes, descriptions)
            after(names)

        return self.window._start_job(name, fn, done)

    def _aligned(self):
        data = self.view.data
        if data is None or not data.aligned:
            raise InputError("realigning needs an alignment: run a multiple alignment first")
        return data

    def realign_block(self):
        """Realign the selected block (rows x columns) among its rows."""
        data = self._aligned()
        cols = self.view.canvas.sel_columns
        rows = self.view.selected_rows()
        if cols is None or len(rows) < 2:
            raise InputError("select a block: two or more rows and a range of columns")
        fn = realign_block_task(data.codes, rows, cols[0], cols[1], self.window.device)
        return self._start("Realign block", fn, "realign block",
                           lambda names: self.view.highlight_rows(rows))

    def realign_sequences(self):
        """Take the selected rows out and align them back to the rest as a profile."""
        data = self._aligned()
        rows = sorted(set(np.flatnonzero(self.view.canvas.highlighted).tolist()))
        if not rows or len(rows) >= data.shape[0]:
            raise InputError("select the sequences to realign (not all of them)")
        rest = [i for i in range(data.shape[0]) if i not in set(rows)]
        picked = [SeqRecord(Seq(s), id=data.names[r]) for r, s in
                  zip(rows, block_segments(data.codes, rows, 0, data.shape[1] - 1), strict=True)]
        fn = add_rows_task([data.names[i] for i in rest],
                           remove_gap_columns_or_keep(data.codes[rest]), picked,
                           self.window.device)
        moved = [r.id for r in picked]
        titles = data.descriptions
        return self._start("Realign sequences", fn, "realign sequences",
                           lambda names: self.view.highlight_names(moved),
                           [titles[i] for i in rest + rows])  # the job's row order

    def add_sequences(self, records: list[SeqRecord], fragments: bool = False,
                      keep_length: bool = False):
        """Align ``records`` (unaligned) to the open alignment and append them; each on its
        own, end gaps free, with ``fragments``; the alignment's width kept with
        ``keep_length``."""
        data = self._aligned()
        # the words after the id (Bio.SeqIO keeps the id in front of them)
        records = [SeqRecord(Seq(str(r.seq).replace("-", "").replace(".", "")), id=r.id,
                             description=description_after_id(r)) for r in records]
        fn = add_rows_task(list(data.names), data.codes, records, self.window.device,
                           fragments, keep_length)
        added = [r.id for r in records]
        name = ("Add fragments" if fragments else "Add sequences") + (
            " (keep length)" if keep_length else "")
        return self._start(name, fn, f"{name.lower()}: {len(records)}",
                           lambda names: self.view.highlight_names(added),
                           data.descriptions + [r.description for r in records])

    def ask_add(self, fragments: bool = False, keep_length: bool = False) -> None:
        """Choose a sequence file, then :meth:`add_sequences`."""
        from bioplug.io import read_records

        title = "Add fragments" if fragments else "Add sequences"
        path, _ = QFileDialog.getOpenFileName(self.window, title, "",
                                              "Sequences (*.fa *.fasta *.faa *.fna *.fas);;"
                                              "All files (*)")
        if path:
            self.add_sequences(read_records(path), fragments, keep_length)

    def merge_alignments(self, others: list[list[SeqRecord]],
                         sources: list[str] | None = None):
        """Merge the open alignment with ``others`` (each a list of gapped records of one
        length), every one kept intact; their rows follow the open one's. ``sources`` (file
        names) name them in errors."""
        data = self._aligned()
        if not others:
            raise InputError("no alignments to merge")
        fn = merge_task(list(data.names), data.codes, others, self.window.device, sources)
        added = [r.id for group in others for r in group]
        return self._start("Merge alignments", fn, f"merge {len(others) + 1} alignments",
                           lambda names: self.view.highlight_names(added),
                           data.descriptions + [description_after_id(r)
                                                for group in others for r in group])

    def ask_merge(self) -> None:
        """Choose alignment files, then :meth:`merge_alignments`."""
        from bioplug.io import check_one_length, read_records

        paths, _ = QFileDialog.getOpenFileNames(
            self.window, "Merge alignments", "",
            "Alignments (*.fa *.fasta *.aln *.sto *.stk *.phy *.a2m *.a3m *.msf *.nex);;"
            "All files (*)")
        others = []
        for path in paths:
            records = read_records(path)
            check_one_length([r.seq for r in records], path)
            others.append(records)
        if others:
            self.merge_alignments(others, list(paths))


def install_realign(window) -> Realigner:
    """Realign block / sequences, Add sequences… and Add fragments… at the end of the window's
    Edit menu."""
    realigner = Realigner(window)
    menu = window.edit_menu
    menu.addSeparator()

    def guarded(fn):
        def run() -> None:
            try:
                fn()
            except InputError as exc:
                window.show_error(str(exc))
        return run

    menu.addAction("Realign selected &block", guarded(realigner.realign_block))
    menu.addAction("Realign selected se&quences", guarded(realigner.realign_sequences))
    menu.addAction("&Add sequences…", guarded(realigner.ask_add))
    menu.addAction("&Merge alignments…", guarded(realigner.ask_merge))
    menu.addAction("Add &fragments…", guarded(lambda: realigner.ask_add(fragments=True)))
    menu.addAction("Add fragments, &keep length…",
                   guarded(lambda: realigner.ask_add(fragments=True, keep_length=True)))
    return realigner


def remove_gap_columns_or_keep(codes: np.ndarray) -> np.ndarray:
    """``codes`` without its gap-only columns (rows that remain after taking some out), or
    ``codes`` itself when every column is a gap."""
    if is_gap(codes).all():
        return codes
    return remove_gap_columns(codes)
