"""Long-protein families: bioplug's QuickProbs pipeline against pyfamsa on a set shaped like
issue 19's kept-back one (up to ~140 sequences of up to ~4,500 residues).

Usage::

    python benchmarks/long_proteins.py [--families 16] [--k 10:140] [--length 500:4500]
        [--device gpu] [--threads 16] [--no-cli] [--seed 19]

Each family is simulated by ``benchmarks/simulate.py``'s model (``evolve``, scale 0.12): k and
the root length drawn uniformly from the given ranges, family i with seed ``100 + i``; the true
alignment is known, and SP / TC are scored on every column (``bioplug.msa.score.sp_tc``).
bioplug runs in process (``MultipleSequenceAligner``, default options) twice over the whole
set, the first pass building programs, and reports the second: time per stage summed over
the families, and each family's mode and stages. Then ``bioplug msa FAMILY -o OUT`` runs in
its own process per family (file written), the time a user waits (``--no-cli`` skips it). pyfamsa
(``pip install pyfamsa``) runs on the same families with ``--threads`` threads; the last line
gives the time ratio.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import simulate  # noqa: E402

from bioplug.msa.score import read_alignment, read_reference, sp_tc  # noqa: E402


def make_families(count: int, k_range, length_range, seed: int, folder: Path) -> list[dict]:
    """``count`` simulated families written to ``folder`` (input and true alignment)."""
    rng = np.random.default_rng(seed)
    fams = []
    for i in range(count):
        k = int(rng.integers(k_range[0], k_range[1] + 1))
        length = int(rng.integers(length_range[0], length_range[1] + 1))
        names, texts, rows = simulate.evolve(k, length, 100 + i, scale=0.12)
        fasta, true = folder / f"family{i}.fa", folder / f"family{i}_true.fa"
        fasta.write_text("".join(f">{n}\n{t}\n" for n, t in zip(names, texts, strict=True)))
        true.write_text("".join(f">{n}\n{r}\n" for n, r in zip(names, rows, strict=True)))
        fams.append({"k": k, "length": length, "fasta": fasta, "ref": read_reference(true),
                     "names": names, "texts": texts})
    return fams


def run_bioplug(fams: list[dict], device: str | None) -> dict:
    """Two passes in process; the second's totals, per-family lines and mean SP / TC."""
    from bioplug.msa.aligner import MultipleSequenceAligner

    aligner = MultipleSequenceAligner(device=device)
    for rep in range(2):
        stages, scores, wall, lines = {}, [], 0.0, []
        for fam in fams:
            t0 = time.perf_counter()
            aln = aligner.align(str(fam["fasta"]))
            wall += time.perf_counter() - t0
            for stage, secs in aligner.last_times.items():
                stages[stage] = stages.get(stage, 0.0) + secs
            ids = [r.id for r in aln.sequences]
            scores.append(sp_tc(ids, [str(aln[j]) for j in range(len(ids))], fam["ref"]))
            lines.append(f"  {fam['k']:4d} x {fam['length']:5d}: {aligner.last_mode}, "
                         + ", ".join(f"{s} {v:.2f}" for s, v in aligner.last_times.items()))
        print(f"bioplug pass {rep + 1}: {wall:.1f} s", flush=True)
    print("\n".join(lines))
    return {"time": wall, "stages": stages, "scores": np.array(scores) * 100}


def run_cli(fams: list[dict], device: str | None, folder: Path) -> dict:
    """``bioplug msa FAMILY -o OUT`` in its own process per family."""
    scores, wall = [], 0.0
    for i, fam in enumerate(fams):
        out = folder / f"bioplug{i}.fa"
        cmd = [sys.executable, "-m", "bioplug", "-q", "msa", str(fam["fasta"]), "-o", str(out)]
        if device:
            cmd += ["--device", device]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True)
        wall += time.perf_counter() - t0
        ids, rows = read_alignment(str(out))
        scores.append(sp_tc(ids, rows, fam["ref"]))
    return {"time": wall, "scores": np.array(scores) * 100}


def run_pyfamsa(fams: list[dict], threads: int) -> dict | None:
    try:
        import pyfamsa
    except ImportError:
        print("pyfamsa is not installed (pip install pyfamsa): skipped")
        return None
    aligner = pyfamsa.Aligner(threads=threads)
    scores, wall = [], 0.0
    for fam in fams:
        seqs = [pyfamsa.Sequence(n.encode(), t.encode())
                for n, t in zip(fam["names"], fam["texts"], strict=True)]
        t0 = time.perf_counter()
        aln = aligner.align(seqs)
        wall += time.perf_counter() - t0
        scores.append(sp_tc([g.id.decode() for g in aln], [g.sequence.decode() for g in aln],
                            fam["ref"]))
    return {"time": wall, "scores": np.array(scores) * 100}


def _range(text: str) -> tuple[int, int]:
    lo, hi = (int(v) for v in text.split(":"))
    return lo, hi


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--families", type=int, default=16)
    ap.add_argument("--k", type=_range, default=(10, 140), help="sequences, LO:HI")
    ap.add_argument("--length", type=_range, default=(500, 4500), help="root length, LO:HI")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--device", default=None)
    ap.add_argument("--threads", type=int, default=16, help="pyfamsa threads")
    ap.add_argument("--no-cli", dest="cli", action="store_false",
                    help="skip timing the bioplug msa command (a process per family)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bioplug-long-") as tmp:
        folder = Path(tmp)
        fams = make_families(args.families, args.k, args.length, args.seed, folder)
        results = {"bioplug": run_bioplug(fams, args.device)}
        if args.cli:
            results["bioplug msa (CLI)"] = run_cli(fams, args.device, folder)
        famsa = run_pyfamsa(fams, args.threads)
        if famsa is not None:
            results[f"pyfamsa ({args.threads} threads)"] = famsa
    stages = results["bioplug"]["stages"]
    print(f"{len(fams)} families, k {args.k[0]}-{args.k[1]}, length {args.length[0]}-"
          f"{args.length[1]}; bioplug stages (s): "
          + ", ".join(f"{s} {v:.1f}" for s, v in stages.items()))
    print(f"{'tool':24s} {'SP':>6s} {'TC':>6s} {'time s':>8s} {'x bioplug':>9s}")
    base = results["bioplug"]["time"]
    for name, res in results.items():
        sp, tc = res["scores"].mean(axis=0)
        print(f"{name:24s} {sp:6.2f} {tc:6.2f} {res['time']:8.1f} {res['time'] / base:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
