"""bioplug.skbio.multi_align (scikit-bio's method on the device) against scikit-bio itself.

Random DNA and protein families: the same path, guide tree and distance matrix (bit for bit)
as ``skbio.alignment.multi_align``, linear and affine gaps, free ends or not, with and without
a guide tree; the private stages against scikit-bio's (float64 matrices too); the
nearest-neighbour chain against scipy on tie-heavy matrices. PoCL by default
(``BIOPLUG_TEST_DEVICE=gpu`` for a GPU).
"""

from __future__ import annotations

import inspect
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

skbio = pytest.importorskip("skbio")
from scipy.cluster.hierarchy import linkage  # noqa: E402
from skbio import DNA, Protein, TreeNode  # noqa: E402
from skbio.alignment import _multi as sk_multi  # noqa: E402
from skbio.util._array import ArrayWorkspace  # noqa: E402

from bioplug import skbio as bskbio  # noqa: E402
from bioplug.progressive import skbio_method  # noqa: E402
from bioplug.runtime import get_runtime  # noqa: E402

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
SETTINGS = settings(
    max_examples=int(os.environ.get("BIOPLUG_EXAMPLES", 40)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
KINDS = {
    "dna": (DNA, "ACGT", [(1.0, -1.0), (2.0, -3.0), (1.5, -0.5), "NUC.4.4"]),
    "protein": (Protein, "ACDEFGHIKLMNPQRSTVWY", ["BLOSUM62", "PAM250", (1.0, 0.0), (5.0, -4.0)]),
}
GAPS = [2.0, 1.0, 0.5, (5.0, 2.0), (11.0, 1.0), (3.0, 0.0), (0.5, 0.25)]


@st.composite
def families(draw):
    """2-8 related sequences: one ancestor with random substitutions, insertions and
    deletions (small alphabets and short lengths make ties common)."""
    kind = draw(st.sampled_from(sorted(KINDS)))
    cls, letters, scores = KINDS[kind]
    letters = letters[: draw(st.integers(1, len(letters)))]
    ancestor = draw(st.text(letters, min_size=1, max_size=40))
    count = draw(st.integers(2, 8))
    seqs = []
    for _ in range(count):
        edits = draw(st.lists(st.tuples(st.integers(0, 60), st.sampled_from("sid"),
                                        st.sampled_from(letters)), max_size=6))
        s = list(ancestor)
        for pos, op, letter in edits:
            at = pos % (len(s) + 1)
            if op == "i":
                s.insert(at, letter)
            elif s and at < len(s):
                s[at] = letter if op == "s" else ""
        seqs.append(cls("".join(s) or ancestor))
    return seqs, draw(st.sampled_from(scores))


def random_tree(draw, count: int) -> TreeNode:
    nodes = [str(i) for i in range(count)]
    while len(nodes) > 1:
        i = draw(st.integers(0, len(nodes) - 1))
        a = nodes.pop(i)
        j = draw(st.integers(0, len(nodes) - 1))
        nodes[j] = f"({a},{nodes[j]})" if draw(st.booleans()) else f"({nodes[j]},{a})"
    return TreeNode.read([nodes[0] + ";"])


def assert_same(ours, theirs, tree_given: bool) -> None:
    assert type(ours) is type(theirs)
    assert ours.path.shape == theirs.path.shape
    np.testing.assert_array_equal(ours.path.to_bits(), theirs.path.to_bits())
    if tree_given:
        assert ours.tree is theirs.tree and ours.distmat is None
    else:
        assert ours.distmat.ids == theirs.distmat.ids
        np.testing.assert_array_equal(ours.distmat.data, theirs.distmat.data)
        assert str(ours.tree) == str(theirs.tree)


@SETTINGS
@given(family=families(), data=st.data())
def test_same_result_as_scikit_bio(family, data):
    seqs, sub_score = family
    gap_cost = data.draw(st.sampled_from(GAPS))
    free_ends = data.draw(st.booleans())
    tree = random_tree(data.draw, len(seqs)) if data.draw(st.booleans()) else None
    kwargs = dict(sub_score=sub_score, gap_cost=gap_cost, free_ends=free_ends,
                  guide_tree=tree, keep_tree=True, keep_distmat=True)
    theirs = sk_multi.multi_align(seqs, **kwargs)
    ours = bskbio.multi_align(seqs, device=DEVICE, **kwargs)
    assert_same(ours, theirs, tree is not None)


def test_long_sequences_cross_strips():
    # queries longer than a strip of rows (64): the wavefront hands rows between strips
    rng = np.random.default_rng(5)
    root = rng.choice(list("ACGT"), 150)
    seqs = [DNA("".join(c for c in root if rng.random() > 0.15)) for _ in range(5)]
    for gap in (2.0, (5.0, 2.0)):
        kwargs = dict(gap_cost=gap, keep_tree=True, keep_distmat=True)
        assert_same(bskbio.multi_align(seqs, device=DEVICE, **kwargs),
                    sk_multi.multi_align(seqs, **kwargs), False)


def test_small_batches_change_nothing(monkeypatch):
    # every launch holds one or two alignments: self-scores, pairs and merges in many batches
    monkeypatch.setattr(skbio_method.SkbioEngine, "batch_limit", 1)
    seqs = ["ACGTTGCA", "ACGTGCA", "AGTTGCAA", "CGTTGCA", "ACGATGCA", "ACTTGA"]
    for gap in (2.0, (3.0, 1.0)):
        kwargs = dict(gap_cost=gap, keep_tree=True, keep_distmat=True)
        assert_same(bskbio.multi_align(seqs, device=DEVICE, **kwargs),
                    sk_multi.multi_align(seqs, **kwargs), False)


@pytest.mark.parametrize("atol", [0.0, 1e-5, 0.5, 2.0, None])
def test_atol_decides_ties_as_scikit_bio(atol):
    seqs = ["ACACAC", "CACA", "ACCA", "AAACCC", "CA"]
    for gap in (1.0, (1.0, 0.5)):
        kwargs = dict(gap_cost=gap, atol=atol, keep_tree=True, keep_distmat=True)
        assert_same(bskbio.multi_align(seqs, device=DEVICE, **kwargs),
                    sk_multi.multi_align(seqs, **kwargs), False)


def test_sums_without_exact_results_use_scikit_bios_products():
    # 1.1 and -0.9 are not dyadic: scikit-bio's float32 BLAS product rounds profile scores,
    # which the device cannot reproduce, so those merges take scikit-bio's own product
    assert not skbio_method.exact_sums(np.float32([[1.1, -0.9], [-0.9, 1.1]]), 4, np.float32)
    assert skbio_method.exact_sums(np.float32([[1.5, -0.5], [-0.5, 1.5]]), 4, np.float32)
    assert not skbio_method.exact_sums(np.float32([[3, 1], [1, 3]]), 2**23, np.float32)
    rng = np.random.default_rng(11)
    root = rng.choice(list("ACGT"), 60)
    seqs = ["".join(c for c in root if rng.random() > 0.1) for _ in range(8)]
    # a float64 matrix of random reals: S_rand's sums are not exact either, so scikit-bio's
    # own dot products feed the distances
    data = rng.normal(size=(4, 4))
    matrix = skbio.SubstitutionMatrix("ACGT", data + data.T)
    for sub_score in ((1.1, -0.9), matrix):
        kwargs = dict(sub_score=sub_score, gap_cost=(1.0, 0.3), keep_tree=True,
                      keep_distmat=True)
        assert_same(bskbio.multi_align(seqs, device=DEVICE, **kwargs),
                    sk_multi.multi_align(seqs, **kwargs), False)


@SETTINGS
@given(encoded=st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=20), min_size=2,
                        max_size=7),
       dtype=st.sampled_from([np.float32, np.float64]),
       gaps=st.sampled_from([(0, 2), (5, 2), (1, 1), (0, 0.5)]),
       free=st.booleans())
