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
5. Bit scores and E-values are BLAST+'s (:mod:`bioplug.pairwise.karlin`): the gapped
   ``lambda`` and ``K`` NCBI BLAST publishes for the matrix and gap costs give ``bits =
   (lambda * S - ln K) / ln 2``; E-values carry Spouge's finite-size correction from the
   query's and the subject's lengths, as blastp computes them by default
   (:func:`~bioplug.pairwise.karlin.spouge_evalues`; blastp's own scores differ where its
   default composition-based matrix adjustment or SEG masking changes them), and the hits
   are then listed by E-value as BLAST+ lists them. ``old_fsc=True`` (``--old-fsc``; blastp
   with ``OLD_FSC`` set in its environment) gives ``E = (m - l) * (n - N * l) * 2**-bits``
   over BLAST+'s effective search space instead (``m`` the query length, ``n`` the database
   residues, ``N`` its sequences, ``l`` the length adjustment), and a user's own
   ``karlin=(lambda, K)`` gives ``m * n * 2**-bits``, as SSEARCH reports them.

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
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bioplug.alphabet import Scoring, is_nucleotide, load_matrix, make_scoring
from bioplug.errors import InputError
from bioplug.pairwise import blast_tab, strands
from bioplug.pairwise.blast_tab import COLUMNS, STD, check_columns
from bioplug.pairwise.database import Database, check_distinct_ids, open_database
from bioplug.pairwise.engine import PairwiseEngine, segment_sums
from bioplug.pairwise.fasta import encode_bytes, fasta_records, readable_again
from bioplug.pairwise.karlin import (
    KARLIN_ALTSCHUL,
    NCBI_MATRICES,
    Spouge,
    bit_scores,
    evalues,
    karlin_altschul,
    spouge,
    spouge_evalues,
    table_matrix,
)
from bioplug.pairwise.scan import Scanner, scan_devices
from bioplug.pairwise.statistics import MIN_SEQUENCES, ScoreCounts, log_evalues
from bioplug.progress import Progress
from bioplug.runtime import get_runtimes

log = logging.getLogger(__name__)

#: The matrix of :func:`search` and ``bioplug search`` when none is named.
DEFAULT_MATRIX = "BLOSUM62"
#: What nucleotide queries and database are told to use instead of a protein matrix: NUC.4.4
#: scores +5 / -4, for which BLASTN's gap costs are 10 / 6 (``blast_stat.c``,
#: ``blastn_values_5_4``).
NUCLEOTIDE_ADVICE = ("--matrix NUC.4.4 --gap-open 10 --gap-extend 6 (in Python: "
                     "matrix=\"NUC.4.4\", gap_open=10, gap_extend=6)")
#: Residues of each side that :func:`check_protein_scoring` reads.
SAMPLE_RESIDUES = 1 << 20
#: Hits of more cells are traced on a work-group each (``fill_wavefront_groups``, all in one
#: launch): a search has a few hundred hits of up to millions of cells each, which one
#: work-item apiece would trace while the rest of the device idles.
HIT_GROUP_CELLS = 0


