"""Device faults PoCL can simulate, and thread safety (issue 13)."""

from __future__ import annotations

import threading

import numpy as np
import pyopencl as cl
import pytest

from bioplug.cli import main
from bioplug.errors import KernelBuildError
from bioplug.runtime import get_runtime

DEVICE = "cpu"
SEQS = ["MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQ", "MKTAYIAKQRQISFVKSHFSRQLEERLG",
        "SDKIIHLTDDSFDTDVLKADGAILVDFWAEWCGP", "MSDKIIHLTDDSFDTDVLKAD", "MKVLAAGIVGLLLAQ"]


def _fail_build(self, name, src, options):
    raise cl.RuntimeError("clBuildProgram failed: injected")


def test_kernel_build_failure_names_device_and_suggests_cpu(monkeypatch, tmp_path, capsys):
    from bioplug.runtime import runtime

    rt = get_runtime(DEVICE)
    monkeypatch.setattr(runtime.Runtime, "_build", _fail_build)
    with pytest.raises(KernelBuildError) as info:
        rt.program("tree_chain.cl", {"INJECTED": 1})
    assert rt.info.name in str(info.value) and "--device cpu" in str(info.value)
    # the command line: exit code 1 (a runtime failure), one message, no output file
    src = tmp_path / "in.fa"
    src.write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(SEQS)))
    out = tmp_path / "out.nwk"
    monkeypatch.setattr(rt, "_programs", {})  # nothing built yet: every build fails
    monkeypatch.setattr(rt, "_kernels", {})
    code = main(["-q", "tree", str(src), "-o", str(out), "--device", DEVICE])
    err = capsys.readouterr().err
    assert code == 1 and "--device cpu" in err and not out.exists()


def test_cancelled_job_leaves_no_file(tmp_path):
    from bioplug.io import atomic_output
    from bioplug.progress import Cancelled, Progress

    out = tmp_path / "out.txt"
    with pytest.raises(Cancelled), atomic_output(out) as handle:
        handle.write("partial")
        Progress(lambda *a: False).report("stage", 1, 2)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_tiny_memory_budget_splits_and_finishes(monkeypatch):
    """A device with almost no memory budget: the work is cut into many batches and the
    result does not change."""
    from skbio import Protein

    from bioplug.runtime import runtime
    from bioplug.skbio import multi_align

    seqs = [Protein(s) for s in SEQS]
    expected = multi_align(seqs, device=DEVICE).path.to_aligned(seqs)
    from bioplug.progressive.skbio_method import SkbioEngine

    monkeypatch.setattr(runtime.Runtime, "memory_budget", lambda self, fraction=0.5: 2048)
    counts = []
    original = SkbioEngine._batches
    monkeypatch.setattr(SkbioEngine, "_batches",
                        lambda self, cells: counts.append(len(original(self, cells))) or
                        original(self, cells))
    assert multi_align(seqs, device=DEVICE).path.to_aligned(seqs) == expected
    assert max(counts) > 1  # the work was split


def _in_threads(work, count: int = 2) -> list:
    results: list = [None] * count
    errors: list = []

    def run(k):
        try:
            results[k] = work(k)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


@pytest.mark.parametrize("kind", ["pairwise", "tree", "skbio_upgma", "three", "msa",
                                  "progressive"])
def test_two_threads_give_sequential_results(kind):
    rng = np.random.default_rng(3)
    if kind == "pairwise":
        from bioplug import PairwiseAligner

        def work(k):
            aligner = PairwiseAligner(device=DEVICE, mode="local" if k else "global")
            return [aligner.score(a, b) for a in SEQS for b in SEQS]
    elif kind == "tree":
        import bioplug.tree as bt

        mats = [rng.random((30, 30)) for _ in range(2)]
        mats = [m + m.T - 2 * np.diag(np.diag(m)) for m in mats]

        def work(k):
            return str(bt.nj(mats[k], device=DEVICE))
    elif kind == "skbio_upgma":
        from bioplug.skbio import upgma

        mats = [np.round(rng.random((40, 40)) * 4) for _ in range(2)]
        mats = [np.triu(m, 1) + np.triu(m, 1).T for m in mats]

        def work(k):
            return str(upgma(mats[k], device=DEVICE))
    elif kind in ("msa", "progressive"):
        from bioplug.msa.aligner import MultipleSequenceAligner
        from bioplug.progressive.aligner import ProgressiveAligner

        make = MultipleSequenceAligner if kind == "msa" else ProgressiveAligner

        def work(k):
            records = SEQS[k:] if k else SEQS[:4]
            return format(make(device=DEVICE).align(records), "fasta")
    else:
        from bioplug import score_three

        def work(k):
            return score_three(*SEQS[k:k + 3], device=DEVICE)
    sequential = [work(0), work(1)]
    for _ in range(3):
        assert _in_threads(work) == sequential


def test_a_lost_device_message_suggests_the_other_kind():
    from types import SimpleNamespace

    from bioplug.faults import device_error

    def fake(kind):
        return SimpleNamespace(info=SimpleNamespace(name=f"a {kind}", platform="P", kind=kind))

    for kind, other in (("GPU", "--device cpu"), ("CPU", "--device gpu")):
        message = str(device_error(cl.RuntimeError("clFinish failed: injected"), [fake(kind)]))
        assert f"'a {kind}' [P]" in message and other in message
