"""Front doors: input types, bad inputs, Biopython and scikit-bio adapters."""

from __future__ import annotations

import numpy as np
import pytest
from Bio.Phylo.TreeConstruction import DistanceCalculator
from Bio.Phylo.TreeConstruction import DistanceMatrix as BioDM
from scipy.spatial.distance import pdist, squareform
from skbio import DistanceMatrix, TreeNode
from skbio.tree import nj as skbio_nj
from skbio.tree import upgma as skbio_upgma

import bioplug.tree as bt
from bioplug.errors import InputError
from bioplug.runtime import get_runtime
from bioplug.tree.device import check_fits

DEVICE = "cpu"


def data(n: int = 8, seed: int = 0) -> np.ndarray:
    return squareform(pdist(np.random.default_rng(seed).random((n, 4))))


def same_tree(a: TreeNode, b: TreeNode) -> None:
    assert a.compare_rfd(b) == 0
    x = b.tip_tip_distances()
    np.testing.assert_allclose(a.tip_tip_distances().filter(x.ids).data, x.data, rtol=1e-9)


def test_numpy_skbio_biopython_condensed_agree() -> None:
    d = data()
    ids = [f"s{k}" for k in range(len(d))]
    ref = skbio_nj(DistanceMatrix(d, ids))
    bio = BioDM(ids, [list(d[a, : a + 1]) for a in range(len(ids))])
    for dm in (DistanceMatrix(d, ids), bio):
        same_tree(bt.nj(dm, device=DEVICE), ref)
    same_tree(bt.nj(d, ids=ids, device=DEVICE), ref)
    same_tree(bt.nj(squareform(d), ids=ids, device=DEVICE), ref)
    same_tree(bt.upgma(bio, device=DEVICE), skbio_upgma(DistanceMatrix(d, ids)))


def test_skbio_signature_front_door() -> None:
    from bioplug.skbio import nj

    dm = DistanceMatrix(data(9, 3), [str(k) for k in range(9)])
    same_tree(nj(dm, device=DEVICE), skbio_nj(dm))
    text = nj(dm, result_constructor=str, device=DEVICE)
    assert isinstance(text, str) and text.strip().endswith(";")


def test_biopython_constructor() -> None:
    from Bio.Align import MultipleSeqAlignment
    from Bio.Phylo.BaseTree import Tree
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    d = data(6, 2)
    ids = list("abcdef")
    bio = BioDM(ids, [list(d[a, : a + 1]) for a in range(6)])
    cons = bt.DistanceTreeConstructor(device=DEVICE)
    tree = cons.nj(bio)
    assert isinstance(tree, Tree) and not tree.rooted
    assert sorted(t.name for t in tree.get_terminals()) == ids
    ref = skbio_nj(DistanceMatrix(d, ids), neg_as_zero=False)
    for x, y in [("a", "b"), ("c", "f"), ("d", "e")]:
        assert tree.distance(x, y) == pytest.approx(ref.find(x).distance(ref.find(y)))
    up = cons.upgma(bio)
    ref_up = skbio_upgma(DistanceMatrix(d, ids))
    assert up.rooted
    assert up.distance("a", "b") == pytest.approx(ref_up.find("a").distance(ref_up.find("b")))
    msa = MultipleSeqAlignment([SeqRecord(Seq(s), id=i) for s, i in [
        ("ACDEFGHIK", "p"), ("ACDEFGHIR", "q"), ("ACDQFGWIR", "r"), ("TCDQYGWLR", "s")]])
    assert len(cons.build_tree(msa).get_terminals()) == 4
    with_calc = bt.DistanceTreeConstructor(DistanceCalculator("identity"), "upgma",
                                           device=DEVICE)
    assert len(with_calc.build_tree(msa).get_terminals()) == 4


def test_newick_and_biophylo_outputs() -> None:
    tree = bt.nj(data(5), ids=list("abcde"), device=DEVICE)
    text = bt.to_newick(tree)
    assert text.strip().endswith(";")
    back = TreeNode.read([text])
    assert back.compare_rfd(tree) == 0
    phylo = bt.to_biophylo(tree, rooted=False)
    assert phylo.count_terminals() == 5


@pytest.mark.parametrize(
    "matrix,match",
    [
        (np.array([[0, 1, 2], [1, 0, 3]]), "square"),
        (np.array([[0, 1, 2], [1, 0, 3], [2, 3.5, 0]]), "not symmetric"),
        (np.array([[0, 1, np.nan], [1, 0, 3], [np.nan, 3, 0]]), "NaN"),
        (np.array([[0, 1, np.inf], [1, 0, 3], [np.inf, 3, 0]]), "infinite"),
        (np.array([[0, -1, 2], [-1, 0, 3], [2, 3, 0]]), "negative"),
        (np.array([[1, 1, 2], [1, 0, 3], [2, 3, 0]]), "diagonal"),
        (np.zeros((0, 0)), "empty"),
        (np.ones(4), "n\\(n-1\\)/2"),
    ],
)
def test_bad_matrices(matrix: np.ndarray, match: str) -> None:
    for fn in (bt.nj, bt.upgma):
        with pytest.raises(InputError, match=match):
            fn(matrix, device=DEVICE)


def test_huge_values_rejected() -> None:
    d = data(5) / data(5).max() * 1e307
    with pytest.raises(InputError, match="too large"):
        bt.nj(d, device=DEVICE)
    with pytest.raises(InputError, match="too large"):
        bt.nj(data(5) / data(5).max() * 1e37, device=DEVICE, dtype=np.float32)


def test_bad_ids_and_input_left_unchanged() -> None:
    d = data(4)
    before = d.copy()
    with pytest.raises(InputError, match="duplicate"):
        bt.nj(d, ids=["a", "a", "b", "c"], device=DEVICE)
    with pytest.raises(InputError, match="3 ids"):
        bt.nj(d, ids=["a", "b", "c"], device=DEVICE)
    with pytest.raises(InputError, match="empty id"):
        bt.nj(d, ids=["a", "", "b", "c"], device=DEVICE)
    bt.nj(d, device=DEVICE)
    np.testing.assert_array_equal(d, before)


def test_error_names_the_cell() -> None:
    d = data(4)
    d[1, 3] = d[3, 1] = np.nan
    with pytest.raises(InputError, match=r"\(b, d\)"):
        bt.nj(d, ids=list("abcd"), device=DEVICE)


def test_too_large_for_device_memory() -> None:
    rt = get_runtime(DEVICE)
    with pytest.raises(InputError, match="GiB"):
        check_fits(3_000_000, rt, 8)
    check_fits(1000, rt, 8)


def test_two_and_one_taxa() -> None:
    two = bt.upgma(np.array([[0, 4.0], [4.0, 0]]), ids=["x", "y"], device=DEVICE)
    assert two.find("x").distance(two.find("y")) == pytest.approx(4.0)
    assert bt.to_newick(bt.nj(np.zeros((1, 1)), ids=["only"])).strip() == "only;"
