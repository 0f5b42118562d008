"""QuickProbs on DNA / RNA (issue 19): the nucleotide model, alphabet choice, end to end on PoCL.

Oracles: the ProbConsRNA / HOXD70 numbers of the data file (model tables), the input itself
(rows degap to it, letters kept), the true alignment of a simulated family
(``benchmarks/simulate.py --nucleotide``) against a naive baseline, and the protein tables as
they were before the nucleotide model existed.
"""

from __future__ import annotations

import importlib.util
import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from Bio import SeqIO
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.cli import main as cli_main
from bioplug.errors import InputError
from bioplug.msa.aligner import MultipleSequenceAligner
from bioplug.msa.model import IUPAC, encode, load_model, resolve_seqtype
from bioplug.msa.posterior import build_options
from bioplug.msa.score import Reference, sp_tc

_SIM = Path(__file__).resolve().parents[1] / "benchmarks" / "simulate.py"


def _simulate():
    spec = importlib.util.spec_from_file_location("bioplug_bench_simulate", _SIM)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def family():
    """(names, texts, true rows) of a small simulated DNA family (K2P, indels)."""
    return _simulate().evolve(12, 150, 3, scale=0.06, indel=1.0, nucleotide=True)


@pytest.fixture(scope="module")
def aligner():
    return MultipleSequenceAligner(device="cpu")


def rows(aln) -> list[str]:
    return [aln[i] for i in range(len(aln.sequences))]


def check_rows(aln, texts: list[str]) -> None:
    r = rows(aln)
    assert len({len(x) for x in r}) == 1
    assert [x.replace("-", "") for x in r] == texts
    assert not any(all(x[c] == "-" for x in r) for c in range(len(r[0])))


def score(aln, names, true_rows) -> float:
    ref = Reference(names, [t.upper() for t in true_rows], np.ones(len(true_rows[0]), bool))
    return sp_tc([s.id for s in aln.sequences], [x.upper() for x in rows(aln)], ref)[0]


# ---- model --------------------------------------------------------------------------------

def test_nucleotide_model_tables():
    raw = json.loads(resources.files("bioplug.msa").joinpath(
        "params", "probconsrna_nucleotide_hmm5.json").read_text())
    assert "ProbConsRNA" in raw["source"] and "HOXD70" in raw["source"]
    m = load_model("dna")
    assert m is load_model("rna") and m.name == "nucleotide" and m.ncodes == 15
    K = m.ncodes
    assert m.hmm.size == 5 + 25 + K + K * K and m.pf.size == K * K + 2
    single = np.exp(m.hmm[30:30 + K].astype(np.float64))
    pairs = np.exp(m.hmm[30 + K:].astype(np.float64)).reshape(K, K)
    base = np.asarray(raw["emit_pairs"])
    np.testing.assert_allclose(single[:4], raw["emit_single"], rtol=1e-6)
    np.testing.assert_allclose(pairs[:4, :4], base, rtol=1e-6)
    code = {c: int(encode(c, "x", m)[0]) for c in "ACGTRYN"}
    # an ambiguity code is the mean over its letters
    np.testing.assert_allclose(pairs[code["R"], code["C"]], (base[0, 1] + base[2, 1]) / 2,
                               rtol=1e-6)
    np.testing.assert_allclose(pairs[code["N"], code["N"]], base.mean(), rtol=1e-6)
    np.testing.assert_allclose(single[code["N"]], np.mean(raw["emit_single"]), rtol=1e-6)
    scores = m.pf[:K * K].reshape(K, K) * raw["partition_function"]["temperature"]
    np.testing.assert_allclose(scores[code["Y"], code["A"]], (-114 - 123) / 2)
    np.testing.assert_allclose(m.pf[K * K:] * 100, [-414, -27])
    # transitions: rows sum to one
    trans = np.exp(m.hmm[5:30].astype(np.float64)).reshape(5, 5)
    np.testing.assert_allclose(trans.sum(axis=1), 1.0, rtol=1e-6)


def test_encoding_case_u_and_ambiguity():
    m = load_model("dna")
    assert list(encode("ACGTU", "s", m)) == list(encode("acgtu", "s", m))
    assert encode("U", "s", m)[0] == encode("T", "s", m)[0]
    assert len(set(encode("".join(IUPAC), "s", m))) == len(IUPAC)
    with pytest.raises(InputError, match="'X' at position 3 is not a nucleotide letter"):
        encode("ACXT", "s", m)


def test_protein_model_unchanged():
    """The protein arrays are what they were before the alphabet became a parameter (the
    Gonnet 160 table, the default partition function until VTML200 replaced it)."""
    m = load_model(partition="gonnet160")
    assert m.name == "protein" and m.ncodes == 21 and m.hmm.size == 5 + 25 + 21 + 441
    h = json.loads(resources.files("bioplug.msa").joinpath(
        "params", "probcons_protein_hmm5.json").read_text())
    np.testing.assert_allclose(np.exp(m.hmm[:5].astype(np.float64)), h["init_distribution"],
                               rtol=1e-6)
    np.testing.assert_allclose(np.exp(m.hmm[30:50].astype(np.float64)), h["emit_single"],
                               rtol=1e-6)
    np.testing.assert_allclose(np.exp(m.hmm[51:].astype(np.float64)).reshape(21, 21)[:20, :20],
                               h["emit_pairs"], rtol=1e-6)
    np.testing.assert_allclose(m.pf[441:], [-22 / 5, -1 / 5])
    assert list(encode("mkvX", "p")) == [12, 11, 19, 20]


