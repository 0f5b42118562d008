"""bioplug.distributed on PoCL with a LocalCluster of two process workers: results equal the
single-process run, a killed worker loses nothing, a rerun resumes, bad input fails with the
single-process message.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from Bio import SeqIO
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

pytest.importorskip("distributed", reason="needs the 'distributed' extra (dask[distributed])")
pytest.importorskip("pyarrow", reason="needs the 'distributed' extra (pyarrow)")
pytest.importorskip("zarr", reason="needs the 'distributed' extra (zarr)")

from distributed import Client  # noqa: E402

from bioplug.cli import main as cli_main  # noqa: E402
from bioplug.distributed import (  # noqa: E402
    align_families,
    all_vs_all,
    local_cluster,
    read_hits,
    read_scores,
)
from bioplug.distributed.cluster import device_plugin  # noqa: E402
from bioplug.distributed.pairwise import plan_tile, top_hits  # noqa: E402
from bioplug.errors import InputError  # noqa: E402
from bioplug.io import write_checked  # noqa: E402
from bioplug.msa.aligner import MultipleSequenceAligner  # noqa: E402
from bioplug.msa.batch import expand_inputs, output_paths, run_batch  # noqa: E402
from bioplug.pairwise.aligner import PairwiseAligner  # noqa: E402

AMINO = "ACDEFGHIKLMNPQRSTVWY"
SCORING = {"substitution_matrix": "BLOSUM62", "mode": "local", "open_gap_score": -11,
           "extend_gap_score": -1}
FAMILIES = {
    "fam_a": ["MKVLAAGIVGLLLAWQCSAGTEPKLVDEW", "MKVLSAGIVALLAWQSAGSEPRLIDEW",
              "MRVLAAGLVGLLSWQCTAGTEPKLVDDW", "MKILAAGIVGLFLAWSAGTEPKIVEEW"],
    "fam_b": ["GSHMKTAYIAKQRQISFVKSHFSRQ", "MKTAYIAKQRQISFVKAHFSRQLEE",
              "MKTAYLAKQRQISFVKSHFSRQ"],
    "fam_c": ["PEPTIDEWALKERSANDTHINGS", "PEPTIDEWALKRSANDTHNGS", "PEPTLDEWALKERSADTHINGS",
              "PEPTIDEWLKERSANDTHINGSA", "PEPIDEWALKERSNDTHINGS"],
}


def aligner() -> PairwiseAligner:
    from Bio.Align import substitution_matrices

    opts = dict(SCORING, substitution_matrix=substitution_matrices.load("BLOSUM62"))
    return PairwiseAligner(device="cpu", **opts)


@pytest.fixture(scope="module")
def proteins() -> list[SeqRecord]:
    rng = np.random.default_rng(7)
    return [SeqRecord(Seq("".join(rng.choice(list(AMINO), rng.integers(15, 60)))),
                      id=f"p{i}", description="") for i in range(120)]


@pytest.fixture(scope="module")
def reference(proteins) -> np.ndarray:
    return aligner().score_matrix(proteins)


@pytest.fixture(scope="module")
def cluster():
    # Two small process workers (each its own PoCL context), as a 2-GPU box has two.
    with local_cluster(devices=["cpu"], n_workers=2, dashboard_address=None) as cl:
        yield cl


@pytest.fixture()
def client(cluster):
    with Client(cluster) as c:
        c.register_plugin(device_plugin(cluster.bioplug_devices))
        c.wait_for_workers(2)
        yield c


def manifest_lines(folder: Path, name: str = "manifest.jsonl") -> list[str]:
    return (folder / name).read_text().splitlines()


def test_top_hits_breaks_ties_by_column():
    scores = np.array([[1.0, 3.0, 3.0, 2.0, 3.0], [0.0, 0.0, 0.0, 5.0, 0.0]])
    cols, vals = top_hits(scores, 2)
    assert cols.tolist() == [[1, 2], [3, 0]]
    assert vals.tolist() == [[3.0, 3.0], [5.0, 0.0]]
    assert plan_tile(10**6, 80 * 2**30, 64) == 4096  # memory allows more; the cap holds
    assert plan_tile(1000, 80 * 2**30, 2) == 167  # 6 blocks: 21 tiles >= 8 per worker


def test_matrix_equals_single_process_and_rerun_resumes(client, proteins, reference,
                                                         tmp_path):
    out = tmp_path / "matrix"
    first = all_vs_all(proteins, out, aligner=aligner(), tile=32, client=client)
    assert first.computed == first.total == 10 and first.skipped == 0
    assert np.array_equal(read_scores(out), reference)
    assert all_vs_all(proteins, out, aligner=aligner(), client=client).computed == 0
    # Forget three tiles, spoil their chunks, and cut the last line short (a crash while
    # appending): exactly those tiles run again, and the matrix is whole again.
    lines = manifest_lines(out)
    kept, lost = lines[:-4], lines[-4:-1]
    (out / "manifest.jsonl").write_text("\n".join(kept + [lines[-1][:10]]) + "\n")
    import zarr

    matrix = zarr.open_array(str(out / "scores.zarr"), mode="r+")
    matrix[:] = -1.0
    again = all_vs_all(proteins, out, aligner=aligner(), client=client)
    assert again.computed == len(lost) + 1 and again.skipped == again.total - 4
    redone = read_scores(out)
    for line in lost + [lines[-1]]:
        i, j = (int(x) for x in line.split('"key": "tile-')[1].split('"')[0].split("-"))
        assert np.array_equal(redone[i * 32:(i + 1) * 32, j * 32:(j + 1) * 32],
                              reference[i * 32:(i + 1) * 32, j * 32:(j + 1) * 32])


def test_top_hits_equal_single_process(client, proteins, reference, tmp_path):
    k = 5
    summary = all_vs_all(proteins, tmp_path / "hits", aligner=aligner(), top=k, tile=40,
                         client=client)
    assert summary.computed == summary.total == 6 + 3
    hits = read_hits(tmp_path / "hits")
    masked = reference.copy()
    np.fill_diagonal(masked, -np.inf)
    cols, vals = top_hits(masked, k)
    assert hits.column("query").to_numpy().tolist() == np.repeat(np.arange(120), k).tolist()
    assert hits.column("target").to_numpy().tolist() == cols.ravel().tolist()
    assert np.array_equal(hits.column("score").to_numpy(), vals.ravel())
    assert hits.column("query_id")[0].as_py() == "p0"
    assert not (tmp_path / "hits" / "tiles").exists()  # merged tiles leave no folder


def test_killed_worker_loses_nothing(cluster, client, proteins, reference, tmp_path):
    out = tmp_path / "killed"
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    result: dict = {}

    def job():
        result["summary"] = all_vs_all(proteins, out, aligner=aligner(), tile=12,
                                       client=client)

    worker = threading.Thread(target=job)
    worker.start()
    deadline = time.time() + 60
    while time.time() < deadline and not (
            (out / "manifest.jsonl").exists() and len(manifest_lines(out)) >= 3):
        time.sleep(0.01)
    finished_before_kill = len(manifest_lines(out))
    os.kill(victim, signal.SIGKILL)  # mid-run: its running and held tiles are lost
    worker.join(120)
    assert finished_before_kill < 55, "the job ended before the worker was killed"
    client.wait_for_workers(2)  # the nanny restarts it for the next tests
    assert victim not in client.run(os.getpid).values()
    assert result["summary"].computed == 55
    assert np.array_equal(read_scores(out), reference)
    assert len(set(manifest_lines(out))) == 55


def test_bad_sequence_same_error_as_single_process(client, proteins, tmp_path):
    bad = list(proteins[:5]) + [SeqRecord(Seq("MKTJJQ"), id="bad", description="")]
    with pytest.raises(InputError) as single:
        aligner().score_matrix(bad)
    with pytest.raises(InputError) as distributed:
        all_vs_all(bad, tmp_path / "bad", aligner=aligner(), client=client)
    assert str(distributed.value) == str(single.value)


@pytest.fixture()
def families(tmp_path) -> list[Path]:
    src = tmp_path / "in"
    src.mkdir()
    paths = []
    for name, texts in FAMILIES.items():
        paths.append(src / f"{name}.fasta")
        SeqIO.write([SeqRecord(Seq(t), id=f"{name}_{i}", description="")
                     for i, t in enumerate(texts)], paths[-1], "fasta")
    return paths


def single_batch(paths: list[Path], folder: Path) -> None:
    inputs = expand_inputs(paths)
    run_batch(MultipleSequenceAligner(device="cpu"), inputs,
              output_paths(inputs, folder, "clustal"),
              lambda aln, out, src: write_checked(aln, out, src, "clustal"))


def test_families_identical_and_resume(client, families, tmp_path):
    single_batch(families, tmp_path / "single")
    out = tmp_path / "cluster"
    first = align_families(families, out, "quickprobs", format="clustal", client=client)
    assert (first.computed, first.skipped) == (3, 0)
    for path in sorted((tmp_path / "single").iterdir()):
        assert (out / path.name).read_bytes() == path.read_bytes()
    (out / "fam_b.aln").unlink()  # lost file: its manifest entry no longer counts
    again = align_families(families, out, "quickprobs", format="clustal", client=client)
    assert (again.computed, again.skipped) == (1, 2)
    assert (out / "fam_b.aln").read_bytes() == (tmp_path / "single" / "fam_b.aln").read_bytes()


def test_bad_family_same_error_as_single_process(client, families, tmp_path):
    (families[1]).write_text(">x\nMKT#Q\n>y\nMKTQ\n")
    with pytest.raises(InputError) as single:
        single_batch(families, tmp_path / "single")
    with pytest.raises(InputError) as distributed:
        align_families(families, tmp_path / "cluster", "quickprobs", format="clustal",
                       client=client)
    assert str(distributed.value) == str(single.value)
    assert "Traceback" not in str(distributed.value)


def test_cli_cluster_address(cluster, client, families, proteins, reference, tmp_path):
    address = cluster.scheduler_address
    fasta = tmp_path / "p.fasta"
    SeqIO.write(proteins[:40], fasta, "fasta")
    assert cli_main(["-q", "pairwise", str(fasta), "--all-vs-all", "--cluster", address,
                     "--matrix", "BLOSUM62", "--mode", "local", "--gap-open", "11",
                     "--gap-extend", "1", "--top", "3", "-o", str(tmp_path / "hits")]) == 0
    assert read_hits(tmp_path / "hits").num_rows == 40 * 3
    assert cli_main(["-q", "msa", *map(str, families), "--outdir", str(tmp_path / "msa"),
                     "--cluster", address, "--method", "quickprobs"]) == 0
    assert sorted(p.name for p in (tmp_path / "msa").glob("*.fasta")) == [
        "fam_a.fasta", "fam_b.fasta", "fam_c.fasta"]


def test_cli_rerun_of_a_finished_job_starts_no_cluster(families, proteins, tmp_path,
                                                      monkeypatch, capsys):
    """--cluster starts a local cluster only for work left; the dashboard link is written
    while that cluster runs the job, and a rerun with nothing left is silent."""
    import bioplug.distributed.cluster as cluster_module

    real = cluster_module.local_cluster
    started, stderr_at_close = [], []

    def spy(*args, **kwargs):
        cluster = real(*args, dashboard_address=":0", **kwargs)
        close = cluster.close

        def closing(*a, **k):
            stderr_at_close.append(capsys.readouterr().err)
            return close(*a, **k)

        cluster.close = closing
        started.append(cluster)
        return cluster

    monkeypatch.setattr(cluster_module, "local_cluster", spy)
    # a link worth showing, bokeh installed or not
    monkeypatch.setattr(cluster_module, "has_bokeh", lambda: True)
    fasta = tmp_path / "p.fasta"
    SeqIO.write(proteins[:20], fasta, "fasta")
    runs = [["msa", *map(str, families), "--outdir", str(tmp_path / "msa"),
             "--method", "quickprobs"],
            ["pairwise", str(fasta), "--all-vs-all", "--top", "2", "-o", str(tmp_path / "hits")]]
    for argv in runs:
        assert cli_main([*argv, "--cluster", "--device", "cpu"]) == 0
        assert "Dask dashboard: http" in stderr_at_close[-1]
        assert capsys.readouterr().err == ""  # nothing after the cluster closed
        assert cli_main([*argv, "--cluster", "--device", "cpu"]) == 0  # nothing left to do
        assert capsys.readouterr().err == ""
    assert len(started) == len(stderr_at_close) == 2


def test_no_dashboard_link_without_bokeh_for_a_local_cluster(families, tmp_path, monkeypatch,
                                                            caplog):
    """A local scheduler without bokeh serves only a page asking to install it: -v does not
    log that link (the plain run already left it out)."""
    import logging

    import bioplug.distributed.cluster as cluster_module

    monkeypatch.setattr(cluster_module, "has_bokeh", lambda: False)
    with caplog.at_level(logging.DEBUG, logger="bioplug"):
        assert cli_main(["-v", "msa", *map(str, families), "--outdir", str(tmp_path / "msa"),
                         "--method", "quickprobs", "--cluster", "--device", "cpu"]) == 0
    assert "Dask dashboard: http" not in caplog.text
    assert "no Dask dashboard: bokeh is not installed" in caplog.text


def test_output_order_tree_on_the_cluster_equals_the_single_process(client, families,
                                                                   tmp_path):
    """``bioplug msa ... --outdir --output-order tree``: the workers write the rows in the
    guide tree's order, as the single process does; the order is part of the fingerprint,
    so a folder made in input order is redone."""
    argv = ["-q", "msa", *map(str, families), "--method", "quickprobs", "--device", "cpu",
            "--output-order", "tree"]
    assert cli_main([*argv, "--outdir", str(tmp_path / "one")]) == 0
    summary = align_families(families, tmp_path / "dask", "quickprobs", client=client)
    assert summary.computed == 3
    summary = align_families(families, tmp_path / "dask", "quickprobs", client=client,
                             order="tree")
    assert summary.computed == 3
    for f in families:
        name = f"{f.stem}.fasta"
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "one" / name).read_bytes()


def test_relative_paths_are_the_callers_and_the_largest_family_goes_first(
        client, families, tmp_path, monkeypatch):
    """Workers have working directories of their own: a relative input or output names the
    caller's file; tasks are submitted largest family first."""
    import bioplug.distributed.families as families_module

    submitted = []
    real = families_module.run_tasks

    def spy(c, tasks, *args, **kwargs):
        submitted.extend(task[2][0] for task in tasks)
        return real(c, tasks, *args, **kwargs)

    monkeypatch.setattr(families_module, "run_tasks", spy)
    monkeypatch.chdir(families[0].parent)
    summary = align_families([f.name for f in families], "rel_out", "quickprobs",
                             client=client)
    assert summary.computed == 3
    written = sorted(p.stem for p in (families[0].parent / "rel_out").iterdir()
                     if not p.name.startswith(("manifest", "bioplug-manifest", ".")))
    assert written == ["fam_a", "fam_b", "fam_c"]
    assert all(os.path.isabs(p) for p in submitted)
    sizes = [os.path.getsize(p) for p in submitted]
    assert sizes == sorted(sizes, reverse=True)


