"""Exact Smith-Waterman database search: every query against every database sequence.

Pipeline of :func:`search` (issue 16):

1. The database is encoded once, sorted by length and cached beside its FASTA file
   (:mod:`bioplug.pairwise.database`); it is streamed to the device in chunks of whole
   sequences (``chunk_residues``), each uploaded once for all queries.
2. Every (query, database sequence) local score comes from the query-profile scan kernels
   (:class:`~bioplug.pairwise.scan.Scanner`, ``kernels/pairwise_search.cl``: packed 16-bit
   arithmetic, the query's strip profile in local memory, the subjects sorted by length):
   ``search16`` gives a work-item each pair, except the pairs of more than
   :data:`~bioplug.pairwise.scan.LONG_PAIR_CELLS` cells (decided per query and subject),
   which ``search16_long`` scores with a work-group each, all in one launch. Any pair whose
   16-bit score reaches ``LIMIT16`` is rescored exactly by the 32-bit kernels of
   :class:`~bioplug.pairwise.engine.PairwiseEngine`.
3. The ``top`` hits of each query are kept across chunks, ordered by score (descending),
   then database number (ascending): the order is total, so results do not depend on chunks.
4. Only the hits are traced back (:meth:`PairwiseEngine.trace_indexed`, every hit on a
   work-group of its own, all in one launch: :data:`HIT_GROUP_CELLS`), giving identity,
   mismatches, gap openings, coordinates and coverage.
5. Bit scores and E-values follow Karlin-Altschul statistics with the gapped ``lambda`` and
   ``K`` that NCBI BLAST publishes for the matrix and gap costs (:data:`KARLIN_ALTSCHUL`):
   ``bits = (lambda * S - ln K) / ln 2`` and ``E = m * n * 2**-bits`` with ``m`` the query
   length and ``n`` the database size in residues, as SSEARCH reports them (no BLAST
   length adjustment).

Scores are Biopython's: ``PairwiseAligner(mode="local")`` with the same matrix and gap scores
gives ``aligner.score(query, subject)`` equal to every hit's score. BLAST's gap costs
``open`` / ``extend`` (a gap of length k costs ``open + k * extend``) are Biopython's
``open_gap_score = -(open + extend)`` and ``extend_gap_score = -extend``.
"""

from __future__ import annotations

import logging
import math
import os
import time
from dataclasses import dataclass, field

import numpy as np

from bioplug.alphabet import Scoring, load_matrix, make_scoring
from bioplug.errors import InputError
from bioplug.pairwise.database import Database, check_distinct_ids, open_database
from bioplug.pairwise.engine import PairwiseEngine
from bioplug.pairwise.fasta import encode_bytes, fasta_records
from bioplug.pairwise.scan import Scanner, scan_devices
from bioplug.progress import Progress
from bioplug.runtime import get_runtimes

log = logging.getLogger(__name__)

#: Gapped Karlin-Altschul parameters (lambda, K) by matrix and BLAST gap costs
#: (existence, extension), from NCBI BLAST's ``blast_stat.c`` tables
#: (``blosum62_values``, ``blosum50_values``, ...; columns 4 and 5).
KARLIN_ALTSCHUL: dict[tuple[str, int, int], tuple[float, float]] = {
    ("BLOSUM62", 11, 2): (0.297, 0.082), ("BLOSUM62", 10, 2): (0.291, 0.075),
    ("BLOSUM62", 9, 2): (0.279, 0.058), ("BLOSUM62", 8, 2): (0.264, 0.045),
    ("BLOSUM62", 7, 2): (0.239, 0.027), ("BLOSUM62", 6, 2): (0.201, 0.012),
    ("BLOSUM62", 13, 1): (0.292, 0.071), ("BLOSUM62", 12, 1): (0.283, 0.059),
    ("BLOSUM62", 11, 1): (0.267, 0.041), ("BLOSUM62", 10, 1): (0.243, 0.024),
    ("BLOSUM62", 9, 1): (0.206, 0.010),
    ("BLOSUM50", 15, 2): (0.210, 0.058), ("BLOSUM50", 14, 2): (0.202, 0.045),
    ("BLOSUM50", 13, 2): (0.193, 0.035), ("BLOSUM50", 12, 2): (0.181, 0.025),
    ("BLOSUM50", 19, 1): (0.212, 0.057), ("BLOSUM50", 18, 1): (0.207, 0.050),
    ("BLOSUM50", 17, 1): (0.198, 0.037), ("BLOSUM50", 16, 1): (0.186, 0.025),
    ("BLOSUM50", 15, 1): (0.171, 0.015),
}
#: Hits of more cells are traced on a work-group each (``fill_wavefront_groups``, all in one
#: launch): a search has a few hundred hits of up to millions of cells each, which one
#: work-item apiece would trace while the rest of the device idles.
HIT_GROUP_CELLS = 0


