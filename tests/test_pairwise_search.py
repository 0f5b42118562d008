"""Database search (``bioplug.pairwise.search``, ``bioplug search``) against Biopython.

Runs on PoCL by default; ``BIOPLUG_TEST_DEVICE=gpu`` runs the same checks on a GPU (where the
scan kernel's 16-bit arithmetic is inline PTX).
"""

import dataclasses
import json
import math
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from Bio import Align
from Bio.Align import substitution_matrices
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import bioplug.pairwise.database as database_module
import bioplug.pairwise.karlin as karlin
import bioplug.pairwise.scan as scan_module
import bioplug.pairwise.search as search_module
from bioplug.cli import main
from bioplug.errors import InputError
from bioplug.pairwise.aligner import PairwiseAligner
from bioplug.pairwise.database import index_dir, open_database
from bioplug.pairwise.scan import Scanner
from bioplug.pairwise.search import search
from bioplug.progress import Cancelled, Progress
from bioplug.runtime import get_runtime

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
BLOSUM62 = substitution_matrices.load("BLOSUM62")
AMINO = "ACDEFGHIKLMNPQRSTVWY"


def biopython(open_cost=11, extend_cost=1):
    return Align.PairwiseAligner(mode="local", substitution_matrix=BLOSUM62,
                                 open_gap_score=-(open_cost + extend_cost),
                                 extend_gap_score=-extend_cost)


def random_set(seed, nq=5, nd=120, qmax=150, dmax=260):
    rng = np.random.default_rng(seed)
    make = lambda n: "".join(rng.choice(list(AMINO), n))  # noqa: E731
    queries = [make(int(rng.integers(1, qmax))) for _ in range(nq)]
    db = [make(int(rng.integers(1, dmax))) for _ in range(nd)]
    # related sequences: a query's substring, with a point change and an insertion
    q = queries[0]
    db[7] = q[2:60] + "W" + q[60:90]
    db[8] = "AAA" + q[10:70].replace("L", "I") + "GG"
    queries[1] = "W"  # single residue
    return queries, db


def write_fasta(path, seqs, prefix="s"):
    path.write_text("".join(f">{prefix}{k} desc\n{s[:60]}\n{s[60:]}\n" for k, s in
                            enumerate(seqs)))
    return path


def assert_all_scores(results, queries, db, aligner):
    for q, hits in enumerate(results.hits):
        ref = np.array([aligner.score(queries[q], d) for d in db])
        got = np.zeros(len(db))
        for h in hits:
            got[h.subject] = h.score
        np.testing.assert_array_equal(got, np.where(ref > 0, ref, 0), err_msg=f"query {q}")
        expected = sorted((-s, k) for k, s in enumerate(ref) if s > 0)
        assert sorted((-h.score, h.subject) for h in hits) == expected
        assert [h.subject for h in hits] == [h.subject for h in sorted(hits, key=hit_order(
            results))]


def hit_order(results):
    """How a query's hits are listed: by E-value (then score, then database number) when
    Spouge's correction makes the E-values weigh the subject's length, as BLAST+ lists them;
    else by score, then number (the E-values follow the score)."""
    if results.finite_size_correction:
        return lambda h: (h.evalue, -h.score, h.subject)
    return lambda h: (-h.score, h.subject)


def test_scores_equal_biopython_for_every_pair():
    queries, db = random_set(1)
    results = search(queries, db, top=len(db), device=DEVICE)
    assert_all_scores(results, queries, db, biopython())


@pytest.mark.parametrize("rows", [32, 64])
def test_scan_kernel_strip_heights(rows):
    queries, db = random_set(2, nq=3, nd=60)
    rt = get_runtime(DEVICE)
    scoring = search_module._scheme(None, "BLOSUM62", 11, 1, None)[0]
    scanner = Scanner(rt, scoring)
    scanner.rows, scanner.group = rows, 8
    qcodes = [scoring.encode(q) for q in queries]
    dbase = search_module._as_database(db, scoring)
    best = scanner.scan(qcodes, dbase, len(db), 300, Progress())
    al = biopython()
    for q, (scores, numbers) in enumerate(best):
        ref = np.array([al.score(queries[q], d) for d in db])
        got = np.zeros(len(db))
        got[numbers] = scores
        np.testing.assert_array_equal(got, np.where(ref > 0, ref, 0))


def test_overflow_rescue_and_long_pairs(monkeypatch):
    # W-W scores 11: a 1,500-residue self hit scores 16,500, beyond the 16-bit band
    long_w = "W" * 1500
    queries = [long_w, "MKWVTFISLLW"]
    db = ["MKWVTF", long_w, "AAAW" * 30, "WWWW"]
    # pairs of the long query with the two longest subjects go to search16_long
    monkeypatch.setattr(scan_module, "LONG_PAIR_CELLS", 100 * 1500)
    results = search(queries, db, top=4, device=DEVICE)
    assert_all_scores(results, queries, db, biopython())
    assert results.hits[0][0].score == 16500 and results.hits[0][0].identity == 100
    assert "scan: long-pair kernel" in results.seconds
    assert "scan: 32-bit rescue" in results.seconds


def test_rescued_scores_rank_the_hits():
    # three subjects scoring past int16 (W-W 11 x 2,980-3,000 > 32,767): only their exact
    # 32-bit scores tell them apart, so the top 2 must be the two longest whatever the order
    queries = ["W" * 3000]
    db = ["W" * 2980, "MKWVTF", "W" * 3000, "W" * 2990]
    results = search(queries, db, top=2, device=DEVICE)
    assert [(h.subject, h.score) for h in results.hits[0]] == [(2, 33000), (3, 32890)]
    assert "scan: 32-bit rescue" in results.seconds


def scan_all(scoring, queries, db, **settings):
    """Every score of queries x db from a Scanner with ``settings`` forced, and its timings."""
    scanner = Scanner(get_runtime(DEVICE), scoring)
    for name, value in settings.items():
        setattr(scanner, name, value)
    best = scanner.scan([scoring.encode(q) for q in queries],
                        search_module._as_database(db, scoring), len(db), None, Progress())
    out = np.zeros((len(queries), len(db)))
    for q, (scores, numbers) in enumerate(best):
        out[q, numbers] = scores / scoring.scale
    return out, scanner.timings


def reference(aligner, queries, db):
    ref = np.array([[aligner.score(q, d) for d in db] for q in queries])
    return np.where(ref > 0, ref, 0)


def mixed_set(seed):
    """Queries from 1 to 300 residues, subjects from 1 to 400, a few related pairs."""
    rng = np.random.default_rng(seed)
    make = lambda n: "".join(rng.choice(list(AMINO), n))  # noqa: E731
    queries = [make(n) for n in (300, 7, 1, 120, 45)]
    db = [make(int(n)) for n in rng.integers(1, 400, 50)] + [make(3), make(1)]
    db[3] = queries[0][40:250].replace("K", "R")
    db[4] = queries[3][5:100] + queries[0][:80]
    return queries, db


@pytest.mark.parametrize("rows,long_group", [(16, 8), (32, 4), (64, 16)])
def test_long_pairs_decided_per_query_and_subject(rows, long_group):
    # 3,000 cells: the 300-residue query's pairs with subjects over 10 residues are long,
    # the 7-residue query's never; long pairs span several rounds of work-items (strips
    # > long_group) and subjects shorter than two chunks per work-item
    queries, db = mixed_set(8)
    scoring = search_module._scheme(None, "BLOSUM62", 11, 1, None)[0]
    got, timings = scan_all(scoring, queries, db, rows=rows, group=8, long_group=long_group,
                            long_cells=3000)
    np.testing.assert_array_equal(got, reference(biopython(), queries, db))
    assert timings["long-pair kernel"] > 0 and timings["scan kernel"] > 0


def aligner_scoring(**gaps):
    aligner = PairwiseAligner(mode="local", substitution_matrix=BLOSUM62, **gaps)
    bio = Align.PairwiseAligner(mode="local", substitution_matrix=BLOSUM62, **gaps)
    return aligner.device_scoring([]), bio


