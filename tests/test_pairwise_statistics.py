"""E-values from a search's own scores (bioplug.pairwise.statistics): the fit recovers the
line and spread of scores drawn from the model, homologues left out, and its E-values are
calibrated (about E hits of E-value E or less among unrelated sequences)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.pairwise.statistics import ScoreCounts, fit, log_evalues

GAMMA = 0.5772156649015329


def draw(rng, lengths, rho, mu, sigma):
    """Scores of unrelated sequences under the model: an extreme-value variable of mean 0
    and variance 1, scaled and shifted by the length's line."""
    z = (-np.log(-np.log(rng.random(lengths.size))) - GAMMA) * math.sqrt(6) / math.pi
    return np.rint(rho * np.log(lengths) + mu + sigma * z).astype(np.int64)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), rho=st.floats(2.0, 8.0), mu=st.floats(5.0, 20.0),
       sigma=st.floats(3.0, 8.0))
def test_fit_recovers_the_line_and_spread(seed, rho, mu, sigma):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(50, 2000, 20_000)
    scores = draw(rng, lengths, rho, mu, sigma)
    scores[:40] += 300   # homologues: far above the line, left out
    assert (scores > 0).mean() > 0.99   # local scores: all but a few above the floor of 0
    counts = ScoreCounts(1, lengths)
    counts.add(np.clip(scores, 0, None)[None, :], lengths)
    got = counts.fits()[0]
    assert got.rho == pytest.approx(rho, abs=0.4)
    assert got.mu == pytest.approx(mu, abs=2.5)
    assert got.sigma == pytest.approx(sigma, rel=0.06)
    assert got.used <= lengths.size - 40


def test_evalues_are_calibrated():
    """Among unrelated sequences, about E of them score at E-value E or less."""
    rng = np.random.default_rng(1)
    found = {0.1: 0, 1.0: 0, 10.0: 0}
    runs = 40
    for _ in range(runs):
        lengths = rng.integers(100, 1000, 5_000)
        scores = draw(rng, lengths, 5.0, 8.0, 5.0)
        counts = ScoreCounts(1, lengths)
        counts.add(scores[None, :], lengths)
        e = np.exp(log_evalues(scores, lengths, counts.fits()[0], lengths.size))
        for cut in found:
            found[cut] += int((e <= cut).sum())
    for cut, n in found.items():
        mean = n / runs
        assert abs(mean - cut) <= 4 * math.sqrt(cut / runs) + 0.25 * cut, (cut, mean)


def test_too_few_sequences_or_no_spread_give_no_fit():
    lengths = np.full(50, 300)
    counts = ScoreCounts(1, lengths)
    counts.add(np.full((1, 50), 20), lengths)
    assert counts.fits() == [None]
    many = np.full(500, 300)
    flat = ScoreCounts(1, many)
    flat.add(np.full((1, 500), 20), many)
    assert flat.fits() == [None]
    assert fit(np.zeros((1, 10), np.int64), np.zeros(1)) is None


def test_counts_of_chunks_add_up_and_queries_stay_apart():
    rng = np.random.default_rng(3)
    lengths = rng.integers(30, 900, 3_000)
    scores = rng.integers(0, 80, (70, 3_000))   # more queries than one counting block
    whole = ScoreCounts(70, lengths)
    whole.add(scores, lengths)
    parts = ScoreCounts(70, lengths)
    for a in range(0, 3_000, 700):
        parts.add(scores[:, a:a + 700], lengths[a:a + 700])
    assert np.array_equal(whole.counts, parts.counts)
    assert whole.counts[5].sum() == 3_000
    assert np.array_equal(whole.counts[5].sum(axis=0)[:80], np.bincount(scores[5], minlength=80))


# -- in a search --------------------------------------------------------------------------------
DEVICE = __import__("os").environ.get("BIOPLUG_TEST_DEVICE", "cpu")
AMINO = "ACDEFGHIKLMNPQRSTVWY"


def random_proteins(rng, n, low=60, high=400):
    return ["".join(rng.choice(list(AMINO), int(rng.integers(low, high)))) for _ in range(n)]