@dataclass
class Hit:
    """One database hit of one query (BLAST+'s tabular fields; positions 1-based, inclusive).

    ``length`` counts the alignment's columns, gaps included; ``identity`` is the percentage
    of them with one letter in both rows; ``positives`` counts aligned pairs of positive
    substitution score and identical pairs (BLAST+ counts ``X``-``X``, ``N``-``N`` among
    them whatever their score, so ``ppos`` is never below ``pident``); ``gaps`` counts gap
    columns and ``gap_opens`` gap runs. ``qseq`` and ``sseq`` are the aligned rows (``-``
    for gaps; letters as the matrix names them, upper case).
    :mod:`bioplug.pairwise.blast_tab` writes any of them as a column.
    """

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
    query_length: int = 0
    nident: int = 0
    positives: int = 0
    gaps: int = 0
    qseq: str = field(default="", repr=False)
    sseq: str = field(default="", repr=False)
    #: "minus" for a nucleotide hit of the query's reverse complement (BLAST+'s ``sstrand``;
    #: see :mod:`bioplug.pairwise.strands`).
    strand: str = "plus"
    coordinates: np.ndarray | None = field(default=None, repr=False)

    def tabular(self, columns: Sequence[str] = STD) -> str:
        """The BLAST tabular line of ``columns`` (default outfmt 6's twelve: qseqid sseqid
        pident length mismatch gapopen qstart qend sstart send evalue bitscore; ``stitle``
        needs the results, :meth:`SearchResults.tabular`: here it is ``N/A``)."""
        return "\t".join(COLUMNS[c].text(self, {}) for c in check_columns(columns))


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
    #: Where the database's titles are: its index, or a title per sequence.
    titles_from: Database | list[str] | None = field(default=None, repr=False)
    #: Where the E-values came from: "table" (Karlin-Altschul parameters), "fit" (the
    #: search's own scores, :mod:`bioplug.pairwise.statistics`) or "none".
    statistics: str = "none"
    #: With "fit": each query's :class:`~bioplug.pairwise.statistics.Fit` (None where the
    #: database's scores could not be fitted).
    fits: list | None = field(default=None, repr=False)
    #: Each query's FASTA header line (BLAST+'s ``# Query:`` line); its id where unknown.
    query_titles: list[str] | None = field(default=None, repr=False)
    #: The database's name in reports (BLAST+'s ``# Database:`` line): its FASTA file's path
    #: where it was given one, else empty.
    database_name: str = ""
    #: The BLAST program whose output the tabular comments follow: "BLASTN" for a nucleotide
    #: scoring, "BLASTP" otherwise.
    program: str = "BLASTP"
    #: With "table": True when the E-values carry Spouge's finite-size correction (BLAST+'s
    #: default; the hits are then listed by E-value), False for ``old_fsc`` or a user's
    #: ``karlin``.
    finite_size_correction: bool = False

    def __iter__(self):
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def tabular(self, columns: Sequence[str] = STD, comments: bool = False,
                database: str = "") -> str:
        """Every hit as BLAST tabular lines (outfmt 6; with ``comments`` outfmt 7, naming
        ``database``, by default :attr:`database_name`) of ``columns`` (names, or one string
        of them: ``"std qlen"``): see :mod:`bioplug.pairwise.blast_tab`."""
        from bioplug import __version__

        return blast_tab.tabular(self, columns, comments, database or self.database_name,
                                 __version__)

    def subject_titles(self) -> dict[int, str]:
        """The header line (BLAST's ``stitle``) of every database sequence with a hit, by
        its database number (from the index of a FASTA database: hits' titles only)."""
        wanted = {h.subject for hits in self.hits for h in hits}
        if isinstance(self.titles_from, Database):
            return self.titles_from.title(wanted)
        if isinstance(self.titles_from, list):
            return {k: self.titles_from[k] for k in wanted}
        return dict.fromkeys(wanted, "")

    def report(self, database: str = "") -> str:
        """Each query's hits for reading, alignments as Biopython prints them (see
        :func:`bioplug.pairwise.blast_tab.report`); ``database`` by default
        :attr:`database_name`."""
        return blast_tab.report(self, database or self.database_name)

    def to_dataframe(self, columns: Sequence[str] = STD):
        """The hits as a ``pandas.DataFrame`` of ``columns``, typed as scikit-bio's
        ``blast+6`` reader types them (numbers as float, missing E-values as NaN)."""
        return blast_tab.dataframe(self, columns)


