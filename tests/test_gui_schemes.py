"""Colour schemes of round 2 (percent identity, BLOSUM62, hydrophobicity, purine/pyrimidine)
against hand-worked columns, and the overview panel of large alignments, offscreen."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from bioplug.gui import colors  # noqa: E402
from bioplug.gui.overview import GAP_RGB, PLAIN_RGB, OverviewPanel, overview_rgb  # noqa: E402


def rows(*texts):
    return np.frombuffer("".join(texts).encode(), dtype=np.uint8).reshape(len(texts), -1)


def test_blosum62_scheme_against_the_matrix():
    from Bio.Align import substitution_matrices

    blosum = substitution_matrices.load("BLOSUM62")
    codes = rows("ACDE-", "ACDK-", "SCNE-", "AGDE-")
    cls = colors.blosum62_classes(codes)
    letters, _ = colors.consensus(codes)
    for (i, j), value in np.ndenumerate(cls):
        a, c = chr(codes[i, j]), chr(letters[j])
        want = 0 if a == "-" else 2 if a == c else 1 if blosum[a][c] > 0 else 0
        assert value == want, (i, j, a, c)


def test_percent_identity_shades_by_column_share():
    codes = rows("AAAA", "AAAC", "AACC", "ACCD", "ACDE")
    cls = colors.SCHEMES["Percent identity"][1](codes)
    assert (cls[:, 0] == 3).all()  # 100 % A
    assert cls[0, 1] == 1 and cls[4, 1] == 0  # A in 60 % (not above 60): lightest shade
    assert cls[0, 2] == 0 and cls[2, 2] == 0  # A and C both 40 %: not above 40
    assert (cls[:, 3] == 0).all()


def test_hydrophobicity_follows_kyte_doolittle():
    cls = colors.hydrophobicity_classes(rows("IRGAiK-"))[0]
    assert cls[0] == colors.HYDRO_STEPS and cls[1] == 1  # I most, R least hydrophobic
    assert cls[0] > cls[3] > cls[2] > cls[5]  # I > A > G > K
    assert cls[4] == cls[0] and cls[6] == 0


def test_purine_pyrimidine():
    cls = colors.purine_classes(rows("AGCTUN-"))[0]
    assert cls[0] == cls[1] != cls[2] == cls[3] == cls[4]
    assert cls[5] == 0 and cls[6] == 0


def test_overview_samples_and_marks_gaps():
    codes = rows("A-" * 50, "C" * 100)
    cls = np.ones_like(codes)
    rgb = overview_rgb(codes, cls, [colors.WHITE, (10, 20, 30)], 10, 50)
    assert rgb.shape == (2, 50, 3)
    assert tuple(rgb[0, 0]) == (10, 20, 30) and tuple(rgb[1, 10]) == (10, 20, 30)
    big = np.full((10_000, 5_000), ord("L"), np.uint8)
    rgb = overview_rgb(big, np.zeros_like(big), [colors.WHITE], 120, 400)
    assert rgb.shape == (120, 400, 3) and tuple(rgb[5, 5]) == PLAIN_RGB
    assert tuple(overview_rgb(rows("-"), rows("\0"), [colors.WHITE], 5, 5)[0, 0]) == GAP_RGB


def test_overview_panel_frames_the_view_and_click_scrolls(qtbot):
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord
    from bioplug.gui.alignment_view import AlignmentView
    from bioplug.gui.documents import AlignmentData

    view = AlignmentView()
    qtbot.addWidget(view)
    view.resize(800, 500)
    rng = np.random.default_rng(0)
    texts = ["".join(rng.choice(list("ACDEFG-"), 2000)) for _ in range(300)]
    view.set_data(AlignmentData.from_records(
        [SeqRecord(Seq(t), id=f"s{i}") for i, t in enumerate(texts)], aligned=True))
    view.show()
    panel = OverviewPanel(view.canvas)
    qtbot.addWidget(panel)
    panel.resize(400, 100)
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.frame().x() == 0 and panel.frame().width() < 400
    panel.centre_on(200, 50)  # the middle of the alignment
    r0, r1, c0, c1 = view.canvas.visible_cells()
    assert r0 <= 150 < r1 and c0 <= 1000 < c1
    assert 150 < panel.frame().center().x() < 250
    assert not panel.grab().isNull()
    view.set_scheme("Hydrophobicity")
    first = panel.image()
    view.set_scheme("BLOSUM62")
    assert panel.image() is not first  # rebuilt for the new colours


def test_main_window_has_overview_dock_and_new_schemes(qtbot, tmp_path):
    from bioplug.gui import MainWindow
    from PySide6.QtCore import QSettings

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, data_dir=tmp_path / "d")
    qtbot.addWidget(w)
    assert w.overview_dock.widget().canvas is w.alignment_view.canvas
    box = w.alignment_view.scheme_box
    offered = [box.itemText(i) for i in range(box.count())]
    for name in ("Percent identity", "BLOSUM62", "Hydrophobicity", "Purine/Pyrimidine"):
        assert name in offered
