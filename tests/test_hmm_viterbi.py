"""Viterbi decoding (``bioplug.hmm``) against hmmlearn's ``decode`` and a numpy reference.

Runs on PoCL by default; ``BIOPLUG_TEST_DEVICE=gpu`` runs the same checks on a GPU. Both
methods are forced: the step-wise recurrence must equal hmmlearn exactly (log probability
bit for bit, path and ties included); the product chain must reach the same optimum (to
rounding) with a path that scores it.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hmm_reference import categorical_hmm, path_score, random_model, viterbi_reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bioplug.errors import InputError
from bioplug.hmm import decode, hmmlearn_viterbi, viterbi
from bioplug.hmm import device as dev
from bioplug.hmm.decoding import libm_log

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
hmmlearn = pytest.importorskip("hmmlearn")


def _lengths(rng, count, low, high):
    return rng.integers(low, high, size=count)


def _check_chain(model, X, lengths, logp, path):
    """The chain's answer: hmmlearn's optimum (to rounding), and a path that scores it."""
    ref_logp, _ = model.decode(X, lengths, algorithm="viterbi")
    assert logp == pytest.approx(ref_logp, rel=1e-12, abs=1e-9)
    log_start, log_trans = libm_log(model.startprob_), libm_log(model.transmat_)
    with np.errstate(divide="ignore"):
        log_emit = np.log(model.emissionprob_)
    bounds = np.concatenate([[0], np.cumsum(lengths if lengths is not None else [len(X)])])
    total = 0.0
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        total += path_score(log_start, log_trans, log_emit, X[a:b, 0], path[a:b])
    assert total == pytest.approx(ref_logp, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("method", ["steps", "chain"])
def test_decode_matches_hmmlearn(seed, method):
    rng = np.random.default_rng(seed)
    ns, m = int(rng.integers(1, 10)), int(rng.integers(1, 6))
    model = categorical_hmm(*random_model(rng, ns, m))
    lengths = _lengths(rng, int(rng.integers(1, 6)), 1, 80)
    X = rng.integers(0, m, size=(int(lengths.sum()), 1))
    ref_logp, ref_path = model.decode(X, lengths, algorithm="viterbi")
    logp, path = decode(model, X, lengths, method=method, device=DEVICE)
    assert path.dtype == ref_path.dtype and path.shape == ref_path.shape
    if method == "steps":
        assert logp == ref_logp  # same float: same logs, same sums, same order
        np.testing.assert_array_equal(path, ref_path)
    else:
        _check_chain(model, X, lengths, logp, path)


@pytest.mark.parametrize("seed", range(4))
def test_ties_broken_as_hmmlearn(seed):
    rng = np.random.default_rng(100 + seed)
    ns, m = int(rng.integers(2, 9)), int(rng.integers(1, 4))
    model = categorical_hmm(*random_model(rng, ns, m, ties=True))
    lengths = _lengths(rng, 3, 1, 60)
    X = rng.integers(0, m, size=(int(lengths.sum()), 1))
    ref_logp, ref_path = model.decode(X, lengths, algorithm="viterbi")
    logp, path = decode(model, X, lengths, device=DEVICE)
    assert logp == ref_logp
    np.testing.assert_array_equal(path, ref_path)
    chain_logp, chain_path = decode(model, X, lengths, method="chain", device=DEVICE)
    _check_chain(model, X, lengths, chain_logp, chain_path)


def test_uniform_model_all_ties():
    ns = 5
    model = categorical_hmm(np.full(ns, 1 / ns), np.full((ns, ns), 1 / ns), np.full((ns, 2), 0.5))
    X = np.zeros((7, 1), dtype=int)
    ref = model.decode(X, algorithm="viterbi")
    got = decode(model, X, device=DEVICE)
    assert got[0] == ref[0]
    np.testing.assert_array_equal(got[1], ref[1])


@pytest.mark.parametrize("seed", range(3))
def test_zero_probabilities(seed):
    rng = np.random.default_rng(200 + seed)
    ns, m = 6, 3
    model = categorical_hmm(*random_model(rng, ns, m, zero_fraction=0.6))
    lengths = _lengths(rng, 4, 1, 40)
    X = rng.integers(0, m, size=(int(lengths.sum()), 1))
    ref_logp, ref_path = model.decode(X, lengths, algorithm="viterbi")
    logp, path = decode(model, X, lengths, device=DEVICE)
    assert logp == ref_logp
    np.testing.assert_array_equal(path, ref_path)


def test_impossible_sequence_gives_minus_inf_and_hmmlearn_path():
    start = np.array([1.0, 0.0, 0.0])
    trans = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
    emit = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    model = categorical_hmm(start, trans, emit)
    X = np.array([[0], [1], [0], [0]])  # state 1 cannot emit symbol 1 at t = 1
    ref_logp, ref_path = model.decode(X, algorithm="viterbi")
    logp, path = decode(model, X, device=DEVICE)
    assert logp == ref_logp == -np.inf
    np.testing.assert_array_equal(path, ref_path)


def test_length_one_and_many_sequences():
    rng = np.random.default_rng(7)
    ns, m = 4, 3
    model = categorical_hmm(*random_model(rng, ns, m))
    lengths = np.concatenate([np.ones(150, dtype=int), rng.integers(1, 30, size=150)])
    X = rng.integers(0, m, size=(int(lengths.sum()), 1))
    ref_logp, ref_path = model.decode(X, lengths, algorithm="viterbi")
    logp, path = decode(model, X, lengths, device=DEVICE)
    assert logp == ref_logp
    np.testing.assert_array_equal(path, ref_path)
    logp1, path1 = decode(model, X[:1], device=DEVICE)
    ref1 = model.decode(X[:1], algorithm="viterbi")
    assert logp1 == ref1[0] and path1.tolist() == ref1[1].tolist()


@pytest.mark.parametrize("r", [1, 2, 4, 8])
def test_step_layouts_and_global_lattice(r, monkeypatch):
    """Every sequences-per-item count, and the lattice kept in global memory (large models
    on GPUs), give hmmlearn's answer."""
    rng = np.random.default_rng(300 + r)
    ns, m = 7, 4
    start, trans, emit = random_model(rng, ns, m)
    seqs = [rng.integers(0, m, size=int(n)) for n in rng.integers(1, 50, size=11)]
    logs = (libm_log(start), libm_log(trans), np.log(emit))
    refs = [viterbi_reference(*logs, s) for s in seqs]
    original = dev.step_layout
    for lat_global in (False, True):
        def layout(rt, ns_, k, itemsize, r_=None, lat_global=lat_global):
            got = original(rt, ns_, k, itemsize, r)
            return dev.StepLayout(got.sp, got.g, got.r, lat_global)

        monkeypatch.setattr(dev, "step_layout", layout)
        logp, paths = viterbi(*logs, seqs, method="steps", device=DEVICE)
        for (ref_logp, ref_path), lp, p in zip(refs, logp, paths, strict=True):
            assert lp == ref_logp
            np.testing.assert_array_equal(p, ref_path)


