"""``bioplug search``: exact Smith-Waterman search of query proteins against a FASTA database.

Every query is aligned (local, affine gaps) with every database sequence; the ``--top`` best
hits per query (see E-values below for their order), those of E-value at most ``--evalue``
when it is given, are written as BLAST tabular output, as SAM, or as a report to read
(``--format pair``: each hit's scores and alignment as Biopython prints it). Gap costs follow
BLAST: a gap of length k costs ``open + k * extend``. The database is indexed beside its file
(``DB.fa.bioplug-idx/``) on first use; ``-o -`` writes to standard output.

The tabular columns are BLAST+'s: by default outfmt 6's qseqid sseqid pident length mismatch
gapopen qstart qend sstart send evalue bitscore; ``--outfmt "6 qseqid sseqid evalue qseq
sseq"`` chooses them (also std, score, qlen, slen, nident, positive, gaps, ppos, qcovhsp,
scovhsp, qseq, sseq, btop, stitle, sstrand, qcovs, qacc, sacc, qaccver, saccver, sallseqid,
salltitles, qframe, sframe, frames), and ``--outfmt 7 ...`` adds BLAST+'s comment lines
(query, database, fields, hit count). scikit-bio reads both back (formats ``blast+6`` and
``blast+7``).

E-values (``--statistics``): BLAST's Karlin-Altschul parameters where its table has the
matrix and gap costs (NCBI's BLOSUM45/50/62/80/90 and PAM30/70/250, with Spouge's
finite-size correction as blastp applies it by default; ``--old-fsc``: without it, as blastp
with ``OLD_FSC`` set; NUC.4.4 with gap costs 10/6 or 8/6 as blastn's reward 5 / penalty -4;
Biopython's BLOSUM80 is not NCBI's and has no row), else fitted to the search's own scores
of every database sequence, as SSEARCH does (Pearson 1998: the scores' line in ln(length)
and their spread; a database of at least 100 sequences). The ``--top`` hits are each query's
best by score with the table, listed by E-value as BLAST+ lists them, and its best by
E-value with fitted E-values; both kinds weigh the subject's length.

Selenocysteine (U) and pyrrolysine (O), which BLOSUM62 lacks, score as blastp scores them: U
as C, O as X (the hits print them as given). Hits are named by id: two queries, or two
database sequences, with one id are refused. SAM follows the v1.6 spec: ``@HD``, one ``@SQ``
per database sequence with a hit, ``@PG``; each query's best hit is its primary line, the
others are secondary (FLAG 256, SEQ ``*``); a query without hits has one unmapped line (FLAG
4, RNAME ``*``, POS 0), as read mappers write them.
"""

from __future__ import annotations

import argparse
import logging

from bioplug.errors import InputError
from bioplug.progress import TerminalBar

log = logging.getLogger(__name__)

FORMATS = ("tsv", "sam", "pair")


def add_parser(sub) -> None:
    from bioplug.cli import add_device_option

    p = sub.add_parser(
        "search",
        help="exact Smith-Waterman database search (BLAST tabular or SAM output)",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("queries", metavar="QUERIES.fa",
                   help="query sequences (FASTA, also a pipe such as <(zcat q.fa.gz); - for "
                        "standard input)")
    p.add_argument("database", metavar="DATABASE.fa",
                   help="database sequences (a FASTA file, not a pipe: its index is kept "
                        "beside it)")
    p.add_argument("-o", "--output", required=True, help="output file (- for standard output)")
    p.add_argument("--top", "--max-target-seqs", type=int, default=10, dest="top",
                   help="hits per query (default 10; --max-target-seqs as BLAST+ and DIAMOND "
                        "name it)")
    p.add_argument("--matrix", default=None,
                   help="substitution matrix (default BLOSUM62; nucleotide queries and "
                        "database need a nucleotide one, e.g. --matrix NUC.4.4 --gap-open 10 "
                        "--gap-extend 6: with the default they are refused, with a protein "
                        "matrix named here searched with a warning)")
    p.add_argument("--gap-open", type=int, default=11,
                   help="gap existence cost, BLAST's convention (default 11)")
    p.add_argument("--gap-extend", type=int, default=1,
                   help="cost per gap position (default 1)")
    p.add_argument("--evalue", type=float, default=None, metavar="E",
                   help="report only hits of E-value at most E (BLAST's -evalue), among the "
                        "--top of each query (default: all of them)")
    p.add_argument("--strand", choices=("auto", "plus", "minus", "both"), default="auto",
                   help="strands of nucleotide queries to search, as BLASTN's -strand: both "
                        "for a nucleotide scoring (auto, default), the query as given for a "
                        "protein one; minus-strand hits have sstart > send and sstrand minus")
    p.add_argument("--statistics", choices=("auto", "table", "fit"), default="auto",
                   help="E-values from BLAST's Karlin-Altschul table (table), fitted to this "
                        "search's scores as SSEARCH does (fit: needs a database of at least "
                        "100 sequences, refused otherwise), or the table where it has the "
                        "scoring and the fit otherwise (auto, default; no E-values where "
                        "neither can be had)")
    p.add_argument("--old-fsc", action="store_true",
                   help="with BLAST's table: E-values over the effective search space without "
                        "Spouge's finite-size correction, as blastp prints them with OLD_FSC "
                        "set (default: blastp's default E-values)")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="tsv (BLAST tabular, default), sam, or pair (a report to read: "
                        "scores and alignments); default: sam for a .sam output, else tsv")
    p.add_argument("--outfmt", default=None, metavar="'STYLE COLUMNS'",
                   help="BLAST+'s tabular styles, quoted as BLAST+ takes them: 6 "
                        "(tab-separated) or 7 (with comment lines), then column names, e.g. "
                        "--outfmt '6 qseqid sseqid evalue qcovhsp' (default: 6 std)")
    p.add_argument("--chunk-residues", type=int, default=None,
                   help="database residues per device chunk (default: from device memory)")
    from bioplug.distributed.cli import add_cluster_option

    add_cluster_option(p)
    add_device_option(p, several=True)
    p.set_defaults(func=run)


