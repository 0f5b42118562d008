"""Adding fragments to an alignment: ``bioplug profile --add-fragments`` against ``mafft
--addfragments``, in one run, on cases whose true alignment is known.

Cases: a simulated family (``--existing + --fragments`` proteins, ``simulate.evolve``: a
random tree, substitutions and indels), whose first ``--existing`` true rows (columns of gaps
only removed) are the alignment given to both tools; or reference alignments
(``--references DIR ...``: BAliBASE XML, scored on core columns; HomFam references; BRAliBASE
``*.ref.fa.gz``), every other row given; with ``--homologs`` (HomFam's family sequences) the
given rows and ``--depth`` homologs are aligned by ``--given-by`` (MAFFT, Clustal Omega or
bioplug) first: a deep alignment as users have them, scored on the reference rows. Each
other sequence is cut to a random window of ``--min-frac``-1 of its length (reads, partial
genes) and added. Every tool runs as the user runs it, output file written (the time is the
process's, start to exit; peak memory its ru_maxrss: ``progressive.run_process``); bioplug's
``add`` call is timed in this process too, warm (``in_process_s``), beside it:

``bioplug``          ``bioplug -q profile aln.fa --add-fragments frags.fa -o out.fa --device D``
``mafft``            ``mafft --addfragments frags.fa --thread T aln.fa`` (its default, 6mer
                     pairs)
``mafft-local``      the same with ``--localpair`` (MAFFT's accurate choice for few fragments)

``--keep-length`` adds the tools' keep-length option to every command.

Scores, against the truth: a pair is a fragment's residue and a residue of a scored given row
(every given row, or the reference rows) in one column. *Recall* is the share of the true
pairs the output aligns (what SP measures), *precision* the share of the output's pairs that
are true. The given alignment's rows must come back unchanged (its columns kept: ``kept``).

Examples (repository root)::

    # here, PoCL
    python benchmarks/add.py --existing 20 --fragments 200 --length 200 --device cpu
    python benchmarks/add.py --references ../shared/bench/balibase3/RV11 --repeats 1
    python benchmarks/add.py --references ../shared/bench/homfam/ref --homologs \\
        ../shared/bench/homfam/small --depth 200 --every 4 --given-by clustalo --repeats 1
    # GPU machine: bash .device/prelude.sh && python benchmarks/add.py --existing 100 \\
    #   --fragments 20000 --length 300 --device gpu --threads 16 --peers-dir .peers
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from progressive import bioplug_command, peer_environment, run_process  # noqa: E402
from simulate import evolve  # noqa: E402

GAP = ord("-")


@dataclass
class Case:
    """One case: the files are written to the work folder; ``partners[name]`` is, for each
    residue of fragment ``name`` and each scored row of the given alignment, the index of
    the residue of that row it is truly aligned with (-1: none); ``counted[name]`` marks the
    residues in scored reference columns; ``given`` the rows as written (for ``kept``)."""

    label: str
    scored: list[str]
    partners: dict[str, np.ndarray]
    counted: dict[str, np.ndarray]
    frags: dict[str, str]
    given: dict[str, str] = field(default_factory=dict)


def _matrix(rows: list[str]) -> np.ndarray:
    return np.frombuffer("".join(rows).replace(".", "-").upper().encode(),
                         np.uint8).reshape(len(rows), -1)


def _residue_index(arr: np.ndarray) -> np.ndarray:
    """Per row and column, the index of the row's residue there (-1 at gaps)."""
    res = arr != GAP
    return np.where(res, np.cumsum(res, axis=1) - 1, -1)


def cut_fragments(true: np.ndarray, texts: list[str], pick: list[int], given: list[int],
                  scored: np.ndarray, names: list[str], min_frac: float, rng) -> tuple:
    """Random windows of the rows ``pick`` of a true alignment, with their true partners in
    the rows ``given`` (residue indices of those sequences)."""
    index = _residue_index(true[given])
    partners, counted, frags = {}, {}, {}
    for i, name in zip(pick, names, strict=True):
        cols = np.flatnonzero(true[i] != GAP)
        span = max(1, int(round(cols.size * rng.uniform(min_frac, 1.0))))
        lo = int(rng.integers(cols.size - span + 1))
        window = cols[lo:lo + span]
        partners[name] = index[:, window].T.copy()
        counted[name] = scored[window]
        frags[name] = texts[i][lo:lo + span]
    return partners, counted, frags