@dataclass
class Hit:
    """One database hit of one query (BLAST tabular fields; positions 1-based, inclusive)."""

    query: int
    subject: int
    query_id: str
    subject_id: str
    score: float
    bits: float
    evalue: float
    identity: float = 0.0
    length: int = 0
    mismatches: int = 0
    gap_opens: int = 0
    qstart: int = 0
    qend: int = 0
    sstart: int = 0
    send: int = 0
    coverage: float = 0.0
    #: Residues of the whole database sequence (SAM's ``@SQ LN``).
    subject_length: int = 0
    coordinates: np.ndarray | None = field(default=None, repr=False)

    def tabular(self) -> str:
        """The BLAST outfmt 6 line (qseqid sseqid pident length mismatch gapopen qstart qend
        sstart send evalue bitscore)."""
        return "\t".join([self.query_id, self.subject_id, f"{self.identity:.3f}",
                          str(self.length), str(self.mismatches), str(self.gap_opens),
                          str(self.qstart), str(self.qend), str(self.sstart), str(self.send),
                          _format_evalue(self.evalue), _format_bits(self.bits)])


@dataclass
class SearchResults:
    """Hits per query, best first; ``hits[q]`` belongs to query ``q``."""

    query_ids: list[str]
    hits: list[list[Hit]]
    cells: float = 0.0
    #: Wall seconds of the stages ("index", "scan", "traceback") and, as "scan: ..." keys,
    #: the scan's parts (kernel times from profiling events, the 32-bit rescue, the host's
    #: database upload and top-hit selection).
    seconds: dict = field(default_factory=dict)

    def __iter__(self):
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def tabular(self) -> str:
        """Every hit as BLAST outfmt 6 lines."""
        return "".join(h.tabular() + "\n" for hits in self.hits for h in hits)


def _format_evalue(e: float) -> str:
    if math.isnan(e):
        return "NA"
    return f"{e:.2e}" if e < 1e-3 or e >= 1e4 else f"{e:.3g}"


def _format_bits(b: float) -> str:
    return "NA" if math.isnan(b) else f"{b:.1f}"


# -- statistics -------------------------------------------------------------------------------
def karlin_altschul(matrix_name: str | None, gap_open: int, gap_extend: int):
    """BLAST's gapped (lambda, K) for a matrix and gap costs, or None when not tabulated."""
    if matrix_name is None:
        return None
    return KARLIN_ALTSCHUL.get((matrix_name.upper(), int(gap_open), int(gap_extend)))


def bit_scores(scores, lam: float, k: float) -> np.ndarray:
    """``(lambda * S - ln K) / ln 2``."""
    return (lam * np.asarray(scores, dtype=np.float64) - math.log(k)) / math.log(2)


def evalues(bits, query_length, db_residues: int) -> np.ndarray:
    """``m * n * 2**-bits`` (``query_length`` a number or one per bit score)."""
    m = np.asarray(query_length, dtype=np.float64)
    return m * float(db_residues) * np.exp2(-np.asarray(bits, np.float64))


