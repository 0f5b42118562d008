"""Distance matrices for tree building: k-tuple (fast), alignment identity, MSA p-distance.

* ``clustalw-fast``: ClustalW's fast pairwise (``-quicktree``) distances, Wilbur & Lipman
  k-tuple alignments on the device (:mod:`bioplug.tree.clustalw`).
* ``ktuple``: k-tuple counts per sequence on the host (vectorised numpy), shared k-tuples of
  every pair counted on the device (``kernels/tree_dist.cl``, a tiled min-sum product):
  ``p = 1 - shared / min(tuples_x, tuples_y)`` with multiplicities (the k-tuple similarity
  ClustalW's fast mode and MUSCLE/Clustal Omega's k-mer distance are built on; ClustalW's
  diagonal windows and gap penalties are not modelled here: ``clustalw-fast`` does that).
* ``identity``: every pair aligned by :mod:`bioplug.pairwise` (global, BLOSUM62 or a DNA
  match/mismatch scheme); ``p = 1 - identical / aligned residue pairs`` (gaps excluded).
* ``msa``: an existing alignment; over columns where both rows have a residue,
  ``p = 1 - identical / compared`` (on the device).

Corrections: ``none`` (p), ``kimura`` (ClustalW's protein correction ``-ln(1 - p - p^2/5)``),
``jc`` (Jukes-Cantor ``-3/4 ln(1 - 4p/3)``), ``auto`` (kimura for protein, jc for nucleotides).
Where a correction is undefined (large p) the distance is capped at :data:`MAX_DISTANCE`, as
ClustalW caps at 10 (ClustalW's Dayhoff PAM table for 75-93 % difference is not used; the
formula is used while it is defined).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from bioplug.alignio import listed
from bioplug.alphabet import is_nucleotide
from bioplug.errors import InputError
from bioplug.faults import device_guard
from bioplug.io import sequence_name, sequence_text
from bioplug.progress import Progress, ProgressCallback
from bioplug.runtime import get_runtime
from bioplug.tree import matrix as _matrix

log = logging.getLogger(__name__)

MAX_DISTANCE = 10.0
CORRECTIONS = {"none": 0, "kimura": 1, "jc": 2}
PROTEIN = "ACDEFGHIKLMNPQRSTVWY"
NUCLEOTIDE = "ACGT"
GAP_CODE = 255
GAP_CHARS = "-."


@dataclass
class Distances:
    """A distance matrix with its ids; converts to every supported output.

    Attributes
    ----------
    data : numpy.ndarray
        (n, n) float64, symmetric, zero diagonal.
    ids : list of str
        Taxon names.
    """

    data: np.ndarray
    ids: list

    def to_numpy(self) -> np.ndarray:
        """The (n, n) float64 array."""
        return self.data

    def to_skbio(self):
        """A ``skbio.DistanceMatrix``."""
        return _matrix.to_skbio(self.data, self.ids)

    def to_biopython(self):
        """A ``Bio.Phylo.TreeConstruction.DistanceMatrix``."""
        return _matrix.to_biopython(self.data, self.ids)

    def write_phylip(self, path: str | os.PathLike, inputs: Sequence = ()) -> None:
        """Write a square PHYLIP distance file atomically."""
        from bioplug.io import atomic_output

        with atomic_output(path, inputs) as handle:
            _matrix.write_phylip(self.data, self.ids, handle)


# -- corrections ------------------------------------------------------------------------------
def resolve_correction(correction: str, nucleotide: bool) -> str:
    """``auto`` -> ``jc`` for nucleotides, ``kimura`` for protein; check the name."""
    if correction == "auto":
        return "jc" if nucleotide else "kimura"
    if correction not in CORRECTIONS:
        raise InputError(
            f"unknown distance correction {correction!r}; use none, kimura, jc or auto"
        )
    return correction


def correct(p: np.ndarray, correction: str) -> np.ndarray:
    """Host version of the kernels' correction (same formulas and caps)."""
    p = np.asarray(p, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if correction == "kimura":
            x = 1.0 - p - 0.2 * p * p
            return np.where(x > np.exp(-MAX_DISTANCE), -np.log(np.maximum(x, 1e-300)),
                            MAX_DISTANCE)
        if correction == "jc":
            x = 1.0 - 4.0 * p / 3.0
            return np.where(x > np.exp(-MAX_DISTANCE / 0.75),
                            -0.75 * np.log(np.maximum(x, 1e-300)), MAX_DISTANCE)
    return p


# -- inputs -----------------------------------------------------------------------------------
def _texts_and_ids(seqs, ids: Sequence[str] | None) -> tuple[list[str], list[str]]:
    seqs = listed(seqs)
    if not seqs:
        raise InputError("no sequences given")
    texts = [sequence_text(s).upper() for s in seqs]
    names = list(ids) if ids is not None else [sequence_name(s, k) for k, s in enumerate(seqs)]
    return texts, _matrix.check_ids(names, len(texts))


def _alignment_rows(alignment, ids) -> tuple[list[str], list[str]]:
    """Rows of a Bio.Align.Alignment / MultipleSeqAlignment / skbio TabularMSA / strings."""
    if hasattr(alignment, "coordinates") and hasattr(alignment, "sequences"):  # Alignment
        rows = listed(alignment)
        names = [sequence_name(s, k) for k, s in enumerate(alignment.sequences)]
        return _texts_and_ids(rows, ids if ids is not None else names)
    seqs = list(alignment)
    if hasattr(alignment, "index") and hasattr(alignment, "dtype"):  # skbio TabularMSA
        names = [str(x) for x in alignment.index]
        return _texts_and_ids([str(s) for s in seqs], ids if ids is not None else names)
    return _texts_and_ids(seqs, ids)


# -- k-tuple ----------------------------------------------------------------------------------
def ktuple_counts(texts: Sequence[str], k: int, letters: str) -> np.ndarray:
    """(n, len(letters)**k) uint16 k-tuple counts; tuples with other letters are skipped."""
    size = len(letters) ** k
    if size > 1 << 20:
        raise InputError(
            f"k = {k} gives {size} k-tuples for {len(letters)} letters; use a smaller k"
        )
    lut = np.full(256, 255, dtype=np.uint8)
    for c, code in zip(letters, range(len(letters)), strict=True):
        lut[ord(c)] = code
    if letters == NUCLEOTIDE:
        lut[ord("U")] = lut[ord("T")]
    lengths = np.array([len(t) for t in texts], dtype=np.int64)
    joined = np.frombuffer("".join(texts).encode("ascii", "replace"), dtype=np.uint8)
    codes = lut[joined].astype(np.int64)
    owner = np.repeat(np.arange(len(texts)), lengths)
    counts = np.zeros((len(texts), size), dtype=np.int64)
    total = codes.shape[0]
    if total >= k:
        m = total - k + 1
        key = np.zeros(m, dtype=np.int64)
        ok = owner[: m] == owner[k - 1 :]
        for s in range(k):  # k vectorised passes
            window = codes[s : s + m]
            ok &= window != 255
            key = key * len(letters) + np.where(window == 255, 0, window)
        flat = owner[:m][ok] * size + key[ok]
        counts = np.bincount(flat, minlength=len(texts) * size).reshape(len(texts), size)
    if counts.max(initial=0) > 65535:
        raise InputError("a k-tuple occurs more than 65535 times in one sequence; use a larger k")
    return counts.astype(np.uint16)


def _tile_config(rt) -> tuple[int, int, int]:
    ls = 16 if rt.max_work_group >= 256 else 8
    rb = 4 if rt.is_gpu else 2
    return ls, rb, 16


def _pair_kernel(rt, correction: str, dtype):
    ls, rb, tk = _tile_config(rt)
    prog = rt.program(
        "tree_dist.cl",
        {
            "REAL_IS_DOUBLE": int(np.dtype(dtype) == np.float64),
            "LS": ls, "RB": rb, "TK": tk,
            "CORRECTION": CORRECTIONS[correction],
            "MAX_DISTANCE": f"{MAX_DISTANCE:.1f}",
        },
    )
    return prog, ls, rb, tk


def _run_tiles(rt, kernel, n: int, ls: int, rb: int, args) -> np.ndarray:
    tile = ls * rb
    blocks = -(-n // tile)
    out_buf = rt.empty(n * n * 8)
    kernel(rt.queue, (blocks * ls, blocks * ls), (ls, ls), *args, out_buf)
    out = np.empty((n, n), dtype=np.float64)
    cl.enqueue_copy(rt.queue, out, out_buf)
    rt.queue.finish()
    out_buf.release()
    return out


def _check_output_fits(n: int, rt, per_cell: int = 8) -> None:
    need = n * n * per_cell
    if need > rt.max_alloc or need > rt.memory_budget(0.8):
        raise InputError(
            f"a {n} x {n} distance matrix needs {need / 2**30:.2f} GiB on {rt.info.name}, which "
            f"allows {rt.max_alloc / 2**30:.2f} GiB per buffer"
        )


@device_guard
def ktuple_distances(
    seqs,
    k: int | None = None,
    correction: str = "none",
    device=None,
    ids: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
) -> Distances:
    """Fast k-tuple distances, shared k-tuples of all pairs counted on the device.

    Parameters
    ----------
    seqs : sequence of str, Bio.Seq, SeqRecord or skbio.Sequence
        Unaligned sequences (gap characters are ignored).
    k : int, optional
        Tuple length; default 2 for protein, 4 for nucleotides.
    correction : {"none", "kimura", "jc", "auto"}
        Correction applied to ``p``.
    device : optional
        OpenCL device specification.
    ids : sequence of str, optional
        Names (default: record ids, else ``sequence N``).
    progress : callable, optional
        ``callback(stage, done, total)``.

    Returns
    -------
    Distances
    """
    texts, names = _texts_and_ids(seqs, ids)
    texts = [t.replace("-", "").replace(".", "") for t in texts]
    nucleotide = is_nucleotide(texts)
    correction = resolve_correction(correction, nucleotide)
    letters = NUCLEOTIDE if nucleotide else PROTEIN
    k = int(k or (4 if nucleotide else 2))
    if k < 1:
        raise InputError(f"k-tuple length must be at least 1, got {k}")
    rt = get_runtime(device)
    n = len(texts)
    _check_output_fits(n, rt)
    prog, ls, rb, tk = _pair_kernel(rt, correction, np.float64)
    counts = ktuple_counts(texts, k, letters)
    width = -(-counts.shape[1] // tk) * tk
    padded = np.zeros((n, width), dtype=np.uint16)
    padded[:, : counts.shape[1]] = counts
    totals = counts.sum(axis=1, dtype=np.uint64).astype(np.uint32)
    Progress(progress).report("k-tuple distances", 0, 1)
    knl = cl.Kernel(prog, "ktuple_dist")
    out = _run_tiles(
        rt, knl, n, ls, rb,
        (rt.to_device(padded), np.uint32(n), np.uint32(width), rt.to_device(totals)),
    )
    Progress(progress).report("k-tuple distances", 1, 1)
    return Distances(out, names)


# -- MSA p-distance ---------------------------------------------------------------------------
def encode_alignment(rows: Sequence[str]) -> np.ndarray:
    """(n, L) uint8: letter bytes, gap characters as ``GAP_CODE``; rows must share one length."""
    lengths = {len(r) for r in rows}
    if len(lengths) != 1:
        raise InputError(
            f"alignment rows differ in length ({', '.join(map(str, sorted(lengths)))}); "
            "not an alignment"
        )
    width = lengths.pop()
    data = np.frombuffer("".join(rows).encode("ascii", "replace"), dtype=np.uint8)
    data = data.reshape(len(rows), width).copy()
    for g in GAP_CHARS:
        data[data == ord(g)] = GAP_CODE
    return data


@device_guard
def msa_distances(
    alignment,
    correction: str = "none",
    device=None,
    ids: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
) -> Distances:
    """p-distances from a multiple alignment (on the device), with an optional correction.

    Parameters
    ----------
    alignment : Bio.Align.Alignment, MultipleSeqAlignment, skbio.TabularMSA or list of str
        Aligned rows of equal length; ``-`` and ``.`` are gaps.
    correction : {"none", "kimura", "jc", "auto"}
        Correction applied to ``p``.
    device, ids, progress
        As for :func:`ktuple_distances`.

    Returns
    -------
    Distances
    """
    rows, names = _alignment_rows(alignment, ids)
    rows = [r.upper() for r in rows]
    correction = resolve_correction(correction, is_nucleotide(rows))
    rt = get_runtime(device)
    n = len(rows)
    _check_output_fits(n, rt)
    prog, ls, rb, tk = _pair_kernel(rt, correction, np.float64)
    enc = encode_alignment(rows)
    width = -(-max(enc.shape[1], 1) // tk) * tk
    padded = np.full((n, width), GAP_CODE, dtype=np.uint8)
    padded[:, : enc.shape[1]] = enc
    Progress(progress).report("p-distances", 0, 1)
    knl = cl.Kernel(prog, "msa_pdist")
    out = _run_tiles(rt, knl, n, ls, rb, (rt.to_device(padded), np.uint32(n), np.uint32(width)))
    Progress(progress).report("p-distances", 1, 1)
    _say_rows_apart(enc, names, float(out.max()) if n > 1 else 0.0)
    return Distances(out, names)


def _say_rows_apart(enc: np.ndarray, names: list[str], largest: float) -> None:
    """Warn about pairs of rows whose residues lie in columns apart (reads of different
    regions, say): nothing to compare, so their distance is the largest there is (p = 1, or
    the correction's maximum), as ClustalW sets it, and a tree joins them only last.

    Counted from each row's first and last residue column (sorted, O(n log n)): rows whose
    spans overlap but whose residues never meet are not counted."""
    has = enc != GAP_CODE
    full = np.flatnonzero(has.any(axis=1))
    if full.size < 2:
        return
    first = has[full].argmax(axis=1)
    last = has.shape[1] - 1 - has[full, ::-1].argmax(axis=1)
    starts = np.sort(first)
    apart = int((full.size - np.searchsorted(starts, last, side="right")).sum())
    if apart:
        a, b = full[int(last.argmin())], full[int(first.argmax())]
        log.warning("%d pair(s) of rows share no residue column (%s ends before %s begins, "
                    "...): nothing to compare, so their distance is %g, the largest, as "
                    "ClustalW sets it", apart, names[a], names[b], largest)


# -- alignment identity -----------------------------------------------------------------------
def identity_from_coordinates(a: np.ndarray, b: np.ndarray, coords: np.ndarray) -> float:
    """``p = 1 - identical / aligned pairs`` for one alignment given as coordinates."""
    coords = np.asarray(coords)
    starts = coords[:, :-1]
    steps = np.diff(coords, axis=1)
    both = (steps[0] > 0) & (steps[1] > 0)
    aligned = int(steps[0][both].sum())
    if aligned == 0:
        return 1.0
    idx_a = np.concatenate([np.arange(s, s + n) for s, n in zip(starts[0][both], steps[0][both],
                                                                strict=True)])
    idx_b = np.concatenate([np.arange(s, s + n) for s, n in zip(starts[1][both], steps[0][both],
                                                                strict=True)])
    same = int(np.count_nonzero(a[idx_a] == b[idx_b]))
    return 1.0 - same / aligned


def pair_identity(
    encoded: Sequence[np.ndarray],
    ii: np.ndarray,
    jj: np.ndarray,
    coordinates: Sequence[np.ndarray],
    device=None,
) -> np.ndarray:
    """``p = 1 - identical / aligned pairs`` for many alignments, counted on the device.

    Parameters
    ----------
    encoded : sequence of uint8 arrays
        The sequences.
    ii, jj : int arrays
        Target and query index of each alignment.
    coordinates : sequence of (2, k) int arrays
        ``Bio.Align.Alignment.coordinates`` of each alignment (target row first).
    device : optional
        OpenCL device specification.

    Returns
    -------
    ndarray of float64
        One ``p`` per alignment (1 where nothing is aligned).
    """
    npairs = len(coordinates)
    if npairs == 0:
        return np.zeros(0)
    widths = np.fromiter((c.shape[1] for c in coordinates), dtype=np.int64, count=npairs)
    allc = np.concatenate([np.asarray(c, dtype=np.int64) for c in coordinates], axis=1)
    owner = np.repeat(np.arange(npairs), widths)
    steps = allc[:, 1:] - allc[:, :-1]
    seg_owner = owner[:-1]
    both = (owner[1:] == seg_owner) & (steps[0] > 0) & (steps[1] > 0)
    lengths = steps[0][both]
    pair = seg_owner[both]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(e) for e in encoded])
    a_start = offsets[np.asarray(ii)[pair]] + allc[0, :-1][both]
    b_start = offsets[np.asarray(jj)[pair]] + allc[1, :-1][both]
    aligned = np.bincount(pair, weights=lengths, minlength=npairs)
    same = np.zeros(len(lengths), dtype=np.uint32)
    if len(lengths):
        rt = get_runtime(device)
        prog = rt.program("tree_dist.cl", {"REAL_IS_DOUBLE": 0, "LS": 8, "RB": 1, "TK": 8,
                                           "CORRECTION": 0, "MAX_DISTANCE": "10.0"})
        out = rt.empty(same.nbytes)
        wg = 64
        cl.Kernel(prog, "segment_identity")(
            rt.queue, (-(-len(lengths) // wg) * wg,), (wg,),
            rt.to_device(np.concatenate([np.asarray(e, np.uint8) for e in encoded])),
            rt.to_device(a_start.astype(np.uint64)), rt.to_device(b_start.astype(np.uint64)),
            rt.to_device(lengths.astype(np.uint32)), np.uint32(len(lengths)), out,
        )
        cl.enqueue_copy(rt.queue, same, out)
        rt.queue.finish()
    ident = np.bincount(pair, weights=same, minlength=npairs)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(aligned > 0, 1.0 - ident / np.maximum(aligned, 1), 1.0)


@device_guard
def identity_distances(
    seqs,
    correction: str = "none",
    device=None,
    ids: Sequence[str] | None = None,
    matrix: str | None = None,
    gaps: tuple[float, float] = (-10.0, -1.0),
    progress: ProgressCallback | None = None,
) -> Distances:
    """Distances from all-vs-all global alignments by :mod:`bioplug.pairwise`.

    Parameters
    ----------
    seqs : sequence of str, Bio.Seq, SeqRecord or skbio.Sequence
        Unaligned sequences.
    correction : {"none", "kimura", "jc", "auto"}
        Correction applied to ``p = 1 - identity``.
    device : optional
        OpenCL device specification(s), passed to the pairwise engine.
    ids : sequence of str, optional
        Names.
    matrix : str, optional
        Substitution matrix (default BLOSUM62 for protein; +5/-4 for nucleotides).
    gaps : (float, float)
        Gap open and extend scores (Biopython convention, negative).
    progress : callable, optional
        Passed to the pairwise engine.

    Returns
    -------
    Distances

    Raises
    ------
    InputError
        When :mod:`bioplug.pairwise` is not available.
    """
    try:
        from bioplug.alphabet import make_scoring, simple_gaps
        from bioplug.pairwise.engine import PairwiseEngine
    except ImportError as exc:  # pragma: no cover - depends on the pairwise capability
        raise InputError(
            f"identity distances need bioplug.pairwise ({exc}); use ktuple distances"
        ) from exc
    texts, names = _texts_and_ids(seqs, ids)
    texts = [t.replace("-", "").replace(".", "") for t in texts]
    nucleotide = is_nucleotide(texts)
    correction = resolve_correction(correction, nucleotide)
    gap_scores = simple_gaps(float(gaps[0]), float(gaps[1]))
    if nucleotide and matrix is None:
        texts = [t.replace("U", "T") for t in texts]
        letters = tuple(sorted(set("".join(texts)) | set(NUCLEOTIDE)))
        scoring = make_scoring(None, match=5, mismatch=-4, gaps=gap_scores, letters=letters)
    else:
        scoring = make_scoring(matrix or "BLOSUM62", gaps=gap_scores)
    if scoring is None:
        raise InputError("the scoring scheme cannot be run on the device")
    encoded = [scoring.encode(t, name) for t, name in zip(texts, names, strict=True)]
    n = len(encoded)
    ii, jj = np.triu_indices(n, 1)
    engine = PairwiseEngine(scoring, device)
    results = engine.align_pairs([encoded[i] for i in ii], [encoded[j] for j in jj],
                                 progress=progress)
    p = pair_identity(encoded, ii, jj, [coords for _, coords in results], device)
    data = np.zeros((n, n))
    data[ii, jj] = correct(p, correction)
    data[jj, ii] = data[ii, jj]
    return Distances(data, names)


@device_guard
def distance_matrix(
    data,
    method: str = "ktuple",
    correction: str = "none",
    device=None,
    ids: Sequence[str] | None = None,
    **kwargs,
) -> Distances:
    """Distances from sequences (``ktuple``, ``clustalw-fast``, ``identity``) or an alignment.

    Parameters
    ----------
    data : sequences or alignment
        See :func:`ktuple_distances`, :func:`identity_distances`, :func:`msa_distances` and
        :func:`bioplug.tree.clustalw.clustalw_fast_distances`.
    method : {"ktuple", "clustalw-fast", "identity", "msa"}
        Distance kind.
    correction : {"none", "kimura", "jc", "auto"}
        Correction applied to ``p`` (``clustalw-fast`` is ClustalW's uncorrected distance
        and takes ``none`` only).
    device, ids, **kwargs
        Passed on.

    Returns
    -------
    Distances
        ``.to_skbio()``, ``.to_biopython()``, ``.to_numpy()``, ``.write_phylip(path)``.
    """
    if method == "ktuple":
        return ktuple_distances(data, correction=correction, device=device, ids=ids, **kwargs)
    if method == "identity":
        return identity_distances(data, correction=correction, device=device, ids=ids, **kwargs)
    if method == "msa":
        return msa_distances(data, correction=correction, device=device, ids=ids, **kwargs)
    if method == "clustalw-fast":
        if correction != "none":
            raise InputError("clustalw-fast distances take no correction (ClustalW's own)")
        from bioplug.tree.clustalw import clustalw_fast_distances

        return clustalw_fast_distances(data, device=device, ids=ids, **kwargs)
    raise InputError(
        f"unknown distance method {method!r}; use ktuple, clustalw-fast, identity or msa"
    )
