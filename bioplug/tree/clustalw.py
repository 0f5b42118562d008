"""ClustalW's fast pairwise distances (Wilbur & Lipman k-tuple alignment), on the device.

ClustalW (1.83, 2.1) builds its guide tree with ``-quicktree`` from fast approximate
pairwise alignments: exact k-tuple matches are counted per diagonal, the ``signif`` best
diagonals (``-TOPDIAGS``) and ``window`` diagonals around each (``-WINDOW``) are kept, and
the best chain of k-tuple fragments on them is scored (``+k`` per k-tuple, ``-wind_gap`` per
change of diagonal, ``-PAIRGAP``). The score is a percent identity over the shorter
sequence, and ClustalW's distance is ``(100 - score) / 100``.

:func:`clustalw_fast_distances` replays that algorithm for every pair at once, one OpenCL
work-item per pair (``kernels/tree_clustalw.cl``), and returns the same numbers ClustalW
prints as ``Sequences (i:j) Aligned. Score: ...`` (ClustalW's quirks included: its quicksort
leaves the last diagonal unsorted; a pair stops adding fragments at twice the longest
sequence length, ClustalW's "partial alignment").

Sequences are read as ClustalW reads them: upper-cased; the letters of ClustalW's alphabet
``ABCDEFGHIKLMNOPQRSTUVWXYZ`` and gaps (``-``, and ``.``) are kept, anything else (``J``,
``*``, digits, blanks) is dropped. Gaps are kept as positions that never match (they count
in the length, as in ClustalW). Nucleotide k-tuples use A, C, G and T/U only.

This is not :func:`bioplug.tree.distance.ktuple_distances`, which compares k-tuple counts
without any alignment (a k-mer distance).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np
import pyopencl as cl

from bioplug.alignio import listed
from bioplug.errors import InputError
from bioplug.faults import device_guard
from bioplug.io import sequence_name, sequence_text
from bioplug.progress import Progress, ProgressCallback
from bioplug.runtime import Runtime, get_runtime
from bioplug.tree import matrix as _matrix
from bioplug.tree.distance import Distances

log = logging.getLogger(__name__)

#: ClustalW's residue codes (``aminoAcidCodes`` without the gap); code = index.
CLUSTALW_LETTERS = "ABCDEFGHIKLMNOPQRSTUVWXYZ"
#: ClustalW's defaults: (ktup, window, signif, wind_gap).
PROTEIN_DEFAULTS = (1, 5, 5, 3)
NUCLEOTIDE_DEFAULTS = (2, 4, 4, 5)
#: Largest k-tuple ClustalW allows (protein, nucleotide).
MAX_KTUP = (2, 4)
_GAP = 254
_DROP = 255
_NARR = 6  # int scratch arrays per work-item (see the kernel)


def _clustalw_lut() -> tuple[np.ndarray, np.ndarray]:
    """Byte -> ClustalW protein code / nucleotide code (``_GAP``, ``_DROP`` or invalid)."""
    prot = np.full(256, _DROP, dtype=np.uint8)
    for k, c in enumerate(CLUSTALW_LETTERS):
        prot[ord(c)] = prot[ord(c.lower())] = k
    for g in "-.":
        prot[ord(g)] = _GAP
    nuc = np.full(25, 200, dtype=np.uint8)  # 200: a letter that is not A, C, G, T or U
    for c, v in zip("ACGTU", (0, 1, 2, 3, 3), strict=True):
        nuc[CLUSTALW_LETTERS.index(c)] = v
    return prot, nuc


def clustalw_is_nucleotide(texts: Sequence[str]) -> bool:
    """ClustalW's sequence-type rule.

    ClustalW decides from its second sequence (the first when there is only one): DNA when
    at least 85 % of its non-gap characters are A, C, G, T, U or N.

    Parameters
    ----------
    texts : sequence of str
        The sequences as ClustalW keeps them (upper case, gaps as ``-``).

    Returns
    -------
    bool
    """
    if not texts:
        return False
    text = texts[1] if len(texts) > 1 else texts[0]
    residues = [c for c in text if c not in "-."]
    bases = sum(c in "ACGTUN" for c in residues)
    if not residues or not bases:
        return False
    return float(np.float32(bases) / np.float32(len(residues))) >= 0.85


def _as_text(codes: np.ndarray) -> str:
    letters = np.frombuffer((CLUSTALW_LETTERS + "-").encode(), dtype=np.uint8)
    return letters[np.where(codes == _GAP, len(CLUSTALW_LETTERS), codes)].tobytes().decode()


def _encode(seqs, ids) -> tuple[list[np.ndarray], list[str]]:
    prot, _ = _clustalw_lut()
    seqs = listed(seqs)   # an alignment's rows all at once, not row by row
    if not seqs:
        raise InputError("no sequences given")
    names = list(ids) if ids is not None else [sequence_name(s, k) for k, s in enumerate(seqs)]
    names = _matrix.check_ids(names, len(seqs))
    encoded = []
    for name, s in zip(names, seqs, strict=True):
        raw = np.frombuffer(sequence_text(s).encode("ascii", "replace"), dtype=np.uint8)
        codes = prot[raw]
        codes = codes[codes != _DROP]
        if not len(codes):
            raise InputError(f"record {name!r}: no residues ClustalW can read")
        encoded.append(codes)
    return encoded, names


def _ktuple_tables(
    encoded: Sequence[np.ndarray], k: int, nucleotide: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Per-sequence k-tuple codes, same-code chains and heads, as ClustalW's make_p/n_ptrs.

    Returns ``code, chain, head, offsets, lengths, head_width``; positions are 1-based, each
    sequence ``s`` occupies ``code[offsets[s] : offsets[s] + len + 1]`` (slot 0 unused).
    """
    _, nuc = _clustalw_lut()
    base = 4 if nucleotide else len(CLUSTALW_LETTERS)
    limit = base**k
    lengths = np.array([len(e) for e in encoded], dtype=np.int64)
    n = len(encoded)
    offsets = np.zeros(n + 1, dtype=np.int64)
    offsets[1:] = np.cumsum(lengths + 1)
    total = int(offsets[-1])
    res = np.full(total + k, 255, dtype=np.int64)  # 255: no k-tuple through here
    owner = np.full(total + k, -1, dtype=np.int64)
    for_all = np.concatenate([np.concatenate(([_GAP], e)) for e in encoded]).astype(np.int64)
    seq_of = np.repeat(np.arange(n), lengths + 1)
    valid = for_all < len(CLUSTALW_LETTERS)
    vals = np.where(valid, for_all, 0)
    if nucleotide:
        vals = nuc[vals].astype(np.int64)
        valid &= vals < 4
    res[:total] = np.where(valid, vals, 255)
    owner[:total] = seq_of
    owner[offsets[:-1]] = -1  # slot 0 of each sequence is not a residue
    code = np.zeros(total, dtype=np.int64)
    ok = owner[:total] >= 0
    for j in range(k):  # k vectorised passes: residue j of the tuple, weight base**j
        r = res[j : j + total]
        ok &= (r != 255) & (owner[j : j + total] == owner[:total])
        code += np.where(r == 255, 0, r) * base**j
    code = np.where(ok, code + 1, 0)
    # chains: previous position with the same code in the same sequence; heads: last one
    pos = np.arange(total) - offsets[:-1][seq_of]
    where = np.flatnonzero(code)
    key = seq_of[where] * (limit + 1) + code[where]
    order = np.lexsort((pos[where], key))
    ws, ks = where[order], key[order]
    chain = np.zeros(total, dtype=np.int64)
    if len(ws):
        same = ks[1:] == ks[:-1]
        chain[ws[1:][same]] = pos[ws[:-1][same]]
        last = np.ones(len(ws), dtype=bool)
        last[:-1] = ~same
        head = np.zeros(n * (limit + 1), dtype=np.int64)
        head[ks[last]] = pos[ws[last]]
    else:
        head = np.zeros(n * (limit + 1), dtype=np.int64)
    return (code.astype(np.int32), chain.astype(np.int32), head.astype(np.int32),
            offsets[:-1].astype(np.uint64), lengths.astype(np.int32), limit + 1)


