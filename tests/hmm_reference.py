"""Numpy oracles for the Viterbi tests: the recurrence with hmmlearn's tie rules, and a path
scorer. Shared by ``test_hmm_*.py``."""

from __future__ import annotations

import numpy as np


def viterbi_reference(log_start, log_trans, log_emit, obs):
    """(log P, path) by the plain recurrence; ties as hmmlearn's ``_hmmc.viterbi``: the last
    state is the lowest argmax, each earlier one the highest argmax (all -inf: the last)."""
    ns = log_start.shape[0]
    v = log_start + log_emit[:, obs[0]]
    back = []
    for t in range(1, len(obs)):
        s = v[:, None] + log_trans
        bp = ns - 1 - np.argmax(s[::-1], axis=0)  # highest index among the maxima
        v = s[bp, np.arange(ns)] + log_emit[:, obs[t]]
        back.append(bp)
    end = int(np.argmax(v))
    path = [end]
    for bp in reversed(back):
        path.append(int(bp[path[-1]]))
    return float(v[end]), np.array(path[::-1], dtype=np.int64)


def path_score(log_start, log_trans, log_emit, obs, path):
    """Log probability of one state path."""
    path = np.asarray(path)
    score = log_start[path[0]] + log_emit[path[0], obs[0]]
    score += np.sum(log_trans[path[:-1], path[1:]]) + np.sum(log_emit[path[1:], obs[1:]])
    return float(score)


def random_model(rng, ns, m, zero_fraction=0.0, ties=False):
    """(startprob, transmat, emissionprob); ``ties`` draws from a few values so that paths
    tie, ``zero_fraction`` zeroes entries (each row keeps one non-zero)."""
    def rows(k, width):
        if ties:
            x = rng.integers(1, 3, size=(k, width)).astype(float)
        else:
            x = rng.random((k, width)) + 0.05
        if zero_fraction:
            x[rng.random((k, width)) < zero_fraction] = 0
            empty = x.sum(axis=1) == 0
            x[empty, rng.integers(0, width, size=int(empty.sum()))] = 1
        return x / x.sum(axis=1, keepdims=True)

    return rows(1, ns)[0], rows(ns, ns), rows(ns, m)


def categorical_hmm(startprob, transmat, emissionprob):
    """An hmmlearn CategoricalHMM with these parameters."""
    from hmmlearn import hmm

    model = hmm.CategoricalHMM(n_components=len(startprob))
    model.n_features = emissionprob.shape[1]
    model.startprob_, model.transmat_, model.emissionprob_ = startprob, transmat, emissionprob
    return model
