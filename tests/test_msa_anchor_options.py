"""Every documented ``MultipleSequenceAligner`` option on the large-family (anchor) path (PoCL).

The family is simulated with a known true alignment (``benchmarks/simulate.py``) and carries
exact duplicates, whose distance is 0: 1 - NW/min(len) then rounded to -6e-8 on devices with
inexact division and scipy rejected the guide tree (issue 19, ``fast_distances`` on ~1,000
sequences). ``max_full`` is lowered so a few dozen short sequences take the anchor path.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from scipy.cluster.hierarchy import leaves_list, linkage

from bioplug.msa import pipeline
from bioplug.msa.aligner import MultipleSequenceAligner
from bioplug.msa.score import Reference, sp_tc

SMALL = {"max_full": 8}


@pytest.fixture(scope="module")
def family():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "simulate.py"
    spec = importlib.util.spec_from_file_location("bioplug_bench_simulate", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    names, texts, true_rows = mod.evolve(18, 40, 11)
    for src in (0, 5, 5):  # duplicates: distance exactly 0 to their source
        names.append(f"dup{len(names)}")
        texts.append(texts[src])
        true_rows.append(true_rows[src])
    return names, texts, Reference(names, true_rows, np.ones(len(true_rows[0]), dtype=bool))


@pytest.mark.parametrize("options", [
    {},
    {"fast_distances": True},
    {"fast_distances": True, "anchors": 3, "node_pairs": 4},
    {"accurate": True},
    {"consistency": 0, "refinement": 0},
    {"consistency": 1, "refinement": 3, "seed": 5},
    {"anchors": 1, "node_pairs": 1},
    {"max_full": 1000, "host_budget_gb": 1e-6},
], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_option_on_anchor_path(family, options):
    names, texts, ref = family
    kw = {**SMALL, **options}
    aligner = MultipleSequenceAligner(device="cpu", **kw)
    aln = aligner.align(_records(names, texts))
    assert aligner.last_mode == "anchor"
    rows = [aln[i] for i in range(len(names))]
    assert [s.id for s in aln.sequences] == names
    assert [r.replace("-", "") for r in rows] == texts
    assert len({len(r) for r in rows}) == 1
    sp, _ = sp_tc(names, rows, ref)
    floor = 0.6 if options.get("anchors") == 1 or options.get("consistency") == 0 else 0.75
    assert sp > floor


def _records(names, texts):
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    return [SeqRecord(Seq(t), id=n, description="") for n, t in zip(names, texts, strict=True)]


def test_fast_distances_are_valid_tree_input(family):
    names, texts, _ = family
    result = pipeline.run(texts, names, device="cpu", refinement=0, max_full_k=8,
                          fast_distances=True)
    assert result.mode == "anchor"
    off = ~np.eye(len(names), dtype=bool)
    assert (result.dist[off] >= 0).all()
    assert result.dist[0, len(names) - 3] < 1e-3  # a duplicate of sequence 0
    assert (result.link[:, 2] >= 0).all()


def test_leaf_order_is_scipys_and_ignores_heights():
    rng = np.random.default_rng(4)
    for k in (2, 3, 9, 40):
        link = linkage(rng.random((k, 3)), method="average")
        assert (pipeline._leaf_order(link, k) == leaves_list(link)).all()
        bent = link.copy()
        bent[:, 2] -= bent[:, 2].max() + 1.0  # every height negative
        assert (pipeline._leaf_order(bent, k) == leaves_list(link)).all()
    with pytest.raises(ValueError, match="negative distances"):  # what issue 19 hit
        leaves_list(bent)
    assert pipeline._leaf_order(np.empty((0, 4)), 1).tolist() == [0]


def test_anchor_mode_keeps_gonnet_full_mode_takes_vtml(family, monkeypatch):
    """The protein partition function by mode: VTML200 (QuickProbs 2.06's) for full mode,
    Gonnet 160 for anchor mode (where VTML200 lost on HomFam dev families)."""
    from bioplug.msa.model import ANCHOR_PARTITION, PROTEIN_PARTITION

    seen = []
    real = pipeline.load_model

    def spy(seqtype, partition=None):
        seen.append(partition or PROTEIN_PARTITION)
        return real(seqtype, partition)

    monkeypatch.setattr(pipeline, "load_model", spy)
    names, texts, _ = family
    MultipleSequenceAligner(device="cpu", max_full=1000).align(_records(names, texts))
    MultipleSequenceAligner(device="cpu", max_full=4).align(_records(names, texts))
    assert seen == ["vtml200", "gonnet160"]
    assert (PROTEIN_PARTITION, ANCHOR_PARTITION) == ("vtml200", "gonnet160")


def test_anchor_tree_is_the_alignment_distance_tree(family, monkeypatch):
    """Anchor mode's default guide tree is the progressive pipeline's (UPGMA on local-alignment
    distances) and skips the all-pairs posterior pass; the posterior route stays available."""
    from bioplug.progressive.guide import matrix_tree

    names, texts, ref = family
    calls = []
    real = pipeline.compute_posteriors

    def spy(rt, codes, pairs, *args, **kwargs):
        calls.append(len(pairs))
        return real(rt, codes, pairs, *args, **kwargs)

    monkeypatch.setattr(pipeline, "compute_posteriors", spy)
    few = {"device": "cpu", "refinement": 0, "max_full_k": 8, "anchors": 3, "node_pairs": 2}
    result = pipeline.run(texts, names, **few)
    k = len(names)
    assert result.mode == "anchor" and result.dist is None
    assert np.array_equal(result.link, matrix_tree(texts, False, "cpu", "auto"))  # same device
    assert calls and max(calls) < k * (k - 1) // 2   # kept pairs only, never all pairs
    given = pipeline.run(texts, names, link=result.link, **few)
    assert given.rows == result.rows
    monkeypatch.setattr(pipeline, "ANCHOR_TREE", "posterior")
    calls.clear()
    old = pipeline.run(texts, names, **few)
    assert calls[0] == k * (k - 1) // 2 and old.dist.shape == (k, k)
    assert min(sp_tc(names, old.rows, ref)[0], sp_tc(names, result.rows, ref)[0]) > 0.6
