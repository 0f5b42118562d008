"""Nucleotide families: QuickProbs (nucleotide model), progressive, MAFFT, Clustal Omega, MUSCLE.

Usage::

    python benchmarks/nucleotide.py [--device cpu] [--families 20x200,50x500,...] \\
        [--seeds 1,2] [--scale 0.05] [--indel 0.5] \\
        [--tools quickprobs,progressive,mafft,clustalo,muscle] [--repeat 1] [--out results.tsv]
    python benchmarks/nucleotide.py --reference .peers/data/nucleotide/bralibase2.1 \\
        [--per-family N] [--shard I/N] [--tools ...] [--out results.tsv]
    python benchmarks/nucleotide.py --merge a.tsv b.tsv ...     # summary of --reference TSVs

Simulated mode (no ``--reference``): every family is simulated by
``benchmarks/simulate.py --nucleotide`` (random tree, K2P substitutions, geometric indels), so
the true alignment is known; every tool aligns the same unaligned FASTA and is scored against
the true alignment on every column (SP, TC in %).
``quickprobs`` is ``MultipleSequenceAligner`` (model chosen by ``seqtype="auto"``, i.e. the
ProbConsRNA / HOXD70 nucleotide model), ``progressive`` is ``ProgressiveAligner`` (its own
nucleotide defaults); both run in this process after a warm-up that builds their kernels, and
their time is the median of ``--repeat`` runs. MAFFT (``--auto``) and Clustal Omega come from
``.peers`` (``source .peers/env.sh`` first) and are skipped, saying so, when not on PATH;
so is MUSCLE 5 (``muscle -align``, Debian's build, also in ``.peers``).
The last lines print per-tool means and the QuickProbs - progressive SP/TC difference, which
sets ``bioplug msa --method auto`` for nucleotides (``bioplug/msa/cli.py``).

Reference mode (``--reference DIR``): every ``--ref-glob`` file under DIR (default
``**/*.ref.fa*``, FASTA or gzipped FASTA) is a published reference alignment; BRAliBASE 2.1's
k10 and k15 sets (845 and 503 structural RNA alignments of 10 and 15 sequences from 31 and 27
Rfam families, 26-340 nt a sequence on average) are prepared in
``.peers/data/nucleotide/bralibase2.1`` by ``benchmarks/_fetch_nucleotide_ref.py``, which names
the source. Each reference's sequences, its rows with the gaps removed and the letters as given
(lower case, U, IUPAC codes), are written unaligned under the names s0, s1, ... and aligned by
every tool; the tool's rows get the input letters back (some tools rewrite letters, e.g.
ambiguity codes; residue counts are checked) and are scored against the reference over all its
columns: SP = the fraction of the reference's aligned residue pairs the test also aligns (the
SPS of the BRAliBASE papers), TC = the fraction of reference columns (two residues or more)
reproduced whole (``bioplug.msa.score.sp_tc``). BRAliBASE's SCI needs RNAalifold and is not
computed. The set is the first folder under DIR (k10, k15), the RNA family the reference's own
folder, the APSI the ``apsi-NN`` of its file name. ``--per-family N`` keeps N references per RNA
family and set, evenly spread over their APSI; ``--shard I/N`` every N-th of those from the I-th
(shards of one selection can run as separate commands and be summarised together with
``--merge``). The summary gives each tool's mean SP/TC and time, per set and per APSI band, and
the bioplug tools' SP/TC difference to MAFFT ``--auto``, MUSCLE and each other on the same
references.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import logging
import os
import re
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

TOOLS = ("quickprobs", "progressive", "mafft", "clustalo", "muscle")
EXTERNAL = ("mafft", "clustalo", "muscle")
DEFAULT_FAMILIES = "20x200,20x1000,50x500,100x300,200x200"


def _write(path: Path, names, texts) -> None:
    with open(path, "w") as fh:
        fh.writelines(f">{n}\n{t}\n" for n, t in zip(names, texts, strict=True))


def _external(tool: str, inp: Path, out: Path, threads: int) -> list[str]:
    if tool == "mafft":
        return ["mafft", "--auto", "--thread", str(threads), "--quiet", str(inp)]
    if tool == "muscle":
        return ["muscle", "-align", str(inp), "-output", str(out), "-threads", str(threads)]
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


def _run_tool(tool: str, aligners: dict, folder: Path, args) -> tuple[list[str], list[str], float]:
    """``folder/family.fa`` aligned by a bioplug aligner in this process or by a peer."""
    if tool in aligners:
        return _run_inprocess(aligners[tool], folder / "family.fa", args.repeat)
    return _run_external(tool, folder / "family.fa", folder, args.threads, args.timeout)


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
            ids, got, sec = _run_tool(tool, aligners, fam, args)
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


# -- reference mode ------------------------------------------------------------------------------
REF_COLUMNS = ("set", "family", "name", "k", "length", "apsi", "tool", "SP", "TC", "seconds")
APSI_BANDS = ((0, 50), (50, 65), (65, 80), (80, 101))
_FASTA_SUFFIXES = (".fa", ".fasta", ".fas", ".afa", ".fna", ".mfa")


def _stem(path: Path) -> str:
    """The reference's name: its file name less ``.gz``, the format suffix and ``.ref``."""
    name = path.name[:-3] if path.name.endswith(".gz") else path.name
    name = name.rsplit(".", 1)[0] if "." in name else name
    return name[:-4] if name.endswith(".ref") else name


