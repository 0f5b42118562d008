"""Biopython's own PairwiseAligner tests, run against ``bioplug.PairwiseAligner``.

The tests are not copied into this repository: ``Tests/test_pairwise_aligner.py`` and its data
(``Tests/Align/``) come from the source distribution of the *installed* Biopython version,
fetched at test time by ``tests/biopython_sdist.py`` and cached under the user cache directory
(``platformdirs.user_cache_dir("bioplug")/biopython-VERSION/``, e.g.
``~/.cache/bioplug/biopython-1.88/``). When the sdist cannot be fetched (offline), the suite is
skipped with the reason. ``Bio.Align.PairwiseAligner`` is replaced by bioplug's subclass while
each unittest class runs, so every ``Align.PairwiseAligner(...)`` in those tests builds ours.
"""

from __future__ import annotations

import io
import unittest

import pytest
from Bio import Align
from biopython_sdist import load_module

import bioplug
from bioplug.pairwise.aligner import PairwiseAligner

_MODULE, HERE, _SKIP_REASON = load_module("Tests/test_pairwise_aligner.py", ("Tests/Align/",))
_CLASSES = (
    sorted(
        name
        for name, obj in vars(_MODULE).items()
        if isinstance(obj, type) and issubclass(obj, unittest.TestCase)
    )
    if _MODULE is not None
    else [pytest.param(None, marks=pytest.mark.skip(reason=_SKIP_REASON), id="unavailable")]
)


def _require_suite():
    if _MODULE is None:
        pytest.skip(_SKIP_REASON)


def test_front_door_is_ours():
    assert bioplug.PairwiseAligner is PairwiseAligner
    assert issubclass(PairwiseAligner, Align.PairwiseAligner)


@pytest.mark.parametrize("name", _CLASSES)
def test_biopython_suite(name, monkeypatch):
    _require_suite()
    monkeypatch.chdir(HERE)  # the tests open Align/*.fa relative to Biopython's Tests/
    monkeypatch.setattr(Align, "PairwiseAligner", PairwiseAligner)
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(getattr(_MODULE, name))
    stream = io.StringIO()
    result = unittest.TextTestRunner(stream=stream, verbosity=1).run(suite)
    assert result.testsRun > 0
    assert result.wasSuccessful(), stream.getvalue()[-20000:]


def test_suite_goes_through_the_device(monkeypatch):
    """The suite exercises the device path, not only Biopython's fallback."""
    _require_suite()
    used = []
    original = PairwiseAligner._engine

    def spy(self, scoring):
        used.append(scoring)
        return original(self, scoring)

    monkeypatch.setattr(PairwiseAligner, "_engine", spy)
    monkeypatch.chdir(HERE)
    monkeypatch.setattr(Align, "PairwiseAligner", PairwiseAligner)
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(_MODULE.TestPairwiseGlobal)
    result = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
    assert result.wasSuccessful()
    assert used
