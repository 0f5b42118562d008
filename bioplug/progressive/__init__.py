"""ClustalW-style progressive alignment on the device (seed 003): profile-profile DP with
affine, position-specific gaps, traceback and profile merging in one kernel per tree level.

Front doors
-----------
``ProgressiveAligner``
    ``align`` (unaligned sequences), ``align_profiles`` (two alignments), ``add`` (new
    sequences into an existing alignment). Returns ``Bio.Align.Alignment``.

``skbio_method.multi_align`` (``bioplug.skbio.multi_align``)
    scikit-bio 0.7.4's own progressive method and results (its score distances, UPGMA and
    profile merges) on ``kernels/progressive_skbio.cl``; a module of its own.

Reading order: ``aligner`` (front door) -> ``pipeline`` (stages) -> ``guide`` (distances and
tree) -> ``device`` (pool and launches) -> ``kernels/progressive_profile.cl``.
"""

from __future__ import annotations

__all__ = ["ProgressiveAligner"]


def __getattr__(name):
    # lazy, so that `bioplug msa` builds its parser (progressive.cli) without the pipeline
    if name == "ProgressiveAligner":
        from bioplug.progressive.aligner import ProgressiveAligner

        return ProgressiveAligner
    raise AttributeError(f"module 'bioplug.progressive' has no attribute {name!r}")
