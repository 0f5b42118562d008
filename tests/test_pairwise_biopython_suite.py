"""Biopython's own PairwiseAligner tests, run against ``bioplug.PairwiseAligner``.

The tests are not copied into this repository: ``Tests/test_pairwise_aligner.py`` and its data
(``Tests/Align/``) come from the source distribution of the *installed* Biopython version, fetched
at test time with ``pip download`` and cached under the user cache directory
(``platformdirs.user_cache_dir("bioplug")/biopython-VERSION/``, e.g.
``~/.cache/bioplug/biopython-1.88/``). When the sdist cannot be fetched (offline), the suite is
skipped with the reason. ``Bio.Align.PairwiseAligner`` is replaced by bioplug's subclass while
each unittest class runs, so every ``Align.PairwiseAligner(...)`` in those tests builds ours.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
from pathlib import Path, PurePosixPath

import pytest
from Bio import Align

import bioplug
from bioplug.pairwise.aligner import PairwiseAligner

BIOPYTHON_VERSION = importlib.metadata.version("biopython")
_WANTED_FILE = "Tests/test_pairwise_aligner.py"
_WANTED_DIR = "Tests/Align/"


def _cache_root() -> Path:
    try:
        from platformdirs import user_cache_dir
    except ImportError:  # pragma: no cover - platformdirs comes with pyopencl
        return Path.home() / ".cache" / "bioplug"
    return Path(user_cache_dir("bioplug"))


def _wanted_members(tar: tarfile.TarFile) -> list[tarfile.TarInfo]:
    """The regular files ``Tests/test_pairwise_aligner.py`` and ``Tests/Align/*``, renamed to drop
    the sdist's top folder; nothing else is extracted."""
    members = []
    for member in tar.getmembers():
        parts = PurePosixPath(member.name).parts
        if len(parts) < 2 or not member.isfile() or ".." in parts:
            continue
        inner = "/".join(parts[1:])  # biopython-VERSION/Tests/... -> Tests/...
        if inner == _WANTED_FILE or inner.startswith(_WANTED_DIR):
            member.name = inner
            members.append(member)
    return members


def _fetch_tests() -> Path:
    """The folder holding Biopython's ``Tests/`` files (cached); raises RuntimeError if unfetchable.

    Each process downloads and extracts into its own temporary folder next to the cache entry and
    renames it into place, so concurrent test processes never see a half-written cache.
    """
    root = _cache_root()
    final = root / f"biopython-{BIOPYTHON_VERSION}"
    if (final / _WANTED_FILE).is_file():
        return final
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".biopython-{BIOPYTHON_VERSION}-", dir=root))
    try:
        download = tmp / "download"
        command = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
            "--disable-pip-version-check", "--quiet", "--timeout", "30", "--retries", "2",
            f"biopython=={BIOPYTHON_VERSION}", "-d", str(download),
        ]  # fmt: skip
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=900)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise RuntimeError(f"`{' '.join(command[2:])}` failed: {exc}") from exc
        sdists = sorted(download.glob("biopython-*.tar.gz")) if download.is_dir() else []
        if proc.returncode != 0 or not sdists:
            detail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no sdist saved"]
            raise RuntimeError(
                f"`{' '.join(command[2:])}` failed (exit {proc.returncode}): {detail[0]}"
            )
        staged = tmp / "tree"
        with tarfile.open(sdists[0], "r:gz") as tar:
            members = _wanted_members(tar)
            if not any(m.name == _WANTED_FILE for m in members):
                raise RuntimeError(f"{sdists[0].name} has no {_WANTED_FILE}")
            if hasattr(tarfile, "data_filter"):
                tar.extractall(staged, members=members, filter="data")
            else:  # pragma: no cover - Python without extraction filters
                tar.extractall(staged, members=members)
        try:
            os.rename(staged, final)
        except OSError:
            if not (final / _WANTED_FILE).is_file():  # not another process winning the race
                raise
        return final
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _load_module():
    try:
        here = _fetch_tests()
    except (RuntimeError, OSError, tarfile.TarError) as exc:
        reason = (
            f"Biopython {BIOPYTHON_VERSION}'s Tests/test_pairwise_aligner.py is unavailable: "
            f"could not fetch the biopython=={BIOPYTHON_VERSION} sdist into "
            f"{_cache_root() / f'biopython-{BIOPYTHON_VERSION}'} ({exc})"
        )
        return None, None, reason
    spec = importlib.util.spec_from_file_location(
        "_bioplug_biopython_test_pairwise_aligner", here / _WANTED_FILE
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, here / "Tests", None


_MODULE, HERE, _SKIP_REASON = _load_module()
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
