"""``bioplug msa --method progressive`` options and ``bioplug profile`` (ClustalW's profile mode).

``bioplug profile A.aln B.aln -o OUT``: align two existing alignments to each other, keeping
each one's columns. ``bioplug profile A.aln --add NEW.fa -o OUT``: add unaligned sequences to
an existing alignment (as ``mafft --add``); the alignment's columns stay intact.
"""

from __future__ import annotations

import argparse
import logging

log = logging.getLogger(__name__)

#: ``--method auto`` switches to the progressive pipeline above this many sequences (the
#: QuickProbs pipeline's anchor mode still runs there, but minutes instead of seconds).
AUTO_PROGRESSIVE_K = 2000


def add_options(p: argparse.ArgumentParser) -> None:
    """The progressive pipeline's options, on ``bioplug msa`` and ``bioplug profile``."""
    g = p.add_argument_group("progressive method (ClustalW-style; --method progressive)")
    g.add_argument("--distances", choices=("auto", "align", "lcs", "ktuple"), default="auto",
                   help="guide-tree distances of all pairs: local alignment scores, longest "
                        "common subsequences (bit-parallel, for big families) or shared "
                        "k-tuples (ClustalW's fast mode); auto (default): alignment scores "
                        "while they take about two seconds of a GPU, LCS above")
    g.add_argument("--ktuple", action="store_true", help="the same as --distances ktuple")
    g.add_argument("--matrix", default=None,
                   help="substitution matrix (default PFASUM43 for proteins, NUC.4.4 for "
                        "nucleotides)")
    g.add_argument("--gap-open", type=float, default=None, metavar="P",
                   help="gap opening penalty (positive; default 14 for protein families "
                        "below 100 sequences, 10 from 100; nucleotides 15)")
    g.add_argument("--gap-extend", type=float, default=None, metavar="P",
                   help="gap extension penalty (default 0.75 for protein families below 100 "
                        "sequences, 1 from 100; nucleotides 2)")
    g.add_argument("--end-gap-open", type=float, default=None, metavar="P",
                   help="penalty for opening a gap at either end (default 2; 0.66 for protein "
                        "families of 100 or more; nucleotides 3)")
    g.add_argument("--end-gap-extend", type=float, default=None, metavar="P",
                   help="penalty for extending an end gap (default 0.25 for protein "
                        "families below 100 sequences, 0.66 from 100; nucleotides 1)")
    g.add_argument("--trees", default=None, choices=("upgma", "nj", "upgma,nj"),
                   metavar="{upgma,nj,'upgma,nj'}",
                   help="candidate guide trees: the family is aligned along each and the "
                        "alignment with the best sum-of-pairs score kept (default upgma,nj "
                        "for protein families below 100 sequences, else upgma)")
    g.add_argument("--residue-gaps", choices=("auto", "on", "off"), default="auto",
                   help="ClustalW's residue-specific gap opening (Pascarella & Argos factors, "
                        "lower inside hydrophilic stretches); auto: as the defaults for the "
                        "family's size and alphabet")
    g.add_argument("--shift", type=float, default=None,
                   help="constant added to every substitution score (default 6 for protein "
                        "families of 100 or more, else 0)")
    g.add_argument("--seqtype", choices=("auto", "protein", "dna", "rna"), default="auto",
                   help="alphabet (default: detected; nucleotides use NUC.4.4)")
    g.add_argument("--guide-tree", metavar="NWK", default=None,
                   help="use this Newick guide tree (tips = sequence ids)")
    g.add_argument("--tree-out", metavar="NWK", default=None,
                   help="write the guide tree used (Newick)")


def make_aligner(args):
    from bioplug.progressive.aligner import ProgressiveAligner

    return ProgressiveAligner(
        matrix=args.matrix, gap_open=args.gap_open, gap_extend=args.gap_extend,
        end_gap_open=args.end_gap_open, end_gap_extend=args.end_gap_extend,
        shift=args.shift, seqtype=args.seqtype,
        distances="ktuple" if args.ktuple else args.distances,
        refinement=getattr(args, "refinement", None), seed=getattr(args, "seed", 0),
        trees=tuple(args.trees.split(",")) if getattr(args, "trees", None) else None,
        residue_gaps={"on": True, "off": False}.get(getattr(args, "residue_gaps", "auto")),
        device=args.device)


def align_one(args, given, bar, source):
    """Align one input (a path or its records) with the progressive pipeline; writes
    ``--tree-out`` if asked (never over ``source``)."""
    aligner = make_aligner(args)
    alignment = aligner.align(given, progress=bar, guide_tree=args.guide_tree)
    if args.tree_out:
        write_tree(alignment.guide_tree, args.tree_out, [source])
    times = ", ".join(f"{k} {v:.2f}s" for k, v in aligner.last_times.items())
    log.info("aligned %d sequences (progressive): %s", len(alignment.sequences), times)
    return alignment


def write_tree(newick: str, path: str, inputs) -> None:
    from bioplug.io import atomic_output

    with atomic_output(path, inputs) as handle:
        handle.write(newick + "\n")


# -- bioplug profile -----------------------------------------------------------------------------
def add_parser(sub) -> None:
    from bioplug.cli import add_device_option

    p = sub.add_parser(
        "profile", help="align two alignments to each other, or add sequences to one",
        description=__doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("first", metavar="ALN", help="an alignment (FASTA, Clustal, Stockholm, ...)")
    p.add_argument("second", metavar="ALN2", nargs="?",
                   help="a second alignment (profile-profile)")
    p.add_argument("--add", metavar="SEQS", help="unaligned sequences to add to ALN")
    p.add_argument("-o", "--output", metavar="OUT", required=True,
                   help="alignment file (- for standard output)")
    p.add_argument("--format", default="fasta", metavar="FMT", help="output format")
    add_options(p)
    add_device_option(p)
    p.set_defaults(func=run_profile)


def run_profile(args) -> int:
    from bioplug.errors import InputError
    from bioplug.io import check_one_stdin, check_output, write_alignment

    if (args.second is None) == (args.add is None):
        raise InputError("give a second alignment (ALN2) or --add SEQS, not both or neither")
    check_one_stdin(args.first, args.second, args.add)
    check_output(args.output, [args.first, args.second or args.add])
    aligner = make_aligner(args)
    if args.add is not None:
        alignment = aligner.add(args.first, args.add)
        inputs = [args.first, args.add]
    else:
        alignment = aligner.align_profiles(args.first, args.second)
        inputs = [args.first, args.second]
    write_alignment(alignment, args.output, args.format, inputs=inputs)
    return 0