# -- the front door ---------------------------------------------------------------------------
def search(queries, database, *, aligner=None, matrix: str | None = None, gap_open: int = 11,
           gap_extend: int = 1, karlin: tuple[float, float] | None = None, top: int = 10,
           device=None, chunk_residues: int | None = None, progress=None,
           precision: str | None = None, evalue: float | None = None,
           statistics: str = "auto", strand: str = "auto", old_fsc: bool = False
           ) -> SearchResults:
    """Search every query against every database sequence with exact local alignment.

    Parameters
    ----------
    queries : path-like or sequence of str / Seq / SeqRecord
        A FASTA file (a named pipe or a shell's ``<(...)`` too: copied to a temporary file
        as it is read) or the query sequences.
    database : path-like, Database or sequence of str / Seq / SeqRecord
        A FASTA file (indexed beside itself on first use), an opened
        :class:`~bioplug.pairwise.database.Database`, or sequences.
    aligner : Bio.Align.PairwiseAligner, optional
        Scoring from a local-mode aligner (matrix and gap scores); overrides ``matrix``,
        ``gap_open`` and ``gap_extend``.
    matrix : str, optional
        Substitution matrix name (default :data:`DEFAULT_MATRIX`, BLOSUM62). Nucleotide
        queries and database with a protein matrix are refused when the matrix is the default
        (BLOSUM62 would score A, C, G and T as amino acids and report false hits, as BLAST+
        refuses such input), and searched with a warning when it was named (``matrix``, or an
        ``aligner``'s).
    gap_open, gap_extend : int
        BLAST gap costs: a gap of length k costs ``gap_open + k * gap_extend`` (default
        11 and 1).
    karlin : (float, float) or (float, float, float, float), optional
        Karlin-Altschul ``(lambda, K)``, or ``(lambda, K, alpha, beta)``; default BLAST's
        table (:data:`~bioplug.pairwise.karlin.KARLIN_ALTSCHUL`, with Spouge's correction
        unless ``old_fsc``). With alpha and beta, E-values use BLAST+'s effective search
        space (:func:`~bioplug.pairwise.karlin.length_adjustment`); a ``(lambda, K)`` alone
        gives ``m * n`` (query length times database residues, no length adjustment).
        Without an entry, bit scores and E-values are NaN.
    top : int
        Hits kept per query. With BLAST's table: the best by score (then database number),
        listed by E-value (then score, then database number; BLAST+ lists exact ties last
        database sequence first) as BLAST+ lists them, since
        Spouge's correction weighs the subject's length too (with ``old_fsc`` the two orders
        are one). With fitted statistics: the best by E-value, which weighs the subject's
        length. By score without E-values. Hits with no positive score are never
        reported.
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
    evalue : float, optional
        Report only hits of at most this E-value (BLAST's ``-evalue``), among the ``top`` of
        each query. Default: every one of them.
    statistics : {"auto", "table", "fit"}
        Where E-values come from: "table", BLAST's Karlin-Altschul parameters for the scoring
        (or ``karlin``); "fit", the search's own scores of every database sequence, as
        SSEARCH computes them (:mod:`bioplug.pairwise.statistics`; needs a database of at
        least :data:`~bioplug.pairwise.statistics.MIN_SEQUENCES` sequences: "fit" on a smaller
        one is refused, never replaced by the table); "auto" (default) the table where it has
        the scoring, else the fit (else no E-values, with a warning).
    strand : {"auto", "plus", "minus", "both"}
        Which strands of nucleotide queries to search (:mod:`bioplug.pairwise.strands`;
        BLASTN's ``-strand``): "auto" (default) both for a nucleotide scoring, the query as
        given for a protein one.
    old_fsc : bool
        With BLAST's table, E-values without Spouge's finite-size correction: the effective
        search space's, as blastp prints them with ``OLD_FSC`` set (default False: BLAST+'s
        default E-values).

    Returns
    -------
    SearchResults

    Raises
    ------
    InputError
        Bad letters or empty records (naming the record, position and letter), two queries
        or two database sequences with the same id (naming it and both record numbers),
        ``top`` below 1, a negative ``evalue`` or one without E-values to compare with,
        an unknown ``statistics``, "fit" on a database too small to fit, nucleotide
        sequences with the default (protein) matrix, or scores the device cannot reproduce
        exactly.
    """
    _check_arguments(top, evalue, chunk_residues, statistics)
    named = aligner is not None or matrix is not None   # the user chose this scoring
    matrix = matrix or DEFAULT_MATRIX
    scoring, stats = _scheme(aligner, matrix, gap_open, gap_extend, karlin, old_fsc)
    runtimes = get_runtimes(device)
    progress = progress if isinstance(progress, Progress) else Progress(progress)
    start = time.perf_counter()
    qids, qcodes, query_titles, db = _read_inputs(
        queries, database, scoring, matrix if aligner is None else "the aligner's matrix",
        named, progress)
    clock = {"index": time.perf_counter() - start}
    ids_s, codes_s, origin, which = strands.expand(qids, qcodes,
                                                   strands.chosen(strand, scoring), scoring)
    counts = _score_counts(statistics, stats, evalue, len(codes_s), db, scoring,
                           _no_table(aligner, matrix) if stats is None else "")
    scanners = [Scanner(rt, scoring, precision=precision) for rt in runtimes]
    best, stats = _scan_stage(scanners, codes_s, db, top, chunk_residues, progress, counts,
                              stats, (origin, which))
    clock["scan"] = time.perf_counter() - start - clock["index"]
    for scanner in scanners:   # kernel seconds summed over the devices
        for name, value in scanner.timings.items():
            clock[f"scan: {name}"] = clock.get(f"scan: {name}", 0.0) + value
    hits = _listed(strands.joined(_trace_hits(scanners[0].engine, ids_s, codes_s, db, best,
                                              stats), origin, which, len(qids)), stats, evalue)
    clock["traceback"] = time.perf_counter() - start - clock["index"] - clock["scan"]
    cells = float(sum(len(q) for q in codes_s)) * db.residues
    return _results(qids, hits, cells, clock, stats, query_titles, database, db, scoring)


