"""Adding sequences to an alignment as fragments, and keeping its length (``mafft
--addfragments`` / ``--keeplength``): ``ProgressiveAligner.add`` and ``bioplug profile``.

Oracles: ``tests/progressive_reference.py``'s profile DP (free end gaps) for each fragment's
placement against its weighted profile, the host's ``profile_columns`` for the device's
weighted profiles, Biopython's local scores for the similarities that weigh the rows, a
plain-Python layout of fragments written from the definition for
:func:`bioplug.progressive.adding.fragment_rows`, and the inputs themselves (the alignment's
rows and columns kept, every residue kept or mapped).
"""

from __future__ import annotations

import numpy as np
import progressive_reference as ref
import pytest
from Bio import Align
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_progressive_aligner import (
    DEVICE,
    PROTEIN,
    drop_gap_columns,
    moves_between,
    mutate,
    rows_of,
)

from bioplug.alphabet import load_matrix
from bioplug.cli import main
from bioplug.errors import InputError
from bioplug.progressive import ProgressiveAligner
from bioplug.progressive.adding import (
    NEIGHBOUR_SHARPNESS,
    finish,
    fragment_rows,
    map_text,
    neighbour_weights,
    similarity_scores,
    trimmed,
    with_empty_columns,
)
from bioplug.progressive.aligner import gapped_matrix, residue_gaps
from bioplug.progressive.device import GapScores, ProfileEngine
from bioplug.progressive.pipeline import Substitution, cell_bits, cell_features, profile_columns

#: The explicit scoring of the optimality oracle, end gaps left to the fragments' defaults.
SCORING = dict(PROTEIN, end_gap_open=None, end_gap_extend=None)


@pytest.fixture(scope="module")
def aligner() -> ProgressiveAligner:
    return ProgressiveAligner(device=DEVICE, distances="ktuple", refinement=0, **SCORING)


@pytest.fixture(scope="module")
def family(aligner):
    """An alignment of six related proteins, and fragments of relatives with insertions."""
    rng = np.random.default_rng(11)
    root = "".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 80))
    members = [mutate(rng, root, "ACDEFGHIKLMNPQRSTVWY", 0.2) for _ in range(6)]
    alignment = aligner.align([SeqRecord(Seq(t), id=f"m{i}") for i, t in enumerate(members)])
    pieces = []
    for i, (lo, hi) in enumerate([(0, 30), (20, 70), (50, 80), (10, 60), (35, 45)]):
        text = mutate(rng, root[lo:hi], "ACDEFGHIKLMNPQRSTVWY", 0.15)
        cut = len(text) // 2              # an insertion the alignment lacks
        pieces.append(SeqRecord(Seq(text[:cut] + "WWPPWW"[: 2 + i] + text[cut:]),
                                id=f"f{i}", description=f"fragment {i}"))
    return alignment, pieces


def weighted_optimum(old_rows: list[str], text: str, weights, moves, ends) -> tuple:
    """(reference optimum, reference score of ``moves``) of ``text`` against the rows'
    profile under ``weights`` (BLOSUM62 10 / 1, no shift)."""
    sub = Substitution.complete(load_matrix("BLOSUM62"), False, 0.0)
    as_bytes = lambda rows: np.array([list(r.encode()) for r in rows], dtype=np.uint8)  # noqa: E731
    px = profile_columns(as_bytes(old_rows), sub.letters, False, ["a"] * len(old_rows),
                         weights=weights)
    py = profile_columns(as_bytes([text]), sub.letters, False, ["b"])
    args = (len(sub.letters), sub.values, -10.0, -1.0, -ends[0], -ends[1])
    best, _ = ref.profile_dp(px, py, *args)
    return best, ref.score_of_moves(moves, px, py, *args)


@pytest.mark.parametrize("ends", [(None, None), (3.0, 1.0)])
def test_each_fragment_is_placed_optimally(family, ends) -> None:
    """Against its own profile (the rows weighed by their local scores with it); end gaps
    are free for fragments by default, end-gap penalties given are used."""
    alignment, pieces = family
    aligner = ProgressiveAligner(device=DEVICE, distances="ktuple", refinement=0,
                                 **dict(SCORING, end_gap_open=ends[0], end_gap_extend=ends[1]))
    out = aligner.add(alignment, pieces, fragments=True)
    rows = rows_of(out)
    old = rows_of(alignment)
    assert [s.id for s in out.sequences] == [s.id for s in alignment.sequences] + [
        p.id for p in pieces]
    assert drop_gap_columns(rows[:6]) == old            # the alignment's columns stay
    scores = similarity_scores([r.replace("-", "") for r in old],
                               [str(p.seq) for p in pieces], False, DEVICE)
    weights = neighbour_weights(scores, NEIGHBOUR_SHARPNESS)
    for i, piece in enumerate(pieces):
        row = rows[6 + i]
        assert row.replace("-", "") == str(piece.seq)
        pair = drop_gap_columns(rows[:6] + [row])     # other fragments' insert columns out
        best, got = weighted_optimum(old, str(piece.seq), weights[i],
                                     moves_between(pair[:6], pair[6:]),
                                     (ends[0] or 0.0, ends[1] or 0.0))
        assert got == pytest.approx(best, abs=1e-3)


