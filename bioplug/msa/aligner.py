"""``MultipleSequenceAligner``: QuickProbs multiple alignment returning ``Bio.Align.Alignment``.

Example
-------
>>> from bioplug import MultipleSequenceAligner
>>> aln = MultipleSequenceAligner(seed=0).align("family.fasta")      # doctest: +SKIP
>>> print(format(aln, "fasta"))                                     # doctest: +SKIP

Inputs are protein sequences: a FASTA path, or a list of ``SeqRecord``, ``str``, ``Bio.Seq.Seq``
or ``skbio.Sequence``. Gap characters (``-``, ``.``) in the input are removed before aligning
(the input is treated as unaligned). Ids must be unique; empty sequences, nucleotide input and
letters that are not amino acids raise :class:`~bioplug.errors.InputError`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable

import numpy as np
from Bio.Align import Alignment
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.errors import InputError
from bioplug.io import as_record, check_unique_ids, read_records
from bioplug.msa import pipeline
from bioplug.msa.model import check_protein, encode, strip_gaps
from bioplug.progress import Progress, ProgressCallback

log = logging.getLogger(__name__)


def prepare_records(sequences) -> list[SeqRecord]:
    """Validated, gap-free SeqRecords from any supported input (see module docstring)."""
    if isinstance(sequences, (str, os.PathLike)):
        records = read_records(sequences)  # a path; raw sequences come as a list
    elif isinstance(sequences, Iterable):
        records = [as_record(item, i) for i, item in enumerate(sequences)]
    else:
        raise InputError(f"unsupported input type {type(sequences).__name__}")
    if not records:
        raise InputError("no sequences to align")
    check_unique_ids(records)
    out = []
    for i, rec in enumerate(records):
        text = strip_gaps(str(rec.seq))
        name = rec.id or f"sequence {i + 1}"
        if not text:
            raise InputError(f"{name}: empty sequence (record {i + 1})")
        encode(text, name)  # raises on unknown letters
        desc = "" if rec.description in (rec.id, "<unknown description>") else rec.description
        out.append(SeqRecord(Seq(text), id=rec.id, name=rec.name, description=desc))
    check_protein([str(r.seq) for r in out], [r.id for r in out])
    return out


def rows_to_alignment(records: list[SeqRecord], rows: list[str]) -> Alignment:
    """A ``Bio.Align.Alignment`` of gap-free records from equal-length gapped rows."""
    k = len(rows)
    L = len(rows[0]) if rows else 0
    arr = np.frombuffer("".join(rows).encode("latin-1"), dtype=np.uint8).reshape(k, L)
    res = arr != ord("-")
    steps = np.zeros((k, L + 1), dtype=np.int64)
    np.cumsum(res, axis=1, out=steps[:, 1:])
    if L > 1:
        change = np.flatnonzero((res[:, 1:] != res[:, :-1]).any(axis=0)) + 1
    else:
        change = np.zeros(0, dtype=np.int64)
    cols = np.concatenate([[0], change, [L]]) if L else np.array([0])
    for rec in records:
        rec.annotations.setdefault("molecule_type", "protein")
    alignment = Alignment(records, steps[:, cols])
    alignment.column_annotations = {}
    return alignment


class MultipleSequenceAligner:
    """QuickProbs (Gudys & Deorowicz 2014) multiple sequence alignment on an OpenCL device.

    Parameters
    ----------
    consistency : int
        Consistency passes c (default 2).
    refinement : int
        Random-split refinement passes r (default 10).
    accurate : bool
        QuickProbs-acc: per-matrix threshold keeping the top 30 % of each posterior matrix.
    seed : int
        Seed of the refinement splits (same input, seed and device give the same alignment).
    device : optional
        OpenCL device specification or Runtime (see ``bioplug devices``).
    anchors, node_pairs : int, keyword-only
        Large-family (anchor) mode: number of anchor sequences for consistency, and sampled
        cross pairs per guide-tree node (see :mod:`bioplug.msa.pipeline`).
    max_full : int, keyword-only
        Most sequences aligned in full mode (all k^2 matrices, O(k^3) consistency).
    host_budget_gb : float, keyword-only
        Estimated sparse-matrix storage above which anchor mode is used.
    fast_distances : bool, keyword-only
        Anchor mode only: guide-tree distances from the pair-HMM posterior alone (skips the
        partition function for the all-pairs pass; off by default).

    Attributes
    ----------
    last_times : dict
        Seconds per stage ("I".."IV") of the last ``align`` call.
    last_mode : str
        "full", or "anchor" for large families (see :mod:`bioplug.msa.pipeline`).
    """

    def __init__(self, consistency: int = 2, refinement: int = 10, accurate: bool = False,
                 seed: int = 0, device=None, *, anchors: int = 32, node_pairs: int = 128,
                 max_full: int = 300, host_budget_gb: float = 4.0,
                 fast_distances: bool = False):
        if consistency < 0 or refinement < 0:
            raise InputError("consistency and refinement must be >= 0")
        self.consistency = int(consistency)
        self.refinement = int(refinement)
        self.accurate = bool(accurate)
        self.seed = int(seed)
        self.device = device
        self.options = {"anchors": int(anchors), "node_pairs": int(node_pairs),
                        "max_full_k": int(max_full), "host_budget": float(host_budget_gb) * 2**30,
                        "fast_distances": bool(fast_distances)}
        self.last_times: dict = {}
        self.last_mode = "full"

    def __repr__(self) -> str:
        return (f"MultipleSequenceAligner(consistency={self.consistency}, "
                f"refinement={self.refinement}, accurate={self.accurate}, seed={self.seed}, "
                f"device={self.device!r})")

    def align(self, sequences, progress: ProgressCallback | None = None) -> Alignment:
        """Align protein sequences.

        Parameters
        ----------
        sequences : path, or iterable of SeqRecord / str / Seq / skbio.Sequence
            The unaligned sequences (gaps are removed).
        progress : callable, optional
            ``progress(stage, done, total)``; returning False cancels between kernel launches
            (:class:`bioplug.progress.Cancelled` is raised).

        Returns
        -------
        Bio.Align.Alignment
            Rows in input order, record ids kept.
        """
        records = prepare_records(sequences)
        result = pipeline.run(
            [str(r.seq) for r in records], [r.id for r in records],
            consistency=self.consistency, refinement=self.refinement, accurate=self.accurate,
            seed=self.seed, device=self.device, progress=Progress(progress), **self.options,
        )
        self.last_times = result.times
        self.last_mode = result.mode
        return rows_to_alignment(records, result.rows)
