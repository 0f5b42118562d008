"""What ``bioplug search`` writes: BLAST+ tabular columns (outfmt 6 and 7), the E-value
cutoff, subject titles and the readable report, checked against the aligned rows themselves,
Biopython (scores, ``Alignment.counts``) and scikit-bio's BLAST readers.

Runs on PoCL by default; ``BIOPLUG_TEST_DEVICE=gpu`` runs them on a GPU.
"""

import io
import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import skbio
from Bio import Align
from Bio.Align import substitution_matrices
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bioplug.pairwise.karlin as karlin
from bioplug.cli import main
from bioplug.errors import InputError
from bioplug.pairwise.blast_tab import STD, aligned_part, parse_outfmt
from bioplug.pairwise.search import Hit, search

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
BLOSUM62 = substitution_matrices.load("BLOSUM62")
AMINO = "ACDEFGHIKLMNPQRSTVWY"
ALL = ("std qlen slen nident positive gaps ppos qcovhsp scovhsp score qseq sseq btop "
       "stitle").split()


def related_set(seed, nq=3, nd=60):
    """Random proteins, and database sequences made from the queries with changes, gaps
    and lower-case stretches, so hits have mismatches, gaps of both kinds and end gaps."""
    rng = np.random.default_rng(seed)
    make = lambda n: "".join(rng.choice(list(AMINO), n))  # noqa: E731
    queries = [make(int(rng.integers(30, 140))) for _ in range(nq)]
    db = [make(int(rng.integers(20, 200))) for _ in range(nd)]
    for k, q in enumerate(queries):
        a, b = sorted(rng.integers(0, len(q), 2))
        piece = list(q[a:b + 10])
        for _ in range(len(piece) // 6):
            piece[int(rng.integers(len(piece)))] = str(rng.choice(list(AMINO)))
        cut = len(piece) // 2
        db[2 * k] = make(3) + "".join(piece[:cut]) + make(2) + "".join(piece[cut + 3:]).lower()
    return queries, db


def without_w_partners(seq):
    """``seq`` without the letters W scores above 0 with in BLOSUM62 (W, Y, F)."""
    return seq.translate(str.maketrans("WYFwyf", "AAAaaa"))


def write_fasta(path, seqs, prefix):
    path.write_text("".join(f">{prefix}{k} sequence {k} of {prefix}\n{s}\n"
                            for k, s in enumerate(seqs)))
    return path


def decode_btop(text, qseq_ungapped, sseq_ungapped):
    """The two aligned rows a BTOP string stands for (numbers copy identical letters)."""
    import re

    q, s, i, j = [], [], 0, 0
    for number, pair in re.findall(r"(\d+)|([A-Z*\-]{2})", text):
        if number:
            n = int(number)
            q.append(qseq_ungapped[i:i + n])
            s.append(sseq_ungapped[j:j + n])
            i, j = i + n, j + n
        else:
            q.append(pair[0])
            s.append(pair[1])
            i += pair[0] != "-"
            j += pair[1] != "-"
    return "".join(q), "".join(s)


def blast_path_score(qseq, sseq, open_cost=11, extend_cost=1):
    """Score of two aligned rows with BLAST gap costs (a run of k gaps: open + k * extend)."""
    total, run = 0, None
    for a, b in zip(qseq, sseq, strict=True):
        kind = "q" if a == "-" else "s" if b == "-" else None
        if kind is None:
            total += BLOSUM62[a, b]
        elif kind != run:
            total -= open_cost + extend_cost
        else:
            total -= extend_cost
        run = kind
    return total


def check_hit(h, query, subject):
    q, s = query.upper(), subject.upper()
    assert len(h.qseq) == len(h.sseq) == h.length
    assert h.qseq.replace("-", "") == q[h.qstart - 1:h.qend]
    assert h.sseq.replace("-", "") == s[h.sstart - 1:h.send]
    pairs = [(a, b) for a, b in zip(h.qseq, h.sseq, strict=True) if a != "-" and b != "-"]
    assert not any(a == "-" and b == "-" for a, b in zip(h.qseq, h.sseq, strict=True))
    assert h.nident == sum(a == b for a, b in pairs)
    assert h.positives == sum(a == b or BLOSUM62[a, b] > 0 for a, b in pairs)
    assert h.mismatches == len(pairs) - h.nident
    assert h.gaps == h.length - len(pairs)
    kinds = ["q" if a == "-" else "s" if b == "-" else "" for a, b in
             zip(h.qseq, h.sseq, strict=True)]
    assert h.gap_opens == sum(bool(k) and k != p for k, p in zip(kinds, [""] + kinds,
                                                                  strict=False))
    assert h.identity == pytest.approx(100 * h.nident / h.length)
    assert (h.query_length, h.subject_length) == (len(q), len(s))
    assert blast_path_score(h.qseq, h.sseq) == h.score
    row_q, row_s = decode_btop(h.tabular(["btop"]), h.qseq.replace("-", ""),
                               h.sseq.replace("-", ""))
    assert (row_q, row_s) == (h.qseq, h.sseq)
    # Biopython counts the same alignment independently
    counts = aligned_part(h).counts(BLOSUM62)
    assert (counts.identities, counts.positives, counts.gaps) == (h.nident, h.positives,
                                                                 h.gaps)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_columns_follow_from_the_aligned_rows(seed):
    queries, db = related_set(seed)
    results = search(queries, db, top=8, device=DEVICE)
    aligner = Align.PairwiseAligner(mode="local", substitution_matrix=BLOSUM62,
                                    open_gap_score=-12, extend_gap_score=-1)
    for q, hits in enumerate(results.hits):
        assert hits
        for h in hits:
            assert h.score == aligner.score(queries[q], db[h.subject].upper())
            check_hit(h, queries[q], db[h.subject])


def blast_coverage(part, whole):
    """BLAST+'s qcovhsp: 100 * part / whole, + 0.5 below 99, then truncated."""
    pct = 100 * part / whole
    return int(pct + 0.5 if pct < 99 else pct)


@pytest.mark.parametrize("part, whole, text", [
    (199, 200, "99"), (995, 1000, "99"), (200, 200, "100"), (5, 8, "63"), (1, 8, "13"),
    (1, 200, "1"), (1, 1000, "0"), (197, 200, "99"),
])
def test_coverage_is_rounded_as_blast_does_and_100_means_whole(part, whole, text):
    """99.5% of the query is not the whole query: BLAST+ writes 99 (Python's round gave 100),
    and rounds 62.5 up (round gave 62)."""
    hit = Hit(0, 0, "q", "s", 1.0, math.nan, math.nan, qstart=1, qend=part,
              query_length=whole, sstart=1, send=part, subject_length=whole)
    assert hit.tabular(["qcovhsp", "scovhsp"]) == f"{text}\t{text}"
    assert int(text) == blast_coverage(part, whole)


def test_identical_pairs_of_negative_score_are_positives():
    """BLAST+ counts every identical pair among the positives (its tabular code: an identity
    is a positive, other pairs by their score), so ``ppos`` is never below ``pident``: X-X
    scores -1 in BLOSUM62, N-N -2 in NUC.4.4. Other pairs count by their score."""
    seq = "MKVLAXGIV*GLLLAW"
    h = search([seq], [seq], top=1, device=DEVICE).hits[0][0]
    assert (h.nident, h.positives, h.length) == (16, 16, 16)
    assert h.tabular(["pident", "ppos"]) == "100.000\t100.00"
    mixed = search(["MKVLAEGIVGLLLAW"], ["MKVLAQGIVWLLLAW"], top=1, device=DEVICE).hits[0][0]
    assert (mixed.nident, mixed.positives) == (13, 14)   # E-Q scores 2, G-W -2
    dna = "ACGTNNACGTACGTAC"
    h = search([dna], [dna], matrix="NUC.4.4", gap_open=10, gap_extend=2, top=1,
               device=DEVICE).hits[0][0]
    assert (h.nident, h.positives) == (16, 16)


def test_tabular_columns_and_styles(tmp_path):
    queries, db = related_set(3)
    results = search(queries, db, top=4, device=DEVICE)
    assert results.tabular() == results.tabular(STD) == results.tabular(["std"])
    h = results.hits[0][0]
    line = h.tabular(["qseqid", "sseqid", "qlen", "slen", "qcovhsp", "scovhsp", "ppos",
                      "score"]).split("\t")
    assert line[:4] == [h.query_id, h.subject_id, str(h.query_length), str(h.subject_length)]
    assert int(line[4]) == blast_coverage(h.qend - h.qstart + 1, h.query_length)
    assert int(line[5]) == blast_coverage(h.send - h.sstart + 1, h.subject_length)
    assert float(line[6]) == pytest.approx(100 * h.positives / h.length, abs=0.005)
    assert line[7] == str(int(h.score))
    assert parse_outfmt("6") == (6, STD)
    # BLAST+ writes a repeated column once, where it first comes
    assert parse_outfmt("7 qseqid std evalue") == (7, STD)
    assert parse_outfmt("6 sseqid std qlen sseqid") == (6, ("sseqid", "qseqid", *STD[2:],
                                                             "qlen"))
    assert list(results.to_dataframe(["qseqid", "std"]).columns) == list(STD)
    # a string of names, as --outfmt takes them (it was read letter by letter: "unknown
    # column 'q'")
    assert results.tabular("qseqid sseqid evalue") == results.tabular(["qseqid", "sseqid",
                                                                        "evalue"])
    assert list(results.to_dataframe("std qlen").columns) == [*STD, "qlen"]
    assert h.tabular("sseqid qlen") == f"{h.subject_id}\t{h.query_length}"
    for bad, message in (("5", "not a tabular style"), ("", "not a tabular style"),
                         ("6 qseqid subjectid", "unknown column 'subjectid'")):
        with pytest.raises(InputError, match=message):
            parse_outfmt(bad)


def test_outfmt_7_and_6_read_back_with_scikit_bio(tmp_path):
    queries, db = related_set(5)
    queries.append("WWWW")   # no hit above zero against this database: "# 0 hits found"
    db = [without_w_partners(d) for d in db]
    qf, dbf = write_fasta(tmp_path / "q.fa", queries, "q"), write_fasta(tmp_path / "d.fa",
                                                                          db, "d")
    out7, out6 = tmp_path / "hits7.tsv", tmp_path / "hits6.tsv"
    # scikit-bio's readers do not know scovhsp, and take BTOP for a number
    spec = " ".join(c for c in ALL if c not in ("scovhsp", "btop"))
    for out, style in ((out7, "7"), (out6, "6")):
        assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--top", "5",
                     "--outfmt", f"{style} {spec}", "--device", DEVICE]) == 0
    text = out7.read_text()
    assert "# Query: q3 sequence 3 of q\n" in text and "# 0 hits found\n" in text   # the header
    assert text.startswith("# BLASTP-style tabular output")
    assert text.endswith(f"# bioplug processed {len(queries)} queries\n")
    assert skbio.io.sniff(str(out7))[0] == "blast+7"
    columns = list(parse_outfmt(f"6 {spec}")[1])
    got7 = skbio.io.read(str(out7), format="blast+7", into=pd.DataFrame)
    got6 = skbio.io.read(str(out6), format="blast+6", into=pd.DataFrame, columns=columns)
    assert list(got7.columns) == columns
    results = search(str(qf), str(dbf), top=5, device=DEVICE)
    mine = results.to_dataframe(columns)
    assert len(got7) == len(mine) == sum(len(h) for h in results.hits) > 0
    for got in (got7, got6):
        pd.testing.assert_frame_equal(got.reset_index(drop=True), mine, check_dtype=False)
    assert list(mine["stitle"]) == [f"d{h.subject} sequence {h.subject} of d"
                                    for hits in results.hits for h in hits]
    assert list(mine["qseq"]) == [h.qseq for hits in results.hits for h in hits]
    extra = results.to_dataframe(["btop", "scovhsp"])
    assert list(extra["btop"]) == [h.tabular(["btop"]) for hits in results.hits for h in hits]
    assert extra["scovhsp"].dtype == float


