"""The profile-profile DP kernel alone: GCUPS on a device against one CPU thread (issue 20).

Usage::

    python benchmarks/progressive_kernel.py --device gpu [--pairs 1056] [--length 500]

Times ``ProfileEngine.align`` (DP + device traceback + moves read back; no merge) on a batch of
random gapped profile pairs (``--depth`` sequences each, about 10 % gaps), warm, median of
``--repeats``; then the same kernel on PoCL restricted to one thread (a child process with
``POCL_MAX_PTHREAD_COUNT=1``) on ``--cpu-pairs`` pairs of the same shape, and prints both rates
and their ratio. Cells are profile columns x profile columns.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bioplug.alphabet import load_matrix  # noqa: E402
from bioplug.progressive.device import GapScores, ProfileEngine  # noqa: E402
from bioplug.progressive.pipeline import Substitution, profile_columns  # noqa: E402
from bioplug.runtime import get_runtime  # noqa: E402

AMINO = "ACDEFGHIKLMNPQRSTVWY"


def random_profile(rng: np.random.Generator, depth: int, length: int, letters: str):
    rows = rng.choice(np.frombuffer(AMINO.encode(), np.uint8), size=(depth, length))
    rows[rng.random(rows.shape) < 0.1] = ord("-")
    rows[:, ~(rows != ord("-")).any(axis=0)] = ord("A")     # no all-gap column
    return profile_columns(rows, letters, False, ["s"] * depth)


def rate(device, pairs: int, length: int, depth: int, repeats: int) -> dict:
    """GCUPS of one batch of ``pairs`` profile pairs on ``device``."""
    rt = get_runtime(device)
    matrix = Substitution.complete(load_matrix("BLOSUM62"), False)
    engine = ProfileEngine(rt, matrix.values, GapScores(-10.0, -1.0, -2.0, -0.5))
    rng = np.random.default_rng(1)
    profiles = [random_profile(rng, depth, length, matrix.letters) for _ in range(2 * pairs)]
    nodes = engine.add_profiles(profiles, [float(depth)] * len(profiles))
    batch = list(zip(nodes[0::2], nodes[1::2], strict=True))
    engine.align(batch[:1], merge=False)                        # kernel build, warm-up
    times = []
    for _ in range(repeats):
        rt.queue.finish()
        t0 = time.perf_counter()
        engine.align(batch, merge=False)                        # reads back: finished
        times.append(time.perf_counter() - t0)
    cells = pairs * length * length
    return {"device": rt.info.name, "pairs": pairs, "cells": cells,
            "seconds": float(np.median(times)), "gcups": cells / float(np.median(times)) / 1e9}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default=None)
    ap.add_argument("--pairs", type=int, default=1056)
    ap.add_argument("--cpu-pairs", type=int, default=4)
    ap.add_argument("--length", type=int, default=500)
    ap.add_argument("--depth", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(rate("cpu", args.cpu_pairs, args.length, args.depth, args.repeats)))
        return 0
    dev = rate(args.device, args.pairs, args.length, args.depth, args.repeats)
    env = dict(os.environ, POCL_MAX_PTHREAD_COUNT="1", POCL_CPU_MAX_CU_COUNT="1")
    child = subprocess.run([sys.executable, __file__, "--child", "--cpu-pairs",
                            str(args.cpu_pairs), "--length", str(args.length), "--depth",
                            str(args.depth), "--repeats", str(args.repeats)],
                           env=env, capture_output=True, text=True, check=True)
    cpu = json.loads(child.stdout.strip().splitlines()[-1])
    for r in (dev, cpu):
        print(f"{r['device'][:40]:40s} {r['pairs']:6d} pairs x {args.length}^2  "
              f"{r['seconds']:8.3f} s  {r['gcups']:8.2f} GCUPS")
    print(f"ratio (device / one CPU thread): x{dev['gcups'] / cpu['gcups']:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