def test_search_fits_evalues_for_a_scoring_without_a_table():
    """PAM250 with gap costs 11/1 has no BLAST table entry: the E-values come from the fit,
    a planted relative is significant and unrelated sequences are not (about E of them at
    E-value E)."""
    from bioplug.pairwise.search import search

    rng = np.random.default_rng(7)
    queries = random_proteins(rng, 12, 150, 300)
    db = random_proteins(rng, 1500)
    db[3] = queries[0][20:140]
    results = search(queries, db, matrix="PAM250", top=50, device=DEVICE)
    assert results.statistics == "fit"
    best = results.hits[0][0]
    assert best.subject == 3 and best.evalue < 1e-15
    assert best.bits == pytest.approx(math.log2(len(queries[0]) * sum(map(len, db))
                                                / best.evalue))
    chance = [h.evalue for q, hits in enumerate(results.hits) for h in hits
              if not (q == 0 and h.subject == 3)]
    assert all(math.isfinite(e) for e in chance)
    below_one = sum(e <= 1.0 for e in chance)
    assert 1 <= below_one <= 40, below_one   # about 12 expected: one per query
    kept = search(queries, db, matrix="PAM250", top=50, device=DEVICE, evalue=1e-10)
    assert [[h.subject for h in hits] for hits in kept.hits] == [[3]] + [[]] * 11


def test_fit_agrees_with_blasts_table_where_it_has_one():
    from bioplug.pairwise.search import search

    rng = np.random.default_rng(9)
    queries = random_proteins(rng, 6, 200, 300)
    db = random_proteins(rng, 2000)
    for q in range(6):   # relatives of every strength
        db[q] = queries[q][: 40 + 30 * q]
    # the plain table (old_fsc): Spouge's correction moves short subjects' E-values by
    # orders of magnitude (a 40-residue subject inside a 242-residue alignment's edge)
    table = search(queries, db, top=3, device=DEVICE, statistics="table", old_fsc=True)
    fitted = search(queries, db, top=3, device=DEVICE, statistics="fit")
    assert (table.statistics, fitted.statistics) == ("table", "fit")
    for mine, theirs in zip(table.hits, fitted.hits, strict=True):
        h, f = mine[0], theirs[0]
        assert (h.subject, h.score) == (f.subject, f.score)
        # the same tail: the fitted lambda (0.236-0.255 here) within 15 % of the table's
        # asymptotic 0.267, so strong hits' E-values drift apart as SSEARCH's and BLAST's
        # do, by up to 15 % of the exponent
        t = math.log10(h.evalue)
        assert abs(math.log10(f.evalue) - t) <= 1 + 0.15 * abs(t), (h.evalue, f.evalue)
    assert all(fit.lam == pytest.approx(0.267, rel=0.15) for fit in fitted.fits)


def test_small_databases_give_no_fit(caplog):
    from bioplug.errors import InputError
    from bioplug.pairwise.search import search

    rng = np.random.default_rng(11)
    queries, db = random_proteins(rng, 2), random_proteins(rng, 40)
    with caplog.at_level("WARNING"):
        results = search(queries, db, matrix="PAM250", top=2, device=DEVICE)
    assert "needs at least 100" in caplog.text
    assert all(math.isnan(h.evalue) for hits in results.hits for h in hits)
    with pytest.raises(InputError, match="E-value cutoff needs E-values"):
        search(queries, db, matrix="PAM250", evalue=1.0, device=DEVICE)
    with pytest.raises(InputError, match="statistics must be one of"):
        search(queries, db, statistics="blast", device=DEVICE)


def test_fit_asked_for_on_a_small_database_is_refused(tmp_path, capsys):
    """``statistics="fit"`` (``--statistics fit``) on a database below the fit's minimum is
    refused before the scan: it used to warn that E-values were N/A, then print the table's.
    "auto" keeps the table where it has the scoring, else says the E-values are N/A."""
    from bioplug.cli import main
    from bioplug.errors import InputError
    from bioplug.pairwise.search import search

    rng = np.random.default_rng(19)
    queries, db = random_proteins(rng, 2), random_proteins(rng, 20)
    with pytest.raises(InputError, match="'fit'.* at least 100 sequences; the database has 20"):
        search(queries, db, statistics="fit", device=DEVICE)
    auto = search(queries, db, top=1, device=DEVICE)   # BLOSUM62 11/1: the table's
    assert auto.statistics == "table" and all(math.isfinite(h[0].evalue) for h in auto.hits)
    qf, dbf = tmp_path / "q.fa", tmp_path / "db.fa"
    qf.write_text("".join(f">q{k}\n{s}\n" for k, s in enumerate(queries)))
    dbf.write_text("".join(f">d{k}\n{s}\n" for k, s in enumerate(db)))
    out = tmp_path / "hits.tsv"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--statistics", "fit",
                 "--device", DEVICE]) == 2
    err = capsys.readouterr().err
    assert f"{dbf} has 20" in err and "--statistics fit" in err and "'table'" in err
    assert not out.exists() and "N/A" not in err