def test_outfmt_7_names_blastn_for_a_nucleotide_search(tmp_path):
    """A nucleotide scoring's comments name BLASTN (they said BLASTP for every search);
    scikit-bio reads the file back."""
    rng = np.random.default_rng(3)
    db = ["".join(rng.choice(list("ACGT"), 200)) for _ in range(30)]
    qf = write_fasta(tmp_path / "q.fa", [db[4][50:110]], "q")
    dbf = write_fasta(tmp_path / "d.fa", db, "d")
    out = tmp_path / "n7.tsv"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--outfmt", "7",
                 "--matrix", "NUC.4.4", "--gap-open", "10", "--gap-extend", "6",
                 "--device", DEVICE]) == 0
    assert out.read_text().startswith("# BLASTN-style tabular output")
    assert len(skbio.io.read(str(out), format="blast+7", into=pd.DataFrame)) > 0


def test_evalue_cutoff_keeps_each_querys_best_hits():
    queries, db = related_set(8, nd=80)
    every = search(queries, db, top=20, device=DEVICE)
    values = sorted(h.evalue for hits in every.hits for h in hits)
    cut = values[len(values) // 2]
    kept = search(queries, db, top=20, device=DEVICE, evalue=cut)
    assert [[(h.subject, h.score) for h in hits if h.evalue <= cut] for hits in every.hits] \
        == [[(h.subject, h.score) for h in hits] for hits in kept.hits]
    assert 0 < sum(map(len, kept.hits)) < sum(map(len, every.hits))
    assert not any(search(queries, db, top=20, device=DEVICE, evalue=0.0).hits)
    with pytest.raises(InputError, match="PAM250 with gap costs .*17/1"):
        search(queries, db, matrix="PAM250", evalue=1.0, device=DEVICE, statistics="table")
    with pytest.raises(InputError, match="0 or more"):
        search(queries, db, evalue=-1.0, device=DEVICE)


def test_aligner_search_takes_the_evalue_cutoff():
    """``PairwiseAligner.search`` is the front door the README shows: it takes ``evalue``
    as ``search`` and ``--evalue`` do."""
    from bioplug import PairwiseAligner

    queries, db = related_set(8, nd=80)
    aligner = PairwiseAligner(mode="local", substitution_matrix=BLOSUM62, open_gap_score=-12,
                              extend_gap_score=-1, device=DEVICE)
    every = aligner.search(queries, db, top=20)
    cut = sorted(h.evalue for hits in every.hits for h in hits)[10]
    kept = aligner.search(queries, db, top=20, evalue=cut)
    assert [[h.subject for h in hits if h.evalue <= cut] for hits in every.hits] \
        == [[h.subject for h in hits] for hits in kept.hits]
    assert 0 < sum(map(len, kept.hits)) < sum(map(len, every.hits))


@pytest.mark.parametrize("matrix, costs, lam, k, alpha, beta", [
    ("BLOSUM50", (13, 2), 0.193, 0.035, 1.6, -32), ("BLOSUM45", (14, 2), 0.195, 0.032, 1.9, -36),
    ("PAM30", (9, 1), 0.294, 0.11, 0.48, -6), ("PAM70", (10, 1), 0.291, 0.091, 0.71, -9),
    ("PAM250", (14, 2), 0.182, 0.024, 2.5, -53), ("BLOSUM90", (10, 1), 0.290, 0.075, 1.04, -15),
])
def test_blast_table_gives_bits_for_its_other_matrices(matrix, costs, lam, k, alpha, beta):
    """(lambda, K, alpha, beta) as NCBI BLAST+'s ``blast_stat.c`` lists them, for BLAST's
    default gap costs of each matrix; E-values over the effective search space (old_fsc)."""
    queries, db = related_set(11, nq=1, nd=20)
    h = search(queries, db, top=1, matrix=matrix, gap_open=costs[0], gap_extend=costs[1],
               device=DEVICE, old_fsc=True).hits[0][0]
    assert karlin.karlin_altschul(matrix, *costs) == (lam, k, alpha, beta)
    assert h.bits == pytest.approx((lam * h.score - math.log(k)) / math.log(2))
    m, n = len(queries[0]), sum(map(len, db))
    ell = int(karlin.length_adjustment(m, n, len(db), lam, k, alpha, beta))
    assert h.evalue == pytest.approx((m - ell) * (n - len(db) * ell) * 2.0 ** -h.bits)


def test_biopythons_blosum80_is_not_blasts(caplog):
    """Biopython's BLOSUM80 is the 1/3-bit matrix (A/A 7), BLAST's table NCBI's 1/2-bit one
    (A/A 5): the table's (lambda, K) would misstate every E-value, so "table" is refused with
    the reason, "auto" fits the E-values to the search (a database of 100 or more) or gives
    none, and an aligner with NCBI's 20 x 20 scores gets the table."""
    from Bio.Align import substitution_matrices

    assert karlin.table_matrix(substitution_matrices.load("BLOSUM80")) is None
    assert karlin.table_matrix(substitution_matrices.load("BLOSUM62")) == "BLOSUM62"
    queries, db = related_set(12, nq=1, nd=20)
    with caplog.at_level("WARNING"):
        small = search(queries, db, top=3, matrix="BLOSUM80", gap_open=10, gap_extend=1,
                       device=DEVICE)
    assert small.statistics == "none" and math.isnan(small.hits[0][0].evalue)
    assert "1/3-bit" in caplog.text and "NCBI's BLOSUM80" in caplog.text
    big = search(queries, db * 6, top=3, matrix="BLOSUM80", gap_open=10, gap_extend=1,
                 device=DEVICE)
    assert big.statistics == "fit"
    ncbi = Path("/usr/share/ncbi/data/BLOSUM80")
    if ncbi.exists():
        assert karlin.table_matrix(substitution_matrices.read(str(ncbi))) == "BLOSUM80"


def test_subject_titles_from_files_records_and_strings(tmp_path):
    queries, db = related_set(13, nq=2, nd=30)
    dbf = write_fasta(tmp_path / "d.fa", db, "d")
    from_file = search(queries, str(dbf), top=3, device=DEVICE)
    assert set(from_file.subject_titles().values()) == {
        f"d{h.subject} sequence {h.subject} of d" for hits in from_file.hits for h in hits}
    records = [SeqRecord(Seq(s), id=f"r{k}", description=f"r{k} record {k}")
               for k, s in enumerate(db)]
    from_records = search(queries, records, top=3, device=DEVICE)
    assert from_records.tabular(["stitle"]).splitlines() == [
        f"r{h.subject} record {h.subject}" for hits in from_records.hits for h in hits]
    from_strings = search(queries, db, top=3, device=DEVICE)
    assert from_strings.tabular(["sseqid"]) == from_strings.tabular(["stitle"])
    # outfmt 7's "# Database:" line names the FASTA file searched (it was left empty in
    # Python unless database= was given), and nothing for sequences
    assert f"# Database: {dbf}\n" in from_file.tabular(comments=True)
    assert f"Database: {dbf}\n" in from_file.report()
    assert "# Database: \n" in from_strings.tabular(comments=True)
    assert "# Database: other\n" in from_file.tabular(comments=True, database="other")


def test_odd_subject_titles_stay_one_field(tmp_path):
    """Headers with tabs, CR LF line ends, no text, non-ASCII letters or 20,000 characters:
    each title is one field (tabs as spaces), an empty one BLAST+'s N/A, and scikit-bio reads
    the outfmt 7 file back row for row."""
    seq = "MKVLAAGIVGLLLAW"
    long_title = "s4 " + "long " * 4000
    dbf = tmp_path / "odd.fa"
    dbf.write_bytes(b">s1\tfirst\ttabbed title\r\n" + seq.encode() + b"\r\n"
                    + b">\r\n" + seq.encode() + b"QQ\r\n"
                    + ">s3 café — naïve\n".encode() + seq.encode() + b"RR\n"
                    + f">{long_title}\n{seq}SS\n".encode())
    qf = write_fasta(tmp_path / "q.fa", [seq], "q")
    out = tmp_path / "hits.tsv"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--outfmt",
                 "7 qseqid sseqid evalue stitle", "--device", DEVICE]) == 0
    rows = [line.split("\t") for line in out.read_text(encoding="utf-8").splitlines()
            if not line.startswith("#")]
    assert sorted((r[1], r[3]) for r in rows) == [
        ("record3", "N/A"), ("s1", "s1 first tabbed title"), ("s3", "s3 café — naïve"),
        ("s4", long_title.strip())]
    got = skbio.io.read(str(out), format="blast+7", into=pd.DataFrame)
    assert len(got) == 4 and got["stitle"].isna().sum() == 1
    mine = search(str(qf), str(dbf), top=4, device=DEVICE).to_dataframe(["sseqid", "stitle"])
    assert list(mine["stitle"].isna()) == list(mine["sseqid"] == "record3")


