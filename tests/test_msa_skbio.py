"""bioplug.msa.skbio_api.multi_align: scikit-bio's signature and return type, QuickProbs inside."""

from __future__ import annotations

import numpy as np
import pytest
from skbio import DistanceMatrix, Protein, TabularMSA, TreeNode
from skbio.alignment import AlignPath
from skbio.alignment import multi_align as sk_multi_align

from bioplug.errors import InputError
from bioplug.msa.skbio_api import multi_align

SEQS = ["MKVLAAGIVGLLLAWQCSAGTEPKLVDEW", "MKVLSAGIVALLAWQSAGSEPRLIDEW",
        "MRVLAAGLVGLLSWQCTAGTEPKLVDDW", "MKILAAGIVGLFLAWSAGTEPKIVEEW"]


def test_same_types_as_scikit_bio():
    prots = [Protein(s, metadata={"id": f"p{i}"}) for i, s in enumerate(SEQS)]
    ours = multi_align(prots, keep_tree=True, keep_distmat=True, device="cpu")
    theirs = sk_multi_align(prots, "BLOSUM62", keep_tree=True, keep_distmat=True)
    assert type(ours) is type(theirs)
    assert isinstance(ours.path, AlignPath)
    assert isinstance(ours.tree, TreeNode)
    assert isinstance(ours.distmat, DistanceMatrix)
    assert list(ours.distmat.ids) == ["p0", "p1", "p2", "p3"]
    assert sorted(t.name for t in ours.tree.tips()) == ["p0", "p1", "p2", "p3"]
    msa = TabularMSA.from_path_seqs(ours.path, prots)
    assert [str(s).replace("-", "") for s in msa] == SEQS


def test_guide_tree_and_errors():
    first = multi_align(SEQS, keep_tree=True, device="cpu")
    again = multi_align(SEQS, guide_tree=first.tree, ids=["0", "1", "2", "3"], device="cpu")
    assert np.array_equal(first.path.to_bits(), again.path.to_bits())
    assert again.distmat is None
    with pytest.raises(ValueError):
        multi_align(SEQS[:1])
    with pytest.raises(InputError, match="ungapped"):
        multi_align(["MKV-L", "MKVL"])
    with pytest.raises(InputError, match="unique"):
        multi_align(SEQS[:2], ids=["a", "a"])