# -- the front door ---------------------------------------------------------------------------
def search(queries, database, *, aligner=None, matrix: str = "BLOSUM62", gap_open: int = 11,
           gap_extend: int = 1, karlin: tuple[float, float] | None = None, top: int = 10,
           device=None, chunk_residues: int | None = None, progress=None,
           precision: str | None = None) -> SearchResults:
    """Search every query against every database sequence with exact local alignment.

    Parameters
    ----------
    queries : path-like or sequence of str / Seq / SeqRecord
        A FASTA file or the query sequences.
    database : path-like, Database or sequence of str / Seq / SeqRecord
        A FASTA file (indexed beside itself on first use), an opened
        :class:`~bioplug.pairwise.database.Database`, or sequences.
    aligner : Bio.Align.PairwiseAligner, optional
        Scoring from a local-mode aligner (matrix and gap scores); overrides ``matrix``,
        ``gap_open`` and ``gap_extend``.
    matrix : str
        Substitution matrix name (default BLOSUM62).
    gap_open, gap_extend : int
        BLAST gap costs: a gap of length k costs ``gap_open + k * gap_extend`` (default
        11 and 1).
    karlin : (float, float), optional
        Karlin-Altschul ``(lambda, K)``; default BLAST's table (:data:`KARLIN_ALTSCHUL`). Without
        an entry, bit scores and E-values are NaN.
    top : int
        Hits kept per query (score descending, then database number ascending); hits with
        no positive score are never reported.
    device : device specification, list of them, or "all", optional
        See :func:`bioplug.runtime.get_runtimes`; with several devices the database's chunks
        are shared among them (the hits are the same).
    chunk_residues : int, optional
        Residues per device chunk of the database (default: from the device's memory).
    progress : callable, optional
        ``progress(stage, done, total)``; returning False cancels.
    precision : {"auto", "8", "16"}, optional
        The scan's first pass (see :class:`~bioplug.pairwise.scan.Scanner`); default
        :data:`~bioplug.pairwise.scan.DEFAULT_PRECISION`.
        Scores are exact with any of them.

    Returns
    -------
    SearchResults

    Raises
    ------
    InputError
        Bad letters or empty records (naming the record, position and letter), two queries
        or two database sequences with the same id (naming it and both record numbers),
        ``top`` below 1 or scores the device cannot reproduce exactly.
    """
    if top < 1:
        raise InputError(f"top must be at least 1, not {top}")
    if chunk_residues is not None and chunk_residues < 1:
        raise InputError(f"chunk_residues must be at least 1, not {chunk_residues}")
    scoring, stats = _scheme(aligner, matrix, gap_open, gap_extend, karlin)
    runtimes = get_runtimes(device)
    start = time.perf_counter()
    clock = {}
    qids, qcodes = _as_queries(queries, scoring)
    # tabular and SAM lines name hits by id: a repeated id would make two records one
    check_distinct_ids(qids, "query", _source(queries, "the queries"))
    db = _as_database(database, scoring)
    if not isinstance(database, (str, os.PathLike)):   # an index checked its FASTA once
        check_distinct_ids(db.ids, "database", _source(database, "the database sequences"))
    clock["index"] = time.perf_counter() - start
    progress = progress if isinstance(progress, Progress) else Progress(progress)
    scanners = [Scanner(rt, scoring, precision=precision) for rt in runtimes]
    best = scan_devices(scanners, qcodes, db, top, chunk_residues, progress)
    clock["scan"] = time.perf_counter() - start - clock["index"]
    for scanner in scanners:   # kernel seconds summed over the devices
        for name, value in scanner.timings.items():
            clock[f"scan: {name}"] = clock.get(f"scan: {name}", 0.0) + value
    hits = _trace_hits(scanners[0].engine, qids, qcodes, db, best, stats)
    clock["traceback"] = time.perf_counter() - start - clock["index"] - clock["scan"]
    cells = float(sum(len(q) for q in qcodes)) * db.residues
    return SearchResults(qids, hits, cells, clock)


