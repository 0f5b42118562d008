"""Tree edits as pure functions on ``skbio.TreeNode`` (no Qt): reroot, ladderize, clades.

Every function returns a new tree and leaves its argument alone, so the views can keep the
tree they drew until the new one is ready. Bootstrap support (``TreeNode.support``, set by
:func:`bioplug.tree.bootstrap`) belongs to a branch, not a node: rerooting passes
``branch_attrs=["support"]`` so each value stays on its branch when edges flip direction.
"""

from __future__ import annotations

from collections.abc import Iterable

from bioplug.errors import InputError

#: Branch attributes carried along when a tree is rerooted.
BRANCH_ATTRS = ["support"]


def midpoint_root(tree):
    """The tree rooted halfway along its longest tip-to-tip path.

    Parameters
    ----------
    tree : skbio.TreeNode

    Returns
    -------
    skbio.TreeNode
        A rerooted copy; support values stay on their branches.
    """
    if tree.count(tips=True) < 3:
        return tree.copy()
    return tree.root_at_midpoint(branch_attrs=BRANCH_ATTRS, reset=True)


def root_on_branch(tree, leaves: Iterable[str]):
    """The tree rooted on the branch above the smallest clade holding ``leaves``.

    Parameters
    ----------
    tree : skbio.TreeNode
    leaves : iterable of str
        Leaf names; their lowest common ancestor's branch gets the root (halfway along it).

    Returns
    -------
    skbio.TreeNode
        A rerooted copy; support values stay on their branches.

    Raises
    ------
    InputError
        No leaf named, an unknown name, or the clade is the whole tree.
    """
    node = clade_of(tree, leaves)
    if node.is_root():
        raise InputError("the selection spans the whole tree: pick a smaller clade")
    path = _path_from_root(node)
    copy = tree.copy()
    target = _follow(copy, path)
    # skbio >= 0.6.2 reads a number ``above`` as a distance from the node (0.5 raised on
    # branches shorter than that and missed the middle of longer ones); True is the midpoint,
    # and also works for branches without a length.
    return copy.root_at(target, above=True, branch_attrs=BRANCH_ATTRS, reset=True)


def clade_of(tree, leaves: Iterable[str]):
    """The lowest common ancestor of the named leaves (a node of ``tree`` itself)."""
    names = list(dict.fromkeys(leaves))
    if not names:
        raise InputError("select one or more leaves first")
    tips = {t.name: t for t in tree.tips()}
    missing = [n for n in names if n not in tips]
    if missing:
        raise InputError(f"no leaf called {missing[0]!r} in the tree")
    if len(names) == 1:
        return tips[names[0]]
    return tree.lca([tips[n] for n in names])


def ladderize(tree, ascending: bool = True):
    """Children ordered by clade size (smallest first, or last with ``ascending=False``),
    ties kept in their order, so the drawing reads as a ladder (as in Jalview / FigTree)."""
    copy = tree.copy()
    size: dict[int, int] = {}
    for node in copy.postorder(include_self=True):
        size[id(node)] = 1 if node.is_tip() else sum(size[id(c)] for c in node.children)
    for node in copy.non_tips(include_self=True):
        kids = list(node.children)
        kids.sort(key=lambda c: size[id(c)], reverse=not ascending)
        node.children = []
        for child in kids:
            child.parent = None
            node.append(child)
    return copy


def leaf_order(tree, collapsed: set[int] | frozenset = frozenset()) -> list[str]:
    """Leaf names from top to bottom as :class:`~bioplug.gui.tree_view.TreeView` draws them
    (every leaf, collapsed clades included, in their place)."""
    del collapsed  # collapsing hides leaves in the drawing only, never reorders them
    return [t.name for t in tree.tips()]


def clade_key(node) -> frozenset[str]:
    """A clade's identity: the names of its leaves (the same whatever the tree's root, child
    order or node objects, so it survives reroot and ladderize)."""
    return frozenset(t.name for t in node.tips(include_self=True))


def find_clades(tree, clades: Iterable[frozenset[str]]) -> tuple[list, list[frozenset[str]]]:
    """The nodes of ``tree`` whose leaf sets are ``clades``, and the clades it lacks.

    Parameters
    ----------
    tree : skbio.TreeNode
    clades : iterable of frozenset of str
        Leaf-name sets (:func:`clade_key`).

    Returns
    -------
    found : list of skbio.TreeNode
        One node per clade the tree has, in the order given.
    missing : list of frozenset of str
        Clades that are no clade of ``tree`` (a reroot inside one splits it).
    """
    wanted = list(dict.fromkeys(clades))
    index: dict[frozenset[str], object] = {}
    below: dict[int, frozenset[str]] = {}
    for node in tree.postorder(include_self=True):  # leaf sets bottom-up: O(n) merges
        key = frozenset([node.name]) if node.is_tip() else \
            frozenset().union(*(below[id(c)] for c in node.children))
        below[id(node)] = key
        index.setdefault(key, node)  # a one-child node shares its child's set: keep the lower
    found = [index[c] for c in wanted if c in index]
    missing = [c for c in wanted if c not in index]
    return found, missing


def support_values(tree) -> dict[str, float]:
    """``{"leaf1,leaf2,...": support}`` for every branch with support (sorted leaf names
    identify a clade whatever the tree's root or order; tests compare trees with it)."""
    out = {}
    for node in tree.non_tips(include_self=False):
        value = getattr(node, "support", None)
        if value is not None:
            out[",".join(sorted(t.name for t in node.tips()))] = float(value)
    return out


def _path_from_root(node) -> list[int]:
    """Child indices from the root down to ``node``."""
    path = []
    while node.parent is not None:
        path.append(node.parent.children.index(node))
        node = node.parent
    return path[::-1]


def _follow(tree, path: list[int]):
    node = tree
    for k in path:
        node = node.children[k]
    return node


def tree_view_text(value) -> str:
    """A support value as the views write it (``87``, ``87.5``)."""
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.1f}"
