"""Iterative refinement of progressive alignments (``bioplug.progressive.refine``).

Oracles: the sum-of-pairs objective against a per-pair double loop written from its
definition (module docstring); refinement never lowers the objective, keeps every row's
residues, and is what ``ProgressiveAligner(refine=...)`` applies.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.alphabet import load_matrix
from bioplug.progressive import ProgressiveAligner
from bioplug.progressive.device import GapScores
from bioplug.progressive.guide import guide_tree
from bioplug.progressive.pipeline import Substitution, scoring_table
from bioplug.progressive.refine import refine, sp_objective, tree_splits

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from simulate import evolve  # noqa: E402

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
GAPS = GapScores(-10.0, -1.0, -2.0, -0.5)
MATRIX = Substitution.complete(load_matrix("BLOSUM62"), False)


def objective_by_pairs(rows: list[str], matrix: Substitution, gaps: GapScores) -> float:
    """The objective from its definition, pair by pair and column by column."""
    table = scoring_table(matrix.letters, False)
    total = 0.0
    for i, a in enumerate(rows):
        inside = [j for j, c in enumerate(a) if c != "-"]
        first, last = (inside[0], inside[-1]) if inside else (len(a), -1)
        for j, b in enumerate(rows):
            if i == j:
                continue
            for c, (x, y) in enumerate(zip(a, b, strict=True)):
                if x != "-" and y != "-" and i < j:
                    total += matrix.values[table[ord(x)], table[ord(y)]]
                elif x == "-" and y != "-":
                    end = c < first or c > last
                    start = c == 0 or a[c - 1] != "-"
                    total += gaps.end_extend if end else gaps.extend
                    if start:
                        total += (gaps.end_open - gaps.end_extend) if end else (
                            gaps.open - gaps.extend)
    return total


def as_rows(texts: list[str]) -> np.ndarray:
    return np.array([np.frombuffer(t.encode(), np.uint8) for t in texts])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6).flatmap(lambda k: st.integers(1, 12).flatmap(
    lambda L: st.lists(st.text("ACDW-", min_size=L, max_size=L), min_size=k, max_size=k))))
def test_objective_equals_pairwise_definition(rows) -> None:
    expected = objective_by_pairs(rows, MATRIX, GAPS)
    assert sp_objective(as_rows(rows), MATRIX, GAPS, False) == pytest.approx(expected)


def test_tree_splits_are_the_edges() -> None:
    texts = ["MKVLA", "MKVIA", "MRVLG", "WWKVL", "WWKVI", "PPPKV"]
    link = guide_tree(texts, False, 4000, DEVICE, distances="ktuple")
    splits = tree_splits(link, len(texts))
    assert splits.shape == (2 * len(texts) - 3, len(texts))   # edges of the unrooted tree
    sizes = splits.sum(axis=1)
    assert (sizes > 0).all() and (sizes < len(texts)).all()
    canon = {tuple(s) if s[0] else tuple(~s) for s in splits}
    assert len(canon) == len(splits)                              # each split once
    for leaf in range(len(texts)):                                # every leaf's own edge
        alone = np.arange(len(texts)) == leaf
        assert tuple(alone) in canon or tuple(~alone) in canon


def family(seed: int, k: int, length: int = 60) -> list[str]:
    _, texts, _ = evolve(k, length, seed, scale=0.3)
    return list(texts)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_refinement_never_lowers_the_objective(seed) -> None:
    texts = family(seed, 12)
    base = ProgressiveAligner(device=DEVICE, refinement=0, seqtype="protein").align(texts)
    rows = as_rows([base[i] for i in range(len(texts))])
    link = guide_tree(texts, False, 4000, DEVICE, distances="ktuple")
    before = sp_objective(rows, MATRIX, GAPS, False)
    out = refine(rows, link, MATRIX, GAPS, False, DEVICE, rounds=6, seed=seed)
    assert sp_objective(out, MATRIX, GAPS, False) >= before
    for row, text in zip(out, texts, strict=True):       # residues kept, in order
        assert row[row != ord("-")].tobytes().decode() == text
    assert not (out == ord("-")).all(axis=0).any()        # no all-gap column


def test_aligner_refines_small_families_by_default() -> None:
    texts = family(4, 10)
    plain = ProgressiveAligner(device=DEVICE, refinement=0).align(texts)
    refined = ProgressiveAligner(device=DEVICE).align(texts)
    matrix = Substitution.complete(load_matrix("PFASUM43"), False)
    gaps = GapScores(-14.0, -0.75, -2.0, -0.25)          # the small-family defaults

    def score(aln):
        return sp_objective(as_rows([aln[i] for i in range(len(texts))]), matrix, gaps, False)

    assert score(refined) >= score(plain)
    for aln in (plain, refined):
        assert [aln[i].replace("-", "") for i in range(len(texts))] == texts


def test_bad_refine_setting() -> None:
    from bioplug.errors import InputError

    with pytest.raises(InputError, match="refinement"):
        ProgressiveAligner(refinement=-1)


def test_best_of_trees_keeps_the_higher_objective() -> None:
    """``trees=("upgma", "nj")`` returns the candidate, aligned along one tree alone, with the
    higher sum-of-pairs objective (rows and guide tree), UPGMA on a tie."""
    texts = family(5, 12)
    kw = dict(device=DEVICE, refinement=4)
    best = ProgressiveAligner(trees=("upgma", "nj"), **kw)
    matrix, gaps, _ = best.scoring(texts)
    alone = {t: ProgressiveAligner(trees=t, **kw).align(texts) for t in ("upgma", "nj")}

    def score(aln):
        return sp_objective(as_rows([aln[i] for i in range(len(texts))]), matrix, gaps, False)

    want = max(("upgma", "nj"), key=lambda t: (score(alone[t]), t == "upgma"))
    got = best.align(texts)
    assert [got[i] for i in range(len(texts))] == [alone[want][i] for i in range(len(texts))]
    assert got.guide_tree == alone[want].guide_tree
    assert alone["upgma"].guide_tree != alone["nj"].guide_tree   # two different trees here


def test_tree_candidates_by_family_size() -> None:
    """Small protein families try UPGMA and NJ; large ones and nucleotides UPGMA only; two
    sequences have no NJ tree and align as before."""
    aligner = ProgressiveAligner(device=DEVICE)
    assert aligner.tree_methods(99, False) == ("upgma", "nj")
    assert aligner.tree_methods(100, False) == ("upgma",)
    assert aligner.tree_methods(10, True) == ("upgma",)
    assert ProgressiveAligner(trees="nj").tree_methods(10, False) == ("nj",)
    pair = aligner.align(["MKVLWAHE", "MKVWAHE"])
    assert pair[1] == "MKV-WAHE"


def test_bad_trees_setting() -> None:
    from bioplug.errors import InputError

    for bad in ("sl", (), ("upgma", "parttree")):
        with pytest.raises(InputError, match="trees"):
            ProgressiveAligner(trees=bad)