def _scheme(aligner, matrix, gap_open, gap_extend, karlin):
    """The device scoring and (lambda, K) or None."""
    if aligner is not None:
        if aligner.mode != "local":
            raise InputError(f"database search needs a local aligner, not mode {aligner.mode!r}")
        from bioplug.pairwise.aligner import PairwiseAligner

        front = aligner if isinstance(aligner, PairwiseAligner) else None
        if front is None:
            front = PairwiseAligner()
            front.__setstate__(aligner.__getstate__())
        scoring = front.device_scoring([])
        if scoring is None or aligner.substitution_matrix is None:
            raise InputError("database search needs a substitution matrix with scores the "
                             "device can reproduce exactly")
        name = _matrix_name(aligner.substitution_matrix)
        op, ex = -float(aligner.open_gap_score), -float(aligner.extend_gap_score)
        table = karlin_altschul(name, round(op - ex), round(ex)) if op.is_integer() else None
    else:
        if gap_open < 0 or gap_extend < 0:
            raise InputError("gap_open and gap_extend are costs (BLAST's convention): >= 0")
        gaps = [-(gap_open + gap_extend), -gap_extend] * 6
        scoring = make_scoring(matrix=load_matrix(matrix), gaps=gaps, local=True)
        if scoring is None:
            raise InputError(f"matrix {matrix} with these gap costs cannot run exactly")
        table = karlin_altschul(matrix, gap_open, gap_extend)
    stats = karlin if karlin is not None else table
    if stats is None:
        log.warning("no Karlin-Altschul parameters for this scoring: E-values are NA "
                    "(pass karlin=(lambda, K))")
    return scoring, stats


def _matrix_name(matrix) -> str | None:
    """The name of a table matrix equal to ``matrix``, if any."""
    for name in {k[0] for k in KARLIN_ALTSCHUL}:
        ref = load_matrix(name)
        if (tuple(ref.alphabet) == tuple(matrix.alphabet)
                and np.array_equal(np.asarray(ref), np.asarray(matrix))):
            return name
    return None


def _as_database(database, scoring: Scoring) -> Database:
    if isinstance(database, Database):
        return database
    if isinstance(database, (str, os.PathLike)):
        return open_database(database, scoring)
    ids, codes = _encode_items(database, scoring, "database sequence")
    return Database.from_sequences(codes, ids)


def _as_queries(queries, scoring: Scoring) -> tuple[list[str], list[np.ndarray]]:
    if isinstance(queries, (str, os.PathLike)):
        ids, codes = [], []
        for number, (name, raw, line) in enumerate(fasta_records(queries), 1):
            ids.append(name)
            codes.append(encode_bytes(scoring, raw, f"{queries}: record {number} ({name!r}, "
                                                    f"line {line})"))
        if not ids:
            raise InputError(f"{queries}: no FASTA records")
        return ids, codes
    return _encode_items(queries, scoring, "query")


def _encode_items(items, scoring: Scoring, what: str):
    from bioplug.io import sequence_name, sequence_text

    ids, codes = [], []
    for k, item in enumerate(items):
        name = sequence_name(item, k)
        text = sequence_text(item)
        ids.append(name)
        codes.append(encode_bytes(scoring, text.encode("latin-1", "replace"),
                                  f"{what} {k + 1} ({name!r})"))
    if not ids:
        raise InputError(f"no {what}s")
    return ids, codes


def _source(given, default: str) -> str:
    """How an error names where the sequences came from: the file, else ``default``."""
    if isinstance(given, Database):
        return given.source
    return str(given) if isinstance(given, (str, os.PathLike)) else default


