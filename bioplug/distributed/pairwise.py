"""All-vs-all scores of many sequences on a Dask cluster: tiles of the triangle, one per task.

Sequences (sorted as given) are cut into blocks of ``tile``; the task of blocks (I, J), I <= J,
scores every pair between them on its worker's device (``PairwiseEngine.score_all`` for a
diagonal tile, ``score_indexed`` otherwise) and writes them out before it returns:

* ``top=None``: into the chunks (I, J) and (J, I) of the (n, n) float64 Zarr array
  ``OUT/scores.zarr`` (chunks are tiles, so no two tasks share a chunk);
* ``top=k``: the k best hits (score descending, then target index ascending) of each row and
  each column of the tile, as ``OUT/tiles/I/J.parquet`` and ``OUT/tiles/J/I.parquet``; once
  every tile touching block I is written, a merge task keeps the k best per query in
  ``OUT/hits/block-I.parquet`` (columns ``query``, ``target``, ``score``; indices into
  ``OUT/ids.txt``; :func:`read_hits` adds the ids).

``OUT/manifest.jsonl`` lists finished tiles and merges (see :mod:`.manifest`); a rerun
runs only the rest.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bioplug.distributed.cluster import Summary, connect, run_tasks, worker_device
from bioplug.distributed.manifest import Manifest, check_job, digest, write_atomic
from bioplug.errors import InputError

log = logging.getLogger(__name__)

#: Tile sides: at least this many sequences (task overhead), at most this many (a tile's
#: float64 scores, 128 MiB, are held on the host while its hits are chosen).
MIN_TILE, MAX_TILE = 64, 4096
#: Tiles per worker wanted, so that Dask's work stealing can even out the uneven tiles.
TILES_PER_WORKER = 8
#: Device bytes per pair of a tile: the engine's task record and its score.
BYTES_PER_PAIR = 24
FORMAT_VERSION = 1


def all_vs_all(sequences, out: str | os.PathLike, *, aligner=None, top: int | None = None,
               self_hits: bool = False, tile: int | None = None, client=None,
               progress=None, **scoring) -> Summary:
    """Score every pair of ``sequences`` on a Dask cluster and stream the results to ``out``.

    Parameters
    ----------
    sequences : path, or sequence of str / Seq / SeqRecord / skbio.Sequence
        The sequences (a file is read with Bio.SeqIO).
    out : path-like
        Output folder (created); rerunning the same job into it resumes.
    aligner : bioplug.PairwiseAligner, optional
        The scoring; else one is made from ``**scoring``.
    top : int, optional
        Keep the ``top`` best hits per sequence (Parquet) instead of the whole matrix (Zarr).
    self_hits : bool
        With ``top``: list a sequence among its own hits.
    tile : int, optional
        Sequences per tile side; default from the workers' device memory and count.
    client : distributed.Client, LocalCluster, str or None
        Where to run (see :func:`bioplug.distributed.cluster.connect`).
    progress : callable, optional
        ``progress("tiles", done, total)``.
    **scoring
        ``bioplug.PairwiseAligner`` attributes (``mode``, ``substitution_matrix``, ...).

    Returns
    -------
    Summary
        Counts of tasks run and skipped.

    Raises
    ------
    InputError
        Bad sequences (the messages of ``PairwiseAligner.score_matrix``), settings the device
        cannot run, or ``out`` holding another job.
    """
    aligner = _make_aligner(aligner, scoring)
    ids, codes, sc = _prepare(aligner, sequences)
    if top is not None and top < 1:
        raise InputError(f"top must be >= 1, not {top}")
    out = Path(os.path.abspath(out))   # workers resolve paths in their own directories
    fingerprint = digest(FORMAT_VERSION, ids, sc.letters, sc.matrix.tobytes(),
                         sc.gaps.tobytes(), sc.local, sc.scale, top, self_hits,
                         *(c.tobytes() for c in codes))
    with contextlib.ExitStack() as stack:
        # connected at first need: a rerun with every task done starts no cluster
        cluster = functools.cache(lambda: stack.enter_context(connect(client)))
        stored = (out / "job.json").exists()
        if not stored:
            tile = tile or plan_tile_for(cluster(), len(codes))
            _write_inputs(out, ids, codes)  # before job.json, which says they are whole
        job = check_job(out, {"fingerprint": fingerprint, "n": len(codes), "tile": tile,
                              "top": top, "self_hits": self_hits})
        if tile is not None and job["tile"] != tile:
            log.warning("%s: keeping the tile of the first run (%d)", out, job["tile"])
        return _run(cluster, out, codes, sc, job, progress)


def _make_aligner(aligner, scoring: dict):
    from bioplug.pairwise.aligner import PairwiseAligner

    if aligner is None:
        matrix = scoring.get("substitution_matrix")
        if isinstance(matrix, str):   # a name, as `bioplug pairwise --matrix` takes it
            from bioplug.alphabet import load_matrix

            scoring = {**scoring, "substitution_matrix": load_matrix(matrix)}
        return PairwiseAligner(**scoring)
    if scoring:
        raise InputError("give either aligner= or scoring keywords, not both")
    return aligner


def _prepare(aligner, sequences):
    """Ids, encoded sequences and the device scoring, checked as ``score_matrix`` checks."""
    from bioplug.alignio import listed
    from bioplug.io import check_letters, read_records, sequence_name

    if isinstance(sequences, (str, os.PathLike)):   # a file is checked as the command's
        seqs = read_records(sequences)
        check_letters(seqs, os.fspath(sequences))
    else:
        seqs = listed(sequences)
    if not seqs:
        raise InputError("no sequences to score")
    texts = aligner._batch_texts(seqs, "sequence")
    sc = aligner.device_scoring(texts)
    longest = max(len(t) for t in texts)
    if sc is not None and not aligner._fits(sc, longest, longest):
        sc = None
    if sc is None or not sc.symmetric:
        raise InputError("the distributed all-vs-all runs on the device with a symmetric "
                         "scoring only; these settings are not (use "
                         "PairwiseAligner.score_matrix)")
    codes = aligner._encode_all(sc, seqs, texts, "sequence")
    return [sequence_name(s, i) for i, s in enumerate(seqs)], codes, sc


def _write_inputs(out: Path, ids: list[str], codes) -> None:
    """``ids.txt`` and the encoded sequences (``codes.npy``, ``offsets.npy``) in ``out``.

    Workers read their blocks from these files (the output folder is shared by every
    worker anyway): data scattered from the client would be lost with the worker holding
    it, while a file lets Dask recompute a lost worker's tiles anywhere.
    """
    import io

    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / "ids.txt", ("\n".join(ids) + "\n").encode())
    offsets = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum([len(c) for c in codes], out=offsets[1:])
    for name, array in (("codes.npy", np.concatenate(codes).astype(np.uint8)),
                        ("offsets.npy", offsets)):
        buffer = io.BytesIO()
        np.save(buffer, array)
        write_atomic(out / name, buffer.getvalue())


def _read_block(out: Path, first: int, stop: int) -> list[np.ndarray]:
    """Sequences ``first:stop`` from the files of :func:`_write_inputs` (memory-mapped)."""
    flat = np.load(out / "codes.npy", mmap_mode="r")
    offsets = np.load(out / "offsets.npy", mmap_mode="r")
    return [np.array(flat[offsets[k]:offsets[k + 1]]) for k in range(first, stop)]


def plan_tile(n: int, device_memory: int, workers: int = 1) -> int:
    """Sequences per tile side.

    A tile's pairs (``BYTES_PER_PAIR`` each) must fit a quarter of the smallest worker's
    device memory, and there should be ``TILES_PER_WORKER`` tiles per worker for load
    balancing; clipped to [``MIN_TILE``, ``MAX_TILE``].
    """
    by_memory = int(math.sqrt(device_memory / 4 / BYTES_PER_PAIR))
    blocks = math.ceil((math.sqrt(1 + 8 * TILES_PER_WORKER * workers) - 1) / 2)
    by_balance = math.ceil(n / max(blocks, 1))
    return int(max(MIN_TILE, min(by_memory, by_balance, MAX_TILE)))


def _worker_memory(client) -> tuple[int, int]:
    memory = client.run(_device_memory)
    if not memory:
        raise InputError("the Dask cluster has no workers")
    return min(memory.values()), len(memory)


def _device_memory() -> int:
    from bioplug.runtime import get_runtime

    # a CPU worker's share of its host's free memory, a GPU's memory otherwise
    return get_runtime(worker_device()).memory_budget(1.0)


def plan_tile_for(client, n: int) -> int:
    """:func:`plan_tile` from the connected workers' devices."""
    memory, workers = _worker_memory(client)
    return plan_tile(n, memory, workers)


