"""Unwritable cache folders: pyopencl's import and PoCL's start-up fail from inside without
:mod:`bioplug.runtime.cache_dirs`; with it a private folder takes their place, said once."""

import logging
import os
import subprocess
import sys

import pytest

from bioplug.runtime import cache_dirs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the XDG folder rules are checked on Linux only")


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """The module as if not yet run, with its private folder under tmp_path."""
    monkeypatch.setattr(cache_dirs, "_checked", False)
    monkeypatch.setattr(cache_dirs, "_note", None)
    monkeypatch.setattr(cache_dirs, "_reported", False)
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.delenv("POCL_CACHE_DIR", raising=False)
    return tmp_path


def test_creatable_names_what_is_in_the_way(tmp_path):
    assert cache_dirs._creatable(str(tmp_path)) is None
    assert cache_dirs._creatable(str(tmp_path / "not" / "yet")) is None   # would be made
    (tmp_path / "file").write_text("x")
    why = cache_dirs._creatable(str(tmp_path / "file" / "cache"))
    assert why == f"{tmp_path / 'file'} is not a folder"
    assert not (tmp_path / "not").exists()   # the check makes nothing


def test_writable_folders_are_left_alone(fresh, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(fresh / "cache"))
    assert cache_dirs.ensure_writable() is None
    assert os.environ["XDG_CACHE_HOME"] == str(fresh / "cache")
    assert not (fresh / "tmp" / f"bioplug-cache-{os.getuid()}").exists()


def test_an_unusable_cache_folder_is_replaced_and_reported_once(fresh, monkeypatch, caplog):
    (fresh / "file").write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(fresh / "file" / "cache"))
    monkeypatch.setenv("POCL_CACHE_DIR", str(fresh / "file" / "pocl"))
    note = cache_dirs.ensure_writable()
    private = fresh / "tmp" / f"bioplug-cache-{os.getuid()}"
    assert os.environ["XDG_CACHE_HOME"] == str(private)
    assert os.environ["POCL_CACHE_DIR"] == str(private / "pocl")
    assert private.is_dir() and (private.stat().st_mode & 0o777) == 0o700
    assert str(fresh / "file" / "cache") in note and "POCL_CACHE_DIR" in note
    assert f"{fresh / 'file'} is not a folder" in note
    assert cache_dirs.ensure_writable() == note   # once
    with caplog.at_level(logging.WARNING, logger="bioplug.runtime.cache_dirs"):
        cache_dirs.report()
        cache_dirs.report()
    assert caplog.text.count("cannot be used") == 1


def test_another_users_private_folder_is_not_used(fresh, monkeypatch):
    (fresh / "file").write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(fresh / "file" / "cache"))
    uid = os.getuid() + 1   # the folder the test makes is not this "user's"
    (fresh / "tmp" / f"bioplug-cache-{uid}").mkdir()
    monkeypatch.setattr(os, "getuid", lambda: uid)
    assert cache_dirs.ensure_writable() is None
    assert os.environ["XDG_CACHE_HOME"] == str(fresh / "file" / "cache")


def test_pyopencl_and_pocl_start_under_an_unusable_cache_folder(tmp_path):
    # without the check: NotADirectoryError from pyopencl.invoker's import, and PoCL, unable to
    # make its folder, leaves no platform ("install PoCL")
    (tmp_path / "file").write_text("x")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "file" / "cache"),
           "TMPDIR": str(tmp_path)}
    env.pop("POCL_CACHE_DIR", None)
    code = ("import logging; logging.basicConfig(); import bioplug.runtime.runtime; "
            "from bioplug.runtime import list_devices; print(len(list_devices()))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) >= 1
    assert out.stderr.count("cannot be used") == 1
    assert (tmp_path / f"bioplug-cache-{os.getuid()}").is_dir()