@device_guard
def clustalw_fast_distances(
    sequences,
    ktup: int | None = None,
    window: int | None = None,
    signif: int | None = None,
    wind_gap: int | None = None,
    device=None,
    progress: ProgressCallback | None = None,
    *,
    ids: Sequence[str] | None = None,
    nucleotide: bool | None = None,
) -> Distances:
    """ClustalW's fast (``-quicktree``) pairwise distances, all pairs on the device.

    Parameters
    ----------
    sequences : sequence of str, Bio.Seq, SeqRecord or skbio.Sequence
        The sequences, read as ClustalW reads them (see the module notes).
    ktup : int, optional
        K-tuple length (``-KTUPLE``): default 1 protein (at most 2), 2 nucleotide (at most 4).
    window : int, optional
        Diagonals kept on each side of a top diagonal (``-WINDOW``): default 5 protein,
        4 nucleotide.
    signif : int, optional
        Number of top diagonals (``-TOPDIAGS``): default 5 protein, 4 nucleotide.
    wind_gap : int, optional
        Penalty for changing diagonal (``-PAIRGAP``): default 3 protein, 5 nucleotide; when
        ``ktup`` is given, ``ktup + 3`` protein and ``ktup + 4`` nucleotide, as ClustalW's
        ``-KTUPLE`` sets it. (ClustalW's command line ignores ``-WINDOW``, ``-TOPDIAGS``
        and ``-PAIRGAP`` values not above ``ktup``; here any ``window >= 0``,
        ``signif >= 1``, ``wind_gap >= 0`` is used as given.)
    device : optional
        OpenCL device specification.
    progress : callable, optional
        ``callback(stage, done, total)``.
    ids : sequence of str, optional
        Names (default: record ids, else ``sequence N``).
    nucleotide : bool, optional
        Sequence type; default ClustalW's rule (:func:`clustalw_is_nucleotide`).

    Returns
    -------
    Distances
        ``d = (100 - score) / 100`` with ``score = 100 * best / min(len_i, len_j)``, as
        ClustalW computes it (no correction); 1 for pairs with no k-tuple match.

    Raises
    ------
    InputError
        No sequences, a sequence with nothing ClustalW can read, duplicate ids, or a
        parameter out of range.
    """
    encoded, names = _encode(sequences, ids)
    nucleotide, params = _parameters(encoded, nucleotide, ktup, window, signif, wind_gap)
    n = len(encoded)
    out = np.zeros((n, n))
    if n < 2:
        return Distances(out, names)
    tables = _ktuple_tables(encoded, params[0], nucleotide)
    ii, jj = np.triu_indices(n, 1)
    best = _best_scores(tables, ii, jj, params, device, progress)
    _fill_distances(out, best, tables[4], ii, jj)
    return Distances(out, names)