def _read_inputs(queries, database, scoring: Scoring, matrix_name: str, named: bool,
                 progress: Progress):
    """(query ids, query codes, query titles, database) of a search, every id checked
    unique and the letters checked against the scoring's kind (protein or nucleotide); a
    database's index build reports to ``progress``."""
    with readable_again(queries) as readable:   # a pipe is copied: read twice here
        qids, qcodes = _as_queries(readable, scoring)
        query_titles = _query_titles(readable, qids)
    # tabular and SAM lines name hits by id: a repeated id would make two records one
    check_distinct_ids(qids, "query", _source(queries, "the queries"))
    db = _as_database(database, scoring, progress)
    if not isinstance(database, (str, os.PathLike)):   # an index checked its FASTA once
        check_distinct_ids(db.ids, "database", _source(database, "the database sequences"))
    check_protein_scoring(scoring, qcodes, db, matrix_name, named)
    return qids, qcodes, query_titles, db


def _scan_stage(scanners, codes_s, db: Database, top: int, chunk_residues, progress,
                counts, stats, strand_of):
    """Each searched strand's best hits from the devices' scan, chosen by E-value where the
    statistics are fitted to the scan's own scores (then the fits are the statistics), and
    each query's best over its strands."""
    best = scan_devices(scanners, codes_s, db, top, chunk_residues, progress, counts)
    keys = None
    if counts is not None:
        stats = counts.fits()
        best, keys = _by_evalue(counts, stats, len(db), top, best)
    return strands.best_of_strands(best, *strand_of, top, keys), stats


def _results(qids, hits, cells: float, clock: dict, stats, query_titles, database,
             db: Database, scoring: Scoring) -> SearchResults:
    """The :class:`SearchResults` of a search, saying where its E-values came from."""
    source = "none" if stats is None else "table" if isinstance(stats, tuple) else "fit"
    # one fit a query (its first strand's) in the results; each strand had its own
    stats = stats if source != "fit" else [stats[e] for e in range(len(qids))]
    log.info("E-values: %s", source)
    return SearchResults(qids, hits, cells, clock, titles_from=_titles(database, db),
                         statistics=source, fits=stats if source == "fit" else None,
                         query_titles=query_titles,
                         database_name=_database_name(database),
                         program="BLASTN" if strands.nucleotide(scoring) else "BLASTP",
                         finite_size_correction=isinstance(stats, Spouge))


def _listed(hits: list[list[Hit]], stats, evalue: float | None) -> list[list[Hit]]:
    """Each query's hits as reported: by E-value where Spouge's correction makes it weigh
    the subject's length (BLAST+'s order; else the scan's, by score, is already that), those
    of E-value at most ``evalue`` when it is given."""
    if isinstance(stats, Spouge):
        hits = [sorted(mine, key=lambda h: (h.evalue, -h.score, h.subject)) for mine in hits]
    if evalue is not None:
        hits = [[h for h in mine if h.evalue <= evalue] for mine in hits]
    return hits


def _by_evalue(counts: ScoreCounts, fits: list, sequences: int, top: int, best: list
               ) -> tuple[list, list | None]:
    """With fitted E-values, each query's ``top`` hits by E-value (which also weighs the
    subject's length), from every score the scan kept; else the scan's, by score."""
    ranked = counts.ranked(fits, sequences, top)
    if ranked is None:
        log.warning("hits are chosen and ordered by score: the search has too many scores "
                    "to keep for ranking them by fitted E-value")
        return best, None
    return [(s, n) for s, n, _ in ranked], [key for _, _, key in ranked]


def _check_arguments(top: int, evalue, chunk_residues, statistics: str) -> None:
    """Refuse values no search can use, before any work."""
    if top < 1:
        raise InputError(f"top must be at least 1, not {top}")
    if evalue is not None and not evalue >= 0:
        raise InputError(f"evalue must be 0 or more, not {evalue}")
    if chunk_residues is not None and chunk_residues < 1:
        raise InputError(f"chunk_residues must be at least 1, not {chunk_residues}")
    if statistics not in STATISTICS:
        raise InputError(f"statistics must be one of {', '.join(STATISTICS)}, not "
                         f"{statistics!r}")


