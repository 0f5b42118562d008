"""Simulated protein or DNA family: evolve a random root along a random tree, align it, score it.

Usage::

    python benchmarks/simulate.py --k 1000 --length 300 [--device gpu] [--seed 1] [--out DIR]
    python benchmarks/simulate.py --nucleotide --k 100 --length 500 [--scale 0.04]

Proteins: the root is drawn from the ProbCons background frequencies; every branch applies
substitutions (from the ProbCons pair-emission table, i.e. P(b | a)) with probability equal to its
length. DNA (``--nucleotide``): a uniform random root, and along every branch the Kimura
two-parameter (K2P) model with transition/transversion rate ratio ``--kappa`` (default 2), the
branch length being the expected substitutions per site. Either way insertions (uniform /
background letters) and deletions come in proportion to the branch length, with geometric
lengths. Residues carry their ancestral column, so the true alignment is known: the script
writes ``family.fa`` (unaligned) and ``true.fa`` (the true alignment) into ``--out`` (a temporary
folder by default), times ``MultipleSequenceAligner`` (total and stages I-IV, peak host memory)
and prints SP/TC against the true alignment (every column scored). The target on one H100 is
1,000 x ~300 residues in < 60 s within 16 GB of host memory.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bioplug.msa.model import ALPHABET, load_model


def _tables():
    m = load_model()
    single = np.exp(m.hmm[30:50].astype(np.float64))
    single /= single.sum()
    pairs = np.exp(m.hmm[51:].astype(np.float64).reshape(21, 21)[:20, :20])
    cond = pairs / pairs.sum(axis=1, keepdims=True)
    return single, np.cumsum(cond, axis=1)


def random_tree(k: int, rng: np.random.Generator, scale: float) -> list[tuple[int, int, float]]:
    """Edges (parent, child, length) of a random rooted binary tree; node 0 is the root."""
    edges = []
    leaves = [0]
    nxt = 1
    while len(leaves) < k:
        i = rng.integers(len(leaves))
        parent = leaves.pop(i)
        for _ in range(2):
            edges.append((parent, nxt, float(rng.exponential(scale))))
            leaves.append(nxt)
            nxt += 1
    return edges, leaves


def k2p_substitute(s: np.ndarray, blen: float, kappa: float,
                   rng: np.random.Generator) -> np.ndarray:
    """Bases (codes 0..3 = A, C, G, T) after ``blen`` expected substitutions per site under
    Kimura's two-parameter model (transitions A<->G, C<->T at ``kappa`` times the rate of each
    transversion)."""
    beta = 1.0 / (kappa + 2.0)          # per-transversion rate; alpha + 2 beta = 1
    alpha = kappa * beta
    e4 = np.exp(-4.0 * beta * blen)
    e2 = np.exp(-2.0 * (alpha + beta) * blen)
    p_same = 0.25 + 0.25 * e4 + 0.5 * e2
    p_ts = 0.25 + 0.25 * e4 - 0.5 * e2
    u = rng.random(s.size)
    out = s.copy()
    ts = (u >= p_same) & (u < p_same + p_ts)
    tv = u >= p_same + p_ts
    out[ts] = s[ts] ^ 2                  # A(0)<->G(2), C(1)<->T(3)
    out[tv] = s[tv] ^ rng.choice(np.array([1, 3], dtype=s.dtype), size=int(tv.sum()))
    return out


def evolve(k: int, length: int, seed: int, scale: float = 0.12, indel: float = 0.08,
           nucleotide: bool = False, kappa: float = 2.0):
    """(names, sequences, true aligned rows) of a simulated family (DNA when ``nucleotide``)."""
    rng = np.random.default_rng(seed)
    if nucleotide:
        nletters, alphabet = 4, "ACGT"
        single, cond_cum = np.full(4, 0.25), None
    else:
        nletters, alphabet = 20, ALPHABET
        single, cond_cum = _tables()
    edges, leaves = random_tree(k, rng, scale)
    root = rng.choice(nletters, size=length, p=single)
    keys = {0: np.arange(length, dtype=np.float64)}
    seqs = {0: root}
    for parent, child, blen in edges:
        s, key = seqs[parent].copy(), keys[parent].copy()
        # substitutions
        if nucleotide:
            s = k2p_substitute(s, blen, kappa, rng)
        else:
            hit = rng.random(s.size) < blen
            if hit.any():
                u = rng.random(int(hit.sum()))
                s[hit] = (u[:, None] > cond_cum[s[hit]]).sum(axis=1).clip(0, 19)
        # indels: a few events per branch, geometric lengths
        for _ in range(rng.poisson(indel * blen * s.size / 10 + 1e-9)):
            glen = int(rng.geometric(0.4))
            pos = int(rng.integers(s.size + 1))
            if rng.random() < 0.5 and s.size > glen + 10:
                s = np.delete(s, np.s_[pos:pos + glen])
                key = np.delete(key, np.s_[pos:pos + glen])
            else:
                lo = key[pos - 1] if pos > 0 else key[0] - 1.0
                hi = key[pos] if pos < key.size else key[-1] + 1.0
                new = lo + (hi - lo) * (np.arange(1, glen + 1) / (glen + 1))
                s = np.insert(s, pos, rng.choice(nletters, size=glen, p=single))
                key = np.insert(key, pos, new)
        seqs[child], keys[child] = s, key
    letters = np.frombuffer(alphabet.encode(), dtype=np.uint8)
    allkeys = np.unique(np.concatenate([keys[n] for n in leaves]))
    names, texts, rows = [], [], []
    for i, n in enumerate(leaves):
        names.append(f"sim{i}")
        texts.append(letters[seqs[n]].tobytes().decode())
        row = np.full(allkeys.size, ord("-"), dtype=np.uint8)
        row[np.searchsorted(allkeys, keys[n])] = letters[seqs[n]]
        rows.append(row.tobytes().decode())
    return names, texts, rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, default=1000)
    ap.add_argument("--length", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", default=None)
    ap.add_argument("--out", default=None, help="folder for family.fa / true.fa / bioplug.fa")
    ap.add_argument("--no-align", action="store_true", help="only write the family")
    ap.add_argument("--nucleotide", action="store_true",
                    help="DNA family under K2P (see the module docstring)")
    ap.add_argument("--kappa", type=float, default=2.0, help="K2P transition/transversion ratio")
    ap.add_argument("--scale", type=float, default=None,
                    help="mean branch length (default 0.12 protein, 0.04 DNA)")
    ap.add_argument("--fast-distances", action="store_true",
                    help="anchor mode: tree distances from the pair-HMM posterior only")
    args = ap.parse_args(argv)
    out = Path(args.out or tempfile.mkdtemp(prefix="bioplug_sim_"))
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    scale = args.scale if args.scale is not None else (0.04 if args.nucleotide else 0.12)
    names, texts, rows = evolve(args.k, args.length, args.seed, scale=scale,
                                nucleotide=args.nucleotide, kappa=args.kappa)
    with open(out / "family.fa", "w") as fh:
        fh.writelines(f">{n}\n{t}\n" for n, t in zip(names, texts, strict=True))
    with open(out / "true.fa", "w") as fh:
        fh.writelines(f">{n}\n{r}\n" for n, r in zip(names, rows, strict=True))
    mean_len = np.mean([len(t) for t in texts])
    print(f"# simulated {args.k} sequences, mean length {mean_len:.0f}, "
          f"{time.perf_counter() - t0:.1f} s -> {out}")
    if args.no_align:
        return 0
    from bioplug.msa.aligner import MultipleSequenceAligner
    from bioplug.msa.score import read_reference, sp_tc
    from bioplug.runtime import get_runtime

    rt = get_runtime(args.device)
    aligner = MultipleSequenceAligner(device=rt, fast_distances=args.fast_distances)
    from bioplug.msa import pipeline
    from bioplug.msa.posterior import prebuild

    seqtype = "dna" if args.nucleotide else "protein"
    prebuild(rt, 1024, seqtype=seqtype)
    if args.fast_distances:   # anchor mode's all-pairs pass, as the pipeline builds it
        prebuild(rt, 1024, hmm_only=True, seqtype=seqtype, precision=pipeline.ANCHOR_DISTANCES)
    aligner.align(texts[:3])  # warm-up: kernel builds
    t0 = time.perf_counter()
    aln = aligner.align(str(out / "family.fa"))
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    got = [aln[i] for i in range(len(aln.sequences))]
    with open(out / "bioplug.fa", "w") as fh:
        fh.writelines(f">{n}\n{r}\n" for n, r in zip(names, got, strict=True))
    sp, tc = sp_tc(names, got, read_reference(out / "true.fa"))
    stages = ", ".join(f"{k} {v:.2f}s" for k, v in aligner.last_times.items())
    print(f"device {rt.info.name} [{rt.info.platform}]; mode {aligner.last_mode}")
    print(f"wall {wall:.2f} s ({stages}); peak host RSS {peak:.2f} GiB")
    print(f"SP {100 * sp:.2f} TC {100 * tc:.2f} (against the true alignment, all columns)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
