"""Output files of the commands (issue 13): permissions from the umask, ``-o -`` as stdout,
nothing left behind by a failed job; ``-`` as input reads standard input.

Oracles: the mode any tool gives a new file (``0666 & ~umask``, here checked against a file
made by ``open``), Biopython / scikit-bio reading what was written, and the file the same
command writes with ``-o FILE``.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from pathlib import Path

import pytest
from Bio import Align, SeqIO
from skbio import TreeNode

from bioplug.cli import main
from bioplug.io import atomic_output
from bioplug.progress import Cancelled

FAMILY = {
    "s1": "MKVLAAGIVGLLLAWQCSAGTEPKLVDEW",
    "s2": "MKVLSAGIVALLAWQSAGSEPRLIDEW",
    "s3": "MRVLAAGLVGLLSWQCTAGTEPKLVDDW",
    "s4": "MKILAAGIVGLFLAWSAGTEPKIVEEW",
}
FASTA = "".join(f">{k}\n{v}\n" for k, v in FAMILY.items())
COMMANDS = {
    "msa": ["msa", "--refinement", "2"],
    "pairwise": ["pairwise", "--matrix", "BLOSUM62"],
    "tree": ["tree", "--distance", "ktuple"],
}


@pytest.fixture
def umask():
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode_of(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def check_text(command: str, text: str) -> None:
    """What Biopython / scikit-bio read back from the command's output."""
    if command == "tree":
        tree = TreeNode.read(io.StringIO(text))
        assert sorted(t.name for t in tree.tips()) == sorted(FAMILY)
        return
    if command == "pairwise":  # global pairs of consecutive records, one after the other
        records = list(SeqIO.parse(io.StringIO(text), "fasta"))
        assert [r.id for r in records] == list(FAMILY)
        assert [str(r.seq).replace("-", "") for r in records] == list(FAMILY.values())
        assert len({len(r) for r in records[:2]}) == 1 == len({len(r) for r in records[2:]})
        return
    alignment = Align.read(io.StringIO(text), "fasta")
    assert {r.id: str(r.seq) for r in alignment.sequences} == FAMILY


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_new_file_mode_and_stdout(tmp_path, monkeypatch, capsys, umask, command):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.fa").write_text(FASTA)
    args = ["-q", *COMMANDS[command][:1], "in.fa", *COMMANDS[command][1:], "--device", "cpu"]
    with open(tmp_path / "by_open", "w"):
        pass
    assert main(args + ["-o", "out.txt"]) == 0
    assert mode_of(tmp_path / "out.txt") == 0o644 == mode_of(tmp_path / "by_open")
    written = (tmp_path / "out.txt").read_text()
    check_text(command, written)
    capsys.readouterr()
    assert main(args + ["-o", "-"]) == 0
    assert capsys.readouterr().out == written
    assert not (tmp_path / "-").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["by_open", "in.fa", "out.txt"]


def test_msa_reads_stdin_and_writes_stdout(tmp_path, monkeypatch, capsys):
    (tmp_path / "in.fa").write_text(FASTA)
    assert main(["-q", "msa", str(tmp_path / "in.fa"), "-o", str(tmp_path / "a.fa"),
                 "--refinement", "2", "--device", "cpu"]) == 0
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(FASTA))
    capsys.readouterr()
    assert main(["-q", "msa", "-", "-o", "-", "--refinement", "2", "--device", "cpu"]) == 0
    assert capsys.readouterr().out == (tmp_path / "a.fa").read_text()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["-q", "msa", "-", "-o", "-", "--device", "cpu"]) == 2
    assert "standard input is empty" in capsys.readouterr().err


def test_failed_write_leaves_no_file(tmp_path, capsys):
    (tmp_path / "in.fa").write_text(FASTA)
    out = tmp_path / "out.txt"
    # Biopython has no writer for this format: the job fails after aligning.
    assert main(["-q", "msa", str(tmp_path / "in.fa"), "-o", str(out), "--format", "emboss",
                 "--refinement", "0", "--device", "cpu"]) == 2
    assert "emboss" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.fa"]