def write_fasta(path: Path, records: dict[str, str]) -> None:
    path.write_text("".join(f">{n}\n{t}\n" for n, t in records.items()))


def simulated_case(existing: int, fragments: int, length: int, seed: int, min_frac: float,
                   work: Path) -> Case:
    """A simulated family: its first ``existing`` true rows given, the others cut."""
    names, texts, rows = evolve(existing + fragments, length, seed)
    true = _matrix(rows)
    keep = (true[:existing] != GAP).any(axis=0)
    given = {n: true[i, keep].tobytes().decode() for i, n in enumerate(names[:existing])}
    frag_names = [f"frag{i}" for i in range(fragments)]
    partners, counted, frags = cut_fragments(
        true, texts, list(range(existing, len(names))), list(range(existing)),
        np.ones(true.shape[1], bool), frag_names, min_frac, np.random.default_rng(seed + 1))
    write_fasta(work / "aln.fa", given)
    write_fasta(work / "frags.fa", frags)
    return Case(f"seed {seed}", names[:existing], partners, counted, frags, given)


def reference_case(path: Path, min_frac: float, work: Path, homologs: Path | None = None,
                   depth: int = 0, threads: int = 2, env: dict | None = None,
                   given_by: str = "mafft") -> Case:
    """From a reference alignment (BAliBASE XML: core columns scored; others: all columns):
    every other row is given, the rest are cut to random windows and added. With
    ``homologs`` (a HomFam family's sequences), the given alignment is ``given_by``'s
    (``mafft --auto``, Clustal Omega or bioplug's progressive method) of the given rows'
    sequences and the first ``depth`` homologs: a deep alignment as users have them, scored
    on the reference rows only."""
    from bioplug.msa.score import read_reference

    ref = read_reference(path)
    true = _matrix(ref.rows)
    texts = [r.replace("-", "").replace(".", "") for r in ref.rows]
    given = [i for i in range(len(texts)) if i % 2 == 0]
    pick = [i for i in range(len(texts)) if i % 2]
    names = [f"ref{i}" for i in given]
    partners, counted, frags = cut_fragments(true, texts, pick, given, ref.scored,
                                             [f"frag{i}" for i in pick], min_frac,
                                             np.random.default_rng(1))
    write_fasta(work / "frags.fa", frags)
    if homologs is None:
        keep = (true[given] != GAP).any(axis=0)
        rows = {n: true[i, keep].tobytes().decode() for n, i in zip(names, given, strict=True)}
        write_fasta(work / "aln.fa", rows)
        return Case(path.name, names, partners, counted, frags, rows)
    seqs = dict(zip(names, (texts[i] for i in given), strict=True))
    for n, t in list(read_fasta(homologs).items())[:depth]:
        seqs.setdefault(f"hom_{n}", t.upper().replace("-", "").replace(".", ""))
    write_fasta(work / "family.fa", seqs)
    family = str(work / "family.fa")
    builders = {"mafft": ["mafft", "--quiet", "--auto", "--anysymbol", "--thread",
                          str(threads), family],
                "clustalo": ["clustalo", "-i", family, f"--threads={threads}"],
                "bioplug": [*bioplug_command(), "-q", "msa", family, "-o", "-",
                            "--method", "progressive"]}
    with open(work / "aln.fa", "wb") as out:
        subprocess.run(builders[given_by], stdout=out, check=True, env=env)
    return Case(f"{path.name} +{min(depth, len(seqs) - len(names))}", names, partners,
                counted, frags, read_fasta(work / "aln.fa"))


def read_fasta(path: Path) -> dict[str, str]:
    out, name, parts = {}, None, []
    for line in path.read_text().splitlines():
        if line.startswith(">"):
            if name is not None:
                out[name] = "".join(parts)
            name, parts = line[1:].split()[0], []
        else:
            parts.append(line.strip())
    if name is not None:
        out[name] = "".join(parts)
    return out


