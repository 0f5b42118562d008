"""``bioplug.alphabet.is_nucleotide`` against its definition, letter by letter."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.alphabet import NUCLEOTIDE_CODES, is_nucleotide


def by_definition(texts: list[str]) -> bool:
    letters = [c.upper() for t in texts for c in t if c not in "-."]
    if not letters or any(c not in NUCLEOTIDE_CODES for c in letters):
        return False
    return sum(c in "ACGTUN" for c in letters) >= 0.9 * len(letters)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text("ACGTUNacgtunRYKMSWBDHV-.MKVLEQÄ*", max_size=40), max_size=6))
def test_is_nucleotide_equals_definition(texts) -> None:
    assert is_nucleotide(texts) == by_definition(texts)


def test_examples() -> None:
    assert is_nucleotide(["ACGTN-acgu"])
    assert not is_nucleotide(["MKVW"])          # IUPAC letters, but a peptide by the 90 % rule
    assert not is_nucleotide(["", "--"])
    assert not is_nucleotide(["ACGTÄ"])
