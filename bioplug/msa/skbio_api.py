"""``multi_align`` with scikit-bio 0.7.4's signature, computed by the QuickProbs pipeline.

scikit-bio's ``multi_align`` is a score-based progressive aligner; this one keeps its arguments
and its return type (``MultiAlignResult(path, tree, distmat)``) but aligns with QuickProbs'
probabilistic model. ``sub_score``, ``gap_cost``, ``free_ends`` and ``atol`` parametrise
scikit-bio's scoring model and have no QuickProbs counterpart: they are accepted and ignored
(logged at DEBUG). The distance matrix is QuickProbs' 1 - (gap-free posterior score) / min length
and the tree its UPGMA guide tree (branch lengths = half the height differences).
"""

from __future__ import annotations

import logging
from collections import Counter

import numpy as np

from bioplug.alignio import listed
from bioplug.errors import InputError

log = logging.getLogger(__name__)


def _ids(sequences, ids) -> list[str]:
    if ids is not None:
        ids = [str(i) for i in ids]
        if len(ids) != len(sequences):
            raise InputError("ids must have one entry per sequence")
        if len(set(ids)) != len(ids):
            raise InputError("ids must be unique")
        return ids
    meta = []
    for s in sequences:
        m = getattr(s, "metadata", None)
        meta.append(m.get("id") if isinstance(m, dict) else None)
    if all(m is not None for m in meta) and len(set(meta)) == len(meta):
        return [str(m) for m in meta]
    return [str(i) for i in range(len(sequences))]


def _tree_to_linkage(tree, ids: list[str]) -> np.ndarray:
    """A scipy linkage from a bifurcating skbio.TreeNode whose tips are ``ids``."""
    index = {name: i for i, name in enumerate(ids)}
    check_tips([t.name for t in tree.tips()], ids)
    k = len(ids)
    rows, node_id, height, size = [], {}, {}, {}
    for node in tree.postorder(include_self=True):
        if node.is_tip():
            node_id[id(node)] = index[node.name]
            height[id(node)] = 0.0
            size[id(node)] = 1
            continue
        if len(node.children) != 2:
            raise InputError("guide_tree must be strictly bifurcating")
        a, b = node.children
        h = max(height[id(a)] + 2 * (a.length or 0.0), height[id(b)] + 2 * (b.length or 0.0))
        ia, ib = node_id[id(a)], node_id[id(b)]
        rows.append([min(ia, ib), max(ia, ib), h, size[id(a)] + size[id(b)]])
        node_id[id(node)] = k + len(rows) - 1
        height[id(node)] = h
        size[id(node)] = size[id(a)] + size[id(b)]
    return np.array(rows, dtype=np.float64).reshape(-1, 4)


def check_tips(tips: list, ids: list[str]) -> None:
    """Check that a guide tree's tips are the sequence ids, each once.

    Raises
    ------
    InputError
        Naming the sequences the tree lacks, the tips that are no sequence id and the tips
        named more than once (the first five of each).
    """
    tips = ["" if t is None else str(t) for t in tips]
    if sorted(tips) == sorted(ids):
        return
    names, count = set(ids), Counter(tips)
    problems = {
        "sequences missing from the tree": [i for i in ids if i not in count],
        "tips that are no sequence id": sorted(t for t in count if t not in names),
        "tips named more than once": sorted(t for t, n in count.items() if n > 1),
    }
    raise InputError("guide tree tips must be the sequence ids, each once: " + "; ".join(
        f"{what} ({len(found)}): {_first_names(found)}" for what, found in problems.items()
        if found))


def _first_names(names: list[str], show: int = 5) -> str:
    shown = ", ".join(repr(n) for n in names[:show])
    return shown + (f", ... ({len(names) - show} more)" if len(names) > show else "")


def _linkage_to_tree(link: np.ndarray, ids: list[str]):
    from skbio import TreeNode

    k = len(ids)
    nodes = [TreeNode(name=n) for n in ids]
    heights = [0.0] * k
    for c1, c2, h, _ in link:
        parent = TreeNode()
        for c in (int(c1), int(c2)):
            nodes[c].length = max(float(h) / 2 - heights[c] / 2, 0.0)
            parent.append(nodes[c])
        nodes.append(parent)
        heights.append(float(h))
    return nodes[-1]


def multi_align(sequences, /, sub_score=(1.0, -1.0), gap_cost=2.0, free_ends=True,
                guide_tree=None, ids=None, atol=1e-5, keep_tree=False, keep_distmat=False,
                *, consistency: int = 2, refinement: int = 10, accurate: bool = False,
                seed: int = 0, device=None):
    """QuickProbs multiple alignment with :func:`skbio.alignment.multi_align`'s interface.

    Parameters
    ----------
    sequences : iterable of skbio.Sequence or str
        Ungapped protein sequences (at least two).
    sub_score, gap_cost, free_ends, atol
        Accepted for compatibility, ignored (QuickProbs has its own model).
    guide_tree : skbio.TreeNode, optional
        Bifurcating tree with tips named by ``ids``; replaces the UPGMA guide tree.
    ids : iterable of str, optional
        Sequence identifiers (default: metadata ``'id'`` when present and unique, else
        ``'0'``, ``'1'``, ...).
    keep_tree, keep_distmat : bool
        Return the guide tree / the distance matrix as well.
    consistency, refinement, accurate, seed, device
        QuickProbs settings (see :class:`bioplug.msa.aligner.MultipleSequenceAligner`).

    Returns
    -------
    skbio.alignment._multi.MultiAlignResult
        ``(path, tree, distmat)`` with ``path`` an ``AlignPath`` in input order.
    """
    from skbio import DistanceMatrix
    from skbio.alignment import AlignPath
    from skbio.alignment._multi import MultiAlignResult

    from bioplug.msa import pipeline
    from bioplug.msa.model import encode, load_model, resolve_seqtype

    sequences = listed(sequences)   # an alignment's rows at once: refused without delay
    if len(sequences) < 2:
        raise InputError("multi_align needs at least two sequences")
    log.debug("multi_align: sub_score=%r gap_cost=%r free_ends=%r atol=%r are not used by "
              "QuickProbs", sub_score, gap_cost, free_ends, atol)
    names = _ids(sequences, ids)
    texts = [str(s) for s in sequences]
    for name, t in zip(names, texts, strict=True):
        if not t:
            raise InputError(f"{name}: empty sequence")
        if "-" in t or "." in t:
            raise InputError(f"{name}: sequences must be ungapped")
    seqtype = resolve_seqtype(texts, names=names)
    model = load_model(seqtype)
    for name, t in zip(names, texts, strict=True):
        encode(t, name, model)
    link = _tree_to_linkage(guide_tree, names) if guide_tree is not None else None
    result = pipeline.run(texts, names, consistency=consistency, refinement=refinement,
                          accurate=accurate, seed=seed, device=device, link=link,
                          seqtype=seqtype)
    path = AlignPath.from_aligned(result.rows)
    tree = _linkage_to_tree(result.link, names) if keep_tree else None
    distmat = None
    if keep_distmat and guide_tree is None:
        if result.dist is None:  # anchor mode's tree came from alignment distances
            from bioplug.progressive.guide import alignment_distances

            result.dist = alignment_distances(texts, seqtype != "protein", device)
        dm = np.asarray(result.dist, dtype=np.float64)
        dm = np.maximum((dm + dm.T) / 2, 0.0)
        np.fill_diagonal(dm, 0.0)
        distmat = DistanceMatrix(dm, names)
    return MultiAlignResult(path, tree, distmat)
