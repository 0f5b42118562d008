"""Where one ``bioplug msa FILE -o OUT`` call spends its time: per-call wall time and phases.

Usage (from the root of the source tree to measure)::

    python benchmarks/msa_startup.py examples/BB11001.fasta --device gpu [--calls 5]

Runs the command ``--calls`` times, each in a new process (the first call may compile
programs: it is reported apart), and prints the median wall time per call; then, again in
new processes, the in-process phases of one call in the command's order: imports and parser
(the drivers and the context start on a thread meanwhile), msa modules, the wait for that
thread, the device listing and context adoption, the command itself, and within it the
program loads (each program). Run it with the ``phases`` argument to get one phase line.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def phases(device: str, path: str) -> str:
    """One call's phases in this process, in the command's order (the source tree is the
    working directory): the drivers start on a thread while the modules import."""
    sys.path.insert(0, os.getcwd())
    t0 = time.perf_counter()
    from bioplug.runtime import driver_start

    driver_start.start(device)
    import bioplug.cli as bcli

    bcli.build_parser()
    t_imports = time.perf_counter() - t0
    t = time.perf_counter()
    import bioplug.msa.aligner  # noqa: F401

    t_msa = time.perf_counter() - t
    import bioplug.runtime.runtime as rtm

    loads = []
    build = rtm.Runtime.program

    def timed(self, name, defines=None):
        key = " ".join(f"-D{k}={v}" for k, v in sorted((defines or {}).items()))
        fresh = (name, key) not in self._programs
        t = time.perf_counter()
        prog = build(self, name, defines)
        if fresh:
            loads.append(f"{time.perf_counter() - t:.3f} {name} {key}".rstrip())
        return prog

    rtm.Runtime.program = timed
    t = time.perf_counter()
    driver_start.wait()
    t_wait = time.perf_counter() - t
    t = time.perf_counter()
    rtm.get_runtime(device)
    t_ctx = time.perf_counter() - t
    out = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"msa_startup_{os.getpid()}.fasta")
    t = time.perf_counter()
    bcli.main(["-q", "msa", path, "-o", out, "--device", device])
    t_run = time.perf_counter() - t
    os.unlink(out)
    total_loads = sum(float(x.split()[0]) for x in loads)
    return (f"imports+parser {t_imports:.3f} | msa modules {t_msa:.3f} | then waiting for "
            f"the driver thread {t_wait:.3f} | device listing and context {t_ctx:.3f} | "
            f"command {t_run:.3f} (program loads "
            f"{total_loads:.3f}: {'; '.join(loads)})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("--device", default="gpu")
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--phases", type=int, default=2, help="phase breakdowns to print")
    args = ap.parse_args(argv)
    out = os.path.join(os.environ.get("TMPDIR", "/tmp"), "msa_startup_out.fasta")
    cmd = [sys.executable, "-m", "bioplug", "-q", "msa", args.input, "-o", out,
           "--device", args.device]
    walls = []
    for _ in range(args.calls + 1):
        t = time.perf_counter()
        subprocess.run(cmd, check=True)
        walls.append(time.perf_counter() - t)
    print(f"first call {walls[0]:.3f} s; then median {statistics.median(walls[1:]):.3f} s "
          f"(min {min(walls[1:]):.3f}) over {args.calls} calls")
    for _ in range(args.phases):
        proc = subprocess.run([sys.executable, __file__, "phases", args.device, args.input],
                              capture_output=True, text=True, check=True)
        print(proc.stdout.strip())
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "phases":
        print(phases(sys.argv[2], sys.argv[3]))
        sys.exit(0)
    sys.exit(main())
