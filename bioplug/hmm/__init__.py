"""HMM Viterbi decoding on the tropical engine (seed 003, thesis chapter 5), with state paths.

Front doors
-----------
``viterbi(log_startprob, log_transmat, log_emissionprob, observations, method="auto")``
    Log probability and state path of one sequence, or of many decoded together.
``decode(model, X, lengths=None)``
    What an hmmlearn model's ``decode(X, lengths, algorithm="viterbi")`` returns (ties
    included), computed on the device.
``hmmlearn_viterbi(startprob, transmat, log_frameprob)``
    Drop-in for hmmlearn's ``_hmmc.viterbi``.
``HMMModel`` / ``read_model``
    The ``bioplug viterbi`` model file (JSON: states, symbols, probabilities).

Reading order: ``decoding`` (front doors) -> ``device`` (the step-wise recurrence and the
product chain) -> ``kernels/tropical_viterbi.cl`` (and ``kernels/tropical_matmul.cl`` for the
chain's products, through ``bioplug.tropical.device``); ``model`` and ``cli`` for the command.
"""

from __future__ import annotations

from bioplug._front_doors import front_doors

_FRONT_DOORS = {
    "viterbi": "decoding",
    "decode": "decoding",
    "hmmlearn_viterbi": "decoding",
    "HMMModel": "model",
    "read_model": "model",
}

__all__ = sorted(_FRONT_DOORS)


__getattr__, __dir__ = front_doors(__name__, _FRONT_DOORS)