@pytest.mark.parametrize("gaps,hform", [
    ({"open_gap_score": -12, "extend_gap_score": -1}, False),  # fill16's cell, forced
    ({"open_insertion_score": -10, "extend_insertion_score": -1,  # asymmetric
      "open_deletion_score": -13, "extend_deletion_score": -2}, True),
    ({"open_gap_score": -2, "extend_gap_score": -5}, False),  # opening above extending
])
def test_cell_forms_and_gap_schemes(gaps, hform):
    queries, db = mixed_set(9)
    scoring, bio = aligner_scoring(**gaps)
    scanner_form = Scanner(get_runtime(DEVICE), scoring).hform
    assert scanner_form == (gaps.get("open_gap_score", -10) <= gaps.get("extend_gap_score", -1))
    got, _ = scan_all(scoring, queries, db, hform=hform and scanner_form, long_cells=3000)
    np.testing.assert_array_equal(got, reference(bio, queries, db))


@pytest.mark.parametrize("gaps,rows,offset_form", [
    ({"open_gap_score": -12, "extend_gap_score": -1}, 64, True),
    ({"open_insertion_score": -10, "extend_insertion_score": -1,  # asymmetric
      "open_deletion_score": -13, "extend_deletion_score": -3}, 32, True),
    # 8 packed rows x 600 passes the 16-bit headroom: F stays in the plain form
    ({"open_gap_score": -700, "extend_gap_score": -600}, 16, False),
])
def test_f_in_the_row_offset_form_only_within_the_headroom(gaps, rows, offset_form):
    queries, db = mixed_set(10)
    scoring, bio = aligner_scoring(**gaps)
    scanner = Scanner(get_runtime(DEVICE), scoring)
    scanner.rows = rows
    assert ("FHAT" in scanner._defines()) == offset_form
    got, _ = scan_all(scoring, queries, db, rows=rows, long_cells=3000)
    np.testing.assert_array_equal(got, reference(bio, queries, db))


def test_ties_ordered_by_database_number():
    db = ["MKWVTFISLL", "PPPP", "MKWVTFISLL", "GGGG", "MKWVTFISLL", "MKWVTFISLL"]
    results = search(["MKWVTFISLL"], db, top=3, device=DEVICE)
    assert [h.subject for h in results.hits[0]] == [0, 2, 4]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3, 4), max_size=40), st.integers(1, 6),
       st.lists(st.tuples(st.integers(1, 4), st.integers(0, 99)), max_size=6))
def test_merge_top_keeps_the_best_positive_scores_ties_by_number(row, top, current):
    """A chunk's top hits merged into the current ones: positive scores only, score
    descending, then database number ascending, at most ``top`` (ties at the cut included
    in the choice, not beyond ``top``)."""
    rng = np.random.default_rng(len(row))
    numbers = rng.permutation(len(row)) + 100   # a chunk's numbers, not the current ones
    cur = sorted(current, key=lambda h: (-h[0], h[1]))[:top]
    cur_s = np.array([s for s, _ in cur], dtype=np.int64)
    cur_k = np.array([k for _, k in cur], dtype=np.int64)
    got = scan_module._merge_top((cur_s, cur_k), np.array(row, dtype=np.int32), numbers, top)
    pool = cur + [(s, int(k)) for s, k in zip(row, numbers, strict=True) if s > 0]
    want = sorted(pool, key=lambda h: (-h[0], h[1]))[:top]
    assert list(zip(got[0].tolist(), got[1].tolist(), strict=True)) == want


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 300), max_size=50), st.booleans())
def test_launch_order_is_longest_first_ties_in_database_order(ls, huge):
    """Either sort (16-bit keys, or beyond 65,535 residues 64-bit ones) gives one order."""
    if huge and ls:
        ls[0] = 70_000
    lengths = np.array(ls, dtype=np.int64)
    scanner = object.__new__(Scanner)
    scanner.long_cells = 1000
    launch, subj, _ = scanner._launch_order(np.arange(lengths.size) * 7, lengths,
                                            np.array([10]))
    assert launch.tolist() == sorted(range(len(ls)), key=lambda i: (-ls[i], i))
    assert subj[:, 1].tolist() == lengths[launch].tolist()


def test_chunked_equals_unchunked(tmp_path):
    queries, db = random_set(3, nq=3, nd=80)
    fasta = write_fasta(tmp_path / "db.fa", db)
    whole = search(queries, str(fasta), top=15, device=DEVICE)
    tiny = search(queries, str(fasta), top=15, device=DEVICE, chunk_residues=40)
    for a, b in zip(whole.hits, tiny.hits, strict=True):
        assert [(h.subject_id, h.score, h.coordinates.tolist()) for h in a] == \
               [(h.subject_id, h.score, h.coordinates.tolist()) for h in b]


def test_index_folder_and_files_follow_the_umask(tmp_path):
    """A database's index serves every user who reads the FASTA: its folder is 0777 and its
    files 0666 less the umask (the temporary folder it is built in starts 0700)."""
    queries, db = random_set(4, nq=2, nd=12)
    fasta = write_fasta(tmp_path / "db.fa", db)
    old = os.umask(0o022)
    try:
        search(queries, fasta, top=2, device=DEVICE)
    finally:
        os.umask(old)
    folder = index_dir(fasta)
    assert folder.stat().st_mode & 0o777 == 0o755
    assert {p.stat().st_mode & 0o777 for p in folder.iterdir()} == {0o644}


def test_index_cached_and_rebuilt_when_fasta_changes(tmp_path, monkeypatch):
    queries, db = random_set(4, nq=2, nd=30)
    fasta = write_fasta(tmp_path / "db.fa", db)
    builds = []
    real_build = database_module._build
    monkeypatch.setattr(database_module, "_build",
                        lambda *a: builds.append(1) or real_build(*a))
    first = search(queries, fasta, top=5, device=DEVICE)
    assert index_dir(fasta).is_dir() and len(builds) == 1
    search(queries, fasta, top=5, device=DEVICE)
    assert len(builds) == 1  # second search: the index as it is
    os.utime(fasta, ns=(1, 1))  # touched, same contents: kept (the hash decides)
    search(queries, fasta, top=5, device=DEVICE)
    assert len(builds) == 1
    write_fasta(fasta, db + [queries[0]])  # changed: rebuilt
    again = search(queries, fasta, top=5, device=DEVICE)
    assert len(builds) == 2
    assert again.hits[0][0].subject_id == f"s{len(db)}"
    assert again.hits[0][0].score > first.hits[0][0].score
    scoring = search_module._scheme(None, "BLOSUM62", 11, 1, None)[0]
    opened = open_database(fasta, scoring)
    assert isinstance(opened.codes, np.memmap) and len(opened) == len(db) + 1
    assert np.all(np.diff(opened.lengths) >= 0)


def test_evalues_follow_karlin_altschul():
    """Table E-values with old_fsc: K (m - l)(n - N l) e^(-lambda S) with BLAST's length
    adjustment l; a user's (lambda, K) alone: m n 2^-bits (no alpha and beta, no
    adjustment)."""
    queries, db = random_set(5, nq=2, nd=40)
    queries[0] = queries[0] * 8   # long enough for a length adjustment above 0
    results = search(queries, db, top=5, device=DEVICE, old_fsc=True)
    assert results.statistics == "table" and not results.finite_size_correction
    n = sum(len(d) for d in db)
    lam, k, alpha, beta = 0.267, 0.041, 1.9, -30  # BLAST's BLOSUM62, gap costs 11/1
    adjusted = 0
    for q, hits in enumerate(results.hits):
        m = len(queries[q])
        ell = brute_length_adjustment(m, n, len(db), lam, k, alpha, beta)
        adjusted += ell > 0
        for h in hits:
            bits = (lam * h.score - math.log(k)) / math.log(2)
            assert h.bits == pytest.approx(bits, rel=1e-12)
            e = k * (m - ell) * (n - len(db) * ell) * math.exp(-lam * h.score)
            assert h.evalue == pytest.approx(e, rel=1e-12)
    assert adjusted == 1
    plain = search(queries, db, top=5, device=DEVICE, karlin=(lam, k))
    assert not plain.finite_size_correction
    for q, hits in enumerate(plain.hits):
        for h in hits:
            assert h.evalue == pytest.approx(len(queries[q]) * n * 2.0 ** -h.bits, rel=1e-12)
    other = search(queries, db, top=5, device=DEVICE, gap_open=10, gap_extend=1)
    h = other.hits[0][0]
    assert h.bits == pytest.approx((0.243 * h.score - math.log(0.024)) / math.log(2))
    unknown = search(queries, db, top=1, matrix="PAM250", device=DEVICE)
    assert math.isnan(unknown.hits[0][0].evalue)


