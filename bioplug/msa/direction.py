"""Nucleotide sequences given in either direction, turned to one before they are aligned
(``mafft --adjustdirection``): ``adjust_direction=True`` of both aligners, ``bioplug msa
--adjust-direction``.

1. Scores: two sequences are aligned globally (NUC.4.4, gaps 16 / 4, on the device) as given
   and with one of them reverse-complemented; the difference says whether they face the same
   way, and its size how sure that is.
2. Anchors: the first sequence and the :data:`ANCHORS` - 1 longest others, all pairs of them
   scored. They are turned along a maximum spanning tree of that sureness from the first
   sequence (each joins through the pair it is surest of), so the family faces the first
   sequence's way. The longest, not the next ones in the file: amplicon reads given before
   their full-length references overlap each other too little to say anything (60 reads of
   80-250 nt, then 3 references of 1,500: 23 of 63 turned wrong with the first 32 as
   anchors, none with the longest, as with ``mafft --adjustdirection``).
3. Every other sequence is scored against the anchors (as they now face), as given and
   turned, and turned where the turned scores sum higher: on a simulated 1,000 x 300 DNA
   family (395 turned) the sum erred on 1 sequence, the surest single anchor on 3, the
   five surest on 2; on amplicon reads with their references all three on none. The first
   four anchors vote first, and a sequence they are all sure of alike is decided without the
   others (:func:`voted`): they decided 84 % of BRAliBASE's RNAs so, each as all anchors'
   sum did, and halved the time of a simulated 1,000 x 300 DNA family.
4. After alignment the turned sequences are named ``_R_<id>``, as MAFFT names them.

Global scores, not local ones, and the spanning tree, not a sum over anchors: on BRAliBASE 2.1
k10 (212 RNA families, 40 % of the sequences turned) this way oriented 207 families (8
sequences wrong), local scores 196 (33), a sum of local scores over anchors 182 (54);
``mafft --adjustdirectionaccurately`` 201 (13), ``--adjustdirection`` 170 (98)
(``benchmarks/direction.py``, RESULTS.md).

Reverse complements keep the letters' case and IUPAC codes (R and Y swap, N stays); a
sequence with U and no T is RNA (its complement of A is U), one with neither is what its
family is (RNA where the family has more U than T, as the aligners decide).
"""

from __future__ import annotations

import logging

import numpy as np
from Bio.Seq import Seq, reverse_complement, reverse_complement_rna
from Bio.SeqRecord import SeqRecord

from bioplug.alphabet import NUCLEOTIDE_CODES, is_nucleotide
from bioplug.errors import InputError
from bioplug.io import description_after_id

log = logging.getLogger(__name__)

#: Sequences all of whose pairs are scored, and that every other sequence is scored against:
#: 2 x ANCHORS^2 alignments, then 2 x ANCHORS a sequence.
ANCHORS = 32
#: Anchors whose votes are taken first (:func:`voted`), and the vote (score points a residue
#: and anchor, all of them alike) that decides a sequence without the others: on BRAliBASE 2.1
#: k10 (6 anchors a family, 3,380 other sequences) 84 % of the sequences were decided so,
#: each as all the anchors' votes decide it.
FIRST_VOTES = 4
SURE_VOTE = 0.8
#: Gap scores of the global alignments (open, extend), as the guide tree's local ones.
GAPS = (-16.0, -4.0)
#: MAFFT's prefix of a reverse-complemented sequence's name.
PREFIX = "_R_"


def complement(text: str, rna: bool = False) -> str:
    """The reverse complement of a DNA or RNA sequence, letters' case and IUPAC codes kept.

    Parameters
    ----------
    text : str
        The sequence: RNA when it has U and no T, DNA when it has T.
    rna : bool
        Whether a sequence with neither T nor U is RNA (its family's alphabet): a short RNA
        read of A, C and G only must not come back with T in an RNA alignment.
    """
    lower = text.lower()
    has_u, has_t = "u" in lower, "t" in lower
    if (has_u and not has_t) or (rna and not has_t):
        return reverse_complement_rna(text)
    return reverse_complement(text)


def family_is_rna(texts: list[str], seqtype: str = "auto") -> bool:
    """RNA by ``seqtype``, or for "auto" by :func:`is_rna`."""
    return seqtype == "rna" if seqtype in ("dna", "rna") else is_rna(texts)


