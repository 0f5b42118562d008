"""Fuzzing the front doors (Python and command line) with random and hostile input (PoCL).

Inputs: empty and one-record files, duplicate and very long ids, CRLF line ends, lower case,
IUPAC ambiguity codes, ``*``, gaps, ``#`` and digits, non-ASCII letters, binary bytes;
NaN / inf / negative / asymmetric distance matrices; scores that overflow. The only outcomes
allowed: a correct result (checked against Biopython or scikit-bio) or the documented error,
:class:`bioplug.errors.InputError` / exit code 2 with one line on standard error naming the
record and position where the input has a bad letter, and then no output file. A traceback,
exit code 1 or a partial file fails the test.

Command-line cases run in-process through :func:`bioplug.cli.main`; examples are capped so
the file runs in about a minute on 2 cores. ``CASES`` counts the cases tried (printed at the
end; ``benchmarks/RESULTS.md``, "Robustness", reports it).
"""

from __future__ import annotations

import collections
import contextlib
import io
import math
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from Bio import Align
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.cli import main
from bioplug.errors import InputError

DEVICE = "cpu"
CASES: collections.Counter = collections.Counter()
FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SLOW = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

PROTEIN = "ACDEFGHIKLMNPQRSTVWY"
IUPAC = "BZXJUOacdefghiklmnpqrstvwy*"
HOSTILE = ["#", "1", "!", " ", "Ä", "😀", "\t"]
VALID = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-.*")


@pytest.fixture(scope="module", autouse=True)
def _report_cases():
    yield
    total = sum(CASES.values())
    sys.__stderr__.write(f"\nfuzz cases tried: {total} {dict(sorted(CASES.items()))}\n")


# -- strategies ---------------------------------------------------------------------------------
residue = st.one_of(st.sampled_from(PROTEIN), st.sampled_from(PROTEIN), st.sampled_from(IUPAC),
                    st.sampled_from("-"), st.sampled_from(HOSTILE))
sequence = st.text(alphabet=residue, min_size=0, max_size=40)
clean_sequence = st.text(alphabet=st.sampled_from(PROTEIN + "acdefghik"), min_size=1,
                         max_size=40)
ident = st.one_of(st.sampled_from(["a", "b", "c"]),  # duplicates
                  st.from_regex(r"[A-Za-z0-9_|.]{1,12}", fullmatch=True),
                  st.from_regex(r"[A-Za-z]{300,400}", fullmatch=True))  # very long


@st.composite
def fasta_file(draw, min_records: int = 0, max_records: int = 6) -> tuple[bytes, list]:
    """(file bytes, [(id, sequence)]) with hostile ids, letters and line ends."""
    if draw(st.integers(0, 19)) == 0:
        return draw(st.binary(min_size=0, max_size=200)), None  # not a sequence file
    records = draw(st.lists(st.tuples(ident, sequence), min_size=min_records,
                            max_size=max_records))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = "".join(f">{i}{newline}{s}{newline}" for i, s in records)
    return text.encode("utf-8"), records


def bad_letter(records) -> tuple[str, int, str] | None:
    """The first (id, 1-based position, letter) that no command may accept."""
    for rid, seq in records:
        for pos, ch in enumerate(seq.strip(), 1):
            if ch not in VALID and not ch.isspace():
                return rid, pos, ch
    return None


