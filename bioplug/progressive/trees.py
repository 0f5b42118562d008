"""Guide trees in and out: Newick / skbio / Bio.Phylo trees to linkage arrays and back."""

from __future__ import annotations

import io
import os

import numpy as np

from bioplug.errors import InputError
from bioplug.tree.newick import newick_label


def linkage_from_tree(tree, ids: list[str]) -> np.ndarray:
    """A (k-1, 4) linkage array from a user's guide tree whose tips are ``ids``.

    Accepts a linkage array, Newick text, a Newick file path, ``skbio.TreeNode`` or a
    ``Bio.Phylo`` tree. Multifurcations are resolved into pairs (as ClustalW reads them).

    Raises
    ------
    InputError
        The tree is not Newick, or its tips are not ``ids`` each once (the message names
        the file, the missing sequences, the unknown and the repeated tips).
    """
    if isinstance(tree, np.ndarray):
        return checked_linkage(tree, len(ids))
    from skbio import TreeNode

    from bioplug.msa.skbio_api import _tree_to_linkage

    path = None
    if isinstance(tree, os.PathLike) or (isinstance(tree, str) and not tree.strip().endswith(";")):
        path = os.fspath(tree)
        with open(tree) as handle:
            tree = handle.read()
    if not isinstance(tree, (str, TreeNode)):      # Bio.Phylo
        from Bio import Phylo

        text = io.StringIO()
        Phylo.write(tree, text, "newick")
        tree = text.getvalue()
    if isinstance(tree, str):
        tree = read_newick(tree, "guide tree" if path is None else f"guide tree {path}")
    tree = tree.copy()
    tree.bifurcate()
    while len(tree.children) == 1:                  # a root with one child adds nothing
        tree = tree.children[0]
    try:
        return _tree_to_linkage(tree, ids)
    except InputError as exc:
        raise InputError(str(exc) if path is None else f"{path}: {exc}") from exc


def read_newick(text: str, source: str = "guide tree"):
    """An ``skbio.TreeNode`` from Newick text; ids such as sp_P12345 keep their underscores
    (Newick's rule would make them spaces).

    Raises
    ------
    InputError
        ``source`` is empty or not Newick (scikit-bio's reason kept).
    """
    import warnings

    from skbio import TreeNode
    from skbio.io import NewickFormatError

    if not text.strip():
        raise InputError(f"{source} is empty (Newick text expected, ending in ';')")
    try:
        with warnings.catch_warnings():     # skbio's sniffer warns before its own error
            warnings.simplefilter("ignore")
            return TreeNode.read(io.StringIO(text), format="newick", convert_underscores=False)
    except NewickFormatError as exc:
        raise InputError(f"{source} is not a Newick tree: {exc}") from exc


def checked_linkage(link, k: int) -> np.ndarray:
    """A linkage array after checking that it is a tree: row t joins two nodes made before
    it (leaves 0..k-1, row r makes node k + r), each used once."""
    link = np.asarray(link, dtype=np.float64)
    if link.shape != (k - 1, 4):
        raise InputError(f"a linkage guide tree for {k} sequences has shape ({k - 1}, 4), "
                         f"not {link.shape}")
    kids = link[:, :2]
    if not np.array_equal(kids, np.round(kids)):
        raise InputError("linkage guide tree: node ids must be whole numbers")
    kids = kids.astype(np.int64)
    made = k + np.arange(k - 1)
    bad = ((kids < 0) | (kids >= made[:, None])).any(axis=1) | (kids[:, 0] == kids[:, 1])
    if bad.any():
        t = int(np.flatnonzero(bad)[0])
        raise InputError(f"linkage guide tree: row {t} joins {kids[t].tolist()}, but only "
                         f"nodes below {k + t} exist then")
    counts = np.bincount(kids.ravel(), minlength=2 * k - 1)
    if (counts[: 2 * k - 2] != 1).any():
        node = int(np.flatnonzero(counts[: 2 * k - 2] != 1)[0])
        raise InputError(f"linkage guide tree: node {node} is joined "
                         f"{int(counts[node])} times (every node but the root exactly once)")
    return link


def newick_from_linkage(link: np.ndarray, ids: list[str]) -> str:
    """Rooted Newick of a linkage array; branch lengths are half the height differences."""
    k = len(ids)
    if k == 1:
        return f"{newick_label(ids[0])};"
    height = np.zeros(2 * k - 1)
    height[k:] = link[:, 2]
    parts: list[str] = []
    # iterative depth-first walk: deep (chain-like) trees must not hit the recursion limit
    stack: list[tuple[int, float, int]] = [(2 * k - 2, -1.0, 0)]
    while stack:
        node, parent_h, state = stack.pop()
        if node < k:
            parts.append(f"{newick_label(ids[node])}:{max(parent_h - height[node], 0) / 2:.6g}")
            continue
        c1, c2 = (int(v) for v in link[node - k, :2])
        if state == 0:
            parts.append("(")
            stack.append((node, parent_h, 1))
            stack.append((c1, height[node], 0))
        elif state == 1:
            parts.append(",")
            stack.append((node, parent_h, 2))
            stack.append((c2, height[node], 0))
        else:
            length = f":{max(parent_h - height[node], 0) / 2:.6g}" if parent_h >= 0 else ""
            parts.append(")" + length)
    return "".join(parts) + ";"
