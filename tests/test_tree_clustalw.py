"""ClustalW fast pairwise distances (``-quicktree``) against ClustalW itself.

The oracle is the ``clustalw`` program (2.1): ``clustalw -INFILE=x.fa -QUICKTREE`` prints one
line per pair, ``Sequences (i:j) Aligned. Score: S`` (``%lg``, six significant digits) or
``Sequences (i:j) Not Aligned`` (score <= 0.1); ClustalW's distance is ``(100 - S) / 100``.
(``-TREE -OUTPUTTREE=dist`` is not that matrix: it scores the input as an alignment.)
Tests needing the program are skipped when it is not on PATH; a literal Python port of
ClustalW's ``pairalign`` checks the kernel without it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.errors import InputError
from bioplug.tree import clustalw_fast_distances, distance_matrix
from bioplug.tree.clustalw import clustalw_is_nucleotide

DEVICE = "cpu"
AA = "ACDEFGHIKLMNPQRSTVWY"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CLUSTALW = shutil.which("clustalw") or shutil.which("clustalw2")
needs_clustalw = pytest.mark.skipif(
    CLUSTALW is None,
    reason="clustalw is not on PATH (the oracle; e.g. apt-get install clustalw)",
)
SCORE_LINE = re.compile(r"Sequences \((\d+):(\d+)\) (?:Aligned\. Score: +(\S+)|Not Aligned)")


# -- oracle -----------------------------------------------------------------------------------
def clustalw_scores(tmp_path: Path, seqs: list[str], flags: tuple[str, ...] = ()) -> dict:
    """``{(i, j): printed score or None (not aligned)}`` from ``clustalw -QUICKTREE``."""
    fasta = tmp_path / "in.fa"
    fasta.write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(seqs)))
    run = subprocess.run(
        [CLUSTALW, f"-INFILE={fasta}", "-QUICKTREE", f"-NEWTREE={tmp_path / 'in.dnd'}",
         f"-OUTFILE={tmp_path / 'in.aln'}", *flags],
        capture_output=True, text=True, timeout=120, check=False,
    )
    found = {(int(m[1]) - 1, int(m[2]) - 1): m[3] for m in SCORE_LINE.finditer(run.stdout)}
    n = len(seqs)
    assert len(found) == n * (n - 1) // 2, run.stdout[-2000:]
    return found


def assert_matches_clustalw(d: np.ndarray, ref: dict) -> None:
    """Every pair within half a unit of ClustalW's last printed digit."""
    bad = []
    for (i, j), printed in ref.items():
        ours = 100.0 * (1.0 - d[i, j])
        if printed is None:
            ok = ours <= 0.1 + 1e-9
        else:
            s = float(printed)
            tol = 0.5 * 10.0 ** (np.floor(np.log10(abs(s))) - 5) + 1e-9
            ok = abs(ours - s) <= tol
        if not ok:
            bad.append((i, j, printed, f"{ours:g}"))
    assert not bad, f"{len(bad)} of {len(ref)} pairs differ (i, j, clustalw, ours): {bad[:8]}"


def family(rng: np.random.Generator, alphabet: str, n: int, length: int, rate: float,
           gaps: bool = False) -> list[str]:
    """A mutated family: substitutions, deletions and insertions at ``rate``."""
    base = rng.choice(list(alphabet), length)
    out = []
    for _ in range(n):
        s = []
        for c in base:
            r = rng.random()
            if r < rate:
                s.append(rng.choice(list(alphabet)))
            elif r < 1.3 * rate:
                continue
            elif r < 1.6 * rate:
                s += [c, rng.choice(list(alphabet))]
            else:
                s.append(c)
        text = "".join(s) or alphabet[0]
        out.append(text[:3] + "--" + text[3:] if gaps else text)
    return out


