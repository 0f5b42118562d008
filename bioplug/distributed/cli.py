"""``--cluster [ADDRESS]`` for ``bioplug pairwise --all-vs-all``, ``bioplug msa --outdir`` and
``bioplug search``.

Without ADDRESS a local cluster is started (one worker per GPU, or one on the default
device; ``--device`` picks the device instead); with one, the job runs on that Dask
scheduler's workers. Either is connected only when the job has work left (a rerun of a
finished job starts no cluster), and the dashboard link is written to standard error then,
while the cluster runs the job. The progress bar counts tiles or families.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable

from bioplug.errors import InputError

log = logging.getLogger(__name__)


def add_cluster_option(p: argparse.ArgumentParser, pairwise: bool = False) -> None:
    """``--cluster [ADDRESS]`` (and ``--top`` / ``--tile`` for the all-vs-all)."""
    g = p.add_argument_group("Dask cluster (pip install 'bioplug[distributed]')")
    g.add_argument("--cluster", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="run on a Dask cluster: a scheduler address (tcp://host:8786), or "
                        "none for a local cluster of one worker per GPU; the output is a "
                        "folder, and a rerun resumes")
    if pairwise:
        g.add_argument("--top", type=int, default=None, metavar="K",
                       help="with --cluster: keep the K best hits per sequence (Parquet) "
                            "instead of the whole matrix (Zarr)")
        g.add_argument("--tile", type=int, default=None, metavar="N",
                       help="with --cluster: sequences per tile side (default: from the "
                            "workers' device memory)")


def _client(args) -> Callable:
    """The job's ``client``: a function that :func:`bioplug.distributed.cluster.connect`
    calls once the job knows it has work, and that says where its dashboard is."""
    _dask_messages(bool(getattr(args, "verbose", 0)))

    def start():
        if args.cluster == "local":
            from bioplug.distributed.cluster import local_cluster

            made = local_cluster(devices=[args.device] if args.device else None)
        else:
            from distributed import Client

            made = Client(args.cluster)
        _show_dashboard(made, args)
        return made

    return start


def _show_dashboard(made, args) -> None:
    """The dashboard link, unless -q, -v (connect logs it), or it leads nowhere useful: a
    local scheduler without bokeh serves only a page asking to install it."""
    link = made.dashboard_link
    if not link or getattr(args, "quiet", False) or getattr(args, "verbose", 0):
        return
    from bioplug.distributed.cluster import has_bokeh

    if args.cluster == "local" and not has_bokeh():
        log.debug("no Dask dashboard: bokeh is not installed")
        return
    sys.stderr.write(f"Dask dashboard: {link}\n")


def _dask_messages(verbose: bool) -> None:
    """Dask's INFO lines (scheduler and workers started, ...) only with ``-v``, as bioplug's
    own: its logging config sets them at import, in this process and in every worker's, so
    the level goes in through its config variable (inherited by the workers) and onto the
    logger once Dask is imported. A level the user set in that variable is kept."""
    level = "info" if verbose else "warning"
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", level)
    import distributed  # noqa: F401 - its import applies Dask's logging config

    logging.getLogger("distributed").setLevel(
        os.environ["DASK_LOGGING__DISTRIBUTED"].upper())


def _announce(summary, what: str) -> None:
    log.info("%s: %d %s computed, %d already complete", summary.out, summary.computed, what,
             summary.skipped)


def run_pairwise(args, aligner, records, records2, bar) -> int:
    """``bioplug pairwise IN --all-vs-all --cluster [ADDRESS] -o FOLDER``."""
    from bioplug.distributed import all_vs_all

    if not args.all_vs_all or records2 is not None:
        raise InputError("--cluster runs the all-vs-all of one file (IN --all-vs-all)")
    if args.output in (None, "-"):
        raise InputError("--cluster writes a folder (its parts stream there from the "
                         "workers): give -o FOLDER, not standard output")
    try:
        summary = all_vs_all(records, args.output, aligner=aligner, top=args.top,
                             tile=args.tile, client=_client(args), progress=bar)
    finally:
        bar.close()
    _announce(summary, "tasks")
    return 0


def run_msa(args, bar) -> int:
    """``bioplug msa IN... --outdir DIR --cluster [ADDRESS]``."""
    from bioplug.distributed import align_families

    if args.outdir is None:
        raise InputError("--cluster writes one file per family: use --outdir DIR")
    if args.guide_tree or args.tree_out:
        raise InputError("--guide-tree and --tree-out name one family's tree: not with "
                         "--cluster")
    from bioplug.msa.cli import QUICKPROBS_CONSISTENCY

    consistency = QUICKPROBS_CONSISTENCY if args.consistency is None else args.consistency
    turn = getattr(args, "adjust_direction", False)
    quickprobs = {"consistency": consistency, "accurate": args.accurate,
                  "refinement": 10 if args.refinement is None else args.refinement,
                  "seed": args.seed, "seqtype": args.seqtype, "adjust_direction": turn}
    progressive = {"matrix": args.matrix, "gap_open": args.gap_open,
                   "gap_extend": args.gap_extend, "end_gap_open": args.end_gap_open,
                   "end_gap_extend": args.end_gap_extend, "shift": args.shift,
                   "seqtype": args.seqtype, "distances": "ktuple" if args.ktuple else "auto",
                   "refinement": args.refinement, "seed": args.seed,
                   "adjust_direction": turn}
    try:
        summary = align_families(args.input, args.outdir, args.method, format=args.format,
                                 client=_client(args), keep_going=args.keep_going,
                                 progress=bar, options=quickprobs,
                                 progressive_options=progressive,
                                 order=getattr(args, "output_order", "input"))
    finally:
        bar.close()
    _announce(summary, "families")
    return 2 if summary.failed else 0


def run_search(args, fmt: str, bar) -> int:
    """``bioplug search QUERIES DATABASE -o FOLDER --cluster [ADDRESS]``."""
    from bioplug.distributed import search_blocks

    if fmt == "sam":
        raise InputError("--cluster writes BLAST tabular output or the pair report, not SAM "
                         "(its header lists the references of every block)")
    if args.output in (None, "-"):
        raise InputError("--cluster writes a folder (its parts stream there from the "
                         "workers): give -o FOLDER, not standard output")
    options = {"matrix": args.matrix, "gap_open": args.gap_open, "gap_extend": args.gap_extend,
               "top": args.top, "evalue": args.evalue, "statistics": args.statistics,
               "old_fsc": args.old_fsc,
               "strand": args.strand}
    try:
        summary = search_blocks(args.queries, args.database, args.output,
                                outfmt=args.outfmt or "6", fmt=fmt, client=_client(args),
                                progress=bar, **options)
    finally:
        bar.close()
    _announce(summary, "query blocks")
    return 0
