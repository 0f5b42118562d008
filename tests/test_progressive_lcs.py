"""LCS guide-tree distances, single linkage without a matrix, and UPGMA by reciprocal nearest
neighbours, against plain oracles (a textbook LCS DP, scipy's linkage) on PoCL
(``BIOPLUG_TEST_DEVICE=gpu`` for a GPU)."""

from __future__ import annotations

import logging
import os

import numpy as np
import pyopencl as cl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import cophenet
from scipy.cluster.hierarchy import linkage as scipy_linkage
from scipy.spatial.distance import pdist, squareform

from bioplug.progressive import ProgressiveAligner, guide, lcs
from bioplug.runtime import Runtime, get_runtime
from bioplug.tree.device import pack_lower
from bioplug.tree.rnn import rnn_linkage

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def lcs_oracle(a: str, b: str) -> int:
    """Textbook O(|a| |b|) longest common subsequence, case-insensitive."""
    a, b = a.upper(), b.upper()
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def oracle_matrix(texts: list[str]) -> np.ndarray:
    n = len(texts)
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(i):
            d[i, j] = d[j, i] = 1 - lcs_oracle(texts[i], texts[j]) / max(
                len(texts[i]), len(texts[j]), 1)
    return d


def device_matrix(texts: list[str], rt) -> np.ndarray:
    """The kernel's packed triangle, back in the caller's order, as a square matrix."""
    data = lcs.LcsData(lcs.letter_codes(texts), lcs.LETTERS, rt)
    n = len(texts)
    packed = np.empty(n * (n - 1) // 2, np.float32)
    cl.enqueue_copy(rt.queue, packed, lcs.lcs_packed(data))
    d = np.zeros((n, n))
    rows, cols = np.tril_indices(n, -1)
    o = data.order
    d[o[rows], o[cols]] = d[o[cols], o[rows]] = packed
    return d


family = st.lists(st.text(alphabet="ACDEFGHIKLMNPQRSTVWYacdx", min_size=1, max_size=140),
                  min_size=2, max_size=9)


@SETTINGS
@given(texts=family)
def test_lcs_distances_equal_the_dp(texts) -> None:
    """Every pair's 1 - LCS / max length, lengths across 64-bit word boundaries."""
    rt = get_runtime(DEVICE)
    np.testing.assert_allclose(device_matrix(texts, rt), oracle_matrix(texts), atol=1e-6)


@pytest.mark.parametrize("length", [63, 64, 65, 128, 129, 300])
def test_word_boundaries_and_global_pattern_memory(length, monkeypatch) -> None:
    """Patterns of whole words and one letter more; the same with the Peq words read from
    global memory (the path for patterns too long for local memory)."""
    rng = np.random.default_rng(length)
    letters = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    base = "".join(rng.choice(letters, length))
    texts = [base, base[::-1], base[: length // 2] + "W" * 7, "".join(rng.choice(letters, 40))]
    rt = get_runtime(DEVICE)
    expected = oracle_matrix(texts)
    np.testing.assert_allclose(device_matrix(texts, rt), expected, atol=1e-6)
    monkeypatch.setattr(Runtime, "local_mem", property(lambda self: 0))
    data = lcs.LcsData(lcs.letter_codes(texts), lcs.LETTERS, rt)
    assert "PEQ_LOCAL=0" in " ".join(str(k) for k in rt._programs)
    packed = np.empty(6, np.float32)
    cl.enqueue_copy(rt.queue, packed, lcs.lcs_packed(data))
    assert np.allclose(np.sort(packed), np.sort(squareform(expected, checks=False)), atol=1e-6)


def separated_family(n: int, seed: int) -> list[str]:
    """Sequences whose LCS distances have few ties (different lengths and mutations)."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    base = rng.choice(letters, 90)
    out = []
    for i in range(n):
        s = base[: 40 + (i * 7) % 50].copy()
        hit = rng.random(s.size) < 0.1 + 0.4 * rng.random()
        s[hit] = rng.choice(letters, hit.sum())
        out.append("".join(s))
    return out


@pytest.mark.parametrize("n", [2, 3, 30])
def test_single_linkage_without_a_matrix_is_scipys(n) -> None:
    """Prim's tree on the device, one launch a vertex: the same single-linkage hierarchy as
    scipy's on the oracle matrix (cophenetic distances; ties may order merges differently)."""
    texts = separated_family(n, 5)
    link = guide.lcs_tree(texts, DEVICE, "single")
    ref = scipy_linkage(squareform(oracle_matrix(texts), checks=False), "single")
    np.testing.assert_allclose(cophenet(link), cophenet(ref), atol=1e-6)
    assert np.array_equal(np.sort(link[:, 3]), np.sort(ref[:, 3]))


def test_lcs_upgma_is_a_upgma_of_the_oracle_matrix() -> None:
    """LCS distances have ties (equal lengths and LCS), so: a valid UPGMA join order."""
    texts = separated_family(40, 9)
    replay_is_upgma(guide.lcs_tree(texts, DEVICE, "average"), oracle_matrix(texts))


def test_mst_linkage_by_hand() -> None:
    """A path 0 - 1 - 2 - 3 with edges 0.5, 0.1, 0.3: joins (1,2) at 0.1, then 3 at 0.3,
    then 0 at 0.5; cluster ids as scipy numbers them."""
    parent = np.array([-1, 0, 1, 2])
    dist = np.array([np.inf, 0.5, 0.1, 0.3], np.float32)
    link = lcs.mst_linkage(parent, dist)
    np.testing.assert_allclose(link, [[1, 2, 0.1, 2], [3, 4, 0.3, 3], [0, 5, 0.5, 4]],
                               rtol=1e-6)


# -- UPGMA by rounds of reciprocal nearest neighbours ---------------------------------------------
@SETTINGS
@given(n=st.integers(2, 60), seed=st.integers(0, 10**6))
def test_rnn_upgma_equals_scipy_without_ties(n, seed) -> None:
    """Continuous random distances (no ties): scipy's linkage matrix, row for row."""
    x = np.random.default_rng(seed).random((n, 4))
    y = pdist(x)
    ref = scipy_linkage(y, "average")
    got = rnn_linkage(pack_lower(squareform(y), np.float32), n, DEVICE)
    np.testing.assert_array_equal(got[:, [0, 1, 3]], ref[:, [0, 1, 3]])
    np.testing.assert_allclose(got[:, 2], ref[:, 2], rtol=1e-5, atol=1e-6)


def test_rnn_merge_launch_loops_over_pairs(monkeypatch) -> None:
    """More merged pairs in a round than the launch's second dimension: the same linkage."""
    from bioplug.tree import rnn

    x = np.random.default_rng(4).random((300, 3))
    y = pdist(x)
    monkeypatch.setattr(rnn, "MERGE_ROWS", 3)
    got = rnn_linkage(pack_lower(squareform(y), np.float32), 300, DEVICE)
    ref = scipy_linkage(y, "average")
    np.testing.assert_array_equal(got[:, [0, 1, 3]], ref[:, [0, 1, 3]])


def replay_is_upgma(link: np.ndarray, d: np.ndarray) -> None:
    """Every join is at the current smallest mean distance between clusters, and its height
    is that mean (a valid UPGMA order, whichever tie was taken)."""
    n = d.shape[0]
    members = {i: [i] for i in range(n)}
    for t, (a, b, h, size) in enumerate(link):
        a, b = int(a), int(b)
        assert h == pytest.approx(d[np.ix_(members[a], members[b])].mean(), abs=1e-5)
        keys = list(members)
        least = min(d[np.ix_(members[p], members[q])].mean()
                    for i, p in enumerate(keys) for q in keys[i + 1:])
        assert h <= least + 1e-5
        members[n + t] = members.pop(a) + members.pop(b)
        assert len(members[n + t]) == size


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rnn_upgma_with_ties_is_a_valid_upgma(seed) -> None:
    """Small integer distances (many ties, identical rows): a valid UPGMA join order."""
    rng = np.random.default_rng(seed)
    n = 25
    d = rng.integers(0, 4, (n, n)).astype(float)
    d = np.triu(d, 1)
    d += d.T
    d[3], d[:, 3] = d[4], d[:, 4]      # two identical taxa
    d[3, 4] = d[4, 3] = 0
    np.fill_diagonal(d, 0)
    replay_is_upgma(rnn_linkage(pack_lower(d, np.float32), n, DEVICE), d)


def test_identical_groups_pair_off_in_halves() -> None:
    """A family of many identical sequences (common in Pfam): groups join in about log2 m
    rounds, not one pair a round, and the tree is a valid UPGMA."""
    from bioplug.runtime import get_runtime
    from bioplug.tree.build import scipy_relabel
    from bioplug.tree.rnn import rnn_upgma

    rng = np.random.default_rng(3)
    group = np.repeat(np.arange(3), [150, 90, 16])          # three groups of identical items
    centre = rng.random((3, 3)) * 10
    d = squareform(pdist(centre[group]))
    rt = get_runtime(DEVICE)
    stats: dict = {}
    packed = pack_lower(d, np.float32)
    raw = rnn_upgma(rt.to_device(packed), d.shape[0], rt, stats)
    replay_is_upgma(scipy_relabel(raw, d.shape[0]), d)
    assert stats["rounds"] <= 12, stats


# -- front door ---------------------------------------------------------------------------------
def test_aligner_uses_single_linkage_above_max_matrix(caplog) -> None:
    texts = separated_family(24, 3)
    with caplog.at_level(logging.INFO, logger="bioplug.progressive.guide"):
        aln = ProgressiveAligner(device=DEVICE, max_matrix=10, refinement=0).align(texts)
    assert "single-linkage" in caplog.text
    rows = [str(s.seq) for s in aln.sequences]
    assert rows == texts
    link = guide.guide_tree(texts, False, 10, DEVICE)
    ref = scipy_linkage(squareform(oracle_matrix(texts), checks=False), "single")
    np.testing.assert_allclose(cophenet(link), cophenet(ref), atol=1e-6)


def test_lcs_distances_front_door() -> None:
    texts = separated_family(12, 4)
    aln = ProgressiveAligner(device=DEVICE, distances="lcs", refinement=0).align(texts)
    assert [str(s.seq) for s in aln.sequences] == texts
    with pytest.raises(Exception, match="distances must be"):
        ProgressiveAligner(distances="lcs-indel")


def test_cli_distances_option(tmp_path) -> None:
    """``--distances lcs`` reaches the guide tree (the tree written is LCS UPGMA's)."""
    from Bio import SeqIO
    from skbio import TreeNode

    from bioplug.cli import main
    from bioplug.progressive.trees import newick_from_linkage

    texts = separated_family(10, 6)
    names = [f"s{i}" for i in range(10)]
    src = tmp_path / "in.fa"
    src.write_text("".join(f">{n}\n{t}\n" for n, t in zip(names, texts, strict=True)))
    out, nwk = tmp_path / "out.fa", tmp_path / "t.nwk"
    assert main(["-q", "msa", str(src), "-o", str(out), "--method", "progressive",
                 "--distances", "lcs", "--tree-out", str(nwk), "--device", DEVICE]) == 0
    rows = {r.id: str(r.seq).replace("-", "") for r in SeqIO.parse(out, "fasta")}
    assert rows == dict(zip(names, texts, strict=True))
    expected = newick_from_linkage(guide.lcs_tree(texts, DEVICE), names)
    got = TreeNode.read([nwk.read_text()])
    assert got.compare_rfd(TreeNode.read([expected]), rooted=True) == 0
    with pytest.raises(SystemExit) as exc:
        main(["-q", "msa", str(src), "-o", str(out), "--method", "progressive",
              "--distances", "nearest"])
    assert exc.value.code == 2


@pytest.mark.parametrize("options", [dict(distances="lcs"), dict(max_matrix=3)])
def test_awkward_families_keep_every_residue(options) -> None:
    """One-letter, lower-case, ambiguity and stop letters, duplicates and one sequence of
    5,000 residues (128 Peq words a letter): every row keeps its letters, in order."""
    rng = np.random.default_rng(11)
    long = "".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 5000))
    texts = ["M", "mkvlaagiv", "MKVLAXGIV*", "MKVLBZGIVU", "MKVLAAGIV", "MKVLAAGIV",
             long[:300] + "W", long]
    aln = ProgressiveAligner(device=DEVICE, refinement=0, **options).align(texts)
    rows = [str(aln[i]) for i in range(len(texts))]
    assert [r.replace("-", "") for r in rows] == texts
    assert len({len(r) for r in rows}) == 1


def test_profile_pool_reuses_merged_nodes(monkeypatch) -> None:
    """A buffer limit below leaves + every node (what the pool once needed) but above the live
    profiles: merged children's columns are reused, and the alignment is the same (along the
    UPGMA tree alone: the limit is set for its profiles)."""
    from bioplug.progressive import device as pdevice
    from bioplug.runtime.devices import DeviceInfo

    texts = separated_family(60, 12)
    rt = get_runtime(DEVICE)
    upgma = dict(device=rt, refinement=0, trees="upgma")
    expected = [str(r) for r in ProgressiveAligner(**upgma).align(texts)]
    total = sum(len(t) for t in texts)
    grown = []
    real_move = pdevice.ProfileEngine._move_live

    def spy(self, live, cap):
        grown.append(cap)
        return real_move(self, live, cap)

    monkeypatch.setattr(pdevice.ProfileEngine, "_move_live", spy)
    limit = int(1.6 * total) * 128          # columns of 128 bytes (PFASUM/BLOSUM stride)
    monkeypatch.setattr(DeviceInfo, "max_alloc", property(lambda self: limit), raising=False)
    got = [str(r) for r in ProgressiveAligner(**upgma).align(texts)]
    assert got == expected
    assert max(grown) * 128 <= limit and len(grown) >= 2
    monkeypatch.setattr(DeviceInfo, "max_alloc", property(lambda self: total * 64),
                        raising=False)
    with pytest.raises(Exception, match="GiB in one buffer"):
        ProgressiveAligner(**upgma).align(texts)
