"""Adding sequences to an existing alignment, whose columns stay (``ProgressiveAligner.add``).

Two ways, as MAFFT offers them:

* together (``mafft --add``): the new sequences are aligned progressively among themselves,
  then their profile is aligned to the alignment's (one profile-profile step, in
  ``ProgressiveAligner``);
* as fragments (``mafft --addfragments``): each new sequence is aligned to the alignment on
  its own, with free end gaps (reads, partial genes and domains rarely span it), all of them
  in device batches (:func:`fragment_moves`), each against its own profile of the alignment
  whose rows are weighed by their local alignment scores with it (:class:`Neighbours`; on a
  CPU device nucleotide reads are scored, and aligned, in a window of columns around where
  shared k-mers place them, :func:`placements`, :func:`windows`, :class:`WindowScores`; an
  alignment that reaches its window's edge is done again against the whole).
  Fragments know nothing of each other, so their
  insertions at one place are not aligned to each other: each is left-justified in a block as
  wide as the longest there (:func:`fragment_rows`), as A2M's insert states are unaligned.

``keep_length`` (``mafft --keeplength``) keeps the alignment's columns only: residues of the
new sequences that fall in insertions are deleted (:func:`finish`). That changes the new
sequences, so it is only done when asked, logged with counts, and every residue's place is
kept in ``alignment.residue_columns`` (``bioplug profile --map-out`` writes it in the layout
of ``mafft --mapout``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.io import description_after_id
from bioplug.progress import Progress
from bioplug.runtime import get_runtime
from bioplug.runtime.schedule import budget_batches

log = logging.getLogger(__name__)

GAP = ord("-")
#: How sharply a fragment's profile leans on the rows most like it (:func:`neighbour_weights`:
#: ``exp(NEIGHBOUR_SHARPNESS * sqrt(n) * (s - s_max))`` of the local alignment scores ``s``).
#: MAFFT's authors warn that a plain profile of the alignment ignores where the new sequence
#: sits in the family's tree; weighing rows by similarity is how bioplug takes that in.
#: ``benchmarks/add.py`` (recall / precision of fragment-alignment residue pairs, PoCL):
#: a deep alignment (26 HomFam families: 200 homologs and half the reference rows aligned by
#: Clustal Omega, the other reference rows added as fragments) 86.92 / 88.71 against 79.93 /
#: 82.30 with the plain profile (mafft --addfragments 87.27 / 88.49); BAliBASE RV11 / RV12 /
#: HomFam references 74.70 / 96.40 / 93.31 recall against 73.27 / 96.17 / 92.93. A fixed
#: sharpness had to choose between the two (0.01: deep 81.7; 0.03: RV11 71.5), and so did
#: powers of the scores and the nearest rows alone (RESULTS.md); sqrt(n) lets the many
#: mediocre rows of a deep alignment weigh less in all.
NEIGHBOUR_SHARPNESS = 0.0035
#: Fragments aligned per engine call: progress and a cancel come between calls (the engine
#: splits each call into launches by memory).
FRAGMENTS_PER_CALL = 4096
#: ... and fewer when their profiles would take more than this share of the device's memory
#: (or more than one buffer may hold): each is a copy of the alignment's columns, so 4,096 of
#: a 30 kb genome's take 11 GiB, past PoCL's 4 GiB buffers (1,600 reads failed there).
PROFILES_SHARE = 0.25
#: A fragment's weights come from its scores with at most this many rows, spread evenly
#: through a larger alignment (the others weigh 0): 100,000 reads against 10,000 rows would
#: be 10^9 local alignments, and the sharpened weights rest on the best-scoring rows anyway.
NEIGHBOUR_ROWS = 2048
#: Local alignments per call of the pairwise engine (its index arrays live on the host).
PAIRS_PER_CALL = 1 << 22
#: Nucleotide fragments are placed on the alignment by shared k-mers (:func:`placements`)
#: and scored against the rows' residues in a window of columns around that place
#: (:class:`WindowScores`), not the whole rows: 300 reads of 150 nt against 32 rows of 5 kb
#: took 31.5 of the 35 s of adding them on PoCL. PLACE_K letters a k-mer, PLACE_ROWS rows
#: indexed (spread), PLACE_HITS read positions and PLACE_SHARE of its k-mers agreeing on
#: the place (within PLACE_BIN columns either way) and no other place half as sure (a
#: turned read of a simulated genome was placed by 4 chance matches without the share);
#: WINDOW_MARGIN columns (and a quarter of the read's span) either side, windows snapped
#: to WINDOW_GRID columns so that reads share them. Reads not placed so, and windows over
#: half the alignment, are scored and aligned against whole rows.
PLACE_K = 12
PLACE_ROWS = 64
PLACE_HITS = 4
PLACE_SHARE = 0.1
PLACE_REPEATS = 4
PLACE_BIN = 16
WINDOW_MARGIN = 64
WINDOW_GRID = 128
_BASES = np.full(256, 255, dtype=np.uint8)
for _i, _c in enumerate("ACGT"):
    _BASES[ord(_c)] = _BASES[ord(_c.lower())] = _i
_BASES[ord("U")] = _BASES[ord("u")] = 3


def similarity_scores(rows_texts: Sequence[str], added: Sequence[str], nucleotide: bool,
                      device=None) -> np.ndarray:
    """``(F, n)`` local alignment scores of every added sequence with every row's sequence
    (the guide trees' pairwise engine: BLOSUM62 11/1, NUC.4.4 16/4); 0 for an empty row."""
    return LocalScores(rows_texts, nucleotide, device)(added)


class LocalScores:
    """Local alignment scores with the rows of an alignment: the pairwise engine made and
    the rows encoded once, for every chunk of added sequences."""

    def __init__(self, rows_texts: Sequence[str], nucleotide: bool, device=None):
        from bioplug.progressive.guide import encoded, local_engine

        self.engine, scoring = local_engine(nucleotide, device)
        self.encode = lambda texts: encoded(list(texts), "".join(scoring.letters), nucleotide)
        self.n = len(rows_texts)
        self.full = np.flatnonzero([len(t) > 0 for t in rows_texts])   # no empty one
        self.rows = self.encode(rows_texts[i] for i in self.full)

    def __call__(self, added: Sequence[str]) -> np.ndarray:
        """``(len(added), n)`` scores, :data:`PAIRS_PER_CALL` pairs an engine call."""
        m, f = self.full.size, len(added)
        codes = self.rows + self.encode(added)
        scores = np.zeros((f, self.n))
        step = max(1, PAIRS_PER_CALL // max(m, 1))
        for lo in range(0, f if m else 0, step):
            hi = min(lo + step, f)
            got = self.engine.score_indexed(codes, np.repeat(np.arange(m + lo, m + hi), m),
                                            np.tile(np.arange(m), hi - lo))
            scores[lo:hi, self.full] = np.asarray(got, np.float64).reshape(hi - lo, m)
        return scores


def kmer_codes(letters: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k-mers of one sequence's bases (uint8 letters) as integers and their start
    positions; k-mers with a letter other than A, C, G, T / U are left out."""
    base = _BASES[letters]
    if base.size < k:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    win = np.lib.stride_tricks.sliding_window_view(base, k)
    good = np.flatnonzero((win != 255).all(axis=1))
    weights = 4 ** np.arange(k - 1, -1, -1, dtype=np.int64)
    return win[good].astype(np.int64) @ weights, good


def placements(gapped: np.ndarray, rows: np.ndarray, reads: Sequence[str]
               ) -> tuple[np.ndarray, np.ndarray]:
    """Where each read lies on the alignment: ``(first, last)`` columns of the residues it
    matches, -1 for a read not placed.

    A read k-mer at position p matching an indexed row's k-mer at residue q votes for the
    row's residue q - p as the read's start (:func:`kmer_votes`); votes are binned by that
    residue's column (:data:`PLACE_BIN` columns, more for long alignments) and the best bin,
    with its neighbours, wins if :data:`PLACE_HITS` read positions and :data:`PLACE_SHARE`
    of the read's k-mers vote for it and no other place has half as many. All reads at
    once: numpy over their k-mers and their matches."""
    n, length = len(reads), gapped.shape[1]
    first = np.full(n, -1, dtype=np.int64)
    last = np.full(n, -1, dtype=np.int64)
    index = kmer_index(gapped, rows)
    if not n or not index[0].size:
        return first, last
    lens = np.array([len(r) for r in reads], dtype=np.int64)
    reader, p, start, stop = kmer_votes(index, reads, lens)
    width = max(PLACE_BIN, -(-length // 4096))
    bins, nb = start // width, length // width + 1
    # a read position votes once for a bin, however many rows share its k-mer there
    span = int(lens.max()) + 1
    key = np.unique((reader * nb + bins) * span + p)
    votes = np.bincount(key // span, minlength=n * nb).reshape(n, nb)
    near = votes.copy()
    near[:, 1:] += votes[:, :-1]
    near[:, :-1] += votes[:, 1:]
    best = near.argmax(axis=1)
    support = near[np.arange(n), best]
    # and the place must stand out: no other place (two bins away or more) half as sure
    around = np.clip(best[:, None] + np.arange(-2, 3), 0, nb - 1)
    rest = near.copy()
    rest[np.arange(n)[:, None], around] = 0
    kmers = np.maximum(lens - PLACE_K + 1, 0)
    placed = ((support >= np.maximum(PLACE_HITS, PLACE_SHARE * kmers))
              & (2 * rest.max(axis=1) < support))
    chosen = placed[reader] & (np.abs(bins - best[reader]) <= 1)
    lowest = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(lowest, reader[chosen], start[chosen])
    np.maximum.at(last, reader[chosen], stop[chosen])
    first[placed] = lowest[placed]
    return first, last


def kmer_index(gapped: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, ...]:
    """The k-mers of up to :data:`PLACE_ROWS` of ``rows`` (spread), sorted: ``(code,
    residue, row, columns, offsets, sizes)``, ``columns[offsets[j] + q]`` the column of
    indexed row j's residue q. A k-mer at one column of several rows is indexed once (its
    first row): rows of one family share most k-mers, and every copy was a match to expand
    (18 million a chunk of 4,096 reads against 32 rows, 0.8 s on an H200's host)."""
    picked = np.unique(rows[np.linspace(0, rows.size - 1, min(PLACE_ROWS, rows.size))
                            .round().astype(np.int64)])
    columns = [np.flatnonzero(gapped[r] != GAP) for r in picked]
    sizes = np.array([c.size for c in columns], dtype=np.int64)
    offsets = np.cumsum(sizes) - sizes
    flat = np.concatenate(columns)
    found = [kmer_codes(gapped[r, c], PLACE_K) for r, c in zip(picked, columns, strict=True)]
    code = np.concatenate([f[0] for f in found])
    pos = np.concatenate([f[1] for f in found])
    own = np.repeat(np.arange(len(found)), [f[0].size for f in found])
    _, once = np.unique(code * (gapped.shape[1] + 1) + flat[offsets[own] + pos],
                        return_index=True)
    order = once[np.argsort(code[once], kind="stable")]
    return code[order], pos[order], own[order], flat, offsets, sizes


def kmer_votes(index: tuple[np.ndarray, ...], reads: Sequence[str], lens: np.ndarray
               ) -> tuple[np.ndarray, ...]:
    """Every match of a read k-mer (none across two reads) with an indexed one found at
    :data:`PLACE_REPEATS` columns or fewer: ``(read, position in the read, column of the
    read's start, column of its end)`` as that indexed row has them."""
    code, pos, own, flat, offsets, sizes = index
    ends = np.cumsum(lens)
    letters = np.frombuffer("".join(reads).encode("latin-1", "replace"), np.uint8)
    rk, rpos = kmer_codes(letters, PLACE_K)
    rid = np.searchsorted(ends, rpos, side="right")
    inside = rpos + PLACE_K <= ends[np.minimum(rid, lens.size - 1)]
    rk, rid = rk[inside], rid[inside]
    p = rpos[inside] - (ends - lens)[rid]
    lo, hi = np.searchsorted(code, rk, "left"), np.searchsorted(code, rk, "right")
    vote = (hi > lo) & (hi - lo <= PLACE_REPEATS)
    count = (hi - lo)[vote]
    take = np.repeat(lo[vote], count) + _ranks(count)
    reader, p = np.repeat(rid[vote], count), np.repeat(p[vote], count)
    row, q = own[take], pos[take] - p
    ok = q >= 0
    reader, p, row, q = reader[ok], p[ok], row[ok], q[ok]
    start = flat[offsets[row] + q]
    stop = flat[offsets[row] + np.minimum(q + lens[reader] - 1, sizes[row] - 1)]
    return reader, p, start, stop


def _ranks(counts: np.ndarray) -> np.ndarray:
    """0, 1, ..., c - 1 for each count c, concatenated."""
    total = int(counts.sum())
    return np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)


def windows(gapped: np.ndarray, rows: np.ndarray, added: Sequence[str]
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each read's window of alignment columns ``[lo, hi)`` around its place
    (:func:`placements`): :data:`WINDOW_MARGIN` and a quarter of the place's span on either
    side, on a grid of :data:`WINDOW_GRID` columns (reads share windows); ``placed`` is False
    for a read not placed, or whose window would cover half the alignment or more."""
    length = gapped.shape[1]
    first, last = placements(gapped, rows, added)
    spans = last - first + 1
    margin = WINDOW_MARGIN + spans // 4
    lo = np.maximum(first - margin, 0) // WINDOW_GRID * WINDOW_GRID
    hi = np.minimum(-(-(last + margin + 1) // WINDOW_GRID) * WINDOW_GRID, length)
    placed = (first >= 0) & (hi - lo <= length // 2)
    return lo, hi, placed


class WindowScores:
    """Local alignment scores of placed reads against the rows' residues in a window of
    columns around their place (:func:`placements`), the others against whole rows
    (``whole``, a :class:`LocalScores` of the same rows, whose engine both use): the same
    ``(len(added), len(rows))`` matrix where a read's best local alignment with each row
    lies in its window."""

    def __init__(self, gapped: np.ndarray, rows: np.ndarray, whole: LocalScores):
        self.gapped, self.rows, self.whole = gapped, rows, whole
        self.engine, self.encode = whole.engine, whole.encode

    def __call__(self, added: Sequence[str]) -> np.ndarray:
        lo, hi, placed = windows(self.gapped, self.rows, added)
        self.last = lo, hi, placed   # the reads' windows, for their DP too (Neighbours)
        scores = np.zeros((len(added), self.rows.size))
        rest = np.flatnonzero(~placed)
        if rest.size:
            scores[rest] = self.whole([added[i] for i in rest])
        idx = np.flatnonzero(placed)
        if not idx.size:
            return scores
        boxes, which = np.unique(np.stack([lo[idx], hi[idx]], axis=1), axis=0,
                                   return_inverse=True)
        pieces = [self.gapped[r, a:b] for a, b in boxes for r in self.rows]
        texts = [piece[piece != GAP].tobytes().decode("latin-1") for piece in pieces]
        m = self.rows.size
        codes = self.encode(texts) + self.encode([added[i] for i in idx])
        reads = np.repeat(len(texts) + np.arange(idx.size), m)
        subjects = (np.repeat(which.ravel(), m) * m + np.tile(np.arange(m), idx.size))
        filled = np.array([len(t) for t in texts])[subjects] > 0
        got = np.zeros(reads.size)
        for a in range(0, reads.size, PAIRS_PER_CALL):
            b = min(a + PAIRS_PER_CALL, reads.size)
            keep = np.flatnonzero(filled[a:b]) + a
            if keep.size:
                got[keep] = np.asarray(self.engine.score_indexed(codes, reads[keep],
                                                                 subjects[keep]), np.float64)
        scores[idx] = got.reshape(idx.size, m)
        log.debug("fragments: %d of %d placed by k-mers, %d windows", idx.size, len(added),
                  len(boxes))
        return scores


class Neighbours:
    """Each added sequence's row weights, a chunk of sequences at a time (its
    :class:`LocalScores` with at most :data:`NEIGHBOUR_ROWS` rows, in windows
    (:class:`WindowScores`) for nucleotides when the alignment's ``gapped`` rows are given,
    then :func:`neighbour_weights`); a one-row alignment (a reference genome) weighs its
    row 1 without scores."""

    def __init__(self, rows_texts: Sequence[str], added: Sequence[str], nucleotide: bool,
                 device=None, gapped: np.ndarray | None = None):
        self.n, self.added = len(rows_texts), added
        full = np.flatnonzero([len(t) > 0 for t in rows_texts])
        if full.size > NEIGHBOUR_ROWS:
            full = full[np.linspace(0, full.size - 1, NEIGHBOUR_ROWS).round().astype(np.int64)]
            log.info("fragments weigh %d of the alignment's %d rows (spread evenly)",
                     full.size, self.n)
        self.rows, self.gapped = full, gapped
        self.scores = (LocalScores([rows_texts[i] for i in full], nucleotide, device)
                       if self.n > 1 else None)
        # nucleotide reads on a CPU device: scored, and aligned, in windows around where their
        # k-mers place them. Not on a GPU, where whole rows cost less than the placing (an
        # H200: 4,096 reads against 32 rows of 5 kb 0.10 s, in windows 0.93 s)
        self.windowed = (nucleotide and gapped is not None and full.size > 0
                         and not get_runtime(device).is_gpu)
        if self.scores is not None and self.windowed:
            self.scores = WindowScores(gapped, full, self.scores)
        #: ``(lo, hi, placed)`` of the last chunk's reads (:func:`windows`), or None
        self.windows: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def __call__(self, start: int, end: int) -> np.ndarray:
        """``(end - start, n)`` float32 weights of added sequences ``start:end``."""
        out = np.zeros((end - start, self.n), dtype=np.float32)
        if self.scores is None:
            out[:] = 1.0
        else:
            scores = self.scores(self.added[start:end])
            out[:, self.rows] = neighbour_weights(scores, NEIGHBOUR_SHARPNESS)
        if isinstance(self.scores, WindowScores):
            self.windows = self.scores.last
        elif self.windowed:   # one row (a reference): placed for the DP alone
            self.windows = windows(self.gapped, self.rows, self.added[start:end])
        return out


def neighbour_weights(scores: np.ndarray, sharpness: float) -> np.ndarray:
    """Row weights of each added sequence's profile: ``exp(sharpness * sqrt(n) * (s -
    s_max))`` of its scores with the ``n`` rows, normalised to sum 1 (uniform where every
    score is 0)."""
    s = np.asarray(scores, np.float64)
    lam = sharpness * np.sqrt(s.shape[1]) if s.ndim == 2 else sharpness
    w = np.exp(lam * (s - s.max(axis=1, keepdims=True))) if s.size else s
    return w / w.sum(axis=1, keepdims=True) if s.size else s


def fragment_moves(engine, cells: np.ndarray, bits: np.ndarray, weigh,
                   codes: list[np.ndarray], progress: Progress) -> list[np.ndarray]:
    """The moves of every new sequence against its own weighting of the alignment.

    Parameters
    ----------
    engine : ProfileEngine
        Its gap scores are the ones used (free end gaps for fragments).
    cells, bits : numpy.ndarray
        The alignment's rows as :meth:`ProfileEngine.add_weighted_profiles` takes them.
    weigh : callable
        ``weigh(start, end)``: the ``(end - start, n)`` row weights of new sequences
        ``start:end`` (a :class:`Neighbours`).
    codes : list of numpy.ndarray
        Each new sequence's letter codes.

    Returns
    -------
    leads : numpy.ndarray
        Per sequence, the alignment's columns before its first residue.
    moves : list of numpy.ndarray
        Per sequence, one move per column of its pairwise alignment with its profile from its
        first residue to its last (:func:`trimmed`): 0 both, 1 profile only (a gap in the
        sequence), 2 sequence only (an insertion).
    """
    leads: list[np.ndarray] = []
    out: list[np.ndarray] = []
    progress.report("fragments", 0, len(codes))
    for start, end in fragment_calls(engine, cells.shape[1], codes):
        weights = weigh(start, end)
        # residue-specific gap factors read the columns around each one: whole rows then
        spans = getattr(weigh, "windows", None) if not engine.residue else None
        lead, cores = _chunk_moves(engine, cells, bits, weights, codes[start:end], spans)
        leads.append(lead)
        out.extend(cores)
        progress.report("fragments", len(out), len(codes))
    return np.concatenate(leads) if leads else np.zeros(0, np.int64), out


def _chunk_moves(engine, cells: np.ndarray, bits: np.ndarray, weights: np.ndarray,
                 codes: Sequence[np.ndarray], spans) -> tuple[np.ndarray, list[np.ndarray]]:
    """One engine call's reads: each against its profile of the whole alignment, or of its
    window (``spans``: :func:`windows`' ``(lo, hi, placed)``; on PoCL the DP over 5 kb took
    62 of 80 s for 3,000 reads of 150 nt). Free end gaps make an alignment inside a window
    score as it does in the whole; a read whose alignment reaches its window's edge (it may
    go on beyond) is aligned again against the whole."""
    n, length = len(codes), cells.shape[1]
    lo, hi = np.zeros(n, np.int64), np.full(n, length, np.int64)
    if spans is not None:
        placed = spans[2]
        lo[placed], hi[placed] = spans[0][placed], spans[1][placed]
    lead, cores = _aligned(engine, cells, bits, weights, codes, lo, hi)
    used = np.fromiter(((c != 2).sum() for c in cores), dtype=np.int64, count=n)
    # at the window's first column, or through its last, the alignment may go on outside
    redo = np.flatnonzero(((lead == 0) & (lo > 0)) | ((lead + used >= hi - lo) & (hi < length)))
    if redo.size:
        log.debug("fragments: %d of %d reads reach their window's edge: aligned whole",
                  redo.size, n)
        again, cores_again = _aligned(engine, cells, bits, weights[redo],
                                      [codes[i] for i in redo], np.zeros(redo.size, np.int64),
                                      np.full(redo.size, length, np.int64))
        lead[redo] = again
        for i, core in zip(redo, cores_again, strict=True):
            cores[i] = core
        lo[redo] = 0
    return lead + lo, cores


def _aligned(engine, cells, bits, weights, codes, lo, hi) -> tuple[np.ndarray, list]:
    """Each read against its weighted profile of columns ``lo:hi``: its leading columns
    (in the profile) and moves (:func:`trimmed`)."""
    profiles = np.zeros(len(codes), dtype=np.int64)
    pairs = np.stack([lo, hi], axis=1)
    for a, b in np.unique(pairs, axis=0):   # reads of one window: one profile launch
        members = np.flatnonzero((lo == a) & (hi == b))
        profiles[members] = engine.add_weighted_profiles(cells[:, a:b], bits[:, a:b],
                                                         weights[members])
    sequences = engine.add_sequences(list(codes), np.ones(len(codes)))
    nodes = [int(p) for p in profiles]
    lead, cores = trimmed([moves for _, moves in engine.align(
        list(zip(nodes, sequences, strict=True)), merge=False)])
    engine.release(nodes + sequences)
    return lead, cores


def trimmed(moves: Sequence[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Each fragment's moves without the alignment's columns before its first residue and
    after its last (moves 1 there: its end gaps), and how many columns were cut in front.

    A read of 150 letters against a 5 kb alignment has over 5,000 moves: laid out whole,
    100,000 reads took 33 s of a 49 s call on an H200 host, in 4 GB temporaries.
    """
    if not len(moves):
        return np.zeros(0, dtype=np.int64), []
    sizes = np.fromiter((len(v) for v in moves), dtype=np.int64, count=len(moves))
    flat = np.concatenate(moves)
    ends = np.cumsum(sizes)
    starts = ends - sizes
    residues = np.flatnonzero(flat != 1)
    lo, hi = np.searchsorted(residues, starts), np.searchsorted(residues, ends)
    has = lo < hi                     # a fragment with no residue keeps no move
    first = np.where(has, residues[np.minimum(lo, residues.size - 1)], starts)
    last = np.where(has, residues[np.maximum(hi - 1, 0)] + 1, starts)
    # copies, so that the chunk's full moves are freed (a mask by cumulative sums over them
    # took 0.3-1 s a chunk of 4,096 reads)
    return first - starts, [flat[a:b].copy() for a, b in zip(first.tolist(), last.tolist(),
                                                             strict=True)]