def test_all_vs_all_relative_folder_matrix_name_letters_and_modes(client, proteins,
                                                                   reference, tmp_path,
                                                                   monkeypatch):
    monkeypatch.chdir(tmp_path)
    old = os.umask(0o022)
    try:
        summary = all_vs_all(proteins[:30], "rel_hits", top=3, client=client, **SCORING)
    finally:
        os.umask(old)
    assert summary.computed == summary.total
    folder = tmp_path / "rel_hits"
    assert read_hits(folder).num_rows == 30 * 3
    for name in ("codes.npy", "offsets.npy", "ids.txt", "job.json"):
        assert (folder / name).stat().st_mode & 0o777 == 0o644, name
    bad = tmp_path / "bad.fa"
    bad.write_text(">x\nMKVLZZ12GIV\n>y\nMKVLGIV\n")
    with pytest.raises(InputError, match="letter '1' at position 7"):
        all_vs_all(bad, tmp_path / "bad_out", top=2, client=client, **SCORING)


def test_cluster_all_vs_all_to_standard_output_is_refused(tmp_path, capsys):
    path = tmp_path / "p.fa"
    path.write_text(">a\nMKVLAAG\n>b\nMKVLSAG\n")
    assert cli_main(["pairwise", str(path), "--all-vs-all", "--cluster", "-o", "-"]) == 2
    assert "give -o FOLDER, not standard output" in capsys.readouterr().err
    assert not (tmp_path / "-").exists() and not Path("-").exists()


