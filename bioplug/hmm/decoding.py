"""Front doors of Viterbi decoding: ``viterbi`` (log-space arrays) and ``decode`` (hmmlearn).

Both run on the device (:mod:`bioplug.hmm.device`). The recurrence is hmmlearn's (the
thesis's TROPVITERBI, §2.4, in max-plus form on log probabilities)::

    V[0][i] = log pi[i] + log E[i][o_0]
    V[t][i] = max_j (V[t-1][j] + log T[j][i]) + log E[i][o_t]
    log P   = max_i V[n-1][i]

Ties follow hmmlearn's ``_hmmc.viterbi``: the last state is the lowest-numbered maximum of
the last row, and going back, the state before ``i`` is the highest-numbered ``j`` reaching
the maximum (all ``-inf`` gives the last state). Zero probabilities are ``-inf``.
"""

from __future__ import annotations

import logging
import math
import warnings

import numpy as np

from bioplug.errors import InputError
from bioplug.faults import device_guard
from bioplug.hmm import device as dev
from bioplug.progress import Progress
from bioplug.runtime import get_runtime
from bioplug.tropical.device import compute_dtype

log = logging.getLogger(__name__)

METHODS = ("auto", "steps", "chain")
#: ``auto`` takes the product chain for one sequence on a GPU when it is at least this long.
#: Measured on the H100 (benchmarks/tropical.py, float64, chain / steps): one sequence of
#: 100,000 symbols with 4 states 21 / 36 ms, 16 states 23 / 69 ms; 64 states x 20,000:
#: 14 / 48 ms; 256 states x 10,000: 75 / 160 ms; but 8 sequences of 100,000 at 16 states:
#: 157 / 75 ms (the recurrence runs sequences side by side, the chain's work adds up).
CHAIN_MIN_LENGTH = 4096


@device_guard
def viterbi(log_startprob, log_transmat, log_emissionprob, observations, *,
            method: str = "auto", dtype=np.float64, device=None, progress=None):
    """Most likely state paths of a categorical HMM, given log probabilities.

    Parameters
    ----------
    log_startprob : array_like, (l,)
        Log initial-state probabilities (``-inf`` for impossible states).
    log_transmat : array_like, (l, l)
        ``log_transmat[j, i]``: log probability of the move j -> i.
    log_emissionprob : array_like, (l, m)
        ``log_emissionprob[i, o]``: log probability that state i emits symbol o.
    observations : sequence of int, or a list of them
        One sequence (a 1-D array of symbols 0 .. m-1), or several (a list of 1-D arrays,
        or a 2-D array whose rows are sequences), decoded together on the device.
    method : {"auto", "steps", "chain"}
        ``steps``: the step-wise recurrence, parallel over states and sequences.
        ``chain``: the thesis's tropical product chain, parallel over time (O(n l^3)); its
        sums are associated differently, so the log-probability agrees to rounding and,
        where two paths tie, it may return the other one. ``auto`` takes the chain for one
        long sequence on a GPU, where it measured faster (:data:`CHAIN_MIN_LENGTH`).
    dtype : numpy dtype
        float64 (default, as hmmlearn) or float32. Devices without ``cl_khr_fp64`` compute
        in float32 (a warning is logged): log-probabilities then agree to about 1e-6
        relative and paths may differ where two paths score within rounding.
    device : str or Runtime, optional
        OpenCL device.
    progress : callable, optional
        ``progress(stage, done, total)``; returning False cancels between launches.

    Returns
    -------
    log_prob : float, or numpy.ndarray of float64 for several sequences
    states : numpy.ndarray of int64, or a list of them

    Raises
    ------
    InputError
        Shapes that do not match, symbols outside 0 .. m-1 (naming sequence and position),
        or an empty sequence.
    """
    start, trans, emit = _model_arrays(log_startprob, log_transmat, log_emissionprob)
    single, seqs = _observations(observations, emit.shape[1])
    logp, paths = _run(start, trans, emit.T, seqs, method, dtype, device, progress)
    return (float(logp[0]), paths[0]) if single else (logp, paths)


