"""Database search benchmark: ``bioplug.pairwise.search.search`` vs parasail and SSEARCH, in one
run.

Data (seeded, synthetic):

* **Database**: ``--n`` proteins (default 500,000) with a Swiss-Prot-like length
  distribution: lognormal with median 282 and sigma 0.70 (mean about 360 residues, as
  UniProtKB/Swiss-Prot's release statistics give), clipped to 5..35,213 (Swiss-Prot's
  shortest and longest entries); residues drawn with Swiss-Prot's amino-acid composition.
  It is written as FASTA to a temporary directory and indexed on first use.
* **Queries**: ``--queries`` (default 20) proteins with lengths spaced logarithmically from
  100 to 5,000, drawn like the database.

Scoring: BLOSUM62, BLAST gap costs 11 / 1 (a gap of length k costs 11 + k; Biopython
-12 / -1; parasail open 12, extend 1), local.

* **bioplug**: ``search(queries, DB.fa, top=10)`` (scan, 32-bit rescue, traceback of the
  hits, statistics) with the index already built, wall time; the index build is timed
  separately (``first search`` = build + search).
* **parasail**: ``sw_striped_profile_sat`` over ``--processes`` worker processes (default 16)
  on a random subset of ``--parasail-seqs`` database sequences, every query; its GCUPS on the
  subset are extrapolated *by cells* to the whole database (the table says so). Every
  query's scores against 5,000 of those sequences are checked against bioplug's scan first.
* **CUDASW++ 4.0** (``--cudasw DIR``: a folder holding its ``makedb`` and ``align``, built
  from https://github.com/asbschmidt/CUDASW4 for the device; skipped without it): ``makedb`` on
  the same database FASTA (timed apart, as bioplug's index), then ``align --top 10 --gop -12
  --gex -1`` (its gap of length k costs -gop + (k - 1) gex: the same scheme; its release's
  ``align`` parses these two options but never passes them on, scoring -11 / -1 whatever is
  given, so the build must add the two setter calls to ``src/main.cu``) with its DPX
  16-bit kernels (``--dpx``) and with its default half2 kernels. Its own GCUPS (the scans) and
  the wall of the process (database loading and transfer included) are both reported, and each
  query's ten best scores must equal bioplug's.
* **SSEARCH** (``ssearch36`` of the FASTA package, Debian ``fasta3``; skipped when not on the
  PATH): ``-T --processes`` threads, ``-s BL62 -f -11 -g -1`` (the same scheme: a gap of
  length k costs 11 + k), 10 hits a query, no alignments shown, on the same subset as
  parasail, extrapolated by cells. Its best raw scores per query must equal the top scores
  of bioplug's search of that subset.

GCUPS = (sum of query lengths) x (database residues) / seconds / 1e9.

As users run it: ``bioplug search q.fa db.fa -o hits.tsv`` in its own process (the index
already built by the in-process runs; median of ``--repeats`` calls, the hits checked against
the in-process ones), beside the in-process wall time and the peers of the same run.

The split of the scan stage is printed too: the ``search16`` kernel (one work-item per pair),
the ``search16_long`` kernel (a work-group per pair of more than ``LONG_PAIR_CELLS`` cells),
both from OpenCL profiling events, the 32-bit rescue of saturated pairs, and the host glue
(the rest: upload, planning, read-back, top-k merge). With ``--precision 8`` (or "auto") the
first pass is ``search8`` (four pairs per 32-bit word, saturating bytes), printed as ``scan
kernel 8-bit``; ``scan kernel`` is then the 16-bit rescue of saturated pairs. ``--sweep`` also
times the scan alone for other strip heights, group sizes, cell forms, and 8 vs 16 bits (8-bit
with inline PTX and with OpenCL's ``uchar4`` built-ins, two strip heights).

Run: ``python benchmarks/search.py [--device gpu|all|A,B] [--n 500000] [--precision auto|8|16]
[--sweep] [--json out.json]`` (``all``: every GPU shares the search).
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing as mp
import platform
import re
import shutil
import subprocess
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

log = logging.getLogger("benchmarks.search")

AMINO = "ARNDCQEGHILKMFPSTWYV"
#: Swiss-Prot amino-acid composition (%, UniProtKB/Swiss-Prot release statistics), AMINO order.
COMPOSITION = np.array([8.25, 5.53, 4.06, 5.45, 1.37, 3.93, 6.75, 7.07, 2.27, 5.96, 9.66,
                        5.84, 2.42, 3.86, 4.70, 6.56, 5.34, 1.08, 2.92, 6.87])
MEDIAN, SIGMA, SHORTEST, LONGEST = 282.0, 0.70, 5, 35213


def lengths(n: int, rng) -> np.ndarray:
    drawn = rng.lognormal(np.log(MEDIAN), SIGMA, n)
    return np.clip(np.rint(drawn), SHORTEST, LONGEST).astype(np.int64)


def proteins(lens: np.ndarray, rng) -> tuple[bytes, np.ndarray]:
    """All residues in one byte string, and the start of each protein."""
    p = COMPOSITION / COMPOSITION.sum()
    letters = np.frombuffer(AMINO.encode(), dtype=np.uint8)
    codes = letters[rng.choice(len(AMINO), int(lens.sum()), p=p)]
    starts = np.concatenate([[0], np.cumsum(lens)])
    return codes.tobytes(), starts


def write_database(path: Path, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    lens = lengths(n, rng)
    text, starts = proteins(lens, rng)
    with open(path, "wb") as out:
        for k in range(n):
            out.write(b">db%d\n%b\n" % (k, text[starts[k]:starts[k + 1]]))
    return lens


def make_queries(count: int, seed: int, shortest: int = 100, longest: int = 5000) -> list[str]:
    rng = np.random.default_rng(seed + 1)
    lens = np.rint(np.geomspace(shortest, longest, count)).astype(np.int64)
    text, starts = proteins(lens, rng)
    return [text[starts[k]:starts[k + 1]].decode() for k in range(count)]


# -- parasail ----------------------------------------------------------------------------------
_WORK: dict = {}


def _parasail_init(queries, subjects):
    import parasail

    _WORK.update(queries=queries, subjects=subjects, matrix=parasail.blosum62)


def _parasail_task(task):
    import parasail

    q, a, b = task
    profile = parasail.profile_create_sat(_WORK["queries"][q], _WORK["matrix"])
    return q, a, [parasail.sw_striped_profile_sat(profile, s, 12, 1).score
                  for s in _WORK["subjects"][a:b]]


def parasail_scores(queries, subjects, processes: int, block: int = 500) -> np.ndarray:
    tasks = [(q, a, min(a + block, len(subjects))) for q in range(len(queries))
             for a in range(0, len(subjects), block)]
    out = np.zeros((len(queries), len(subjects)), dtype=np.int64)
    with mp.get_context("fork").Pool(processes, _parasail_init, (queries, subjects)) as pool:
        for q, a, scores in pool.imap_unordered(_parasail_task, tasks, chunksize=1):
            out[q, a:a + len(scores)] = scores
    return out


# -- the run -----------------------------------------------------------------------------------
def check_against_parasail(args, queries, subjects, scanner_scores) -> None:
    ref = parasail_scores(queries, subjects[:5000], args.processes)
    got = scanner_scores
    assert np.array_equal(np.where(ref > 0, ref, 0), got), "parasail and bioplug disagree"
    log.info("parasail and bioplug agree on %d pairs", ref.size)


def scan_scores(device, queries, subjects, precision=None) -> np.ndarray:
    """Every score of queries x subjects from the scan (no traceback)."""
    from bioplug.pairwise.scan import Scanner
    from bioplug.pairwise.search import _as_database, _scheme
    from bioplug.progress import Progress
    from bioplug.runtime import get_runtime

    scoring = _scheme(None, "BLOSUM62", 11, 1, None)[0]
    db = _as_database(subjects, scoring)
    scanner = Scanner(get_runtime(device), scoring, precision=precision)
    best = scanner.scan([scoring.encode(q) for q in queries], db, len(subjects), None,
                        Progress())
    out = np.zeros((len(queries), len(subjects)), dtype=np.int64)
    for q, (scores, numbers) in enumerate(best):
        out[q, numbers] = scores
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default=None)
    parser.add_argument("--n", type=int, default=500_000, help="database proteins")
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--query-lengths", default="100,5000", metavar="MIN,MAX",
                        help="the queries' lengths, spaced logarithmically (default 100,5000)")
    parser.add_argument("--parasail-seqs", type=int, default=20_000,
                        help="the CPU peers' database subset (0: no CPU peers)")
    parser.add_argument("--processes", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--json", default=None)
    parser.add_argument("--precision", choices=["auto", "8", "16"], default=None,
                        help="the scan's first pass (default: the library's, 16 for now)")
    parser.add_argument("--cudasw", default=None, metavar="DIR",
                        help="a folder with CUDASW++ 4.0's makedb and align: run it too")
    parser.add_argument("--sweep", action="store_true",
                        help="also time the scan for other strip heights / groups / cell "
                             "forms and 8 vs 16 bits")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from bioplug.pairwise.search import search
    from bioplug.runtime import get_runtimes

    # "all" (every GPU) or "A,B": the search shares its chunks between them
    spec = args.device
    devices = get_runtimes(spec.split(",") if spec and "," in spec else spec)
    rt = devices[0]
    queries = make_queries(args.queries, args.seed,
                           *map(int, args.query_lengths.split(",")))
    tmp = Path(tempfile.mkdtemp(prefix="bioplug-search-"))
    fasta = tmp / "db.fa"
    t0 = time.perf_counter()
    lens = write_database(fasta, args.n, args.seed)
    log.info("database: %d proteins, %d residues (mean %.0f, max %d), written in %.1f s",
             args.n, lens.sum(), lens.mean(), lens.max(), time.perf_counter() - t0)
    cells = float(sum(map(len, queries))) * float(lens.sum())
    prec = args.precision
    search(queries[:2], ["MKWVTFISLL", "ACDEFGHIKLMNPQ"], device=devices,
           precision=prec)  # builds
    t0 = time.perf_counter()
    first = search(queries, fasta, top=10, device=devices, precision=prec)
    t_first = time.perf_counter() - t0
    walls, clocks = [], []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        res = search(queries, fasta, top=10, device=devices, precision=prec)
        walls.append(time.perf_counter() - t0)
        clocks.append(res.seconds)
    assert res.tabular() == first.tabular()
    wall = float(np.median(walls))
    scan = float(np.median([c["scan"] for c in clocks]))
    split = scan_split(clocks, cells)
    result = {"device": " + ".join(map(str, devices)),
              "date": datetime.now(timezone.utc).isoformat(timespec="minutes"),
              "host": platform.node(), "precision": prec, "n": args.n, "residues": int(lens.sum()),
              "query_residues": sum(map(len, queries)), "cells": cells,
              "first_search_s": t_first, "wall_s": wall, "scan_s": scan,
              "stages_s": clocks[-1], "gcups_wall": cells / wall / 1e9,
              "gcups_scan": cells / scan / 1e9, "split_s": split}
    log.info("bioplug: first search (index build) %.1f s; search %.2f s wall (scan %.2f s): "
             "%.0f GCUPS wall, %.0f GCUPS scan stage", t_first, wall, scan,
             result["gcups_wall"], result["gcups_scan"])
    result.update(run_cli(args.device, queries, tmp, first.tabular(), cells, args.repeats))
    if args.sweep:
        result["sweep"] = sweep(rt, queries, fasta, cells)
    if args.cudasw:
        result.update(run_cudasw(Path(args.cudasw), queries, tmp, first, cells, args.repeats))
    if args.parasail_seqs:
        result.update(run_parasail(args, queries, rt))
        result.update(run_ssearch(args, queries, rt, tmp))
    if "ssearch_gcups" in result:
        log.info("SSEARCH (%d threads, %d-sequence subset): %.1f GCUPS -> whole database %.0f s "
                 "(extrapolated by cells); bioplug x%.0f", args.processes, args.parasail_seqs,
                 result["ssearch_gcups"], cells / result["ssearch_gcups"] / 1e9,
                 result["gcups_wall"] / result["ssearch_gcups"])
    if "parasail_gcups" in result:
        result["speedup_wall"] = result["gcups_wall"] / result["parasail_gcups"]
        log.info("parasail (%d processes, %d-sequence subset): %.1f GCUPS -> whole database "
                 "%.0f s (extrapolated by cells); bioplug x%.0f", args.processes,
                 args.parasail_seqs, result["parasail_gcups"],
                 cells / result["parasail_gcups"] / 1e9, result["speedup_wall"])
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


def run_cli(device, queries, tmp: Path, expected: str, cells: float, repeats: int) -> dict:
    """``bioplug search q.fa db.fa -o hits.tsv`` in its own process, as users run it (the
    index is already beside the database, built by the in-process runs): median wall of
    ``repeats`` calls, each file checked against the in-process hits."""
    import sys

    qfile, out = tmp / "q.fa", tmp / "hits.tsv"
    qfile.write_text("".join(f">q{i}\n{q}\n" for i, q in enumerate(queries)))
    cmd = [sys.executable, "-m", "bioplug", "-q", "--no-server", "search", str(qfile),
           str(tmp / "db.fa"), "-o", str(out)] + (["--device", device] if device else [])
    def hits(text: str) -> list[str]:   # the query names differ (q0.. in the file)
        return [line.split("\t", 1)[1] for line in text.splitlines()]

    walls = []
    for _ in range(max(repeats, 1)):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True)
        walls.append(time.perf_counter() - t0)
        if hits(out.read_text()) != hits(expected):
            raise SystemExit("bioplug search (CLI) wrote other hits than search()")
    wall = float(np.median(walls))
    log.info("bioplug search (CLI, own process, hits written): %.2f s = %.0f GCUPS", wall,
             cells / wall / 1e9)
    return {"cli_wall_s": wall, "gcups_cli": cells / wall / 1e9}


def scan_split(clocks: list[dict], cells: float) -> dict:
    """Medians over the repeats of the stages and the scan's parts, logged with GCUPS."""
    keys = sorted({k for c in clocks for k in c})
    split = {k: float(np.median([c.get(k, 0.0) for c in clocks])) for k in keys}
    parts = sum(v for k, v in split.items() if k.startswith("scan: "))
    split["scan: host glue"] = split.get("scan", 0.0) - parts
    for key, value in split.items():
        rate = f"{cells / value / 1e9:8.0f} GCUPS" if "kernel" in key and value else ""
        log.info("  %-28s %8.3f s %s", key, value, rate)
    return split