# -- literal port of ClustalW 2.1's FastPairwiseAlign (for runs without clustalw) -------------
def port_score(a: str, b: str, dna: bool, ktup: int, window: int, signif: int, wgap: int,
               maxaln: int) -> int:
    """Best fragment score of ClustalW's pair_align(a, b) (sequence texts as ClustalW keeps)."""
    letters = "ABCDEFGHIKLMNOPQRSTUVWXYZ"
    base = 4 if dna else 25

    def codes(s: str) -> list[int]:
        c = [letters.find(x) if x != "-" else -1 for x in s]
        if dna:
            c = [{0: 0, 2: 1, 6: 2, 18: 3, 19: 3}.get(x, -1) for x in c]
        tup = [0] * (len(s) + 1)
        for p in range(1, len(s) - ktup + 2):
            w = c[p - 1 : p - 1 + ktup]
            if min(w) >= 0:
                tup[p] = 1 + sum(x * base**k for k, x in enumerate(w))
        return tup

    ca, cb = codes(a), codes(b)
    l1, l2 = len(a), len(b)
    occ: dict[int, list[int]] = {}
    for p in range(len(cb) - 1, 0, -1):  # ClustalW walks each chain from the last position
        if cb[p]:
            occ.setdefault(cb[p], []).append(p)
    tl1 = l1 + l2 - 1
    displ = [0] * (2 * maxaln + 1)
    index = list(range(2 * maxaln + 1))
    for p in range(1, len(ca)):
        for q in occ.get(ca[p], ()):
            displ[p - q + l2] += 1
    lst, ust, top = [0, 1], [0, tl1 - 1], 1  # ClustalW's quicksort of 1 .. tl1 - 1
    while top > 0:
        if lst[top] >= ust[top]:
            top -= 1
            continue
        i, j, piv = lst[top] - 1, ust[top], displ[ust[top]]
        while i < j:
            i += 1
            while displ[i] < piv:
                i += 1
            j -= 1
            while j > i and displ[j] > piv:
                j -= 1
            if i < j:
                displ[i], displ[j] = displ[j], displ[i]
                index[i], index[j] = index[j], index[i]
        j = ust[top]
        displ[i], displ[j] = displ[j], displ[i]
        index[i], index[j] = index[j], index[i]
        lst[top + 1 :], ust[top + 1 :] = [0], [0]
        if i - lst[top] < ust[top] - i:
            lst[top + 1], ust[top + 1], lst[top] = lst[top], i - 1, i + 1
        else:
            lst[top + 1], ust[top + 1], ust[top] = i + 1, ust[top], i - 1
        top += 1
    slopes = [0] * (tl1 + 1)
    for i in range(tl1, max(1, tl1 - signif + 1) - 1, -1):
        if displ[i] > 0:
            for d in range(max(1, index[i] - window), min(tl1, index[i] + window) + 1):
                slopes[d] = 1
    last = [0] * (tl1 + 1)
    score, pos1, pos2, nxt = [0], [0], [0], [0]
    best = 0
    for i in range(1, len(ca)):
        for q in occ.get(ca[i], ()) if ca[i] else ():
            diag = i - q + l2
            if not slopes[diag]:
                continue
            fs, f = ktup, best
            while f:
                same = i - q == pos1[f] - pos2[f]
                if (pos1[f] < i) if same else (pos1[f] + ktup - 1 < i and pos2[f] + ktup - 1 < q):
                    if same:
                        fs = score[f] + min(ktup, i - pos1[f])
                    else:
                        g = last[diag]
                        sub1 = ktup if not g else score[g] + min(ktup, i - pos1[g])
                        fs = max(score[f] - wgap + ktup, sub1)
                    break
                f = nxt[f]
            if len(score) >= 2 * maxaln:  # ClustalW's "partial alignment"
                return score[best] if best else 0
            new = len(score)
            score.append(fs)
            pos1.append(i)
            pos2.append(q)
            last[diag] = new
            if not best:
                nxt.append(0)
                best = 1
            elif fs >= score[best]:
                nxt.append(best)
                best = new
            else:
                f = best
                while fs < score[nxt[f]]:
                    f = nxt[f]
                nxt.append(nxt[f])
                nxt[f] = new
    return score[best] if best else 0


def port_distances(seqs: list[str], **params) -> np.ndarray:
    seqs = [s.upper() for s in seqs]
    dna = clustalw_is_nucleotide(seqs)
    k = params.get("ktup") or (2 if dna else 1)
    window = params.get("window") or (4 if dna else 5)
    signif = params.get("signif") or (4 if dna else 5)
    wgap = params.get("wind_gap") or (5 if dna else 3)
    maxaln = 2 * max(map(len, seqs))
    n = len(seqs)
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            best = port_score(seqs[i], seqs[j], dna, k, window, signif, wgap, maxaln)
            calc = best / min(len(seqs[i]), len(seqs[j])) * 100.0 if best else 0.0
            d[i, j] = d[j, i] = (100.0 - calc) / 100.0
    return d


# -- against ClustalW ----------------------------------------------------------------------
@needs_clustalw
@pytest.mark.parametrize("name", ["BB11001.fasta", "BB12001.fasta"])
def test_real_protein_sets_match_clustalw(tmp_path, name: str) -> None:
    from Bio import SeqIO

    records = list(SeqIO.parse(EXAMPLES / name, "fasta"))
    dist = clustalw_fast_distances(records, device=DEVICE)
    assert dist.ids == [r.id for r in records]
    assert np.array_equal(dist.data, dist.data.T) and not np.diag(dist.data).any()
    assert_matches_clustalw(dist.data, clustalw_scores(tmp_path, [str(r.seq) for r in records]))