def _model_arrays(log_start, log_trans, log_emit):
    start = np.asarray(log_start, dtype=np.float64)
    trans = np.asarray(log_trans, dtype=np.float64)
    emit = np.asarray(log_emit, dtype=np.float64)
    ns = start.shape[0] if start.ndim == 1 else -1
    if start.ndim != 1 or ns == 0:
        raise InputError(f"log_startprob must be a non-empty vector, not shape {start.shape}")
    if trans.shape != (ns, ns):
        raise InputError(f"log_startprob has {ns} states, so log_transmat must be {ns} x {ns}; "
                         f"it is {trans.shape}")
    if emit.ndim != 2 or emit.shape[0] != ns or emit.shape[1] == 0:
        raise InputError(f"log_startprob has {ns} states, so log_emissionprob must be {ns} x m "
                         f"(states x symbols); it is {emit.shape}")
    return start, trans, emit


def _observations(observations, m: int) -> tuple[bool, list[np.ndarray]]:
    if isinstance(observations, np.ndarray) and observations.ndim <= 2:
        single = observations.ndim == 1
        seqs = [observations] if single else list(observations)
    else:
        items = list(observations)
        single = bool(items) and np.ndim(items[0]) == 0
        seqs = [np.asarray(items)] if single else [np.asarray(s) for s in items]
    if not seqs:
        raise InputError("no sequences to decode")
    out = []
    for i, s in enumerate(seqs):
        s = np.asarray(s)
        if s.ndim != 1:
            raise InputError(f"sequence {i + 1}: a 1-D array of symbols is needed, not shape "
                             f"{s.shape}")
        if s.size == 0:
            raise InputError(f"sequence {i + 1} is empty")
        if not np.issubdtype(s.dtype, np.integer):
            raise InputError(f"sequence {i + 1}: symbols must be integers, not {s.dtype}")
        bad = np.flatnonzero((s < 0) | (s >= m))
        if bad.size:
            raise InputError(f"sequence {i + 1}, position {bad[0] + 1}: symbol {s[bad[0]]} "
                             f"is outside 0 .. {m - 1}")
        out.append(s.astype(np.int32))
    return single, out


def choose_method(rt, n_states: int, lengths: list[int]) -> str:
    """``chain`` for one long sequence on a GPU (:data:`CHAIN_MIN_LENGTH`); else ``steps``."""
    if rt.is_gpu and len(lengths) == 1 and lengths[0] >= CHAIN_MIN_LENGTH:
        return "chain"
    return "steps"


def _run(start, trans, emit_t, seqs, method, dtype, device, progress):
    if method not in METHODS:
        raise InputError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    empty = [i for i, s in enumerate(seqs) if len(s) == 0]
    if empty:
        # hmmlearn answers one (its log probability is read from outside its lattice: the
        # last state's start probability): refused rather than copied
        raise InputError(f"sequence {empty[0] + 1} is empty: it has no Viterbi path (a "
                         "length of 0 in lengths?)")
    rt = get_runtime(device)
    dt = compute_dtype(rt, dtype)
    dm = dev.upload_model(rt, start, trans, emit_t, dt)
    reporter = Progress(progress) if progress is not None else None
    if method == "auto":
        method = choose_method(rt, start.shape[0], [len(s) for s in seqs])
    if method == "chain":
        need = max(dev.chain_bytes(len(s), start.shape[0], dt.itemsize) for s in seqs)
        if need > min(rt.max_alloc, rt.memory_budget(0.4)):
            log.warning("the product chain needs %.1f GiB for the longest sequence; using "
                        "the step-wise recurrence", need / 2**30)
            method = "steps"
    log.info("viterbi: %d sequence(s), %d states, method %s, %s on %s", len(seqs),
             start.shape[0], method, dt.name, rt.info.name)
    run = dev.decode_chain if method == "chain" else dev.decode_steps
    return run(dm, seqs, reporter)


# -- hmmlearn ---------------------------------------------------------------------------------
def libm_log(x) -> np.ndarray:
    """``log`` of each entry as C's ``log`` (glibc) computes it, ``-inf`` for 0.

    hmmlearn takes the logs of ``startprob_`` and ``transmat_`` with ``std::log``; numpy's
    own (SIMD) ``log`` differs from it in the last bit for about 0.3 % of inputs, which
    would break exact ties. ``math.log`` is the C library's.
    """
    arr = np.asarray(x, dtype=np.float64)
    flat = arr.reshape(-1)
    out = np.empty(flat.shape, dtype=np.float64)
    for i, v in enumerate(flat.tolist()):
        out[i] = math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan)
    return out.reshape(arr.shape)


