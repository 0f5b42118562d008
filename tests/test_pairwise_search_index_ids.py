"""The ids of a search database's index (bioplug.pairwise.database): checked for repeats from
64-bit hashes of their bytes, made on the encoding threads, without a Python string per id;
only ids whose hashes repeat are read back from ids.txt and compared.

No device: building an index is host work."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bioplug.pairwise.database as database_module
import bioplug.pairwise.fasta as fasta_module
from bioplug.alphabet import make_scoring
from bioplug.errors import InputError
from bioplug.pairwise.database import check_distinct_ids, open_database
from bioplug.runtime import host_memory

SCORING = make_scoring("BLOSUM62", local=True)
#: Repeats: 'a' (records 1 and 3), 'b' (2, 5), 'c' (4, 7), 'd' (6, 8), 'e' (9, 10).
REPEATED = ["a", "b", "a", "c", "b", "d", "c", "d", "e", "e", "f"]


def write_db(path, names, odd=False):
    """One record per name; ``odd``: a space after each sequence line, which sends the file
    through the line reader (Python per record) instead of the numpy passes."""
    end = " \n" if odd else "\n"
    path.write_text("".join(f">{n} a title\nMKVLAQW{end}" for n in names), encoding="utf-8")
    return path


def constant_hashes(ids: bytes, sizes=None) -> np.ndarray:
    """Every id one hash: every pair of ids collides."""
    return np.zeros(ids.count(b"\n"), dtype=np.uint64)


def refusal(call) -> str:
    with pytest.raises(InputError) as caught:
        call()
    return str(caught.value)


@pytest.mark.parametrize("odd", [False, True])
@pytest.mark.parametrize("collide", [False, True])
def test_duplicate_ids_named_as_the_queries_are(tmp_path, monkeypatch, odd, collide):
    """The index's refusal is check_distinct_ids' text for the list of ids, with or without
    hashes that collide for different ids, from either encoding path."""
    if collide:
        monkeypatch.setattr(fasta_module, "id_hashes", constant_hashes)
    path = write_db(tmp_path / "db.fa", REPEATED, odd)
    message = refusal(lambda: open_database(path, SCORING))
    assert message == (f"{path}: duplicate database ids 'a' (records 1 and 3); 'b' (records "
                       "2 and 5); 'c' (records 4 and 7); and 2 more: search output names "
                       "hits by id, so ids must be unique")
    assert message == refusal(lambda: check_distinct_ids(REPEATED, "database", str(path)))
    assert not database_module.index_dir(path).exists()
    assert [p.name for p in tmp_path.iterdir()] == ["db.fa"]   # no temporary folder left


@pytest.mark.parametrize("odd", [False, True])
def test_colliding_hashes_of_different_ids_are_no_duplicates(tmp_path, monkeypatch, odd):
    """Ids that differ are told apart from ids.txt wherever their hashes are equal."""
    monkeypatch.setattr(fasta_module, "id_hashes", constant_hashes)
    names = ["sp|P1|A", "sp|P1|B", "é", "e", "x", "tr|Q9|Z"]
    db = open_database(write_db(tmp_path / "db.fa", names, odd), SCORING)
    assert list(db.ids) == names and len(db) == len(names)


def test_query_ids_with_given_hashes():
    """Queries are checked from Python's hashes; given hashes decide which ids are
    compared, never whether two ids are one."""
    zeros = np.zeros(4, dtype=np.uint64)
    check_distinct_ids(["a", "b", "c", "d"], "query", "q.fa", zeros)
    assert database_module.repeated_ids(["a", "b", "c", "a"], zeros) == {"a": (0, 3)}
    assert database_module.repeated_ids(["a", "b"], np.arange(2)) == {}
    assert database_module.repeated_ids([], np.zeros(0, dtype=np.uint64)) == {}
    assert "duplicate query id 'q1' (records 1 and 3)" in refusal(
        lambda: check_distinct_ids(["q1", "q2", "q1"], "query", "q.fa"))


def test_the_build_keeps_no_string_per_id(tmp_path, monkeypatch):
    """When the ids are checked, the build holds a few arrays of 8 bytes a record, not a
    list of the ids (a str of 40 characters is 89 bytes, its place in a list 8 more)."""
    n = 200_000
    path = tmp_path / "db.fa"
    path.write_bytes(b"".join(b">sp|P%06d|LONG_ENTRY_NAME_OF_A_HUMAN_GENE d\nMKV\n" % i
                              for i in range(n)))
    held = []
    real = database_module.check_distinct_ids

    def measured(ids, *args):
        held.append((tracemalloc.get_traced_memory()[0], type(ids)))
        return real(ids, *args)

    monkeypatch.setattr(database_module, "check_distinct_ids", measured)
    # the file's hash is read beside the build a few MB at a time: not what is measured
    monkeypatch.setattr(database_module, "_sha256", lambda path, stop=None: "")
    tracemalloc.start()
    try:
        db = open_database(path, SCORING)
    finally:
        tracemalloc.stop()
    assert len(db) == n and db.ids[n - 1] == f"sp|P{n - 1:06d}|LONG_ENTRY_NAME_OF_A_HUMAN_GENE"
    ((memory, kind),) = held
    assert kind is database_module.IndexLines
    assert memory < 40 * n, f"{memory / n:.0f} bytes a record"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=60), st.integers(1, 40))
def test_sorted_codes_equal_each_sequence_in_length_order(tmp_path_factory, sizes, block):
    """The index's residues shortest first (ties in file order), whatever the block size:
    every block holds runs of several lengths, gathered as rows of sliding windows (an index
    holds one record or more, none empty)."""
    lengths = np.array(sizes, dtype=np.int64)
    rng = np.random.default_rng(len(sizes) * 41 + block)
    codes = rng.integers(0, 24, int(lengths.sum()), dtype=np.uint8)
    tmp = tmp_path_factory.mktemp("sorted")
    codes.tofile(tmp / "unsorted.u8")
    database_module._sort_codes(tmp, lengths, block=block)
    starts = np.concatenate([[0], np.cumsum(lengths)])
    order = sorted(range(len(sizes)), key=lambda k: (sizes[k], k))
    want = b"".join(codes[starts[k]:starts[k + 1]].tobytes() for k in order)
    assert (tmp / "codes.u8").read_bytes() == want
    assert np.fromfile(tmp / "order.i64", dtype=np.int64).tolist() == order
    offsets = np.fromfile(tmp / "offsets.i64", dtype=np.int64)
    assert offsets.tolist() == [0, *np.cumsum([sizes[k] for k in order]).tolist()]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=60), st.integers(1, 80),
       st.integers(1, 40))
def test_sorted_codes_in_bands_equal_the_sort_in_memory(tmp_path_factory, sizes, budget,
                                                        chunk):
    """Residues beyond the memory budget are sorted in bands, each from one pass over the
    unsorted file read in pieces: the same files as the sort from the page cache, whatever
    the band and piece sizes."""
    lengths = np.array(sizes, dtype=np.int64)
    rng = np.random.default_rng(len(sizes) * 43 + budget + 7 * chunk)
    codes = rng.integers(0, 24, int(lengths.sum()), dtype=np.uint8)
    files, banded, real = {}, [], database_module._write_sorted_banded
    database_module._write_sorted_banded = lambda *args: banded.append(1) or real(*args)
    try:
        for way, kwargs in (("memory", {"budget": 1 << 40}),
                            ("bands", {"budget": budget, "chunk": chunk})):
            tmp = tmp_path_factory.mktemp(way)
            codes.tofile(tmp / "unsorted.u8")
            database_module._sort_codes(tmp, lengths, **kwargs)
            files[way] = {name: (tmp / name).read_bytes()
                          for name in ("codes.u8", "order.i64", "rank.i64", "offsets.i64")}
    finally:
        database_module._write_sorted_banded = real
    assert files["bands"] == files["memory"]
    assert banded == ([1] if budget < lengths.sum() else [])


def test_memory_budget_reads_this_machines_limits():
    """A positive budget, at most half of what /proc/meminfo calls available (where it is)."""
    budget = database_module._memory_budget()
    assert budget > 0
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        available = next(int(line.split()[1]) * 1024 for line in
                         meminfo.read_text().splitlines() if line.startswith("MemAvailable"))
        assert budget <= available // 2 * 1.05


def test_cgroup_room_reads_v1_and_v2_limits(tmp_path):
    """What a cgroup's limit leaves, its page cache not counted: v2's memory.max (none when
    "max"), v1's hierarchical limit from memory.stat (a parent's counts too)."""
    v2 = tmp_path / "v2"
    v2.mkdir()
    (v2 / "memory.stat").write_text("anon 400\nfile 100\n")
    (v2 / "memory.current").write_text("600\n")
    (v2 / "memory.max").write_text("1000\n")
    assert host_memory.room_under(v2, "memory.max", "memory.current", "file") == [500]
    (v2 / "memory.max").write_text("max\n")
    assert host_memory.room_under(v2, "memory.max", "memory.current", "file") == []
    v1 = tmp_path / "v1"
    v1.mkdir()
    (v1 / "memory.stat").write_text("total_cache 300\nhierarchical_memory_limit 2000\n")
    (v1 / "memory.usage_in_bytes").write_text("800\n")
    assert host_memory.room_under(v1, "hierarchical_memory_limit", "memory.usage_in_bytes",
                                 "total_cache") == [1500]
    assert host_memory.room_under(tmp_path / "none", "memory.max", "memory.current",
                                 "file") == []