# -- a database search, blocks of queries -----------------------------------------------------
def search_files(tmp_path, nq=30, nd=240):
    rng = np.random.default_rng(21)
    make = lambda n: "".join(rng.choice(list(AMINO), n))  # noqa: E731
    queries = [make(int(rng.integers(20, 120))) for _ in range(nq)]
    db = [make(int(rng.integers(30, 200))) for _ in range(nd)]
    for k in range(0, nq, 3):   # relatives of some queries
        db[k] = "GG" + queries[k][5:] + "W"
    qf, dbf = tmp_path / "q.fa", tmp_path / "db.fa"
    qf.write_text("".join(f">q{i} query {i}\n{s}\n" for i, s in enumerate(queries)))
    dbf.write_text("".join(f">d{i} entry {i}\n{s}\n" for i, s in enumerate(db)))
    return qf, dbf


def test_query_blocks_cover_the_queries():
    from bioplug.distributed.search import MIN_BLOCK, query_blocks

    sizes = np.array([100, 5, 5, 5, 300, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20])
    cuts = query_blocks(sizes, 4)
    assert cuts[0] == 0 and cuts[-1] == sizes.size and cuts == sorted(set(cuts))
    assert len(cuts) - 1 <= -(-sizes.size // MIN_BLOCK)
    assert query_blocks(np.array([7]), 8) == [0, 1]


@pytest.mark.parametrize("outfmt, matrix", [("7 std qlen stitle", "BLOSUM62"),
                                            ("6 qseqid sseqid evalue bitscore", "PAM250")])
def test_search_on_the_cluster_equals_one_process(client, tmp_path, outfmt, matrix):
    """Every query sees the whole database, so the joined parts are the single process's
    file byte for byte, E-values fitted to each query's scores (PAM250 11/1) included."""
    from bioplug.distributed import search_blocks

    qf, dbf = search_files(tmp_path)
    single = tmp_path / "single.tsv"
    assert cli_main(["-q", "search", str(qf), str(dbf), "-o", str(single), "--outfmt", outfmt,
                     "--matrix", matrix, "--top", "5", "--device", "cpu"]) == 0
    out = tmp_path / "cluster"
    summary = search_blocks(qf, dbf, out, outfmt=outfmt, client=client, blocks=3,
                            matrix=matrix, top=5)
    assert (summary.computed, summary.skipped, summary.total) == (3, 0, 3)
    assert (out / "hits.tsv").read_text() == single.read_text()
    # a rerun has nothing left; a lost part is searched again, alone
    again = search_blocks(qf, dbf, out, outfmt=outfmt, client=client, blocks=3,
                          matrix=matrix, top=5)
    assert (again.computed, again.skipped) == (0, 3)
    (out / "parts" / "block-00001.txt").unlink()
    once_more = search_blocks(qf, dbf, out, outfmt=outfmt, client=client, blocks=3,
                              matrix=matrix, top=5)
    assert (once_more.computed, once_more.skipped) == (1, 2)
    assert (out / "hits.tsv").read_text() == single.read_text()


def test_search_cli_on_the_cluster(cluster, tmp_path, capsys):
    qf, dbf = search_files(tmp_path, nq=12, nd=150)
    single = tmp_path / "single.txt"
    assert cli_main(["-q", "search", str(qf), str(dbf), "-o", str(single), "--format", "pair",
                     "--device", "cpu"]) == 0
    out = tmp_path / "run"
    assert cli_main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--format", "pair",
                     "--cluster", cluster.scheduler_address, "--device", "cpu"]) == 0
    assert (out / "hits.txt").read_text() == single.read_text()
    for extra, message in ((["--format", "sam"], "not SAM"), (["-o", "-"], "not standard")):
        args = ["-q", "search", str(qf), str(dbf), "-o", str(tmp_path / "x"), *extra,
                "--cluster", cluster.scheduler_address, "--device", "cpu"]
        assert cli_main(args) == 2
        assert message in capsys.readouterr().err
    assert cli_main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--top", "3",
                     "--format", "pair", "--cluster", cluster.scheduler_address]) == 2
    assert "another job" in capsys.readouterr().err


