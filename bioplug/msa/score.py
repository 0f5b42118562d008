"""SP and TC scores of a test alignment against a reference (bali_score definitions).

* SP: the fraction of residue pairs aligned in the reference's scored columns that the test
  alignment also aligns (pairs of residues in one reference column).
* TC: the fraction of scored reference columns whose residues all sit in one test column.
Reference columns with fewer than two residues are not scored. A BAliBASE 3 XML reference
(``.xml``) scores its core blocks only (``<colsco-name>coreblock`` = 1); any other reference
(FASTA, MSF, ...) scores every column.
"""

from __future__ import annotations

import io
import os
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.alphabet import check_sequence_letters
from bioplug.errors import InputError
from bioplug.io import (
    STDIO,
    check_one_length,
    check_unique_ids,
    input_format,
    open_input,
    parse_records,
    sniff_format,
)

GAPS = "-.~"


@dataclass
class Reference:
    """Reference rows (upper case, '-' for gaps), ids, and the scored columns (bool mask)."""

    ids: list[str]
    rows: list[str]
    scored: np.ndarray


def _norm(row: str) -> str:
    row = "".join(row.split())
    for g in GAPS[1:]:
        row = row.replace(g, "-")
    return row.upper()


def read_reference(path: str | os.PathLike) -> Reference:
    """Read a BAliBASE XML (core blocks) or any Bio.AlignIO alignment (all columns).

    ``-`` reads standard input and gzip data is read as the text it holds, as for the test
    alignment; XML is told by the name (``.xml``, ``.xml.gz``) or, for standard input and
    other names, by a first character ``<``.

    Raises
    ------
    InputError
        When the file is missing or unreadable, the XML is not a BAliBASE alignment, the rows
        differ in length, an id repeats, or a character is no sequence letter.
    """
    text, fmt = _read_text(path)
    name = Path(str(path)).name.lower().removesuffix(".gz")
    if name.endswith(".xml") or (fmt == "fasta" and text.lstrip().startswith("<")):
        ids, rows, scored = _read_balibase_xml(text, _source(path))
        return Reference(ids, rows, scored)
    ids, rows = _parse_alignment(text, fmt, path)
    return Reference(ids, rows, np.ones(len(rows[0]) if rows else 0, dtype=bool))


def _source(path: str | os.PathLike) -> str:
    return "standard input" if str(path) == STDIO else str(path)


def _read_text(path: str | os.PathLike) -> tuple[str, str]:
    """(text, format) of one input: standard input or a file, gzip or not (the format from
    the extension, else the first line)."""
    if str(path) == STDIO:
        text = sys.stdin.read()
        if not text.strip():
            raise InputError("standard input is empty")
        return text, sniff_format(text)
    fmt = input_format(path)
    try:
        with open_input(path, "rt") as handle:
            text = handle.read()
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not readable as text: {exc.reason}") from exc
    return text, fmt


