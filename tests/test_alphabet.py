"""``bioplug.alphabet.is_nucleotide`` and ``check_no_stray_letters`` against their
definitions, letter by letter."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.alphabet import (
    NUCLEOTIDE_CODES,
    check_no_stray_letters,
    is_nucleotide,
    nucleotide_checked,
    rows_are_nucleotide,
)
from bioplug.errors import InputError


def by_definition(texts: list[str]) -> bool:
    letters = [c.upper() for t in texts for c in t if c not in "-."]
    if not letters or any(c not in NUCLEOTIDE_CODES for c in letters):
        return False
    return sum(c in "ACGTUN" for c in letters) >= 0.9 * len(letters)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text("ACGTUNacgtunRYKMSWBDHV-.MKVLEQÄ*", max_size=40), max_size=6))
def test_is_nucleotide_equals_definition(texts) -> None:
    assert is_nucleotide(texts) == by_definition(texts)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5).flatmap(lambda k: st.integers(0, 12).flatmap(lambda n: st.lists(
    st.text("ACGTUNacgtunRYKMSWBDHV-.MKVLEQ*", min_size=n, max_size=n), min_size=k,
    max_size=k))))
def test_rows_are_nucleotide_equals_definition(rows) -> None:
    """The count on an alignment's uint8 rows (no text copy) decides as the definition."""
    codes = np.frombuffer("".join(rows).encode("latin-1"), np.uint8).reshape(len(rows), -1)
    assert rows_are_nucleotide(codes) == by_definition(rows)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text("ACGTUNacgtunRYKMSWBDHV-.MKVLEQ*", max_size=40), max_size=6))
def test_nucleotide_checked_is_both_in_one_pass(texts) -> None:
    """nucleotide_checked answers as is_nucleotide and refuses as check_no_stray_letters."""
    try:
        check_no_stray_letters(texts)
    except InputError as exc:
        with pytest.raises(InputError) as again:
            nucleotide_checked(texts)
        assert str(again.value) == str(exc)
        return
    assert nucleotide_checked(texts) == is_nucleotide(texts)


def test_examples() -> None:
    assert is_nucleotide(["ACGTN-acgu"])
    assert not is_nucleotide(["MKVW"])          # IUPAC letters, but a peptide by the 90 % rule
    assert not is_nucleotide(["", "--"])
    assert not is_nucleotide(["ACGTÄ"])


def first_stray_by_definition(texts: list[str]) -> tuple[int, int, str] | None:
    """(sequence, position, letter) of the first letter that is no nucleotide code, where
    at least 90 % of the letters are A, C, G, T, U or N and some letter is none."""
    letters = [c.upper() for t in texts for c in t if c not in "-."]
    if not letters or sum(c in "ACGTUN" for c in letters) < 0.9 * len(letters):
        return None
    for i, t in enumerate(texts):
        for p, c in enumerate(t):
            if c not in "-." and c.upper() not in NUCLEOTIDE_CODES:
                return i, p, c
    return None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text("ACGTUNacgtunRYKMSWBDHV-.MKVLEQÄ*J", max_size=40), max_size=6),
       st.lists(st.text("ACGTacgt", min_size=30, max_size=60), max_size=3))
def test_stray_letters_in_nucleotides_are_refused(texts, plain) -> None:
    texts = texts + plain   # more plain nucleotides: above the 90 % share more often
    stray = first_stray_by_definition(texts)
    names = [f"s{i}" for i in range(len(texts))]
    if stray is None:
        check_no_stray_letters(texts, names)
        return
    i, p, c = stray
    with pytest.raises(InputError, match=re.escape(f"s{i}: letter {c!r} at position {p + 1} "
                                                   "is not a nucleotide code")):
        check_no_stray_letters(texts, names)
    assert not is_nucleotide(texts)   # what "auto" took for protein before it was refused


def test_stray_letter_names_the_record_through_msa(tmp_path) -> None:
    """``bioplug msa`` (either method) on DNA with one stray letter: an error naming the
    file, record, position and letter, not a protein alignment."""
    from bioplug.cli import main

    path = tmp_path / "dna.fa"
    path.write_text(">d1\nACGTACGTACGTACGTACGTACGTACGTACJGTACGT\n"
                    ">d2\nACGTACGTACGTACGTACGTACGTACGTACGTACGT\n")
    for method in ("quickprobs", "progressive"):
        assert main(["-q", "msa", str(path), "-o", str(tmp_path / "out.fa"), "--method",
                     method, "--device", "cpu"]) == 2
        assert not (tmp_path / "out.fa").exists()
    assert main(["-q", "msa", str(path), "-o", str(tmp_path / "out.fa"), "--seqtype",
                 "protein", "--device", "cpu"]) == 0
