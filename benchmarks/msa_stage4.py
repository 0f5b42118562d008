"""Where QuickProbs stage IV spends its time, family by family (issue 19 §1).

Usage::

    python benchmarks/msa_stage4.py SETDIR... [--device gpu] [--limit N] [--path auto|group]
        [--split] [--prewarm N] [--top 10] [--synthetic K:LMIN:LMAX[:DENSITY[:SEED]]]

Runs the whole pipeline (``MultipleSequenceAligner``) over every ``*.tfa`` of the SETDIRs and
times stage IV by its parts: every stage IV kernel launch and read-back is timed with OpenCL
profiling events (kernels by name), and the rest of stage IV's wall time is host glue plus
launch latency (the device idles while Python prepares the next launch). Also printed: SP/TC
(when a ``.xml`` reference is beside the set), launches and profile-pair DPs per family.

``--path group`` selects the one-work-group-per-pair kernels (``ProfileAligner.path``), the
path every alignment took before issue 19; ``auto`` is the default of the library.
``--split`` replays each ``align_nodes`` launch of the one-group path with the traceback cut
out and with the fill cut out, to split that kernel's time into DP fill and traceback (the
replays are timed apart; they are not part of the reported stage IV wall time).
``--synthetic`` times stage IV alone (progressive along a random tree, 10 refinement passes)
on a random stage III-like store, on both paths, and checks that they give the same alignment.
``--prewarm N`` builds the stage I program variants in N processes first (pyopencl's on-disk
binary cache then serves the timed process): a fresh GPU machine otherwise spends ~100 s
compiling them one after another.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import pyopencl as cl

from bioplug.msa import progressive
from bioplug.msa._kernels import kernel as _kernel
from bioplug.msa.aligner import MultipleSequenceAligner
from bioplug.msa.score import read_reference, sp_tc
from bioplug.msa.sparse import SparseStore
from bioplug.runtime import get_runtime
from bioplug.runtime.runtime import kernel_source

EVENTS: list[tuple[str, cl.Event]] = []
SPLIT = False
_variants: dict = {}


def _ns(ev: cl.Event) -> float:
    return (ev.profile.end - ev.profile.start) * 1e-9


class _Timed:
    """A kernel whose launches are recorded with their events."""

    def __init__(self, knl, name: str, rt):
        self.knl, self.name, self.rt = knl, name, rt

    def __call__(self, q, gs, ls, *args):
        ev = self.knl(q, gs, ls, *args)
        EVENTS.append((self.name, ev))
        if SPLIT and self.name == "align_nodes":
            for tag, knl in _split_kernels(self.rt).items():
                SPLIT_EVENTS.append((tag, knl(q, gs, ls, *args)))
        return ev

    def __getattr__(self, name):
        return getattr(self.knl, name)


SPLIT_EVENTS: list[tuple[str, cl.Event]] = []


def _split_kernels(rt) -> dict:
    """align_nodes without its traceback, and without its fill (run after a full launch, so
    the direction matrix it traces is the real one)."""
    if id(rt) not in _variants:
        src = kernel_source("msa_profile.cl")
        fill = "for (int t = 0; t < ndiag; ++t) {"
        trace = "if (lid == 0) {\n        __global uchar *mo"
        assert fill in src and trace in src
        dp_only = src.replace(trace, "if (0) {\n        __global uchar *mo")
        tb_only = src.replace(fill, "for (int t = 0; t < 0; ++t) {")
        _variants[id(rt)] = {
            "dp_fill": cl.Program(rt.context, dp_only).build().align_nodes,
            "traceback": cl.Program(rt.context, tb_only).build().align_nodes,
        }
    return _variants[id(rt)]


def _timed_kernel(rt, source, name, defines=None):
    return _Timed(_kernel(rt, source, name, defines), name, rt)


class _TimedCL:
    """pyopencl with its copies and fills recorded."""

    def __getattr__(self, name):
        return getattr(cl, name)

    @staticmethod
    def enqueue_copy(queue, dst, src, **kw):
        ev = cl.enqueue_copy(queue, dst, src, **kw)
        EVENTS.append(("read/copy", ev))
        return ev

    @staticmethod
    def enqueue_nd_range_kernel(queue, knl, gs, ls, *args, **kw):
        if isinstance(knl, _Timed):
            ev = cl.enqueue_nd_range_kernel(queue, knl.knl, gs, ls, *args, **kw)
            EVENTS.append((knl.name, ev))
            return ev
        return cl.enqueue_nd_range_kernel(queue, knl, gs, ls, *args, **kw)

    @staticmethod
    def enqueue_fill_buffer(queue, buf, pattern, offset, size, **kw):
        ev = cl.enqueue_fill_buffer(queue, buf, pattern, offset, size, **kw)
        EVENTS.append(("fill", ev))
        return ev


def _prewarm_one(task) -> float:
    device, source, defines = task
    t0 = time.perf_counter()
    get_runtime(device).program(source, defines)
    return time.perf_counter() - t0


def prewarm(device, workers: int) -> None:
    """Build stage I's program variants (and the stage IV programs) in parallel processes."""
    from bioplug.msa.model import load_model
    from bioplug.msa.posterior import _bucket, build_options

    rt = get_runtime(device)
    ncodes = load_model("protein").ncodes
    tasks, cols = [], 64
    while True:
        tasks.append((device, "msa_posterior.cl", build_options(rt, cols - 1, False, ncodes)))
        if cols >= 4096:
            break
        cols = _bucket(cols + 1)
    tasks.append((device, "msa_profile.cl", None))
    tasks.append((device, "msa_wavefront.cl", {"TILE": progressive.tile_side(rt)}))
    t0 = time.perf_counter()
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        took = list(pool.map(_prewarm_one, tasks))
    print(f"# prewarm: {len(tasks)} programs in {time.perf_counter() - t0:.1f} s "
          f"(longest {max(took):.1f} s)", flush=True)


