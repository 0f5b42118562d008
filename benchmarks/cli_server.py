"""Warm ``bioplug msa`` calls with and without a resident ``bioplug server`` (issue 19 §2).

Usage (from the root of the source tree to measure)::

    python benchmarks/cli_server.py --device gpu [--calls 11] [--file examples/BB11001.fasta]

Starts a server in a temporary socket directory (never the user's), makes one untimed call
each way (program caches, the server's first job), then ``--calls`` rounds of three new
processes, interleaved: ``python -c pass`` (the interpreter's own start-up, the floor of any
call), ``python -m bioplug -q msa FILE -o OUT --device D`` in its own process
(``BIOPLUG_NO_SERVER=1``) and the same call through the server. Prints the median, min and
max wall time of each, checks every output is byte-identical to the first in-process one, and
stops the server. Target (issue 19): a warm call of a small family at most 0.4 s on an H100.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(cmd: list[str], env: dict[str, str]) -> float:
    """Wall time of one process; it must succeed."""
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {proc.returncode}: "
                         f"{proc.stderr.decode(errors='replace')[-500:]}")
    return dt


def server_status(env: dict[str, str]) -> dict:
    proc = subprocess.run([sys.executable, "-m", "bioplug", "server", "status", "--json"],
                          env=env, cwd=ROOT, capture_output=True, text=True)
    return json.loads(proc.stdout)


def measure(args, tmp: Path) -> dict[str, list[float]]:
    """The timed rounds; outputs compared with the first in-process one."""
    base = {**os.environ, "PYTHONPATH": str(ROOT)}
    alone = {**base, "BIOPLUG_NO_SERVER": "1"}
    served = {k: v for k, v in base.items() if k != "BIOPLUG_NO_SERVER"}
    served["BIOPLUG_SERVER_DIR"] = str(tmp / "server")
    msa = [sys.executable, "-m", "bioplug", "-q", "msa", str(args.file), "--device", args.device]
    subprocess.run([sys.executable, "-m", "bioplug", "server", "start", "--device", args.device],
                   env=served, cwd=ROOT, check=True)
    try:
        info = server_status(served)
        print(f"# device {info['device']}; {args.calls} calls each; "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        reference = tmp / "reference.fa"
        timed(msa + ["-o", str(reference)], alone)  # untimed warm-up, each way
        timed(msa + ["-o", str(tmp / "warm.fa")], served)
        times: dict[str, list[float]] = {"python -c pass": [], "in-process": [], "server": []}
        for i in range(args.calls):
            times["python -c pass"].append(timed([sys.executable, "-c", "pass"], alone))
            for mode, env in (("in-process", alone), ("server", served)):
                out = tmp / f"{mode}_{i}.fa"
                times[mode].append(timed(msa + ["-o", str(out)], env))
                if out.read_bytes() != reference.read_bytes():
                    raise SystemExit(f"{out.name} differs from the in-process output")
        jobs = server_status(served)["jobs"]
        if jobs != args.calls + 1:
            raise SystemExit(f"the server ran {jobs} jobs, not {args.calls + 1}")
        return times
    finally:
        subprocess.run([sys.executable, "-m", "bioplug", "server", "stop"], env=served,
                       cwd=ROOT)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="gpu", help="bioplug --device (default gpu)")
    ap.add_argument("--calls", type=int, default=11, help="timed calls each way (default 11)")
    ap.add_argument("--file", type=Path, default=ROOT / "examples" / "BB11001.fasta",
                    help="family to align (default examples/BB11001.fasta)")
    args = ap.parse_args(argv)
    args.file = args.file.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        times = measure(args, Path(tmp))
    floor = statistics.median(times["in-process"])
    print(f"{'bioplug -q msa ' + args.file.name:<34} {'median s':>9} {'min s':>7} {'max s':>7} "
          f"{'x in-process':>12}")
    for mode, values in times.items():
        med = statistics.median(values)
        print(f"{mode:<34} {med:9.3f} {min(values):7.3f} {max(values):7.3f} "
              f"{med / floor:12.2f}")
    print("outputs byte-identical in both modes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
