"""Tropical engine benchmark: products, Viterbi (vs hmmlearn), shortest paths (vs scipy).

Sections (``--sections``, default all):

* **matmul**: an n x n max-plus product (float32, default n = 8,192) on the device, kernel
  only (operands already on the device, ``queue.finish()`` after the launch) for each tiling
  given (the defaults and ``--sweep`` alternatives), then min-plus, with indices, float64,
  and end to end through ``bioplug.tropical.matmul`` (transfers included). Tropical ops
  count each (add, max) pair as 2, as a GEMM's 2 n^3 flops count each multiply-add:
  ops = 2 n^3. A few rows are checked against numpy.
* **viterbi**: a random 256-state, 8-symbol HMM (float64); ``--viterbi-seqs`` sequences of
  ``--viterbi-len`` symbols decoded with paths by ``bioplug.hmm.viterbi`` (end to end:
  upload, recurrence with device backpointers, device traceback, paths back). hmmlearn's
  ``CategoricalHMM.decode`` runs on ``--hmmlearn-seqs`` of the same sequences (one CPU
  core); its time for all sequences is extrapolated linearly (its Viterbi is O(n l^2) per
  sequence, with no shared work) and its paths must equal ours. Then the step-wise
  recurrence against the product chain on single long sequences of small models (where the
  chain is meant to win) and at 256 states.
* **paths**: all-pairs shortest paths of a random directed graph (``--paths-n`` nodes, half
  the possible edges, weights uniform in [1, 10)), float64: blocked Floyd-Warshall and
  min-plus squaring, end to end and device only; scipy's ``floyd_warshall`` on the sizes
  ``--scipy-sizes`` (results compared with ours), extrapolated to n as n^3 from the largest.

Medians of ``--repeats`` runs after a warm-up run (kernel builds). Run:
``python benchmarks/tropical.py [--device gpu] [--sections matmul,viterbi,paths] [--sweep]
[--quick] [--json out.json]``
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import statistics
import sys
import time
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bioplug.tropical import device as tdev  # noqa: E402

log = logging.getLogger("tropical-bench")
RESULTS: dict = {}


def median_time(fn, repeats: int, finish=None) -> float:
    """Median wall time of ``fn()`` over ``repeats`` runs after one warm-up."""
    fn()
    if finish:
        finish()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        if finish:
            finish()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def say(text: str) -> None:
    print(text, flush=True)


# -- matmul --------------------------------------------------------------------------------
SWEEP_F32 = [tdev.TileConfig(16, 16, 8, 8, 16, 4), tdev.TileConfig(16, 16, 8, 8, 4, 4),
             tdev.TileConfig(8, 32, 16, 4, 8, 4), tdev.TileConfig(16, 16, 8, 4, 8, 4)]
SWEEP_F64 = [tdev.TileConfig(16, 16, 8, 8, 8, 2), tdev.TileConfig(16, 16, 4, 4, 8, 2),
             tdev.TileConfig(16, 16, 8, 4, 8, 2)]


def _time_mm(eng, bufs, n, item, cfg, maxplus, want_idx, repeats) -> float:
    abuf, bbuf, cbuf, ibuf = bufs
    offs = np.zeros((1, 4), dtype=np.uint64)

    def run():
        eng.mm(abuf, bbuf, cbuf, offs, n, n, n, n, n, n, itemsize=item, maxplus=maxplus,
               cfg=cfg, idx=ibuf if want_idx else None)

    return median_time(run, repeats, eng.rt.queue.finish)


def _check_rows(eng, bufs, a, b, n, rng) -> bool:
    """A few rows of the default float32 max-plus product against numpy."""
    import pyopencl as cl

    eng.mm(bufs[0], bufs[1], bufs[2], np.zeros((1, 4), np.uint64), n, n, n, n, n, n,
           itemsize=4, maxplus=True)
    c = np.empty((n, n), dtype=np.float32)
    cl.enqueue_copy(eng.rt.queue, c, bufs[2])
    pick = rng.integers(0, n, size=4)
    return bool(np.array_equal(c[pick], (a[pick, :, None] + b[None, :, :]).max(axis=1)))


def bench_matmul(args, eng) -> None:
    from bioplug.tropical import matmul

    rt, n = eng.rt, args.matmul_n
    rng = np.random.default_rng(0)
    ops = 2.0 * n ** 3
    rows = {}
    for dtype, sweep in ((np.float32, SWEEP_F32), (np.float64, SWEEP_F64)):
        item = np.dtype(dtype).itemsize
        a = rng.standard_normal((n, n)).astype(dtype)
        b = rng.standard_normal((n, n)).astype(dtype)
        bufs = (rt.to_device(a), rt.to_device(b), rt.empty(n * n * item), rt.empty(n * n * 4))
        default = eng.choose(item, n, n, 1)
        variants = [(cfg, True, False) for cfg in [default] + (sweep if args.sweep else [])]
        variants += [(default, False, False), (default, True, True)]
        for cfg, maxplus, want_idx in variants:
            t = _time_mm(eng, bufs, n, item, cfg, maxplus, want_idx, args.repeats)
            name = (f"{np.dtype(dtype).name} {'max' if maxplus else 'min'}-plus"
                    f"{' +indices' if want_idx else ''} tile {cfg.tm}x{cfg.tn} items "
                    f"{cfg.rm}x{cfg.rn} TK {cfg.tk}{' (default)' if cfg == default else ''}")
            rows[name] = {"seconds": t, "tops": ops / t / 1e12}
            say(f"matmul {n}^2 {name}: {t * 1e3:8.1f} ms  {ops / t / 1e12:6.2f} T tropical ops/s")
        if dtype == np.float32:
            rows["check_equal"] = ok = _check_rows(eng, bufs, a, b, n, rng)
            say(f"matmul check (4 rows vs numpy): {'equal' if ok else 'DIFFERENT'}")
            t = median_time(partial(matmul, a, b, device=rt), max(1, args.repeats // 2))
            rows["end_to_end_f32"] = {"seconds": t, "tops": ops / t / 1e12}
            say(f"matmul {n}^2 float32 end to end (numpy in/out): {t * 1e3:.1f} ms  "
                f"{ops / t / 1e12:.2f} T tropical ops/s")
    RESULTS["matmul"] = {"n": n, "ops": ops, "rows": rows}


# -- viterbi -------------------------------------------------------------------------------
def random_hmm(rng, states: int, symbols: int):
    start = rng.dirichlet(np.ones(states))
    trans = rng.dirichlet(np.ones(states), size=states)
    emit = rng.dirichlet(np.ones(symbols), size=states)
    return start, trans, emit


def bench_viterbi(args, eng) -> None:
    from hmmlearn import hmm as hmmlearn_hmm

    from bioplug.hmm import viterbi
    from bioplug.hmm.decoding import libm_log

    rng = np.random.default_rng(1)
    states, symbols = args.viterbi_states, 8
    start, trans, emit = random_hmm(rng, states, symbols)
    logs = (libm_log(start), libm_log(trans), np.log(emit))
    k, n = args.viterbi_seqs, args.viterbi_len
    seqs = [rng.integers(0, symbols, size=n) for _ in range(k)]
    viterbi(*logs, seqs[:4], device=eng.rt)  # builds
    out = {}

    def ours():
        out["r"] = viterbi(*logs, seqs, method="steps", device=eng.rt)

    t_ours = median_time(ours, args.repeats)
    say(f"viterbi {states} states, {k} x {n}: bioplug {t_ours:.3f} s "
        f"({k * n * states * states / t_ours / 1e12:.2f} T (max, +) pairs/s)")
    model = hmmlearn_hmm.CategoricalHMM(states)
    model.n_features = symbols
    model.startprob_, model.transmat_, model.emissionprob_ = start, trans, emit
    h = args.hmmlearn_seqs
    t0 = time.perf_counter()
    same = True
    for i in range(h):
        lp, path = model.decode(seqs[i][:, None], algorithm="viterbi")
        same &= bool(lp == out["r"][0][i] and np.array_equal(path, out["r"][1][i]))
    t_h = time.perf_counter() - t0
    t_h_full = t_h * k / h
    say(f"hmmlearn {h} sequences: {t_h:.2f} s -> {k} sequences {t_h_full:.0f} s "
        f"(extrapolated); bioplug x{t_h_full / t_ours:.0f}; paths and log-probs "
        f"{'identical' if same else 'DIFFERENT'}")
    RESULTS["viterbi"] = {"states": states, "seqs": k, "length": n, "bioplug_s": t_ours,
                          "hmmlearn_subset_seqs": h, "hmmlearn_subset_s": t_h,
                          "hmmlearn_extrapolated_s": t_h_full, "ratio": t_h_full / t_ours,
                          "identical": same}
    if args.sweep:
        from bioplug.hmm import device as hdev

        original = hdev.step_layout
        for r in (4, 2):
            hdev.step_layout = partial(_forced_layout, original, r)
            try:
                t = median_time(ours, 1)
            finally:
                hdev.step_layout = original
            say(f"viterbi layout R={r}: {t:.3f} s")
            RESULTS["viterbi"][f"R{r}_s"] = t
    bench_methods(args, eng)


def _forced_layout(original, r, rt, ns, k, item, _r=None):
    return original(rt, ns, k, item, r)


def _decode_into(results, method, logs, seqs, rt):
    from bioplug.hmm import viterbi

    results[method] = viterbi(*logs, seqs, method=method, device=rt)


def bench_methods(args, eng) -> None:
    """Step-wise recurrence vs product chain: where does the chain win?"""
    rng = np.random.default_rng(2)
    cases = args.method_cases
    rows = []
    for states, count, n in cases:
        start, trans, emit = random_hmm(rng, states, 8)
        logs = (np.log(start), np.log(trans), np.log(emit))
        seqs = [rng.integers(0, 8, size=n) for _ in range(count)]
        times = {}
        results = {}
        for method in ("steps", "chain"):
            run = partial(_decode_into, results, method, logs, seqs, eng.rt)
            times[method] = median_time(run, max(1, args.repeats // 2))
        agree = np.allclose(results["steps"][0], results["chain"][0], rtol=1e-10)
        say(f"viterbi {states} states, {count} x {n}: steps {times['steps'] * 1e3:.1f} ms, "
            f"chain {times['chain'] * 1e3:.1f} ms; log-probs {'agree' if agree else 'DIFFER'}")
        rows.append({"states": states, "seqs": count, "length": n, **times, "agree": agree})
    RESULTS["viterbi_methods"] = rows


# -- shortest paths ------------------------------------------------------------------------
def random_graph(n: int, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w = rng.uniform(1.0, 10.0, size=(n, n))
    w[rng.random((n, n)) < 0.5] = 0  # dense convention: 0 = no edge
    return w


def bench_paths(args, eng) -> None:
    from scipy.sparse.csgraph import floyd_warshall

    from bioplug.tropical import paths, shortest_paths

    n = args.paths_n
    w_small = random_graph(min(n, 512))
    for method in ("floyd-warshall", "squaring"):
        shortest_paths(w_small, method=method, device=eng.rt)  # builds
    scipy_rows = []
    for m in args.scipy_sizes:
        w = random_graph(m)
        t0 = time.perf_counter()
        ref = floyd_warshall(w)
        t_s = time.perf_counter() - t0
        ours = shortest_paths(w, device=eng.rt)
        ok = bool(np.allclose(ours, ref, rtol=1e-12))
        scipy_rows.append({"n": m, "seconds": t_s, "equal": ok})
        say(f"scipy floyd_warshall n={m}: {t_s:.2f} s; bioplug equal: {ok}")
    last = scipy_rows[-1]
    t_scipy = last["seconds"] * (n / last["n"]) ** 3
    w = random_graph(n)
    rows = {}
    for method in ("floyd-warshall", "squaring"):
        for dtype in (np.float64, np.float32):
            if method == "squaring" and dtype == np.float32:
                continue
            reps = max(1, args.repeats // 2)
            t = median_time(lambda method=method, dtype=dtype: shortest_paths(
                w, method=method, dtype=dtype, device=eng.rt), reps)
            dev_t = _device_only(eng, paths, w, method, dtype, reps)
            key = f"{method} {np.dtype(dtype).name}"
            rows[key] = {"seconds": t, "device_seconds": dev_t, "ratio": t_scipy / t,
                         "ratio_device": t_scipy / dev_t}
            say(f"shortest paths n={n} {key}: {t:.3f} s end to end ({dev_t:.3f} s device); "
                f"scipy (extrapolated {t_scipy:.0f} s) / bioplug = x{t_scipy / t:.0f} "
                f"(device only x{t_scipy / dev_t:.0f})")
    RESULTS["paths"] = {"n": n, "scipy": scipy_rows, "scipy_extrapolated_s": t_scipy,
                        "rows": rows}


def _device_only(eng, paths, w, method, dtype, repeats) -> float:
    """Time of the rounds alone (the matrix already built on the device, not read back)."""
    from bioplug.progress import Progress

    n = w.shape[0]
    dt = np.dtype(dtype)
    cfg = eng.choose(dt.itemsize, n, n, 1)
    n_pad = -(-n // cfg.bm) * cfg.bm
    weights, zero_missing = paths.edge_matrix(w)
    run = paths._squaring if method == "squaring" else paths._floyd_warshall

    def once() -> float:
        dbuf, pbuf = paths._prepare(eng, weights, zero_missing, n_pad, dt, False)
        eng.rt.queue.finish()
        t0 = time.perf_counter()
        run(eng, dbuf, pbuf, n, n_pad, dt, cfg, Progress())
        eng.rt.queue.finish()
        return time.perf_counter() - t0

    once()
    return statistics.median(once() for _ in range(repeats))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default=None)
    parser.add_argument("--sections", default="matmul,viterbi,paths")
    parser.add_argument("--sweep", action="store_true", help="also time alternative tilings "
                        "and Viterbi layouts")
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke test)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--matmul-n", type=int, default=8192)
    parser.add_argument("--viterbi-states", type=int, default=256)
    parser.add_argument("--viterbi-seqs", type=int, default=1000)
    parser.add_argument("--viterbi-len", type=int, default=10000)
    parser.add_argument("--hmmlearn-seqs", type=int, default=3)
    parser.add_argument("--paths-n", type=int, default=8192)
    parser.add_argument("--scipy-sizes", default="1024,2048")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    args.scipy_sizes = [int(x) for x in args.scipy_sizes.split(",")]
    args.method_cases = [(4, 1, 100000), (16, 1, 100000), (16, 8, 100000), (64, 1, 20000),
                         (256, 1, 10000)]
    if args.quick:
        args.matmul_n, args.viterbi_states, args.viterbi_seqs = 256, 16, 20
        args.viterbi_len, args.hmmlearn_seqs, args.paths_n = 300, 2, 200
        args.scipy_sizes, args.repeats = [100], 1
        args.method_cases = [(4, 1, 3000), (16, 2, 500)]
    logging.basicConfig(level=logging.WARNING)
    eng = tdev.engine(args.device)
    info = eng.rt.info
    say(f"device: {info.name} [{info.platform}], {info.compute_units} CUs, fp64 {info.fp64}; "
        f"host {platform.processor() or platform.machine()}; "
        f"{datetime.now(timezone.utc).isoformat(timespec='seconds')}")
    RESULTS["device"] = info.name
    RESULTS["date"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    sections = args.sections.split(",")
    for name, fn in (("matmul", bench_matmul), ("viterbi", bench_viterbi),
                     ("paths", bench_paths)):
        if name in sections:
            fn(args, eng)
    if args.json:
        Path(args.json).write_text(json.dumps(RESULTS, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
