"""QuickProbs multiple sequence alignment (Gudys & Deorowicz, PLoS ONE 2014) on OpenCL.

Front doors: :class:`bioplug.msa.aligner.MultipleSequenceAligner` (also
``bioplug.MultipleSequenceAligner``), :func:`bioplug.msa.skbio_api.multi_align`, and the
``bioplug msa`` / ``bioplug score`` commands.

Stages (modules; every O(n^2)-or-worse loop is a kernel in ``kernels/msa_*.cl``):

I. ``posterior`` - for every pair, the 5-state ProbCons pair-HMM forward-backward posterior
   (float, log space) and the MSAProbs partition-function posterior (log space, float by
   default: ``posterior.PRECISION``, double on request;
   QuickProbs 2's VTML200 with gap open -25.3549, extension -1.30113, T = 5.6007, free end gaps;
   MSAProbs' Gonnet 160 with -22, -1, T = 5 on request), combined by root mean square (Eq. 1);
   distance 1 - (gap-free DP score) / min length (Algorithm 1); sparse S_xy and S_yx at 0.01
   (or, in accurate mode, at the per-matrix threshold keeping the top 30 %). One work-group per
   pair, anti-diagonal sweeps, jagged storage, rolling diagonals in local memory when they fit;
   work-items own several columns, so long sequences stay on the device. Tasks are sorted by
   width and batched to a quarter of device memory.
II. ``guide`` - UPGMA guide tree (``bioplug.tree.linkage``, method "average") and ClustalW-style
   weights (edge length / leaves below, summed to the root, normalised).
III. ``consistency`` - c Jacobi passes of Eq. (2) (not Algorithm 4's misprinted Sigma_w), no
   fill-in, threshold after each pass but the last (QuickProbs 2: 1e-5 after it); one
   work-group per S_xy, binary search in the output row;
   tasks ordered by row width. Both orientations are relaxed (no transposition step).
IV. ``progressive`` - profile posteriors P_XY = sum w_x w_y S_xy built by chunked work-groups
   (fixed summation order: deterministic), gap-free DP of Eq. (3) by anti-diagonals, traceback on
   the device; independent tree nodes of one depth share a launch. Then r random two-group
   refinements (seeded ``numpy.random.default_rng(seed)``) with gap-only columns removed.

Input policy: protein only (nucleotide input raises :class:`~bioplug.errors.InputError` until a
nucleotide model exists); gap characters ``-`` and ``.`` are stripped (input treated as
unaligned); B, Z, J, X, U, O and ``*`` are wildcards (independent-residue emissions, score 0);
any other letter, empty records and duplicate ids raise InputError naming the record.
One sequence is returned as it is.

Large families (see :mod:`bioplug.msa.pipeline`): above ~4 GiB of estimated sparse storage or
300 sequences, consistency runs against 32 anchor sequences and each profile alignment uses at
most 128 sampled cross pairs per tree node (QuickProbs 2-style subset), so host memory stays
O(k (anchors + pairs per node) n) instead of O(k^2 n).
"""