def test_similarities_are_biopythons_local_scores() -> None:
    rows = ["MKVLATGHWEEILKRAG", "", "PPWQRSTDDE", "MKILASGHW"]
    added = ["ATGHWEE", "QRSTDDEW"]
    scores = similarity_scores(rows, added, False, DEVICE)
    bio = Align.PairwiseAligner(mode="local", substitution_matrix=load_matrix("BLOSUM62"),
                                open_gap_score=-11, extend_gap_score=-1)
    want = [[bio.score(a, r) if r else 0.0 for r in rows] for a in added]
    assert np.array_equal(scores, np.array(want))


def test_neighbour_weights() -> None:
    """exp(sharpness sqrt(n) (s - s_max)), each row summing to 1."""
    w = neighbour_weights(np.array([[0.0, 100.0, 50.0, 100.0], [0.0] * 4]), 0.02)
    assert np.allclose(w.sum(axis=1), 1) and w[0, 1] == w[0, 3] == w[0].max()
    assert np.allclose(w[0, 2] / w[0, 1], np.exp(-0.02 * 2 * 50)) and np.allclose(w[1], 1 / 4)


@st.composite
def weighted_cases(draw):
    n = draw(st.integers(1, 5))
    length = draw(st.integers(1, 12))
    rows = [draw(st.text("ACDKLW-", min_size=length, max_size=length)) for _ in range(n)]
    count = draw(st.integers(1, 3))
    raw = np.array(draw(st.lists(st.floats(0.01, 1.0), min_size=n * count,
                                 max_size=n * count))).reshape(count, n)
    return rows, raw / raw.sum(axis=1, keepdims=True), draw(st.booleans())


@settings(max_examples=60, deadline=None)
@given(weighted_cases())
def test_weighted_profiles_on_the_device_equal_the_hosts(case) -> None:
    """``weighted_profiles`` writes every slot as the host lays out ``profile_columns``
    (derived boundary factors and, with residue-specific gaps, the open multipliers too)."""
    from bioplug.runtime import get_runtime

    texts, weights, resgap = case
    sub = Substitution.complete(load_matrix("BLOSUM62"), False, 0.0)
    residue = residue_gaps(sub.letters) if resgap else None
    engine = ProfileEngine(get_runtime(DEVICE), sub.values, GapScores(-10, -1, 0, 0, residue))
    rows = gapped_matrix([SeqRecord(Seq(t), id=f"r{i}") for i, t in enumerate(texts)])
    ids = [f"r{i}" for i in range(len(texts))]
    cells, features = cell_features(rows, sub.letters, False, ids, residue)
    device = engine.add_weighted_profiles(cells, cell_bits(features), weights)
    host = engine.add_profiles([profile_columns(rows, sub.letters, False, ids, residue, w)
                                for w in weights], [1.0] * len(weights))
    for a, b in zip(device, host, strict=True):
        assert np.allclose(engine._pool_columns(a), engine._pool_columns(b), atol=1e-6)


def test_fragments_insertions_are_left_justified_blocks(aligner, family) -> None:
    """Each fragment's insertions sit at the start of a block as wide as the longest there;
    the blocks hold no residue of the alignment."""
    alignment, pieces = family
    out = aligner.add(alignment, pieces, fragments=True)
    arr = np.array([list(r) for r in rows_of(out)])
    inserted = (arr[:6] == "-").all(axis=0)
    assert inserted.any()
    edges = np.flatnonzero(np.diff(np.concatenate([[0], inserted.view(np.int8), [0]])))
    for lo, hi in zip(edges[::2], edges[1::2], strict=True):
        block = arr[6:, lo:hi] != "-"
        # residues first, then gaps, in every fragment's row of the block
        assert (np.sort(block, axis=1)[:, ::-1] == block).all()
        assert block[:, -1].any()                     # as wide as the longest, no wider


