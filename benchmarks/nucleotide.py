"""Nucleotide families: QuickProbs (nucleotide model) vs progressive vs MAFFT / Clustal Omega.

Usage::

    python benchmarks/nucleotide.py [--device cpu] [--families 20x200,50x500,...] \\
        [--seeds 1,2] [--scale 0.05] [--indel 0.5] \\
        [--tools quickprobs,progressive,mafft,clustalo] [--repeat 1] [--out results.tsv]

Every family is simulated by ``benchmarks/simulate.py --nucleotide`` (random tree, K2P
substitutions, geometric indels), so the true alignment is known; every tool aligns the same
unaligned FASTA and is scored against the true alignment on every column (SP, TC in %).
``quickprobs`` is ``MultipleSequenceAligner`` (model chosen by ``seqtype="auto"``, i.e. the
ProbConsRNA / HOXD70 nucleotide model), ``progressive`` is ``ProgressiveAligner`` (its own
nucleotide defaults); both run in this process after a warm-up that builds their kernels, and
their time is the median of ``--repeat`` runs. MAFFT (``--auto``) and Clustal Omega come from
``.peers`` (``source .peers/env.sh`` first) and are skipped, saying so, when not on PATH.
The last lines print per-tool means and the QuickProbs - progressive SP/TC difference, which
sets ``bioplug msa --method auto`` for nucleotides (``bioplug/msa/cli.py``).
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from simulate import evolve  # noqa: E402

log = logging.getLogger("nucleotide")

TOOLS = ("quickprobs", "progressive", "mafft", "clustalo")
DEFAULT_FAMILIES = "20x200,20x1000,50x500,100x300,200x200"


def _write(path: Path, names, texts) -> None:
    with open(path, "w") as fh:
        fh.writelines(f">{n}\n{t}\n" for n, t in zip(names, texts, strict=True))


def _external(tool: str, inp: Path, out: Path, threads: int) -> list[str]:
    if tool == "mafft":
        return ["mafft", "--auto", "--thread", str(threads), "--quiet", str(inp)]
    return ["clustalo", "-i", str(inp), "-o", str(out), "--outfmt=fasta", "--force",
            f"--threads={threads}"]


def _run_external(tool: str, inp: Path, workdir: Path, threads: int,
                  timeout: float) -> tuple[list[str], list[str], float]:
    """(ids, rows, seconds) of an external aligner's FASTA output."""
    from bioplug.msa.score import read_alignment

    out = workdir / f"{tool}.fa"
    cmd = _external(tool, inp, out, threads)
    t0 = time.perf_counter()
    if tool == "mafft":  # writes the alignment to standard output
        with open(out, "w") as fh:
            subprocess.run(cmd, stdout=fh, stderr=subprocess.DEVNULL, check=True,
                           timeout=timeout)
    else:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       timeout=timeout)
    seconds = time.perf_counter() - t0
    ids, rows = read_alignment(out)
    return ids, rows, seconds


def _make_aligners(device, tools, longest: int):
    from bioplug.msa.aligner import MultipleSequenceAligner
    from bioplug.msa.posterior import prebuild
    from bioplug.progressive.aligner import ProgressiveAligner

    made = {}
    if "quickprobs" in tools:
        made["quickprobs"] = MultipleSequenceAligner(device=device)
        prebuild(device, longest, seqtype="dna")  # every stage I variant the families need
    if "progressive" in tools:
        made["progressive"] = ProgressiveAligner(device=device)
    warm = ["ACGTACGTTAGCCAGT", "ACGTACGTAGCCAGT", "ACGTTCGTTAGCAGT"]
    for aligner in made.values():  # kernel builds happen here, not in the timed runs
        aligner.align(warm)
    return made


def _run_inprocess(aligner, inp: Path, repeat: int) -> tuple[list[str], list[str], float]:
    times = []
    for _ in range(max(repeat, 1)):
        t0 = time.perf_counter()
        aln = aligner.align(str(inp))
        times.append(time.perf_counter() - t0)
    ids = [r.id for r in aln.sequences]
    rows = [aln[i] for i in range(len(aln.sequences))]
    return ids, rows, statistics.median(times)


