"""``bioplug.skbio.nj`` against ``skbio.tree.nj`` itself (PoCL): errors, dtypes, ``inplace``,
deprecated keywords. Every expectation is what scikit-bio does on the same call."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.spatial.distance import pdist, squareform
from skbio import DistanceMatrix, TreeNode
from skbio.tree import nj as skbio_nj

from bioplug.skbio import nj

DEVICE = "cpu"
WIKI = [[0, 5, 9, 9, 8], [5, 0, 10, 10, 9], [9, 10, 0, 8, 7], [9, 10, 8, 0, 3],
        [8, 9, 7, 3, 0]]


def random_dm(n: int, seed: int, dtype=np.float64) -> DistanceMatrix:
    d = squareform(pdist(np.random.default_rng(seed).random((n, 5))))
    dm = DistanceMatrix(d, [f"t{k}" for k in range(n)])
    dm._data = dm._data.astype(dtype)  # as scikit-bio's own tests change the element type
    return dm


def same_tree(a: TreeNode, b: TreeNode, rtol: float = 1e-9) -> None:
    assert a.compare_rfd(b) == 0
    x = b.tip_tip_distances()
    np.testing.assert_allclose(a.tip_tip_distances().filter(x.ids).data, x.data, rtol=rtol)


def outcome(func, *args, **kwargs):
    """(exception type or None, message or result, warnings) of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = func(*args, **kwargs)
            error = None
        except Exception as exc:  # noqa: BLE001 - compared with scikit-bio's
            result, error = str(exc), exc
    kinds = [(w.category, str(w.message)) for w in caught]
    return error, result, kinds


@pytest.mark.parametrize("n", [1, 2])
def test_fewer_than_three_taxa_raise_value_error(n):
    dm = DistanceMatrix(np.ones((n, n)) - np.eye(n), [f"t{k}" for k in range(n)])
    ref_error, ref_message, _ = outcome(skbio_nj, dm)
    error, message, _ = outcome(nj, dm, device=DEVICE)
    assert isinstance(ref_error, ValueError) and isinstance(error, ValueError)
    assert message == ref_message


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int32", "int64"])
def test_element_types_as_scikit_bio(dtype):
    dm = random_dm(12, 3, dtype)
    ref_error, ref, _ = outcome(skbio_nj, dm)
    error, got, _ = outcome(nj, dm, device=DEVICE)
    if ref_error is not None:
        assert type(error) is type(ref_error) or isinstance(error, type(ref_error))
        assert got.startswith(ref)  # scikit-bio's message, then which types it takes
        return
    assert error is None
    same_tree(got, ref, rtol=1e-5 if dtype == "float32" else 1e-9)
    assert dm.data.dtype == np.dtype(dtype)  # the input is not converted


def test_float32_matches_float64_tree():
    """scikit-bio's floating test: the float32 matrix gives the float64 tree."""
    dm64 = random_dm(20, 5)
    dm32 = random_dm(20, 5, np.float32)
    assert nj(dm32, device=DEVICE).compare_cophenet(skbio_nj(dm64)) == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize("case", ["wiki", "random"])
def test_inplace(case):
    if case == "wiki":
        make = lambda: DistanceMatrix(np.asarray(WIKI, dtype=float), list("abcde"))  # noqa: E731
    else:
        make = lambda: random_dm(16, 7)  # noqa: E731
    original = make().data.copy()
    # inplace=False: the input is untouched, as in scikit-bio
    dm = make()
    same_tree(nj(dm, device=DEVICE), skbio_nj(make()))
    np.testing.assert_array_equal(dm.data, original)
    # inplace=True: the data are used up as scikit-bio uses them
    mine, theirs = make(), make()
    tree = nj(mine, inplace=True, device=DEVICE)
    ref = skbio_nj(theirs, inplace=True)
    same_tree(tree, ref)
    assert not np.array_equal(mine.data, original)
    np.testing.assert_array_equal(mine.data, theirs.data)


def test_deprecated_keywords_warn_as_scikit_bio():
    dm = DistanceMatrix(np.asarray(WIKI, dtype=float) - 2.5 * (1 - np.eye(5)), list("abcde"))
    for keywords in ({"disallow_negative_branch_length": False},
                     {"disallow_negative_branch_length": True},
                     {"result_constructor": str}):
        ref_error, ref, ref_warnings = outcome(skbio_nj, dm, **keywords)
        error, got, got_warnings = outcome(nj, dm, device=DEVICE, **keywords)
        assert ref_error is None and error is None
        assert [c for c, _ in got_warnings] == [DeprecationWarning]
        # scikit-bio warns once per process: compare with its message when it did warn
        if ref_warnings:
            assert got_warnings == ref_warnings
        if isinstance(ref, str):
            assert TreeNode.read([got]).compare_cophenet(TreeNode.read([ref])) == 0
        else:
            same_tree(got, ref)
    negative = nj(dm, disallow_negative_branch_length=False, device=DEVICE)
    assert any(node.length < 0 for node in negative.traverse() if node.length is not None)
    same_tree(negative, skbio_nj(dm, neg_as_zero=False))
