"""The block encoder of search databases (bioplug.pairwise.fasta.encode_fasta) against the
line-by-line reader that defines records and errors (fasta_records + encode_bytes)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bioplug.pairwise.fasta as fasta_module
from bioplug.alphabet import make_scoring
from bioplug.errors import InputError
from bioplug.pairwise.fasta import (
    encode_bytes,
    encode_fasta,
    fasta_records,
    id_hashes,
    record_label,
)

SCORING = make_scoring("BLOSUM62", local=True)
MASK = (1 << 64) - 1


def mix(z: int) -> int:
    """splitmix64's finaliser."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def id_hash(name: bytes) -> int:
    """id_hashes' definition for one id, a byte at a time."""
    total = 0
    for j, byte in enumerate(name + b"\n"):
        total += (byte + 1) * (mix((j + 0x9E3779B97F4A7C15) & MASK) | 1)
    return mix((total & MASK) ^ ((len(name) * 0xC2B2AE3D27D4EB4F) & MASK))


def line_by_line(path):
    names, codes = [], []
    for number, (name, raw, line) in enumerate(fasta_records(path), 1):
        codes.append(encode_bytes(SCORING, raw, record_label(path, number, name, line)))
        names.append(name)
    return names, codes


def blocks(path, block, titles=None, workers=None):
    names, codes, lengths = [], [], []
    for got in encode_fasta(path, SCORING, block, workers):
        # what the index writes: an id and a title a line, the titles' sizes beside them,
        # and each id's hash
        ids = got.ids.split(b"\n")[:-1]
        names += [i.decode("utf-8") for i in ids]
        assert len(got) == len(ids) == got.lengths.size
        assert got.id_hashes.dtype == np.uint64
        assert got.id_hashes.tolist() == [id_hash(i) for i in ids]
        assert got.id_sizes.tolist() == [len(i) + 1 for i in ids]
        codes.append(got.codes)
        lengths.append(got.lengths)
        lines = got.titles.split(b"\n")[:-1]
        assert got.title_sizes.tolist() == [len(t) + 1 for t in lines]
        if titles is not None:
            titles += lines
    flat = np.concatenate(codes) if codes else np.zeros(0, np.uint8)
    sizes = np.concatenate(lengths) if lengths else np.zeros(0, np.int64)
    return names, np.split(flat, np.cumsum(sizes)[:-1]) if len(names) else []


def header_lines(text: bytes) -> list[bytes]:
    """Every header line after its ">", white space around it removed."""
    return [line[1:].strip() for line in text.replace(b"\r\n", b"\n").split(b"\n")
            if line.startswith(b">")]


def outcome(read, *args):
    try:
        names, codes = read(*args)
    except InputError as exc:
        return "error", str(exc)
    return names, [c.tolist() for c in codes]


SPACE = st.sampled_from([b"", b"", b"", b" ", b"\t", b"  ", b"\r", b"\x0c"])
NAME = st.binary(min_size=0, max_size=6).map(lambda b: b.replace(b"\n", b"").replace(b">", b""))
RESIDUES = st.text("ACDEFGHIKLMNPQRSTVWYBZX*acdwy", min_size=0, max_size=40).map(str.encode)
ODD = st.sampled_from([b"1", b"#", b"\xc3\xa9", b" ", b"-", b"."])


@st.composite
def fasta_text(draw):
    lines = []
    clean = draw(st.booleans())   # residues and line ends only: the block encoder's own path
    space = st.just(b"") if clean else SPACE
    if draw(st.booleans()):   # before the first header: blank lines, comments, or not FASTA
        lines += draw(st.lists(st.sampled_from([b"", b"  ", b";comment", b"ACD"]), max_size=2))
    for _ in range(draw(st.integers(0, 6))):
        lines.append(b">" + draw(space) + draw(NAME) + draw(st.sampled_from([b"", b" desc x"])))
        for _ in range(draw(st.integers(0, 3))):
            body = draw(RESIDUES)
            if not clean and draw(st.integers(0, 3)) == 0:   # a letter outside the alphabet
                at = draw(st.integers(0, len(body)))
                body = body[:at] + draw(ODD) + body[at:]
            lines.append(draw(space) + body + draw(space))
        if draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from([b"", b";note"])))
    end = draw(st.sampled_from([b"\n", b"\r\n"]))
    return end.join(lines) + (end if draw(st.booleans()) else b"")


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=fasta_text(), block=st.sampled_from([1, 2, 7, 64, 1 << 20]),
       workers=st.sampled_from([1, 3]))
def test_blocks_give_the_line_readers_records_and_errors(tmp_path, text, block, workers):
    path = tmp_path / "db.fa"
    path.write_bytes(text)
    titles = []
    got = outcome(blocks, path, block, titles, workers)
    assert got == outcome(line_by_line, path)
    if got[0] != "error":   # the titles the index keeps (BLAST's stitle)
        assert titles == header_lines(text)


