"""Jobs ▸ Database search…: the open (or selected) sequences against a FASTA database.

An exact Smith-Waterman search (:func:`bioplug.pairwise.search.search`) on the chosen device:
the database is indexed beside its file on first use, as ``bioplug search`` does. The hits of
every query, with their scores, E-values and alignments as Biopython prints them
(:meth:`~bioplug.pairwise.search.SearchResults.report`), go to the Pairwise tab, where the
pairwise jobs' reports go.
"""

from __future__ import annotations

from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from PySide6.QtWidgets import QFileDialog, QInputDialog

from bioplug.errors import InputError

#: Hits kept per query unless another number is chosen.
DEFAULT_TOP = 10
#: BLAST's gap costs for the default matrices (a gap of length k: open + k * extend).
GAP_COSTS = {"BLOSUM62": (11, 1), "NUC.4.4": (10, 2)}


def search_task(records: list[SeqRecord], database: str, device: str | None, top: int,
                matrix: str):
    """The job: ``fn(progress) -> (SearchResults, database)`` (progress per database chunk;
    returning False cancels)."""
    gap_open, gap_extend = GAP_COSTS.get(matrix, (11, 1))

    def fn(progress):
        from bioplug.pairwise.search import search

        results = search(records, database, matrix=matrix, gap_open=gap_open,
                         gap_extend=gap_extend, top=top, device=device, progress=progress)
        return results, database

    return fn


def query_records(window) -> list[SeqRecord]:
    """The highlighted rows, or every open sequence, without gaps (ids kept)."""
    data = window.data
    rows = window.alignment_view.selected_rows() or list(range(len(data.records)))
    out = []
    for r in rows:
        text = str(data.records[r].seq).replace("-", "").replace(".", "")
        if text:
            out.append(SeqRecord(Seq(text), id=data.names[r], description=""))
    if not out:
        raise InputError("no sequence to search with (the selected rows hold only gaps)")
    return out


def run_search(window, database: str, top: int = DEFAULT_TOP, matrix: str | None = None):
    """Search the selected (else all) open sequences against ``database``; the report goes
    to the Pairwise tab."""
    from .jobs import default_matrix

    if window._need_data(1) is None:
        return None
    records = query_records(window)
    matrix = matrix or default_matrix(records)

    def done(result) -> None:
        results, path = result
        hits = sum(len(h) for h in results.hits)
        window.pair_text.setPlainText(results.report(database=path))
        window.tabs.setCurrentWidget(window.pair_text)
        window.statusBar().showMessage(f"{hits} hits for {len(records)} queries in {path} "
                                       f"(E-values: {results.statistics})", 15000)

    return window._start_job("Database search",
                             search_task(records, database, window.device, top, matrix), done)


def ask_search(window) -> None:
    """Choose a FASTA database and the hits per query, then :func:`run_search`."""
    if window._need_data(1) is None:
        return
    path, _ = QFileDialog.getOpenFileName(window, "Database to search", "",
                                          "FASTA (*.fa *.fasta *.faa *.fna *.fas *.gz);;"
                                          "All files (*)")
    if not path:
        return
    top, ok = QInputDialog.getInt(window, "Database search", "Hits per query:", DEFAULT_TOP,
                                  1, 10_000)
    if ok:
        run_search(window, path, top)