# -- the command line ---------------------------------------------------------------------------
def run_cli(args: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    """``bioplug ARGS`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="strict")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                code = main(["-q", *args])
            except SystemExit as exc:  # argparse usage errors
                code = int(exc.code or 0)
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def check_cli_outcome(command: str, code: int, err: str, output: Path, records) -> None:
    """The documented outcomes only: 0 with a complete file, or 2, one error line, no file."""
    assert code in (0, 2), f"exit {code}: {err}"
    assert "Traceback" not in err
    if code == 2:
        lines = [x for x in err.splitlines() if x.strip()]
        assert len(lines) == 1 and lines[0].startswith(f"bioplug {command}: error:"), err
        assert not output.exists(), "partial output left after an error"
        if records is not None and bad_letter(records) is not None and "letter" in err:
            # a record the command refuses (search also refuses gaps), named with the
            # position; search names it as "record N ('id', line L)"
            assert "position" in err and any(f": {rid}: " in err or f"({rid!r}, line" in err
                                             for rid, _ in records), err
    else:
        # (a file with no alignment is a result: local pairs without a positive score)
        assert output.exists()
        assert records is not None and bad_letter(records) is None


def _files(data: bytes, name: str = "in.fa"):
    tmp = tempfile.TemporaryDirectory()
    path = Path(tmp.name) / name
    path.write_bytes(data)
    return tmp, path


@FAST
@given(fasta_file())
def test_cli_tree(case):
    data, records = case
    CASES["cli tree"] += 1
    tmp, path = _files(data)
    with tmp:
        out = path.with_suffix(".nwk")
        code, _, err = run_cli(["tree", str(path), "-o", str(out), "--device", DEVICE])
        check_cli_outcome("tree", code, err, out, records)
        if code == 0:
            from skbio import TreeNode

            tree = TreeNode.read([out.read_text()])
            tips = list(tree.tips(include_self=True))
            assert sorted(t.name for t in tips) == sorted(r[0] for r in records)


@FAST
@given(fasta_file(), st.sampled_from([[], ["--matrix", "BLOSUM62"], ["--mode", "local"]]))
def test_cli_pairwise(case, options):
    data, records = case
    CASES["cli pairwise"] += 1
    tmp, path = _files(data)
    with tmp:
        out = path.with_suffix(".sto")
        code, _, err = run_cli(["pairwise", str(path), "-o", str(out), "--device", DEVICE,
                                *options])
        check_cli_outcome("pairwise", code, err, out, records)


@FAST
@given(fasta_file(min_records=3, max_records=3))
def test_cli_align3(case):
    data, records = case
    CASES["cli align3"] += 1
    tmp, path = _files(data)
    with tmp:
        out = path.with_suffix(".out.fa")
        code, _, err = run_cli(["align3", str(path), "-o", str(out), "--device", DEVICE])
        check_cli_outcome("align3", code, err, out, records)


@SLOW
@given(fasta_file(max_records=5))
def test_cli_msa(case):
    data, records = case
    CASES["cli msa"] += 1
    tmp, path = _files(data)
    with tmp:
        out = path.with_suffix(".out.fa")
        code, _, err = run_cli(["msa", str(path), "-o", str(out), "--device", DEVICE])
        check_cli_outcome("msa", code, err, out, records)


@SLOW
@given(fasta_file(min_records=1, max_records=4), fasta_file(min_records=1, max_records=6))
def test_cli_search(queries, database):
    CASES["cli search"] += 1
    tmp, qpath = _files(queries[0], "q.fa")
    with tmp:
        dpath = qpath.with_name("db.fa")
        dpath.write_bytes(database[0])
        out = qpath.with_name("hits.tsv")
        code, _, err = run_cli(["search", str(qpath), str(dpath), "-o", str(out),
                                "--device", DEVICE])
        both = None if queries[1] is None or database[1] is None else queries[1] + database[1]
        assert code in (0, 2), err
        if code == 2 or both is None:
            check_cli_outcome("search", code, err, out, both)


@FAST
@given(fasta_file(min_records=1))
def test_cli_stdin_stdout(case):
    """``-`` in and out: the tree goes to standard output, errors only to standard error."""
    data, records = case
    CASES["cli stdin"] += 1
    code, out, err = run_cli(["tree", "-", "-o", "-", "--device", DEVICE], stdin=data)
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 0:
        assert out.strip().endswith(";") and err == ""
    else:
        assert out == ""


# -- Python front doors -------------------------------------------------------------------------
def _bio_score(aligner_kwargs: dict, a: str, b: str):
    theirs = Align.PairwiseAligner(**aligner_kwargs)
    try:
        return theirs.score(a, b)
    except (ValueError, OverflowError) as exc:
        return exc


big = st.one_of(st.floats(-1e6, 1e6, allow_nan=False), st.sampled_from([1e300, -1e300, 2.0**40,
                                                                          -(2.0**31), 0.5]))


@FAST
@given(a=clean_sequence, b=clean_sequence, match=big, mismatch=big,
       gap=st.sampled_from([-1.0, -1e300, -0.5, 0.0]), mode=st.sampled_from(["global", "local"]))
def test_pairwise_aligner_scores(a, b, match, mismatch, gap, mode):
    """Any letters (Biopython's behaviour) and overflowing scores: Biopython's score or an
    InputError, never a wrong number."""
    from bioplug import PairwiseAligner

    CASES["PairwiseAligner"] += 1
    kwargs = dict(mode=mode, match_score=match, mismatch_score=mismatch, gap_score=gap)
    expected = _bio_score(kwargs, a, b)
    try:
        got = PairwiseAligner(device=DEVICE, **kwargs).score(a, b)
    except InputError:
        return
    assert not isinstance(expected, Exception), f"Biopython raised {expected!r}, ours {got}"
    if math.isnan(expected):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-9)


matrix_value = st.one_of(st.floats(0, 10, allow_nan=False), st.sampled_from(
    [np.nan, np.inf, -np.inf, -1.0, 0.0, 1e308]))


@st.composite
def distance_matrix(draw):
    n = draw(st.integers(0, 9))
    values = draw(st.lists(matrix_value, min_size=n * n, max_size=n * n))
    d = np.array(values, dtype=np.float64).reshape(n, n)
    if draw(st.booleans()):  # usually symmetric with a zero diagonal
        d = np.triu(d, 1)
        d = d + d.T
    return d


def _valid(d: np.ndarray) -> bool:
    return bool(np.isfinite(d).all() and (d >= 0).all() and (d == d.T).all()
                and (np.diag(d) == 0).all() and (d < 1e300).all())


@FAST
@given(distance_matrix(), st.sampled_from(["nj", "upgma", "skbio.upgma", "skbio.nj"]))
def test_tree_front_doors(d, method):
    """NaN / inf / negative / asymmetric matrices are InputErrors; valid ones give scikit-bio's
    tree."""
    from skbio import DistanceMatrix
    from skbio.tree import nj as skbio_nj
    from skbio.tree import upgma as skbio_upgma

    import bioplug.skbio as bskbio
    import bioplug.tree as bt

    CASES["tree matrices"] += 1
    func = {"nj": bt.nj, "upgma": bt.upgma, "skbio.upgma": bskbio.upgma,
            "skbio.nj": bskbio.nj}[method]
    ids = [f"t{k}" for k in range(len(d))]
    try:
        tree = func(d, device=DEVICE) if method.startswith("skbio") else \
            func(d, ids=ids, device=DEVICE)
    except InputError:
        assert not _valid(d) or len(d) < (3 if method.startswith("skbio") else 1)
        return
    assert _valid(d)
    if len(d) >= 3:
        dm = DistanceMatrix(d, ids)
        ref = skbio_upgma(dm) if "upgma" in method else skbio_nj(dm)
        for tip in tree.tips():  # numpy input: names "0", "1", ... unless ids are given
            tip.name = tip.name if tip.name.startswith("t") else f"t{tip.name}"
        dist = tree.tip_tip_distances()
        np.testing.assert_allclose(dist.filter(ids).data, ref.tip_tip_distances().filter(
            ids).data, rtol=1e-9, atol=1e-9)


@SLOW
@given(st.lists(sequence, min_size=3, max_size=3))
def test_align_three_front_door(texts):
    from bioplug import align_three

    CASES["align_three"] += 1
    try:
        alignment = align_three(*texts, device=DEVICE)
    except InputError as exc:
        assert "position" in str(exc) or "empty" in str(exc)
        return
    rows = [alignment[i].replace("-", "") for i in range(3)]
    assert rows == [t.replace("-", "").replace(".", "") for t in texts] or rows == texts
