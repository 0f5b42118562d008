"""Tree features of the desktop app, offscreen: reroot, ladderize, collapse, support, the tree
beside the alignment (same order, selection linked both ways) and the bootstrap job."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from Bio.Seq import Seq  # noqa: E402
from Bio.SeqRecord import SeqRecord  # noqa: E402
from bioplug.gui import tree_ops  # noqa: E402
from bioplug.gui.documents import AlignmentData  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from skbio import TreeNode  # noqa: E402

from bioplug.errors import InputError  # noqa: E402

NEWICK = "((a:1,b:2)80:1,(c:1,(d:3,f:1)60:1)70:2,e:1);"
ROWS = {"a": "ACGTACGTAAGT", "b": "ACGTACGTTAGT", "c": "TCGAACGGAAGA",
        "d": "TCGAACGGTAGA", "e": "ACCTACGTAAGC", "f": "TCGTACGGTTGA"}


def tree():
    t = TreeNode.read([NEWICK])
    for node in t.non_tips():  # as bootstrap sets them (skbio reads them as names)
        node.support, node.name = float(node.name), None
    return t


# -- pure edits ---------------------------------------------------------------------------
def test_midpoint_root_keeps_leaves_and_support_on_branches():
    rooted = tree_ops.midpoint_root(tree())
    assert sorted(t.name for t in rooted.tips()) == sorted(ROWS)
    # the longest path is d .. b (3 + 1 + 2 + 1 + 2 = 9): the root sits 4.5 from each end
    d = rooted.find("d")
    assert d.accumulate_to_ancestor(rooted) == pytest.approx(4.5)
    support = tree_ops.support_values(rooted)
    assert support["a,b"] == 80 and support["d,f"] == 60 and support["c,d,f"] == 70


def test_root_on_branch_and_errors():
    rooted = tree_ops.root_on_branch(tree(), ["c", "d", "f"])
    assert sorted(len(list(c.tips(include_self=True))) for c in rooted.children) == [3, 3]
    with pytest.raises(InputError, match="whole tree"):
        tree_ops.root_on_branch(tree(), list(ROWS))
    with pytest.raises(InputError, match="no leaf called 'zz'"):
        tree_ops.root_on_branch(tree(), ["zz"])


def splits(t) -> dict[frozenset, float]:
    """Support per bipartition, each named by its side without leaf "a" (root-independent)."""
    everything = frozenset(x.name for x in t.tips())
    out = {}
    for node in t.non_tips():
        if getattr(node, "support", None) is not None:
            side = frozenset(x.name for x in node.tips())
            out["a" in side and everything - side or side] = float(node.support)
    return out


@pytest.mark.parametrize(("leaf", "length"), [("a", 0.25), ("b", 2.0)])
def test_root_on_branch_puts_the_root_at_the_midpoint(leaf, length):
    """Short branches (< 0.5) once raised skbio's "Distance cannot exceed branch length"; long
    ones got the root 0.5 from the node instead of halfway."""
    original = TreeNode.read([NEWICK.replace("a:1", "a:0.25")])
    for node in original.non_tips():
        node.support, node.name = float(node.name), None
    rooted = tree_ops.root_on_branch(original, [leaf])
    node = rooted.find(leaf)
    assert node.parent is rooted and len(rooted.children) == 2
    other = next(c for c in rooted.children if c is not node)
    assert node.length == pytest.approx(length / 2)
    assert other.length == pytest.approx(length / 2)
    assert splits(rooted) == splits(original)  # support stays on its branch
    assert original.find(leaf).length == length  # the argument is left alone


def test_ladderize_orders_by_clade_size():
    lad = tree_ops.ladderize(tree())
    assert tree_ops.leaf_order(lad) == ["e", "a", "b", "c", "d", "f"]
    assert tree_ops.leaf_order(tree_ops.ladderize(tree(), ascending=False))[0] in "cdf"
    assert tree_ops.support_values(lad) == tree_ops.support_values(tree())


# -- the main window ----------------------------------------------------------------------
@pytest.fixture
def window(qtbot, tmp_path):
    from bioplug.gui import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, data_dir=tmp_path / "data")
    w.show_dialogs = False
    qtbot.addWidget(w)
    w.resize(1200, 800)
    records = [SeqRecord(Seq(t), id=k) for k, t in ROWS.items()]
    w.set_data(AlignmentData.from_records(records, aligned=True))
    return w


def test_tree_view_draws_support_and_collapses(window):
    tv = window.tree_view
    tv.set_tree(tree())
    texts = {i.text() for i in tv.scene().items() if hasattr(i, "text")}
    assert {"80", "60", "70"} <= texts
    tv.set_show_support(False)
    assert "80" not in {i.text() for i in tv.scene().items() if hasattr(i, "text")}
    tv.select_leaves(["d", "f"])
    tv.toggle_collapse()
    assert set(tv.labels) == {"a", "b", "c", "e"}
    assert any("2 leaves" in i.text() for i in tv.scene().items() if hasattr(i, "text"))
    tv.toggle_collapse(tv.tree.find("d").parent)
    assert set(tv.labels) == set(ROWS)


def test_branch_click_selects_clade_then_reroot_and_ladderize(window):
    tv = window.tree_view
    tv.set_tree(tree())
    tv.select_branch(tv.tree.find("a").parent)
    assert tv.selected_leaves() == ["a", "b"]
    assert window.alignment_view.highlighted_names() == ["a", "b"]
    tv.reroot_selected()
    assert sorted(len(list(c.tips(include_self=True))) for c in tv.tree.children) == [2, 4]
    tv.ladderize()
    assert tree_ops.leaf_order(tv.tree)[:2] in (["a", "b"], ["b", "a"])
    tv.reroot_midpoint()
    assert tv.tree.count(tips=True) == 6


def test_tree_menu_reroot_on_a_short_branch(window):
    """Tree ▸ Reroot on the selected branch on a leaf whose branch is shorter than 0.5."""
    errors = []
    window.errorShown.connect(errors.append)
    tv = window.tree_view
    short = TreeNode.read([NEWICK.replace("a:1", "a:0.25")])
    tv.set_tree(short)
    tv.select_leaves(["a"])
    action = next(a for a in window.tree_features.menu.actions()
                  if a.text().startswith("&Reroot"))
    action.trigger()
    assert errors == []
    assert tv.tree.find("a").parent is tv.tree
    assert tv.tree.find("a").length == pytest.approx(0.125)


def test_tree_menu_shows_any_failure_as_a_message(window):
    """An exception other than InputError in a Tree menu action reaches the user."""
    errors = []
    window.errorShown.connect(errors.append)

    def broken() -> None:
        raise ValueError("Distance cannot exceed branch length.")

    window.tree_features._guarded(broken)
    assert len(errors) == 1 and "Distance cannot exceed branch length" in errors[0]
    shown = []   # the tree's own right-click menu, too
    window.tree_view.errorShown.connect(shown.append)
    window.tree_view._guarded(broken)
    assert len(shown) == 1 and "ValueError" in shown[0]


def test_tree_beside_alignment_same_order_linked_both_ways(window, qtbot):
    feats = window.tree_features
    with qtbot.waitSignal(window.errorShown):
        feats.act_beside.trigger()  # no tree yet
    assert feats.panel.isHidden()
    window.tree_view.set_tree(tree())
    feats.act_beside.trigger()
    assert not feats.panel.isHidden()
    assert window.data.names == tree_ops.leaf_order(window.tree_view.tree)
    window.tree_view.ladderize()  # the rows follow the edited tree
    assert window.data.names == tree_ops.leaf_order(window.tree_view.tree)
    # panel click on the (d, f) node: those rows, and the tree tab's leaves
    x, y, depth = feats.panel.positions()
    node = window.tree_view.tree.find("d").parent
    p = feats.panel._to_px(x[id(node)], y[id(node)], depth)
    assert feats.panel.node_at(p.x(), p.y()) is node
    feats.panel.view.highlight_names(["d", "f"])
    assert window.tree_view.selected_leaves() == ["d", "f"]
    window.tree_view.select_leaves(["c"])
    assert window.alignment_view.highlighted_names() == ["c"]
    feats.panel.grab()  # paints without error
    feats.act_beside.trigger()
    assert feats.panel.isHidden()


def cpu_spec():
    from bioplug.runtime import list_devices

    cpus = [d for d in list_devices() if d.kind == "CPU"]
    if not cpus:
        pytest.skip("no CPU (PoCL) OpenCL device")
    return cpus[0].spec


def run_job(qtbot, window, start, *args):
    events = []
    hook = lambda job: job.signals.stage.connect(lambda *e: events.append(e))  # noqa: E731
    window.jobStarted.connect(hook)
    with qtbot.waitSignal(window.jobFinished, timeout=120_000) as blocker:
        assert start(*args) is not None
    window.jobStarted.disconnect(hook)
    qtbot.wait(10)
    return blocker.args[1], events


def test_bootstrap_job_support_equals_library_and_is_deterministic(window, qtbot):
    from bioplug.tree import bootstrap

    window.devices_panel.select_spec(cpu_spec())
    run = window.tree_features.run_bootstrap
    status, events = run_job(qtbot, window, run, 30, 7, "nj")
    assert status == "done", window.last_error
    stages = list(dict.fromkeys(e[0] for e in events))
    assert stages == ["full tree", "bootstrap"]
    assert events[-1] == ("bootstrap", 30, 30)
    got = tree_ops.support_values(window.tree_view.tree)
    want = tree_ops.support_values(bootstrap(window.data.to_alignment(), 30, seed=7,
                                             device=cpu_spec()))
    assert got == want and got
    texts = {i.text() for i in window.tree_view.scene().items() if hasattr(i, "text")}
    assert {tree_ops.tree_view_text(v) for v in got.values()} <= texts
    status, _ = run_job(qtbot, window, run, 30, 7, "nj")
    assert tree_ops.support_values(window.tree_view.tree) == got


def test_bootstrap_job_cancel(window, qtbot):
    window.devices_panel.select_spec(cpu_spec())

    def start():
        job = window.tree_features.run_bootstrap(2000, 1, "nj")
        job.cancel()
        return job

    status, _ = run_job(qtbot, window, start)
    assert status == "cancelled"


def test_tree_jobs_read_the_rows_from_the_codes(window, qtbot, monkeypatch):
    """The tree and bootstrap jobs take the rows the viewer holds, not the rows of the
    ``Bio.Align.Alignment`` (built from its coordinates in Python: minutes for a few
    thousand gappy rows, before the first progress report, so Cancel did nothing), and
    give the library's results."""
    from Bio.Align import Alignment

    from bioplug.tree import bootstrap, distance_matrix, nj

    spec = cpu_spec()
    window.devices_panel.select_spec(spec)
    alignment = window.data.to_alignment()
    dist = distance_matrix(alignment, "msa", device=spec)
    want_tree = nj(dist.to_numpy(), ids=list(dist.ids), device=spec)
    want_support = tree_ops.support_values(bootstrap(alignment, 20, seed=3, device=spec))

    def no_rows(self, *args):
        raise AssertionError("a row was built from the Alignment's coordinates")

    monkeypatch.setattr(Alignment, "_get_row", no_rows)
    status, _ = run_job(qtbot, window, window.run_tree, "nj", "msa")
    assert status == "done", window.last_error
    got = window.tree_view.tree.tip_tip_distances()
    want = want_tree.tip_tip_distances().filter(got.ids)
    assert got.ids and (abs(got.data - want.data) < 1e-9).all()
    status, _ = run_job(qtbot, window, window.tree_features.run_bootstrap, 20, 3, "nj")
    assert status == "done", window.last_error
    assert tree_ops.support_values(window.tree_view.tree) == want_support


