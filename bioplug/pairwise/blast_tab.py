"""Search hits as text: BLAST tabular output with chosen columns, and a readable report.

The columns are BLAST+'s ``-outfmt "6 qseqid sseqid ..."`` names, which DIAMOND and
MMseqs2 also take, and ``outfmt 7`` writes BLAST+'s comment lines around each query's hits,
with the columns' long names on the ``# Fields:`` line. scikit-bio reads both back
(``skbio.io.read(path, format="blast+6", columns=[...], into=pandas.DataFrame)`` and
``format="blast+7"``). ``pair`` is a report for reading: each query's hits with their scores
and the alignment as Biopython prints a pairwise ``Alignment``.

Columns of a hit (:class:`bioplug.pairwise.search.Hit`), as BLAST+ defines them: positions are
1-based and inclusive; ``length`` counts the alignment's columns, gaps included; ``pident``
and ``ppos`` are percentages of ``length``; ``qcovhsp`` / ``scovhsp`` the percentage of the
query / subject within the alignment, a whole number as BLAST+ prints it (rounded below
99%, truncated above: 100 only for the whole sequence); ``positive`` counts aligned pairs
with a positive substitution score or one letter (BLAST+ counts an ``X``-``X`` pair of
negative score as positive); ``gaps`` counts gap columns and ``gapopen`` gap runs;
``btop`` is BLAST's traceback operations (runs of identities as numbers, other columns as
query-subject letter pairs).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bioplug.errors import InputError

#: BLAST+'s default columns (``-outfmt 6``, the keyword ``std``).
STD = ("qseqid", "sseqid", "pident", "length", "mismatch", "gapopen", "qstart", "qend",
       "sstart", "send", "evalue", "bitscore")


@dataclass(frozen=True)
class Column:
    """One tabular column: its BLAST+ name, the long name of outfmt 7's ``# Fields:`` line,
    and the text of a hit's value."""

    name: str
    title: str
    text: Callable


def format_evalue(e: float) -> str:
    """An E-value as BLAST+'s tabular output prints it (``0.0`` below 1e-180, three
    significant digits below 0.0009, then 0.005, 0.77, 1.7, 23); ``N/A`` without
    Karlin-Altschul parameters (the missing value scikit-bio's BLAST readers take)."""
    if math.isnan(e):
        return "N/A"
    if e < 1e-180:
        return "0.0"
    for below, text in ((0.0009, f"{e:.2e}"), (0.1, f"{e:.3f}"), (1.0, f"{e:.2f}"),
                        (10.0, f"{e:.1f}")):
        if e < below:
            return text
    return f"{e:.0f}"