def random_store(rng: np.random.Generator, lengths: np.ndarray, nnz: int = 4,
                 density: float = 1.0, ties: bool = False) -> SparseStore:
    """A stage III-like store: every ordered pair (or a ``density`` share of the unordered
    ones, both orientations) with up to ``nnz`` entries per row near the pair's diagonal.

    ``ties``: values from {0.25, 0.5, 0.75} (sums are exact, so DP ties are frequent).
    """
    k = lengths.size
    ia, ib = np.triu_indices(k, 1)
    keep = rng.random(ia.size) < density
    keep[0] = True
    ia, ib = ia[keep], ib[keep]
    px, py = np.concatenate([ia, ib]), np.concatenate([ib, ia])
    pair_id = -np.ones((k, k), np.int32)
    pair_id[px, py] = np.arange(px.size)
    nrow = lengths[px]
    row_base = np.concatenate([[0], np.cumsum(nrow)]).astype(np.int64)
    pair_of_row = np.repeat(np.arange(px.size), nrow)
    i = np.arange(row_base[-1]) - row_base[pair_of_row]
    ly = lengths[py][pair_of_row]
    centre = (i * ly) // lengths[px][pair_of_row] + rng.integers(-2, 3, i.size)
    # nnz candidate columns per row, each kept with probability 3/4 (rows of 0..nnz entries)
    cand = centre[:, None] + np.arange(nnz)[None, :] - nnz // 2
    ok = (cand >= 0) & (cand < ly[:, None]) & (rng.random(cand.shape) < 0.75)
    cols = cand[ok].astype(np.int32)
    vals = ((rng.integers(1, 4, cols.size) * 0.25) if ties
            else rng.random(cols.size)).astype(np.float32)
    indptr = np.concatenate([[0], np.cumsum(ok.sum(axis=1))]).astype(np.int64)
    return SparseStore(lengths=lengths.astype(np.int64), pair_id=pair_id,
                       pair_x=px.astype(np.int32), pair_y=py.astype(np.int32),
                       row_base=row_base, indptr=indptr, cols=cols, vals=vals,
                       thresh=np.zeros(px.size, np.float32))


def random_link(rng: np.random.Generator, k: int) -> np.ndarray:
    """A random binary guide tree in scipy's linkage layout (heights unused by stage IV)."""
    live = list(range(k))
    rows = []
    for t in range(k - 1):
        a, b = sorted(rng.choice(len(live), 2, replace=False), reverse=True)
        rows.append([live[b], live[a], float(t + 1), 2.0])
        live.pop(a)
        live.pop(b)
        live.append(k + t)
    return np.array(rows, dtype=np.float64).reshape(-1, 4)


def run_synthetic(spec: str, device, paths: list[str], repeats: int) -> None:
    """Stage IV alone on a random store ``K:LMIN:LMAX[:DENSITY[:SEED]]``, every path."""
    parts = spec.split(":")
    k, lmin, lmax = (int(v) for v in parts[:3])
    density = float(parts[3]) if len(parts) > 3 else 1.0
    seed = int(parts[4]) if len(parts) > 4 else 0
    rng = np.random.default_rng(seed)
    store = random_store(rng, rng.integers(lmin, lmax + 1, k), density=density)
    weights = rng.random(k).astype(np.float32) + 0.1
    link = random_link(rng, k)
    rt = get_runtime(device)
    colmaps = {}
    for path in paths:
        progressive.ProfileAligner.path = path
        for _rep in range(repeats + 1):  # the first one builds the programs
            EVENTS.clear()
            t0 = time.perf_counter()
            al = progressive.ProfileAligner(rt, store, weights)
            _, length = al.progressive(link)
            t1 = time.perf_counter()
            al.refine(length, 10, 0)
            rt.queue.finish()
            t2 = time.perf_counter()
        parts_s = defaultdict(float)
        for name, ev in EVENTS:
            parts_s[name] += _ns(ev)
        host = (t2 - t0) - sum(parts_s.values())
        colmaps[path] = al.colmap.copy()
        print(f"synthetic {spec} ({store.nnz} entries) path {path}: stage IV {t2 - t0:.3f} s "
              f"(progressive {t1 - t0:.3f}, refinement {t2 - t1:.3f}); "
              + ", ".join(f"{n} {v * 1e3:.1f} ms" for n, v in
                          sorted(parts_s.items(), key=lambda x: -x[1]))
              + f", host+latency {host * 1e3:.1f} ms", flush=True)
    same = all(np.array_equal(c, next(iter(colmaps.values()))) for c in colmaps.values())
    print(f"synthetic {spec}: alignments of {', '.join(paths)} identical: {same}")


