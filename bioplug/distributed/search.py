"""A database search on a Dask cluster: blocks of queries, one task each, against the whole
database.

The client indexes the database once (beside its FASTA, as ``bioplug search`` does, so that
no two workers build it) and cuts the queries into blocks of about equal residues. Each task
reads its block of the query file on a worker, searches it against the whole database on the
worker's device with :func:`bioplug.pairwise.search.search` and writes
``OUT/parts/block-NNNNN.txt`` (a temporary file renamed into place) before it returns; the
client lists it in ``OUT/manifest.jsonl``. Every query sees the whole database, so its hits,
E-values (table or fitted) included, are the ones a single process finds. When every block is
there, the client joins them in query order into ``OUT/hits.<ext>``: BLAST tabular (outfmt 6
or 7, one closing line for the whole job) or the ``pair`` report. A rerun of the same job into
``OUT`` runs only the blocks that are missing.
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from pathlib import Path

import numpy as np

from bioplug.distributed.cluster import Summary, connect, run_tasks, worker_device
from bioplug.distributed.manifest import Manifest, check_job, digest, write_atomic
from bioplug.errors import InputError

log = logging.getLogger(__name__)

#: Query blocks wanted per worker (Dask's work stealing evens out uneven blocks).
BLOCKS_PER_WORKER = 4
#: Fewest queries in a block (a task has its own start-up: programs, index, profiles).
MIN_BLOCK = 8
FORMATS = ("tsv", "pair")


def search_blocks(queries: str | os.PathLike, database: str | os.PathLike,
                  out: str | os.PathLike, *, outfmt: str = "6", fmt: str = "tsv",
                  client=None, progress=None, blocks: int | None = None,
                  **options) -> Summary:
    """Search the queries of a FASTA file against a FASTA database on a Dask cluster.

    Parameters
    ----------
    queries, database : path-like
        FASTA files (the database is indexed beside itself first).
    out : path-like
        Output folder (created): ``hits.tsv`` or ``hits.txt`` (``fmt`` "pair"), the parts
        and the manifest; rerunning the same job into it resumes.
    outfmt : str
        BLAST+'s tabular style and columns (``--outfmt``), for ``fmt`` "tsv".
    fmt : {"tsv", "pair"}
        BLAST tabular output, or the report of :meth:`SearchResults.report`.
    client : distributed.Client, LocalCluster, str or None
        Where to run (see :func:`bioplug.distributed.cluster.connect`).
    progress : callable, optional
        ``progress("query blocks", done, total)``.
    blocks : int, optional
        Number of query blocks (default: :data:`BLOCKS_PER_WORKER` a worker).
    **options
        Keywords of :func:`bioplug.pairwise.search.search` (``matrix``, ``gap_open``,
        ``gap_extend``, ``top``, ``evalue``, ``statistics``, ``old_fsc``); ``device`` is each
        worker's.

    Returns
    -------
    Summary
        Blocks searched now and skipped as complete; ``out`` the merged file's folder.
    """
    from bioplug.pairwise.blast_tab import parse_outfmt

    if fmt not in FORMATS:
        raise InputError(f"a search on a cluster writes {' or '.join(FORMATS)}, not {fmt!r}")
    parse_outfmt(outfmt)   # bad columns fail here, not on a worker
    queries, database = os.path.abspath(queries), os.path.abspath(database)
    sizes = _query_sizes(queries)
    _index(database, options)
    out = Path(out)
    job = check_job(out, {"fingerprint": digest(sorted(options.items()), outfmt, fmt,
                                                Path(queries).read_bytes(),
                                                _database_fingerprint(database)),
                          "blocks": blocks})
    manifest = Manifest(out)
    spec = (queries, database, outfmt, fmt, options)
    if job.get("blocks"):   # a rerun cuts the same blocks, and connects only for work left
        cuts = query_blocks(sizes, job["blocks"])
        summary = _run(client, out, manifest, cuts, spec, progress)
    else:
        with connect(client) as c:   # the first run cuts blocks for the workers it finds
            cuts = query_blocks(sizes, _wanted_blocks(c))
            write_atomic(out / "job.json", (json.dumps({**job, "blocks": len(cuts) - 1},
                                                       indent=1, sort_keys=True)
                                            + "\n").encode())
            summary = _run(c, out, manifest, cuts, spec, progress)
    merged = _merge(out, len(cuts) - 1, outfmt, fmt, len(sizes))
    log.info("%s: %d query blocks searched, %d already complete", merged, summary.computed,
             summary.skipped)
    return summary


def _query_sizes(path: str) -> np.ndarray:
    """Residues of every query of the file (checked: an empty file is an error here)."""
    from bioplug.pairwise.fasta import fasta_records

    sizes = np.array([len(raw) for _, raw, _ in fasta_records(path)], dtype=np.int64)
    if not sizes.size:
        raise InputError(f"{path}: no FASTA records")
    return sizes


def _index(database: str, options: dict) -> None:
    """Build (or check) the database's index once, before any worker opens it."""
    from bioplug.pairwise.database import open_database
    from bioplug.pairwise.search import search_scoring

    open_database(database, search_scoring(options.get("matrix", "BLOSUM62"),
                                           options.get("gap_open", 11),
                                           options.get("gap_extend", 1)))