def test_kernel_alphabet_from_model():
    class Rt:
        max_work_group, is_gpu, local_mem = 256, False, 1 << 16

    assert build_options(Rt, 100, ncodes=15)["NA"] == 15
    assert build_options(Rt, 100)["NA"] == 21


def test_seqtype_resolution():
    assert resolve_seqtype(["ACGTACGTNN", "acgtRYacgt"]) == "dna"
    assert resolve_seqtype(["ACGUACGUAA", "acguacgu"]) == "rna"
    assert resolve_seqtype(["MKVLAAGIVG", "MKVLSAG"]) == "protein"
    assert resolve_seqtype(["ACGTACGT"], "protein") == "protein"
    with pytest.raises(InputError, match="seqtype"):
        resolve_seqtype(["ACGT"], "peptide")
    with pytest.raises(InputError, match="seqtype"):
        MultipleSequenceAligner(seqtype="peptide")


# ---- end to end ---------------------------------------------------------------------------

def test_dna_family_accuracy_floor(aligner, family):
    names, texts, true_rows = family
    aln = aligner.align([SeqRecord(Seq(t), id=n) for n, t in zip(names, texts, strict=True)])
    check_rows(aln, texts)
    assert aligner.last_seqtype == "dna"
    assert aln.sequences[0].annotations.get("molecule_type", "DNA") == "DNA"
    sp = score(aln, names, true_rows)
    # naive baseline: every sequence left-justified, gaps at the end
    width = max(len(t) for t in texts)
    naive = [t + "-" * (width - len(t)) for t in texts]
    ref = Reference(names, true_rows, np.ones(len(true_rows[0]), bool))
    base = sp_tc(names, naive, ref)[0]
    assert sp >= 0.85 and sp >= base + 0.3, (sp, base)


def test_rna_lower_case_and_u_keep_letters(aligner, family):
    names, texts, _ = family
    # U for T and lower case on alternate sequences: same codes, so the same alignment
    rna = [t.replace("T", "U").lower() if i % 2 else t.replace("T", "U")
           for i, t in enumerate(texts)]
    got = aligner.align([SeqRecord(Seq(t), id=n) for n, t in zip(names, rna, strict=True)])
    assert aligner.last_seqtype == "rna"
    check_rows(got, rna)
    dna = aligner.align([SeqRecord(Seq(t), id=n) for n, t in zip(names, texts, strict=True)])
    assert [x.upper().replace("U", "T") for x in rows(got)] == rows(dna)


def test_ambiguity_codes(aligner, family):
    names, texts, true_rows = family
    rng = np.random.default_rng(0)
    codes = list("NRYSWKMBDHV")
    noisy = []
    for t in texts:
        s = np.array(list(t))
        hit = rng.random(s.size) < 0.04
        s[hit] = rng.choice(codes, size=int(hit.sum()))
        noisy.append("".join(s))
    # is_nucleotide's 90 % rule still holds at 4 % ambiguity codes
    aln = aligner.align([SeqRecord(Seq(t), id=n) for n, t in zip(names, noisy, strict=True)])
    assert aligner.last_seqtype == "dna"
    check_rows(aln, noisy)
    # score the placement: the true letters back in the aligned rows
    restored = []
    for row, t in zip(rows(aln), texts, strict=True):
        r = np.array(list(row))
        r[r != "-"] = list(t)
        restored.append("".join(r))
    ref = Reference(names, true_rows, np.ones(len(true_rows[0]), bool))
    assert sp_tc(names, restored, ref)[0] >= 0.8


def test_explicit_seqtype(family):
    names, texts, _ = family
    few = texts[:3]
    aln = MultipleSequenceAligner(device="cpu", seqtype="protein", refinement=0).align(few)
    check_rows(aln, few)
    with pytest.raises(InputError, match="not a nucleotide letter"):
        MultipleSequenceAligner(device="cpu", seqtype="dna").align(["MKVLAAG", "MKVLSAG"])
    many = MultipleSequenceAligner(device="cpu", seqtype="rna", refinement=0).align_many(
        [few, [t.lower() for t in few]])
    check_rows(many[1], [t.lower() for t in few])


def test_cli_nucleotide(tmp_path, family, caplog):
    names, texts, _ = family
    src = tmp_path / "dna.fa"
    SeqIO.write([SeqRecord(Seq(t), id=n, description="") for n, t in zip(names, texts,
                                                                           strict=True)],
                src, "fasta")
    out = tmp_path / "out.fa"
    assert cli_main(["-q", "msa", str(src), "-o", str(out), "--device", "cpu"]) == 0
    got = [str(r.seq) for r in SeqIO.parse(out, "fasta")]
    assert [g.replace("-", "") for g in got] == texts
    auto = got
    assert cli_main(["-q", "msa", str(src), "-o", str(out), "--device", "cpu",
                     "--method", "quickprobs", "--seqtype", "dna"]) == 0
    assert [str(r.seq) for r in SeqIO.parse(out, "fasta")] == auto
    assert cli_main(["-q", "msa", str(src), "-o", str(out), "--device", "cpu",
                     "--method", "progressive"]) == 0
    assert [str(r.seq).replace("-", "") for r in SeqIO.parse(out, "fasta")] == texts
    prot = tmp_path / "prot.fa"
    prot.write_text(">a\nMKVLAAGEF\n>b\nMKVLSAGEF\n")
    assert cli_main(["-q", "msa", str(prot), "-o", str(out), "--device", "cpu",
                     "--seqtype", "dna"]) == 2