def format_bits(b: float) -> str:
    """A bit score as BLAST+ prints it: one decimal up to 99.9, then whole (truncated), and
    in exponent form above 9999; ``N/A`` without Karlin-Altschul parameters."""
    if math.isnan(b):
        return "N/A"
    if b > 9999:
        return f"{b:.3e}"
    return str(int(b)) if b > 99.9 else f"{b:.1f}"


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _percent(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole else 0.0


def coverage(part: int, whole: int) -> str:
    """A coverage percentage as BLAST+ writes ``qcovhsp``: a whole number, rounded half up
    below 99 and truncated from 99 on, so that 100 means the whole sequence (199 of 200
    residues is 99, not 100)."""
    pct = _percent(part, whole)
    return str(int(pct + 0.5) if pct < 99 else int(pct))


#: Characters that would end a tabular field or line inside a title.
_BREAKS = str.maketrans(dict.fromkeys("\t\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029", " "))


def title_text(title: str | None) -> str:
    """A subject title as one tabular field: tabs and line breaks (a header's own tab would
    split the column, a stray carriage return the line) as spaces; ``N/A`` for an empty or
    unknown title, as BLAST+ writes one."""
    text = (title or "").translate(_BREAKS).strip()
    return text or "N/A"


def _frame(hit) -> str:
    """The subject's frame as BLAST+ prints it: -1 on the minus strand, else 1."""
    return "-1" if hit.strand == "minus" else "1"


def btop(qseq: str, sseq: str) -> str:
    """BLAST's traceback operations of an aligned pair of rows: a run of identical columns
    as its length, any other column as its query and subject letters ("7AG39-T5")."""
    out, run = [], 0
    for a, b in zip(qseq, sseq, strict=True):
        if a == b and a != "-":
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        out.append(a + b)
    if run:
        out.append(str(run))
    return "".join(out)


_COLUMNS = (
    Column("qseqid", "query id", lambda h, t: h.query_id),
    Column("sseqid", "subject id", lambda h, t: h.subject_id),
    Column("pident", "% identity", lambda h, t: f"{h.identity:.3f}"),
    Column("length", "alignment length", lambda h, t: str(h.length)),
    Column("mismatch", "mismatches", lambda h, t: str(h.mismatches)),
    Column("gapopen", "gap opens", lambda h, t: str(h.gap_opens)),
    Column("qstart", "q. start", lambda h, t: str(h.qstart)),
    Column("qend", "q. end", lambda h, t: str(h.qend)),
    Column("sstart", "s. start", lambda h, t: str(h.sstart)),
    Column("send", "s. end", lambda h, t: str(h.send)),
    Column("evalue", "evalue", lambda h, t: format_evalue(h.evalue)),
    Column("bitscore", "bit score", lambda h, t: format_bits(h.bits)),
    Column("score", "score", lambda h, t: _number(h.score)),
    Column("qlen", "query length", lambda h, t: str(h.query_length)),
    Column("slen", "subject length", lambda h, t: str(h.subject_length)),
    Column("nident", "identical", lambda h, t: str(h.nident)),
    Column("positive", "positives", lambda h, t: str(h.positives)),
    Column("gaps", "gaps", lambda h, t: str(h.gaps)),
    Column("ppos", "% positives", lambda h, t: f"{_percent(h.positives, h.length):.2f}"),
    Column("qcovhsp", "% query coverage per hsp",
           lambda h, t: coverage(h.qend - h.qstart + 1, h.query_length)),
    Column("scovhsp", "% subject coverage per hsp",
           lambda h, t: coverage(h.send - h.sstart + 1, h.subject_length)),
    Column("qseq", "query seq", lambda h, t: h.qseq),
    Column("sseq", "subject seq", lambda h, t: h.sseq),
    Column("btop", "BTOP", lambda h, t: btop(h.qseq, h.sseq)),
    Column("stitle", "subject title", lambda h, t: title_text(t.get(h.subject))),
    Column("sstrand", "subject strand", lambda h, t: h.strand),
    # As blastp and blastn print them for a database made without -parse_seqids (the
    # accession is the id), for one HSP a subject (coverage per subject is the HSP's), a
    # query read on its own strand (frame 1) and a subject on either (1 or -1; 1 for
    # proteins, as blastp prints it).
    Column("qacc", "query acc.", lambda h, t: h.query_id),
    Column("qaccver", "query acc.ver", lambda h, t: h.query_id),
    Column("sacc", "subject acc.", lambda h, t: h.subject_id),
    Column("saccver", "subject acc.ver", lambda h, t: h.subject_id),
    Column("sallseqid", "subject ids", lambda h, t: h.subject_id),
    Column("salltitles", "subject titles", lambda h, t: title_text(t.get(h.subject))),
    Column("qcovs", "% query coverage per subject",
           lambda h, t: coverage(h.qend - h.qstart + 1, h.query_length)),
    Column("qframe", "query frame", lambda h, t: "1"),
    Column("sframe", "sbjct frame", lambda h, t: _frame(h)),
    Column("frames", "query/sbjct frames", lambda h, t: f"1/{_frame(h)}"),
)
#: Columns of text (the others are numbers).
TEXT_COLUMNS = frozenset({"qseqid", "sseqid", "qseq", "sseq", "btop", "stitle", "sstrand",
                          "qacc", "qaccver", "sacc", "saccver", "sallseqid", "salltitles",
                          "frames"})
#: Every column by its BLAST+ name.
COLUMNS: dict[str, Column] = {c.name: c for c in _COLUMNS}


def parse_outfmt(text: str) -> tuple[int, tuple[str, ...]]:
    """``(6 or 7, columns)`` from BLAST+'s ``-outfmt`` text ("6 qseqid sseqid"); ``std``
    stands for :data:`STD`, and no column names for :data:`STD` alone.

    Raises
    ------
    InputError
        Another style than 6 or 7, or a column name BLAST+ or bioplug does not know.
    """
    tokens = text.split()
    if not tokens or tokens[0] not in ("6", "7"):
        got = tokens[0] if tokens else "nothing"
        raise InputError(f"--outfmt: {got!r} is not a tabular style: 6 (tab-separated "
                         "columns) or 7 (the same with BLAST+'s comment lines), then column "
                         "names, e.g. --outfmt '6 qseqid sseqid evalue'")
    return int(tokens[0]), check_columns(tokens[1:] or ["std"])


def check_columns(names: Iterable[str] | str) -> tuple[str, ...]:
    """Column names (a list, or one string of names as ``--outfmt`` takes them after its
    style: ``"qseqid sseqid evalue"``) with ``std`` expanded, each once, where it first comes
    (BLAST+ writes a repeated column once: ``"qseqid std evalue"`` is the twelve of
    ``std``); an unknown name is an :class:`InputError` that lists the known ones."""
    out: list[str] = []
    for name in names.split() if isinstance(names, str) else names:
        if name == "std":
            out.extend(STD)
        elif name in COLUMNS:
            out.append(name)
        else:
            raise InputError(f"--outfmt: unknown column {name!r}; known: std "
                             + " ".join(COLUMNS))
    return tuple(dict.fromkeys(out))


def tabular(results, columns: Sequence[str] = STD, comments: bool = False,
            database: str = "", version: str = "") -> str:
    """The hits of ``results`` (a :class:`~bioplug.pairwise.search.SearchResults`) as BLAST
    tabular lines in ``columns``; ``comments`` writes outfmt 7's lines around each query's
    hits (``# Fields:`` only where there are hits, as BLAST+ does)."""
    columns = check_columns(columns)
    titles = results.subject_titles() if {"stitle", "salltitles"} & set(columns) else {}
    chosen = [COLUMNS[c] for c in columns]
    fields = "# Fields: " + ", ".join(c.title for c in chosen) + "\n"
    lines: list[str] = []
    headers = getattr(results, "query_titles", None) or results.query_ids
    for header, hits in zip(headers, results.hits, strict=True):
        if comments:
            program = getattr(results, "program", "BLASTP")   # BLASTN for nucleotides
            lines.append(f"# {program}-style tabular output of bioplug search {version} "
                         "(exact Smith-Waterman)\n")
            lines.append(f"# Query: {title_text(header)}\n# Database: {database}\n")
            if hits:
                lines.append(fields)
            lines.append(f"# {len(hits)} hits found\n")
        lines.extend("\t".join(c.text(h, titles) for c in chosen) + "\n" for h in hits)
    if comments:
        lines.append(f"# bioplug processed {len(results.query_ids)} queries\n")
    return "".join(lines)


def report(results, database: str = "") -> str:
    """Each query's hits for reading: a summary line per hit, then each hit's scores and its
    alignment as Biopython prints a pairwise ``Alignment`` (0-based starts, query first)."""
    out: list[str] = []
    for query_id, hits in zip(results.query_ids, results.hits, strict=True):
        length = f"  length {hits[0].query_length}" if hits else ""
        out.append(f"Query: {query_id}{length}\n")
        out.append(f"Database: {database}\n")
        count = f"{len(hits)} hit" + ("s" if len(hits) > 1 else "")
        out.append(f"{count} (score, bits, E-value)\n" if hits else "No hits\n")
        width = max((len(h.subject_id) for h in hits), default=0)
        out.extend(f"  {h.subject_id:<{width}}  {_number(h.score):>6}  "
                   f"{format_bits(h.bits):>7}  {format_evalue(h.evalue)}\n" for h in hits)
        for h in hits:
            aligned = h.length - h.gaps
            out.append(f"\n> {h.subject_id}  length {h.subject_length}\n")
            out.append(f"  Score = {_number(h.score)}, bits = {format_bits(h.bits)}, "
                       f"E-value = {format_evalue(h.evalue)}\n")
            out.append(f"  Identities = {h.nident}/{h.length} ({h.identity:.1f}%), Positives "
                       f"= {h.positives}/{h.length} "
                       f"({_percent(h.positives, h.length):.1f}%), Gaps = {h.gaps}/{h.length} "
                       f"({_percent(h.gaps, h.length):.1f}%), aligned pairs {aligned}\n")
            strand = ", minus strand" if h.strand == "minus" else ""
            out.append(f"  Query {h.qstart}-{h.qend}, subject {h.sstart}-{h.send} "
                       f"(1-based{strand})\n\n")
            out.append(format(aligned_part(h)))
        out.append("\n" + "=" * 72 + "\n\n")
    return "".join(out)


def dataframe(results, columns: Sequence[str] = STD):
    """The hits as a ``pandas.DataFrame`` of ``columns``, typed as scikit-bio's ``blast+6``
    reader types them (numbers as float, missing E-values as NaN)."""
    import io

    import pandas as pd

    columns = check_columns(columns)
    dtypes = {c: str if c in TEXT_COLUMNS else float for c in columns}
    text = tabular(results, columns)
    if not text:
        return pd.DataFrame({c: pd.Series(dtype=dtypes[c]) for c in columns})
    return pd.read_csv(io.StringIO(text), sep="\t", header=None, names=list(columns),
                       na_values="N/A", keep_default_na=False, dtype=dtypes, quoting=3)


def aligned_part(hit):
    """The hit as a ``Bio.Align.Alignment`` of the query (first; on the reverse strand for
    a minus-strand hit, as Biopython represents one) and the subject, whose sequences hold
    only their aligned letters (partially defined ``Seq``)."""
    from Bio.Align import Alignment
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord

    stext = hit.sseq
    if hit.strand == "minus":   # the subject's letters as the database has them
        from Bio.Seq import reverse_complement

        stext = reverse_complement(stext)
    rows = [SeqRecord(Seq({start - 1: text.replace("-", "")}, length=length), id=name,
                      description="")
            for start, text, length, name in (
                (hit.qstart, hit.qseq, hit.query_length, hit.query_id),
                (min(hit.sstart, hit.send), stext, hit.subject_length, hit.subject_id))]
    alignment = Alignment(rows, hit.coordinates.copy())
    alignment.score = hit.score
    return alignment
