"""The OpenCL runtime: device choice, program cache, build errors, LPT scheduling."""

import logging
import threading
import time

import numpy as np
import pyopencl as cl
import pytest

from bioplug.errors import KernelBuildError, NoOpenCLError
from bioplug.runtime import get_runtime, list_devices, run_lpt, select_device
from bioplug.runtime import runtime as rtmod


def test_devices_listed_and_default_chosen():
    devices = list_devices()
    assert devices
    chosen = select_device(None)
    assert chosen in devices
    assert select_device(chosen.spec) == chosen
    assert select_device(str(chosen.index)) == chosen


def test_environment_variable_chooses(monkeypatch):
    cpu = [d for d in list_devices() if d.kind == "CPU"]
    if not cpu:
        pytest.skip("no CPU OpenCL device")
    monkeypatch.setenv("BIOPLUG_DEVICE", "cpu")
    assert select_device(None).kind == "CPU"


def test_unknown_device_lists_the_choices():
    with pytest.raises(NoOpenCLError, match="available"):
        select_device("no-such-device-xyz")


def test_no_platform_message(monkeypatch):
    monkeypatch.setattr(cl, "get_platforms", lambda: [])
    with pytest.raises(NoOpenCLError, match="pocl"):
        list_devices()


def test_devices_command_lists_despite_an_unmatched_environment_variable(
        monkeypatch, capsys, caplog):
    """``bioplug devices`` is where a wrong BIOPLUG_DEVICE is corrected: it lists every device
    (none marked default) and warns, instead of refusing with exit 2; with no device at all
    the error stands."""
    import json

    from bioplug.cli import main

    monkeypatch.setenv("BIOPLUG_DEVICE", "no-such-device-xyz")
    with caplog.at_level(logging.WARNING):
        assert main(["devices"]) == 0
    out = capsys.readouterr().out
    assert all(d.name in out for d in list_devices()) and "* = default" not in out
    assert "BIOPLUG_DEVICE=no-such-device-xyz matches none" in caplog.text
    assert main(["devices", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["devices"]
    assert len(listed) == len(list_devices()) and not any(d["default"] for d in listed)
    monkeypatch.delenv("BIOPLUG_DEVICE")
    assert main(["devices"]) == 0
    assert "* = default" in capsys.readouterr().out
    monkeypatch.setenv("BIOPLUG_DEVICE", "no-such-device-xyz")
    monkeypatch.setattr(cl, "get_platforms", lambda: [])
    assert main(["devices"]) == 2


def test_program_cache_and_build_log(monkeypatch):
    rt = get_runtime()
    p1 = rt.program("common.h")
    assert rt.program("common.h") is p1
    assert rt.program("common.h", {"X": 1}) is not p1
    monkeypatch.setattr(rtmod, "kernel_source", lambda name: "__kernel void k() { oops; }")
    with pytest.raises(KernelBuildError, match="oops|error"):
        rt.program("broken.cl")


def test_lpt_results_in_task_order_whatever_the_workers():
    tasks = list(range(20))
    costs = [((t * 7) % 11) + 1 for t in tasks]
    one = run_lpt(tasks, costs, ["w0"], lambda w, t: t * t)
    three = run_lpt(tasks, costs, ["w0", "w1", "w2"], lambda w, t: t * t)
    assert one == three == [t * t for t in tasks]


def test_lpt_propagates_errors():
    def boom(worker, task):
        if task == 3:
            raise ValueError("task 3 failed")
        return task

    with pytest.raises(ValueError, match="task 3"):
        run_lpt(list(range(5)), [1] * 5, ["a", "b"], boom)


class _Slow:
    """A worker whose start waits for ``release``; counts the tasks it runs."""

    def __init__(self):
        self.release, self.started, self.ran = threading.Event(), threading.Event(), 0

    def start(self):
        self.started.set()
        assert self.release.wait(30)


def test_lpt_a_device_still_starting_takes_no_task_and_is_not_waited_for():
    slow, fast = _Slow(), _Slow()
    fast.release.set()

    def run(worker, task):
        worker.ran += 1
        return task

    assert run_lpt(list(range(8)), [1.0] * 8, [slow, fast], run) == list(range(8))
    assert slow.started.is_set() and (slow.ran, fast.ran) == (0, 8)   # returned meanwhile
    slow.release.set()
    deadline = time.monotonic() + 10
    while any(t.name == "bioplug-device" for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the slow device's thread did not end"
        time.sleep(0.01)
    assert slow.ran == 0


def test_lpt_start_failures_matter_while_tasks_are_left(caplog):
    class Broken:
        def start(self):
            raise RuntimeError("no context for you")

    with pytest.raises(RuntimeError, match="no context"):
        run_lpt([1, 2], [1.0, 1.0], [Broken(), Broken()], lambda w, t: t)
    late, fast = _Slow(), _Slow()
    fast.release.set()

    def fail_late():
        raise RuntimeError("late failure")

    assert run_lpt([1, 2], [1.0, 1.0], [late, fast], lambda w, t: t,
                   start=lambda w: w.start() if w is fast else (late.release.wait(30),
                                                               fail_late())) == [1, 2]
    with caplog.at_level(logging.WARNING, logger="bioplug.runtime.schedule"):
        late.release.set()
        deadline = time.monotonic() + 10
        while "late failure" not in caplog.text:
            assert time.monotonic() < deadline
            time.sleep(0.01)


def test_each_runtime_starts_in_its_own_device_thread(monkeypatch):
    """Several fresh runtimes get their contexts in run_lpt's threads, each its own."""
    runtimes = [rtmod.Runtime(select_device("cpu")) for _ in range(2)]
    assert not any("queue" in vars(rt) for rt in runtimes)
    where = {}
    real = rtmod.Runtime.start

    def start(self):
        where.setdefault(id(self), threading.current_thread())
        return real(self)

    monkeypatch.setattr(rtmod.Runtime, "start", start)

    def run(rt, task):
        time.sleep(0.05)   # long enough for both devices to start
        out = np.empty(1, dtype=np.int32)
        cl.enqueue_copy(rt.queue, out, rt.to_device(np.array([task], dtype=np.int32)))
        return int(out[0])

    assert run_lpt(list(range(6)), [1.0] * 6, runtimes, run) == list(range(6))
    threads = [where[id(rt)] for rt in runtimes]
    assert all(t.name == "bioplug-device" for t in threads) and threads[0] is not threads[1]


def test_buffers_round_trip():
    rt = get_runtime()
    data = np.arange(10, dtype=np.int32)
    buf = rt.to_device(data)
    out = np.empty_like(data)
    cl.enqueue_copy(rt.queue, out, buf)
    assert (out == data).all()


@pytest.mark.parametrize("data", [np.arange(1 << 20, dtype=np.int64) * 7,   # a large write
                                  np.arange(24, dtype=np.uint8)[::2]])       # not contiguous
def test_upload_is_seen_by_later_commands(data):
    rt = get_runtime()
    want = data.tobytes()
    buf = rt.upload(data)
    del data  # the write may still be running: pyopencl keeps its host array alive
    out = np.empty(len(want), dtype=np.uint8)
    cl.enqueue_copy(rt.queue, out, buf)
    assert out.tobytes() == want


def test_upload_of_nothing_is_a_one_byte_buffer():
    assert get_runtime().upload(np.zeros(0, dtype=np.int32)).size == 1


def test_subpackages_load_lazily():
    import bioplug

    assert bioplug.tree.nj and bioplug.skbio.pair_align and bioplug.MultipleSequenceAligner
    with pytest.raises(AttributeError):
        bioplug.no_such_thing  # noqa: B018


def test_budget_batches_cover_in_order_within_budget():
    from hypothesis import given
    from hypothesis import strategies as st

    from bioplug.runtime.schedule import budget_batches

    @given(st.lists(st.integers(0, 50), max_size=40), st.integers(1, 60))
    def check(costs, budget):
        runs = budget_batches(costs, budget)
        assert [i for a, b in runs for i in range(a, b)] == list(range(len(costs)))
        for a, b in runs:
            assert b > a and (b - a == 1 or sum(costs[a:b]) <= budget)
        for (a, b), (c, _) in zip(runs, runs[1:], strict=False):
            assert sum(costs[a:b]) + costs[c] > budget   # a run ends only when full

    check()


def test_fill_in_pieces(monkeypatch):
    """Fills are split below 2 GiB (NVIDIA); pieces of 12 bytes here must give what one call
    gives, at odd offsets and lengths."""
    monkeypatch.setattr(rtmod, "FILL_PIECE", 12)
    rt = get_runtime()
    b = rt.empty(160)
    rt.fill(b, np.float32(-1), 0, 160)
    rt.fill(b, np.float32(7), 8, 44)                    # words 2 .. 12
    rt.fill(b, np.float32(3), 80, 52)                   # words 20 .. 32
    out = np.empty(40, np.float32)
    cl.enqueue_copy(rt.queue, out, b)
    want = np.full(40, -1, np.float32)
    want[2:13] = 7
    want[20:33] = 3
    np.testing.assert_array_equal(out, want)


def test_pooled_runtime_reuses_dropped_buffers():
    """PooledRuntime: uploads hold their data, a dropped buffer goes back to the pool and
    serves the next request of its size (no new OpenCL buffer), the rest is the runtime's."""
    from bioplug.runtime import PooledRuntime

    rt = get_runtime("cpu")
    pooled = PooledRuntime(rt)
    assert pooled.device is rt.device and pooled.queue is rt.queue
    data = np.arange(1000, dtype=np.int32)
    buf = pooled.upload(data)
    back = np.empty_like(data)
    cl.enqueue_copy(rt.queue, back, buf)
    assert np.array_equal(back, data)
    assert (pooled.pool.active_blocks, pooled.pool.held_blocks) == (1, 0)
    del buf
    assert (pooled.pool.active_blocks, pooled.pool.held_blocks) == (0, 1)
    again = pooled.empty(data.nbytes)
    assert (pooled.pool.active_blocks, pooled.pool.held_blocks) == (1, 0)
    del again
    pooled.pool.free_held()
    assert pooled.pool.held_blocks == 0


def test_all_devices_are_the_gpus_else_the_default_device():
    """``get_runtimes("all")``: every GPU; without one, the default device alone (CPU OpenCL
    devices share the host's cores, and one that cannot build kernels is skipped)."""
    from bioplug.runtime import get_runtimes

    gpus = [d for d in list_devices() if d.kind == "GPU"]
    got = get_runtimes("all")
    if gpus:
        assert [rt.info.index for rt in got] == [d.index for d in gpus]
    else:
        assert got == [get_runtime(None)]


def test_cpu_device_batches_fit_the_host_memory_left(monkeypatch):
    """A CPU device reports the machine's whole RAM as its global memory; its batches are
    sized from what the host still has free (a cluster job's limit included), read once per
    runtime so they keep one size through a run. A GPU's are not."""
    from bioplug.runtime import host_memory

    rt = get_runtime("cpu")
    rt.__dict__.pop("_host_room", None)
    monkeypatch.setattr(host_memory, "available", lambda: 1 << 30)
    try:
        assert rt.memory_budget(0.5) == min(rt.info.global_mem, 1 << 30) // 2
        monkeypatch.setattr(host_memory, "available", lambda: 1 << 20)
        assert rt.memory_budget(0.5) == min(rt.info.global_mem, 1 << 30) // 2   # read once
    finally:
        rt.__dict__.pop("_host_room", None)
    monkeypatch.setattr(host_memory, "available", lambda: None)   # unknown: RAM as before
    assert rt.memory_budget(0.5) == rt.info.global_mem // 2
    rt.__dict__.pop("_host_room", None)
