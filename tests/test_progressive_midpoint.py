"""The NJ guide tree rooted at its midpoint without scikit-bio (bioplug.progressive.midpoint)
against scikit-bio's own rooting (TreeNode.root_at_midpoint) read back into a linkage."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bioplug.progressive.midpoint import nj_midpoint_linkage

skbio = pytest.importorskip("skbio")


def skbio_linkage(rows, k):
    """What nj_tree computed before: scikit-bio's tree, rooting and bifurcation."""
    from skbio.tree import TreeError

    from bioplug.progressive.trees import linkage_from_tree
    from bioplug.tree.build import treenode_from_nj

    names = [str(i) for i in range(k)]
    try:
        rooted = treenode_from_nj(rows, names).root_at_midpoint()
    except (TreeError, TypeError, AttributeError):
        return None
    return linkage_from_tree(rooted, names)


@st.composite
def nj_rows(draw):
    """Random joins in scikit-bio's _nj layout: (c1, c2, length1, length2) per join, the
    last row naming the third node under the root. Lengths from a small set: ties, zeros and
    negative lengths (read as zero) are common."""
    k = draw(st.integers(3, 14))
    value = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 1.0, 2.0, -0.25]),
                      st.floats(0.0, 3.0, allow_nan=False))
    live, rows = list(range(k)), []
    for t in range(k - 3):
        a, b = sorted(draw(st.lists(st.sampled_from(live), min_size=2, max_size=2,
                                    unique=True)))
        live = [x for x in live if x not in (a, b)] + [k + t]
        rows.append([a, b, draw(value), draw(value)])
    order = draw(st.permutations(live))
    rows.append([order[1], order[2], draw(value), draw(value)])
    rows.append([order[0], order[0], draw(value), 0.0])
    return np.array(rows, dtype=np.float64), k


@settings(max_examples=400, deadline=None)
@given(case=nj_rows())
def test_midpoint_linkage_equals_scikit_bios(case):
    rows, k = case
    want, got = skbio_linkage(rows, k), nj_midpoint_linkage(rows, k)
    if want is None:
        assert got is None
    else:
        assert got is not None and np.array_equal(got, want)


def test_the_guide_tree_of_a_family_is_scikit_bios(tmp_path):
    from bioplug.progressive.guide import alignment_distances, nj_tree
    from bioplug.runtime import get_runtime
    from bioplug.tree.build import nj_linkage

    rng = np.random.default_rng(2)
    base = "".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 120))
    texts = ["".join(c if rng.random() > 0.3 else rng.choice(list("ACDEFGHIKLMNPQRSTVWY"))
                     for c in base) for _ in range(9)]
    rt = get_runtime("cpu")
    rows = nj_linkage(np.asarray(alignment_distances(texts, False, rt), dtype=np.float64), rt)
    assert np.array_equal(nj_tree(texts, False, rt), skbio_linkage(rows, len(texts)))


def test_importing_the_progressive_guide_tree_needs_no_scikit_bio():
    import subprocess
    import sys

    code = ("import sys; import bioplug.progressive.guide, bioplug.progressive.midpoint; "
            "print('skbio' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
