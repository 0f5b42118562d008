"""Exact alignment of three sequences on the device (seed 004: Li, Ranka & Sahni's LAYERED and
SLOPED GPU algorithms), with linear gaps as in the seed and affine gaps beyond it.

Front doors
-----------
``align_three(a, b, c, ...)``
    An optimal sum-of-pairs alignment as ``Bio.Align.Alignment`` (with ``.score``).
``score_three(a, b, c, ...)``
    The optimal score only (less memory, no traceback).

Reading order: ``aligner`` (front door) -> ``pipeline`` (stages) -> ``device`` (tile plan,
faces, launches) -> ``kernels/three_sloped.cl`` (and ``kernels/three_layered.cl``).
"""

from __future__ import annotations

__all__ = ["align_three", "score_three"]


def __getattr__(name):
    # lazy: the CLI's parser imports bioplug.three.cli without numpy or OpenCL
    if name in __all__:
        from bioplug.three import aligner

        return getattr(aligner, name)
    raise AttributeError(f"module 'bioplug.three' has no attribute {name!r}")
