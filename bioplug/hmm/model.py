"""The HMM model file of ``bioplug viterbi``: JSON with named states and one-letter symbols.

Example (the occasionally dishonest casino)::

    {
      "states": ["F", "L"],
      "symbols": "123456",
      "startprob": [0.5, 0.5],
      "transmat": [[0.95, 0.05], [0.10, 0.90]],
      "emissionprob": [[0.1667, 0.1667, 0.1667, 0.1667, 0.1666, 0.1666],
                       [0.1, 0.1, 0.1, 0.1, 0.1, 0.5]]
    }

``states``: unique names (strings). ``symbols``: unique single characters, as one string or a
list; each letter of a sequence must be one of them (``"ignore_case": true`` matches letters
regardless of case; the value must be ``true`` or ``false``). State names are printable text
(no tabs or line breaks; no commas when a name is longer than one character, as paths of
such names are written comma-separated); other fields are ignored with a warning.
``startprob`` (l), ``transmat`` (l x l, row = from-state) and ``emissionprob`` (l x m, row =
state, column = symbol in ``symbols`` order) are probabilities;
each row sums to 1 (to ``numpy.allclose``, as hmmlearn checks). Zeros are allowed (log -inf).
Probabilities are JSON numbers: strings and booleans are refused.
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bioplug.errors import InputError

log = logging.getLogger(__name__)

REQUIRED = ("states", "symbols", "startprob", "transmat", "emissionprob")
OPTIONAL = ("ignore_case",)


@dataclass
class HMMModel:
    """A categorical HMM with state names and one-letter symbols."""

    states: list[str]
    symbols: list[str]
    startprob: np.ndarray
    transmat: np.ndarray
    emissionprob: np.ndarray
    ignore_case: bool = False

    @classmethod
    def from_dict(cls, data: dict, source: str = "model") -> HMMModel:
        """Validate a parsed model file; errors name the field, row and state."""
        if not isinstance(data, dict):
            raise InputError(f"{source}: the model must be a JSON object")
        missing = [k for k in REQUIRED if k not in data]
        if missing:
            raise InputError(f"{source}: missing field(s) {', '.join(missing)} (needed: "
                             f"{', '.join(REQUIRED)})")
        unknown = sorted(str(k) for k in data if k not in REQUIRED + OPTIONAL)
        if unknown:  # most likely a misspelt option: say so, but the model is complete
            log.warning("%s: unknown field(s) ignored: %s", source, ", ".join(unknown))
        states = _names(data["states"], source)
        symbols = _symbols(data["symbols"], source)
        ns, m = len(states), len(symbols)
        start = _probabilities(data["startprob"], (ns,), "startprob", source)
        trans = _probabilities(data["transmat"], (ns, ns), "transmat", source)
        emit = _probabilities(data["emissionprob"], (ns, m), "emissionprob", source)
        _check_sums(start[None, :], "startprob", ["(all)"], source)
        _check_sums(trans, "transmat", states, source)
        _check_sums(emit, "emissionprob", states, source)
        ignore_case = data.get("ignore_case", False)
        if not isinstance(ignore_case, bool):  # bool("false") would be True
            raise InputError(f"{source}: ignore_case must be true or false, not "
                             f"{_shown(ignore_case)}")
        if ignore_case and len({s.upper() for s in symbols}) != m:
            raise InputError(f"{source}: ignore_case is set but symbols differ only in case")
        return cls(states, symbols, start, trans, emit, ignore_case)

    def log_parameters(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(log start, log transitions, log emissions), zeros as -inf."""
        with np.errstate(divide="ignore"):
            return np.log(self.startprob), np.log(self.transmat), np.log(self.emissionprob)

    def encode(self, text: str, name: str) -> np.ndarray:
        """Symbol indices of a sequence; unknown letters are named with their position."""
        lookup = np.full(256, -1, dtype=np.int32)
        for i, sym in enumerate(self.symbols):
            for ch in {sym, sym.upper(), sym.lower()} if self.ignore_case else {sym}:
                if ord(ch) < 256:
                    lookup[ord(ch)] = i
        raw = np.frombuffer(text.encode("latin-1", errors="replace"), dtype=np.uint8)
        codes = lookup[raw]
        bad = np.flatnonzero(codes < 0)
        if bad.size:
            pos = int(bad[0])
            raise InputError(f"{name}: position {pos + 1}: {text[pos]!r} is not a symbol of the "
                             f"model (symbols: {''.join(self.symbols)})")
        return codes

    def path_text(self, path: np.ndarray) -> str:
        """State names along a path: run together when every name is one character, else
        separated by commas."""
        names = np.array(self.states, dtype=object)[path]
        sep = "" if all(len(s) == 1 for s in self.states) else ","
        return sep.join(names.tolist())


