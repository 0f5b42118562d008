"""``bioplug pairwise``: pairwise alignments or an all-vs-all score matrix from sequence files.

Pairs are consecutive records of one file (1-2, 3-4, ...) or every record of ``IN`` against
every record of ``IN2``. Alignments are written as ``Bio.Align.write`` writes them (format from
``--format`` or the output extension); ``--all-vs-all`` writes a score matrix as TSV, or as a
NumPy ``.npy`` file when the output name ends in ``.npy``. ``-o -`` writes to standard output.

Input: gap characters (``-`` and ``.``) are removed, as ``bioplug msa`` does, so aligned
files (FASTA, Clustal, Stockholm, ...) are realigned from their residues. Letters are compared
without regard to case (soft-masked lower case scores as upper case, as in ``msa`` and
``search``); the alignments show the letters as the input has them.

Gap scores: ``--gap-open`` and ``--gap-extend`` accept Biopython's sign convention (negative
scores added to the alignment score, ``-10``) or positive penalties (``10``); both mean the
same. A gap of length k scores ``open + (k - 1) * extend`` as in Biopython.
"""

from __future__ import annotations

import argparse
import logging
from typing import TYPE_CHECKING

from bioplug.errors import InputError
from bioplug.progress import TerminalBar

if TYPE_CHECKING:   # numpy and Biopython load when a command runs, not for every parser
    import numpy as np

log = logging.getLogger(__name__)

#: Formats that hold many pairwise alignments in one file (Bio.Align.write names); without
#: --format, the output's extension names it (bioplug.io.OUTPUT_FORMATS), else FASTA.
#: Output names that mean EMBOSS's report without --format.
EMBOSS_EXTENSIONS = (".needle", ".water", ".emboss")
WRITE_FORMATS = ("bed", "chain", "clustal", "emboss", "exonerate", "fasta", "maf", "phylip",
                 "psl", "sam", "stockholm")


