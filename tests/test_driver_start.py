"""Driver start-up on a thread while the modules import (bioplug.runtime.driver_start).

The thread resolves the device itself (through ctypes, without pyopencl): wherever it does,
its choice must be select_device's; the context it makes is the one the Runtime then uses.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pyopencl.array as cla
import pytest

from bioplug.errors import NoOpenCLError
from bioplug.runtime import driver_start, list_devices, select_device
from bioplug.runtime import runtime as runtime_module

ROOT = Path(__file__).resolve().parents[1]
GPU, CPU = 4, 2


@pytest.fixture
def fresh(monkeypatch):
    """No driver thread and no Runtime started yet, as in a new process."""
    monkeypatch.setattr(driver_start, "_thread", None)
    monkeypatch.setattr(driver_start, "_contexts", {})
    monkeypatch.setattr(driver_start, "_loader", None)
    monkeypatch.setattr(runtime_module, "_runtimes", {})
    monkeypatch.delenv("BIOPLUG_DEVICE", raising=False)


def _listing():
    loader, _ = driver_start._loader_paths()
    return driver_start._devices(driver_start._typed(ctypes.CDLL(loader)))


def test_the_thread_lists_the_devices_pyopencl_lists(fresh):
    listed = _listing()
    ours = [(d.platform_index, d.device_index, d.device.int_ptr) for d in list_devices()]
    assert [(pi, di, h) for pi, di, h, _, _ in listed] == ours


@pytest.mark.parametrize("spec", [None, "gpu", "cpu", "accelerator", "0", "1", "9", "0:0",
                                  "1:0", "3:0", "pocl", "H100"])
def test_the_thread_chooses_what_select_device_chooses(fresh, spec):
    chosen = driver_start._choose(_listing(), spec)
    if spec in ("0", "0:0"):
        assert chosen is not None   # an index always resolves without pyopencl
    if chosen is not None:
        assert chosen == select_device(spec).device.int_ptr


def test_choose_ranks_gpus_as_select_device_does():
    # (platform, device, handle, type, compute units x clock)
    two = [(0, 0, 11, CPU, 99999), (1, 0, 21, GPU, 10), (1, 1, 22, GPU, 20)]
    assert driver_start._choose(two, None) == 22
    assert driver_start._choose(two, "gpu") == 22
    assert driver_start._choose(two, "cpu") == 11           # the only CPU
    assert driver_start._choose(two, "all") == 21           # get_runtimes' first GPU
    equal = [(0, 0, 31, GPU, 20), (0, 1, 32, GPU, 20)]
    assert driver_start._choose(equal, "gpu") == 31         # the first of equals
    cpus = [(0, 0, 41, CPU, 8), (1, 0, 42, CPU, 8)]
    assert driver_start._choose(cpus, None) is None         # select_device probes compilers
    assert driver_start._choose(cpus, "cpu") is None
    assert driver_start._choose(cpus, "gpu") is None
    assert driver_start._choose(cpus, "1") == 42
    assert driver_start._choose(cpus, "1:0") == 42
    assert driver_start._choose(cpus, "2") is None
    assert driver_start._choose(cpus, "all") is None
    assert driver_start._choose(cpus, "pthread") is None    # names need pyopencl's strings


def test_the_runtime_adopts_the_context_made_on_the_thread(fresh):
    driver_start.start("0:0")
    driver_start.start("1:0")                                # once per process
    driver_start.wait()
    device = select_device("0:0").device
    made = dict(driver_start._contexts)
    assert list(made) == [device.int_ptr]
    rt = runtime_module.get_runtime("0:0")
    assert rt.context.int_ptr == made[device.int_ptr]
    assert driver_start._contexts == {}                      # taken once
    x = cla.to_device(rt.queue, np.arange(1000, dtype=np.int32))
    assert ((2 * x).get() == 2 * np.arange(1000)).all()


def test_a_later_runtime_starts_through_the_thread_loader_at_first_use(fresh, monkeypatch):
    """A Runtime makes its context when first used, through the loader the thread opened
    (ctypes lets other threads run meanwhile), and it computes."""
    driver_start.start("no such device")   # the drivers start, no context is made
    driver_start.wait()
    made = []
    real = driver_start._create_context

    def create(lib, device):
        made.append((device, threading.current_thread().name))
        return real(lib, device)

    monkeypatch.setattr(driver_start, "_create_context", create)
    info = select_device("0:0")
    rt = runtime_module.Runtime(info)
    assert "queue" not in vars(rt) and made == []          # nothing made yet
    worker = threading.Thread(target=rt.start, name="first-use")
    worker.start()
    worker.join()
    assert made == [(info.device.int_ptr, "first-use")]
    assert rt.start() is rt and len(made) == 1              # once
    x = cla.to_device(rt.queue, np.arange(1000, dtype=np.int32))
    assert ((3 * x).get() == 3 * np.arange(1000)).all()


def test_get_runtime_waits_for_the_driver_thread(fresh, monkeypatch):
    calls = []
    real_select = runtime_module.select_device

    def slow_start(loader, drivers, spec):
        calls.append(("thread start", threading.current_thread().name))
        time.sleep(0.3)    # a slow driver start-up
        calls.append(("thread end", threading.current_thread().name))

    def select(spec):
        calls.append(("select", threading.current_thread().name))
        return real_select(spec)

    monkeypatch.setattr(driver_start, "_run", slow_start)
    monkeypatch.setattr(runtime_module, "select_device", select)
    driver_start.start("cpu")
    runtime_module.get_runtime("0:0")
    assert [c[0] for c in calls] == ["thread start", "thread end", "select"]
    assert calls[0][1] == "bioplug-driver-start" and calls[2][1] == "MainThread"


def test_a_device_that_does_not_exist_is_reported_by_get_runtime(fresh):
    driver_start.start("no such device")
    driver_start.wait()
    assert driver_start._contexts == {}
    with pytest.raises(NoOpenCLError):
        runtime_module.get_runtime("no such device")


def test_the_cli_runs_on_the_context_made_while_it_imported(tmp_path):
    out = tmp_path / "out.fasta"
    proc = subprocess.run(
        [sys.executable, "-m", "bioplug", "-vv", "--no-server", "msa",
         str(ROOT / "examples" / "BB11001.fasta"), "-o", str(out), "--device", "0:0"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert "made while the modules imported" in proc.stderr
    assert out.read_text().count(">") == 4


def test_device_hint_reads_the_command_and_device():
    from bioplug.cli import _device_hint

    assert _device_hint(["msa", "a.fa", "-o", "b.fa", "--device", "gpu"]) == (True, "gpu")
    assert _device_hint(["-q", "msa", "a.fa", "--outdir", "d", "--device=0:1"]) == (True, "0:1")
    assert _device_hint(["-v", "msa", "a.fa", "-o", "b"]) == (True, None)
    assert _device_hint(["search", "q.fa", "db.fa"]) == (True, None)
    assert _device_hint(["score", "a.fa", "b.xml"]) == (False, None)
    assert _device_hint(["devices"]) == (False, None)
    assert _device_hint([]) == (False, None)


def test_commands_names_every_sub_command_of_the_full_parser():
    from bioplug.cli import COMMANDS, build_parser

    full = build_parser()._subparsers._group_actions[0].choices
    assert sorted(full) == sorted(COMMANDS)
    for command in COMMANDS:
        assert command in build_parser(command)._subparsers._group_actions[0].choices


@pytest.mark.parametrize("argv", [
    ["-q", "msa", "a.fa", "-o", "b.fa", "--device", "gpu", "--seed", "3"],
    ["search", "q.fa", "db.fa", "-o", "hits.tsv", "--top", "5"],
    ["--no-server", "tree", "in.fa", "-o", "t.nwk"],
    ["score", "test.fa", "ref.xml"],
    ["server", "status"],
])
def test_a_call_parses_as_the_full_parser_does(argv):
    """A call builds its own command's parser only (start-up): same arguments, same values."""
    from bioplug.cli import _command_word, build_parser

    one = build_parser(_command_word(argv)).parse_args(argv)
    full = build_parser().parse_args(argv)
    assert {k: v for k, v in vars(one).items() if k != "func"} == \
        {k: v for k, v in vars(full).items() if k != "func"}
    assert one.func is full.func