def test_keep_length_keeps_the_columns_and_maps_every_residue(aligner, family) -> None:
    alignment, pieces = family
    out = aligner.add(alignment, pieces, fragments=True, keep_length=True)
    rows = rows_of(out)
    assert rows[:6] == rows_of(alignment) and out.length == alignment.length
    deleted = 0
    for i, piece in enumerate(pieces):
        columns = out.residue_columns[piece.id]
        text = str(piece.seq)
        assert columns.size == len(text)
        kept = columns >= 0
        deleted += int((~kept).sum())
        assert "".join(rows[6 + i][c] for c in columns[kept]) == "".join(
            np.array(list(text))[kept])
        assert rows[6 + i].replace("-", "") == "".join(np.array(list(text))[kept])
        assert (np.diff(columns[kept]) > 0).all()
        assert out.sequences[6 + i].description == piece.description
    assert deleted >= 10                              # most of the planted insertions
    together = aligner.add(alignment, pieces, keep_length=True)     # --add --keep-length
    assert rows_of(together)[:6] == rows_of(alignment)
    assert together.length == alignment.length


def test_add_maps_residues_without_deleting(aligner, family) -> None:
    alignment, pieces = family
    for fragments in (False, True):
        out = aligner.add(alignment, pieces[:2], fragments=fragments)
        rows = rows_of(out)
        for i, piece in enumerate(pieces[:2]):
            columns = out.residue_columns[piece.id]
            assert "".join(rows[6 + i][c] for c in columns) == str(piece.seq)


class SmallBuffers:
    """A device whose buffers hold at most ``max_alloc`` bytes (PoCL's are 4 GiB: a 30 kb
    genome's profiles for 1,600 reads are more)."""

    def __init__(self, rt, max_alloc: int):
        self._rt, self.max_alloc = rt, max_alloc

    def __getattr__(self, name):
        return getattr(self._rt, name)


def test_fragments_calls_fit_the_devices_buffers(aligner, family, monkeypatch) -> None:
    """The fragments' profiles (a copy of the alignment's columns each) go to the device in
    as many calls as its buffers need, with the same result as in one."""
    from bioplug.runtime import get_runtime

    alignment, pieces = family
    whole = aligner.add(alignment, pieces, fragments=True)
    made = []

    def small_engine(self, matrix, gaps):
        rt = SmallBuffers(get_runtime(DEVICE), 0)
        made.append(ProfileEngine(rt, matrix.values, gaps))
        rt.max_alloc = 2 * alignment.length * made[-1].col_bytes   # two profiles at most
        return made[-1]

    monkeypatch.setattr(ProgressiveAligner, "_engine", small_engine)
    split = aligner.add(alignment, pieces, fragments=True)
    assert len(made) == 1
    assert rows_of(split) == rows_of(whole)
    assert all(np.array_equal(split.residue_columns[p.id], whole.residue_columns[p.id])
               for p in pieces)


def test_one_row_alignment_needs_no_similarities(monkeypatch) -> None:
    """A single reference (reads on a genome): every fragment's profile is that row, so no
    local scores are computed (they were a third of the time of 200 reads on 10 kb)."""
    import bioplug.progressive.adding as adding

    rng = np.random.default_rng(5)
    genome = "".join(rng.choice(list("ACGT"), 600))
    reads = [SeqRecord(Seq(genome[lo:lo + 120]), id=f"r{lo}") for lo in (0, 233, 480)]

    def refuse(*args, **kwargs):
        raise AssertionError("similarity_scores called for a one-row alignment")

    monkeypatch.setattr(adding, "LocalScores", refuse)
    out = ProgressiveAligner(device=DEVICE).add([genome], reads, fragments=True,
                                                keep_length=True)
    assert rows_of(out) == [genome] + ["-" * lo + genome[lo:lo + 120] + "-" * (480 - lo)
                                       for lo in (0, 233, 480)]


def layout_by_definition(rows: list[str], moves: list[list[int]], texts: list[str]) -> list[str]:
    """:func:`fragment_rows` written from its docstring, one fragment at a time."""
    length = len(rows[0]) if rows else 0
    inserts = []                      # per fragment: {block: letters}, and letter per column
    for m, text in zip(moves, texts, strict=True):
        blocks: dict[int, str] = {}
        cols: dict[int, str] = {}
        col = 0
        letters = iter(text)
        for move in m:
            if move == 2:
                blocks[col] = blocks.get(col, "") + next(letters)
            else:
                if move == 0:
                    cols[col] = next(letters)
                col += 1
        inserts.append((blocks, cols))
    width = [max((len(b.get(j, "")) for b, _ in inserts), default=0) for j in range(length + 1)]
    out = []
    for r in rows:
        out.append("".join("-" * width[j] + (r[j] if j < length else "")
                           for j in range(length + 1)))
    for blocks, cols in inserts:
        out.append("".join(blocks.get(j, "").ljust(width[j], "-") + (
            cols.get(j, "-") if j < length else "") for j in range(length + 1)))
    return out