def test_titles_of_records_and_scikit_bio_sequences():
    """A sequence's title is its FASTA header line: id, then description (as Biopython
    writes it); a SeqRecord's "<unknown description>" placeholder and a missing one give the
    id alone; a tab inside a description stays inside its field."""
    seq = "MKVLAAGIVGLLLAW"
    db = [SeqRecord(Seq(seq), id="a"), SeqRecord(Seq(seq + "K"), id="b", description="bee"),
          SeqRecord(Seq(seq + "KK"), id="c", description="c sea\tside"),
          skbio.Protein(seq + "KKK", metadata={"id": "d", "description": "dee dee"}),
          skbio.Protein(seq + "KKKK", metadata={"id": "e"})]
    results = search([seq], db, top=5, device=DEVICE)
    titles = dict(line.split("\t") for line in
                  results.tabular(["sseqid", "stitle"]).splitlines())
    assert titles == {"a": "a", "b": "b bee", "c": "c sea side", "d": "d dee dee", "e": "e"}
    hit_a = next(h for h in results.hits[0] if h.subject_id == "a")
    assert hit_a.tabular(["sseqid", "stitle"]) == "a\tN/A"   # a Hit alone has no titles


def test_pair_report_prints_each_hit_as_biopython_does(tmp_path):
    queries, db = related_set(17, nq=2, nd=40)
    queries.append("W")
    db = [without_w_partners(d) for d in db]
    qf, dbf = write_fasta(tmp_path / "q.fa", queries, "q"), write_fasta(tmp_path / "d.fa",
                                                                          db, "d")
    out = tmp_path / "hits.txt"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--format", "pair",
                 "--top", "3", "--device", DEVICE]) == 0
    text = out.read_text()
    results = search(str(qf), str(dbf), top=3, device=DEVICE)
    for hits in results.hits:
        for h in hits:
            block = format(aligned_part(h))
            assert block in text
            assert f"Identities = {h.nident}/{h.length}" in text
            lines = block.splitlines()
            assert lines[0].split()[1] == str(h.qstart - 1)   # Biopython's 0-based starts
            assert lines[2].split()[1] == str(h.sstart - 1)
    assert "Query: q2\n" in text and "No hits\n" in text


