"""Pairwise alignment on OpenCL devices (seed 001): global, semiglobal and local with affine
gaps, score-only and with traceback, in batches and all-vs-all, on one or several devices.

``engine``
    :class:`PairwiseEngine`: encoded sequences in, scores / alignment paths out.
``aligner``
    :class:`PairwiseAligner`, a drop-in subclass of ``Bio.Align.PairwiseAligner``.
"""