@st.composite
def fragment_cases(draw):
    length = draw(st.integers(1, 8))
    n = draw(st.integers(1, 3))
    rows = ["".join(draw(st.lists(st.sampled_from("AC-"), min_size=length, max_size=length)))
            for _ in range(n)]
    moves, texts = [], []
    for _ in range(draw(st.integers(0, 4))):
        # a walk over the alignment's columns: each column matched (0) or skipped (1), with
        # insertions (2) before any of them and after the last
        m: list[int] = []
        for _j in range(length + 1):
            m += [2] * draw(st.integers(0, 3))
            if _j < length:
                m.append(draw(st.sampled_from([0, 1])))
        if not any(v != 1 for v in m):
            m.append(2)                       # a fragment has a residue
        moves.append(m)
        texts.append("".join(draw(st.sampled_from("xyz")) for v in m if v != 1))
    return rows, moves, texts


@settings(max_examples=300, deadline=None)
@given(fragment_cases())
@example((["A-C"], [[2, 2, 0, 1, 2, 0], [1, 2, 1, 1, 2, 2, 2]], ["abcde", "efgh"]))
def test_fragment_rows_equals_the_layout_by_definition(case) -> None:
    rows, moves, texts = case
    arr = np.array([list(r.encode()) for r in rows], dtype=np.uint8)
    out, inserted, columns = fragment_rows(arr, [np.array(m, np.uint8) for m in moves], texts)
    want = layout_by_definition(rows, moves, texts)
    assert [r.tobytes().decode() for r in out] == want
    old = ~inserted
    assert old.sum() == len(rows[0])
    assert [r.tobytes().decode() for r in out[: len(rows), old]] == rows
    # the same from the moves between each fragment's first residue and its last
    leads, cores = trimmed([np.array(m, np.uint8) for m in moves])
    for m, lead, core in zip(moves, leads, cores, strict=True):
        kept = [j for j, v in enumerate(m) if v != 1]
        assert lead == m[:kept[0]].count(1) and list(core) == m[kept[0]:kept[-1] + 1]
    again, inserted_again, columns_again = fragment_rows(arr, cores, texts, leads)
    assert np.array_equal(again, out) and np.array_equal(inserted_again, inserted)
    assert np.array_equal(columns_again, columns)
    letters = out[len(rows):] != ord("-")   # every letter's column, fragment after fragment
    assert np.array_equal(columns, np.nonzero(letters)[1])
    plain = [SeqRecord(Seq(t.replace("-", "")), id=f"s{i}") for i, t in enumerate(rows + texts)]
    for keep_length in (False, True):   # the columns given, or found in the rows: the same
        given = finish(plain, out, len(rows), inserted, keep_length, columns)
        found = finish(plain, out, len(rows), inserted, keep_length)
        assert [str(r.seq) for r in given[0]] == [str(r.seq) for r in found[0]]
        assert np.array_equal(given[1], found[1])
        assert given[2].keys() == found[2].keys()
        assert all(np.array_equal(given[2][k], found[2][k]) for k in found[2])


def test_map_text_layout() -> None:
    records = [SeqRecord(Seq("MKV"), id="a"), SeqRecord(Seq("W"), id="b"),
               SeqRecord(Seq("Q"), id="not-added")]
    text = map_text(records, {"a": np.array([0, -1, 4]), "b": np.array([2])})
    assert text == (">a\n# letter, position in the original sequence, position in the "
                    "alignment\nM, 1, 1\nK, 2, -\nV, 3, 5\n>b\n# letter, position in the "
                    "original sequence, position in the alignment\nW, 1, 3\n")


def test_map_text_titles_are_the_sequences_titles() -> None:
    """mafft --mapout heads each sequence with its whole title line."""
    records = [SeqRecord(Seq("MK"), id="r1", description="read 1 of 2"),
               SeqRecord(Seq("V"), id="r2", description="")]
    text = map_text(records, {"r1": np.array([0, 1]), "r2": np.array([-1])})
    lines = text.splitlines()
    assert (lines[0], lines[3], lines[4], lines[6]) == (">r1 read 1 of 2", "K, 2, 2", ">r2",
                                                        "V, 1, -")