def _run(cluster: Callable, out: Path, codes, sc, job: dict, progress) -> Summary:
    """Submit the tiles (and merges) the manifest does not list; record each as it ends.

    ``cluster()`` gives the connected client; it is called only when there are tasks.
    """
    n, t, top = len(codes), int(job["tile"]), job["top"]
    blocks = math.ceil(n / t)
    manifest = Manifest(out)
    spec = {"out": str(out), "scoring": sc, "tile": t, "n": n, "top": top,
            "self_hits": job["self_hits"], "blocks": blocks}
    if top is None:
        _create_matrix(out / "scores.zarr", n, t)
    pending = [(i, j) for i in range(blocks) for j in range(i, blocks)
               if f"tile-{i}-{j}" not in manifest]
    merges = [] if top is None else [i for i in range(blocks) if f"merge-{i}" not in manifest]
    total = blocks * (blocks + 1) // 2 + (0 if top is None else blocks)
    summary = Summary(out=str(out), total=total, skipped=total - len(pending) - len(merges))
    run = uuid.uuid4().hex[:8]  # keys of this run only (an earlier run's may still be known)
    tasks = [(f"tile-{i}-{j}-{run}", score_tile, (spec, i, j),
              _tile_cells(codes, t, i, j)) for i, j in pending]
    for b in merges:
        after = [f"tile-{i}-{j}-{run}" for i, j in pending if b in (i, j)]
        tasks.append((f"merge-{b}-{run}", merge_block, (spec, b), -1.0, after))
    done = [summary.skipped]

    def on_done(key: str, result: dict) -> None:
        name = key.rsplit("-", 1)[0]
        manifest.add(name, **result)
        if name.startswith("merge-"):  # its tile files were only the merge's input
            _remove_tiles(out / "tiles" / f"{int(name.split('-')[1]):05d}")
        done[0] += 1
        if progress is not None:
            progress("tiles", done[0], total)

    if progress is not None:
        progress("tiles", done[0], total)
    if tasks:
        client = cluster()
        summary.dashboard = client.dashboard_link
        summary.computed, _ = run_tasks(client, tasks, on_done)
    with contextlib.suppress(OSError):  # top-k: every block merged, its tile files removed
        (out / "tiles").rmdir()
    log.info("%s: %d tasks run, %d already complete", out, summary.computed, summary.skipped)
    return summary