def score(out: Path, case: Case) -> tuple[int, int, int, int, bool, int]:
    """(true pairs, found, pairs made, right, given rows kept, residues deleted) of one
    output; only residues in scored reference columns count."""
    rows = read_fasta(out)
    old = _matrix([rows[n] for n in case.given])
    keep = (old != GAP).any(axis=0)
    kept = [r.tobytes().decode() for r in old[:, keep]] == [
        r.upper().replace(".", "-") for r in _drop_gap_columns(list(case.given.values()))]
    index = _residue_index(_matrix([rows[n] for n in case.scored]))
    pairs = found = made = right = deleted = 0
    for name, true in case.partners.items():
        row = np.frombuffer(rows[name].encode(), np.uint8)
        where = np.flatnonzero(row != GAP)
        got = np.full(true.shape, -1)
        if where.size == len(case.frags[name]):
            got[:] = index[:, where].T
        else:   # residues deleted (keep-length): the kept ones in order
            deleted += len(case.frags[name]) - where.size
            got[_kept_positions(case.frags[name], rows[name])] = index[:, where].T
        c = case.counted[name][:, None]
        pairs += int(((true >= 0) & c).sum())
        found += int(((got == true) & (true >= 0) & c).sum())
        made += int(((got >= 0) & c).sum())
        right += int(((got == true) & (got >= 0) & c).sum())
    return pairs, found, made, right, kept, deleted


def _drop_gap_columns(rows: list[str]) -> list[str]:
    arr = _matrix(rows)
    return [r.tobytes().decode() for r in arr[:, (arr != GAP).any(axis=0)]]


def _kept_positions(text: str, row: str) -> np.ndarray:
    """Positions in ``text`` of the letters left in ``row`` (a subsequence: greedy match)."""
    letters = row.replace("-", "")
    out, j = [], 0
    for i, c in enumerate(text):
        if j < len(letters) and c.upper() == letters[j].upper():
            out.append(i)
            j += 1
    return np.array(out[: len(letters)], dtype=np.int64)


def command(tool: str, work: Path, args) -> tuple[list[str], Path | None]:
    aln, frags, out = str(work / "aln.fa"), str(work / "frags.fa"), work / f"{tool}.fa"
    if tool == "bioplug":
        cmd = [*bioplug_command(), "-q", "profile", aln, "--add-fragments", frags, "-o",
               str(out), "--device", args.device]
        cmd += args.bioplug_options.split()
        return cmd + (["--keep-length"] if args.keep_length else []), None
    cmd = ["mafft", "--quiet", "--thread", str(args.threads), "--addfragments", frags]
    cmd += ["--localpair"] if tool == "mafft-local" else []
    cmd += ["--keeplength"] if args.keep_length else []
    return cmd + [aln], out


def cases(args, work: Path, env: dict):
    """Every case, its files written to ``work``."""
    if args.references:
        paths = sorted(q for d in args.references for q in Path(d).rglob("*") if q.is_file()
                       and (q.suffix in ("", ".xml") or q.name.endswith(".ref.fa.gz"))
                       and not q.name.startswith(".") and q.name != "SOURCE")
        for path in paths[: args.first: args.every]:
            homologs = args.homologs / path.name if args.homologs else None
            yield reference_case(path, args.min_frac, work, homologs, args.depth,
                                 args.threads, env, args.given_by)
        return
    for seed in (int(s) for s in args.seeds.split(",")):
        yield simulated_case(args.existing, args.fragments, args.length, seed, args.min_frac,
                             work)


def in_process(work: Path, args) -> float:
    """Median seconds of ``ProgressiveAligner.add`` on the case in this process (files read,
    nothing written), after one warm-up call: beside the CLI's wall time, what start-up and
    writing cost."""
    import time

    from bioplug.io import read_records
    from bioplug.progressive import ProgressiveAligner

    aligner = ProgressiveAligner(device=args.device)
    aln, frags = read_records(work / "aln.fa"), read_records(work / "frags.fa")
    times = []
    for _ in range(args.repeats + 1):
        t0 = time.perf_counter()
        aligner.add(aln, frags, fragments=True, keep_length=args.keep_length)
        times.append(time.perf_counter() - t0)
    return statistics.median(times[1:])


