"""Unwritable cache folders: pyopencl's import and PoCL's start-up fail from inside without
:mod:`bioplug.cache_dirs`; with it a private folder takes their place, said once."""

import logging
import os
import subprocess
import sys

import pytest

from bioplug import cache_dirs

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
    with caplog.at_level(logging.WARNING, logger="bioplug.cache_dirs"):
        cache_dirs.report()
        cache_dirs.report()
    assert caplog.text.count("cannot be used") == 1


@pytest.mark.parametrize("squatter", ["folder", "file"])
def test_a_private_name_taken_by_another_user_gets_a_folder_of_its_own(fresh, monkeypatch,
                                                                       squatter):
    (fresh / "file").write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(fresh / "file" / "cache"))
    uid = os.getuid() + 1   # what the test makes is not this "user's"
    taken = fresh / "tmp" / f"bioplug-cache-{uid}"
    taken.mkdir() if squatter == "folder" else taken.write_text("x")
    monkeypatch.setattr(os, "getuid", lambda: uid)
    note = cache_dirs.ensure_writable()
    private = os.environ["XDG_CACHE_HOME"]
    assert private != str(taken) and os.path.dirname(private) == str(fresh / "tmp")
    assert os.path.basename(private).startswith("bioplug-cache-") and private in note
    assert (os.stat(private).st_mode & 0o777) == 0o700


def test_a_full_cache_disk_is_replaced(fresh, monkeypatch):
    # a full disk or quota: sqlite (pytools) and PoCL's builds fail inside pyopencl
    monkeypatch.setenv("XDG_CACHE_HOME", str(fresh / "cache"))
    real = os.statvfs

    def statvfs(path):
        info = real(path)
        if str(path).startswith(str(fresh / "cache")) or str(path) == str(fresh):
            return os.statvfs_result((info.f_bsize, info.f_frsize, info.f_blocks, 0, 0,
                                      *tuple(info)[5:]))
        return info

    monkeypatch.setattr(os, "statvfs", statvfs)
    note = cache_dirs.ensure_writable()
    assert note is not None and "0 MB free" in note
    assert os.environ["XDG_CACHE_HOME"].startswith(str(fresh / "tmp"))


def test_no_home_folder(fresh, monkeypatch):
    # no HOME and no passwd entry: expanduser leaves "~", which platformdirs refuses
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)
    note = cache_dirs.ensure_writable()
    assert "no home folder is known" in note
    assert os.environ["XDG_CACHE_HOME"].startswith(str(fresh / "tmp"))


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