def run(args) -> int:
    from bioplug.io import STDIO
    from bioplug.pairwise.database import check_database_file
    from bioplug.pairwise.fasta import readable_again
    from bioplug.streams import is_stream, spooled

    if args.database == STDIO:
        raise InputError("the database must be a file (it is indexed beside itself on first "
                         "use); the queries may come from standard input (-)")
    check_database_file(args.database)   # before a pipe of queries is read to its end
    piped = args.queries == STDIO or is_stream(args.queries)
    if not piped:
        return _run(args)
    if getattr(args, "cluster", None) is not None:
        given = "standard input (-)" if args.queries == STDIO else f"the pipe {args.queries}"
        raise InputError(f"--cluster reads the queries from a file its workers can read: "
                         f"give QUERIES.fa, not {given}")
    if args.queries == STDIO:
        with spooled(STDIO, "bioplug-queries-", ".fa") as copy:   # read twice for SAM
            args.queries = copy
            return _run(args)
    with readable_again(args.queries) as copy:   # read twice for SAM, named as given
        args.queries = copy
        return _run(args)


def _run(args) -> int:
    from bioplug.io import atomic_output, check_output
    from bioplug.pairwise.blast_tab import parse_outfmt
    from bioplug.pairwise.search import search

    fmt = args.format or ("sam" if str(args.output).lower().endswith(".sam")
                          and args.outfmt is None else "tsv")
    if args.top < 1:
        raise InputError(f"--top must be at least 1, not {args.top}")
    if args.evalue is not None and not args.evalue >= 0:
        raise InputError(f"--evalue must be 0 or more, not {args.evalue}")
    if args.outfmt is not None and fmt != "tsv":
        raise InputError(f"--outfmt chooses tabular columns: it does not go with --format "
                         f"{fmt}")
    style, columns = parse_outfmt(args.outfmt or "6")
    check_outside_index(args.output, args.database)
    if getattr(args, "cluster", None) is not None:
        from bioplug.distributed.cli import run_search

        return run_search(args, fmt, TerminalBar(enabled=None if not getattr(
            args, "quiet", False) else False))
    check_output(args.output, [args.queries, args.database])
    bar = TerminalBar(enabled=None if not getattr(args, "quiet", False) else False)
    try:
        results = search(args.queries, args.database, matrix=args.matrix,
                         gap_open=args.gap_open, gap_extend=args.gap_extend, top=args.top,
                         device=args.device, chunk_residues=args.chunk_residues, progress=bar,
                         evalue=args.evalue, statistics=args.statistics,
                         strand=args.strand, old_fsc=args.old_fsc)
    finally:
        bar.close()
    with atomic_output(args.output, inputs=[args.queries, args.database]) as out:
        if fmt == "tsv":
            # the database as results name it: a path's bytes that are not UTF-8 escaped
            out.write(results.tabular(columns, comments=style == 7))
        elif fmt == "pair":
            out.write(results.report())
        else:
            _write_sam(results, args, out)
    hits = sum(len(h) for h in results.hits)
    log.info("%d hits for %d queries", hits, len(results.hits))
    return 0


