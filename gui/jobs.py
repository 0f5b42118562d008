"""Jobs that run off the GUI thread, and the engine calls they wrap.

A :class:`Job` runs a function ``fn(progress)`` on a ``QThreadPool`` worker. The engines'
``progress(stage, done, total)`` events come back to the GUI thread as the :attr:`JobSignals.stage`
signal (throttled to a few per second per stage, always keeping the first and last event of a
stage). :meth:`Job.cancel` makes the next progress call return ``False``, so the engine raises
:class:`bioplug.progress.Cancelled` between kernel launches and the job ends with ``cancelled``;
a task that returns all the same (the cancel came after its last progress report) is ``done``.

The ``*_task`` functions build those ``fn`` from the front-door APIs
(:class:`bioplug.MultipleSequenceAligner`, :class:`bioplug.PairwiseAligner`,
:mod:`bioplug.tree`, :func:`bioplug.align_three`), with the device the user chose.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from bioplug.errors import BioplugError, InputError
from bioplug.io import ungapped
from bioplug.pairwise.emboss import PairStats, pair_stats
from bioplug.progress import Cancelled

log = logging.getLogger(__name__)

_gc_lock = threading.Lock()
_gc_jobs = 0            # jobs running with the cyclic collector paused
_gc_was_enabled = True


@contextlib.contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a job runs on a worker thread.

    A collection triggered there can free Qt objects that became garbage on the GUI thread
    (a closed window's menus and actions). Their destructor, on the worker thread, holds a
    Qt lock and waits for Python's lock, while the GUI thread, holding Python's lock,
    waits for that Qt lock: the app hangs (seen once in the test suite, in a realign job).
    Paused for as long as any job runs, collections happen on the GUI thread, the only one
    allocating then. Reference counting still frees everything outside cycles.
    """
    global _gc_jobs, _gc_was_enabled
    with _gc_lock:
        if _gc_jobs == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_jobs += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_jobs -= 1
            if _gc_jobs == 0 and _gc_was_enabled:
                gc.enable()

ProgressFn = Callable[[str, int, int], bool]
TaskFn = Callable[[ProgressFn], object]

#: Pairwise alignment modes and substitution matrices offered in the GUI.
PAIRWISE_MODES = ("global", "local")
PAIRWISE_MATRICES = ("BLOSUM62", "BLOSUM45", "BLOSUM80", "PAM250", "NUC.4.4")
#: Gap open and extend scores of the pairwise jobs (EMBOSS needle / water's defaults).
PAIRWISE_GAPS = (-10.0, -0.5)
#: Tree methods and distance kinds offered in the GUI.
TREE_METHODS = ("nj", "upgma")
DISTANCES = {
    "auto": "p-distance for an alignment, else alignment identity",
    "msa": "p-distance from the alignment",
    "identity": "1 - identity of pairwise alignments",
    "ktuple": "k-tuple distance (fast, unaligned)",
}


class JobSignals(QObject):
    """Signals of one job (emitted from the worker, delivered on the GUI thread).

    Signals
    -------
    stage(str, int, int)
        ``stage, done, total`` from the engine.
    finished(object)
        The task's result.
    failed(str)
        The error message (``str`` of a :class:`~bioplug.errors.BioplugError`, as the CLI
        prints it).
    cancelled()
        The user cancelled; the engine stopped between launches.
    """

    stage = Signal(str, int, int)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()