#: Where E-values come from (:func:`search`'s ``statistics``).
STATISTICS = ("auto", "table", "fit")


def _score_counts(statistics: str, table, evalue, queries: int, db: Database,
                  scoring: Scoring, why_no_table: str) -> ScoreCounts | None:
    """The score counts a fit needs (None: the table's statistics, or none at all)."""
    fit = statistics == "fit" or (statistics == "auto" and table is None)
    if fit and len(db) >= MIN_SEQUENCES:
        return ScoreCounts(queries, db.lengths, scoring.scale)
    if statistics == "fit":
        # asked for by name: the table's E-values in its place would be read as fitted
        # ones (SSEARCH's), so the search stops before the scan
        raise InputError(f"statistics 'fit' (--statistics fit) fits E-values to the search's "
                         f"own scores, which needs a database of at least {MIN_SEQUENCES} "
                         f"sequences; {_named(db, '{}', 'the database')} has {len(db)}: "
                         "choose 'table' (BLAST's Karlin-Altschul parameters) or 'auto' (the "
                         "table where it has the scoring, else no E-values)")
    if fit:
        why = (f"the database has {len(db)} sequences; fitting E-values to the search's "
               f"own scores needs at least {MIN_SEQUENCES}")
        if table is None:
            why = f"no Karlin-Altschul parameters ({why_no_table}), and {why}"
    elif table is None:
        why = f"no Karlin-Altschul parameters ({why_no_table})"
    else:
        return None
    if evalue is not None:
        raise InputError(f"an E-value cutoff needs E-values: {why}")
    log.warning("E-values are N/A: %s", why)
    return None


def _scheme(aligner, matrix, gap_open, gap_extend, karlin, old_fsc: bool = False):
    """The device scoring and the statistics: the user's ``karlin``, else the table's
    :class:`~bioplug.pairwise.karlin.Spouge` (its ``(lambda, K, alpha, beta)`` alone with
    ``old_fsc``), or None."""
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
        name = table_matrix(aligner.substitution_matrix)
        op, ex = -float(aligner.open_gap_score), -float(aligner.extend_gap_score)
        costs = (round(op - ex), round(ex)) if op.is_integer() else None
    else:
        loaded = load_matrix(matrix)   # once, for the scoring and the table's row
        scoring = search_scoring(loaded, gap_open, gap_extend)
        name, costs = table_matrix(loaded), (gap_open, gap_extend)
    if karlin is not None:
        return scoring, karlin
    table = karlin_altschul(name, *costs) if costs else None
    if table is not None and not old_fsc:
        table = spouge(name, *costs) or table
    return scoring, table


def _database_name(database) -> str:
    """The database's FASTA path, as the CLI names it in reports; empty for sequences.

    A name whose bytes are not UTF-8 (an old archive's Latin-1) shows them escaped
    (``prot\\xe9ines.fa``): the reports are UTF-8 text.
    """
    if isinstance(database, (str, os.PathLike)):
        return printable_path(database)
    source = getattr(database, "source", "")   # an opened Database: its FASTA file
    return "" if not source or source.startswith("<") else printable_path(source)


