"""Scale-out benchmark: one vs two GPU workers of a Dask LocalCluster, end to end.

Issue 15's targets on a two-GPU host (``nvidia-h200-x2``): the all-vs-all of 20,000 and 50,000
random proteins (lengths 50-1,000, BLOSUM62 11/1 local, as ``benchmarks/pairwise.py``) scales
>= 1.9x from one to two GPU workers, and 1,000 families align >= 1.8x faster on two.

Each measurement starts a ``LocalCluster`` (one single-threaded process worker per GPU,
pinned by ``DevicePlugin``), runs a small warm-up job on it (kernel builds, driver start),
then times the whole job into a fresh output folder: planning, tiles, writing the top-k
hits (Parquet) or the score matrix (``--matrix``, Zarr; 20 GB for 50,000) and the manifest;
families: reading, aligning and writing one Clustal file per family. The ratio printed is
time on one worker / time on two.

Run: ``python benchmarks/dask_scaling.py [--n 20000,50000] [--families 1000] [--top 10]
[--json out.json]`` (``--n 0`` or ``--families 0`` skips a part).
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import sys
import tempfile
import time
from pathlib import Path

# This file's name shadows Dask's ``distributed`` package while its folder leads sys.path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

import numpy as np  # noqa: E402

from bioplug.distributed import align_families, all_vs_all, local_cluster  # noqa: E402
from bioplug.runtime.devices import list_devices  # noqa: E402

log = logging.getLogger("benchmarks.distributed")
AMINO = "ACDEFGHIKLMNPQRSTVWY"
SCORING = {"mode": "local", "open_gap_score": -11.0, "extend_gap_score": -1.0}


def random_proteins(n: int, seed: int, low: int = 50, high: int = 1000) -> list[str]:
    rng = np.random.default_rng(seed)
    letters = np.array(list(AMINO))
    return ["".join(rng.choice(letters, k)) for k in rng.integers(low, high + 1, n)]


def write_families(folder: Path, count: int, seed: int) -> list[Path]:
    """``count`` families of 10-60 related proteins (point mutations and short indels of a
    random root of 80-400 residues)."""
    rng = np.random.default_rng(seed)
    letters = np.array(list(AMINO))
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for f in range(count):
        root = rng.choice(letters, int(rng.integers(80, 401)))
        lines = []
        for s in range(int(rng.integers(10, 61))):
            seq = root.copy()
            hits = rng.random(len(seq)) < 0.25
            seq[hits] = rng.choice(letters, int(hits.sum()))
            cut = int(rng.integers(0, len(seq) - 10))
            seq = np.concatenate([seq[:cut], seq[cut + int(rng.integers(0, 6)):]])
            lines.append(f">f{f}_s{s}\n{''.join(seq)}\n")
        paths.append(folder / f"family{f:05d}.fasta")
        paths[-1].write_text("".join(lines))
    return paths


def timed(devices: list[str], job, warm) -> float:
    """Seconds of ``job(cluster)`` on a fresh local cluster of these devices, after
    ``warm(cluster)``."""
    with local_cluster(devices=devices, dashboard_address=None) as cluster:
        warm(cluster)
        start = time.perf_counter()
        job(cluster)
        return time.perf_counter() - start


def pairwise_case(n: int, gpus: list[str], top: int | None, work: Path) -> dict:
    from Bio.Align import substitution_matrices

    blosum = substitution_matrices.load("BLOSUM62")
    seqs = random_proteins(n, seed=1)
    small = random_proteins(300, seed=2)
    out = {"n": n, "top": top}
    for label, devices in (("1 GPU", gpus[:1]), ("2 GPUs", gpus[:2])):
        target = work / f"avsa-{n}-{len(devices)}"
        shutil.rmtree(target, ignore_errors=True)

        def warm(cluster, target=target):
            all_vs_all(small, target.with_suffix(".warm"), top=top, client=cluster,
                       substitution_matrix=blosum, **SCORING)

        def job(cluster, target=target):
            all_vs_all(seqs, target, top=top, client=cluster, substitution_matrix=blosum,
                       **SCORING)

        out[label] = timed(devices, job, warm)
        log.info("all-vs-all %d, %s: %.2f s", n, label, out[label])
        shutil.rmtree(target, ignore_errors=True)
        shutil.rmtree(target.with_suffix(".warm"), ignore_errors=True)
    out["ratio"] = out["1 GPU"] / out["2 GPUs"]
    lengths = np.array([len(s) for s in seqs], dtype=np.float64)
    out["gcells"] = float((lengths.sum() ** 2 + (lengths ** 2).sum()) / 2 / 1e9)
    return out


def families_case(count: int, gpus: list[str], work: Path) -> dict:
    inputs = write_families(work / "families", count, seed=3)
    warm_inputs = write_families(work / "warm-families", 4, seed=4)
    out = {"families": count}
    for label, devices in (("1 GPU", gpus[:1]), ("2 GPUs", gpus[:2])):
        target = work / f"msa-{len(devices)}"
        shutil.rmtree(target, ignore_errors=True)

        def warm(cluster, target=target):
            align_families(warm_inputs, target.with_suffix(".warm"), "quickprobs",
                           format="clustal", client=cluster)

        def job(cluster, target=target):
            align_families(inputs, target, "quickprobs", format="clustal", client=cluster)

        out[label] = timed(devices, job, warm)
        log.info("%d families, %s: %.2f s", count, label, out[label])
    same = all((work / "msa-1" / p.name).read_bytes() == (work / "msa-2" / p.name).read_bytes()
               for p in (work / "msa-1").glob("*.aln"))
    out["identical"] = bool(same)
    out["ratio"] = out["1 GPU"] / out["2 GPUs"]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", default="20000,50000", help="all-vs-all sizes (comma-separated)")
    p.add_argument("--families", type=int, default=1000, help="families to align")
    p.add_argument("--top", type=int, default=10, help="hits kept per sequence")
    p.add_argument("--matrix", action="store_true", help="write the whole matrix (Zarr)")
    p.add_argument("--work", default=None, help="scratch folder (default: a temporary one)")
    p.add_argument("--json", default=None, help="also write the results here")
    p.add_argument("--devices", default=None,
                   help="two device specifications (default: the first two GPUs; "
                        "'cpu,cpu' checks the script itself on PoCL)")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stdout)
    logging.getLogger("distributed").setLevel(logging.WARNING)  # per-worker chatter
    gpus = (args.devices.split(",") if args.devices
            else [d.spec for d in list_devices() if d.kind == "GPU"])
    if len(gpus) < 2:
        log.error("needs two GPUs; found %d", len(gpus))
        return 1
    work = Path(args.work or tempfile.mkdtemp(prefix="bioplug-distributed-"))
    results = []
    for n in (int(x) for x in args.n.split(",") if int(x)):
        results.append(pairwise_case(n, gpus, None if args.matrix else args.top, work))
    if args.families:
        results.append(families_case(args.families, gpus, work))
    for r in results:
        what = f"all-vs-all N = {r['n']}" if "n" in r else f"{r['families']} families"
        target = 1.9 if "n" in r else 1.8
        log.info("%-28s 1 GPU %8.2f s   2 GPUs %8.2f s   speed-up %.2fx (target %.1fx: %s)",
                 what, r["1 GPU"], r["2 GPUs"], r["ratio"], target,
                 "met" if r["ratio"] >= target else "NOT met")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
