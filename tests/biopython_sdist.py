"""Files of Biopython's own test suite, from the sdist of the installed version (cached).

Other projects' tests are never copied into this repository: the suites that run Biopython's
tests against bioplug (``test_pairwise_biopython_suite.py``, ``test_tree_biopython_suite.py``)
fetch the files they need at test time with ``pip download`` of
``biopython==<installed version>`` (the source distribution; the wheel has no tests) and keep
them under ``platformdirs.user_cache_dir("bioplug")/biopython-VERSION/``.
Files are extracted into a private temporary folder and renamed into place one by one, so
concurrent test processes never read a half-written file.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path, PurePosixPath

BIOPYTHON_VERSION = importlib.metadata.version("biopython")


def cache_root() -> Path:
    try:
        from platformdirs import user_cache_dir
    except ImportError:  # pragma: no cover - platformdirs comes with pyopencl
        return Path.home() / ".cache" / "bioplug"
    return Path(user_cache_dir("bioplug"))


def _download(tmp: Path) -> Path:
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
        "--disable-pip-version-check", "--quiet", "--timeout", "30", "--retries", "2",
        f"biopython=={BIOPYTHON_VERSION}", "-d", str(tmp / "download"),
    ]  # fmt: skip
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RuntimeError(f"`{' '.join(command[2:])}` failed: {exc}") from exc
    sdists = sorted((tmp / "download").glob("biopython-*.tar.gz"))
    if proc.returncode != 0 or not sdists:
        detail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no sdist saved"]
        raise RuntimeError(f"`{' '.join(command[2:])}` failed (exit {proc.returncode}): "
                           f"{detail[0]}")
    return sdists[0]


def fetch(files: tuple[str, ...], folders: tuple[str, ...] = ()) -> Path:
    """The cached folder holding Biopython's ``files`` and ``folders`` (paths such as
    ``Tests/test_TreeConstruction.py``, ``Tests/TreeConstruction/``), fetched when missing.

    Raises
    ------
    RuntimeError
        The sdist could not be fetched (offline) or lacks a wanted file.
    """
    final = cache_root() / f"biopython-{BIOPYTHON_VERSION}"
    if all((final / f).is_file() for f in files) and all((final / d).is_dir() for d in folders):
        return final
    final.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".biopython-{BIOPYTHON_VERSION}-", dir=final.parent))
    try:
        sdist = _download(tmp)
        staged = tmp / "tree"
        with tarfile.open(sdist, "r:gz") as tar:
            members = []
            for member in tar.getmembers():
                parts = PurePosixPath(member.name).parts
                if len(parts) < 2 or not member.isfile() or ".." in parts:
                    continue
                inner = "/".join(parts[1:])  # biopython-VERSION/Tests/... -> Tests/...
                if inner in files or any(inner.startswith(d) for d in folders):
                    member.name = inner
                    members.append(member)
            missing = set(files) - {m.name for m in members}
            if missing:
                raise RuntimeError(f"{sdist.name} has no {', '.join(sorted(missing))}")
            tar.extractall(staged, members=members, filter="data")
        for member in members:
            target = final / member.name
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staged / member.name, target)
        return final
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def load_module(path: str, folders: tuple[str, ...] = ()):
    """``(module, folder, None)`` for Biopython's test file ``path`` (its ``Tests/`` folder is
    ``folder``), or ``(None, None, reason)`` when it cannot be fetched."""
    try:
        here = fetch((path,), folders)
    except (RuntimeError, OSError, tarfile.TarError) as exc:
        return None, None, (f"Biopython {BIOPYTHON_VERSION}'s {path} is unavailable: could not "
                            f"fetch the biopython=={BIOPYTHON_VERSION} sdist into "
                            f"{cache_root() / f'biopython-{BIOPYTHON_VERSION}'} ({exc})")
    name = "_bioplug_biopython_" + PurePosixPath(path).stem
    spec = importlib.util.spec_from_file_location(name, here / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, here / "Tests", None