@pytest.mark.parametrize("text, message", [
    (b"ACD\n>a\nACD\n", "line 1 comes before the first '>' header"),
    (b">a\nAC D\n", "letter ' ' at position 3"),
    (b">a\nACD\n>b\n>c\nA\n", "record 2 ('b', line 3): empty sequence"),
    (b">a\nAC\n>\nAJ\n", "record 2 ('record3', line 3): letter 'J' at position 2"),
])
def test_errors_name_the_record_line_and_letter(tmp_path, text, message):
    path = tmp_path / "db.fa"
    path.write_bytes(text)
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        for _ in encode_fasta(path, SCORING, 4):
            pass


def test_a_record_longer_than_the_block_and_crlf(tmp_path):
    seq = "ACDEFGHIKLMNPQRSTVWY" * 50
    text = "".join(f">s{i} d\r\n" + "\r\n".join(seq[j:j + 60] for j in range(0, len(seq), 60))
                   + "\r\n" for i in range(3))
    path = tmp_path / "db.fa"
    path.write_bytes(text.encode())
    names, codes = blocks(path, 100)
    assert names == ["s0", "s1", "s2"]
    assert all(c.size == len(seq) for c in codes)
    assert outcome(blocks, path, 100) == outcome(line_by_line, path)


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_many_blocks_on_threads_give_the_line_readers_records(tmp_path, end):
    """The numpy path for headers (ids and titles without Python per record) over many
    blocks encoded on threads: ids with UniProt's bars, descriptions with tabs, ids that
    are not UTF-8, wrapped sequences."""
    rng = np.random.default_rng(7)
    letters = np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY", dtype=np.uint8)
    parts = []
    for i in range(3000):
        name = f"sp|P{i:05d}|X_HUMAN".encode() if i % 7 else b"id\xff\xc3\xa9%d" % i
        desc = [b"", b" Protein kinase\tOS=Homo sapiens", b"\tx  y"][i % 3]
        seq = letters[rng.integers(0, 20, int(rng.integers(1, 200)))].tobytes()
        lines = [seq[j:j + 60] for j in range(0, len(seq), 60)]
        parts.append(end.join([b">" + name + desc, *lines]) + end)
    text = b"".join(parts)
    path = tmp_path / "db.fa"
    path.write_bytes(text)
    titles = []
    got = outcome(blocks, path, 4096, titles, 4)
    assert got == outcome(line_by_line, path)
    assert len(got[0]) == 3000 and titles == header_lines(text)


@settings(max_examples=300, deadline=None)
@given(ids=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=8)
       | st.lists(st.text(max_size=12).map(lambda t: t.replace("\n", " ").encode()),
                  max_size=8))
def test_id_hashes_are_each_ids_own_hash(ids):
    """The numpy passes over a block's ids give each id the hash of its bytes alone
    (non-UTF-8, tabs, empty ids included), whatever ids surround it."""
    got = id_hashes(b"".join(i + b"\n" for i in ids))
    assert got.dtype == np.uint64 and got.tolist() == [id_hash(i) for i in ids]
    for k, name in enumerate(ids):
        assert id_hashes(name + b"\n").tolist() == [got[k]]


def test_both_paths_hash_the_ids_they_write(tmp_path, monkeypatch):
    """A block the numpy passes read and one read by Python per record (white space before
    a title here) write the same ids, with the same hashes."""
    names = [b"sp|P%05d|X_HUMAN" % i for i in range(50)] + [b"\xc3\xa9t\xc3\xa9", b"id\xff"]
    per_record = []
    real = fasta_module._block_of_records
    monkeypatch.setattr(fasta_module, "_block_of_records",
                        lambda *args: per_record.append(1) or real(*args))
    got = {}
    for space in (b"", b" "):
        path = tmp_path / "db.fa"
        path.write_bytes(b"".join(b">" + space + n + b" some\ttitle\nACDW\n" for n in names))
        per_record.clear()
        read = list(encode_fasta(path, SCORING))
        assert len(per_record) == (len(read) if space else 0)
        got[space] = (b"".join(b.ids for b in read),
                      [h for b in read for h in b.id_hashes.tolist()])
    assert got[b""] == got[b" "]
    ids = got[b""][0].split(b"\n")[:-1]   # the byte that is not UTF-8 as U+FFFD
    assert ids[-1] == "id\ufffd".encode() and got[b""][1] == [id_hash(i) for i in ids]


def test_a_block_holds_no_string_per_record(tmp_path):
    """An index of hundreds of millions of records keeps no Python string per id: the
    numpy passes make none."""
    path = tmp_path / "db.fa"
    path.write_bytes(b"".join(b">s%d d\nACDW\n" % i for i in range(100)))
    read = list(encode_fasta(path, SCORING))
    assert sum(map(len, read)) == 100
    for block in read:
        assert not [k for k, v in vars(block).items() if isinstance(v, (list, tuple))]
