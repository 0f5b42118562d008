"""A user's guide tree (``bioplug msa --guide-tree``, ``align(guide_tree=...)``, Clustal Omega's
``--guidetree-in``, ``mafft --treein``): what :func:`bioplug.progressive.trees.linkage_from_tree`
accepts, and errors that name the file and the tips at fault."""

from __future__ import annotations

import os

import numpy as np
import pytest

from bioplug.cli import main
from bioplug.errors import InputError
from bioplug.progressive.trees import linkage_from_tree

DEVICE = os.environ.get("BIOPLUG_TEST_DEVICE", "cpu")
IDS = ["sp_a", "b", "c", "d"]


@pytest.mark.parametrize("text", [
    "((sp_a:0.1,b:0.2):0.05,c:0.3,d:0.1);",            # unrooted: three children at the root
    "((sp_a,b),(c,d));",                                 # no branch lengths
    "(('sp_a',b,c),d);",                                 # quoted label, a multifurcation
    "((sp_a:1e-05,b:2E-3)0.95:0.1,(c,d)'node 2');",      # support values, an internal label
])
def test_newick_forms_give_a_tree_over_the_ids(text):
    link = linkage_from_tree(text, IDS)
    assert link.shape == (3, 4)
    assert sorted(link[:, :2].ravel().astype(int).tolist()) == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("text, named", [
    ("((sp_a,b),c);", ["missing", "'d'"]),
    ("((sp_a,b),(c,d,e));", ["no sequence id", "'e'"]),
    ("((sp_a,b),(c,d,b));", ["more than once", "'b'"]),
    ("(('sp a',b),(c,d));", ["missing", "'sp_a'", "no sequence id", "'sp a'"]),
])
def test_tips_that_are_not_the_ids_are_named(text, named):
    with pytest.raises(InputError, match="tips") as err:
        linkage_from_tree(text, IDS)
    for part in named:
        assert part in str(err.value)


@pytest.mark.parametrize("content, reason", [
    ("", "empty"), ("((sp_a,b),(c,d))\n", "not a Newick"),
    (">sp_a\nMKV LT\n>b\nMKVL\n", "not a Newick"),
])
def test_a_file_that_is_not_newick_is_an_input_error_naming_it(tmp_path, content, reason):
    path = tmp_path / "tree.txt"
    path.write_text(content)
    with pytest.raises(InputError, match=reason) as err:
        linkage_from_tree(str(path), IDS)
    assert str(path) in str(err.value)


def test_cli_names_the_tree_file_and_the_missing_sequence(tmp_path, capsys):
    family = tmp_path / "fam.fa"
    family.write_text(">s0\nMKVLATGHK\n>s1\nMKVLSTGHK\n>s2\nMRVLATGK\n")
    tree = tmp_path / "t.nwk"
    tree.write_text("(s0,s1);\n")
    for method in ("quickprobs", "progressive"):
        assert main(["-q", "msa", str(family), "-o", str(tmp_path / "o.fa"), "--method", method,
                     "--guide-tree", str(tree), "--device", DEVICE]) == 2
        err = capsys.readouterr().err
        assert str(tree) in err and "'s2'" in err and "Traceback" not in err
    assert np.array_equal(linkage_from_tree("((s0,s1),s2);", ["s0", "s1", "s2"])[:, :2],
                          [[0, 1], [2, 3]])