def brute_length_adjustment(m, n, big_n, lam, k, alpha, beta):
    """BLAST's length adjustment by its definition: the largest integer l >= 0 with
    K (m - l)(n - N l) >= max(m, n) (BLAST bounds l by the root of the equality, inclusive)
    and l <= (alpha / lambda)(ln K + ln((m - l)(n - N l))) + beta; 0 when there is none."""
    ell = np.arange(0, min(m, n // big_n + 1), dtype=np.float64)
    space = (m - ell) * (n - big_n * ell)
    # the equality itself, to rounding: found by hypothesis at m 70, n 864, N 24, K 0.045
    ok = (space > 0) & (k * space >= max(m, n) * (1 - 1e-12))
    ok[ok] &= ell[ok] <= alpha / lam * (math.log(k) + np.log(space[ok])) + beta
    return int(ell[ok].max()) if ok.any() else 0


@settings(max_examples=300, deadline=None)
@given(m=st.integers(1, 6000), big_n=st.integers(1, 3000), mean=st.integers(1, 3000),
       extra=st.integers(0, 999), key=st.sampled_from(sorted(karlin.KARLIN_ALTSCHUL)))
def test_length_adjustment_is_blasts_definition(m, big_n, mean, extra, key):
    """length_adjustment against a brute force over every integer, for any query length,
    database size and sequence count and any table entry; as one array of lengths too."""
    n = big_n * mean + extra
    params = karlin.karlin_altschul(*key)
    assert len(params) == 4 and params == karlin.KARLIN_ALTSCHUL[key]
    want = brute_length_adjustment(m, n, big_n, *params)
    assert int(karlin.length_adjustment(m, n, big_n, *params)) == want
    lengths = np.array([1, m, 2 * m])
    got = karlin.length_adjustment(lengths, n, big_n, *params)
    assert got.tolist() == [brute_length_adjustment(int(x), n, big_n, *params)
                            for x in lengths]


def blast_xml(tmp_path, queries, db, name, old_fsc=True, matrix="BLOSUM62", costs=(11, 1)):
    """blastp's XML report of queries against db, scores as near Smith-Waterman as it goes:
    (length adjustment, effective search space, {subject id: (score, E-value)}) a query. Its
    plain Karlin-Altschul E-values with ``old_fsc`` (OLD_FSC set), else its default ones
    (Spouge's finite-size correction)."""
    import subprocess
    import xml.etree.ElementTree as ET

    qfa, dfa = tmp_path / f"{name}q.fa", write_fasta(tmp_path / f"{name}.fa", db)
    qfa.write_text("".join(f">q{k}\n{s}\n" for k, s in enumerate(queries)))
    subprocess.run(["makeblastdb", "-in", str(dfa), "-dbtype", "prot", "-out",
                    str(tmp_path / name)], check=True, capture_output=True)
    out = subprocess.run(["blastp", "-query", str(qfa), "-db", str(tmp_path / name),
                          "-comp_based_stats", "0", "-seg", "no", "-max_hsps", "1",
                          "-evalue", "1e9", "-matrix", matrix, "-gapopen", str(costs[0]),
                          "-gapextend", str(costs[1]), "-max_target_seqs", str(len(db)),
                          "-outfmt", "5"],
                         check=True, capture_output=True,
                         env={k: v for k, v in {**os.environ, "OLD_FSC": "1"}.items()
                              if k != "OLD_FSC" or old_fsc}).stdout
    report = []
    for it in ET.fromstring(out).iter("Iteration"):
        stat = it.find("Iteration_stat/Statistics")
        hits = {h.findtext("Hit_def").split()[0]: (float(h.findtext("Hit_hsps/Hsp/Hsp_score")),
                                                   float(h.findtext("Hit_hsps/Hsp/Hsp_evalue")))
                for h in it.iter("Hit")}
        report.append((int(stat.findtext("Statistics_hsp-len")),
                       float(stat.findtext("Statistics_eff-space")), hits))
    return report


@pytest.mark.skipif(shutil.which("blastp") is None or shutil.which("makeblastdb") is None,
                    reason="BLAST+ (blastp, makeblastdb) is not on PATH: no oracle to compare with")
def test_evalues_and_length_adjustment_equal_blastp(tmp_path):
    """Against BLAST+ (blastp with OLD_FSC, and old_fsc here): the length adjustment and
    effective search space it reports for queries of several lengths against databases of
    two sizes, and the E-value of every hit that both score alike (BLAST's heuristic scores
    can be below the exact ones), to the six digits its XML report prints."""
    rng = np.random.default_rng(33)
    make = lambda n: "".join(rng.choice(list(AMINO), n))  # noqa: E731
    queries = [make(n) for n in (25, 90, 240, 700)]
    compared, worst = 0, 0.0
    for name, nd in (("small", 30), ("large", 150)):
        db = [make(int(rng.integers(40, 400))) for _ in range(nd)]
        n = sum(map(len, db))
        report = blast_xml(tmp_path, queries, db, name)
        results = search(queries, tmp_path / f"{name}.fa", top=nd, device=DEVICE, old_fsc=True)
        params = karlin.karlin_altschul("BLOSUM62", 11, 1)
        for q, (ell, space, blast) in enumerate(report):
            m = len(queries[q])
            assert int(karlin.length_adjustment(m, n, nd, *params)) == ell
            assert (m - ell) * (n - nd * ell) == space
            for h in results.hits[q]:
                score, e = blast.get(h.subject_id, (None, None))
                if score == h.score:
                    assert h.evalue == pytest.approx(e, rel=6e-6)
                    compared += 1
                    worst = max(worst, abs(h.evalue / e - 1))
    assert compared >= 100 and worst <= 6e-6, (compared, worst)   # 346 hits, 3.2e-6


@pytest.mark.skipif(shutil.which("blastp") is None or shutil.which("makeblastdb") is None,
                    reason="BLAST+ (blastp, makeblastdb) is not on PATH: no oracle to compare with")
@pytest.mark.parametrize("matrix, costs", [("BLOSUM62", (11, 1)), ("BLOSUM45", (14, 2)),
                                           ("BLOSUM80", (10, 1)), ("PAM30", (9, 1)),
                                           ("PAM250", (14, 2))])
def test_default_evalues_equal_blastp_default(tmp_path, matrix, costs):
    """Against blastp's default E-values (Spouge's finite-size correction, no OLD_FSC): every
    hit that both score alike, to the six digits its XML report prints, for several of
    BLAST's tables; homologs of the queries give E-values from 1e-100 up, random sequences the
    rest. The hits are listed by E-value, as blastp lists them. BLOSUM80 is NCBI's (1/2-bit)
    matrix, given through an aligner (Biopython's BLOSUM80 is another matrix)."""
    scoring = {"matrix": matrix, "gap_open": costs[0], "gap_extend": costs[1]}
    if matrix == "BLOSUM80":
        ncbi = Path("/usr/share/ncbi/data/BLOSUM80")
        if not ncbi.exists():
            pytest.skip("NCBI's BLOSUM80 (Debian's ncbi-data) is not installed")
        from Bio.Align import substitution_matrices

        scoring = {"aligner": PairwiseAligner(
            mode="local", substitution_matrix=substitution_matrices.read(str(ncbi)),
            open_gap_score=-(costs[0] + costs[1]), extend_gap_score=-costs[1])}
    rng = np.random.default_rng(16)
    make = lambda n: "".join(rng.choice(list(AMINO), n))  # noqa: E731
    queries = [make(n) for n in (30, 120, 350, 900)]
    db = [make(int(rng.integers(20, 700))) for _ in range(60)]
    for q in queries:   # two homologs each: ~25 % and ~55 % of positions changed
        for p in (0.25, 0.55):
            db.append("".join(c if rng.random() > p else make(1) for c in q))
    report = blast_xml(tmp_path, queries, db, "db", old_fsc=False, matrix=matrix, costs=costs)
    results = search(queries, tmp_path / "db.fa", top=len(db), device=DEVICE, **scoring)
    assert results.finite_size_correction
    compared, worst, smallest = 0, 0.0, 1.0
    for q, (_, _, blast) in enumerate(report):
        hits = results.hits[q]
        assert [h.evalue for h in hits] == sorted(h.evalue for h in hits)
        for h in hits:
            score, e = blast.get(h.subject_id, (None, None))
            if score == h.score and e > 0:
                compared += 1
                worst = max(worst, abs(h.evalue / e - 1))
                smallest = min(smallest, e)
    # PAM30 is strict: blastp reports few chance hits (32 here), 100-140 with the others
    assert compared >= 30 and worst <= 6e-6 and smallest < 1e-20, (compared, worst, smallest)


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(sorted(karlin.SPOUGE)), score=st.integers(1, 2000),
       m=st.integers(1, 40000), n=st.integers(1, 40000))
def test_spouge_area_is_symmetric_and_falls_with_the_score(key, score, m, n):
    """Spouge's area E[(m - L1)+ (n - L2)+] is symmetric in the two lengths (the E-value
    carries database / n besides), positive, and the E-value falls as the score rises.

    Scores two sequences can reach only (at most 17 a residue pair in these tables); high
    ones among them can still underflow to 0 (blastp prints 0.0 there), as 1497 for 1 x 1
    residues did before this bound: positive is asserted up to a score of 400."""
    assume(score <= 17 * min(m, n))
    p = karlin.spouge(*key)
    big = 10 ** 9
    e_mn = karlin.spouge_evalues(score, m, n, big, p) * n
    e_nm = karlin.spouge_evalues(score, n, m, big, p) * m
    assert e_mn == pytest.approx(e_nm, rel=1e-12, abs=1e-300)
    assert e_mn > 0 or score > 400
    e0, e1 = (karlin.spouge_evalues(y, m, n, big, p) for y in (score, score + 1))
    assert e1 < e0 or e0 < 1e-290   # (down in the subnormal range both underflow alike)


@settings(max_examples=100, deadline=None)
@given(key=st.sampled_from(sorted(karlin.SPOUGE)), score=st.integers(20, 400))
def test_spouge_tends_to_the_edge_corrected_space_for_long_sequences(key, score):
    """For sequences much longer than an alignment's edge, (m - L)+ is m - E[L]: the E-value
    tends to K exp(-lambda S) (m - mu)(n - mu) D / n with mu = a S + b, the mean edge length
    (the covariance term is of a lower order)."""
    p = karlin.spouge(*key)
    mu = p.alpha * score + p.b
    m, n, big = 10 ** 7, 3 * 10 ** 7, 10 ** 12
    want = p.k * math.exp(-p.lam * score) * (m - mu) * (n - mu) * big / n
    assert karlin.spouge_evalues(score, m, n, big, p) == pytest.approx(want, rel=1e-3)


def test_hit_statistics_from_the_path():
    q = "MKWVTFISLLLLFSSAYSRGVFRRDTHKSEIAHRFKDLGE"
    subject = "GGG" + q[:20] + q[23:] + "PP"  # three residues deleted from the subject
    h = search([q], [subject], top=1, device=DEVICE).hits[0][0]
    assert (h.qstart, h.qend, h.sstart, h.send) == (1, len(q), 4, 3 + len(q) - 3)
    assert h.gap_opens == 1 and h.mismatches == 0 and h.length == len(q)
    assert h.identity == pytest.approx(100 * (len(q) - 3) / len(q))
    assert h.coverage == 100


def test_hits_traced_on_work_groups_like_the_windows(monkeypatch):
    """Every hit is traced on a work-group (HIT_GROUP_CELLS = 0, one launch); the paths are
    the ones the per-work-item windows give, hit by hit, ties included (repeats), and each
    path rescores to the hit's score."""
    queries, db = random_set(12, nq=4, nd=50)
    queries[2] = "AC" * 40
    db[3], db[4], db[5] = "CA" * 30, "ACW" * 20, "K"
    grouped = search(queries, db, top=12, device=DEVICE)
    monkeypatch.setattr(search_module, "HIT_GROUP_CELLS", 1 << 62)
    windows = search(queries, db, top=12, device=DEVICE)
    assert grouped.tabular() == windows.tabular()
    for mine, theirs in zip(grouped.hits, windows.hits, strict=True):
        for h, w in zip(mine, theirs, strict=True):
            np.testing.assert_array_equal(h.coordinates, w.coordinates)
            assert path_score(queries[h.query], db[h.subject], h.coordinates) == h.score


def path_score(a: str, b: str, coords: np.ndarray, open_cost=11, extend_cost=1) -> float:
    """Score of a local path (BLAST gap costs: open + length * extend) walked segment by
    segment."""
    total = 0.0
    for k in range(coords.shape[1] - 1):
        (i0, j0), (i1, j1) = coords[:, k], coords[:, k + 1]
        if i1 > i0 and j1 > j0:
            total += sum(BLOSUM62[x, y] for x, y in zip(a[i0:i1], b[j0:j1], strict=True))
        else:
            total -= open_cost + extend_cost * max(i1 - i0, j1 - j0)
    return total


def test_aligner_front_door():
    queries, db = random_set(6, nq=2, nd=30)
    aligner = PairwiseAligner(mode="local", substitution_matrix=BLOSUM62, open_gap_score=-12,
                              extend_gap_score=-1, device=DEVICE)
    ours = aligner.search(queries, db, top=30)
    assert_all_scores(ours, queries, db, aligner)
    assert ours.hits[0][0].evalue == search(queries, db, top=1, device=DEVICE).hits[0][0].evalue
    with pytest.raises(InputError, match="local"):
        PairwiseAligner(mode="global", substitution_matrix=BLOSUM62).search(queries, db)


def test_cli_tabular_and_stdout(tmp_path, capsys):
    queries, db = random_set(7, nq=3, nd=40)
    qf = write_fasta(tmp_path / "q.fa", queries, "q")
    dbf = write_fasta(tmp_path / "db.fa", db)
    out = tmp_path / "hits.tsv"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--top", "4",
                 "--device", DEVICE]) == 0
    rows = [line.split("\t") for line in out.read_text().splitlines()]
    assert rows and all(len(r) == 12 for r in rows)
    ref = search(str(qf), str(dbf), top=4, device=DEVICE)
    assert out.read_text() == ref.tabular()
    al = biopython()
    for r in rows:
        q, s = int(r[0][1:]), int(r[1][1:])
        # the bit score of the raw score, as BLAST+ prints it (whole above 99.9)
        bits = (0.267 * al.score(queries[q], db[s]) - math.log(0.041)) / math.log(2)
        assert r[11] == (str(int(bits)) if bits > 99.9 else f"{bits:.1f}")
    assert main(["-q", "search", str(qf), str(dbf), "-o", "-", "--top", "4",
                 "--device", DEVICE]) == 0
    assert capsys.readouterr().out == ref.tabular()
    sam = tmp_path / "hits.sam"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(sam), "--device", DEVICE]) == 0
    assert any(line.startswith("q0\t") for line in sam.read_text().splitlines())


