"""scikit-bio's own ``skbio/tree/tests/test_nj.py`` and ``test_upgma.py``, run against
``bioplug.skbio``.

The tests are not copied into this repository: the modules are imported from the installed
scikit-bio (its wheel ships its tests and their data, such as the 100-taxon ``mp100.phy``,
whose 70 distinct distances make ties decide the UPGMA tree) and their imported names ``nj``
and ``upgma`` are replaced by bioplug's (PoCL by default; ``BIOPLUG_TEST_DEVICE=gpu`` for a
GPU) while each test runs. Their oracles (expected Newick trees, ``_tree_from_linkmat``)
stay scikit-bio's.
"""

from __future__ import annotations

import functools
import importlib
import os
import unittest

import pytest

skbio = pytest.importorskip("skbio")

from bioplug import skbio as bskbio  # noqa: E402

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
#: test module -> the names it imports that bioplug replaces
SUITES = {
    "skbio.tree.tests.test_nj": ("nj",),
    "skbio.tree.tests.test_upgma": ("upgma",),
}


def _module(name: str):
    try:
        return importlib.import_module(name)
    except ImportError as exc:  # a scikit-bio build without its tests
        pytest.skip(f"scikit-bio's tests are not installed: {exc}")


def _cases() -> list[tuple[str, str, str]]:
    out = []
    loader = unittest.TestLoader()
    for modname in SUITES:
        try:
            module = importlib.import_module(modname)
        except ImportError:
            out.append((modname, "", ""))  # reported as a skip by the test itself
            continue
        for name in dir(module):
            cls = getattr(module, name)
            if isinstance(cls, type) and issubclass(cls, unittest.TestCase):
                out += [(modname, name, test) for test in loader.getTestCaseNames(cls)]
    return out


def test_suites_are_scikit_bio_074():
    assert skbio.__version__ == "0.7.4", "these swaps follow scikit-bio 0.7.4's tests"
    counts = {m: sum(1 for x in _cases() if x[0] == m) for m in SUITES}
    assert counts == {"skbio.tree.tests.test_nj": 11, "skbio.tree.tests.test_upgma": 4}


@pytest.mark.parametrize(("modname", "cls", "name"), _cases())
def test_scikit_bio_tree(modname: str, cls: str, name: str, monkeypatch):
    module = _module(modname)
    for attr in SUITES[modname]:
        assert hasattr(module, attr), f"{modname} no longer imports {attr}"
        monkeypatch.setattr(module, attr,
                            functools.partial(getattr(bskbio, attr), device=DEVICE))
    getattr(module, cls)(name).debug()  # debug(): failures raise here, with their traceback
