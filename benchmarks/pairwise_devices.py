"""Pairwise scaling over several OpenCL devices: one device vs all GPUs, in one run.

All-vs-all of N random proteins (lengths 50-1,000, seeded), BLOSUM62, gap open 11 / extend 1,
local: ``PairwiseEngine.score_all`` (the engine's windows), ``allpairs.score_square`` (what
``PairwiseAligner.score_matrix`` runs: on GPUs the scan kernels, the triangle's rows shared by
the devices) and ``PairwiseEngine.trace_indexed`` on ``--one`` (default the best GPU) and on
``--many`` (default every GPU), medians of ``--repeats`` after a warm-up. Checks that scores
(and a sample of traceback paths) are identical on both. As users run it: ``bioplug pairwise
IN --all-vs-all -o scores.npy`` in its own process on the same devices (median of
``--repeats``, the file checked against ``score_square``'s square).

Run: ``python benchmarks/pairwise_devices.py [--n 2000,4000] [--one gpu] [--many all]``
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bioplug.alphabet import make_scoring, simple_gaps
from bioplug.pairwise import allpairs
from bioplug.pairwise.engine import PairwiseEngine


def proteins(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    letters = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    return ["".join(rng.choice(letters, rng.integers(50, 1001))) for _ in range(n)]


def median_time(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), out


def run_cli(seqs: list[str], device: str, repeats: int, expected: np.ndarray) -> float:
    """Median wall of ``bioplug pairwise IN --all-vs-all -o OUT.npy`` in its own process,
    each file checked against ``expected``."""
    with tempfile.TemporaryDirectory(prefix="bioplug-pairwise-devices-") as tmp:
        fasta, out = Path(tmp) / "in.fa", Path(tmp) / "scores.npy"
        fasta.write_text("".join(f">s{i}\n{s}\n" for i, s in enumerate(seqs)))
        cmd = [sys.executable, "-m", "bioplug", "-q", "--no-server", "pairwise", str(fasta),
               "--all-vs-all", "-o", str(out), "--mode", "local", "--matrix", "BLOSUM62",
               "--gap-open", "-11", "--gap-extend", "-1", "--device", device]
        walls = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True)
            walls.append(time.perf_counter() - t0)
            if not np.array_equal(np.load(out), expected):
                raise SystemExit(f"bioplug pairwise --device {device} wrote other scores")
    return statistics.median(walls)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", default="2000,4000", help="set sizes (traceback on the first only)")
    ap.add_argument("--one", default="gpu", help="the single device")
    ap.add_argument("--many", default="all", help="the devices to spread over")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-cli", action="store_true", help="skip the command's own process")
    args = ap.parse_args(argv)
    scoring = make_scoring("BLOSUM62", gaps=simple_gaps(-11, -1), local=True)
    for k, n in enumerate(int(x) for x in args.n.split(",")):
        texts = proteins(n, args.seed + n)
        seqs = [scoring.encode(s) for s in texts]
        lengths = np.array([len(s) for s in seqs], dtype=np.float64)
        ii, jj = np.triu_indices(n, 1)
        cells = float((lengths[ii] * lengths[jj]).sum())
        found = {}
        for label, devices in (("one", args.one), ("many", args.many)):
            engine = PairwiseEngine(scoring, devices)
            warm = min(64, n)
            engine.score_all(seqs[:warm])
            t, scores = median_time(lambda e=engine, s=seqs: e.score_all(s), args.repeats)
            print(f"N={n} {len(engine.runtimes)} device(s): score {t:.3f} s "
                  f"{cells / t / 1e9:.0f} GCUPS", flush=True)
            allpairs.score_square(engine, seqs[:warm])
            t, square = median_time(lambda e=engine, s=seqs: allpairs.score_square(e, s),
                                    args.repeats)
            print(f"N={n} {len(engine.runtimes)} device(s): score_matrix {t:.3f} s "
                  f"{cells / t / 1e9:.0f} GCUPS", flush=True)
            found[label] = [scores, square]
            if not args.no_cli:
                t = run_cli(texts, devices, args.repeats, square)
                print(f"N={n} {len(engine.runtimes)} device(s): bioplug pairwise --all-vs-all "
                      f"-o scores.npy, own process, {t:.3f} s", flush=True)
            if k == 0:
                engine.trace_indexed(seqs[:warm], *np.triu_indices(warm, 1))
                t, traces = median_time(
                    lambda e=engine, s=seqs, a=ii, b=jj: e.trace_indexed(s, a, b), 1)
                print(f"N={n} {len(engine.runtimes)} device(s): traceback {t:.3f} s "
                      f"{cells / t / 1e9:.0f} GCUPS", flush=True)
                found[label] += [traces.scores] + [traces.coordinates(p)
                                                   for p in range(0, len(traces), 997)]
        same = all(np.array_equal(a, b) for a, b in zip(found["one"], found["many"],
                                                           strict=True))
        print(f"N={n}: identical results on one and several devices: {same}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
