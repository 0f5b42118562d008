"""``bioplug msa --method progressive`` options and ``bioplug profile`` (ClustalW's profile mode).

``bioplug profile A.aln B.aln -o OUT``: align two existing alignments to each other, keeping
each one's columns; ``bioplug profile A.aln B.aln C.aln ... -o OUT`` merges them all, each
kept intact, along a tree of their distances (as ``mafft --merge``, without its table).
``bioplug profile A.aln --add NEW.fa -o OUT``: add unaligned sequences to
an existing alignment (as ``mafft --add``); the alignment's columns stay intact.
``--add-fragments NEW.fa`` aligns each new sequence to the alignment on its own, end gaps
free (as ``mafft --addfragments``: reads, partial genes); ``--keep-length`` keeps only the
alignment's columns, deleting the added residues that fall in insertions (as ``mafft
--keeplength``; ``--map-out`` says where every added residue went).
"""

from __future__ import annotations

import argparse
import logging
import math

from bioplug.errors import InputError

log = logging.getLogger(__name__)

#: ``--method auto`` switches to the progressive pipeline above this many sequences (the
#: QuickProbs pipeline's anchor mode still runs there, but minutes instead of seconds).
AUTO_PROGRESSIVE_K = 2000


def _penalty(text: str) -> float:
    """A gap penalty on the command line: a finite number >= 0, refused by its flag's name."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"a penalty is a finite number >= 0, not {text}")
    return value


def add_options(p: argparse.ArgumentParser, title: str = "progressive method (ClustalW-style; "
                "--method progressive)") -> None:
    """The progressive pipeline's options, on ``bioplug msa`` and ``bioplug profile``."""
    g = p.add_argument_group(title)
    g.add_argument("--distances", choices=("auto", "align", "lcs", "ktuple"), default="auto",
                   help="guide-tree distances of all pairs: local alignment scores, longest "
                        "common subsequences (bit-parallel, for big families) or shared "
                        "k-tuples (ClustalW's fast mode); auto (default): alignment scores "
                        "while they take about two seconds of a GPU, LCS above")
    g.add_argument("--ktuple", action="store_true", help="the same as --distances ktuple")
    g.add_argument("--matrix", default=None,
                   help="substitution matrix (default PFASUM43 for proteins, NUC.4.4 for "
                        "nucleotides)")
    g.add_argument("--gap-open", type=_penalty, default=None, metavar="P",
                   help="gap opening penalty (positive; default 14 for protein families "
                        "below 100 sequences, 10 from 100; nucleotides 15; added fragments "
                        "10, nucleotides 15)")
    g.add_argument("--gap-extend", type=_penalty, default=None, metavar="P",
                   help="gap extension penalty (default 0.75 for protein families below 100 "
                        "sequences, 1 from 100; nucleotides 2; added fragments 1, nucleotides "
                        "2)")
    g.add_argument("--end-gap-open", type=_penalty, default=None, metavar="P",
                   help="penalty for opening a gap at either end (default 2; 0.66 for protein "
                        "families of 100 or more; nucleotides 3; added fragments 0)")
    g.add_argument("--end-gap-extend", type=_penalty, default=None, metavar="P",
                   help="penalty for extending an end gap (default 0.25 for protein "
                        "families below 100 sequences, 0.66 from 100; nucleotides 1; added "
                        "fragments 0)")
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
                        "families of 100 or more, else 0; added fragments 2, nucleotides 4, "
                        "whatever --matrix)")


def add_input_options(p: argparse.ArgumentParser, trees: bool) -> None:
    """--seqtype, and with ``trees`` --guide-tree and --tree-out: options of either method
    (``bioplug msa``), in a group of their own so that no one takes them for progressive
    ones; ``bioplug profile`` has no guide tree to read or write."""
    g = p.add_argument_group("sequence type and guide tree (either method)" if trees
                             else "sequence type")
    g.add_argument("--seqtype", choices=("auto", "protein", "dna", "rna"), default="auto",
                   help="alphabet (default: detected; nucleotides use NUC.4.4)")
    if not trees:
        return
    g.add_argument("--guide-tree", metavar="NWK", default=None,
                   help="align along this Newick guide tree (tips = sequence ids; either "
                        "method, as Clustal Omega's --guidetree-in and mafft --treein)")
    g.add_argument("--tree-out", metavar="NWK", default=None,
                   help="write the guide tree used (Newick; either method's)")


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
        device=args.device, adjust_direction=getattr(args, "adjust_direction", False))


