"""The QuickProbs pipeline, stage by stage (I posteriors, II tree, III consistency, IV alignment).

Full mode (the paper): posteriors of every pair kept in both orientations, consistency over every
z, progressive alignment and refinement with every cross pair.

Large families: when the estimated size of all k^2 sparse matrices exceeds ``host_budget``
(default 4 GiB) or k > ``max_full_k`` (default 300; full consistency costs O(k^3)), the
pipeline switches to *anchor mode* (in the spirit of QuickProbs 2):

1. the guide tree is UPGMA on local-alignment distances of all pairs from the pairwise engine
   (:func:`bioplug.progressive.guide.matrix_tree`, the progressive pipeline's tree; LCS
   distances where all pairs would cost too many cells; ``ANCHOR_TREE = "align"``). With
   ``ANCHOR_TREE = "posterior"`` or ``fast_distances``, stage I runs over every pair for the
   distances only (nothing is stored; single precision with the device's fast exp / log,
   ``ANCHOR_DISTANCES``) and the tree is built from them as in full mode (1,000 x 300 on an
   H200: about 3.5 s for that pass, against 0.56 s for the alignment-distance tree);
2. ClustalW weights from the tree;
3. a set of anchor sequences (``anchors``, spread along the tree's leaf order) is chosen, and the
   pairs to keep are: every pair with an anchor, plus for every tree node up to ``node_pairs``
   cross pairs drawn with the seeded RNG; stage I runs for those pairs only;
4. consistency sums over z in the anchors only (Eq. 2 restricted to z in the anchor set);
5. progressive alignment and refinement use the stored cross pairs of each profile pair.
Memory is then O(k * (anchors + node_pairs) * n * nnz_per_row) instead of O(k^2 ...).

In both modes the matrices' entries stay on the device from stage I to stage IV
(:class:`bioplug.msa.sparse.DeviceCSR`); only row offsets and pair tables visit the host.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bioplug.msa.consistency import LAST_FLOOR, relax
from bioplug.msa.guide import clustalw_weights, guide_tree
from bioplug.msa.model import ANCHOR_PARTITION, Model, encode, load_model
from bioplug.msa.posterior import compute_posteriors
from bioplug.msa.progressive import ProfileAligner
from bioplug.msa.reliability import reliability as column_reliability
from bioplug.msa.sparse import SparseStore
from bioplug.progress import Progress
from bioplug.runtime import Runtime, every_gpu, get_runtime, get_runtimes

log = logging.getLogger(__name__)

#: Bytes per stored sparse entry (column int32 + value float32) and per row (indptr int64).
_ENTRY, _ROW = 8, 8
#: Entries per row assumed before stage I (3.5-7 measured on BAliBASE RV11/RV12 at 0.01).
_NNZ_PER_ROW = 6.0
#: Precision of anchor mode's all-pairs distance pass, whose matrices are not kept
#: (:func:`bioplug.msa.posterior.compute_posteriors`); the kept pairs take the default
#: (:data:`bioplug.msa.posterior.PRECISION`; "fast" gave the same alignments on 15 families
#: and no time: their time is not in the kernel).
ANCHOR_DISTANCES = "fast"
#: Anchor mode's guide tree (see the module docstring): "align" or "posterior". On 12 HomFam
#: dev families of 301-1,533 sequences "align" gave SP / TC 80.59 / 64.53 in 31 s against
#: 80.32 / 63.26 in 42 s (H200); on simulated 1,000 x 300 (seeds 1-3) 97.56 / 41.84 in 7.9 s
#: against 97.05 / 43.34 in 10-12 s.
ANCHOR_TREE = "align"


@dataclass
class PipelineResult:
    """Gapped rows (input order) and what happened on the way."""

    rows: list[str]
    times: dict = field(default_factory=dict)
    mode: str = "full"
    nnz: int = 0
    link: np.ndarray | None = None
    dist: np.ndarray | None = None
    #: With ``reliability=True``: each column's and each residue's mean aligned posterior
    #: (:mod:`bioplug.msa.reliability`; residues of the sequences concatenated in order).
    column_reliability: np.ndarray | None = None
    residue_reliability: np.ndarray | None = None


def estimate_full_bytes(lengths: np.ndarray, accurate: bool = False) -> float:
    """Host bytes of all k^2 sparse matrices (both orientations) before they exist."""
    k = lengths.size
    total_rows = float(lengths.sum()) * (k - 1)
    per_row = _NNZ_PER_ROW if not accurate else 0.3 * float(lengths.mean())
    return total_rows * (per_row * _ENTRY + _ROW)


def _leaf_order(link: np.ndarray, k: int) -> np.ndarray:
    """Leaves left to right (scipy's ``leaves_list`` order) of a (k-1, 4) linkage.

    scipy validates the linkage first and rejects a negative height, which a user's ``link``
    or a distance that rounds below zero can carry; the order does not depend on heights.
    """
    if k < 2:
        return np.arange(k)
    children = np.asarray(link[:, :2], dtype=np.int64)
    order = []
    stack = [2 * k - 2]
    while stack:  # pre-order walk, left child first (glue: one step per node)
        node = stack.pop()
        if node < k:
            order.append(node)
        else:
            left, right = children[node - k]
            stack += [int(right), int(left)]
    return np.array(order, dtype=np.int64)


def _anchor_set(link: np.ndarray, k: int, count: int) -> np.ndarray:
    order = _leaf_order(link, k)
    count = min(count, k)
    pick = np.linspace(0, k - 1, count).round().astype(np.int64)
    return np.sort(order[np.unique(pick)])


def _node_pairs(link: np.ndarray, k: int, cap: int, rng: np.random.Generator) -> np.ndarray:
    """Up to ``cap`` cross pairs (a < b) per tree node, drawn at random."""
    members: dict[int, np.ndarray] = {s: np.array([s]) for s in range(k)}
    out = []
    for t, row in enumerate(link):
        A, B = members.pop(int(row[0])), members.pop(int(row[1]))
        total = A.size * B.size
        if total <= cap:
            ia, ib = np.meshgrid(A, B, indexing="ij")
            sel = np.stack([ia.ravel(), ib.ravel()], axis=1)
        else:
            flat = rng.choice(total, size=cap, replace=False)
            sel = np.stack([A[flat // B.size], B[flat % B.size]], axis=1)
        out.append(sel)
        members[k + t] = np.concatenate([A, B])
    pairs = np.concatenate(out) if out else np.zeros((0, 2), np.int64)
    return np.sort(pairs, axis=1)


def run(
    texts: list[str],
    names: list[str],
    consistency: int = 2,
    refinement: int = 10,
    accurate: bool = False,
    seed: int = 0,
    device=None,
    progress: Progress | None = None,
    host_budget: float = 4 * 2**30,
    anchors: int = 32,
    node_pairs: int = 128,
    link: np.ndarray | None = None,
    max_full_k: int = 300,
    fast_distances: bool = False,
    seqtype: str = "protein",
    reliability: bool = False,
) -> PipelineResult:
    """Align gap-free sequences; see the module docstring for the stages and modes.

    ``seqtype`` ("protein", "dna" or "rna"; resolve "auto" first with
    :func:`bioplug.msa.model.resolve_seqtype`) picks the stage I model; only stage I sees
    residues, so stages II-IV are the same for every alphabet and the rows keep the input's
    letters. ``device="all"``: every GPU shares stage I's batches, stages II-IV run on the
    first (the same alignment as on one).

    ``link`` (a scipy-format linkage over the k sequences) replaces the UPGMA guide tree.
    Anchor mode is used when the estimated sparse storage exceeds ``host_budget`` bytes or
    k > ``max_full_k`` (full consistency is O(k^3)). ``fast_distances`` (anchor mode only)
    computes the all-pairs guide-tree distances from the pair-HMM posterior alone, skipping
    the double-precision partition function in that first pass (about half of stage I).
    ``reliability`` also gives each column's and residue's mean aligned posterior
    (:mod:`bioplug.msa.reliability`).
    """
    progress = progress or Progress()
    k = len(texts)
    if k == 1:
        nan = np.full(len(texts[0]), np.nan) if reliability else None
        return PipelineResult(rows=[texts[0]], link=np.empty((0, 4)), dist=np.zeros((1, 1)),
                              column_reliability=nan, residue_reliability=nan)
    lengths = np.array([len(t) for t in texts], dtype=np.int64)
    full = estimate_full_bytes(lengths, accurate) <= host_budget and k <= max_full_k
    mode = "full" if full else "anchor"
    model = load_model(seqtype, partition=None if full else ANCHOR_PARTITION)
    codes = [encode(t, nm, model) for t, nm in zip(texts, names, strict=False)]
    ia, ib = np.triu_indices(k, 1)
    all_pairs = np.stack([ia, ib], axis=1)
    # the device last: a command's driver start-up runs on a thread until here (this host
    # work goes beside it); "all": every GPU shares stage I's batches
    devices = get_runtimes(device) if every_gpu(device) else [get_runtime(device)]
    rt = devices[0]
    log.info("msa: %d sequences, mode %s, %s model, device %s", k, mode, model.name, rt)
    stages = _Stages(rt, k, codes, model, accurate, progress, devices)
    if full or fast_distances or ANCHOR_TREE == "posterior":
        dist, store = stages.posteriors(all_pairs, full, fast_distances and not full)
        dm, link, weights = stages.guide(dist, all_pairs, link)
    else:
        dm, link, weights = stages.alignment_tree(texts, seqtype != "protein", link)
    zlist = np.arange(k)
    if not full:
        zlist, store = stages.anchor_posteriors(link, all_pairs, anchors, node_pairs, seed)
    store = stages.consistency(store, weights, zlist, consistency)
    rows, scores = stages.alignment(store, weights, link, texts, refinement, seed, reliability)
    return PipelineResult(rows=rows, times=stages.times, mode=mode, nnz=store.nnz, link=link,
                          dist=dm, column_reliability=scores[0], residue_reliability=scores[1])


@dataclass
class _Stages:
    """What the stages of :func:`run` share: the device, the encoded sequences, the stage I
    model, progress reports and each stage's time (seconds, under "I" to "IV")."""

    rt: Runtime
    k: int
    codes: list[np.ndarray]
    model: Model
    accurate: bool
    progress: Progress
    devices: list[Runtime]   # stage I's batches (rt first); stages II-IV run on rt
    times: dict[str, float] = field(default_factory=dict)

    def rep(self, stage: str) -> Callable[[int, int], None]:
        """A ``(done, total)`` callback reporting ``stage``."""
        return lambda done, total: self.progress.report(stage, done, total)

    def posteriors(self, all_pairs: np.ndarray, full: bool,
                   hmm_only: bool) -> tuple[np.ndarray, SparseStore]:
        """Stage I over every pair: the distances, and (full mode) the stored matrices."""
        t0 = time.perf_counter()
        self.progress.report("I posteriors", 0, len(all_pairs))
        keep = np.full(len(all_pairs), full)
        dist, store = compute_posteriors(self.rt, self.codes, all_pairs, keep, keep,
                                         self.accurate, self.rep("I posteriors"),
                                         hmm_only=hmm_only, model=self.model,
                                         precision=None if full else ANCHOR_DISTANCES,
                                         on_device=True, devices=self.devices)
        self.times["I"] = time.perf_counter() - t0
        return dist, store

    def guide(self, dist: np.ndarray, all_pairs: np.ndarray,
              link: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Stage II: the distance matrix, the guide tree (``link`` when given) and the
        ClustalW sequence weights."""
        t0 = time.perf_counter()
        self.progress.report("II guide tree", 0, 1)
        k = self.k
        ia, ib = all_pairs[:, 0], all_pairs[:, 1]
        dm = np.zeros((k, k))
        dm[ia, ib] = dist
        dm[ib, ia] = dist
        if link is None:
            link = guide_tree(dm, self.rt)
        weights = clustalw_weights(link, k)
        self.progress.report("II guide tree", 1, 1)
        self.times["II"] = time.perf_counter() - t0
        return dm, link, weights

    def alignment_tree(self, texts: list[str], nucleotide: bool, link: np.ndarray | None
                       ) -> tuple[None, np.ndarray, np.ndarray]:
        """Stage II of anchor mode: the guide tree from the pairwise engine's alignment
        distances (``link`` when given) and the ClustalW weights; no distance matrix."""
        from bioplug.progressive.guide import matrix_tree

        t0 = time.perf_counter()
        self.times["I"] = 0.0
        self.progress.report("II guide tree", 0, 1)
        if link is None:
            link = matrix_tree(texts, nucleotide, self.rt, "auto")
        weights = clustalw_weights(link, self.k)
        self.progress.report("II guide tree", 1, 1)
        self.times["II"] = time.perf_counter() - t0
        return None, link, weights

    def anchor_posteriors(self, link: np.ndarray, all_pairs: np.ndarray, anchors: int,
                          node_pairs: int, seed: int) -> tuple[np.ndarray, SparseStore]:
        """Anchor mode: the anchors (the consistency's z), and stage I again for the pairs
        kept (every pair with an anchor, sampled cross pairs of every tree node)."""
        t0 = time.perf_counter()
        k = self.k
        rng = np.random.default_rng(seed)
        zlist = _anchor_set(link, k, anchors)
        is_anchor = np.zeros(k, bool)
        is_anchor[zlist] = True
        with_anchor = all_pairs[is_anchor[all_pairs[:, 0]] | is_anchor[all_pairs[:, 1]]]
        need = np.concatenate([with_anchor, _node_pairs(link, k, node_pairs, rng)])
        need = np.unique(need, axis=0)
        self.progress.report("I posteriors (kept pairs)", 0, len(need))
        ones = np.ones(len(need), bool)
        _, store = compute_posteriors(self.rt, self.codes, need, ones, ones, self.accurate,
                                      self.rep("I posteriors (kept pairs)"), model=self.model,
                                      on_device=True, devices=self.devices)
        self.times["I"] += time.perf_counter() - t0
        log.info("msa anchor mode: %d anchors, %d kept pairs of %d", zlist.size, len(need),
                 len(all_pairs))
        return zlist, store

    def consistency(self, store: SparseStore, weights: np.ndarray, zlist: np.ndarray,
                    passes: int) -> SparseStore:
        """Stage III: ``passes`` consistency passes over z in ``zlist``."""
        t0 = time.perf_counter()
        self.progress.report("III consistency", 0, 1)
        store = relax(self.rt, store, weights, zlist, passes, self.rep("III consistency"),
                      last_floor=LAST_FLOOR, on_device=True)
        self.progress.report("III consistency", 1, 1)
        self.times["III"] = time.perf_counter() - t0
        return store

    def alignment(self, store: SparseStore, weights: np.ndarray, link: np.ndarray,
                  texts: list[str], refinement: int, seed: int, reliability: bool = False
                  ) -> tuple[list[str], tuple]:
        """Stage IV: progressive alignment along ``link``, then ``refinement`` rounds; the
        gapped rows, and with ``reliability`` the columns' and residues' reliabilities
        (else two Nones)."""
        t0 = time.perf_counter()
        k = self.k
        aligner = ProfileAligner(self.rt, store, weights)
        self.progress.report("IV progressive", 0, k - 1)
        _, length = aligner.progressive(link, self.rep("IV progressive"))
        if refinement > 0 and k > 2:
            self.progress.report("IV refinement", 0, refinement)
            length = aligner.refine(length, refinement, seed, self.rep("IV refinement"))
        rows = aligner.rows(texts, length)
        scores = column_reliability(aligner, length) if reliability else (None, None)
        self.times["IV"] = time.perf_counter() - t0
        return rows, scores
