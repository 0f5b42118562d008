"""``bioplug viterbi`` command: model file, FASTA records, output table, errors."""

from __future__ import annotations

import io
import json
import os
import sys

import numpy as np
import pytest
from hmm_reference import viterbi_reference

from bioplug.cli import main
from bioplug.hmm.model import HMMModel, read_model

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")

CASINO = {
    "states": ["F", "L"],
    "symbols": "123456",
    "startprob": [0.5, 0.5],
    "transmat": [[0.95, 0.05], [0.10, 0.90]],
    "emissionprob": [[1 / 6] * 6, [0.1, 0.1, 0.1, 0.1, 0.1, 0.5]],
}


@pytest.fixture
def model_file(tmp_path):
    path = tmp_path / "casino.json"
    path.write_text(json.dumps(CASINO))
    return path


def _run(args):
    return main(["-q", "viterbi", *map(str, args), "--device", DEVICE])


def _table(text):
    lines = text.splitlines()
    assert lines[0] == "#id\tlog_prob\tpath"
    return [line.split("\t") for line in lines[1:]]


def test_decodes_each_record(tmp_path, model_file):
    rolls = {"r1": "3151362666664666666213", "r2": "1", "r3": "66666666661111111111"}
    seqs = tmp_path / "rolls.fa"
    seqs.write_text("".join(f">{k} some description\n{v}\n" for k, v in rolls.items()))
    out = tmp_path / "out.tsv"
    assert _run([model_file, seqs, "-o", out]) == 0
    rows = _table(out.read_text())
    model = read_model(model_file)
    logs = model.log_parameters()
    for (name, logp, path), (key, text) in zip(rows, rolls.items(), strict=True):
        ref_logp, ref_path = viterbi_reference(*logs, model.encode(text, key))
        assert name == key
        assert float(logp) == ref_logp  # repr: every digit of the float
        assert path == "".join("FL"[s] for s in ref_path)


def test_stdin_stdout_and_chain(model_file, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(">a\n6666\n>b\n1234\n"))
    assert _run([model_file, "-", "-o", "-", "--method", "chain"]) == 0
    rows = _table(capsys.readouterr().out)
    assert [r[0] for r in rows] == ["a", "b"] and rows[0][2] == "LLLL"


def test_model_from_stdin(tmp_path, monkeypatch, capsys):
    """MODEL.json as ``-`` was "-: cannot read the model file: No such file or directory"."""
    seqs = tmp_path / "rolls.fa"
    seqs.write_text(">a\n6666\n>b\n1234\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(CASINO)))
    assert _run(["-", seqs, "-o", "-"]) == 0
    rows = _table(capsys.readouterr().out)
    assert [r[0] for r in rows] == ["a", "b"] and rows[0][2] == "LLLL"
    monkeypatch.setattr(sys, "stdin", io.StringIO("{}"))
    assert _run(["-", seqs, "-o", "-"]) == 2
    assert "standard input: missing field(s) states" in capsys.readouterr().err
    assert _run(["-", "-", "-o", "-"]) == 2
    assert "standard input (-) can be read once" in capsys.readouterr().err


def test_multi_letter_state_names_and_ignore_case(tmp_path):
    data = dict(CASINO, states=["fair", "loaded"], symbols="abcdef", ignore_case=True)
    model = tmp_path / "m.json"
    model.write_text(json.dumps(data))
    seqs = tmp_path / "s.fa"
    seqs.write_text(">x\nFFFFa\n")
    out = tmp_path / "o.tsv"
    assert _run([model, seqs, "-o", out]) == 0
    assert _table(out.read_text())[0][2] == "loaded,loaded,loaded,loaded,loaded"


def test_unknown_symbol_names_record_position_character(tmp_path, model_file, capsys):
    seqs = tmp_path / "s.fa"
    seqs.write_text(">ok\n123\n>bad\n12x4\n")
    out = tmp_path / "o.tsv"
    assert _run([model_file, seqs, "-o", out]) == 2
    err = capsys.readouterr().err
    assert "record 2 (bad)" in err and "position 3" in err and "'x'" in err
    assert not out.exists()  # atomic output: nothing written on error


@pytest.mark.parametrize("change,message", [
    ({"transmat": [[0.9, 0.05], [0.1, 0.9]]}, "transmat row 1 (state 'F') sums to 0.95"),
    ({"emissionprob": [[0.5] * 6, [0.1] * 6]}, "emissionprob row 1 (state 'F') sums to 3"),
    ({"startprob": [0.5, 0.6]}, "startprob sums to 1.1"),
    ({"startprob": [1.5, -0.5]}, "startprob[0] = 1.5 is not a probability"),
    ({"symbols": ["1", "2", "3", "4", "5", "66"]}, "single ASCII characters"),
    ({"states": ["F", "F"]}, "state 'F' is listed twice"),
    ({"transmat": [[1.0]]}, "transmat has shape"),
])
def test_bad_model_files(tmp_path, capsys, change, message):
    model = tmp_path / "m.json"
    model.write_text(json.dumps(dict(CASINO, **change)))
    seqs = tmp_path / "s.fa"
    seqs.write_text(">a\n123\n")
    assert _run([model, seqs, "-o", tmp_path / "o.tsv"]) == 2
    assert message in capsys.readouterr().err


def test_missing_fields_and_bad_json(tmp_path, capsys):
    model = tmp_path / "m.json"
    model.write_text(json.dumps({"states": ["a"]}))
    seqs = tmp_path / "s.fa"
    seqs.write_text(">a\n1\n")
    assert _run([model, seqs, "-o", "-"]) == 2
    assert "missing field(s) symbols" in capsys.readouterr().err
    model.write_text("{not json")
    assert _run([model, seqs, "-o", "-"]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_model_zero_probabilities_give_minus_inf(tmp_path):
    data = dict(CASINO, emissionprob=[[0.2] * 5 + [0.0], [0.1, 0.1, 0.1, 0.1, 0.1, 0.5]],
                transmat=[[1.0, 0.0], [0.0, 1.0]], startprob=[1.0, 0.0])
    model = tmp_path / "m.json"
    model.write_text(json.dumps(data))
    seqs = tmp_path / "s.fa"
    seqs.write_text(">a\n1161\n")
    out = tmp_path / "o.tsv"
    assert _run([model, seqs, "-o", out]) == 0
    assert _table(out.read_text())[0][1] == "-inf"
    parsed = HMMModel.from_dict(data)
    assert np.isneginf(parsed.log_parameters()[1][0, 1])


def test_duplicate_ids_refused_naming_the_file(tmp_path, model_file, capsys):
    """Rows are named by id: two records of one id are refused, as the other commands do."""
    seqs = tmp_path / "s.fa"
    seqs.write_text(">r1\n123\n>r2\n66\n>r1\n456\n")
    out = tmp_path / "o.tsv"
    assert _run([model_file, seqs, "-o", out]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and f"{seqs}: duplicate sequence ids: r1" in err[0]
    assert not out.exists()