def test_score_dists_stage(encoded, dtype, gaps, free):
    submat = np.full((4, 4), -1.0, dtype=dtype)
    np.fill_diagonal(submat, 2.0)
    encoded = [np.array(x, dtype=np.intp) for x in encoded]
    args = (encoded, submat, *gaps, free)
    theirs = sk_multi._score_dists(*args, ArrayWorkspace(), 0)
    ours = skbio_method.score_dists(*args, None, 0, device=DEVICE)
    assert ours.dtype == np.float64
    np.testing.assert_array_equal(ours, theirs)


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from([np.float32, np.float64]))
def test_merge_align_stage(data, dtype):
    # two random profiles (gapped rows of a 3-letter alphabet), merged by both
    def profile(first: int):
        rows = data.draw(st.integers(1, 4))
        cols = data.draw(st.integers(1, 15))
        gaps = np.array(data.draw(st.lists(st.lists(st.booleans(), min_size=cols,
                                                    max_size=cols),
                                           min_size=rows, max_size=rows)))
        gaps[:, 0] = False  # no all-gap column
        letters = np.array(data.draw(st.lists(st.integers(0, 2), min_size=rows * cols,
                                              max_size=rows * cols))).reshape(rows, cols)
        counts = np.zeros((cols, 3), dtype=dtype)
        for r in range(rows):
            np.add.at(counts, (np.flatnonzero(~gaps[r]), letters[r, ~gaps[r]]), 1)
        return counts, gaps, list(range(first, first + rows))

    one, two = profile(0), profile(10)
    submat = np.array([[2, -1, -2], [-1, 2, -1], [-2, -1, 2]], dtype=dtype)
    gap_o, gap_e = data.draw(st.sampled_from([(0, 2), (3, 1), (0, 1)]))
    free = data.draw(st.booleans())
    theirs = sk_multi._merge_align(one, two, submat, dtype(gap_o), dtype(gap_e), free,
                                   ArrayWorkspace(), dtype(0))
    ours = skbio_method.merge_align(one, two, submat, dtype(gap_o), dtype(gap_e), free, None,
                                    dtype(0), device=DEVICE)
    assert ours[0].dtype == theirs[0].dtype
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])
    assert ours[2] == theirs[2]


