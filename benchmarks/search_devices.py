"""Database search and all-vs-all scores on one, two and every GPU of a host, in one run.

One seeded database (``benchmarks/search.py``'s: ``--n`` proteins with Swiss-Prot's lengths
and composition, 20 queries of 100-5,000 residues, BLOSUM62 11/1 local), searched with the
first 1, 2 and all GPUs in alternating rounds (medians of ``--repeats``, every result's hits
checked against the first), ``bioplug search`` in its own process with ``--device gpu`` and
``--device all`` (index built, hits checked), parasail (``--processes`` processes, the
subset ``search.py`` uses) for the ratios, and ``PairwiseAligner.score_matrix``'s all-vs-all
(``allpairs.score_square``) of ``--avsa`` proteins of 50-1,000 residues on the same device
sets (squares checked equal).

Run: ``python benchmarks/search_devices.py [--n 500000] [--repeats 3] [--avsa 4000]``
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pairwise_devices  # noqa: E402
import search as bench  # noqa: E402

from bioplug.pairwise import allpairs  # noqa: E402
from bioplug.pairwise.engine import PairwiseEngine  # noqa: E402
from bioplug.pairwise.search import _scheme, search  # noqa: E402
from bioplug.runtime import get_runtimes  # noqa: E402


def device_sets(gpus: list) -> list[int]:
    """How many of the GPUs each configuration takes: 1, 2 and all."""
    return sorted({1, 2, len(gpus)} & set(range(1, len(gpus) + 1)))


def time_searches(gpus, configs, queries, fasta: Path, repeats: int, cells: float) -> dict:
    """Median search wall per configuration (rounds alternate), hits checked."""
    expected = search(queries, fasta, top=10, device=gpus[:1]).tabular()  # index built
    walls: dict[int, list[float]] = {c: [] for c in configs}
    for round_ in range(repeats + 1):   # round 0 warms every device set
        for c in configs:
            t0 = time.perf_counter()
            res = search(queries, fasta, top=10, device=gpus[:c])
            wall = time.perf_counter() - t0
            if res.tabular() != expected:
                raise SystemExit(f"{c} GPU(s) found other hits than one")
            if round_:
                walls[c].append(wall)
    out = {}
    for c in configs:
        wall = float(np.median(walls[c]))
        out[c] = wall
        print(f"search, {c} GPU(s): {wall:.3f} s wall ({' '.join(f'{w:.3f}' for w in walls[c])})"
              f" = {cells / wall / 1e9:,.0f} GCUPS", flush=True)
    return out


def time_squares(gpus, configs, n: int, repeats: int) -> dict:
    seqs = pairwise_devices.proteins(n, 0)
    scoring = _scheme(None, "BLOSUM62", 11, 1, None)[0]
    codes = [scoring.encode(s) for s in seqs]
    lengths = np.array([len(s) for s in seqs], dtype=np.float64)
    cells = (lengths.sum() ** 2 + (lengths ** 2).sum()) / 2  # the triangle with its diagonal
    out, first = {}, None
    for c in configs:
        engine = PairwiseEngine(scoring, devices=gpus[:c])
        allpairs.score_square(engine, codes[:64])
        t, square = pairwise_devices.median_time(
            lambda e=engine: allpairs.score_square(e, codes), repeats)
        first = square if first is None else first
        if not np.array_equal(square, first):
            raise SystemExit(f"all-vs-all on {c} GPU(s) differs from one")
        out[c] = t
        print(f"all-vs-all score_matrix of {n}, {c} GPU(s): {t:.3f} s = "
              f"{cells / t / 1e9:,.0f} GCUPS", flush=True)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=500_000, help="database proteins")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--processes", type=int, default=16)
    ap.add_argument("--parasail-seqs", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--precision", default=None)
    ap.add_argument("--avsa", type=int, default=4000, help="all-vs-all proteins (0: skip)")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    gpus = get_runtimes("all")
    configs = device_sets(gpus)
    print(f"{len(gpus)} device(s): {', '.join(map(str, gpus))}", flush=True)
    queries = bench.make_queries(20, args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="bioplug-search-devices-"))
    fasta = tmp / "db.fa"
    lens = bench.write_database(fasta, args.n, args.seed)
    cells = float(sum(map(len, queries))) * float(lens.sum())
    search(queries[:2], ["MKWVTFISLL", "ACDEFGHIKLMNPQ"], device=gpus)  # builds
    result = {"devices": [str(g) for g in gpus], "n": args.n, "cells": cells,
              "search_s": time_searches(gpus, configs, queries, fasta, args.repeats, cells)}
    expected = search(queries, fasta, top=10, device=gpus[:1]).tabular()
    specs = ("gpu", "all") if gpus[0].is_gpu else (None,)   # None: the default device
    result["cli_s"] = {str(dev): bench.run_cli(dev, queries, tmp, expected, cells, args.repeats)
                       for dev in specs}
    for dev, cli in result["cli_s"].items():
        print(f"bioplug search --device {dev}, own process, hits written: "
              f"{cli['cli_wall_s']:.2f} s", flush=True)
    peer = bench.run_parasail(args, queries, gpus[0])
    if peer:
        rate = peer["parasail_gcups"]
        result["parasail_gcups"] = rate
        print(f"parasail, {args.processes} processes: {rate:.1f} GCUPS; bioplug " + ", ".join(
            f"{c} GPU(s) x{cells / result['search_s'][c] / 1e9 / rate:.1f}" for c in configs),
            flush=True)
    if args.avsa:
        result["score_matrix_s"] = time_squares(gpus, configs, args.avsa, args.repeats)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
