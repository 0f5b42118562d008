"""scikit-bio's own ``skbio/alignment/tests/test_multi.py``, run against ``bioplug.skbio``.

The tests are not copied into this repository: the module is imported from the installed
scikit-bio (its wheel ships its tests) and its imported names ``multi_align``,
``multi_align_nucl``, ``multi_align_prot``, ``_merge_align`` and ``_score_dists`` are replaced
by bioplug's (PoCL by default; ``BIOPLUG_TEST_DEVICE=gpu`` for a GPU) while each test runs.
Its oracles (``pair_align``, ``align_score``, ``linkage``) stay scikit-bio's and scipy's.
"""

from __future__ import annotations

import functools
import importlib
import os
import unittest

import pytest

skbio = pytest.importorskip("skbio")

from bioplug import skbio as bskbio  # noqa: E402
from bioplug.progressive import skbio_method  # noqa: E402

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")


def _suite_module():
    try:
        return importlib.import_module("skbio.alignment.tests.test_multi")
    except ImportError as exc:  # a scikit-bio build without its tests
        pytest.skip(f"scikit-bio's tests are not installed: {exc}")


def _swaps() -> dict:
    """The names test_multi.py imports, mapped to bioplug's functions on the test device."""
    multi = functools.partial(bskbio.multi_align, device=DEVICE)

    def nucl(sequences, /, **kwargs):
        return bskbio.multi_align_nucl(sequences, device=DEVICE, **kwargs)

    def prot(sequences, /, **kwargs):
        return bskbio.multi_align_prot(sequences, device=DEVICE, **kwargs)

    return {
        "multi_align": multi,
        "multi_align_nucl": nucl,
        "multi_align_prot": prot,
        "_merge_align": functools.partial(skbio_method.merge_align, device=DEVICE),
        "_score_dists": functools.partial(skbio_method.score_dists, device=DEVICE),
    }


def _cases() -> list[tuple[str, str]]:
    module = _suite_module()
    loader = unittest.TestLoader()
    out = []
    for name in dir(module):
        cls = getattr(module, name)
        if isinstance(cls, type) and issubclass(cls, unittest.TestCase):
            out += [(name, test) for test in loader.getTestCaseNames(cls)]
    return out


def test_suite_is_scikit_bio_074():
    assert skbio.__version__ == "0.7.4", "these swaps follow scikit-bio 0.7.4's test_multi.py"
    assert len(_cases()) == 15


@pytest.mark.parametrize(("cls", "name"), _cases())
def test_scikit_bio_multi(cls: str, name: str, monkeypatch):
    module = _suite_module()
    for attr, func in _swaps().items():
        assert hasattr(module, attr), f"test_multi.py no longer imports {attr}"
        monkeypatch.setattr(module, attr, func)
    getattr(module, cls)(name).debug()  # debug(): failures raise here, with their traceback
