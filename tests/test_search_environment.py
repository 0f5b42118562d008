"""``bioplug search`` in the environments an audit tried: several jobs indexing one new
database at once, file names that are not UTF-8, queries and databases given as pipes, and an
ASCII locale (``LC_ALL=C`` with ``PYTHONUTF8=0``).

Runs on PoCL by default (``BIOPLUG_TEST_DEVICE`` as in ``test_pairwise_search.py``).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from shell_pipes import shell_pipe

from bioplug.cli import main
from bioplug.pairwise.database import index_dir, index_dirs, open_database
from bioplug.pairwise.search import search, search_scoring

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
AMINO = "ACDEFGHIKLMNPQRSTVWY"


def proteins(seed: int, count: int, longest: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return ["".join(rng.choice(list(AMINO), int(rng.integers(5, longest))))
            for _ in range(count)]


def write_fasta(path: Path, seqs: list[str], prefix: str) -> Path:
    path.write_bytes("".join(f">{prefix}{k} protein {k}\n{s}\n"
                             for k, s in enumerate(seqs)).encode())
    return path


@pytest.fixture
def small(tmp_path):
    """3 queries, a database of 2,000 short proteins holding pieces of them."""
    queries = proteins(1, 3, 60)
    db = proteins(2, 2000, 40)
    for k, q in enumerate(queries):
        db[100 * k + 7] = q[3:30]
    return (write_fasta(tmp_path / "q.fa", queries, "q"),
            write_fasta(tmp_path / "db.fa", db, "s"))


def cli(*argv: str) -> int:
    return main(["-q", "search", *map(str, argv), "--device", DEVICE])


# -- several searches indexing one database at once ------------------------------------------
#: Each process runs ``bioplug search``, held once its index is written until all have written
#: theirs, so that every one publishes at the same moment (what array jobs do by chance). The
#: pauses stand for a busy node stopping a process between two steps: after it removes a
#: folder (as the old code removed an index another search had just published) and before it
#: reads an index.
RACER = textwrap.dedent("""
    import os, shutil, sys, time
    from pathlib import Path
    import bioplug.pairwise.database as database
    gate, count = Path(sys.argv[1]), int(sys.argv[2])
    write_json, load, rmtree = database._write_json, database._load, shutil.rmtree

    def held(target, data):
        write_json(target, data)
        if target.name == "header.json" and ".tmp-" in target.parent.name:
            (gate / str(os.getpid())).touch()
            end = time.monotonic() + 30
            while len(list(gate.iterdir())) < count and time.monotonic() < end:
                time.sleep(0.002)

    def paused_rmtree(*args, **kwargs):
        rmtree(*args, **kwargs)
        time.sleep(0.2)

    def paused_load(*args):
        time.sleep(0.1)
        return load(*args)

    database._write_json, database._load, shutil.rmtree = held, paused_load, paused_rmtree
    from bioplug.cli import main
    sys.exit(main(["-q", "--no-server", "search", *sys.argv[3:]]))
""")


def test_searches_indexing_one_database_at_once_all_succeed(tmp_path, small):
    """Four processes index one new database at once: every one succeeds with the same hits,
    one index is left beside the database and none in the user cache (a search used to
    remove the index another had just renamed into place, which then failed to read it)."""
    qf, dbf = small
    gate = tmp_path / "gate"
    gate.mkdir()
    env = dict(os.environ, BIOPLUG_NO_SERVER="1")
    jobs = [subprocess.Popen([sys.executable, "-c", RACER, str(gate), "4", str(qf), str(dbf),
                              "-o", str(tmp_path / f"hits{k}.tsv"), "--device", DEVICE],
                             stderr=subprocess.PIPE, env=env) for k in range(4)]
    errors = [job.communicate(timeout=300)[1].decode() for job in jobs]
    assert [job.returncode for job in jobs] == [0] * 4, errors
    outputs = {(tmp_path / f"hits{k}.tsv").read_text() for k in range(4)}
    assert len(outputs) == 1 and "q0\ts7\t" in outputs.pop()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("db.fa")) == [
        "db.fa", "db.fa.bioplug-idx"]   # no temporary or stale folder left
    assert not index_dirs(dbf)[1].exists()   # no second index in the cache


def test_a_stale_index_is_moved_aside_not_replaced_under_its_reader(tmp_path, small):
    """A search still holding the old index keeps reading the old database (its residues and
    titles) while another rebuilds the index of the changed file."""
    qf, dbf = small
    scoring = search_scoring()
    old = open_database(dbf, scoring)
    first = old.sequence(5).copy()
    dbf.write_text(">other one\nMKVLAAGIVGW\n")
    new = open_database(dbf, scoring)
    assert len(new) == 1 and new.title([0]) == {0: "other one"}
    assert old.title([5]) == {5: "s5 protein 5"}
    np.testing.assert_array_equal(old.sequence(5), first)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("db.fa")) == [
        "db.fa", "db.fa.bioplug-idx"]


# -- names that are not UTF-8 ----------------------------------------------------------------
def test_a_database_name_that_is_not_utf8(tmp_path, small):
    """A database named in Latin-1 bytes (``prot\\xe9ines.fa``) is searched as any other;
    reports show the byte escaped (the index's cache key used to raise UnicodeEncodeError)."""
    qf, dbf = small
    raw = os.fsencode(tmp_path) + b"/prot\xe9ines.fa"
    try:
        with open(raw, "wb") as handle:
            handle.write(dbf.read_bytes())
    except OSError as err:   # a file system that keeps names as UTF-8 only
        pytest.skip(f"this file system refuses a Latin-1 name ({err})")
    latin = os.fsdecode(raw)
    plain, odd = tmp_path / "plain.tsv", tmp_path / "odd.tsv"
    assert cli(qf, dbf, "-o", plain) == 0
    assert cli(qf, latin, "-o", odd) == 0
    assert odd.read_text() == plain.read_text() != ""
    assert os.path.isdir(os.fsencode(index_dir(latin)))
    assert len({d.parent for d in index_dirs(Path(latin))}) == 2
    assert cli(qf, latin, "-o", odd, "--outfmt", "7 std") == 0   # read from its index
    assert "# Database: " + str(tmp_path) + "/prot\\xe9ines.fa\n" in odd.read_text()


# -- pipes -----------------------------------------------------------------------------------
@contextlib.contextmanager
def named_pipe(path: Path, data: bytes):
    """A named pipe at ``path`` that a thread feeds ``data`` once a reader opens it. A reader
    that opens it again is given an empty stream rather than left waiting for a writer."""
    os.mkfifo(path)
    done = threading.Event()

    def feed():
        with contextlib.suppress(BrokenPipeError), open(path, "wb") as pipe:
            pipe.write(data)
        while not done.wait(0.05):   # later readers: an end of file, not a hang
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        done.set()
        reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)   # frees a writer still waiting
        end = time.monotonic() + 10
        while writer.is_alive() and time.monotonic() < end:
            with contextlib.suppress(BlockingIOError):
                os.read(reader, 1 << 16)
            writer.join(0.01)
        os.close(reader)