def test_help_lists_every_command(capsys):
    from bioplug import cli

    with pytest.raises(SystemExit):
        cli._run(["-h", "msa"])
    out = capsys.readouterr().out
    assert all(command in out for command in cli.COMMANDS)


def test_importing_the_runtime_package_imports_no_pyopencl():
    code = ("import sys, bioplug.runtime, bioplug.runtime.driver_start; "
            "print('pyopencl' in sys.modules, 'numpy' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"]


def test_the_parser_imports_no_numpy_pyopencl_or_biopython():
    """The parser is built on every call: ``bioplug --help``, ``--version`` and ``server
    status`` must not pay for numpy, pyopencl or Biopython (commands import them when they
    run)."""
    assert _fresh_words("import sys; from bioplug.cli import build_parser; build_parser(); "
                        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules} "
                        "& {'numpy', 'pyopencl', 'Bio', 'scipy', 'skbio'})))") == []


def test_what_a_call_needs_after_the_context_imports_beside_the_driver_thread():
    """The modules ``bioplug msa`` imports while the driver thread runs must include what its
    first program load and kernel call need (the binary cache, the kernel-call generator,
    refinement's random numbers): imported lazily, they came after the context, on every
    call's critical path (0.01-0.03 s a call on an H200 host)."""
    assert _fresh_words(
        "import sys, bioplug.cli as c; c.build_parser('msa'); import bioplug.msa.aligner; "
        "print(' '.join(m for m in ('pyopencl.cache', 'pyopencl.invoker', 'numpy.random') "
        "if m not in sys.modules))") == []


