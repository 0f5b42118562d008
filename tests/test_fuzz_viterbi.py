"""Fuzzing ``bioplug viterbi`` (issue 13): hostile model files and observation files (PoCL).

Model files start from a random valid categorical HMM (1-4 states, 1-5 symbols, rows of random
integer weights normalised, zeros included) and get one mutation: a missing field, a wrong
shape, a negative / NaN / infinite / above-one value, a row that does not sum to 1, strings,
booleans or null where numbers belong, duplicate, long or non-ASCII symbols and states, names
that would break the table, a non-boolean ``ignore_case``, a top level that is no object,
truncated JSON, binary bytes, an empty file; or none (and an unknown extra field, which is
only warned about). Observation files hold 0-4 records of the model's symbols with other
case, unknown letters, non-ASCII letters, empty records, CRLF line ends, or are binary.

The only outcomes allowed: exit 0 with the table a numpy oracle gives
(``tests/hmm_reference.py``: the log probability, and a path that scores it), or exit 2 with
one line ``bioplug viterbi: error: ...`` naming what is wrong (the field; the record and
position) and no output file. Expected outcomes are derived from how each case was built,
not from the command. ``CASES`` counts the cases (``benchmarks/RESULTS.md``, "Robustness").
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
import math
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from hmm_reference import path_score, viterbi_reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.cli import main

DEVICE = "cpu"
CASES: collections.Counter = collections.Counter()
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

FIELDS = ("startprob", "transmat", "emissionprob")
# ASCII, printable, no space; ">" and ";" would start FASTA header / comment lines
SYMBOL_POOL = "ACDEFGHIKLMNPQRSTVWYacgtu0123456789*-.+=#!"
NON_ASCII = ["Ä", "é", "😀"]


@pytest.fixture(scope="module", autouse=True)
def _report_cases():
    yield
    total = sum(CASES.values())
    sys.__stderr__.write(f"\nviterbi fuzz cases tried: {total} {dict(sorted(CASES.items()))}\n")


# -- models ------------------------------------------------------------------------------------
@st.composite
def stochastic(draw, rows: int, cols: int) -> list[list[float]]:
    """Rows of random integer weights (zeros included) divided by their sums."""
    out = []
    for _ in range(rows):
        weights = draw(st.lists(st.integers(0, 9), min_size=cols, max_size=cols))
        if sum(weights) == 0:
            weights[draw(st.integers(0, cols - 1))] = 1
        total = sum(weights)
        out.append([w / total for w in weights])
    return out


@st.composite
def valid_model(draw) -> dict:
    ns, m = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    if draw(st.booleans()):
        states = draw(st.lists(st.sampled_from("FLHMXYZ"), min_size=ns, max_size=ns,
                               unique=True))
    else:
        states = draw(st.lists(st.from_regex(r"[a-z][a-z0-9_]{1,6}", fullmatch=True),
                               min_size=ns, max_size=ns, unique=True))
    symbols = draw(st.lists(st.sampled_from(SYMBOL_POOL), min_size=m, max_size=m, unique=True))
    data = {"states": states,
            "symbols": "".join(symbols) if draw(st.booleans()) else symbols,
            "startprob": draw(stochastic(1, ns))[0],
            "transmat": draw(stochastic(ns, ns)),
            "emissionprob": draw(stochastic(ns, m))}
    if len({s.upper() for s in symbols}) == m and draw(st.integers(0, 3)) == 0:
        data["ignore_case"] = True
    return data


def _cell(draw, data: dict, field: str) -> tuple[list, int]:
    """(the list holding one random value of ``field``, its index)."""
    if field == "startprob":
        return data[field], draw(st.integers(0, len(data[field]) - 1))
    row = data[field][draw(st.integers(0, len(data[field]) - 1))]
    return row, draw(st.integers(0, len(row) - 1))


@st.composite
def model_case(draw) -> tuple[bytes, dict | None, str | None, list[str]]:
    """(file bytes, the model when it is valid, mutation name, words the error must name)."""
    data = draw(valid_model())
    kind = draw(st.sampled_from([
        "none", "none", "none", "extra field", "missing", "not an object", "shape", "negative",
        "nan", "inf", "above one", "not stochastic", "string number", "boolean", "null",
        "duplicate state", "duplicate symbol", "long symbol", "non-ASCII symbol", "no states",
        "state not text", "state with tab", "state with comma", "ignore_case text",
        "ignore_case clash", "truncated", "binary", "empty file"]))
    field = draw(st.sampled_from(FIELDS))
    expect: list[str] = []
    ns = len(data["states"])
    if kind == "extra field":
        data["comment"] = "an extra field is ignored"
    elif kind == "missing":
        key = draw(st.sampled_from(["states", "symbols", *FIELDS]))
        del data[key]
        expect = ["missing field", key]
    elif kind == "not an object":
        data = draw(st.sampled_from([[1, 2], 3, "model", None]))
        expect = ["JSON object"]
    elif kind == "shape":
        if field == "startprob":
            data[field] = data[field] + [0.0]
        elif draw(st.booleans()):
            data[field] = data[field] + [data[field][0]]
        else:
            data[field] = [row + [0.0] for row in data[field]]
        expect = [field, "shape"]
    elif kind in ("negative", "nan", "inf", "above one"):
        row, k = _cell(draw, data, field)
        row[k] = {"negative": -0.25, "nan": math.nan, "inf": math.inf, "above one": 1.5}[kind]
        expect = [field, "is not a probability"]
    elif kind == "not stochastic":
        rows = [data[field]] if field == "startprob" else data[field]
        row = rows[draw(st.integers(0, len(rows) - 1))]
        row[:] = [v * 0.5 for v in row]
        expect = [field, "sums to 0.5"]
    elif kind in ("string number", "boolean"):
        row, k = _cell(draw, data, field)
        row[k] = str(row[k]) if kind == "string number" else True
        expect = [field, "must hold numbers"]
    elif kind == "null":
        data[field] = None
        expect = [field, "numbers"]
    elif kind in ("duplicate state", "duplicate symbol"):
        key = "states" if kind == "duplicate state" else "symbols"
        values = list(data[key])
        if len(values) < 2:
            values.append(values[0])  # (shapes stay right: the duplicate is found first)
        else:
            values[-1] = values[0]
        data[key] = values
        expect = [repr(values[0]), "listed twice"]
    elif kind in ("long symbol", "non-ASCII symbol"):
        symbols = list(data["symbols"])
        symbols[0] = "AB" if kind == "long symbol" else draw(st.sampled_from(NON_ASCII))
        data["symbols"] = symbols
        expect = ["symbols must be single ASCII characters"]
    elif kind == "no states":
        data["states"] = []
        expect = ["states must be a non-empty list"]
    elif kind == "state not text":
        data["states"][0] = 7
        expect = ["states must be a non-empty list of names"]
    elif kind == "state with tab":
        data["states"][0] = "a\tb"
        expect = ["state name", "tab"]
    elif kind == "state with comma":
        data["states"] = [f"s{k}" for k in range(ns)]
        data["states"][0] = "s,0"
        expect = ["state name 's,0' has a comma"]
    elif kind == "ignore_case text":
        data["ignore_case"] = draw(st.sampled_from(["false", "yes", 1, 0, None]))
        expect = ["ignore_case must be true or false"]
    elif kind == "ignore_case clash":
        data["symbols"] = draw(st.sampled_from(["aA", ["A", "a"], "xyzZ"]))
        data["emissionprob"] = draw(stochastic(ns, len(data["symbols"])))
        data["ignore_case"] = True
        expect = ["ignore_case", "differ only in case"]
    text = json.dumps(data)
    if kind == "truncated":
        return text[:draw(st.integers(1, len(text) - 1))].encode(), None, kind, ["JSON"]
    if kind == "binary":
        raw = b"\xff" + draw(st.binary(max_size=40))
        return raw, None, kind, ["not a JSON model file"]
    if kind == "empty file":
        return draw(st.sampled_from([b"", b"  \n"])), None, kind, ["empty"]
    valid = kind in ("none", "extra field")
    return text.encode(), data if valid else None, kind, expect


# -- observations ------------------------------------------------------------------------------
@st.composite
def observations(draw, symbols: list[str], ignore_case: bool):
    """(file bytes, [(id, sequence)], or None for a binary file)."""
    if draw(st.integers(0, 14)) == 0:
        return b"\x00\xff\xfe" + draw(st.binary(max_size=30)), None
    known = [c for s in symbols for c in ({s, s.lower(), s.upper()} if ignore_case else {s})]
    unknown = [c for c in "BJOXZbjoxz$%" if c not in known]
    letter = st.one_of(st.sampled_from(known), st.sampled_from(known), st.sampled_from(known),
                       st.sampled_from(unknown), st.sampled_from(NON_ASCII),
                       st.sampled_from([c for s in symbols for c in (s.lower(), s.upper())]))
    ids = st.from_regex(r"[A-Za-z0-9_]{1,8}", fullmatch=True)
    records = draw(st.lists(st.tuples(ids, st.text(letter, min_size=0, max_size=30)),
                            min_size=0, max_size=4))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = "".join(f">{i}{newline}{s}{newline}" for i, s in records)
    return text.encode("utf-8"), records


def observation_error(records, symbols: list[str], ignore_case: bool):
    """What the command must refuse first: (words its message names) or None."""
    if not records or all(not s for _, s in records):
        return ["empty"] if not records else [records[0][0]]
    for rid, seq in records:  # every record is checked for ASCII before any is decoded
        for pos, ch in enumerate(seq, 1):
            if ord(ch) > 127:
                return [rid, f"position {pos}", ch]
    allowed = set(symbols) | ({c for s in symbols for c in (s.lower(), s.upper())}
                              if ignore_case else set())
    for k, (rid, seq) in enumerate(records, 1):
        if not seq:
            return [f"record {k} ({rid})", "empty"]
        for pos, ch in enumerate(seq, 1):
            if ch not in allowed:
                return [f"record {k} ({rid})", f"position {pos}", repr(ch)]
    ids = [rid for rid, _ in records]
    repeated = sorted({rid for k, rid in enumerate(ids) if rid in ids[:k]})
    if repeated:
        return ["duplicate sequence ids", ", ".join(repeated)]
    return None


# -- running and checking ----------------------------------------------------------------------
def run_cli(args: list[str]) -> tuple[int, str, str]:
    """``bioplug ARGS`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            code = main(["-q", *args])
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def check_refused(code: int, err: str, output: Path, words: list[str]) -> None:
    assert code == 2, f"exit {code}: {err}"
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("bioplug viterbi: error: "), err
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0], (word, err)
    assert not output.exists(), "output left after an error"


def check_table(text: str, model: dict, records, approx: bool) -> None:
    """The table against the numpy oracle: ids, log probabilities, optimal paths."""
    states, symbols = model["states"], list(model["symbols"])
    with np.errstate(divide="ignore"):
        logs = [np.log(np.array(model[f], dtype=np.float64)) for f in FIELDS]
    index = {s: k for k, s in enumerate(symbols)}
    if model.get("ignore_case"):
        for k, s in enumerate(symbols):
            index.setdefault(s.lower(), k)
            index.setdefault(s.upper(), k)
    lines = text.splitlines()
    assert lines[0] == "#id\tlog_prob\tpath" and len(lines) == len(records) + 1
    for line, (rid, seq) in zip(lines[1:], records, strict=True):
        name, value, path_text = line.split("\t")
        obs = np.array([index[c] for c in seq])
        ref, _ = viterbi_reference(*logs, obs)
        assert name == rid
        got = float(value)
        if math.isinf(ref):
            assert got == ref
            continue
        assert math.isclose(got, ref, rel_tol=1e-4 if approx else 1e-9, abs_tol=1e-9), (got, ref)
        names = list(path_text) if all(len(s) == 1 for s in states) else path_text.split(",")
        path = [states.index(n) for n in names]
        assert len(path) == len(seq)
        if not approx:  # the path is an optimal one: it scores the best log probability
            assert math.isclose(path_score(*logs, obs, path), ref, rel_tol=1e-9, abs_tol=1e-9)


def _files(model_bytes: bytes, seq_bytes: bytes):
    tmp = tempfile.TemporaryDirectory()
    root = Path(tmp.name)
    (root / "model.json").write_bytes(model_bytes)
    (root / "seqs.fa").write_bytes(seq_bytes)
    return tmp, root




@FUZZ
@given(model_case(), st.sampled_from(["auto", "steps", "chain"]))
def test_model_files(case, method):
    """Hostile model files with clean observations of the model's own symbols."""
    raw, model, kind, expect = case
    CASES[f"model {kind}"] += 1
    symbols = list(model["symbols"]) if model is not None else list("0")
    records = [("x1", symbols[0] * 5), ("x2", "".join(reversed(symbols)) * 3)]
    seqs = "".join(f">{i}\n{s}\n" for i, s in records).encode()
    tmp, root = _files(raw, seqs)
    with tmp:
        out = root / "out.tsv"
        code, _, err = run_cli(["viterbi", str(root / "model.json"), str(root / "seqs.fa"),
                                "-o", str(out), "--method", method, "--device", DEVICE])
        if model is None:
            check_refused(code, err, out, expect)
        else:
            assert code == 0, (kind, err)
            assert "Traceback" not in err
            check_table(out.read_text(), model, records, approx=False)


@FUZZ
@given(st.data())
def test_observation_files(data):
    """Valid random models, hostile observation files (stdin too)."""
    model = data.draw(valid_model())
    symbols = list(model["symbols"])
    raw, records = data.draw(observations(symbols, bool(model.get("ignore_case"))))
    stdin = data.draw(st.integers(0, 4)) == 0
    fp32 = data.draw(st.integers(0, 5)) == 0
    CASES["observations"] += 1
    tmp, root = _files(json.dumps(model).encode(), raw)
    with tmp:
        out = root / "out.tsv"
        args = ["viterbi", str(root / "model.json"), "-" if stdin else str(root / "seqs.fa"),
                "-o", str(out), "--device", DEVICE, *(["--float32"] if fp32 else [])]
        old = sys.stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="strict")
        try:
            code, _, err = run_cli(args)
        finally:
            sys.stdin = old
        if records is None:
            check_refused(code, err, out, [])
            return
        problem = observation_error(records, symbols, bool(model.get("ignore_case")))
        if problem is not None:
            check_refused(code, err, out, problem)
        else:
            assert code == 0, err
            check_table(out.read_text(), model, records, approx=fp32)


@pytest.mark.parametrize("content,words", [
    ("", ["empty"]),
    (">only_header\n", ["only_header"]),
    ("no header line\n", ["fasta"]),
])
def test_empty_and_headerless_observations(tmp_path, content, words):
    model = {"states": ["F", "L"], "symbols": "123456", "startprob": [0.5, 0.5],
             "transmat": [[0.95, 0.05], [0.1, 0.9]],
             "emissionprob": [[1 / 6] * 6, [0.1] * 5 + [0.5]]}
    (tmp_path / "m.json").write_text(json.dumps(model))
    (tmp_path / "s.fa").write_text(content)
    out = tmp_path / "o.tsv"
    code, _, err = run_cli(["viterbi", str(tmp_path / "m.json"), str(tmp_path / "s.fa"),
                            "-o", str(out), "--device", DEVICE])
    check_refused(code, err, out, words)


def test_unknown_field_is_warned_about(tmp_path, caplog):
    """A misspelt option (``ignorecase``) is not silently dropped: a warning names it."""
    from bioplug.hmm.model import read_model

    path = tmp_path / "m.json"
    path.write_text(json.dumps({"states": ["s"], "symbols": "ab", "startprob": [1.0],
                                "transmat": [[1.0]], "emissionprob": [[0.5, 0.5]],
                                "ignorecase": True}))
    with caplog.at_level("WARNING"):
        model = read_model(path)
    assert "unknown field(s) ignored: ignorecase" in caplog.text
    assert model.ignore_case is False
