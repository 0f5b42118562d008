"""Biopython's own ``Bio.Phylo.TreeConstruction`` tests, run against bioplug's constructor.

``Tests/test_TreeConstruction.py`` and its data (``Tests/TreeConstruction/``) come from the sdist
of the installed Biopython (see ``tests/biopython_sdist.py``; skipped with the reason when
offline). Its ``DistanceTreeConstructor`` is replaced by bioplug's (on PoCL by default;
``BIOPLUG_TEST_DEVICE=gpu`` for a GPU) while the constructor tests run, so every tree they
check was built on the device.
"""

from __future__ import annotations

import io
import os
import unittest

import numpy as np
import pytest
from biopython_sdist import load_module
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.tree.phylo import DistanceTreeConstructor

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
_MODULE, HERE, _SKIP_REASON = load_module("Tests/test_TreeConstruction.py",
                                          ("Tests/TreeConstruction/",))
#: the unittest classes that build distance trees (the others test Biopython's parsimony
#: searcher and distance calculator, which bioplug does not replace)
CLASSES = ["DistanceTreeConstructorTest"]


class _OnDevice(DistanceTreeConstructor):
    """bioplug's constructor with Biopython's constructor signature, on the test device."""

    def __init__(self, distance_calculator=None, method: str = "nj"):
        super().__init__(distance_calculator, method, device=DEVICE)


@pytest.mark.parametrize("name", CLASSES)
def test_biopython_tree_construction(name, monkeypatch):
    if _MODULE is None:
        pytest.skip(_SKIP_REASON)
    monkeypatch.chdir(HERE)  # the tests open TreeConstruction/* relative to Biopython's Tests/
    monkeypatch.setattr(_MODULE, "DistanceTreeConstructor", _OnDevice)
    used = []
    for verb in ("nj", "upgma"):
        original = getattr(DistanceTreeConstructor, verb)
        monkeypatch.setattr(_OnDevice, verb,
                            lambda self, dm, _f=original, _v=verb: used.append(_v) or _f(self, dm))
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(getattr(_MODULE, name))
    stream = io.StringIO()
    result = unittest.TextTestRunner(stream=stream, verbosity=2).run(suite)
    assert result.testsRun == 6
    assert result.wasSuccessful(), stream.getvalue()[-20000:]
    assert {"nj", "upgma"} <= set(used)  # the trees came from bioplug's verbs


def _newick(tree) -> str:
    from Bio import Phylo

    out = io.StringIO()
    Phylo.write(tree, out, "newick", format_branch_length="%.17g")
    return out.getvalue()


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 40), seed=st.integers(0, 2**31), method=st.sampled_from(["nj", "upgma"]))
def test_same_trees_as_biopython(n, seed, method):
    """Every Newick byte (child order, Inner names, branch lengths to 17 digits) as
    Biopython's own constructor, on random matrices (no ties)."""
    from Bio.Phylo.TreeConstruction import DistanceMatrix as BioDM
    from Bio.Phylo.TreeConstruction import DistanceTreeConstructor as BioConstructor

    rng = np.random.default_rng(seed)
    points = rng.random((n, 4))
    d = np.sqrt(((points[:, None] - points[None]) ** 2).sum(-1))
    dm = BioDM([f"t{k}" for k in range(n)], [d[a, : a + 1].tolist() for a in range(n)])
    if n < 2 and method == "upgma":
        return  # Biopython's upgma fails on one taxon
    ours = getattr(_OnDevice(), method)(dm)
    theirs = getattr(BioConstructor(), method)(dm)
    assert _newick(ours) == _newick(theirs)
    assert ours.rooted == theirs.rooted