def test_cli_old_fsc(tmp_path):
    """--old-fsc writes the E-values blastp prints with OLD_FSC set (old_fsc=True); without
    it, the default ones (Spouge's correction), which differ."""
    queries, db = random_set(7, nq=3, nd=40)
    qf = write_fasta(tmp_path / "q.fa", queries, "q")
    dbf = write_fasta(tmp_path / "db.fa", db)
    for flag, old in (([], False), (["--old-fsc"], True)):
        out = tmp_path / f"hits{old}.tsv"
        assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--top", "4",
                     "--device", DEVICE, *flag]) == 0
        want = search(str(qf), str(dbf), top=4, device=DEVICE, old_fsc=old)
        assert out.read_text() == want.tabular()
    assert (tmp_path / "hitsFalse.tsv").read_text() != (tmp_path / "hitsTrue.tsv").read_text()


def test_cli_queries_from_standard_input(tmp_path, capsys, monkeypatch):
    """``-`` for the queries (spooled: SAM output reads them again); the database must be a
    file, and its index cannot live beside standard input."""
    import io

    queries, db = random_set(8, nq=3, nd=30)
    qf = write_fasta(tmp_path / "q.fa", queries, "q")
    dbf = write_fasta(tmp_path / "db.fa", db)
    for fmt in ("tsv", "sam"):
        by_file, by_pipe = tmp_path / f"file.{fmt}", tmp_path / f"pipe.{fmt}"
        assert main(["-q", "search", str(qf), str(dbf), "-o", str(by_file), "--device",
                     DEVICE]) == 0
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(qf.read_bytes())))
        assert main(["-q", "search", "-", str(dbf), "-o", str(by_pipe), "--device",
                     DEVICE]) == 0
        assert by_pipe.read_text() == by_file.read_text() != ""
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(dbf.read_bytes())))
    assert main(["-q", "search", str(qf), "-", "-o", str(tmp_path / "x.tsv"),
                 "--device", DEVICE]) == 2
    assert "the database must be a file" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["-q", "search", "-", str(dbf), "-o", str(tmp_path / "y.tsv"),
                 "--device", DEVICE]) == 2
    assert "standard input is empty" in capsys.readouterr().err


