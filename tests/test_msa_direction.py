"""Sequences given in either direction (``adjust_direction=True``, ``bioplug msa
--adjust-direction``, as ``mafft --adjustdirection``).

Oracles: Biopython's reverse complements (letters, case and IUPAC codes), the simulated
family's true directions, and the alignment of the family as it was before some of its
sequences were turned (turning them back must give it exactly, rows named ``_R_<id>``).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug import MultipleSequenceAligner, ProgressiveAligner
from bioplug.cli import main
from bioplug.errors import InputError
from bioplug.msa.direction import complement, turned

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from simulate import evolve  # noqa: E402

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
PAIRS = dict(zip("ACGTUMRWSYKVHDBN", "TGCAAKYWSRMBDHVN", strict=True))


def by_hand(text: str) -> str:
    """Reverse complement from the IUPAC pairs, case kept; U pairs with A in RNA."""
    rna = "u" in text.lower() and "t" not in text.lower()
    out = []
    for c in reversed(text):
        d = PAIRS[c.upper()]
        d = "U" if rna and d == "T" else d
        out.append(d if c.isupper() else d.lower())
    return "".join(out)


@given(st.text("ACGTMRWSYKVHDBNacgtn", min_size=1, max_size=40))
def test_complement_of_dna_keeps_case_and_codes(text):
    assert complement(text) == by_hand(text)
    assert complement(complement(text)) == text


@given(st.text("ACGUNacgun", min_size=1, max_size=40))
def test_complement_of_rna_pairs_a_with_u(text):
    assert complement(text) == by_hand(text)


def family(seed: int, k: int = 16) -> tuple[list[str], list[str], np.ndarray]:
    """A simulated DNA family (about 60-75 % identity) and which members to turn."""
    names, texts, _ = evolve(k, 300, seed, scale=0.05, nucleotide=True)
    turn = np.random.default_rng(seed).random(k) < 0.4
    turn[0] = False    # the family faces its first sequence's way
    return names, texts, turn


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_turned_finds_the_turned_sequences(seed):
    names, texts, turn = family(seed)
    given_texts = [complement(t) if f else t for t, f in zip(texts, turn, strict=True)]
    np.testing.assert_array_equal(turned(given_texts, DEVICE), turn)


@pytest.mark.parametrize("make", [
    lambda: MultipleSequenceAligner(device=DEVICE, adjust_direction=True),
    lambda: ProgressiveAligner(device=DEVICE, adjust_direction=True)])
def test_turning_back_gives_the_alignment_of_the_family_as_it_was(make):
    names, texts, turn = family(5, 10)
    aligner = make()
    plain = make()
    plain.adjust_direction = False
    expected = plain.align([SeqRecord(Seq(t), id=n) for n, t in zip(names, texts,
                                                                    strict=True)])
    mixed = [SeqRecord(Seq(complement(t) if f else t), id=n, description=f"{n} gene {n}")
             for n, t, f in zip(names, texts, turn, strict=True)]
    got = aligner.align(mixed)
    assert [str(r) for r in got] == [str(r) for r in expected]
    assert [s.id for s in got.sequences] == [f"_R_{n}" if f else n
                                             for n, f in zip(names, turn, strict=True)]
    assert got.reversed_ids == [n for n, f in zip(names, turn, strict=True) if f]
    assert [s.description for s in got.sequences] == [f"gene {n}" for n in names]


def test_proteins_are_refused():
    aligner = MultipleSequenceAligner(device=DEVICE, adjust_direction=True)
    with pytest.raises(InputError, match="DNA and RNA"):
        aligner.align(["MKVLAGHWEQR", "MKVLSGHWERR", "MRVLAGHWEQK"])


def test_cli_names_turned_rows(tmp_path, capsys):
    names, texts, turn = family(7, 8)
    path = tmp_path / "mixed.fa"
    path.write_text("".join(f">{n}\n{complement(t) if f else t}\n"
                            for n, t, f in zip(names, texts, turn, strict=True)))
    for method in ("quickprobs", "progressive"):
        out = tmp_path / f"{method}.fa"
        assert main(["-q", "msa", str(path), "-o", str(out), "--adjust-direction",
                     "--method", method, "--device", DEVICE]) == 0
        got = re.findall(r">(\S+)\n(\S+)", out.read_text())
        assert [n for n, _ in got] == [f"_R_{n}" if f else n
                                       for n, f in zip(names, turn, strict=True)]
        assert [r.replace("-", "") for _, r in got] == texts
    protein = tmp_path / "p.fa"
    protein.write_text(">a\nMKVLAGHWEQR\n>b\nMKVLSGHWERR\n")
    assert main(["-q", "msa", str(protein), "-o", str(tmp_path / "gone.fa"),
                 "--adjust-direction", "--device", DEVICE]) == 2
    assert "DNA and RNA" in capsys.readouterr().err
    assert not (tmp_path / "gone.fa").exists()


@pytest.mark.parametrize("fragments", [False, True])
def test_add_turns_the_new_sequences_to_the_alignments_way(fragments):
    """``add`` with the direction adjusted turns each new sequence that faces the other way
    from the alignment (not from the others added): the result is the add of the sequences
    as they were, the turned rows named ``_R_<id>`` (``residue_columns`` too)."""
    names, texts, _ = family(9, 9)
    aligner = ProgressiveAligner(device=DEVICE, adjust_direction=True)
    base = aligner.align([SeqRecord(Seq(t), id=n) for n, t in zip(names[:5], texts[:5],
                                                                  strict=True)])
    flipped = [True, False, True, True]      # the first added one turned too
    new = [SeqRecord(Seq(complement(t) if f else t), id=n)
           for n, t, f in zip(names[5:], texts[5:], flipped, strict=True)]
    got = aligner.add(base, new, fragments=fragments)
    plain = ProgressiveAligner(device=DEVICE)
    expected = plain.add(base, [SeqRecord(Seq(t), id=n) for n, t in zip(names[5:], texts[5:],
                                                                        strict=True)],
                         fragments=fragments)
    assert [str(r) for r in got] == [str(r) for r in expected]
    turned_names = [f"_R_{n}" if f else n for n, f in zip(names[5:], flipped, strict=True)]
    assert [s.id for s in got.sequences] == names[:5] + turned_names
    assert got.reversed_ids == [n for n, f in zip(names[5:], flipped, strict=True) if f]
    assert sorted(got.residue_columns) == sorted(turned_names)
    for name, plain_name in zip(turned_names, names[5:], strict=True):
        np.testing.assert_array_equal(got.residue_columns[name],
                                      expected.residue_columns[plain_name])


def test_cli_add_fragments_adjusts_direction_and_maps_the_turned_reads(tmp_path, capsys):
    names, texts, _ = family(10, 7)
    aln = tmp_path / "ref.fa"
    aligned = ProgressiveAligner(device=DEVICE).align(
        [SeqRecord(Seq(t), id=n) for n, t in zip(names[:4], texts[:4], strict=True)])
    aln.write_text("".join(f">{s.id}\n{r}\n" for s, r in zip(aligned.sequences, aligned,
                                                             strict=True)))
    reads = tmp_path / "reads.fa"
    reads.write_text("".join(f">{n}\n{complement(t[20:200]) if i != 1 else t[20:200]}\n"
                             for i, (n, t) in enumerate(zip(names[4:], texts[4:],
                                                            strict=True))))
    out, mapped = tmp_path / "out.fa", tmp_path / "reads.map"
    assert main(["-q", "profile", str(aln), "--add-fragments", str(reads), "--adjust-direction",
                 "--map-out", str(mapped), "-o", str(out), "--device", DEVICE]) == 0
    got = re.findall(r">(\S+)\n(\S+)", out.read_text())
    assert [n for n, _ in got][4:] == [f"_R_{names[4]}", names[5], f"_R_{names[6]}"]
    assert [r.replace("-", "") for _, r in got][4:] == [t[20:200] for t in texts[4:]]
    text = mapped.read_text()
    assert f">_R_{names[4]}" in text and f">{names[5]}" in text
    first = text.split(">")[1].splitlines()
    assert first[2].split(", ")[0] == texts[4][20]     # the turned read's first letter
    assert main(["-q", "profile", str(aln), str(aln), "--adjust-direction", "-o",
                 str(tmp_path / "gone.fa"), "--device", DEVICE]) == 2
    assert "options of --add" in capsys.readouterr().err


@given(st.lists(st.booleans(), min_size=1, max_size=12), st.integers(0, 2**16))
def test_spanning_signs_recover_consistent_facings(turn, seed):
    """Facing scores that agree with some directions (positive exactly where two face
    opposite ways) give those directions back, relative to the first."""
    from bioplug.msa.direction import spanning_signs

    turn = np.array(turn)
    sign = np.where(turn, -1.0, 1.0)
    w = np.random.default_rng(seed).random((turn.size, turn.size)) + 0.1
    d = -np.outer(sign, sign) * (w + w.T)
    np.testing.assert_array_equal(spanning_signs(d), turn ^ turn[0])


def test_sequences_beyond_the_anchors_follow_them(monkeypatch):
    import bioplug.msa.direction as direction

    monkeypatch.setattr(direction, "ANCHORS", 5)
    names, texts, turn = family(12, 14)
    given_texts = [complement(t) if f else t for t, f in zip(texts, turn, strict=True)]
    np.testing.assert_array_equal(direction.turned(given_texts, DEVICE), turn)


def test_guide_tree_tips_are_the_rows_names_and_name_clashes_are_refused():
    from skbio import TreeNode

    names, texts, turn = family(5, 10)
    mixed = [SeqRecord(Seq(complement(t) if f else t), id=n)
             for n, t, f in zip(names, texts, turn, strict=True)]
    got = MultipleSequenceAligner(device=DEVICE, adjust_direction=True).align(mixed)
    tips = {t.name for t in TreeNode.read([got.guide_tree]).tips()}
    assert tips == {s.id for s in got.sequences}
    turned_one = names[int(np.flatnonzero(turn)[0])]
    mixed.append(SeqRecord(Seq(texts[0]), id=f"_R_{turned_one}"))
    with pytest.raises(InputError, match="rename one of them"):
        ProgressiveAligner(device=DEVICE, adjust_direction=True).align(mixed)


def test_reads_given_before_their_references_are_oriented(monkeypatch):
    """Anchors are the first sequence and the longest others: short reads of different
    regions first, their full-length references last (first 5 as anchors: reads that hardly
    overlap, their facings noise)."""
    import bioplug.msa.direction as direction

    monkeypatch.setattr(direction, "ANCHORS", 5)
    rng = np.random.default_rng(3)
    _, refs, _ = evolve(2, 900, 4, scale=0.03, nucleotide=True)
    starts = [0, 700, 350, 100, 550, 250, 650, 450, 20, 780]
    texts = [refs[s % 2][s:s + 90] for s in starts] + list(refs)
    turn = rng.random(len(texts)) < 0.5
    turn[0] = False
    turn[[1, 2, 3, 4, -1]] = True, False, True, False, True
    given_texts = [complement(t) if f else t for t, f in zip(texts, turn, strict=True)]
    np.testing.assert_array_equal(direction.turned(given_texts, DEVICE), turn)


def test_rna_without_u_is_complemented_as_rna():
    """A turned RNA read of A, C and G only comes back with U, not T: the family is RNA."""
    from bioplug.msa.direction import adjusted

    rna = "GGCUAGCUAGGAUCGAUCGAUUGCAGGCUUACG"
    short = "CCCGCAAGCCAGGCG"   # no U or T; turned, it faces the others' way
    records = [SeqRecord(Seq(rna), id="a"), SeqRecord(Seq(rna[:20] + "A" + rna[21:]), id="b"),
               SeqRecord(Seq(short), id="c")]
    out, flip = adjusted(records, DEVICE)
    assert flip.tolist() == [False, False, True]
    assert str(out[2].seq) == "CGCCUGGCUUGCGGG"
    assert complement("ACG") == "CGT"   # alone, a sequence with neither is DNA


@pytest.mark.parametrize("text, named, why", [
    # nucleotides but for a stray letter: refused as such before any direction is asked
    (">a\nACGTACGTTGCA\n>b\nACGTXCGTTGCA\n", "b: letter 'X' at position 5",
     "not a nucleotide code"),
    (">a\nMKVLAGHWEQR\n>b\nMKVLSGHWERR\n", "a: letter 'L' at position 4", "DNA and RNA"),
    (">a\nACGTACGTTGCA\n>b\nRYKMSWRYKMSW\n", "b: 100 % of its letters are ambiguity codes",
     "DNA and RNA")])
def test_cli_refusals_name_the_file_and_record(tmp_path, capsys, text, named, why):
    path = tmp_path / "in.fa"
    path.write_text(text)
    for method in ("quickprobs", "progressive"):
        assert main(["-q", "msa", str(path), "-o", str(tmp_path / "out.fa"),
                     "--adjust-direction", "--method", method, "--device", DEVICE]) == 2
        err = capsys.readouterr().err
        assert f"in.fa: {named}" in err and why in err and len(err.splitlines()) == 1
        assert not (tmp_path / "out.fa").exists()


def test_cli_refuses_seqtype_protein(tmp_path, capsys):
    path = tmp_path / "in.fa"
    path.write_text(">a\nACGTACGTTGCA\n>b\nTGCAACGTACGT\n")
    assert main(["-q", "msa", str(path), "-o", str(tmp_path / "out.fa"), "--adjust-direction",
                 "--seqtype", "protein", "--device", DEVICE]) == 2
    assert "not with --seqtype protein" in capsys.readouterr().err
    assert not (tmp_path / "out.fa").exists()


def test_a_tree_written_with_turned_names_guides_the_next_run():
    """``--tree-out`` of a run with the direction adjusted names the turned tips ``_R_``;
    fed back with ``--guide-tree`` (and the direction adjusted again) it is read."""
    names, texts, turn = family(5, 10)
    mixed = [SeqRecord(Seq(complement(t) if f else t), id=n)
             for n, t, f in zip(names, texts, turn, strict=True)]
    aligner = ProgressiveAligner(device=DEVICE, adjust_direction=True)
    first = aligner.align(mixed)
    again = aligner.align(mixed, guide_tree=first.guide_tree)
    assert [str(r) for r in again] == [str(r) for r in first]


def test_seqtype_dna_takes_a_family_of_many_ambiguity_codes():
    """``seqtype="dna"`` says the family is DNA: more than 10 % R / Y / K / M letters (which
    makes "auto" call it protein) are not refused; "protein" is."""
    names, texts, turn = family(6, 6)
    coded = ["".join("R" if i % 3 == 0 and c in "AG" else c for i, c in enumerate(t))
             for t in texts]
    records = [SeqRecord(Seq(t), id=n) for n, t in zip(names, coded, strict=True)]
    with pytest.raises(InputError, match="DNA and RNA"):
        ProgressiveAligner(device=DEVICE, adjust_direction=True).align(records)
    got = ProgressiveAligner(device=DEVICE, adjust_direction=True, seqtype="dna").align(records)
    assert [str(s.seq) for s in got.sequences] == coded
    with pytest.raises(InputError, match="not with seqtype protein"):
        ProgressiveAligner(device=DEVICE, adjust_direction=True, seqtype="protein").align(
            records)


def test_the_first_anchors_decide_what_they_are_sure_of_and_every_anchor_the_rest(monkeypatch):
    """``voted``: a sequence the first anchors all vote alike for, by the sure margin, is
    decided by them; any other gets every anchor's vote. With a margin nothing reaches, the
    decisions are the plain sum of all votes."""
    import bioplug.msa.direction as direction

    names, texts, _ = evolve(24, 300, 5, scale=0.15, nucleotide=True)   # some sure, some not
    turn = np.random.default_rng(5).random(24) < 0.4
    given_texts = [complement(t) if f else t for t, f in zip(texts, turn, strict=True)]
    rc = [complement(t) for t in given_texts]
    faced, seqs, seqs_rc = texts[:8], given_texts[8:], rc[8:]
    every = direction.votes(seqs, seqs_rc, faced, DEVICE)
    sure_first = every[:, :4]
    sure = (((sure_first > 0).all(axis=1) | (sure_first < 0).all(axis=1))
            & (np.abs(sure_first.sum(axis=1))
               >= direction.SURE_VOTE * 4 * np.array([len(t) for t in seqs])))
    scored = []
    real = direction.pair_scores
    monkeypatch.setattr(direction, "pair_scores",
                        lambda a, b, d, local=False: scored.append(len(a)) or real(a, b, d, local))
    got = direction.voted(seqs, seqs_rc, faced, DEVICE)
    assert 0 < sure.sum() < len(seqs)
    want = np.where(sure, sure_first.sum(axis=1), every.sum(axis=1)) > 0
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, turn[8:])
    assert sum(scored) == 2 * (4 * len(seqs) + 4 * int((~sure).sum()))
    monkeypatch.setattr(direction, "SURE_VOTE", np.inf)
    np.testing.assert_array_equal(direction.voted(seqs, seqs_rc, faced, DEVICE),
                                  every.sum(axis=1) > 0)


@pytest.mark.parametrize("kmers", [True, False])
def test_reads_added_as_fragments_are_turned(monkeypatch, kmers):
    """Reads against whole rows: those that shared k-mers place one way only are decided
    so, with no alignment; without that (kmers False: nothing placed), local scores decide
    (global ones spend the row's length in gaps either way, and a scattered alignment of a
    turned read scores nearly as well)."""
    import bioplug.msa.direction as direction

    _, rows, _ = evolve(6, 2000, 9, scale=0.02, nucleotide=True)
    rng = np.random.default_rng(9)
    starts = rng.integers(0, 1900, 16)
    reads = [rows[i % 6][s:s + 80] for i, s in enumerate(starts)]
    turn = rng.random(16) < 0.5
    given_reads = [complement(r) if f else r for r, f in zip(reads, turn, strict=True)]
    forward, backward = direction.placed_ways(rows, given_reads, [complement(r)
                                                                  for r in given_reads])
    np.testing.assert_array_equal(forward, ~turn)
    np.testing.assert_array_equal(backward, turn)
    scored = []
    real = direction.pair_scores
    monkeypatch.setattr(direction, "pair_scores",
                        lambda a, b, d, local=False: scored.append(local) or real(a, b, d, local))
    if not kmers:
        nothing = np.zeros(16, dtype=bool)
        monkeypatch.setattr(direction, "placed_ways", lambda *a: (nothing, nothing))
    got = direction.turned_to(rows, given_reads, DEVICE, fragments=True)
    np.testing.assert_array_equal(got, turn)
    assert scored == ([] if kmers else [True, True])


@pytest.mark.parametrize("flag", ["--add", "--add-fragments"])
def test_profile_refusal_names_the_file_and_record(tmp_path, capsys, flag):
    """``profile --adjust-direction`` on proteins: the message names the file and record,
    as msa's does (it said "sequence 1")."""
    (tmp_path / "aln.fa").write_text(">p1\nMKVLAAGIVG\n>p2\nMKVLSAGIVG\n")
    (tmp_path / "new.fa").write_text(">q1\nMKILAAGLVG\n")
    assert main(["-q", "profile", str(tmp_path / "aln.fa"), flag, str(tmp_path / "new.fa"),
                 "--adjust-direction", "-o", str(tmp_path / "out.fa"), "--device",
                 DEVICE]) == 2
    err = capsys.readouterr().err
    assert "aln.fa: p1: letter 'L' at position 4 is not a nucleotide code" in err
    assert not (tmp_path / "out.fa").exists()
