"""``ProgressiveAligner``: ClustalW-style progressive multiple alignment on an OpenCL device.

Example
-------
>>> import bioplug
>>> aligner = bioplug.ProgressiveAligner()                           # doctest: +SKIP
>>> alignment = aligner.align("family.fasta")                        # doctest: +SKIP
>>> alignment.guide_tree                                             # doctest: +SKIP
'((a:0.1,b:0.1):0.2,c:0.3);'
>>> merged = aligner.align_profiles(alignment_a, alignment_b)        # doctest: +SKIP
>>> bigger = aligner.add(alignment, new_records)                     # doctest: +SKIP

It is the fast mode for big families (tens of thousands of sequences): the guide tree needs no
k x k matrix above ``max_matrix`` sequences, and every level of the tree is one batch of
profile-profile alignments on the device.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import numpy as np
from Bio.Align import Alignment
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

from bioplug.alphabet import (
    NUCLEOTIDE_CODES,
    is_nucleotide,
    load_matrix,
    nucleotide_checked,
)
from bioplug.errors import InputError
from bioplug.faults import device_guard
from bioplug.io import (
    AlignedRows,
    alignment_from_rows,
    alignment_rows,
    check_unique_ids,
    read_sequences,
    ungapped,
)
from bioplug.progress import Progress, ProgressCallback
from bioplug.progressive import adding, pipeline
from bioplug.progressive.device import GapScores, ProfileEngine, ResidueGaps
from bioplug.progressive.pipeline import profile_columns
from bioplug.progressive.refine import refine, sp_objective
from bioplug.progressive.trees import newick_from_linkage

log = logging.getLogger(__name__)

#: Defaults per sequence type and family size: substitution matrix, ClustalW-style positive
#: penalties (gap open, gap extension, end-gap open, end-gap extension, in the matrix's units)
#: and a constant added to every substitution score (MUSCLE's "center", opposite sign).
#: Column scores of large divergent profiles average below zero: without the shift the DP
#: prefers sliding big profiles apart over end gaps to aligning them (simulated 1,000 x 300:
#: SP 45 without, 89 with +4), while small families of divergent proteins (BAliBASE) lose
#: 4 SP points with it. Large families take PFASUM43 (FAMSA 2's default matrix, from the
#: ``scoring-matrices`` package) with end gaps 0.66 / 0.66: HomFam dev SP / TC 83.6 / 67.8
#: against 83.3 / 66.8 with BLOSUM62. The large shift is 6, not 4: the bigger the family, the
#: bigger and more divergent its top profiles, and the more they need it (HomFam dev, all 101
#: on PoCL: 84.40 / 68.76 against 84.03 / 68.34; simulated 10,000 x 300, three seeds: SP 89.0
#: against 85.2, 5,000: 88.4 against 83.0; shift 8 or gap open 8 lost on HomFam).
#: Small protein families take PFASUM43 too, with gap open 14 / extend 0.75 (ClustalW-style
#: penalties are in the matrix's units, and PFASUM43's scores run larger than BLOSUM62's):
#: BAliBASE RV11+RV12, all 82 sets, refined, SP / TC 77.53 / 60.78 against 76.03 / 59.29 with
#: BLOSUM62 10 / 1 (pyfamsa 77.39 / 60.68). At PFASUM43's old 10 / 1 the matrix alone gave
#: 76.40 / 59.24; penalties 13-15 / 0.75-1 give 76.6-77.6 SP (mean 77.2), GONNET1992 at its
#: best 12 / 0.75 77.09 / 60.02, PFASUM31 / 45 at 14 / 0.75 77.31 / 77.16. End gaps 2 / 0.25
#: with the best of two guide trees (:data:`TREES`): 78.33 / 62.17 (refinement seed 1:
#: 78.33 / 62.20), against 77.81 / 60.86 at the old 2 / 0.5 and 77.77 / 61.62 along UPGMA
#: alone;
#: neighbours 1 / 0.25, 3 / 0.25, 2 / 0.4, 2 / 0.1: 77.73 / 62.06, 78.20 / 61.52,
#: 78.06 / 61.44, 74.86 / 60.02 (pyfamsa 0.7.0: 77.81 / 61.39).
#: Tuned on the HomFam dev families and BAliBASE RV11/RV12 (``benchmarks/tune_progressive.py``,
#: RESULTS.md).
DEFAULTS = {
    ("protein", "small"): ("PFASUM43", 14.0, 0.75, 2.0, 0.25, 0.0),
    ("protein", "large"): ("PFASUM43", 10.0, 1.0, 0.66, 0.66, 6.0),
    ("nucleotide", "small"): ("NUC.4.4", 15.0, 2.0, 3.0, 1.0, 0.0),
    ("nucleotide", "large"): ("NUC.4.4", 15.0, 2.0, 3.0, 1.0, 0.0),
    ("protein", "fragments"): ("PFASUM43", 10.0, 1.0, 0.0, 0.0, 2.0),
    ("nucleotide", "fragments"): ("NUC.4.4", 15.0, 2.0, 0.0, 0.0, 4.0),
}
#: Adding fragments (``add(fragments=True)``) aligns each new sequence to the alignment with
#: free end gaps; there, without a shift, a divergent fragment's ends drift off into end
#: insertions (its column scores average below zero). Tuned with ``benchmarks/add.py``
#: (every other row of each reference given, the rest cut to windows of 30-100 % and added;
#: recall / precision of the fragment-alignment residue pairs, mean over the sets), proteins:
#: BAliBASE RV11 / RV12 / HomFam refs 73.27 / 96.17 / 92.93 recall with gap open 10 / 1 and
#: shift 2, against 58.79 / 96.13 / 92.52 with the small-family defaults (14 / 0.75, no
#: shift); shift 1-4 and gap open 8-14 around it lost (RESULTS.md). mafft --addfragments
#: --localpair there: 63.91 / 93.88 / 91.13.
#: Families of at least this many sequences take the "large" defaults.
LARGE_FAMILY = 100
#: Refinement rounds by default, for families below LARGE_FAMILY sequences: BAliBASE RV11/12
#: SP / TC 74.6 / 56.2 -> 76.1 / 59.3 (BLOSUM62), 76.3 / 58.0 -> 77.5 / 60.8 (PFASUM43 14 /
#: 0.75); 32 rounds with patience 6 gained under 0.1. On the HomFam dev families (218
#: sequences and more) it cost 0.2 SP and five times the time, so large families are not
#: refined by default.
REFINE_ROUNDS = 16
#: ClustalW's residue-specific gap opening for small protein families (``RESGAP`` in
#: ``kernels/progressive_profile.cl``; ``ProgressiveAligner(residue_gaps=True)``): 0 off.
#: The factors are the Pascarella & Argos residue-specific gap modification factors as
#: printed in table 1 of Thompson, Higgins & Gibson (1994), CLUSTAL W, Nucleic Acids Res.
#: 22:4673-4680 (letters not in the table: 1); hydrophilic residues and the stretch length,
#: the one-third reduction inside hydrophilic stretches and the gap separation distance (the
#: program's default 4; the paper says 8) are from the same paper's description.
#: Off by default: BAliBASE RV11+RV12, all 82 sets, with the defaults above and two trees,
#: SP / TC at gap open 13 / 13.5 / 14 / 14.5 / 15: 78.84 / 62.42, 78.24 / 62.16,
#: 78.40 / 63.37, 77.41 / 60.48, 77.33 / 60.72 with it (no separation; seed 1 at 14:
#: 78.39 / 63.41), 77.74 / 60.80, 78.25 / 61.39, 78.33 / 62.17, 77.61 / 62.06,
#: 77.95 / 62.42 without: the same on average (78.04 / 61.83 against 77.98 / 61.77). With
#: the gap separation raise 78.27 / 62.41 (hence SEPARATION 0), factors only 77.92 / 62.72,
#: hydrophilic stretches only 78.15 / 60.96, stretch factor 0.5 / 0.8 78.28 / 62.23,
#: 78.18 / 63.23 (at gap open 14).
RESIDUE_GAPS = 0
PASCARELLA = {"A": 1.13, "C": 1.13, "D": 0.96, "E": 1.31, "F": 1.20, "G": 0.61, "H": 1.00,
              "I": 1.32, "K": 0.96, "L": 1.21, "M": 1.29, "N": 0.63, "P": 0.74, "Q": 1.07,
              "R": 0.72, "S": 0.76, "T": 0.89, "V": 1.25, "W": 1.23, "Y": 1.00}
HYDROPHILIC = "DEGKNQPRS"
HYDROPHILIC_FACTOR = 2.0 / 3.0
GAP_DISTANCE = 4
SEPARATION = 0.0


def residue_gaps(letters: str) -> ResidueGaps:
    """:class:`ResidueGaps` for a protein matrix's letters (module constants above)."""
    factor = tuple(PASCARELLA.get(c, 1.0) for c in letters)
    return ResidueGaps(factor, tuple(c in HYDROPHILIC for c in letters),
                       float(HYDROPHILIC_FACTOR), int(GAP_DISTANCE), float(SEPARATION))