def _parameters(
    encoded: Sequence[np.ndarray], nucleotide: bool | None, ktup: int | None,
    window: int | None, signif: int | None, wind_gap: int | None,
) -> tuple[bool, tuple[int, int, int, int]]:
    """The sequence type and ``(ktup, window, signif, wind_gap)``, ClustalW's defaults
    filled in and every value checked (:class:`InputError` when out of range)."""
    if nucleotide is None:
        nucleotide = clustalw_is_nucleotide([_as_text(e) for e in encoded[:2]])
    defaults = list(NUCLEOTIDE_DEFAULTS if nucleotide else PROTEIN_DEFAULTS)
    if ktup is not None and wind_gap is None and isinstance(ktup, (int, np.integer)):
        defaults[3] = int(ktup) + (4 if nucleotide else 3)  # as ClustalW's -KTUPLE sets it
    params = [defaults[k] if v is None else v for k, v in enumerate((ktup, window, signif,
                                                                     wind_gap))]
    for label, v in zip(("ktup", "window", "signif", "wind_gap"), params, strict=True):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise InputError(f"{label} must be an integer, got {v!r}")
    ktup, window, signif, wind_gap = (int(v) for v in params)
    top = MAX_KTUP[1 if nucleotide else 0]
    if not 1 <= ktup <= top:
        kind = "nucleotide" if nucleotide else "protein"
        raise InputError(f"ktup must be 1 to {top} for {kind} sequences, got {ktup}")
    if window < 0 or signif < 1 or wind_gap < 0:
        raise InputError(
            f"window and wind_gap must be >= 0 and signif >= 1 (got window={window}, "
            f"signif={signif}, wind_gap={wind_gap})"
        )
    return nucleotide, (ktup, window, signif, wind_gap)


