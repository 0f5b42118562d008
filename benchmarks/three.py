"""Three-sequence benchmark: exact score and alignment on the device vs one CPU thread.

Sizes are the seed's five instances (Li, Ranka & Sahni, Tables 1-2): (113,166,364),
(347,349,365), (267,439,452), (764,771,773), (1399,1404,1406), then larger ones: 3,000^3
scored and 2,000^3 aligned. Sequences are simulated relatives (one random ancestor, 30 %
substitutions, deletions down to each length), scored with BLOSUM62 and a linear gap score of
-4 per residue-gap pair (the seed's model); ``--affine`` adds rows with open -10 / extend -1.

For each size, after a warm-up (kernel builds):

* **score**: :meth:`ThreeEngine.score` (SLOPED, and LAYERED with ``--layered``), median of
  ``--repeats`` wall-clock runs (upload, every launch, read-back), and the kernels' own time
  (OpenCL profiling, first launch start to last launch end).
* **align**: :meth:`ThreeEngine.align` (SLOPED fill keeping every tile's faces, then the
  traceback through the path's tiles); the returned columns are rescored on the host and
  must equal the score.
* **CPU**: the same DP (the seed's 7 cases, int32, two i-slices of memory) in C, compiled
  here with ``cc -O3 -march=native`` and run on one thread for sizes up to
  ``--cpu-max-cells``; its score must equal the device's. Larger sizes show the CPU time
  extrapolated from the largest measured rate (marked ``~``).

Cells are (n1 + 1)(n2 + 1)(n3 + 1); G cells/s = cells / seconds.

Run: ``python benchmarks/three.py [--device gpu] [--repeats 3] [--layered] [--affine]
[--large-score 3000] [--large-align 2000] [--shapes] [--json out.json]``
"""

from __future__ import annotations

import argparse
import ctypes
import json
import logging
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bioplug.runtime import get_runtime  # noqa: E402
from bioplug.three.device import ThreeEngine, TileShape  # noqa: E402
from bioplug.three.pipeline import encode, make_scheme  # noqa: E402

log = logging.getLogger("bench.three")

SEED_SIZES = [(113, 166, 364), (347, 349, 365), (267, 439, 452), (764, 771, 773),
              (1399, 1404, 1406)]
#: Seed times (Tesla C2050, seconds): SLOPED score, S-BT1 alignment total.
SEED_TIMES = {(113, 166, 364): (0.044, 0.030), (347, 349, 365): (0.087, 0.111),
              (267, 439, 452): (0.090, 0.125), (764, 771, 773): (0.416, 0.736),
              (1399, 1404, 1406): (1.921, 3.850)}
AMINO = "ACDEFGHIKLMNPQRSTVWY"

C_SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>
#define NEG (-(1 << 29))
static inline int32_t mx(int32_t a, int32_t b) { return a > b ? a : b; }
/* The seed's 7-case recurrence on one thread, int32, two i-slices of (n2 + 2)(n3 + 2) cells:
 * a border of NEG at j = -1 and k = -1 (and a slice of NEG before i = 0) keeps the inner loop
 * free of branches. */
