"""Outputs and inputs in awkward places (the environment audit): a write-protected output, a
write the system fails (a full disk, ``/dev/full``), an output name near the 255-byte limit,
and inputs that are pipes (a named pipe, a shell's ``<(zcat x.fa.gz)``).

Oracles: what ``cp`` and shell redirection do in the same place (refuse a write-protected
file, name the file a failed write was for, write any legal name, read a pipe), and the
same command's output for the same data read from a regular file.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from shell_pipes import shell_pipe

import bioplug.io as bio
from bioplug.cli import main

PROTEINS = ">a first\nMKVLAAGIVALLL\n>b\nMKVLGIVALL\n>c\nMKVAGIVALL\n>d\nMKVLAGIVALLA\n"
MODEL = {"states": ["x", "y"], "symbols": ["A", "B"], "startprob": [0.5, 0.5],
         "transmat": [[0.9, 0.1], [0.2, 0.8]], "emissionprob": [[0.7, 0.3], [0.4, 0.6]]}
NO_SPACE = os.strerror(errno.ENOSPC)
FULL = Path("/dev/full")


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.fa").write_text(PROTEINS)
    (tmp_path / "three.fa").write_text(">a\nMKVLAAGIVALLL\n>b\nMKVLGIVALL\n>c\nMKVAGIVALL\n")
    (tmp_path / "aln.fa").write_text(">a\nMKV-LA\n>b\nMKVQLA\n")
    (tmp_path / "new.fa").write_text(">n\nMKVLA\n")
    (tmp_path / "hmm.json").write_text(json.dumps(MODEL))
    (tmp_path / "obs.fa").write_text(">s\nABBA\n")
    return tmp_path


#: Each command's arguments before ``-o OUT`` (the files of :func:`files`).
COMMANDS = {
    "msa": ["msa", "p.fa", "--refinement", "1"],
    "pairwise": ["pairwise", "p.fa"],
    "tree": ["tree", "p.fa"],
    "profile": ["profile", "aln.fa", "--add", "new.fa"],
    "align3": ["align3", "three.fa"],
    "viterbi": ["viterbi", "hmm.json", "obs.fa"],
}


def _temporary_files(folder: Path) -> list[str]:
    """What :func:`bioplug.io.atomic_output` would leave behind: ``.NAME.XXXXXXXX``."""
    return [p.name for p in folder.iterdir() if p.name.startswith(".")]


# -- a write-protected output ----------------------------------------------------------------
@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="root may write a write-protected file (cp does too): see the "
                           "test below, which drops that right")
def test_a_write_protected_output_is_refused_before_the_work(files, monkeypatch, capsys):
    """``chmod 444 out.fa``: refused (exit 2) naming the file, before any device work, and
    left as it was; ``cp`` refuses it too ("Permission denied"). A link to it as well."""
    out = files / "out.fa"
    out.write_text("kept\n")
    out.chmod(0o444)
    (files / "link.fa").symlink_to(out)
    ran = []
    monkeypatch.setattr("bioplug.runtime.get_runtime", lambda *a, **k: ran.append(1))
    for name in ("out.fa", "link.fa"):
        assert main(["-q", "msa", "p.fa", "-o", name, "--device", "cpu"]) == 2
        err = capsys.readouterr().err
        assert f"{name}: cannot be written (Permission denied" in err, err
    assert not ran and out.read_text() == "kept\n"
    assert not _temporary_files(files)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="runs as root without the right to override file modes")
def test_a_write_protected_output_is_refused_for_root_without_override(files):
    """Root writes any file (CAP_DAC_OVERRIDE), so the refusal is checked in a process that
    has dropped that right, as an ordinary user is: ``cp`` refuses there too."""
    out = files / "out.fa"
    out.write_text("kept\n")
    out.chmod(0o444)
    as_user = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
    copied = subprocess.run([*as_user, "cp", "p.fa", "out.fa"], cwd=files,
                            capture_output=True, text=True, timeout=60)
    assert copied.returncode != 0 and "Permission denied" in copied.stderr   # the oracle
    done = subprocess.run([*as_user, sys.executable, "-m", "bioplug", "--no-server", "-q",
                           "msa", "p.fa", "-o", "out.fa", "--device", "cpu"], cwd=files,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("bioplug msa: error: out.fa: cannot be written "
                                   "(Permission denied: the file is write-protected)")
    assert out.read_text() == "kept\n" and not _temporary_files(files)


# -- a write the system fails ----------------------------------------------------------------
@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_full_device_is_one_line_naming_the_output(files, capsys, command):
    """``-o /dev/full``: one line naming the output and the system's reason, exit 1 (a
    failed run, as ``cp: error writing '/dev/full': No space left on device``), not an
    error of the input's format (pairwise said "cannot write these alignments as fasta")."""
    assert main(["-q", *COMMANDS[command], "-o", str(FULL), "--device", "cpu"]) == 1
    err = capsys.readouterr().err
    assert err == f"bioplug {command}: error: cannot write {FULL}: {NO_SPACE}\n", err


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["msa", "p.fa", "-o", "-", "--device", "cpu"],
                                  ["score", "aln.fa", "aln.fa"]])
