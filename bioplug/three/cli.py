"""``bioplug align3 IN -o OUT``: the optimal alignment of the three sequences in IN."""

from __future__ import annotations

import argparse
import logging

log = logging.getLogger(__name__)


def add_parser(sub) -> None:
    """Register the ``align3`` sub-command."""
    from bioplug.cli import add_device_option

    p = sub.add_parser(
        "align3", help="exact sum-of-pairs alignment of three sequences",
        description="Align exactly three sequences optimally (sum-of-pairs, the full "
        "three-dimensional DP on the OpenCL device). Linear gaps score --gap per "
        "residue-gap pair; --open/--extend select affine gaps (a pair's gap of n columns "
        "scores open + (n - 1) * extend). Gap values are penalties of either sign, as in "
        "bioplug pairwise: 2 and -2 both mean a score of -2. Letters are compared without "
        "regard to case (soft-masked lower case scores as upper case); the alignment shows "
        "them as the input has them.")
    p.add_argument("input", metavar="IN",
                   help="exactly three sequences (FASTA or any Bio.SeqIO format; - for "
                   "standard input); gaps in them are removed")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="alignment file (- for standard output)")
    p.add_argument("--format", default=None, metavar="FMT",
                   help="output format: fasta, clustal, stockholm, phylip, ... (default: from "
                   "OUT's extension, .aln Clustal, .sto Stockholm, ...; FASTA for any other "
                   "and for -)")
    p.add_argument("--in-format", default=None, metavar="FMT",
                   help="input format (default: from the extension, else from the "
                   "first line: Clustal, Stockholm, ...; else FASTA)")
    g = p.add_argument_group("scores")
    g.add_argument("--matrix", default=None, metavar="NAME",
                   help="substitution matrix (BLOSUM62, NUC.4.4, ...); default: --match / "
                   "--mismatch")
    g.add_argument("--match", type=float, default=1.0, help="match score (default 1)")
    g.add_argument("--mismatch", type=float, default=0.0, help="mismatch score (default 0)")
    g.add_argument("--gap", type=float, default=-1.0,
                   help="linear gap penalty per residue-gap pair; -1 and 1 both mean a "
                   "score of -1 (default -1)")
    g.add_argument("--open", type=float, default=None, dest="open_gap",
                   help="affine: gap open penalty (either sign, as --gap)")
    g.add_argument("--extend", type=float, default=None, dest="extend_gap",
                   help="affine: gap extension penalty (either sign, as --gap)")
    p.add_argument("--score-only", action="store_true",
                   help="print the optimal score instead of writing an alignment (less memory)")
    add_device_option(p)
    p.set_defaults(func=run)


def _records(path: str, fmt: str | None):
    """The three input records without gaps; an error names the count otherwise."""
    from bioplug.alphabet import check_sequence_letters
    from bioplug.errors import InputError
    from bioplug.io import check_unique_ids, read_records, ungapped

    records = read_records(path, fmt)
    if len(records) != 3:
        where = "standard input" if path == "-" else path
        raise InputError(f"{where} holds {len(records)} sequence record"
                         f"{'' if len(records) == 1 else 's'}; align3 needs exactly 3")
    for r in records:
        check_sequence_letters(str(r.seq), f"{path}: {r.id}")
    check_unique_ids(records)
    return ungapped(records)


def run(args: argparse.Namespace) -> int:
    from bioplug.io import check_output, check_writable, output_format
    from bioplug.pairwise.cli import case_folded, gap_penalty
    from bioplug.progress import TerminalBar
    from bioplug.three.aligner import align_three, score_three

    check_output(args.output, [args.input])
    fmt = output_format(args.output, args.format)   # bioplug reads back what it wrote
    if not args.score_only:
        check_writable(fmt, 3, args.output, args.format)
    records = _records(args.input, args.in_format)
    # a positive gap would be a bonus and give an all-gap alignment: either sign is the
    # penalty, as in `bioplug pairwise`
    options = dict(substitution_matrix=args.matrix, match_score=args.match,
                   mismatch_score=args.mismatch, gap_score=gap_penalty(args.gap),
                   open_gap_score=gap_penalty(args.open_gap),
                   extend_gap_score=gap_penalty(args.extend_gap), device=args.device)
    # upper-case copies are scored (lower case as its residue, as in msa and search)
    folded = case_folded(records)
    bar = TerminalBar(enabled=False if getattr(args, "quiet", False) else None)
    try:
        if args.score_only:
            score = score_three(*folded, progress=bar, **options)
            bar.close()
            _print_score(score, args.output, args.input)
            return 0
        alignment = align_three(*folded, progress=bar, **options)
    finally:
        bar.close()
    from bioplug.io import write_checked

    alignment.sequences = records   # the input's own letters; same lengths as the copies
    log.info("score %s, %d columns", alignment.score, alignment.length)
    write_checked(alignment, args.output, args.input, fmt)
    return 0


def _print_score(score, output: str, source: str) -> None:
    from bioplug.io import atomic_output

    with atomic_output(output, [source]) as handle:
        handle.write(f"{score}\n")