int32_t three_score(int n1, int n2, int n3, const uint8_t *a, const uint8_t *b,
                    const uint8_t *c, const int32_t *sub, int32_t g2)
{
    const long W = n3 + 2, P = (long)(n2 + 2) * W;
    int32_t *prev = malloc(P * sizeof(int32_t)), *cur = malloc(P * sizeof(int32_t));
    for (long x = 0; x < P; x++) prev[x] = cur[x] = NEG;
    for (int i = 0; i <= n1; i++) {
        const int32_t *sa = sub + (i ? a[i - 1] : 0) * 32;
        for (int j = 0; j <= n2; j++) {
            int32_t *h = cur + (j + 1) * W + 1;
            const int32_t *hl = h - W, *hu = prev + (j + 1) * W + 1, *hd = hu - W;
            const int32_t *sb = sub + (j ? b[j - 1] : 0) * 32;
            const int32_t sab = sa[j ? b[j - 1] : 0];
            int k0 = 0;
            if (i == 0 && j == 0) { h[0] = 0; k0 = 1; }
            for (int k = k0; k <= n3; k++) {
                const int cc = k ? c[k - 1] : 0;
                const int32_t sac = sa[cc], sbc = sb[cc];
                int32_t v = hd[k - 1] + sab + sac + sbc;
                v = mx(v, hd[k] + sab + g2);
                v = mx(v, hu[k - 1] + sac + g2);
                v = mx(v, hl[k - 1] + sbc + g2);
                v = mx(v, mx(hu[k], mx(hl[k], h[k - 1])) + g2);
                h[k] = v;
            }
        }
        int32_t *t = prev; prev = cur; cur = t;
    }
    const int32_t s = prev[(long)(n2 + 1) * W + n3 + 1];
    free(prev); free(cur);
    return s;
}
"""


def simulate(lengths, seed: int = 0) -> list[str]:
    """Relatives of one random ancestor: 30 % substitutions, then deletions to each length."""
    rng = np.random.default_rng(seed)
    top = max(lengths)
    ancestor = rng.integers(0, 20, top)
    out = []
    for n in lengths:
        s = ancestor.copy()
        mut = rng.random(top) < 0.3
        s[mut] = rng.integers(0, 20, int(mut.sum()))
        keep = np.sort(rng.choice(top, n, replace=False))
        out.append("".join(AMINO[x] for x in s[keep]))
    return out


def cells(lengths) -> int:
    n1, n2, n3 = lengths
    return (n1 + 1) * (n2 + 1) * (n3 + 1)


def build_c(workdir: str):
    """The C baseline as a ctypes function, or None without a C compiler."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return None
    src = Path(workdir) / "three_cpu.c"
    lib = Path(workdir) / "three_cpu.so"
    src.write_text(C_SOURCE)
    subprocess.run([cc, "-O3", "-march=native", "-shared", "-fPIC", str(src), "-o", str(lib)],
                   check=True)
    fn = ctypes.CDLL(str(lib)).three_score
    fn.restype = ctypes.c_int32
    return fn


def cpu_score(fn, codes, matrix, g2) -> tuple[int, float]:
    sub = np.zeros((32, 32), dtype=np.int32)
    sub[: matrix.shape[0], : matrix.shape[1]] = matrix
    arrs = [np.ascontiguousarray(c, dtype=np.uint8) for c in codes]
    ptr = ctypes.POINTER(ctypes.c_uint8)
    t = time.perf_counter()
    s = fn(*(ctypes.c_int(len(c)) for c in arrs), *(c.ctypes.data_as(ptr) for c in arrs),
           sub.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)), ctypes.c_int32(g2))
    return int(s), time.perf_counter() - t


def rescore_types(types, codes, matrix, gaps) -> int:
    """Score of the returned columns (linear or affine), on the host, vectorised."""
    t = np.asarray(types, dtype=np.int64)
    present = np.stack([(t >> r) & 1 for r in range(3)]).astype(bool)
    rows = np.full((3, len(t)), -1, dtype=np.int64)
    for r in range(3):
        rows[r, present[r]] = codes[r]
    total = 0
    for x, y in ((0, 1), (0, 2), (1, 2)):
        both = present[x] & present[y]
        total += int(matrix[rows[x, both], rows[y, both]].sum())
        one = present[x] ^ present[y]
        if not gaps.affine:
            total += gaps.gap * int(one.sum())
            continue
        status = np.where(one, np.where(present[x], 1, 2), 0)
        cont = np.zeros(len(t), dtype=bool)
        cont[1:] = one[1:] & (status[1:] == status[:-1])
        total += gaps.extend * int(cont.sum()) + gaps.open * int((one & ~cont).sum())
    return total


def timed(fn, repeats: int):
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return out, statistics.median(times)