def add_parser(sub) -> None:
    from bioplug.cli import add_device_option

    p = sub.add_parser(
        "pairwise",
        help="pairwise alignments (consecutive records or IN x IN2) or an all-vs-all matrix",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", metavar="IN", help="sequence file (any Bio.SeqIO format; - for "
                   "standard input); gaps - and . in it are removed")
    p.add_argument("input2", metavar="IN2", nargs="?", help="second file: align IN x IN2")
    p.add_argument("-o", "--output", required=True,
                   help="output file (- for standard output)")
    p.add_argument("--format", choices=WRITE_FORMATS, default=None,
                   help="alignment output format (default: from the extension, else fasta); "
                        "emboss: EMBOSS needle / water's report (srspair: identity, "
                        "similarity, gaps, score, blocks with a markup line; the default for "
                        "a .needle, .water or .emboss output), which Biopython reads back as "
                        "'emboss'")
    p.add_argument("--in-format", default=None,
                   help="Bio.SeqIO input format (default: from the extension, else "
                   "from the first line: Clustal, Stockholm, ...; else fasta)")
    p.add_argument("--all-vs-all", action="store_true",
                   help="write the score matrix (TSV, or .npy by extension) instead of "
                   "alignments; with IN2, the rectangular IN x IN2 matrix")
    p.add_argument("--mode", choices=["global", "semiglobal", "local"], default="global",
                   help="global (default), semiglobal (free end gaps) or local")
    p.add_argument("--matrix", default=None,
                   help="substitution matrix name (e.g. BLOSUM62, PAM250, NUC.4.4)")
    p.add_argument("--match", type=float, default=None,
                   help="match score without --matrix (default 1)")
    p.add_argument("--mismatch", type=float, default=None,
                   help="mismatch score without --matrix (default -1)")
    p.add_argument("--gap-open", type=float, default=-10.0,
                   help="score of a gap's first position; -10 and 10 both mean a penalty "
                   "of 10 (default -10)")
    p.add_argument("--gap-extend", type=float, default=-0.5,
                   help="score of each further gap position (default -0.5)")
    from bioplug.distributed.cli import add_cluster_option

    add_cluster_option(p, pairwise=True)
    add_device_option(p, several=True)
    p.set_defaults(func=run)


def gap_penalty(value: float | None) -> float | None:
    """A gap score in Biopython's convention (<= 0) from a value of either sign: ``10`` and
    ``-10`` both mean a penalty of 10 (``pairwise`` and ``align3``); None stays None."""
    return None if value is None else -abs(float(value))


def build_aligner(args):
    """A :class:`bioplug.PairwiseAligner` from the command-line options."""
    from bioplug.alphabet import load_matrix
    from bioplug.pairwise.aligner import PairwiseAligner

    aligner = PairwiseAligner(device=args.device)
    aligner.mode = "local" if args.mode == "local" else "global"
    if args.matrix:
        if args.match is not None or args.mismatch is not None:
            raise InputError("use either --matrix or --match/--mismatch, not both")
        aligner.substitution_matrix = load_matrix(args.matrix)
    else:
        aligner.match_score = 1.0 if args.match is None else args.match
        aligner.mismatch_score = -1.0 if args.mismatch is None else args.mismatch
    aligner.open_gap_score = gap_penalty(args.gap_open)
    aligner.extend_gap_score = gap_penalty(args.gap_extend)
    if args.mode == "semiglobal":
        aligner.end_gap_score = 0.0
    return aligner


def _write_matrix(path: str, inputs, ids_rows, ids_cols, scores: np.ndarray) -> None:
    import numpy as np

    from bioplug.io import atomic_output

    if path.lower().endswith(".npy"):
        with atomic_output(path, inputs, mode="wb") as handle:
            np.save(handle, scores)
        return
    with atomic_output(path, inputs) as handle:
        handle.write("\t" + "\t".join(ids_cols) + "\n")
        for name, row in zip(ids_rows, _matrix_text(scores), strict=True):
            handle.write(name + "\t" + "\t".join(row) + "\n")


def _matrix_text(scores: np.ndarray):
    """Each row's values as ``f"{v:g}"`` writes them, without formatting NumPy scalars one
    by one (4 million of those took 1.7 s). Whole numbers below 10**6 (``%g`` keeps six
    digits), none of them -0, print as Python integers do."""
    import numpy as np

    zeros = scores[scores == 0]
    if (np.array_equal(scores, np.rint(scores)) and np.abs(scores).max(initial=0) < 1e6
            and not np.signbit(zeros).any()):
        for row in scores.astype(np.int64):
            yield map(str, row.tolist())
        return
    text = "{:g}".format
    for row in scores:
        yield map(text, row.tolist())


def _read(path: str, fmt: str | None):
    """Records of a file as Bio.SeqIO reads them; parser errors (often several lines long)
    shortened to one line."""
    from bioplug.io import read_records

    try:
        records = read_records(path, fmt)
    except InputError as exc:
        text = " ".join(str(exc).split())
        if len(text) > 160:  # keep the first sentence
            cut = text.find(". ", len(str(path)))
            text = text[: cut + 1] if cut > 0 else text[:160]
        raise InputError(text) from exc
    return records


def run(args) -> int:
    """Run ``bioplug pairwise``."""
    from bioplug.io import check_one_stdin, check_output

    inputs = [args.input] + ([args.input2] if args.input2 else [])
    check_one_stdin(*inputs)
    check_output(args.output, inputs)  # before any work is done
    check_output_kind(args)
    aligner = build_aligner(args)
    records, records2 = _read_inputs(args)
    # the aligner scores upper-case copies (soft-masked lower case scores as its residue,
    # as in msa and search); the output shows the input's own letters
    folded, folded2 = case_folded(records), case_folded(records2) if records2 else None
    bar = TerminalBar(enabled=False if getattr(args, "quiet", False) else None)
    if getattr(args, "cluster", None) is not None:
        from bioplug.distributed.cli import run_pairwise

        return run_pairwise(args, aligner, folded, folded2, bar)
    try:
        if args.all_vs_all:
            scores, cols = _score_matrix(aligner, folded, folded2, bar)
            bar.close()
            _write_matrix(args.output, inputs, [r.id for r in records],
                          [r.id for r in cols], scores)
            log.info("wrote a %d x %d score matrix to %s", *scores.shape, args.output)
            return 0
        alignments = aligner.align_many(*_pairs(args, folded, folded2), progress=bar)
    finally:
        bar.close()
    targets, queries = _pairs(args, records, records2)
    for alignment, target, query in zip(alignments, targets, queries, strict=True):
        alignment.sequences = [target, query]   # same lengths: the coordinates still hold
    _write_pairs(args, inputs, targets, queries, alignments)
    return 0


def check_output_kind(args) -> None:
    """Refuse, before any work, an output the options do not write: a ``.npy`` name for
    alignments, ``--format`` or an alignment format's extension (``.sam``, ``.fa``, ...) for
    the score matrix of ``--all-vs-all`` (written as TSV or ``.npy``); say that ``--top`` and
    ``--tile`` are read with ``--cluster`` only. Each was ignored before."""
    from pathlib import Path

    from bioplug.io import OUTPUT_FORMATS

    name = "" if str(args.output) == "-" else Path(str(args.output)).name.lower()
    name = name.removesuffix(".gz")
    suffix = Path(name).suffix
    if not args.all_vs_all and suffix == ".npy":
        raise InputError(f"-o {args.output}: a .npy file holds the score matrix of "
                         "--all-vs-all; alignments are written as FASTA, Clustal, SAM, ... "
                         "(give --all-vs-all, or another name)")
    if args.all_vs_all and args.format is not None:
        raise InputError(f"--format {args.format}: the alignments' format; --all-vs-all "
                         "writes the score matrix (TSV, or .npy by the output's extension)")
    if args.all_vs_all and suffix in OUTPUT_FORMATS:
        raise InputError(f"-o {args.output}: --all-vs-all writes the score matrix as TSV "
                         f"(or .npy), not as {OUTPUT_FORMATS[suffix]} as {suffix} names it: "
                         "give a name such as scores.tsv")
    if getattr(args, "cluster", None) is None:
        unread = [flag for flag, value in (("--top", getattr(args, "top", None)),
                                           ("--tile", getattr(args, "tile", None)))
                  if value is not None]
        if unread:
            log.warning("%s: read with --cluster only", ", ".join(unread))


def _read_inputs(args) -> tuple[list, list | None]:
    """The records of IN (and IN2) without gap characters, each made of sequence letters
    and not empty or only gaps."""
    records = _ungapped_records(args.input, args.in_format)
    records2 = _ungapped_records(args.input2, args.in_format) if args.input2 else None
    return records, records2


def _ungapped_records(path: str, fmt: str | None) -> list:
    """A file's records checked, then without ``-`` and ``.`` (as ``bioplug msa`` reads
    aligned input), descriptions without the id (:func:`bioplug.io.ungapped`)."""
    from bioplug.io import STDIO, check_letters, ungapped

    records = _read(path, fmt)
    # Biopython's match/mismatch scoring takes any letter; a file's '#' or digit is a
    # mistake in every mode. Positions in messages count the file's characters, gaps too.
    check_letters(records, "standard input" if path == STDIO else path)
    return ungapped(records)


def case_folded(records: list) -> list:
    """The records as the commands score them: upper case (a copy only where needed), so
    that soft-masked lower case scores as its residue (``pairwise`` and ``align3``)."""
    return [r if str(r.seq).isupper() else r.upper() for r in records]


def _score_matrix(aligner, records: list, records2: list | None, bar):
    """(scores, column records): IN against itself, or every IN x IN2 pair."""
    import numpy as np

    if records2 is None:
        return aligner.score_matrix(records, progress=bar), records
    n, m = len(records), len(records2)
    ii, jj = np.divmod(np.arange(n * m), m)
    flat = aligner.score_many([records[i] for i in ii], [records2[j] for j in jj], progress=bar)
    return flat.reshape(n, m), records2


def _pairs(args, records: list, records2: list | None) -> tuple[list, list]:
    """(targets, queries): consecutive records of IN, or every IN x IN2 pair."""
    if records2 is None:
        if len(records) % 2:
            raise InputError(
                f"{args.input}: {len(records)} records; pairs need an even number "
                "(or give a second file to align IN x IN2)"
            )
        return records[0::2], records[1::2]
    return ([a for a in records for _ in records2], [b for _ in records for b in records2])


def _write_pairs(args, inputs: list, targets: list, queries: list, alignments) -> None:
    """The pairs' alignments in the output format; local pairs without a positive score are
    left out, with a warning each."""
    import numpy as np

    from bioplug.io import OutputWriteError, output_format, write_alignment

    fmt = args.format or ("emboss" if str(args.output).lower().endswith(EMBOSS_EXTENSIONS)
                          else output_format(args.output, args.format))
    kept = []
    for t, q, alignment in zip(targets, queries, alignments, strict=True):
        coords = np.asarray(alignment.coordinates)
        if (coords[:, -1] == coords[:, 0]).all():  # local alignment without a positive score
            log.warning("%s vs %s: no local alignment with a positive score", t.id, q.id)
            continue
        if fmt == "stockholm" and not hasattr(alignment, "column_annotations"):
            alignment.column_annotations = {}
        kept.append(alignment)
    if fmt == "emboss":
        _write_emboss(args, inputs, kept)
        return
    try:
        if fmt == "sam":
            _write_sam(args, inputs, targets, kept)
        else:
            write_alignment(kept, args.output, fmt, inputs=inputs)
    except (InputError, BrokenPipeError, OutputWriteError):
        raise   # the path's own message; a reader gone (run); the system failed the write
    except Exception as exc:  # Biopython's writers raise many kinds
        raise InputError(f"cannot write these alignments as {fmt}: {exc}") from exc
    log.info("wrote %d alignments to %s (%s)", len(kept), args.output, fmt)


def _write_sam(args, inputs: list, targets: list, alignments: list) -> None:
    """SAM with the header ``bioplug search`` writes (``@HD``, an ``@SQ`` per target, ``@PG``):
    samtools refuses SAM whose references have no ``@SQ`` line."""
    from Bio import Align

    from bioplug.io import atomic_output
    from bioplug.pairwise.search_cli import sam_metadata, sam_references

    out = Align.Alignments(alignments)
    # IN x IN2 lists each target's pairs together; consecutive pairs are in no grouping
    out.metadata = sam_metadata("reference" if args.input2 else "none")
    out.targets = sam_references((t.id, len(t.seq)) for t in targets)
    with atomic_output(args.output, inputs) as handle:
        Align.write(out, handle, "sam")


def _write_emboss(args, inputs: list, alignments: list) -> None:
    """EMBOSS ``needle`` (global, semiglobal) / ``water`` (local) report of the pairs."""
    from bioplug.alphabet import load_matrix
    from bioplug.io import atomic_output
    from bioplug.pairwise.emboss import srspair

    if args.matrix:
        matrix, name = load_matrix(args.matrix), args.matrix
    else:
        match = 1.0 if args.match is None else args.match
        mismatch = -1.0 if args.mismatch is None else args.mismatch
        matrix, name = MatchMismatch(match, mismatch), f"match {match:g} / mismatch {mismatch:g}"
    program = "water" if args.mode == "local" else "needle"
    text = srspair(alignments, matrix, name, abs(gap_penalty(args.gap_open)),
                   abs(gap_penalty(args.gap_extend)), program)
    with atomic_output(args.output, inputs) as handle:
        handle.write(text)
    log.info("wrote %d alignments to %s (EMBOSS %s)", len(alignments), args.output, program)


class MatchMismatch:
    """``matrix[a][b]`` of a match / mismatch scoring (case ignored), for the report's
    identity, similarity and markup."""

    def __init__(self, match: float, mismatch: float):
        self.match, self.mismatch = match, mismatch

    def __getitem__(self, a: str):
        return {b: self.match if b == a else self.mismatch for b in _LETTERS}


#: Letters a match / mismatch scoring compares (any letter of either case, upper-cased).
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ*"
