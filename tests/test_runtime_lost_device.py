"""A device lost in the middle of a job (issue 13), simulated on PoCL.

pyopencl's launch, copy and fill calls are wrapped at the runtime layer: the wrapper counts
them, and from a chosen call on every one raises what a driver raises for a lost or exhausted
device (``pyopencl.RuntimeError``, ``MemoryError`` or ``LogicError``; a lost device stays
lost). Each command is run once untouched to count its calls, then with the failure injected
halfway through (some work done, some not): it must exit with code 1, one line on standard
error naming the device and suggesting another kind (``--device cpu`` after a GPU), no
traceback and no file. The Python front doors raise :class:`bioplug.errors.DeviceError` (a
:class:`BioplugError`). Afterwards the same process runs the job again and gets the
untouched result: nothing cached on the device was left half-written.
"""

from __future__ import annotations

import importlib.util
import json
import re
import threading

import numpy as np
import pyopencl as cl
import pytest

from bioplug.cli import main
from bioplug.errors import BioplugError, DeviceError
from bioplug.runtime import get_runtime

DEVICE = "cpu"
SEQS = ["MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ", "MKTAYIAKQRQISFVKSHFSRQLEERLG",
        "SDKIIHLTDDSFDTDVLKADGAILVDFWAEWCGP", "MSDKIIHLTDDSFDTDVLKAD", "MKVLAAGIVGLLLAQ",
        "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQ"]
CASINO = {"states": ["F", "L"], "symbols": "123456", "startprob": [0.5, 0.5],
          "transmat": [[0.95, 0.05], [0.10, 0.90]],
          "emissionprob": [[1 / 6] * 6, [0.1, 0.1, 0.1, 0.1, 0.1, 0.5]]}
ERRORS = {"RuntimeError": cl.RuntimeError, "MemoryError": cl.MemoryError,
          "LogicError": cl.LogicError}


class LostDevice:
    """Counts pyopencl's enqueue calls; from call ``fail_after + 1`` on, each one raises."""

    #: (owner, attribute) of every call that puts work on a queue or moves data.
    CALLS = [(cl.Kernel, "__call__"), (cl, "enqueue_nd_range_kernel"), (cl, "enqueue_copy"),
             (cl, "enqueue_fill_buffer")]

    def __init__(self, monkeypatch):
        self.calls = 0
        self.fail_after: int | None = None
        self.error = cl.RuntimeError
        self._lock = threading.Lock()
        for owner, name in self.CALLS:
            monkeypatch.setattr(owner, name, self._wrap(getattr(owner, name), name))

    def _wrap(self, original, name):
        def call(*args, **kwargs):
            with self._lock:
                self.calls += 1
                lost = self.fail_after is not None and self.calls > self.fail_after
            if lost:
                raise self.error(f"{name} failed: DEVICE_NOT_AVAILABLE (injected)")
            return original(*args, **kwargs)

        return call

    def arm(self, fail_after: int, error=cl.RuntimeError) -> None:
        self.calls, self.fail_after, self.error = 0, fail_after, error

    def disarm(self) -> int:
        calls, self.calls, self.fail_after = self.calls, 0, None
        return calls


@pytest.fixture
def lost(monkeypatch):
    return LostDevice(monkeypatch)


@pytest.fixture(scope="module")
def device_name():
    return get_runtime(DEVICE).info.name


def suggestion() -> str:
    """The other kind of device the message suggests: a GPU after the CPU, else the CPU."""
    return "--device gpu" if get_runtime(DEVICE).info.kind == "CPU" else "--device cpu"


def _inputs(tmp_path):
    (tmp_path / "six.fa").write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(SEQS)))
    (tmp_path / "three.fa").write_text("".join(f">t{k}\n{s}\n" for k, s in enumerate(SEQS[:3])))
    (tmp_path / "casino.json").write_text(json.dumps(CASINO))
    (tmp_path / "rolls.fa").write_text(">r1\n315136266666466666621366666\n>r2\n1\n"
                                       ">r3\n66666666661111111111\n")


#: Every command that runs on the device: (command words, output name).
COMMANDS = {
    "msa": (["msa", "six.fa"], "out.fa"),
    "progressive": (["msa", "six.fa", "--method", "progressive"], "out.fa"),
    "tree": (["tree", "six.fa"], "out.nwk"),
    "pairwise": (["pairwise", "six.fa", "--matrix", "BLOSUM62"], "out.fa"),
    "pairwise-all": (["pairwise", "six.fa", "--all-vs-all"], "out.tsv"),
    "align3": (["align3", "three.fa"], "out.fa"),
    "viterbi": (["viterbi", "casino.json", "rolls.fa"], "out.tsv"),
}


def _run(tmp_path, words, out_name):
    args = [str(tmp_path / w) if (tmp_path / w).exists() else w for w in words]
    return main(["-q", *args, "-o", str(tmp_path / out_name), "--device", DEVICE])