@SETTINGS
@given(n=st.integers(2, 40), levels=st.integers(1, 4), seed=st.integers(0, 2**31))
def test_nn_chain_is_scipys_linkage(n, levels, seed):
    # few distinct values: ties everywhere, decided as scipy's chain decides them
    rng = np.random.default_rng(seed)
    dm = rng.integers(0, levels, n * (n - 1) // 2).astype(np.float64) / 3
    engine = skbio_method.SkbioEngine(get_runtime(DEVICE), np.float32)
    np.testing.assert_array_equal(engine.average_linkage(dm), linkage(dm, method="average"))


def test_signatures_match_scikit_bio():
    for name in ("multi_align", "multi_align_nucl", "multi_align_prot"):
        ours = inspect.signature(getattr(bskbio, name)).parameters
        theirs = inspect.signature(getattr(sk_multi, name)).parameters
        assert list(ours)[: len(theirs)] == list(theirs)
        for key, param in theirs.items():
            assert ours[key].default == param.default and ours[key].kind == param.kind


def test_without_float64_scikit_bio_aligns(monkeypatch, caplog):
    rt = get_runtime(DEVICE)
    monkeypatch.setattr(rt.info.__class__, "fp64", property(lambda self: False),
                        raising=False)
    seqs = ["ACGTT", "AGTT", "ACGT"]
    with caplog.at_level("WARNING"):
        ours = bskbio.multi_align(iter(seqs), ids=iter("abc"), device=rt)
    assert "no float64" in caplog.text
    np.testing.assert_array_equal(ours.path.to_bits(),
                                  sk_multi.multi_align(seqs).path.to_bits())


def test_docstring_examples(monkeypatch):
    import doctest

    monkeypatch.setenv("BIOPLUG_DEVICE", DEVICE)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for func in (bskbio.multi_align, skbio_method.multi_align):
        for test in finder.find(func, func.__qualname__):
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted == 9 and not result.failed