def is_rna(texts: list[str]) -> bool:
    """RNA: more U than T over the family (:func:`bioplug.msa.model.resolve_seqtype`'s rule)."""
    u = sum(t.count("U") + t.count("u") for t in texts)
    t_ = sum(t.count("T") + t.count("t") for t in texts)
    return u > t_


def check_nucleotides(texts: list[str], ids: list[str] | None = None,
                      seqtype: str = "auto") -> None:
    """Refuse sequences that are not DNA / RNA, naming the first record at fault.

    Raises
    ------
    InputError
        ``<id>: letter 'X' at position 11 is not a nucleotide code ...``, or, where every
        letter is a code but fewer than 90 % are A, C, G, T, U or N (peptides of code letters,
        :func:`bioplug.alphabet.is_nucleotide`), the record with the most other codes. The
        message starts with the id, so that the command names the file in front of it.
    """
    if seqtype == "protein":
        raise InputError("adjusting the direction is for DNA and RNA: not with seqtype "
                         "protein")
    # seqtype "dna" / "rna" says the family is nucleotides: only the letters are checked,
    # not the 90 % share that tells a peptide of code letters from DNA
    if seqtype == "auto" and is_nucleotide(texts):
        return
    ids = ids if ids is not None else [f"sequence {i + 1}" for i in range(len(texts))]
    why = "adjusting the direction is for DNA and RNA"
    for ident, text in zip(ids, texts, strict=True):
        for pos, c in enumerate(text, 1):
            if c.upper() not in NUCLEOTIDE_CODES and c not in "-.":
                raise InputError(f"{ident}: letter {c!r} at position {pos} is not a nucleotide "
                                 f"code: {why}")
    if seqtype != "auto":
        return
    rare = [sum(c.upper() not in "ACGTUN-." for c in t) / max(len(t), 1) for t in texts]
    worst = int(np.argmax(rare))
    raise InputError(f"{ids[worst]}: {100 * rare[worst]:.0f} % of its letters are ambiguity "
                     f"codes (R, Y, K, M, ...), and under 90 % of the family's are A, C, G, T, U "
                     f"or N, so it reads as protein: {why}")


def pair_scores(first: list[str], second: list[str], device, local: bool = False
                ) -> np.ndarray:
    """Global (or local) alignment scores of ``first[k]`` against ``second[k]`` on the
    device."""
    from bioplug.alphabet import load_matrix, make_scoring
    from bioplug.pairwise.engine import PairwiseEngine
    from bioplug.progressive.guide import encoded

    scoring = make_scoring(load_matrix("NUC.4.4"), gaps=list(GAPS) * 6, local=local)
    engine = PairwiseEngine(scoring, devices=[device] if device is not None else None)
    letters = "".join(scoring.letters)
    return engine.score_pairs(encoded(first, letters, True), encoded(second, letters, True))


def facing(texts: list[str], rc: list[str], others: list[str], rows, cols, device,
           local: bool = False) -> np.ndarray:
    """Score(rc[i], others[j]) - score(texts[i], others[j]) for the pairs (rows, cols):
    positive where i and j face opposite ways."""
    fwd = pair_scores([texts[i] for i in rows], [others[j] for j in cols], device, local)
    rev = pair_scores([rc[i] for i in rows], [others[j] for j in cols], device, local)
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


def votes(texts: list[str], rc: list[str], faced: list[str], device, local: bool = False
          ) -> np.ndarray:
    """Score(rc[i], faced[a]) - score(texts[i], faced[a]): positive where sequence i faces the
    other way from anchor a (len(texts) x len(faced))."""
    rows = np.repeat(np.arange(len(texts)), len(faced))
    cols = np.tile(np.arange(len(faced)), len(texts))
    return facing(texts, rc, faced, rows, cols, device, local).reshape(len(texts), len(faced))