def test_more_than_256_states_uses_wider_backpointers():
    rng = np.random.default_rng(11)
    ns, m = 300, 3
    model = categorical_hmm(*random_model(rng, ns, m))
    X = rng.integers(0, m, size=(12, 1))
    ref = model.decode(X, algorithm="viterbi")
    got = decode(model, X, device=DEVICE)
    assert got[0] == ref[0]
    np.testing.assert_array_equal(got[1], ref[1])


def test_viterbi_front_door_single_and_many():
    rng = np.random.default_rng(5)
    start, trans, emit = random_model(rng, 3, 2)
    logs = (np.log(start), np.log(trans), np.log(emit))
    obs = rng.integers(0, 2, size=25)
    logp, path = viterbi(*logs, obs, device=DEVICE)
    ref = viterbi_reference(*logs, obs)
    assert isinstance(logp, float) and logp == ref[0]
    np.testing.assert_array_equal(path, ref[1])
    many_logp, many_paths = viterbi(*logs, [obs, obs[:3]], device=DEVICE)
    assert many_logp.shape == (2,) and len(many_paths) == 2
    assert many_logp[0] == ref[0]
    rows_logp, _ = viterbi(*logs, np.stack([obs, obs]), device=DEVICE)
    assert rows_logp.tolist() == [ref[0], ref[0]]
    chain_logp, chain_path = viterbi(*logs, obs, method="chain", device=DEVICE)
    assert chain_logp == pytest.approx(ref[0], rel=1e-12)
    assert path_score(*logs, obs, chain_path) == pytest.approx(ref[0], rel=1e-12)


def test_float32_close_to_float64():
    rng = np.random.default_rng(9)
    start, trans, emit = random_model(rng, 6, 4)
    logs = (np.log(start), np.log(trans), np.log(emit))
    obs = rng.integers(0, 4, size=300)
    ref = viterbi_reference(*logs, obs)
    logp, path = viterbi(*logs, obs, dtype=np.float32, device=DEVICE)
    assert logp == pytest.approx(ref[0], rel=1e-5)
    assert path_score(*logs, obs, path) == pytest.approx(ref[0], rel=1e-5)


