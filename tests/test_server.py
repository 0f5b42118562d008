"""``bioplug server``: calls through a resident server give what they give in their own process.

Every server here lives in a temporary socket directory (``BIOPLUG_SERVER_DIR``), never the
user's. Oracle: the same command in its own process (``BIOPLUG_NO_SERVER=1``): same bytes,
messages, exit codes and file modes; plus the server's job count, to know a call went there.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from bioplug.server import protocol

ROOT = Path(__file__).resolve().parents[1]
FAMILY = ROOT / "examples" / "BB11001.fasta"
MSA = ["-q", "msa", str(FAMILY), "--device", "cpu"]


def environment(server_dir: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), protocol.DIR_ENV: str(server_dir)}
    env.pop("BIOPLUG_NO_SERVER", None)
    env.update(extra)
    return env


def bioplug(args, env, cwd=None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bioplug", *map(str, args)], env=env,
                          cwd=cwd or ROOT, capture_output=True, timeout=120, **kwargs)


def in_process(args, env, **kwargs) -> subprocess.CompletedProcess:
    return bioplug(args, {**env, "BIOPLUG_NO_SERVER": "1"}, **kwargs)


def status(env) -> tuple[int, dict]:
    proc = bioplug(["server", "status", "--json"], env)
    return proc.returncode, json.loads(proc.stdout)


def jobs(env) -> int:
    return status(env)[1]["jobs"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    directory = tmp_path_factory.mktemp("server") / "run"
    env = environment(directory)
    proc = bioplug(["server", "start", "--device", "cpu", "--idle-timeout", "300"], env)
    assert proc.returncode == 0, proc.stderr
    assert b"started" in proc.stderr
    yield SimpleNamespace(dir=directory, env=env)
    assert bioplug(["server", "stop"], env).returncode == 0


def test_msa_through_the_server_is_byte_identical(server, tmp_path):
    reference = tmp_path / "in_process.fa"
    assert in_process([*MSA, "-o", reference], server.env).returncode == 0
    before = jobs(server.env)
    outputs = []
    for i in range(10):  # the first and the tenth job, other commands between them
        out = tmp_path / f"server_{i}.fa"
        proc = bioplug([*MSA, "-o", out], server.env, preexec_fn=lambda: os.umask(0o027))
        assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
        outputs.append(out)
        if i == 4:
            assert bioplug(["-q", "tree", FAMILY, "-o", tmp_path / "t.nwk", "--device", "cpu"],
                           server.env).returncode == 0
            assert bioplug(["-q", "msa", FAMILY, "-o", tmp_path / "a.aln", "--format",
                            "clustal", "--seed", "3", "--device", "cpu"],
                           server.env).returncode == 0
    assert jobs(server.env) == before + 12
    for out in outputs:
        assert out.read_bytes() == reference.read_bytes()
        assert out.stat().st_mode & 0o777 == 0o640  # the call's umask, not the server's


def test_stdin_and_stdout(server):
    data = FAMILY.read_bytes()
    expected = in_process([*MSA, "-o", "-"], server.env, input=data)
    assert expected.returncode == 0 and expected.stdout.startswith(b">")
    before = jobs(server.env)
    proc = bioplug(["-q", "msa", "-", "-o", "-", "--device", "cpu"], server.env, input=data)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected.stdout
    assert jobs(server.env) == before + 1


def test_verbose_lines_as_in_process(server, tmp_path):
    """-v names the device in every job, though the server opened it before (warm-up)."""
    def info_lines(proc) -> list[str]:  # the timings of the last line differ run to run
        assert proc.returncode == 0, proc.stderr
        return [line.split(":")[1] if line.startswith("INFO: aligned") else line
                for line in proc.stderr.decode().splitlines()]

    expected = info_lines(in_process(["-v", *MSA, "-o", tmp_path / "a.fa"], server.env))
    assert any(line.startswith("INFO: using OpenCL device") for line in expected)
    before = jobs(server.env)
    for name in ("b.fa", "c.fa"):  # the second job finds the device logged by the first
        assert info_lines(bioplug(["-v", *MSA, "-o", tmp_path / name], server.env)) == expected
    assert jobs(server.env) == before + 2


def test_bad_input_and_failures_exit_as_in_process(server, tmp_path):
    bad = tmp_path / "bad.fa"
    bad.write_text(">a\nAC1DE\n>b\nACDE\n")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cases = [
        ([*MSA[:2], bad, "-o", tmp_path / "x.fa"], 2),          # a digit in a sequence
        ([*MSA, "-o", blocker / "x.fa"], 2),                    # an output under a plain file
        (["msa", FAMILY], 2),                                   # usage (argparse)
        ([*MSA[:3], "-o", tmp_path / "y.fa", "--device", "no-such-device"], 2),
    ]
    for args, code in cases:
        expected = in_process(args, server.env)
        before = jobs(server.env)
        proc = bioplug(args, server.env)
        assert (proc.returncode, expected.returncode) == (code, code), proc.stderr
        assert proc.stderr == expected.stderr
        assert jobs(server.env) == before + 1  # it went to the server, which stays up
    assert not (tmp_path / "x.fa").exists()


def test_no_server_switches(server, tmp_path):
    before = jobs(server.env)
    assert bioplug(["--no-server", *MSA, "-o", tmp_path / "a.fa"], server.env).returncode == 0
    assert in_process([*MSA, "-o", tmp_path / "b.fa"], server.env).returncode == 0
    # a driver variable the server did not start with: the call runs in its own process
    other = {**server.env, "POCL_BIOPLUG_TEST": "1"}
    assert bioplug([*MSA, "-o", tmp_path / "c.fa"], other).returncode == 0
    assert jobs(server.env) == before
    assert (tmp_path / "c.fa").read_bytes() == (tmp_path / "a.fa").read_bytes()


def medium_family(path: Path) -> Path:
    """8 x 150 residues: about a second on 2 PoCL cores, time to cancel it midway."""
    rng = random.Random(3)
    letters = "ACDEFGHIKLMNPQRSTVWY"
    base = [rng.choice(letters) for _ in range(150)]
    path.write_text("".join(
        f">s{i}\n{''.join(c if rng.random() > 0.2 else rng.choice(letters) for c in base)}\n"
        for i in range(8)))
    return path


def start_and_cancel(server, args, sig, cwd, **popen) -> subprocess.Popen:
    """Start a call, wait until its job runs in the server, send ``sig`` to the call."""
    proc = subprocess.Popen([sys.executable, "-m", "bioplug", *map(str, args)], env=server.env,
                            cwd=cwd, stderr=subprocess.PIPE, **popen)
    deadline = time.monotonic() + 30
    while status(server.env)[1]["running"] is None:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.02)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    return proc


def test_cancel_leaves_no_file_and_the_server_goes_on(server, tmp_path):
    family = medium_family(tmp_path / "medium.fa")
    proc = start_and_cancel(server, ["msa", family, "-o", "out.fa", "--device", "cpu"],
                            signal.SIGINT, tmp_path)
    assert proc.returncode == 130
    assert proc.stderr.read() == b"bioplug msa: interrupted\n"
    # waiting on the call's standard input: the signal ends the read (exit 128 + SIGTERM)
    proc = start_and_cancel(server, ["msa", "-", "-o", "stdin.fa", "--device", "cpu"],
                            signal.SIGTERM, tmp_path, stdin=subprocess.PIPE)
    assert proc.returncode == 128 + signal.SIGTERM
    proc.stdin.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["medium.fa"]  # no file, no temp file
    assert status(server.env)[1]["running"] is None
    assert bioplug([*MSA, "-o", tmp_path / "after.fa"], server.env).returncode == 0


def wait_for(server, key: str, value) -> None:
    deadline = time.monotonic() + 30
    while status(server.env)[1][key] == value:
        assert time.monotonic() < deadline, f"server status {key} stayed {value!r}"
        time.sleep(0.02)


def test_cancel_of_a_queued_call_returns_at_once(server, tmp_path):
    """Ctrl-C on a call waiting behind another job: it exits 130 now, and its job never runs."""
    # the job ahead waits on its standard input for as long as the test wants
    ahead = subprocess.Popen([sys.executable, "-m", "bioplug", "-q", "msa", "-", "-o", "a.fa",
                              "--device", "cpu"], env=server.env, cwd=tmp_path,
                             stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    queued = None
    try:
        wait_for(server, "running", None)
        queued = subprocess.Popen([sys.executable, "-m", "bioplug", *MSA, "-o", "b.fa"],
                                  env=server.env, cwd=tmp_path, stderr=subprocess.PIPE)
        wait_for(server, "queued", 0)
        queued.send_signal(signal.SIGINT)
        assert queued.wait(timeout=15) == 130
        assert queued.stderr.read() == b""  # as a command stopped before it began
        assert status(server.env)[1]["queued"] == 0
        ahead.communicate(FAMILY.read_bytes(), timeout=60)
        assert ahead.returncode == 0, ahead.stderr
    finally:
        for proc in (ahead, queued):
            if proc is not None and proc.poll() is None:
                proc.kill()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.fa"]  # no b.fa, no temp file
    assert status(server.env)[1]["running"] is None


def test_the_client_imports_only_the_standard_library(server, tmp_path):
    out = tmp_path / "out.fa"
    code = f"""