def voted(texts: list[str], rc: list[str], faced: list[str], device, local: bool = False
          ) -> np.ndarray:
    """Turned or not for each of ``texts`` (``rc`` their reverse complements), by the sum of
    the votes of the anchors ``faced`` (all facing one way).

    First the :data:`FIRST_VOTES` first anchors (the first sequence and the longest): a
    sequence they all vote alike for, by :data:`SURE_VOTE` points a residue and anchor or
    more, is decided; the others are scored against every anchor. ``local``: local scores
    (fragments: a read against a whole genome, whose global scores drown in the end gaps).
    """
    first = min(FIRST_VOTES, len(faced))
    early = votes(texts, rc, faced[:first], device, local)
    length = np.array([max(len(t), 1) for t in texts], dtype=np.float64)
    total = early.sum(axis=1)
    sure = (((early > 0).all(axis=1) | (early < 0).all(axis=1))
            & (np.abs(total) >= SURE_VOTE * first * length))
    unsure = np.flatnonzero(~sure)
    if unsure.size and len(faced) > first:
        total[unsure] += votes([texts[i] for i in unsure], [rc[i] for i in unsure],
                               faced[first:], device, local).sum(axis=1)
    log.debug("adjust direction: %d of %d sequences decided by the first %d anchors",
              int(sure.sum()), len(texts), first)
    return total > 0


def anchors(texts: list[str], k: int) -> np.ndarray:
    """The ``k`` anchors' indices: the first sequence (the family faces its way), then the
    longest others (ties in input order), which overlap the most of the rest."""
    others = 1 + np.argsort([-len(t) for t in texts[1:]], kind="stable")[:k - 1]
    return np.concatenate([[0], others]).astype(np.int64)


def turned(texts: list[str], device=None, ids: list[str] | None = None,
           seqtype: str = "auto") -> np.ndarray:
    """Which of ``texts`` (ungapped nucleotide sequences) to reverse-complement so that all
    face the first one's way: a bool per sequence.

    Parameters
    ----------
    texts : list of str
        The sequences.
    device : optional
        The OpenCL device of the scores.
    ids : list of str, optional
        Their ids, for the error messages.
    seqtype : {"auto", "dna", "rna", "protein"}
        The aligner's: "dna" / "rna" take the family for nucleotides whatever the share of
        ambiguity codes, and fix the alphabet of the complements; "protein" is refused.

    Raises
    ------
    InputError
        A sequence that is not nucleotides.
    """
    check_nucleotides(texts, ids, seqtype)
    n = len(texts)
    if n < 2:
        return np.zeros(n, dtype=bool)
    rna = family_is_rna(texts, seqtype)
    rc = [complement(t, rna) for t in texts]
    k = min(ANCHORS, n)
    anchor = anchors(texts, k)
    pairs = np.triu_indices(k, 1)
    d = np.zeros((k, k))
    d[pairs] = facing(texts, rc, texts, anchor[pairs[0]], anchor[pairs[1]], device)
    flip = np.zeros(n, dtype=bool)
    flip[anchor] = spanning_signs(d + d.T)
    rest = np.setdiff1d(np.arange(n), anchor)
    if rest.size:   # the others against the anchors as they now face
        faced = [rc[j] if flip[j] else texts[j] for j in anchor]
        flip[rest] = voted([texts[i] for i in rest], [rc[i] for i in rest], faced, device)
    log.info("adjust direction: %d of %d sequences reverse-complemented", int(flip.sum()), n)
    return flip


def turned_to(reference: list[str], texts: list[str], device=None,
              seqtype: str = "auto", fragments: bool = False,
              ids: list[str] | None = None) -> np.ndarray:
    """Which of ``texts`` to reverse-complement to face the way of ``reference`` (sequences
    that already face one way: an alignment's rows, ungapped), each by the sum of its votes
    against the first reference sequence and the longest others (:data:`ANCHORS` in all,
    :func:`voted`). ``fragments`` (reads, partial genes): a read that shared k-mers place on
    the reference one way only (:func:`placed_ways`) is turned so; the others by local
    scores, as fragments are added; a global alignment of a 150 nt read with a 5 kb row
    spends the row's length in gaps either way, and the votes of the reads of a simulated
    32 x 5,000 family shrank to a third of their local size (0.3-2 points a residue).
    ``ids`` name ``reference`` and ``texts`` (in that order) in errors."""
    check_nucleotides(reference + texts, ids, seqtype)
    reference = [r for r in reference if r]
    if not texts or not reference:
        return np.zeros(len(texts), dtype=bool)
    rna = family_is_rna(reference + texts, seqtype)
    anchor = anchors(reference, min(ANCHORS, len(reference)))
    faced = [reference[j] for j in anchor]
    rc = [complement(t, rna) for t in texts]
    flip = np.zeros(len(texts), dtype=bool)
    open_ = np.ones(len(texts), dtype=bool)
    if fragments:   # reads that shared k-mers place one way only are decided so
        forward, backward = placed_ways(reference, texts, rc)
        flip = backward & ~forward
        open_ = forward == backward
    rest = np.flatnonzero(open_)
    if rest.size:
        flip[rest] = voted([texts[i] for i in rest], [rc[i] for i in rest], faced, device,
                           fragments)
    log.info("adjust direction: %d of %d added sequences reverse-complemented",
             int(flip.sum()), len(texts))
    return flip


