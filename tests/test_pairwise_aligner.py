"""bioplug.PairwiseAligner against Bio.Align.PairwiseAligner (PoCL).

Oracle: Biopython's own aligner for scores; every alignment bioplug returns is rescored by
:func:`rescore`, an independent walk over its coordinates with Biopython's gap rules.
"""

from __future__ import annotations

import os
import pickle
import re

import numpy as np
import pytest
from Bio import Align
from Bio.Align import substitution_matrices
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.alphabet import GAP_FIELDS
from bioplug.errors import InputError
from bioplug.pairwise.aligner import EngineAlignments, PairwiseAligner

BioAligner = Align.PairwiseAligner  # captured before any test swaps it
PROTEIN = "ARNDCQEGHILKMFPSTWYV"
DNA = "ACGT"
MATRICES = {
    name: substitution_matrices.load(name) for name in ("BLOSUM62", "PAM250", "NUC.4.4")
}
SETTINGS = settings(
    max_examples=int(os.environ.get("BIOPLUG_EXAMPLES", 30)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# -- independent rescoring -------------------------------------------------------------------
def rescore(target: str, query: str, coords, aligner) -> float:
    """Score of an alignment path under an aligner's settings, computed from scratch.

    Walks the coordinate columns: a step that advances both sequences scores its letter
    pairs; one that advances only the target is a deletion (gap in the query), only the query
    an insertion (gap in the target). A gap of length k scores ``open + (k - 1) * extend``
    with the left / right end scores when the gapped sequence's position is at its start /
    end (global mode), the internal scores otherwise and always in local mode.
    """
    coords = np.asarray(coords)
    local = aligner.mode == "local"
    matrix = aligner.substitution_matrix

    def pair_score(a: str, b: str) -> float:
        if matrix is not None:
            return float(matrix[a, b])
        return aligner.match_score if a == b else aligner.mismatch_score

    def gap(kind: str, where: str, length: int) -> float:
        if local:
            where = "internal"
        opening = getattr(aligner, f"open_{where}_{kind}_score")
        extend = getattr(aligner, f"extend_{where}_{kind}_score")
        return opening + (length - 1) * extend

    total = 0.0
    for k in range(coords.shape[1] - 1):
        t0, q0 = coords[:, k]
        t1, q1 = coords[:, k + 1]
        dt, dq = t1 - t0, q1 - q0
        if dt and dq:
            assert dt == dq, "diagonal steps advance both sequences equally"
            total += sum(pair_score(target[t0 + i], query[q0 + i]) for i in range(dt))
        elif dq:  # insertion: gap in the target at target position t0
            where = "left" if t0 == 0 else "right" if t0 == len(target) else "internal"
            total += gap("insertion", where, dq)
        elif dt:  # deletion: gap in the query at query position q0
            where = "left" if q0 == 0 else "right" if q0 == len(query) else "internal"
            total += gap("deletion", where, dt)
    return total


def check_alignment(alignment, target: str, query: str, aligner, expected: float) -> None:
    """The alignment is a valid path for the pair and rescoring gives the expected score."""
    coords = np.asarray(alignment.coordinates)
    assert coords.shape[0] == 2
    assert (np.diff(coords, axis=1) >= 0).all()
    if aligner.mode == "global":
        assert tuple(coords[:, 0]) == (0, 0)
        assert tuple(coords[:, -1]) == (len(target), len(query))
    else:
        assert coords[0, -1] <= len(target) and coords[1, -1] <= len(query)
    assert alignment.score == pytest.approx(expected, abs=1e-9)
    assert rescore(target, query, coords, aligner) == pytest.approx(expected, abs=1e-9)


# -- strategies ------------------------------------------------------------------------------
GAP_VALUES = [0.0, -0.5, -1.0, -2.0, -3.0, -5.0, -10.0, -11.0]


@st.composite
def schemes(draw):
    """(settings dict, alphabet) for both aligners."""
    mode = draw(st.sampled_from(["global", "semiglobal", "local"]))
    matrix_name = draw(st.sampled_from([None, "BLOSUM62", "PAM250", "NUC.4.4"]))
    kw: dict = {}
    if matrix_name is None:
        kw["match_score"] = draw(st.sampled_from([1.0, 2.0, 5.0, 1.5]))
        kw["mismatch_score"] = draw(st.sampled_from([0.0, -1.0, -2.0, -4.0, -0.5]))
        alphabet = draw(st.sampled_from([DNA, PROTEIN]))
    else:
        kw["substitution_matrix"] = MATRICES[matrix_name]
        alphabet = DNA if matrix_name == "NUC.4.4" else PROTEIN
    opening = draw(st.sampled_from(GAP_VALUES[1:]))
    extend = draw(st.sampled_from([v for v in GAP_VALUES if v >= opening]))
    kw["open_gap_score"], kw["extend_gap_score"] = opening, extend
    if mode == "semiglobal":
        kw["end_gap_score"] = 0.0
    elif mode == "global" and draw(st.booleans()):  # asymmetric end gaps
        for end in ("left", "right"):
            for kind in ("insertion", "deletion"):
                o = draw(st.sampled_from(GAP_VALUES))
                e = draw(st.sampled_from(GAP_VALUES))
                kw[f"open_{end}_{kind}_score"] = o
                kw[f"extend_{end}_{kind}_score"] = e
    kw["mode"] = "local" if mode == "local" else "global"
    return kw, alphabet


def texts(alphabet: str, min_size: int = 1, max_size: int = 400):
    lengths = st.one_of(
        st.integers(min_size, min(max_size, 30)), st.integers(min_size, max_size)
    )
    return lengths.flatmap(
        lambda n: st.text(alphabet=alphabet, min_size=n, max_size=n)
    )


def related(alphabet: str):
    """Pairs of sequences, often one derived from the other (so alignments have gaps)."""

    @st.composite
    def build(draw):
        a = draw(texts(alphabet))
        if draw(st.booleans()):
            b = draw(texts(alphabet))
        else:
            b = list(a)
            for _ in range(draw(st.integers(0, 12))):
                i = draw(st.integers(0, max(len(b) - 1, 0)))
                op = draw(st.sampled_from("sdi"))
                if op == "s" and b:
                    b[i] = draw(st.sampled_from(alphabet))
                elif op == "d" and len(b) > 1:
                    del b[i : i + draw(st.integers(1, 6))]
                else:
                    b[i:i] = draw(st.text(alphabet=alphabet, min_size=1, max_size=6))
            b = "".join(b) or alphabet[0]
        return a, b

    return build()


def both(kw: dict) -> tuple[PairwiseAligner, Align.PairwiseAligner]:
    ours = PairwiseAligner(device="cpu", **kw)
    theirs = BioAligner(**kw)
    return ours, theirs


# -- property tests ----------------------------------------------------------------------------
@SETTINGS
@given(data=st.data())
def test_batches_match_biopython(data):
    kw, alphabet = data.draw(schemes())
    pairs = data.draw(st.lists(related(alphabet), min_size=1, max_size=4))
    ours, theirs = both(kw)
    targets = [a for a, _ in pairs]
    queries = [b for _, b in pairs]
    expected = np.array([theirs.score(a, b) for a, b in pairs])
    assert ours.device_scoring(targets + queries) is not None
    np.testing.assert_array_equal(ours.score_many(targets, queries), expected)
    alignments = ours.align_many(targets, queries)
    assert len(alignments) == len(pairs)
    for (a, b), alignment, score in zip(pairs, alignments, expected, strict=True):
        if kw["mode"] == "local" and score == 0:
            assert alignment.score == 0
            continue
        check_alignment(alignment, a, b, ours, score)


@SETTINGS
@given(data=st.data())
def test_single_pair_score_and_align(data):
    kw, alphabet = data.draw(schemes())
    a, b = data.draw(related(alphabet))
    ours, theirs = both(kw)
    expected = theirs.score(a, b)
    assert ours.score(a, b) == expected
    # small pair: Biopython's own PairwiseAlignments, all co-optimal alignments in order
    ours.max_biopython_cells = len(a) * len(b)
    got = ours.align(a, b)
    want = theirs.align(a, b)
    assert type(got) is type(want)
    assert got.score == want.score
    first = [np.asarray(x.coordinates).tolist() for x in _first(got, 3)]
    assert first == [np.asarray(x.coordinates).tolist() for x in _first(want, 3)]
    # above the threshold: one optimal alignment from the device's traceback
    ours.max_biopython_cells = len(a) * len(b) - 1
    got = ours.align(a, b)
    assert isinstance(got, EngineAlignments)
    assert got.score == expected
    if kw["mode"] == "local" and expected == 0:
        assert len(got) == 0
    else:
        assert len(got) == 1
        check_alignment(got[0], a, b, ours, expected)


def _first(alignments, n):
    out = []
    for i, alignment in enumerate(alignments):
        if i == n:
            break
        out.append(alignment)
    return out


@SETTINGS
@given(data=st.data())
def test_all_vs_all_equals_pairwise(data):
    kw, alphabet = data.draw(schemes())
    seqs = data.draw(st.lists(texts(alphabet, max_size=120), min_size=1, max_size=6))
    ours, theirs = both(kw)
    got = ours.score_matrix(seqs)
    want = np.array([[theirs.score(a, b) for b in seqs] for a in seqs])
    np.testing.assert_array_equal(got, want)


# -- fixed cases -------------------------------------------------------------------------------
def test_fractional_and_asymmetric_end_gaps():
    kw = dict(
        substitution_matrix=MATRICES["BLOSUM62"],
        open_internal_gap_score=-10.0,
        extend_internal_gap_score=-0.5,
        open_left_insertion_score=-0.5,
        extend_left_insertion_score=0.0,
        open_right_deletion_score=-3.0,
        extend_right_deletion_score=-0.5,
        open_left_deletion_score=-1.0,
        extend_left_deletion_score=-0.5,
        open_right_insertion_score=0.0,
        extend_right_insertion_score=0.0,
    )
    ours, theirs = both(kw)
    rng = np.random.default_rng(7)
    a = "".join(rng.choice(list(PROTEIN), 300))
    b = a[40:200] + "".join(rng.choice(list(PROTEIN), 30)) + a[220:290]
    assert ours.score(a, b) == theirs.score(a, b)
    assert ours.score(b, a) == theirs.score(b, a)
    alignment = ours.align_many([a], [b])[0]
    check_alignment(alignment, a, b, ours, theirs.score(a, b))


def test_input_types():
    ours, theirs = both(dict(substitution_matrix=MATRICES["BLOSUM62"], gap_score=-4))
    a, b = "MKTAYIAKQRQISFVKSHFSRQ", "MKTAYIAKQRQISFVKSQ"
    skbio = pytest.importorskip("skbio")
    want = theirs.score(a, b)
    for x, y in [
        (a, b),
        (Seq(a), Seq(b)),
        (SeqRecord(Seq(a), id="x"), SeqRecord(Seq(b), id="y")),
        (skbio.Protein(a), skbio.Protein(b)),
    ]:
        assert ours.score(x, y) == want
        assert ours.score_many([x], [y])[0] == want
        alignment = ours.align_many([x], [y])[0]
        check_alignment(alignment, a, b, ours, want)
        assert str(alignment)  # prints like any Biopython alignment
    # lists (e.g. of three-letter codes): Biopython's own code
    ours, theirs = both(dict(mismatch_score=-1, gap_score=-2))
    assert ours.score(list(a), list(b)) == theirs.score(list(a), list(b))


def test_skbio_sequences_in_align_on_biopython_paths():
    """``align`` hands small pairs (and the reverse strand) to Biopython: scikit-bio
    sequences go there as Seq objects of their letters, and print and format as Biopython's."""
    skbio = pytest.importorskip("skbio")
    ours, theirs = both(dict(substitution_matrix=MATRICES["BLOSUM62"], gap_score=-4))
    a, b = "MKTAYIAKQRQ", "MKTAYQRQ"
    got = ours.align(skbio.Protein(a), skbio.Protein(b))[0]
    want = theirs.align(a, b)[0]
    assert got.score == want.score and str(got) == str(want)
    assert format(got, "fasta").split() == [">", a, ">", "MKTAY---QRQ"]
    dna, dna_ref = both(dict(mismatch_score=-1, gap_score=-2))
    got = dna.align(skbio.DNA("ACGTT"), skbio.DNA("ACG"), strand="-")[0]
    assert str(got) == str(dna_ref.align("ACGTT", "ACG", strand="-")[0])


def test_progress_and_cancel_on_the_biopython_paths():
    """Settings the device does not take (a non-dyadic mismatch) run on Biopython, and still
    report progress per pair and stop when the callback returns False."""
    from bioplug.progress import Cancelled

    ours, theirs = both(dict(mismatch_score=-0.1, gap_score=-1))
    a, b = ["ACGT", "GGA", "TTAC"], ["AGT", "GA", "TTC"]
    for call in (ours.score_many, ours.align_many):
        seen = []
        call(a, b, progress=lambda *x, seen=seen: seen.append(x))
        assert seen[-1][1:] == (3, 3) and len(seen) == 3
        with pytest.raises(Cancelled):
            call(a, b, progress=lambda *x: False)
    seen = []
    got = ours.score_matrix(a, progress=lambda *x: seen.append(x))
    assert got[0, 1] == theirs.score(a[0], a[1]) and seen[-1][1:] == (3, 3)


def test_one_aligner_shared_by_threads_scores_as_biopython():
    """Several threads calling one aligner take turns on its engine's reused device
    buffers (a call once overwrote another's: wrong scores, or a crash)."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(3)
    letters = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    make = lambda: "".join(rng.choice(letters, int(rng.integers(5, 120))))  # noqa: E731
    batches = [([make() for _ in range(20)], [make() for _ in range(20)]) for _ in range(6)]
    ours, theirs = both(dict(substitution_matrix=MATRICES["BLOSUM62"], mode="local",
                             open_gap_score=-11, extend_gap_score=-1))
    with ThreadPoolExecutor(3) as pool:
        aligned = list(pool.map(lambda ab: [x.score for x in ours.align_many(*ab)], batches))
        scored = list(pool.map(lambda ab: list(ours.score_many(*ab)), batches))
    want = [[theirs.score(x, y) for x, y in zip(*ab, strict=True)] for ab in batches]
    assert aligned == want and scored == want


def test_unsupported_settings_fall_back_to_biopython():
    a, b = "GAACTTGACCT", "GACTTAGACT"
    cases = [
        dict(mode="fogsaa", mismatch_score=-1, gap_score=-1),
        dict(wildcard="N", mismatch_score=-1, gap_score=-1),
        dict(mismatch_score=-1, gap_score=-1, open_gap_score=-1 / 3),
        dict(mismatch_score=-float("inf"), gap_score=-1),
        dict(mode="local", match_score=1, mismatch_score=-1, gap_score=0.5),
    ]
    for kw in cases:
        ours, theirs = both(kw)
        for x, y in [(a, b), (a.replace("T", "N"), b)]:
            assert ours.score(x, y) == theirs.score(x, y), kw

    def gap_function(start, length):
        return -2.0 * length

    ours, theirs = both(dict(mismatch_score=-1))
    ours.deletion_score = theirs.deletion_score = gap_function
    assert ours.device_scoring([a, b]) is None
    assert ours.score(a, b) == theirs.score(a, b)
    np.testing.assert_array_equal(
        ours.score_many([a, b], [b, a]), [theirs.score(a, b), theirs.score(b, a)]
    )


def test_reverse_strand():
    kw = dict(mismatch_score=-1, open_gap_score=-2, extend_gap_score=-1,
              open_left_insertion_score=-0.5, open_right_deletion_score=-4)
    ours, theirs = both(kw)
    rng = np.random.default_rng(3)
    for _ in range(20):
        a = "".join(rng.choice(list(DNA), rng.integers(1, 40)))
        b = "".join(rng.choice(list(DNA), rng.integers(1, 40)))
        assert ours.score(a, b, strand="-") == theirs.score(a, b, strand="-")


def test_large_pair_engine_alignment():
    rng = np.random.default_rng(11)
    a = "".join(rng.choice(list(DNA), 2500))
    b = a[100:1400] + "".join(rng.choice(list(DNA), 50)) + a[1500:2450]
    for mode in ("global", "local"):
        kw = dict(mode=mode, substitution_matrix=MATRICES["NUC.4.4"],
                  open_gap_score=-10, extend_gap_score=-0.5)
        ours, theirs = both(kw)
        assert len(a) * len(b) > ours.max_biopython_cells / 2
        ours.max_biopython_cells = 1_000_000
        alignments = ours.align(a, b)
        assert isinstance(alignments, EngineAlignments)
        assert len(alignments) == 1 and "1 alignment" in repr(alignments)
        assert alignments.sequences == [a, b]   # as PairwiseAlignments.sequences
        check_alignment(alignments[0], a, b, ours, theirs.score(a, b))


def test_local_without_positive_score():
    ours, theirs = both(dict(mode="local", mismatch_score=-1, gap_score=-1))
    assert ours.score("AAAA", "CCCC") == theirs.score("AAAA", "CCCC") == 0
    ours.max_biopython_cells = 0
    assert len(ours.align("AAAA", "CCCC")) == 0
    assert ours.align_many(["AAAA"], ["CCCC"])[0].score == 0


def test_two_devices_give_identical_results():
    from bioplug.runtime import Runtime, select_device

    rng = np.random.default_rng(5)
    seqs = ["".join(rng.choice(list(PROTEIN), rng.integers(5, 200))) for _ in range(24)]
    kw = dict(mode="local", substitution_matrix=MATRICES["BLOSUM62"],
              open_gap_score=-11, extend_gap_score=-1)
    one = PairwiseAligner(device="cpu", **kw)
    two = PairwiseAligner(
        devices=[Runtime(select_device("cpu")), Runtime(select_device("cpu"))], **kw
    )
    targets, queries = seqs[:12], seqs[12:]
    np.testing.assert_array_equal(
        one.score_many(targets, queries), two.score_many(targets, queries)
    )
    np.testing.assert_array_equal(one.score_matrix(seqs), two.score_matrix(seqs))
    a1 = one.align_many(targets, queries)
    a2 = two.align_many(targets, queries)
    for x, y in zip(a1, a2, strict=True):
        assert x.score == y.score
        np.testing.assert_array_equal(x.coordinates, y.coordinates)


def test_bad_inputs():
    ours = PairwiseAligner(device="cpu", substitution_matrix=MATRICES["BLOSUM62"])
    with pytest.raises(InputError, match=r"query 2 \(bad\).*'J'.*position 3"):
        ours.score_many(
            ["MKV", "MKV"], [SeqRecord(Seq("MKV"), id="ok"), SeqRecord(Seq("MKJV"), id="bad")]
        )
    with pytest.raises(InputError, match=r"'J'.*position 4"):
        ours.score("MKVJ", "MKV")
    with pytest.raises(InputError, match="empty"):
        ours.score_many(["MKV", ""], ["MKV", "MKV"])
    with pytest.raises(InputError, match="empty"):
        ours.score_matrix(["MKV", SeqRecord(Seq(""), id="nothing")])
    with pytest.raises(ValueError, match="zero length"):  # Biopython's own message
        ours.score("MKV", "")
    with pytest.raises(InputError, match="differ in length"):
        ours.score_many(["MKV", "MKV"], ["MKV"])
    with pytest.raises(InputError, match="differ in length"):
        ours.align_many(["MKV"], [])
    with pytest.raises(InputError, match="unsupported type"):
        ours.score_many([3], ["MKV"])


def _no_ids(text: str) -> str:
    return re.sub(r"0x[0-9a-f]+", "0x", text)


def test_attributes_and_pickling():
    ours = PairwiseAligner(
        "blastp", device="cpu", max_biopython_cells=1234, mode="local", open_gap_score=-7
    )
    theirs = BioAligner("blastp", mode="local", open_gap_score=-7)
    assert _no_ids(str(ours)) == _no_ids(str(theirs))
    for field in GAP_FIELDS:
        assert getattr(ours, field) == getattr(theirs, field)
    with pytest.raises(AttributeError):
        ours.no_such_attribute = 1
    again = pickle.loads(pickle.dumps(ours))
    assert type(again) is PairwiseAligner
    assert again.max_biopython_cells == 1234 and again.device == "cpu"
    assert _no_ids(str(again)) == _no_ids(str(ours))
    assert again.score("MKTAYIAKQR", "MKTAYQR") == theirs.score("MKTAYIAKQR", "MKTAYQR")


@pytest.mark.parametrize("use_float, use_profile", [(True, False), (False, True)])
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_gpu_kernel_variants_on_the_cpu(use_float, use_profile, data):
    """The GPU's default kernel variants (float scores, packed profile), forced on PoCL."""
    kw, alphabet = data.draw(schemes())
    pairs = data.draw(st.lists(related(alphabet), min_size=1, max_size=4))
    ours, theirs = both(kw)
    targets = [a for a, _ in pairs]
    queries = [b for _, b in pairs]
    engine = ours._engine(ours.device_scoring(targets + queries))
    engine.use_float, engine.use_profile = use_float, use_profile
    engine.use_packed16 = False  # score_many on the 32-bit variant too
    try:
        expected = np.array([theirs.score(a, b) for a, b in pairs])
        np.testing.assert_array_equal(ours.score_many(targets, queries), expected)
        for (a, b), alignment, score in zip(
            pairs, ours.align_many(targets, queries), expected, strict=True
        ):
            if not (kw["mode"] == "local" and score == 0):
                check_alignment(alignment, a, b, ours, score)
    finally:
        engine.use_float = engine.use_profile = None
        engine.use_packed16 = True


def test_docstring_examples(monkeypatch):
    import doctest

    import bioplug.pairwise.aligner as module

    monkeypatch.setenv("BIOPLUG_DEVICE", "cpu")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted and not result.failed
