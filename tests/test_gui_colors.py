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


# -- wide inputs: blocks of columns, computed when first shown ---------------------------
def random_rows(n, length, seed=0, letters=b"ACDEFGHIKLMNPQRSTVWYkr-"):
    pool = np.frombuffer(letters, dtype=np.uint8)
    return pool[np.random.default_rng(seed).integers(0, pool.size, (n, length))]


def test_lazy_columns_equal_the_whole_computation(monkeypatch):
    """Blocks filled in any order (visible ones first, the rest one by one) give exactly the
    whole-array classes, consensus and conservation."""
    codes = random_rows(5, 1000, seed=1)
    whole = {name: fn(codes) for name, (_, fn) in colors.SCHEMES.items()}
    letters, share = colors.consensus(codes)
    cons = colors.conservation(codes)
    monkeypatch.setattr(colors, "MIN_BLOCK", 7)
    monkeypatch.setattr(colors, "BLOCK_CELLS", 35)  # 7 columns a block: 143 blocks
    for name, (_, classify) in colors.SCHEMES.items():
        lazy = colors.lazy_classes(codes, classify)
        assert lazy.width == 7 and not lazy.complete
        assert lazy.ensure(500, 510) == [(497, 504), (504, 511)]
        while lazy.fill_next() is not None:
            pass
        assert lazy.complete and (lazy.outputs[0] == whole[name]).all(), name
    tracks = colors.lazy_tracks(codes)
    tracks.ensure(0, 1000)
    assert (tracks.outputs[0] == letters).all()
    assert np.array_equal(tracks.outputs[1], share)
    assert np.allclose(tracks.outputs[2], cons, atol=1e-6)
    assert colors.clustal_classes(codes).shape == codes.shape  # blockwise: same result
    assert (colors.clustal_classes(codes) == whole["Clustal X"]).all()


@pytest.fixture
def view(qtbot):
    from bioplug.gui.alignment_view import AlignmentView
    from gui_windows import shown

    v = AlignmentView()
    v.resize(900, 300)
    return shown(qtbot, v)


def as_data(texts, aligned=None):
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord
    from bioplug.gui.documents import AlignmentData

    return AlignmentData.from_records(
        [SeqRecord(Seq(t), id=f"s{i}") for i, t in enumerate(texts)], aligned=aligned)


def test_unaligned_sequences_of_different_lengths_get_no_tracks(view):
    """Per-column consensus and conservation of unaligned rows mean nothing (and took 9 s of
    the UI thread for a 3,000,000-residue line)."""
    view.set_data(as_data(["MKVLAAGIV", "MKV", "MKILAAG"]))
    assert view.consensus_row.letters.size == 0 and view.track.values.size == 0
    assert view.consensus_row.text() == ""
    view.set_data(as_data(["MKVLA", "MKVLS"]))  # one length: the columns are kept
    assert view.consensus_row.text() == "MKVLa" and view.track.values.size == 5


def test_a_wide_input_is_coloured_where_it_is_shown(view, qtbot, monkeypatch):
    """Showing 3 x 1,500,000 residues colours the visible columns (blocks of at most
    COLUMN_BLOCK columns), then the rest in idle time, equal to the whole-array colouring."""
    texts = [bytes(r).decode() for r in random_rows(3, 1_500_000, seed=2)]
    data = as_data(texts, aligned=True)
    widths = []
    palette, classify = colors.SCHEMES["Clustal X"]

    def spy(codes):
        widths.append(codes.shape[1])
        return classify(codes)

    monkeypatch.setitem(colors.SCHEMES, "Clustal X", (palette, spy))
    view.set_data(data)
    assert sum(widths) < 100_000  # not the whole width before the first paint
    canvas = view.canvas
    canvas.scroll_to(column=900_000)
    _, _, c0, c1 = canvas.visible_cells()
    canvas.viewport().repaint()
    view.consensus_row.repaint()
    assert widths and max(widths) <= colors.COLUMN_BLOCK and sum(widths) < 100_000
    shown = canvas.classes[:, c0:c1]
    assert shown.any()
    assert (shown == classify(data.codes[:, c0:c1])).all()
    assert (view.track.values[c0:c1] == colors.conservation(data.codes[:, c0:c1])).all()
    qtbot.waitUntil(lambda: canvas._lazy.complete, timeout=60_000)
    assert (canvas.classes == classify(data.codes)).all()
    assert max(widths) <= colors.COLUMN_BLOCK
