"""Gzip-compressed inputs (``.fa.gz``): read as the plain file by every command, a damaged
one refused with a clear error (exit 2) and no output."""

from __future__ import annotations

import gzip

import pytest

from bioplug.cli import main
from bioplug.errors import InputError
from bioplug.io import guess_format, read_records

PROTEINS = (">sp|P1|A_HUMAN Kinase 1\nMKVLAAGIVALLLAAGHW\n>b\nMKVLGIVALLAAGHW\n"
            ">c c\nMKVAGIVALLAGHWK\n")


@pytest.fixture
def files(tmp_path):
    plain = tmp_path / "p.fa"
    plain.write_text(PROTEINS)
    packed = tmp_path / "p.fa.gz"
    packed.write_bytes(gzip.compress(PROTEINS.encode()))
    (tmp_path / "damaged.fa.gz").write_bytes(packed.read_bytes()[:30])
    return tmp_path


def test_format_from_the_name_inside_gz():
    assert guess_format("x.fa.gz") == "fasta"
    assert guess_format("x.aln.gz") == "clustal"
    assert guess_format("x.gz") == "fasta"
    assert guess_format("x.sto") == "stockholm"


def test_records_of_a_gzip_file_are_the_plain_file_s(files):
    plain, packed = read_records(files / "p.fa"), read_records(files / "p.fa.gz")
    assert [(r.id, r.description, str(r.seq)) for r in packed] == \
        [(r.id, r.description, str(r.seq)) for r in plain]


@pytest.mark.parametrize("command", [["msa"], ["msa", "--method", "progressive"], ["tree"],
                                     ["pairwise", "--all-vs-all"], ["align3"],
                                     ["search", "{q}"]])
def test_every_command_reads_gzip_as_plain(files, command):
    outputs = []
    for name in ("p.fa", "p.fa.gz"):
        argv = [a.replace("{q}", str(files / name)) for a in command]
        out = files / f"out_{name}.txt"
        assert main(["-q", *argv, str(files / name), "-o", str(out), "--device", "cpu"]) == 0
        outputs.append(out.read_text())
    assert outputs[0] == outputs[1] != ""


@pytest.mark.parametrize("command", [["msa"], ["tree"], ["search", "{q}"],
                                     ["search", "{p}", "{q}"]])
def test_a_damaged_gzip_file_is_refused(files, capsys, command):
    damaged = str(files / "damaged.fa.gz")
    argv = [a.replace("{q}", damaged).replace("{p}", str(files / "p.fa")) for a in command]
    if argv[0] != "search" or len(argv) == 2:
        argv.append(damaged)
    out = files / "out.txt"
    assert main(["-q", *argv, "-o", str(out), "--device", "cpu"]) == 2
    assert "damaged.fa.gz: not readable" in capsys.readouterr().err
    assert not out.exists()


def test_the_desktop_app_opens_gzip_files(files):
    pytest.importorskip("PySide6")
    from bioplug.gui.documents import load_file

    plain = load_file(files / "p.fa")
    assert load_file(files / "p.fa.gz").names == plain.names
    aln = files / "a.aln"
    assert main(["-q", "msa", str(files / "p.fa"), "-o", str(aln), "--format", "clustal",
                 "--device", "cpu"]) == 0
    (files / "a.aln.gz").write_bytes(gzip.compress(aln.read_bytes()))
    opened = load_file(files / "a.aln.gz")
    assert opened.aligned and opened.shape == load_file(aln).shape
    with pytest.raises(InputError, match="not readable"):
        load_file(files / "damaged.fa.gz")