def test_numbers_printed_as_blast_prints_them():
    from bioplug.pairwise.blast_tab import format_bits, format_evalue

    assert [format_evalue(e) for e in (0.0, 1e-200, 4.98e-140, 5.1e-4, 0.0052, 0.773, 1.72,
                                       23.4, 1234.0, math.nan)] == [
        "0.0", "0.0", "4.98e-140", "5.10e-04", "0.005", "0.77", "1.7", "23", "1234", "N/A"]
    assert [format_bits(b) for b in (45.36, 99.9, 100.0, 385.7, 12345.0, math.nan)] == [
        "45.4", "99.9", "100", "385", "1.234e+04", "N/A"]


def test_cli_options_checked_before_any_work(tmp_path, capsys):
    queries, db = related_set(19, nq=1, nd=10)
    qf, dbf = write_fasta(tmp_path / "q.fa", queries, "q"), write_fasta(tmp_path / "d.fa",
                                                                          db, "d")
    out = tmp_path / "hits.sam"
    for extra, message in ((["--outfmt", "6 qseqid", "--format", "sam"], "does not go with"),
                           (["--outfmt", "10"], "not a tabular style"),
                           (["--evalue", "-2"], "0 or more")):
        assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), *extra,
                     "--device", DEVICE]) == 2
        assert message in capsys.readouterr().err
        assert not out.exists()
    # columns chosen: tabular output even under a .sam name
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--outfmt",
                 "6 qseqid sseqid", "--device", DEVICE]) == 0
    assert out.read_text().splitlines()[0].count("\t") == 1