def placed_ways(reference: list[str], texts: list[str], rc: list[str]
                ) -> tuple[np.ndarray, np.ndarray]:
    """Whether each read is placed on ``reference`` by shared k-mers as given and as turned
    (:func:`bioplug.progressive.adding.placements`, the rows laid side by side ungapped)."""
    from bioplug.progressive.adding import placements

    width = max(len(r) for r in reference)
    rows = np.full((len(reference), width), ord("-"), dtype=np.uint8)
    for i, r in enumerate(reference):
        rows[i, :len(r)] = np.frombuffer(r.encode("latin-1", "replace"), np.uint8)
    every = np.arange(len(reference))
    return placements(rows, every, texts)[0] >= 0, placements(rows, every, rc)[0] >= 0


def adjusted(records: list[SeqRecord], device=None, seqtype: str = "auto"
             ) -> tuple[list[SeqRecord], np.ndarray]:
    """``records`` facing one direction (the turned ones new records, reverse-complemented,
    under their own ids) and which were turned.

    Raises
    ------
    InputError
        Not nucleotides, or a turned sequence whose ``_R_`` name another sequence has.
    """
    texts = [str(r.seq) for r in records]
    flip = turned(texts, device, [r.id for r in records], seqtype)
    rna = family_is_rna(texts, seqtype)
    # refused before the alignment's work: two rows of one name in the output
    kept = {r.id for r, f in zip(records, flip, strict=True) if not f}
    clash = [r.id for r, f in zip(records, flip, strict=True) if f and PREFIX + r.id in kept]
    if clash:
        raise InputError(f"{clash[0]} is turned, and {PREFIX}{clash[0]}, the name it would take, "
                         "is another sequence's: rename one of them")
    out = [SeqRecord(Seq(complement(str(r.seq), rna)), id=r.id, name=r.name,
                     description=r.description) if f else r
           for r, f in zip(records, flip, strict=True)]
    return out, flip


def adjusted_to(reference: list[SeqRecord], records: list[SeqRecord], device=None,
                seqtype: str = "auto", fragments: bool = False
                ) -> tuple[list[SeqRecord], np.ndarray]:
    """``records`` turned to face ``reference``'s way (:func:`turned_to`), as
    :func:`adjusted` returns them."""
    texts = [str(r.seq) for r in records]
    flip = turned_to([str(r.seq) for r in reference], texts, device, seqtype, fragments,
                     [r.id for r in reference] + [r.id for r in records])
    taken = {r.id for r in reference} | {r.id for r, f in zip(records, flip, strict=True)
                                          if not f}
    clash = [r.id for r, f in zip(records, flip, strict=True) if f and PREFIX + r.id in taken]
    if clash:
        raise InputError(f"{clash[0]} is turned, and {PREFIX}{clash[0]}, the name it would take, "
                         "is another sequence's: rename one of them")
    rna = family_is_rna([str(r.seq) for r in reference] + texts, seqtype)
    return [SeqRecord(Seq(complement(str(r.seq), rna)), id=r.id, name=r.name,
                      description=r.description) if f else r
            for r, f in zip(records, flip, strict=True)], flip


def tree_linkage(guide_tree, ids: list[str], flip: np.ndarray | None) -> np.ndarray:
    """The linkage of a given guide tree whose tips are ``ids``, or, for a tree that a run
    with the direction adjusted wrote (``--tree-out``: its turned tips named ``_R_<id>``),
    those names for the turned ones.

    Raises
    ------
    InputError
        The tree fits neither naming (the error of the plain ids).
    """
    from bioplug.progressive.trees import linkage_from_tree

    try:
        return linkage_from_tree(guide_tree, ids)
    except InputError:
        if flip is None or not flip.any():
            raise
        renamed = [PREFIX + i if f else i for i, f in zip(ids, flip, strict=True)]
        try:
            return linkage_from_tree(guide_tree, renamed)
        except InputError:
            pass
        raise


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