def test_keep_length_warns_when_columns_of_gaps_go(aligner, caplog) -> None:
    """An alignment cannot hold columns of gaps only: under keep_length the result is
    then shorter than the alignment, which is said (mafft keeps them)."""
    out = aligner.add(["MKV--LAGHWEEIL--", "MKI--LAGHWEDIL--"], ["LAGHWEE"], fragments=True,
                      keep_length=True)
    assert out.length == 12 and rows_of(out)[2] == "---LAGHWEE--"
    assert "4 columns of the alignment hold gaps only" in caplog.text
    assert "12 columns, not 16" in caplog.text
    # given_columns puts each column back at its place: the given rows come back whole
    assert list(out.given_columns) == [0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    rows = np.array([list(r.encode()) for r in rows_of(out)], dtype=np.uint8)
    full = [r.tobytes().decode() for r in with_empty_columns(rows, out.given_columns, 16)]
    assert full == ["MKV--LAGHWEEIL--", "MKI--LAGHWEDIL--", "-----LAGHWEE----"]


def test_cli_keep_length_keeps_columns_of_gaps_only(tmp_path, monkeypatch, caplog) -> None:
    """``--keep-length`` writes exactly the given length, as mafft --keeplength does: the
    given rows byte for byte, the map numbered in OUT's columns; a format bioplug does not
    lay out itself (NEXUS) cannot hold such columns, as before."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "aln.fa").write_text(">r1\nMK--VLATG-HW\n>r2\nMK--ILASG-HW\n")
    (tmp_path / "new.fa").write_text(">f1\nVLAT\n>f2\nSGHW\n")
    for name in ("out.fa", "out.aln", "out.sto"):
        assert main(["-q", "profile", "aln.fa", "--add-fragments", "new.fa", "--keep-length",
                     "--map-out", "m.map", "-o", name, "--device", DEVICE]) == 0
    from bioplug.io import read_records

    rows = {r.id: str(r.seq) for r in read_records(tmp_path / "out.fa")}
    assert rows["r1"] == "MK--VLATG-HW" and rows["r2"] == "MK--ILASG-HW"
    assert {len(r) for r in rows.values()} == {12}
    for name, entries in read_map((tmp_path / "m.map").read_text()).items():
        for letter, _pos, col in entries:
            assert col is None or rows[name][col - 1] == letter
    assert {len(r.seq) for r in read_records(tmp_path / "out.aln")} == {12}
    assert {len(r.seq) for r in read_records(tmp_path / "out.sto")} == {12}
    assert main(["-q", "profile", "aln.fa", "--add-fragments", "new.fa", "--keep-length",
                 "-o", "out.nex", "--device", DEVICE]) == 0
    assert "hold gaps only" in caplog.text



@pytest.mark.parametrize("fragments", [False, True])
def test_add_errors_name_the_alignment_and_the_sequences(fragments) -> None:
    aligner = ProgressiveAligner(device=DEVICE)
    rows = [SeqRecord(Seq("ACGTACGTAC"), id="a"), SeqRecord(Seq("ACGTTCGTAC"), id="b")]
    with pytest.raises(InputError, match=r"ids in both the alignment and the sequences to "
                                         r"add \(a\)"):
        aligner.add(rows, [SeqRecord(Seq("ACGT"), id="a")], fragments=fragments)
    reads = [SeqRecord(Seq("ACGTAC"), id="r1"), SeqRecord(Seq("ACGTEACG"), id="r2")]
    with pytest.raises(InputError, match=r"the alignment is nucleotide, the sequences to add "
                                         r"protein \(r2: letter 'E' at position 5"):
        aligner.add(rows, reads, fragments=fragments)


# -- bioplug profile ---------------------------------------------------------------------------
@pytest.fixture()
def files(tmp_path, family, monkeypatch):
    alignment, pieces = family
    monkeypatch.chdir(tmp_path)
    (tmp_path / "aln.fa").write_text("".join(
        f">{s.id}\n{r}\n" for s, r in zip(alignment.sequences, rows_of(alignment),
                                          strict=True)))
    (tmp_path / "new.fa").write_text("".join(f">{p.id} {p.description}\n{p.seq}\n"
                                             for p in pieces))
    return tmp_path


def read_map(text: str) -> dict[str, list[tuple[str, int, int | None]]]:
    out: dict[str, list] = {}
    for line in text.splitlines():
        if line.startswith(">"):     # the title line: id, description
            name = line[1:].split()[0]
            out[name] = []
        elif not line.startswith("#"):
            letter, pos, col = (v.strip() for v in line.split(","))
            out[name].append((letter, int(pos), None if col == "-" else int(col)))
    return out


@pytest.mark.parametrize("flag", ["--add", "--add-fragments"])
def test_cli_map_out_lists_every_added_residue(tmp_path, monkeypatch, flag) -> None:
    """``--map-out`` of several added sequences: every residue with its place in the
    sequence and its column in OUT (``--add`` aligns them among themselves first: its map once
    listed their gapped rows and failed)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "aln.fa").write_text(">a\nACGTACGTAC\n>b\nACGTAC-TAC\n")
    (tmp_path / "new.fa").write_text(">c\nACGTCGTAC\n>d\nACGGTACGTA\n")
    assert main(["-q", "profile", "aln.fa", flag, "new.fa", "--map-out", "m.map", "-o",
                 "out.fa", "--device", DEVICE]) == 0
    from bioplug.io import read_records

    rows = {r.id: str(r.seq) for r in read_records(tmp_path / "out.fa")}
    given = {"c": "ACGTCGTAC", "d": "ACGGTACGTA"}
    entries = read_map((tmp_path / "m.map").read_text())
    assert entries.keys() == given.keys()
    for name, listed in entries.items():
        assert [(letter, pos) for letter, pos, _ in listed] == [
            (letter, pos) for pos, letter in enumerate(given[name], 1)]
        assert [rows[name][col - 1] for _, _, col in listed] == list(given[name])


