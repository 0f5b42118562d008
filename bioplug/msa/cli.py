"""``bioplug msa`` (QuickProbs or progressive multiple alignment) and ``bioplug score``.

``bioplug msa IN -o OUT``: align the sequences of IN (any Bio.SeqIO format; gaps are removed) and
write the alignment as ``Bio.Align.write`` does, in the format --format names or else the one OUT's
extension names (.aln Clustal, .sto Stockholm, .phy PHYLIP, .nex NEXUS, .msf GCG MSF, .a2m, .a3m,
.maf; FASTA for any other extension and for -o -). An A3M input (.a3m: HH-suite, ColabFold) is read
as the alignment it is; its sequences are then aligned without its gaps, as any aligned input's.
Proteins, DNA and RNA go through the QuickProbs pipeline (nucleotides with the ProbConsRNA / HOXD70
model; --seqtype overrides the detected alphabet); --method auto (the default) takes the
ClustalW-style progressive pipeline instead for protein families of more than 300 sequences, for
any family of more than 2,000, and when an option only that pipeline reads is given (--matrix,
--gap-open, ...), and says so on stderr. --guide-tree gives either pipeline the tree to align
along, and --tree-out writes either pipeline's guide tree; --output-order tree writes the rows in
its order (as Clustal Omega's tree-order and mafft --reorder), input order by default. The output
is written atomically (a temporary file renamed into place); ``-o -`` writes to standard output.

``bioplug msa IN1 IN2 FOLDER ... --outdir DIR``: align many families in one process (one device
context; a folder stands for its sequence files), writing DIR/<stem>.<ext> for each as soon as it
is done (FASTA unless --format says otherwise); --keep-going reports a failed family and goes on.

``bioplug score TEST REF``: sum-of-pairs (SP) and total-column (TC) scores of TEST against REF,
on the core blocks of a BAliBASE 3 XML reference, or on every column of a FASTA/MSF/A3M/...
one (an A3M file's insertions are columns, as HH-suite's reformat.pl a3m fas lays them out).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os

from bioplug.progress import TerminalBar

log = logging.getLogger(__name__)

def add_parser(sub) -> None:
    from bioplug.cli import add_device_option

    p = sub.add_parser(
        "msa", help="multiple sequence alignment (QuickProbs, or progressive for big families)",
        description=__doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", metavar="IN", nargs="+",
                   help="unaligned protein, DNA or RNA sequences (FASTA, ...); several files "
                        "or folders with --outdir")
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument("-o", "--output", metavar="OUT",
                     help="alignment file (one input; - for standard output)")
    out.add_argument("--outdir", metavar="DIR",
                     help="write DIR/<input stem>.<format extension> for every input")
    p.add_argument("--keep-going", action="store_true",
                   help="with --outdir: report a failed family and go on (exit code 2 at the "
                        "end) instead of stopping at it")
    p.add_argument("--format", default=None, metavar="FMT",
                   help="Bio.Align.write format (fasta, clustal, stockholm, phylip, nexus, "
                        "a2m, maf), or a3m or msf (GCG); default: from OUT's extension (.aln "
                        "or .clw clustal, .sto stockholm, .phy phylip, .nex or .nxs nexus, "
                        ".msf, .a2m, .a3m, .maf), FASTA for any other extension, for -o - and "
                        "with --outdir")
    p.add_argument("--output-order", choices=("input", "tree"), default="input",
                   help="rows in input order (default) or in the guide tree's order, related "
                        "sequences together (Clustal Omega's tree-order, mafft --reorder)")
    p.add_argument("--accurate", action="store_true",
                   help="QuickProbs-acc: keep the top 30%% of each posterior matrix")
    p.add_argument("--adjust-direction", action="store_true",
                   help="DNA / RNA: reverse-complement the sequences that face the other way "
                        "before aligning them, named _R_<id> in the output (as mafft "
                        "--adjustdirection); either method")
    p.add_argument("--reliability", action="store_true",
                   help="annotate how reliable each column is (the mean posterior of the "
                        "residue pairs aligned there, as ProbCons and QuickProbs annotate) and "
                        "each residue (the mean posterior of what the alignment does with it): "
                        "a Stockholm output carries them as #=GC PP_cons and #=GR PP lines "
                        "(HMMER's code: * for 0.95 and above, else the nearest tenth); "
                        "QuickProbs pipeline")
    p.add_argument("--annot", metavar="TSV", default=None,
                   help="write each column's reliability to TSV (column, reliability to "
                        "three decimals, cut so that it agrees with the PP_cons code, "
                        "residues; NA for a column of one residue, or in anchor mode (over "
                        "300 sequences) one whose residues' pairs were not computed), as "
                        "QuickProbs' and ProbCons' --annot; implies --reliability; one family "
                        "(-o)")
    p.add_argument("--seed", type=int, default=0,
                   help="refinement RNG seed (0 or more; default 0)")
    p.add_argument("--consistency", type=int, default=None, metavar="C",
                   help="consistency passes (default 2)")
    p.add_argument("--refinement", type=int, default=None, metavar="R",
                   help="refinement passes (default 10; progressive: 16 rounds below 100 "
                        "sequences, none from 100)")
    p.add_argument("--method", choices=("auto", "quickprobs", "progressive"), default="auto",
                   help="quickprobs (accurate; proteins and nucleotides), progressive "
                        "(ClustalW-style, big families); auto (default) takes progressive "
                        "for protein families above 300 sequences, any above 2,000, and when "
                        "an option of the progressive group below is given, and says so (per "
                        "family with --outdir too); quickprobs refuses those options")
    from bioplug.progressive.cli import add_input_options, add_options

    add_options(p)
    add_input_options(p, trees=True)
    from bioplug.distributed.cli import add_cluster_option

    add_cluster_option(p)
    add_device_option(p, several=True)
    p.set_defaults(func=run_msa)

    s = sub.add_parser(
        "score", help="SP and TC of an alignment against a reference (BAliBASE XML or MSA)",
        description=__doc__.split("\n\n")[2],
    )
    s.add_argument("test", metavar="TEST", help="test alignment (FASTA, MSF, ...)")
    s.add_argument("ref", metavar="REF", help="reference: BAliBASE .xml (core blocks) or MSA")
    s.set_defaults(func=run_score)


#: What ``--method auto`` takes for nucleotide families of up to AUTO_PROGRESSIVE_K sequences.
#: Measured with ``benchmarks/nucleotide.py`` (6 simulated K2P families, 20-40 sequences x
#: 200-600 nt, scored against the true alignment; benchmarks/RESULTS.md): the QuickProbs
#: nucleotide model has the higher SP on 6 of 6 (mean SP / TC 98.2 / 88.0 against the
#: progressive pipeline's 97.5 / 84.2 and MAFFT --auto's 97.4 / 86.6), so accuracy decides for
#: it, as for proteins; it costs ~40x the progressive time on the CPU device, and above
#: AUTO_PROGRESSIVE_K sequences the progressive pipeline is still taken.
NUCLEOTIDE_AUTO = "quickprobs"
#: ``--method auto`` takes the progressive pipeline for protein families above this many
#: sequences, where the QuickProbs pipeline leaves full mode (``max_full``) for anchor mode.
#: The reason is speed since anchor mode takes its guide tree from alignment distances:
#: on the 45 HomFam dev families of 301-1,600 sequences anchor mode scored SP / TC 85.81 /
#: 71.89 against the progressive pipeline's 84.82 / 69.59 (pyfamsa 83.52 / 69.54; Clustal
#: Omega and MAFFT --auto below pyfamsa on the 39 of them they finished), in 88.7 s against
#: 6.3 s (H100, seventh session; benchmarks/RESULTS.md). At 14x the time, and minutes per
#: family on a CPU device, the default stays the fast pipeline; ``--method quickprobs`` is the
#: accurate one up to about 1,600 sequences, which the message below names. Above that anchor
#: mode fell behind: 12 HomFam dev families of 1,608-3,922 sequences, SP / TC 79.31 / 61.81
#: against the progressive pipeline's 81.33 / 65.97 (pyfamsa 78.99 / 61.61; eleventh session).
AUTO_PROGRESSIVE_PROTEIN_K = 300


def method_for_options(args) -> str:
    """``args.method`` as the options given decide it, before any work.

    The QuickProbs pipeline reads none of the options of the progressive group but
    --guide-tree, --tree-out and --seqtype (--matrix, --gap-open, ...): with ``--method auto``
    they choose the progressive pipeline, said on stderr (a WARNING, as :func:`auto_method`
    says its switches); ``--method quickprobs`` refuses them rather than ignore them. The
    progressive pipeline reads neither --accurate nor --consistency: refused with ``--method
    progressive`` or beside a progressive option.

    Raises
    ------
    InputError
        An option of one method with the other, or options of both.
    """
    from bioplug.errors import InputError
    from bioplug.progressive.cli import given_progressive_options

    given = given_progressive_options(args)
    theirs = given_quickprobs_options(args)
    if theirs and (given or args.method == "progressive"):
        why = ", ".join(given) if given else "--method progressive"
        raise InputError(f"{', '.join(theirs)}: QuickProbs options; the progressive method "
                         f"({why}) does not read them")
    if not given or args.method == "progressive":
        return args.method
    flags = ", ".join(given)
    it = "it" if len(given) == 1 else "them"
    if args.method == "quickprobs":
        raise InputError(f"{flags}: {'an option' if len(given) == 1 else 'options'} of "
                         f"--method progressive only; --method quickprobs does not read {it} "
                         f"(drop {it} or use --method progressive)")
    log.warning("%s given: aligning with --method progressive (ClustalW-style), the method "
                "that reads %s, instead of QuickProbs", flags, it)
    return "progressive"


#: The number of consistency passes when --consistency is not given.
QUICKPROBS_CONSISTENCY = 2


def given_quickprobs_options(args: argparse.Namespace) -> list[str]:
    """The options only the QuickProbs pipeline reads that ``args`` gives."""
    given = ["--accurate"] if getattr(args, "accurate", False) else []
    given += ["--consistency"] if getattr(args, "consistency", None) is not None else []
    given += ["--reliability"] if getattr(args, "reliability", False) else []
    return given + (["--annot"] if getattr(args, "annot", None) else [])


def choose_method(args, source) -> tuple[str, object]:
    """(method, input) for ``bioplug msa``: ``args.method``, or for "auto" the pipeline that
    suits the options and the input (said on stderr when it is not QuickProbs). The input is
    read once and its records handed on (standard input cannot be read twice)."""
    method = method_for_options(args)
    if method != "auto":
        return method, source
    from bioplug.io import read_records

    records = read_records(source)
    return auto_method(records, getattr(args, "seqtype", "auto")), records


def auto_method(records, seqtype: str = "auto", reliability: bool = False) -> str:
    """``--method auto``'s choice for one family ("quickprobs" or "progressive"; the latter
    said on stderr, with why). With ``reliability`` (``--reliability`` / ``--annot``, which
    only the QuickProbs posteriors give) the QuickProbs pipeline is kept, said on stderr when
    auto would have switched (a big family then takes many times longer)."""
    what, why = _progressive_reason(records, seqtype)
    if not what:
        return "quickprobs"
    if reliability:
        log.warning("%s: aligning with the QuickProbs pipeline, since --reliability needs its "
                    "posteriors; --method auto takes --method progressive for such a family, "
                    "many times faster, without reliability (drop --reliability for it)", what)
        return "quickprobs"
    log.warning("%s: aligning with --method progressive%s", what, why and f" ({why})")
    return "progressive"


def _progressive_reason(records, seqtype: str) -> tuple[str, str]:
    """(what, why) ``--method auto`` takes the progressive pipeline for ``records``, as
    stderr says it, or two empty strings for the QuickProbs pipeline."""
    from bioplug.msa.model import resolve_seqtype
    from bioplug.progressive import cli as progressive

    k = len(records)
    if k > progressive.AUTO_PROGRESSIVE_K:
        return (f"{k} sequences", "the QuickProbs pipeline is for families up to "
                f"{progressive.AUTO_PROGRESSIVE_K}; --method quickprobs forces it")
    texts = [str(r.seq).replace("-", "").replace(".", "") for r in records]
    kind = resolve_seqtype(texts, seqtype, [r.id for r in records])
    if kind == "protein" and k > AUTO_PROGRESSIVE_PROTEIN_K:
        return (f"{k} protein sequences", f"above {AUTO_PROGRESSIVE_PROTEIN_K} the QuickProbs "
                "pipeline runs in anchor mode: about 14 times slower, and more accurate on "
                "real families of up to ~1,600 sequences, not above; --method quickprobs "
                "forces it")
    if kind != "protein" and NUCLEOTIDE_AUTO == "progressive":
        return "nucleotide input", ""
    return "", ""


def _check_values(args: argparse.Namespace) -> None:
    """Refuse values no run can use, before any work (not as a failure deep inside it)."""
    from pathlib import Path

    from bioplug.errors import InputError

    for flag, value in (("--seed", args.seed), ("--consistency", args.consistency),
                        ("--refinement", args.refinement)):
        if value is not None and value < 0:
            raise InputError(f"{flag} {value}: must be 0 or more")
    tree = getattr(args, "guide_tree", None)
    if tree is not None and not Path(tree).is_file():
        shown = "is a folder, not a Newick file" if Path(tree).is_dir() else "no such file"
        raise InputError(f"--guide-tree {tree}: {shown}")
    if args.outdir is not None and (tree or args.tree_out):
        raise InputError("--guide-tree and --tree-out name one family's tree: not with "
                         "--outdir (align that family alone with -o OUT)")
    if args.outdir is not None and args.annot:
        raise InputError("--annot names one family's file: not with --outdir (--reliability "
                         "annotates every family's Stockholm output)")
    if getattr(args, "cluster", None) is not None and (args.reliability or args.annot):
        raise InputError("--reliability and --annot: not with --cluster")
    if getattr(args, "adjust_direction", False) and getattr(args, "seqtype", "auto") == "protein":
        # the sequences would be reverse-complemented as nucleotides, then aligned as protein
        raise InputError("--adjust-direction is for DNA and RNA: not with --seqtype protein")


def _read_family(source: str) -> list:
    """The records of one input, each checked to be letters, errors naming the file (as
    ``bioplug pairwise`` names it: ``IN: id: letter '1' at position 8 ...``)."""
    from bioplug.io import check_letters, input_name, read_records

    records = read_records(source)
    check_letters(records, input_name(source))
    return records


def _quickprobs(args: argparse.Namespace):
    from bioplug.msa.aligner import MultipleSequenceAligner

    return MultipleSequenceAligner(
        consistency=QUICKPROBS_CONSISTENCY if args.consistency is None else args.consistency,
        refinement=10 if args.refinement is None else args.refinement, accurate=args.accurate,
        seed=args.seed, device=args.device, seqtype=getattr(args, "seqtype", "auto"),
        reliability=_wants_reliability(args),
        adjust_direction=getattr(args, "adjust_direction", False),
    )


def _wants_reliability(args: argparse.Namespace) -> bool:
    """Whether ``--reliability`` or ``--annot`` is given."""
    return bool(getattr(args, "reliability", False) or getattr(args, "annot", None))


def run_msa(args: argparse.Namespace) -> int:
    """``bioplug msa``: options checked and the method fixed before any work, then one
    family (``-o``), many (``--outdir``) or a cluster's run."""
    from bioplug.io import check_distinct_outputs, check_writable, output_format

    _check_values(args)
    check_distinct_outputs({"-o": args.output, "--tree-out": args.tree_out,
                            "--annot": args.annot})
    given_format = args.format
    args.format = output_format(args.output, given_format)
    args.method = method_for_options(args)   # its refusals first, then the warning
    _say_unwritten_reliability(args)
    bar = TerminalBar(enabled=None if not getattr(args, "quiet", False) else False)
    try:
        if getattr(args, "cluster", None) is not None:
            from bioplug.distributed.cli import run_msa as run_on_cluster

            check_writable(args.format)
            return run_on_cluster(args, bar)
        if args.outdir is None and len(args.input) == 1 and not os.path.isdir(args.input[0]):
            return _run_single(args, bar, given_format)
        return _run_batch(args, bar)
    finally:
        bar.close()   # also when a check refuses the run before the work closes it