def test_cli_bad_letter_names_record_position_and_letter(tmp_path, capsys):
    qf = write_fasta(tmp_path / "q.fa", ["MKWVTF"], "q")
    dbf = tmp_path / "bad.fa"
    dbf.write_text(">good\nMKWV\n>broken x\nMKJWV\n")
    out = tmp_path / "hits.tsv"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--device", DEVICE]) == 2
    err = capsys.readouterr().err
    assert "broken" in err and "position 3" in err and "'J'" in err
    assert not out.exists()
    with pytest.raises(InputError, match="position 2"):
        search(["M1K"], ["MKW"], device=DEVICE)


def engine_triangle(codes, scoring):
    from bioplug.pairwise.engine import PairwiseEngine

    return PairwiseEngine(scoring, devices=[DEVICE]).score_triangle(codes)


@pytest.mark.parametrize("long_cells", [None, 40 * 40])
def test_scan_triangle_equals_engine(monkeypatch, long_cells):
    """All-vs-all through the scan kernels: the engine's triangle exactly (Biopython-checked
    scores), with long pairs on search16_long and scores past int16 rescued."""
    from bioplug.alphabet import load_matrix, make_scoring

    _, db = random_set(3, nd=70, dmax=120)
    db += ["W" * 3000, "W" * 2990, db[7], "W"]      # past int16; a copy; one letter
    scoring = make_scoring(load_matrix("BLOSUM62"), gaps=[-12, -1] * 6, local=True)
    codes = [scoring.encode(s) for s in db]
    scanner = Scanner(get_runtime(DEVICE), scoring)
    if long_cells:
        scanner.long_cells = long_cells
    tri, rank = scanner.score_triangle(codes)
    ref_tri, ref_rank = engine_triangle(codes, scoring)
    np.testing.assert_array_equal(rank, ref_rank)
    np.testing.assert_array_equal(tri, ref_tri)
    assert scanner.counts["32-bit rescue"] >= 3    # W3000 x W3000, x W2990, W2990 x W2990
    assert ("long-pair kernel" in scanner.timings) == bool(long_cells)
    # spot-check the engine's triangle itself against Biopython
    bio, n = biopython(), len(db)
    for a, b in [(0, 0), (0, 1), (2, 30), (5, n - 1), (n - 1, n - 1)]:
        pos = a * n - a * (a - 1) // 2 + (b - a)
        assert tri[pos] == bio.score(db[rank[a]], db[rank[b]])


@pytest.mark.parametrize("long_cells", [None, 40 * 40])
def test_scan_square_equals_triangle(monkeypatch, long_cells):
    """Scanner.score_square (the triangle spread into the square on the device) equals the
    host's square of the same triangle, long pairs and 32-bit rescues included, in input
    order (not length order); without double precision allpairs.score_square builds it on
    the host."""
    from bioplug.alphabet import load_matrix, make_scoring
    from bioplug.pairwise import allpairs
    from bioplug.pairwise.engine import PairwiseEngine, triangle_square

    _, db = random_set(4, nd=50, dmax=120)
    db = ["W" * 3000, *db[:20], "W" * 2990, *db[20:], db[7], "W"]  # past int16, out of order
    scoring = make_scoring(load_matrix("BLOSUM62"), gaps=[-12, -1] * 6, local=True)
    codes = [scoring.encode(s) for s in db]
    scanner = Scanner(get_runtime(DEVICE), scoring)
    if long_cells:
        scanner.long_cells = long_cells
    want = triangle_square(*scanner.score_triangle(codes))
    scanner.counts = {}
    got = scanner.score_square(codes)
    assert got.dtype == np.float64 and got.shape == (len(db), len(db))
    np.testing.assert_array_equal(got, want)
    assert scanner.counts["32-bit rescue"] == 3    # W3000 x W3000, x W2990, W2990 x W2990
    bio = biopython()
    for i, j in [(0, 0), (0, 21), (21, 0), (3, 40), (len(db) - 1, 5)]:
        assert got[i, j] == bio.score(db[i], db[j])
    engine = PairwiseEngine(scoring, devices=[DEVICE])
    np.testing.assert_array_equal(allpairs.score_square(engine, codes, kernels="scan"), want)
    rt = engine.runtimes[0]
    monkeypatch.setattr(rt, "info", dataclasses.replace(rt.info, fp64=False))
    monkeypatch.setattr(Scanner, "score_square", lambda self, c: pytest.fail("no fp64"))
    np.testing.assert_array_equal(allpairs.score_square(engine, codes, kernels="scan"), want)


@pytest.mark.parametrize("long_cells", [None, 40 * 40])
def test_scan_shared_by_devices_equals_one_device(monkeypatch, long_cells):
    """Several devices share the all-vs-all scan, rows of the triangle in pieces of equal
    cost: the same square and triangle as one device, whichever device ran which rows (two
    runtimes of the test device here), long pairs and 32-bit rescues included."""
    from bioplug.alphabet import load_matrix, make_scoring
    from bioplug.pairwise import allpairs
    from bioplug.pairwise.engine import PairwiseEngine
    from bioplug.runtime import Runtime, select_device

    _, db = random_set(5, nd=60, dmax=150)
    db = ["W" * 3000, *db[:25], "W" * 2990, *db[25:], db[7], "W"]
    scoring = make_scoring(load_matrix("BLOSUM62"), gaps=[-12, -1] * 6, local=True)
    codes = [scoring.encode(s) for s in db]
    one = PairwiseEngine(scoring, devices=[DEVICE])
    want_square = allpairs.score_square(one, codes, kernels="scan")
    want_tri, want_rank = allpairs.score_triangle(one, codes, kernels="scan")
    if long_cells:
        monkeypatch.setattr("bioplug.pairwise.scan.LONG_PAIR_CELLS", long_cells)
    ran = []
    scan_rows = Scanner.scan_rows

    def spy(self, ranked, starts, out, first, last):
        ran.append((id(self.rt), first, last))
        return scan_rows(self, ranked, starts, out, first, last)

    monkeypatch.setattr(Scanner, "scan_rows", spy)
    monkeypatch.setattr(allpairs, "PIECES_PER_DEVICE", 3)
    two = PairwiseEngine(scoring, devices=[Runtime(select_device(DEVICE)) for _ in range(2)])
    np.testing.assert_array_equal(allpairs.score_square(two, codes, kernels="scan"),
                                  want_square)
    tri, rank = allpairs.score_triangle(two, codes, kernels="scan")
    np.testing.assert_array_equal(rank, want_rank)
    np.testing.assert_array_equal(tri, want_tri)
    pieces = sorted({(a, b) for _, a, b in ran})
    assert len(pieces) > 2 and pieces[0][0] == 0 and pieces[-1][1] == len(db)
    assert all(b == c for (_, b), (c, _) in zip(pieces, pieces[1:], strict=False))
    bio = biopython()
    for i, j in [(0, 26), (3, 40), (len(db) - 1, 5)]:
        assert want_square[i, j] == bio.score(db[i], db[j])


def test_row_pieces_cover_the_rows_at_about_equal_cost():
    from bioplug.pairwise.allpairs import _row_pieces

    rng = np.random.default_rng(3)
    lengths = np.sort(rng.integers(20, 900, 500))[::-1]
    pieces, costs = _row_pieces(lengths, 6)
    assert pieces[0][0] == 0 and pieces[-1][1] == 500 and len(pieces) == 6
    assert all(b == c for (_, b), (c, _) in zip(pieces, pieces[1:], strict=False))
    after = np.cumsum(lengths[::-1])[::-1]
    assert sum(costs) == pytest.approx(float((lengths * after).sum()))
    assert max(costs) < 1.2 * sum(costs) / 6
    assert _row_pieces(np.array([7]), 4) == ([(0, 1)], [49.0])


