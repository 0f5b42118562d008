"""``bioplug tree``: a Newick tree from sequences, an alignment or a PHYLIP distance matrix."""

from __future__ import annotations

import argparse
import contextlib
import logging
from pathlib import Path

from bioplug.errors import InputError

log = logging.getLogger(__name__)

ALIGNMENT_FORMATS = {"clustal", "stockholm", "phylip", "msf", "nexus", "a2m", "a3m"}


def add_parser(sub) -> None:
    """Register the ``tree`` sub-command."""
    from bioplug.cli import add_device_option

    p = sub.add_parser(
        "tree",
        help="NJ / UPGMA tree (Newick) from sequences, an alignment or a distance matrix",
        description="Build a neighbor-joining or UPGMA tree on the OpenCL device. IN is a "
        "FASTA file of sequences, an alignment (aligned FASTA, Clustal, Stockholm, PHYLIP, ...) "
        "or a PHYLIP distance matrix.",
    )
    p.add_argument("input", metavar="IN",
                   help="sequences, alignment or PHYLIP distance matrix (- for standard input)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.nwk",
                   help="Newick output (- for standard output)")
    p.add_argument("--method", choices=["nj", "upgma", "wpgma"], default="nj",
                   help="tree method (default nj)")
    p.add_argument(
        "--distance", choices=["identity", "kimura", "ktuple", "clustalw-fast"], default=None,
        help="distances for sequence input: identity (1 - identity of pairwise alignments, or "
        "of the given alignment), kimura (identity with Kimura's protein / Jukes-Cantor "
        "nucleotide correction), ktuple (k-mer distance: 1 - shared k-tuples / fewer "
        "k-tuples, no alignment), clustalw-fast (ClustalW's -quicktree distances: Wilbur & "
        "Lipman k-tuple alignments on the best diagonals, 1 - identity over the shorter "
        "sequence, the numbers ClustalW prints); default: identity for an alignment, ktuple "
        "for unaligned sequences",
    )
    p.add_argument("--ktuple", type=int, default=None, metavar="K",
                   help="k-tuple length (ktuple: default 2 protein, 4 nucleotide; "
                   "clustalw-fast: default 1 protein, 2 nucleotide, as ClustalW's -KTUPLE)")
    p.add_argument("--window", type=int, default=None, metavar="N",
                   help="clustalw-fast: diagonals around each top diagonal (ClustalW's "
                   "-WINDOW; default 5 protein, 4 nucleotide)")
    p.add_argument("--topdiags", type=int, default=None, metavar="N",
                   help="clustalw-fast: number of best diagonals (ClustalW's -TOPDIAGS; "
                   "default 5 protein, 4 nucleotide)")
    p.add_argument("--pairgap", type=int, default=None, metavar="N",
                   help="clustalw-fast: penalty per change of diagonal (ClustalW's -PAIRGAP; "
                   "default 3 protein, 5 nucleotide, K+3 / K+4 with --ktuple K)")
    p.add_argument("--format", default=None,
                   help="input format (default: from the extension, else from the first "
                   "line: Clustal, Stockholm, ...; else FASTA)")
    p.add_argument("--distances-out", default=None, metavar="FILE.phy",
                   help="also write the distance matrix (PHYLIP)")
    p.add_argument("--keep-negative", action="store_true",
                   help="keep negative NJ branch lengths (default: set to zero)")
    p.add_argument("--bootstrap", type=int, default=0, metavar="N",
                   help="alignment input: support of every branch from N bootstrap "
                   "replicates (columns resampled, distances and tree rebuilt on the device); "
                   "written as Newick internal labels (percent)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="random seed of the bootstrap replicates (default 0)")
    p.add_argument("--min-reliability", type=float, default=None, metavar="X",
                   help="alignment input: use only the columns of reliability X or more "
                   "(0..1; the #=GC PP_cons line of a Stockholm file that bioplug msa "
                   "--reliability or hmmalign writes, HMMER's code read as digit d = d/10, "
                   "* = 0.975), leaving out columns the aligner was unsure of, as "
                   "GUIDANCE-style filtering does before a tree; identity or kimura distances")
    add_device_option(p)
    p.set_defaults(func=run)


def _is_phylip_distances(path: Path) -> bool:
    from bioplug.io import open_input

    # gzip too: a .phy.gz matrix was read as a PHYLIP alignment ("two integers")
    with open_input(path, "rt", errors="replace") as handle:
        lines = [line for line in handle.readlines()[:3] if line.strip()]
    if len(lines) < 2 or len(lines[0].split()) != 1 or not lines[0].split()[0].isdigit():
        return False
    # values after the first word (relaxed ids), or after 10 characters (strict ones, which
    # may hold spaces: "E. coli   0.2 0.3")
    for values in (lines[1].split()[1:], lines[1][10:].split()):
        try:
            [float(x) for x in values]
        except ValueError:
            continue
        return True
    return False


def load_distances(args: argparse.Namespace, progress):
    """The :class:`~bioplug.tree.distance.Distances` for the command's input."""
    from bioplug.io import check_letters, check_unique_ids, input_format
    from bioplug.tree.distance import Distances, distance_matrix
    from bioplug.tree.matrix import read_phylip

    path = _input_file(args.input)
    if path.stat().st_size == 0:
        raise InputError(f"{path}: the file is empty")
    if args.format in (None, "phylip-distance") and _is_phylip_distances(path):
        if getattr(args, "min_reliability", None) is not None:
            # not a warning as --distance's: the tree would be the unfiltered one, silently
            raise InputError(f"{args.source}: --min-reliability needs an alignment (its "
                             "columns' #=GC PP_cons); this is a distance matrix")
        for flag, value in (("--distance", args.distance), ("--ktuple", args.ktuple)):
            if value is not None:
                log.warning("input is a distance matrix; %s %s ignored", flag, value)
        data, ids = read_phylip(path)
        return Distances(data, ids)
    fmt = args.format or input_format(path)
    records = _records(args, path, fmt)
    check_unique_ids(records, args.source)
    check_letters(records, args.source)
    texts = [str(r.seq) for r in records]
    aligned = fmt in ALIGNMENT_FORMATS or (
        len({len(t) for t in texts}) == 1 and any("-" in t or "." in t for t in texts)
    )
    kind = args.distance or ("identity" if aligned else "ktuple")
    correction = "auto" if kind == "kimura" else "none"
    fast_options = (args.window, args.topdiags, args.pairgap)
    if kind != "clustalw-fast" and any(v is not None for v in fast_options):
        raise InputError("--window, --topdiags and --pairgap need --distance clustalw-fast")
    if args.ktuple is not None and kind not in ("ktuple", "clustalw-fast"):
        raise InputError(f"--ktuple needs --distance ktuple or clustalw-fast (the distances "
                         f"here are {kind}, which use no k-tuples)")
    if kind == "clustalw-fast":
        return distance_matrix(records, "clustalw-fast", "none", args.device, ktup=args.ktuple,
                               window=args.window, signif=args.topdiags,
                               wind_gap=args.pairgap, progress=progress)
    if kind == "ktuple":
        return distance_matrix(records, "ktuple", correction, args.device, k=args.ktuple,
                               progress=progress)
    method = "msa" if aligned else "identity"
    return distance_matrix(records, method, correction, args.device, progress=progress)


def run_bootstrap(args: argparse.Namespace, progress):
    """(tree with bootstrap support, distances of the alignment or None) of an alignment
    input (``--bootstrap N``); the distances are computed for ``--distances-out`` only."""
    from bioplug.io import check_letters, check_unique_ids, input_format
    from bioplug.tree.distance import distance_matrix
    from bioplug.tree.support import bootstrap

    path = _input_file(args.input)
    if args.method == "wpgma":
        raise InputError("--bootstrap takes --method nj or upgma")
    if args.distance not in (None, "identity", "kimura") or args.ktuple is not None:
        raise InputError("--bootstrap uses alignment distances: --distance identity or "
                         "kimura, no --ktuple")
    if args.format in (None, "phylip-distance") and _is_phylip_distances(path):
        # it was parsed as a PHYLIP alignment: "First line should have two integers"
        raise InputError(f"{args.source}: --bootstrap needs an alignment (its columns are "
                         "resampled); this is a distance matrix")
    records = _records(args, path, args.format or input_format(path))
    check_unique_ids(records, args.source)
    check_letters(records, args.source)
    if len({len(r.seq) for r in records}) != 1:
        raise InputError(f"{path}: --bootstrap needs an alignment (rows of equal length)")
    correction = "auto" if args.distance == "kimura" else "none"
    tree = bootstrap(records, replicates=args.bootstrap, seed=args.seed, method=args.method,
                     device=args.device, progress=progress, correction=correction,
                     neg_as_zero=not args.keep_negative)
    if not args.distances_out:
        return tree, None
    # the original alignment's distances, those the tree (not the replicates) is built from
    return tree, distance_matrix(records, "msa", correction, args.device)


def _records(args: argparse.Namespace, path: Path, fmt: str) -> list:
    """The input's records, with ``--min-reliability`` only its reliable columns."""
    from bioplug.io import read_records

    if getattr(args, "min_reliability", None) is None:
        return read_records(path, fmt)
    return reliable_columns(path, fmt, args.min_reliability, args.source)


def reliable_columns(path: Path, fmt: str, least: float, source: str) -> list:
    """The rows of a Stockholm alignment cut to the columns whose ``#=GC PP_cons``
    reliability is at least ``least`` (a column without one, ``.``, is left out).

    Parameters
    ----------
    path : pathlib.Path
        The alignment (gzip too).
    fmt : str
        Its format; only ``"stockholm"`` carries the reliabilities.
    least : float
        The threshold, 0 to 1, against the number each character of HMMER's code stands for
        (:func:`bioplug.msa.reliability.pp_values`: a digit d is d / 10, ``*`` 0.975).
    source : str
        The input's name for messages (``"standard input"`` for ``-``).

    Returns
    -------
    list of Bio.SeqRecord.SeqRecord
        The cut rows, gaps ``-``, in the file's order.

    Raises
    ------
    InputError
        Not one readable Stockholm alignment with a ``PP_cons`` line, no column that
        reliable, or a sequence with no residue in the columns kept.
    """
    import numpy as np
    from Bio import AlignIO
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    from bioplug.io import check_ascii, open_input
    from bioplug.msa.reliability import pp_values

    need = (f"{source}: --min-reliability needs the columns' reliability: a Stockholm "
            "alignment with a #=GC PP_cons line (bioplug msa --reliability -o OUT.sto)")
    if fmt != "stockholm":   # e.g. a Stockholm file named .fa or .aln: say what was read
        raise InputError(f"{need}; this is read as {fmt} (--format stockholm if it is Stockholm)")
    # Bio.AlignIO, the parser Bio.SeqIO (and so the run without --min-reliability) reads
    # Stockholm with: Bio.Align's reader refuses interleaved files ("consists of 200 letters,
    # expected 400"), which hmmalign and esl-reformat write past 200 columns, and its
    # parse errors are bare ValueErrors and AssertionErrors
    with open_input(path, "rt") as handle:   # .sto.gz too
        try:
            alignments = list(AlignIO.parse(handle, "stockholm"))
        except (ValueError, AssertionError, TypeError) as exc:   # TypeError: a #=GR line
            shown = " ".join(str(exc).split())   # the command line prints one line
            raise InputError(f"{source}: not readable as stockholm: {shown}") from exc
    if len(alignments) != 1:   # a Pfam-A.seed-like file of families: whose tree?
        raise InputError(f"{source}: {len(alignments) or 'no'} Stockholm alignments found; "
                         "--min-reliability takes a file of one")
    alignment = alignments[0]
    if not len(alignment):
        raise InputError(f"{source}: the Stockholm alignment has no sequences")
    check_ascii(alignment, source)
    text = alignment.column_annotations.get("posterior_probability")
    if text is None:
        raise InputError(need)
    values = pp_values(text)
    keep = values >= least   # NaN (".") compares False: left out
    if not keep.any():
        raise InputError(f"{source}: no column has a reliability of {least} or more"
                         + _unresolved(text, least))
    log.info("%s: %d of %d columns have a reliability of %s or more", source,
             int(keep.sum()), keep.size, least)
    rows = np.frombuffer("".join(str(r.seq) for r in alignment).encode("ascii"),
                         np.uint8).reshape(len(alignment), -1)[:, keep]
    # Bio.AlignIO turns the "." of insert columns into "-"
    empty = [r.id for r, row in zip(alignment, rows, strict=True) if (row == ord("-")).all()]
    if empty:   # no distance to the others: refused here, saying why, not as "only gaps"
        raise InputError(f"{source}: {', '.join(empty)}: no residue in the {int(keep.sum())} "
                         f"columns of reliability {least} or more (a lower --min-reliability "
                         "keeps more)")
    return [SeqRecord(Seq(row.tobytes().decode("ascii")), id=r.id, description="")
            for r, row in zip(alignment, rows, strict=True)]


def _unresolved(text: str, least: float) -> str:
    """What to add to "no column has a reliability of X or more" when X is above what HMMER's
    code can show: ``*`` only says 0.95 or more, so a column of 0.99 (``bioplug msa --annot``
    prints it) reads as 0.975 and no threshold above that can keep it."""
    stars = text.count("*")
    if least <= 0.975 or not stars:
        return ""
    return (f" that the #=GC PP_cons code can show: {stars} column(s) are * (0.95 or more, "
            "the code tells no more); --min-reliability 0.95 keeps them")


def _input_file(name) -> Path:
    """The input's path, refused when it is missing or a folder (not a failure on open)."""
    path = Path(name)
    if path.is_dir():
        raise InputError(f"{path}: is a folder, not a sequence, alignment or distance file")
    if not path.exists():
        raise InputError(f"{path}: no such file")
    return path


def _check_values(args: argparse.Namespace) -> None:
    """Refuse option values that make no sense, before any work."""
    from bioplug.io import check_distinct_outputs

    for flag, value, least in (("--ktuple", args.ktuple, 1), ("--window", args.window, 0),
                               ("--topdiags", args.topdiags, 1),
                               ("--pairgap", args.pairgap, 0),
                               ("--bootstrap", args.bootstrap, 0), ("--seed", args.seed, 0)):
        if value is not None and value < least:
            raise InputError(f"{flag} {value}: must be {least} or more")
    if args.min_reliability is not None and not 0 <= args.min_reliability <= 1:
        raise InputError(f"--min-reliability {args.min_reliability}: must be from 0 to 1")
    if args.min_reliability is not None and args.distance in ("ktuple", "clustalw-fast"):
        # these ungap the rows: k-tuples (and ClustalW's diagonals) would run across the
        # joins of the columns left out, words no sequence has
        raise InputError(f"--min-reliability keeps alignment columns: --distance identity or "
                         f"kimura, which compare them (not {args.distance}, which ungaps the "
                         "rows)")
    check_distinct_outputs({"-o": args.output, "--distances-out": args.distances_out})
    if args.keep_negative and args.method != "nj":   # was accepted without a word
        log.warning("--keep-negative: NJ's option; %s branch lengths are never negative",
                    args.method.upper())


def run(args: argparse.Namespace) -> int:
    """Read (``-``: standard input), compute distances, build the tree, write Newick
    atomically."""
    from bioplug.io import check_output, input_name, is_stream, spooled

    _check_values(args)
    args.source = args.input
    given = args.input
    if given != "-" and not is_stream(given):
        return _run(args)
    # the input is sniffed (distance matrix or sequences) before it is parsed: standard
    # input, or a pipe (`<(zcat x.fa.gz)`, a named pipe), is spooled to a private file so
    # that it can be read twice
    args.source = input_name(given)
    inputs = [] if given == "-" else [given]
    for output in (args.output, args.distances_out):   # before the input is read to its end
        if output:
            check_output(output, inputs)
    with spooled(given, "bioplug-tree-", _spool_suffix(given, args.format)) as copy:
        args.input = copy
        try:
            return _run(args, inputs=inputs)
        except InputError as exc:  # name the input the user gave, not the spooled copy
            raise type(exc)(str(exc).replace(copy, args.source)) from exc


def _spool_suffix(given: str, fmt: str | None) -> str:
    """The spooled copy's extension: the one ``--format`` names, else a pipe's own when it
    names a format (``family.sto``), else ``.txt``, which leaves the format to the
    content."""
    from bioplug.io import guess_format

    if fmt is not None:
        return f".{fmt}"
    if given != "-" and guess_format(given, None) is not None:
        return "".join(Path(given).suffixes[-2:])   # ".fa.gz" too
    return ".txt"


def _run(args: argparse.Namespace, inputs: list[str] | None = None) -> int:
    from bioplug.io import check_output
    from bioplug.progress import TerminalBar

    inputs = [args.input] if inputs is None else inputs
    check_output(args.output, inputs)
    if args.distances_out:
        check_output(args.distances_out, inputs)
    bar = TerminalBar(enabled=False if getattr(args, "quiet", False) else None)
    try:
        if args.bootstrap:
            tree, dist = run_bootstrap(args, bar)
        else:
            dist = load_distances(args, bar)
            tree = _build(args, dist, bar)
    finally:
        bar.close()
    _write_outputs(args, tree, dist, inputs)
    if args.bootstrap:
        log.info("wrote %s (%d replicates)", args.output, args.bootstrap)
    else:
        log.info("wrote %s (%d taxa)", args.output, len(dist.ids))
    return 0


def _build(args: argparse.Namespace, dist, progress):
    from bioplug.tree import build

    if args.method == "nj":
        return build.nj(dist, neg_as_zero=not args.keep_negative, device=args.device,
                        progress=progress)
    return build.upgma(dist, weighted=args.method == "wpgma", device=args.device,
                       progress=progress)


def _write_outputs(args: argparse.Namespace, tree, dist, inputs: list[str]) -> None:
    """The tree and (``--distances-out``) the distances in one commit: the distances'
    temporary file is renamed into place only after the tree was written, so a failure
    leaves neither file."""
    from bioplug.io import atomic_output
    from bioplug.tree.matrix import write_phylip
    from bioplug.tree.phylo import to_newick

    side = (atomic_output(args.distances_out, inputs) if args.distances_out
            else contextlib.nullcontext())
    with side as handle:
        if handle is not None:
            write_phylip(dist.data, dist.ids, handle)
        with atomic_output(args.output, inputs) as out:
            out.write(to_newick(tree))