def _say_unwritten_reliability(args: argparse.Namespace) -> None:
    """Say on stderr when ``--reliability`` (without ``--annot``) writes to a format that has
    no annotation lines: the run goes on, the reliabilities go nowhere."""
    if args.reliability and not args.annot and args.format != "stockholm":
        log.warning("--reliability: %s output has no annotation lines, so the reliabilities "
                    "are not written (Stockholm carries them as #=GC PP_cons and #=GR PP "
                    "lines: -o OUT.sto or --format stockholm; --annot TSV writes the "
                    "columns)", args.format)


def _run_single(args: argparse.Namespace, bar: TerminalBar, given_format: str | None) -> int:
    """``bioplug msa IN -o OUT [--tree-out NWK]``."""
    from bioplug.io import check_names, check_output, check_writable, input_name, naming_input
    from bioplug.progressive import cli as progressive

    source = args.input[0]
    for output in (args.output, args.tree_out, args.annot):   # before any work
        if output is not None:
            check_output(output, args.input)
    records = _read_family(source)
    check_writable(args.format, min(len(records), 3), args.output, given_format)
    check_names(args.format, [r.id for r in records])
    method = args.method
    if method == "auto":
        method = auto_method(records, getattr(args, "seqtype", "auto"), _wants_reliability(args))
        unread = given_quickprobs_options(args)
        if method == "progressive" and unread:
            log.warning("%s: not read by the progressive method", ", ".join(unread))
    try:
        with naming_input({input_name(source): records}):
            if method == "progressive":
                alignment = progressive.align_one(args, records, bar)
            else:
                alignment = _align_quickprobs(args, records, bar)
    finally:
        bar.close()
    _write_outputs(alignment, args, source)
    return 0