def test_score_matrix_through_the_scan(monkeypatch):
    """PairwiseAligner.score_matrix and the progressive guide tree's distances with the scan
    kernels chosen (allpairs.KERNELS) equal those of the engine's windows."""
    from bioplug.pairwise import allpairs
    from bioplug.progressive import guide

    _, db = random_set(5, nd=40, dmax=90)
    aligner = PairwiseAligner(mode="local", substitution_matrix=BLOSUM62, open_gap_score=-12,
                              extend_gap_score=-1, device=DEVICE)
    rt = get_runtime(DEVICE)
    before = aligner.score_matrix(db), guide.matrix_tree(db, False, rt, "align")
    calls = []
    for name in ("score_triangle", "score_square"):
        real = getattr(Scanner, name)
        monkeypatch.setattr(Scanner, name, lambda self, codes, real=real, name=name:
                            calls.append((name, len(codes))) or real(self, codes))
    monkeypatch.setattr(allpairs, "KERNELS", {"gpu": "scan", "cpu": "scan"})
    after = aligner.score_matrix(db), guide.matrix_tree(db, False, rt, "align")
    assert calls == [("score_square", len(db)), ("score_triangle", len(db))]
    np.testing.assert_array_equal(after[0], before[0])
    np.testing.assert_array_equal(after[1], before[1])
    assert after[0][3, 9] == biopython().score(db[3], db[9])


@pytest.mark.parametrize("threshold, scans", [(1, 1), (10**6, 0)])
def test_auto_kernels_choose_by_mean_length(monkeypatch, threshold, scans):
    from bioplug.alphabet import load_matrix, make_scoring
    from bioplug.pairwise import allpairs
    from bioplug.pairwise.engine import PairwiseEngine

    scoring = make_scoring(load_matrix("BLOSUM62"), gaps=[-12, -1] * 6, local=True)
    codes = [scoring.encode(s) for s in random_set(9, nd=12)[1]]
    calls = []
    real = Scanner.score_triangle
    monkeypatch.setattr(Scanner, "score_triangle",
                        lambda self, c: calls.append(1) or real(self, c))
    monkeypatch.setattr(allpairs, "SCAN_MIN_MEAN", threshold)
    engine = PairwiseEngine(scoring, devices=[DEVICE])
    tri, rank = allpairs.score_triangle(engine, codes, kernels="auto")
    assert len(calls) == scans
    ref = engine.score_triangle(codes)
    np.testing.assert_array_equal(tri, ref[0])
    np.testing.assert_array_equal(rank, ref[1])


def test_several_devices_share_a_search():
    """Two devices (two contexts on the test device) share the chunks: the same hit table as
    one device, chunks scanned by both, every score Biopython's, and a cancel stops it."""
    from bioplug.progress import Cancelled
    from bioplug.runtime import Runtime, select_device

    queries, db = random_set(11, nq=4, nd=150)
    queries.append("W" * 3000)
    db += ["W" * 3000, queries[0] * 2]                    # past int16 (32-bit rescue); a repeat
    one = search(queries, db, top=6, device=DEVICE, chunk_residues=2000)
    devices = [Runtime(select_device(DEVICE)), Runtime(select_device(DEVICE))]
    seen = []
    real = scan_module.Scanner.chunk_top
    record = lambda self, *a: seen.append(id(self)) or real(self, *a)  # noqa: E731
    scan_module.Scanner.chunk_top = record
    try:
        two = search(queries, db, top=6, device=devices, chunk_residues=2000)
    finally:
        scan_module.Scanner.chunk_top = real
    assert two.tabular() == one.tabular()
    assert len(set(seen)) == 2 and len(seen) > 4
    assert "scan: 32-bit rescue" in two.seconds and two.hits[4][0].score == 33000
    every = search(queries, db, top=len(db), device=devices, chunk_residues=2000)
    assert_all_scores(every, queries, db, biopython())
    aligner = PairwiseAligner(mode="local", substitution_matrix=BLOSUM62, open_gap_score=-12,
                              extend_gap_score=-1, devices=devices)
    assert aligner.search(queries, db, top=6).tabular() == one.tabular()
    with pytest.raises(Cancelled):
        search(queries, db, top=6, device=devices, chunk_residues=2000,
               progress=lambda stage, done, total: done < 30)


def test_duplicate_ids_refused_naming_them_and_their_records(tmp_path, capsys):
    """Tabular and SAM lines name hits by id: two queries (or two database sequences) of one
    id would be one, so both are refused before the scan, naming the id and the records."""
    unique = write_fasta(tmp_path / "q.fa", ["MKVLAQW", "PPGGSTRK"], "q")
    qdup = tmp_path / "qdup.fa"
    qdup.write_text(">q1\nMKVLAQW\n>q2\nPPGG\n>q1 again\nPPGGSTRK\n")
    dbdup = tmp_path / "dbdup.fa"
    dbdup.write_text(">s1\nMKVLAQWE\n>s2\nAAAA\n>s3\nGGPPGG\n>s2\nKVLAQ\n>s3\nPPG\n")
    db = write_fasta(tmp_path / "db.fa", ["MKVLAQWE", "GGPPGGSTRKGG"])
    for qf, dbf, message in [
        (qdup, db, f"{qdup}: duplicate query id 'q1' (records 1 and 3)"),
        (unique, dbdup, f"{dbdup}: duplicate database ids 's2' (records 2 and 4); 's3' "
                        "(records 3 and 5)"),
    ]:
        out = tmp_path / "hits.sam"
        assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--device",
                     DEVICE]) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and message in err[0]
        assert not out.exists()
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    twins = [SeqRecord(Seq("MKV"), id="x"), SeqRecord(Seq("MKW"), id="x")]
    with pytest.raises(InputError, match=r"duplicate query id 'x' \(records 1 and 2\)"):
        search(twins, ["MKVW"], device=DEVICE)
    with pytest.raises(InputError, match=r"duplicate database id 'x' \(records 1 and 2\)"):
        search(["MKVW"], twins, device=DEVICE)


def test_repeated_ids_in_order_of_their_second_record():
    from bioplug.pairwise.database import repeated_ids

    assert repeated_ids(["a", "b", "a", "c", "b", "a", "c"]) == {
        "a": (0, 2), "b": (1, 4), "c": (3, 6)}
    assert repeated_ids(["a", "b", "c"]) == {}
    assert repeated_ids([]) == {}


def test_a_database_file_is_checked_once_when_its_index_is_built(tmp_path, monkeypatch):
    from bioplug.pairwise import database as database_module

    db = write_fasta(tmp_path / "db.fa", ["MKVLAQWE", "GGPPGGSTRKGG"])
    search(["MKVLAQ"], db, device=DEVICE)   # builds the index
    checked = []
    real = database_module.check_distinct_ids
    for module in (search_module, database_module):
        monkeypatch.setattr(module, "check_distinct_ids",
                            lambda ids, what, source: checked.append(what) or real(ids, what,
                                                                                   source))
    search(["MKVLAQ"], db, device=DEVICE)   # the index: only the queries are checked
    assert checked == ["query"]


def _sam_lines(path):
    lines = path.read_text().splitlines()
    return ([line.split("\t") for line in lines if line.startswith("@")],
            [line.split("\t") for line in lines if not line.startswith("@")])


def _cigar_query_length(cigar):
    import re

    return sum(int(n) for n, op in re.findall(r"(\d+)([MIS=X])", cigar))


def test_sam_hits_carry_their_own_query_even_under_one_id(tmp_path, monkeypatch):
    """The SAM writer pairs a hit with its query and subject by record number, never by id
    (the id check switched off here to show it)."""
    from bioplug.pairwise import database as database_module

    for module in (search_module, database_module):
        monkeypatch.setattr(module, "check_distinct_ids", lambda *args: None)
    texts = ["MKVLAQWERTYHHKLL", "PPGGSTRKLMNQ"]
    qf = tmp_path / "q.fa"
    qf.write_text("".join(f">q1\n{t}\n" for t in texts))
    dbf = tmp_path / "db.fa"
    dbf.write_text(">s1\nMKVLAQWERTYHHKLL\n>s1\nGGPPGGSTRKLMNQGG\n>s3\nAAAAKVLAQ\n")
    out = tmp_path / "hits.sam"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--device",
                 DEVICE]) == 0
    _, rows = _sam_lines(out)
    primaries = [r for r in rows if not int(r[1]) & 0x100]
    assert [r[9] for r in primaries] == texts   # each query's best hit: its own letters
    for r in primaries:
        assert _cigar_query_length(r[5]) == len(r[9])


