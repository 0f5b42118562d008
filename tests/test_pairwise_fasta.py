"""The block encoder of search databases (bioplug.pairwise.fasta.encode_fasta) against the
line-by-line reader that defines records and errors (fasta_records + encode_bytes)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.alphabet import make_scoring
from bioplug.errors import InputError
from bioplug.pairwise.fasta import encode_bytes, encode_fasta, fasta_records, record_label

SCORING = make_scoring("BLOSUM62", local=True)


def line_by_line(path):
    names, codes = [], []
    for number, (name, raw, line) in enumerate(fasta_records(path), 1):
        codes.append(encode_bytes(SCORING, raw, record_label(path, number, name, line)))
        names.append(name)
    return names, codes


def blocks(path, block, titles=None, workers=None):
    names, codes, lengths = [], [], []
    for got in encode_fasta(path, SCORING, block, workers):
        names += got.names
        codes.append(got.codes)
        lengths.append(got.lengths)
        # what the index writes: an id and a title a line, the titles' sizes beside them
        assert got.ids.decode("utf-8").split("\n")[:-1] == got.names
        lines = got.title_lines()
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
