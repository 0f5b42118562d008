"""Tune the progressive aligner's settings on the dev data (HomFam dev families, BAliBASE RV11/12).

Usage::

    python benchmarks/tune_progressive.py --homfam 101 --balibase \\
        --grid "base:;go8:gap_open=8;tree-align:distances=align" [--device gpu]

Each family's guide tree is computed once per ``distances`` setting and reused by every setting
that shares it, so a grid costs little more than its progressive stages. Prints mean SP / TC
(HomFam protocol, ``benchmarks/homfam.py``; BAliBASE core columns, ``bioplug.msa.score``) and
seconds per setting, best last. Tune only on these sets: other families are kept back to judge.

``trees=upgma+nj`` lets the aligner make its candidate trees and keep the best alignment
(``ProgressiveAligner(trees=...)``); the guide tree is then computed inside the timing.

A key with a dot sets a module constant for that setting only, e.g. ``refine.PATIENCE=8``
(``bioplug.progressive.refine.PATIENCE``): constants that are no aligner argument.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import homfam  # noqa: E402

from bioplug.alignio import alignment_rows  # noqa: E402
from bioplug.alphabet import is_nucleotide  # noqa: E402
from bioplug.msa.score import read_reference, sp_tc  # noqa: E402
from bioplug.progressive import ProgressiveAligner  # noqa: E402
from bioplug.progressive.guide import guide_tree  # noqa: E402
from bioplug.runtime import get_runtime  # noqa: E402


def parse_grid(text: str) -> list[tuple[str, dict]]:
    """``name:key=value,key=value;name2:...`` -> [(name, kwargs)]."""
    out = []
    for item in filter(None, (s.strip() for s in text.split(";"))):
        name, _, body = item.partition(":")
        kw: dict = {}
        for pair in filter(None, body.split(",")):
            key, _, value = pair.partition("=")
            try:
                kw[key] = float(value)
            except ValueError:
                kw[key] = value
        out.append((name, kw))
    return out


def make_tree(texts, nuc, rt, dist: str, method: str, ids) -> np.ndarray:
    """Guide tree of the pipeline ("upgma"), or single linkage / midpoint-rooted NJ on the
    same distances (experiments)."""
    if method == "upgma" or len(texts) < 3:
        return guide_tree(texts, nuc, 4000, rt, distances=dist)
    from bioplug.progressive.guide import alignment_distances
    from bioplug.tree import ktuple_distances

    d = (alignment_distances(texts, nuc, rt) if dist == "align"
         else ktuple_distances(texts, device=rt).to_numpy())
    if method == "single":
        from scipy.cluster.hierarchy import linkage
        from scipy.spatial.distance import squareform

        return linkage(squareform(d, checks=False), method="single")
    from bioplug.progressive.trees import linkage_from_tree
    from bioplug.tree import nj

    tree = nj(d, ids=[str(i) for i in range(len(texts))], device=rt).root_at_midpoint()
    return linkage_from_tree(tree, [str(i) for i in range(len(texts))])


@contextlib.contextmanager
def module_constants(kw: dict):
    """Set the ``module.NAME`` keys of ``kw`` (popped) on ``bioplug.progressive.module`` for
    the block, and restore them after."""
    saved = []
    for key in [key for key in kw if "." in key]:
        module, _, name = key.rpartition(".")
        mod = importlib.import_module(f"bioplug.progressive.{module}")
        value = kw.pop(key)
        old = getattr(mod, name)
        saved.append((mod, name, old))
        setattr(mod, name, type(old)(value) if isinstance(old, (int, float)) else value)
    try:
        yield
    finally:
        for mod, name, old in reversed(saved):
            setattr(mod, name, old)


def balibase_sets(root: Path) -> list[tuple[str, Path, Path]]:
    sets = []
    for sub in ("RV11", "RV12"):
        for tfa in sorted((root / sub).glob("*.tfa")):
            sets.append((tfa.stem, tfa, tfa.with_suffix(".xml")))
    return sets


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--homfam", type=int, default=0, help="first N HomFam dev families")
    ap.add_argument("--balibase", action="store_true")
    ap.add_argument("--balibase-root", default=None)
    ap.add_argument("--grid", default="base:")
    ap.add_argument("--device", default=None)
    args = ap.parse_args(argv)
    rt = get_runtime(args.device)
    grid = parse_grid(args.grid)
    jobs = []   # (dataset, name, records, scorer)
    if args.homfam:
        for fam in homfam.families()[: args.homfam]:
            records, _, _ = homfam.prepare(fam)
            jobs.append(("homfam", fam, records,
                         lambda ids, rows, fam=fam: homfam.score(fam, ids, rows)))
    if args.balibase:
        from Bio import SeqIO

        root = Path(args.balibase_root) if args.balibase_root else homfam.default_root(
        ).parent / "balibase3"
        for name, tfa, xml in balibase_sets(root):
            records = list(SeqIO.parse(tfa, "fasta"))
            ref = read_reference(xml)
            jobs.append(("balibase", name, records,
                         lambda ids, rows, ref=ref: sp_tc(ids, rows, ref)))
    ProgressiveAligner(device=rt).align(["MKV", "MRV"])      # kernel builds out of the timing
    results = {name: {"homfam": [], "balibase": []} for name, _ in grid}
    seconds = dict.fromkeys(results, 0.0)
    for dataset, fam, records, scorer in jobs:
        texts = [str(r.seq).replace("-", "") for r in records]
        nuc = is_nucleotide(texts)
        trees = {}
        for name, kw in grid:
            kw = dict(kw)
            dist = kw.get("distances", "align")
            method = kw.pop("tree", "upgma")
            t0 = time.perf_counter()
            given = None
            if "trees" in kw:        # candidate trees: the aligner makes and picks them itself
                kw["trees"] = tuple(str(kw["trees"]).split("+"))
            else:
                if (dist, method) not in trees:
                    trees[dist, method] = make_tree(texts, nuc, rt, dist, method,
                                                    [r.id for r in records])
                given = trees[dist, method]
            with module_constants(kw):
                aligner = ProgressiveAligner(device=rt, **kw)
                aln = aligner.align(records, guide_tree=given)
            seconds[name] += time.perf_counter() - t0
            ids = [r.id for r in aln.sequences]
            rows = [r.tobytes().decode("latin-1") for r in alignment_rows(aln)]
            sp, tc = scorer(ids, rows)
            results[name][dataset].append((sp, tc))
        print(dataset, fam, len(records), " ".join(
            f"{n}={100 * results[n][dataset][-1][0]:.1f}/{100 * results[n][dataset][-1][1]:.1f}"
            for n, _ in grid), flush=True)
    print("\nsetting                 homfam SP/TC      balibase SP/TC    seconds")
    for name, _ in sorted(grid, key=lambda g: np.mean(
            [v[0] for v in results[g[0]]["homfam"]] or [0])):
        cells = []
        for ds in ("homfam", "balibase"):
            v = np.array(results[name][ds]) * 100
            cells.append(f"{v[:, 0].mean():6.2f} / {v[:, 1].mean():6.2f}" if v.size else
                         "      -        ")
        print(f"{name:22s}  {cells[0]}   {cells[1]}   {seconds[name]:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
