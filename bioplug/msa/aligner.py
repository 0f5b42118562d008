"""``MultipleSequenceAligner``: QuickProbs multiple alignment returning ``Bio.Align.Alignment``.

Example
-------
>>> from bioplug import MultipleSequenceAligner
>>> aln = MultipleSequenceAligner(seed=0).align("family.fasta")      # doctest: +SKIP
>>> print(format(aln, "fasta"))                                     # doctest: +SKIP

Inputs are protein, DNA or RNA sequences: a FASTA path, or a list of ``SeqRecord``, ``str``,
``Bio.Seq.Seq`` or ``skbio.Sequence``. Gap characters (``-``, ``.``) in the input are removed
before aligning (the input is treated as unaligned). The model follows the alphabet
(``seqtype="auto"``: :func:`bioplug.alphabet.is_nucleotide` decides; see
:mod:`bioplug.msa.model`); the rows keep the input's letters (case, U or T, ambiguity codes).
Ids must be unique; empty sequences and letters outside the alphabet raise
:class:`~bioplug.errors.InputError`.

Many families: ``align_many([path1, path2, ...])`` (or ``align_each`` to get each result as it
is done) keeps one device context and its built programs, and reads and checks the next input
on a thread while the device aligns the current one.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial

import numpy as np
from Bio.Align import Alignment
from Bio.SeqRecord import SeqRecord

from bioplug.errors import BioplugError, InputError
from bioplug.faults import device_guard
from bioplug.io import alignment_from_rows, read_sequences, ungapped
from bioplug.msa import pipeline
from bioplug.msa.model import encode, load_model, molecule_type, resolve_seqtype
from bioplug.progress import Cancelled, Progress, ProgressCallback
from bioplug.progressive.trees import newick_from_linkage

log = logging.getLogger(__name__)


def prepare_records(sequences, seqtype: str = "auto") -> list[SeqRecord]:
    """Validated, gap-free SeqRecords from any supported input (see module docstring);
    letters are checked against the alphabet of ``seqtype`` (resolved from the input when
    "auto")."""
    out = ungapped(read_sequences(sequences))
    model = load_model(resolve_seqtype([str(r.seq) for r in out], seqtype,
                                       [r.id or f"sequence {i + 1}" for i, r in enumerate(out)]))
    for i, rec in enumerate(out):
        encode(str(rec.seq), rec.id or f"sequence {i + 1}", model)  # raises on unknown letters
    return out


def rows_to_alignment(records: list[SeqRecord], rows, seqtype: str = "protein") -> Alignment:
    """A ``Bio.Align.Alignment`` of gap-free records from equal-length gapped rows.

    Kept for callers of the earlier name: :func:`bioplug.io.alignment_from_rows` with the
    ``molecule_type`` of ``seqtype``.
    """
    return alignment_from_rows(records, rows, molecule_type=molecule_type(seqtype))


def annotate_reliability(alignment: Alignment, columns: np.ndarray,
                         residues: np.ndarray) -> None:
    """Put the reliabilities of :mod:`bioplug.msa.reliability` on ``alignment``: the numbers
    as ``column_reliability``, HMMER's code as the Stockholm column and letter annotations.

    Parameters
    ----------
    alignment : Bio.Align.Alignment
        The alignment, changed in place (its records get ``letter_annotations``).
    columns : numpy.ndarray
        One reliability per column (NaN for none).
    residues : numpy.ndarray
        One per residue, the records' ungapped sequences concatenated in row order.
    """
    from bioplug.msa.reliability import pp_text

    alignment.column_reliability = columns
    annotations = getattr(alignment, "column_annotations", None) or {}
    annotations["consensus posterior probability"] = pp_text(columns)
    alignment.column_annotations = annotations
    start = 0
    for record in alignment.sequences:
        n = len(record.seq)
        record.letter_annotations["posterior probability"] = pp_text(residues[start:start + n])
        start += n


def input_name(item, index: int) -> str:
    """How a batch input is named in messages: its path, else ``input N``."""
    if isinstance(item, (str, os.PathLike)):
        return os.fspath(item)
    return f"input {index + 1}"


def _named(exc: Exception, name: str) -> Exception:
    """``exc`` as a BioplugError whose message names the input (once)."""
    text = str(exc)
    message = text if text.startswith(name) else f"{name}: {text}"
    if isinstance(exc, BioplugError):
        cls = type(exc)
    elif isinstance(exc, (OSError, ValueError)):  # unreadable or malformed input
        cls = InputError
    else:
        cls = BioplugError
    try:
        return cls(message)
    except TypeError:  # a subclass with a different constructor
        return BioplugError(message)


@dataclass
class FamilyResult:
    """One input of :meth:`MultipleSequenceAligner.align_each`.

    Attributes
    ----------
    index : int
        Position in the inputs.
    name : str
        The input's path, else ``input N`` (for messages).
    alignment : Bio.Align.Alignment or None
        None when this input failed (``keep_going=True``).
    error : Exception or None
        Why it failed, with a message naming the input.
    times : dict
        Seconds per stage ("I".."IV").
    mode : str
        "full" or "anchor".
    """

    index: int
    name: str
    alignment: Alignment | None = None
    error: Exception | None = None
    times: dict = field(default_factory=dict)
    mode: str = "full"


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
        OpenCL device specification or Runtime (see ``bioplug devices``); ``"all"``: every
        GPU shares stage I, the rest runs on the first.
    anchors, node_pairs : int, keyword-only
        Large-family (anchor) mode: number of anchor sequences for consistency, and sampled
        cross pairs per guide-tree node (see :mod:`bioplug.msa.pipeline`).
    max_full : int, keyword-only
        Most sequences aligned in full mode (all k^2 matrices, O(k^3) consistency).
    host_budget_gb : float, keyword-only
        Estimated sparse-matrix storage above which anchor mode is used.
    fast_distances : bool, keyword-only
        Anchor mode only: the guide tree from an all-pairs pass of the pair-HMM posterior
        alone (no partition function) instead of the default, UPGMA on the pairwise engine's
        local-alignment distances (see :mod:`bioplug.msa.pipeline`); off by default.
    seqtype : {"auto", "protein", "dna", "rna"}, keyword-only
        Alphabet and model (as ``ProgressiveAligner``'s ``seqtype``): "auto" (default) takes the
        nucleotide model (ProbConsRNA pair-HMM, HOXD70 partition function) when
        :func:`bioplug.alphabet.is_nucleotide` says so, else the protein one.
    reliability : bool, keyword-only
        Also annotate how reliable each column and residue is: a column's is the mean
        posterior of the residue pairs it aligns (ProbCons' and QuickProbs' ``--annot``), a
        residue's the mean posterior of what the alignment does with it (see
        :mod:`bioplug.msa.reliability`). The alignment then has ``column_reliability`` (a
        float per column, NaN where no pair of its residues was computed: a column of one
        residue, and in anchor mode, above ``max_full`` sequences, a few more), the text
        ``column_annotations["consensus posterior probability"]`` and each record's
        ``letter_annotations["posterior probability"]`` in HMMER's code, which a Stockholm
        file carries as ``#=GC PP_cons`` and ``#=GR <id> PP`` lines.
    adjust_direction : bool, keyword-only
        Nucleotides only: reverse-complement the sequences that face the other way first
        (``mafft --adjustdirection``; :mod:`bioplug.msa.direction`). Their rows are named
        ``_R_<id>``, and ``alignment.reversed_ids`` lists their ids.

    Attributes
    ----------
    last_times : dict
        Seconds per stage ("I".."IV") of the last ``align`` call.
    last_mode : str
        "full", or "anchor" for large families (see :mod:`bioplug.msa.pipeline`).
    last_seqtype : str
        "protein", "dna" or "rna": the model of the last alignment.
    last_errors : list of FamilyResult
        Failed families of the last ``align_many`` / ``align_each`` with ``keep_going``.
    """

    def __init__(self, consistency: int = 2, refinement: int = 10, accurate: bool = False,
                 seed: int = 0, device=None, *, anchors: int = 32, node_pairs: int = 128,
                 max_full: int = 300, host_budget_gb: float = 4.0,
                 fast_distances: bool = False, seqtype: str = "auto",
                 reliability: bool = False, adjust_direction: bool = False):
        if consistency < 0 or refinement < 0:
            raise InputError("consistency and refinement must be >= 0")
        resolve_seqtype([], seqtype)  # raises for an unknown name now, not at align time
        self.seqtype = seqtype
        self.last_seqtype = "protein"
        self.consistency = int(consistency)
        self.refinement = int(refinement)
        self.accurate = bool(accurate)
        self.seed = int(seed)
        self.device = device
        self.adjust_direction = bool(adjust_direction)
        self.options = {"anchors": int(anchors), "node_pairs": int(node_pairs),
                        "max_full_k": int(max_full), "host_budget": float(host_budget_gb) * 2**30,
                        "fast_distances": bool(fast_distances),
                        "reliability": bool(reliability)}
        self.last_times: dict = {}
        self.last_mode = "full"
        self.last_errors: list[FamilyResult] = []

    def __repr__(self) -> str:
        return (f"MultipleSequenceAligner(consistency={self.consistency}, "
                f"refinement={self.refinement}, accurate={self.accurate}, seed={self.seed}, "
                f"seqtype={self.seqtype!r}, reliability={self.options['reliability']}, "
                f"device={self.device!r})")

    @device_guard
    def align(self, sequences, progress: ProgressCallback | None = None,
              guide_tree=None) -> Alignment:
        """Align protein, DNA or RNA sequences.

        Parameters
        ----------
        sequences : path, or iterable of SeqRecord / str / Seq / skbio.Sequence
            The unaligned sequences (gaps are removed).
        progress : callable, optional
            ``progress(stage, done, total)``; returning False cancels between kernel launches
            (:class:`bioplug.progress.Cancelled` is raised).
        guide_tree : optional
            A tree to align along instead of stage II's UPGMA tree (as Clustal Omega's
            ``--guidetree-in`` and ``mafft --treein``): Newick text or file,
            ``skbio.TreeNode``, ``Bio.Phylo`` tree or a scipy linkage; tips are the record ids,
            multifurcations resolved into pairs. Its sequence weights are the tree's.

        Returns
        -------
        Bio.Align.Alignment
            Rows in input order, record ids kept; ``alignment.guide_tree`` is the guide tree
            of stage II (rooted Newick, branch lengths half the UPGMA heights).
        """
        return self._align_records(prepare_records(sequences, self.seqtype), Progress(progress),
                                   guide_tree)

    def _align_records(self, records: list[SeqRecord], progress: Progress,
                       guide_tree=None) -> Alignment:
        from bioplug.msa import direction

        flip = None
        if self.adjust_direction:
            records, flip = direction.adjusted(records, self.device, self.seqtype)
        texts = [str(r.seq) for r in records]
        link = None if guide_tree is None else direction.tree_linkage(
            guide_tree, [r.id for r in records], flip)
        seqtype = resolve_seqtype(texts, self.seqtype, [r.id for r in records])
        log.info("msa: %s model (%s)", load_model(seqtype).name, seqtype)
        result = pipeline.run(
            texts, [r.id for r in records],
            consistency=self.consistency, refinement=self.refinement, accurate=self.accurate,
            seed=self.seed, device=self.device, progress=progress, seqtype=seqtype,
            link=link, **self.options,
        )
        self.last_times = result.times
        self.last_mode = result.mode
        self.last_seqtype = seqtype
        alignment = rows_to_alignment(records, result.rows, seqtype)
        alignment.guide_tree = newick_from_linkage(result.link, [r.id for r in records])
        if result.column_reliability is not None:
            annotate_reliability(alignment, result.column_reliability,
                                 result.residue_reliability)
        if flip is not None:   # the tree's tips named as the rows are
            direction.name_turned(alignment, flip)
            alignment.guide_tree = newick_from_linkage(result.link,
                                                       [s.id for s in alignment.sequences])
        return alignment

    @device_guard
    def align_many(self, inputs, progress: ProgressCallback | None = None,
                   keep_going: bool = False) -> list[Alignment | None]:
        """Align several families with one device context; same results as ``align`` on each.

        Parameters
        ----------
        inputs : iterable
            Families, each anything :meth:`align` takes (a path, or a list of sequences).
        progress : callable, optional
            ``progress(stage, done, total)``: each family's stages as in :meth:`align`, and
            ``("families", done, total)`` after each family; returning False cancels
            (:class:`bioplug.progress.Cancelled` is raised).
        keep_going : bool
            Record a failed family as None and go on (the errors are in ``last_errors``),
            instead of raising.

        Returns
        -------
        list of Bio.Align.Alignment (None for failed families)

        Raises
        ------
        InputError, BioplugError
            The first failure when ``keep_going`` is False, its message naming the input.
        """
        return [r.alignment for r in self.align_each(inputs, progress, keep_going)]

    def align_each(self, inputs, progress: ProgressCallback | None = None,
                   keep_going: bool = False) -> Iterator[FamilyResult]:
        """Align several families, yielding each :class:`FamilyResult` as soon as it is done.

        The next input is read and checked on a thread while the device aligns the current
        one. Failures are handled as in :meth:`align_many`; ``last_errors`` lists the
        failed results (``keep_going=True``).
        """
        self.last_errors = []

        def align(records, report):
            alignment = self._align_records(records, report)
            return alignment, self.last_times, self.last_mode

        yield from align_families(inputs, self.reader(), align, Progress(progress),
                                  keep_going, self.last_errors)

    def reader(self):
        """``reader(item)`` -> checked records, as :meth:`align_each` reads each family."""
        # the module-level name is looked up here (tests replace it); an explicit seqtype
        # must reach the reader thread's letter check
        return (prepare_records if self.seqtype == "auto"
                else partial(prepare_records, seqtype=self.seqtype))