def test_blast_option_names(tmp_path, capsys):
    """--max-target-seqs is --top under BLAST+'s and DIAMOND's name."""
    queries, db = related_set(23, nq=2, nd=40)
    qf, dbf = write_fasta(tmp_path / "q.fa", queries, "q"), write_fasta(tmp_path / "d.fa", db,
                                                                          "d")
    outputs = []
    for option in ("--top", "--max-target-seqs"):
        assert main(["-q", "search", str(qf), str(dbf), "-o", "-", option, "2",
                     "--device", DEVICE]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and len(outputs[0].splitlines()) == 4


needs_blastp = pytest.mark.skipif(
    __import__("shutil").which("blastp") is None or __import__("shutil").which("makeblastdb")
    is None, reason="BLAST+ (blastp, makeblastdb) is not on PATH: no oracle to compare with")


def blastp_lines(tmp_path, queries, database, cols, *options) -> str:
    """blastp's outfmt 6 lines in ``cols`` against a database makeblastdb builds from the
    FASTA file ``database`` with its defaults, scored as near Smith-Waterman as blastp goes
    (no composition-based adjustment, no SEG, one HSP a subject)."""
    import subprocess

    subprocess.run(["makeblastdb", "-in", str(database), "-dbtype", "prot", "-out",
                    str(tmp_path / "blastdb")], check=True, capture_output=True)
    return subprocess.run(["blastp", "-query", str(queries), "-db", str(tmp_path / "blastdb"),
                           "-comp_based_stats", "0", "-seg", "no", "-max_hsps", "1", *options,
                           "-outfmt", "6 " + " ".join(cols)], check=True, capture_output=True,
                          text=True).stdout


@needs_blastp
def test_tabular_columns_equal_blastps_for_strong_hits(tmp_path):
    """blastp's outfmt 6 line, column for column (identity, coordinates, gaps, positives,
    coverage, BTOP, E-value and bit score as printed), for every significant hit (E < 1e-5)
    that both score alike: one best local alignment there, so both tools find the same one
    (chance hits often have several of one score, placed differently)."""
    rng = np.random.default_rng(11)
    make = lambda n: "".join(rng.choice(list(AMINO), n))  # noqa: E731
    queries = [make(n) for n in (40, 150, 400, 900)]
    db = [make(int(rng.integers(30, 700))) for _ in range(300)]
    for q in queries:
        for p in (0.1, 0.3, 0.5, 0.65):
            db.append("".join(c if rng.random() > p else make(1) for c in q))
    qf, dbf = tmp_path / "q.fa", tmp_path / "db.fa"
    qf.write_text("".join(f">q{k}\n{s}\n" for k, s in enumerate(queries)))
    dbf.write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(db)))
    cols = ("qseqid sseqid pident length mismatch gapopen qstart qend sstart send evalue "
            "bitscore score nident positive gaps ppos qcovhsp btop").split()
    out = blastp_lines(tmp_path, qf, dbf, cols, "-evalue", "1e-5")
    theirs = {tuple(line.split("\t")[:2]): line for line in out.splitlines()}
    ours = {tuple(line.split("\t")[:2]): line
            for line in search(str(qf), str(dbf), top=50, device=DEVICE).tabular(
                cols).splitlines()}
    compared = 0
    for key, line in theirs.items():
        if key in ours and ours[key].split("\t")[12] == line.split("\t")[12]:
            assert ours[key] == line
            compared += 1
    assert compared >= 12, compared   # 16 of BLAST's 16


