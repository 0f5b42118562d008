"""Distance matrices in and out: numpy, scikit-bio, Biopython, PHYLIP; validation at the door.

Every input becomes a square float64 ``numpy`` array plus a list of ids, checked for shape,
symmetry, finite and non-negative values, and unique ids; problems raise
:class:`~bioplug.errors.InputError` naming the cells or ids involved.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence

import numpy as np

from bioplug.errors import InputError

# Relative tolerance for symmetry (scikit-bio checks exact symmetry; allow float noise).
SYMMETRY_RTOL = 1e-9
#: Most host threads for checking a large matrix (memory-bound: a few are enough).
VALIDATE_THREADS = 8


def _describe_cells(mask: np.ndarray, ids: Sequence[str], limit: int = 3, offset: int = 0) -> str:
    rows, cols = np.nonzero(mask)
    rows = rows + offset
    cells = [f"({ids[a]}, {ids[b]})" for a, b in zip(rows[:limit], cols[:limit], strict=True)]
    more = f" and {len(rows) - limit} more" if len(rows) > limit else ""
    return ", ".join(cells) + more


def check_ids(ids: Sequence[str], n: int) -> list[str]:
    """Ids as strings: ``n`` of them, unique, non-empty."""
    ids = [str(x) for x in ids]
    if len(ids) != n:
        raise InputError(f"{len(ids)} ids given for a {n} x {n} distance matrix")
    if any(not x for x in ids):
        raise InputError("empty id in the distance matrix ids")
    seen: dict[str, int] = {}
    for x in ids:
        seen[x] = seen.get(x, 0) + 1
    dups = sorted(k for k, v in seen.items() if v > 1)
    if dups:
        raise InputError(f"duplicate ids in the distance matrix: {', '.join(dups)}")
    return ids


def validate_square(
    data: np.ndarray, ids: Sequence[str], tile: int = 256, allow_negative: bool = False
) -> np.ndarray:
    """Check a square matrix: finite, non-negative, symmetric, zero diagonal.

    ``allow_negative`` accepts negative values (as ``scipy.cluster.hierarchy.linkage`` does).

    One pass over ``tile x tile`` blocks on and left of the diagonal, each compared with its
    mirror (both stay in cache); the value checks then only need the lower blocks (the
    mirror is equal). No full-size temporaries. Any problem found goes to
    :func:`_report_square`, which names the cells. Returns the matrix as float64 (no copy
    when it already is).
    """
    data = np.asarray(data, dtype=np.float64)
    if data.ndim != 2 or data.shape[0] != data.shape[1]:
        raise InputError(f"a distance matrix must be square; got shape {data.shape}")
    n = data.shape[0]
    limit = 1e307 / max(n, 1)
    floor = -np.inf if allow_negative else 0.0
    starts = range(0, n, tile)
    workers = min(VALIDATE_THREADS, os.cpu_count() or 1, len(starts))
    if workers > 1 and n >= 2048:  # numpy releases the GIL on each tile
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(workers) as pool:
            parts = list(pool.map(lambda s: _check_row_block(data, s, tile), starts))
    else:
        parts = [_check_row_block(data, s, tile) for s in starts]  # glue
    ok = all(p[0] for p in parts)
    lo = min((p[1] for p in parts), default=0.0)
    hi = max((p[2] for p in parts), default=0.0)
    # NaN fails every comparison
    if ok and lo >= floor and lo > -np.inf and hi < np.inf and max(hi, -lo) <= limit:
        return data
    return _report_square(data, ids, allow_negative=allow_negative)


def _check_row_block(data: np.ndarray, s: int, tile: int) -> tuple[bool, float, float]:
    """Rows ``s .. s+tile-1``, tiles left of and on the diagonal: (equal to the mirror within
    the tolerance and zero diagonal, min, max). A NaN never equals its mirror."""
    n = data.shape[0]
    e = min(n, s + tile)
    lo = hi = 0.0
    for c in range(0, e, tile):  # tiles on and left of the diagonal (glue)
        f = min(c + tile, n)
        a = data[s:e, c:f]
        b = data[c:f, s:e].T
        if not np.array_equal(a, b):  # NaN, or asymmetry (maybe within tolerance)
            with np.errstate(invalid="ignore", over="ignore"):
                tol = SYMMETRY_RTOL * np.maximum(np.abs(a), np.abs(b))
                if not np.all(np.abs(a - b) <= tol):
                    return False, lo, hi
            lo, hi = min(lo, float(b.min())), max(hi, float(b.max()))
        lo, hi = min(lo, float(a.min())), max(hi, float(a.max()))
    diag = data[np.arange(s, e), np.arange(s, e)]
    return bool(np.all(diag == 0)), lo, hi


def _report_square(
    data: np.ndarray, ids: Sequence[str], tile: int = 2048, allow_negative: bool = False
) -> np.ndarray:
    """The row-block checks of :func:`validate_square`, raising with the cells named."""
    n = data.shape[0]
    # criterion values reach about 3 n max(d): keep them finite in float64
    limit = 1e307 / max(n, 1)
    for s in range(0, n, tile):  # one row block per step (glue)
        e = min(n, s + tile)
        rows = data[s:e]
        lo, hi = rows.min(initial=0.0), rows.max(initial=0.0)
        floor = -np.inf if allow_negative else 0.0
        if not (lo >= floor and lo > -np.inf and hi < np.inf):  # NaN fails every comparison
            bad = ~np.isfinite(rows)
            if bad.any():
                where = _describe_cells(bad, ids, offset=s)
                raise InputError(f"distance matrix has NaN or infinite values at {where}")
            where = _describe_cells(rows < 0, ids, offset=s)
            raise InputError(f"distance matrix has negative distances at {where}")
        hi = max(hi, -lo)
        if hi > limit:
            raise InputError(
                f"distance matrix values up to {hi:.3g} are too large for {n} taxa "
                f"(at most {limit:.3g}); rescale the distances"
            )
        diag = rows[np.arange(e - s), np.arange(s, e)]
        if np.any(diag != 0):
            k = s + int(np.flatnonzero(diag)[0])
            raise InputError(
                f"distance matrix diagonal must be zero; d({ids[k]}, {ids[k]}) = {data[k, k]}"
            )
        for c in range(0, e, tile):  # tiles on and left of the diagonal
            a = rows[:, c : min(c + tile, n)]
            b = data[c : min(c + tile, n), s:e].T
            if np.array_equal(a, b):
                continue
            asym = np.abs(a - b) > SYMMETRY_RTOL * np.maximum(np.abs(a), np.abs(b))
            if asym.any():
                r, k = np.nonzero(asym)
                pairs = ", ".join(
                    f"({ids[s + x]}, {ids[c + y]})" for x, y in zip(r[:3], k[:3], strict=True)
                )
                raise InputError(f"distance matrix is not symmetric at {pairs}")
    return data


def as_matrix(
    dm, ids: Sequence[str] | None = None, allow_negative: bool = False
) -> tuple[np.ndarray, list[str]]:
    """A validated square float64 matrix and its ids from any supported input.

    Parameters
    ----------
    dm : ndarray, skbio.DistanceMatrix or Bio.Phylo.TreeConstruction.DistanceMatrix
        Square ``(n, n)`` or condensed ``(n (n - 1) / 2,)`` numpy data, a scikit-bio
        ``DistanceMatrix`` or a Biopython ``DistanceMatrix``.
    ids : sequence of str, optional
        Names for numpy input (default ``"0"``, ``"1"``, ...).
    allow_negative : bool
        Accept negative distances (scipy-style linkage); trees reject them.

    Returns
    -------
    (ndarray, list of str)

    Raises
    ------
    InputError
        Non-square, asymmetric, NaN/inf or negative values, duplicate or missing ids.
    """
    if hasattr(dm, "names") and hasattr(dm, "matrix"):  # Biopython (lower triangle lists)
        names = list(dm.names)
        n = len(names)
        rows = dm.matrix
        if len(rows) != n or any(len(rows[a]) != a + 1 for a in range(n)):
            raise InputError("Biopython DistanceMatrix rows do not form a lower triangle")
        data = np.zeros((n, n))
        for a in range(n):  # one row per taxon (glue)
            data[a, : a + 1] = rows[a]
        data = data + np.tril(data, -1).T
        names = check_ids(ids if ids is not None else names, n)
        return validate_square(data, names, allow_negative=allow_negative), names
    if hasattr(dm, "ids") and hasattr(dm, "data"):  # scikit-bio
        names = check_ids(ids if ids is not None else dm.ids, len(dm.ids))
        data = np.asarray(dm.data, dtype=np.float64)
        if data.ndim == 1:
            from scipy.spatial.distance import squareform

            data = squareform(data, checks=False)
        return validate_square(data, names, allow_negative=allow_negative), names
    try:
        data = np.asarray(dm, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"not a distance matrix: {type(dm).__name__} ({exc})") from exc
    if data.ndim == 1:
        m = data.shape[0]
        n = int(round((1 + np.sqrt(1 + 8 * m)) / 2))
        if n * (n - 1) // 2 != m:
            raise InputError(f"a condensed distance matrix of length {m} is not n(n-1)/2 long")
        from scipy.spatial.distance import squareform

        if not np.all(np.isfinite(data)):
            raise InputError("condensed distance matrix has NaN or infinite values")
        data = squareform(data, checks=False)
    if data.ndim != 2 or data.shape[0] != data.shape[1]:
        raise InputError(f"a distance matrix must be square; got shape {data.shape}")
    n = data.shape[0]
    names = check_ids(ids if ids is not None else [str(k) for k in range(n)], n)
    return validate_square(data, names, allow_negative=allow_negative), names


def to_skbio(data: np.ndarray, ids: Sequence[str]):
    """A ``skbio.DistanceMatrix``."""
    from skbio import DistanceMatrix

    return DistanceMatrix(data, list(ids))


def to_biopython(data: np.ndarray, ids: Sequence[str]):
    """A ``Bio.Phylo.TreeConstruction.DistanceMatrix`` (lower triangle with diagonal)."""
    from Bio.Phylo.TreeConstruction import DistanceMatrix

    rows = [data[a, : a + 1].tolist() for a in range(len(ids))]
    return DistanceMatrix(list(ids), rows)


def write_phylip(data: np.ndarray, ids: Sequence[str], handle) -> None:
    """Write a square PHYLIP distance matrix (relaxed: ids may be longer than 10)."""
    n = len(ids)
    handle.write(f"{n:>5}\n")
    width = max(10, max((len(x) for x in ids), default=0) + 1)
    for a in range(n):
        # rounded, then + 0.0: a value that rounds to zero from below is written 0.00000000,
        # not -0.00000000
        values = " ".join(f"{round(float(v), 8) + 0.0:.8f}" for v in data[a])
        handle.write(f"{ids[a]:<{width}}{values}\n")


def read_phylip(path: str | os.PathLike) -> tuple[np.ndarray, list[str]]:
    """Read a square or lower-triangular PHYLIP distance matrix, gzip data as the text it
    holds: relaxed ids (a word), else strict ones (the first 10 characters of a taxon's
    line, spaces allowed, as PHYLIP's own programs write them).

    Raises
    ------
    InputError
        Not a PHYLIP distance matrix, a row with the wrong number of values, bad numbers
        (the relaxed reading's message, when the strict one fails too).
    """
    fast = _read_phylip_square_lines(path)
    if fast is not None:
        data, ids = fast
        ids = check_ids(ids, len(ids))
        return validate_square(data, ids), ids
    from bioplug.io import open_input

    with open_input(path, "rt") as handle:   # gzip too, as every other input
        lines = [line.rstrip("\r\n") for line in handle if line.strip()]
    try:
        return _read_relaxed(path, lines)
    except InputError:
        strict = _read_strict(lines)
        if strict is None:
            raise
        data, ids = strict
        ids = check_ids(ids, len(ids))
        return validate_square(data, ids), ids


def _read_strict(lines: list[str]) -> tuple[np.ndarray, list[str]] | None:
    """Strict PHYLIP: each taxon's line starts with its name in 10 characters, values follow
    (wrapping over lines without a name); square, or lower-triangular when the first taxon
    has no values. None when the text does not read so."""
    if not lines or not lines[0].strip().isdigit():
        return None
    n, rest = int(lines[0].strip()), lines[1:]
    ids: list[str] = []
    rows: list[list[float]] = []
    i = 0
    try:
        for a in range(n):
            name, values = rest[i][:10].strip(), rest[i][10:].split()
            i += 1
            want = n if (a > 0 and len(rows[0]) == n) or (a == 0 and values) else a
            while len(values) < want:
                values += rest[i].split()
                i += 1
            if len(values) != want or not name:
                return None
            ids.append(name)
            rows.append([float(v) for v in values])
    except (IndexError, ValueError):
        return None
    if i != len(rest):
        return None
    data = np.zeros((n, n))
    for a, row in enumerate(rows):
        data[a, : len(row)] = row
    if n and len(rows[0]) == 0:
        data = data + data.T
    return data, ids


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _read_relaxed(path, lines: list[str]) -> tuple[np.ndarray, list[str]]:
    """Relaxed PHYLIP (an id is a word; values may wrap over lines)."""
    tokens_by_line = [line.split() for line in lines]
    if not tokens_by_line or len(tokens_by_line[0]) != 1 or not tokens_by_line[0][0].isdigit():
        raise InputError(f"{path}: not a PHYLIP distance matrix (first line must be the count)")
    n = int(tokens_by_line[0][0])
    tokens = [t for line in tokens_by_line[1:] for t in line]
    ids: list[str] = []
    rows: list[list[float]] = []
    pos = 0
    for a in range(n):  # one taxon per step; values may wrap over lines
        if pos >= len(tokens):
            raise InputError(f"{path}: expected {n} taxa, found {a}")
        ids.append(tokens[pos])
        pos += 1
        # square rows have n values; lower-triangular rows have a values
        want = n
        rest = tokens[pos : pos + n]
        if len(rest) < n or _looks_like_id(rest, a):
            want = a
        try:
            rows.append([float(t) for t in tokens[pos : pos + want]])
        except ValueError:
            values = tokens[pos : pos + want]
            good = next(i for i, t in enumerate(values) if not _is_number(t))
            raise InputError(
                f"{path}: taxon {ids[-1]}: {want} distances expected, {good} found before "
                f"{values[good]!r} (a row too short, or a value that is not a number)"
            ) from None
        pos += want
    if pos != len(tokens):
        raise InputError(f"{path}: {len(tokens) - pos} values left over after {n} taxa")
    data = np.zeros((n, n))
    for a, row in enumerate(rows):
        data[a, : len(row)] = row
    if all(len(row) == a for a, row in enumerate(rows)):
        data = data + data.T
    ids = check_ids(ids, n)
    return validate_square(data, ids), ids


def _read_phylip_square_lines(path) -> tuple[np.ndarray, list[str]] | None:
    """Fast path: one taxon per line, ``n`` values each (parsed in C); None otherwise."""
    from bioplug.io import open_input

    with open_input(path, "rt") as handle:
        first = handle.readline().split()
        if len(first) != 1 or not first[0].isdigit():
            return None
        n = int(first[0])
        data = np.zeros((n, n))
        ids: list[str] = []
        for line in handle:  # one line per taxon (glue)
            if not line.strip():
                continue
            parts = line.split(None, 1)
            if len(ids) >= n or len(parts) < 2:
                return None
            with warnings.catch_warnings():  # unparsable text: short result, slow path
                warnings.simplefilter("ignore")
                try:
                    values = np.fromstring(parts[1], dtype=np.float64, sep=" ")
                except ValueError:
                    return None
            if values.shape[0] != n:
                return None
            data[len(ids)] = values
            ids.append(parts[0])
    return (data, ids) if len(ids) == n else None


def _looks_like_id(tokens: list[str], a: int) -> bool:
    """True when the token after ``a`` values is not a number (a lower-triangular row)."""
    if a >= len(tokens):
        return False
    try:
        float(tokens[a])
    except ValueError:
        return True
    return False