#: Candidate guide trees per sequence type and family size (``ProgressiveAligner(trees=...)``):
#: small protein families are aligned along UPGMA and along midpoint-rooted NJ of the same
#: distances, each refined, and the alignment with the higher sum-of-pairs objective is kept
#: (twice the time). BAliBASE RV11+RV12, all 82 sets, end gaps 2 / 0.25, PoCL: SP / TC
#: 78.33 / 62.17 against 77.77 / 61.62 along UPGMA alone (NJ alone 77.37 / 61.00; adding
#: single linkage as a third candidate 78.36 / 62.19 for half as much time again).
TREES = {
    ("protein", "small"): ("upgma", "nj"),
    ("protein", "large"): ("upgma",),
    ("nucleotide", "small"): ("upgma",),
    ("nucleotide", "large"): ("upgma",),
}

#: How errors name the two inputs of ``align_profiles`` and of ``add``.
PROFILE_SIDES = ("the first alignment", "the second")
ADD_SIDES = ("the alignment", "the sequences to add")


class ProgressiveAligner:
    """Progressive multiple alignment (ClustalW's three stages) with profiles on the device.

    Defaults depend on the alphabet and on the family's size (:data:`DEFAULTS`): proteins get
    PFASUM43 (gap open 14 / extend 0.75 below 100 sequences; from 100 on 10 / 1, cheaper end
    gaps and a substitution shift of +6).

    Parameters
    ----------
    matrix : str or Bio.Align.substitution_matrices.Array, optional
        Substitution matrix (a Biopython or ``scoring-matrices`` name, or an ``Array``);
        default PFASUM43 for proteins, NUC.4.4 for nucleotides.
    gap_open, gap_extend : float, optional
        Penalties (positive, as ClustalW's ``-GAPOPEN`` / ``-GAPEXT``): a gap of ``n`` columns
        costs ``gap_open + (n - 1) * gap_extend`` in each sequence it opens in. Inside a
        profile the opening cost shrinks where the profile already has gaps (position-specific
        gaps, ``kernels/progressive_profile.cl``) and extension is scaled by the share of
        sequences with a residue in the column.
    end_gap_open, end_gap_extend : float, optional
        Penalties for gaps before the first or after the last column (ClustalW's end gaps).
    seqtype : {"auto", "protein", "dna", "rna"}
        Alphabet; "auto" calls input made only of IUPAC nucleotide codes DNA/RNA.
    shift : float, optional
        Constant added to every substitution score (default: 6 for protein families of 100
        sequences or more, else 0): it rewards aligning residues over leaving profiles
        unmatched.
    distances : {"auto", "align", "lcs", "ktuple"}
        Guide-tree distances of all pairs, on the device: local alignment scores (+4.7 SP
        points over k-tuples on the HomFam dev families), the longest common subsequence
        (bit-parallel, about 60x cheaper a pair: what families of tens of thousands can
        afford), or shared k-tuples (ClustalW's fast mode). "auto" (default) aligns all pairs
        while that fits a per-device budget of cells
        (:data:`bioplug.progressive.guide.ALIGN_CELLS`: about two seconds of a GPU) and takes
        LCS distances above it.
    weights : {"clustalw", "equal"}
        Sequence weights in profiles: ClustalW's, from the guide tree (down-weighting close
        relatives), or all equal.
    max_matrix : int, optional
        Most sequences for which the guide tree is UPGMA on one k x k distance matrix
        (default: as many as fit a packed float32 triangle in 40 % of the device's memory,
        :func:`bioplug.progressive.guide.matrix_limit`, about 100,000 on an H100).
    embedding : {"single", "spectrum", "mbed"}
        The guide tree above ``max_matrix``: single linkage on LCS distances computed on the
        fly, no matrix (default; FAMSA's tree), or a bisecting tree in k-tuple spectra or
        Clustal Omega's mBed distances to log^2 k seed sequences (both aligned worse:
        RESULTS.md).
    refinement : int, optional
        Rounds of iterative refinement (:mod:`bioplug.progressive.refine`: batches of tree
        splits realigned on the device, the best kept while the sum-of-pairs score grows);
        default :data:`REFINE_ROUNDS` for families below :data:`LARGE_FAMILY` sequences,
        none for larger ones; 0 turns it off.
    residue_gaps : bool, optional
        ClustalW's residue-specific gap opening (:data:`RESIDUE_GAPS`): gap opening scaled by
        the residues beside the gap (Pascarella & Argos factors) and lowered inside
        hydrophilic stretches. Default: :data:`RESIDUE_GAPS` for protein families below
        :data:`LARGE_FAMILY` sequences, off otherwise (and always off for nucleotides).
    trees : str or tuple of str, optional
        Candidate guide trees, "upgma" (the guide tree above: UPGMA, or the big-family tree
        above ``max_matrix``) and "nj" (midpoint-rooted neighbour joining on the same
        distances): the family is aligned along each, refined, and the alignment with the
        highest sum-of-pairs objective is kept (ties: the earlier). Default :data:`TREES`:
        both for protein families below :data:`LARGE_FAMILY` sequences, else "upgma".
        Ignored when ``align`` is given a ``guide_tree``.
    seed : int
        Seed of the bisecting tree's random starts and of the refinement's choice of splits.
    device : optional
        OpenCL device specification or Runtime.
    adjust_direction : bool
        Nucleotides only: reverse-complement the sequences that face the other way first
        (``mafft --adjustdirection``; :mod:`bioplug.msa.direction`). Their rows are named
        ``_R_<id>``, and ``alignment.reversed_ids`` lists their ids. ``add`` turns the new
        sequences to face the alignment's way.
    """

    def __init__(self, *, matrix=None, gap_open: float | None = None,
                 gap_extend: float | None = None, end_gap_open: float | None = None,
                 end_gap_extend: float | None = None, seqtype: str = "auto",
                 shift: float | None = None, distances: str = "auto",
                 weights: str = "clustalw", max_matrix: int | None = None,
                 embedding: str = "single", refinement: int | None = None,
                 trees: str | tuple[str, ...] | None = None,
                 residue_gaps: bool | None = None, seed: int = 0, device=None,
                 adjust_direction: bool = False):
        if seqtype not in ("auto", "protein", "dna", "rna"):
            raise InputError(f"seqtype must be auto, protein, dna or rna, not {seqtype!r}")
        for name, v in (("gap_open", gap_open), ("gap_extend", gap_extend),
                        ("end_gap_open", end_gap_open), ("end_gap_extend", end_gap_extend)):
            if v is not None and not (np.isfinite(v) and v >= 0):
                raise InputError(f"{name} must be a penalty >= 0, got {v!r}")
        if distances not in ("auto", "ktuple", "align", "lcs"):
            raise InputError(f"distances must be 'auto', 'align', 'lcs' or 'ktuple', not "
                             f"{distances!r}")
        if weights not in ("clustalw", "equal"):
            raise InputError(f"weights must be 'clustalw' or 'equal', not {weights!r}")
        if embedding not in ("single", "spectrum", "mbed"):
            raise InputError(f"embedding must be 'single', 'spectrum' or 'mbed', not "
                             f"{embedding!r}")
        if max_matrix is not None and max_matrix < 2:
            raise InputError(f"max_matrix must be at least 2, got {max_matrix}")
        if refinement is not None and not (int(refinement) == refinement and refinement >= 0):
            raise InputError(f"refinement must be a number of rounds >= 0, got {refinement!r}")
        if isinstance(trees, str):
            trees = (trees,)
        if trees is not None and (not trees or any(t not in ("upgma", "nj") for t in trees)):
            raise InputError(f"trees must name 'upgma' and/or 'nj', not {trees!r}")
        self.trees = None if trees is None else tuple(trees)
        self.residue_gaps = None if residue_gaps is None else bool(residue_gaps)
        self.matrix = matrix
        self.penalties = (gap_open, gap_extend, end_gap_open, end_gap_extend)
        if shift is not None and not np.isfinite(shift):
            raise InputError(f"shift must be a finite number, got {shift!r}")
        self.shift = shift
        self.seqtype = seqtype
        self.distances = distances
        self.weights = weights
        self.max_matrix = None if max_matrix is None else int(max_matrix)
        self.embedding = embedding
        self.refinement = None if refinement is None else int(refinement)
        self.seed = int(seed)
        self.device = device
        self.adjust_direction = bool(adjust_direction)
        self.last_times: dict = {}
        self.last_errors: list = []

    def __repr__(self) -> str:
        return (f"ProgressiveAligner(matrix={self.matrix!r}, seqtype={self.seqtype!r}, "
                f"max_matrix={self.max_matrix}, device={self.device!r})")

    # -- settings for one input --------------------------------------------------------------
    def scoring(self, texts: list[str], fragments: bool = False,
                names: list[str] | None = None
                ) -> tuple[pipeline.Substitution, GapScores, bool]:
        """(matrix, gap scores, nucleotide?) for these sequences (see :data:`DEFAULTS`): by
        the family's size, or the defaults for adding ``fragments``; ``names`` name the
        sequences in errors."""
        if self.seqtype == "auto":
            nucleotide = nucleotide_checked(texts, names)
        else:
            nucleotide = self.seqtype in ("dna", "rna")
        size = "large" if len(texts) >= LARGE_FAMILY else "small"
        kind = ("nucleotide" if nucleotide else "protein", "fragments" if fragments else size)
        name, go, ge, eo, ee, shift = DEFAULTS[kind]
        matrix = self.matrix if self.matrix is not None else name
        if isinstance(matrix, str):
            matrix = load_matrix(matrix)
        if not nucleotide and any("*" in t for t in texts):
            matrix = with_stop(matrix)
        shift = shift if self.shift is None else float(self.shift)
        matrix = pipeline.Substitution.complete(matrix, nucleotide, shift)
        given = [d if v is None else float(v)
                 for v, d in zip(self.penalties, (go, ge, eo, ee), strict=True)]
        go, ge, eo, ee = given
        log.info("progressive: %s, matrix %s, gap open %g extend %g, end %g/%g",
                 "nucleotide" if nucleotide else "protein",
                 matrix.name or name, go, ge, eo, ee)
        use = (bool(RESIDUE_GAPS) and kind[1] == "small") if self.residue_gaps is None \
            else self.residue_gaps
        residue = residue_gaps(matrix.letters) if use and not nucleotide else None
        return matrix, GapScores(-go, -ge, -eo, -ee, residue), nucleotide

    # -- verbs ---------------------------------------------------------------------------------
    @device_guard
    def align(self, sequences, progress: ProgressCallback | None = None,
              guide_tree=None) -> Alignment:
        """Align unaligned sequences.

        Parameters
        ----------
        sequences : path, or iterable of SeqRecord / str / Seq / skbio.Sequence
            Gap characters are removed first.
        progress : callable, optional
            ``progress(stage, done, total)`` for the stages "guide tree" and "progressive";
            returning False cancels (:class:`bioplug.progress.Cancelled`).
        guide_tree : optional
            A tree to use instead of computing one: Newick text or file, ``skbio.TreeNode``,
            ``Bio.Phylo`` tree, or a scipy linkage array; tips must be the record ids.

        Returns
        -------
        Bio.Align.Alignment
            Rows in input order; ``alignment.guide_tree`` is the tree used (Newick).
        """
        return self._align_records(ungapped(read_sequences(sequences)), Progress(progress),
                                   guide_tree)

    def _align_records(self, records: list[SeqRecord], progress: Progress,
                       guide_tree=None, adjust: bool = True) -> Alignment:
        from bioplug.msa import direction

        flip = None
        if self.adjust_direction and adjust:
            records, flip = direction.adjusted(records, self.device, self.seqtype)
        texts = [str(r.seq) for r in records]
        ids = [r.id for r in records]
        matrix, gaps, nucleotide = self.scoring(texts, names=ids)
        link = None if guide_tree is None else direction.tree_linkage(guide_tree, ids, flip)
        if link is not None:
            result = self._align_along(texts, ids, matrix, gaps, nucleotide, link, progress)
        else:
            result = self._best_of_trees(self.tree_methods(len(texts), nucleotide), texts,
                                         ids, matrix, gaps, nucleotide, progress)
        self.last_times = result.times
        alignment = alignment_from_rows(records, result.rows, molecule_type=molecule(nucleotide))
        alignment.guide_tree = newick_from_linkage(result.link, ids)
        if flip is not None:   # the tree's tips named as the rows are
            direction.name_turned(alignment, flip)
            alignment.guide_tree = newick_from_linkage(result.link,
                                                       [s.id for s in alignment.sequences])
        return alignment

    def tree_methods(self, k: int, nucleotide: bool) -> tuple[str, ...]:
        """Candidate guide trees for a family of ``k`` sequences (``trees``, else
        :data:`TREES`)."""
        if self.trees is not None:
            return self.trees
        kind = ("nucleotide" if nucleotide else "protein",
                "large" if k >= LARGE_FAMILY else "small")
        return TREES[kind]

    def _align_along(self, texts, ids, matrix, gaps, nucleotide, link, progress
                     ) -> pipeline.Result:
        """The pipeline along ``link`` (None: the guide tree of :mod:`.guide`), refined."""
        rounds = self.refinement if self.refinement is not None else (
            REFINE_ROUNDS if len(texts) < LARGE_FAMILY else 0)
        result = pipeline.run(texts, ids, matrix, gaps, nucleotide, self.max_matrix,
                              self.device, link, self.seed, progress, self.distances,
                              self.weights, self.embedding)
        if rounds and len(texts) > 2:
            t0 = time.perf_counter()
            result.rows = refine(result.rows, result.link, matrix, gaps, nucleotide,
                                 self.device, rounds, seed=self.seed, progress=progress)
            result.times["refine"] = time.perf_counter() - t0
        return result

    def _best_of_trees(self, methods, texts, ids, matrix, gaps, nucleotide, progress
                       ) -> pipeline.Result:
        """The alignment along each candidate guide tree ("upgma": the pipeline's own tree,
        :func:`.guide.guide_tree`; "nj": :func:`.guide.nj_tree`), refined, and the one with
        the highest sum-of-pairs objective kept (:func:`.refine.sp_objective`, the
        refinement's own; ties keep the earlier). Times add up over the candidates."""
        from bioplug.progressive.guide import nj_tree

        best, score, times = None, -np.inf, {}
        for n, method in enumerate(methods):
            t0 = time.perf_counter()
            # later candidates report as stages of their own ("progressive (nj)"), so that
            # each stage's counts still only grow
            report = progress if n == 0 else StageSuffix(progress, f" ({method})")
            link = None
            if method == "nj":
                report.report("guide tree", 0, 1)
                link = nj_tree(texts, nucleotide, self.device, self.distances,
                               self.max_matrix)
                report.report("guide tree", 1, 1)
                if link is None and best is not None:    # no k x k matrix: no NJ tree
                    continue
            times["tree"] = times.get("tree", 0.0) + time.perf_counter() - t0
            result = self._align_along(texts, ids, matrix, gaps, nucleotide, link, report)
            for stage, seconds in result.times.items():
                times[stage] = times.get(stage, 0.0) + seconds
            value = sp_objective(result.rows, matrix, gaps, nucleotide) if len(methods) > 1 \
                else 0.0
            log.info("guide tree %s: objective %.1f (best so far %.1f)", method, value, score)
            if value > score:
                best, score = result, value
        best.times = times
        return best

    @device_guard
    def align_many(self, inputs, progress: ProgressCallback | None = None,
                   keep_going: bool = False) -> list[Alignment | None]:
        """Several families with one device context, as
        :meth:`bioplug.MultipleSequenceAligner.align_many` (None for failed families with
        ``keep_going``; their errors in ``last_errors``)."""
        return [r.alignment for r in self.align_each(inputs, progress, keep_going)]

    def align_each(self, inputs, progress: ProgressCallback | None = None,
                   keep_going: bool = False) -> Iterator:
        """:class:`bioplug.msa.aligner.FamilyResult` per family as soon as it is done (the
        next input read on a thread meanwhile)."""
        from bioplug.msa.aligner import align_families

        self.last_errors = []

        def align(records, report):
            return self._align_records(records, report), self.last_times, "progressive"

        yield from align_families(inputs, lambda item: ungapped(read_sequences(item)), align,
                                  Progress(progress), keep_going, self.last_errors)

    @device_guard
    def align_profiles(self, first, second) -> Alignment:
        """Align two alignments to each other, keeping each one's columns (ClustalW's profile
        mode); rows of ``first`` come first.

        Parameters
        ----------
        first, second : Bio.Align.Alignment, path of an alignment file, or list of gapped rows
            (SeqRecords or strings of equal length).
        """
        a = aligned_records(first)
        b = aligned_records(second, len(a))
        self._check_distinct_ids(a, b, PROFILE_SIDES)
        self._check_one_alphabet(*([str(r.seq) for r in ungapped(side, empty_ok=True)]
                                   for side in (a, b)), PROFILE_SIDES, None)
        plain, out, _, nucleotide = self._profile_pair(a, b, PROFILE_SIDES)
        return alignment_from_rows(plain, out, molecule_type=molecule(nucleotide))

    @device_guard
    def merge(self, alignments, progress: ProgressCallback | None = None,
              names: list[str] | None = None) -> Alignment:
        """Merge several alignments into one, keeping each one's columns (``mafft --merge``).

        The alignments are aligned to each other as profiles up a UPGMA tree of their
        distances (the mean guide-tree distance between up to
        :data:`~bioplug.progressive.merging.REPRESENTATIVES` rows of each, with this
        aligner's ``distances``; LCS distances are taken as k-tuple ones), each level of the
        tree one device batch. Two alignments give :meth:`align_profiles`' result.

        Parameters
        ----------
        alignments : sequence of Bio.Align.Alignment, paths or lists of gapped rows
            Two or more; a single sequence is an alignment of one row.
        progress : callable, optional
            ``progress(stage, done, total)`` ("progressive"); returning False cancels.
        names : list of str, optional
            How errors name the alignments (default "alignment 1", "alignment 2", ...).

        Returns
        -------
        Bio.Align.Alignment
            The alignments' rows, in the order given (an alignment of gaps only as rows of
            gaps, with a warning); ``alignment.merge_tree`` is the tree of the alignments
            with residues (Newick, leaves named as ``names``).

        Raises
        ------
        InputError
            Fewer than two alignments, ``names`` not one for each, one alignment that
            cannot be read (named), none with residues, an id in two of them, a
            protein alignment beside a nucleotide one (with ``seqtype="auto"``), or a letter
            the scoring lacks.
        """
        from bioplug.progressive import merging
        from bioplug.runtime import get_runtime

        groups, names = self._merge_inputs(alignments, names)
        plain = ungapped([r for group in groups for r in group], empty_ok=True)
        texts = [str(r.seq) for r in plain]
        full = self._check_merge(groups, texts, names)
        matrix, gaps, nucleotide = self.scoring(texts, names=[r.id for r in plain])
        rows = [gapped_matrix(groups[i]) for i in full]
        if len(full) == 1:   # the others are rows of gaps only: nothing to align
            out, tree = rows[0], f"{names[full[0]]};"
        else:
            rt = get_runtime(self.device)
            link = merging.merge_tree(rows, nucleotide, self.distances, rt)
            engine = ProfileEngine(rt, matrix.values, gaps)
            leaves = engine.add_profiles(
                [profile_columns(r, matrix.letters, nucleotide, [s.id for s in groups[i]],
                                 gaps.residue) for r, i in zip(rows, full, strict=True)],
                [len(groups[i]) for i in full])
            assert leaves == list(range(len(full))), leaves   # align_tree's leaf numbering
            root, moves = pipeline.align_tree(engine, link, len(full), Progress(progress))
            out = merging.assemble_groups(link, moves, engine.length[root], rows)
            tree = newick_from_linkage(link, [names[i] for i in full])
        out = merging.with_gap_rows(out, [len(group) for group in groups], full)
        alignment = alignment_from_rows(plain, out, molecule_type=molecule(nucleotide))
        alignment.merge_tree = tree
        return alignment

    @staticmethod
    def _merge_inputs(alignments, names: list[str] | None
                      ) -> tuple[list[list[SeqRecord]], list[str]]:
        """The alignments as gapped records and their names in messages; an alignment that
        cannot be read (rows of different lengths, an id twice, no rows) is named, as one
        among fifty must be."""
        if isinstance(alignments, (str, Alignment)) or not hasattr(alignments, "__iter__"):
            raise InputError("merge takes a list of two or more alignments")
        items = list(alignments)
        if len(items) < 2:
            raise InputError(f"merge needs two or more alignments, got {len(items)}")
        if names is None:
            names = [f"alignment {i + 1}" for i in range(len(items))]
        elif isinstance(names, str) or len(names) != len(items):
            raise InputError(f"names: one name for each of the {len(items)} alignments, got "
                             f"{1 if isinstance(names, str) else len(names)}")
        groups, first = [], 0
        for item, name in zip(items, names, strict=True):
            try:
                groups.append(aligned_records(item, first))
            except InputError as exc:
                # a path's own errors name it already; records and Alignments only by position
                said = str(exc)
                raise InputError(said if said.startswith(str(name)) else f"{name}: {said}"
                                 ) from None
            first += len(groups[-1])
        return groups, list(names)

    def _check_merge(self, groups: list[list[SeqRecord]], texts: list[str],
                     names: list[str]) -> list[int]:
        """Each id in one alignment only, one alphabet; the alignments with residues (an
        alignment of gaps only is written as rows of gaps, as :meth:`align_profiles` and
        ``--merge-table`` write them, with a warning)."""
        starts = np.cumsum([0, *(len(group) for group in groups)])
        full = [i for i in range(len(groups)) if any(texts[starts[i]:starts[i + 1]])]
        if not full:
            raise InputError("none of the alignments has residues")
        for i in sorted(set(range(len(groups))) - set(full)):
            log.warning("%s has no residues: its rows are written as gaps", names[i])
        where: dict[str, int] = {}
        for i, group in enumerate(groups):
            check_unique_ids(group, names[i])
            for r in group:
                if r.id in where and names[where[r.id]] == names[i]:
                    raise InputError(f"{names[i]} is given twice (sequence id {r.id!r} in "
                                     "both)")
                if r.id in where:
                    raise InputError(f"sequence id {r.id!r} is in {names[where[r.id]]} and "
                                     f"{names[i]}: give the sequences distinct ids")
                where[r.id] = i
        if self.seqtype != "auto":
            return full
        kinds = {i: "nucleotide" if is_nucleotide(texts[starts[i]:starts[i + 1]]) else "protein"
                 for i in full}
        odd = next((i for i in full if kinds[i] != kinds[full[0]]), None)
        if odd is not None:
            first = full[0]
            raise InputError(f"{names[first]} is {kinds[first]}, {names[odd]} {kinds[odd]}: "
                             "profiles of one alphabet only (the sequence type, --seqtype, "
                             "overrides the detection)")
        return full

    def _profile_pair(self, a: list[SeqRecord], b: list[SeqRecord], sides: tuple[str, str]
                      ) -> tuple[list[SeqRecord], np.ndarray, np.ndarray, bool]:
        """Two groups of gapped records aligned as profiles: their ungapped records, the
        merged rows, the moves (0 both, 1 ``a`` only, 2 ``b`` only) and the alphabet;
        ``sides`` names the groups in errors. The callers have checked that the two share
        one alphabet and no id."""
        rows_a, rows_b = gapped_matrix(a), gapped_matrix(b)
        plain = ungapped(a + b, empty_ok=True)   # an alignment may hold an all-gap row
        texts = [str(r.seq) for r in plain]
        matrix, gaps, nucleotide = self.scoring(texts, names=[r.id for r in plain])
        engine = self._engine(matrix, gaps)
        x, y = engine.add_profiles(
            [profile_columns(rows, matrix.letters, nucleotide, [r.id for r in group],
                             gaps.residue) for rows, group in ((rows_a, a), (rows_b, b))],
            [len(a), len(b)])
        (_, moves), = engine.align([(x, y)])
        out = np.full((len(a) + len(b), moves.size), ord("-"), dtype=np.uint8)
        out[: len(a), np.flatnonzero(moves != 2)] = rows_a
        out[len(a):, np.flatnonzero(moves != 1)] = rows_b
        return plain, out, moves, nucleotide

    def _engine(self, matrix, gaps: GapScores) -> ProfileEngine:
        from bioplug.runtime import get_runtime

        return ProfileEngine(get_runtime(self.device), matrix.values, gaps)

    @staticmethod
    def _check_distinct_ids(a: list[SeqRecord], b: list[SeqRecord],
                            sides: tuple[str, str]) -> None:
        shared = sorted({r.id for r in a} & {r.id for r in b})
        if shared:
            listed = f"{', '.join(shared[:5])}{', ...' if len(shared) > 5 else ''}"
            if sides == PROFILE_SIDES:
                raise InputError(
                    f"duplicate sequence ids across the two alignments ({listed}): give their "
                    "sequences distinct ids (alignments made from plain strings name them "
                    "seq1, seq2, ... each)")
            raise InputError(f"sequence ids in both {sides[0]} and {sides[1]} ({listed}): "
                             "give the sequences to add distinct ids")
        check_unique_ids(a + b)

    def _check_one_alphabet(self, first: list[str], second: list[str],
                            sides: tuple[str, str], second_ids: list[str] | None) -> None:
        """Refuse, with ``seqtype="auto"``, a nucleotide side beside a protein one: one
        scoring cannot fit both (the detected alphabet would be the mixture's). With
        ``second_ids`` the message names the first letter of ``second`` that is no nucleotide
        code, if any (a stray letter in one read among thousands)."""
        if self.seqtype != "auto":
            return
        kinds = ["nucleotide" if is_nucleotide(side) else "protein" for side in (first, second)]
        if kinds[0] == kinds[1]:
            return
        culprit = ""
        if kinds[0] == "nucleotide" and second_ids is not None:
            for name, text in zip(second_ids, second, strict=True):
                at = next((i for i, c in enumerate(text.upper()) if c not in NUCLEOTIDE_CODES),
                          None)
                if at is not None:
                    culprit = (f" ({name}: letter {text[at]!r} at position {at + 1} is no "
                               "nucleotide code)")
                    break
        raise InputError(f"{sides[0]} is {kinds[0]}, {sides[1]} {kinds[1]}{culprit}: profiles "
                         "of one alphabet only (the sequence type, --seqtype, overrides the "
                         "detection)")

    @device_guard
    def add(self, alignment, sequences, progress: ProgressCallback | None = None, *,
            fragments: bool = False, keep_length: bool = False) -> Alignment:
        """Add unaligned sequences to an existing alignment, whose columns stay intact.

        Parameters
        ----------
        alignment : Bio.Align.Alignment, path of an alignment file, or list of gapped rows
        sequences : path, or iterable of SeqRecord / str / Seq / skbio.Sequence
            Gap characters are removed first.
        progress : callable, optional
            ``progress(stage, done, total)``; returning False cancels.
        fragments : bool
            False (``mafft --add``): the new sequences are aligned progressively among
            themselves, then that profile is aligned to the existing one. True (``mafft
            --addfragments``): each new sequence is aligned to the alignment on its own, end
            gaps free, all in device batches; insertions of different sequences at one place
            are not aligned to each other (each left-justified in a block as wide as the
            longest).
        keep_length : bool
            Keep the alignment's columns only (``mafft --keeplength``): residues of the new
            sequences in insertions are deleted from them (logged as a warning). Columns
            of gaps only in the input cannot be kept (a ``Bio.Align.Alignment`` cannot hold
            them; logged as a warning too).

        Returns
        -------
        Bio.Align.Alignment
            The alignment's rows, then the new ones. ``alignment.residue_columns`` maps each
            new sequence's id to the 0-based column of each of its residues (-1: deleted);
            with ``keep_length``, ``alignment.given_columns`` is the given alignment's column
            of each column (they differ where it had columns of gaps only).
        """
        return self.add_rows(alignment, sequences, progress, fragments=fragments,
                             keep_length=keep_length).to_alignment()

    def add_rows(self, alignment, sequences, progress: ProgressCallback | None = None, *,
                 fragments: bool = False, keep_length: bool = False) -> AlignedRows:
        """:meth:`add`, the result as :class:`~bioplug.alignio.AlignedRows`: records and
        printed rows, with the same attributes, written as the Alignment would be without
        building Biopython's coordinates (what ``bioplug profile --add`` writes; for 20,000
        reads those cost more than the file)."""
        existing = aligned_records(alignment)   # read once: it may be standard input
        new = ungapped(read_sequences(sequences, len(existing)))
        progress = Progress(progress)
        flip = None
        if self.adjust_direction:   # the alignment's direction, which they are turned to
            from bioplug.msa import direction

            new, flip = direction.adjusted_to(ungapped(existing, empty_ok=True), new,
                                              self.device, self.seqtype, fragments)
        added = new      # ungapped, as turned: what the map of each residue lists
        # ids and the two sides' alphabets, said before the new ones are aligned at all
        self._check_distinct_ids(existing, new, ADD_SIDES)
        self._check_one_alphabet([str(r.seq) for r in ungapped(existing, empty_ok=True)],
                                 [str(r.seq) for r in new], ADD_SIDES, [r.id for r in new])
        columns = None   # each added residue's column, where the layout gives them
        if fragments:
            plain, out, inserted, columns, nucleotide = self._add_fragments(existing, new,
                                                                             progress)
        else:
            if len(new) > 1:
                # not turned among themselves: the alignment's direction is not theirs
                new_aln = self._align_records(new, progress, adjust=False)
                new = [SeqRecord(Seq(r), id=rec.id, description=rec.description)
                       for r, rec in zip(alignment_strings(new_aln), new, strict=True)]
            plain, out, moves, nucleotide = self._profile_pair(existing, new, ADD_SIDES)
            inserted = moves == 2
        records, rows, mapping, given_columns = adding.finish(plain, out, len(existing),
                                                              inserted, keep_length, columns)
        result = AlignedRows.printed(records, rows, molecule_type=molecule(nucleotide))
        result.residue_columns = mapping
        result.added_records = added   # as aligned: turned ones reverse-complemented
        if keep_length:
            result.given_columns = given_columns
        if flip is not None:
            self._name_turned_added(result, flip, len(existing))
        return result

    @staticmethod
    def _name_turned_added(result: AlignedRows, flip: np.ndarray, old: int) -> None:
        """The turned added rows named ``_R_<id>`` (as mafft --add --adjustdirection names
        them), in ``residue_columns`` and ``added_records`` too."""
        from bioplug.msa import direction

        direction.name_turned(result, np.concatenate([np.zeros(old, dtype=bool), flip]))
        named = {r.id: s.id for r, s in zip(result.added_records, result.sequences[old:],
                                            strict=True)}
        result.residue_columns = {named.get(k, k): v for k, v in result.residue_columns.items()}
        result.added_records = [SeqRecord(r.seq, id=named[r.id], description=r.description)
                                for r in result.added_records]

    def _add_fragments(self, existing: list[SeqRecord], new: list[SeqRecord],
                       progress: Progress
                       ) -> tuple[list[SeqRecord], np.ndarray, np.ndarray, np.ndarray, bool]:
        """Each new sequence aligned to the alignment on its own (end gaps free): the ungapped
        records, all rows laid out, the inserted columns, each added residue's column and the
        alphabet."""
        plain = ungapped(existing, empty_ok=True) + new
        texts = [str(r.seq) for r in plain]
        matrix, gaps, nucleotide = self.scoring(texts, fragments=True,
                                                names=[r.id for r in plain])
        engine = self._engine(matrix, gaps)
        rows = gapped_matrix(existing)
        cells, features = pipeline.cell_features(rows, matrix.letters, nucleotide,
                                                 [r.id for r in existing], gaps.residue)
        added = texts[len(existing):]
        codes = pipeline.encode(added, [r.id for r in new], matrix.letters, nucleotide)
        weigh = adding.Neighbours(texts[:len(existing)], added, nucleotide, self.device,
                                  gapped=rows)
        leads, moves = adding.fragment_moves(engine, cells, pipeline.cell_bits(features),
                                             weigh, codes, progress)
        out, inserted, columns = adding.fragment_rows(rows, moves, added, leads)
        return plain, out, inserted, columns, nucleotide


