"""``bioplug.PairwiseAligner``: Biopython's aligner with the heavy loops on an OpenCL device.

:class:`PairwiseAligner` is a subclass of :class:`Bio.Align.PairwiseAligner`: it takes the same
constructor keywords and attributes, returns the same types and the same scores. Supported
settings run on the device through :class:`bioplug.pairwise.engine.PairwiseEngine`; everything
else is handed to Biopython's own C code, so a script never gets a different answer by
switching to this class.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence

import numpy as np
from Bio import Align
from Bio.Align import Alignment, Alignments
from Bio.Seq import MutableSeq, Seq, reverse_complement
from Bio.SeqRecord import SeqRecord

from bioplug.alignio import listed
from bioplug.alphabet import (
    GAP_FIELDS,
    Scoring,
    make_scoring,
    match_mismatch_letters,
)
from bioplug.errors import InputError
from bioplug.faults import device_guard
from bioplug.io import is_skbio_sequence, sequence_name
from bioplug.progress import Progress

log = logging.getLogger(__name__)

#: Pairs with at most this many DP cells are aligned by Biopython in :meth:`PairwiseAligner.align`.
DEFAULT_MAX_BIOPYTHON_CELLS = 4_000_000
#: Device scores are 32-bit integers; a pair whose worst-case path score could pass this bound
#: (largest scaled score times path length) is scored by Biopython instead.
_INT_LIMIT = 2**30

_SWAP_ENDS = {  # strand "-": Biopython swaps left and right end gaps (checked empirically)
    f: f.replace("left", "@").replace("right", "left").replace("@", "right") for f in GAP_FIELDS
}

ProgressCallback = Callable[[str, int, int], object]

#: Match/mismatch schemes use this fixed alphabet when the sequences' letters are all in it,
#: so that one device scheme (and one cached engine) serves every pair.
_COMMON = "ABCDEFGHIJKLMNOPQRSTUVWXYZ*-"
_COMMON_LETTERS = frozenset(_COMMON)


def _plain_text(item) -> str | None:
    """The residues of a str / Seq / SeqRecord / skbio.Sequence, else None.

    Lists, arrays, bytes and other inputs Biopython accepts return None: they are handed to
    Biopython as they are.
    """
    try:
        if isinstance(item, str):
            return item
        if isinstance(item, (Seq, MutableSeq)):
            return str(item)
        if isinstance(item, SeqRecord):
            return None if item.seq is None else str(item.seq)
        if is_skbio_sequence(item):
            return str(item)
    except Exception:  # undefined Seq contents and the like: let Biopython report it
        return None
    return None


def _for_biopython(item):
    """What Biopython's own ``align`` takes: a scikit-bio sequence as a Seq of its letters."""
    return Seq(str(item)) if is_skbio_sequence(item) else item


class EngineAlignments(Alignments):
    """The one optimal alignment the device's traceback found, as an ``Alignments`` list.

    Returned by :meth:`PairwiseAligner.align` for pairs above
    :attr:`PairwiseAligner.max_biopython_cells`. It has ``len`` 1 (0 for a local alignment
    with no positive score), supports indexing and iteration, and carries ``.score`` and
    ``.sequences`` (target and query, as passed) like Biopython's ``PairwiseAlignments``.
    """

    def __init__(self, alignments=(), score: float = 0.0, sequences=()):
        super().__init__(alignments)
        self.score = score
        self.sequences = list(sequences)

    def __repr__(self) -> str:
        n = len(self)
        word = "alignment" if n == 1 else "alignments"
        return (
            f"<EngineAlignments object ({n} {word}; score={self.score:g}) at {hex(id(self))}>"
        )


