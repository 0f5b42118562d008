"""Pairwise alignment benchmark: bioplug vs Biopython vs parasail, in one run.

All-vs-all of N random proteins (lengths 50-1,000, seeded), score only and with traceback,
plus one long pair (default 30,000 x 30,000, the second a mutated copy of the first so the
optimal path is long) with traceback. Scoring: BLOSUM62, gap open 11 / extend 1 (a gap of
length k costs 11 + (k - 1); Biopython scores -11 / -1, parasail penalties 11 / 1, which
mean the same), mode local (``--mode`` global / semiglobal / local).

* **bioplug**: ``PairwiseAligner.score_matrix`` (score only; the device also computes the
  diagonal, which is not counted) and ``PairwiseEngine.trace_indexed`` over every pair i < j
  (device traceback; results kept as compact arrays, no Python ``Alignment`` objects), wall
  time; and the same work's kernel time alone (OpenCL profiling events, printed per kernel).
  Local tracebacks take the engine's default path (``windowed_traceback=True``: directions
  for each path's rectangle only; False keeps whole matrices); the rows
  "traceback, windowed" and "traceback, whole matrices" time both paths. For local mode also
  the triangle alone (``allpairs.score_triangle``, no square built) from the engine's windows
  ("fill") and from the database scan's query-profile kernels ("scan").
* **Biopython**: ``Bio.Align.PairwiseAligner`` in one thread on a random subsample of pairs;
  its GCUPS are measured on the subsample and the all-vs-all time is *extrapolated by
  cells* (the table says so).
* **parasail**: striped SIMD, ``sw_/nw_/sg_striped_profile_sat`` (score) and
  ``*_trace_striped_sat`` (traceback) over all host cores (multiprocessing, one profile per
  row). Tracebacks run on a subsample (``--parasail-trace-pairs``) and are extrapolated by
  cells.

GCUPS = sum over pairs i < j of len_i * len_j / seconds / 1e9 (seed 001's measure). Each
timing is the median of ``--repeats`` runs after a warm-up (kernel builds, caches). A sample
of bioplug's scores is checked against Biopython and parasail before timing.

Run: ``python benchmarks/pairwise.py [--device gpu] [--n 2000] [--long 30000] [--json out]``
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import statistics
import sys
import time
from datetime import datetime, timezone

import numpy as np

AMINO = "ARNDCQEGHILKMFPSTWYV"
OPEN, EXTEND = 11, 1


# -- data -------------------------------------------------------------------------------------
def random_proteins(n: int, seed: int, low: int = 50, high: int = 1000) -> list[str]:
    rng = np.random.default_rng(seed)
    letters = np.array(list(AMINO))
    lengths = rng.integers(low, high + 1, n)
    return ["".join(rng.choice(letters, k)) for k in lengths]


def mutated_pair(length: int, seed: int) -> tuple[str, str]:
    """A random protein and a copy with ~15% substitutions and short indels."""
    rng = np.random.default_rng(seed)
    letters = np.array(list(AMINO))
    a = rng.choice(letters, length)
    out = []
    i = 0
    while i < length:
        r = rng.random()
        if r < 0.10:
            out.append(rng.choice(letters))
            i += 1
        elif r < 0.12:
            i += int(rng.integers(1, 8))  # deletion
        elif r < 0.14:
            out.extend(rng.choice(letters, int(rng.integers(1, 8))))  # insertion
        else:
            out.append(a[i])
            i += 1
    return "".join(a), "".join(out)[:length]


def pair_cells(lengths: np.ndarray) -> float:
    total = float(lengths.sum())
    return (total * total - float((lengths.astype(np.float64) ** 2).sum())) / 2


# -- tools ------------------------------------------------------------------------------------
def make_aligner(mode: str, device):
    from Bio.Align import substitution_matrices

    from bioplug.pairwise.aligner import PairwiseAligner

    aligner = PairwiseAligner(device=device)
    aligner.mode = "local" if mode == "local" else "global"
    aligner.substitution_matrix = substitution_matrices.load("BLOSUM62")
    aligner.open_gap_score, aligner.extend_gap_score = -OPEN, -EXTEND
    if mode == "semiglobal":
        aligner.end_gap_score = 0.0
    return aligner


def biopython_aligner(mode: str):
    from Bio import Align
    from Bio.Align import substitution_matrices

    aligner = Align.PairwiseAligner()
    aligner.mode = "local" if mode == "local" else "global"
    aligner.substitution_matrix = substitution_matrices.load("BLOSUM62")
    aligner.open_gap_score, aligner.extend_gap_score = -OPEN, -EXTEND
    if mode == "semiglobal":
        aligner.end_gap_score = 0.0
    return aligner


_PREFIX = {"local": "sw", "global": "nw", "semiglobal": "sg"}
_WORK: dict = {}


def _parasail_init(seqs, mode, trace):
    import parasail

    _WORK["seqs"] = seqs
    _WORK["matrix"] = parasail.blosum62
    prefix = _PREFIX[mode]
    if trace:
        _WORK["fn"] = getattr(parasail, f"{prefix}_trace_striped_sat")
    else:
        _WORK["fn"] = getattr(parasail, f"{prefix}_striped_profile_sat")
    _WORK["trace"] = trace


def _parasail_row(task):
    """Scores of sequence i (profile) against the listed js."""
    import parasail

    i, js = task
    seqs = _WORK["seqs"]
    if _WORK["trace"]:
        out = []
        for j in js:
            r = _WORK["fn"](seqs[j], seqs[i], OPEN, EXTEND, _WORK["matrix"])
            _ = r.cigar  # force the traceback to be decoded
            out.append(r.score)
        return i, out
    profile = parasail.profile_create_sat(seqs[i], _WORK["matrix"])
    return i, [_WORK["fn"](profile, seqs[j], OPEN, EXTEND).score for j in js]


def parasail_run(seqs, tasks, mode, trace, processes) -> dict:
    ctx = mp.get_context("fork" if sys.platform != "win32" else "spawn")
    results = {}
    with ctx.Pool(processes, initializer=_parasail_init, initargs=(seqs, mode, trace)) as pool:
        for i, scores in pool.imap_unordered(_parasail_row, tasks, chunksize=1):
            results[i] = scores
    return results


def row_tasks(n: int, pairs: np.ndarray | None = None) -> list[tuple[int, list[int]]]:
    """Rows i -> [j > i] for all pairs, or grouped from an explicit (k, 2) pair list."""
    if pairs is None:
        return [(i, list(range(i + 1, n))) for i in range(n - 1)]
    rows: dict[int, list[int]] = {}
    for i, j in pairs:
        rows.setdefault(int(i), []).append(int(j))
    return sorted(rows.items())


# -- timing -----------------------------------------------------------------------------------
def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default=None, help="bioplug device (default: best)")
    parser.add_argument("--n", type=int, default=2000, help="number of proteins")
    parser.add_argument("--long", type=int, default=30000, help="long pair length (0: skip)")
    parser.add_argument("--mode", choices=["local", "global", "semiglobal"], default="local")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--bio-pairs", type=int, default=300,
                        help="Biopython subsample (pairs) for all-vs-all")
    parser.add_argument("--parasail-trace-pairs", type=int, default=20000,
                        help="parasail traceback subsample (pairs; 0: skip it)")
    parser.add_argument("--processes", type=int, default=os.cpu_count(),
                        help="parasail worker processes (default: all cores)")
    parser.add_argument("--no-biopython-long", action="store_true",
                        help="skip Biopython on the long pair")
    parser.add_argument("--json", default=None, help="write the results as JSON here")
    args = parser.parse_args(argv)

    seqs = random_proteins(args.n, args.seed)
    lengths = np.array([len(s) for s in seqs])
    cells = pair_cells(lengths)
    npairs = args.n * (args.n - 1) // 2
    ii, jj = np.triu_indices(args.n, k=1)
    rng = np.random.default_rng(args.seed + 1)
    aligner = make_aligner(args.mode, args.device)
    bio = biopython_aligner(args.mode)
    from bioplug.pairwise.engine import PairwiseEngine

    scoring = aligner.device_scoring(seqs)
    engine = PairwiseEngine(scoring, devices=args.device)
    codes = [scoring.encode(s) for s in seqs]
    runtime = engine.runtimes[0]
    print(f"device: {runtime.info.name} [{runtime.info.platform}]", file=sys.stderr)
    print(f"{args.n} proteins, {npairs} pairs, {cells / 1e9:.2f} Gcells, mode {args.mode}",
          file=sys.stderr)

    # correctness sample first
    sample = rng.choice(npairs, size=min(50, npairs), replace=False)
    got = aligner.score_many([seqs[ii[k]] for k in sample], [seqs[jj[k]] for k in sample])
    want = [bio.score(seqs[ii[k]], seqs[jj[k]]) for k in sample]
    assert np.array_equal(got, want), "bioplug and Biopython disagree"
    try:
        import parasail  # noqa: F401

        have_parasail = True
    except ImportError:
        have_parasail = False
    if have_parasail:
        tasks = row_tasks(args.n, np.c_[ii[sample], jj[sample]])
        check = parasail_run(seqs, tasks, args.mode, False, 1)
        flat = {}
        for i, js in tasks:
            for j, score in zip(js, check[i], strict=True):
                flat[i, j] = score
        for k, w in zip(sample, want, strict=True):
            assert flat[int(ii[k]), int(jj[k])] == w, "parasail and Biopython disagree"

    results: dict = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "device": f"{runtime.info.name} [{runtime.info.platform}]",
        "host": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "command": " ".join([os.path.basename(sys.argv[0])] + (argv or sys.argv[1:])),
        "n": args.n, "pairs": npairs, "cells": cells, "mode": args.mode, "rows": [],
    }

    def row(tool, task, seconds, gcells, note=""):
        gcups = gcells / seconds if seconds > 0 else float("nan")
        results["rows"].append(dict(tool=tool, task=task, seconds=seconds, gcups=gcups,
                                    note=note))
        print(f"  {tool:<10} {task:<26} {seconds:10.3f} s {gcups:9.2f} GCUPS {note}",
              file=sys.stderr)

    # warm-up: kernel builds and caches
    warm = seqs[:32]
    aligner.score_matrix(warm)
    engine.trace_indexed(codes[:32], *np.triu_indices(len(warm), k=1))

    # -- all-vs-all, score only
    t = median_time(lambda: aligner.score_matrix(seqs), args.repeats)
    row("bioplug", "all-vs-all score", t, cells / 1e9, "(diagonal computed, not counted)")
    if args.mode == "local":   # the same triangle through the database scan's kernels
        from bioplug.pairwise import allpairs

        allpairs.score_triangle(engine, codes[:32], kernels="scan")
        for kernels in ("fill", "scan"):
            t = median_time(lambda k=kernels: allpairs.score_triangle(engine, codes, kernels=k),
                            args.repeats)
            row("bioplug", f"score triangle, {kernels}", t, cells / 1e9,
                "(allpairs.score_triangle: no square built)")
    t = median_time(lambda: engine.trace_indexed(codes, ii, jj), max(1, args.repeats // 2))
    path = "windowed" if engine._windowed() else "whole matrices"
    row("bioplug", "all-vs-all traceback", t, cells / 1e9, f"(device traceback, {path})")
    # Kernel time alone (OpenCL profiling events), to show what the host adds.
    engine.timings = {}
    engine.score_all(codes)
    row("bioplug", "score, kernels only", sum(engine.timings.values()), cells / 1e9,
        "(fill kernel time; diagonal included)")
    engine.timings = {}
    engine.trace_indexed(codes, ii, jj)
    row("bioplug", "traceback, kernels only", sum(engine.timings.values()), cells / 1e9,
        "(fill + traceback kernel time)")
    results["traceback_kernels_s"] = dict(engine.timings)
    print("  traceback kernels: " + ", ".join(f"{k} {v:.3f} s" for k, v in
                                              engine.timings.items()), file=sys.stderr)
    engine.timings = None
    if args.mode == "local":  # both local paths, whichever the device's default is
        traces = {}
        for windowed, what in ((True, "windowed"), (False, "whole matrices")):
            engine.windowed_traceback = windowed
            traces[windowed] = engine.trace_indexed(codes, ii, jj)  # warm: kernels built
            t = median_time(lambda: engine.trace_indexed(codes, ii, jj),
                            max(1, args.repeats // 2))
            row("bioplug", f"traceback, {what}", t, cells / 1e9,
                f"(windowed_traceback={windowed}; after a warm-up run)")
        engine.windowed_traceback = True
        # the two paths must agree: every score, and the paths of a sample of pairs
        sample = rng.choice(npairs, size=min(2000, npairs), replace=False)
        same = np.array_equal(traces[True].scores, traces[False].scores) and all(
            np.array_equal(traces[True].coordinates(k), traces[False].coordinates(k))
            for k in sample.tolist())
        print(f"  windowed == whole matrices: {same} (all scores, {len(sample)} paths)",
              file=sys.stderr)
        results["windowed_equals_whole"] = bool(same)

    sub = rng.choice(npairs, size=min(args.bio_pairs, npairs), replace=False)
    sub_cells = float((lengths[ii[sub]] * lengths[jj[sub]]).sum())
    t = median_time(lambda: [bio.score(seqs[ii[k]], seqs[jj[k]]) for k in sub], 1)
    row("Biopython", "all-vs-all score", t * cells / sub_cells, cells / 1e9,
        f"(1 thread, {len(sub)} pairs, extrapolated by cells)")
    sub_t = sub[: max(1, len(sub) // 3)]
    sub_t_cells = float((lengths[ii[sub_t]] * lengths[jj[sub_t]]).sum())
    t = median_time(lambda: [bio.align(seqs[ii[k]], seqs[jj[k]])[0] for k in sub_t], 1)
    row("Biopython", "all-vs-all traceback", t * cells / sub_t_cells, cells / 1e9,
        f"(1 thread, {len(sub_t)} pairs, extrapolated by cells)")

    if have_parasail:
        tasks = row_tasks(args.n)
        tasks.sort(key=lambda task: -len(task[1]))
        t = median_time(lambda: parasail_run(seqs, tasks, args.mode, False, args.processes),
                        args.repeats)
        row("parasail", "all-vs-all score", t, cells / 1e9,
            f"(striped sat, {args.processes} processes)")
    if have_parasail and args.parasail_trace_pairs > 0:
        psub = rng.choice(npairs, size=min(args.parasail_trace_pairs, npairs), replace=False)
        psub_cells = float((lengths[ii[psub]] * lengths[jj[psub]]).sum())
        ptasks = row_tasks(args.n, np.c_[ii[psub], jj[psub]])
        t = median_time(lambda: parasail_run(seqs, ptasks, args.mode, True, args.processes), 1)
        row("parasail", "all-vs-all traceback", t * cells / psub_cells, cells / 1e9,
            f"({args.processes} processes, {len(psub)} pairs, extrapolated by cells)")

    # -- one long pair with traceback
    if args.long:
        a, b = mutated_pair(args.long, args.seed + 2)
        long_cells = len(a) * len(b) / 1e9
        ca, cb = scoring.encode(a), scoring.encode(b)
        engine.align_pairs([ca[:500]], [cb[:500]])
        t = median_time(lambda: engine.align_pairs([ca], [cb]), args.repeats)
        row("bioplug", f"{args.long} pair traceback", t, long_cells)
        if not args.no_biopython_long:
            t = median_time(lambda: bio.score(a, b), 1)
            row("Biopython", f"{args.long} pair score", t, long_cells, "(score only, 1 thread)")
        if have_parasail:
            import parasail

            fn = getattr(parasail, f"{_PREFIX[args.mode]}_trace_striped_sat")
            t = median_time(lambda: fn(b, a, OPEN, EXTEND, parasail.blosum62).cigar, 1)
            row("parasail", f"{args.long} pair traceback", t, long_cells, "(1 thread)")

    # -- table
    print()
    print(f"Pairwise benchmark: {args.n} proteins (50-1000 aa, seed {args.seed}), "
          f"{npairs} pairs, {cells / 1e9:.1f} Gcells; BLOSUM62, open {OPEN}, extend {EXTEND}, "
          f"{args.mode}")
    print(f"device: {results['device']}; host: {results['cores']} cores; {results['date']}")
    print()
    print(f"| {'tool':<10} | {'task':<26} | {'seconds':>10} | {'GCUPS':>9} | "
          f"{'bioplug speed-up':>16} | note")
    print(f"|{'-' * 12}|{'-' * 28}|{'-' * 12}|{'-' * 11}|{'-' * 18}|------")
    ours = {r["task"]: r["seconds"] for r in results["rows"] if r["tool"] == "bioplug"}
    for r in results["rows"]:
        mine = ours.get(r["task"])
        if mine is None and "pair" in r["task"]:
            mine = next((v for k, v in ours.items() if "pair" in k), None)
        ratio = f"{r['seconds'] / mine:.3g}x" if mine and r["tool"] != "bioplug" else ""
        r["bioplug_speedup"] = r["seconds"] / mine if ratio else None
        print(f"| {r['tool']:<10} | {r['task']:<26} | {r['seconds']:10.3f} | {r['gcups']:9.2f} "
              f"| {ratio:>16} | {r['note']}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(results, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
