"""Bootstrap support for distance trees, every replicate on the device (Felsenstein 1985).

Stages, in order:

1. ``draw_columns``: replicate ``b`` keeps the columns ``rng.integers(0, L, size=L)`` of the
   ``b``-th call on ``numpy.random.default_rng(seed)`` (so a seed gives the same replicates
   everywhere, and a numpy / scikit-bio reference can redraw them).
2. ``ReplicateDistances``: the alignment goes to the device once; one launch of
   ``msa_pdist_resampled`` (``kernels/tree_dist.cl``) computes the p-distances of a whole
   batch of replicates, each written as the packed triangle the NJ loop consumes in place.
3. The tree of each replicate on the existing device loop
   (:func:`bioplug.tree.device.launch_agglomerative`), several replicates in flight on
   separate queues: one NJ run is latency-bound and leaves most compute units idle.
4. ``replicate_splits``: the splits (leaf bipartitions) of each replicate straight from its
   join rows; ``count_support`` counts how many replicates contain each split of the tree of
   the full alignment, which becomes ``TreeNode.support`` and the Newick internal labels.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Iterable, Sequence

import numpy as np
import pyopencl as cl

from bioplug.errors import InputError
from bioplug.faults import device_guard
from bioplug.progress import Progress, ProgressCallback
from bioplug.runtime import Runtime, get_runtime
from bioplug.tree import build
from bioplug.tree.device import TreeKernels, check_fits, launch_agglomerative, packed_size
from bioplug.tree.distance import (
    GAP_CODE,
    _alignment_rows,
    _pair_kernel,
    encode_alignment,
    resolve_correction,
)

log = logging.getLogger(__name__)

#: Methods: bioplug name -> device loop method.
METHODS = {"nj": "nj", "upgma": "average"}
#: Replicates in flight on separate queues (GPUs); CPU devices run one at a time.
STREAMS_GPU = 8
#: Most replicates per distance launch.
MAX_BATCH = 64

_streams: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def draw_columns(length: int, replicates: int, seed: int | None) -> np.ndarray:
    """Column indices of every replicate, shape ``(replicates, length)``.

    Parameters
    ----------
    length : int
        Alignment columns ``L``.
    replicates : int
        Number of replicates.
    seed : int or None
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    ndarray of uint32
        Row ``b`` is the ``b``-th ``rng.integers(0, L, size=L)`` draw (one call per replicate:
        numpy's bounded draws are not the same as one ``(replicates, L)`` call).
    """
    rng = np.random.default_rng(seed)
    out = np.empty((replicates, length), dtype=np.uint32)
    for b in range(replicates):  # one draw per replicate (the documented stream)
        out[b] = rng.integers(0, length, size=length)
    return out


def queues(rt: Runtime, count: int) -> list[cl.CommandQueue]:
    """``count`` in-order queues without profiling on ``rt``'s context, kept per runtime."""
    have = _streams.setdefault(rt, [])
    while len(have) < count:
        have.append(cl.CommandQueue(rt.context, rt.device))
    return have[:count]


class ReplicateDistances:
    """p-distances of resampled alignments, a batch of replicates per launch.

    Parameters
    ----------
    rt : Runtime
        Device runtime.
    encoded : ndarray, shape (n, L)
        :func:`~bioplug.tree.distance.encode_alignment` rows.
    correction : str
        Resolved correction (``none``, ``kimura``, ``jc``).
    """

    def __init__(self, rt: Runtime, encoded: np.ndarray, correction: str):
        self.rt = rt
        self.n, self.length = encoded.shape
        self.prog, self.ls, self.rb, self.tk = _pair_kernel(rt, correction, np.float64)
        self.kernel = cl.Kernel(self.prog, "msa_pdist_resampled")
        self.width = self.length + 1  # column L is all gaps: the padding index
        padded = np.full((self.n, self.width), GAP_CODE, dtype=np.uint8)
        padded[:, : self.length] = encoded
        self.d_rows = rt.to_device(padded)
        self.ncols = -(-max(self.length, 1) // self.tk) * self.tk
        # sub-buffers must start on the device's base-address alignment
        align = max(8, rt.device.mem_base_addr_align // 8)
        self.stride_bytes = -(-packed_size(self.n) * 8 // align) * align

    def batch_size(self, wanted: int) -> int:
        """Replicates per launch that fit the device (at most ``wanted``)."""
        room = min(self.rt.max_alloc, self.rt.memory_budget(0.25)) // self.stride_bytes
        return int(max(1, min(wanted, MAX_BATCH, room)))

    def launch(self, q: cl.CommandQueue, cols: np.ndarray) -> list[cl.Buffer]:
        """Distances of the replicates ``cols`` (rows of column indices), one launch.

        Returns one packed-triangle float64 buffer per replicate (sub-buffers of one
        allocation), ready when ``q`` reaches them.
        """
        count = cols.shape[0]
        pick = np.full((count, self.ncols), self.length, dtype=np.uint32)
        pick[:, : cols.shape[1]] = cols
        out = cl.Buffer(self.rt.context, cl.mem_flags.READ_WRITE, count * self.stride_bytes)
        blocks = -(-self.n // (self.ls * self.rb))
        d_pick = cl.Buffer(self.rt.context, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR,
                           hostbuf=pick)
        self.kernel(q, (blocks * self.ls, blocks * self.ls, count), (self.ls, self.ls, 1),
                    self.d_rows, np.uint32(self.n), np.uint32(self.width), d_pick,
                    np.uint32(self.ncols), np.uint64(self.stride_bytes // 8), out)
        size = packed_size(self.n) * 8
        return [out.get_sub_region(b * self.stride_bytes, size) for b in range(count)]


def replicate_splits(link: np.ndarray, n: int, method: str) -> list[int]:
    """Canonical splits of one replicate's tree from its join rows.

    Each join makes a cluster, i.e. the leaf set on one side of an internal branch; a split
    is written as a bit mask over the leaves, complemented when it holds leaf 0 so each
    bipartition has one name. NJ's last two rows are the final trichotomy (no new branch),
    UPGMA's last row is the root.
    """
    full = (1 << n) - 1
    masks = [1 << i for i in range(n)]
    rows = link[:-2] if method == "nj" else link[:-1]
    out = []
    for a, b in rows[:, :2].astype(np.int64):  # one join per step (glue, O(n) big-int ORs)
        m = masks[a] | masks[b]
        masks.append(m)
        out.append(full ^ m if m & 1 else m)
    # a rooted tree's two root children are one split: count it once
    return out if method == "nj" else list(dict.fromkeys(out))


def tree_splits(tree, index: dict[str, int]) -> dict[int, object]:
    """Canonical split -> internal node of ``tree`` (root and tips excluded)."""
    n = len(index)
    full = (1 << n) - 1
    masks: dict[int, int] = {}
    out: dict[int, object] = {}
    for node in tree.postorder(include_self=True):
        if node.is_tip():
            masks[id(node)] = 1 << index[node.name]
            continue
        m = 0
        for child in node.children:
            m |= masks.pop(id(child))
        masks[id(node)] = m
        if node.is_root():
            continue
        key = full ^ m if m & 1 else m
        if key != 0 and key != full and bin(key).count("1") > 1:
            out.setdefault(key, node)
    return out


def count_support(reference: Iterable[int], replicates: Iterable[Sequence[int]]) -> np.ndarray:
    """How many replicates hold each reference split (in ``reference`` order)."""
    slot = {key: k for k, key in enumerate(reference)}
    counts = np.zeros(len(slot), dtype=np.int64)
    for splits in replicates:
        for key in splits:
            k = slot.get(key)
            if k is not None:
                counts[k] += 1
    return counts


def support_label(value: float) -> str:
    """Newick label of a support value: an integer when it is one, else one decimal."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


class _Runner:
    """The tree loop of many replicates: distances by batch, trees on rotating queues."""

    def __init__(self, rt: Runtime, dists: ReplicateDistances, method: str,
                 streams: int | None):
        n = dists.n
        loop_method = METHODS[method]
        shadow = rt.is_gpu
        if shadow:
            try:
                check_fits(n, rt, 8, shadow=True)
            except InputError:
                shadow = False
        check_fits(n, rt, 8, shadow=shadow)
        self.kern = TreeKernels(rt, loop_method, np.float64, shadow=shadow)
        self.dists = dists
        self.method = method
        self.queues = queues(rt, streams or (STREAMS_GPU if rt.is_gpu else 1))

    def links(self, cols: np.ndarray) -> list[np.ndarray]:
        """Join rows of the replicates ``cols`` (one batch)."""
        q0 = self.queues[0]
        bufs = self.dists.launch(q0, cols)
        q0.finish()  # the other queues read what this launch writes
        finishers = [
            launch_agglomerative(self.kern, self.queues[b % len(self.queues)], buf,
                                 self.dists.n)
            for b, buf in enumerate(bufs)
        ]
        return [f() for f in finishers]


def full_tree(link: np.ndarray, names: Sequence[str], method: str, neg_as_zero: bool):
    """The ``skbio.TreeNode`` of the full alignment from its join rows."""
    if method == "nj":
        return build.treenode_from_nj(link, names, neg_as_zero)
    return build.treenode_from_linkage(build.scipy_relabel(link, len(names)), names)


@device_guard
def bootstrap(
    alignment,
    replicates: int = 100,
    seed: int | None = 0,
    method: str = "nj",
    device=None,
    progress: ProgressCallback | None = None,
    *,
    correction: str = "none",
    support: str = "percent",
    neg_as_zero: bool = True,
    streams: int | None = None,
    stats: dict | None = None,
):
    """Tree of an alignment with bootstrap support on every internal branch.

    Parameters
    ----------
    alignment : Bio.Align.Alignment, MultipleSeqAlignment, skbio.TabularMSA or list of str
        Aligned rows of equal length (``-`` and ``.`` are gaps); ids must be unique.
    replicates : int
        Number of bootstrap replicates (columns drawn with replacement).
    seed : int or None
        Seed of ``numpy.random.default_rng``: replicate ``b`` keeps the columns of its
        ``rng.integers(0, L, size=L)`` call, so a seed always gives the same support.
    method : {"nj", "upgma"}
        Tree method, for the full alignment and every replicate.
    device : optional
        OpenCL device specification or :class:`~bioplug.runtime.Runtime`.
    progress : callable, optional
        ``callback("bootstrap", done, replicates)``; raising cancels.
    correction : {"none", "kimura", "jc", "auto"}
        Distance correction (as :func:`~bioplug.tree.distance.msa_distances`).
    support : {"percent", "count"}
        What ``TreeNode.support`` holds: the percentage of replicates with the branch's
        split, or their number.
    neg_as_zero : bool
        NJ: negative branch lengths of the full tree become 0 (scikit-bio's default).
    streams : int, optional
        Replicates in flight at once (default 8 on GPUs, 1 on CPUs).
    stats : dict, optional
        Filled with ``distances_s``, ``trees_s``, ``splits_s`` and ``batch``.

    Returns
    -------
    skbio.TreeNode
        The tree of the full alignment (as :func:`bioplug.tree.nj` / ``upgma`` builds it
        from :func:`~bioplug.tree.distance.msa_distances`); every internal node but the root
        has ``support``, which scikit-bio writes as its Newick label (for UPGMA, one of the
        root's two children carries the root branch's support).

    Raises
    ------
    InputError
        Fewer than three sequences, no columns, duplicate ids, an unknown method, or
        ``replicates < 1``.

    Examples
    --------
    >>> from bioplug.tree import bootstrap
    >>> tree = bootstrap(["ACGTAC", "ACGTTC", "TCGAAC", "TCGAAG"], replicates=10)
    >>> sorted(n.support for n in tree.non_tips())  # doctest: +SKIP
    [60.0]
    """
    rows, names = _check_input(alignment, method, replicates, support)
    rows = [r.upper() for r in rows]
    corr = resolve_correction(correction, _nucleotide(rows))
    enc = encode_alignment(rows)
    n, length = enc.shape
    rt = get_runtime(device)
    dists = ReplicateDistances(rt, enc, corr)
    runner = _Runner(rt, dists, method, streams)
    link = runner.links(np.arange(length, dtype=np.uint32)[None, :])[0]
    tree = full_tree(link, names, method, neg_as_zero)
    ref = tree_splits(tree, {name: k for k, name in enumerate(names)})
    counts = _replicate_counts(runner, ref, length, replicates, seed, Progress(progress), stats)
    _annotate(tree, ref, counts, replicates, support)
    log.info("bootstrap: %d replicates of %d sequences x %d columns", replicates, n, length)
    return tree


def _nucleotide(rows: Sequence[str]) -> bool:
    from bioplug.alphabet import is_nucleotide

    return is_nucleotide(rows)


def _check_input(alignment, method: str, replicates: int, support: str):
    if method not in METHODS:
        raise InputError(f"bootstrap method must be 'nj' or 'upgma', not {method!r}")
    if support not in ("percent", "count"):
        raise InputError(f"support must be 'percent' or 'count', not {support!r}")
    if int(replicates) < 1:
        raise InputError(f"replicates must be at least 1, got {replicates}")
    rows, names = _alignment_rows(alignment, None)
    if len(rows) < 3:
        raise InputError(f"bootstrap needs at least 3 sequences, got {len(rows)}")
    if len(set(names)) != len(names):
        dup = next(x for x in names if names.count(x) > 1)
        raise InputError(f"duplicate sequence id {dup!r}: support needs unique ids")
    if not rows[0]:
        raise InputError("the alignment has no columns")
    return rows, names


def _replicate_counts(runner: _Runner, ref: dict, length: int, replicates: int,
                      seed: int | None, progress: Progress, stats: dict | None) -> np.ndarray:
    """Replicate trees batch by batch; counts of each reference split."""
    cols = draw_columns(length, replicates, seed)
    batch = runner.dists.batch_size(replicates)
    counts = np.zeros(len(ref), dtype=np.int64)
    keys = list(ref)
    t_trees = t_splits = 0.0
    progress.report("bootstrap", 0, replicates)
    for s in range(0, replicates, batch):  # one distance launch per batch
        t0 = time.perf_counter()
        links = runner.links(cols[s : s + batch])
        t1 = time.perf_counter()
        counts += count_support(
            keys, (replicate_splits(lk, runner.dists.n, runner.method) for lk in links))
        t_splits += time.perf_counter() - t1
        t_trees += t1 - t0
        progress.report("bootstrap", min(replicates, s + batch), replicates)
    if stats is not None:
        stats.update(trees_s=t_trees, splits_s=t_splits, batch=batch)
    return counts


def _annotate(tree, ref: dict, counts: np.ndarray, replicates: int, support: str) -> None:
    """``support`` and Newick labels on the full tree's internal nodes."""
    for k, node in enumerate(ref.values()):
        value = float(counts[k]) * 100.0 / replicates if support == "percent" else int(counts[k])
        if float(value).is_integer():  # "62", not "62.0", in Newick
            value = int(value)
        # scikit-bio's Newick writer prints ``support`` as the internal label itself
        node.support = value
