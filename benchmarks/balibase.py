"""BAliBASE-style benchmark: bioplug QuickProbs and peer aligners, mean SP/TC and wall time.

Usage::

    python benchmarks/balibase.py ../shared/bench/balibase3/RV11 ../shared/bench/balibase3/RV12 \
        [--device gpu] [--peers probcons,muscle,mafft,clustalo,kalign] [--limit N] [--accurate]

Every ``*.tfa`` of each SETDIR with a ``.xml`` reference beside it is one set. bioplug runs once
as a warm-up on the first set (kernel builds), then over all sets; each peer found on PATH runs
over the same sets. SP and TC are bali_score definitions on the reference core blocks
(``bioplug.msa.score``). Printed: per-tool mean SP/TC, total wall time, time relative to bioplug,
and bioplug's summed stage times (I posteriors, II tree, III consistency, IV alignment).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bioplug.msa.aligner import MultipleSequenceAligner
from bioplug.msa.score import read_alignment, read_reference, sp_tc

PEERS = {
    "probcons": lambda i, o: f"probcons {i} > {o}",
    "muscle": lambda i, o: f"muscle -align {i} -output {o}",
    "mafft": lambda i, o: f"mafft --auto --quiet {i} > {o}",
    "clustalo": lambda i, o: f"clustalo -i {i} -o {o} --force",
    "kalign": lambda i, o: f"kalign -i {i} -o {o}",
}


def find_sets(dirs: list[str], limit: int | None) -> list[Path]:
    sets = []
    for d in dirs:
        for tfa in sorted(Path(d).glob("*.tfa")):
            if tfa.with_suffix(".xml").exists():
                sets.append(tfa)
    return sets[:limit] if limit else sets


def score_file(out: Path, tfa: Path) -> tuple[float, float]:
    ids, rows = read_alignment(out)
    return sp_tc(ids, rows, read_reference(tfa.with_suffix(".xml")))


def run_bioplug(sets, device, accurate) -> dict:
    from bioplug.msa.posterior import prebuild
    from bioplug.runtime import get_runtime

    aligner = MultipleSequenceAligner(accurate=accurate, device=device)
    prebuild(get_runtime(device), 4096)  # warm-up: every stage I program variant
    aligner.align(str(sets[0]))  # warm-up: the other kernels
    sp, tc, stage = [], [], {"I": 0.0, "II": 0.0, "III": 0.0, "IV": 0.0}
    total = 0.0
    for tfa in sets:
        t0 = time.perf_counter()
        aln = aligner.align(str(tfa))
        total += time.perf_counter() - t0
        ids = [r.id for r in aln.sequences]
        ref = read_reference(tfa.with_suffix(".xml"))
        s, t = sp_tc(ids, [aln[i] for i in range(len(ids))], ref)
        sp.append(s)
        tc.append(t)
        for key, v in aligner.last_times.items():
            stage[key] = stage.get(key, 0.0) + v
        print(f"  bioplug {tfa.stem}: SP {100 * s:5.1f} TC {100 * t:5.1f}", file=sys.stderr)
    return {"sp": np.mean(sp), "tc": np.mean(tc), "time": total, "stages": stage}


def run_peer(name, sets, tmp: Path) -> dict | None:
    exe = name
    if shutil.which(exe) is None:
        return None
    sp, tc, total, failed = [], [], 0.0, 0
    for tfa in sets:
        out = tmp / f"{name}_{tfa.stem}.fa"
        cmd = PEERS[name](tfa, out)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, shell=True, capture_output=True)
        total += time.perf_counter() - t0
        if proc.returncode != 0 or not out.exists() or out.stat().st_size == 0:
            failed += 1
            sp.append(0.0)
            tc.append(0.0)
            continue
        s, t = score_file(out, tfa)
        sp.append(s)
        tc.append(t)
    return {"sp": np.mean(sp), "tc": np.mean(tc), "time": total, "failed": failed}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("setdirs", nargs="+", metavar="SETDIR")
    ap.add_argument("--device", default=None)
    ap.add_argument("--peers", default="probcons,muscle,mafft,clustalo,kalign")
    ap.add_argument("--limit", type=int, default=None, help="first N sets only")
    ap.add_argument("--accurate", action="store_true", help="bioplug QuickProbs-acc mode")
    ap.add_argument("--baseline", action="append", default=[], metavar="NAME=SECONDS",
                    help="a peer time measured elsewhere (e.g. probcons=131), for the ratio "
                         "column when the peer is not installed here")
    args = ap.parse_args(argv)
    sets = find_sets(args.setdirs, args.limit)
    if not sets:
        print("no sets (*.tfa with .xml) found", file=sys.stderr)
        return 2
    from bioplug.runtime import get_runtime

    rt = get_runtime(args.device)
    print(f"# {len(sets)} sets from {', '.join(args.setdirs)}; device {rt.info.name} "
          f"[{rt.info.platform}]; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    results = {"bioplug" + ("-acc" if args.accurate else ""):
               run_bioplug(sets, args.device, args.accurate)}
    with tempfile.TemporaryDirectory() as tmp:
        for name in [p for p in args.peers.split(",") if p]:
            if name not in PEERS:
                print(f"unknown peer {name}", file=sys.stderr)
                continue
            r = run_peer(name, sets, Path(tmp))
            if r is None:
                print(f"# {name}: not on PATH, skipped")
                continue
            results[name] = r
    for item in args.baseline:
        name, _, secs = item.partition("=")
        if name and name not in results:
            results[f"{name}*"] = {"sp": float("nan"), "tc": float("nan"), "time": float(secs)}
    base = next(iter(results.values()))["time"]
    print(f"{'tool':<12} {'SP':>6} {'TC':>6} {'time s':>9} {'x bioplug':>9}")
    for name, r in results.items():
        extra = f"  ({r['failed']} failed)" if r.get("failed") else ""
        print(f"{name:<12} {100 * r['sp']:6.2f} {100 * r['tc']:6.2f} {r['time']:9.2f} "
              f"{r['time'] / base:9.2f}{extra}")
    if args.baseline:
        print("* time given with --baseline (measured elsewhere)")
    st = next(iter(results.values()))["stages"]
    print("bioplug stages (s): " + ", ".join(f"{k} {v:.2f}" for k, v in st.items()))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYOPENCL_NO_CACHE", "0")
    sys.exit(main())