def read_model(path: str | Path) -> HMMModel:
    """Read and validate a model file (see the module notes); ``-`` reads standard input."""
    if str(path) == "-":   # as every command's input; Path("-") was "No such file"
        path = "standard input"
        stream = getattr(sys.stdin, "buffer", None)
        raw = stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
    else:
        path = Path(path)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise InputError(f"{path}: cannot read the model file: "
                             f"{exc.strerror or exc}") from exc
    if not raw.strip():
        raise InputError(f"{path}: the model file is empty")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not a JSON model file (byte {exc.start + 1} is not UTF-8 "
                         "text)") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON: {exc}") from exc
    except RecursionError as exc:  # json's parser recurses once per nesting level
        raise InputError(f"{path}: not a model file: JSON nested too deeply") from exc
    return HMMModel.from_dict(data, str(path))


def _shown(value, limit: int = 30) -> str:
    """A JSON value as a message shows it (cut to ``limit`` characters)."""
    text = json.dumps(value, default=str)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _names(value, source) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v
                                                            for v in value):
        raise InputError(f"{source}: states must be a non-empty list of names")
    if len(set(value)) != len(value):
        dup = next(v for v in value if value.count(v) > 1)
        raise InputError(f"{source}: state {dup!r} is listed twice")
    # names are written into a tab-separated table, joined by commas when longer than one
    # character: a tab, line break or (there) a comma would make the output unreadable
    bad = next((v for v in value if not v.isprintable()), None)
    if bad is not None:
        raise InputError(f"{source}: state name {bad!r} has a tab, line break or other "
                         "control character")
    if any(len(v) > 1 for v in value):
        bad = next((v for v in value if "," in v), None)
        if bad is not None:
            raise InputError(f"{source}: state name {bad!r} has a comma (paths of names "
                             "longer than one character are written comma-separated)")
    return list(value)


def _symbols(value, source) -> list[str]:
    symbols = list(value) if isinstance(value, (str, list)) else None
    if not symbols or not all(isinstance(s, str) and len(s) == 1 and s.isprintable()
                              and not s.isspace() and ord(s) < 128 for s in symbols):
        raise InputError(f"{source}: symbols must be single ASCII characters (a string such "
                         "as \"ACGT\" or a list of one-letter strings)")
    if len(set(symbols)) != len(symbols):
        dup = next(s for s in symbols if symbols.count(s) > 1)
        raise InputError(f"{source}: symbol {dup!r} is listed twice")
    return symbols


def _check_numbers(value, field: str, source: str) -> None:
    """Refuse anything but (nested lists of) JSON numbers: numpy would read the strings
    ``"0.5"`` and the booleans ``true`` / ``false`` as probabilities."""
    stack = [value]
    while stack:  # no recursion: a hostile file may nest deeply
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))  # the first bad value is the one named
        elif isinstance(item, bool) or not isinstance(item, (int, float)):
            raise InputError(f"{source}: {field} must hold numbers, not {_shown(item)}")


def _probabilities(value, shape, field, source) -> np.ndarray:
    _check_numbers(value, field, source)
    try:
        arr = np.array(value, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as exc:  # ragged rows, 1e400 as an integer
        raise InputError(f"{source}: {field} must be a list (of lists) of numbers with one "
                         "row per state") from exc
    if arr.shape != shape:
        raise InputError(f"{source}: {field} has shape {arr.shape}, the model needs {shape} "
                         "(states x states / states x symbols)")
    bad = np.argwhere(~np.isfinite(arr) | (arr < 0) | (arr > 1))
    if bad.size:
        at = tuple(int(i) for i in bad[0])
        raise InputError(f"{source}: {field}{list(at)} = {float(arr[at])!r} is not a "
                         "probability")
    return arr


def _check_sums(rows: np.ndarray, field: str, names: list[str], source: str) -> None:
    sums = rows.sum(axis=1)
    bad = np.flatnonzero(~np.isclose(sums, 1.0))
    if bad.size:
        i = int(bad[0])
        where = "" if rows.shape[0] == 1 else f" row {i + 1} (state {names[i]!r})"
        raise InputError(f"{source}: {field}{where} sums to {sums[i]:.6g}, not 1")
