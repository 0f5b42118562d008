"""pytest plugin for ``test_hmm_hmmlearn_suite.py``: hmmlearn's Viterbi replaced by bioplug's.

Loaded with ``-p hmmlearn_swap`` into a pytest run of hmmlearn's own (installed) tests:
``hmmlearn._hmmc.viterbi`` (behind every model's ``decode(algorithm="viterbi")`` and
``predict``) becomes :func:`bioplug.hmm.hmmlearn_viterbi`, and ``CategoricalHMM.decode``
becomes :func:`bioplug.hmm.decode` for the Viterbi algorithm. The number of calls that went
to bioplug is printed at the end (the calling test checks it).
"""

from __future__ import annotations

import os

CALLS = {"hmmc": 0, "decode": 0}


def pytest_configure(config):
    from hmmlearn import _hmmc, hmm

    from bioplug.hmm import decode, hmmlearn_viterbi

    device = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")

    def viterbi(startprob, transmat, log_frameprob):
        CALLS["hmmc"] += 1
        return hmmlearn_viterbi(startprob, transmat, log_frameprob, device=device)

    original_decode = hmm.CategoricalHMM.decode

    def categorical_decode(self, X, lengths=None, algorithm=None):
        if (algorithm or self.algorithm) != "viterbi":
            return original_decode(self, X, lengths, algorithm)
        CALLS["decode"] += 1
        return decode(self, X, lengths, device=device)

    _hmmc.viterbi = viterbi
    hmm.CategoricalHMM.decode = categorical_decode


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(
        f"bioplug-swap: hmmc={CALLS['hmmc']} decode={CALLS['decode']}")
