"""Scale-out on Dask distributed: huge all-vs-all and thousands of families.

One Dask worker per OpenCL device (:mod:`.cluster`: ``LocalCluster`` with one worker per local
GPU by default, or any cluster by address); tasks are tiles of the all-vs-all triangle
(:mod:`.pairwise`) or whole families (:mod:`.families`). Results stream to disk as tasks
finish, and a manifest (:mod:`.manifest`) lists what is complete, so a rerun resumes. Needs
the ``distributed`` extra (``pip install 'bioplug[distributed]'``); ``docs/distributed.md``
says how to start a cluster of GPU workers.
"""

from bioplug.distributed.cluster import Summary, connect, local_cluster
from bioplug.distributed.families import align_families
from bioplug.distributed.pairwise import all_vs_all, read_hits, read_scores

__all__ = ["Summary", "align_families", "all_vs_all", "connect", "local_cluster",
           "read_hits", "read_scores"]