class Job(QRunnable):
    """A task on the thread pool, with progress, cancellation and a result signal.

    Parameters
    ----------
    name : str
        Shown in the progress view (``"MSA"``, ``"Tree (NJ)"``, ...).
    fn : callable
        ``fn(progress) -> result``; ``progress(stage, done, total)`` returns False once the
        job is cancelled.
    min_interval : float
        Seconds between two forwarded events of the same stage.
    """

    def __init__(self, name: str, fn: TaskFn, min_interval: float = 0.05):
        super().__init__()
        self.setAutoDelete(False)
        self.name = name
        self.fn = fn
        self.signals = JobSignals()
        self.min_interval = min_interval
        self._cancel = threading.Event()
        self._last_stage: str | None = None
        self._last_emit = 0.0
        self.done = threading.Event()
        self.started_at = 0.0
        self.elapsed = 0.0

    def cancel(self) -> None:
        """Ask the engine to stop at its next progress report."""
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self._cancel.is_set()

    def progress(self, stage: str, done: int, total: int) -> bool:
        """The callback handed to the engine: forwards the event, False once cancelled."""
        if self._cancel.is_set():
            return False
        now = time.perf_counter()
        if (
            stage != self._last_stage
            or done >= total
            or done == 0
            or now - self._last_emit >= self.min_interval
        ):
            self._last_stage, self._last_emit = stage, now
            self.signals.stage.emit(str(stage), int(done), int(total))
        return True

    def run(self) -> None:  # runs on the worker thread
        self.started_at = time.perf_counter()
        try:
            # A task that returns has finished: its result is reported even when a cancel
            # came after its last progress report (the work is done, and may be committed,
            # e.g. a file renamed into place). Only a Cancelled task is "cancelled".
            with cyclic_gc_paused():
                result = self.fn(self.progress)
        except Cancelled:
            self.elapsed = time.perf_counter() - self.started_at
            self.signals.cancelled.emit()
        except BioplugError as exc:
            self.elapsed = time.perf_counter() - self.started_at
            self.signals.failed.emit(str(exc))
        except Exception as exc:  # noqa: BLE001 - everything else reaches the user too
            from bioplug.faults import device_error

            self.elapsed = time.perf_counter() - self.started_at
            log.error("job %s failed:\n%s", self.name, traceback.format_exc())
            lost = device_error(exc)  # an OpenCL failure: name the device, suggest another
            self.signals.failed.emit(str(lost) if lost is not None
                                     else f"{type(exc).__name__}: {exc}")
        else:
            self.elapsed = time.perf_counter() - self.started_at
            self.signals.finished.emit(result)
        finally:
            self.done.set()

    def start(self, pool: QThreadPool | None = None) -> Job:
        """Queue on ``pool`` (default: the global pool)."""
        (pool or QThreadPool.globalInstance()).start(self)
        return self


# -- tasks ----------------------------------------------------------------------------------
def msa_task(records, device: str | None, seed: int = 0, method: str = "quickprobs",
             guide_tree: str | None = None, adjust_direction: bool = False,
             **options) -> TaskFn:
    """Multiple alignment of ungapped records -> ``Bio.Align.Alignment``; ``method`` is
    "quickprobs" (:class:`bioplug.MultipleSequenceAligner`, ``options`` its keywords) or
    "progressive" (:class:`bioplug.ProgressiveAligner`: stages "guide tree", "progressive");
    ``guide_tree`` (Newick) replaces the tree either method would build;
    ``adjust_direction`` turns nucleotide sequences that face the other way first."""

    def fn(progress: ProgressFn):
        from bioplug import MultipleSequenceAligner, ProgressiveAligner

        if len(records) < 2:
            raise InputError("a multiple alignment needs at least 2 sequences")
        if method == "progressive":
            aligner = ProgressiveAligner(device=device, adjust_direction=adjust_direction)
            return aligner.align(list(records), progress=progress, guide_tree=guide_tree)
        # the reliability track under the alignment comes from the posteriors aligned
        aligner = MultipleSequenceAligner(device=device, seed=seed, reliability=True,
                                          adjust_direction=adjust_direction, **options)
        return aligner.align(list(records), progress=progress, guide_tree=guide_tree)

    return fn


def default_matrix(records) -> str:
    """The substitution matrix a pairwise or all-vs-all job uses unless one is chosen:
    NUC.4.4 for nucleotides (as the three-way job), else BLOSUM62.

    Parameters
    ----------
    records : iterable of Bio.SeqRecord.SeqRecord
        The sequences (all of the open ones, so a dialog's default does not change with
        the pair picked).

    Returns
    -------
    str
        A name from :data:`PAIRWISE_MATRICES`.
    """
    from bioplug.alphabet import is_nucleotide

    return "NUC.4.4" if is_nucleotide([str(r.seq) for r in records]) else "BLOSUM62"


def check_pair(records, source: str, alphabet, matrix: str) -> None:
    """The checks of the other jobs for the two records of a pairwise job: sequence letters
    (:func:`bioplug.io.check_letters`), no empty record, and every letter in ``matrix``.

    Parameters
    ----------
    records : sequence of Bio.SeqRecord.SeqRecord
        Target and query.
    source : str
        Where they come from (the file's name), first in the messages.
    alphabet : str or sequence of str
        The substitution matrix's letters.
    matrix : str
        Its name, for the message.

    Raises
    ------
    InputError
        Naming the record, the 1-based position and the character.
    """
    from bioplug.alphabet import check_codes
    from bioplug.io import check_letters

    check_letters(records, source, empty_ok=True)
    table = np.full(256, 255, dtype=np.uint8)
    table[[ord(c) for c in alphabet if len(c) == 1 and c.isascii()]] = 0
    for record, role in zip(records, ("target", "query"), strict=False):
        text = str(record.seq)
        if not text:
            raise InputError(f"{source}: {record.id} (the {role}): the sequence is empty")
        # ASCII here: check_letters refuses every other character
        codes = table[np.frombuffer(text.encode("ascii"), dtype=np.uint8)]
        check_codes(codes, text, f"{source}: {record.id}",
                    f"in the {matrix} alphabet ({''.join(map(str, alphabet))})")