#: The options only the progressive pipeline reads (attribute -> flag, default): the
#: QuickProbs pipeline ignores them, so ``bioplug msa`` takes them as a choice of method
#: (``bioplug.msa.cli.method_for_options``). --seqtype, --guide-tree, --tree-out,
#: --refinement and --seed serve both.
PROGRESSIVE_ONLY = {
    "matrix": ("--matrix", None), "gap_open": ("--gap-open", None),
    "gap_extend": ("--gap-extend", None), "end_gap_open": ("--end-gap-open", None),
    "end_gap_extend": ("--end-gap-extend", None), "shift": ("--shift", None),
    "trees": ("--trees", None), "residue_gaps": ("--residue-gaps", "auto"),
    "distances": ("--distances", "auto"), "ktuple": ("--ktuple", False),
}


def given_progressive_options(args: argparse.Namespace) -> list[str]:
    """The flags of :data:`PROGRESSIVE_ONLY` whose value in ``args`` is not the default
    (attributes ``args`` lacks count as not given)."""
    return [flag for dest, (flag, default) in PROGRESSIVE_ONLY.items()
            if getattr(args, dest, default) not in (default, None)]


def align_one(args: argparse.Namespace, records: list, bar):
    """Align one family's records with the progressive pipeline (``--guide-tree`` if given);
    the caller writes the alignment and ``alignment.guide_tree`` (``--tree-out``)."""
    aligner = make_aligner(args)
    alignment = aligner.align(records, progress=bar, guide_tree=args.guide_tree)
    times = ", ".join(f"{k} {v:.2f}s" for k, v in aligner.last_times.items())
    log.info("aligned %d sequences (progressive): %s", len(alignment.sequences), times)
    return alignment