# -- collapsed clades across tree edits (a clade is its leaf set) --------------------------
AB, DF = frozenset("ab"), frozenset("df")


def test_find_clades_by_leaf_set():
    rooted = tree_ops.root_on_branch(tree(), ["d"])  # the new root splits d from the rest
    found, missing = tree_ops.find_clades(rooted, [AB, DF, frozenset("cdf")])
    assert [tree_ops.clade_key(n) for n in found] == [AB]
    # the new root separates d from f and c: {d,f} and {c,d,f} are gone
    assert missing == [DF, frozenset("cdf")]


def _collapse_ab_df(tv):
    tv.set_tree(tree())
    tv.toggle_collapse(tv.tree.find("a").parent)
    tv.toggle_collapse(tv.tree.find("d").parent)
    assert set(tv.labels) == {"c", "e"}


def test_collapsed_clades_survive_ladderize_and_midpoint(window):
    tv = window.tree_view
    _collapse_ab_df(tv)
    tv.ladderize()
    assert set(tv.collapsed_clades()) == {AB, DF}
    assert set(tv.labels) == {"c", "e"}  # a, b, d, f still hidden in their triangles
    # midpoint: 4.5 from d and b, inside the branch above {c,d,f}: {a,b} and {d,f} remain
    tv.reroot_midpoint()
    assert tv.tree.find("d").accumulate_to_ancestor(tv.tree) == pytest.approx(4.5)
    assert set(tv.collapsed_clades()) == {AB, DF}
    assert set(tv.labels) == {"c", "e"}
    texts = [i.text() for i in tv.scene().items() if hasattr(i, "text")]
    assert sum("2 leaves" in t for t in texts) == 2


def test_reroot_inside_a_collapsed_clade_expands_only_that_one(window):
    tv = window.tree_view
    _collapse_ab_df(tv)
    tv.select_branch(tv.tree.find("d"))  # d's own branch (inside the collapsed {d,f})
    tv.reroot_selected()  # the new root splits d from f: {d,f} is no clade any more
    assert tv.collapsed_clades() == [AB]
    assert set(tv.labels) == {"c", "d", "e", "f"}
    tv.toggle_collapse(tv.tree.find("a").parent)  # the carried clade expands as before
    assert tv.collapsed_clades() == [] and set(tv.labels) == set(ROWS)


def test_reroot_on_the_collapsed_branch_keeps_it_and_the_current_branch(window):
    tv = window.tree_view
    _collapse_ab_df(tv)
    tv.select_branch(tv.tree.find("a").parent)  # the collapsed {a,b} is the current branch
    tv.reroot_selected()
    assert sorted(len(list(c.tips(include_self=True))) for c in tv.tree.children) == [2, 4]
    assert set(tv.collapsed_clades()) == {AB, DF}
    assert tree_ops.clade_key(tv.current_node) == AB
