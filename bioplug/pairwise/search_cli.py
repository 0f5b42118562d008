"""``bioplug search``: exact Smith-Waterman search of query proteins against a FASTA database.

Every query is aligned (local, affine gaps) with every database sequence; the ``--top`` best
hits per query (score descending, then database order) are written as BLAST tabular output
(outfmt 6: qseqid sseqid pident length mismatch gapopen qstart qend sstart send evalue
bitscore) or as SAM. Gap costs follow BLAST: a gap of length k costs ``open + k * extend``.
The database is indexed beside its file (``DB.fa.bioplug-idx/``) on first use; ``-o -``
writes to standard output.
"""

from __future__ import annotations

import argparse
import logging

from bioplug.errors import InputError
from bioplug.progress import TerminalBar

log = logging.getLogger(__name__)

FORMATS = ("tsv", "sam")


def add_parser(sub) -> None:
    from bioplug.cli import add_device_option

    p = sub.add_parser(
        "search",
        help="exact Smith-Waterman database search (BLAST tabular or SAM output)",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("queries", metavar="QUERIES.fa",
                   help="query sequences (FASTA; - for standard input)")
    p.add_argument("database", metavar="DATABASE.fa", help="database sequences (FASTA)")
    p.add_argument("-o", "--output", required=True, help="output file (- for standard output)")
    p.add_argument("--top", type=int, default=10, help="hits per query (default 10)")
    p.add_argument("--matrix", default="BLOSUM62", help="substitution matrix (default BLOSUM62)")
    p.add_argument("--gap-open", type=int, default=11,
                   help="gap existence cost, BLAST's convention (default 11)")
    p.add_argument("--gap-extend", type=int, default=1,
                   help="cost per gap position (default 1)")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="tsv (BLAST outfmt 6, default) or sam (default: from the extension)")
    p.add_argument("--chunk-residues", type=int, default=None,
                   help="database residues per device chunk (default: from device memory)")
    add_device_option(p, several=True)
    p.set_defaults(func=run)


def run(args) -> int:
    from bioplug.io import STDIO, spooled_stdin

    if args.database == STDIO:
        raise InputError("the database must be a file (it is indexed beside itself on first "
                         "use); the queries may come from standard input (-)")
    if args.queries != STDIO:
        return _run(args)
    with spooled_stdin("bioplug-queries-", ".fa") as spooled:   # read twice for SAM
        args.queries = spooled
        return _run(args)


def _run(args) -> int:
    from bioplug.io import atomic_output, check_output
    from bioplug.pairwise.search import search

    fmt = args.format or ("sam" if str(args.output).lower().endswith(".sam") else "tsv")
    if args.top < 1:
        raise InputError(f"--top must be at least 1, not {args.top}")
    check_output(args.output, [args.queries, args.database])
    bar = TerminalBar(enabled=None if not getattr(args, "quiet", False) else False)
    try:
        results = search(args.queries, args.database, matrix=args.matrix,
                         gap_open=args.gap_open, gap_extend=args.gap_extend, top=args.top,
                         device=args.device, chunk_residues=args.chunk_residues, progress=bar)
    finally:
        bar.close()
    with atomic_output(args.output, inputs=[args.queries, args.database]) as out:
        if fmt == "tsv":
            out.write(results.tabular())
        else:
            _write_sam(results, args, out)
    hits = sum(len(h) for h in results.hits)
    log.info("%d hits for %d queries", hits, len(results.hits))
    return 0


def _write_sam(results, args, out) -> None:
    """SAM through ``Bio.Align.write`` (the database sequences are the references)."""
    from Bio import Align

    from bioplug.pairwise.fasta import fasta_records
    from bioplug.pairwise.search import as_alignment

    # texts come straight from the files: the output keeps the input's letters
    queries = {name: raw.decode("ascii", "replace")
               for name, raw, _ in fasta_records(args.queries)}
    wanted = {h.subject_id for hits in results.hits for h in hits}
    subjects = {name: raw.decode("ascii", "replace")
                for name, raw, _ in fasta_records(args.database) if name in wanted}
    alignments = [as_alignment(h, queries[h.query_id], subjects[h.subject_id])
                  for hits in results.hits for h in hits]
    if alignments:
        Align.write(alignments, out, "sam")
