"""hmmlearn's own decoding tests, run with bioplug's Viterbi swapped in.

The tests are not copied here: they are the ``hmmlearn.tests`` package that hmmlearn installs,
run in a child pytest (``--pyargs hmmlearn.tests``) with the ``hmmlearn_swap`` plugin, which
replaces ``hmmlearn._hmmc.viterbi`` and ``CategoricalHMM.decode`` by bioplug's (see
``tests/hmmlearn_swap.py``). Only the tests that decode are selected (``-k``). When hmmlearn
or its tests are not installed, this is skipped with the reason.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SELECT = "decode or viterbi or predict"


def _skip_reason() -> str | None:
    if importlib.util.find_spec("hmmlearn") is None:
        return "hmmlearn is not installed"
    if importlib.util.find_spec("hmmlearn.tests") is None:
        return "hmmlearn's tests (hmmlearn.tests) are not installed with it"
    return None


@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
def test_hmmlearn_decoding_suite_with_bioplug():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(HERE), str(HERE.parent), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("BIOPLUG_TEST_DEVICE", "cpu")
    env["HMMLEARN_SEED"] = "12345"  # hmmlearn's conftest seeds numpy from it
    command = [sys.executable, "-m", "pytest", "--pyargs", "hmmlearn.tests", "-k", SELECT,
               "-p", "hmmlearn_swap", "-p", "no:cacheprovider", "-q", "-W", "ignore"]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=HERE,
                          timeout=600)
    tail = (proc.stdout + proc.stderr)[-4000:]
    assert proc.returncode == 0, tail
    swapped = re.search(r"bioplug-swap: hmmc=(\d+) decode=(\d+)", proc.stdout)
    assert swapped, tail
    assert int(swapped.group(1)) > 0 and int(swapped.group(2)) > 0, tail
    assert re.search(r"\d+ passed", proc.stdout), tail