import json, os, sys, sysconfig
before = set(sys.modules)
stdlib = sysconfig.get_paths()["stdlib"]
import bioplug.cli as cli

def report(code):
    new = set(sys.modules) - before
    foreign = sorted(m for m in new if not m.startswith("bioplug") and
                     (getattr(sys.modules[m], "__file__", None) or stdlib).find(stdlib) != 0)
    print(json.dumps([code, foreign, sorted(m for m in new if m.startswith("bioplug"))]))
    sys.stdout.flush()
    os._exit(0)

cli._end_process = report
sys.argv = ["bioplug", "-q", "msa", {str(FAMILY)!r}, "-o", {str(out)!r}, "--device", "cpu"]
cli.main()
"""
    proc = subprocess.run([sys.executable, "-c", code], env=server.env, capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    exit_code, foreign, ours = json.loads(proc.stdout)
    assert exit_code == 0 and out.exists()
    assert foreign == []  # no numpy, pyopencl, Bio: only the standard library
    # bioplug.cache_dirs: the cache folder check every `import bioplug` runs (standard library)
    assert set(ours) <= {"bioplug", "bioplug.cli", "bioplug.errors", "bioplug.progress",
                         "bioplug.cache_dirs", "bioplug.server", "bioplug.server.client",
                         "bioplug.server.protocol"}


def test_a_call_from_other_code_is_refused_and_runs_in_its_process(server):
    sock = protocol.connect(str(server.dir))
    assert sock is not None
    with sock:
        message = {"op": "run", "version": protocol.VERSION, "argv": ["--version"], "cwd": "/",
                   "env": {}, "umask": 0o022, "streams": [{}] * 3,
                   "fingerprint": {"package": "/elsewhere/bioplug", "version": "0.0"}}
        protocol.send(sock, message, fds=(0, 1, 2))
        reply, _ = protocol.recv(sock)
    assert reply["op"] == "refused" and "/elsewhere/bioplug" in reply["reason"]


def stale_socket(directory: Path) -> Path:
    """A socket file with nobody listening: what a killed server leaves."""
    protocol.make_private_dir(str(directory))
    path = Path(protocol.socket_path(str(directory)))
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(path))
    return path


def test_stale_socket_and_idle_timeout(tmp_path):
    directory = tmp_path / "run"
    env = environment(directory)
    path = stale_socket(directory)
    out = tmp_path / "out.fa"
    proc = bioplug([*MSA, "-o", out], env)  # runs in its own process
    assert proc.returncode == 0 and out.exists(), proc.stderr
    code, info = status(env)
    assert code == 1 and "died" in info["state"] and not path.exists()
    assert status(env)[0] == 3
    stale_socket(directory)
    proc = bioplug(["server", "start", "--device", "cpu", "--idle-timeout", "1"], env)
    assert proc.returncode == 0, proc.stderr
    code, info = status(env)
    assert code == 0 and info["idle_timeout"] == 1
    deadline = time.monotonic() + 20
    while path.exists():
        assert time.monotonic() < deadline, "the idle server did not exit"
        time.sleep(0.1)
    assert status(env)[0] == 3
    assert "idle for" in Path(protocol.log_path(str(directory))).read_text()


def test_foreground_server_and_stop(tmp_path):
    directory = tmp_path / "run"
    env = environment(directory)
    server = subprocess.Popen([sys.executable, "-m", "bioplug", "server", "start", "--foreground",
                               "--device", "cpu", "--idle-timeout", "0"], env=env, cwd=ROOT,
                              stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while status(env)[0] != 0 or not status(env)[1]["ready"]:
            assert time.monotonic() < deadline and server.poll() is None
            time.sleep(0.1)
        again = bioplug(["server", "start", "--device", "cpu"], env)
        assert again.returncode == 0 and b"already running" in again.stderr
        stop = bioplug(["server", "stop"], env)
        assert stop.returncode == 0 and b"stopped" in stop.stderr
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
    assert not Path(protocol.socket_path(str(directory))).exists()
    assert status(env)[0] == 3
    assert bioplug(["server", "stop"], env).returncode == 0  # not running: nothing to do


def test_stop_replies_before_it_wakes_the_server(tmp_path):
    """A stop request is answered before the main thread is woken to stop: woken first, it
    could end the process before the reply went out, and `server stop` then read "not running"
    (seen twice under a loaded test run)."""
    from bioplug.server.daemon import Server

    owner = Server(str(tmp_path), device="cpu", warm=False)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    seen = []

    def request_stop(reason):
        theirs.setblocking(False)
        try:
            seen.append(len(theirs.recv(1 << 16, socket.MSG_PEEK)) > 0)
        except BlockingIOError:
            seen.append(False)

    owner.request_stop = request_stop
    protocol.send(theirs, {"op": "stop"})
    owner.handle_connection(ours)
    assert seen == [True]
    theirs.setblocking(True)
    reply, _ = protocol.recv(theirs)
    assert reply["op"] == "stopping"
    ours.close()
    theirs.close()


def test_two_starts_at_once_keep_the_servers_log(tmp_path):
    """The second start finds the first one's server: exit 0, and its log is left whole."""
    env = environment(tmp_path / "run")
    starts = [subprocess.Popen([sys.executable, "-m", "bioplug", "server", "start", "--device",
                                "cpu", "--idle-timeout", "60"], env=env, cwd=ROOT,
                               stderr=subprocess.PIPE) for _ in range(2)]
    try:
        messages = sorted(p.communicate(timeout=120)[1].decode() for p in starts)
        assert [p.returncode for p in starts] == [0, 0], messages
        assert "already running (pid" in messages[0] and "started (pid" in messages[1]
        log = Path(protocol.log_path(str(tmp_path / "run"))).read_text()
        assert "listening on" in log and "ready: device" in log, log
        assert "already running" not in log
    finally:
        for proc in starts:
            if proc.poll() is None:
                proc.kill()
        bioplug(["server", "stop"], env)