def align_families(inputs, prepare, align, report: Progress, keep_going: bool,
                   errors: list) -> Iterator[FamilyResult]:
    """The batch loop of every aligner's ``align_each``: ``prepare(item)`` -> records (on a
    reader thread, one input ahead), ``align(records, report)`` -> (alignment, times, mode);
    failures are named after their input and raised, or recorded in ``errors`` and logged
    (``keep_going``)."""
    items = list(inputs)
    total = len(items)
    report.report("families", 0, total)
    if not total:
        return
    # One reader thread, one input ahead: reading and checking file i + 1 (Python and
    # Bio.SeqIO) overlaps the device work of file i, whose waits release the GIL.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="bioplug-read") as reader:
        ahead: Future = reader.submit(prepare, items[0])
        for i, item in enumerate(items):
            current = ahead
            if i + 1 < total:
                ahead = reader.submit(prepare, items[i + 1])
            result = FamilyResult(index=i, name=input_name(item, i))
            try:
                result.alignment, result.times, result.mode = align(current.result(), report)
            except (Cancelled, KeyboardInterrupt):
                ahead.cancel()
                raise
            except Exception as exc:  # noqa: BLE001 - reported per family, see keep_going
                named = _named(exc, result.name)
                if not keep_going and not isinstance(exc, (BioplugError, OSError,
                                                           ValueError)):
                    raise  # a defect, not a bad input: keep its traceback
                if not keep_going:
                    ahead.cancel()
                    raise named from exc
                result.error = named
                errors.append(result)
                log.error("%s", named)   # the family failed: an error, though the run goes on
            yield result
            report.report("families", i + 1, total)