def _read_balibase_xml(text: str, source: str) -> tuple[list[str], list[str], np.ndarray]:
    """(ids, rows, core-block mask) of a BAliBASE 3 XML reference; every column is scored
    when it has no ``coreblock`` column score."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InputError(f"{source}: not readable as BAliBASE XML: {exc}") from exc
    aln = root.find("alignment")
    if aln is None:
        raise InputError(f"{source}: not a BAliBASE XML alignment (no <alignment>)")
    ids, rows = [], []
    for index, seq in enumerate(aln.findall("sequence")):
        name = (seq.findtext("seq-name") or "").strip()
        if not name:
            raise InputError(f"{source}: sequence {index + 1} has no <seq-name>")
        ids.append(name)
        rows.append(_norm(seq.findtext("seq-data") or ""))
    if not rows:
        raise InputError(f"{source}: the alignment has no sequences")
    _check_rows(ids, rows, source)
    length = len(rows[0])
    scored = np.ones(length, dtype=bool)
    for cs in aln.findall("column-score"):
        if (cs.findtext("colsco-name") or "").strip() == "coreblock":
            try:
                vals = np.array((cs.findtext("colsco-data") or "").split(), dtype=np.int64)
            except ValueError as exc:
                raise InputError(f"{source}: coreblock: {exc}") from exc
            if vals.size != length:   # a mask of another length would score other columns
                raise InputError(f"{source}: coreblock has {vals.size} column scores for "
                                 f"{length} columns")
            scored = vals == 1
    return ids, rows, scored


def _check_rows(ids: list[str], rows: list[str], source: str) -> None:
    """Refuse repeated ids (a repeated row would count its pairs twice, or hide one row),
    rows of different lengths and characters that are no sequence letters."""
    check_unique_ids([SeqRecord(Seq(""), id=i) for i in ids], source)
    check_one_length(rows, source)
    for name, row in zip(ids, rows, strict=True):
        check_sequence_letters(row, f"{source}: {name}")


def read_alignment(path: str | os.PathLike) -> tuple[list[str], list[str]]:
    """(ids, upper-case rows) of an alignment file, read as :func:`bioplug.io.read_records`
    reads it: the format its extension or first line names (FASTA otherwise), ``-`` for
    standard input, gzip data as the text it holds."""
    text, fmt = _read_text(path)
    return _parse_alignment(text, fmt, path)


def _parse_alignment(text: str, fmt: str, path) -> tuple[list[str], list[str]]:
    source = _source(path)
    try:
        records = parse_records(io.StringIO(text), fmt)
    except (ValueError, AssertionError) as exc:
        raise InputError(f"{source}: not readable as a {fmt} alignment: "
                         f"{' '.join(str(exc).split())}") from exc
    if not records:
        raise InputError(f"{source}: no {fmt} alignment found (is it a {fmt} file?)")
    ids, rows = [r.id for r in records], [_norm(str(r.seq)) for r in records]
    _check_rows(ids, rows, source)
    return ids, rows


def _columns(rows: list[str]) -> np.ndarray:
    """(k, L) residue index of each cell, -1 for gaps."""
    k = len(rows)
    L = len(rows[0])
    arr = np.frombuffer("".join(rows).encode("latin-1"), dtype=np.uint8).reshape(k, L)
    res = arr != ord("-")
    idx = np.cumsum(res, axis=1) - 1
    return np.where(res, idx, -1)


def sp_tc(test_ids: list[str], test_rows: list[str], ref: Reference) -> tuple[float, float]:
    """SP and TC (fractions in [0, 1]) of a test alignment against a reference.

    Raises
    ------
    InputError
        When the reference holds fewer than two sequences (no residue pairs to score), the
        test lacks a reference sequence or a sequence's residues differ.
    """
    if len(ref.ids) < 2:   # SP and TC count aligned pairs: 0 / 0 would read as "all wrong"
        raise InputError(f"the reference holds {len(ref.ids)} sequence"
                         f"{'' if len(ref.ids) == 1 else 's'}: SP and TC need at least two "
                         "(they score aligned residue pairs)")
    pos = {name: i for i, name in enumerate(test_ids)}
    missing = [r for r in ref.ids if r not in pos]
    if missing:
        raise InputError(f"test alignment lacks reference sequences: {', '.join(missing[:5])}")
    test_rows = [_norm(test_rows[pos[r]]) for r in ref.ids]
    for name, a, b in zip(ref.ids, test_rows, ref.rows, strict=False):
        a, b = a.replace("-", ""), b.replace("-", "")
        if a != b:   # name the first residue that differs: the place to look in both files
            i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]),
                     min(len(a), len(b)))
            shown = [repr(s[i]) if i < len(s) else "the end" for s in (a, b)]
            raise InputError(f"{name}: residues differ between test and reference (residue "
                             f"{i + 1}: {shown[0]} in the test, {shown[1]} in the reference)")
    rc = _columns(ref.rows)[:, ref.scored]          # (k, C) residue index or -1
    tc = _columns(test_rows)                        # (k, Lt)
    k, C = rc.shape
    # test column of each reference cell
    tcol = np.full(rc.shape, -1, dtype=np.int64)
    for s in range(k):                              # per sequence, vectorised over columns
        cols_of_res = np.flatnonzero(tc[s] >= 0)
        ok = rc[s] >= 0
        tcol[s, ok] = cols_of_res[rc[s, ok]]
    nres = (rc >= 0).sum(axis=0)
    scored = nres >= 2
    total_pairs = (nres * (nres - 1) // 2)[scored].sum()
    col_idx = np.broadcast_to(np.arange(C), rc.shape)
    ok = rc >= 0
    keys = col_idx[ok] * (int(tcol.max(initial=0)) + 2) + tcol[ok]
    uniq, counts = np.unique(keys, return_counts=True)
    ucol = uniq // (int(tcol.max(initial=0)) + 2)
    good = np.bincount(ucol, weights=counts * (counts - 1) / 2, minlength=C)
    sp = float(good[scored].sum() / total_pairs) if total_pairs else 0.0
    ncls = np.bincount(ucol, minlength=C)
    tcv = float(((ncls == 1) & scored).sum() / scored.sum()) if scored.any() else 0.0
    return sp, tcv
