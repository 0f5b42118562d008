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
``bioplug.tree``
    Distance matrices and neighbor-joining / UPGMA trees on the device.
``bioplug.skbio``
    Functions with scikit-bio's signatures returning scikit-bio types.
``bioplug.gui``
    The desktop application (``bioplug-gui``).
"""

from __future__ import annotations

import logging

__version__ = "0.1.0"

logging.getLogger(__name__).addHandler(logging.NullHandler())


_SUBMODULES = {"runtime", "pairwise", "msa", "tree", "skbio", "alphabet", "io", "progress",
               "errors", "gui"}


def __getattr__(name):
    # Lazy front doors and sub-packages: importing bioplug does not touch OpenCL or Qt.
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"bioplug.{name}")
    if name == "PairwiseAligner":
        from bioplug.pairwise.aligner import PairwiseAligner

        return PairwiseAligner
    if name == "MultipleSequenceAligner":
        from bioplug.msa.aligner import MultipleSequenceAligner

        return MultipleSequenceAligner
    raise AttributeError(f"module 'bioplug' has no attribute {name!r}")