def run_family(k: int, length: int, seed: int, args, aligners, tools, workdir: Path) -> list:
    """Rows (k, length, seed, tool, SP, TC, seconds) of one simulated family."""
    from bioplug.msa.score import read_reference, sp_tc

    names, texts, rows = evolve(k, length, seed, scale=args.scale, indel=args.indel,
                                nucleotide=True)
    fam = workdir / f"fam_{k}x{length}_s{seed}"
    fam.mkdir(parents=True, exist_ok=True)
    _write(fam / "family.fa", names, texts)
    _write(fam / "true.fa", names, rows)
    ref = read_reference(fam / "true.fa")
    out = []
    for tool in tools:
        try:
            if tool in aligners:
                ids, got, sec = _run_inprocess(aligners[tool], fam / "family.fa", args.repeat)
            else:
                ids, got, sec = _run_external(tool, fam / "family.fa", fam, args.threads,
                                              args.timeout)
        except (subprocess.SubprocessError, OSError) as exc:
            log.warning("%s failed on %dx%d seed %d: %s", tool, k, length, seed, exc)
            continue
        sp, tc = sp_tc(ids, got, ref)
        out.append((k, length, seed, tool, 100 * sp, 100 * tc, sec))
        log.info("%4d x %4d seed %d  %-12s SP %6.2f TC %6.2f  %8.2f s", k, length, seed, tool,
                 100 * sp, 100 * tc, sec)
    return out


def summarise(results: list, tools) -> None:
    """Per-tool means and the QuickProbs - progressive difference (same families only)."""
    log.info("%-12s %8s %8s %10s %s", "tool", "SP", "TC", "seconds", "families")
    for tool in tools:
        rows = [r for r in results if r[3] == tool]
        if rows:
            log.info("%-12s %8.2f %8.2f %10.2f %d", tool, np.mean([r[4] for r in rows]),
                     np.mean([r[5] for r in rows]), np.sum([r[6] for r in rows]), len(rows))
    qp = {r[:3]: r for r in results if r[3] == "quickprobs"}
    pr = {r[:3]: r for r in results if r[3] == "progressive"}
    both = sorted(set(qp) & set(pr))
    if both:
        dsp = [qp[f][4] - pr[f][4] for f in both]
        dtc = [qp[f][5] - pr[f][5] for f in both]
        wins = sum(d > 0 for d in dsp)
        log.info("quickprobs - progressive: SP %+.2f, TC %+.2f (mean); SP better on %d of %d",
                 np.mean(dsp), np.mean(dtc), wins, len(both))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--families", default=DEFAULT_FAMILIES,
                    help=f"KxLENGTH list (default {DEFAULT_FAMILIES})")
    ap.add_argument("--seeds", default="1", help="comma-separated seeds (default 1)")
    ap.add_argument("--scale", type=float, default=0.05, help="mean branch length (0.05)")
    ap.add_argument("--indel", type=float, default=0.5,
                    help="indel rate of simulate.evolve (0.5: about one indel per 20 "
                         "substitutions; its protein default 0.08 leaves DNA families so easy "
                         "that every tool scores ~100)")
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--repeat", type=int, default=1, help="timed runs per in-process tool")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--out", default=None, help="TSV of every (family, tool) row")
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    tools = [t for t in args.tools.split(",") if t]
    for t in tools:
        if t not in TOOLS:
            ap.error(f"unknown tool {t!r}")
    for t in ("mafft", "clustalo"):
        if t in tools and not shutil.which(t):
            log.warning("%s not on PATH (source .peers/env.sh): skipped", t)
            tools.remove(t)
    from bioplug.runtime import get_runtime

    rt = get_runtime(args.device)
    log.info("# device %s [%s]; families %s, seeds %s, scale %.3f, indel %.2f", rt.info.name,
             rt.info.platform, args.families, args.seeds, args.scale, args.indel)
    sizes = [tuple(int(v) for v in f.lower().split("x")) for f in args.families.split(",")]
    aligners = _make_aligners(rt, tools, int(1.3 * max(n for _, n in sizes)))
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="bioplug_nuc_"))
    results = []
    for k, length in sizes:
        for seed in (int(s) for s in args.seeds.split(",")):
            results += run_family(k, length, seed, args, aligners, tools, workdir)
    summarise(results, tools)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write("k\tlength\tseed\ttool\tSP\tTC\tseconds\n")
            fh.writelines("\t".join(map(str, r)) + "\n" for r in results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