@device_guard
def hmmlearn_viterbi(startprob, transmat, log_frameprob, *, device=None):
    """Drop-in for hmmlearn's ``_hmmc.viterbi(startprob, transmat, log_frameprob)``.

    Takes probabilities for the start and the transitions and per-frame emission log
    likelihoods (n x l), as hmmlearn's ``_decode_viterbi`` passes them, and returns
    ``(log_prob, state_sequence)`` as hmmlearn does, decoded on the device.
    """
    frames = np.asarray(log_frameprob, dtype=np.float64)
    n = frames.shape[0]
    logp, paths = _run(libm_log(startprob), libm_log(transmat), frames,
                       [np.arange(n, dtype=np.int32)], "steps", np.float64, device, None)
    return float(logp[0]), paths[0]


@device_guard
def decode(model, X, lengths=None, *, method: str = "steps", device=None, progress=None):
    """``model.decode(X, lengths, algorithm="viterbi")`` of an hmmlearn model, on the device.

    For a ``CategoricalHMM`` the symbols go to the device and the emission table is looked
    up there; for any other hmmlearn model the emission log-likelihoods are computed by the
    model (``_compute_log_likelihood``, O(n l) on the host) and decoded on the device.

    Parameters
    ----------
    model : hmmlearn.base.BaseHMM
        A fitted (or fully specified) hmmlearn model.
    X : array_like, (n_samples, 1) for ``CategoricalHMM``
        The concatenated sequences, as hmmlearn takes them.
    lengths : array_like of int, optional
        Lengths of the sequences in ``X``; ``None`` for one sequence. A length of 0 is
        refused (hmmlearn returns a value read from outside its arrays for it).
    method : {"steps", "chain", "auto"}
        ``steps`` (default) reproduces hmmlearn exactly, ties included; see :func:`viterbi`.
    device : str or Runtime, optional
        OpenCL device.
    progress : callable, optional
        ``progress(stage, done, total)``.

    Returns
    -------
    log_prob : float
        Sum over the sequences of the best path's log probability (as hmmlearn).
    state_sequence : numpy.ndarray of int64, (n_samples,)
        The concatenated best paths.
    """
    from hmmlearn import _utils
    from sklearn.utils import check_array
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(model, "startprob_")
    model._check()
    X = check_array(X)
    subs = list(_utils.split_X_lengths(X, lengths))
    start, trans = libm_log(model.startprob_), libm_log(model.transmat_)
    if _is_categorical(model):
        table, seqs = _categorical_inputs(model, subs)
    else:
        table, seqs = _frame_inputs(model, subs)
    logp, paths = _run(start, trans, table, seqs, method, np.float64, device, progress)
    log_prob = 0
    for value in logp.tolist():  # summed in hmmlearn's order: the same float
        log_prob += value
    return log_prob, np.concatenate(paths)


def _is_categorical(model) -> bool:
    from hmmlearn._emissions import BaseCategoricalHMM

    return isinstance(model, BaseCategoricalHMM) and hasattr(model, "emissionprob_")


def _categorical_inputs(model, subs):
    """Symbol-major log emission table and int32 symbol sequences (the device's gather)."""
    seqs = []
    for i, sub in enumerate(subs):
        if sub.shape[1] != 1:
            warnings.warn("Inputs of shape other than (n_samples, 1) are deprecated.",
                          DeprecationWarning, stacklevel=3)
            sub = np.concatenate(sub)[:, None]
        s = sub[:, 0]
        n_features = model.emissionprob_.shape[1]
        if not np.issubdtype(s.dtype, np.integer):
            if not np.all(np.mod(s, 1) == 0):
                raise InputError(f"sequence {i + 1}: symbols must be integers")
            s = s.astype(np.int64)
        bad = np.flatnonzero((s < 0) | (s >= n_features))
        if bad.size:
            raise InputError(f"sequence {i + 1}, position {bad[0] + 1}: symbol {s[bad[0]]} is "
                             f"outside 0 .. {n_features - 1}")
        seqs.append(s.astype(np.int32))
    with np.errstate(divide="ignore"):
        table = np.log(model.emissionprob_).T  # numpy's log, as hmmlearn's frame log
    return np.ascontiguousarray(table), seqs


def _frame_inputs(model, subs):
    """All sequences' frame log-likelihoods as one table, each frame its own 'symbol'."""
    frames = [np.asarray(model._compute_log_likelihood(sub), dtype=np.float64)
              for sub in subs]
    table = np.concatenate(frames)
    bounds = np.concatenate([[0], np.cumsum([len(f) for f in frames])])
    seqs = [np.arange(bounds[i], bounds[i + 1], dtype=np.int32) for i in range(len(frames))]
    return table, seqs