def test_standard_output_on_a_full_device_is_named(files, monkeypatch, capsys, argv):
    """``-o - > /dev/full`` (and ``score``'s lines): "cannot write standard output"."""
    full = open(FULL, "w")   # noqa: SIM115 - closed below, its buffer dropped
    monkeypatch.setattr(sys, "stdout", full)
    try:
        assert main(["-q", *argv]) == 1
    finally:
        with contextlib.suppress(OSError):
            full.close()
    err = capsys.readouterr().err
    assert err == f"bioplug {argv[0]}: error: cannot write standard output: {NO_SPACE}\n"


@pytest.fixture
def full_disk(files, monkeypatch):
    """Outputs in ``files`` on a disk that is full: their temporary files are made (as on
    a full disk, where a new empty file still fits) but every write to them fails, as the
    kernel fails it (their descriptor is /dev/full's)."""
    if not FULL.exists():
        pytest.skip("needs /dev/full")
    made = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kwargs):   # noqa: A002 - tempfile's own keyword
        fd, name = made(*args, dir=dir, **kwargs)
        if dir is not None and Path(dir) == files:
            os.close(fd)
            fd = os.open(FULL, os.O_WRONLY)
        return fd, name

    monkeypatch.setattr(bio.tempfile, "mkstemp", mkstemp)
    return files


@pytest.mark.parametrize("command", ["msa", "pairwise", "tree"])
def test_a_full_disk_keeps_the_existing_output(full_disk, capsys, command):
    """The write fails on the atomic path: one line naming the output (as given, not the
    temporary file), exit 1, the existing output as it was, no temporary file left."""
    out = full_disk / "out.txt"
    out.write_text("old\n")
    assert main(["-q", *COMMANDS[command], "-o", "out.txt", "--device", "cpu"]) == 1
    err = capsys.readouterr().err
    assert err == f"bioplug {command}: error: cannot write out.txt: {NO_SPACE}\n", err
    assert out.read_text() == "old\n"
    assert not _temporary_files(full_disk)


def test_msa_full_disk_with_a_side_output_writes_neither(full_disk, capsys):
    """``--tree-out`` and the alignment are committed together: neither file is made."""
    assert main(["-q", "msa", "p.fa", "-o", "out.fa", "--tree-out", "t.nwk",
                 "--device", "cpu"]) == 1
    assert "cannot write " in capsys.readouterr().err
    assert not (full_disk / "out.fa").exists() and not (full_disk / "t.nwk").exists()
    assert not _temporary_files(full_disk)


def test_atomic_output_names_a_failed_write(tmp_path):
    """The library's writer: an OSError of the write (no file name in it) leaves as an
    OutputWriteError naming the output, an OSError still (the GUI catches those); one
    that names another file goes on as it is."""
    out = tmp_path / "out.fa"
    out.write_text("old\n")
    with pytest.raises(bio.OutputWriteError) as caught:
        with bio.atomic_output(out):
            raise OSError(errno.ENOSPC, NO_SPACE)
    assert str(caught.value) == f"cannot write {out}: {NO_SPACE}"
    assert isinstance(caught.value, OSError) and caught.value.errno == errno.ENOSPC
    with pytest.raises(FileNotFoundError):
        with bio.atomic_output(out):
            open(tmp_path / "missing")   # noqa: SIM115 - raises
    assert out.read_text() == "old\n" and not _temporary_files(tmp_path)


