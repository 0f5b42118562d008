"""Inputs and outputs every command refuses before any work: an output that is one of its
inputs, standard input given twice, standard input with ``--outdir``.

The device named (``99:99``) does not exist: a command that started work would fail on it
(exit 1) instead of refusing (exit 2), and the input must be left as it was.
"""

from __future__ import annotations

import json

import pytest

from bioplug.cli import main

PROTEINS = ">a first\nMKVLAAGIVALLL\n>b\nMKVLGIVALL\n>c\nMKVAGIVALL\n"
MODEL = {"states": ["x", "y"], "symbols": ["A", "B"], "startprob": [0.5, 0.5],
         "transmat": [[0.9, 0.1], [0.2, 0.8]], "emissionprob": [[0.7, 0.3], [0.4, 0.6]]}


@pytest.fixture
def files(tmp_path):
    (tmp_path / "p.fa").write_text(PROTEINS)
    (tmp_path / "aln.fa").write_text(">a\nMKV-LA\n>b\nMKVQLA\n")
    (tmp_path / "new.fa").write_text(">n\nMKVLA\n")
    (tmp_path / "hmm.json").write_text(json.dumps(MODEL))
    (tmp_path / "obs.fa").write_text(">s\nABBA\n")
    return tmp_path


@pytest.mark.parametrize("argv, target", [
    (["msa", "p.fa", "-o", "p.fa"], "p.fa"),
    (["msa", "p.fa", "-o", "p.fa", "--method", "progressive"], "p.fa"),
    (["pairwise", "p.fa", "-o", "p.fa"], "p.fa"),
    (["search", "new.fa", "p.fa", "-o", "p.fa"], "p.fa"),
    (["tree", "p.fa", "-o", "p.fa"], "p.fa"),
    (["align3", "p.fa", "-o", "p.fa"], "p.fa"),
    (["profile", "aln.fa", "--add", "new.fa", "-o", "new.fa"], "new.fa"),
    (["viterbi", "hmm.json", "obs.fa", "-o", "obs.fa"], "obs.fa"),
])
def test_an_input_is_never_the_output(files, monkeypatch, capsys, argv, target):
    monkeypatch.chdir(files)
    before = (files / target).read_bytes()
    assert main(["-q", *argv, "--device", "99:99"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith(f"{target}: refusing to overwrite an input file"), err
    assert (files / target).read_bytes() == before


@pytest.mark.parametrize("argv, message", [
    (["pairwise", "-", "-", "-o", "out.fa"], "standard input (-) can be read once"),
    (["profile", "-", "-", "-o", "out.fa"], "standard input (-) can be read once"),
    (["profile", "-", "--add", "-", "-o", "out.fa"], "standard input (-) can be read once"),
    (["msa", "-", "--outdir", "outdir"], "has no name to write under --outdir"),
])
def test_standard_input_once_and_only_where_it_has_a_use(files, monkeypatch, capsys, argv,
                                                        message):
    import io

    monkeypatch.chdir(files)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(PROTEINS.encode())))
    assert main(["-q", *argv, "--device", "99:99"]) == 2
    assert message in capsys.readouterr().err
    assert not (files / "out.fa").exists() and not (files / "outdir").exists()