def make_pairwise_aligner(device: str | None, mode: str = "global", matrix: str = "BLOSUM62",
                          open_gap: float = PAIRWISE_GAPS[0],
                          extend_gap: float = PAIRWISE_GAPS[1]):
    """A :class:`bioplug.PairwiseAligner` with a named substitution matrix and affine gaps."""
    from Bio.Align import substitution_matrices

    from bioplug import PairwiseAligner

    if mode not in PAIRWISE_MODES:
        raise InputError(f"unknown alignment mode {mode!r}; use {' or '.join(PAIRWISE_MODES)}")
    try:
        sub = substitution_matrices.load(matrix)
    except (FileNotFoundError, ValueError) as exc:
        raise InputError(f"unknown substitution matrix {matrix!r}") from exc
    return PairwiseAligner(
        mode=mode, substitution_matrix=sub, open_gap_score=open_gap,
        extend_gap_score=extend_gap, device=device,
    )


@dataclass
class PairResult:
    """One pairwise alignment for display, with EMBOSS's numbers (``stats``; None when a
    local alignment found nothing with a positive score)."""

    names: tuple[str, str]
    score: float
    text: str
    alignment: object
    stats: PairStats | None = None
    matrix: str = ""


def pairwise_task(rec_a, rec_b, device: str | None, mode: str = "global",
                  matrix: str | None = None, source: str = "pairwise alignment") -> TaskFn:
    """One pair: score and one optimal alignment -> :class:`PairResult`.

    Parameters
    ----------
    rec_a, rec_b : Bio.SeqRecord.SeqRecord
        Target and query (ungapped).
    device : str or None
    mode : {"global", "local"}
    matrix : str, optional
        Substitution matrix; default :func:`default_matrix` of the pair (NUC.4.4 for
        nucleotides, else BLOSUM62).
    source : str
        Where the records come from, first in error messages (the file's name).
    """
    # jobs align residues; the viewer keeps unaligned rows as their file has them (stray
    # gaps included); an empty one is left to check_pair, which names its role
    rec_a, rec_b = ungapped([rec_a, rec_b], empty_ok=True)
    matrix = matrix or default_matrix([rec_a, rec_b])

    def fn(progress: ProgressFn):
        if progress("align pair", 0, 1) is False:  # cancelled before it started
            raise Cancelled("align pair")
        aligner = make_pairwise_aligner(device, mode, matrix)
        check_pair([rec_a, rec_b], source, aligner.substitution_matrix.alphabet, matrix)
        alignments = aligner.align(rec_a, rec_b)
        first = next(iter(alignments), None)
        score = float(alignments.score)
        progress("align pair", 1, 1)
        if first is None:
            return PairResult((rec_a.id, rec_b.id), score,
                              "(no alignment with a positive score)", None, matrix=matrix)
        # the rows of the aligned region only (all of it for global, the local part for
        # local): what needle / water count their numbers over
        stats = pair_stats((first[0], first[1]), aligner.substitution_matrix, score)
        return PairResult((rec_a.id, rec_b.id), score, format(first), first, stats, matrix)

    return fn


def three_task(records, device: str | None) -> TaskFn:
    """Exact alignment of three ungapped records -> ``Bio.Align.Alignment`` with ``.score``
    (:func:`bioplug.align_three`: BLOSUM62, or NUC.4.4 for nucleotides, gaps -10/-0.5 as the
    pairwise job; stages "three-way fill", "three-way traceback")."""

    def fn(progress: ProgressFn):
        from bioplug import align_three

        if len(records) != 3:
            raise InputError(f"a three-sequence alignment needs 3 sequences, not {len(records)}")
        residues = ungapped(records, empty_ok=True)
        for r in residues:
            if not len(r.seq):
                raise InputError(f"{r.id}: the sequence is empty")
        matrix = default_matrix(residues)
        return align_three(*residues, substitution_matrix=matrix, open_gap_score=-10.0,
                           extend_gap_score=-0.5, device=device, progress=progress)

    return fn