def _read_reference_rows(path: Path) -> list[str]:
    """Aligned rows of a reference (gzipped or not), letters as given: FASTA read here, other
    formats by Bio.AlignIO (through bioplug.msa.score, upper case)."""
    gz = path.name.endswith(".gz")
    suffix = Path(path.name[:-3] if gz else path.name).suffix.lower()
    if suffix in _FASTA_SUFFIXES:
        text = gzip.decompress(path.read_bytes()).decode() if gz else path.read_text()
        rows: list[str] = []
        for line in text.splitlines():
            if line.startswith(">"):
                rows.append("")
            elif rows:
                rows[-1] += "".join(line.split())
        return rows
    from bioplug.msa.score import read_alignment

    if gz:
        raise ValueError(f"{path}: only FASTA references may be gzipped")
    return read_alignment(path)[1]


def _apsi(path: Path) -> int:
    m = re.search(r"apsi-(\d+)", path.name)
    return int(m.group(1)) if m else -1


def select_references(root: Path, pattern: str, per_family: int, shard: str | None) -> list:
    """(set, family, path) of the references, ``--per-family`` and ``--shard`` applied."""
    groups: dict[tuple[str, str], list[Path]] = {}
    for path in sorted(root.glob(pattern)):
        if not path.is_file():
            continue
        rel = path.relative_to(root).parts
        kset = rel[0] if len(rel) > 2 else root.name
        family = path.parent.name if len(rel) > 1 else path.stem.split(".")[0]
        groups.setdefault((kset, family), []).append(path)
    picked = []
    for (kset, family), paths in sorted(groups.items()):
        paths.sort(key=lambda p: (_apsi(p), p.name))
        if 0 < per_family < len(paths):
            n = len(paths)  # the middles of per_family equal APSI-ordered slices
            paths = [paths[(2 * j + 1) * n // (2 * per_family)] for j in range(per_family)]
        picked += [(kset, family, p) for p in paths]
    if shard:
        i, n = (int(v) for v in shard.split("/"))
        picked = picked[i - 1::n]
    return picked


def _restore(ids: list[str], rows: list[str], names: list[str], texts: list[str]) -> list[str]:
    """The tool's rows in ``names`` order with the input letters back in its residue cells."""
    pos = {n: i for i, n in enumerate(ids)}
    out = []
    for name, text in zip(names, texts, strict=True):
        if name not in pos:
            raise ValueError(f"output lacks {name}")
        row = rows[pos[name]]
        cells = [c not in "-.~" for c in row]
        if sum(cells) != len(text):
            raise ValueError(f"{name}: {sum(cells)} residues in the output, {len(text)} given")
        letters = iter(text.upper())
        out.append("".join(next(letters) if c else "-" for c in cells))
    return out


def run_reference(kset: str, family: str, path: Path, args, aligners, tools,
                  workdir: Path) -> list:
    """Rows (REF_COLUMNS) of one reference alignment."""
    from bioplug.msa.score import Reference, sp_tc

    ref_rows = [r.replace(".", "-").replace("~", "-") for r in _read_reference_rows(path)]
    ref_rows = [r for r in ref_rows if r.replace("-", "")]
    texts = [r.replace("-", "") for r in ref_rows]
    names = [f"s{i}" for i in range(len(ref_rows))]
    ref = Reference(names, [r.upper() for r in ref_rows],
                    np.ones(len(ref_rows[0]), dtype=bool))
    case = workdir / kset / family / _stem(path)
    case.mkdir(parents=True, exist_ok=True)
    _write(case / "family.fa", names, texts)
    length = float(np.mean([len(t) for t in texts]))
    out = []
    for tool in tools:
        try:
            ids, got, sec = _run_tool(tool, aligners, case, args)
            sp, tc = sp_tc(names, _restore(ids, got, names, texts), ref)
        except Exception as exc:  # noqa: BLE001 - a failure is a row-less result, logged
            log.warning("%s failed on %s/%s: %s", tool, kset, _stem(path), exc)
            continue
        out.append((kset, family, _stem(path), len(names), round(length, 1), _apsi(path), tool,
                    100 * sp, 100 * tc, sec))
        log.info("%-4s %-14s %-44s %-12s SP %6.2f TC %6.2f %7.2f s", kset, family[:14],
                 _stem(path)[:44], tool, 100 * sp, 100 * tc, sec)
    return out


def _table(rows: list, tools, label: str) -> None:
    for tool in tools:
        got = [r for r in rows if r["tool"] == tool]
        if got:
            log.info("%-16s %-12s %7.2f %7.2f %9.1f %5d", label, tool,
                     np.mean([r["SP"] for r in got]), np.mean([r["TC"] for r in got]),
                     np.sum([r["seconds"] for r in got]), len(got))


def summarise_reference(rows: list[dict]) -> None:
    """Per-tool means (all, per set, per APSI band) and bioplug's difference to MAFFT."""
    tools = [t for t in TOOLS if any(r["tool"] == t for r in rows)]
    names = {(r["set"], r["name"]) for r in rows}
    log.info("# %d reference alignments, %d rows", len(names), len(rows))
    log.info("%-16s %-12s %7s %7s %9s %5s", "subset", "tool", "SP", "TC", "seconds", "alns")
    _table(rows, tools, "all")
    for kset in sorted({r["set"] for r in rows}):
        _table([r for r in rows if r["set"] == kset], tools, kset)
    for lo, hi in APSI_BANDS:
        band = [r for r in rows if lo <= r["apsi"] < hi]
        if band:
            _table(band, tools, f"APSI {lo}-{min(hi, 100)}")
    by = {(r["set"], r["name"], r["tool"]): r for r in rows}
    for tool in ("quickprobs", "progressive"):
        for other in ("mafft", "muscle", "progressive"):
            if tool == other:
                continue
            both = sorted(k[:2] for k in by if k[2] == tool and (*k[:2], other) in by)
            if not both:
                continue
            dsp = [by[(*k, tool)]["SP"] - by[(*k, other)]["SP"] for k in both]
            dtc = [by[(*k, tool)]["TC"] - by[(*k, other)]["TC"] for k in both]
            log.info("%s - %s: SP %+.2f, TC %+.2f (mean over %d); SP better on %d, worse on %d",
                     tool, other, np.mean(dsp), np.mean(dtc), len(both),
                     sum(d > 0 for d in dsp), sum(d < 0 for d in dsp))


def read_tsv(paths) -> list[dict]:
    rows = []
    for path in paths:
        with open(path) as fh:
            for r in csv.DictReader(fh, delimiter="\t"):
                for key in ("SP", "TC", "seconds", "length"):
                    r[key] = float(r[key])
                r["k"], r["apsi"] = int(r["k"]), int(r["apsi"])
                rows.append(r)
    return rows


def main_reference(args, tools) -> int:
    from bioplug.runtime import get_runtime

    root = Path(args.reference)
    picked = select_references(root, args.ref_glob, args.per_family, args.shard)
    if not picked:
        log.error("no %s under %s (benchmarks/_fetch_nucleotide_ref.py prepares BRAliBASE)",
                  args.ref_glob, root)
        return 1
    longest = max(len(r.replace("-", "").replace(".", "")) for *_, p in picked
                  for r in _read_reference_rows(p))
    logging.getLogger("bioplug").setLevel(logging.WARNING)  # one line per (reference, tool)
    rt = get_runtime(args.device)
    log.info("# device %s [%s]; %d references under %s (per family %s, shard %s), tools %s",
             rt.info.name, rt.info.platform, len(picked), root, args.per_family or "all",
             args.shard or "-", ",".join(tools))
    aligners = _make_aligners(rt, tools, longest)
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="bioplug_nucref_"))
    results = []
    for kset, family, path in picked:
        results += run_reference(kset, family, path, args, aligners, tools, workdir)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write("\t".join(REF_COLUMNS) + "\n")
            fh.writelines("\t".join(map(str, r)) + "\n" for r in results)
    summarise_reference([dict(zip(REF_COLUMNS, r, strict=True)) for r in results])
    return 0


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
    ap.add_argument("--reference", default=None, metavar="DIR",
                    help="reference mode: align and score every --ref-glob alignment under DIR "
                         "(e.g. .peers/data/nucleotide/bralibase2.1)")
    ap.add_argument("--ref-glob", default="**/*.ref.fa*",
                    help="reference files under --reference, gzipped or not "
                         "(default **/*.ref.fa*)")
    ap.add_argument("--per-family", type=int, default=0,
                    help="references kept per RNA family and set, spread over APSI (0: all)")
    ap.add_argument("--shard", default=None, metavar="I/N",
                    help="every N-th selected reference from the I-th (1-based)")
    ap.add_argument("--merge", nargs="+", default=None, metavar="TSV",
                    help="summarise --reference TSVs (e.g. shards) and exit")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.merge:
        summarise_reference(read_tsv(args.merge))
        return 0
    tools = [t for t in args.tools.split(",") if t]
    for t in tools:
        if t not in TOOLS:
            ap.error(f"unknown tool {t!r}")
    for t in EXTERNAL:
        if t in tools and not shutil.which(t):
            log.warning("%s not on PATH (source .peers/env.sh): skipped", t)
            tools.remove(t)
    if args.shard and not re.fullmatch(r"[1-9]\d*/[1-9]\d*", args.shard):
        ap.error("--shard takes I/N, 1 <= I <= N")
    if args.reference:
        return main_reference(args, tools)
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
