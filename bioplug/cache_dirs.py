"""Cache folders that can be written, for pyopencl, pytools and PoCL, or a private one instead.

pyopencl's kernel-call cache (pytools) makes its folder in the user's cache folder when it is
imported, and PoCL keeps its compiled kernels there. Where that folder cannot be used (a
read-only home on a compute node or in a container, a file in its place, a full disk or quota,
no home at all), the first fails inside pyopencl (``NotADirectoryError``, ``PermissionError``,
sqlite's "database or disk is full", platformdirs' "could not determine the home directory")
and PoCL does not start or fails its builds, which reads as "no OpenCL platform: install
PoCL" or as a kernel that does not compile. :func:`ensure_writable` finds that out before
either starts and points ``XDG_CACHE_HOME`` (and ``POCL_CACHE_DIR`` where that is the one at
fault) to a private folder under the system's temporary folder, and :func:`report` says so
once.

Linux folder rules (``XDG_CACHE_HOME``, else ``~/.cache``), which pytools' platformdirs and
PoCL follow there; on other systems nothing is changed. Standard library only, and nothing is
created unless the fallback is needed: ``import bioplug`` runs the check.
"""

from __future__ import annotations

import logging
import os
import stat
import sys

log = logging.getLogger(__name__)

_note: str | None = None
_checked = False
_reported = False


#: Free space below which a cache folder counts as full: a first run's compiled kernels take
#: a few MB (PoCL), and a full disk fails inside sqlite (pytools) or a kernel build.
MIN_FREE_BYTES = 64 << 20


def _creatable(folder: str) -> str | None:
    """None when ``folder`` exists as a writable folder with room, or could be made; else
    why not."""
    if folder.startswith("~"):   # expanduser found no HOME and no passwd entry
        return "no home folder is known"
    if not os.path.isabs(folder):
        return f"{folder} is not an absolute path"
    path = folder
    while True:
        if os.path.lexists(path):
            if not os.path.isdir(path):
                return f"{path} is not a folder"
            if not os.access(path, os.W_OK | os.X_OK):
                return f"{path} cannot be written"
            return _room(path)
        parent = os.path.dirname(path)
        if parent == path:
            return f"{folder} has no existing parent"
        path = parent


def _room(path: str) -> str | None:
    """None when the file system of ``path`` has room for a cache (or cannot say); else why."""
    try:
        info = os.statvfs(path)
    except OSError:
        return None
    free = info.f_bavail * info.f_frsize
    return None if free >= MIN_FREE_BYTES else f"{path} has {free >> 20} MB free"


def _private_folder() -> str | None:
    """A folder for this user alone under the temporary folder, with room: the same one
    every run (``bioplug-cache-<uid>``), else a new one for this run (None if that fails)."""
    import tempfile

    base = tempfile.gettempdir()
    folder = os.path.join(base, f"bioplug-cache-{os.getuid()}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)
        # another user's folder (or a link, or a file) in a shared /tmp is not ours to
        # write into: that name taken, this run gets a folder of its own
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and _room(folder) is None:
            return folder
    except OSError:
        pass
    if _room(base) is not None:
        return None
    try:
        return tempfile.mkdtemp(prefix="bioplug-cache-")
    except OSError:
        return None


def ensure_writable() -> str | None:
    """Check the cache folders once; returns the note on what was changed, or None."""
    global _checked, _note
    if _checked:
        return _note
    _checked = True
    if not sys.platform.startswith("linux"):
        return None
    root = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(
        os.path.expanduser("~"), ".cache")
    pocl = os.environ.get("POCL_CACHE_DIR", "").strip()
    why_root = _creatable(root)
    why_pocl = _creatable(pocl) if pocl else None
    if why_root is None and why_pocl is None:
        return None
    private = _private_folder()
    if private is None:
        return None   # nothing better to offer: pyopencl's and PoCL's own errors follow
    changed = []
    if why_root is not None:
        os.environ["XDG_CACHE_HOME"] = private
        changed.append(f"the cache folder {root} ({why_root})")
    if why_pocl is not None:
        os.environ["POCL_CACHE_DIR"] = os.path.join(private, "pocl")
        changed.append(f"POCL_CACHE_DIR {pocl} ({why_pocl})")
    _note = (f"{' and '.join(changed)} cannot be used: compiled kernels are kept in {private} "
             "instead (set XDG_CACHE_HOME, or POCL_CACHE_DIR for PoCL, to a writable folder "
             "to choose another)")
    return _note


def report() -> None:
    """Log the note of :func:`ensure_writable` once, as a warning (called when a device is
    first listed, after a command has set up its logging)."""
    global _reported
    if _note is not None and not _reported:
        _reported = True
        log.warning("%s", _note)
