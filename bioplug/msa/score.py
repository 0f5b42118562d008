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

import numpy as np
from Bio import AlignIO

from bioplug.errors import InputError
from bioplug.io import STDIO, input_format, open_input, sniff_format

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
    """Read a BAliBASE XML (core blocks) or any Bio.AlignIO alignment (all columns)."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if path.lower().endswith(".xml"):
        root = ET.parse(path).getroot()
        aln = root.find("alignment")
        if aln is None:
            raise InputError(f"{path}: not a BAliBASE XML alignment")
        ids, rows = [], []
        for seq in aln.findall("sequence"):
            ids.append(seq.findtext("seq-name").strip())
            rows.append(_norm(seq.findtext("seq-data") or ""))
        scored = None
        for cs in aln.findall("column-score"):
            if (cs.findtext("colsco-name") or "").strip() == "coreblock":
                vals = np.array((cs.findtext("colsco-data") or "").split(), dtype=np.int64)
                scored = vals == 1
        L = len(rows[0]) if rows else 0
        if scored is None:
            scored = np.ones(L, dtype=bool)
        return Reference(ids, rows, scored[:L])
    aln = read_alignment(path)
    return Reference(aln[0], aln[1], np.ones(len(aln[1][0]) if aln[1] else 0, dtype=bool))


def read_alignment(path: str | os.PathLike) -> tuple[list[str], list[str]]:
    """(ids, upper-case rows) of an alignment file through Bio.AlignIO, in the format its
    extension or first line names (FASTA otherwise; ``-`` reads standard input), and gzip
    data is read as the text it holds."""
    text = sys.stdin.read() if str(path) == STDIO else None
    fmt = sniff_format(text) if text is not None else input_format(path)
    try:
        if text is not None:
            aln = AlignIO.read(io.StringIO(text), fmt)
        else:
            with open_input(path, "rt") as handle:
                aln = AlignIO.read(handle, fmt)
    except InputError:
        raise
    except ValueError as exc:
        raise InputError(f"{path}: not readable as a {fmt} alignment: {exc}") from exc
    return [r.id for r in aln], [_norm(str(r.seq)) for r in aln]


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
        When the test lacks a reference sequence or a sequence's residues differ.
    """
    pos = {name: i for i, name in enumerate(test_ids)}
    missing = [r for r in ref.ids if r not in pos]
    if missing:
        raise InputError(f"test alignment lacks reference sequences: {', '.join(missing[:5])}")
    test_rows = [_norm(test_rows[pos[r]]) for r in ref.ids]
    for name, a, b in zip(ref.ids, test_rows, ref.rows, strict=False):
        if a.replace("-", "") != b.replace("-", ""):
            raise InputError(f"{name}: residues differ between test and reference")
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