@needs_clustalw
@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), n=st.integers(2, 7), length=st.integers(3, 140),
       rate=st.floats(0.0, 0.7), dna=st.booleans(), low=st.booleans(), gaps=st.booleans())
def test_random_sets_match_clustalw(tmp_path, seed, n, length, rate, dna, low, gaps) -> None:
    # low-complexity alphabets make ClustalW stop at its fragment limit ("partial alignment")
    alphabet = ("AC" if low else "ACGT") if dna else ("AKL" if low else AA)
    seqs = family(np.random.default_rng(seed), alphabet, n, length, rate, gaps)
    d = clustalw_fast_distances(seqs, device=DEVICE).data
    assert_matches_clustalw(d, clustalw_scores(tmp_path, seqs))


@needs_clustalw
@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), dna=st.booleans(), data=st.data())
def test_parameters_match_clustalw(tmp_path, seed, dna, data) -> None:
    # ClustalW's command line takes -WINDOW/-TOPDIAGS/-PAIRGAP only above -KTUPLE, and
    # -KTUPLE alone sets the gap penalty to k + 3 (protein) / k + 4 (DNA)
    k = data.draw(st.integers(1, 4 if dna else 2), label="ktup")
    rng = np.random.default_rng(seed)
    seqs = family(rng, "ACGTN" if dna else AA + "XBZ", int(rng.integers(2, 6)),
                  int(rng.integers(10, 120)), 0.3)
    if data.draw(st.booleans(), label="ktup only"):
        params, flags = {"ktup": k}, (f"-KTUPLE={k}",)
    else:
        w, s, g = (data.draw(st.integers(k + 1, 9), label=x) for x in ("window", "top", "gap"))
        params = {"ktup": k, "window": w, "signif": s, "wind_gap": g}
        flags = (f"-KTUPLE={k}", f"-WINDOW={w}", f"-TOPDIAGS={s}", f"-PAIRGAP={g}")
    d = clustalw_fast_distances(seqs, device=DEVICE, **params).data
    assert_matches_clustalw(d, clustalw_scores(tmp_path, seqs, flags))


@needs_clustalw
def test_reading_rules_match_clustalw(tmp_path) -> None:
    # lower case, J / * / digits dropped, X B Z kept as letters, input gaps kept
    seqs = ["mkvJJllag*hkwqert12", "MKVAALLAG--WQERTXX", "MKBZALLAGHKWQERTAAAAA", "MK-V"]
    d = clustalw_fast_distances(seqs, device=DEVICE).data
    assert_matches_clustalw(d, clustalw_scores(tmp_path, seqs))


@needs_clustalw
def test_sequence_type_follows_clustalw(tmp_path) -> None:
    # ClustalW decides protein / DNA from the second sequence (>= 85 % ACGTUN)
    prot = "MKVLLAGHKWQERTAAGHKLMNPQ"
    dna = ["ACGTACGTAACCGGTTACGTAGCA", "ACGTACGTAACCGGTTACGTAGCAGG"]
    for seqs in ([prot, *dna], [dna[0], prot, dna[1]]):
        assert clustalw_is_nucleotide(seqs) == (seqs[1] != prot)
        d = clustalw_fast_distances(seqs, device=DEVICE).data
        assert_matches_clustalw(d, clustalw_scores(tmp_path, seqs))


# -- without ClustalW -----------------------------------------------------------------------
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), dna=st.booleans(), low=st.booleans())
def test_matches_python_port(seed: int, dna: bool, low: bool) -> None:
    rng = np.random.default_rng(seed)
    alphabet = ("AC" if low else "ACGT") if dna else ("AKL" if low else AA)
    seqs = family(rng, alphabet, int(rng.integers(2, 6)), int(rng.integers(3, 60)), 0.3)
    np.testing.assert_array_equal(clustalw_fast_distances(seqs, device=DEVICE).data,
                                  port_distances(seqs))


def test_gpu_layout_on_cpu(monkeypatch) -> None:
    """The item-interleaved scratch layout used on GPUs gives the same numbers."""
    from bioplug.runtime import get_runtime

    rng = np.random.default_rng(3)
    seqs = family(rng, AA, 9, 80, 0.4) + family(rng, "ACGT", 1, 50, 0.1)
    want = clustalw_fast_distances(seqs, device=DEVICE).data
    rt = get_runtime(DEVICE)
    monkeypatch.setattr(type(rt), "is_gpu", property(lambda self: True))
    np.testing.assert_array_equal(clustalw_fast_distances(seqs, device=DEVICE).data, want)