def sweep(rt, queries, fasta, cells) -> list[dict]:
    """The scan alone (kernels, rescue, glue) for other kernel settings."""
    from bioplug.pairwise.scan import Scanner
    from bioplug.pairwise.search import _as_database, _scheme
    from bioplug.progress import Progress

    scoring = _scheme(None, "BLOSUM62", 11, 1, None)[0]
    db = _as_database(str(fasta), scoring)
    tiny = _as_database(queries[:4], scoring)
    qcodes = [scoring.encode(q) for q in queries]
    rows = [{"precision": "16"}, {"precision": "16", "rows": 32},
            {"precision": "16", "group": 64}, {"precision": "16", "group": 256},
            {"precision": "16", "hform": False}, {"precision": "16", "long_cells": 1 << 26},
            {"precision": "8"}, {"precision": "8", "ptx8": False},
            {"precision": "8", "rows8": 16}, {"precision": "8", "group": 256}]
    out = []
    for settings in rows:
        scanner = Scanner(rt, scoring)
        for name, value in settings.items():
            setattr(scanner, name, value)
        scanner.scan(qcodes, tiny, 10, None, Progress())  # builds the variant
        scanner.timings, scanner.counts = {}, {}
        t0 = time.perf_counter()
        scanner.scan(qcodes, db, 10, None, Progress())
        wall = time.perf_counter() - t0
        row = {**settings, "scan_wall_s": wall, **scanner.timings,
               **{f"{k} pairs": v for k, v in scanner.counts.items()}}
        kernel = sum(v for k, v in scanner.timings.items() if "kernel" in k)
        log.info("sweep %s: scan %.2f s wall (%.0f GCUPS), kernels %.2f s (%.0f GCUPS) %s %s",
                 settings, wall, cells / wall / 1e9, kernel, cells / kernel / 1e9,
                 {k: round(v, 3) for k, v in scanner.timings.items()}, scanner.counts)
        out.append(row)
    return out


