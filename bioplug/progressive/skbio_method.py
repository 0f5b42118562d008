"""scikit-bio 0.7.4's progressive multiple alignment (``skbio.alignment.multi_align``) on the
device, with scikit-bio's own results.

scikit-bio's method (``skbio/alignment/_multi.py``): every pair of sequences is aligned with its
``pair_align`` DP; each alignment's score ``S``, the mean self-score ``S_iden`` and the random
score ``S_rand`` (substitution expectation over the path's length minus the path's gap
penalties) give the Feng-Doolittle distance ``-ln((S - S_rand) / (S_iden - S_rand))``; UPGMA
(scipy's average linkage) makes the guide tree; each tree node then aligns its children's
profiles by the same DP, a column pair scoring the mean substitution score of its character
pairs, existing gaps neutral.

Here every DP (fill, scikit-bio's stop and tie-breaking traceback), the distance formula up to
its logarithm, the profile score matrices and the profile merges run in
``kernels/progressive_skbio.cl``, and the UPGMA nearest-neighbour chain in
``kernels/tree_chain.cl`` (shared with ``bioplug.skbio.upgma``). Results are scikit-bio's bit
for bit: the DP in scikit-bio's precision (float32, or float64 for float64 matrices) and
operation order, float64 elsewhere, no fused multiply-adds. scikit-bio forms two sums with
BLAS (profile scores ``counts1 @ submat @ counts2.T`` and the substitution sums of
``S_rand``), whose rounding depends on BLAS's summation order; the device forms them itself
only where :func:`exact_sums` proves every partial sum exact (integer and dyadic scores:
every named matrix, match/mismatch pairs such as ``(2, -3)`` or ``(1.5, -0.5)``, while the
sums stay below 2**24 in float32). Other scores (``(1.1, -0.9)``, float64 matrices of
arbitrary reals) take scikit-bio's own numpy products for those sums, everything else staying
on the device.

Reading order: :func:`multi_align` (stages) -> :class:`SkbioEngine` (buffers and launches) ->
``kernels/progressive_skbio.cl``. :func:`merge_align` and :func:`score_dists` are scikit-bio's
private ``_merge_align`` and ``_score_dists`` stages with their signatures (its tests call them).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from bioplug.alignio import listed
from bioplug.runtime import get_runtime

log = logging.getLogger(__name__)

KERNELS = "progressive_skbio.cl"
#: longs per DP task (layout in the kernel's header)
TASK_FIELDS = 7
#: rows of one DP strip: the work-group size wanted (fewer for shorter queries)
STRIP_ROWS = 64


@dataclass
class Problem:
    """Validated, encoded input of :func:`multi_align` (as scikit-bio prepares it)."""

    seqs: list[np.ndarray]
    submat: np.ndarray
    gap_o: np.floating
    gap_e: np.floating
    atol: np.floating
    free: bool
    ids: list[str]
    given: list  # the input sequences, as given


@dataclass
class Profile:
    """A profile on the device: ``length`` rows of ``alpha`` symbol counts, from element
    ``offset`` of ``buf``, summing ``size`` sequences."""

    buf: cl.Buffer
    offset: int
    length: int
    size: int
    alpha: int


# -- front door -------------------------------------------------------------------------------
def multi_align(sequences, /, sub_score=(1.0, -1.0), gap_cost=2.0, free_ends=True,
                guide_tree=None, ids=None, atol=1e-5, keep_tree=False, keep_distmat=False,
                *, device=None):
    """Progressive alignment as :func:`skbio.alignment.multi_align` computes it, on the device.

    Parameters
    ----------
    sequences : iterable of skbio.Sequence, str or sequence of scalars
        At least two ungapped sequences.
    sub_score : (float, float), skbio.SubstitutionMatrix or str
        Match/mismatch scores, a matrix or its name.
    gap_cost : float or (float, float)
        Linear cost, or affine (opening, extension).
    free_ends : bool
        End gaps are free.
    guide_tree : skbio.TreeNode, optional
        Bifurcating merge order (tips named by the sequence ids); skips distances and UPGMA.
    ids : iterable of str, optional
        Sequence ids (default: metadata ``'id'``, else ``'0'``, ``'1'``, ...).
    atol : float
        Tolerance of the traceback's score comparisons.
    keep_tree, keep_distmat : bool
        Return the guide tree / the distance matrix as well.
    device : str, int or Runtime, optional
        OpenCL device (see :func:`bioplug.runtime.select_device`); it needs ``cl_khr_fp64``,
        without which scikit-bio computes the result itself.

    Returns
    -------
    skbio.alignment._multi.MultiAlignResult
        ``(path, tree, distmat)``, equal to scikit-bio's.

    Raises
    ------
    ValueError, TypeError
        scikit-bio's errors, with its messages.

    Examples
    --------
    >>> from skbio import DNA
    >>> from bioplug.progressive.skbio_method import multi_align
    >>> seqs = [DNA('CATTAACGT'), DNA('CGTTACGGT'), DNA('AGTTAACGG')]
    >>> for row in multi_align(seqs, device="cpu").path.to_aligned(seqs):
    ...     print(row)
    CA-TTAACGT-
    -CGTTA-CGGT
    -AGTTAACGG-
    """
    from skbio.alignment import AlignPath
    from skbio.alignment._multi import MultiAlignResult

    problem = prepare(sequences, sub_score, gap_cost, free_ends, ids, atol)
    rt = get_runtime(device)
    if not rt.info.fp64:
        from skbio.alignment import multi_align as skbio_multi_align

        log.warning("multi_align: %s has no float64; scikit-bio aligns", rt.info.name)
        return skbio_multi_align(problem.given, sub_score, gap_cost, free_ends, guide_tree,
                                 problem.ids, atol, keep_tree, keep_distmat)
    engine = SkbioEngine(rt, problem.submat.dtype)
    merges, dm, lm = _merge_order(engine, problem, guide_tree)
    bits = engine.progressive(problem.seqs, problem.submat, merges, problem.gap_o,
                              problem.gap_e, problem.free, problem.atol)
    path = AlignPath.from_bits(bits)
    tree, distmat = _kept_results(problem, guide_tree, lm, dm, keep_tree, keep_distmat)
    return MultiAlignResult(path, tree, distmat)


def _merge_order(
    engine: SkbioEngine, problem: Problem, guide_tree
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """The merges of the progressive stage, as ``(merges, dm, lm)``: from the given
    ``guide_tree`` (``dm``, ``lm`` None), else from score distances ``dm`` and their UPGMA
    linkage ``lm``."""
    from skbio import TreeNode
    from skbio.tree._utils import _tree_to_lnkmat

    if guide_tree is not None:
        if not isinstance(guide_tree, TreeNode):
            raise TypeError("`guide_tree` must be a TreeNode.")
        return _tree_to_lnkmat(guide_tree, problem.ids), None, None
    dm = engine.score_distances(problem.seqs, problem.submat, problem.gap_o, problem.gap_e,
                                problem.free, problem.atol)
    lm = engine.average_linkage(dm)
    return lm[:, :2].astype(np.intp), dm, lm


def _kept_results(problem: Problem, guide_tree, lm: np.ndarray | None, dm: np.ndarray | None,
                  keep_tree: bool, keep_distmat: bool) -> tuple:
    """The guide tree and distance matrix that ``keep_tree`` / ``keep_distmat`` ask for
    (None where not asked, or no distances were computed)."""
    from skbio import TreeNode
    from skbio.stats.distance import DistanceMatrix

    tree = None
    if keep_tree:
        tree = TreeNode.from_linkage_matrix(lm, problem.ids) if guide_tree is None else guide_tree
    distmat = DistanceMatrix(dm, problem.ids) if keep_distmat and guide_tree is None else None
    return tree, distmat


def prepare(sequences, sub_score, gap_cost, free_ends, ids, atol) -> Problem:
    """scikit-bio's checks, in its order and with its messages, and its encoding.

    The encoding and its helpers are scikit-bio's own (``skbio.alignment._utils``): the same
    letters, wildcards and errors by construction. The alphabet shrinks to the letters present,
    as scikit-bio does (it changes no score).
    """
    from skbio.alignment._utils import _get_seqids, _prep_atol, encode_sequences, prep_gapcost
    from skbio.sequence import GrammaredSequence
    from skbio.sequence import Sequence as SkSequence

    seqs = listed(sequences)   # an alignment's rows at once: refused below without delay
    if len(seqs) < 2:
        raise ValueError("At least two sequences are required.")
    for seq in seqs:
        if isinstance(seq, bytes):
            raise TypeError("Byte strings must be decoded before alignment.")
        if isinstance(seq, GrammaredSequence):
            gapped = seq.has_gaps()
        elif isinstance(seq, (SkSequence, str)):
            gapped = "-" in str(seq) or "." in str(seq)
        else:
            gapped = False
        if gapped:
            raise ValueError("Input sequences must be ungapped.")
    names = _get_seqids(seqs, ids)
    if not isinstance(free_ends, (bool, np.bool_)):
        raise TypeError("`free_ends` must be Boolean.")
    encoded, submat, _ = encode_sequences(seqs, sub_score)
    dtype = submat.dtype.type
    if not np.isfinite(submat).all() or not np.array_equal(submat, submat.T):
        raise ValueError("Substitution scores must be finite and symmetric.")
    gap_o, gap_e = prep_gapcost(gap_cost, dtype=dtype)
    if not np.isfinite([gap_o, gap_e]).all() or min(gap_o, gap_e) < 0:
        raise ValueError("Gap costs must be finite and non-negative.")
    tol = _prep_atol(atol, dtype=dtype)
    alphabet, inv = np.unique(np.concatenate(encoded), return_inverse=True)
    encoded = np.split(inv, np.cumsum([len(x) for x in encoded])[:-1])
    submat = np.ascontiguousarray(submat[np.ix_(alphabet, alphabet)])
    return Problem(encoded, submat, gap_o, gap_e, tol, bool(free_ends), names, seqs)


# -- scikit-bio's private stages, same signatures -----------------------------------------------
def score_dists(encoded, submat, gap_o, gap_e, free, works=None, atol=0, *, device=None):
    """``skbio.alignment._multi._score_dists`` on the device (``works`` is ignored).

    Returns
    -------
    ndarray of float64, shape (n * (n - 1) // 2,)
        Condensed Feng-Doolittle distances.
    """
    submat = np.asarray(submat)
    engine = SkbioEngine(get_runtime(device), submat.dtype)
    return engine.score_distances(list(encoded), submat, gap_o, gap_e, bool(free), atol)


def merge_align(aln1, aln2, submat, gap_o, gap_e, free, works=None, atol=0, *, device=None):
    """``skbio.alignment._multi._merge_align`` on the device (``works`` is ignored).

    Parameters
    ----------
    aln1, aln2 : (counts, gaps, order)
        Profiles: ``(columns, symbols)`` counts, ``(rows, columns)`` gap mask, row order.

    Returns
    -------
    (counts, gaps, order)
        The merged profile (counts in ``submat``'s dtype).
    """
    submat = np.asarray(submat)
    dtype = submat.dtype
    engine = SkbioEngine(get_runtime(device), dtype)
    (counts1, gaps1, order1), (counts2, gaps2, order2) = aln1, aln2
    one = engine.upload_profile(np.asarray(counts1, dtype=dtype), gaps1.shape[0])
    two = engine.upload_profile(np.asarray(counts2, dtype=dtype), gaps2.shape[0])
    (path,) = engine.align_profiles([(one, two)], submat, gap_o, gap_e, bool(free), atol)
    merged, take1, take2 = engine.merge_profiles(one, two, path)
    counts = engine.read_profile(merged)
    gaps = np.ones((gaps1.shape[0] + gaps2.shape[0], path.size), dtype=bool)
    for rows, bits, take in ((slice(0, gaps1.shape[0]), gaps1, take1),
                             (slice(gaps1.shape[0], None), gaps2, take2)):
        mask = take >= 0
        gaps[rows, mask] = bits[:, take[mask]]
    return counts, gaps, list(order1) + list(order2)


# -- device -------------------------------------------------------------------------------------
def _offsets(sizes: np.ndarray) -> tuple[np.ndarray, int]:
    """Start of each slot and the total, for slots of ``sizes`` laid end to end."""
    sizes = np.asarray(sizes, dtype=np.int64)
    starts = np.zeros(len(sizes), dtype=np.int64)
    np.cumsum(sizes[:-1], out=starts[1:])
    return starts, int(sizes.sum())


class SkbioEngine:
    """Launches of ``kernels/progressive_skbio.cl`` for one device and one DP precision.

    Parameters
    ----------
    rt : Runtime
        The device (with ``cl_khr_fp64``).
    dtype : numpy dtype
        scikit-bio's DP precision: float32 or float64.
    """

    #: most decision bytes (DP cells) per launch; None: from the device's memory (tests set
    #: it small so that inputs cross many batches)
    batch_limit: int | None = None

    def __init__(self, rt, dtype):
        self.rt = rt
        self.real = np.dtype(dtype)
        if self.real not in (np.float32, np.float64):
            raise TypeError(f"substitution scores must be float32 or float64, not {self.real}")
        self.defines = {"REAL_IS_DOUBLE": int(self.real == np.float64)}
        self.queue = rt.queue

    def kernel(self, name: str) -> cl.Kernel:
        return self.rt.kernel(KERNELS, name, self.defines)

    def _gaps(self, gap_o, gap_e, atol) -> tuple[np.floating, np.floating, np.floating, int]:
        """DP constants in the DP precision; affine exactly when scikit-bio's ``gap_o != 0``."""
        t = self.real.type
        return t(gap_o), t(gap_e), t(0 if atol is None else atol), int(gap_o != 0)

    # -- the DP kernel (sequences or profiles) ----------------------------------------------
    def _run_dp(self, name: str, shapes: np.ndarray, inputs: list, consts: list) -> DpBatch:
        """One launch of ``dp_sequences`` / ``dp_profiles``, a work-group per task.

        ``shapes`` rows are (m, n, a, b) as in the kernel's header; the other slots are laid
        out here, end to end.
        """
        rt, itemsize = self.rt, self.real.itemsize
        m, n = shapes[:, 0], shapes[:, 1]
        dir_off, dir_total = _offsets(m * n)
        path_off, path_total = _offsets(m + n)
        scr_off, scr_total = _offsets(3 * (n + 1) + m + 1)
        tasks = np.column_stack([shapes, dir_off, path_off, scr_off]).astype(np.int64)
        count = len(tasks)
        knl = self.kernel(name)
        # a strip about as tall as the longest query, up to STRIP_ROWS (shorter strips leave
        # fewer work-items idle while the wavefront fills and drains), a power of two: PoCL
        # compiles a work-group function per local size, so few sizes keep builds few
        wanted = 1 << (max(1, min(STRIP_ROWS, int(m.max()))) - 1).bit_length()
        wg = rt.preferred_group(knl, wanted)
        wg = 1 << (wg.bit_length() - 1)
        batch = DpBatch(scores=rt.empty(count * 8), stats=rt.empty(count * 16),
                        paths=rt.empty(path_total), path_off=path_off, count=count)
        knl(self.queue, (count * wg,), (wg,), rt.to_device(tasks), *inputs, *consts,
            rt.empty(dir_total), batch.paths, rt.empty(scr_total * itemsize), batch.scores,
            batch.stats, cl.LocalMemory(2 * wg * itemsize), cl.LocalMemory(2 * wg * itemsize))
        return batch

    def _batches(self, cells: np.ndarray) -> list[slice]:
        """Consecutive task ranges whose decision bytes fit one allocation and a quarter of
        the device's memory."""
        limit = max(1, min(self.rt.max_alloc, self.rt.memory_budget(0.25)))
        if self.batch_limit is not None:
            limit = min(limit, max(int(cells.max()), self.batch_limit))
        if cells.size and int(cells.max()) > limit:
            from bioplug.errors import InputError

            raise InputError(f"a {int(cells.max())}-cell alignment matrix does not fit the "
                             f"device ({limit} bytes per allocation)")
        out, start, used = [], 0, 0
        for k, c in enumerate(cells.tolist()):
            if used + c > limit and k > start:
                out.append(slice(start, k))
                start, used = k, 0
            used += c
        if start < len(cells):
            out.append(slice(start, len(cells)))
        return out

    # -- stage 1: Feng-Doolittle score distances --------------------------------------------
    def score_distances(self, encoded: Sequence[np.ndarray], submat: np.ndarray, gap_o, gap_e,
                        free: bool, atol) -> np.ndarray:
        """All pairwise alignments and scikit-bio's ``_score_dists`` distances (condensed)."""
        rt, n = self.rt, len(encoded)
        alpha = len(submat)
        counts = np.array([np.bincount(x, minlength=alpha) for x in encoded], dtype=np.float64)
        weight = counts @ np.asarray(submat, dtype=np.float64)
        lengths = np.array([len(x) for x in encoded], dtype=np.int64)
        starts, _ = _offsets(lengths)
        codes = rt.to_device(np.concatenate(encoded).astype(np.int32))
        sub = rt.to_device(np.ascontiguousarray(submat, dtype=self.real))
        g_o, g_e, eps, affine = self._gaps(gap_o, gap_e, atol)
        inputs = [codes, sub, np.int32(alpha)]
        consts = [g_o, g_e, eps, np.int32(affine), np.int32(free)]
        diag = np.column_stack([lengths, lengths, starts, starts])
        self_scores = rt.empty(n * 8)
        for part in self._batches(lengths * lengths):
            done = self._run_dp("dp_sequences", diag[part], inputs, consts)
            cl.enqueue_copy(self.queue, self_scores, done.scores, byte_count=done.count * 8,
                            dst_offset=part.start * 8)
        i, j = np.triu_indices(n, k=1)
        shapes = np.column_stack([lengths[i], lengths[j], starts[i], starts[j]])
        s_eff = np.empty(len(i), dtype=np.float64)
        gaps64 = [np.float64(gap_o), np.float64(gap_e)]
        weight_buf, counts_buf = rt.to_device(weight), rt.to_device(counts)
        # S_rand's substitution sums on the device when exact in any order; otherwise
        # scikit-bio's own dot products (BLAS order), one per pair as it makes them
        given = not exact_sums(submat, int(lengths.max()) ** 2, np.float64)
        effective = self.kernel("score_effective")
        for part in self._batches(shapes[:, 0] * shapes[:, 1]):
            batch = self._run_dp("dp_sequences", shapes[part], inputs, consts)
            pairs = rt.to_device(np.column_stack([i[part], j[part]]).astype(np.int32))
            dots = np.array([weight[a] @ counts[b] for a, b in zip(i[part], j[part],
                                                                    strict=True)]
                            if given else [0.0])
            out = rt.empty(batch.count * 8)
            effective(self.queue, (batch.count,), None, pairs, np.int32(batch.count),
                      batch.scores, batch.stats, self_scores, weight_buf, counts_buf,
                      np.int32(alpha), rt.to_device(dots), np.int32(given), *gaps64, out)
            cl.enqueue_copy(self.queue, s_eff[part], out)
        # the logarithm is numpy's (as in scikit-bio): an OpenCL log may differ in the last
        # bit, and UPGMA's ties are decided on exact equality
        with np.errstate(invalid="ignore"):
            return np.where(np.isnan(s_eff), 0.0, -np.log(s_eff))

    # -- stage 2: UPGMA as scipy's nearest-neighbour chain ----------------------------------
    def average_linkage(self, dm: np.ndarray) -> np.ndarray:
        """``scipy.cluster.hierarchy.linkage(dm, "average")`` of a condensed matrix: scipy's
        nearest-neighbour chain on the device (:func:`bioplug.tree.chain.chain_linkage`)."""
        from bioplug.tree.chain import chain_linkage

        return chain_linkage(dm, self.rt)

    # -- stage 3: profile merges ------------------------------------------------------------
    def upload_profile(self, counts: np.ndarray, size: int) -> Profile:
        """A profile from host counts ``(columns, symbols)`` of ``size`` sequences."""
        counts = np.ascontiguousarray(counts, dtype=self.real)
        return Profile(self.rt.to_device(counts), 0, counts.shape[0], size, counts.shape[1])

    def read_profile(self, profile: Profile) -> np.ndarray:
        """The counts of a profile, ``(columns, symbols)``."""
        out = np.empty((profile.length, profile.alpha), dtype=self.real)
        cl.enqueue_copy(self.queue, out, profile.buf,
                        src_offset=profile.offset * self.real.itemsize)
        return out

    def profile_scores(self, pairs: list[tuple[Profile, Profile]], submat: np.ndarray,
                       shapes: np.ndarray) -> cl.Buffer:
        """Each pair's column-pair scores ``counts1 @ submat @ counts2.T / (n1 n2)``, laid
        out at ``shapes[:, 2]``.

        On the device (float64 sums) when :func:`exact_sums` proves scikit-bio's own product
        exact; otherwise scikit-bio's numpy product itself, whose float32 roundings depend on
        its BLAS's summation order and cannot be reproduced elsewhere.
        """
        rt, alpha = self.rt, len(submat)
        sub_host = np.ascontiguousarray(submat, dtype=self.real)
        sub = rt.to_device(sub_host)
        smat = rt.empty(int((shapes[:, 0] * shapes[:, 1]).sum()) * self.real.itemsize)
        weight = rt.empty(int(shapes[:, 0].max()) * alpha * 8)
        w_knl, s_knl = self.kernel("profile_weight"), self.kernel("profile_scores")
        for (a, b), off in zip(pairs, shapes[:, 2].tolist(), strict=True):
            if not exact_sums(sub_host, a.size * b.size, self.real):
                host = _skbio_profile_scores(self.read_profile(a), self.read_profile(b),
                                             sub_host, a.size, b.size)
                cl.enqueue_copy(self.queue, smat, host, dst_offset=off * self.real.itemsize)
                continue
            w_knl(self.queue, (a.length * alpha,), None, a.buf, np.int64(a.offset),
                  np.int32(a.length), np.int32(alpha), sub, weight)
            s_knl(self.queue, (a.length * b.length,), None, weight, np.int32(a.length),
                  np.int32(b.length), np.int32(alpha), b.buf, np.int64(b.offset),
                  np.float64(a.size * b.size), smat, np.int64(off))
        return smat

    def align_profiles(self, pairs: list[tuple[Profile, Profile]], submat: np.ndarray, gap_o,
                       gap_e, free: bool, atol) -> list[np.ndarray]:
        """The DP path (scikit-bio's codes) of each pair of profiles, one launch per batch
        that fits the device."""
        cells = np.array([a.length * b.length for a, b in pairs], dtype=np.int64)
        out: list[np.ndarray] = []
        for part in self._batches(cells):
            out += self._align_profile_batch(pairs[part], submat, gap_o, gap_e, free, atol)
        return out

    def _align_profile_batch(self, pairs: list[tuple[Profile, Profile]], submat: np.ndarray,
                             gap_o, gap_e, free: bool, atol) -> list[np.ndarray]:
        shapes = np.array([(a.length, b.length, 0, 0) for a, b in pairs], dtype=np.int64)
        shapes[:, 2], _ = _offsets(shapes[:, 0] * shapes[:, 1])
        smat = self.profile_scores(pairs, submat, shapes)
        g_o, g_e, eps, affine = self._gaps(gap_o, gap_e, atol)
        batch = self._run_dp("dp_profiles", shapes, [smat],
                             [g_o, g_e, eps, np.int32(affine), np.int32(free)])
        stats = np.empty((batch.count, 4), dtype=np.int32)
        cl.enqueue_copy(self.queue, stats, batch.stats)
        paths = np.empty(max(int(shapes[:, :2].sum()), 1), dtype=np.uint8)
        cl.enqueue_copy(self.queue, paths, batch.paths)
        ends = batch.path_off + shapes[:, 0] + shapes[:, 1]
        return [paths[off + st[0]:end].copy()
                for off, st, end in zip(batch.path_off.tolist(), stats, ends.tolist(),
                                        strict=True)]

    def merge_profiles(self, one: Profile, two: Profile,
                       path: np.ndarray) -> tuple[Profile, np.ndarray, np.ndarray]:
        """The merged profile of a DP path, and the input column each output column takes
        from ``one`` and from ``two`` (-1: none)."""
        takes = []
        for code in (1, 2):  # code 1 is a gap in the first profile, 2 in the second
            mask = path != code
            takes.append(np.where(mask, np.cumsum(mask) - 1, -1).astype(np.int32))
        alpha, length = one.alpha, path.size
        out = self.rt.empty(length * alpha * self.real.itemsize)
        self.kernel("merge_columns")(
            self.queue, (length * alpha,), None, one.buf, np.int64(one.offset), two.buf,
            np.int64(two.offset), self.rt.to_device(takes[0]), self.rt.to_device(takes[1]),
            np.int32(length), np.int32(alpha), out)
        return Profile(out, 0, length, one.size + two.size, alpha), takes[0], takes[1]

    def progressive(self, seqs: Sequence[np.ndarray], submat: np.ndarray, merges: np.ndarray,
                    gap_o, gap_e, free: bool, atol) -> np.ndarray:
        """Merge profiles in tree order and return the gap bits ``(n, columns)``, input order.

        Nodes whose children are ready merge in one launch (scikit-bio merges them one by one
        in linkage order; a merge depends on its children only, so the result is the same).
        """
        n, alpha = len(seqs), len(submat)
        lengths = np.array([len(s) for s in seqs], dtype=np.int64)
        starts, _ = _offsets(lengths)
        eye = np.eye(alpha, dtype=self.real)
        leaves = self.rt.to_device(eye[np.concatenate(seqs)])
        profiles = {k: Profile(leaves, int(starts[k]) * alpha, int(lengths[k]), 1, alpha)
                    for k in range(n)}
        places: dict[int, tuple[int, np.ndarray]] = {}  # child -> (parent, its columns there)
        pending = list(range(n - 1))
        while pending:
            ready = [k for k in pending if all(int(c) in profiles for c in merges[k])]
            pending = [k for k in pending if k not in set(ready)]
            pairs = [(profiles[int(merges[k][0])], profiles[int(merges[k][1])]) for k in ready]
            paths = self.align_profiles(pairs, submat, gap_o, gap_e, free, atol)
            for k, (one, two), path in zip(ready, pairs, paths, strict=True):
                merged, take1, take2 = self.merge_profiles(one, two, path)
                profiles[n + k] = merged
                for child, take in zip(merges[k], (take1, take2), strict=True):
                    places[int(child)] = (n + k, np.flatnonzero(take >= 0))
                    del profiles[int(child)]
        return _gap_bits(places, profiles[2 * n - 2].length, n)


def exact_sums(submat: np.ndarray, pairs: int, real: np.dtype) -> bool:
    """True when every partial sum of ``counts1 @ submat @ counts2.T`` (counts of ``pairs``
    sequence pairs in all) is exact in ``real``, so any summation order gives scikit-bio's
    numbers: the scores are multiples of some 2**-k and ``pairs * max|s| * 2**k`` stays
    below ``2**mantissa`` (integers, and halves or quarters such as (1.5, -0.5), pass)."""
    values = np.abs(np.asarray(submat, dtype=np.float64)).ravel()
    top = float(values.max()) if values.size else 0.0
    limit = 2.0 ** (np.finfo(real).nmant + 1)
    for k in range(64):
        scaled = values * 2.0**k
        if np.array_equal(scaled, np.floor(scaled)):
            return pairs * top * 2.0**k < limit
    return False


def _skbio_profile_scores(counts1: np.ndarray, counts2: np.ndarray, submat: np.ndarray,
                          n1: int, n2: int) -> np.ndarray:
    """scikit-bio's own ``_merge_align`` score product, call for call."""
    scores = np.empty((counts1.shape[0], counts2.shape[0]), dtype=submat.dtype)
    weight = np.empty((counts1.shape[0], submat.shape[0]), dtype=submat.dtype)
    np.matmul(counts1, submat, out=weight)
    np.matmul(weight, counts2.T, out=scores)
    scores /= n1 * n2
    return scores


@dataclass
class DpBatch:
    """Device results of one DP launch."""

    scores: cl.Buffer
    stats: cl.Buffer
    paths: cl.Buffer
    path_off: np.ndarray
    count: int


def _gap_bits(places: dict[int, tuple[int, np.ndarray]], width: int, n: int) -> np.ndarray:
    """Each sequence's columns in the root, composed from the root down (one gather per tree
    node: O(n L) in all), as the gap mask scikit-bio's merges build."""
    root = 2 * n - 2
    columns = {root: np.arange(width)}
    for node in range(root - 1, -1, -1):  # parents have larger ids than their children
        parent, cols = places[node]
        columns[node] = columns[parent][cols]
    bits = np.ones((n, width), dtype=bool)
    for leaf in range(n):
        bits[leaf, columns[leaf]] = False
    return bits
