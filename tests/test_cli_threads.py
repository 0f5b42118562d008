"""``--threads N``: the CPU device's thread count (PoCL's variables, set before its driver
starts), as MAFFT's --thread and BLAST's -num_threads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bioplug import cli
from bioplug.server.daemon import driver_environment

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "BB11001.fasta"


@pytest.fixture
def clean_env(monkeypatch):
    for name in cli.POCL_THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize("argv, value", [
    (["msa", "x.fa", "-o", "y.fa", "--threads", "3"], "3"),
    (["-v", "search", "q.fa", "db.fa", "-o", "h.tsv", "--threads=12"], "12"),
    (["tree", "x.fa", "--threads", "0"], None),          # argparse refuses it later
    (["tree", "x.fa", "--threads", "many"], None),
    (["score", "a.fa", "ref.xml", "--threads", "2"], None),  # no device: left alone
])
def test_thread_limit_reads_argv_before_the_driver_starts(clean_env, argv, value):
    cli._thread_limit(argv)
    assert [os.environ.get(n) for n in cli.POCL_THREAD_VARIABLES] == [value, value]


def test_a_server_started_with_other_threads_does_not_take_the_call(clean_env):
    # the client sends its environment; the server compares the driver variables
    before = driver_environment(os.environ)
    cli._thread_limit(["pairwise", "x.fa", "-o", "y", "--threads", "2"])
    assert driver_environment(os.environ) != before


@pytest.mark.parametrize("bad", ["0", "-1", "2.5", "all"])
def test_bad_thread_counts_are_refused_by_name(bad, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["msa", str(EXAMPLE), "-o", "out.fa", "--threads", bad])
    assert exc.value.code == 2
    assert "--threads" in capsys.readouterr().err


def test_threads_reach_the_cpu_device(tmp_path):
    from bioplug.runtime import select_device

    platform = select_device("cpu").platform
    if "Portable Computing Language" not in platform:
        pytest.skip(f"the CPU device is not PoCL's ({platform})")
    env = {k: v for k, v in os.environ.items() if k not in cli.POCL_THREAD_VARIABLES}
    outs = []
    for extra in ([], ["--threads", "1"]):
        out = tmp_path / f"out{len(extra)}.fa"
        run = subprocess.run([sys.executable, "-m", "bioplug", "-v", "--no-server", "msa",
                              str(EXAMPLE), "-o", str(out), "--device", "cpu", *extra],
                             env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        outs.append((run.stderr, out.read_text()))
    assert "[Portable Computing Language], 1 compute units" in outs[1][0]
    assert ", 1 compute units" not in outs[0][0] or os.cpu_count() == 1
    assert outs[0][1] == outs[1][1]   # the same alignment with one thread
