"""Both strands of nucleotide searches (bioplug.pairwise.strands, ``--strand``): a relative
planted on the subject's minus strand is found and reported as BLAST+ reports one, its score
is Biopython's for the reverse-complemented query, SAM marks it FLAG 16, and the strand
choice refuses protein scorings."""

from __future__ import annotations

import os

import numpy as np
import pytest
from Bio import Align
from Bio.Align import substitution_matrices
from Bio.Seq import reverse_complement

from bioplug.cli import main
from bioplug.errors import InputError
from bioplug.pairwise.search import search

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
NUC44 = substitution_matrices.load("NUC.4.4")


def dna_set(seed=3, nd=150):
    rng = np.random.default_rng(seed)
    make = lambda n: "".join(rng.choice(list("ACGT"), n))  # noqa: E731
    query = make(240)
    db = [make(int(rng.integers(80, 400))) for _ in range(nd)]
    piece = list(query[30:200])
    for k in range(0, len(piece), 17):   # a few changes and a deletion
        piece[k] = "A" if piece[k] != "A" else "C"
    del piece[90:93]
    db[5] = make(11) + reverse_complement("".join(piece)) + make(7)   # on the minus strand
    db[9] = make(4) + query[100:180] + make(9)                          # on the plus strand
    return [query], db


def reference_score(query, subject):
    aligner = Align.PairwiseAligner(mode="local", substitution_matrix=NUC44,
                                    open_gap_score=-12, extend_gap_score=-2)
    return aligner.score(query, subject)


def test_minus_strand_hits_as_blast_reports_them():
    queries, db = dna_set()
    results = search(queries, db, matrix="NUC.4.4", gap_open=10, gap_extend=2, top=2,
                     device=DEVICE)
    first, second = results.hits[0]
    assert (first.subject, first.strand, second.subject, second.strand) == (5, "minus", 9,
                                                                           "plus")
    q, s = queries[0], db[5]
    assert first.score == reference_score(reverse_complement(q), s)
    assert first.qstart < first.qend and first.sstart > first.send   # BLAST+'s convention
    assert first.qseq.replace("-", "") == q[first.qstart - 1:first.qend]
    assert first.sseq.replace("-", "") == reverse_complement(s[first.send - 1:first.sstart])
    assert first.tabular(["sstrand"]) == "minus" and second.tabular(["sstrand"]) == "plus"
    shown = results.report()
    assert "minus strand" in shown
    plus_only = search(queries, db, matrix="NUC.4.4", gap_open=10, gap_extend=2, top=2,
                       device=DEVICE, strand="plus")
    assert [h.subject for h in plus_only.hits[0]] != [5, 9] and all(
        h.strand == "plus" for h in plus_only.hits[0])
    minus_only = search(queries, db, matrix="NUC.4.4", gap_open=10, gap_extend=2, top=1,
                        device=DEVICE, strand="minus")
    assert (minus_only.hits[0][0].subject, minus_only.hits[0][0].score) == (5, first.score)


def test_sam_flags_minus_strand_hits(tmp_path):
    queries, db = dna_set()
    qf, dbf = tmp_path / "q.fa", tmp_path / "db.fa"
    qf.write_text(f">q\n{queries[0]}\n")
    dbf.write_text("".join(f">d{i}\n{s}\n" for i, s in enumerate(db)))
    out = tmp_path / "hits.sam"
    assert main(["-q", "search", str(qf), str(dbf), "-o", str(out), "--matrix", "NUC.4.4",
                 "--gap-open", "10", "--gap-extend", "2", "--top", "2",
                 "--device", DEVICE]) == 0
    lines = [ln.split("\t") for ln in out.read_text().splitlines() if not ln.startswith("@")]
    assert (lines[0][2], int(lines[0][1]) & 16) == ("d5", 16)
    assert lines[0][9] == reverse_complement(queries[0])   # the read as it maps
    back = list(Align.parse(str(out), "sam"))
    assert back[0].coordinates[1, 0] > back[0].coordinates[1, -1]   # reverse strand


def test_strand_choice():
    queries, db = dna_set(nd=20)
    with pytest.raises(InputError, match="no minus strand"):
        search(["MKVLAAGIV"], ["MKVLAAGIVW"], strand="both", device=DEVICE)
    with pytest.raises(InputError, match="strand must be one of"):
        search(queries, db, matrix="NUC.4.4", strand="reverse", device=DEVICE)
    protein = search(["MKVLAAGIV"], ["MKVLAAGIVW"], device=DEVICE)
    assert protein.hits[0][0].strand == "plus"


@pytest.mark.skipif(__import__("shutil").which("blastn") is None
                    or __import__("shutil").which("makeblastdb") is None,
                    reason="BLAST+ (blastn, makeblastdb) is not on PATH: no oracle to compare with")
def test_nucleotide_evalues_equal_blastn(tmp_path):
    """NUC.4.4 with BLASTN's gap costs 10 / 6 takes BLASTN's reward 5 / penalty -4 table row:
    every hit both tools score alike, on either strand, has blastn's E-value (``-task blastn
    -reward 5 -penalty -4``, its XML report's six digits), with no finite-size correction
    (blastn applies none)."""
    import subprocess
    import xml.etree.ElementTree as ET

    rng = np.random.default_rng(8)
    make = lambda n: "".join(rng.choice(list("ACGT"), n))  # noqa: E731
    queries = [make(n) for n in (80, 300, 900)]
    db = [make(int(rng.integers(100, 1500))) for _ in range(150)]
    for q in queries:   # a relative on each strand
        for p in (0.1, 0.2):
            relative = "".join(c if rng.random() > p else make(1) for c in q)
            db += [relative, reverse_complement(relative)]
    qf, dbf = tmp_path / "q.fa", tmp_path / "db.fa"
    qf.write_text("".join(f">q{k}\n{s}\n" for k, s in enumerate(queries)))
    dbf.write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(db)))
    subprocess.run(["makeblastdb", "-in", str(dbf), "-dbtype", "nucl", "-out",
                    str(tmp_path / "db")], check=True, capture_output=True)
    out = subprocess.run(["blastn", "-task", "blastn", "-query", str(qf), "-db",
                          str(tmp_path / "db"), "-reward", "5", "-penalty", "-4", "-gapopen",
                          "10", "-gapextend", "6", "-dust", "no", "-soft_masking", "false",
                          "-max_hsps", "1", "-evalue", "1e9", "-max_target_seqs", "500",
                          "-outfmt", "5"], check=True, capture_output=True).stdout
    theirs = {}
    for it in ET.fromstring(out).iter("Iteration"):
        query = it.findtext("Iteration_query-def").split()[0]
        for hit in it.iter("Hit"):
            hsp = hit.find("Hit_hsps/Hsp")
            strand = "plus" if int(hsp.findtext("Hsp_hit-frame")) > 0 else "minus"
            theirs[(query, hit.findtext("Hit_def").split()[0], strand)] = (
                float(hsp.findtext("Hsp_score")), float(hsp.findtext("Hsp_evalue")))
    ours = search(str(qf), str(dbf), top=400, device=DEVICE, matrix="NUC.4.4", gap_open=10,
                  gap_extend=6)
    assert ours.statistics == "table" and not ours.finite_size_correction
    compared, strands = 0, set()
    for hits in ours.hits:
        for h in hits:
            score, e = theirs.get((h.query_id, h.subject_id, h.strand), (None, None))
            if score == h.score:
                assert h.evalue == pytest.approx(e, rel=6e-6)
                compared += 1
                strands.add(h.strand)
    assert compared >= 20 and strands == {"plus", "minus"}, compared   # 28 here
