"""Model parameters and input checks for the QuickProbs pipeline.

The numbers come from the JSON tables shipped in ``bioplug/msa/params`` (ProbCons 1.12 protein
pair-HMM, Gonnet 160 partition-function scores). Residues are encoded as ``uint8`` codes 0..19 in
the order ``ARNDCQEGHILKMFPSTWYV``; the ambiguity letters B, Z, J, X, U, O and ``*`` map to the
wildcard code 20, whose pair emissions are those of independent residues (no evidence either way)
and whose Gonnet scores are 0.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from bioplug.alphabet import check_codes, is_nucleotide
from bioplug.errors import InputError

log = logging.getLogger(__name__)

ALPHABET = "ARNDCQEGHILKMFPSTWYV"
WILDCARD = 20
NCODES = 21
AMBIGUOUS = "BZJXUO*"

_TABLE = np.full(256, 255, dtype=np.uint8)
for _i, _c in enumerate(ALPHABET):
    _TABLE[ord(_c)] = _i
    _TABLE[ord(_c.lower())] = _i
for _c in AMBIGUOUS:
    _TABLE[ord(_c)] = WILDCARD
    _TABLE[ord(_c.lower())] = WILDCARD


def _load(name: str) -> dict:
    return json.loads(resources.files("bioplug.msa").joinpath("params", name).read_text())


@dataclass(frozen=True)
class Model:
    """Device-ready parameter arrays.

    Attributes
    ----------
    hmm : numpy.ndarray
        float32: log initial distribution (5), log transitions (5x5, from*5+to), log single
        emissions (21), log pair emissions (21x21).
    pf : numpy.ndarray
        float64: beta*score (21x21), beta*gap_open, beta*gap_extend.
    """

    hmm: np.ndarray
    pf: np.ndarray


@lru_cache(maxsize=1)
def load_model() -> Model:
    """The ProbCons/MSAProbs protein defaults as kernel arrays (cached)."""
    h = _load("probcons_protein_hmm5.json")
    g = _load("gonnet160_partition.json")
    if h["alphabet"] != ALPHABET or g["alphabet"] != ALPHABET:
        raise ValueError("parameter tables use an unexpected alphabet order")
    init = np.asarray(h["init_distribution"], dtype=np.float64)
    go = np.asarray(h["gap_open"], dtype=np.float64)
    ge = np.asarray(h["gap_extend"], dtype=np.float64)
    trans = np.zeros((5, 5))
    trans[0, 0] = 1.0 - 2.0 * (go[0] + go[1])
    for k in range(2):
        for s in (1 + 2 * k, 2 + 2 * k):
            trans[0, s] = go[k]
            trans[s, s] = ge[k]
            trans[s, 0] = 1.0 - ge[k]
    single = np.empty(NCODES)
    single[:20] = h["emit_single"]
    single[20] = 1.0 / 20.0
    pairs = np.empty((NCODES, NCODES))
    pairs[:20, :20] = np.asarray(h["emit_pairs"])
    pairs[20, :20] = single[20] * single[:20]
    pairs[:20, 20] = single[20] * single[:20]
    pairs[20, 20] = single[20] ** 2
    with np.errstate(divide="ignore"):
        hmm = np.concatenate([np.log(init), np.log(trans).ravel(), np.log(single),
                              np.log(pairs).ravel()]).astype(np.float32)
    d = g["partition_function_defaults"]
    beta = 1.0 / float(d["temperature"])
    scores = np.zeros((NCODES, NCODES))
    scores[:20, :20] = np.asarray(g["scores"], dtype=np.float64)
    pf = np.concatenate([(beta * scores).ravel(),
                         [beta * float(d["gap_open"]), beta * float(d["gap_extend"])]])
    return Model(hmm=hmm, pf=pf.astype(np.float64))


def encode(text: str, name: str) -> np.ndarray:
    """Codes of a (gap-free) protein sequence; InputError naming an unknown letter."""
    raw = np.frombuffer(text.encode("latin-1", errors="replace"), dtype=np.uint8)
    codes = _TABLE[raw]
    check_codes(codes, text, name,
                f"an amino-acid letter ({ALPHABET}, or {AMBIGUOUS} as wildcards)")
    return codes


def check_protein(texts: list[str], names: list[str]) -> None:
    """Refuse nucleotide input (:func:`bioplug.alphabet.is_nucleotide`): the QuickProbs
    pipeline has a protein model only."""
    if sum(len(t) for t in texts) >= 10 and is_nucleotide(texts):
        raise InputError(
            "the input looks like nucleotide sequences; the QuickProbs pipeline has a protein "
            "model only (ProbCons pair-HMM, Gonnet 160): align them with "
            "bioplug.ProgressiveAligner / bioplug msa --method progressive, or translate them "
            f"first (first record: {names[0]})"
        )