def test_cli_add_fragments_keep_length_with_map(files, caplog) -> None:
    assert main(["-q", "profile", "aln.fa", "--add-fragments", "new.fa", "--keep-length",
                 "--map-out", "new.map", "-o", "out.fa", "--device", DEVICE,
                 "--matrix", "BLOSUM62", "--gap-open", "10", "--gap-extend", "1"]) == 0
    rows = {}
    for block in (files / "out.fa").read_text().split(">")[1:]:
        head, *lines = block.splitlines()
        rows[head.split()[0]] = "".join(lines)
    old = (files / "aln.fa").read_text().split(">")[1:]
    assert {len(r) for r in rows.values()} == {len(old[0].splitlines()[1])}
    mapping = read_map((files / "new.map").read_text())
    assert sorted(mapping) == [f"f{i}" for i in range(5)]
    deleted = 0
    for name, entries in mapping.items():
        for letter, _pos, col in entries:
            if col is None:
                deleted += 1
            else:
                assert rows[name][col - 1] == letter
        assert [p for _, p, _ in entries] == list(range(1, len(entries) + 1))
    assert deleted >= 10 and "were deleted" in caplog.text


@pytest.mark.parametrize(("args", "message"), [
    (["aln.fa", "--add", "new.fa", "--add-fragments", "new.fa"], "give one of"),
    (["aln.fa", "aln.fa", "--add-fragments", "new.fa"], "give one of"),
    (["aln.fa", "aln.fa", "--keep-length"], "options of --add"),
    (["aln.fa", "aln.fa", "--map-out", "m.map"], "options of --add"),
    (["aln.fa", "--add-fragments", "new.fa", "--map-out", "out.fa"], "the same file"),
    (["aln.fa", "--add-fragments", "new.fa", "--map-out", "new.fa"], "overwrite an input"),
])
def test_cli_add_options_refused(files, capsys, args, message) -> None:
    assert main(["-q", "profile", *args, "-o", "out.fa", "--device", DEVICE]) == 2
    assert message in capsys.readouterr().err
    assert not (files / "out.fa").exists() and not (files / "m.map").exists()


def test_cli_failed_add_leaves_no_map(files, capsys) -> None:
    (files / "bad.fa").write_text(">ok\nMKVLAG\n>bad\nMKV1AG\n")
    assert main(["-q", "profile", "aln.fa", "--add-fragments", "bad.fa", "--map-out",
                 "m.map", "-o", "out.fa", "--device", DEVICE]) == 2
    assert "bad" in capsys.readouterr().err
    assert not (files / "out.fa").exists() and not (files / "m.map").exists()


def test_fragment_defaults_free_end_gaps_and_a_shift() -> None:
    """Fragments take their own defaults (RESULTS.md, benchmarks/add.py): gap open 10 /
    extend 1, end gaps free, scores shifted by 2; values given win."""
    plain = ProgressiveAligner(device=DEVICE)
    matrix, gaps, nucleotide = plain.scoring(["MKVLAGHW", "MKVIAGHW"], fragments=True)
    small, small_gaps, _ = plain.scoring(["MKVLAGHW", "MKVIAGHW"])
    assert not nucleotide
    assert (gaps.open, gaps.extend, gaps.end_open, gaps.end_extend) == (-10, -1, 0, 0)
    assert (small_gaps.open, small_gaps.end_open) == (-14, -2)
    assert np.allclose(matrix.values, small.values + 2)
    given = ProgressiveAligner(device=DEVICE, shift=0.0, end_gap_open=3.0)
    matrix, gaps, _ = given.scoring(["MKVLAGHW"], fragments=True)
    assert np.allclose(matrix.values, small.values) and gaps.end_open == -3


def test_neighbours_cap_the_rows_and_chunk_the_pairs(monkeypatch) -> None:
    """Above NEIGHBOUR_ROWS rows a fragment weighs evenly spread rows only (the others 0);
    scores made a few pairs a call equal one call's."""
    import bioplug.progressive.adding as adding

    rows = ["MKVLATGHW", "MKILASGHW", "", "PPWQRSTDD", "MKVLATGW", "QRSTDDEW"]
    added = ["ATGHWEE", "QRSTDDEW", "MKVL"]
    whole = adding.similarity_scores(rows, added, False, DEVICE)
    monkeypatch.setattr(adding, "PAIRS_PER_CALL", 4)
    assert np.array_equal(adding.similarity_scores(rows, added, False, DEVICE), whole)
    monkeypatch.setattr(adding, "NEIGHBOUR_ROWS", 3)
    weigh = adding.Neighbours(rows, added, False, DEVICE)
    picked = [0, 3, 5]                       # the non-empty rows 0, 1, 3, 4, 5, spread
    assert list(weigh.rows) == picked
    w = weigh(1, 3)
    assert w.shape == (2, 6) and np.allclose(w.sum(axis=1), 1)
    assert (w[:, [1, 2, 4]] == 0).all()
    assert np.allclose(w[:, picked], neighbour_weights(whole[1:3][:, picked],
                                                       NEIGHBOUR_SHARPNESS))