def family_lengths(tfa: Path) -> tuple[int, int]:
    lens: list[int] = []
    for line in tfa.read_text().splitlines():
        if line.startswith(">"):
            lens.append(0)
        elif lens:
            lens[-1] += len(line.strip())
    return len(lens), max(lens)


def run(sets, device, path: str, split: bool) -> dict:
    global SPLIT
    progressive.ProfileAligner.path = path
    aligner = MultipleSequenceAligner(device=device)
    rt = get_runtime(device)
    aligner.align(str(sets[0]))  # warm-up: kernel builds
    totals = defaultdict(float)
    stage = defaultdict(float)
    rows = []
    sp, tc = [], []
    wall = 0.0
    SPLIT = split
    if split:
        _split_kernels(rt)  # built before the timed loop
    for tfa in sets:
        EVENTS.clear()
        SPLIT_EVENTS.clear()
        t0 = time.perf_counter()
        aln = aligner.align(str(tfa))
        wall += time.perf_counter() - t0
        rt.queue.finish()
        times = aligner.last_times
        for key, v in times.items():
            stage[key] += v
        parts = defaultdict(float)
        for name, ev in EVENTS:
            parts[name] += _ns(ev)
        for name, ev in SPLIT_EVENTS:
            parts["split:" + name] += _ns(ev)
        launches = sum(1 for n, _ in EVENTS if n != "read/copy")
        device_s = sum(v for n, v in parts.items() if not n.startswith("split:"))
        parts["host+latency"] = times["IV"] - device_s
        for n, v in parts.items():
            totals[n] += v
        ref = tfa.with_suffix(".xml")
        if ref.exists():
            ids = [r.id for r in aln.sequences]
            s, t = sp_tc(ids, [aln[i] for i in range(len(ids))], read_reference(ref))
            sp.append(s)
            tc.append(t)
        k, longest = family_lengths(tfa)
        rows.append((tfa.stem, k, longest, times["IV"], launches, dict(parts)))
    SPLIT = False
    return {"rows": rows, "totals": dict(totals), "stage": dict(stage), "wall": wall,
            "sp": float(np.mean(sp)) if sp else float("nan"),
            "tc": float(np.mean(tc)) if tc else float("nan")}


def report(res: dict, top: int) -> None:
    print(f"in process {res['wall']:.2f} s; stages "
          + ", ".join(f"{k} {v:.2f}" for k, v in res["stage"].items())
          + f"; SP {100 * res['sp']:.2f} TC {100 * res['tc']:.2f}")
    tot = res["totals"]
    print("stage IV parts over all families (s): "
          + ", ".join(f"{n} {v:.3f}" for n, v in sorted(tot.items(), key=lambda x: -x[1])))
    print(f"{'family':<9} {'k':>3} {'maxlen':>6} {'IV s':>7} {'launch':>6}  parts (ms)")
    for stem, k, longest, iv, launches, parts in sorted(res["rows"], key=lambda r: -r[3])[:top]:
        text = ", ".join(f"{n} {1e3 * v:.1f}" for n, v in sorted(parts.items(),
                                                                 key=lambda x: -x[1]))
        print(f"{stem:<9} {k:>3} {longest:>6} {iv:7.3f} {launches:>6}  {text}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("setdirs", nargs="*")
    ap.add_argument("--synthetic", action="append", default=[], metavar="K:LMIN:LMAX[:D[:S]]",
                    help="stage IV alone on a random store (K sequences, lengths LMIN..LMAX, "
                         "a share D of the pairs stored, seed S), group and auto paths")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--device", default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--path", default="auto", help="ProfileAligner.path: auto, group or wide")
    ap.add_argument("--split", action="store_true",
                    help="second pass: split align_nodes into fill and traceback (group path)")
    ap.add_argument("--prewarm", type=int, default=0, metavar="N")
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args(argv)
    sets = [t for d in args.setdirs for t in sorted(Path(d).glob("*.tfa"))]
    sets = sets[:args.limit] if args.limit else sets
    if args.prewarm:
        prewarm(args.device, args.prewarm)
    progressive.kernel = _timed_kernel
    progressive.cl = _TimedCL()
    for spec in args.synthetic:
        run_synthetic(spec, args.device, ["group", "auto"], args.repeats)
    if not sets:
        return 0
    rt = get_runtime(args.device)
    print(f"# {len(sets)} sets; device {rt.info.name}; path {args.path}; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    report(run(sets, args.device, args.path, False), args.top)
    if args.split:
        print("# split pass (replays of align_nodes: fill only, traceback only)")
        report(run(sets, args.device, "group", True), args.top)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYOPENCL_NO_CACHE", "0")
    sys.exit(main())
