"""The main window's Tree menu: tree edits, the tree beside the alignment, and bootstrap.

:class:`TreeFeatures` owns the row-aligned tree panel (:class:`~bioplug.gui.row_tree.RowTree`)
and keeps three things in step whenever the tree tab shows a new or edited tree: the panel's
tree, the alignment's row order (sorted by the tree, undoably, while the panel is shown) and
the leaf / row selection (the main window already links the tree tab and the alignment).
"""

from __future__ import annotations

import logging
import traceback

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QMenu,
    QSpinBox,
    QWidget,
)

from bioplug.errors import InputError

from . import jobs
from .row_tree import RowTree
from .tree_ops import leaf_order

log = logging.getLogger(__name__)


class BootstrapDialog(QDialog):
    """Replicates, seed and tree method of a bootstrap run."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Bootstrap tree")
        self.replicates = QSpinBox()
        self.replicates.setRange(1, 10_000)
        self.replicates.setValue(100)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.method = QComboBox()
        self.method.addItem("Neighbor-joining", "nj")
        self.method.addItem("UPGMA", "upgma")
        form = QFormLayout(self)
        form.addRow("Replicates", self.replicates)
        form.addRow("Seed", self.seed)
        form.addRow("Method", self.method)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class TreeFeatures:
    """Tree menu, row-aligned tree panel and the bootstrap job of a :class:`MainWindow`.

    Parameters
    ----------
    window : MainWindow
    """

    def __init__(self, window):
        self.window = window
        self.panel = RowTree(window.alignment_view)
        self.panel.hide()
        window.alignment_view.add_side_panel(self.panel)
        tree_view = window.tree_view
        tree_view.treeChanged.connect(self._tree_changed)
        tree_view.errorShown.connect(window.show_error)
        self._names: list[str] = []
        #: The guide tree of the last multiple alignment (skbio.TreeNode), or None.
        self.guide_tree = None
        window.dataLoaded.connect(lambda data: setattr(self, "_names", list(data.names)))
        window.alignment_view.editor.edited.connect(self._follow_renames)
        self.menu = self._build_menu()

    def _build_menu(self) -> QMenu:
        w, tv = self.window, self.window.tree_view
        menu = QMenu("T&ree", w)
        for text, fn in [("&Midpoint root", tv.reroot_midpoint),
                         ("&Reroot on the selected branch", tv.reroot_selected),
                         ("&Collapse / expand the selected clade", tv.toggle_collapse),
                         ("&Ladderize", tv.ladderize)]:
            menu.addAction(text, lambda fn=fn: self._guarded(fn))
        self.act_support = menu.addAction("Show branch &support")
        self.act_support.setCheckable(True)
        self.act_support.setChecked(True)
        self.act_support.toggled.connect(tv.set_show_support)
        menu.addSeparator()
        self.act_beside = QAction("Tree &beside the alignment", w)
        self.act_beside.setCheckable(True)
        self.act_beside.setShortcut(QKeySequence("Ctrl+Shift+T"))
        self.act_beside.toggled.connect(lambda on: self._guarded(self.show_beside, on))
        menu.addAction(self.act_beside)
        menu.addSeparator()
        self.act_guide = menu.addAction("&Guide tree of the alignment",
                                        lambda: self._guarded(self.show_guide_tree))
        self.act_guide.setStatusTip("The tree the last multiple alignment followed")
        self.act_guide.setEnabled(False)
        self.act_bootstrap = menu.addAction("&Bootstrap tree…", self.ask_bootstrap)
        self.act_bootstrap.setStatusTip("Support on every branch from resampled columns "
                                        "(on the chosen device)")
        bar = w.menuBar()
        bar.insertMenu(bar.actions()[-1], menu)  # before View
        return menu

    def _guarded(self, fn, *args) -> None:
        """Run a menu action; any failure becomes a message, none is lost in the event loop.

        Parameters
        ----------
        fn : callable
            The action.
        *args
            Its arguments.
        """
        try:
            fn(*args)
        except InputError as exc:
            self.window.show_error(str(exc))
        except Exception as exc:  # noqa: BLE001 - a slot's exception would vanish silently
            log.error("tree action failed:\n%s", traceback.format_exc())
            self.window.show_error(f"the tree action failed: {type(exc).__name__}: {exc}")

    # -- the guide tree of a multiple alignment ------------------------------------------
    def keep_guide_tree(self, newick: str | None) -> None:
        """Keep the guide tree of a multiple alignment just shown (Tree ▸ Guide tree of the
        alignment); with no tree in the Tree tab yet, it goes there (the tab is not raised).

        Parameters
        ----------
        newick : str or None
            The alignment's ``guide_tree`` (Newick, tips named by the sequence ids).
        """
        import io

        from skbio import TreeNode

        self.guide_tree = (TreeNode.read(io.StringIO(newick), format="newick")
                           if newick else None)
        self.act_guide.setEnabled(self.guide_tree is not None)
        if self.guide_tree is None:
            return
        if self.window.tree_view.tree is None:
            self.window.tree_view.set_tree(self.guide_tree.copy())
            self.window.tree_view.fit()
            self.window.statusBar().showMessage("The alignment's guide tree is in the Tree "
                                                "tab", 10000)
        else:
            self.window.statusBar().showMessage("Tree ▸ Guide tree of the alignment shows the "
                                                "tree the alignment followed", 10000)

    def show_guide_tree(self) -> None:
        """Put the last multiple alignment's guide tree in the Tree tab and show it."""
        if self.guide_tree is None:
            raise InputError("no multiple alignment has been made since this file was opened")
        w = self.window
        w.tree_view.set_tree(self.guide_tree.copy())
        w.results_changed()
        w.tabs.setCurrentWidget(w.tree_view)
        w.tree_view.fit()

    # -- tree beside the alignment ------------------------------------------------------
    def show_beside(self, on: bool = True) -> None:
        """Show (or hide) the tree left of the names, rows sorted in the tree's order."""
        if on and self.window.tree_view.tree is None:
            self.act_beside.setChecked(False)
            raise InputError("build a tree first (Jobs ▸ Tree)")
        if self.act_beside.isChecked() != on:
            self.act_beside.setChecked(on)  # re-enters through toggled
            return
        self.panel.setVisible(on)
        if on:
            self.panel.set_tree(self.window.tree_view.tree)
            self.sort_rows_by_tree()
            self.window.tabs.setCurrentWidget(self.window.alignment_view)

    def sort_rows_by_tree(self) -> None:
        """Alignment rows in the tree's leaf order (one undo step), if not already."""
        view = self.window.alignment_view
        order = leaf_order(self.window.tree_view.tree)
        if view.data is not None and order and view.data.names != order[: len(view.data.names)]:
            view.sort_rows("names", order=order)

    def _tree_changed(self, tree) -> None:
        self.panel.set_tree(tree)
        self.window.heatmap.set_tree(tree)
        if not self.panel.isHidden() and self.window.alignment_view.data is not None:
            self.sort_rows_by_tree()

    def _follow_renames(self, data) -> None:
        """A renamed sequence (or an undone rename) renames its leaf, so the tree, the
        panel and the heat map's tree order keep finding it."""
        before, self._names = self._names, list(data.names)
        tree = self.window.tree_view.tree
        if tree is None or len(before) != len(data.names) or sorted(before) == sorted(
                data.names):
            return  # not a rename: a sort, a move, a deletion, a gap edit
        renamed = {old: new for old, new in zip(before, data.names, strict=True) if old != new}
        tips = {t.name: t for t in tree.tips()}
        if renamed and all(old in tips for old in renamed):
            for old, new in renamed.items():
                tips[old].name = new
            self.window.tree_view._replace(tree)

    # -- bootstrap ----------------------------------------------------------------------
    def ask_bootstrap(self) -> None:
        """The Bootstrap tree dialog, then the job."""
        if self.window._need_data(3) is None:
            return
        dialog = BootstrapDialog(self.window)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.run_bootstrap(dialog.replicates.value(), dialog.seed.value(),
                               dialog.method.currentData())

    def run_bootstrap(self, replicates: int = 100, seed: int = 0,
                      method: str = "nj") -> jobs.Job | None:
        """Bootstrap tree of the open alignment on the chosen device; shown in the Tree tab
        with support on every branch (and beside the alignment when that panel is shown)."""
        w = self.window
        data = w._need_data(3)
        if data is None:
            return None
        document = w._document  # the tree names its sequences: dropped if they are closed

        def done(result: jobs.TreeResult) -> None:
            if w._document_gone(document, "Bootstrap"):
                return
            w.tree_view.set_tree(result.tree)
            w.results_changed()
            w.tabs.setCurrentWidget(w.tree_view)
            w.tree_view.fit()

        task = jobs.bootstrap_task(data, w.device, replicates, seed, method)
        return w._start_job(f"Bootstrap ({replicates} × {method.upper()})", task, done)
