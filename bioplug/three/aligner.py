"""``align_three`` / ``score_three``: the exact sum-of-pairs alignment of three sequences.

Example
-------
>>> import bioplug
>>> aln = bioplug.align_three("GATTACA", "GATCA", "GTTACA")            # doctest: +SKIP
>>> aln.score                                                           # doctest: +SKIP
8
>>> print(aln)                                                          # doctest: +SKIP
>>> bioplug.score_three(a, b, c, substitution_matrix="BLOSUM62",
...                     open_gap_score=-10, extend_gap_score=-1)        # doctest: +SKIP

The DP cube has (n1 + 1)(n2 + 1)(n3 + 1) cells; on an H100 a 1,400^3 cube is scored in 13 ms
and aligned in 18 ms, a 3,000^3 cube scored in 0.1 s (``benchmarks/RESULTS.md``, "Three
sequences").
"""

from __future__ import annotations

import logging

from Bio.Align import Alignment
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.alphabet import check_sequence_letters
from bioplug.errors import InputError
from bioplug.faults import device_guard
from bioplug.io import as_record, sequence_name, sequence_text
from bioplug.progress import Progress, ProgressCallback
from bioplug.three import pipeline

log = logging.getLogger(__name__)

_ENGINES: dict = {}
#: Share of device memory a cached engine may keep between calls.
HELD_SHARE = 0.125


def _inputs(seqs) -> tuple[list, list[str], list[str]]:
    """(sequences for the Alignment, their residues, names for messages)."""
    if len(seqs) != 3:
        raise InputError(f"three sequences are needed, got {len(seqs)}")
    kept, texts, names = [], [], []
    for index, item in enumerate(seqs):
        try:
            text = sequence_text(item)
        except Exception as exc:  # noqa: BLE001 - e.g. an undefined Bio.Seq
            raise InputError(f"sequence {index + 1}: no residues to align ({exc})") from exc
        name = sequence_name(item, index)
        if not isinstance(text, str):
            raise InputError(f"{name}: unsupported type {type(item).__name__}")
        check_sequence_letters(text, name)
        for gap in "-.":
            pos = text.find(gap)
            if pos >= 0:
                raise InputError(f"{name}: gap {gap!r} at position {pos + 1}; give the "
                                 "sequences without gaps")
        kept.append(item if isinstance(item, (str, Seq, SeqRecord)) else as_record(item, index))
        texts.append(text)
        names.append(name)
    return kept, texts, names


def _engine(device, scheme: pipeline.Scheme, shape=None):
    """One engine per (device, matrix, gaps, shape, host thread): the matrix is uploaded
    once. Engines keep plans and face buffers between calls, so two threads sharing one
    would overwrite each other's faces: each thread gets its own."""
    import threading

    from bioplug.runtime import get_runtime
    from bioplug.three.device import ThreeEngine

    rt = get_runtime(device)
    key = (id(rt), scheme.matrix.tobytes(), scheme.matrix.shape, scheme.gaps, shape,
           threading.get_ident())
    engine = _ENGINES.get(key)
    if engine is None:
        if len(_ENGINES) > 16:
            _ENGINES.clear()
        engine = _ENGINES[key] = ThreeEngine(rt, scheme.matrix, scheme.gaps, shape)
    return engine


def _trim(engine) -> None:
    """Cached engines keep their face buffers for the next call only while those are small
    (an eighth of the device's memory): large ones would starve other work."""
    if engine.held_bytes > engine.rt.memory_budget(HELD_SHARE):
        engine.release()


def _prepare(a, b, c, keywords):
    kept, texts, names = _inputs([a, b, c])
    scheme = pipeline.make_scheme(texts, **keywords)
    codes = pipeline.encode(scheme, texts, names)
    scheme.check_range([len(t) for t in texts])
    return kept, texts, scheme, codes