def _database_fingerprint(path: str) -> tuple:
    stat = os.stat(path)
    return (stat.st_size, stat.st_mtime_ns)


def _wanted_blocks(client) -> int:
    workers = len(client.scheduler_info().get("workers", {})) or 1
    return BLOCKS_PER_WORKER * workers


def query_blocks(sizes: np.ndarray, wanted: int) -> list[int]:
    """Cuts of the queries into at most ``wanted`` runs of about equal residues, each of
    at least :data:`MIN_BLOCK` queries (but the last): ``[0, ..., len(sizes)]``."""
    n = sizes.size
    count = max(1, min(int(wanted), -(-n // MIN_BLOCK)))
    ends = np.cumsum(sizes)
    targets = ends[-1] * np.arange(1, count) / count
    cuts = np.searchsorted(ends, targets, side="right") + 1
    cuts = np.unique(np.clip(cuts, 1, n - 1)) if n > 1 else np.zeros(0, np.int64)
    return [0, *[int(c) for c in cuts], n]


def _run(client, out: Path, manifest: Manifest, cuts: list[int], spec: tuple,
         progress) -> Summary:
    """Submit the blocks the manifest lacks (connecting ``client`` only if there are some);
    list each one as it is written."""
    (out / "parts").mkdir(parents=True, exist_ok=True)
    run = uuid.uuid4().hex[:8]
    tasks, names = [], {}
    for b in range(len(cuts) - 1):
        name = _part(b).name
        if manifest.done(name) and (out / "parts" / name).exists():
            continue
        key = f"query-block-{b}-{run}"
        names[key] = name
        tasks.append((key, search_block, (*spec, os.path.abspath(out), cuts[b], cuts[b + 1],
                                          b), float(cuts[b + 1] - cuts[b])))
    summary = Summary(out=os.fspath(out), total=len(cuts) - 1,
                      skipped=len(cuts) - 1 - len(tasks))
    if progress is not None:
        progress("query blocks", summary.skipped, summary.total)

    def on_done(key: str, result: dict) -> None:
        manifest.add(names[key], **result)
        summary.computed += 1
        if progress is not None:
            progress("query blocks", summary.skipped + summary.computed, summary.total)

    if tasks:
        with connect(client) as c:   # an open client passes through
            summary.dashboard = c.dashboard_link
            run_tasks(c, tasks, on_done)
    return summary


def _part(b: int) -> Path:
    return Path(f"block-{b:05d}.txt")


def search_block(queries: str, database: str, outfmt: str, fmt: str, options: dict,
                 out: str, first: int, stop: int, b: int) -> dict:
    """Search queries ``first:stop`` of the file on this worker's device and write their
    part; returns its manifest fields."""
    from bioplug.io import read_records
    from bioplug.pairwise.blast_tab import parse_outfmt
    from bioplug.pairwise.search import search

    start = time.perf_counter()
    records = read_records(queries)[first:stop]
    results = search(records, database, device=worker_device(), **options)
    if fmt == "pair":
        text = results.report(database=database)
    else:
        style, columns = parse_outfmt(outfmt)
        text = results.tabular(columns, comments=style == 7, database=database)
        text = "".join(line for line in text.splitlines(keepends=True)
                       if not line.startswith("# bioplug processed"))   # one for the job
    write_atomic(Path(out) / "parts" / _part(b), text.encode("utf-8"))
    return {"queries": stop - first, "hits": sum(len(h) for h in results.hits),
            "seconds": round(time.perf_counter() - start, 3)}


def _merge(out: Path, blocks: int, outfmt: str, fmt: str, queries: int) -> Path:
    """Join the parts in query order into ``OUT/hits.<ext>`` (renamed into place)."""
    target = out / ("hits.txt" if fmt == "pair" else "hits.tsv")
    parts = [(out / "parts" / _part(b)).read_bytes() for b in range(blocks)]
    tail = (f"# bioplug processed {queries} queries\n".encode()
            if fmt == "tsv" and outfmt.split()[0] == "7" else b"")
    write_atomic(target, b"".join(parts) + tail)
    return target
