"""Tune stages II-IV of the QuickProbs pipeline on cached stage I posteriors (issue 19 §3).

Stage I (posteriors) is ~98 % of a PoCL CPU run, and stages II-IV only read its distances and
sparse matrices, so::

    python benchmarks/tune_msa.py cache SETDIR... [--cache /tmp/msa_cache] [--device cpu]

runs stage I once per family (``*.tfa`` with a ``.xml`` beside it), at a cutoff
``CACHE_CUTOFF`` below the pipeline's (entries are later filtered on the host with the same
``>=`` the kernel uses, so any cutoff >= ``CACHE_CUTOFF`` is reproduced exactly), and keeps
the distances and the store in ``CACHE/<family>.npz``. Then::

    python benchmarks/tune_msa.py eval SETDIR... --variants base,c3,col50+s1,r=20 [--check N]

rebuilds stages II-IV from the cache for each variant (``BASE`` updated by ``VARIANTS``
entries and ``key=value`` parts joined with "+"), scores them with ``bioplug.msa.score`` and
prints mean SP/TC per variant, per-family wins/losses against the first variant and the time
of stages II-IV (stage III is computed once per family for variants that share it).
``--check N`` first compares the "base" variant's rows with ``bioplug.msa.pipeline.run`` on the
first N families (must be identical). ``--save FILE.npz`` keeps every family's SP/TC and the
weighted sum of aligned relaxed posteriors (``obj:<variant>``, the quantity stage IV
maximises). ``cache --partition gonnet160 --cache DIR`` caches stage I with another
partition-function table; ``eval --mix-cache DIR`` with ``mix=1`` averages two caches'
posteriors.

Settings: cutoff (stage I, >= CACHE_CUTOFF), c (consistency passes), floor (entries kept
after the last pass; 0 = the cutoff), tree (upgma, wpgma), weights (clustalw, uniform), retree
(1: progressive tree rebuilt from the relaxed posteriors, 2: with its weights), r (refinement
passes), split (random, column), seed, mix.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from bioplug.msa import posterior
from bioplug.msa.aligner import prepare_records
from bioplug.msa.consistency import LAST_FLOOR
from bioplug.msa.model import PROTEIN_PARTITION, encode, load_model
from bioplug.msa.score import read_reference, sp_tc
from bioplug.msa.sparse import SparseStore

#: Stage I cutoff of the cache (variants may use any cutoff at or above it).
CACHE_CUTOFF = 0.001
_FIELDS = ("lengths", "pair_id", "pair_x", "pair_y", "row_base", "indptr", "cols", "vals",
           "thresh")


def find_sets(dirs: list[str]) -> list[Path]:
    """``*.tfa`` files with a ``.xml`` reference beside them, sorted per directory."""
    return [t for d in dirs for t in sorted(Path(d).glob("*.tfa"))
            if t.with_suffix(".xml").exists()]


def cache_family(rt, tfa: Path, out: Path, partition: str | None = None) -> float:
    """Stage I of one family at ``CACHE_CUTOFF``; the npz holds dist, the store and texts."""
    records = prepare_records(str(tfa), "protein")
    texts = [str(r.seq) for r in records]
    names = [r.id for r in records]
    model = load_model("protein", partition)
    codes = [encode(t, nm, model) for t, nm in zip(texts, names, strict=True)]
    k = len(codes)
    ia, ib = np.triu_indices(k, 1)
    pairs = np.stack([ia, ib], axis=1)
    keep = np.ones(len(pairs), bool)
    t0 = time.perf_counter()
    saved = posterior.CUTOFF
    posterior.CUTOFF = CACHE_CUTOFF  # read at call time by compute_posteriors
    try:
        dist, store = posterior.compute_posteriors(rt, codes, pairs, keep, keep, False,
                                                   model=model)
    finally:
        posterior.CUTOFF = saved
    dt = time.perf_counter() - t0
    np.savez(out, dist=dist, texts=np.array(texts, dtype=object),
             names=np.array(names, dtype=object),
             **{f: getattr(store, f) for f in _FIELDS})
    return dt


#: A second cache (another partition function) for the "mix" setting: stage I posteriors of
#: both caches averaged entry by entry (absent entries count as 0), distances averaged.
MIX_CACHE: Path | None = None


def _mixed(path: Path) -> tuple[dict, np.ndarray, SparseStore]:
    z = np.load(path, allow_pickle=True)
    z2 = np.load(MIX_CACHE / path.name, allow_pickle=True)
    assert np.array_equal(z["pair_x"], z2["pair_x"]) and np.array_equal(z["pair_y"], z2["pair_y"])
    nrows = int(z["row_base"][-1])
    width = int(z["lengths"].max()) + 1
    keys, vals = [], []
    for zz in (z, z2):
        row = np.repeat(np.arange(nrows, dtype=np.int64), np.diff(zz["indptr"]))
        keys.append(row * width + zz["cols"])
        vals.append(zz["vals"].astype(np.float64))
    uk, inv = np.unique(np.concatenate(keys), return_inverse=True)
    acc = np.zeros(uk.size)
    np.add.at(acc, inv, np.concatenate(vals))
    acc *= 0.5
    indptr = np.zeros(nrows + 1, dtype=np.int64)
    np.cumsum(np.bincount(uk // width, minlength=nrows), out=indptr[1:])
    fields = {f: z[f] for f in _FIELDS}
    fields.update(indptr=indptr, cols=(uk % width).astype(np.int32),
                  vals=acc.astype(np.float32))
    return z, 0.5 * (z["dist"] + z2["dist"]), SparseStore(**fields)


def load_family(path: Path, cutoff: float, mix: bool = False
                ) -> tuple[list[str], list[str], np.ndarray, SparseStore]:
    """Texts, names, distances and the store filtered at ``cutoff`` (as stage I writes it)."""
    if mix:
        z, dist, store = _mixed(path)
    else:
        z = np.load(path, allow_pickle=True)
        dist = z["dist"]
        store = SparseStore(**{f: z[f] for f in _FIELDS})
    store.thresh = np.full(store.thresh.size, cutoff, dtype=np.float32)
    store = store.filtered(store.vals)
    return list(z["texts"]), list(z["names"]), dist, store


#: Variant name -> settings over BASE; compose with "+" on the command line ("c3+col100").
BASE = {"cutoff": 0.01, "c": 2, "r": 10, "split": "random", "tree": "upgma",
        "weights": "clustalw", "seed": 0, "retree": 0, "floor": LAST_FLOOR, "mix": 0}
VARIANTS: dict[str, dict] = {
    "base": {},
    "c1": {"c": 1}, "c3": {"c": 3}, "c4": {"c": 4},
    "cut005": {"cutoff": 0.005}, "cut002": {"cutoff": 0.002}, "cut02": {"cutoff": 0.02},
    "wpgma": {"tree": "wpgma"}, "uniformw": {"weights": "uniform"},
    "retree": {"retree": 1}, "retreew": {"retree": 2},
    "nofloor": {"floor": 0.0},
    **{f"r{r}": {"r": r} for r in (0, 20, 50, 100, 200)},
    **{f"col{r}": {"r": r, "split": "column"} for r in (10, 20, 30, 50, 100, 200)},
    **{f"s{s}": {"seed": s} for s in range(1, 8)},
}


def settings(name: str) -> dict:
    """BASE updated by each "+"-separated part of ``name`` (a VARIANTS key or key=value)."""
    out = dict(BASE)
    for part in name.split("+"):
        if "=" in part:
            key, _, val = part.partition("=")
            out[key] = type(BASE[key])(val)
        else:
            out.update(VARIANTS[part])
    return out


def stage_ii(rt, dist: np.ndarray, k: int, cfg: dict) -> tuple[np.ndarray, np.ndarray]:
    """Guide tree and weights of the pipeline from the pair distances (pipeline order)."""
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import squareform

    from bioplug.msa.guide import clustalw_weights, guide_tree

    ia, ib = np.triu_indices(k, 1)
    dm = np.zeros((k, k))
    dm[ia, ib] = dist
    dm[ib, ia] = dist
    if cfg["tree"] == "upgma":
        link = guide_tree(dm, rt)
    else:
        link = linkage(squareform(dm, checks=False), method={"wpgma": "weighted"}[cfg["tree"]])
    weights = clustalw_weights(link, k)
    if cfg["weights"] == "uniform":
        weights = np.full(k, 1.0 / k)
    return link, weights


def relaxed_distances(store: SparseStore) -> np.ndarray:
    """1 - expected aligned residues / shorter length, from the relaxed S_xy and S_yx (upper
    triangle order, like stage I's distances)."""
    k = store.lengths.size
    vals = np.append(store.vals.astype(np.float64), 0.0)  # trailing empty rows index nnz
    row_mass = np.where(np.diff(store.indptr) > 0, np.add.reduceat(vals, store.indptr[:-1]),
                        0.0)
    pair_mass = np.add.reduceat(row_mass, store.row_base[:-1])
    ia, ib = np.triu_indices(k, 1)
    mass = 0.5 * (pair_mass[store.pair_id[ia, ib]] + pair_mass[store.pair_id[ib, ia]])
    short = np.minimum(store.lengths[ia], store.lengths[ib])
    return np.clip(1.0 - mass / short, 0.0, 1.0)


def objective(store: SparseStore, colmap: np.ndarray, weights: np.ndarray) -> float:
    """Weighted sum of the relaxed posteriors of the residue pairs the alignment puts in one
    column: what every stage IV DP step maximises over its cross pairs."""
    starts = np.concatenate([[0], np.cumsum(store.lengths)])
    nrows = int(store.row_base[-1])
    row = np.repeat(np.arange(nrows), np.diff(store.indptr))
    pair = np.repeat(np.arange(store.pair_x.size), np.diff(store.row_base))
    px, py = store.pair_x[pair[row]], store.pair_y[pair[row]]
    i = row - store.row_base[pair[row]]
    same = colmap[starts[px] + i] == colmap[starts[py] + store.cols]
    w = weights[px] * weights[py]
    return float(np.sum(store.vals * w * same))


def align_cached(rt, path: Path, cfg: dict, memo: dict) -> list[str]:
    """Rows of one family under ``cfg`` (stages II-III memoised on their own settings)."""
    from bioplug.msa.consistency import relax
    from bioplug.msa.progressive import ProfileAligner

    key3 = (path.stem, cfg["cutoff"], cfg["c"], cfg["tree"], cfg["weights"], cfg["retree"],
            cfg["floor"], cfg["mix"])
    if key3 not in memo:
        memo.clear()  # one family at a time: keep memory flat
        texts, names, dist, store = load_family(path, cfg["cutoff"], bool(cfg["mix"]))
        k = len(texts)
        link, weights = stage_ii(rt, dist, k, cfg)
        store = relax(rt, store, weights, np.arange(k), cfg["c"],
                      last_floor=cfg["floor"] or None)
        if cfg["retree"]:
            link, w2 = stage_ii(rt, relaxed_distances(store), k, cfg)
            weights = w2 if cfg["retree"] == 2 else weights
        memo[key3] = (texts, names, link, weights, store)
    texts, names, link, weights, store = memo[key3]
    k = len(texts)
    aligner = ProfileAligner(rt, store, weights)
    _, length = aligner.progressive(link)
    if cfg["r"] > 0 and k > 2:
        length = aligner.refine(length, cfg["r"], cfg["seed"], split=cfg["split"])
    align_cached.last_objective = objective(store, aligner.colmap, weights)
    align_cached.last_aligner = aligner   # (its store and columns: reliability, ...)
    return aligner.rows(texts, length)


def check_base(rt, device, sets: list[Path], cache: Path, count: int) -> bool:
    """The harness's base rows against ``pipeline.run`` with the defaults (must be equal)."""
    from bioplug.msa import pipeline

    ok = True
    for tfa in sets[:count]:
        texts, names, *_ = load_family(cache / f"{tfa.stem}.npz", BASE["cutoff"])
        ref = pipeline.run(texts, names, device=device).rows
        mine = align_cached(rt, cache / f"{tfa.stem}.npz", settings("base"), {})
        same = ref == mine
        ok &= same
        print(f"check {tfa.stem} (k={len(texts)}): {'same rows' if same else 'DIFFERENT'}",
              flush=True)
    return ok


def main_eval(args) -> int:
    from bioplug.runtime import get_runtime

    global MIX_CACHE
    MIX_CACHE = Path(args.mix_cache) if args.mix_cache else None
    rt = get_runtime(args.device)
    cache = Path(args.cache)
    sets = [t for t in find_sets(args.setdirs) if (cache / f"{t.stem}.npz").exists()]
    if args.check and not check_base(rt, args.device, sets, cache, args.check):
        return 1
    names = args.variants.split(",")
    for v in names:
        settings(v)  # unknown names fail now, not after the first families
    scores = {v: np.zeros((len(sets), 2)) for v in names}
    objectives = {v: np.zeros(len(sets)) for v in names}
    spent = dict.fromkeys(names, 0.0)
    memo: dict = {}
    for f, tfa in enumerate(sets):
        ref = read_reference(tfa.with_suffix(".xml"))
        for v in names:
            t0 = time.perf_counter()
            rows = align_cached(rt, cache / f"{tfa.stem}.npz", settings(v), memo)
            spent[v] += time.perf_counter() - t0
            ids = list(np.load(cache / f"{tfa.stem}.npz", allow_pickle=True)["names"])
            scores[v][f] = sp_tc(ids, rows, ref)
            objectives[v][f] = align_cached.last_objective
        if args.verbose:
            print(tfa.stem, " ".join(f"{v}:{100 * scores[v][f, 0]:.1f}/{100 * scores[v][f, 1]:.1f}"
                                     for v in names), flush=True)
    first = names[0]
    print(f"# {len(sets)} families; wins/losses against {first} (SP, TC)")
    for v in names:
        d = scores[v] - scores[first]
        sp, tc = 100 * scores[v].mean(axis=0)
        print(f"{v:<24} SP {sp:6.2f} TC {tc:6.2f}  SP +{(d[:, 0] > 1e-9).sum()}/"
              f"-{(d[:, 0] < -1e-9).sum()}  TC +{(d[:, 1] > 1e-9).sum()}/"
              f"-{(d[:, 1] < -1e-9).sum()}  {spent[v]:7.1f} s", flush=True)
    if args.save:
        np.savez(args.save, sets=np.array([t.stem for t in sets]),
                 **{v: scores[v] for v in names},
                 **{f"obj:{v}": objectives[v] for v in names})
    return 0


def main_cache(args) -> int:
    from bioplug.runtime import get_runtime

    rt = get_runtime(args.device)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    for tfa in find_sets(args.setdirs):
        out = cache / f"{tfa.stem}.npz"
        if out.exists():
            continue
        dt = cache_family(rt, tfa, out, args.partition)
        print(f"{tfa.stem}: stage I {dt:.1f} s", flush=True)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("cache", "eval"):
        p = sub.add_parser(name)
        p.add_argument("setdirs", nargs="+")
        p.add_argument("--cache", default=f"/tmp/msa_cache_{PROTEIN_PARTITION}",
                       help="cache folder (one per partition-function table)")
        p.add_argument("--device", default="cpu")
        if name == "cache":
            p.add_argument("--partition", default=PROTEIN_PARTITION,
                           help="protein partition-function table (gonnet160, vtml200)")
        if name == "eval":
            p.add_argument("--variants", default="base")
            p.add_argument("--check", type=int, default=0,
                           help="first compare base with pipeline.run on N families")
            p.add_argument("--verbose", action="store_true", help="per-family scores")
            p.add_argument("--save", default=None, help="npz of per-family scores")
            p.add_argument("--mix-cache", default=None,
                           help="second cache for variants with mix=1")
    args = ap.parse_args(argv)
    if args.cmd == "cache":
        return main_cache(args)
    return main_eval(args)


if __name__ == "__main__":
    sys.exit(main())
