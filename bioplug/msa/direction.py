"""Nucleotide sequences given in either direction, turned to one before they are aligned
(``mafft --adjustdirection``): ``adjust_direction=True`` of both aligners, ``bioplug msa
--adjust-direction``.

1. Scores: two sequences are aligned globally (NUC.4.4, gaps 16 / 4, on the device) as given
   and with one of them reverse-complemented; the difference says whether they face the same
   way, and its size how sure that is.
2. Anchors: the first :data:`ANCHORS` sequences, all pairs of them scored. They are turned
   along a maximum spanning tree of that sureness from the first sequence (each joins through
   the pair it is surest of), so the family faces the first sequence's way.
3. Every other sequence is scored against every anchor, as given and turned, and follows the
   anchor it is surest of.
4. After alignment the turned sequences are named ``_R_<id>``, as MAFFT names them.

Global scores, not local ones, and the spanning tree, not a sum over anchors: on BRAliBASE 2.1
k10 (212 RNA families, 40 % of the sequences turned) this way oriented 207 families (8
sequences wrong), local scores 196 (33), a sum of local scores over anchors 182 (54);
``mafft --adjustdirectionaccurately`` 201 (13), ``--adjustdirection`` 170 (98)
(``benchmarks/direction.py``, RESULTS.md).

Reverse complements keep the letters' case and IUPAC codes (R and Y swap, N stays); a
sequence with U and no T is RNA (its complement of A is U).
"""

from __future__ import annotations

import logging

import numpy as np
from Bio.Seq import Seq, reverse_complement, reverse_complement_rna
from Bio.SeqRecord import SeqRecord

from bioplug.alphabet import is_nucleotide
from bioplug.errors import InputError
from bioplug.io import description_after_id

log = logging.getLogger(__name__)

#: Sequences all of whose pairs are scored, and that every other sequence is scored against:
#: 2 x ANCHORS^2 alignments, then 2 x ANCHORS a sequence.
ANCHORS = 32
#: Gap scores of the global alignments (open, extend), as the guide tree's local ones.
GAPS = (-16.0, -4.0)
#: MAFFT's prefix of a reverse-complemented sequence's name.
PREFIX = "_R_"


def complement(text: str) -> str:
    """The reverse complement of a DNA or RNA sequence (RNA: U and no T), letters' case and
    IUPAC codes kept."""
    lower = text.lower()
    if "u" in lower and "t" not in lower:
        return reverse_complement_rna(text)
    return reverse_complement(text)


def pair_scores(first: list[str], second: list[str], device) -> np.ndarray:
    """Global alignment scores of ``first[k]`` against ``second[k]`` on the device."""
    from bioplug.alphabet import load_matrix, make_scoring
    from bioplug.pairwise.engine import PairwiseEngine
    from bioplug.progressive.guide import encoded

    scoring = make_scoring(load_matrix("NUC.4.4"), gaps=list(GAPS) * 6)
    engine = PairwiseEngine(scoring, devices=[device] if device is not None else None)
    letters = "".join(scoring.letters)
    return engine.score_pairs(encoded(first, letters, True), encoded(second, letters, True))


def facing(texts: list[str], rc: list[str], rows, cols, device) -> np.ndarray:
    """Score(rc[i], texts[j]) - score(texts[i], texts[j]) for the pairs (rows, cols):
    positive where i and j face opposite ways."""
    fwd = pair_scores([texts[i] for i in rows], [texts[j] for j in cols], device)
    rev = pair_scores([rc[i] for i in rows], [texts[j] for j in cols], device)
    return rev - fwd


