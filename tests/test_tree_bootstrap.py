"""Bootstrap support on the device against a numpy / scikit-bio reference (same draws)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from skbio import DistanceMatrix, TreeNode
from skbio.tree import nj as skbio_nj

from bioplug.errors import InputError
from bioplug.tree import bootstrap
from bioplug.tree.support import count_support, draw_columns, tree_splits

AMINO = "ACDEFGHIKLMNPQRSTVWY"


def simulated(n: int, length: int, seed: int) -> tuple[list[str], list[str]]:
    """Rows evolved from one ancestor along a random ladder (distinct, a few gaps)."""
    rng = np.random.default_rng(seed)
    parent = rng.integers(0, 20, length)
    rows = []
    for i in range(n):
        x = parent.copy()
        hit = rng.random(length) < 0.04 * (i + 1)
        x[hit] = rng.integers(0, 20, int(hit.sum()))
        if i % 2:
            parent = x
        text = [AMINO[c] for c in x]
        for g in np.flatnonzero(rng.random(length) < 0.04):
            text[g] = "-"
        rows.append("".join(text))
    return rows, [f"s{i}" for i in range(n)]


def p_distances(enc: np.ndarray) -> np.ndarray:
    """Numpy p-distance over columns where both rows have a residue."""
    ok = enc != ord("-")
    both = (ok[:, None, :] & ok[None, :, :]).sum(-1)
    same = ((enc[:, None, :] == enc[None, :, :]) & ok[:, None, :] & ok[None, :, :]).sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.where(both > 0, 1.0 - same / np.maximum(both, 1), 1.0)
    np.fill_diagonal(d, 0.0)
    return d


def reference_counts(rows, ids, replicates, seed):
    """scikit-bio NJ on each replicate redrawn with the documented RNG calls."""
    enc = np.frombuffer("".join(rows).encode(), np.uint8).reshape(len(rows), -1)
    full = skbio_nj(DistanceMatrix(p_distances(enc), ids))
    index = {name: k for k, name in enumerate(ids)}
    ref = tree_splits(full, index)
    rng = np.random.default_rng(seed)
    trees = []
    for _ in range(replicates):
        cols = rng.integers(0, enc.shape[1], size=enc.shape[1])
        tree = skbio_nj(DistanceMatrix(p_distances(enc[:, cols]), ids))
        trees.append(list(tree_splits(tree, index)))
    return ref, count_support(list(ref), trees)


def support_by_split(tree, ids):
    index = {name: k for k, name in enumerate(ids)}
    return {key: node.support for key, node in tree_splits(tree, index).items()}


@pytest.mark.parametrize("n,length,seed", [(6, 40, 1), (9, 70, 2), (14, 120, 3)])
def test_support_equals_skbio_reference(n, length, seed):
    rows, ids = simulated(n, length, seed)
    replicates = 30
    tree = bootstrap(_records(rows, ids), replicates=replicates,
                     seed=seed, support="count")
    ref, counts = reference_counts(rows, ids, replicates, seed)
    got = support_by_split(tree, ids)
    assert set(got) == set(ref)  # same topology as scikit-bio's NJ of the full alignment
    assert [got[k] for k in ref] == counts.tolist()


def test_percent_newick_labels_and_determinism():
    rows, ids = simulated(8, 60, 7)
    a = bootstrap(_records(rows, ids), replicates=20, seed=11)
    b = bootstrap(_records(rows, ids), replicates=20, seed=11)
    text = _newick(a)
    assert text == _newick(b)
    back = TreeNode.read(io.StringIO(text))
    back.assign_supports()
    supports = sorted(x.support for x in back.non_tips() if x.support is not None)
    assert supports == sorted(x.support for x in a.non_tips() if x.support is not None)
    assert all(0 <= s <= 100 for s in supports) and len(supports) == 8 - 3


def test_draws_are_the_documented_stream():
    cols = draw_columns(13, 4, seed=3)
    rng = np.random.default_rng(3)
    for row in cols:
        assert row.tolist() == rng.integers(0, 13, size=13).tolist()


def test_upgma_support_runs():
    rows, ids = simulated(7, 50, 4)
    tree = bootstrap(_records(rows, ids), replicates=10, seed=0, method="upgma")
    values = [x.support for x in tree.non_tips() if getattr(x, "support", None) is not None]
    assert values and all(0 <= v <= 100 for v in values)


@pytest.mark.parametrize("kwargs,message", [
    ({"replicates": 0}, "replicates"), ({"method": "ml"}, "method"),
    ({"support": "ratio"}, "support"),
])
def test_bad_options(kwargs, message):
    rows, ids = simulated(5, 20, 1)
    with pytest.raises(InputError, match=message):
        bootstrap(_records(rows, ids), **kwargs)


def test_too_few_sequences():
    with pytest.raises(InputError, match="at least 3"):
        bootstrap(["ACGT", "ACGA"])


def _records(rows, ids):
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    return [SeqRecord(Seq(r), id=i) for r, i in zip(rows, ids, strict=True)]


def _newick(tree) -> str:
    out = io.StringIO()
    tree.write(out, format="newick")
    return out.getvalue()


def test_cli_bootstrap_writes_labels(tmp_path):
    from bioplug.cli import main

    rows, ids = simulated(7, 50, 5)
    src = tmp_path / "aln.fasta"
    src.write_text("".join(f">{i}\n{r}\n" for i, r in zip(ids, rows, strict=True)))
    out = tmp_path / "t.nwk"
    assert main(["tree", str(src), "-o", str(out), "--bootstrap", "12", "--seed", "4"]) == 0
    tree = TreeNode.read(str(out))
    tree.assign_supports()
    expected = bootstrap(_records(rows, ids), replicates=12, seed=4)
    assert sorted(x.support for x in tree.non_tips() if x.support is not None) == sorted(
        x.support for x in expected.non_tips() if x.support is not None)