class StageSuffix(Progress):
    """A :class:`Progress` that reports to another with ``suffix`` added to every stage."""

    def __init__(self, inner: Progress, suffix: str):
        super().__init__(None)
        self.inner, self.suffix = inner, suffix

    def report(self, stage: str, done: int, total: int) -> None:
        self.inner.report(stage + self.suffix, done, total)


# -- helpers for existing alignments ----------------------------------------------------------
def with_stop(matrix):
    """``matrix`` with a row for the stop letter ``*`` if it lacks one (PFASUM's do), scored
    as BLOSUM62 scores it: 1 against itself, the matrix's lowest score against any other
    letter; only for input that has a ``*``, so every other input is scored as before.

    Parameters
    ----------
    matrix : Bio.Align.substitution_matrices.Array
        A two-dimensional substitution matrix.

    Returns
    -------
    Bio.Align.substitution_matrices.Array
        ``matrix`` itself when it has ``*``, else a copy with the ``*`` row and column.
    """
    from Bio.Align import substitution_matrices

    letters = "".join(matrix.alphabet)
    if "*" in letters:
        return matrix
    values = np.asarray(matrix, dtype=np.float64)
    n = len(letters)
    data = np.full((n + 1, n + 1), values.min())
    data[:n, :n] = values
    data[n, n] = 1.0
    out = substitution_matrices.Array(alphabet=letters + "*", dims=2, data=data)
    out.name = getattr(matrix, "name", None) or ""
    return out