@pytest.mark.parametrize("error", list(ERRORS))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_command_fails_cleanly_when_the_device_is_lost(command, error, tmp_path, lost,
                                                       capsys, device_name):
    _inputs(tmp_path)
    words, out_name = COMMANDS[command]
    out = tmp_path / out_name
    assert _run(tmp_path, words, out_name) == 0  # untouched: count the device calls
    calls = lost.disarm()
    expected = out.read_bytes()
    out.unlink()
    capsys.readouterr()
    assert calls >= 2, f"{command} made {calls} device call(s): nothing to interrupt"
    before = sorted(p.name for p in tmp_path.iterdir())

    lost.arm(calls // 2, ERRORS[error])  # half the work done, then the device is gone
    code = _run(tmp_path, words, out_name)
    assert lost.calls > calls // 2, "the failure was never reached"
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 1, err
    assert len(lines) == 1 and lines[0].startswith(f"bioplug {words[0]}: error: "), err
    assert device_name in err and suggestion() in err and error in err, err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no file, no temporary

    lost.disarm()  # the device is back: the same process gets the same result
    assert _run(tmp_path, words, out_name) == 0
    assert out.read_bytes() == expected


def test_failure_at_the_last_call_leaves_no_file(tmp_path, lost, capsys, device_name):
    """The device fails on the last read of the results: still nothing written."""
    _inputs(tmp_path)
    words, out_name = COMMANDS["tree"]
    assert _run(tmp_path, words, out_name) == 0
    calls = lost.disarm()
    (tmp_path / out_name).unlink()
    lost.arm(calls - 1)
    assert _run(tmp_path, words, out_name) == 1
    assert device_name in capsys.readouterr().err
    assert not (tmp_path / out_name).exists()


# -- the Python front doors -------------------------------------------------------------------
def _pairwise():
    from Bio.Align import substitution_matrices

    from bioplug import PairwiseAligner

    blosum62 = substitution_matrices.load("BLOSUM62")
    aligner = PairwiseAligner(device=DEVICE, substitution_matrix=blosum62,
                              open_gap_score=-10, extend_gap_score=-0.5, max_biopython_cells=0)
    return [str(aligner.align(SEQS[0], SEQS[2])[0]), list(aligner.score_many(SEQS, SEQS[::-1]))]


def _tree():
    import bioplug.tree as bt

    rng = np.random.default_rng(5)
    m = rng.random((12, 12))
    return str(bt.nj(m + m.T - 2 * np.diag(np.diag(m)), device=DEVICE))


def _skbio_upgma():
    from bioplug.skbio import upgma

    rng = np.random.default_rng(6)
    m = np.triu(rng.random((10, 10)), 1)
    return str(upgma(m + m.T, device=DEVICE))


def _three():
    from bioplug import align_three

    return str(align_three(*SEQS[:3], device=DEVICE))


def _viterbi():
    from bioplug.hmm import viterbi
    from bioplug.hmm.model import HMMModel

    model = HMMModel.from_dict(CASINO)
    obs = [model.encode(s, "x") for s in ("3151362666664666666213", "6666111")]
    logp, paths = viterbi(*model.log_parameters(), obs, device=DEVICE)
    return [logp.tolist(), [p.tolist() for p in paths]]


def _matmul():
    from bioplug.tropical import matmul

    rng = np.random.default_rng(7)
    return matmul(rng.random((3, 40, 30)), rng.random((3, 30, 20)), device=DEVICE).tolist()


def _progressive():
    from bioplug import ProgressiveAligner

    aln = ProgressiveAligner(device=DEVICE, refinement=0).align(list(SEQS))
    return [str(aln), aln.guide_tree]


def _msa():
    from bioplug import MultipleSequenceAligner

    return str(MultipleSequenceAligner(device=DEVICE).align(list(SEQS)))


FRONT_DOORS = {"msa": _msa, "pairwise": _pairwise, "tree": _tree, "skbio.upgma": _skbio_upgma,
               "align_three": _three, "viterbi": _viterbi, "tropical.matmul": _matmul,
               "progressive": _progressive}


@pytest.mark.parametrize("name", list(FRONT_DOORS))
def test_front_door_raises_device_error(name, lost, device_name):
    work = FRONT_DOORS[name]
    expected = work()
    calls = lost.disarm()
    assert calls >= 2, f"{name} made {calls} device call(s)"
    lost.arm(calls // 2, cl.MemoryError)
    with pytest.raises(DeviceError) as info:
        work()
    assert isinstance(info.value, BioplugError)
    assert isinstance(info.value.__cause__, cl.MemoryError)  # the driver's error is kept
    text = str(info.value)
    assert device_name in text and suggestion() in text and "MemoryError" in text
    lost.disarm()
    assert work() == expected


def test_several_devices_name_the_one_that_failed():
    """run_lpt knows which worker's device failed; other errors pass through as they are."""
    from bioplug.runtime import run_lpt

    rt = get_runtime(DEVICE)

    def run(worker, task):
        if task == 3:
            raise cl.LogicError("clEnqueueReadBuffer failed: INVALID_COMMAND_QUEUE")
        return task

    with pytest.raises(DeviceError, match=re.escape(rt.info.name)):  # names hold "(R)"
        run_lpt(list(range(6)), [1.0] * 6, [rt, rt], run)
    with pytest.raises(KeyError):
        run_lpt([1], [1.0], [rt], lambda w, t: {}[t])


def test_other_errors_are_not_device_errors():
    from bioplug.faults import device_error, device_guard

    assert device_error(ValueError("x")) is None
    assert device_error(MemoryError("host")) is None  # the host's memory, not the device's

    @device_guard
    def bad_input():
        raise ValueError("bad input")

    with pytest.raises(ValueError, match="bad input"):
        bad_input()


@pytest.mark.skipif(importlib.util.find_spec("pytestqt") is None,
                    reason="pytest-qt is not installed (the qtbot fixture)")
def test_gui_job_reports_the_device(qtbot, device_name):
    """A GUI job whose device fails shows the same message (device, another device)."""
    pytest.importorskip("PySide6")
    from bioplug.gui.jobs import Job

    get_runtime(DEVICE)  # the device this thread used last

    def task(progress):
        raise cl.RuntimeError("clFinish failed: OUT_OF_RESOURCES (injected)")

    job = Job("tree", task)
    failed = []
    job.signals.failed.connect(failed.append)
    job.run()
    assert len(failed) == 1 and device_name in failed[0] and suggestion() in failed[0]