def printable_path(path) -> str:
    """``path`` as UTF-8 text can hold it: bytes that are not UTF-8 escaped (``\\xe9``)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def search_scoring(matrix=DEFAULT_MATRIX, gap_open: int = 11, gap_extend: int = 1
                   ) -> Scoring:
    """The device scoring of a matrix (a name, None: :data:`DEFAULT_MATRIX`, or one
    :func:`~bioplug.alphabet.load_matrix` loaded) with BLAST's gap costs (a gap of length k
    costs ``gap_open + k * gap_extend``): what indexes a database and scans it."""
    if matrix is None or isinstance(matrix, str) and not matrix:
        matrix = DEFAULT_MATRIX
    if gap_open < 0 or gap_extend < 0:
        raise InputError("gap_open and gap_extend are costs (BLAST's convention): >= 0")
    gaps = [-(gap_open + gap_extend), -gap_extend] * 6
    loaded = load_matrix(matrix) if isinstance(matrix, str) else matrix
    scoring = make_scoring(matrix=with_rare_amino_acids(loaded), gaps=gaps, local=True)
    if scoring is None:
        raise InputError(f"matrix {getattr(loaded, 'name', None) or matrix} with these gap "
                         "costs cannot run exactly")
    return scoring


#: Amino acids a protein matrix may lack, and the letter BLAST+ scores each as: selenocysteine
#: (U) as cysteine, pyrrolysine (O) as X (blastp says so in a warning). UniProt has both.
RARE_AMINO_ACIDS = {"U": "C", "O": "X"}


def with_rare_amino_acids(matrix):
    """A protein matrix (one with the 20 amino acids, C and X) given rows and columns for U
    and O where it has none, scored as :data:`RARE_AMINO_ACIDS` says, so a database such as
    UniProt's (about 300 selenoproteins in Swiss-Prot) is searched as blastp searches it; the
    hits keep the letters (``sseq`` shows U and O). Other matrices as they are."""
    from Bio.Align.substitution_matrices import Array

    letters = "".join(matrix.alphabet)
    missing = [c for c in RARE_AMINO_ACIDS if c not in letters]
    if not missing or any(c not in letters for c in "ACDEFGHIKLMNPQRSTVWYX"):
        return matrix
    alphabet = letters + "".join(missing)
    source = [letters.index(RARE_AMINO_ACIDS.get(c, c)) for c in alphabet]
    values = np.asarray(matrix)[np.ix_(source, source)]
    extended = Array(alphabet=alphabet, dims=2, data=values)
    extended.name = getattr(matrix, "name", None)
    return extended


def check_protein_scoring(scoring: Scoring, qcodes: list[np.ndarray], db: Database,
                          matrix: str, named: bool) -> None:
    """Refuse nucleotide queries and database with the default protein matrix; warn when the
    protein matrix was named.

    BLOSUM62 scores A, C, G, T and N as the amino acids of those letters, so DNA against DNA
    gets high scores and small E-values that mean nothing (BLAST+ refuses the pairing). The
    sequences are classed as :func:`bioplug.alphabet.is_nucleotide` classes them, from up to
    :data:`SAMPLE_RESIDUES` residues of each side spread over it (a database of billions of
    residues is not read for this).

    Raises
    ------
    InputError
        With the default matrix, naming it and the options of a nucleotide scoring.
    """
    if strands.nucleotide(scoring) or not qcodes:
        return
    letters = _letter_bytes(scoring)
    for codes in (np.concatenate(qcodes), db.codes):
        text = letters[_spread_sample(codes, SAMPLE_RESIDUES)].tobytes().decode("latin-1")
        if not is_nucleotide([text]):
            return
    what = (f"the queries and the database{_named(db, ' ({})')} are nucleotide sequences, but "
            f"{matrix} is a protein matrix: it scores A, C, G and T as amino acids, which "
            "gives false significant hits")
    if not named:
        raise InputError(f"{what}; use a nucleotide scoring: {NUCLEOTIDE_ADVICE}")
    log.warning("%s; searched as asked (for a nucleotide scoring use %s)", what,
                NUCLEOTIDE_ADVICE)


def _named(db: Database, form: str, default: str = "") -> str:
    """``form`` naming the database's FASTA file, or ``default`` for given sequences."""
    return default if db.source.startswith("<") else form.format(db.source)


def _spread_sample(codes: np.ndarray, limit: int, pieces: int = 64) -> np.ndarray:
    """``codes``, or ``pieces`` runs of them spread from start to end (``limit`` in all):
    whole pages of a memory-mapped database, not a stride through every page."""
    if codes.size <= limit:
        return np.asarray(codes)
    width = limit // pieces
    starts = np.linspace(0, codes.size - width, pieces).astype(np.int64)
    return np.concatenate([np.asarray(codes[s:s + width]) for s in starts])


def _no_table(aligner, matrix: str) -> str:
    """Why BLAST's table has no (lambda, K) here, and the gap costs it has for the matrix."""
    given = aligner.substitution_matrix if aligner is not None else load_matrix(matrix)
    name = table_matrix(given)
    asked = str(matrix).upper() if aligner is None else None
    if name is None and asked in NCBI_MATRICES:
        return (f"BLAST's table describes NCBI's {asked}, and the {asked} used here "
                "(Biopython's) scores the 20 amino acids otherwise (Biopython's BLOSUM80 is "
                "in 1/3-bit units, NCBI's in 1/2-bit units); an aligner with NCBI's matrix "
                "gets the table (or pass karlin=(lambda, K) in Python)")
    costs = [f"{o}/{e}" for (m, o, e) in KARLIN_ALTSCHUL if m == name]
    if not costs:
        return (f"BLAST's table has no entry for this matrix; its matrices are "
                f"{', '.join(sorted({m for m, _, _ in KARLIN_ALTSCHUL}))} (or pass "
                "karlin=(lambda, K) in Python)")
    return (f"BLAST's table has {name} with gap costs (open/extend) {' '.join(costs)} only "
            "(or pass karlin=(lambda, K) in Python)")