def _searched_sam(tmp_path, queries, db, top):
    """``bioplug search Q DB -o hits.sam --top TOP``: the three files and the SAM's header
    and record lines, split at tabs."""
    qf = write_fasta(tmp_path / "q.fa", queries, "q")
    dbf = write_fasta(tmp_path / "db.fa", db)
    out = tmp_path / "hits.sam"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--top", str(top),
                 "--device", DEVICE]) == 0
    return (qf, dbf, out, *_sam_lines(out))


def test_sam_follows_the_spec_and_reads_back(tmp_path):
    """@HD, one @SQ per database sequence with a hit, @PG; a query's hits after its best are
    secondary (FLAG 256, SEQ *); Bio.Align reads the file back with the hits' paths."""
    queries, db = random_set(11, nq=3, nd=30)
    queries[2] = queries[2].lower()   # soft-masked: the SAM keeps the file's letters
    qf, dbf, out, header, rows = _searched_sam(tmp_path, queries, db, 3)
    ref = search(str(qf), str(dbf), top=3, device=DEVICE)
    subjects = sorted({h.subject for hits in ref.hits for h in hits})
    assert header[0] == ["@HD", "VN:1.6", "SO:unsorted", "GO:query"]
    assert header[1:-1] == [["@SQ", f"SN:s{k}", f"LN:{len(db[k])}"] for k in subjects]
    assert header[-1][:3] == ["@PG", "ID:bioplug", "PN:bioplug"]
    hits = [h for hits in ref.hits for h in hits]
    flags = [0 if n == 0 else 256 for hits in ref.hits for n in range(len(hits))]
    assert [int(r[1]) for r in rows] == flags
    assert all(r[9] == r[10] == "*" for r in rows if r[1] == "256")
    alignments = list(Align.parse(str(out), "sam"))
    assert len(alignments) == len(hits) == len(rows)
    for alignment, hit, flag in zip(alignments, hits, flags, strict=True):
        target, query = alignment.sequences
        assert (query.id, target.id, alignment.flag) == (hit.query_id, hit.subject_id, flag)
        assert len(target) == len(db[hit.subject]) and len(query) == len(queries[hit.query])
        np.testing.assert_array_equal(alignment.coordinates, hit.coordinates[::-1])
        if flag == 0:
            assert str(query.seq) == queries[hit.query]


@pytest.mark.parametrize("option, value", [("top", 0), ("chunk_residues", 0),
                                           ("chunk_residues", -5)])
def test_values_below_one_are_refused(option, value):
    with pytest.raises(InputError, match=f"{option} must be at least 1, not {value}"):
        search(["MKVLAQ"], ["MKVLAQWE"], device=DEVICE, **{option: value})


def random_dna(seed, n, low=80, high=200):
    rng = np.random.default_rng(seed)
    return ["".join(rng.choice(list("ACGT"), int(rng.integers(low, high)))) for _ in range(n)]


def test_nucleotides_with_the_default_protein_matrix_are_refused(tmp_path, capsys, caplog):
    """BLOSUM62 scores A, C, G and T as amino acids: DNA against DNA got small E-values that
    meant nothing. With the default matrix it is refused, naming a nucleotide scoring; a
    protein matrix the user named is searched, with a warning."""
    qf = write_fasta(tmp_path / "q.fa", random_dna(1, 3), "q")
    dbf = write_fasta(tmp_path / "db.fa", [d.lower() for d in random_dna(2, 20)])
    out = tmp_path / "hits.tsv"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--device", DEVICE]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nucleotide" in err and "BLOSUM62 is a protein matrix" in err
    assert "--matrix NUC.4.4 --gap-open 10 --gap-extend 6" in err and not out.exists()
    with caplog.at_level("WARNING"):
        assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--matrix", "BLOSUM62",
                     "--device", DEVICE]) == 0
    assert "BLOSUM62 is a protein matrix" in caplog.text and out.exists()
    caplog.clear()
    with caplog.at_level("WARNING"):
        assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--matrix", "NUC.4.4",
                     "--gap-open", "10", "--gap-extend", "6", "--device", DEVICE]) == 0
    assert "protein matrix" not in caplog.text
    # the Python front door: the same rule; an aligner's matrix is the user's choice
    queries, db = random_dna(3, 2), random_dna(4, 10)
    with pytest.raises(InputError, match="matrix=\"NUC.4.4\", gap_open=10, gap_extend=6"):
        search(queries, db, device=DEVICE)
    caplog.clear()
    with caplog.at_level("WARNING"):
        search(queries, db, matrix="PAM250", device=DEVICE)
        PairwiseAligner(mode="local", substitution_matrix=BLOSUM62, open_gap_score=-12,
                        extend_gap_score=-1, device=DEVICE).search(queries, db)
    assert caplog.text.count("is a protein matrix") == 2
    # proteins, and DNA queries against a protein database, are searched as before
    proteins = random_set(5, nq=2, nd=10)
    search(proteins[0], proteins[1], device=DEVICE)
    search(queries, proteins[1], device=DEVICE)


def test_database_sampled_from_start_to_end():
    """A large database is classed from runs spread over all of it, not its first pages."""
    codes = np.arange(10_000, dtype=np.int64)
    sample = search_module._spread_sample(codes, 640, pieces=64)
    assert sample.size == 640 and sample[0] == 0 and sample[-1] == codes[-1]
    assert search_module._spread_sample(codes[:100], 640).tolist() == list(range(100))


def _break(folder, damage):
    if damage == "truncated codes":
        with open(folder / "codes.u8", "r+b") as handle:
            handle.truncate(100)
    elif damage == "no order":
        (folder / "order.i64").unlink()
    elif damage == "ids written over":
        (folder / "ids.txt").write_text("x\n")
    elif damage == "offsets written over":
        offsets = np.fromfile(folder / "offsets.i64", dtype=np.int64)
        offsets[1:] = offsets[1:][::-1]
        offsets.tofile(folder / "offsets.i64")
    elif damage == "order written over":
        np.zeros(len(np.fromfile(folder / "order.i64", np.int64)), np.int64).tofile(
            folder / "order.i64")
    elif damage == "no titles":
        (folder / "titles.txt").unlink()
    elif damage == "id starts cut short":
        with open(folder / "ids.i64", "r+b") as handle:
            handle.truncate(handle.seek(0, 2) - 8)
    elif damage == "id starts written over":
        np.zeros(len(np.fromfile(folder / "ids.i64", np.int64)), np.int64).tofile(
            folder / "ids.i64")
    elif damage == "rank written over":
        rank = np.fromfile(folder / "rank.i64", np.int64)
        rank[[0, -1]] = rank[[-1, 0]]
        rank.tofile(folder / "rank.i64")


@pytest.mark.parametrize("damage", ["truncated codes", "no order", "ids written over",
                                    "offsets written over", "order written over",
                                    "no titles", "id starts cut short",
                                    "id starts written over", "rank written over"])
def test_a_damaged_index_is_rebuilt_with_a_warning(tmp_path, capsys, caplog, damage):
    """Every file of the index is checked against its header when it is opened: a damaged
    one is rebuilt (a raw ValueError, FileNotFoundError or IndexError used to fail every
    later search of the database)."""
    queries, db = random_set(12, nq=2, nd=40)
    qf = write_fasta(tmp_path / "q.fa", queries, "q")
    dbf = write_fasta(tmp_path / "db.fa", db)
    out = tmp_path / "hits.tsv"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--device", DEVICE]) == 0
    expected = out.read_text()
    _break(index_dir(dbf), damage)
    with caplog.at_level("WARNING"):
        assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--outfmt",
                     "6 std stitle", "--device", DEVICE]) == 0
    assert f"index {index_dir(dbf)} is damaged" in caplog.text
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--device", DEVICE]) == 0
    assert out.read_text() == expected
    assert "damaged" not in capsys.readouterr().err   # the rebuilt index is whole


def test_an_index_without_id_starts_opens_as_before(tmp_path, caplog):
    """Indices built before ``ids.i64`` find their ids' line starts in ``ids.txt``: the same
    ids and hits, no rebuild; a new index reads the stored starts (equal to the found ones)."""
    queries, db = random_set(14, nq=2, nd=30)
    dbf = write_fasta(tmp_path / "db.fa", db)
    scoring = search_module._scheme(None, "BLOSUM62", 11, 1, None)[0]
    built = open_database(dbf, scoring)
    stored = np.asarray(built.ids._starts).tolist()
    ends = np.flatnonzero(np.fromfile(index_dir(dbf) / "ids.txt", np.uint8) == 10)
    assert stored == [0, *(ends + 1).tolist()]
    first = search(queries, str(dbf), top=5, device=DEVICE)
    (index_dir(dbf) / "ids.i64").unlink()
    with caplog.at_level("INFO"):
        old = open_database(dbf, scoring)
        again = search(queries, str(dbf), top=5, device=DEVICE)
    assert "damaged" not in caplog.text and "building" not in caplog.text
    assert not (index_dir(dbf) / "ids.i64").exists()
    assert list(old.ids) == list(built.ids) == [f"s{k}" for k in range(len(db))]
    assert again.tabular() == first.tabular()