def run_cudasw(where: Path, queries, tmp: Path, first, cells: float, repeats: int) -> dict:
    """CUDASW++ 4.0 on the same database and queries: its database build, then its DPX and
    half2 kernels (wall of the process and its own scan GCUPS, medians of ``repeats``)."""
    qfile, db, out = tmp / "cudasw_q.fa", tmp / "cudaswdb" / "db", tmp / "cudasw.tsv"
    qfile.write_text("".join(f">q{i}\n{q}\n" for i, q in enumerate(queries)))
    db.parent.mkdir(exist_ok=True)
    t0 = time.perf_counter()
    subprocess.run([str(where / "makedb"), str(tmp / "db.fa"), str(db)], check=True,
                   capture_output=True)
    result = {"cudasw_makedb_s": time.perf_counter() - t0}
    ours = [sorted((h.score for h in hits), reverse=True) for hits in first.hits]
    for kernel, flags in (("dpx", ["--dpx"]), ("half2", [])):
        cmd = [str(where / "align"), "--query", str(qfile), "--db", str(db), "--top", "10",
               "--gop", "-12", "--gex", "-1", "--tsv", "--of", str(out), "--verbose", *flags]
        walls, rates = [], []
        for _ in range(max(repeats, 1) + 1):      # the first call warms the driver
            t0 = time.perf_counter()
            text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            walls.append(time.perf_counter() - t0)
            total = re.search(r"Total time: ([\d.e+-]+) s, ([\d.e+-]+) GCUPS", text)
            rates.append((float(total.group(1)), float(total.group(2))) if total else
                         (float("nan"), float("nan")))
        theirs = [[] for _ in queries]
        for line in out.read_text().splitlines():
            fields = line.split("\t")
            if fields[0].isdigit():
                theirs[int(fields[0])].append(int(fields[4]))
        theirs = [sorted(s, reverse=True) for s in theirs]
        if theirs != ours:
            raise SystemExit(f"CUDASW++ ({kernel}) and bioplug disagree on the top scores")
        wall = float(np.median(walls[1:]))
        scan_s, gcups = np.median(np.array(rates[1:]), axis=0)
        log.info("CUDASW++ 4.0 %s: process %.2f s (%.0f GCUPS), its scans %.2f s = %.0f GCUPS "
                 "(its own count); the same top scores", kernel, wall, cells / wall / 1e9,
                 scan_s, gcups)
        result.update({f"cudasw_{kernel}_wall_s": wall, f"cudasw_{kernel}_scan_s": float(scan_s),
                       f"cudasw_{kernel}_gcups_own": float(gcups),
                       f"cudasw_{kernel}_gcups_wall": cells / wall / 1e9})
    log.info("CUDASW++ 4.0 makedb %.1f s", result["cudasw_makedb_s"])
    return result