def test_atomic_output_permissions(tmp_path, umask):
    os.umask(0o027)
    with atomic_output(tmp_path / "new.txt") as handle:
        handle.write("x")
    with open(tmp_path / "by_open", "w"):
        pass
    assert mode_of(tmp_path / "new.txt") == 0o640 == mode_of(tmp_path / "by_open")
    # a file being replaced keeps its own permissions, as `> file` in a shell does
    os.chmod(tmp_path / "new.txt", 0o604)
    with atomic_output(tmp_path / "new.txt") as handle:
        handle.write("y")
    assert mode_of(tmp_path / "new.txt") == 0o604
    assert (tmp_path / "new.txt").read_text() == "y"


@pytest.mark.parametrize("error", [Cancelled, KeyboardInterrupt, ValueError])
def test_atomic_output_cancelled_leaves_nothing(tmp_path, error):
    (tmp_path / "old.txt").write_text("old")
    for name in ("new.txt", "old.txt"):
        with pytest.raises(error), atomic_output(tmp_path / name) as handle:
            handle.write("partial")
            raise error("stop")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.txt"]
    assert (tmp_path / "old.txt").read_text() == "old"


def test_atomic_output_dash_is_stdout(tmp_path, monkeypatch, capsysbinary):
    monkeypatch.chdir(tmp_path)
    with atomic_output("-") as handle:
        handle.write("text\n")
    with atomic_output("-", mode="wb") as handle:
        handle.write(b"\x00bytes")
    assert capsysbinary.readouterr().out == b"text\n\x00bytes"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_atomic_output_writes_a_named_pipe_in_place(tmp_path):
    """A pipe (as ``/dev/null``, ``/dev/stdout`` or a shell's ``>(...)``) is written, not
    replaced by a plain file: its reader gets the text, and the pipe is still a pipe."""
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    with atomic_output(fifo) as handle:
        handle.write(">s1\nMKV\n")
    reader.join(10)
    assert got == [">s1\nMKV\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_atomic_output_writes_through_a_symbolic_link(tmp_path, umask):
    real = tmp_path / "real.fa"
    real.write_text("old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.fa"
    link.symlink_to(real)
    with atomic_output(link) as handle:
        handle.write("new")
    assert link.is_symlink() and real.read_text() == "new" and mode_of(real) == 0o640
    dangling = tmp_path / "dangling.fa"
    dangling.symlink_to(tmp_path / "made.fa")
    with atomic_output(dangling) as handle:
        handle.write("made")
    assert dangling.is_symlink() and (tmp_path / "made.fa").read_text() == "made"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.fa", "link.fa", "made.fa",
                                                          "real.fa"]


def test_atomic_output_refuses_a_directory_and_leaves_devices_alone(tmp_path):
    from bioplug.errors import InputError
    from bioplug.io import _rename_target

    with pytest.raises(InputError, match="is a directory"), atomic_output(tmp_path) as handle:
        handle.write("x")
    assert list(tmp_path.iterdir()) == []
    for device in ("/dev/null", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"):
        assert _rename_target(Path(device)) is None


def test_score_reads_stdin_and_gzip(tmp_path, monkeypatch, capsys):
    import gzip

    aligned = ">a\nMKV-LA\n>b\nMK-VLA\n"
    (tmp_path / "ref.fa").write_text(aligned)
    (tmp_path / "test.fa.gz").write_bytes(gzip.compress(aligned.encode()))
    assert main(["score", str(tmp_path / "test.fa.gz"), str(tmp_path / "ref.fa")]) == 0
    assert "TC 100.00" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO(aligned))
    assert main(["score", "-", str(tmp_path / "ref.fa")]) == 0
    assert "SP 100.00" in capsys.readouterr().out


def test_score_reads_the_reference_from_stdin_and_gzip(tmp_path, monkeypatch, capsys):
    """REF took neither ``-`` ("-: no such file") nor a gzipped BAliBASE ``.xml.gz`` (read as
    FASTA); both ``-`` is refused, as every command refuses it."""
    import gzip

    aligned = ">a\nMKV-LA\n>b\nMK-VLA\n"
    xml = ("<?xml version='1.0'?><EMBED><alignment>"
           "<sequence><seq-name>a</seq-name><seq-data>MKV-LA</seq-data></sequence>"
           "<sequence><seq-name>b</seq-name><seq-data>MK-VLA</seq-data></sequence>"
           "<column-score><colsco-name>coreblock</colsco-name>"
           "<colsco-data>1 1 0 0 0 1</colsco-data></column-score></alignment></EMBED>")
    (tmp_path / "test.fa").write_text(">a\nMKVL-A\n>b\nMK-VLA\n")
    (tmp_path / "ref.xml.gz").write_bytes(gzip.compress(xml.encode()))
    test = str(tmp_path / "test.fa")
    assert main(["score", test, str(tmp_path / "ref.xml.gz")]) == 0
    # the test moves a's L off b's L: out of the core blocks (M, K, A), in FASTA's columns
    assert capsys.readouterr().out == "SP 100.00\nTC 100.00\n"
    for text in (aligned, xml):
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        assert main(["score", test, "-"]) == 0
        assert capsys.readouterr().out == ("SP 75.00\nTC 75.00\n" if text == aligned
                                           else "SP 100.00\nTC 100.00\n")
    assert main(["score", "-", "-"]) == 2
    assert "standard input (-) can be read once" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["pairwise", "{d}", "-o", "-", "--device", "cpu"],
                                  ["align3", "{d}", "-o", "-", "--device", "cpu"],
                                  ["score", "{d}", "{ref}"]])
