"""GUI colour schemes, consensus and conservation (numpy only) against hand-worked columns."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("PySide6")

from bioplug.gui import colors  # noqa: E402


def rows(*texts):
    return np.frombuffer("".join(texts).encode(), dtype=np.uint8).reshape(len(texts), -1)


def test_clustal_rules_follow_column_conservation():
    codes = rows("GKPRCL-", "GKPRCL-", "AKPECA-", "GKPRCV-")
    cls = colors.clustal_classes(codes)
    # G and P always coloured, A in a G column is not hydrophobic-conserved
    assert cls[0, 0] == 6 and cls[2, 0] == 0
    assert (cls[:, 1] == 2).all()  # K column: red
    assert (cls[:, 2] == 7).all()  # P: yellow
    assert cls[0, 3] == 2 and cls[2, 3] == 3  # E magenta where K+R > 60 %
    assert (cls[:, 4] == 5).all()  # C above 85 %: pink
    assert (cls[:, 5] == 1).all()  # L/A/V column hydrophobic: blue
    assert (cls[:, 6] == 0).all()  # gaps uncoloured


def test_lower_case_coloured_like_upper_case():
    up = colors.clustal_classes(rows("KKKK", "KKKK"))
    low = colors.clustal_classes(rows("kkkk", "kkkk"))
    assert (up == low).all()
    assert (colors.zappo_classes(rows("ilvk")) == colors.zappo_classes(rows("ILVK"))).all()


def test_fractions_consensus_conservation():
    codes = rows("AC-", "AD-", "AC-", "GC-")
    frac = colors.column_fractions(codes)
    assert frac[0, 0] == pytest.approx(0.75) and frac[0, 6] == pytest.approx(0.25)
    letters, share = colors.consensus(codes)
    assert letters.tobytes() == b"AC-"
    assert share.tolist() == pytest.approx([0.75, 0.75, 0.0])
    cons = colors.conservation(codes)
    assert cons[2] == 0.0
    assert colors.conservation(rows("WW", "WW"))[0] == pytest.approx(1.0)
    assert 0.0 < cons[0] < 1.0


@pytest.mark.parametrize("name", list(colors.SCHEMES))
def test_every_scheme_gives_valid_classes(name):
    rng = np.random.default_rng(0)
    codes = rng.choice(np.frombuffer(b"ACDEFGHIKLMNPQRSTVWY-acgtu.X", np.uint8), (7, 50))
    palette, classify = colors.SCHEMES[name]
    cls = classify(codes)
    assert cls.shape == codes.shape and cls.dtype == np.uint8
    assert int(cls.max()) < len(palette)
    assert (cls[codes == ord("-")] == 0).all()