def subset(args) -> tuple[list[str], np.ndarray]:
    """The database subset the CPU peers scan (seeded apart from the database)."""
    rng = np.random.default_rng(args.seed + 2)
    sub_lens = lengths(args.parasail_seqs, rng)
    text, starts = proteins(sub_lens, rng)
    return [text[starts[k]:starts[k + 1]].decode() for k in range(len(sub_lens))], sub_lens


def run_ssearch(args, queries, rt, tmp: Path) -> dict:
    """SSEARCH on the peers' subset: wall time, and its best scores against bioplug's."""
    if shutil.which("ssearch36") is None:
        log.info("ssearch36 is not installed (Debian: fasta3): skipped")
        return {}
    subjects, sub_lens = subset(args)
    qfile, dfile = tmp / "queries.fa", tmp / "subset.fa"
    qfile.write_text("".join(f">q{k}\n{q}\n" for k, q in enumerate(queries)))
    dfile.write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(subjects)))
    cmd = ["ssearch36", "-q", "-p", "-s", "BL62", "-f", "-11", "-g", "-1", "-T",
           str(args.processes), "-b", "10", "-d", "0", "-E", "1e9", str(qfile), str(dfile)]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    t = time.perf_counter() - t0
    listed = ssearch_hits(out)
    ours = scan_scores(rt, queries, subjects, args.precision)
    for k, hits in enumerate(listed):
        for subject, score in hits:
            assert ours[k, subject] == score, \
                f"SSEARCH and bioplug disagree: q{k} s{subject}: {score} vs {ours[k, subject]}"
    log.info("SSEARCH and bioplug agree on all %d listed hits", sum(map(len, listed)))
    sub_cells = float(sum(map(len, queries))) * float(sub_lens.sum())
    return {"ssearch_s": t, "ssearch_cells": sub_cells, "ssearch_gcups": sub_cells / t / 1e9,
            "ssearch_threads": args.processes, "ssearch_command": " ".join(cmd[:-2])}