def run_size(rt, lengths, args, cfn, affine=False, shape=None, what=("score", "align")):
    texts = simulate(lengths, seed=sum(lengths))
    kw = {"substitution_matrix": "BLOSUM62", "gap_score": -4}
    if affine:
        kw.update(open_gap_score=-10, extend_gap_score=-1)
    scheme = make_scheme(texts, **kw)
    codes = encode(scheme, texts, ["a", "b", "c"])
    eng = ThreeEngine(rt, scheme.matrix, scheme.gaps, shape=shape)
    row = {"lengths": list(lengths), "cells": cells(lengths), "affine": affine,
           "shape": str(shape or eng.shapes()[0])}
    repeats = args.repeats if cells(lengths) < 5e9 else 1
    if "score" in what:
        eng.score([c[:50] for c in codes])  # warm-up: kernel build
        _, cold = timed(lambda: eng.score(codes), 1)  # tiling and face allocation included
        score, t = timed(lambda: eng.score(codes), repeats)
        row.update(score=score, score_s=t, score_first_s=cold,
                   score_kernel_s=eng.last_times["fill"])
        if args.layered and not affine:
            eng.score([c[:50] for c in codes], partition="layered")
            s2, t2 = timed(lambda: eng.score(codes, partition="layered"), repeats)
            assert s2 == score, (s2, score)
            row.update(layered_s=t2, layered_kernel_s=eng.last_times["fill"])
        eng.release()
    if "align" in what:
        eng.align([c[:50] for c in codes])
        _, cold = timed(lambda: eng.align(codes), 1)
        row.update(align_first_s=cold)
        (s3, types), t3 = timed(lambda: eng.align(codes), repeats)
        check = rescore_types(types, codes, scheme.matrix, scheme.gaps)
        assert check == s3, (check, s3)
        if "score" in row:
            assert s3 == row["score"], (s3, row["score"])
        row.update(align_score=s3, align_s=t3, align_fill_s=eng.last_times["fill"],
                   align_trace_s=eng.last_times["trace"], columns=len(types))
        eng.release()
    if cfn is not None and not affine and cells(lengths) <= args.cpu_max_cells:
        s4, t4 = cpu_score(cfn, codes, scheme.matrix, 2 * scheme.gaps.gap)
        ref = row.get("score", row.get("align_score"))
        assert s4 == ref, (s4, ref)
        row.update(cpu_s=t4)
    return row


def report(rows) -> None:
    rate = None
    for r in rows:
        if "cpu_s" in r:
            rate = r["cells"] / r["cpu_s"]
    print(f"\n{'lengths':<19}{'Gcells':>7}{'score s':>9}{'1st':>7}{'G/s':>7}{'layer s':>9}"
          f"{'align s':>9}{'1st':>7}{'trace':>7}{'G/s':>7}{'CPU 1t s':>10}{'x score':>9}"
          f"{'x align':>8}{'seed S':>8}{'seed BT':>8}")
    for r in rows:
        n = r["cells"]
        cpu = r.get("cpu_s")
        approx = ""
        if cpu is None and rate and not r["affine"]:
            cpu, approx = n / rate, "~"
        sc, al = r.get("score_s"), r.get("align_s")
        seed = SEED_TIMES.get(tuple(r["lengths"]), (None, None))

        def f(x, w, p=3):
            return f"{x:>{w}.{p}f}" if x is not None else f"{'-':>{w}}"

        label = "x".join(map(str, r["lengths"])) + (" aff" if r["affine"] else "")
        print(f"{label:<19}{n / 1e9:>7.2f}{f(sc, 9)}{f(r.get('score_first_s'), 7)}"
              f"{f(n / sc / 1e9 if sc else None, 7, 1)}{f(r.get('layered_s'), 9)}"
              f"{f(al, 9)}{f(r.get('align_first_s'), 7)}{f(r.get('align_trace_s'), 7)}"
              f"{f(n / al / 1e9 if al else None, 7, 1)}"
              f"{(approx + format(cpu, '.2f')) if cpu else '-':>10}"
              f"{f(cpu / sc if cpu and sc else None, 9, 0)}"
              f"{f(cpu / al if cpu and al else None, 8, 0)}"
              f"{f(seed[0], 8)}{f(seed[1], 8)}")
    print("score / align s: median of repeated calls on one engine (face buffers reused); 1st: "
          "the first call at that size (tiling and face allocation included); trace: the "
          "traceback kernel's share of align")
    if rate:
        print(f"CPU: one thread, C -O3, {rate / 1e9:.3f} G cells/s; '~' = extrapolated at that "
              "rate")