def _fresh_words(code: str) -> list[str]:
    """What ``code`` prints, as words, run by a fresh interpreter in the repository."""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


# -- the executable's exit: the GPU driver's teardown left to a child (bioplug.cli) -----------
def test_only_a_gpu_runtime_hands_off_the_teardown(fresh, monkeypatch):
    from bioplug import cli

    assert not cli._gpu_started()

    class Fake:
        def __init__(self, gpu):
            self.is_gpu = gpu

    monkeypatch.setattr(runtime_module, "_runtimes", {"0:0": Fake(False)})
    assert not cli._gpu_started()
    monkeypatch.setattr(runtime_module, "_runtimes", {"0:0": Fake(False), "1:0": Fake(True)})
    assert cli._gpu_started()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the hand-off is Linux only")
def test_the_teardown_child_holds_no_output_and_ends_with_the_process():
    """The caller gets the exit code and the whole output at once (the child holds neither
    its pipes nor the terminal), and the child is gone soon after the process."""
    code = ("import os, sys, threading\n"
            "from bioplug import cli\n"
            "threading.Thread(target=lambda: None).start()  # a multi-threaded process\n"
            "sys.stdout.write('written before the exit\\n'); sys.stdout.flush()\n"
            "cli._hand_off_gpu_teardown()\n"
            "os._exit(3)\n")
    # a session of its own: the forked child stays in the process's group, named by its pid
    proc = subprocess.Popen([sys.executable, "-W", "error", "-c", code], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    out, err = proc.communicate(timeout=60)   # returns at EOF: no child holds the pipes
    assert proc.returncode == 3, err
    assert out == "written before the exit\n" and err == ""
    deadline = time.monotonic() + 10
    while _running_in_group(proc.pid):
        if time.monotonic() > deadline:
            pytest.fail("the teardown child outlived its process by 10 s")
        time.sleep(0.05)


def _running_in_group(pgid: int) -> bool:
    """A process of group ``pgid`` still runs (an exited one waiting to be reaped by
    whatever adopted it does not count); without /proc, whether the group exists."""
    if not Path("/proc/self/stat").exists():
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        return True
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:   # gone meanwhile
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


@pytest.mark.parametrize("argv, hands_off", [(["msa", "in.fa", "-o", "out.fa"], True),
                                             (["-q", "search", "q.fa", "db.fa", "-o", "-"], True),
                                             (["server", "start", "--foreground"], False),
                                             (["devices"], False)])
def test_only_device_commands_hand_off_the_teardown(monkeypatch, argv, hands_off):
    """A resident server holds its lock file until it exits: no child may keep it held."""
    from bioplug import cli

    calls = []
    monkeypatch.setattr(sys, "argv", ["bioplug", *argv])
    monkeypatch.setattr(cli, "_gpu_started", lambda: True)
    monkeypatch.setattr(cli, "_hand_off_gpu_teardown", lambda: calls.append(1))

    def leave(code):
        raise SystemExit(code)

    monkeypatch.setattr(cli.os, "_exit", leave)
    monkeypatch.setattr(cli.logging, "shutdown", lambda: None)   # pytest's handlers stay open
    with pytest.raises(SystemExit):
        cli._end_process(0)
    assert bool(calls) == hands_off


@pytest.fixture
def nvidia(tmp_path, monkeypatch):
    """A fake /proc/driver/nvidia/gpus; returns a function adding a GPU of a model."""
    monkeypatch.setattr(driver_start, "NVIDIA_GPUS", str(tmp_path))
    monkeypatch.setattr(driver_start, "narrowed", set())
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    monkeypatch.delenv("BIOPLUG_DEVICE", raising=False)

    def add(model: str) -> None:
        folder = tmp_path / f"0000:00:{len(list(tmp_path.iterdir())):02x}.0"
        folder.mkdir()
        (folder / "information").write_text(f"Model: \t\t {model}\nIRQ:   \t\t 42\n")
    return add


@pytest.mark.parametrize("gpus, spec, expected", [
    (["NVIDIA H200", "NVIDIA H200"], None, "0"),        # the first of equals, as chosen
    (["NVIDIA H200", "NVIDIA H200"], "gpu", "0"),
    (["NVIDIA H200"] * 8, "GPU", "0"),
    (["NVIDIA H200", "NVIDIA H200"], "cpu", ""),         # no GPU for a CPU run
    (["NVIDIA H200"], "cpu", ""),
    (["NVIDIA H200"], None, None),                        # one GPU: nothing to hide
    (["NVIDIA H200", "NVIDIA RTX A4000"], None, None),    # mixed: select_device ranks them
    (["NVIDIA H200", "NVIDIA H200"], "all", None),
    (["NVIDIA H200", "NVIDIA H200"], "1:1", None),
    (["NVIDIA H200", "NVIDIA H200"], "1", None),
    (["NVIDIA H200", "NVIDIA H200"], "H200", None),
    ([], "cpu", None),                                    # no NVIDIA driver
])
def test_narrow_hides_the_gpus_a_one_device_call_does_not_use(nvidia, gpus, spec, expected):
    for model in gpus:
        nvidia(model)
    assert driver_start.narrow(spec) == expected
    assert os.environ.get("CUDA_VISIBLE_DEVICES") == expected
    assert ("CUDA_VISIBLE_DEVICES" in driver_start.narrowed) == (expected is not None)


def test_narrow_reads_bioplug_device_and_keeps_the_users_choice(nvidia, monkeypatch):
    nvidia("NVIDIA H200")
    nvidia("NVIDIA H200")
    monkeypatch.setenv("BIOPLUG_DEVICE", "cpu")
    assert driver_start.narrow(None) == ""
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    assert driver_start.narrow("cpu") is None
    assert os.environ["CUDA_VISIBLE_DEVICES"] == "1"


def test_the_executable_narrows_one_device_commands_only(nvidia, monkeypatch):
    from bioplug import cli

    calls = []
    monkeypatch.setattr(driver_start, "narrow", calls.append)
    cli._narrow_drivers(["msa", "a.fa", "-o", "b.fa", "--device", "gpu"])
    cli._narrow_drivers(["-v", "search", "q.fa", "db.fa", "-o", "h", "--device=cpu"])
    cli._narrow_drivers(["msa", "a.fa", "--outdir", "o", "--cluster"])   # workers: every GPU
    cli._narrow_drivers(["devices"])
    cli._narrow_drivers(["server", "start"])
    assert calls == ["gpu", "cpu"]


def test_no_platform_names_the_variables_that_may_hide_the_drivers(monkeypatch):
    import pyopencl as cl

    from bioplug.runtime import devices

    monkeypatch.setattr(cl, "get_platforms", lambda: [])
    for name in devices.DRIVER_VARIABLES:   # a host's own (a GPU image sets some)
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OCL_ICD_VENDORS", "/nonexistent")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    monkeypatch.setattr(driver_start, "narrowed", {"CUDA_VISIBLE_DEVICES"})  # set by bioplug
    with pytest.raises(NoOpenCLError) as exc:
        devices.list_devices()
    assert "OCL_ICD_VENDORS='/nonexistent'" in str(exc.value)
    assert "CUDA_VISIBLE_DEVICES" not in str(exc.value)
    monkeypatch.delenv("OCL_ICD_VENDORS")
    with pytest.raises(NoOpenCLError) as exc:
        devices.list_devices()
    assert str(exc.value) == devices.NO_PLATFORM_HELP


def test_verbose_says_what_the_narrowing_hid(monkeypatch, caplog):
    import logging

    from bioplug import cli

    monkeypatch.setattr(driver_start, "narrowed", {"CUDA_VISIBLE_DEVICES"})
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    with caplog.at_level(logging.INFO, logger="bioplug"):
        cli._say_narrowed()
    assert "shown GPU 0 (CUDA_VISIBLE_DEVICES='0'" in caplog.text
    caplog.clear()
    monkeypatch.setattr(driver_start, "narrowed", set())   # the user's own setting: silent
    with caplog.at_level(logging.INFO, logger="bioplug"):
        cli._say_narrowed()
    assert caplog.text == ""