def test_identical_and_unrelated() -> None:
    d = clustalw_fast_distances(["MKVLLAGHKWQERT", "MKVLLAGHKWQERT", "YYYYYY"],
                                device=DEVICE).data
    assert d[0, 1] == 0.0
    assert d[0, 2] == d[1, 2] == 1.0


def test_single_sequence_and_distance_matrix_front_door(tmp_path) -> None:
    one = clustalw_fast_distances(["MKV"], device=DEVICE, ids=["x"])
    assert one.ids == ["x"] and one.data.shape == (1, 1) and one.data[0, 0] == 0.0
    seqs = family(np.random.default_rng(0), AA, 5, 60, 0.2)
    got = distance_matrix(seqs, "clustalw-fast", device=DEVICE, ktup=2)
    np.testing.assert_array_equal(got.data,
                                  clustalw_fast_distances(seqs, ktup=2, device=DEVICE).data)
    got.write_phylip(tmp_path / "d.phy")
    assert (tmp_path / "d.phy").read_text().split()[0] == "5"


def test_cli_clustalw_fast(tmp_path) -> None:
    from bioplug.cli import main
    from bioplug.tree.matrix import read_phylip

    seqs = family(np.random.default_rng(2), AA, 6, 70, 0.3)
    fasta = tmp_path / "s.fa"
    fasta.write_text("".join(f">s{k}\n{s}\n" for k, s in enumerate(seqs)))
    out, dist = tmp_path / "t.nwk", tmp_path / "d.phy"
    assert main(["-q", "tree", str(fasta), "-o", str(out), "--distance", "clustalw-fast",
                 "--topdiags", "6", "--distances-out", str(dist), "--device", DEVICE]) == 0
    data, ids = read_phylip(dist)
    assert ids == [f"s{k}" for k in range(6)]
    want = clustalw_fast_distances(seqs, signif=6, device=DEVICE).data
    np.testing.assert_allclose(data, want, atol=1e-5)
    assert out.read_text().strip().endswith(";")
    assert main(["-q", "tree", str(fasta), "-o", str(out), "--distance", "ktuple",
                 "--window", "3", "--device", DEVICE]) == 2


# -- bad inputs ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seqs", "params", "match"),
    [
        ([], {}, "no sequences"),
        (["MKV", "*12 "], {}, "no residues"),
        (["MKV", "MKL"], {"ktup": 3}, "ktup must be 1 to 2"),
        (["ACGT", "ACGT"], {"ktup": 5}, "ktup must be 1 to 4"),
        (["MKV", "MKL"], {"ktup": 0}, "ktup"),
        (["MKV", "MKL"], {"window": -1}, "window"),
        (["MKV", "MKL"], {"signif": 0}, "signif"),
        (["MKV", "MKL"], {"wind_gap": -2}, "wind_gap"),
        (["MKV", "MKL"], {"ktup": 1.5}, "integer"),
        (["MKV", "MKL"], {"window": True}, "integer"),
    ],
)
def test_bad_inputs(seqs, params, match) -> None:
    with pytest.raises(InputError, match=match):
        clustalw_fast_distances(seqs, device=DEVICE, **params)


def test_bad_ids_and_correction() -> None:
    with pytest.raises(InputError):
        clustalw_fast_distances(["MKV", "MKL"], device=DEVICE, ids=["a", "a"])
    with pytest.raises(InputError, match="no correction"):
        distance_matrix(["MKV", "MKL"], "clustalw-fast", "kimura", device=DEVICE)


def test_an_alignment_reads_as_its_rows() -> None:
    from Bio.Align import Alignment
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    rows = ["MKV-LLAGW--PRT", "MKVQLL-GWSKPRT", "-RVQLLAGWSKP--"]
    records = [SeqRecord(Seq(r.replace("-", "")), id=f"r{i}") for i, r in enumerate(rows)]
    aln = Alignment(records, Alignment.parse_printed_alignment([r.encode() for r in rows])[1])
    printed = [aln[i] for i in range(len(rows))]   # Biopython's rows, one at a time
    assert printed == rows
    got = clustalw_fast_distances(aln, device=DEVICE)
    want = clustalw_fast_distances(printed, device=DEVICE)
    assert got.ids == want.ids == ["sequence 1", "sequence 2", "sequence 3"]
    assert np.array_equal(got.data, want.data)