def sweep(rt, args) -> None:
    """Tile shapes: linear score and alignment at 1399^3, affine at 764^3."""
    big, mid = SEED_SIZES[-1], SEED_SIZES[-2]
    runs = [(big, False, ("score",), s) for s in (
        TileShape(8, 4, 32, 32), TileShape(8, 4, 32, 64), TileShape(4, 8, 32, 64),
        TileShape(8, 8, 32, 64), TileShape(8, 4, 32, 128), TileShape(8, 4, 64, 64))]
    runs += [(big, False, ("align",), s) for s in (
        TileShape(8, 4, 32, 32), TileShape(8, 4, 32, 64), TileShape(4, 8, 32, 64))]
    runs += [(mid, True, ("score", "align"), s) for s in (
        TileShape(4, 4, 32, 16), TileShape(2, 8, 32, 16), TileShape(4, 2, 32, 32),
        TileShape(4, 4, 16, 32))]
    for lengths, affine, what, shape in runs:
        r = run_size(rt, lengths, args, None, affine=affine, shape=shape, what=what)
        line = [f"shape {shape} {'affine' if affine else 'linear'} {lengths[0]}:"]
        if "score_s" in r:
            line.append(f"score {r['score_s']:.4f} s (kernels {r['score_kernel_s']:.4f}) "
                        f"{r['cells'] / r['score_s'] / 1e9:.1f} G/s")
        if "align_s" in r:
            line.append(f"align {r['align_s']:.4f} s (fill {r['align_fill_s']:.4f}, trace "
                        f"{r['align_trace_s']:.4f}) {r['cells'] / r['align_s'] / 1e9:.1f} G/s")
        print(" ".join(line), flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", default=None)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--layered", action="store_true", help="also time the LAYERED kernel")
    p.add_argument("--affine", action="store_true", help="also affine gaps (open -10/-1)")
    p.add_argument("--large-score", type=int, default=3000, help="n of the n^3 score run")
    p.add_argument("--large-align", type=int, default=2000, help="n of the n^3 alignment")
    p.add_argument("--cpu-max-cells", type=float, default=6e8,
                   help="largest cube the one-thread CPU DP runs")
    p.add_argument("--sizes", default=None, help="e.g. 113,166,364;347,349,365")
    p.add_argument("--shapes", action="store_true",
                   help="score 1399^3 with several SLOPED tiles first (tuning)")
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rt = get_runtime(args.device)
    print(f"device: {rt.info.name} [{rt.info.platform}], {rt.compute_units} compute units")
    with tempfile.TemporaryDirectory() as tmp:
        cfn = build_c(tmp)
        if cfn is None:
            print("no C compiler: CPU column skipped")
        sizes = SEED_SIZES if args.sizes is None else [
            tuple(int(x) for x in s.split(",")) for s in args.sizes.split(";")]
        rows = []
        if args.shapes:
            sweep(rt, args)
        for lengths in sizes:
            rows.append(run_size(rt, lengths, args, cfn))
            print(json.dumps(rows[-1]), flush=True)
        if args.affine:
            for lengths in sizes[:4]:
                rows.append(run_size(rt, lengths, args, None, affine=True))
                print(json.dumps(rows[-1]), flush=True)
        if args.large_score:
            n = args.large_score
            rows.append(run_size(rt, (n, n, n), args, None, what=("score",)))
            print(json.dumps(rows[-1]), flush=True)
        if args.large_align:
            n = args.large_align
            rows.append(run_size(rt, (n, n, n), args, None, what=("align",)))
            print(json.dumps(rows[-1]), flush=True)
    report(rows)
    meta = {"device": rt.info.name, "platform": rt.info.platform,
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "host": platform.node(), "command": " ".join(sys.argv), "rows": rows}
    if args.json:
        Path(args.json).write_text(json.dumps(meta, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