def molecule(nucleotide: bool) -> str:
    return "DNA" if nucleotide else "protein"


def alignment_strings(alignment: Alignment) -> list[str]:
    return [r.tobytes().decode("latin-1") for r in alignment_rows(alignment)]


def aligned_records(item, first: int = 0) -> list[SeqRecord]:
    """Gapped SeqRecords of equal length from an Alignment, a file or a list (plain strings
    named from ``seq<first + 1>`` on)."""
    if isinstance(item, Alignment):
        ids = [getattr(s, "id", None) or f"seq{first + i + 1}"
               for i, s in enumerate(item.sequences)]
        records = [SeqRecord(Seq(r), id=n, description=getattr(s, "description", "") or "")
                   for r, n, s in zip(alignment_strings(item), ids, item.sequences,
                                      strict=True)]
    else:
        records = read_sequences(item, first)
    lengths = {len(r.seq) for r in records}
    if len(lengths) != 1:
        raise InputError(f"an alignment's rows must have one length, found {sorted(lengths)}")
    return records


def gapped_matrix(records: list[SeqRecord]) -> np.ndarray:
    """(n, L) uint8 of gapped rows, '.' read as '-'."""
    text = "".join(str(r.seq) for r in records).replace(".", "-")
    return np.frombuffer(text.encode("latin-1", "replace"), np.uint8).reshape(len(records), -1)