def test_selenocysteine_and_pyrrolysine_score_as_blastp_scores_them():
    """UniProt has U (selenocysteine) and O (pyrrolysine), which BLOSUM62 lacks: a named
    matrix scores U as C and O as X, as blastp does, and the hits keep the letters; an
    aligner's own matrix stays Biopython's (its score() refuses U, so does its search)."""
    from Bio.Align import PairwiseAligner as BioAligner

    from bioplug import PairwiseAligner

    query = "MKVLAAGCIVGSTNQWERTYHHKLMNPQRSTV"
    db = ["MKVLAAGUIVGSTNQWERTYHHKLMNPQRSTV", "MKVLAAGCIVGSTOQWERTYHHKLMUPQRSTV",
          "MKVLAAGCIVGSTNQWERTYHHKLMNPQRSTV"]
    results = search([query, db[1]], db, top=3, device=DEVICE)
    bio = BioAligner(mode="local", substitution_matrix=BLOSUM62, open_gap_score=-12,
                     extend_gap_score=-1)
    blast_letters = str.maketrans({"U": "C", "O": "X"})
    for q, hits in enumerate(results.hits):
        text = [query, db[1]][q]
        assert len(hits) == 3
        for h in hits:
            assert h.score == bio.score(text.translate(blast_letters),
                                        db[h.subject].translate(blast_letters))
            assert h.sseq.replace("-", "") in db[h.subject]   # the letters as given
    assert any("U" in h.sseq for h in results.hits[0])
    aligner = PairwiseAligner(mode="local", substitution_matrix=BLOSUM62, open_gap_score=-12,
                              extend_gap_score=-1, device=DEVICE)
    with pytest.raises(InputError, match="letter 'U' at position 8"):
        aligner.search([query], db)