class PairwiseAligner(Align.PairwiseAligner):
    """Biopython's ``PairwiseAligner`` with scoring and alignment on an OpenCL device.

    Parameters
    ----------
    scoring : {None, "blastn", "megablast", "blastp"}
        As for :class:`Bio.Align.PairwiseAligner`.
    device : str, int or Runtime, optional
        The OpenCL device (see :func:`bioplug.runtime.select_device`); default: the
        ``BIOPLUG_DEVICE`` variable, else the fastest GPU, else the CPU.
    devices : list, optional
        Several devices for the batch methods (work is split largest-first).
    max_biopython_cells : int, optional
        :meth:`align` hands pairs with ``len(a) * len(b)`` at most this many cells to
        Biopython (default 4,000,000).
    **kwargs
        Any attribute of ``Bio.Align.PairwiseAligner`` (``mode``, ``match_score``,
        ``substitution_matrix``, ``open_gap_score``, ...).

    Notes
    -----
    **What runs on the device.** :meth:`score` and the batch methods use the device when

    * ``mode`` is ``"global"`` or ``"local"`` (not ``"fogsaa"``);
    * no gap score is a function (per-site gap penalties);
    * ``wildcard`` is None or does not occur in the sequences;
    * the sequences are ``str``, ``Seq``, ``SeqRecord`` or ``skbio.Sequence`` (lists, bytes
      and integer arrays go to Biopython);
    * all scores are exactly scalable to small integers by a power of two (-0.5 and 0.25
      are, -0.1 is not: Biopython's own float sums of -0.1 carry rounding errors that a
      scaled-integer device cannot reproduce bit for bit) and
      :func:`bioplug.alphabet.make_scoring` returns a scheme; the alphabet (substitution
      matrix alphabet, or the distinct letters of the sequences with match/mismatch scores)
      has at most 32 letters, and no positive internal gap score is used in local mode;
    * the pair cannot overflow the device's 32-bit scores.

    Otherwise Biopython's own code computes the result, which is therefore always exactly
    Biopython's score.

    **Alignments.** For a pair whose DP matrix has at most :attr:`max_biopython_cells` cells,
    :meth:`align` returns Biopython's own ``PairwiseAlignments``: only Biopython enumerates
    all co-optimal alignments in Biopython's order, which scripts and Biopython's tests rely
    on. Above it, the device's traceback gives **one** optimal alignment, returned as an
    :class:`EngineAlignments` (``len`` 1, ``.score``). ``strand="-"`` alignments are always
    Biopython's.

    **Batches.** :meth:`score_many`, :meth:`align_many` and :meth:`score_matrix` run every
    pair on the device (one optimal alignment per pair) and name the offending record in
    :class:`~bioplug.errors.InputError` for empty sequences and unknown letters.

    Examples
    --------
    >>> from bioplug import PairwiseAligner
    >>> aligner = PairwiseAligner("blastp", mode="local")
    >>> aligner.score("MKTAYIAKQRQISFVKSHFSRQ", "MKTAYIAKQRQISFVKSQ")
    81.0
    >>> aligner.score_many(["MKTAYIAKQR", "HEAGAWGHEE"], ["MKTAYQR", "PAWHEAE"])
    array([26., 17.])
    >>> print(aligner.align_many(["HEAGAWGHEE"], ["PAWHEAE"])[0])
    target            0 HEA 3
                      0 ||| 3
    query             3 HEA 6
    <BLANKLINE>
    >>> aligner.score_matrix(["MKTAYIAKQR", "MKTAYQR", "PAWHEAE"])
    array([[49., 26.,  6.],
           [26., 36.,  6.],
           [ 6.,  6., 44.]])
    """

    #: Attributes of this subclass (Biopython's ``__setattr__`` refuses unknown names).
    _bioplug_attributes = frozenset({"device", "devices", "max_biopython_cells"})

    device = None
    devices = None
    max_biopython_cells = DEFAULT_MAX_BIOPYTHON_CELLS

    def __init__(
        self,
        scoring: str | None = None,
        *,
        device=None,
        devices=None,
        max_biopython_cells: int = DEFAULT_MAX_BIOPYTHON_CELLS,
        **kwargs,
    ):
        super().__init__(scoring, **kwargs)
        self.device = device
        self.devices = devices
        self.max_biopython_cells = int(max_biopython_cells)

    # -- attributes and pickling, as Biopython's -----------------------------------------------
    def __setattr__(self, key, value):
        if key in self._bioplug_attributes:
            object.__setattr__(self, key, value)
        else:
            super().__setattr__(key, value)

    def __getstate__(self):
        state = super().__getstate__()
        state["max_biopython_cells"] = self.max_biopython_cells
        for key in ("device", "devices"):  # specifications travel, Runtime objects do not
            value = getattr(self, key)
            if isinstance(value, (str, int)) or value is None:
                state[key] = value
            elif isinstance(value, (list, tuple)) and all(isinstance(v, (str, int)) for v in value):
                state[key] = list(value)
        return state

    def __setstate__(self, state):
        state = dict(state)
        for key in self._bioplug_attributes:
            if key in state:
                object.__setattr__(self, key, state.pop(key))
        super().__setstate__(state)

    # -- scheme and engine -------------------------------------------------------------------
    def _gap_scores(self, swap_ends: bool = False) -> list[float] | None:
        """The 12 gap scores in GAP_FIELDS order; None with gap functions."""
        try:
            fields = [_SWAP_ENDS[f] for f in GAP_FIELDS] if swap_ends else GAP_FIELDS
            return [float(getattr(self, f)) for f in fields]
        except (ValueError, TypeError):
            return None

    def device_scoring(self, texts: Iterable[str], swap_ends: bool = False) -> Scoring | None:
        """The device scheme for these sequences, or None when Biopython must do the work.

        Parameters
        ----------
        texts : iterable of str
            The sequences that will be aligned (the match/mismatch alphabet comes from them).
        swap_ends : bool
            Swap left and right end gap scores (what Biopython does for ``strand="-"``).
        """
        texts = list(texts)
        if self.mode not in ("global", "local"):
            return None
        gaps = self._gap_scores(swap_ends)
        if gaps is None:
            return None
        wildcard = self.wildcard
        if wildcard is not None and any(wildcard in t for t in texts):
            return None
        local = self.mode == "local"
        matrix = self.substitution_matrix
        try:
            if matrix is not None:
                alphabet = matrix.alphabet
                if not all(isinstance(c, str) and len(c) == 1 for c in alphabet):
                    return None
                scoring = make_scoring(matrix=matrix, gaps=gaps, local=local)
            else:
                letters = match_mismatch_letters(texts)
                if _COMMON_LETTERS.issuperset(letters):  # one scheme (and engine) for all
                    letters = tuple(_COMMON)
                scoring = make_scoring(
                    match=float(self.match_score),
                    mismatch=float(self.mismatch_score),
                    gaps=gaps,
                    local=local,
                    letters=letters,
                )
        except (OverflowError, ValueError, TypeError):  # scores of a type Fraction rejects
            return None
        return scoring  # None when no exact power-of-two scale exists (make_scoring)

    def _engine(self, scoring: Scoring):
        """A cached :class:`PairwiseEngine` for this scheme and device choice."""
        from bioplug.pairwise.engine import PairwiseEngine

        devices = self.devices if self.devices is not None else self.device
        if isinstance(devices, (list, tuple)):
            dkey = tuple(d if isinstance(d, (str, int)) else id(d) for d in devices)
        else:
            dkey = devices if isinstance(devices, (str, int)) or devices is None else id(devices)
        key = (
            scoring.letters,
            scoring.matrix.tobytes(),
            scoring.gaps.tobytes(),
            scoring.local,
            scoring.scale,
            dkey,
        )
        cache = self.__dict__.setdefault("_bioplug_engines", {})
        engine = cache.get(key)
        if engine is None:
            if len(cache) >= 8:
                cache.pop(next(iter(cache)))
            engine = PairwiseEngine(scoring, devices=devices)
            cache[key] = engine
        return engine

    @staticmethod
    def _fits(scoring: Scoring, la: int, lb: int) -> bool:
        """True when the pair's scores cannot overflow the device's 32-bit integers."""
        biggest = max(int(np.abs(scoring.matrix).max(initial=0)), int(np.abs(scoring.gaps).max()))
        return biggest * (la + lb + 1) < _INT_LIMIT

    # -- one pair -----------------------------------------------------------------------------
    @device_guard
    def score(self, seqA, seqB, strand: str = "+") -> float:
        """The optimal alignment score of two sequences, exactly as Biopython computes it.

        Parameters
        ----------
        seqA, seqB : str, Bio.Seq.Seq, SeqRecord, skbio.Sequence or anything Biopython takes
            Target and query.
        strand : {"+", "-"}
            ``"-"`` aligns against the reverse complement of ``seqB``.

        Returns
        -------
        float

        Notes
        -----
        The device computes it when the settings are supported (see the class notes);
        otherwise Biopython does.
        """
        ta, tb = _plain_text(seqA), _plain_text(seqB)
        if not ta or not tb or strand not in ("+", "-"):
            return super().score(seqA, seqB, strand)
        if strand == "-":
            tb = reverse_complement(tb)
        scoring = self.device_scoring((ta, tb), swap_ends=strand == "-")
        if scoring is None or not self._fits(scoring, len(ta), len(tb)):
            return super().score(seqA, seqB, strand)
        a = scoring.encode(ta, _label(seqA, 0, "target"))
        b = scoring.encode(tb, _label(seqB, 0, "query"))
        return float(self._engine(scoring).score_pairs([a], [b])[0])

    @device_guard
    def align(self, seqA, seqB, strand: str = "+"):
        """Optimal alignments of two sequences.

        Parameters
        ----------
        seqA, seqB : str, Bio.Seq.Seq, SeqRecord, skbio.Sequence or anything Biopython takes
            Target and query.
        strand : {"+", "-"}
            ``"-"`` aligns against the reverse complement of ``seqB`` (always Biopython).

        Returns
        -------
        Bio.Align.PairwiseAlignments or EngineAlignments
            Biopython's ``PairwiseAlignments`` (all co-optimal alignments, Biopython's order)
            when ``len(seqA) * len(seqB) <= max_biopython_cells`` or the settings are not
            supported on the device; otherwise an :class:`EngineAlignments` holding the one
            optimal alignment the device's traceback found.
        """
        ta, tb = _plain_text(seqA), _plain_text(seqB)
        if (
            not ta
            or not tb
            or strand != "+"
            or len(ta) * len(tb) <= self.max_biopython_cells
        ):
            return super().align(_for_biopython(seqA), _for_biopython(seqB), strand)
        scoring = self.device_scoring((ta, tb))
        if scoring is None or not self._fits(scoring, len(ta), len(tb)):
            return super().align(_for_biopython(seqA), _for_biopython(seqB), strand)
        a = scoring.encode(ta, _label(seqA, 0, "target"))
        b = scoring.encode(tb, _label(seqB, 0, "query"))
        score, coords = self._engine(scoring).align_pairs([a], [b])[0]
        score = float(score)
        if scoring.local and score <= 0:
            return EngineAlignments([], score, [seqA, seqB])
        return EngineAlignments([_make_alignment(seqA, seqB, score, coords)], score,
                                [seqA, seqB])

    # -- batches ------------------------------------------------------------------------------
    def _batch_texts(self, seqs, what: str) -> list[str]:
        texts = []
        for i, s in enumerate(seqs):
            t = _plain_text(s)
            if t is None:
                raise InputError(
                    f"{what} {i + 1}: unsupported type {type(s).__name__} (use str, Bio.Seq.Seq,"
                    " SeqRecord or skbio.Sequence)"
                )
            if not t:
                raise InputError(f"{_label(s, i, what)}: empty sequence")
            texts.append(t)
        return texts

    @staticmethod
    def _encode_all(scoring: Scoring, seqs, texts, what: str) -> list[np.ndarray]:
        pairs = enumerate(zip(seqs, texts, strict=True))
        return [scoring.encode(t, _label(s, i, what)) for i, (s, t) in pairs]

    def _pairs_setup(self, seqs_a, seqs_b):
        seqs_a, seqs_b = listed(seqs_a), listed(seqs_b)
        if len(seqs_a) != len(seqs_b):
            raise InputError(
                f"the two batches differ in length ({len(seqs_a)} and {len(seqs_b)} sequences)"
            )
        ta = self._batch_texts(seqs_a, "target")
        tb = self._batch_texts(seqs_b, "query")
        scoring = self.device_scoring(ta + tb)
        if scoring is not None:
            longest = max((len(x) for x in ta), default=0) + max((len(x) for x in tb), default=0)
            if not self._fits(scoring, longest, 0):
                scoring = None
        return seqs_a, seqs_b, ta, tb, scoring

    @device_guard
    def score_many(
        self,
        seqs_a: Sequence,
        seqs_b: Sequence,
        progress: ProgressCallback | None = None,
    ) -> np.ndarray:
        """Scores of the pairs ``(seqs_a[i], seqs_b[i])`` (target, query).

        Parameters
        ----------
        seqs_a, seqs_b : sequences of equal length
            str, Bio.Seq.Seq, SeqRecord or skbio.Sequence.
        progress : callable, optional
            ``progress(stage, done, total)``; returning False cancels.

        Returns
        -------
        numpy.ndarray
            float64 scores, one per pair.

        Raises
        ------
        InputError
            Batches of different lengths, empty sequences, letters outside the scheme.
        """
        seqs_a, seqs_b, ta, tb, scoring = self._pairs_setup(seqs_a, seqs_b)
        if not seqs_a:
            return np.zeros(0, dtype=np.float64)
        if scoring is None:
            log.info("score_many: settings not supported on the device; using Biopython")
            return np.array([Align.PairwiseAligner.score(self, ta[k], tb[k])
                             for k in _reported(len(ta), "score (Biopython)", progress)],
                            dtype=np.float64)
        a = self._encode_all(scoring, seqs_a, ta, "target")
        b = self._encode_all(scoring, seqs_b, tb, "query")
        out = self._engine(scoring).score_pairs(a, b, progress=progress)
        return np.asarray(out, dtype=np.float64)

    @device_guard
    def align_many(
        self,
        seqs_a: Sequence,
        seqs_b: Sequence,
        progress: ProgressCallback | None = None,
    ) -> list[Alignment]:
        """One optimal alignment per pair ``(seqs_a[i], seqs_b[i])``.

        Parameters
        ----------
        seqs_a, seqs_b : sequences of equal length
            str, Bio.Seq.Seq, SeqRecord or skbio.Sequence.
        progress : callable, optional
            ``progress(stage, done, total)``; returning False cancels.

        Returns
        -------
        list of Bio.Align.Alignment
            Each with ``.score`` set. The sequences are the objects passed in. A local
            alignment with no positive score is an empty alignment (score 0).
        """
        seqs_a, seqs_b, ta, tb, scoring = self._pairs_setup(seqs_a, seqs_b)
        if not seqs_a:
            return []
        if scoring is None:
            log.info("align_many: settings not supported on the device; using Biopython")
            out = []
            for k in _reported(len(seqs_a), "align (Biopython)", progress):
                x, y = _as_alignable(seqs_a[k]), _as_alignable(seqs_b[k])
                alignments = Align.PairwiseAligner.align(self, x, y)
                # the first alignment, never len(): Biopython counts every co-optimal path
                # for it, which overflows (OverflowError) for scores with many ties
                first = next(iter(alignments), None)
                if first is None:   # a local pair without a positive score
                    results = (alignments.score, np.zeros((2, 1), dtype=np.int64))
                    out.append(_make_alignment(x, y, *results))
                else:
                    out.append(first)
            return out
        a = self._encode_all(scoring, seqs_a, ta, "target")
        b = self._encode_all(scoring, seqs_b, tb, "query")
        results = self._engine(scoring).align_pairs(a, b, progress=progress)
        triples = zip(seqs_a, seqs_b, results, strict=True)
        return [_make_alignment(x, y, s, c) for x, y, (s, c) in triples]

    @device_guard
    def score_matrix(
        self, seqs: Sequence, progress: ProgressCallback | None = None
    ) -> np.ndarray:
        """All-vs-all scores: ``out[i, j] = score(seqs[i], seqs[j])``.

        Parameters
        ----------
        seqs : sequence
            str, Bio.Seq.Seq, SeqRecord or skbio.Sequence.
        progress : callable, optional
            ``progress(stage, done, total)``; returning False cancels.

        Returns
        -------
        numpy.ndarray
            (n, n) float64. Entry ``[i, j]`` aligns ``seqs[i]`` as target and ``seqs[j]`` as
            query; with symmetric scoring the matrix is symmetric (the device computes the
            upper triangle). The diagonal holds self-alignment scores.
        """
        seqs = listed(seqs)   # an alignment's rows all at once, as Biopython prints them
        texts = self._batch_texts(seqs, "sequence")
        n = len(seqs)
        if n == 0:
            return np.zeros((0, 0), dtype=np.float64)
        scoring = self.device_scoring(texts)
        if scoring is not None:
            longest = max(len(t) for t in texts)
            if not self._fits(scoring, longest, longest):
                scoring = None
        if scoring is not None and not scoring.symmetric:
            # score_all assumes score(i, j) == score(j, i); use pairs for the whole square
            ii, jj = np.divmod(np.arange(n * n), n)
            flat = self.score_many([seqs[i] for i in ii], [seqs[j] for j in jj], progress)
            return flat.reshape(n, n)
        if scoring is None:
            log.info("score_matrix: settings not supported on the device; using Biopython")
            out = np.zeros((n, n), dtype=np.float64)
            for i in _reported(n, "score (Biopython)", progress):
                for j in range(n):
                    out[i, j] = Align.PairwiseAligner.score(self, texts[i], texts[j])
            return out
        from bioplug.pairwise import allpairs

        codes = self._encode_all(scoring, seqs, texts, "sequence")
        return allpairs.score_square(self._engine(scoring), codes, progress)

    @device_guard
    def search(self, queries, database, top: int = 10, *, karlin=None,
               evalue: float | None = None, statistics: str = "auto", strand: str = "auto",
               chunk_residues: int | None = None, progress: ProgressCallback | None = None,
               old_fsc: bool = False):
        """Every query against every database sequence with this (local) aligner's scoring.

        A thin front door to :func:`bioplug.pairwise.search.search`: exact scores (those of
        :meth:`score`), the ``top`` hits per query with device tracebacks, identity, coverage
        and E-values (BLAST's Karlin-Altschul parameters for the scoring, with Spouge's
        finite-size correction as blastp's default, else fitted to the search's own scores).

        Parameters
        ----------
        queries, database : path-like or sequences
            FASTA files (the database is indexed beside its file) or sequences.
        top : int
            Hits per query: the best by score (then database order), listed by E-value
            with BLAST's table (see :func:`bioplug.pairwise.search.search`).
        karlin : (float, float), optional
            ``(lambda, K)`` when BLAST's table has no entry for this scoring.
        evalue : float, optional
            Report only hits of at most this E-value (BLAST's ``-evalue``) among the ``top``
            of each query.
        statistics : {"auto", "table", "fit"}
            Where E-values come from (see :func:`bioplug.pairwise.search.search`).
        strand : {"auto", "plus", "minus", "both"}
            Strands of nucleotide queries (see :func:`bioplug.pairwise.search.search`).
        chunk_residues : int, optional
            Database residues per device chunk.
        progress : callable, optional
            ``progress(stage, done, total)``.
        old_fsc : bool
            E-values without Spouge's finite-size correction (blastp with ``OLD_FSC`` set).

        Returns
        -------
        bioplug.pairwise.search.SearchResults
        """
        from bioplug.pairwise.search import search

        devices = self.devices if self.devices is not None else self.device
        return search(queries, database, aligner=self, top=top, karlin=karlin,
                      device=devices, chunk_residues=chunk_residues, progress=progress,
                      evalue=evalue, statistics=statistics, strand=strand, old_fsc=old_fsc)


def _label(item, index: int, what: str) -> str:
    """``target 3 (id)`` for error messages."""
    name = sequence_name(item, index)
    base = f"{what} {index + 1}"
    return base if name == f"sequence {index + 1}" else f"{base} ({name})"


def _reported(total: int, stage: str, progress: ProgressCallback | None):
    """range(total), reporting ``progress(stage, done, total)`` after each item (returning
    False cancels: :class:`~bioplug.progress.Cancelled`), as the device paths do."""
    report = Progress(progress)
    for k in range(total):
        yield k
        report.report(stage, k + 1, total)


def _as_alignable(item):
    """Sequences Biopython's Alignment can print (skbio.Sequence becomes a Seq)."""
    if isinstance(item, (str, Seq, MutableSeq, SeqRecord)):
        return item
    return Seq(str(item))


def _make_alignment(target, query, score, coords) -> Alignment:
    target, query = _as_alignable(target), _as_alignable(query)
    coords = np.asarray(coords, dtype=np.int64)
    if coords.ndim != 2 or coords.shape[1] == 0:
        coords = np.zeros((2, 1), dtype=np.int64)
    alignment = Alignment([target, query], coords)
    alignment.score = float(score)
    return alignment
