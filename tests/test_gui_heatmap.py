"""The heat map, offscreen: labels never overlap, tree order, hover text, click to align."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from bioplug.gui.heatmap_view import HeatMapView, thin_ticks  # noqa: E402
from PySide6.QtCore import QPointF, QSettings, Qt  # noqa: E402
from skbio import TreeNode  # noqa: E402


def overlaps(ticks, cell_px, size):
    """Whether two kept labels' extents (centred on their ticks) overlap."""
    spans = sorted((p * cell_px - size(t) / 2, p * cell_px + size(t) / 2) for p, t in ticks)
    return any(b0 < a1 for (_, a1), (b0, _) in zip(spans, spans[1:], strict=False))


@pytest.mark.parametrize("cell_px", [0.5, 3.0, 9.0, 40.0, 400.0])
def test_thin_ticks_never_overlap(cell_px):
    names = [f"sequence_{i:04d}" + "x" * (i % 7) for i in range(500)]
    size = lambda t: 6.0 * len(t)  # noqa: E731
    ticks = thin_ticks(names, cell_px, size)
    assert ticks and not overlaps(ticks, cell_px, size)
    if cell_px >= 6.0 * max(map(len, names)) + 3:
        assert len(ticks) == len(names)  # room for all: nothing dropped
    assert thin_ticks([], 5.0, size) == []


@pytest.fixture
def heat(qtbot):
    view = HeatMapView()
    qtbot.addWidget(view)
    view.resize(700, 600)
    view.show()
    qtbot.waitExposed(view)
    names = [f"s{i}" for i in range(80)]
    rng = np.random.default_rng(0)
    m = rng.random((80, 80)) * 50
    m = m + m.T
    np.fill_diagonal(m, 200)
    view.set_matrix(names, m, "test")
    return view


def axis_ticks(view, which):
    return view.plot.getAxis(which)._tickLevels[0]


def test_axis_labels_fit_the_pixels(heat, qtbot):
    vb = heat.plot.getPlotItem().vb
    fm = heat._metrics()
    for which, size, pixels in (("bottom", fm.horizontalAdvance, vb.width()),
                                ("left", lambda t: fm.height(), vb.height())):
        ticks = axis_ticks(heat, which)
        cell = pixels / (vb.viewRange()[0 if which == "bottom" else 1][1]
                         - vb.viewRange()[0 if which == "bottom" else 1][0])
        assert 0 < len(ticks) < 80
        assert not overlaps(ticks, cell, size)
    vb.setRange(xRange=(0, 8), yRange=(0, 8), padding=0)  # zoomed in: more labels each
    qtbot.wait(10)
    assert len(axis_ticks(heat, "bottom")) == 80  # 75 px a cell: every name fits


def test_tree_order_hover_and_click(heat, qtbot):
    names = heat.names
    tree = TreeNode.read(["(" + ",".join(reversed(names)) + ");"])
    heat.set_tree(tree)
    assert heat.tree_order.isEnabled()
    heat.tree_order.setChecked(True)
    assert heat.order[0] == 79 and heat.order[-1] == 0
    vb = heat.plot.getPlotItem().vb
    scene_pos = vb.mapViewToScene(QPointF(0.5, 1.5))  # display column 0, row 1
    assert heat.cell_at(scene_pos) == (78, 79)
    heat._hover(scene_pos)
    assert heat.info.text().startswith(f"s78 × s79: score {heat.scores[78, 79]:g}")

    class Click:  # what pyqtgraph's scene hands sigMouseClicked
        def button(self):
            return Qt.MouseButton.LeftButton

        def scenePos(self):  # noqa: N802
            return scene_pos

    with qtbot.waitSignal(heat.pairClicked) as blocker:
        heat._clicked(Click())
    assert blocker.args == ["s78", "s79"]


def test_clear_shows_nothing_of_the_previous_scores(heat, qtbot):
    from bioplug.gui.heatmap_view import EMPTY_TEXT

    from bioplug.errors import InputError

    vb = heat.plot.getPlotItem().vb
    scene_pos = vb.mapViewToScene(QPointF(0.5, 1.5))
    heat._hover(scene_pos)
    assert heat.plot.toolTip() and axis_ticks(heat, "left")
    heat.clear()
    assert heat.names == [] and heat.scores.shape == (0, 0) and heat.order.size == 0
    assert heat.image.image is None and heat.title == ""
    assert axis_ticks(heat, "left") == [] and axis_ticks(heat, "bottom") == []
    assert heat.info.text() == EMPTY_TEXT and heat.plot.toolTip() == ""
    assert heat.cell_at(scene_pos) is None  # nothing to hover or click
    with pytest.raises(InputError, match="no heat map"):
        heat.export_image("never.png")
    heat.set_matrix(["a", "b"], np.array([[2.0, 1.0], [1.0, 2.0]]))  # shows again
    assert heat.image.image.shape == (2, 2) and heat.info.text() == "2 × 2 scores"


def test_click_on_cell_asks_main_window_for_the_pair(qtbot, tmp_path, monkeypatch):
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord
    from bioplug.gui import MainWindow
    from bioplug.gui.documents import AlignmentData

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, data_dir=tmp_path / "d")
    w.show_dialogs = False
    qtbot.addWidget(w)
    recs = [SeqRecord(Seq(s), id=k) for k, s in (("a", "ACDE"), ("b", "ACDF"), ("c", "CDEF"))]
    w.set_data(AlignmentData.from_records(recs))
    calls = []
    monkeypatch.setattr(w, "run_pairwise", lambda i, j: calls.append((i, j)))
    w.heatmap.set_matrix(["a", "b", "c"], np.eye(3))
    w.heatmap.pairClicked.emit("c", "a")
    assert calls == [(2, 0)]
    with qtbot.waitSignal(w.errorShown):
        w.heatmap.pairClicked.emit("zz", "a")