def _best_scores(tables: tuple, ii: np.ndarray, jj: np.ndarray,
                 params: tuple[int, int, int, int], device,
                 progress: ProgressCallback | None) -> np.ndarray:
    """ClustalW's best fragment-chain score of every pair ``(ii[p], jj[p])``, one work-item
    per pair, in batches that fit the device."""
    code, chain, head, offsets, lengths, hw = tables
    maxlen = int(lengths.max())
    maxaln = 2 * maxlen  # ClustalW's maxAlignmentLength (Alignment::calculateMaxLengths)
    npairs = len(ii)
    rt = get_runtime(device)
    knl = rt.kernel("tree_clustalw.cl", "clustalw_fast", {"INTERLEAVE": int(rt.is_gpu)})
    wg = rt.preferred_group(knl, 64 if rt.is_gpu else 16)
    width = 2 * maxaln  # diagonals (< 2 * maxlen) and fragments (< 2 * maxaln) per pair
    batch = _pairs_per_batch(rt, wg, width, npairs, maxlen)
    ktup, window, signif, wind_gap = params
    # values past these caps act as the caps do; they keep the kernel's int arithmetic safe
    window, signif, wind_gap = (min(v, 1 << 30) for v in (window, signif, wind_gap))
    report = Progress(progress)
    report.report("ClustalW fast distances", 0, npairs)
    best = np.empty(npairs, dtype=np.int32)
    buffers = [rt.to_device(a) for a in (code, chain, head, offsets, lengths,
                                         ii.astype(np.uint32), jj.astype(np.uint32))]
    try:
        scratch = rt.empty(batch * width * _NARR * 4)
        buffers.append(scratch)
        slopes = rt.empty(batch * width)
        buffers.append(slopes)
        score_buf = rt.empty(npairs * 4)
        buffers.append(score_buf)
        for first in range(0, npairs, batch):
            count = min(batch, npairs - first)
            knl(rt.queue, (-(-count // wg) * wg,), (wg,), *buffers[:7], np.uint32(first),
                np.uint32(count), np.uint32(hw), np.int32(maxaln), np.int32(ktup),
                np.int32(window), np.int32(signif), np.int32(wind_gap), scratch, slopes,
                score_buf)
            rt.queue.finish()
            report.report("ClustalW fast distances", first + count, npairs)
        cl.enqueue_copy(rt.queue, best, score_buf)
        rt.queue.finish()
    finally:
        for b in buffers:
            b.release()
    return best


def _pairs_per_batch(rt: Runtime, wg: int, width: int, npairs: int, maxlen: int) -> int:
    """Pairs per launch (a multiple of ``wg``): enough work-items to fill the device (many
    per compute unit on GPUs), within memory; :class:`InputError` when not even ``wg`` fit."""
    per_item = width * (_NARR * 4 + 1)
    budget = min(rt.memory_budget(0.25), rt.max_alloc // (_NARR * 4) * (_NARR * 4 + 1))
    useful = rt.compute_units * (2048 if rt.is_gpu else 4 * wg)
    batch = min(budget // per_item, useful, -(-npairs // wg) * wg) // wg * wg
    if batch < wg:
        raise InputError(
            f"sequences of {maxlen} residues need {per_item / 2**20:.1f} MiB per pair and "
            f"{wg} pairs at once; {rt.info.name} cannot hold that"
        )
    log.debug("clustalw fast: %d pairs, batches of %d, %d bytes per pair", npairs, batch,
              per_item)
    return batch


def _fill_distances(out: np.ndarray, best: np.ndarray, lengths: np.ndarray, ii: np.ndarray,
                    jj: np.ndarray) -> None:
    """ClustalW's arithmetic, in double: score = best / min(l1, l2) * 100;
    d = (100 - s) / 100, into both triangles of ``out``."""
    dsr = np.minimum(lengths[ii], lengths[jj]).astype(np.float64)
    calc = np.where(best > 0, best.astype(np.float64) / dsr * 100.0, 0.0)
    d = (100.0 - calc) / 100.0
    out[ii, jj] = d
    out[jj, ii] = d
