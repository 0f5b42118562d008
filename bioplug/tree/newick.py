"""Newick labels as readers give them back (Bio.Phylo, scikit-bio): standard library only, so
that the progressive pipeline's tree writer can use it without importing Bio.Phylo."""

from __future__ import annotations

#: Characters that make a Newick label quoted: Newick's operators, the quote itself and
#: white space (an unquoted ``_`` reads as a space).
_NEWICK_QUOTED = frozenset(",:_;()[]' \t\r\n")


def newick_label(label: str) -> str:
    """A Newick label as readers give it back: quoted (``'`` doubled inside) when it holds an
    operator, a quote, white space or ``_``; as it is otherwise."""
    if _NEWICK_QUOTED.isdisjoint(label):
        return label
    return "'" + label.replace("'", "''") + "'"
