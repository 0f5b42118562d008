"""Tree benchmark: bioplug NJ vs scikit-bio ``nj`` vs ``quicktree``, plus k-tuple distances.

Distance matrices are Euclidean distances between random points in 20-D (seeded), one per
size. For each size:

* **bioplug**: ``bioplug.tree.nj`` end to end, run stage by stage with the same calls
  (validation, packing, device: upload + loop, TreeNode) so each stage is timed (the packing
  now happens on the device, inside "upload": the pack column stays at 0). The device
  loop's achieved memory bandwidth is reported: bytes the scan reads (4 bytes per live cell
  with the float32 shadow scan, whose float64 reads are a handful per iteration, 8 without)
  plus the O(r) join traffic, summed over
  iterations, over the loop time. The bioplug tree is checked against scikit-bio's
  (RF distance 0) whenever scikit-bio runs.
* **scikit-bio**: ``skbio.tree.nj`` (one thread).
* **quicktree**: ``quicktree -in m -out t`` on a PHYLIP file (its time includes parsing the
  file; writing the file is not timed).

A peer is skipped (and the table says so) when it is not installed, when n exceeds
``--peer-max-n``, or when its time, extrapolated as n^3 from its last measured size, exceeds
``--peer-limit`` seconds.
Medians of ``--repeats`` runs after a warm-up (kernel builds); sizes above 4,000 run once.

k-tuple distances: ``--ktuple-sizes`` random proteins of ~300 residues (250-350), k = 2,
shared k-tuples of all pairs counted on the device (``bioplug.tree.ktuple_distances``).

Bootstrap: ``--bootstrap R`` replicates of NJ on ``--bootstrap-n`` simulated aligned proteins
(``bioplug.tree.bootstrap``, after a warm-up), then the first ``--bootstrap-skbio-sample`` of
the same replicates (same column draws) through numpy p-distances and ``skbio.tree.nj``, whose
time per replicate is extrapolated to R.

Run: ``python benchmarks/tree.py [--device gpu] [--sizes 1000,4000,10000,50000]
[--ktuple-sizes 1000,10000] [--clustalw-sizes 1000,10000] [--json out.json]``

ClustalW fast mode: ``--clustalw-sizes`` random proteins of ~300 residues, the Wilbur-Lipman
k-tuple scores of all pairs on the device (``bioplug.tree.clustalw_fast_distances``, ClustalW's
protein defaults), with the ``clustalw`` binary's ``-quicktree -newtree`` in the same run when
it is installed and n <= ``--clustalw-peer-max-n``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

import numpy as np

AMINO = "ACDEFGHIKLMNPQRSTVWY"


def random_matrix(n: int, seed: int = 0, dim: int = 20, block: int = 2048) -> np.ndarray:
    """Euclidean distances of n random points in ``dim``-D, built in row blocks."""
    x = np.random.default_rng(seed).random((n, dim))
    sq = (x * x).sum(1)
    d = np.empty((n, n))
    for s in range(0, n, block):
        e = min(n, s + block)
        blk = sq[s:e, None] + sq[None, :] - 2.0 * (x[s:e] @ x.T)
        np.maximum(blk, 0, out=blk)
        np.sqrt(blk, out=d[s:e])
    # exact symmetry and a zero diagonal
    for s in range(0, n, block):
        e = min(n, s + block)
        for c in range(0, s, block):
            d[c : min(c + block, n), s:e] = d[s:e, c : min(c + block, n)].T
        tile = d[s:e, s:e]
        tile[:] = np.tril(tile, -1) + np.tril(tile, -1).T
    np.fill_diagonal(d, 0.0)
    return d


def write_phylip(d: np.ndarray, path: str) -> None:
    """PHYLIP distance file, formatted in C (``ndarray.tofile``)."""
    n = d.shape[0]
    with open(path, "w") as f:
        f.write(f"{n}\n")
        for a in range(n):
            f.write(f"t{a:<9d}")
            d[a].tofile(f, sep=" ", format="%.6f")
            f.write("\n")


def median_time(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def loop_bytes(n: int, shadow: bool, itemsize: int = 8) -> float:
    """Bytes the NJ loop touches: scan of every live triangle plus the O(r) join traffic."""
    r = np.arange(4, n + 1, dtype=np.float64)
    cells = r * (r - 1) / 2
    scan = cells * (4 if shadow else itemsize)
    join = r * (3 * itemsize + (2 * (itemsize + 4) if shadow else 2 * itemsize) + 2 * itemsize)
    return float((scan + join).sum())


class Peer:
    """A peer timed at growing sizes, skipped when the n^3 extrapolation is too slow."""

    def __init__(self, name: str, available: bool, why: str, limit: float, max_n: int):
        self.name, self.available, self.why, self.limit = name, available, why, limit
        self.max_n = max_n
        self.last: tuple[int, float] | None = None

    def skip_reason(self, n: int) -> str | None:
        if not self.available:
            return self.why
        if n > self.max_n:
            return f"skipped: n > --peer-max-n {self.max_n} (O(n^3), would take too long)"
        if self.last is not None:
            m, t = self.last
            guess = t * (n / m) ** 3
            if guess > self.limit:
                return f"skipped: ~{guess:.0f} s expected (> --peer-limit {self.limit:.0f} s)"
        return None

    def record(self, n: int, seconds: float) -> None:
        self.last = (n, seconds)


def bioplug_nj(d: np.ndarray, rt) -> tuple[dict, object]:
    """``bioplug.tree.nj`` stage by stage (the same calls), timing each stage."""
    from bioplug.tree.build import treenode_from_nj
    from bioplug.tree.device import run_agglomerative
    from bioplug.tree.matrix import as_matrix

    t = {}
    t0 = time.perf_counter()
    data, names = as_matrix(d)
    t1 = time.perf_counter()
    # the square rows go to the device as they are and are packed there (inside "upload")
    t2 = time.perf_counter()
    stats: dict = {}
    link = run_agglomerative(data, len(names), "nj", rt, stats=stats)
    t3 = time.perf_counter()
    tree = treenode_from_nj(link, names)
    t4 = time.perf_counter()
    t.update(validate_s=t1 - t0, pack_s=t2 - t1, device_s=t3 - t2, upload_s=stats["upload_s"],
             loop_s=stats["loop_s"], treenode_s=t4 - t3, total_s=t4 - t0,
             shadow=stats["shadow"], launches=stats["launches"])
    return t, tree


def run_nj(args, rt) -> list[dict]:
    import bioplug.tree as bt

    try:
        import skbio  # noqa: F401

        have_skbio, skbio_why = True, ""
    except ImportError:
        have_skbio, skbio_why = False, "scikit-bio not installed"
    qt = shutil.which("quicktree")
    peers = {
        "skbio": Peer("scikit-bio nj", have_skbio, skbio_why, args.peer_limit,
                      args.peer_max_n),
        "quicktree": Peer("quicktree", qt is not None,
                          "quicktree not installed (apt-get install quicktree)",
                          args.peer_limit, args.peer_max_n),
    }
    # warm-up: kernel builds and caches
    bt.nj(random_matrix(64, 1), device=rt)
    rows = []
    for n in args.sizes:
        reps = args.repeats if n <= 4000 else 1
        t0 = time.perf_counter()
        d = random_matrix(n, seed=n)
        row: dict = {"n": n, "matrix_build_s": time.perf_counter() - t0}
        runs = [bioplug_nj(d, rt) for _ in range(reps)]
        tree = runs[-1][1]
        for key in runs[0][0]:
            if key != "shadow":
                row[f"bioplug_{key}"] = statistics.median(r[0][key] for r in runs)
        loop_s = row["bioplug_loop_s"]
        shadow = runs[0][0]["shadow"]
        total_s = row["bioplug_total_s"]
        row.update(shadow=shadow, loop_GBps=loop_bytes(n, shadow) / loop_s / 1e9,
                   loop_us_per_iter=loop_s / max(n - 3, 1) * 1e6)
        p = peers["skbio"]
        why = p.skip_reason(n)
        if why is None:
            from skbio import DistanceMatrix
            from skbio.tree import nj as skbio_nj

            dm = DistanceMatrix(d, [str(k) for k in range(n)], validate=False)
            t, ref = median_time(lambda dm=dm: skbio_nj(dm), reps)
            p.record(n, t)
            row.update(skbio_s=t, speedup_vs_skbio=t / total_s,
                       rf_vs_skbio=float(tree.compare_rfd(ref)))
        else:
            row["skbio_s"] = why
        p = peers["quicktree"]
        why = p.skip_reason(n)
        if why is None:
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "d.phy")
                write_phylip(d, path)
                out = os.path.join(tmp, "t.nwk")

                def quick(path=path, out=out):
                    with open(out, "w") as handle:
                        subprocess.run([qt, "-in", "m", "-out", "t", path], stdout=handle,
                                       check=True)

                t, _ = median_time(quick, reps)
            p.record(n, t)
            row.update(quicktree_s=t, speedup_vs_quicktree=t / total_s)
        else:
            row["quicktree_s"] = why
        rows.append(row)
        print_row(row)
        del d
    return rows


def random_proteins(n: int, seed: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    letters = np.frombuffer(AMINO.encode(), dtype=np.uint8)
    lengths = rng.integers(250, 351, n)
    codes = rng.choice(letters, int(lengths.sum()))
    text = codes.tobytes().decode()
    ends = np.cumsum(lengths)
    return [text[e - k : e] for e, k in zip(ends, lengths, strict=True)]


def time_sets(sizes, repeats: int, fn):
    """(n, proteins, median seconds of ``fn(proteins)``) per size, after a warm-up."""
    fn(random_proteins(50, 1))  # warm-up (kernel builds)
    for n in sizes:
        seqs = random_proteins(n, seed=n)
        t, _ = median_time(lambda seqs=seqs: fn(seqs), repeats if n <= 4000 else 1)
        yield n, seqs, t


def simulated_alignment(n: int, length: int, seed: int = 0) -> list[str]:
    """n aligned proteins, each a mutated copy of an earlier one (a random tree), 3 % gaps."""
    rng = np.random.default_rng(seed)
    letters = np.frombuffer(AMINO.encode(), dtype=np.uint8)
    rows = np.empty((n, length), dtype=np.uint8)
    rows[0] = rng.choice(letters, length)
    for i in range(1, n):
        rows[i] = rows[rng.integers(0, i)]
        hit = rng.random(length) < 0.08
        rows[i, hit] = rng.choice(letters, int(hit.sum()))
    rows[rng.random((n, length)) < 0.03] = ord("-")
    return [r.tobytes().decode() for r in rows]


def skbio_replicate(enc: np.ndarray, cols: np.ndarray, ids: list[str]):
    """One replicate through numpy p-distances (one-hot products) and ``skbio.tree.nj``."""
    from skbio import DistanceMatrix
    from skbio.tree import nj

    sub = enc[:, cols]
    ok = (sub != ord("-")).astype(np.float64)
    both = ok @ ok.T
    same = np.zeros_like(both)
    for c in np.frombuffer(AMINO.encode(), dtype=np.uint8):
        hot = (sub == c).astype(np.float64)
        same += hot @ hot.T
    d = np.where(both > 0, 1.0 - same / np.maximum(both, 1), 1.0)
    np.fill_diagonal(d, 0.0)
    return nj(DistanceMatrix(d, ids))


def run_bootstrap(args, rt) -> dict:
    """1,000 replicates (``--bootstrap``) of NJ on ``--bootstrap-n`` sequences, and a sample
    of the same replicates through scikit-bio, extrapolated to all of them."""
    from bioplug.progress import Cancelled
    from bioplug.tree.support import bootstrap, draw_columns

    n, length, reps = args.bootstrap_n, args.bootstrap_length, args.bootstrap
    rows = simulated_alignment(n, length)
    ids = [f"s{i}" for i in range(n)]
    records = list(zip(ids, rows, strict=True))
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    records = [SeqRecord(Seq(r), id=i) for i, r in records]
    t0 = time.perf_counter()
    bootstrap(records, replicates=4, seed=1, device=rt)  # warm-up (kernel builds)
    print(f"bootstrap warm-up (4 replicates, builds) {time.perf_counter() - t0:.2f} s",
          flush=True)
    best = (float("inf"), None)
    for streams in args.bootstrap_streams:  # replicates in flight: a short probe each
        t0 = time.perf_counter()
        bootstrap(records, replicates=32, seed=2, device=rt, streams=streams)
        t = time.perf_counter() - t0
        print(f"bootstrap probe: 32 replicates, {streams} streams: {t:.2f} s", flush=True)
        best = min(best, (t, streams))
    done = [0]
    start = time.perf_counter()

    def budget(stage, k, total):
        done[0] = k
        if time.perf_counter() - start > args.bootstrap_budget:
            raise Cancelled(stage)

    stats: dict = {}
    try:
        bootstrap(records, replicates=reps, seed=0, device=rt, progress=budget, stats=stats,
                  streams=best[1])
        finished = reps
    except Cancelled:
        finished = done[0]
    t_dev = time.perf_counter() - start
    per_rep = t_dev / max(finished, 1)
    row = {"n": n, "length": length, "replicates": reps, "finished": finished,
           "streams": best[1],
           "bioplug_s": t_dev if finished == reps else per_rep * reps,
           "bioplug_measured_s": t_dev, **stats}
    print(f"bootstrap N={n} L={length}: {finished}/{reps} replicates in {t_dev:.2f} s "
          f"({per_rep * 1e3:.1f} ms each){'' if finished == reps else ' (budget hit)'}",
          flush=True)
    enc = np.frombuffer("".join(rows).encode(), np.uint8).reshape(n, length)
    cols = draw_columns(length, args.bootstrap_skbio_sample, seed=0)
    t1 = time.perf_counter()
    for c in cols:  # the first replicates of the same draws
        skbio_replicate(enc, c, ids)
    per_skbio = (time.perf_counter() - t1) / len(cols)
    row.update(skbio_per_replicate_s=per_skbio, skbio_s=per_skbio * reps,
               skbio_sampled=len(cols), speedup_vs_skbio=per_skbio * reps / row["bioplug_s"])
    print(f"bootstrap scikit-bio: {per_skbio:.3f} s per replicate ({len(cols)} sampled) -> "
          f"~{per_skbio * reps:.1f} s for {reps}; x{row['speedup_vs_skbio']:.1f}", flush=True)
    return row


def run_ktuple(args, rt) -> list[dict]:
    from bioplug.tree import ktuple_distances

    rows = []
    for n, _, t in time_sets(args.ktuple_sizes, args.repeats,
                             lambda seqs: ktuple_distances(seqs, k=2, device=rt)):
        row = {"n_proteins": n, "ktuple_s": t, "pairs_per_s": n * (n - 1) / 2 / t}
        rows.append(row)
        print(f"k-tuple  N={n:>6}  {t:8.3f} s  {row['pairs_per_s'] / 1e6:8.1f} M pairs/s",
              flush=True)
    return rows


def time_clustalw(exe: str, seqs: list[str]) -> float:
    """ClustalW's own fast pairwise stage: ``-quicktree -newtree`` (k-tuple scores of all
    pairs, then its NJ guide tree, no alignment), one thread, FASTA parsing included."""
    with tempfile.TemporaryDirectory() as tmp:
        fasta = os.path.join(tmp, "in.fa")
        with open(fasta, "w") as handle:
            handle.writelines(f">s{k}\n{s}\n" for k, s in enumerate(seqs))
        start = time.perf_counter()
        subprocess.run([exe, f"-infile={fasta}", "-quicktree",
                        f"-newtree={os.path.join(tmp, 'g.dnd')}"],
                       stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start


def run_clustalw_fast(args, rt) -> list[dict]:
    """ClustalW fast-mode (Wilbur-Lipman k-tuple) distances on the device, protein defaults."""
    from bioplug.tree import clustalw_fast_distances

    rows = []
    for n, seqs, t in time_sets(args.clustalw_sizes, args.repeats,
                                lambda seqs: clustalw_fast_distances(seqs, device=rt)):
        row = {"n_proteins": n, "clustalw_fast_s": t, "pairs_per_s": n * (n - 1) / 2 / t}
        peer = shutil.which("clustalw") or shutil.which("clustalw2")
        if peer and n <= args.clustalw_peer_max_n:
            row["clustalw_binary_s"] = time_clustalw(peer, seqs)
            row["speedup_vs_clustalw"] = row["clustalw_binary_s"] / t
        rows.append(row)
        print(f"clustalw-fast  N={n:>6}  {t:8.3f} s  {row['pairs_per_s'] / 1e6:8.2f} M pairs/s"
              + (f"  | clustalw {row['clustalw_binary_s']:.2f} s "
                 f"[{row['speedup_vs_clustalw']:.1f}x]" if "clustalw_binary_s" in row else ""),
              flush=True)
    return rows


def cell(row: dict, key: str, digits: int) -> str:
    v = row.get(key)
    return f"{v:.{digits}f}" if isinstance(v, float) else "skipped"


def fmt(v) -> str:
    return f"{v:9.3f}" if isinstance(v, float) else f"{v}"


def print_row(row: dict) -> None:
    sk = row.get("skbio_s")
    qt = row.get("quicktree_s")
    parts = [
        f"NJ n={row['n']:>6}",
        f"bioplug {row['bioplug_total_s']:9.3f} s (validate {row['bioplug_validate_s']:.2f}, "
        f"pack {row['bioplug_pack_s']:.2f}, upload {row['bioplug_upload_s']:.2f}, "
        f"loop {row['bioplug_loop_s']:.3f} s = {row['loop_GBps']:.0f} GB/s, "
        f"{row['loop_us_per_iter']:.1f} us/iter, {row['bioplug_launches']:.0f} launches, "
        f"tree {row['bioplug_treenode_s']:.2f})",
        f"skbio {fmt(sk)}" + (f" [{row['speedup_vs_skbio']:.1f}x, RF "
                              f"{row['rf_vs_skbio']:.0f}]" if isinstance(sk, float) else ""),
        f"quicktree {fmt(qt)}" + (f" [{row['speedup_vs_quicktree']:.1f}x]"
                                  if isinstance(qt, float) else ""),
    ]
    print("  |  ".join(parts), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default=None, help="OpenCL device (default: best GPU)")
    parser.add_argument("--sizes", default="1000,4000,10000,50000",
                        type=lambda s: [int(x) for x in s.split(",") if x])
    parser.add_argument("--ktuple-sizes", default="1000,10000",
                        type=lambda s: [int(x) for x in s.split(",") if x])
    parser.add_argument("--clustalw-sizes", default="1000",
                        type=lambda s: [int(x) for x in s.split(",") if x],
                        help="proteins for ClustalW fast-mode distances (default 1000)")
    parser.add_argument("--clustalw-peer-max-n", type=int, default=1000,
                        help="run the clustalw binary (if installed) up to this many proteins")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--peer-limit", type=float, default=200.0,
                        help="skip a peer whose extrapolated time exceeds this (seconds)")
    parser.add_argument("--peer-max-n", type=int, default=10000,
                        help="never run a peer above this many taxa (default 10000)")
    parser.add_argument("--json", default=None, help="write the results as JSON here")
    parser.add_argument("--groups-per-cu", type=int, default=None,
                        help="tuning: most scan work-groups per compute unit (GPU default 48)")
    parser.add_argument("--min-cells", type=int, default=None,
                        help="tuning: least live cells per work-item of a scan (GPU default 64)")
    parser.add_argument("--split-r", type=int, default=None,
                        help="tuning: live size from which joins are their own launch on GPUs "
                             "(default 2048; 0: never)")
    parser.add_argument("--tail-cells", type=int, default=None,
                        help="tuning: single-work-group tail from this many cells per "
                             "work-item (default 32; 0: no tail)")
    parser.add_argument("--bootstrap", type=int, default=0, metavar="R",
                        help="bootstrap case: R replicates of NJ (0: skip; issue 14: 1000)")
    parser.add_argument("--bootstrap-n", type=int, default=1000, help="bootstrap: sequences")
    parser.add_argument("--bootstrap-length", type=int, default=300,
                        help="bootstrap: alignment columns")
    parser.add_argument("--bootstrap-skbio-sample", type=int, default=3,
                        help="bootstrap: replicates timed through scikit-bio (extrapolated)")
    parser.add_argument("--bootstrap-streams", type=lambda v: [int(x) for x in v.split(",")],
                        default=[], help="bootstrap: replicates in flight to probe first "
                        "(comma list; the fastest runs the case; default: the library's)")
    parser.add_argument("--bootstrap-budget", type=float, default=75.0,
                        help="bootstrap: stop after this many seconds and extrapolate")
    args = parser.parse_args(argv)
    import bioplug.tree.device as tree_device

    for value, names in [(args.groups_per_cu, ("GROUPS_PER_CU_GPU", "GROUPS_PER_CU_CPU")),
                         (args.min_cells, ("MIN_CELLS_PER_ITEM_GPU", "MIN_CELLS_PER_ITEM")),
                         (args.tail_cells, ("TAIL_CELLS_PER_ITEM",)),
                         (args.split_r, ("SPLIT_R_GPU",))]:
        for name in names if value is not None else ():
            setattr(tree_device, name, value)

    from bioplug.runtime import get_runtime

    rt = get_runtime(args.device)
    info = {
        "device": rt.info.name, "platform": rt.info.platform, "host": platform.node(),
        "cpu": platform.processor(), "date": datetime.now(timezone.utc).isoformat(),
        "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
    }
    print(f"device: {rt.info.name} [{rt.info.platform}]  date: {info['date']}", flush=True)
    nj_rows = run_nj(args, rt) if args.sizes else []
    kt_rows = run_ktuple(args, rt) if args.ktuple_sizes else []
    cw_rows = run_clustalw_fast(args, rt) if args.clustalw_sizes else []
    boot = run_bootstrap(args, rt) if args.bootstrap else None
    print("\nsummary (seconds; x = peer time / bioplug end-to-end time)")
    print(f"{'n':>7} {'bioplug':>9} {'loop':>9} {'GB/s':>7} {'skbio':>10} {'x':>7} "
          f"{'quicktree':>10} {'x':>7}")
    for r in nj_rows:
        print(f"{r['n']:>7} {r['bioplug_total_s']:>9.3f} {r['bioplug_loop_s']:>9.3f} "
              f"{r['loop_GBps']:>7.0f} {cell(r, 'skbio_s', 3):>10} "
              f"{cell(r, 'speedup_vs_skbio', 1):>7} {cell(r, 'quicktree_s', 3):>10} "
              f"{cell(r, 'speedup_vs_quicktree', 1):>7}")
    for r in nj_rows:
        for key in ("skbio_s", "quicktree_s"):
            if isinstance(r.get(key), str):
                print(f"  n={r['n']}: {key[:-2]} {r[key]}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"info": info, "nj": nj_rows, "ktuple": kt_rows,
                       "clustalw_fast": cw_rows, "bootstrap": boot}, handle, indent=2)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