def run_tool(tool: str, work: Path, env: dict, args) -> tuple[str, list[float], int]:
    """(status, walls, peak RSS KiB) of ``--repeats`` runs of one tool."""
    walls, peak = [], 0
    for r in range(args.repeats):
        cmd, stdout = command(tool, work, args)
        log = work / f"{tool}.{r}.log"
        status, wall, rss, note = run_process(cmd, stdout=stdout, cwd=work, env=env,
                                              timeout=args.timeout, log=log)
        if status != "ok":
            return f"{status}: {note or log.read_text()[-300:]}", walls, peak
        walls.append(wall)
        peak = max(peak, rss or 0)
    return "ok", walls, peak


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--existing", type=int, default=50)
    p.add_argument("--fragments", type=int, default=1000)
    p.add_argument("--length", type=int, default=300)
    p.add_argument("--min-frac", type=float, default=0.3)
    p.add_argument("--seeds", default="1")
    p.add_argument("--references", nargs="*", default=None, metavar="DIR",
                   help="folders of reference alignments (BAliBASE .xml, HomFam ref/, "
                        "BRAliBASE *.ref.fa.gz, searched below too) instead of simulated "
                        "families")
    p.add_argument("--homologs", type=Path, default=None, metavar="DIR",
                   help="HomFam's family sequences (homfam/small): each given alignment is "
                        "the given reference rows and --depth homologs, aligned by --given-by")
    p.add_argument("--depth", type=int, default=200)
    p.add_argument("--given-by", choices=("mafft", "clustalo", "bioplug"), default="mafft",
                   help="the tool that aligns the given rows and homologs (--homologs)")
    p.add_argument("--first", type=int, default=None, help="the first N references only")
    p.add_argument("--every", type=int, default=1, help="every N-th reference only")
    p.add_argument("--tools", default="bioplug,mafft,mafft-local")
    p.add_argument("--device", default="cpu")
    p.add_argument("--bioplug-options", default="", help="extra options of bioplug profile")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--keep-length", action="store_true")
    p.add_argument("--no-in-process", dest="in_process", action="store_false",
                   help="skip bioplug's in-process timing (the add call, files read but not "
                        "written) beside its CLI wall time")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--peers-dir", type=Path, default=None)
    args = p.parse_args(argv)
    env, where = peer_environment(args.peers_dir)
    tools = args.tools.split(",")
    print(f"# {'references ' + ' '.join(args.references) if args.references else ''}"
          f"existing {args.existing}, fragments {args.fragments}, length {args.length}, "
          f"min-frac {args.min_frac}, keep-length {args.keep_length}, device {args.device}, "
          f"threads {args.threads}; peers from {where}")
    print("case\ttool\twall_s\tin_process_s\tpeak_MiB\trecall\tprecision\tkept\tdeleted\t"
          "status")
    totals = {t: np.zeros(4) for t in tools}
    walls_of: dict[str, list[float]] = {t: [] for t in tools}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for case in cases(args, work, env):
            label = case.label
            for tool in tools:
                status, walls, peak = run_tool(tool, work, env, args)
                if status != "ok":
                    print(f"{label}\t{tool}\t\t\t\t\t\t\t\t{status}", flush=True)
                    continue
                pairs, found, made, right, kept, deleted = score(work / f"{tool}.fa", case)
                totals[tool] += (pairs, found, made, right)
                walls_of[tool].append(statistics.median(walls))
                inner = (f"{in_process(work, args):.2f}" if tool == "bioplug"
                         and args.in_process and not args.bioplug_options else "")
                print(f"{label}\t{tool}\t{statistics.median(walls):.2f}\t{inner}\t"
                      f"{peak / 1024:.0f}\t"
                      f"{100 * found / max(pairs, 1):.2f}\t{100 * right / max(made, 1):.2f}\t"
                      f"{kept}\t{deleted}\tok", flush=True)
    for tool in tools:
        pairs, found, made, right = totals[tool]
        print(f"# {tool}: recall {100 * found / max(pairs, 1):.2f}, precision "
              f"{100 * right / max(made, 1):.2f} (pooled pairs), {len(walls_of[tool])} cases, "
              f"{sum(walls_of[tool]):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