def check_outside_index(output: str, database: str) -> None:
    """Refuse an output inside the database's index folder (beside it or in the cache): the
    search reads that folder and rebuilds it when it finds it damaged or stale.

    Raises
    ------
    InputError
        Naming the output and the folder.
    """
    from pathlib import Path

    from bioplug.io import STDIO
    from bioplug.pairwise.database import index_dirs

    if not output or output == STDIO:
        return
    target = Path(output).resolve()
    for folder in index_dirs(Path(database)):
        folder = folder.resolve()
        if target == folder or folder in target.parents:
            raise InputError(f"-o {output}: inside the index folder {folder} of {database}, "
                             "which the search reads and rebuilds; write the output elsewhere")


def _write_sam(results, args, out) -> None:
    """SAM v1.6 through ``Bio.Align``'s SAM writer: the database sequences that have hits
    are the references (``@SQ``); a query's hits after its best are secondary (FLAG 256),
    printed without their letters (SEQ ``*``) as the spec allows; a query without hits is
    one unmapped line (FLAG 4), which Biopython's writer cannot make."""
    from Bio import Align
    from Bio.Align.sam import AlignmentWriter
    from Bio.Seq import Seq

    from bioplug.pairwise.fasta import fasta_records
    from bioplug.pairwise.search import as_alignment

    # letters straight from the file (the output keeps the input's letters), by record
    # number as the hits name their query: ids can never pair a hit with another record
    records = [(name, raw.decode("ascii", "replace"))
               for name, raw, _ in fasta_records(args.queries)]
    header = Align.Alignments()
    header.metadata = sam_metadata()
    header.targets = _references(results)
    writer = AlignmentWriter(out)
    writer.write_header(out, header)
    for q, hits in enumerate(results.hits):
        name, text = records[q]
        if not hits:
            out.write(unmapped_line(name, text))
        for rank, hit in enumerate(hits):
            alignment = as_alignment(hit, text if rank == 0 else Seq(None, length=len(text)))
            if rank:
                alignment.flag = SECONDARY
            out.write(writer.format_alignment(alignment))


#: SAM FLAGs of a secondary alignment and of an unmapped read (the spec's 0x100, 0x4).
SECONDARY, UNMAPPED = 0x100, 0x4


def unmapped_line(name: str, text: str) -> str:
    """The SAM line of a query without hits: FLAG 4, no reference, position or CIGAR, its
    letters as given (SAM v1.6, 1.4: RNAME ``*``, POS 0, MAPQ 0, CIGAR ``*``)."""
    fields = [name, str(UNMAPPED), "*", "0", "0", "*", "*", "0", "0", text or "*", "*"]
    return "\t".join(fields) + "\n"


def sam_metadata(group: str = "query") -> dict:
    """The ``@HD`` and ``@PG`` header lines as ``Bio.Align``'s SAM writer takes them.

    Lines are not sorted by reference position (``SO:unsorted``); ``group`` is how they are
    grouped (``GO``: "query" for a search, per query, best hit first; "reference" or
    "none" for ``bioplug pairwise``).
    """
    from bioplug import __version__

    return {"HD": {"VN": "1.6", "SO": "unsorted", "GO": group},
            "PG": [{"ID": "bioplug", "PN": "bioplug", "VN": __version__}]}


def sam_references(named_lengths) -> list:
    """One ``@SQ`` record per reference: its id and length, first appearance first (SAM does
    not print the reference's letters, so none are kept).

    Parameters
    ----------
    named_lengths : iterable of (str, int)
        Each alignment's reference id and length; repeats are one reference.

    Raises
    ------
    InputError
        An id that names references of two lengths (SAM names a reference by its id).
    """
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    lengths: dict[str, int] = {}
    for name, length in named_lengths:
        if lengths.setdefault(name, length) != length:
            raise InputError(f"SAM names references by id: {name!r} is two sequences, of "
                             f"{lengths[name]} and {length} residues; give them distinct ids")
    # no description: Bio.Align would print an empty DS: field for ""
    return [SeqRecord(Seq(None, length=n), id=name) for name, n in lengths.items()]


def _references(results) -> list:
    """One ``@SQ`` record per database sequence with a hit, in database order."""
    first = {}
    for hits in results.hits:
        for hit in hits:
            first.setdefault(hit.subject, hit)
    return sam_references((first[k].subject_id, first[k].subject_length) for k in sorted(first))