def test_adjust_direction_and_seqtype_reach_the_workers(cluster, client, tmp_path):
    """``--adjust-direction`` (and ``--seqtype``, which the QuickProbs workers did not get)
    on the cluster: the files are the single process's, turned rows named ``_R_``."""
    from bioplug.msa.direction import complement

    rng = np.random.default_rng(4)
    files = []
    for f in range(2):
        root = "".join(rng.choice(list("ACGT"), 120))
        texts = ["".join(c if rng.random() > 0.08 else rng.choice(list("ACGT")) for c in root)
                 for _ in range(5)]
        files.append(tmp_path / f"dna{f}.fa")
        files[-1].write_text("".join(f">s{i}\n{complement(t) if i in (1, 3) else t}\n"
                                     for i, t in enumerate(texts)))
    argv = ["-q", "msa", *map(str, files), "--method", "quickprobs", "--device", "cpu",
            "--adjust-direction", "--seqtype", "dna"]
    assert cli_main([*argv, "--outdir", str(tmp_path / "one")]) == 0
    assert cli_main([*argv, "--outdir", str(tmp_path / "dask"), "--cluster",
                     cluster.scheduler_address]) == 0
    for f in files:
        name = f"{f.stem}.fasta"
        text = (tmp_path / "one" / name).read_text()
        assert text.count(">_R_") == 2
        assert (tmp_path / "dask" / name).read_text() == text
