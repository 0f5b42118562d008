"""Many families on a Dask cluster: one task per family, one alignment file per family.

Each task reads its family on a worker, aligns it on the worker's device with the method the
single-process ``bioplug msa`` would use, and writes ``OUTDIR/<stem>.<ext>`` through
:func:`bioplug.io.write_alignment` (a temporary file renamed into place). The client appends
the family to ``OUTDIR/bioplug-manifest.jsonl`` with a fingerprint of its input file and the
settings; a rerun skips families listed with the same fingerprint whose file is there.
Families are submitted largest file first (Dask priorities), as ``run_lpt`` orders work.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace

from bioplug.distributed.cluster import Summary, connect, run_tasks, worker_device
from bioplug.distributed.manifest import Manifest, digest
from bioplug.errors import BioplugError, InputError

log = logging.getLogger(__name__)

MANIFEST = "bioplug-manifest.jsonl"
METHODS = ("auto", "quickprobs", "progressive")


def align_families(paths: Sequence[str | os.PathLike], outdir: str | os.PathLike,
                   method: str = "auto", *, format: str = "fasta", client=None,
                   keep_going: bool = False, progress=None, options: dict | None = None,
                   progressive_options: dict | None = None, order: str = "input") -> Summary:
    """Align every family of ``paths`` on a Dask cluster, one file per family in ``outdir``.

    Parameters
    ----------
    paths : sequence of path-like
        Family files, or folders standing for their sequence files (as ``bioplug msa
        --outdir``).
    outdir : path-like
        Output folder: ``<stem>.<extension of format>`` per family, and the manifest.
    method : {"auto", "quickprobs", "progressive"}
        "auto" chooses per family as ``bioplug msa IN -o OUT`` does (progressive for
        protein families of more than 300 sequences and any of more than 2,000, else
        QuickProbs).
    format : str
        ``Bio.Align.write`` format.
    client : distributed.Client, LocalCluster, str or None
        Where to run (see :func:`bioplug.distributed.cluster.connect`).
    keep_going : bool
        Record a failed family and go on (it is retried by the next run).
    progress : callable, optional
        ``progress("families", done, total)``.
    options, progressive_options : dict, optional
        Keywords of ``MultipleSequenceAligner`` and ``ProgressiveAligner`` (``device`` is
        each worker's own).
    order : {"input", "tree"}
        The rows in input order, or in the guide tree's (``bioplug msa --output-order``).

    Returns
    -------
    Summary
        Families aligned now, skipped as complete, and failed (``keep_going``).

    Raises
    ------
    InputError
        A bad family, named as the single-process batch names it (unless ``keep_going``).
    """
    inputs, outputs = _family_paths(paths, outdir, method, format)
    manifest = Manifest(outdir, MANIFEST)
    settings = _settings(method, options, progressive_options, format, order)
    tasks, names = _pending_tasks(inputs, outputs, manifest, settings,
                                  (method, options or {}, progressive_options or {}, format,
                                   order))
    summary = Summary(out=os.fspath(outdir), total=len(inputs),
                      skipped=len(inputs) - len(tasks))
    if progress is not None:
        progress("families", summary.skipped, summary.total)
    if tasks:
        _run_families(client, tasks, names, manifest, summary, keep_going, progress)
    log.info("%s: %d families aligned, %d already complete, %d failed", outdir,
             summary.computed, summary.skipped, len(summary.failed))
    return summary


def _family_paths(paths: Sequence[str | os.PathLike], outdir: str | os.PathLike, method: str,
                  format: str) -> tuple[list[Path], list[Path]]:
    """Check ``method`` and pair every family's input file with its output file.

    Parameters
    ----------
    paths, outdir, method, format
        As :func:`align_families` takes them.

    Returns
    -------
    inputs, outputs : list of Path
        As the single-process batch expands and names them.

    Raises
    ------
    InputError
        An unknown method, a missing input or colliding outputs (before any work starts).
    """
    from bioplug.msa import batch

    if method not in METHODS:
        raise InputError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    inputs = batch.expand_inputs(paths)
    return inputs, batch.output_paths(inputs, outdir, format)


def _settings(method: str, options: dict | None, progressive_options: dict | None,
              format: str, order: str) -> tuple:
    """The run's settings, as they enter each family's fingerprint.

    Parameters
    ----------
    method, options, progressive_options, format, order
        As :func:`align_families` takes them.

    Returns
    -------
    tuple
        Hashable settings; ``order`` joins them only when it is not "input".
    """
    settings = (method, sorted((options or {}).items()),
                sorted((progressive_options or {}).items()), format)
    if order != "input":   # the fingerprints of runs before the option stay valid
        settings += (order,)
    return settings


def _pending_tasks(inputs: Sequence[Path], outputs: Sequence[Path], manifest: Manifest,
                   settings: tuple, args: tuple) -> tuple[list[tuple], dict[str, tuple]]:
    """The tasks of the families not yet complete, largest input file first.

    Parameters
    ----------
    inputs, outputs : sequence of Path
        Each family's input file and its output file, paired.
    manifest : Manifest
        The output folder's record of complete families.
    settings : tuple
        The run's settings (:func:`_settings`), fingerprinted with each input.
    args : tuple
        ``(method, options, progressive_options, format, order)`` for :func:`align_family`.

    Returns
    -------
    tasks : list of tuple
        ``(key, align_family, arguments, size)`` per family, as ``run_tasks`` takes them.
    names : dict
        Task key -> (output file name, fingerprint), for the manifest.
    """
    run = uuid.uuid4().hex[:8]
    tasks, names = [], {}
    for src, dst in zip(inputs, outputs, strict=True):
        fingerprint = digest(settings, src.read_bytes())
        if manifest.done(dst.name, fingerprint) and dst.exists():
            continue
        key = f"family-{len(tasks)}-{run}"
        names[key] = (dst.name, fingerprint)
        # absolute: workers resolve paths in their own working directories
        tasks.append((key, align_family, (os.path.abspath(src), os.path.abspath(dst), *args),
                      float(src.stat().st_size)))
    tasks.sort(key=lambda task: -task[3])   # the largest family is submitted (and starts) first
    return tasks, names


def _run_families(client, tasks: list[tuple], names: dict[str, tuple], manifest: Manifest,
                  summary: Summary, keep_going: bool, progress) -> None:
    """Run ``tasks`` on the cluster, recording each family in the manifest as it completes.

    Parameters
    ----------
    client : distributed.Client, LocalCluster, str or None
        Where to run (see :func:`bioplug.distributed.cluster.connect`).
    tasks, names
        From :func:`_pending_tasks`.
    manifest : Manifest
        Gets one line per completed family.
    summary : Summary
        Updated in place: ``computed``, ``dashboard`` and ``failed``.
    keep_going : bool
        Record a failed family and go on.
    progress : callable or None
        ``progress("families", done, total)``.
    """
    def on_done(key: str, result: dict) -> None:
        name, fingerprint = names[key]
        manifest.add(name, fingerprint=fingerprint, **result)
        summary.computed += 1
        if progress is not None:
            progress("families", summary.skipped + summary.computed, summary.total)

    with connect(client) as c:
        summary.dashboard = c.dashboard_link
        _, summary.failed = run_tasks(c, tasks, on_done, keep_going)


_ALIGNERS: dict = {}


def _aligner(method: str, options: dict):
    """This worker's aligner (kept: its programs are built once per worker)."""
    device = worker_device()
    key = (method, repr(sorted(options.items())), device)
    if key not in _ALIGNERS:
        if method == "progressive":
            from bioplug.progressive.aligner import ProgressiveAligner

            _ALIGNERS[key] = ProgressiveAligner(**options, device=device)
        else:
            from bioplug.msa.aligner import MultipleSequenceAligner

            _ALIGNERS[key] = MultipleSequenceAligner(**options, device=device)
    return _ALIGNERS[key]


def align_family(source: str, target: str, method: str, options: dict,
                 progressive_options: dict, fmt: str, order: str = "input") -> dict:
    """Align one family on this worker's device and write it; returns its manifest fields.

    Errors of the input are raised as the single-process batch raises them (message starts
    with the input's path).
    """
    from bioplug.io import write_checked
    from bioplug.msa.aligner import _named
    from bioplug.msa.cli import choose_method, in_output_order

    start = time.perf_counter()
    try:
        chosen, given = choose_method(SimpleNamespace(
            method=method, guide_tree=None, tree_out=None, seqtype="auto"), source)
        opts = progressive_options if chosen == "progressive" else options
        alignment = _aligner(chosen, opts).align(given)
        write_checked(in_output_order(alignment, order), target, source, fmt)
    except (BioplugError, OSError, ValueError) as exc:
        raise _named(exc, source) from exc
    return {"input": source, "output": target, "method": chosen,
            "sequences": len(alignment.sequences),
            "seconds": round(time.perf_counter() - start, 3)}