def _align_quickprobs(args: argparse.Namespace, records: list, bar: TerminalBar):
    aligner = _quickprobs(args)
    alignment = aligner.align(records, progress=bar, guide_tree=getattr(args, "guide_tree", None))
    times = ", ".join(f"{k} {v:.2f}s" for k, v in aligner.last_times.items())
    log.info("aligned %d sequences (%s mode, %s model): %s", len(alignment.sequences),
             aligner.last_mode, getattr(aligner, "last_seqtype", "protein"), times)
    return alignment


def _write_outputs(alignment, args: argparse.Namespace, source: str) -> None:
    """The alignment, and the guide tree (``--tree-out``) in the same commit: the tree's
    temporary file is renamed into place only after the alignment was written, so a failed
    write leaves neither file."""
    from bioplug.io import atomic_output, write_checked

    alignment = in_output_order(alignment, args.output_order)
    extras = [(path, text) for path, text in (
        (args.tree_out, lambda: alignment.guide_tree + "\n"),
        (args.annot, lambda: reliability_table(alignment))) if path]
    with contextlib.ExitStack() as stack:   # every file renamed into place, or none
        for path, text in extras:
            stack.enter_context(atomic_output(path, [source])).write(text())
        write_checked(alignment, args.output, source, args.format)


def shown_reliability(value: float) -> float:
    """``value`` cut to three decimals (the 1e-9 keeps a product such as 0.57 * 1000 =
    569.999... on its own thousandth)."""
    import math

    return math.floor(value * 1000 + 1e-9) / 1000


