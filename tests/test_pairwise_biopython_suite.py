"""Biopython 1.88's own PairwiseAligner tests, run against ``bioplug.PairwiseAligner``.

The test module is vendored in ``tests/biopython/`` (Biopython License / BSD-3, see its
header). ``Bio.Align.PairwiseAligner`` is replaced by bioplug's subclass while each unittest
class runs, so every ``Align.PairwiseAligner(...)`` in those tests builds ours.
"""

from __future__ import annotations

import importlib.util
import io
import unittest
from pathlib import Path

import pytest
from Bio import Align

import bioplug
from bioplug.pairwise.aligner import PairwiseAligner

HERE = Path(__file__).resolve().parent / "biopython"


def _load_module():
    spec = importlib.util.spec_from_file_location(
        "_bioplug_vendored_test_pairwise_aligner", HERE / "test_pairwise_aligner.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_MODULE = _load_module()
_CLASSES = sorted(
    name
    for name, obj in vars(_MODULE).items()
    if isinstance(obj, type) and issubclass(obj, unittest.TestCase)
)


def test_front_door_is_ours():
    assert bioplug.PairwiseAligner is PairwiseAligner
    assert issubclass(PairwiseAligner, Align.PairwiseAligner)


@pytest.mark.parametrize("name", _CLASSES)
def test_biopython_suite(name, monkeypatch):
    monkeypatch.chdir(HERE)  # the tests open Align/*.fa relative to Biopython's Tests/
    monkeypatch.setattr(Align, "PairwiseAligner", PairwiseAligner)
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(getattr(_MODULE, name))
    stream = io.StringIO()
    result = unittest.TextTestRunner(stream=stream, verbosity=1).run(suite)
    assert result.testsRun > 0
    assert result.wasSuccessful(), stream.getvalue()[-20000:]


def test_suite_goes_through_the_device(monkeypatch):
    """The suite exercises the device path, not only Biopython's fallback."""
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
