"""What a job has finished: one JSON line per complete task, appended by the client.

A task writes its file under a temporary name and renames it into place before it returns;
only then does the client append its line (flushed and synced), so every listed file is
whole. A line cut short by a crash does not parse and is ignored: that task runs again.
``job.json`` beside it holds the job's fingerprint (inputs and settings), so a rerun into the
same folder resumes only the same job.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path

from bioplug.errors import InputError

log = logging.getLogger(__name__)


class Manifest:
    """The complete tasks of the job in ``folder`` (``folder/name``, JSON lines).

    Parameters
    ----------
    folder : path-like
        The job's output folder (created if missing).
    name : str
        File name of the manifest.
    """

    def __init__(self, folder: str | os.PathLike, name: str = "manifest.jsonl"):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / name
        self.entries: dict[str, dict] = {}
        if self.path.exists():
            with open(self.path, encoding="utf-8") as handle:
                for line in handle:
                    with contextlib.suppress(ValueError):  # a line cut short by a crash
                        entry = json.loads(line)
                        self.entries[entry["key"]] = entry

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def done(self, key: str, fingerprint: str | None = None) -> bool:
        """True when ``key`` is complete (with this fingerprint, when one is given)."""
        entry = self.entries.get(key)
        return entry is not None and (fingerprint is None or entry.get("fingerprint")
                                      == fingerprint)

    def add(self, key: str, **fields) -> None:
        """Record ``key`` as complete; call only after its file was renamed into place."""
        entry = {"key": key, **fields}
        line = json.dumps(entry, sort_keys=True) + "\n"
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
        self.entries[key] = entry


def check_job(folder: str | os.PathLike, job: dict) -> dict:
    """The job description stored in ``folder/job.json``, written there on the first run.

    ``job["fingerprint"]`` must match a stored one; other stored fields (e.g. the tile size
    chosen on the first run) win over the new ones, so a rerun cuts the same tiles.

    Raises
    ------
    InputError
        ``folder`` holds results of another job (other inputs or settings).
    """
    folder = Path(folder)
    path = folder / "job.json"
    if path.exists():
        stored = json.loads(path.read_text(encoding="utf-8"))
        if stored.get("fingerprint") != job["fingerprint"]:
            raise InputError(f"{folder}: holds the results of another job (other sequences "
                             "or settings); remove it or choose another output folder")
        return {**job, **stored}
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (json.dumps(job, indent=1, sort_keys=True) + "\n").encode())
    return job


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it into place, with
    the mode a new file gets (the umask's; an existing file's is kept)."""
    from bioplug.interrupts import cleaning_up
    from bioplug.io import new_file_mode

    path = Path(path)
    with cleaning_up():
        _write_through(path, data, new_file_mode)


def _write_through(path: Path, data: bytes, new_file_mode) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, new_file_mode(path))   # mkstemp makes 0600: the umask's mode instead
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def digest(*parts) -> str:
    """A hex SHA-256 of byte strings and reprs (job and family fingerprints)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()