# -- bioplug profile -----------------------------------------------------------------------------
def add_parser(sub) -> None:
    from bioplug.cli import add_device_option

    p = sub.add_parser(
        "profile", help="align two alignments to each other, merge several, or add "
                        "sequences to one",
        description=__doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("first", metavar="ALN", help="an alignment (FASTA, Clustal, Stockholm, ...)")
    p.add_argument("others", metavar="ALN2", nargs="*",
                   help="a second alignment (profile-profile), or more to merge them all, "
                        "each kept intact, along a tree of their distances (as mafft --merge)")
    p.add_argument("--merge-table", metavar="TABLE",
                   help="ALN holds sub-alignments and single sequences one after another; "
                        "TABLE lists each sub-alignment's sequence numbers (1-based, a line "
                        "each, # comments), as mafft --merge takes them. Each sub-alignment "
                        "is kept intact, the other sequences are aligned on their own; rows "
                        "in ALN's order")
    p.add_argument("--add", metavar="SEQS", help="unaligned sequences to add to ALN: "
                   "aligned among themselves, then to ALN (as mafft --add)")
    p.add_argument("--add-fragments", metavar="SEQS",
                   help="unaligned sequences to add to ALN each on its own, end gaps free "
                        "(as mafft --addfragments; for reads and partial sequences)")
    p.add_argument("--keep-length", action="store_true",
                   help="keep ALN's columns only: residues of added sequences in insertions "
                        "are deleted (as mafft --keeplength; a warning counts them); ALN's "
                        "length is kept, columns of gaps only included (in FASTA, Clustal, "
                        "Stockholm, A2M, A3M and PHYLIP output)")
    p.add_argument("--adjust-direction", action="store_true",
                   help="DNA / RNA, with --add or --add-fragments: reverse-complement the "
                        "sequences that face the other way from ALN first, named _R_<id> (as "
                        "mafft --add ... --adjustdirection)")
    p.add_argument("--map-out", metavar="MAP",
                   help="write where each added residue went: letter, position in its "
                        "sequence, column in OUT or - where --keep-length deleted it (the "
                        "layout of mafft --mapout, which turns on --keeplength; here "
                        "--keep-length is asked for on its own)")
    p.add_argument("-o", "--output", metavar="OUT", required=True,
                   help="alignment file (- for standard output)")
    p.add_argument("--format", default=None, metavar="FMT",
                   help="output format (Bio.Align.write name); default: from OUT's extension "
                        "(.aln clustal, .sto stockholm, .phy phylip, .nex nexus, .a2m, .a3m, "
                        ".maf), FASTA for any other extension and for -o -")
    add_options(p, "scoring (ClustalW-style profile alignment)")
    add_input_options(p, trees=False)
    add_device_option(p)
    p.set_defaults(func=run_profile)


def run_profile(args: argparse.Namespace) -> int:
    """``bioplug profile``: inputs, output and format checked before any work; letter errors
    name their file."""
    from bioplug.errors import InputError
    from bioplug.io import (
        atomic_output,
        check_distinct_outputs,
        check_names,
        check_one_stdin,
        check_output,
        check_unique_ids,
        check_writable,
        input_name,
        naming_input,
        output_format,
        ungapped,
    )
    from bioplug.progress import TerminalBar

    if args.merge_table is not None:
        return _merge_by_table(args)
    added = args.add if args.add is not None else args.add_fragments
    if sum((bool(args.others), args.add is not None, args.add_fragments is not None)) != 1:
        raise InputError("give one of a second alignment (ALN2; more to merge them), --add "
                         "SEQS or --add-fragments SEQS")
    if added is None and (args.keep_length or args.map_out or args.adjust_direction):
        raise InputError("--keep-length, --map-out and --adjust-direction: options of --add "
                         "and --add-fragments")
    inputs = [args.first, *(args.others if added is None else [added])]
    check_one_stdin(*inputs)
    check_distinct_outputs({"-o": args.output, "--map-out": args.map_out})
    for output in (args.output, args.map_out):
        if output is not None:
            check_output(output, inputs)
    fmt = output_format(args.output, args.format)
    check_writable(fmt, 3, args.output, args.format)
    first = _read_input(inputs[0], aligned=True)
    second = _read_input(inputs[1], aligned=added is None)
    more = [_read_input(path, aligned=True) for path in inputs[2:]]
    _say_unread_tree_options(args, two_alignments=added is None and not more)
    aligner = make_aligner(args)
    groups = [first, second, *more]
    for path, records in zip(inputs, groups, strict=True):
        # named here: the aligners' own check sees two alignments' records together
        check_unique_ids(records, input_name(path))
    check_names(fmt, [r.id for g in groups for r in g])
    with naming_input({input_name(path): records
                       for path, records in zip(inputs, groups, strict=True)}):
        if more:
            alignment = _merge_with_bar(aligner, groups, [input_name(p) for p in inputs],
                                        args)
        elif added is None:
            alignment = aligner.align_profiles(first, second)
        else:
            bar = TerminalBar(enabled=None if not getattr(args, "quiet", False) else False)
            try:
                alignment = aligner.add_rows(first, second, bar,
                                             fragments=args.add_fragments is not None,
                                             keep_length=args.keep_length)
            finally:
                bar.close()
    write = _writer(alignment, args, first, inputs[0], fmt)
    if args.map_out is None:
        write()
        return 0
    from bioplug.progressive.adding import map_text

    with atomic_output(args.map_out, inputs) as handle:   # both files, or neither
        # the added sequences as aligned: turned ones reverse-complemented, named _R_
        handle.write(map_text(getattr(alignment, "added_records", None) or ungapped(second),
                              alignment.residue_columns))
        write()
    return 0


def _say_unread_tree_options(args: argparse.Namespace, two_alignments: bool) -> None:
    """Guide-tree options given where no guide tree is made: among fragments (each meets
    the alignment alone) and between two alignments; a merge of more makes its own
    (:func:`_merge_with_bar` says so of --trees)."""
    unread = [flag for flag, value, default in (
        ("--distances", args.distances, "auto"), ("--ktuple", args.ktuple, False),
        ("--trees", args.trees, None)) if value != default]
    if unread and args.add_fragments is not None:
        log.warning("%s: not read with --add-fragments", ", ".join(unread))
    elif unread and two_alignments:
        log.warning("%s: not read when aligning two alignments (no guide tree)",
                    ", ".join(unread))


def _merge_with_bar(aligner, groups: list, names: list[str], args: argparse.Namespace):
    """``aligner.merge`` with a progress bar over the merge tree's joins (unless -q)."""
    from bioplug.progress import TerminalBar

    if getattr(args, "trees", None) is not None:   # said, as --add-fragments says its own
        log.warning("--trees: not read when merging (the merge tree is UPGMA of the "
                    "alignments' distances)")
    bar = TerminalBar(enabled=None if not getattr(args, "quiet", False) else False)
    try:
        return aligner.merge(groups, progress=bar, names=names)
    finally:
        bar.close()


def _merge_by_table(args: argparse.Namespace) -> int:
    """``bioplug profile ALN --merge-table TABLE``: the sub-alignments ``TABLE`` numbers in
    ``ALN`` merged, each kept intact, the other sequences aligned singly; ALN's row order."""
    from bioplug.io import (
        check_letters,
        check_names,
        check_one_stdin,
        check_output,
        check_writable,
        input_name,
        naming_input,
        output_format,
        read_records,
        write_checked,
    )

    _check_table_options(args)
    inputs = [args.first, args.merge_table]
    check_one_stdin(*inputs)
    check_output(args.output, inputs)
    fmt = output_format(args.output, args.format)
    check_writable(fmt, 3, args.output, args.format)
    source = input_name(args.first)
    records = read_records(args.first)
    check_letters(records, source, empty_ok=True)
    check_names(fmt, [r.id for r in records])
    groups, names = _table_groups(args.merge_table, records, source)
    # an unlisted sequence without residues has nothing to align: a row of gaps in the
    # output, as mafft --merge writes it (and as merge writes an alignment of gaps only)
    empty = {group[0] for group in groups
             if len(group) == 1 and not str(records[group[0]].seq).strip("-.")}
    kept = [i for i, group in enumerate(groups) if not (len(group) == 1 and group[0] in empty)]
    if len(kept) < 2:
        raise InputError(f"{input_name(args.merge_table)}: nothing to merge: one sub-alignment "
                         f"holds every sequence of {source} that has residues")
    with naming_input({source: records}):
        merged = _merge_with_bar(make_aligner(args),
                                 [[records[j] for j in groups[i]] for i in kept],
                                 [names[i] for i in kept], args)
    write_checked(_in_input_order(merged, [groups[i] for i in kept], records, empty),
                  args.output, source, fmt)
    return 0


def _check_table_options(args: argparse.Namespace) -> None:
    if args.others or args.add is not None or args.add_fragments is not None:
        raise InputError("--merge-table reads one input, ALN (the sequences TABLE numbers): "
                         "no ALN2, --add or --add-fragments")
    if args.keep_length or args.map_out or args.adjust_direction:
        raise InputError("--keep-length, --map-out and --adjust-direction: options of --add "
                         "and --add-fragments")


def _table_groups(table: str, records: list, source: str) -> tuple[list[list[int]], list[str]]:
    """The table's groups of record numbers (0-based; unlisted records alone) and their names
    in messages; a sub-alignment's rows checked for one length."""
    from bioplug.io import check_one_length, input_name, open_input
    from bioplug.progressive.merging import read_table

    with open_input(table, "rt", errors="replace") as handle:
        groups, names = read_table(handle.read(), len(records), input_name(table))
    # the unlisted sequences by file, number and id: "sequence 7" alone is hard to find
    names = [f"{source}, {name} ({records[group[0]].id})" if name.startswith("sequence ")
             else name for group, name in zip(groups, names, strict=True)]
    for group, name in zip(groups, names, strict=True):
        check_one_length([records[i].seq for i in group],
                         f"{source}, the sub-alignment of {name}")
    return groups, names


def _in_input_order(merged, groups: list[list[int]], records: list, empty: set[int]):
    """The merged alignment with its rows back in the input's order (as mafft --merge
    writes them without --reorder), the records without residues as rows of gaps."""
    import numpy as np
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    from bioplug.alignio import alignment_from_rows, alignment_rows
    from bioplug.io import description_after_id

    rows = alignment_rows(merged)
    out = np.full((len(records), rows.shape[1]), ord("-"), dtype=np.uint8)
    at = np.concatenate([np.asarray(group) for group in groups])
    out[at] = rows
    plain: list = [None] * len(records)
    for i, record in zip(at, merged.sequences, strict=True):
        plain[i] = record
    for i in empty:
        plain[i] = SeqRecord(Seq(""), id=records[i].id, name=records[i].name,
                             description=description_after_id(records[i]))
    molecule = merged.sequences[0].annotations.get("molecule_type")   # NEXUS needs it
    return alignment_from_rows(plain, out, molecule_type=molecule)


def _writer(alignment, args: argparse.Namespace, given: list, source: str, fmt: str):
    """How OUT is written: as any alignment, or, with --keep-length of an alignment that has
    columns of gaps only, as rows of exactly its length (an Alignment cannot hold those
    columns: they are put back, and ``residue_columns`` numbered as in OUT), as mafft
    --keeplength keeps them, in the formats bioplug lays out itself."""
    import numpy as np

    from bioplug.alignio import FAST_FORMATS, AlignedRows, alignment_rows
    from bioplug.io import write_checked
    from bioplug.progressive.adding import with_empty_columns

    length = len(given[0].seq) if given else 0
    place = getattr(alignment, "given_columns", None)
    if place is not None and place.size != length and fmt in FAST_FORMATS:
        log.info("--keep-length: %d columns of gaps only kept as in %s", length - place.size,
                 source)
        alignment.residue_columns = {k: np.where(v >= 0, place[np.maximum(v, 0)], -1)
                                     for k, v in alignment.residue_columns.items()}
        alignment = AlignedRows(alignment.sequences,
                                with_empty_columns(alignment_rows(alignment), place, length),
                                keep_empty_columns=True)
    return lambda: write_checked(alignment, args.output, source, fmt)


def _read_input(path: str, aligned: bool) -> list:
    """The records of one input of ``bioplug profile``, checked: a file (not a folder), its
    characters letters or gaps, an alignment's rows of one length; errors name the file."""
    from pathlib import Path

    from bioplug.errors import InputError
    from bioplug.io import check_letters, check_one_length, input_name, read_records

    if str(path) != "-" and Path(path).is_dir():
        raise InputError(f"{path}: is a folder, not an alignment or sequence file")
    records = read_records(path)
    check_letters(records, input_name(path), empty_ok=aligned)
    if aligned:
        check_one_length([r.seq for r in records], input_name(path))
    return records
