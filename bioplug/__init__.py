"""bioplug: GPU-accelerated sequence alignment for Biopython and scikit-bio users.

Every dynamic-programming or matrix loop runs as an OpenCL kernel (``bioplug/kernels``); the
same kernels run on GPUs and, through PoCL, on the CPU.

``bioplug.runtime``
    OpenCL device choice, one context/queue per device, program cache, device limits, and the
    multi-device largest-first work queue.
``bioplug.pairwise``
    Global, semiglobal and local alignment with affine gaps, score-only and with traceback,
    batched and all-vs-all; :class:`PairwiseAligner`, a drop-in subclass of
    ``Bio.Align.PairwiseAligner``.
``bioplug.msa``
    QuickProbs multiple alignment (posteriors, consistency, progressive alignment, refinement).
``bioplug.progressive``
    ClustalW-style progressive alignment with profiles on the device: the fast mode for big
    families; :class:`ProgressiveAligner`.
``bioplug.tree``
    Distance matrices and neighbor-joining / UPGMA trees on the device.
``bioplug.skbio``
    Functions with scikit-bio's signatures returning scikit-bio types.
``bioplug.tropical``
    Max-plus / min-plus matrix products (batched, tiled) and all-pairs shortest paths.
``bioplug.hmm``
    HMM Viterbi decoding with state paths on the tropical engine; ``decode`` as hmmlearn.
``bioplug.three``
    Exact sum-of-pairs alignment of three sequences (the full 3-D DP in tiles on the device);
    :func:`align_three`, :func:`score_three`.
``bioplug.gui``
    The desktop application (``bioplug-gui``).
"""

from __future__ import annotations

import logging
from pathlib import Path

__version__ = "0.1.0"

# The design card keeps gui/ and kernels/ beside bioplug/ in the repository; an installed
# package has them inside as bioplug.gui and bioplug.kernels. When this file runs from a
# source checkout (python -m from the repository root), look for sub-packages beside it too.
_source = Path(__file__).resolve().parent
if not (_source / "kernels").is_dir() and (_source.parent / "kernels" / "__init__.py").is_file():
    __path__.append(str(_source.parent))  # noqa: F821 - the package's own search path

logging.getLogger(__name__).addHandler(logging.NullHandler())

# Before pyopencl or PoCL can start: an unwritable cache folder fails both from inside.
from bioplug.cache_dirs import ensure_writable  # noqa: E402

ensure_writable()


_SUBMODULES = {"runtime", "pairwise", "msa", "progressive", "tree", "skbio", "alphabet", "io",
               "progress",
               "errors", "gui", "tropical", "hmm", "three"}


def __getattr__(name):
    # Lazy front doors and sub-packages: importing bioplug does not touch OpenCL or Qt.
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"bioplug.{name}")
    if name == "PairwiseAligner":
        from bioplug.pairwise.aligner import PairwiseAligner

        return PairwiseAligner
    if name == "ProgressiveAligner":
        from bioplug.progressive.aligner import ProgressiveAligner

        return ProgressiveAligner
    if name == "MultipleSequenceAligner":
        from bioplug.msa.aligner import MultipleSequenceAligner

        return MultipleSequenceAligner
    if name in ("align_three", "score_three"):
        from bioplug.three import aligner

        return getattr(aligner, name)
    raise AttributeError(f"module 'bioplug' has no attribute {name!r}")
