"""HomFam protocol (extended HomFam, "small" tier): prepare a family's input and score a result.

Usage::

    python benchmarks/homfam.py --check                   # every reference scores 100 / 100
    python benchmarks/homfam.py --pyfamsa [--families a,b | --first N] [--threads T]
                                # one process: pyfamsa 0.7, 1 thread, all 101: SP 82.00
                                # TC 66.54 (the same as one process per family)
    python benchmarks/homfam.py --score FAMILY ALN.fa     # SP / TC of one alignment file
    python benchmarks/homfam.py --write DIR [--families ...]   # DIR/<family>.fa inputs

Data: ``<root>/small/<family>`` (Pfam homologs, FASTA; Pfam's lower case marks insert states)
and ``<root>/ref/<family>`` (Homstrad structural alignment of 3-29 members, FASTA with CRLF line
ends and ``P1;`` id prefixes). Either file may also be gzipped (``<family>.gz``), as
``benchmarks/peers.sh`` stores them for the GPU machine. ``root`` is ``--root``, else
``$BIOPLUG_HOMFAM``, else the first of ``../shared/bench/homfam`` and ``.peers/data/homfam``
(relative to the repository root) that exists.

Protocol (``../shared/bench/homfam/README.md``): the input is the reference members, degapped,
plus the homologs, upper-cased. In these files every reference member is already in the small
file, under the same id (``P1;<pdb>``) and with exactly the degapped reference residues, so the
input is the small file upper-cased; :func:`prepare` checks that and adds any member that is
missing. (Ids are unique; 12 homologs in az, ghf22, kringle and toxin are identical in sequence
to a reference member under a Pfam id; residues include X, B and Z.) After
aligning everything, the reference members' rows are taken, columns where all of them are gaps
dropped, and scored against the reference over all its columns:

* SP: share of the reference's residue pairs (two residues in one reference column) that the
  test alignment puts in one column (``bioplug.msa.score.sp_tc``).
* TC: share of the reference columns reproduced exactly: some test column holds all of the
  column's residues and no residue of the other reference members. Every reference column
  with a residue counts (a single-residue column is reproduced when the other members have
  gaps there); the few all-gap columns of some references are dropped. This is the definition
  that gives the README's pyfamsa figure (TC 66.5 here over the 101 families, README 66.6;
  bali_score's looser one, all residues in one column, columns of >= 2 residues only, gives
  70.7 and is :func:`score_detail`'s ``tc_multi``; SP is 82.0 either way, README 81.9).
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from Bio import SeqIO
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.msa.score import Reference, _columns, _norm, read_alignment, sp_tc

REPO = Path(__file__).resolve().parent.parent
ROOT_CANDIDATES = (REPO.parent / "shared" / "bench" / "homfam", REPO / ".peers" / "data" / "homfam")


@dataclass
class Detail:
    """Scores of one family (fractions in [0, 1]) and the reference's column counts.

    ``tc`` is the protocol's TC (exact columns over all columns), ``tc_multi`` bali_score's;
    ``columns`` counts the reference columns with a residue, ``columns_multi`` those with two
    or more.
    """

    sp: float
    tc: float
    tc_multi: float
    columns: int
    columns_multi: int


def default_root() -> Path:
    """The HomFam folder: ``$BIOPLUG_HOMFAM`` or the first existing default location."""
    env = os.environ.get("BIOPLUG_HOMFAM")
    if env:
        return Path(env)
    for cand in ROOT_CANDIDATES:
        if (cand / "ref").is_dir():
            return cand
    raise FileNotFoundError(
        "no HomFam data: set BIOPLUG_HOMFAM or run benchmarks/peers.sh (it copies the data "
        f"into .peers/data); looked in {', '.join(map(str, ROOT_CANDIDATES))}")


def _open(path: Path) -> io.TextIOBase:
    if path.exists():
        return open(path)
    gz = path.with_name(path.name + ".gz")
    if gz.exists():
        return gzip.open(gz, "rt")
    raise FileNotFoundError(f"{path}: no such file (nor {gz.name})")


def families(root: str | os.PathLike | None = None) -> list[str]:
    """Names of the families with both a reference and a small file, sorted."""
    root = Path(root) if root else default_root()

    def names(d: Path) -> set[str]:
        return {p.name.removesuffix(".gz") for p in d.iterdir() if not p.name.startswith(".")}

    return sorted(names(root / "ref") & names(root / "small"), key=str.lower)


def _records(path: Path) -> list[SeqRecord]:
    with _open(path) as handle:
        return list(SeqIO.parse(handle, "fasta"))


def read_reference(family: str, root: str | os.PathLike | None = None
                   ) -> tuple[list[str], list[str]]:
    """(ids, upper-case rows) of ``ref/<family>``, all-gap columns removed."""
    root = Path(root) if root else default_root()
    recs = _records(root / "ref" / family)
    ids = [r.id for r in recs]
    rows = [str(r.seq).upper().replace(".", "-") for r in recs]
    if not rows or len({len(r) for r in rows}) != 1:
        raise ValueError(f"ref/{family}: rows of different lengths or no rows")
    return ids, _drop_gap_columns(rows)


def _drop_gap_columns(rows: Sequence[str]) -> list[str]:
    arr = np.frombuffer("".join(rows).encode("latin-1"), dtype=np.uint8).reshape(len(rows), -1)
    keep = (arr != ord("-")).any(axis=0)
    if keep.all():
        return list(rows)
    arr = np.ascontiguousarray(arr[:, keep])
    return [r.tobytes().decode("latin-1") for r in arr]


def prepare(family: str, root: str | os.PathLike | None = None
            ) -> tuple[list[SeqRecord], list[str], list[str]]:
    """The input of one family and its reference.

    Parameters
    ----------
    family : str
        Family name (a file name under ``ref/`` and ``small/``).
    root : path, optional
        The HomFam folder (default: :func:`default_root`).

    Returns
    -------
    records : list of SeqRecord
        Everything to align, in the small file's order, upper-case, unique ids; a reference
        member missing from the small file is appended (degapped).
    ref_ids : list of str
        Ids of the reference members (as in ``records``).
    ref_rows : list of str
        Their reference rows, upper case, ``-`` for gaps, all-gap columns removed.

    Raises
    ------
    ValueError
        Duplicate ids in the small file, or a reference member whose residues there differ
        from the degapped reference row.
    """
    root = Path(root) if root else default_root()
    ref_ids, ref_rows = read_reference(family, root)
    small = _records(root / "small" / family)
    records, seen = [], set()
    for rec in small:
        if rec.id in seen:
            raise ValueError(f"small/{family}: duplicate id {rec.id}")
        seen.add(rec.id)
        records.append(SeqRecord(Seq(str(rec.seq).upper()), id=rec.id, description=""))
    by_id = {r.id: r for r in records}
    for rid, row in zip(ref_ids, ref_rows, strict=True):
        plain = row.replace("-", "")
        if rid not in by_id:
            records.append(SeqRecord(Seq(plain), id=rid, description=""))
        elif str(by_id[rid].seq) != plain:
            raise ValueError(f"{family}: reference member {rid} differs from its small-file copy")
    return records, ref_ids, ref_rows


def score_detail(ref_ids: Sequence[str], ref_rows: Sequence[str], aligned_ids: Sequence[str],
                 aligned_rows: Sequence[str]) -> Detail:
    """Score an alignment of a family against its reference rows (see module docstring).

    Parameters
    ----------
    ref_ids, ref_rows : sequence of str
        The reference (from :func:`prepare` or :func:`read_reference`).
    aligned_ids, aligned_rows : sequence of str
        The whole test alignment (every sequence, or at least the reference members); rows of
        equal length, any case, ``-`` or ``.`` for gaps.

    Returns
    -------
    Detail
        SP; TC (exact columns, over all reference columns); bali_score's TC (columns of two
        or more residues, all in one test column).

    Raises
    ------
    bioplug.errors.InputError
        A reference member is missing from the test or its residues differ.
    """
    pos = {name: i for i, name in enumerate(aligned_ids)}
    missing = [r for r in ref_ids if r not in pos]
    if missing:
        from bioplug.errors import InputError

        raise InputError(f"test alignment lacks reference members: {', '.join(missing[:5])}")
    test = [_norm(aligned_rows[pos[r]]) for r in ref_ids]
    test = _drop_gap_columns(test)
    ref = Reference(list(ref_ids), list(ref_rows), np.ones(len(ref_rows[0]), dtype=bool))
    sp, tc_multi = sp_tc(list(ref_ids), test, ref)  # also checks the residues
    rc = _columns(list(ref_rows))                  # (k, C) residue index or -1
    tr = _columns(test) >= 0                       # (k, Lt) residue present
    tcol = np.full(rc.shape, -1, dtype=np.int64)   # test column of each reference residue
    for s in range(rc.shape[0]):
        ok = rc[s] >= 0
        tcol[s, ok] = np.flatnonzero(tr[s])[rc[s, ok]]
    has = rc >= 0
    nres = has.sum(axis=0)
    lo = np.where(has, tcol, np.iinfo(np.int64).max).min(axis=0)
    hi = tcol.max(axis=0)                          # -1 where the column is empty
    occupancy = tr.sum(axis=0)                     # reference residues in each test column
    together = (lo == hi) & (nres > 0)
    exact = together & (occupancy[np.clip(hi, 0, None)] == nres)
    columns = int((nres > 0).sum())
    return Detail(sp, float(exact.sum() / columns) if columns else 0.0, tc_multi, columns,
                  int((nres >= 2).sum()))


def score(family: str, aligned_ids: Sequence[str], aligned_rows: Sequence[str],
          root: str | os.PathLike | None = None) -> tuple[float, float]:
    """SP and TC (fractions in [0, 1]) of an alignment of ``family`` (see module docstring)."""
    ref_ids, ref_rows = read_reference(family, root)
    d = score_detail(ref_ids, ref_rows, aligned_ids, aligned_rows)
    return d.sp, d.tc


def write_input(records: Sequence[SeqRecord], path: str | os.PathLike) -> None:
    """Write records as plain FASTA (one line per sequence)."""
    with open(path, "w") as fh:
        fh.writelines(f">{r.id}\n{r.seq}\n" for r in records)


def _pyfamsa(records: Sequence[SeqRecord], threads: int) -> tuple[list[str], list[str], float]:
    import pyfamsa

    seqs = [pyfamsa.Sequence(r.id.encode(), str(r.seq).encode()) for r in records]
    aligner = pyfamsa.Aligner(threads=threads)
    t0 = time.perf_counter()
    aln = aligner.align(seqs)
    wall = time.perf_counter() - t0
    return [g.id.decode() for g in aln], [g.sequence.decode() for g in aln], wall


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=None, help="HomFam folder (ref/, small/)")
    ap.add_argument("--families", default=None, help="comma-separated family names")
    ap.add_argument("--first", type=int, default=None, help="first N families (sorted)")
    ap.add_argument("--check", action="store_true",
                    help="prepare every family and score its reference against itself")
    ap.add_argument("--pyfamsa", action="store_true", help="align with pyfamsa and score")
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--score", nargs=2, metavar=("FAMILY", "ALN"), default=None)
    ap.add_argument("--write", default=None, metavar="DIR", help="write DIR/<family>.fa inputs")
    args = ap.parse_args(argv)
    root = Path(args.root) if args.root else default_root()
    if args.score:
        ids, rows = read_alignment(args.score[1])
        ref_ids, ref_rows = read_reference(args.score[0], root)
        d = score_detail(ref_ids, ref_rows, ids, rows)
        print(f"{args.score[0]}: SP {100 * d.sp:.2f} TC {100 * d.tc:.2f} "
              f"(TC over columns of >= 2 residues {100 * d.tc_multi:.2f})")
        return 0
    names = args.families.split(",") if args.families else families(root)
    if args.first:
        names = names[:args.first]
    if args.write:
        Path(args.write).mkdir(parents=True, exist_ok=True)
    bad, rows_out = 0, []
    for fam in names:
        records, ref_ids, ref_rows = prepare(fam, root)
        if args.write:
            write_input(records, Path(args.write) / f"{fam}.fa")
        if args.check:
            d = score_detail(ref_ids, ref_rows, ref_ids, ref_rows)
            if (d.sp, d.tc) != (1.0, 1.0):
                bad += 1
                print(f"{fam}: reference scores SP {d.sp} TC {d.tc} against itself")
        if args.pyfamsa:
            ids, rows, wall = _pyfamsa(records, args.threads)
            d = score_detail(ref_ids, ref_rows, ids, rows)
            rows_out.append((d.sp, d.tc, d.tc_multi, wall))
            print(f"{fam:<18} {len(records):>6} seqs {len(ref_ids):>3} refs  SP {100 * d.sp:6.2f}"
                  f"  TC {100 * d.tc:6.2f}  (TC>=2 {100 * d.tc_multi:6.2f})  {wall:7.2f} s",
                  flush=True)
    if args.check:
        print(f"checked {len(names)} families: {len(names) - bad} score 100 / 100")
    if rows_out:
        m = np.mean(rows_out, axis=0)
        print(f"pyfamsa ({args.threads} threads) over {len(rows_out)} families: SP {100 * m[0]:.2f}"
              f" TC {100 * m[1]:.2f} (TC>=2 {100 * m[2]:.2f}); {m[3] * len(rows_out):.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