def _as_database(database, scoring: Scoring, progress: Progress | None = None) -> Database:
    if isinstance(database, Database):
        return database
    if isinstance(database, (str, os.PathLike)):
        return open_database(database, scoring, progress)
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


def _query_titles(queries, ids: list[str]) -> list[str]:
    """Each query's header line: a FASTA file's own (read again, headers only), a given
    record's as :func:`_title` makes it."""
    if isinstance(queries, (str, os.PathLike)):
        from bioplug.io import open_input
        from bioplug.pairwise.fasta import header_lines

        with open_input(queries, "rb") as handle:
            heads = header_lines(handle.read())
        return [t.decode("utf-8", "replace") or i for t, i in zip(heads, ids, strict=True)]
    return [_title(item, name) for item, name in zip(queries, ids, strict=True)]


def _titles(given, db: Database) -> Database | list[str]:
    """Where the subjects' titles are: the database (its index's titles, else its ids), or
    one per given sequence (:func:`_title`)."""
    if isinstance(given, (str, os.PathLike, Database)):
        return db
    return [_title(item, db.ids[k]) for k, item in enumerate(given)]


def _title(item, name: str) -> str:
    """The FASTA header line a given sequence would have (BLAST's ``stitle``), as
    Biopython's FASTA writer makes it: a ``SeqRecord``'s or scikit-bio ``Sequence``'s
    description, led by the id when it does not start with it; the id alone without one."""
    from Bio.SeqRecord import SeqRecord

    if isinstance(item, SeqRecord):
        about = "" if item.description == "<unknown description>" else item.description
    else:
        meta = getattr(item, "metadata", None)
        about = str(meta.get("description") or "") if isinstance(meta, dict) else ""
    if not about or about.split(None, 1)[0] == name:
        return about or name
    return f"{name} {about}"


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
    s_of = len(qcodes) + np.searchsorted(subjects, k_of)
    engine.use_packed16 = True
    engine.long_cells = HIT_GROUP_CELLS
    try:
        traces = engine.trace_indexed(seqs, q_of, s_of)
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
    paths = HitColumns(traces, seqs, q_of, s_of, engine.scoring)
    bits, e = significance(stats, score, q_of, qlen, paths.seq_len[s_of], db)
    hits: list[list[Hit]] = [[] for _ in qcodes]
    for n, (q, k, _) in enumerate(pairs):
        hits[q].append(Hit(q, k, qids[q], db.ids[k], float(score[n]), float(bits[n]),
                           float(e[n]), **paths.fields(n)))
    return hits


def significance(stats, score, q_of, qlen, slen, db: Database) -> tuple[np.ndarray,
                                                                        np.ndarray]:
    """Bit scores and E-values of hits: from ``stats`` (lambda, K) by Karlin-Altschul, from
    each query's :class:`~bioplug.pairwise.statistics.Fit` (a list, one per query; None for
    one that could not be fitted) as :mod:`bioplug.pairwise.statistics` says, or NaN."""
    nan = np.full(len(score), math.nan)
    if stats is None:
        return nan, nan.copy()
    if isinstance(stats, Spouge):
        bits = bit_scores(score, stats.lam, stats.k)
        return bits, spouge_evalues(score, qlen, slen, db.residues, stats)
    if isinstance(stats, tuple):   # (lambda, K) or (lambda, K, alpha, beta)
        bits = bit_scores(score, stats[0], stats[1])
        return bits, evalues(bits, qlen, db.residues, len(db), stats)
    log_e = nan.copy()
    for q in np.unique(q_of):
        mine = q_of == q
        if stats[q] is not None:
            log_e[mine] = log_evalues(score[mine], slen[mine], stats[q], len(db))
    bits = (np.log(qlen * float(db.residues)) - log_e) / math.log(2)
    return bits, np.exp(log_e)