def fragment_calls(engine, length: int, codes: Sequence[np.ndarray]) -> list[tuple[int, int]]:
    """``[start, end)`` runs of the fragments for one engine call each: at most
    :data:`FRAGMENTS_PER_CALL`, their pool columns (a profile of ``length`` columns and the
    fragment's own) within :data:`PROFILES_SHARE` of the device's memory and one buffer."""
    rt = engine.rt
    budget = min(rt.max_alloc, rt.memory_budget(PROFILES_SHARE)) // engine.col_bytes
    runs = budget_batches([length + c.size for c in codes], budget)
    return [(lo, min(lo + FRAGMENTS_PER_CALL, end)) for begin, end in runs
            for lo in range(begin, end, FRAGMENTS_PER_CALL)]


def fragment_rows(rows: np.ndarray, moves: Sequence[np.ndarray], texts: Sequence[str],
                  leads: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The alignment's rows and every fragment's, laid out together.

    Parameters
    ----------
    rows : numpy.ndarray
        ``(n, L)`` uint8 rows of the existing alignment.
    moves : sequence of numpy.ndarray
        Per fragment, its moves against the alignment (:func:`fragment_moves`).
    texts : sequence of str
        The fragments' letters, as given.
    leads : numpy.ndarray, optional
        Per fragment, the alignment's columns before its first move (default none): moves
        may start there and end before the last column (:func:`trimmed`).

    Returns
    -------
    out : numpy.ndarray
        ``(n + len(texts), W)`` uint8 rows: the alignment's ``L`` columns in order, with before
        each (and after the last) a block of insert columns as wide as the longest insertion
        of any fragment there; a fragment's inserted letters are left-justified in the block.
    inserted : numpy.ndarray
        ``(W,)`` bool, True for the insert columns.
    columns : numpy.ndarray
        The column in ``out`` of every fragment letter, fragment after fragment.
    """
    n, length = rows.shape
    sizes = np.fromiter((len(v) for v in moves), dtype=np.int64, count=len(moves))
    m = np.concatenate(moves) if len(moves) else np.zeros(0, np.uint8)
    owner = np.repeat(np.arange(len(moves)), sizes)
    firsts = np.cumsum(sizes) - sizes
    # the alignment's columns passed before each move, counted within its own fragment
    old = (m != 2).astype(np.int64)
    before = np.cumsum(old) - old
    before -= before[firsts[owner]]
    if leads is not None:
        before += np.asarray(leads, dtype=np.int64)[owner]
    # an insertion's rank in its run: a run starts after a column of the alignment, or at
    # the fragment's first move (positions only grow, so the running maximum is the latest)
    insert = m == 2
    index = np.arange(m.size)
    start = np.where(insert, 0, index + 1)
    firsts = firsts[sizes > 0]        # a fragment without moves starts no run
    start[firsts] = np.maximum(start[firsts], firsts)
    rank = index - np.maximum.accumulate(start) if m.size else index
    width = np.zeros(length + 1, dtype=np.int64)
    np.maximum.at(width, before[insert], rank[insert] + 1)
    shift = np.cumsum(width) - width                 # insert columns before each block
    old_pos = np.arange(length + 1) + shift + width  # the last one: past the end
    total = length + int(width.sum())
    out = np.full((n + len(moves), total), GAP, dtype=np.uint8)
    out[:n, old_pos[:length]] = rows
    pos = np.where(insert, before + shift[before] + rank, old_pos[before])
    residue = m != 1
    letters = np.frombuffer("".join(texts).encode("latin-1"), dtype=np.uint8)
    out[n + owner[residue], pos[residue]] = letters
    inserted = np.ones(total, dtype=bool)
    inserted[old_pos[:length]] = False
    return out, inserted, pos[residue]


def finish(plain: list[SeqRecord], out: np.ndarray, n_old: int, inserted: np.ndarray,
           keep_length: bool, columns: np.ndarray | None = None
           ) -> tuple[list[SeqRecord], np.ndarray, dict[str, np.ndarray], np.ndarray | None]:
    """The rows to build the result from, and where each added residue went.

    Parameters
    ----------
    plain : list of SeqRecord
        Ungapped records: the alignment's ``n_old``, then the added ones.
    out : numpy.ndarray
        All rows laid out together; ``inserted`` marks the columns the added sequences made.
    keep_length : bool
        Drop the inserted columns, and with them the added residues in them.
    columns : numpy.ndarray, optional
        The column in ``out`` of every added residue, row after row (:func:`fragment_rows`
        gives them); found in ``out`` otherwise.

    Returns
    -------
    records : list of SeqRecord
        ``plain``, with the added records cut to their kept residues under ``keep_length``.
    rows : numpy.ndarray
        The rows, columns of gaps only removed (an Alignment cannot hold them).
    residue_columns : dict
        Per added id, each residue's column in ``rows`` (0-based), -1 where it was deleted.
    given_columns : numpy.ndarray or None
        With ``keep_length``, the given alignment's column (0-based) of each column of
        ``rows``.
    """
    keep = ~inserted if keep_length else np.ones(out.shape[1], dtype=bool)
    if columns is None:   # every added residue at once (np.nonzero walks the rows in order)
        rows, cols = np.nonzero(out[n_old:] != GAP)
        sizes = np.bincount(rows, minlength=len(plain) - n_old)
    else:                 # 100,000 reads: (k, 5,300) uint8 rows compared twice took 1-2 s
        cols = np.asarray(columns, dtype=np.int64)
        sizes = np.fromiter((len(r) for r in plain[n_old:]), dtype=np.int64,
                            count=len(plain) - n_old)
        rows = np.repeat(np.arange(sizes.size), sizes)
    filled = (out[:n_old] != GAP).any(axis=0)
    filled[cols] = True
    empty = int((keep & ~filled).sum())
    if keep_length and empty:   # the length asked for is not the one given back: say so
        log.warning("keeping the length: %d columns of the alignment hold gaps only and are "
                    "not in the result (an Alignment cannot hold them): %d columns, not %d "
                    "(bioplug profile --keep-length keeps them in FASTA, Clustal, Stockholm, "
                    "PHYLIP, A2M and A3M files)", empty, int(keep.sum()) - empty,
                    int(keep.sum()))
    keep &= filled
    given_columns = (np.cumsum(~inserted) - 1)[keep] if keep_length else None
    column = np.cumsum(keep) - 1
    kept = keep[cols]
    places = np.split(np.where(kept, column[cols], -1), np.cumsum(sizes)[:-1]) if sizes.size \
        else []
    mapping = {rec.id: place for rec, place in zip(plain[n_old:], places, strict=True)}
    records = list(plain[:n_old]) + list(plain[n_old:])
    lost = np.bincount(rows[~kept], minlength=len(plain) - n_old)
    deleted, cut = int(lost.sum()), int((lost > 0).sum())
    for i in np.flatnonzero(lost):   # only the sequences keep_length cut are rebuilt
        rec, row = plain[n_old + i], out[n_old + i]
        letters = row[(row != GAP) & keep]
        records[n_old + i] = SeqRecord(Seq(letters.tobytes().decode("latin-1")), id=rec.id,
                                       name=rec.name, description=rec.description)
    if deleted:
        log.warning("keeping the length: %d residues of %d added sequences lay in insertions "
                    "and were deleted (the map of --map-out, or residue_columns, says which)",
                    deleted, cut)
    return records, out if keep.all() else out[:, keep], mapping, given_columns


def with_empty_columns(rows: np.ndarray, given_columns: np.ndarray, length: int) -> np.ndarray:
    """A keep-length result's rows at the given alignment's ``length``: each column at its
    place among the given ones (``given_columns``), the columns of gaps only put back."""
    full = np.full((rows.shape[0], length), GAP, dtype=np.uint8)
    full[:, given_columns] = rows
    return full


def map_text(records: Sequence[SeqRecord], residue_columns: dict[str, np.ndarray]) -> str:
    """Where each added residue went, in the layout of ``mafft --mapout``: per sequence its
    title line (``>id description``), a comment line, then ``letter, position in the
    sequence, column`` (1-based; ``-`` for a residue deleted by ``keep_length``)."""
    lines: list[str] = []
    for rec in records:
        if rec.id not in residue_columns:
            continue
        lines += [f">{rec.id} {description_after_id(rec)}".rstrip(),
                  "# letter, position in the original sequence, position in the alignment"]
        columns = residue_columns[rec.id]
        lines += [f"{c}, {p}, {col + 1 if col >= 0 else '-'}"
                  for p, (c, col) in enumerate(zip(str(rec.seq), columns, strict=True), 1)]
    return "\n".join(lines) + ("\n" if lines else "")

