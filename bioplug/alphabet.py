"""Residue encodings and integer scoring schemes for the OpenCL kernels.

Kernels see sequences as small integer codes (``uint8``) and a square integer matrix indexed
by code. A :class:`Scoring` is built from a ``Bio.Align.PairwiseAligner``'s attributes (or from
a substitution-matrix name and gap scores); fractional scores are scaled to integers when an
exact scale exists, so the device's integer arithmetic reproduces Biopython's double-precision
scores exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from Bio.Align import substitution_matrices

from bioplug.errors import InputError

#: Largest alphabet the kernels accept (the matrix lives in local memory as MAXK x MAXK ints).
MAXK = 32
#: Scores are kept well inside int32 even after summing over 60,000 cells.
_MAX_SCALED = 2**14

# The order of the 12 gap scores handed to kernels: internal, left end, right end; for each
# insertion (gap in the target, consuming the query) then deletion (gap in the query).
GAP_FIELDS = (
    "open_internal_insertion_score", "extend_internal_insertion_score",
    "open_internal_deletion_score", "extend_internal_deletion_score",
    "open_left_insertion_score", "extend_left_insertion_score",
    "open_left_deletion_score", "extend_left_deletion_score",
    "open_right_insertion_score", "extend_right_insertion_score",
    "open_right_deletion_score", "extend_right_deletion_score",
)


@dataclass(frozen=True)
class Scoring:
    """An integer scoring scheme the kernels can run.

    Attributes
    ----------
    letters : tuple of str
        ``letters[code]`` is the residue a code stands for.
    matrix : numpy.ndarray
        (K, K) int32 substitution scores, already multiplied by ``scale``.
    gaps : numpy.ndarray
        int32 gap scores in :data:`GAP_FIELDS` order, multiplied by ``scale``
        (Biopython's sign convention: a gap of length k scores open + (k-1) * extend).
    local : bool
        Smith-Waterman (True) or global with the end-gap scores above (False).
    scale : int
        Divide device scores by this to get Biopython's scores.
    """

    letters: tuple
    matrix: np.ndarray
    gaps: np.ndarray
    local: bool
    scale: int = 1

    @property
    def symmetric(self) -> bool:
        """True when score(a, b) == score(b, a): a symmetric matrix and the same gap scores
        for insertions and deletions. The engine may then swap a pair's sides freely."""
        g = self.gaps
        return bool(np.array_equal(self.matrix, self.matrix.T)
                    and np.array_equal(g[0::4], g[2::4]) and np.array_equal(g[1::4], g[3::4]))

    @property
    def index(self) -> dict:
        return {c: i for i, c in enumerate(self.letters)}

    def encode(self, text, name: str = "sequence") -> np.ndarray:
        """Codes of a sequence; raise :class:`InputError` naming the first unknown letter."""
        table = self._byte_table()
        if table is not None and isinstance(text, str) and text.isascii():
            codes = table[np.frombuffer(text.encode("ascii"), dtype=np.uint8)]
            if len(codes) == 0 or codes.max() < 255:
                return codes
        else:
            index = self.index
            codes = np.fromiter((index.get(c, 255) for c in text), dtype=np.uint8,
                                count=len(text))
        check_codes(codes, text, name,
                    f"in the scoring alphabet ({''.join(map(str, self.letters))})")
        return codes

    def _byte_table(self) -> np.ndarray | None:
        """Code of every ASCII byte (255: not in the alphabet), when all letters are ASCII."""
        table = self.__dict__.get("_table")
        if table is None and all(isinstance(c, str) and len(c) == 1 and c.isascii()
                                 for c in self.letters):
            table = np.full(256, 255, dtype=np.uint8)
            for code, c in enumerate(self.letters):
                table[ord(c)] = code
            object.__setattr__(self, "_table", table)  # cached on the frozen instance
        return table

    def unscale(self, values):
        """Device integers back to Biopython's float scores."""
        return np.asarray(values, dtype=np.float64) / self.scale


#: IUPAC nucleotide codes (U counts as T).
NUCLEOTIDE_CODES = frozenset("ACGTUNRYSWKMBDHV")


def is_nucleotide(texts) -> bool:
    """True for DNA / RNA: every letter (any case; gaps ``-`` ``.`` aside) is an IUPAC
    nucleotide code and at least 90 % of them are A, C, G, T, U or N.

    The share rule keeps peptides made of letters that happen to be IUPAC codes (M, K, V, W,
    ...) on the protein side, as ClustalW's 85 % rule does.
    """
    return _nucleotide_by(*_plain_share(texts))


def rows_are_nucleotide(codes: np.ndarray) -> bool:
    """:func:`is_nucleotide` of an alignment's rows given as ASCII codes (a ``(k, L)`` uint8
    array), counted on the array itself instead of a copy of it as text."""
    counts = np.bincount(np.asarray(codes, dtype=np.uint8).ravel(), minlength=256)
    counts[ord("A"):ord("Z") + 1] += counts[ord("a"):ord("z") + 1]
    counts[ord("a"):ord("z") + 1] = 0
    return _nucleotide_by(*_share_of(counts))


def nucleotide_checked(texts, names=None) -> bool:
    """:func:`is_nucleotide`, with input that reads as nucleotides but for a stray letter
    refused (:func:`check_no_stray_letters`), in one pass over the letters."""
    share, all_codes = _plain_share(texts)
    if _nucleotide_by(share, all_codes):
        return True
    _refuse_stray_letter(texts, names, share, all_codes)
    return False


def _nucleotide_by(share: float, all_codes: bool) -> bool:
    return all_codes and share >= 0.9


def _plain_share(texts) -> tuple[float, bool]:
    """The share of letters that are A, C, G, T, U or N (gaps aside), and whether every
    letter is an IUPAC nucleotide code."""
    # One pass over all bytes (a letter count per sequence and letter was a tenth of a
    # 4,000-sequence family's alignment time); non-Latin-1 letters become "?", no code.
    data = np.frombuffer("".join(texts).upper().encode("latin-1", "replace"), np.uint8)
    return _share_of(np.bincount(data, minlength=256))


def _share_of(counts: np.ndarray) -> tuple[float, bool]:
    """:func:`_plain_share` from the count of each upper-case byte."""
    counts[[ord("-"), ord(".")]] = 0
    total = int(counts.sum())
    if not total:
        return 0.0, False
    present = {chr(c) for c in np.flatnonzero(counts)}
    plain = int(sum(counts[ord(c)] for c in "ACGTUN"))
    return plain / total, present <= NUCLEOTIDE_CODES


def check_no_stray_letters(texts, names=None) -> None:
    """Refuse input that reads as nucleotides but for letters that are no nucleotide code.

    :func:`is_nucleotide` takes such input for protein, and a DNA family with one stray
    ``J`` or ``*`` was aligned with the protein model without a word; MAFFT and Clustal
    Omega decide by the share of A, C, G, T, U and N letters and align it as DNA.

    Raises
    ------
    InputError
        Where at least 90 % of the letters are A, C, G, T, U or N and some letter is no IUPAC
        nucleotide code: naming the first such letter's sequence, position and letter.
    """
    _refuse_stray_letter(texts, names, *_plain_share(texts))


def _refuse_stray_letter(texts, names, share: float, all_codes: bool) -> None:
    if all_codes or share < 0.9:
        return
    allowed = NUCLEOTIDE_CODES | {c.lower() for c in NUCLEOTIDE_CODES} | {"-", "."}
    for i, text in enumerate(texts):   # the first stray letter: a rare path, read in Python
        pos = next((p for p, c in enumerate(text) if c not in allowed), None)
        if pos is not None:
            name = names[i] if names is not None else f"sequence {i + 1}"
            raise InputError(
                f"{name}: letter {text[pos]!r} at position {pos + 1} is not a nucleotide "
                f"code, in input that is otherwise nucleotides ({share:.1%} of the letters "
                "are A, C, G, T, U or N): correct the letter, or give the sequence type "
                "protein (--seqtype protein) to align it as protein")


def check_codes(codes: np.ndarray, text, name: str, expected: str) -> None:
    """Raise :class:`InputError` at the first code 255 (a letter the encoding lacks).

    The message names the sequence, the 1-based position and the letter, then says what
    was ``expected`` (e.g. ``"an amino-acid letter (...)"``).
    """
    bad = np.flatnonzero(codes == 255)
    if bad.size:
        pos = int(bad[0])
        raise InputError(
            f"{name}: letter {text[pos]!r} at position {pos + 1} is not {expected}"
        )


#: Characters a sequence file may hold: letters (any case), the gaps ``-`` and ``.``, and ``*``.
SEQUENCE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-.*"
_SEQUENCE_TABLE = np.full(256, 255, dtype=np.uint8)
_SEQUENCE_TABLE[np.frombuffer(SEQUENCE_LETTERS.encode("ascii"), dtype=np.uint8)] = 0


def check_sequence_letters(text: str, name: str) -> None:
    """Raise :class:`InputError` at the first character that is no sequence letter.

    Sequence letters are :data:`SEQUENCE_LETTERS`: ASCII letters, the gap characters ``-``
    and ``.``, and ``*`` (stop). Digits, ``#`` and other punctuation, white space and
    non-ASCII characters are refused. The command-line tools check their input files with
    this; the drop-in classes keep Biopython's behaviour (any letters).

    Parameters
    ----------
    text : str
        The sequence.
    name : str
        What to call it in the message (record id, ``"target 1 (a)"``, ...).

    Raises
    ------
    InputError
        Naming ``name``, the 1-based position and the character.
    """
    raw = text.encode("utf-8", errors="surrogatepass")
    if len(raw) == len(text):  # ASCII: one byte per character
        codes = _SEQUENCE_TABLE[np.frombuffer(raw, dtype=np.uint8)]
    else:
        codes = np.fromiter((0 if c in SEQUENCE_LETTERS else 255 for c in text),
                            dtype=np.uint8, count=len(text))
    check_codes(codes, text, name, "a sequence letter (A-Z, a-z, gaps - and ., or *)")


def _scale_for(values) -> int | None:
    """Smallest power of two that turns every value into an exact, small integer (or None).

    Only dyadic fractions (-0.5, 0.25, ...) qualify: Biopython sums scores in double
    precision, where sums of such values are exact, while a value like -0.1 already carries a
    rounding error that an integer engine would not reproduce.
    """
    denominators = 1
    for v in values:
        if not np.isfinite(v):
            return None
        f = Fraction(float(v))
        if f.denominator & (f.denominator - 1) or f.denominator > 1024:
            return None
        denominators = max(denominators, f.denominator)
    scale = int(denominators)
    if max((abs(float(v)) * scale for v in values), default=0) > _MAX_SCALED:
        return None
    return scale


def match_mismatch_letters(texts) -> tuple:
    """The distinct letters of some sequences, in order of first appearance."""
    seen: dict = {}
    for t in texts:
        for c in t:
            if c not in seen:
                seen[c] = None
    return tuple(seen)


def make_scoring(
    matrix=None,
    match: float = 1.0,
    mismatch: float = 0.0,
    gaps=None,
    local: bool = False,
    letters=None,
) -> Scoring | None:
    """Build a :class:`Scoring`; None when the kernels cannot reproduce it exactly.

    Parameters
    ----------
    matrix : Bio.Align.substitution_matrices.Array, str or None
        A substitution matrix or its name (``"BLOSUM62"``); None uses match/mismatch.
    match, mismatch : float
        Scores used when ``matrix`` is None.
    gaps : sequence of 12 floats
        Gap scores in :data:`GAP_FIELDS` order.
    local : bool
        Local (Smith-Waterman) instead of global.
    letters : sequence of str, optional
        The alphabet for match/mismatch scoring (see :func:`match_mismatch_letters`).
    """
    if isinstance(matrix, str):
        matrix = load_matrix(matrix)
    if matrix is not None:
        alphabet = matrix.alphabet
        if isinstance(alphabet, str):
            alphabet = tuple(alphabet)
        if len(matrix.shape) != 2 or len(alphabet) > MAXK:
            return None
        values = np.asarray(matrix, dtype=np.float64)
        letters = tuple(alphabet)
    else:
        letters = tuple(letters or ())
        if len(letters) > MAXK:
            return None
        k = max(len(letters), 1)
        values = np.full((k, k), float(mismatch))
        np.fill_diagonal(values, float(match))
    gaps = np.asarray(gaps if gaps is not None else [-1.0] * 12, dtype=np.float64)
    if local and (gaps[:4] > 0).any():  # the kernels' local mode assumes gaps never help
        return None
    scale = _scale_for(list(np.unique(values)) + list(gaps))
    if scale is None:
        return None
    mat = np.zeros((len(letters), len(letters)), dtype=np.int32)
    mat[:, :] = np.rint(values * scale).astype(np.int32)[: len(letters), : len(letters)]
    return Scoring(
        letters=letters,
        matrix=mat,
        gaps=np.rint(gaps * scale).astype(np.int32),
        local=bool(local),
        scale=scale,
    )


def load_matrix(name: str):
    """A substitution matrix by name, as a ``Bio.Align.substitution_matrices.Array``.

    Biopython's own matrices first; then the ``scoring-matrices`` package's (PFASUM, VTML,
    BLOSUM variants Biopython lacks; FAMSA 2's default is PFASUM43). An unknown name gets an
    error that lists the names that exist.
    """
    key = name.upper() if name.islower() else name
    try:
        return substitution_matrices.load(key)
    except (FileNotFoundError, ValueError):
        pass
    extra = _scoring_matrices_names()
    if key in extra:
        from scoring_matrices import ScoringMatrix

        found = ScoringMatrix.from_name(key)
        array = substitution_matrices.Array(
            alphabet=found.alphabet, dims=2, data=np.array([list(row) for row in found]))
        array.name = key
        return array
    available = ", ".join(sorted(set(substitution_matrices.load()) | extra))
    raise InputError(f"unknown substitution matrix {name!r}; available: {available}")


def _scoring_matrices_names() -> set[str]:
    from scoring_matrices import ScoringMatrix  # imported on demand: most runs never need it

    return set(ScoringMatrix.BUILTIN_MATRICES)


def simple_gaps(open_score: float, extend_score: float, mode: str = "global") -> list[float]:
    """The 12 gap scores of a plain global / semiglobal / local scheme.

    ``semiglobal`` makes every end gap free (score 0), as ``--mode semiglobal`` does.
    """
    internal = [open_score, extend_score] * 2
    end = [0.0] * 4 if mode == "semiglobal" else internal
    return internal + end + end