def _tile_cells(codes, t: int, i: int, j: int) -> float:
    """DP cells of a tile (Dask's priority: largest first, as ``run_lpt`` does)."""
    a = sum(len(c) for c in codes[i * t:(i + 1) * t])
    b = sum(len(c) for c in codes[j * t:(j + 1) * t])
    return float(a) * b / (2.0 if i == j else 1.0)


def _create_matrix(path: Path, n: int, t: int) -> None:
    import zarr

    if not path.exists():  # NaN marks a tile not written yet
        zarr.create_array(store=str(path), shape=(n, n), chunks=(t, t), dtype="float64",
                          fill_value=np.nan)


_ENGINES: dict = {}


def _engine(scoring):
    """This worker's engine for ``scoring`` (kept: its programs and buffers are reused)."""
    from bioplug.pairwise.engine import PairwiseEngine

    device = worker_device()
    key = (digest(scoring.letters, scoring.matrix.tobytes(), scoring.gaps.tobytes(),
                  scoring.local, scoring.scale), device, _worker_address())
    if key not in _ENGINES:
        _ENGINES[key] = PairwiseEngine(scoring, devices=device)
    return _ENGINES[key]


def _worker_address() -> str | None:
    # Thread workers of one process share this module: each needs its own engine.
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return None


def score_tile(spec: dict, i: int, j: int) -> dict:
    """Score tile (i, j) on this worker's device and write it; returns its manifest fields."""
    start = time.perf_counter()
    out, t, n = Path(spec["out"]), spec["tile"], spec["n"]
    rows = _read_block(out, i * t, min(n, (i + 1) * t))
    cols = rows if i == j else _read_block(out, j * t, min(n, (j + 1) * t))
    engine = _engine(spec["scoring"])
    if i == j:
        scores = engine.score_all(rows)
    else:
        r, c = len(rows), len(cols)
        ia = np.repeat(np.arange(r), c)
        ib = r + np.tile(np.arange(c), r)
        scores = engine.score_indexed(list(rows) + list(cols), ia, ib).reshape(r, c)
    r0, c0 = i * t, j * t
    if spec["top"] is None:
        import zarr

        matrix = zarr.open_array(str(out / "scores.zarr"), mode="r+")
        matrix[r0:r0 + scores.shape[0], c0:c0 + scores.shape[1]] = scores
        if i != j:
            matrix[c0:c0 + scores.shape[1], r0:r0 + scores.shape[0]] = scores.T
    else:
        if i == j and not spec["self_hits"]:
            np.fill_diagonal(scores, -np.inf)
        _write_hits(out / "tiles" / f"{i:05d}" / f"{j:05d}.parquet", scores, r0, c0,
                    spec["top"], exclude_self=i == j and not spec["self_hits"])
        if i != j:
            _write_hits(out / "tiles" / f"{j:05d}" / f"{i:05d}.parquet", scores.T, c0, r0,
                        spec["top"], exclude_self=False)
    return {"pairs": int(scores.size), "seconds": round(time.perf_counter() - start, 3)}