def test_a_folder_as_input_is_a_clear_error(tmp_path, capsys, argv):
    (tmp_path / "ref.fa").write_text(">a\nMKV-LA\n>b\nMK-VLA\n")
    folder = tmp_path / "folder"
    folder.mkdir()
    argv = [a.format(d=folder, ref=tmp_path / "ref.fa") for a in argv]
    assert main(["-q", *argv]) == 2
    err = capsys.readouterr().err
    assert f"{folder}: is a directory" in err and "failed" not in err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_gz_output_is_gzip_compressed(tmp_path, command):
    """``-o OUT.gz`` writes gzip (read by content, as inputs so named are): the same text
    as the plain output, and the same bytes on a second run (no time stamp)."""
    import gzip

    src = tmp_path / "in.fa"
    src.write_text(FASTA)
    plain, packed = tmp_path / "out.txt", tmp_path / "out.txt.gz"
    for out in (plain, packed):
        assert main(["-q", *COMMANDS[command], str(src), "-o", str(out), "--device", "cpu"]) == 0
    first = packed.read_bytes()
    assert first[:2] == b"\x1f\x8b"
    text = gzip.decompress(first).decode()
    assert text == plain.read_text()
    check_text(command, text)
    assert main(["-q", *COMMANDS[command], str(src), "-o", str(packed), "--device", "cpu"]) == 0
    assert packed.read_bytes() == first


def test_a_failed_write_leaves_no_folder_it_made(tmp_path, caplog):
    """Missing folders of an output are made for it, with a warning naming the topmost one
    (a mistyped folder is seen), and removed again when the job fails: a failed or cancelled
    job leaves nothing behind (folders that were there stay)."""
    from bioplug.io import atomic_output

    (tmp_path / "there").mkdir()
    for target in (tmp_path / "a" / "b" / "out.fa", tmp_path / "there" / "new" / "out.fa"):
        with pytest.raises(RuntimeError), atomic_output(target) as handle:
            handle.write(">x\nMKV\n")
            raise RuntimeError("cancelled")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["there"]
    assert not any((tmp_path / "there").iterdir())
    assert "made the folder" not in caplog.text
    with atomic_output(tmp_path / "a" / "b" / "out.fa") as handle:
        handle.write(">x\nMKV\n")
    assert (tmp_path / "a" / "b" / "out.fa").read_text() == ">x\nMKV\n"
    assert f"made the folder {tmp_path / 'a'} for it" in caplog.text