@pytest.mark.parametrize("kind", ["named pipe", "shell <(...)"])
@pytest.mark.parametrize("fmt", ["tsv", "sam"])
def test_queries_from_a_pipe_are_read_as_a_file(tmp_path, small, kind, fmt):
    """Queries from a pipe give the hits a file gives, SAM (which reads them again) too;
    the pipe has been read to its end when the search returns."""
    qf, dbf = small
    want, got = tmp_path / f"want.{fmt}", tmp_path / f"got.{fmt}"
    assert cli(qf, dbf, "-o", want) == 0
    pipe = (named_pipe(tmp_path / "queries", qf.read_bytes()) if kind == "named pipe"
            else shell_pipe(qf.read_bytes()))
    with pipe as path:
        assert cli(path, dbf, "-o", got) == 0
    assert got.read_text() == want.read_text() != ""


def test_the_python_search_reads_queries_from_a_named_pipe(tmp_path, small):
    qf, dbf = small
    with named_pipe(tmp_path / "queries", qf.read_bytes()) as path:
        got = search(path, dbf, top=3, device=DEVICE)
    assert got.tabular() == search(qf, dbf, top=3, device=DEVICE).tabular()


def test_a_database_from_a_pipe_is_refused_by_name(tmp_path, small, capsys):
    """A database's index is kept beside its file: a pipe is refused (exit 2) before the
    queries are read, saying to write it to a file."""
    qf, dbf = small
    with named_pipe(tmp_path / "db", dbf.read_bytes()) as path:
        assert cli(qf, path, "-o", tmp_path / "hits.tsv") == 2
    err = capsys.readouterr().err
    assert (f"{path}: is a pipe, not a file: the database is indexed beside its FASTA; "
            "write it to a file first") in err
    assert not (tmp_path / "hits.tsv").exists() and not index_dir(path).exists()


# -- an ASCII locale -------------------------------------------------------------------------
def test_ids_that_are_not_ascii_in_an_ascii_locale(tmp_path):
    """With ``LC_ALL=C`` and ``PYTHONUTF8=0`` (Python's text files then default to ASCII) an
    id such as ``protéine1`` is indexed, read back from the index and written as UTF-8."""
    db = tmp_path / "db.fa"
    db.write_bytes(">prot\xc3\xa9ine1 first\nMKVLAAGIVGLLLAQW\n>b\nMKVLAQGIVW\n"
                   .encode("latin-1"))
    env = dict(os.environ, LC_ALL="C", LANG="C", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0",
               BIOPLUG_NO_SERVER="1", PYTHONIOENCODING="")
    outputs = []
    for k in range(2):   # the first builds the index, the second reads it
        out = tmp_path / f"hits{k}.tsv"
        done = subprocess.run([sys.executable, "-m", "bioplug", "-q", "--no-server", "search",
                               str(db), str(db), "-o", str(out), "--device", DEVICE],
                              env=env, capture_output=True, timeout=300)
        assert done.returncode == 0, done.stderr.decode()
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("protéine1\tprotéine1\t100.000".encode())
