"""Scale-out on Dask distributed: huge all-vs-all, thousands of families, many queries.

One Dask worker per OpenCL device (:mod:`.cluster`: ``LocalCluster`` with one worker per local
GPU by default, or any cluster by address); tasks are tiles of the all-vs-all triangle
(:mod:`.pairwise`), whole families (:mod:`.families`) or blocks of a database search's queries
(:mod:`.search`). Results stream to disk as tasks
finish, and a manifest (:mod:`.manifest`) lists what is complete, so a rerun resumes. Needs
the ``distributed`` extra (``pip install 'bioplug[distributed]'``); ``docs/distributed.md``
says how to start a cluster of GPU workers.

The names load on first use: ``bioplug msa``, ``bioplug pairwise`` and ``bioplug search`` import
:mod:`bioplug.distributed.cli` for their ``--cluster`` option on every call.
"""

from __future__ import annotations

from bioplug._front_doors import front_doors

_FRONT_DOORS = {
    "Summary": "cluster",
    "connect": "cluster",
    "local_cluster": "cluster",
    "align_families": "families",
    "all_vs_all": "pairwise",
    "read_hits": "pairwise",
    "read_scores": "pairwise",
    "search_blocks": "search",
}

__all__ = sorted(_FRONT_DOORS)


__getattr__, __dir__ = front_doors(__name__, _FRONT_DOORS)
