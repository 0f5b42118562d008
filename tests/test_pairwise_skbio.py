"""bioplug.skbio.pair_align against scikit-bio's own pair_align (PoCL)."""

from __future__ import annotations

import inspect
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

skbio = pytest.importorskip("skbio")
from skbio.alignment import PairAlignPath, align_score  # noqa: E402
from skbio.alignment import pair_align as skbio_pair_align  # noqa: E402

from bioplug.skbio import pair_align  # noqa: E402

SETTINGS = settings(
    max_examples=int(os.environ.get("BIOPLUG_EXAMPLES", 40)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SCHEMES = {
    "dna": (skbio.DNA, "ACGT", [(1.0, -1.0), (2.0, -3.0), (5.0, -4.0), "NUC.4.4"]),
    "protein": (skbio.Protein, "ARNDCQEGHILKMFPSTWYV", [(1.0, 0.0), "BLOSUM62", "PAM250"]),
    "text": (str, "abcde", [(1.0, -1.0), (2.0, -0.5)]),
}
GAPS = [2.0, 1.0, 2.5, (5.0, 2.0), (11.0, 1.0), (9.5, 0.5), (3.0, 0.0)]
FREE = [True, False, (True, False), (False, True), (True, False, False, True)]


def test_signature_matches_scikit_bio():
    ours = inspect.signature(pair_align).parameters
    theirs = inspect.signature(skbio_pair_align).parameters
    assert list(ours)[: len(theirs)] == list(theirs)
    for name, param in theirs.items():
        assert ours[name].default == param.default
        assert ours[name].kind == param.kind


@SETTINGS
@given(data=st.data())
def test_matches_scikit_bio(data):
    kind = data.draw(st.sampled_from(sorted(SCHEMES)))
    cls, alphabet, subs = SCHEMES[kind]
    sub_score = data.draw(st.sampled_from(subs))
    gap_cost = data.draw(st.sampled_from(GAPS))
    mode = data.draw(st.sampled_from(["global", "local"]))
    free_ends = data.draw(st.sampled_from(FREE))
    trim_ends = data.draw(st.booleans())
    seq = st.text(alphabet=alphabet, min_size=1, max_size=150)
    s1, s2 = cls(data.draw(seq)), cls(data.draw(seq))
    kw = dict(mode=mode, sub_score=sub_score, gap_cost=gap_cost, free_ends=free_ends,
              trim_ends=trim_ends)
    want = skbio_pair_align(s1, s2, **kw)
    got = pair_align(s1, s2, device="cpu", **kw)
    assert type(got) is type(want)
    assert got.score == pytest.approx(want.score, rel=1e-6, abs=1e-4)
    assert got.matrices is None
    assert isinstance(got.paths, list) and len(got.paths) == len(want.paths)
    if not got.paths:
        return
    path = got.paths[0]
    assert isinstance(path, PairAlignPath)
    aligned = path.to_aligned((s1, s2))
    # the path's own score, computed by scikit-bio, is the optimal score
    if mode == "local" or (not trim_ends and isinstance(free_ends, bool)):
        rescored = align_score(
            [str(x) for x in aligned], sub_score, gap_cost,
            free_ends=free_ends if mode == "global" else False,
        )
        assert rescored == pytest.approx(want.score, rel=1e-6, abs=1e-4)
    if mode == "global" and not trim_ends:
        assert [str(x).replace("-", "") for x in aligned] == [str(s1), str(s2)]


def test_score_only_and_trimmed_example():
    query, target = "ACCGT", "AAACGCTACCGTCCGTAGACCGTGACCGTGCGAAGC"
    kw = dict(mode="global", sub_score=(1, -2), gap_cost=2.5, free_ends=(True, False),
              trim_ends=True)
    got = pair_align(query, target, device="cpu", **kw)
    want = skbio_pair_align(query, target, **kw)
    assert got.score == want.score == 5.0
    assert got.paths[0].to_cigar() == "5M"
    start = got.paths[0].ranges[1][0]
    assert target[start : start + 5] == query
    only = pair_align(query, target, max_paths=0, device="cpu", **kw)
    assert only.score == 5.0 and only.paths is None


def test_local_without_positive_score():
    got = pair_align("AAAA", "CCCC", mode="local", device="cpu")
    want = skbio_pair_align("AAAA", "CCCC", mode="local")
    assert got == want


def test_fallbacks_are_scikit_bios():
    s1, s2 = skbio.DNA("ACTACCAGATTACTTACGGATC"), skbio.DNA("CGAAACTACTAGATTACGGATCT")
    for kw in [
        dict(max_paths=None),
        dict(max_paths=3),
        dict(sub_score=(1, -np.inf), gap_cost=0, mode="local"),
        dict(gap_cost=np.inf, mode="local"),
        dict(gap_cost=(0.1, 0.1)),  # not exactly reproducible with scaled integers
    ]:
        got = pair_align(s1, s2, device="cpu", **kw)
        want = skbio_pair_align(s1, s2, **kw)
        assert got.score == want.score
        assert [p.to_cigar() for p in got.paths] == [p.to_cigar() for p in want.paths]
    got = pair_align(s1, s2, keep_matrices=True, device="cpu")
    assert got.matrices is not None
    words1 = "the quick brown fox".split()
    words2 = "the slow brown wolf".split()
    assert pair_align(words1, words2, max_paths=0).score == skbio_pair_align(
        words1, words2, max_paths=0
    ).score
    # degenerate letters outside the matrix: scikit-bio substitutes its wildcard
    p1, p2 = skbio.Protein("MKVJ"), skbio.Protein("MKVB")
    assert pair_align(p1, p2, sub_score="BLOSUM62", device="cpu").score == skbio_pair_align(
        p1, p2, sub_score="BLOSUM62"
    ).score
    with pytest.raises(ValueError):
        pair_align("ACGT", "ACGT", mode="semi", device="cpu")


def test_docstring_examples(monkeypatch):
    import doctest

    monkeypatch.setenv("BIOPLUG_DEVICE", "cpu")
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(pair_align, "pair_align"):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted and not result.failed