def test_a_directory_open_to_others_is_refused(tmp_path):
    directory = tmp_path / "open"
    directory.mkdir(mode=0o755)
    directory.chmod(0o755)
    env = environment(directory)
    proc = bioplug(["server", "start"], env)
    assert proc.returncode == 2 and b"chmod 700" in proc.stderr
    assert protocol.connect(str(directory)) is None


@pytest.mark.parametrize("argv, wanted", [
    (["msa", "a.fa", "--outdir", "o", "--cluster"], False),
    (["msa", "a.fa", "--outdir", "o", "--clus"], False),            # argparse's abbreviation
    (["msa", "a.fa", "--outdir", "o", "--clu=tcp://h:1"], False),
    (["msa", "a.fa", "-o", "o.fa", "--consistency", "2"], True),
    (["msa", "a.fa", "-o", "o.fa", "--c", "2"], True),               # ambiguous: not --cluster
])
def test_a_cluster_run_never_goes_to_the_server(argv, wanted, monkeypatch):
    """A Dask run starts its own workers: also when --cluster is abbreviated."""
    from bioplug.server.client import wanted as may_forward

    monkeypatch.delenv("BIOPLUG_NO_SERVER", raising=False)
    assert may_forward(argv) is wanted


@pytest.mark.parametrize("argv, wanted", [
    (["msa", "/dev/fd/63", "-o", "o.fa"], False),                   # <(zcat x.fa.gz)
    (["search", "q.fa", "db.fa", "-o", "/proc/self/fd/1"], False),
    (["msa", "a.fa", "-o", "o.fa", "--guide-tree=/dev/fd/5"], False),
    (["tree", "/dev/stdin", "-o", "t.nwk"], False),
    (["msa", "a.fa", "-o", "-"], True),                               # "-": the client's streams go
    (["msa", "/data/dev/fd/a.fa", "-o", "o.fa"], True),
])
def test_a_call_naming_its_own_descriptors_stays_in_its_process(argv, wanted, monkeypatch):
    """The server would open /dev/fd/N as its own descriptor N, not the caller's."""
    from bioplug.server.client import wanted as may_forward

    monkeypatch.delenv("BIOPLUG_NO_SERVER", raising=False)
    assert may_forward(argv) is wanted
