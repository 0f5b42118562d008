"""``bioplug align3 IN -o OUT``: the optimal alignment of the three sequences in IN."""

from __future__ import annotations

import argparse
import logging

log = logging.getLogger(__name__)

#: Scores where no option names them: match, mismatch, linear gap (``align_three``'s).
MATCH, MISMATCH, GAP = 1.0, 0.0, -1.0


def add_parser(sub) -> None:
    """Register the ``align3`` sub-command."""
    from bioplug.cli import add_device_option

    p = sub.add_parser(
        "align3", help="exact sum-of-pairs alignment of three sequences",
        description="Align exactly three sequences optimally (sum-of-pairs, the full "
        "three-dimensional DP on the OpenCL device). Residues score by --matrix, or by "
        "--match / --mismatch (not both). Gaps are linear, --gap per residue-gap pair, or "
        "affine with --open and --extend, given together (a pair's gap of n columns scores "
        "open + (n - 1) * extend; not with --gap). Gap values are penalties of either sign, "
        "as in bioplug pairwise: 2 and -2 both mean a score of -2. Letters are compared "
        "without regard to case (soft-masked lower case scores as upper case); the "
        "alignment shows them as the input has them.")
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
                   "--mismatch, which it does not go with")
    g.add_argument("--match", type=float, default=None,
                   help=f"match score without --matrix (default {MATCH:g})")
    g.add_argument("--mismatch", type=float, default=None,
                   help=f"mismatch score without --matrix (default {MISMATCH:g})")
    g.add_argument("--gap", type=float, default=None,
                   help="linear gap penalty per residue-gap pair; -1 and 1 both mean a "
                   f"score of -1 (default {GAP:g}; not with --open / --extend)")
    g.add_argument("--open", type=float, default=None, dest="open_gap",
                   help="affine gaps: gap open penalty (either sign, as --gap), with --extend")
    g.add_argument("--extend", type=float, default=None, dest="extend_gap",
                   help="affine gaps: gap extension penalty (either sign, as --gap), with "
                   "--open")
    p.add_argument("--score-only", action="store_true",
                   help="print the optimal score instead of writing an alignment (less memory)")
    add_device_option(p)
    p.set_defaults(func=run)


def scoring_options(args: argparse.Namespace) -> dict:
    """``align_three``'s scoring keywords from the options; combinations that would leave
    an option unused, or used in another meaning, are refused.

    Raises
    ------
    InputError
        ``--matrix`` with ``--match`` / ``--mismatch``; ``--gap`` with ``--open`` /
        ``--extend``; one of ``--open`` and ``--extend`` without the other. Each names the
        options.
    """
    from bioplug.errors import InputError
    from bioplug.pairwise.cli import gap_penalty

    if args.matrix and (args.match is not None or args.mismatch is not None):
        raise InputError("use either --matrix or --match/--mismatch, not both")
    affine = (args.open_gap, args.extend_gap)
    if args.gap is not None and affine != (None, None):
        raise InputError("--gap sets linear gaps and --open/--extend affine ones: give --gap, "
                         "or --open and --extend, not both")
    if None in affine and affine != (None, None):
        given, missing = ("--open", "--extend") if args.extend_gap is None else (
            "--extend", "--open")
        raise InputError(f"{given} needs {missing}: affine gaps take both (a gap of n "
                         "columns scores open + (n - 1) * extend); --gap alone sets linear "
                         "gaps")
    # a positive gap would be a bonus and give an all-gap alignment: either sign is the
    # penalty, as in `bioplug pairwise`
    return dict(substitution_matrix=args.matrix,
                match_score=MATCH if args.match is None else args.match,
                mismatch_score=MISMATCH if args.mismatch is None else args.mismatch,
                gap_score=gap_penalty(GAP if args.gap is None else args.gap),
                open_gap_score=gap_penalty(args.open_gap),
                extend_gap_score=gap_penalty(args.extend_gap))


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
    check_unique_ids(records, "standard input" if path == "-" else path)
    return ungapped(records)


def run(args: argparse.Namespace) -> int:
    from bioplug.io import check_output, check_writable, output_format
    from bioplug.pairwise.cli import case_folded
    from bioplug.progress import TerminalBar
    from bioplug.three.aligner import align_three, score_three

    check_output(args.output, [args.input])
    options = dict(scoring_options(args), device=args.device)
    fmt = output_format(args.output, args.format)   # bioplug reads back what it wrote
    if not args.score_only:
        check_writable(fmt, 3, args.output, args.format)
    records = _records(args.input, args.in_format)
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
