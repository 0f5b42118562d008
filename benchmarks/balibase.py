"""BAliBASE-style benchmark: bioplug QuickProbs and peer aligners, mean SP/TC and wall time.

Usage::

    python benchmarks/balibase.py ../shared/bench/balibase3/RV11 ../shared/bench/balibase3/RV12 \
        [--device gpu] [--peers probcons,muscle,mafft,clustalo,kalign] [--limit N] [--accurate]
        [--cli] [--peers "quickprobs=quickprobs {in} -o {out},clustalo"]

Every ``*.tfa`` of each SETDIR with a ``.xml`` reference beside it is one set. bioplug runs once
as a warm-up on the first set (kernel builds), then over all sets; each peer found on PATH runs
over the same sets, one process per file. SP and TC are bali_score definitions on the reference
core blocks (``bioplug.msa.score``). Printed: per-tool mean SP/TC, total wall time, seconds per
file, time relative to bioplug, and bioplug's summed stage times (I posteriors, II tree, III
consistency, IV alignment).

``--peers`` takes known names (below) and ``NAME=COMMAND`` items: COMMAND is a shell command with
``{in}`` (input file) and ``{out}`` (alignment file; without it, standard output is the
alignment), e.g. ``quickprobs=quickprobs {in} -o {out}``. A comma inside a command is kept
unless ``NAME=`` or a known name follows it.

``--cli`` also times the ``bioplug msa`` command the way users run it: one process per file
(``bioplug msa FILE -o OUT``, after one untimed call that fills the program caches), and one
batch process over every file (``bioplug msa FILE... --outdir DIR``); ``--cli --server`` adds
the process-per-file loop through a ``bioplug server`` (started in a temporary socket
directory, stopped at the end).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bioplug.errors import InputError
from bioplug.msa.aligner import MultipleSequenceAligner
from bioplug.msa.score import read_alignment, read_reference, sp_tc

PEERS = {
    "probcons": lambda i, o: f"probcons {i} > {o}",
    "muscle": lambda i, o: f"muscle -align {i} -output {o}",
    "mafft": lambda i, o: f"mafft --auto --quiet {i} > {o}",
    "clustalo": lambda i, o: f"clustalo -i {i} -o {o} --force",
    "kalign": lambda i, o: f"kalign -i {i} -o {o}",
}


def parse_peers(text: str) -> dict[str, str | None]:
    """``name`` and ``name=command`` items of ``--peers`` (command None for known names)."""
    items: list[str] = []
    for part in text.split(","):
        # after a command, a part that is neither NAME=... nor a known peer continues it
        new_item = re.match(r"^\s*[\w.+-]+\s*=", part) or part.strip() in PEERS
        if items and "=" in items[-1] and not new_item:
            items[-1] += "," + part
        elif part.strip():
            items.append(part.strip())
    out: dict[str, str | None] = {}
    for item in items:
        name, eq, cmd = item.partition("=")
        out[name.strip()] = cmd.strip() if eq else None
    return out


def peer_command(template: str, i: Path, o: Path) -> str:
    """The shell command of a ``NAME=COMMAND`` peer for one file."""
    cmd = template.replace("{in}", shlex.quote(str(i)))
    if "{out}" in template:
        return cmd.replace("{out}", shlex.quote(str(o)))
    return f"{cmd} > {shlex.quote(str(o))}"


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


def run_peer(name, sets, tmp: Path, template: str | None = None) -> dict | None:
    """Run a peer once per set (a process per file, as users run it); None if not found."""
    exe = shlex.split(template)[0] if template else name
    if shutil.which(exe) is None:
        return None
    total, pairs = 0.0, []
    for tfa in sets:
        out = tmp / f"{name}_{tfa.stem}.fa"
        cmd = peer_command(template, tfa, out) if template else PEERS[name](tfa, out)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, shell=True, capture_output=True)
        total += time.perf_counter() - t0
        if proc.returncode != 0:
            out.unlink(missing_ok=True)  # scored as failed
        pairs.append((tfa, out))
    sp, tc, failed = _score_outputs(pairs)
    return {"sp": np.mean(sp), "tc": np.mean(tc), "time": total, "failed": failed}


def _score_outputs(pairs: list[tuple[Path, Path]]) -> tuple[list[float], list[float], int]:
    """SP and TC of each (set, output file); a missing or unreadable output scores 0."""
    sp, tc, failed = [], [], 0
    for tfa, out in pairs:
        try:
            if not out.exists() or out.stat().st_size == 0:
                raise InputError(f"{out}: no alignment written")
            s, t = score_file(out, tfa)
        except InputError:
            failed += 1
            s, t = 0.0, 0.0
        sp.append(s)
        tc.append(t)
    return sp, tc, failed


def run_bioplug_cli(sets, device, accurate, tmp: Path, server: bool = False) -> dict[str, dict]:
    """``bioplug msa`` as users run it: a process per file, then one batch process; with
    ``server``, the process-per-file loop again through a ``bioplug server``."""
    base = [sys.executable, "-m", "bioplug", "-q", "msa"]
    opts = (["--device", device] if device else []) + (["--accurate"] if accurate else [])
    # the user's own server (if one runs) must not take the in-process calls
    env = {**os.environ, "BIOPLUG_NO_SERVER": "1"}
    # untimed: fills the on-disk program caches, as any earlier use on the machine would
    subprocess.run(base + [str(sets[0]), "-o", str(tmp / "warm.fasta")] + opts, check=True,
                   env=env)
    results = {"cli-loop": _cli_loop(sets, base, opts, tmp / "loop", env)}
    outdir = tmp / "batch"
    t0 = time.perf_counter()
    subprocess.run(base + [str(s) for s in sets] + ["--outdir", str(outdir), "--keep-going"]
                   + opts, env=env)
    total = time.perf_counter() - t0
    sp, tc, failed = _score_outputs([(s, outdir / f"{s.stem}.fasta") for s in sets])
    results["cli-batch"] = {"sp": np.mean(sp), "tc": np.mean(tc), "time": total,
                            "failed": failed}
    if server:
        results["cli-loop-server"] = _cli_loop_server(sets, base, opts, tmp, device)
    return results


def _cli_loop(sets, base, opts, outdir: Path, env) -> dict:
    """One ``bioplug msa FILE -o OUT`` process per set, timed."""
    outdir.mkdir(parents=True, exist_ok=True)
    loop, total, pairs = [], 0.0, []
    for tfa in sets:
        out = outdir / f"cli_{tfa.stem}.fasta"
        t0 = time.perf_counter()
        proc = subprocess.run(base + [str(tfa), "-o", str(out)] + opts, capture_output=True,
                              env=env)
        dt = time.perf_counter() - t0
        total += dt
        loop.append(dt)
        if proc.returncode != 0:
            print(f"  bioplug msa {tfa.name}: exit {proc.returncode}: "
                  f"{proc.stderr.decode(errors='replace').strip()[-300:]}", file=sys.stderr)
        pairs.append((tfa, out))
    sp, tc, failed = _score_outputs(pairs)
    print(f"  bioplug CLI per file ({outdir.name}): median {np.median(loop):.3f} s, "
          f"min {min(loop):.3f} s", file=sys.stderr)
    return {"sp": np.mean(sp), "tc": np.mean(tc), "time": total, "failed": failed}


def _cli_loop_server(sets, base, opts, tmp: Path, device) -> dict:
    """The per-file loop through a ``bioplug server`` in a private socket directory (not the
    user's), after one untimed call through it."""
    env = {k: v for k, v in os.environ.items() if k != "BIOPLUG_NO_SERVER"}
    env["BIOPLUG_SERVER_DIR"] = str(tmp / "server")
    server = [sys.executable, "-m", "bioplug", "server"]
    subprocess.run(server + ["start"] + (["--device", device] if device else []), env=env,
                   check=True)
    try:
        subprocess.run(base + [str(sets[0]), "-o", str(tmp / "warm_server.fasta")] + opts,
                       check=True, env=env)
        return _cli_loop(sets, base, opts, tmp / "loop_server", env)
    finally:
        subprocess.run(server + ["stop"], env=env)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("setdirs", nargs="+", metavar="SETDIR")
    ap.add_argument("--device", default=None)
    ap.add_argument("--peers", default="probcons,muscle,mafft,clustalo,kalign",
                    help="peer names and NAME=COMMAND items ({in}, {out}), comma-separated")
    ap.add_argument("--cli", action="store_true",
                    help="also time `bioplug msa` per file (a process each) and in one batch")
    ap.add_argument("--server", action="store_true",
                    help="with --cli: the per-file loop again through a `bioplug server`")
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
    label = "bioplug" + ("-acc" if args.accurate else "")
    results = {label: run_bioplug(sets, args.device, args.accurate)}
    with tempfile.TemporaryDirectory() as tmp:
        if args.cli:
            runs = run_bioplug_cli(sets, args.device, args.accurate, Path(tmp), args.server)
            for key, r in runs.items():
                results[f"{label}-{key}"] = r
        for name, template in parse_peers(args.peers).items():
            if template is None and name not in PEERS:
                print(f"unknown peer {name}", file=sys.stderr)
                continue
            r = run_peer(name, sets, Path(tmp), template)
            if r is None:
                print(f"# {name}: not on PATH, skipped")
                continue
            results[name] = r
    for item in args.baseline:
        name, _, secs = item.partition("=")
        if name and name not in results:
            results[f"{name}*"] = {"sp": float("nan"), "tc": float("nan"), "time": float(secs)}
    base = next(iter(results.values()))["time"]
    width = max(12, *(len(n) for n in results))
    print(f"{'tool':<{width}} {'SP':>6} {'TC':>6} {'time s':>9} {'s/file':>7} {'x bioplug':>9}")
    for name, r in results.items():
        extra = f"  ({r['failed']} failed)" if r.get("failed") else ""
        print(f"{name:<{width}} {100 * r['sp']:6.2f} {100 * r['tc']:6.2f} {r['time']:9.2f} "
              f"{r['time'] / len(sets):7.3f} {r['time'] / base:9.2f}{extra}")
    if args.baseline:
        print("* time given with --baseline (measured elsewhere)")
    st = next(iter(results.values()))["stages"]
    print("bioplug stages (s): " + ", ".join(f"{k} {v:.2f}" for k, v in st.items()))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYOPENCL_NO_CACHE", "0")
    sys.exit(main())
