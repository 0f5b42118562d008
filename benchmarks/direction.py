"""Sequences in either direction: ``bioplug msa --adjust-direction`` against ``mafft
--adjustdirection``, in one run, on reference alignments whose sequences are turned at random.

Each case is a BRAliBASE 2.1 reference (``*.ref.fa.gz``; or any FASTA reference alignment)
whose sequences are each reverse-complemented with probability ``--turn`` (seeded), the
family written unaligned. Both tools align it as users run them (file written; time from
start to exit, ``progressive.run_process``):

``bioplug``   ``bioplug -q msa in.fa -o out.fa --adjust-direction --device D``
``mafft``     ``mafft --adjustdirection --auto --thread T in.fa``
``mafft-acc`` ``mafft --adjustdirectionaccurately --auto --thread T in.fa``

A case is *oriented* when the rows a tool turned (named ``_R_...`` by both) are exactly the
turned ones or exactly the others (a tool faces the family the first sequence's way). Where
both tools oriented a case, SP / TC of the output against the reference (every column; rows
of a family turned as a whole are turned back first).

Example (repository root)::

    python benchmarks/direction.py .peers/data/nucleotide/bralibase2.1/k10 --every 4 --device cpu
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from progressive import (  # noqa: E402
    add_peer_run_options,
    bioplug_command,
    peer_environment,
    run_process,
)

PREFIX = "_R_"


def references(folder: str, every: int) -> list[Path]:
    return sorted(Path(folder).rglob("*.ref.fa.gz"))[::every]


def read_fasta(text: str) -> list[tuple[str, str]]:
    out = []
    for block in text.split(">")[1:]:
        head, *seq = block.splitlines()
        out.append((head.split()[0], "".join(seq)))
    return out


def tool_command(tool: str, inp: Path, out: Path, args) -> tuple[list[str], Path | None]:
    if tool == "bioplug":
        cmd = [*bioplug_command(), "-q", "msa", str(inp), "-o", str(out), "--adjust-direction"]
        return cmd + (["--device", args.device] if args.device else []), None
    flag = "--adjustdirectionaccurately" if tool == "mafft-acc" else "--adjustdirection"
    return ["mafft", flag, "--auto", "--thread", str(args.threads), "--quiet", str(inp)], out


def run_case(path: Path, args, env, rng, work: Path) -> list[dict]:
    from bioplug.msa.direction import complement
    from bioplug.msa.score import Reference, sp_tc

    ref = read_fasta(gzip.open(path, "rt").read())
    ids = [n for n, _ in ref]
    rows = [r.upper().replace(".", "-") for _, r in ref]
    turn = rng.random(len(ids)) < args.turn
    plain = [r.replace("-", "") for r in rows]
    inp = work / "in.fa"
    inp.write_text("".join(f">{n}\n{complement(t) if f else t}\n"
                           for n, t, f in zip(ids, plain, turn, strict=True)))
    reference = Reference(ids, rows, np.ones(len(rows[0]), dtype=bool))
    out_rows = []
    for tool in args.tools.split(","):
        out = work / f"{tool}.fa"
        out.unlink(missing_ok=True)
        cmd, stdout = tool_command(tool, inp, out, args)
        status, wall, _, note = run_process(cmd, stdout=stdout, cwd=work, env=env,
                                            timeout=args.timeout, log=work / f"{tool}.log")
        row = dict(case=path.name.split(".ref")[0], tool=tool, k=len(ids), turned=int(turn.sum()),
                   status=status if status == "ok" else f"{status} {note}", wall=wall)
        if status == "ok" and out.exists():
            got = read_fasta(out.read_text())
            said = np.array([n.startswith(PREFIX) for n, _ in got])
            names = [n[len(PREFIX):] if n.startswith(PREFIX) else n for n, _ in got]
            order = [names.index(n) for n in ids]
            said = said[order]
            whole = bool((said == turn).all() or (said == ~turn).all())
            row.update(oriented=whole, wrong=int(min((said != turn).sum(), (said == turn).sum())))
            if whole:
                texts = [got[i][1].upper() for i in order]
                if (said == ~turn).all():   # the family faces the other way: turn it back
                    texts = [complement(t) for t in texts]
                row["sp"], row["tc"] = (100 * v for v in sp_tc(ids, texts, reference))
        out_rows.append(row)
        print("\t".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}"
                        for k, v in row.items()), flush=True)
    return out_rows


def summary(rows: list[dict], tools: list[str]) -> None:
    cases = sorted({r["case"] for r in rows})
    both = [c for c in cases if all(any(r["case"] == c and r["tool"] == t and r.get("oriented")
                                        for r in rows) for t in tools)]
    print(f"\ntool\tcases\toriented\twrong sequences\tSP / TC on the {len(both)} cases all "
          "tools oriented\twall s (sum)")
    for tool in tools:
        mine = [r for r in rows if r["tool"] == tool]
        good = [r for r in mine if r["case"] in both and "sp" in r]
        sp = statistics.mean(r["sp"] for r in good) if good else float("nan")
        tc = statistics.mean(r["tc"] for r in good) if good else float("nan")
        print(f"{tool}\t{len(mine)}\t{sum(bool(r.get('oriented')) for r in mine)}\t"
              f"{sum(r.get('wrong', 0) for r in mine)}\t{sp:.2f} / {tc:.2f}\t"
              f"{sum(r['wall'] for r in mine):.1f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder")
    p.add_argument("--every", type=int, default=1)
    p.add_argument("--turn", type=float, default=0.4)
    p.add_argument("--tools", default="bioplug,mafft,mafft-acc")
    add_peer_run_options(p, timeout=300)
    args = p.parse_args()
    env, where = peer_environment(args.peers_dir)
    print(f"# peers from {where}")
    rng = np.random.default_rng(args.seed)
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in references(args.folder, args.every):
            rows += run_case(path, args, env, rng, Path(tmp))
    summary(rows, args.tools.split(","))


if __name__ == "__main__":
    main()
