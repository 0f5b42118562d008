"""Both strands of nucleotide searches, as BLASTN and SSEARCH search them.

A nucleotide query is searched as given (plus strand) and as its reverse complement (minus
strand): the scan sees one more query per query, and each query keeps its best ``top`` hits
of either strand (by E-value, as :func:`bioplug.pairwise.search.search` ranks them; then
database number, plus strand first). A minus-strand
hit is reported as BLAST+ reports one: the query's positions ascending (``qstart < qend``, on
the query as given), the subject's descending (``sstart > send``), ``qseq`` / ``sseq`` the
aligned rows reverse-complemented (the query reads as given), ``sstrand`` "minus", and its
``coordinates`` in Biopython's convention for the reverse strand: the query's row runs down
its positions as given, so ``Bio.Align``'s SAM writer records FLAG 16 and the read
reverse-complemented, and a printed alignment shows the reverse complement.
"""

from __future__ import annotations

import math

import numpy as np
from Bio.Seq import reverse_complement

from bioplug.alphabet import Scoring
from bioplug.errors import InputError

STRANDS = ("auto", "plus", "minus", "both")
#: Letters only protein alphabets have: a scoring with any of them is a protein scoring.
_PROTEIN_ONLY = set("EFILPQ")


def nucleotide(scoring: Scoring) -> bool:
    """Whether ``scoring`` compares nucleotides (A, C, G and T or U, and no amino acid only
    proteins have)."""
    letters = {str(c).upper() for c in scoring.letters}
    return {"A", "C", "G"} <= letters and bool(letters & {"T", "U"}) \
        and not letters & _PROTEIN_ONLY


def chosen(strand: str, scoring: Scoring) -> tuple[str, ...]:
    """The strands to search: "auto" is both for a nucleotide scoring, plus otherwise.

    Raises
    ------
    InputError
        An unknown name, or the minus strand with a protein scoring.
    """
    if strand not in STRANDS:
        raise InputError(f"strand must be one of {', '.join(STRANDS)}, not {strand!r}")
    dna = nucleotide(scoring)
    if strand in ("minus", "both") and not dna:
        raise InputError(f"--strand {strand}: a protein scoring has no minus strand")
    if strand == "auto":
        return ("plus", "minus") if dna else ("plus",)
    return ("plus", "minus") if strand == "both" else (strand,)


def expand(ids: list[str], codes: list[np.ndarray], strands: tuple[str, ...],
           scoring: Scoring) -> tuple[list[str], list[np.ndarray], np.ndarray, list[str]]:
    """The queries the scan sees: each query once per strand (the minus strand's
    reverse-complemented). Returns their ids, codes, original query numbers and strands."""
    out_ids, out_codes, origin, which = [], [], [], []
    for strand in strands:
        for q, (name, c) in enumerate(zip(ids, codes, strict=True)):
            out_ids.append(name)
            out_codes.append(c if strand == "plus" else _reverse_complement(c, scoring))
            origin.append(q)
            which.append(strand)
    return out_ids, out_codes, np.array(origin, dtype=np.int64), which


def _reverse_complement(codes: np.ndarray, scoring: Scoring) -> np.ndarray:
    """Codes of the reverse complement (IUPAC codes complemented; a letter without a
    complement, such as ``*``, stays as it is)."""
    from bioplug.pairwise.fasta import code_table

    letters = np.array([str(c) for c in scoring.letters])
    text = reverse_complement("".join(letters[codes]))
    back = code_table(scoring)[np.frombuffer(text.encode("ascii"), dtype=np.uint8)]
    return np.where(back == 255, codes[::-1], back).astype(np.uint8)


def best_of_strands(best: list[tuple], origin: np.ndarray, which: list[str], top: int,
                    keys: list | None = None) -> list[tuple]:
    """Each query's ``top`` hits over its strands: the expanded queries' hit lists cut to
    those that make their query's list (score descending, or ``keys`` ascending where
    given: log E-values; then database number, plus first)."""
    out = [(np.zeros(0, np.int64), np.zeros(0, np.int64)) for _ in best]
    for q in np.unique(origin):
        entries = np.flatnonzero(origin == q)
        scores = np.concatenate([best[e][0] for e in entries])
        numbers = np.concatenate([best[e][1] for e in entries])
        owner = np.concatenate([np.full(len(best[e][0]), e) for e in entries])
        minus = np.array([which[e] == "minus" for e in owner], dtype=bool)
        rank = -scores.astype(np.float64)
        if keys is not None:
            given = np.concatenate([keys[e] for e in entries])
            rank = given if not np.isnan(given).any() else rank
        keep = np.lexsort((minus, numbers, rank))[:top]
        for e in entries:
            mine = keep[owner[keep] == e]
            out[e] = (scores[mine], numbers[mine])
    return out


def joined(hits: list[list], origin: np.ndarray, which: list[str], queries: int) -> list[list]:
    """The expanded queries' hits as each query's list (E-value ascending, then score
    descending, database number, plus first), minus-strand hits reported as BLAST+ reports
    them."""
    out: list[list] = [[] for _ in range(queries)]
    for e, mine in enumerate(hits):
        for hit in mine:
            if which[e] == "minus":
                as_minus(hit)
            hit.query = int(origin[e])
            out[hit.query].append(hit)
    for mine in out:   # E-value first: fitted ones also weigh the subject's length
        mine.sort(key=lambda h: (h.evalue if h.evalue == h.evalue else math.inf, -h.score,
                                 h.subject, h.strand == "minus"))
    return out


def as_minus(hit) -> None:
    """A hit of the reverse-complemented query, in BLAST+'s terms for the query as given."""
    m = hit.query_length
    hit.qstart, hit.qend = m - hit.qend + 1, m - hit.qstart + 1
    hit.sstart, hit.send = hit.send, hit.sstart
    hit.qseq, hit.sseq = reverse_complement(hit.qseq), reverse_complement(hit.sseq)
    hit.coordinates = hit.coordinates.copy()
    hit.coordinates[0] = m - hit.coordinates[0]   # the query's row, down its positions
    hit.strand = "minus"