def test_bad_input_is_named():
    logs = (np.log([0.5, 0.5]), np.log(np.full((2, 2), 0.5)), np.log(np.full((2, 3), 1 / 3)))
    with pytest.raises(InputError, match=r"sequence 2, position 3: symbol 3"):
        viterbi(*logs, [np.array([0, 1]), np.array([0, 1, 3])], device=DEVICE)
    with pytest.raises(InputError, match="sequence 1 is empty"):
        viterbi(*logs, [np.array([], dtype=int)], device=DEVICE)
    with pytest.raises(InputError, match="log_startprob has 2 states, so log_transmat must be "
                                         r"2 x 2; it is \(3, 3\)"):
        viterbi(logs[0], np.zeros((3, 3)), logs[2], [0, 1], device=DEVICE)
    # the start vector is the odd one out: the message says which length it has
    with pytest.raises(InputError, match="log_startprob has 1 states"):
        viterbi(np.log([1.0]), logs[1], logs[2], [0, 1], device=DEVICE)
    with pytest.raises(InputError, match="method"):
        viterbi(*logs, [0, 1], method="fast", device=DEVICE)


def test_frames_drop_in_matches_hmmc():
    """``hmmlearn_viterbi`` is hmmlearn's ``_hmmc.viterbi``, frames and all."""
    from hmmlearn import _hmmc

    rng = np.random.default_rng(13)
    ns, n = 5, 70
    start, trans, _ = random_model(rng, ns, 2, zero_fraction=0.3)
    frames = np.log(rng.random((n, ns)))
    assert hmmlearn_viterbi(start, trans, frames, device=DEVICE)[0] == \
        _hmmc.viterbi(start, trans, frames)[0]
    np.testing.assert_array_equal(hmmlearn_viterbi(start, trans, frames, device=DEVICE)[1],
                                  _hmmc.viterbi(start, trans, frames)[1])


def test_decode_other_hmmlearn_models():
    from hmmlearn import hmm

    rng = np.random.default_rng(17)
    model = hmm.GaussianHMM(n_components=3, covariance_type="diag")
    model.startprob_ = np.array([0.6, 0.3, 0.1])
    model.transmat_ = random_model(rng, 3, 2)[1]
    model.means_ = np.array([[0.0], [3.0], [6.0]])
    model.covars_ = np.array([[1.0], [1.0], [2.0]])
    X, _ = model.sample(120, random_state=3)
    ref = model.decode(X, [50, 70], algorithm="viterbi")
    got = decode(model, X, [50, 70], device=DEVICE)
    assert got[0] == ref[0]
    np.testing.assert_array_equal(got[1], ref[1])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 6), st.integers(1, 4), st.lists(st.integers(1, 25), min_size=1,
                                                       max_size=4), st.integers(0, 2**32 - 1),
       st.booleans())
def test_property_equals_hmmlearn(ns, m, lengths, seed, ties):
    rng = np.random.default_rng(seed)
    model = categorical_hmm(*random_model(rng, ns, m, zero_fraction=0.2, ties=ties))
    X = rng.integers(0, m, size=(sum(lengths), 1))
    ref_logp, ref_path = model.decode(X, lengths, algorithm="viterbi")
    logp, path = decode(model, X, lengths, device=DEVICE)
    assert logp == ref_logp or (np.isnan(logp) and np.isnan(ref_logp))
    np.testing.assert_array_equal(path, ref_path)


def test_auto_method_choice():
    from types import SimpleNamespace

    from bioplug.hmm.decoding import choose_method

    gpu, cpu = SimpleNamespace(is_gpu=True), SimpleNamespace(is_gpu=False)
    assert choose_method(gpu, 64, [20000]) == "chain"
    assert choose_method(gpu, 64, [20000, 20000]) == "steps"  # sequences side by side
    assert choose_method(gpu, 4, [100000]) == "chain"
    assert choose_method(gpu, 64, [100]) == "steps"
    assert choose_method(cpu, 64, [20000]) == "steps"


def test_decode_refuses_a_length_of_zero_with_the_reason():
    """hmmlearn decodes an empty sequence with a log probability read from outside its
    lattice (the last state's start probability); decode names the sequence instead."""
    from hmmlearn.hmm import CategoricalHMM

    model = CategoricalHMM(2)
    model.startprob_ = np.array([0.9, 0.1])
    model.transmat_ = np.array([[0.9, 0.1], [0.2, 0.8]])
    model.emissionprob_ = np.array([[0.7, 0.3], [0.2, 0.8]])
    X = np.array([[0], [1], [1]])
    with pytest.raises(InputError, match="sequence 1 is empty: it has no Viterbi path"):
        decode(model, X, [0, 3], device=DEVICE)
    assert decode(model, X, [3], device=DEVICE)[0] == model.decode(X, [3])[0]