def spanning_signs(d: np.ndarray) -> np.ndarray:
    """Turned (True) or not for each of k sequences whose pairwise facing scores are ``d``
    (k x k, symmetric): Prim's maximum spanning tree on ``|d|`` from the first, each
    sequence turned relative to the one it joins through where ``d`` is positive."""
    k = d.shape[0]
    sure = np.abs(d)
    flip = np.zeros(k, dtype=bool)
    inside = np.zeros(k, dtype=bool)
    inside[0] = True
    best, via = sure[0].copy(), np.zeros(k, dtype=np.int64)
    for _ in range(k - 1):   # k joins, each a vector step over the anchors
        j = int(np.argmax(np.where(inside, -np.inf, best)))
        flip[j] = flip[via[j]] ^ (d[via[j], j] > 0)
        inside[j] = True
        closer = ~inside & (sure[j] > best)
        best[closer], via[closer] = sure[j][closer], j
    return flip


def turned(texts: list[str], device=None) -> np.ndarray:
    """Which of ``texts`` (ungapped nucleotide sequences) to reverse-complement so that all
    face the first one's way: a bool per sequence.

    Raises
    ------
    InputError
        A sequence that is not nucleotides.
    """
    if not is_nucleotide(texts):
        raise InputError("adjusting the direction is for DNA and RNA: these sequences are not "
                         "nucleotides")
    n = len(texts)
    if n < 2:
        return np.zeros(n, dtype=bool)
    rc = [complement(t) for t in texts]
    k = min(ANCHORS, n)
    rows, cols = np.triu_indices(k, 1)
    d = np.zeros((k, k))
    d[rows, cols] = facing(texts, rc, rows, cols, device)
    flip = np.zeros(n, dtype=bool)
    flip[:k] = spanning_signs(d + d.T)
    if n > k:
        # the others against the anchors as they now face; each follows its surest anchor
        faced = [rc[j] if flip[j] else texts[j] for j in range(k)]
        rows = np.repeat(np.arange(k, n), k)
        cols = np.tile(np.arange(k), n - k)
        fwd = pair_scores([texts[i] for i in rows], [faced[j] for j in cols], device)
        rev = pair_scores([rc[i] for i in rows], [faced[j] for j in cols], device)
        vote = (rev - fwd).reshape(n - k, k)
        flip[k:] = vote[np.arange(n - k), np.argmax(np.abs(vote), axis=1)] > 0
    log.info("adjust direction: %d of %d sequences reverse-complemented", int(flip.sum()), n)
    return flip


def adjusted(records: list[SeqRecord], device=None) -> tuple[list[SeqRecord], np.ndarray]:
    """``records`` facing one direction (the turned ones new records, reverse-complemented,
    under their own ids) and which were turned.

    Raises
    ------
    InputError
        Not nucleotides, or a turned sequence whose ``_R_`` name another sequence has.
    """
    flip = turned([str(r.seq) for r in records], device)
    # refused before the alignment's work: two rows of one name in the output
    kept = {r.id for r, f in zip(records, flip, strict=True) if not f}
    clash = [r.id for r, f in zip(records, flip, strict=True) if f and PREFIX + r.id in kept]
    if clash:
        raise InputError(f"{clash[0]} is turned, and {PREFIX}{clash[0]}, the name it would take, "
                         "is another sequence's: rename one of them")
    out = [SeqRecord(Seq(complement(str(r.seq))), id=r.id, name=r.name,
                     description=r.description) if f else r
           for r, f in zip(records, flip, strict=True)]
    return out, flip


def name_turned(alignment, flip: np.ndarray) -> None:
    """Rename the turned rows of ``alignment`` ``_R_<id>`` (in place), and record their
    original ids in ``alignment.reversed_ids``."""
    alignment.reversed_ids = [alignment.sequences[i].id for i in np.flatnonzero(flip)]
    for i in np.flatnonzero(flip):
        record = alignment.sequences[i]
        # the title's words after the id stay (Bio.SeqIO's writers put the id in front)
        alignment.sequences[i] = SeqRecord(record.seq, id=PREFIX + record.id,
                                           name=PREFIX + record.name,
                                           description=description_after_id(record),
                                           annotations=dict(record.annotations))