def reliability_table(alignment) -> str:
    """``--annot``'s TSV: each column's number (1-based), reliability (three decimals, cut,
    not rounded; NA where no pair of its residues was computed, as ``column_reliability``'s
    NaN) and residues.

    Cut, so that the number shown and the column's ``#=GC PP_cons`` code agree: HMMER's code
    changes at multiples of 0.05 (``*`` from 0.95), and 0.9496 rounded would show as 0.950
    beside a ``9``, which ``bioplug tree --min-reliability 0.95`` leaves out.

    Parameters
    ----------
    alignment : Bio.Align.Alignment
        A QuickProbs alignment with ``column_reliability``.

    Returns
    -------
    str
        The table, a header line first.
    """
    import numpy as np

    from bioplug.alignio import GAP, alignment_rows

    residues = np.count_nonzero(alignment_rows(alignment) != GAP, axis=0)
    values = alignment.column_reliability
    lines = ["column\treliability\tresidues\n"]
    lines += [f"{c}\t{'NA' if np.isnan(v) else f'{shown_reliability(v):.3f}'}\t{n}\n"
              for c, (v, n) in enumerate(zip(values.tolist(), residues.tolist(), strict=True),
                                         1)]
    return "".join(lines)


def _run_batch(args: argparse.Namespace, bar: TerminalBar) -> int:
    """``bioplug msa IN1 IN2 FOLDER ... --outdir DIR``."""
    from bioplug.errors import InputError
    from bioplug.io import check_writable, write_checked
    from bioplug.msa import batch
    from bioplug.progressive import cli as progressive

    if args.outdir is None:
        raise InputError(f"{' '.join(args.input)}: several families: use --outdir DIR")
    if "-" in args.input:
        raise InputError("- (standard input) has no name to write under --outdir; "
                         "align it alone with -o OUT")
    check_writable(args.format, given=args.format)
    if args.method == "progressive":
        aligner = progressive.make_aligner(args)
    else:
        aligner = _quickprobs(args)
    if args.method == "auto":
        seqtype = aligner.seqtype
        aligner = batch.AutoAligner(aligner, progressive.make_aligner(args),
                                    lambda records: auto_method(records, seqtype,
                                                                _wants_reliability(args)))
    inputs = batch.expand_inputs(args.input)
    outputs = batch.output_paths(inputs, args.outdir, args.format)
    order = args.output_order
    return batch.run_batch(
        aligner, inputs, outputs,
        lambda aln, out, src: write_checked(in_output_order(aln, order), out, src, args.format),
        keep_going=args.keep_going, bar=bar)


