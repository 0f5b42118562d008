"""A neighbour-joining guide tree rooted at its midpoint, as a linkage, without scikit-bio.

The NJ candidate tree of small families was built as a ``skbio.TreeNode``, rooted with
``TreeNode.root_at_midpoint`` (scikit-bio 0.7) and read back into a linkage. Importing
scikit-bio cost 0.66 s of a ``bioplug msa --method progressive`` call, and 4-5 s where torch
and jax are installed (it loads them). Here the same steps run on a few arrays: scikit-bio's
longest tip-to-tip path (``maxdist``: a post-order pass; of equal distances the first child
wins), the climb from the farther tip, the new root on a branch or at a node, the re-rooting
(``unrooted_move``: each former parent becomes the last child), ``bifurcate`` (a node's last
child first, then a new node of the others) and the post-order linkage rows. Same operations
in the same order, so the same floating-point results (tested against scikit-bio).
"""

from __future__ import annotations

import numpy as np


class _Tree:
    """Nodes 0..k-1 are the tips; ``kids`` lists children in order; lengths may be None."""

    def __init__(self, size: int):
        self.parent: list[int | None] = [None] * size
        self.kids: list[list[int]] = [[] for _ in range(size)]
        self.length: list[float | None] = [None] * size

    def add(self, length: float | None = None, kids: list[int] | None = None) -> int:
        self.parent.append(None)
        self.kids.append([])
        self.length.append(length)
        node = len(self.parent) - 1
        for kid in kids or []:
            self.kids[node].append(kid)
            self.parent[kid] = node
        return node

    def postorder(self, root: int) -> list[int]:
        out, stack = [], [(root, False)]
        while stack:
            node, done = stack.pop()
            if done or not self.kids[node]:
                out.append(node)
            else:
                stack.append((node, True))
                stack.extend((kid, False) for kid in reversed(self.kids[node]))
        return out


def nj_midpoint_linkage(rows: np.ndarray, k: int) -> np.ndarray | None:
    """The (k-1, 4) linkage of the NJ tree ``rows`` (scikit-bio's ``_nj`` layout, negative
    lengths as zero) rooted at its midpoint; None where scikit-bio's climb passes the root."""
    tree, root = _unrooted(rows, k)
    root = _midpoint_root(tree, root)
    if root is None:
        return None
    _bifurcate(tree, root)
    while len(tree.kids[root]) == 1:
        root = tree.kids[root][0]
    return _linkage(tree, root, k)


def _unrooted(rows: np.ndarray, k: int) -> tuple[_Tree, int]:
    """scikit-bio's NJ tree: one node per join, the last three nodes under a trifurcation."""
    tree = _Tree(k)

    def join(kids, lengths):
        node = tree.add(kids=[int(c) for c in kids])
        for kid, value in zip(tree.kids[node], lengths, strict=True):
            tree.length[kid] = float(value) if value >= 0 else 0.0
        return node

    for c1, c2, l1, l2 in rows[:-2]:
        join((c1, c2), (l1, l2))
    (c0, _, l0, _), (c1, c2, l1, l2) = rows[-1], rows[-2]
    return tree, join((c0, c1, c2), (l0, l1, l2))


def _farthest_tips(tree: _Tree, root: int) -> tuple[float, int | None, int | None]:
    """``TreeNode.maxdist``: the longest tip-to-tip distance and its two tips."""
    best: dict[int, tuple] = {}
    for node in tree.postorder(root):
        kids = tree.kids[node]
        if not kids:
            best[node] = (0, node, 0, None, None)
            continue
        ups = [(best[c][0] + (tree.length[c] or 0.0), best[c][1]) for c in kids]
        ups.sort(key=lambda u: u[0], reverse=True)
        inner = max((best[c][2:] for c in kids), key=lambda u: u[0])
        if len(kids) > 1 and (across := ups[0][0] + ups[1][0]) > inner[0]:
            best[node] = (ups[0][0], ups[0][1], across, ups[0][1], ups[1][1])
        else:
            best[node] = (ups[0][0], ups[0][1], *inner)
    return best[root][2:]


def _path_up(tree: _Tree, node: int) -> list[int]:
    path = [node]
    while tree.parent[path[-1]] is not None:
        path.append(tree.parent[path[-1]])
    return path


def _midpoint_root(tree: _Tree, root: int) -> int | None:
    """``TreeNode.root_at_midpoint``: the new root (a node, or one put on a branch)."""
    longest, tip1, tip2 = _farthest_tips(tree, root)
    if longest == 0.0:
        return root
    half = longest / 2.0
    up2 = set(_path_up(tree, tip2))
    below = []                                    # tip1's path up to, not with, the LCA
    for node in _path_up(tree, tip1):
        if node in up2:
            break
        below.append(node)
    climb = tip1 if sum(tree.length[x] or 0.0 for x in below) > half else tip2
    climbed = 0.0
    while True:
        if tree.length[climb] is None:            # scikit-bio fails here (None + float)
            return None
        if (step := climbed + tree.length[climb] or 0.0) >= half:
            break
        climbed, climb = step, tree.parent[climb]
    if (climbed + tree.length[climb] or 0.0) == half:
        new = tree.parent[climb]
    else:
        new = _insert_above(tree, climb, half - climbed)
    _reroot(tree, new)
    return new


def _insert_above(tree: _Tree, node: int, distance: float) -> int:
    """``TreeNode.insert``: a new node on ``node``'s branch, ``distance`` above it."""
    parent = tree.parent[node]
    new = tree.add(length=tree.length[node] - distance)
    tree.kids[parent][tree.kids[parent].index(node)] = new
    tree.parent[new] = parent
    tree.kids[new].insert(0, node)
    tree.parent[node] = new
    tree.length[node] = distance
    return new


def _reroot(tree: _Tree, new: int) -> None:
    """``TreeNode.unrooted_move``: former parents become last children, branches kept."""
    path = _path_up(tree, new)                    # new, its parent, ..., the old root
    lengths = [tree.length[x] for x in path]
    for child, parent in zip(path, path[1:], strict=False):
        tree.kids[parent].remove(child)
        tree.kids[child].append(parent)
    for i, node in enumerate(path):
        tree.parent[node] = path[i - 1] if i else None
        tree.length[node] = lengths[i - 1] if i else None


def _bifurcate(tree: _Tree, root: int) -> None:
    """``TreeNode.bifurcate``: children [c1..cm] become [cm, new node of c1..c(m-1)]."""
    stack = [root]
    while stack:
        node = stack.pop()
        kids = tree.kids[node]
        if len(kids) > 2:
            last = kids[-1]
            inner = tree.add(kids=kids[:-1])
            tree.parent[inner] = node
            tree.kids[node] = [last, inner]
        stack.extend(tree.kids[node])


def _linkage(tree: _Tree, root: int, k: int) -> np.ndarray:
    """Post-order rows (id1, id2, height, size); a node's height is the larger of its
    children's heights plus twice their branch (``bioplug.msa.skbio_api._tree_to_linkage``)."""
    ids, height, size = {}, {}, {}
    rows = []
    for node in tree.postorder(root):
        if not tree.kids[node]:
            ids[node], height[node], size[node] = node, 0.0, 1
            continue
        a, b = tree.kids[node]
        h = max(height[a] + 2 * (tree.length[a] or 0.0), height[b] + 2 * (tree.length[b] or 0.0))
        rows.append([min(ids[a], ids[b]), max(ids[a], ids[b]), h, size[a] + size[b]])
        ids[node], height[node], size[node] = k + len(rows) - 1, h, size[a] + size[b]
    return np.array(rows, dtype=np.float64).reshape(-1, 4)