class HitColumns:
    """The hits' paths expanded into alignment columns, all hits at once (numpy over every
    column of every hit; Python only to hand each hit its numbers and texts).

    Per column: the operation (0 aligned pair, 1 query residue against a gap, 2 subject
    residue against a gap), the cell the column leaves (the query's and the subject's
    position), their residues and letters (``-`` for a gap; the letters the matrix names).
    Per hit, sums over its columns: identities, positives (aligned pairs of positive
    substitution score or of one letter, as BLAST+ counts them), gap columns and gap runs.
    """

    def __init__(self, traces, seqs: list[np.ndarray], a_of: np.ndarray, b_of: np.ndarray,
                 scoring: Scoring):
        ops, lengths, starts = traces.columns()
        self.offset = np.concatenate([[0], np.cumsum(lengths)])
        self.starts, self.a_of, self.b_of = starts, a_of, b_of
        hit = np.repeat(np.arange(lengths.size), lengths)
        seq_at = np.concatenate([[0], np.cumsum([len(s) for s in seqs])])
        self.seq_len = np.diff(seq_at)
        codes = np.concatenate(seqs) if len(seqs) else np.zeros(0, np.uint8)
        letters = _letter_bytes(scoring)
        cells, residues, texts = [], [], []
        for side, owner, steps in ((0, a_of, ops != 2), (1, b_of, ops != 1)):
            before = np.concatenate([[0], np.cumsum(steps, dtype=np.int64)])
            cell = starts[hit, side] + before[:-1] - before[self.offset[:-1]][hit]
            residue = codes[np.where(steps, cell + seq_at[owner][hit], 0)] \
                if codes.size else np.zeros(ops.size, np.uint8)
            cells.append(cell)
            residues.append(residue)
            texts.append(np.where(steps, letters[residue], ord("-")).astype(np.uint8).tobytes())
        self.qbytes, self.sbytes = texts
        ca, cb = residues
        aligned = ops == 0
        same = aligned & (ca == cb)
        self.nident = segment_sums(same, self.offset)
        self.positives = segment_sums(same | (aligned & (scoring.matrix > 0)[ca, cb]),
                                      self.offset)
        self.gaps = lengths - segment_sums(aligned, self.offset)
        first = np.zeros(ops.size, dtype=bool)
        first[self.offset[:-1][lengths > 0]] = True
        change = first | np.concatenate([[True], ops[1:] != ops[:-1]])[:ops.size]
        self.gap_opens = segment_sums(change & ~aligned, self.offset)
        self.ends = starts + np.stack([segment_sums(ops != 2, self.offset),
                                       segment_sums(ops != 1, self.offset)], axis=1)
        # coordinates: the cell where each run of one operation starts, then the end cell
        self.runs = np.stack(cells)[:, change]
        self.run_at = np.concatenate([[0], np.cumsum(segment_sums(change, self.offset))])

    def fields(self, n: int) -> dict:
        """The :class:`Hit` fields of hit ``n`` that its path gives."""
        a, b = int(self.offset[n]), int(self.offset[n + 1])
        length = b - a
        start, end = self.starts[n], self.ends[n]
        runs = self.runs[:, self.run_at[n]:self.run_at[n + 1]]
        coords = np.concatenate([runs if length else start[:, None], end[:, None]], axis=1)
        nident, qlen = int(self.nident[n]), int(self.seq_len[self.a_of[n]])
        qstart, qend = int(start[0]) + 1, int(end[0])
        return {"identity": 100.0 * nident / length if length else 0.0, "length": length,
                "mismatches": int(length - self.gaps[n] - nident),
                "gap_opens": int(self.gap_opens[n]), "qstart": qstart, "qend": qend,
                "sstart": int(start[1]) + 1, "send": int(end[1]),
                "coverage": 100.0 * (qend - qstart + 1) / qlen,
                "subject_length": int(self.seq_len[self.b_of[n]]), "query_length": qlen,
                "nident": nident, "positives": int(self.positives[n]),
                "gaps": int(self.gaps[n]), "qseq": self.qbytes[a:b].decode("ascii"),
                "sseq": self.sbytes[a:b].decode("ascii"), "coordinates": coords}


def _letter_bytes(scoring: Scoring) -> np.ndarray:
    """The byte of each residue code (``?`` for a letter that is not one ASCII character)."""
    return np.array([ord(c) if isinstance(c, str) and len(c) == 1 and c.isascii() else ord("?")
                     for c in scoring.letters], dtype=np.uint8)


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