def test_fitted_evalues_do_not_depend_on_chunks_or_devices():
    """The counts of a fit come from every chunk, whichever device scans it (two contexts,
    small chunks): the same E-values as one device in one chunk."""
    from bioplug.pairwise.search import search
    from bioplug.runtime import Runtime, select_device

    rng = np.random.default_rng(13)
    queries = random_proteins(rng, 4, 100, 200)
    db = random_proteins(rng, 400)
    db[2] = queries[1][10:90]
    one = search(queries, db, matrix="PAM250", top=5, device=DEVICE)
    devices = [Runtime(select_device(DEVICE)), Runtime(select_device(DEVICE))]
    two = search(queries, db, matrix="PAM250", top=5, device=devices, chunk_residues=3000)
    assert two.statistics == one.statistics == "fit"
    assert two.tabular() == one.tabular()
    assert [f.sigma for f in two.fits] == [f.sigma for f in one.fits]


def test_fitted_hits_are_each_querys_best_by_evalue():
    """Fitted E-values weigh the subject's length too: the hits kept are the query's best by
    E-value over every database sequence (not by score), listed by E-value."""
    from bioplug.pairwise.search import search

    rng = np.random.default_rng(17)
    queries = random_proteins(rng, 3, 150, 250)
    db = random_proteins(rng, 300, 20, 900)   # lengths far apart: E and score orders differ
    every = search(queries, db, matrix="PAM250", top=len(db), device=DEVICE)
    some = search(queries, db, matrix="PAM250", top=7, device=DEVICE)
    differ = False
    for all_hits, mine in zip(every.hits, some.hits, strict=True):
        by_e = sorted(all_hits, key=lambda h: (h.evalue, h.subject))[:7]
        assert [h.subject for h in mine] == [h.subject for h in by_e]
        assert [h.evalue for h in mine] == sorted(h.evalue for h in mine)
        by_score = sorted(all_hits, key=lambda h: (-h.score, h.subject))[:7]
        differ |= [h.subject for h in by_score] != [h.subject for h in mine]
    assert differ   # the case this test is about happened


@pytest.mark.skipif(__import__("shutil").which("ssearch36") is None,
                    reason="SSEARCH (ssearch36, Debian's fasta3) is not on PATH: no oracle")
@pytest.mark.parametrize("seed", [3, 7])
def test_fitted_evalues_agree_with_ssearch(tmp_path, seed):
    """Against SSEARCH 36 itself (its default statistics, -z 1: the regression on ln(length)
    this fit follows), BLOSUM62 11/1, 2,000 random proteins and three homologs of each query.
    The homologs' E-values agree within 0.15 decades plus 2 % of their exponent (the two
    fitted lines differ a little: about 2 decades at 1e-134); each query's k-th best chance
    hit (k = 1..20 of the 2,000 unrelated sequences) has the same E-value within a factor 2 in
    both, though one pair's can differ more (each fit weighs the subject's length its own
    way); the typical pair agrees within 0.08 decades."""
    import subprocess

    from bioplug.pairwise.search import search

    rng = np.random.default_rng(seed)
    queries = random_proteins(rng, 4, 60, 600)
    db = random_proteins(rng, 2000, 50, 800)
    for q in queries:
        for p in (0.4, 0.6, 0.7):
            db.append("".join(c if rng.random() > p else random_proteins(rng, 1, 1, 2)[0]
                              for c in q))
    qf, dbf = tmp_path / "q.fa", tmp_path / "db.fa"
    qf.write_text("".join(f">q{k}\n{s}\n" for k, s in enumerate(queries)))
    dbf.write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(db)))
    out = subprocess.run(["ssearch36", "-q", "-m", "8", "-s", "BL62", "-f", "-11", "-g", "-1",
                          "-b", "30", "-d", "0", "-E", "1000", "-z", "1", str(qf), str(dbf)],
                         check=True, capture_output=True, text=True).stdout
    theirs = {}
    for line in out.splitlines():
        if line.strip() and not line.startswith("#"):
            f = line.split("\t")
            theirs[(f[0], f[1])] = float(f[10])
    ours = search(str(qf), str(dbf), top=30, device=DEVICE, statistics="fit")
    gaps = []
    for q, hits in enumerate(ours.hits):
        for h in hits:
            e = theirs.get((h.query_id, h.subject_id))
            if e:
                gaps.append(abs(math.log10(h.evalue / e)))
                if e < 1e-5:
                    assert gaps[-1] <= 0.15 + 0.02 * abs(math.log10(e)), (h.subject_id,
                                                                          h.evalue, e)
        mine = [h.evalue for h in hits if int(h.subject_id[1:]) < 2000][:20]
        chance = sorted(e for (qid, sid), e in theirs.items()
                        if qid == f"q{q}" and int(sid[1:]) < 2000)[:20]
        assert len(mine) == len(chance) == 20
        assert np.all(np.abs(np.log10(np.array(mine) / np.array(chance))) <= math.log10(2)), \
            (mine, chance)
    assert len(gaps) >= 100 and np.median(gaps) <= 0.08, (len(gaps), np.median(gaps))