def ssearch_hits(text: str) -> list[list[tuple[int, int]]]:
    """Each query's listed hits as (subject number, raw ``opt`` score), from ssearch36's
    lists ("s<k> ( len) opt bits E" under "The best scores are:", ordered by E-value), in
    query order."""
    line = re.compile(r"^s(\d+)\s.*\(\s*\d+\)\s+(-?\d+)\s")
    return [[(int(m.group(1)), int(m.group(2))) for m in map(line.match, block.splitlines())
             if m] for block in text.split("The best scores are:")[1:]]


def run_parasail(args, queries, rt) -> dict:
    try:
        import parasail  # noqa: F401
    except ImportError:
        log.info("parasail is not installed: skipped")
        return {}
    subjects, sub_lens = subset(args)
    # every query (long pairs on search16_long included) x 5,000 subjects
    check_against_parasail(args, queries, subjects,
                           scan_scores(rt, queries, subjects[:5000], args.precision))
    t0 = time.perf_counter()
    parasail_scores(queries, subjects, args.processes)
    t = time.perf_counter() - t0
    sub_cells = float(sum(map(len, queries))) * float(sub_lens.sum())
    return {"parasail_s": t, "parasail_cells": sub_cells,
            "parasail_gcups": sub_cells / t / 1e9, "parasail_processes": args.processes}


if __name__ == "__main__":
    main()