@dataclass
class MatrixResult:
    """All-vs-all scores for the heat map."""

    names: list[str]
    scores: np.ndarray
    mode: str
    matrix: str


def all_vs_all_task(records, device: str | None, mode: str = "global",
                    matrix: str | None = None) -> TaskFn:
    """All-vs-all scores -> :class:`MatrixResult` (``matrix``: default
    :func:`default_matrix`, NUC.4.4 for nucleotides, else BLOSUM62)."""
    records = ungapped(records, empty_ok=True)
    matrix = matrix or default_matrix(records)

    def fn(progress: ProgressFn):
        if len(records) < 2:
            raise InputError("all-vs-all needs at least 2 sequences")
        aligner = make_pairwise_aligner(device, mode, matrix)
        progress("all-vs-all scores", 0, 1)
        scores = aligner.score_matrix(list(records), progress=progress)
        return MatrixResult([r.id for r in records], np.asarray(scores), mode, matrix)

    return fn


@dataclass
class TreeResult:
    """A tree and how it was made."""

    tree: object  # skbio.TreeNode
    method: str
    distance: str
    ids: list[str]


def aligned_rows(data) -> list:
    """The rows of an alignment as gapped records, from the viewer's codes: what the tree
    engines read instead of ``data.to_alignment()``, whose ``Bio.Align`` rows are built in
    Python (minutes for a gappy alignment of a few thousand rows, before the job's first
    progress report, so Cancel did nothing meanwhile). Unaligned sequences are an
    :class:`InputError`, as ``to_alignment`` gives it."""
    from .documents import titled_records

    data.to_alignment()  # unaligned sequences: "run a multiple alignment first"
    return titled_records(data, gapped=True)


def tree_task(data, device: str | None, method: str = "nj", distance: str = "auto") -> TaskFn:
    """Distances (device) then an NJ or UPGMA tree (device) -> :class:`TreeResult`.

    Parameters
    ----------
    data : AlignmentData
        An alignment (p-distances) or unaligned sequences (alignment identity / k-tuple).
    method : {"nj", "upgma"}
    distance : {"auto", "msa", "identity", "ktuple"}
    """

    def fn(progress: ProgressFn):
        from bioplug import tree as bt

        if method not in TREE_METHODS:
            raise InputError(f"unknown tree method {method!r}; use nj or upgma")
        if len(data.records) < 2:
            raise InputError("a tree needs at least 2 sequences")
        kind = distance
        if kind == "auto":
            kind = "msa" if data.aligned else "identity"
        if kind == "msa":
            source = aligned_rows(data)
        else:
            source = data.records
        dist = bt.distance_matrix(source, kind, device=device, progress=progress)
        if method == "nj":
            tree = bt.nj(dist.to_numpy(), ids=list(dist.ids), device=device, progress=progress)
        else:
            tree = bt.upgma(dist.to_numpy(), ids=list(dist.ids), device=device,
                            progress=progress)
        return TreeResult(tree, method, kind, list(dist.ids))

    return fn


def bootstrap_task(data, device: str | None, replicates: int = 100, seed: int = 0,
                   method: str = "nj") -> TaskFn:
    """Tree of an alignment with bootstrap support (:func:`bioplug.tree.bootstrap`) ->
    :class:`TreeResult`; stages "full tree" (distances and the tree of the whole alignment)
    then "bootstrap" (``done`` replicates of ``replicates``), cancellable between batches."""

    def fn(progress: ProgressFn):
        from bioplug.tree import bootstrap

        if method not in TREE_METHODS:
            raise InputError(f"unknown tree method {method!r}; use nj or upgma")
        if not data.aligned:
            raise InputError("bootstrap resamples alignment columns: run a multiple "
                             "alignment first")
        if progress("full tree", 0, 1) is False:
            raise Cancelled("bootstrap")
        alignment = aligned_rows(data)
        first = [True]

        def forward(stage: str, done: int, total: int) -> bool:
            if first[0]:  # the tree of the full alignment is built before replicate 0
                first[0] = False
                if progress("full tree", 1, 1) is False:
                    return False
            return progress(stage, done, total)

        tree = bootstrap(alignment, replicates=int(replicates), seed=int(seed), method=method,
                         device=device, progress=forward)
        return TreeResult(tree, method, "msa", [t.name for t in tree.tips()])

    return fn