@needs_blastp
def test_rare_amino_acids_equal_blastp(tmp_path):
    """Against blastp: subjects with U and O score, E-value and print as blastp's lines
    (blastp warns that it scores O as X)."""
    rng = np.random.default_rng(6)
    query = "".join(rng.choice(list(AMINO), 120))
    db = []
    for k in range(6):
        s = list(query[10 * k:10 * k + 100])
        for where in rng.choice(len(s), 3, replace=False):
            s[where] = "UO"[k % 2] if rng.random() < 0.7 else rng.choice(list(AMINO))
        db.append("".join(s))
    qf, dbf = tmp_path / "q.fa", tmp_path / "db.fa"
    qf.write_text(f">q\n{query}\n")
    dbf.write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(db)))
    cols = ("qseqid sseqid pident length qstart qend sstart send evalue bitscore score qseq "
            "sseq").split()
    theirs = blastp_lines(tmp_path, qf, dbf, cols)
    ours = search(str(qf), str(dbf), top=6, device=DEVICE).tabular(cols)
    assert sorted(ours.splitlines()) == sorted(theirs.splitlines())
    assert "U" in ours and "O" in ours


def test_accession_frame_and_per_subject_columns_read_by_scikit_bio(tmp_path):
    """qacc / qaccver / sacc / saccver / sallseqid are the ids (a database made without
    -parse_seqids), salltitles the header, qcovs the HSP's coverage (one a subject), frames
    1 and the subject's strand; scikit-bio's blast+7 reader takes every one of them."""
    queries, db = related_set(13, nq=2, nd=30)
    results = search(queries, db, top=3, device=DEVICE)
    cols = ["qacc", "qaccver", "sacc", "saccver", "sallseqid", "salltitles", "qcovs",
            "qcovhsp", "qframe", "sframe", "frames", "sseqid", "stitle"]
    text = results.tabular(cols, comments=True)
    table = skbio.io.read(io.StringIO(text), format="blast+7", into=pd.DataFrame)
    assert len(table) == sum(map(len, results.hits))
    assert (table["sacc"] == table["sseqid"]).all() and (table["qcovs"] == table["qcovhsp"]).all()
    assert (table["salltitles"] == table["stitle"]).all() and (table["frames"] == "1/1").all()


@needs_blastp
def test_accession_frame_and_per_subject_columns_equal_blastps(tmp_path):
    """The same columns as blastp prints them for a database made by makeblastdb's defaults,
    UniProt- and RefSeq-style ids included (the lines compared as sets: blastp lists exact
    ties last database sequence first)."""
    seq = "MKVLAAGIVGSTNQWERTYHHKLMNPQRSTV"
    dbf = tmp_path / "db.fa"
    dbf.write_text(f">sp|P12345|NAME_HUMAN Some protein OS=Homo sapiens\n{seq}\n"
                   f">tr|A0A024|A0A024_HUMAN Other\n{seq[:-2]}\n>plain_id desc\n{seq[3:]}\n"
                   f">ref|NP_000001.2| ref seq\n{seq[:20]}\n")
    qf = tmp_path / "q.fa"
    qf.write_text(f">query1 a query\n{seq}\n")
    cols = ("qseqid qacc qaccver sseqid sacc saccver sallseqid salltitles qcovs qframe "
            "sframe frames").split()
    theirs = blastp_lines(tmp_path, qf, dbf, cols)
    ours = search(str(qf), str(dbf), top=4, device=DEVICE).tabular(cols)
    assert sorted(ours.splitlines()) == sorted(theirs.splitlines())