@device_guard
def score_three(a, b, c, *, substitution_matrix=None, match_score: float = 1,
                mismatch_score: float = 0, gap_score: float = -1,
                open_gap_score: float | None = None, extend_gap_score: float | None = None,
                device=None, progress: ProgressCallback | None = None,
                _shape=None) -> int | float:
    """The optimal sum-of-pairs score of three sequences (no traceback).

    Parameters are those of :func:`align_three`.

    Returns
    -------
    int or float
        An int when every score of the scheme is an integer, else the exact float.
    """
    kw = dict(substitution_matrix=substitution_matrix, match_score=match_score,
              mismatch_score=mismatch_score, gap_score=gap_score,
              open_gap_score=open_gap_score, extend_gap_score=extend_gap_score)
    _, _, scheme, codes = _prepare(a, b, c, kw)
    engine = _engine(device, scheme, _shape)
    try:
        value = pipeline.score_of(engine, codes, Progress(progress))
    finally:
        _trim(engine)
    return scheme.unscale(value)


@device_guard
def align_three(a, b, c, *, substitution_matrix=None, match_score: float = 1,
                mismatch_score: float = 0, gap_score: float = -1,
                open_gap_score: float | None = None, extend_gap_score: float | None = None,
                device=None, progress: ProgressCallback | None = None,
                _shape=None) -> Alignment:
    """An optimal sum-of-pairs alignment of three sequences, computed exactly on the device.

    The score of an alignment is the sum over its columns of the scores of the three pairs
    of rows (the seed's ``obj``): a substitution score where both rows hold residues, a gap
    score where one does, nothing where both are gaps.

    Parameters
    ----------
    a, b, c : str, Bio.Seq.Seq, Bio.SeqRecord.SeqRecord or skbio.Sequence
        Unaligned sequences (proteins or nucleotides; one may be empty).
    substitution_matrix : str or Bio.Align.substitution_matrices.Array, optional
        E.g. ``"BLOSUM62"``; letters are looked up in upper case when the matrix has only
        upper-case letters. None: ``match_score`` / ``mismatch_score``.
    match_score, mismatch_score : float
        Scores of identical / different letters when there is no matrix.
    gap_score : float
        Linear gaps: the score of every residue-gap pair (the seed's beta; a column with one
        residue has two such pairs).
    open_gap_score, extend_gap_score : float, optional
        Affine gaps (either one given; the other defaults to ``gap_score``): in each pair of
        rows a gap of ``n`` columns scores ``open + (n - 1) * extend`` (Biopython's
        convention). With three rows a pair's gap may run through a column where both rows of
        the pair are gaps; the model has one column of memory (Gotoh 1986): the gap extends
        when the previous column gave the pair the same status (the same row gapped, the other
        a residue), else it opens again. This never scores below Altschul's (1989) natural gap
        costs and equals them except across such all-gap columns of the pair.
    device : optional
        OpenCL device specification or Runtime.
    progress : callable, optional
        ``progress(stage, done, total)``; returning False cancels between launches.

    Returns
    -------
    Bio.Align.Alignment
        Three rows, with ``.score`` (an int when the scheme is integer).

    Raises
    ------
    InputError
        Not three sequences, gaps in them, a letter the scheme lacks (naming the sequence,
        position and letter), scores the integer engine cannot reproduce exactly, or scores
        that would overflow 32-bit integers.
    BioplugError
        The tile faces do not fit the device's memory.
    """
    kw = dict(substitution_matrix=substitution_matrix, match_score=match_score,
              mismatch_score=mismatch_score, gap_score=gap_score,
              open_gap_score=open_gap_score, extend_gap_score=extend_gap_score)
    kept, texts, scheme, codes = _prepare(a, b, c, kw)
    engine = _engine(device, scheme, _shape)
    try:
        value, types = pipeline.align_codes(engine, codes, Progress(progress))
    finally:
        _trim(engine)
    coordinates = pipeline.columns(types, [len(t) for t in texts])
    alignment = Alignment(kept, coordinates)
    alignment.score = scheme.unscale(value)
    return alignment
