"""Model parameters and input checks for the QuickProbs pipeline.

Two models ship as JSON tables in ``bioplug/msa/params``:

- protein (:func:`load_model`, the default): the ProbCons 1.12 pair-HMM and the VTML200
  partition-function scores with QuickProbs 2's gap and temperature defaults (Gonnet 160 with
  MSAProbs' defaults, QuickProbs 1's choice, stays available: ``partition="gonnet160"``).
  Residues are ``uint8`` codes 0..19 in the order ``ARNDCQEGHILKMFPSTWYV``; the ambiguity
  letters B, Z, J, X, U, O and ``*`` map to the wildcard code 20, which gets what QuickProbs 2.06
  gives X (:data:`WILDCARD_MODEL`): ProbCons' emissions for letters outside the 20 and the
  partition table's X row.
- nucleotide (``load_model("dna")`` or ``"rna"``): the ProbConsRNA 1.1 pair-HMM and HOXD70
  partition-function scores of QuickProbs 2's nucleotide mode. Codes 0..3 are A, C, G, T (U is
  read as T); codes 4.. are the IUPAC ambiguity letters R Y S W K M B D H V N, whose emissions
  and scores are the means over the letters they stand for.

Letters of either case are accepted; the pipeline aligns codes and writes the input's own
letters. The kernels take the alphabet size from :attr:`Model.ncodes` (``-D NA``).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import numpy as np

from bioplug.alphabet import check_codes, nucleotide_checked
from bioplug.errors import InputError

log = logging.getLogger(__name__)

ALPHABET = "ARNDCQEGHILKMFPSTWYV"
WILDCARD = 20
NCODES = 21
AMBIGUOUS = "BZJXUO*"

#: Nucleotide codes: the four bases, then the IUPAC ambiguity letters with their meaning.
NUCLEOTIDES = "ACGT"
IUPAC = {"R": "AG", "Y": "CT", "S": "CG", "W": "AT", "K": "GT", "M": "AC",
         "B": "CGT", "D": "AGT", "H": "ACT", "V": "ACG", "N": "ACGT"}
SEQTYPES = ("auto", "protein", "dna", "rna")


def _protein_table() -> np.ndarray:
    table = np.full(256, 255, dtype=np.uint8)
    for i, c in enumerate(ALPHABET):
        table[ord(c)] = table[ord(c.lower())] = i
    for c in AMBIGUOUS:
        table[ord(c)] = table[ord(c.lower())] = WILDCARD
    return table


def _nucleotide_table() -> np.ndarray:
    table = np.full(256, 255, dtype=np.uint8)
    for i, c in enumerate(NUCLEOTIDES + "".join(IUPAC)):
        table[ord(c)] = table[ord(c.lower())] = i
    table[ord("U")] = table[ord("u")] = NUCLEOTIDES.index("T")
    return table


_TABLE = _protein_table()


def _load(name: str) -> dict:
    return json.loads(resources.files("bioplug.msa").joinpath("params", name).read_text(
        encoding="utf-8"))


@dataclass(frozen=True)
class Model:
    """Device-ready parameter arrays of one alphabet (K = ``ncodes`` codes).

    Attributes
    ----------
    hmm : numpy.ndarray
        float32: log initial distribution (5), log transitions (5x5, from*5+to), log single
        emissions (K), log pair emissions (KxK).
    pf : numpy.ndarray
        float64: beta*score (KxK), beta*gap_open, beta*gap_extend.
    name : str
        "protein" or "nucleotide".
    ncodes : int
        K, the number of codes (21 protein, 15 nucleotide); the kernels' ``NA``.
    table : numpy.ndarray
        (256,) uint8 code of every byte (255: not in the alphabet).
    letters : str
        What :func:`encode` accepts, for messages.
    """

    hmm: np.ndarray
    pf: np.ndarray
    name: str = "protein"
    ncodes: int = NCODES
    table: np.ndarray = field(default_factory=_protein_table, repr=False)
    letters: str = f"an amino-acid letter ({ALPHABET}, or {AMBIGUOUS} as wildcards)"


def _transitions(go: np.ndarray, ge: np.ndarray) -> np.ndarray:
    """The ProbCons 5-state transition matrix from the short/long gap open and extend."""
    trans = np.zeros((5, 5))
    trans[0, 0] = 1.0 - 2.0 * (go[0] + go[1])
    for k in range(2):
        for s in (1 + 2 * k, 2 + 2 * k):
            trans[0, s] = go[k]
            trans[s, s] = ge[k]
            trans[s, 0] = 1.0 - ge[k]
    return trans


def _pack(init, trans, single, pairs, beta_scores, beta, gap_open, gap_extend):
    with np.errstate(divide="ignore"):
        hmm = np.concatenate([np.log(init), np.log(trans).ravel(), np.log(single),
                              np.log(pairs).ravel()]).astype(np.float32)
    pf = np.concatenate([(beta * beta_scores).ravel(), [beta * gap_open, beta * gap_extend]])
    return hmm, pf.astype(np.float64)


#: Partition-function table of the protein model, ``params/<name>_partition.json``: "vtml200"
#: (QuickProbs 2.06's default; on BAliBASE RV11+RV12 SP +0.2, TC +0.6 over Gonnet 160, see
#: benchmarks/RESULTS_msa.md) or "gonnet160" (MSAProbs and QuickProbs 1).
PROTEIN_PARTITION = "vtml200"
#: The protein partition function of anchor mode (large families): Gonnet 160. VTML200's gain
#: is a dev-set one (BAliBASE, full mode); on the smallest HomFam dev families in anchor mode
#: it lost on average (bowman, ghf33, HTH_AraC, Huristasin, hip: SP 66.3 / 56.8 / 78.6 / 63.7 /
#: 75.7 with Gonnet 160, 63.7 / 66.2 / 65.3 / 52.1 / 79.9 with VTML200, mean -2.8 SP, TC
#: equal; the three full-mode ones were unchanged), so large families keep the model they
#: were tuned with.
ANCHOR_PARTITION = "gonnet160"


#: What the protein models make of the wildcard code (B, Z, J, X, U, O, ``*``): "probcons"
#: (default), the values ProbCons 1.12 and QuickProbs 2.06 give every letter outside the 20 in
#: the pair-HMM (single emission 1e-5, pair emission 1e-10 with any letter: a wildcard is
#: almost never matched and costs a rare insertion) and the table's own X row in the partition
#: function (``wildcard_scores``: VTML200's; Gonnet 160's X row is 0); "neutral", a residue of
#: unknown identity (single 1/20, pair emissions of independent residues, scores 0). On
#: BAliBASE RV11 + RV12 (23 of 82 families have X) "probcons" gained SP +0.08, TC +0.30
#: (benchmarks/RESULTS_msa.md); B and Z get X's values, not QuickProbs' own B / Z rows.
WILDCARD_MODEL = "probcons"


def load_model(seqtype: str = "protein", partition: str | None = None) -> Model:
    """Kernel arrays of the model for ``seqtype`` ("protein", "dna" or "rna"; cached).

    DNA and RNA share one model (U is read as T). ``partition`` names the protein
    partition-function table (default :data:`PROTEIN_PARTITION`).
    """
    return _load_model(seqtype, partition or PROTEIN_PARTITION, WILDCARD_MODEL)


@lru_cache(maxsize=8)
def _load_model(seqtype: str, partition: str, wildcard: str = "probcons") -> Model:
    if seqtype in ("dna", "rna", "nucleotide"):
        return _nucleotide_model()
    if seqtype != "protein":
        raise InputError(f"seqtype must be protein, dna or rna, not {seqtype!r}")
    h = _load("probcons_protein_hmm5.json")
    g = _load(f"{partition}_partition.json")
    if h["alphabet"] != ALPHABET or g["alphabet"] != ALPHABET:
        raise ValueError("parameter tables use an unexpected alphabet order")
    single = np.empty(NCODES)
    single[:20] = h["emit_single"]
    pairs = np.empty((NCODES, NCODES))
    pairs[:20, :20] = np.asarray(h["emit_pairs"])
    scores = np.zeros((NCODES, NCODES))
    scores[:20, :20] = np.asarray(g["scores"], dtype=np.float64)
    if wildcard == "probcons":
        single[20] = h["wildcard"]["emit_single"]
        pairs[20, :] = pairs[:, 20] = h["wildcard"]["emit_pair"]
        if "wildcard_scores" in g:
            w = np.asarray(g["wildcard_scores"], dtype=np.float64)
            scores[20, :20] = scores[:20, 20] = w[:20]
            scores[20, 20] = w[20]
    elif wildcard == "neutral":
        single[20] = 1.0 / 20.0
        pairs[20, :20] = single[20] * single[:20]
        pairs[:20, 20] = single[20] * single[:20]
        pairs[20, 20] = single[20] ** 2
    else:
        raise ValueError(f"WILDCARD_MODEL must be probcons or neutral, not {wildcard!r}")
    d = g["partition_function_defaults"]
    hmm, pf = _pack(np.asarray(h["init_distribution"], dtype=np.float64),
                    _transitions(np.asarray(h["gap_open"]), np.asarray(h["gap_extend"])),
                    single, pairs, scores, 1.0 / float(d["temperature"]),
                    float(d["gap_open"]), float(d["gap_extend"]))
    return Model(hmm=hmm, pf=pf)


@lru_cache(maxsize=1)
def _nucleotide_model() -> Model:
    """ProbConsRNA pair-HMM + HOXD70 partition function; ambiguity codes as letter means."""
    h = _load("probconsrna_nucleotide_hmm5.json")
    if h["alphabet"] != NUCLEOTIDES:
        raise ValueError("nucleotide table uses an unexpected alphabet order")
    # Membership matrix (codes x bases), rows normalised: an ambiguity code's emission or score
    # is the plain mean over the bases it stands for (no base is favoured: IUPAC says which
    # bases are possible, not how likely each is).
    sets = [c for c in NUCLEOTIDES] + list(IUPAC.values())
    member = np.array([[float(b in s) for b in NUCLEOTIDES] for s in sets])
    member /= member.sum(axis=1, keepdims=True)
    single = member @ np.asarray(h["emit_single"], dtype=np.float64)
    pairs = member @ np.asarray(h["emit_pairs"], dtype=np.float64) @ member.T
    p = h["partition_function"]
    scores = member @ np.asarray(p["scores"], dtype=np.float64) @ member.T
    hmm, pf = _pack(np.asarray(h["init_distribution"], dtype=np.float64),
                    _transitions(np.asarray(h["gap_open"]), np.asarray(h["gap_extend"])),
                    single, pairs, scores, 1.0 / float(p["temperature"]),
                    float(p["gap_open"]), float(p["gap_extend"]))
    letters = NUCLEOTIDES + "".join(IUPAC)
    return Model(hmm=hmm, pf=pf, name="nucleotide", ncodes=len(letters),
                 table=_nucleotide_table(),
                 letters=f"a nucleotide letter ({letters}, U; any case)")


def encode(text: str, name: str, model: Model | None = None) -> np.ndarray:
    """Codes of a (gap-free) sequence in ``model``'s alphabet (default protein); InputError
    naming an unknown letter."""
    model = model or load_model()
    raw = np.frombuffer(text.encode("latin-1", errors="replace"), dtype=np.uint8)
    codes = model.table[raw]
    check_codes(codes, text, name, model.letters)
    return codes


def resolve_seqtype(texts: list[str], seqtype: str = "auto",
                    names: list[str] | None = None) -> str:
    """"protein", "dna" or "rna" for ``seqtype`` ("auto": :func:`bioplug.alphabet.is_nucleotide`
    decides, and RNA is nucleotide input with more U than T; nucleotides with a stray letter
    are refused (:func:`bioplug.alphabet.nucleotide_checked`, one pass), naming it in
    ``names``' terms)."""
    if seqtype not in SEQTYPES:
        raise InputError(f"seqtype must be one of {', '.join(SEQTYPES)}, not {seqtype!r}")
    if seqtype != "auto":
        return seqtype
    if not nucleotide_checked(texts, names):
        return "protein"
    u = sum(t.count("U") + t.count("u") for t in texts)
    t_ = sum(t.count("T") + t.count("t") for t in texts)
    return "rna" if u > t_ else "dna"


def molecule_type(seqtype: str) -> str:
    """Biopython's ``molecule_type`` annotation for a resolved seqtype."""
    return {"protein": "protein", "dna": "DNA", "rna": "RNA"}[seqtype]