def top_hits(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the columns and scores of the ``k`` best entries, best first; ties go to the
    lower column, so the choice does not depend on how the matrix was cut into tiles.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``(rows, k)`` column indices and scores.
    """
    r, c = scores.shape
    k = min(k, c)
    if k == 0 or r == 0:
        return np.zeros((r, 0), dtype=np.int64), np.zeros((r, 0))
    kth = -np.partition(-scores, k - 1, axis=1)[:, k - 1:k]  # k-th best per row
    better = scores > kth
    tie = scores == kth
    # argpartition breaks ties arbitrarily: keep the lowest columns among equal scores
    keep = better | (tie & (np.cumsum(tie, axis=1) <= k - better.sum(axis=1, keepdims=True)))
    cols = np.nonzero(keep)[1].reshape(r, k)
    vals = np.take_along_axis(scores, cols, axis=1)
    order = np.lexsort((cols, -vals), axis=-1)
    return np.take_along_axis(cols, order, axis=1), np.take_along_axis(vals, order, axis=1)


def _write_hits(path: Path, scores: np.ndarray, r0: int, c0: int, k: int,
                exclude_self: bool) -> None:
    cols, vals = top_hits(scores, min(k, scores.shape[1] - exclude_self))
    rows = np.repeat(np.arange(r0, r0 + scores.shape[0]), cols.shape[1])
    _write_table(path, rows, cols.ravel() + c0, vals.ravel())


def _write_table(path: Path, query, target, score) -> None:
    """A Parquet hit table, written under a temporary name and renamed into place."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.table({"query": np.asarray(query, dtype=np.int64),
                      "target": np.asarray(target, dtype=np.int64),
                      "score": np.asarray(score, dtype=np.float64)})
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        pq.write_table(table, str(tmp))
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def merge_block(spec: dict, b: int, _after=None) -> dict:
    """The ``top`` best hits of every query of block ``b`` from its tiles' hit files."""
    import pyarrow.parquet as pq

    out = Path(spec["out"])
    folder = out / "tiles" / f"{b:05d}"
    tables = [pq.read_table(str(folder / f"{j:05d}.parquet")) for j in range(spec["blocks"])]
    query = np.concatenate([tb.column("query").to_numpy() for tb in tables])
    target = np.concatenate([tb.column("target").to_numpy() for tb in tables])
    score = np.concatenate([tb.column("score").to_numpy() for tb in tables])
    order = np.lexsort((target, -score, query))
    query, target, score = query[order], target[order], score[order]
    rank = np.arange(len(query)) - np.searchsorted(query, query, side="left")
    keep = rank < spec["top"]
    _write_table(out / "hits" / f"block-{b:05d}.parquet", query[keep], target[keep],
                 score[keep])
    return {"hits": int(keep.sum())}


def _remove_tiles(folder: Path) -> None:
    if folder.is_dir():
        for f in folder.iterdir():
            f.unlink()
        folder.rmdir()


def read_hits(out: str | os.PathLike):
    """The hit list of a finished ``top=k`` job as a ``pyarrow.Table`` with the ids.

    Columns ``query``, ``target`` (indices), ``score``, ``query_id``, ``target_id``; rows by
    query, best hit first.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(out)
    ids = np.array((out / "ids.txt").read_text(encoding="utf-8").splitlines(), dtype=object)
    files = sorted((out / "hits").glob("block-*.parquet"))
    table = pa.concat_tables([pq.read_table(str(f)) for f in files])
    return table.append_column("query_id", pa.array(ids[table.column("query").to_numpy()])
                               ).append_column(
        "target_id", pa.array(ids[table.column("target").to_numpy()]))


def read_scores(out: str | os.PathLike) -> np.ndarray:
    """The (n, n) score matrix of a finished ``top=None`` job."""
    import zarr

    return zarr.open_array(str(Path(out) / "scores.zarr"), mode="r")[:]