# -- long output names -------------------------------------------------------------------------
@pytest.mark.parametrize("length", [251, 255])
def test_an_output_name_up_to_255_bytes_is_written(files, capsys, length):
    """A name of 251-255 characters is legal (``cp`` writes it); its temporary file's name
    ``.NAME.XXXXXXXX`` was not, refused as "File name too long"."""
    name = "m" * (length - 3) + ".fa"
    assert main(["-q", "msa", "p.fa", "-o", name, "--device", "cpu"]) == 0, \
        capsys.readouterr().err
    assert (files / name).read_text().startswith(">a first")
    assert not _temporary_files(files)


def test_a_multibyte_name_of_255_bytes_is_written(tmp_path):
    """The limit is in bytes: a temporary name cut inside a letter is still a file name."""
    name = "x" + "é" * 125 + ".fas"   # 1 + 250 + 4 bytes in UTF-8; cut inside the 64th é
    assert len(os.fsencode(name)) == 255
    with bio.atomic_output(tmp_path / name) as handle:
        handle.write(">a\nMK\n")
    assert (tmp_path / name).read_text() == ">a\nMK\n"
    assert not _temporary_files(tmp_path)


# -- inputs that are pipes ---------------------------------------------------------------------
@contextlib.contextmanager
def _fifo(folder: Path, data: bytes, name: str = "in.fa"):
    """A named pipe in ``folder`` that a thread fills with ``data`` once a reader opens it;
    a pipe nobody opened is opened here, so that the thread ends."""
    path = folder / name
    os.mkfifo(path)

    def write() -> None:
        with contextlib.suppress(BrokenPipeError), open(path, "wb") as out:
            out.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        if writer.is_alive():
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            writer.join(10)
            os.close(fd)
        writer.join(10)


needs_fifos = pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/fd").exists(),
                                 reason="needs named pipes and /dev/fd")


@needs_fifos
@pytest.mark.parametrize("command", ["msa", "tree", "pairwise"])
def test_a_named_pipe_reads_as_the_file(files, capsys, command):
    """A named pipe's size is 0 whatever it carries: it was refused as "the file is empty".
    Read as a stream, it gives what the same data in a file gives (tree reads its input
    twice: the pipe is spooled)."""
    extra = {"msa": ["--refinement", "1"], "tree": [], "pairwise": []}[command]
    assert main(["-q", command, "p.fa", *extra, "-o", "from_file.txt", "--device",
                 "cpu"]) == 0
    with _fifo(files, PROTEINS.encode()) as fifo:
        rc = main(["-q", command, str(fifo), *extra, "-o", "from_pipe.txt", "--device", "cpu"])
    assert rc == 0, capsys.readouterr().err
    assert (files / "from_pipe.txt").read_bytes() == (files / "from_file.txt").read_bytes()


@needs_fifos
@pytest.mark.parametrize("command", ["msa", "tree"])
def test_process_substitution_of_gzip_data_reads_as_the_file(files, capsys, command):
    """``bioplug msa <(cat x.fa.gz)``: /dev/fd/N, gzip data, no extension to name a format
    (sniffed from the content, as for standard input)."""
    assert main(["-q", command, "p.fa", "-o", "from_file.txt", "--device", "cpu"]) == 0
    with shell_pipe(gzip.compress(PROTEINS.encode())) as path:
        rc = main(["-q", command, path, "-o", "from_pipe.txt", "--device", "cpu"])
    assert rc == 0, capsys.readouterr().err
    assert (files / "from_pipe.txt").read_bytes() == (files / "from_file.txt").read_bytes()


@needs_fifos
@pytest.mark.parametrize("command", ["msa", "tree", "pairwise"])
def test_an_empty_pipe_is_refused_by_its_content(files, capsys, command):
    """A pipe that carries nothing is refused (exit 2) naming it, as an empty file is."""
    with _fifo(files, b"") as fifo:
        assert main(["-q", command, str(fifo), "-o", "out.txt", "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert f"{fifo}: the input is empty" in err, err
    assert not (files / "out.txt").exists()


@needs_fifos
def test_read_records_of_a_pipe_are_those_of_the_file(files):
    from Bio import SeqIO

    expected = [(r.id, r.description, str(r.seq)) for r in SeqIO.parse("p.fa", "fasta")]
    with _fifo(files, PROTEINS.encode(), "family") as fifo:   # no extension: sniffed
        records = bio.read_records(fifo)
    assert [(r.id, r.description, str(r.seq)) for r in records] == expected
    assert bio.is_stream(fifo) and not bio.is_stream("p.fa") and not bio.is_stream("-")