def test_cli_says_which_options_fragments_do_not_read(files, caplog) -> None:
    """Fragments are aligned each on its own: guide-tree options are said to be unread."""
    import logging

    caplog.set_level(logging.WARNING)
    assert main(["-q", "profile", "aln.fa", "--add-fragments", "new.fa", "-o", "out.fa",
                 "--trees", "nj", "--ktuple", "--device", DEVICE]) == 0
    assert "--ktuple, --trees: not read with --add-fragments" in caplog.text
    caplog.clear()
    assert main(["-q", "profile", "aln.fa", "--add", "new.fa", "-o", "out2.fa", "--ktuple",
                 "--device", DEVICE]) == 0
    assert "not read" not in caplog.text
    # two alignments: no guide tree either
    (files / "other.fa").write_text(">o1\nMKVLAAG\n>o2\nMKILA-G\n")
    assert main(["-q", "profile", "aln.fa", "other.fa", "-o", "out3.fa", "--distances",
                 "lcs", "--device", DEVICE]) == 0
    assert "--distances: not read when aligning two alignments" in caplog.text


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**16))
@example(seed=65535)   # a turned read placed by 4 chance k-mers before PLACE_SHARE
def test_reads_scored_in_windows_equal_whole_rows(seed) -> None:
    """Nucleotide reads placed by k-mers and scored against the rows' residues in a window
    around that place get the local scores of whole rows (the oracle: LocalScores); reads
    that face the other way (no k-mer placement) are scored against whole rows."""
    import sys
    from pathlib import Path

    import bioplug.progressive.adding as adding
    from bioplug.msa.direction import complement

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from simulate import evolve

    names, texts, rows = evolve(8, 2500, seed, scale=0.02, nucleotide=True)
    gapped = gapped_matrix([SeqRecord(Seq(r), id=n) for n, r in zip(names, rows, strict=True)])
    rng = np.random.default_rng(seed)
    reads = []
    for i in range(24):
        t = texts[rng.integers(len(texts))]
        s = int(rng.integers(0, len(t) - 160))
        read = t[s:s + int(rng.integers(90, 160))]
        reads.append(complement(read) if i % 6 == 5 else read)   # every sixth turned
    picked = np.arange(len(texts))
    first, last = adding.placements(gapped, picked, reads)
    turned = np.arange(24) % 6 == 5
    assert (first[~turned] >= 0).mean() >= 0.9   # most reads placed ...
    assert (first[turned] < 0).all()             # ... none facing the other way
    whole = adding.LocalScores(texts, True, DEVICE)
    windows = adding.WindowScores(gapped, picked, whole)
    assert np.array_equal(windows(reads), whole(reads))


def _reads_of(texts, seed, count, turned_every=6):
    from bioplug.msa.direction import complement

    rng = np.random.default_rng(seed)
    reads = []
    for i in range(count):
        t = texts[rng.integers(len(texts))]
        s = int(rng.integers(0, len(t) - 160))
        read = t[s:s + int(rng.integers(90, 160))]
        if i % 4 == 1:   # an insertion of its own
            cut = len(read) // 2
            read = read[:cut] + "".join(rng.choice(list("ACGT"), 12)) + read[cut:]
        reads.append(complement(read) if i % turned_every == turned_every - 1 else read)
    return [SeqRecord(Seq(r), id=f"r{i}") for i, r in enumerate(reads)]