def _counting_checks(monkeypatch) -> list:
    """Calls of the index's content checks, recorded (and still made)."""
    calls, check = [], database_module._check_contents
    monkeypatch.setattr(database_module, "_check_contents",
                        lambda *args: calls.append(1) or check(*args))
    return calls


def test_a_stamped_index_opens_without_passing_over_its_files(tmp_path, monkeypatch):
    """An index whose files are as its build stamped them is mapped, not read: no pass over
    32 bytes a sequence at each search (seconds at UniProt's size). A file written since, or
    an index from before the stamps, is checked once and stamped anew."""
    queries, db = random_set(15, nq=2, nd=30)
    dbf = write_fasta(tmp_path / "db.fa", db)
    scoring = search_module.search_scoring()
    first = search(queries, str(dbf), top=5, device=DEVICE)
    calls = _counting_checks(monkeypatch)
    opened = open_database(dbf, scoring)
    assert calls == [] and isinstance(opened.offsets, np.memmap)
    assert isinstance(opened.order, np.memmap) and opened.lengths.tolist() == sorted(
        map(len, db))
    assert search(queries, str(dbf), top=5, device=DEVICE).tabular() == first.tabular()
    assert calls == []
    folder = index_dir(dbf)
    offsets = folder / "offsets.i64"
    offsets.write_bytes(offsets.read_bytes())   # same bytes, written after the stamps
    header = json.loads((folder / "header.json").read_text())
    del header["files"]                          # as an index built before them
    (folder / "header.json").write_text(json.dumps(header))
    open_database(dbf, scoring)
    assert calls == [1]                          # checked once, then stamped again
    open_database(dbf, scoring)
    assert calls == [1] and "files" in json.loads((folder / "header.json").read_text())


def test_hits_read_their_place_from_the_stored_rank(tmp_path, monkeypatch, caplog):
    """Tracing hits reads where each sits in the sorted codes from ``rank.i64`` (a value a
    hit), not an inverse of the whole order made at every search; an index without the file
    makes it as before, with the same hits."""
    queries, db = random_set(17, nq=3, nd=40)
    dbf = write_fasta(tmp_path / "db.fa", db)
    expected = search(queries, str(dbf), top=5, device=DEVICE).tabular()
    opened = open_database(dbf, search_module.search_scoring())
    assert isinstance(opened.rank, np.memmap)
    assert np.array_equal(np.asarray(opened.rank)[np.asarray(opened.order)], np.arange(40))
    made = []
    inverse = database_module._inverse
    monkeypatch.setattr(database_module, "_inverse", lambda o: made.append(1) or inverse(o))
    assert search(queries, str(dbf), top=5, device=DEVICE).tabular() == expected
    assert made == []
    (index_dir(dbf) / "rank.i64").unlink()
    with caplog.at_level("INFO"):
        assert search(queries, str(dbf), top=5, device=DEVICE).tabular() == expected
    assert made == [1] and "damaged" not in caplog.text and "building" not in caplog.text


def test_a_file_replaced_with_its_time_kept_is_still_found(tmp_path, caplog):
    """Stamps hold the inode too: offsets swapped for others of the same size, given the old
    file's modification time, are checked and the index rebuilt."""
    queries, db = random_set(16, nq=2, nd=30)
    dbf = write_fasta(tmp_path / "db.fa", db)
    scoring = search_module.search_scoring()
    expected = search(queries, str(dbf), top=5, device=DEVICE).tabular()
    offsets = index_dir(dbf) / "offsets.i64"
    before = offsets.stat()
    values = np.fromfile(offsets, np.int64)
    values[1:] = values[1:][::-1]
    other = offsets.with_name("other.i64")
    values.tofile(other)
    os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(other, offsets)
    with caplog.at_level("WARNING"):
        assert open_database(dbf, scoring).residues == sum(map(len, db))
    assert "is damaged" in caplog.text
    assert search(queries, str(dbf), top=5, device=DEVICE).tabular() == expected


def test_an_output_inside_the_index_folder_is_refused(tmp_path, capsys):
    queries, db = random_set(13, nq=2, nd=10)
    qf = write_fasta(tmp_path / "q.fa", queries, "q")
    dbf = write_fasta(tmp_path / "db.fa", db)
    assert main(["-q", "search", str(qf), str(dbf), "-o", "-", "--device", DEVICE]) == 0
    capsys.readouterr()
    for inside in (index_dir(dbf) / "hits.tsv", index_dir(dbf) / "codes.u8", index_dir(dbf)):
        assert main(["-q", "search", str(qf), str(dbf), "-o", str(inside),
                     "--device", DEVICE]) == 2
        err = capsys.readouterr().err
        assert "inside the index folder" in err and str(index_dir(dbf).resolve()) in err
    assert open_database(dbf, search_module.search_scoring()).residues == sum(map(len, db))


def test_sam_writes_queries_without_hits_as_unmapped(tmp_path):
    """A query with no hit is one unmapped line (FLAG 4, RNAME *, POS 0, its letters), in
    query order, as read mappers write them; samtools and Bio.Align read it."""
    queries, db = random_set(14, nq=3, nd=20)
    queries.insert(1, "xxxx")   # X scores below zero against every letter: no hit
    _, _, out, header, rows = _searched_sam(tmp_path, queries, db, 2)
    assert [r[0] for r in rows] == ["q0", "q0", "q1", "q2", "q2", "q3", "q3"]
    assert rows[2] == ["q1", "4", "*", "0", "0", "*", "*", "0", "0", "xxxx", "*"]
    assert all(r[2] != "*" for r in rows if r[0] != "q1")
    assert header[0][0] == "@HD" and header[-1][0] == "@PG"
    parsed = list(Align.parse(str(out), "sam"))
    assert len(parsed) == len(rows) and parsed[2].flag == 4


@pytest.mark.parametrize("gz", [False, True])
def test_the_index_build_reports_its_progress_and_can_be_cancelled(tmp_path, monkeypatch, gz):
    """A large database's first search shows its index being built (stage "index", in bytes
    of the FASTA file, compressed ones for gzip, up to its size), and a cancel there leaves
    no index and no temporary folder beside the database."""
    monkeypatch.setattr("bioplug.pairwise.fasta.BLOCK", 512)   # many blocks of a small file
    queries, db = random_set(4, nq=2, nd=60)
    fasta = write_fasta(tmp_path / "db.fa", db)
    if gz:   # random residues barely compress: still several blocks of the file
        import gzip

        fasta.write_bytes(gzip.compress(fasta.read_bytes()))
    seen = []
    search(queries, fasta, top=2, device=DEVICE,
           progress=lambda stage, done, total: seen.append((stage, done, total)))
    index = [(done, total) for stage, done, total in seen if stage == "index"]
    assert len(index) > 2 and index[-1] == (fasta.stat().st_size,) * 2
    assert [d for d, _ in index] == sorted(d for d, _ in index)
    shutil.rmtree(index_dir(fasta))
    with pytest.raises(Cancelled):
        search(queries, fasta, top=2, device=DEVICE,
               progress=lambda stage, done, total: stage != "index" or done < total // 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db.fa"]


def test_search_leaves_heavy_modules_unimported(tmp_path):
    """A search with BLAST+'s default E-values needs neither scipy (0.1-0.2 s to import at
    every `bioplug search`: its normal distribution function is math.erfc's) nor pandas."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    queries, db = random_set(11, nq=2, nd=30)
    fasta = write_fasta(tmp_path / "db.fa", db)
    code = ("import sys; from bioplug.pairwise.search import search; "
            f"r = search({queries!r}, {str(fasta)!r}, top=5, device={DEVICE!r}); "
            "assert r.hits[0][0].evalue is not None; "
            "print([m for m in ('scipy', 'pandas', 'skbio', 'PySide6') if m in sys.modules])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"
