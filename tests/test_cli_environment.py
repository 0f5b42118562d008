"""The executable in unusual but legitimate environments: closed or full standard streams,
an ASCII locale (found by an audit of such environments; each failed on the old code)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bioplug.progress import TerminalBar

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "BB11001.fasta"
BIOPLUG = f"{shlex.quote(sys.executable)} -m bioplug --no-server"


def shell(command: str, **env) -> subprocess.CompletedProcess:
    """``command`` through sh (for redirections such as ``>&-``), from a scratch folder."""
    return subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("words", ["--version", "msa --help"])
def test_help_and_version_that_cannot_be_written_fail(words):
    # argparse drops the write error and exits 0; cat and cp exit 1
    for redirect in (">/dev/full", ">&-"):
        run = shell(f"{BIOPLUG} {words} {redirect}")
        assert run.returncode == 1, run.stderr
        assert "bioplug: cannot write standard output:" in run.stderr


def test_a_closed_standard_error_leaves_the_output_and_the_exit_code_alone(tmp_path):
    # None for sys.stderr: the progress bar's isatty() failed and the command exited 1
    out = tmp_path / "out.fa"
    run = shell(f"{BIOPLUG} msa {shlex.quote(str(EXAMPLE))} -o {shlex.quote(str(out))} "
                "--device cpu 2>&-")
    assert run.returncode == 0 and run.stdout == ""
    assert out.read_text().count(">") == 4


def test_closed_standard_output_and_input_fail_where_they_are_used(tmp_path):
    out = tmp_path / "out.fa"
    written = shell(f"{BIOPLUG} msa {shlex.quote(str(EXAMPLE))} -o {shlex.quote(str(out))} "
                    "--device cpu >&-")   # the output is a file: nothing is lost
    assert written.returncode == 0, written.stderr
    to_closed = shell(f"{BIOPLUG} msa {shlex.quote(str(EXAMPLE))} -o - --device cpu >&-")
    assert to_closed.returncode == 1 and "standard output is closed" in to_closed.stderr
    assert "Traceback" not in to_closed.stderr
    closed_in = shell(f"{BIOPLUG} msa - -o {shlex.quote(str(tmp_path / 'in.fa'))} "
                      "--device cpu <&-")
    assert closed_in.returncode != 0 and "standard input is closed" in closed_in.stderr
    assert not (tmp_path / "in.fa").exists()


def test_an_ascii_locale_reads_the_kernel_sources(tmp_path):
    # the kernels' comments hold UTF-8 (section signs); LC_ALL=C without UTF-8 mode read
    # them as ASCII and every device command failed
    out = tmp_path / "out.fa"
    run = shell(f"{BIOPLUG} msa {shlex.quote(str(EXAMPLE))} -o {shlex.quote(str(out))} "
                "--device cpu", LC_ALL="C", LANG="C", PYTHONUTF8="0", PYTHONIOENCODING="")
    assert run.returncode == 0, run.stderr
    assert out.read_text().count(">") == 4


def test_an_ascii_locale_writes_titles_that_are_not_ascii(tmp_path):
    # every output is UTF-8 (atomic_output), as search's alone was: a file and standard output
    family = tmp_path / "in.fa"
    family.write_text(EXAMPLE.read_text().replace(">", ">é ", 1), encoding="utf-8")
    out = tmp_path / "out.fa"
    ascii_env = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    to_file = shell(f"{BIOPLUG} msa {shlex.quote(str(family))} -o {shlex.quote(str(out))} "
                    "--device cpu", **ascii_env)
    assert to_file.returncode == 0, to_file.stderr
    assert out.read_text(encoding="utf-8").startswith(">é ")
    to_stdout = subprocess.run(
        ["sh", "-c", f"{BIOPLUG} msa {shlex.quote(str(family))} -o - --device cpu"],
        capture_output=True, timeout=300, env={**os.environ, **ascii_env})
    assert to_stdout.returncode == 0, to_stdout.stderr
    assert to_stdout.stdout.decode("utf-8") == out.read_text(encoding="utf-8")


def test_the_progress_bar_without_a_standard_error(monkeypatch):
    monkeypatch.setattr(sys, "stderr", None)
    bar = TerminalBar()
    assert not bar.enabled
    bar("stage", 1, 2)   # draws nothing, raises nothing
    assert not TerminalBar(enabled=True).enabled


def test_double_dash_ends_the_options(tmp_path, monkeypatch):
    # argparse's intermixed parsing dropped "--": "the following arguments are required: IN"
    from bioplug.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "-x.fa").write_text(EXAMPLE.read_text())
    assert main(["msa", "-o", "out.fa", "--device", "cpu", "--", "-x.fa"]) == 0
    assert (tmp_path / "out.fa").read_text().count(">") == 4