def _added_both_ways(monkeypatch, aln, reads):
    """``add_rows(fragments=True)`` with the reads aligned in their windows, and against the
    whole alignment (the oracle: the windows taken away); on CPU devices only."""
    import bioplug.progressive.adding as adding
    from bioplug.runtime import get_runtime

    if get_runtime(DEVICE).is_gpu:
        pytest.skip("reads are aligned in windows on CPU devices only (a GPU aligns whole "
                    "rows faster than the host places the reads)")

    placed = []
    chunk = adding._chunk_moves

    def spy(engine, cells, bits, weights, codes, spans):
        placed.append(0 if spans is None else int(spans[2].sum()))
        return chunk(engine, cells, bits, weights, codes, spans)

    monkeypatch.setattr(adding, "_chunk_moves", spy)
    windowed = ProgressiveAligner(device=DEVICE).add_rows(aln, reads, fragments=True)
    assert sum(placed) >= len(reads) // 2   # the windows were used
    monkeypatch.setattr(adding, "_chunk_moves", chunk)
    call = adding.Neighbours.__call__

    def whole(self, start, end):
        out = call(self, start, end)
        self.windows = None
        return out

    monkeypatch.setattr(adding.Neighbours, "__call__", whole)
    plain = ProgressiveAligner(device=DEVICE).add_rows(aln, reads, fragments=True)
    monkeypatch.setattr(adding.Neighbours, "__call__", call)
    return windowed, plain


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**16), one_row=st.booleans())
def test_reads_aligned_in_windows_equal_whole_alignments(monkeypatch, seed, one_row) -> None:
    """On a CPU device nucleotide reads placed by k-mers are aligned to their window of
    columns, not the whole alignment: the same rows and residue columns as against the whole
    (reads facing the other way are not placed and go whole; a one-row reference is placed
    too)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from simulate import evolve

    names, texts, rows = evolve(1 if one_row else 6, 2500, seed, scale=0.02, nucleotide=True)
    aln = [SeqRecord(Seq(r), id=n) for n, r in zip(names, rows, strict=True)]
    windowed, plain = _added_both_ways(monkeypatch, aln, _reads_of(texts, seed, 20))
    assert np.array_equal(windowed.rows, plain.rows)
    assert all(np.array_equal(windowed.residue_columns[k], plain.residue_columns[k])
               for k in plain.residue_columns)


def test_a_read_at_its_windows_edge_is_aligned_whole(monkeypatch, caplog) -> None:
    """Windows cut to the reads' own span: alignments reach their edges and are done again
    against the whole alignment, with the same result."""
    import logging
    import sys
    from pathlib import Path

    import bioplug.progressive.adding as adding

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from simulate import evolve

    caplog.set_level(logging.DEBUG, logger="bioplug.progressive.adding")
    names, texts, rows = evolve(4, 2000, 7, scale=0.02, nucleotide=True)
    aln = [SeqRecord(Seq(r), id=n) for n, r in zip(names, rows, strict=True)]
    monkeypatch.setattr(adding, "WINDOW_MARGIN", -30)   # windows shorter than the reads
    monkeypatch.setattr(adding, "WINDOW_GRID", 1)
    windowed, plain = _added_both_ways(monkeypatch, aln, _reads_of(texts, 7, 12, 99))
    assert np.array_equal(windowed.rows, plain.rows)
    assert "reach their window's edge: aligned whole" in caplog.text


def test_a_read_is_placed_on_the_columns_its_residues_span() -> None:
    """A read's place is the columns its matching residues span; repeats (a k-mer more
    often than rows indexed) do not vote, and a read of a repeat is not placed."""
    import bioplug.progressive.adding as adding

    rng = np.random.default_rng(4)
    genome = "".join(rng.choice(list("ACGT"), 3000))
    row = genome[:1000] + "-" * 40 + genome[1000:]
    gapped = np.frombuffer(row.encode(), np.uint8).reshape(1, -1)
    first, last = adding.placements(gapped, np.array([0]), [genome[1500:1600],
                                                            "ACGT" * 30, genome[990:1010]])
    assert (first[0], last[0]) == (1540, 1639)
    assert first[1] == last[1] == -1
    assert first[2] == 990 and last[2] == 1049   # across the 40 gap columns


def test_windows_on_cpu_devices_whole_rows_on_gpus(monkeypatch) -> None:
    """A GPU scores whole rows faster than the host places reads (an H200: 4,096 reads
    against 32 rows of 5 kb 0.10 s, in windows 0.93 s): windows on CPU devices only, and
    for nucleotides only."""
    import bioplug.progressive.adding as adding
    from bioplug.runtime.runtime import Runtime

    rows = ["ACGTTGCAACGTAGCTAGGATC", "ACGTTGCAACGTAGCTAGGTTC"]
    gapped = gapped_matrix([SeqRecord(Seq(r), id=f"r{i}") for i, r in enumerate(rows)])
    cpu = adding.Neighbours(rows, ["ACGTAGCTAG"], True, DEVICE, gapped=gapped)
    if not cpu.scores.engine.runtimes[0].is_gpu:
        assert isinstance(cpu.scores, adding.WindowScores)
    assert isinstance(adding.Neighbours(rows, ["MKV"], False, DEVICE, gapped=gapped).scores,
                      adding.LocalScores)
    monkeypatch.setattr(Runtime, "is_gpu", property(lambda self: True))
    assert isinstance(adding.Neighbours(rows, ["ACGTAGCTAG"], True, DEVICE,
                                        gapped=gapped).scores, adding.LocalScores)