def in_output_order(alignment, order: str):
    """``alignment`` itself (``order`` "input"), or its rows in the left-to-right tip order
    of ``alignment.guide_tree`` ("tree"), annotations kept."""
    if order == "input":
        return alignment
    import io

    import numpy as np
    from Bio.Align import Alignment
    from skbio import TreeNode

    # skbio reads back the quoting of bioplug's Newick labels ('a''b'), and ids keep their
    # underscores
    tree = TreeNode.read(io.StringIO(alignment.guide_tree), format="newick",
                         convert_underscores=False)
    tips = [t.name for t in tree.tips()]
    where = {getattr(s, "id", None): i for i, s in enumerate(alignment.sequences)}
    rows = [where[t] for t in tips]
    out = Alignment([alignment.sequences[i] for i in rows],
                    np.asarray(alignment.coordinates)[rows])
    out.column_annotations = dict(getattr(alignment, "column_annotations", None) or {})
    out.guide_tree = alignment.guide_tree
    if hasattr(alignment, "column_reliability"):   # the columns stay as they were
        out.column_reliability = alignment.column_reliability
    return out


def run_score(args) -> int:
    from bioplug.io import STDIO, atomic_output, check_one_stdin
    from bioplug.msa.score import read_alignment, read_reference, sp_tc

    check_one_stdin(args.test, args.ref)
    ref = read_reference(args.ref)
    ids, rows = read_alignment(args.test)
    sp, tc = sp_tc(ids, rows, ref)
    with atomic_output(STDIO) as out:   # flushed here: a failed write is told, not lost
        out.write(f"SP {100 * sp:.2f}\nTC {100 * tc:.2f}\n")
    return 0
