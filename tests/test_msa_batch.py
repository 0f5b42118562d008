"""Many families per call on PoCL: batch CLI vs one call per file, align_many vs align, bad
files in a batch, the read-ahead thread, the on-disk program binary cache and start-up imports.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from Bio import SeqIO
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.cli import main as cli_main
from bioplug.errors import InputError
from bioplug.msa import aligner as aligner_module
from bioplug.msa.aligner import MultipleSequenceAligner
from bioplug.msa.batch import expand_inputs, output_paths

ROOT = Path(__file__).resolve().parents[1]

# Three small protein families (different sizes and lengths, so different program buckets
# and guide trees); small enough for PoCL.
FAMILIES = {
    "fam_a": ["MKVLAAGIVGLLLAWQCSAGTEPKLVDEW", "MKVLSAGIVALLAWQSAGSEPRLIDEW",
              "MRVLAAGLVGLLSWQCTAGTEPKLVDDW", "MKILAAGIVGLFLAWSAGTEPKIVEEW"],
    "fam_b": ["GSHMKTAYIAKQRQISFVKSHFSRQ", "MKTAYIAKQRQISFVKAHFSRQLEE",
              "MKTAYLAKQRQISFVKSHFSRQ"],
    "fam_c": ["PEPTIDEWALKERSANDTHINGS", "PEPTIDEWALKRSANDTHNGS", "PEPTLDEWALKERSADTHINGS",
              "PEPTIDEWLKERSANDTHINGSA", "PEPIDEWALKERSNDTHINGS"],
}


def write_family(folder: Path, name: str, texts: list[str], suffix: str = ".fasta") -> Path:
    path = folder / f"{name}{suffix}"
    SeqIO.write([SeqRecord(Seq(t), id=f"{name}_{i}", description="")
                 for i, t in enumerate(texts)], path, "fasta")
    return path


@pytest.fixture()
def families(tmp_path) -> list[Path]:
    src = tmp_path / "in"
    src.mkdir()
    return [write_family(src, name, texts) for name, texts in FAMILIES.items()]


def single_outputs(paths: list[Path], folder: Path, fmt: str = "fasta", ext: str = "fasta"):
    """One CLI call per file, the way users loop over files: the oracle for the batch."""
    folder.mkdir()
    out = {}
    for p in paths:
        target = folder / f"{p.stem}.{ext}"
        assert cli_main(["-q", "msa", str(p), "-o", str(target), "--format", fmt,
                         "--device", "cpu"]) == 0
        out[p.stem] = target.read_bytes()
    return out


def leftovers(folder: Path) -> list[str]:
    """Temporary files an interrupted atomic write would leave."""
    return [p.name for p in folder.iterdir() if p.name.startswith(".")]


def test_batch_cli_writes_the_files_single_calls_write(families, tmp_path):
    expected = single_outputs(families, tmp_path / "single")
    outdir = tmp_path / "batch"
    assert cli_main(["-q", "msa", *map(str, families), "--outdir", str(outdir),
                     "--device", "cpu"]) == 0
    assert sorted(p.name for p in outdir.iterdir()) == [f"{s}.fasta" for s in sorted(expected)]
    for stem, data in expected.items():
        assert (outdir / f"{stem}.fasta").read_bytes() == data, stem

    # a folder stands for its sequence files (not the .xml beside them); clustal gets .aln
    (families[0].parent / "fam_a.xml").write_text("<reference/>")
    expected_aln = single_outputs(families[:2], tmp_path / "single_aln", "clustal", "aln")
    outdir2 = tmp_path / "batch_aln"
    assert cli_main(["-q", "msa", str(families[0].parent), "--outdir", str(outdir2),
                     "--format", "clustal", "--device", "cpu"]) == 0
    assert sorted(p.name for p in outdir2.iterdir()) == ["fam_a.aln", "fam_b.aln", "fam_c.aln"]
    for stem, data in expected_aln.items():
        assert (outdir2 / f"{stem}.aln").read_bytes() == data, stem


def test_align_many_equals_align(families):
    aligner = MultipleSequenceAligner(device="cpu")
    records = [SeqRecord(Seq(t), id=f"r{i}") for i, t in enumerate(FAMILIES["fam_c"])]
    inputs = [str(families[0]), records, families[1]]
    seen = []
    many = aligner.align_many(inputs, progress=lambda s, d, t: seen.append((s, d, t)))
    single = [MultipleSequenceAligner(device="cpu").align(x) for x in inputs]
    assert len(many) == 3
    for a, b in zip(many, single, strict=True):
        assert format(a, "fasta") == format(b, "fasta")
        assert np.array_equal(a.coordinates, b.coordinates)
        assert [s.id for s in a.sequences] == [s.id for s in b.sequences]
    assert [e for e in seen if e[0] == "families"] == [("families", i, 3) for i in range(4)]
    assert any(e[0].startswith("I ") for e in seen)  # each family's own stages are reported
    assert aligner.align_many([]) == []


def test_bad_file_in_a_batch_cli(families, tmp_path):
    bad = families[0].parent / "fam_bad.fasta"
    bad.write_text(">x\nMKV1LAAG\n>y\nMKVLAAG\n")  # '1' is no amino acid
    inputs = [families[0], bad, families[1]]
    expected = single_outputs([families[0], families[1]], tmp_path / "single")

    stop = tmp_path / "stop"
    assert cli_main(["-q", "msa", *map(str, inputs), "--outdir", str(stop),
                     "--device", "cpu"]) == 2
    # stopped at the bad file: the family before it is complete, nothing after it
    assert sorted(p.name for p in stop.iterdir()) == ["fam_a.fasta"]
    assert (stop / "fam_a.fasta").read_bytes() == expected["fam_a"]

    # the real command (a separate process: exit code and stderr after the fast exit)
    keep = tmp_path / "keep"
    proc = subprocess.run(
        [sys.executable, "-m", "bioplug", "-q", "msa", *map(str, inputs), "--outdir",
         str(keep), "--keep-going", "--device", "cpu"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2, proc.stderr
    assert str(bad) in proc.stderr and "1 of 3 families failed" in proc.stderr
    assert f"ERROR: {bad}" in proc.stderr   # a family that failed is an error, not a warning
    assert sorted(p.name for p in keep.iterdir()) == ["fam_a.fasta", "fam_b.fasta"]
    for stem in ("fam_a", "fam_b"):
        assert (keep / f"{stem}.fasta").read_bytes() == expected[stem]
    assert leftovers(stop) == [] and leftovers(keep) == []


def test_bad_file_in_align_many(families, tmp_path, caplog):
    missing = tmp_path / "nowhere.fasta"
    aligner = MultipleSequenceAligner(device="cpu")
    with pytest.raises(InputError, match=str(missing)):
        aligner.align_many([families[0], missing, families[1]])
    with caplog.at_level(logging.WARNING, logger="bioplug.msa.aligner"):
        out = aligner.align_many([families[0], missing, families[1]], keep_going=True)
    assert out[1] is None and out[0] is not None and out[2] is not None
    assert [r.index for r in aligner.last_errors] == [1]
    assert isinstance(aligner.last_errors[0].error, InputError)
    assert str(missing) in str(aligner.last_errors[0].error)
    assert str(missing) in caplog.text
    # an input that is not a path is named by its position
    out = aligner.align_many([[SeqRecord(Seq("MKV"), id="a"), SeqRecord(Seq("MK1"), id="b")]],
                             keep_going=True)
    assert out == [None] and str(aligner.last_errors[0].error).startswith("input 1: ")


def test_next_file_is_read_while_the_current_one_aligns(families, monkeypatch):
    started: dict[int, threading.Event] = {i: threading.Event() for i in range(3)}
    order = {Path(p): i for i, p in enumerate(families)}
    real_prepare, real_run = aligner_module.prepare_records, aligner_module.pipeline.run
    overlapped = []

    def prepare(item):
        started[order[Path(item)]].set()
        return real_prepare(item)

    calls = iter(range(3))

    def run(*args, **kwargs):
        i = next(calls)
        if i + 1 < 3:  # a sequential reader would only start after this returns
            overlapped.append(started[i + 1].wait(timeout=20))
        return real_run(*args, **kwargs)

    monkeypatch.setattr(aligner_module, "prepare_records", prepare)
    monkeypatch.setattr(aligner_module.pipeline, "run", run)
    out = MultipleSequenceAligner(device="cpu").align_many(families)
    assert overlapped == [True, True] and all(a is not None for a in out)


def test_batch_inputs_and_output_names(tmp_path):
    a = tmp_path / "x" / "fam.fasta"
    b = tmp_path / "y" / "fam.tfa"
    for p in (a, b):
        p.parent.mkdir()
        p.write_text(">s\nMKV\n")
    (tmp_path / "x" / ".hidden.fasta").write_text(">s\nMKV\n")
    (tmp_path / "x" / "fam.xml").write_text("<x/>")
    assert expand_inputs([tmp_path / "x", b]) == [a, b]
    with pytest.raises(InputError, match="would both be written"):
        output_paths([a, b], tmp_path / "out", "fasta")
    with pytest.raises(InputError, match="overwrite an input"):
        output_paths([a], tmp_path / "x", "fasta")
    assert output_paths([b], tmp_path / "y", "fasta") == [tmp_path / "y" / "fam.fasta"]
    assert output_paths([a], tmp_path, "stockholm") == [tmp_path / "fam.sto"]
    with pytest.raises(InputError, match="no such file"):
        expand_inputs([tmp_path / "missing.fasta"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no sequence files"):
        expand_inputs([tmp_path / "empty"])
    # several inputs need --outdir; -o and --outdir exclude each other
    assert cli_main(["msa", str(a), str(b), "-o", str(tmp_path / "o.fa"),
                     "--device", "cpu"]) == 2
    with pytest.raises(SystemExit):
        cli_main(["msa", str(a), "-o", "o.fa", "--outdir", str(tmp_path)])


def test_programs_load_from_the_binary_cache(caplog, monkeypatch):
    from bioplug.runtime import get_runtime
    from bioplug.runtime.runtime import Runtime

    info = get_runtime("cpu").info
    if "Portable Computing Language" in info.platform:
        # PoCL keeps source builds (test_pocl_keeps_source_builds); the binary path itself
        # must still work where a device keeps binaries
        from bioplug.runtime import runtime
        monkeypatch.setattr(runtime, "keeps_binaries",
                            lambda info: runtime._binary_cache_enabled())
    source = "msa_profile.cl"
    Runtime(info).program(source)  # built, or already cached by an earlier run
    with caplog.at_level(logging.DEBUG, logger="bioplug.runtime.runtime"):
        fresh = Runtime(info)  # a new context with an empty in-process cache
        fresh.program(source)
    assert "msa_profile.cl : binary cache hit" in caplog.text
    assert fresh.kernel(source, "align_nodes") is not None
    caplog.clear()
    monkeypatch.setenv("PYOPENCL_NO_CACHE", "1")  # the user's switch turns it off
    with caplog.at_level(logging.DEBUG, logger="bioplug.runtime.runtime"):
        Runtime(info).program(source)
    assert "binary cache" not in caplog.text


def test_pocl_keeps_source_builds(caplog, monkeypatch):
    # a binary from PoCL compiles every kernel of the program (~1 s each): a fresh machine's
    # first runs would spend most of their time there
    from bioplug.runtime import get_runtime
    from bioplug.runtime.devices import list_devices
    from bioplug.runtime.runtime import Runtime, keeps_binaries

    pocl = [d for d in list_devices() if "Portable Computing Language" in d.platform]
    others = [d for d in list_devices() if d not in pocl]
    assert not any(keeps_binaries(d) for d in pocl)
    assert all(keeps_binaries(d) for d in others)
    monkeypatch.setenv("PYOPENCL_NO_CACHE", "1")
    assert not any(keeps_binaries(d) for d in others)   # the user's switch still rules
    monkeypatch.delenv("PYOPENCL_NO_CACHE")
    info = get_runtime("cpu").info
    if info not in pocl:
        pytest.skip(f"the CPU device is not PoCL's ({info.platform})")
    with caplog.at_level(logging.DEBUG, logger="bioplug.runtime.runtime"):
        fresh = Runtime(info)
        fresh.program("msa_profile.cl")
    assert "binary cache" not in caplog.text
    assert fresh.kernel("msa_profile.cl", "align_nodes") is not None


def test_msa_command_imports_stay_small():
    # start-up cost of every `bioplug msa` call: none of these is needed to align a family
    code = ("import sys, bioplug.cli as c; c.build_parser(); import bioplug.msa.aligner, "
            "bioplug.msa.batch; heavy = [m for m in ('scipy', 'skbio', 'pandas', 'PySide6', "
            "'Bio.Phylo', 'bioplug.tree.phylo', 'bioplug.tree.distance', 'matplotlib') "
            "if m in sys.modules]; print(heavy)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_blas_threads_left_to_the_user():
    code = ("import os, sys, bioplug.cli as c; assert 'numpy' not in sys.modules; "
            "c._quiet_blas_threads(); print(os.environ['OPENBLAS_NUM_THREADS'])")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    for given, expected in ((None, "1"), ("3", "3")):
        run_env = {**env, "PYTHONPATH": str(ROOT)}
        if given:
            run_env["OPENBLAS_NUM_THREADS"] = given
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=ROOT, env=run_env, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == expected


def test_batch_progressive_option_takes_the_progressive_method(families, tmp_path, caplog):
    """`bioplug msa A B C --outdir D --gap-open 3` (--method auto): an option only the
    progressive method reads chooses it for every family, said at WARNING; the files are
    those of --method progressive. Without --format, the files are FASTA (.fasta)."""
    caplog.set_level(logging.WARNING)
    out = tmp_path / "auto"
    assert cli_main(["-q", "msa", *map(str, families), "--outdir", str(out),
                     "--gap-open", "3", "--device", "cpu"]) == 0
    assert "--gap-open given: aligning with --method progressive" in caplog.text
    forced = tmp_path / "forced"
    assert cli_main(["-q", "msa", *map(str, families), "--outdir", str(forced),
                     "--gap-open", "3", "--method", "progressive", "--device", "cpu"]) == 0
    for p in families:
        text = (out / f"{p.stem}.fasta").read_text()
        assert text.startswith(">") and text == (forced / f"{p.stem}.fasta").read_text()


def test_batch_refuses_an_unwritable_format_before_any_family(families, tmp_path, capsys):
    out = tmp_path / "out"
    assert cli_main(["-q", "msa", *map(str, families), "--outdir", str(out), "--format",
                     "hhr", "--device", "99:99"]) == 2
    assert "cannot write format 'hhr'" in capsys.readouterr().err
    assert not out.exists()