# -- hits -------------------------------------------------------------------------------------
def _trace_hits(engine: PairwiseEngine, qids, qcodes, db: Database, best, stats):
    """Trace back the hits and fill in their statistics."""
    pairs = [(q, int(k), int(s)) for q, (ss, kk) in enumerate(best) for s, k in zip(ss, kk,
                                                                                   strict=True)]
    if not pairs:
        return [[] for _ in qcodes]
    q_of, k_of, scaled = (np.array(column, dtype=np.int64) for column in zip(*pairs,
                                                                              strict=True))
    subjects = np.unique(k_of)
    seqs = list(qcodes) + [db.sequence(int(k)) for k in subjects]
    engine.use_packed16 = True
    engine.long_cells = HIT_GROUP_CELLS
    try:
        traces = engine.trace_indexed(seqs, q_of,
                                      len(qcodes) + np.searchsorted(subjects, k_of))
    finally:
        engine.long_cells = None
    scale = engine.scoring.scale
    traced = np.rint(traces.scores * scale).astype(np.int64)
    wrong = np.flatnonzero(traced != scaled)
    if wrong.size:
        n = wrong[0]
        raise RuntimeError(f"scan score {scaled[n]} and traceback score {traced[n]} differ "
                           f"for query {q_of[n]} and database sequence {k_of[n]}")
    score = scaled / scale
    qlen = np.array([len(qcodes[q]) for q in q_of], dtype=np.float64)
    bits = bit_scores(score, *stats) if stats else np.full(len(pairs), math.nan)
    e = evalues(bits, qlen, db.residues) if stats else np.full(len(pairs), math.nan)
    hits: list[list[Hit]] = [[] for _ in qcodes]
    for n, (q, k, _) in enumerate(pairs):
        subject = seqs[len(qcodes) + int(np.searchsorted(subjects, k))]
        hit = Hit(q, k, qids[q], db.ids[k], float(score[n]), float(bits[n]), float(e[n]),
                  subject_length=len(subject))
        _fill_alignment(hit, traces.coordinates(n), qcodes[q], subject)
        hits[q].append(hit)
    return hits


def _fill_alignment(hit: Hit, coords: np.ndarray, query: np.ndarray, subject: np.ndarray):
    """Identity, length, mismatches, gap openings, 1-based ends and coverage from a path."""
    hit.coordinates = coords
    matches = aligned = gaps = opens = 0
    for c in range(coords.shape[1] - 1):
        (i0, j0), (i1, j1) = coords[:, c], coords[:, c + 1]
        if i1 > i0 and j1 > j0:
            aligned += i1 - i0
            matches += int(np.count_nonzero(query[i0:i1] == subject[j0:j1]))
        else:
            gaps += max(i1 - i0, j1 - j0)
            opens += 1
    hit.length = int(aligned + gaps)
    hit.identity = 100.0 * matches / hit.length if hit.length else 0.0
    hit.mismatches = int(aligned - matches)
    hit.gap_opens = opens
    hit.qstart, hit.qend = int(coords[0, 0]) + 1, int(coords[0, -1])
    hit.sstart, hit.send = int(coords[1, 0]) + 1, int(coords[1, -1])
    hit.coverage = 100.0 * (hit.qend - hit.qstart + 1) / len(query)


def as_alignment(hit: Hit, query_seq, subject_seq=None):
    """A hit as a ``Bio.Align.Alignment`` (subject first: the SAM reference).

    Parameters
    ----------
    hit : Hit
        A hit of :func:`search`.
    query_seq : str or Bio.Seq.Seq
        The whole query (a ``Seq(None, length=...)`` for a row printed without letters).
    subject_seq : str or Bio.Seq.Seq, optional
        The whole database sequence; default its length only (``hit.subject_length``):
        SAM does not print the reference's letters.

    Returns
    -------
    Bio.Align.Alignment
        With ``.score``.
    """
    from Bio.Align import Alignment
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    if subject_seq is None:
        subject_seq = Seq(None, length=hit.subject_length)
    rows = [SeqRecord(seq if isinstance(seq, Seq) else Seq(seq), id=name, description="")
            for seq, name in ((subject_seq, hit.subject_id), (query_seq, hit.query_id))]
    aln = Alignment(rows, hit.coordinates[::-1].copy())
    aln.score = hit.score
    return aln
