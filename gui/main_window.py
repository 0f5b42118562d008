"""The main window: open files, choose a device, run jobs, view and export the results."""

from __future__ import annotations

import atexit
import logging
import os
import sys
import weakref
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QSpinBox,
    QTabWidget,
    QWidget,
)
from shiboken6 import isValid

from bioplug.errors import BioplugError, InputError
from bioplug.io import OUTPUT_FORMATS

from . import export, jobs, search_job
from .alignment_view import AlignmentView
from .benchmark_page import BenchmarkPage, BenchSizes, benchmark_task
from .devices_panel import DevicesPanel
from .documents import AlignmentData, load_file
from .edit_menu import build_edit_menu
from .editing import SnapshotCommand
from .heatmap_view import HeatMapView
from .overview import install_overview
from .progress_view import ProgressView
from .project import SAVE_FORMATS as PROJECT_FORMATS
from .project import SUFFIX as PROJECT_SUFFIX
from .project import install_project_actions, open_project, save_project
from .realign import install_realign
from .tree_menu import TreeFeatures
from .tree_view import TreeView

log = logging.getLogger(__name__)

RECENT_KEY = "recentFiles"
MAX_RECENT = 10
#: File-dialog filters; choosing one of the named formats reads the file as that format.
FORMAT_FILTERS = {
    "FASTA (*.fa *.fasta *.faa *.fna *.fas *.tfa)": "fasta",
    "Clustal (*.aln *.clustal)": "clustal",
    "Stockholm (*.sto *.stockholm)": "stockholm",
    "PHYLIP (*.phy *.phylip)": "phylip",
    "MSF (*.msf)": "msf",
    "NEXUS (*.nex *.nexus)": "nexus",
    "A2M (*.a2m)": "a2m",
    "A3M (*.a3m)": "a3m",
    "GenBank (*.gb *.gbk)": "genbank",
    "EMBL (*.embl)": "embl",
    "FASTQ (*.fastq *.fq)": "fastq",
}
OPEN_FILTER = ";;".join(
    ["Sequences and alignments (*.fa *.fasta *.faa *.fna *.fas *.tfa *.aln *.clustal *.sto "
     "*.stockholm *.phy *.phylip *.msf *.nex *.nexus *.gb *.gbk *.embl *.fastq *.fq *.a2m "
     "*.a3m *.bioplug)"]
    + list(FORMAT_FILTERS) + ["All files (*)"]
)
#: Alignments larger than this are exported on a worker thread.
EXPORT_JOB_CELLS = 1_000_000
#: How long a window closed during a job shows "cancelling…" before it goes anyway (the job
#: then ends unseen; the application waits for it after its last window, see app.py).
CLOSE_GRACE_MS = 1500
#: How long the process waits at exit for a job cancelled by closing its window.
EXIT_WAIT_MS = 60_000
#: Every window's job pool (see :func:`wait_for_jobs`).
_POOLS: weakref.WeakSet = weakref.WeakSet()


def wait_for_jobs(code: int = 0, timeout_ms: int = EXIT_WAIT_MS, pools=None) -> None:
    """Let the jobs still running after their window closed end before Python shuts down.

    Closing a window cancels its job without waiting for it (a kernel can take seconds to
    reach its next progress report). A worker thread running on while the interpreter tears
    down could crash the process, so the (window-less) process waits for it; a job that
    does not stop within ``timeout_ms`` ends the process at once, without that teardown.
    ``bioplug-gui`` calls this when its event loop ends; it also runs at interpreter exit
    for scripts that use :class:`MainWindow`.

    Parameters
    ----------
    code : int
        Exit code of the process when it has to be ended.
    timeout_ms : int
        How long each pool may take to finish (default :data:`EXIT_WAIT_MS`).
    pools : iterable of QThreadPool, optional
        Default: every window's.
    """
    for pool in list(_POOLS if pools is None else pools):
        if not pool.waitForDone(timeout_ms):
            log.warning("a cancelled job did not stop within %.0f s; exiting without waiting",
                        timeout_ms / 1000)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)


atexit.register(wait_for_jobs)

THREE_WAY_TIP = ("Exact alignment of three sequences: the three highlighted rows, else the "
                 "first three")


class PairDialog(QDialog):
    """Choose two sequences, the mode and the substitution matrix.

    Parameters
    ----------
    records : list of Bio.SeqRecord.SeqRecord
        The open sequences (offered by id); they choose the preselected matrix
        (:func:`jobs.default_matrix`: NUC.4.4 for nucleotides, else BLOSUM62).
    first, second : int
        The rows preselected as target and query.
    parent : QWidget, optional
    """

    def __init__(self, records: list, first: int, second: int,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Pairwise alignment")
        names = [r.id for r in records]
        self.a, self.b = QComboBox(), QComboBox()
        self.a.addItems(names)
        self.b.addItems(names)
        self.a.setCurrentIndex(first)
        self.b.setCurrentIndex(second)
        self.mode = QComboBox()
        self.mode.addItems(list(jobs.PAIRWISE_MODES))
        self.matrix = QComboBox()
        self.matrix.addItems(list(jobs.PAIRWISE_MATRICES))
        self.matrix.setCurrentText(jobs.default_matrix(records))
        form = QFormLayout(self)
        form.addRow("Target", self.a)
        form.addRow("Query", self.b)
        form.addRow("Mode", self.mode)
        form.addRow("Matrix", self.matrix)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class MsaDialog(QDialog):
    """Method (QuickProbs or progressive) and the QuickProbs options."""

    def __init__(self, parent: QWidget | None = None, tree: str | None = None,
                 nucleotide: bool = False):
        super().__init__(parent)
        self.setWindowTitle("Multiple alignment")
        self.method = QComboBox()
        self.method.addItem("QuickProbs (accurate; proteins, DNA, RNA)", "quickprobs")
        self.method.addItem("Progressive (ClustalW-style: big families)", "progressive")
        self.tree = tree
        self.along_tree = QCheckBox("Along the tree in the Tree tab (as Clustal Omega's "
                                    "--guidetree-in)")
        self.along_tree.setEnabled(tree is not None)
        self.adjust_direction = QCheckBox("Turn sequences that face the other way first "
                                          "(named _R_…; as mafft --adjustdirection)")
        self.adjust_direction.setEnabled(nucleotide)
        self.consistency = QSpinBox()
        self.consistency.setRange(0, 10)
        self.consistency.setValue(2)
        self.refinement = QSpinBox()
        self.refinement.setRange(0, 100)
        self.refinement.setValue(10)
        self.accurate = QCheckBox("QuickProbs-acc (per-matrix posterior threshold)")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        form = QFormLayout(self)
        form.addRow("Method", self.method)
        self.method.currentIndexChanged.connect(self._method_changed)
        form.addRow("Consistency passes", self.consistency)
        form.addRow("Refinement passes", self.refinement)
        form.addRow("", self.accurate)
        form.addRow("Seed", self.seed)
        form.addRow("Guide tree", self.along_tree)
        form.addRow("DNA / RNA", self.adjust_direction)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _method_changed(self) -> None:
        quickprobs = self.method.currentData() == "quickprobs"
        for widget in (self.consistency, self.refinement, self.accurate, self.seed):
            widget.setEnabled(quickprobs)

    def options(self) -> dict:
        """Keyword arguments for :meth:`MainWindow.run_msa`."""
        tree = {"guide_tree": self.tree} if self.along_tree.isChecked() else {}
        if self.adjust_direction.isChecked():
            tree["adjust_direction"] = True
        if self.method.currentData() == "progressive":
            return {"method": "progressive", **tree}
        return {"seed": self.seed.value(), "consistency": self.consistency.value(),
                "refinement": self.refinement.value(), "accurate": self.accurate.isChecked(),
                **tree}


class TreeDialog(QDialog):
    """Tree method and distance kind."""

    def __init__(self, aligned: bool, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Tree")
        self.method = QComboBox()
        self.method.addItem("Neighbor-joining", "nj")
        self.method.addItem("UPGMA", "upgma")
        self.distance = QComboBox()
        for key, text in jobs.DISTANCES.items():
            if key == "msa" and not aligned:
                continue
            self.distance.addItem(text, key)
        form = QFormLayout(self)
        form.addRow("Method", self.method)
        form.addRow("Distance", self.distance)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class MainWindow(QMainWindow):
    """bioplug's desktop application window.

    Parameters
    ----------
    settings : QSettings, optional
        Where the device choice and recent files live (default: the user's settings).
    data_dir : path-like, optional
        Folder of the benchmark history (default: ``QStandardPaths.AppDataLocation``).

    Signals
    -------
    errorShown(str)
        An error was shown to the user (the message, as the CLI prints it).
    dataLoaded(object)
        New :class:`~bioplug.gui.documents.AlignmentData` in the viewer.
    jobStarted(object)
        A :class:`~bioplug.gui.jobs.Job` is about to start (its signals can be connected).
    jobFinished(str, str)
        A job ended: its name and ``done``, ``cancelled`` or ``failed``.
    """

    errorShown = Signal(str)
    dataLoaded = Signal(object)
    jobStarted = Signal(object)
    jobFinished = Signal(str, str)

    #: Set False to record errors without opening a message box (scripts, tests); unsaved
    #: changes are then discarded without a question, with a logged warning.
    show_dialogs = True

    def __init__(self, settings: QSettings | None = None,
                 data_dir: str | os.PathLike | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings if settings is not None else QSettings()
        self.setWindowTitle("bioplug")
        self.resize(1280, 820)
        self.setAcceptDrops(True)
        self.data: AlignmentData | None = None
        self.inputs: list[Path] = []  # every file opened: never written
        self.job: jobs.Job | None = None
        # Not a child of the window: deleting the window (WA_DeleteOnClose) would run the
        # pool's destructor, which waits for a running job on the UI thread.
        self.pool = QThreadPool()
        self.pool.setMaxThreadCount(1)
        _POOLS.add(self.pool)
        self.last_error: str | None = None
        self.last_error_box: QMessageBox | None = None
        self.last_result_box: QMessageBox | None = None
        self.last_unsaved_box: QMessageBox | None = None  # see _ask_unsaved
        #: A job's alignment not shown because the document changed while it ran:
        #: ``(text, AlignmentData)`` until :meth:`open_pending_result` or discarded.
        self.pending_result: tuple[str, AlignmentData] | None = None
        self._document = 0  # counts the documents opened (tells a job's results apart)
        self._closing = False
        self._unsaved_settled = False  # closing: the changes were saved or discarded
        self._syncing = False
        #: The tree or heat map changed since the document was opened or saved (they are
        #: not on the undo stack); see :meth:`is_modified`.
        self._results_dirty = False

        self._build_tabs(data_dir)

        self._build_docks()

        self.progress_view.cancelRequested.connect(self.cancel_job)
        self.tree_view.leavesSelected.connect(self._tree_selected)
        self.alignment_view.rowsHighlighted.connect(self._rows_highlighted)
        self.heatmap.pairClicked.connect(self.align_pair_by_name)
        self.benchmark_page.runRequested.connect(self.run_benchmarks)
        self.benchmark_page.export_button.clicked.connect(self._ask_export_csv)
        self.devices_panel.deviceChanged.connect(self._device_changed)
        self.benchmark_page.set_devices(self.devices_panel.devices,
                                        self.devices_panel.current_spec())
        self._build_actions()
        self.tree_features = TreeFeatures(self)
        self.overview_dock = install_overview(self)
        install_project_actions(self)
        self.realigner = install_realign(self)
        # the title's "*" follows the undo stack: an undo back to the saved state clears it
        self.alignment_view.editor.stack.cleanChanged.connect(self._clean_changed)
        self.tree_view.treeEdited.connect(self.results_changed)
        self._update_actions()
        geometry = self.settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
            self.restoreState(self.settings.value("window/state"))
        if self.devices_panel.error:
            self.statusBar().showMessage(self.devices_panel.error)

    def _build_tabs(self, data_dir) -> None:
        """The central tabs: alignment, pairwise report, heat map, tree, benchmarks (whose
        history lives in ``data_dir``)."""
        self.alignment_view = AlignmentView()
        self.pair_text = QPlainTextEdit()
        self.pair_text.setReadOnly(True)
        self.pair_text.setPlaceholderText("Run Jobs ▸ Pairwise alignment to align two sequences.")
        font = self.pair_text.font()
        font.setFamily("Monospace")
        font.setStyleHint(font.StyleHint.TypeWriter)
        self.pair_text.setFont(font)
        self.heatmap = HeatMapView()
        self.tree_view = TreeView()
        self.benchmark_page = BenchmarkPage(data_dir)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.alignment_view, "Alignment")
        self.tabs.addTab(self.pair_text, "Pairwise")
        self.tabs.addTab(self.heatmap, "Heat map")
        self.tabs.addTab(self.tree_view, "Tree")
        self.tabs.addTab(self.benchmark_page, "Benchmarks")
        self.setCentralWidget(self.tabs)

    def _build_docks(self) -> None:
        """The devices panel and the progress view, side by side at the bottom."""
        self.devices_panel = DevicesPanel(self.settings)
        self.progress_view = ProgressView()
        dock = QDockWidget("Devices", self)
        dock.setWidget(self.devices_panel)
        dock.setObjectName("devicesDock")
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        pdock = QDockWidget("Progress", self)
        pdock.setWidget(self.progress_view)
        pdock.setObjectName("progressDock")
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, pdock)
        self.splitDockWidget(dock, pdock, Qt.Orientation.Horizontal)
        self.devices_dock, self.progress_dock = dock, pdock
        self.resizeDocks([dock, pdock], [200, 200], Qt.Orientation.Vertical)

    # -- menus --------------------------------------------------------------------------
    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        act = QAction(text, self)
        act.triggered.connect(slot)
        if shortcut is not None:
            act.setShortcut(shortcut)
        if tip:
            act.setStatusTip(tip)
            act.setToolTip(tip)
        return act

    def _build_actions(self) -> None:
        a = self._action
        self.act_open = a("&Open…", self._ask_open, QKeySequence.StandardKey.Open,
                          "Open sequences or an alignment")
        self.act_export_aln = a("Export &alignment…", self._ask_export_alignment,
                                QKeySequence("Ctrl+E"),
                                "FASTA, Clustal, Stockholm, PHYLIP or NEXUS")
        self.act_export_img = a("Export &image of this view…", self._ask_export_image,
                                QKeySequence("Ctrl+Shift+E"), "PNG or SVG")
        self.act_export_tree = a("Export &tree (Newick)…", self._ask_export_newick)
        self.act_quit = a("&Quit", self.close, QKeySequence.StandardKey.Quit)
        # lambdas, not the methods: QAction.triggered hands a slot that takes arguments its
        # ``checked`` flag, which would become run_msa's seed and run_all_vs_all's mode
        self.act_msa = a("&Multiple alignment", lambda: self.run_msa(), QKeySequence("Ctrl+M"),
                         "Align all sequences (QuickProbs) on the chosen device")
        self.act_pair = a("&Pairwise alignment…", self._ask_pairwise, QKeySequence("Ctrl+P"),
                          "Align two sequences")
        self.act_all = a("&All-vs-all scores (heat map)", lambda: self.run_all_vs_all(), None,
                         "Pairwise scores of every pair")
        self.act_nj = a("Tree (&NJ)", lambda: self.run_tree("nj"), QKeySequence("Ctrl+T"),
                        "Neighbor-joining tree")
        self.act_upgma = a("Tree (&UPGMA)", lambda: self.run_tree("upgma"), None, "UPGMA tree")
        self.act_msa_opts = a("Multiple alignment with &options…", self._ask_msa, None,
                              "Consistency and refinement passes, accurate mode, seed")
        self.act_tree_opts = a("Tree with o&ptions…", self._ask_tree, None,
                               "Tree method and distance")
        self.act_three = a("&Three-sequence alignment", lambda: self.run_three(), None,
                           THREE_WAY_TIP)
        self.act_search = a("Database &search…", lambda: search_job.ask_search(self), None,
                            "Search the selected (or all) sequences against a FASTA database "
                            "(exact Smith-Waterman)")
        self.act_cancel = a("&Cancel job", self.cancel_job, QKeySequence("Esc"))
        self.act_find = a("&Find…", self._focus_find, QKeySequence.StandardKey.Find,
                          "Find a sequence by name or residue motif")
        self.act_zoom_in = a("Zoom &in", self.alignment_view.canvas.zoom_in,
                             QKeySequence.StandardKey.ZoomIn)
        self.act_zoom_out = a("Zoom &out", self.alignment_view.canvas.zoom_out,
                              QKeySequence.StandardKey.ZoomOut)
        # Ctrl+= too, as browsers and editors take it: "+" needs Shift on most keyboards
        self.act_zoom_in.setShortcuts(
            QKeySequence.keyBindings(QKeySequence.StandardKey.ZoomIn) + [QKeySequence("Ctrl+=")])

        menu = self.menuBar().addMenu("&File")
        menu.addAction(self.act_open)
        self.recent_menu = menu.addMenu("Open &recent")
        menu.addSeparator()
        for act in (self.act_export_aln, self.act_export_img, self.act_export_tree):
            menu.addAction(act)
        menu.addSeparator()
        menu.addAction(self.act_quit)
        menu = self.menuBar().addMenu("&Jobs")
        for act in (self.act_pair, self.act_all, self.act_msa, self.act_msa_opts, self.act_nj,
                    self.act_upgma, self.act_tree_opts,
                    self.act_three, self.act_search):
            menu.addAction(act)
        menu.addSeparator()
        menu.addAction(self.act_cancel)
        menu = self.menuBar().addMenu("&View")
        self.edit_menu = build_edit_menu(self)
        menu.addAction(self.act_find)
        menu.addAction(self.act_zoom_in)
        menu.addAction(self.act_zoom_out)
        menu.addAction(self.devices_dock.toggleViewAction())
        menu.addAction(self.progress_dock.toggleViewAction())
        bar = self.addToolBar("Main")
        bar.setObjectName("mainToolbar")
        for act in (self.act_open, self.act_msa, self.act_pair, self.act_all, self.act_nj,
                    self.act_upgma, self.act_cancel):
            bar.addAction(act)
        self._fill_recent()

    def _update_actions(self) -> None:
        busy = self.job is not None
        has = self.data is not None
        n = len(self.data.records) if has else 0
        self.act_msa.setEnabled(not busy and n >= 2)
        self.act_pair.setEnabled(not busy and n >= 2)
        self.act_all.setEnabled(not busy and n >= 2)
        self.act_search.setEnabled(not busy and n >= 1)
        self.act_nj.setEnabled(not busy and n >= 2)
        self.act_upgma.setEnabled(not busy and n >= 2)
        self.act_msa_opts.setEnabled(not busy and n >= 2)
        self.act_tree_opts.setEnabled(not busy and n >= 2)
        self.act_three.setEnabled(not busy and n >= 3)
        self.act_cancel.setEnabled(busy)
        self.act_export_aln.setEnabled(has)
        self.act_copy.setEnabled(has)
        self.act_open.setEnabled(True)
        self.benchmark_page.run_button.setEnabled(not busy)

    def _focus_find(self) -> None:
        self.tabs.setCurrentWidget(self.alignment_view)
        self.alignment_view.find_edit.setFocus()
        self.alignment_view.find_edit.selectAll()

    # -- errors -------------------------------------------------------------------------
    def show_error(self, message: str, title: str = "bioplug") -> None:
        """Tell the user: emits :attr:`errorShown`, then a (non-blocking) message box.

        The message is the same text the command line prints for the error.
        """
        self.last_error = message
        log.info("error shown: %s", message)
        self.errorShown.emit(message)
        if self.show_dialogs:
            box = QMessageBox(QMessageBox.Icon.Critical, title, message,
                              QMessageBox.StandardButton.Ok, self)
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
            self.last_error_box = box
            box.open()

    # -- files --------------------------------------------------------------------------
    def open_file(self, path: str | os.PathLike, fmt: str | None = None) -> bool:
        """Read a sequence or alignment file into the viewer (errors shown as a dialog).

        Unsaved changes to the open document are asked about first (:meth:`maybe_save`);
        the file is read once they are saved or discarded.

        Returns
        -------
        bool
            Whether it was opened (False too while the question waits for an answer).
        """
        if Path(path).suffix.lower() == PROJECT_SUFFIX:
            return self.open_project(path)
        return self.maybe_save(f"opening {Path(path).name}",
                               lambda: self._read_file(path, fmt))

    def _read_file(self, path: str | os.PathLike, fmt: str | None) -> bool:
        """:meth:`open_file` once nothing unsaved is in the way."""
        try:
            data = load_file(path, fmt)
        except BioplugError as exc:
            self.show_error(str(exc), "Cannot open file")
            return False
        except (OSError, UnicodeDecodeError) as exc:
            self.show_error(f"{path}: {exc}", "Cannot open file")
            return False
        self.inputs.append(Path(path).resolve())
        self._add_recent(str(Path(path).resolve()))
        self.set_data(data)
        return True

    def open_project(self, path: str | os.PathLike) -> bool:
        """Open a saved project (alignment, tree, heat map, colours, selection), once unsaved
        changes are saved or discarded (see :meth:`open_file`)."""
        return self.maybe_save(f"opening {Path(path).name}", lambda: self._read_project(path))

    def _read_project(self, path: str | os.PathLike) -> bool:
        """:meth:`open_project` once nothing unsaved is in the way."""
        try:
            open_project(self, path)
        except (BioplugError, OSError) as exc:
            self.show_error(str(exc), "Cannot open project")
            return False
        # the project as opened is the saved state, rows re-sorted for its tree included
        self._set_saved()
        self.inputs.append(Path(path).resolve())
        self._add_recent(str(Path(path).resolve()))
        return True

    def save_project(self, path: str | os.PathLike) -> Path | None:
        """Save the session as one ``.bioplug`` file, atomically (see :mod:`.project`)."""
        inputs = [p for p in self.inputs if p.suffix.lower() != PROJECT_SUFFIX]
        saved, self.inputs = self.inputs, inputs  # a project may be saved over itself
        try:
            out = self._guarded(save_project, self, path)
        finally:
            self.inputs = saved
        if out is not None:
            self._set_saved()
        return out

    def ask_save_project(self) -> bool:
        """File ▸ Save project…: ask for a file (beside the document), then save.

        Returns
        -------
        bool
            Whether the project was written (False: the dialog was cancelled, or the write
            failed and its error was shown).
        """
        picked = self._ask_save("Save project", PROJECT_FORMATS, self._export_stem())
        return picked is not None and self.save_project(picked[0]) is not None

    # -- unsaved changes ----------------------------------------------------------------
    def is_modified(self) -> bool:
        """Whether the document has changed since it was opened or last saved as a project.

        Returns
        -------
        bool
            True after a change to the rows (edits, and job results that replace them:
            every step of the undo stack) or to what a project saves beside them and the
            undo stack does not hold (a new or edited tree, a new heat map:
            :meth:`results_changed`).
        """
        return self.data is not None and (self._results_dirty
                                          or not self.alignment_view.editor.stack.isClean())

    def results_changed(self) -> None:
        """Count the document as modified: its tree or heat map (saved in a project, not on
        the undo stack) changed, so closing or opening another file asks first."""
        self._results_dirty = True
        self._update_modified()

    def _set_saved(self) -> None:
        """The document as it is now is the saved (or opened) state."""
        self._results_dirty = False
        self.alignment_view.editor.stack.setClean()
        # the stack may have been clean already (only results changed): no cleanChanged
        self._update_modified()

    def _update_modified(self) -> None:
        # the title's [*] mark shows is_modified(), its one source of truth
        self.setWindowModified(self.is_modified())

    def maybe_save(self, action: str, proceed: Callable[[], bool]) -> bool:
        """Run ``proceed`` (which replaces or closes the document) now if nothing is
        unsaved; else ask Save / Discard / Cancel (:meth:`_ask_unsaved`), as editors do, and
        run it once the changes are saved as a project or discarded. Cancel, or a save that
        did not happen, keeps everything as it is.

        Parameters
        ----------
        action : str
            What ``proceed`` does ("closing", "opening x.fasta"), for the question.
        proceed : callable
            Returns whether it succeeded.

        Returns
        -------
        bool
            What ``proceed`` returned, if it ran before this returns; else False.
        """
        ran: list[bool] = []

        def go() -> None:
            ran.append(bool(proceed()))

        if not self.is_modified():
            go()
        elif self.last_unsaved_box is not None and self.last_unsaved_box.isVisible():
            self.last_unsaved_box.raise_()  # answer the question already asked first
        else:
            self._ask_unsaved(action, lambda answer: self._unsaved_answered(answer, action, go))
        return bool(ran and ran[0])

    def _unsaved_answered(self, answer: QMessageBox.StandardButton, action: str,
                          go: Callable[[], None]) -> None:
        if answer == QMessageBox.StandardButton.Save:
            if self.ask_save_project():
                go()
        elif answer == QMessageBox.StandardButton.Discard:
            log.info("unsaved changes to %s discarded before %s", self.data.title, action)
            go()
        else:
            self.statusBar().showMessage(f"{action[0].upper()}{action[1:]} cancelled: the "
                                         "changes are kept", 8000)

    def _ask_unsaved(self, action: str,
                     answered: Callable[[QMessageBox.StandardButton], None]) -> None:
        """The one place the unsaved-changes question is asked (tests replace it).

        A window-modal box that does not block (:attr:`last_unsaved_box`); ``answered`` gets
        ``Save``, ``Discard`` or ``Cancel`` (also Escape and closing the box). Without
        :attr:`show_dialogs` nobody can answer: ``Discard`` at once, with a logged warning.
        """
        if not self.show_dialogs:
            log.warning("discarding unsaved changes to %s before %s (dialogs are off)",
                        self.data.title or "the document", action)
            answered(QMessageBox.StandardButton.Discard)
            return
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        box = QMessageBox(QMessageBox.Icon.Warning, "Unsaved changes",
                          f"{self.data.title or 'The document'} has changes that are not "
                          f"saved.\n\nSave them as a project before {action}?", buttons, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        box.setEscapeButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda _: answered(box.standardButton(box.clickedButton())
                                                if box.clickedButton() is not None
                                                else QMessageBox.StandardButton.Cancel))
        self.last_unsaved_box = box
        box.open()

    def _clean_changed(self, clean: bool) -> None:
        # a method, not a lambda: Qt disconnects it when the window is deleted (the stack
        # still signals while it goes). An undo back to clean rows leaves a changed tree or
        # heat map modified, hence is_modified() rather than ``not clean``.
        self._update_modified()

    def set_data(self, data: AlignmentData) -> None:
        """Show sequences or an alignment as a new document (a file or a project).

        The previous document's tree, heat map and pairwise report go with it: they name
        sequences that are no longer open. The undo history starts afresh.
        """
        self._document += 1
        self._clear_results()
        self._results_dirty = False  # the results just cleared were the only ones
        self.data = data
        self.alignment_view.set_data(data)
        self._update_title()
        self._update_modified()  # an already clean stack sends no cleanChanged
        self.tabs.setCurrentWidget(self.alignment_view)
        self._update_actions()
        self.dataLoaded.emit(data)

    def document_edited(self, data: AlignmentData) -> None:
        """The open document after an edit, an undo or a redo: what exports write, the
        title's row count and which jobs can run follow it."""
        self.data = data
        self._update_title()
        self._update_actions()

    def _update_title(self) -> None:
        data = self.data
        if data is None:
            self.setWindowTitle("bioplug")
            return
        n = data.shape[0]
        kind = ("aligned " if data.aligned else "") + ("sequence" if n == 1 else "sequences")
        # [*]: Qt shows "*" there while setWindowModified(True) (unsaved changes)
        self.setWindowTitle(f"bioplug — {data.title or 'untitled'} ({n} {kind})[*]")

    def _clear_results(self) -> None:
        """Forget the tree, heat map, pairwise report and offered job result of the
        previous document."""
        self.pending_result = None
        if self.last_result_box is not None and self.last_result_box.isVisible():
            self.last_result_box.close()
        if self.tree_features.act_beside.isChecked():
            self.tree_features.show_beside(False)
        if self.tree_view.tree is not None:
            self.tree_view.set_tree(None)
        if getattr(self, "tree_features", None) is not None:
            self.tree_features.keep_guide_tree(None)
        if self.heatmap.names:
            self.heatmap.clear()
        self.pair_text.clear()

    def _add_recent(self, path: str) -> None:
        recent = [p for p in self.recent_files() if p != path]
        recent.insert(0, path)
        self.settings.setValue(RECENT_KEY, recent[:MAX_RECENT])
        self.settings.sync()
        self._fill_recent()

    def recent_files(self) -> list[str]:
        """Recently opened files, newest first."""
        value = self.settings.value(RECENT_KEY, [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent_files():
            act = self.recent_menu.addAction(path)
            act.triggered.connect(lambda _=False, p=path: self.open_file(p))
        self.recent_menu.setEnabled(bool(self.recent_files()))

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_file(url.toLocalFile())
                event.acceptProposedAction()
                return

    def _ask_open(self) -> None:
        path, chosen = QFileDialog.getOpenFileName(self, "Open sequences or an alignment", "",
                                              OPEN_FILTER)
        if path:
            self.open_file(path, FORMAT_FILTERS.get(chosen))

    # -- exports ------------------------------------------------------------------------
    def _guarded(self, fn, *args) -> Path | None:
        try:
            out = fn(*args)
        except BioplugError as exc:
            self.show_error(str(exc), "Export failed")
            return None
        except OSError as exc:
            self.show_error(f"{exc.filename or ''}: {exc.strerror or exc}", "Export failed")
            return None
        self.statusBar().showMessage(f"wrote {out}", 5000)
        return out

    def export_alignment(self, path: str | os.PathLike, fmt: str | None = None,
                         background: bool | None = None) -> Path | None:
        """Write the alignment (FASTA, Clustal, Stockholm, PHYLIP or NEXUS), never over an
        opened file.

        Parameters
        ----------
        path : path-like
        fmt : str, optional
            A key of :data:`export.ALIGNMENT_EXPORTS`; default: from the extension, as the
            command line's ``-o`` (FASTA for an unknown one).
        background : bool, optional
            Write on a worker thread (as a job, with progress and Cancel); default: for
            alignments of more than :data:`EXPORT_JOB_CELLS` cells. A cancelled write leaves
            no file.

        Returns
        -------
        pathlib.Path or None
            The file; None on error or when written in the background (see
            :attr:`jobFinished`).
        """
        if self.data is None:
            self.show_error("nothing to export: open sequences first", "Export failed")
            return None
        n, length = self.data.shape
        if background is None:
            background = n * length > EXPORT_JOB_CELLS
        if not background:
            out = self._guarded(self._write_alignment, path, fmt)
            note = export.export_note(self.data, export.alignment_format(out, fmt)) \
                if out is not None else ""
            if note:
                self.statusBar().showMessage(f"wrote {out} ({note})", 8000)
            return out
        data = self.data
        self._start_job("Export", lambda progress: self._write_alignment(path, fmt, data,
                                                                          progress),
                        lambda out: self.statusBar().showMessage(f"wrote {out}", 5000),
                        uses_device=False)
        return None

    def _write_alignment(self, path, fmt, data: AlignmentData | None = None,
                         progress=None) -> Path:
        for src in self.inputs:
            if Path(path).resolve() == src:
                raise InputError(f"{path}: refusing to overwrite an input file")
        return export.write_alignment_file(data or self.data, path, fmt, self.inputs,
                                           progress)

    def export_view_image(self, path: str | os.PathLike) -> Path | None:
        """PNG or SVG of the current tab (alignment, heat map, tree or benchmark charts)."""
        widget = self.tabs.currentWidget()
        if widget is self.alignment_view:
            fn = self.alignment_view.export_image
        elif widget is self.tree_view:
            fn = lambda p: self.tree_view.export_image(p, self.inputs)  # noqa: E731
        elif widget is self.heatmap:
            fn = lambda p: self.heatmap.export_image(p, self.inputs)  # noqa: E731
        elif widget is self.benchmark_page:
            fn = self.benchmark_page.export_image
        else:
            self.show_error("this view has no image export; use the alignment, heat map, tree "
                            "or benchmark tab", "Export failed")
            return None
        return self._guarded(fn, path)

    def export_newick(self, path: str | os.PathLike) -> Path | None:
        """Write the tree as Newick."""
        return self._guarded(self.tree_view.export_newick, path, self.inputs)

    # -- save dialogs -------------------------------------------------------------------
    def _export_folder(self) -> Path:
        """Where save dialogs start: the open document's folder, else the last input's."""
        source = self.data.source if self.data is not None else None
        if source is None and self.inputs:
            source = self.inputs[-1]
        return Path(source).resolve().parent if source is not None else Path.home()

    def _export_stem(self, what: str = "") -> str:
        """A file name from the open document's (``BB11001``, ``BB11001_tree``)."""
        source = self.data.source if self.data is not None else None
        stem = Path(source).stem if source is not None else "bioplug"
        return f"{stem}_{what}" if what else stem

    def _ask_save(self, title: str, formats: dict, stem: str, fmt: str | None = None,
                  known: dict | None = None) -> tuple[Path, str] | None:
        """A save dialog for ``formats`` (see :mod:`.export`), starting at ``stem`` in the
        document's folder (``fmt`` chosen); returns the file and the format its filter or
        extension (one of ``formats`` or ``known``) chose."""
        fmt = fmt if fmt in formats else next(iter(formats))
        start = export.default_name(stem, formats, fmt, self._export_folder(), self.inputs)
        filters = export.name_filters(formats)
        dialog = QFileDialog(self, title, str(start.parent))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters(filters)
        dialog.selectNameFilter(filters[list(formats).index(fmt)])
        dialog.selectFile(str(start))
        if dialog.exec() != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return None
        typed = Path(dialog.selectedFiles()[0])
        path, chosen = export.resolve_save(typed, dialog.selectedNameFilter(), formats,
                                           known)
        if path != typed and path.exists() and QMessageBox.question(
                self, title, f"{path.name} already exists. Replace it?") \
                != QMessageBox.StandardButton.Yes:
            return None  # the dialog asked about the name typed, not this one
        return path, chosen

    def _ask_export_alignment(self) -> None:
        key = "export/alignmentFormat"
        picked = self._ask_save("Export alignment", export.ALIGNMENT_EXPORTS,
                                self._export_stem(), str(self.settings.value(key, "fasta")),
                                OUTPUT_FORMATS)
        if picked:
            self.settings.setValue(key, picked[1])
            self.export_alignment(*picked)

    def _ask_export_image(self) -> None:
        tab = {self.alignment_view: "alignment", self.tree_view: "tree",
               self.heatmap: "heatmap", self.benchmark_page: "benchmarks"}
        what = tab.get(self.tabs.currentWidget(), "view")
        picked = self._ask_save("Export image", export.IMAGE_EXPORTS, self._export_stem(what))
        if picked:
            self.export_view_image(picked[0])

    def _ask_export_newick(self) -> None:
        picked = self._ask_save("Export tree", export.NEWICK_EXPORTS, self._export_stem())
        if picked:
            self.export_newick(picked[0])

    def _ask_export_csv(self) -> None:
        picked = self._ask_save("Export benchmark history", export.CSV_EXPORTS, "benchmarks")
        if picked:
            self._guarded(self.benchmark_page.export_csv, picked[0])

    # -- jobs ---------------------------------------------------------------------------
    @property
    def device(self) -> str | None:
        """The chosen device's ``"P:D"`` specification (None: bioplug's default)."""
        return self.devices_panel.current_spec()

    def _device_changed(self, spec: str) -> None:
        self.statusBar().showMessage(f"device {spec} chosen for every job", 4000)

    def _need_data(self, at_least: int = 2) -> AlignmentData | None:
        if self.data is None:
            self.show_error("open sequences first (File ▸ Open)")
            return None
        if len(self.data.records) < at_least:
            self.show_error(f"this job needs at least {at_least} sequences")
            return None
        return self.data

    def _start_job(self, name: str, fn, on_result, uses_device: bool = True) -> jobs.Job | None:
        """Run ``fn`` as a job; ``on_result(result)`` on the GUI thread when it is done.

        Parameters
        ----------
        name : str
            The job's name in the progress view, the status bar and :attr:`jobFinished`.
        fn : callable
            ``fn(progress) -> result`` (see :class:`jobs.Job`); a result is "done" even when
            a cancel came after its last progress report.
        on_result : callable or None
        uses_device : bool
            Whether the job runs on the chosen OpenCL device (named in its title).
        """
        if self.job is not None:
            self.show_error(f"{self.job.name} is still running; wait or cancel it first")
            return None
        job = jobs.Job(name, fn)
        job.signals.stage.connect(self.progress_view.on_stage)
        job.signals.finished.connect(lambda result: self._job_done(job, "done", result,
                                                                   on_result))
        job.signals.failed.connect(lambda msg: self._job_done(job, "failed", msg, None))
        job.signals.cancelled.connect(lambda: self._job_done(job, "cancelled", None, None))
        self.job = job
        where = f" on {self.device or 'the default device'}" if uses_device else ""
        self.progress_view.start(f"{name}{where}")
        self.progress_dock.show()
        self._update_actions()
        self.statusBar().showMessage(f"{name} running{where}")
        self.jobStarted.emit(job)
        job.start(self.pool)
        return job

    def _job_done(self, job: jobs.Job, status: str, payload, on_result) -> None:
        self.job = None
        if self._closing:  # the window is going: no results, no message boxes
            if isValid(self):  # else deleted on close; the job outlived it
                self.jobFinished.emit(job.name, status)
                if self.isVisible():
                    QTimer.singleShot(0, self, self.close)
            return
        self.progress_view.finish(status)
        self._update_actions()
        self.statusBar().showMessage(f"{job.name}: {status} ({job.elapsed:.1f} s)", 8000)
        if status == "done" and on_result is not None:
            try:
                on_result(payload)
            except BioplugError as exc:
                self.show_error(str(exc), f"{job.name} failed")
                status = "failed"
        elif status == "failed":
            self.show_error(str(payload), f"{job.name} failed")
        self.jobFinished.emit(job.name, status)

    def cancel_job(self) -> None:
        """Stop the running job at its next progress report (between kernel launches)."""
        if self.job is not None:
            self.job.cancel()
            self.progress_view.show_cancelling()
            self.statusBar().showMessage(f"cancelling {self.job.name}…")

    # -- results that replace the document ---------------------------------------------
    def _document_gone(self, document: int, job_name: str) -> bool:
        """Whether another document was opened since a job of ``document`` started (its
        result names sequences that are no longer open: it is dropped, with a message)."""
        if document == self._document:
            return False
        self.statusBar().showMessage(f"{job_name}: its sequences were closed while it ran; "
                                     "the result was dropped", 15000)
        return True

    def _load_result(self, job_name: str, started_from: AlignmentData,
                     result: AlignmentData, text: str) -> None:
        """Show a job's alignment as one undoable step, if the document is still the one
        the job started from (as the realign jobs check); else keep the user's document and
        offer the result (:attr:`pending_result`)."""
        if self.alignment_view.data is started_from:
            self._push_document(text, result)
            return
        self.pending_result = (text, result)
        message = (f"{job_name}: the document changed while the job ran (another file was "
                   "opened, or it was edited), so it was left as it is.")
        self.statusBar().showMessage(message, 15000)
        log.info("%s", message)
        if not self.show_dialogs:
            return
        box = QMessageBox(QMessageBox.Icon.Question, job_name,
                          f"{message}\n\nShow the result instead? Edit ▸ Undo brings your "
                          "document back.", QMessageBox.StandardButton.NoButton, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        show = box.addButton("Show the result", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Discard it", QMessageBox.ButtonRole.RejectRole)
        box.buttonClicked.connect(lambda button: self.open_pending_result()
                                  if button is show else self._drop_pending_result())
        self.last_result_box = box
        box.open()

    def open_pending_result(self) -> bool:
        """Show :attr:`pending_result` (one undoable step over the document as it is now).

        Returns
        -------
        bool
            Whether there was one.
        """
        pending, self.pending_result = self.pending_result, None
        if pending is None or self.data is None:
            return False
        self._push_document(*pending)
        return True

    def _drop_pending_result(self) -> None:
        self.pending_result = None

    def _push_document(self, text: str, result: AlignmentData) -> None:
        """Replace the rows by ``result`` as an undo step: Undo brings the rows back."""
        self.pending_result = None
        self.alignment_view.editor.stack.push(
            SnapshotCommand(text, self.alignment_view.data, result, self._show_document))
        self.tabs.setCurrentWidget(self.alignment_view)

    def _show_document(self, data: AlignmentData) -> None:
        """Apply (or undo) a result: the selection's columns belong to the other rows."""
        view = self.alignment_view
        view.clear_selection()
        view.show_edited(data)
        view.editor.edited.emit(data)  # as an edit: the window, tree menu and title follow

    def run_msa(self, seed: int = 0, **options) -> jobs.Job | None:
        """Multiple alignment of the open sequences; the result replaces the view.

        Parameters
        ----------
        seed : int
            Refinement seed.
        **options
            ``method="progressive"`` for :class:`bioplug.ProgressiveAligner`, else
            ``consistency``, ``refinement``, ``accurate`` of
            :class:`bioplug.MultipleSequenceAligner`.
        """
        data = self._need_data(2)
        if data is None:
            return None
        source = data.source
        shown = self.alignment_view.data

        def done(alignment) -> None:
            result = AlignmentData.from_alignment(alignment, source)
            result.title = f"MSA of {data.title or 'sequences'}"
            self._load_result("Multiple alignment", shown, result, "multiple alignment")
            if self.alignment_view.data is result:   # shown, not offered (document changed)
                self.tree_features.keep_guide_tree(getattr(alignment, "guide_tree", None))

        return self._start_job("Multiple alignment",
                               jobs.msa_task(data.records, self.device, seed, **options), done)

    def _ask_msa(self) -> None:
        if self._need_data(2) is None:
            return
        from bioplug.alphabet import is_nucleotide

        tree = self.tree_view.newick() if self.tree_view.tree is not None else None
        dialog = MsaDialog(self, tree, is_nucleotide([str(r.seq) for r in self.data.records]))
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.run_msa(**dialog.options())

    def _ask_tree(self) -> None:
        if self._need_data(2) is None:
            return
        dialog = TreeDialog(self.data.aligned, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.run_tree(dialog.method.currentData(), dialog.distance.currentData())

    def _ask_pairwise(self) -> None:
        data = self._need_data(2)
        if data is None:
            return
        rows = [data.names.index(n) for n in self.alignment_view.highlighted_names()]
        if len(rows) >= 2:
            first, second = rows[0], rows[1]
        elif len(rows) == 1:
            first, second = rows[0], (1 if rows[0] == 0 else 0)
        else:
            first, second = 0, 1
        dialog = PairDialog(data.records, first, second, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.run_pairwise(dialog.a.currentIndex(), dialog.b.currentIndex(),
                              dialog.mode.currentText(), dialog.matrix.currentText())

    def run_pairwise(self, i: int = 0, j: int = 1, mode: str = "global",
                     matrix: str | None = None) -> jobs.Job | None:
        """Align sequences ``i`` and ``j``; the result goes to the Pairwise tab.

        Parameters
        ----------
        i, j : int
            Rows of the target and the query.
        mode : {"global", "local"}
        matrix : str, optional
            Substitution matrix; default :func:`jobs.default_matrix` of all the open
            sequences (as the dialog and the all-vs-all heat map choose it, so a heat map
            click scores its pair as the map did).
        """
        data = self._need_data(2)
        if data is None:
            return None
        a, b = data.records[i], data.records[j]
        matrix = matrix or jobs.default_matrix(data.records)

        def done(result: jobs.PairResult) -> None:
            from bioplug.pairwise.emboss import emboss_report

            # identity, similarity, gaps and score as EMBOSS needle / water print them
            self.pair_text.setPlainText(emboss_report(
                result.names, result.stats, result.text, mode, result.matrix,
                jobs.PAIRWISE_GAPS[0], jobs.PAIRWISE_GAPS[1]))
            self.tabs.setCurrentWidget(self.pair_text)

        # the file's name first in error messages, as the other jobs' messages
        task = jobs.pairwise_task(a, b, self.device, mode, matrix,
                                  source=data.title or "pairwise alignment")
        return self._start_job("Pairwise alignment", task, done)

    def align_pair_by_name(self, first: str, second: str) -> jobs.Job | None:
        """Pairwise alignment of two open sequences named ``first`` and ``second`` (a heat
        map click)."""
        names = self.data.names if self.data is not None else []
        if first not in names or second not in names:
            self.show_error(f"{first} or {second} is no longer open")
            return None
        return self.run_pairwise(names.index(first), names.index(second))

    def run_three(self, rows: list[int] | None = None) -> jobs.Job | None:
        """Exact alignment of three sequences (``rows``; default: the three highlighted rows,
        else the first three); the result replaces the view."""
        data = self._need_data(3)
        if data is None:
            return None
        if rows is None:
            picked = [data.names.index(n) for n in self.alignment_view.highlighted_names()]
            rows = picked if len(picked) == 3 else [0, 1, 2]
        records = [data.records[i] for i in rows]
        source = data.source
        shown = self.alignment_view.data

        def done(alignment) -> None:
            result = AlignmentData.from_alignment(alignment, source)
            result.title = f"three-way alignment (score {alignment.score:g})"
            self._load_result("Three-sequence alignment", shown, result,
                              "three-sequence alignment")

        return self._start_job("Three-sequence alignment",
                               jobs.three_task(records, self.device), done)

    def run_all_vs_all(self, mode: str = "global",
                       matrix: str | None = None) -> jobs.Job | None:
        """Scores of every pair; the result goes to the heat map.

        Parameters
        ----------
        mode : {"global", "local"}
        matrix : str, optional
            Substitution matrix; default :func:`jobs.default_matrix` (NUC.4.4 for
            nucleotides, else BLOSUM62).
        """
        data = self._need_data(2)
        if data is None:
            return None

        document = self._document

        def done(result: jobs.MatrixResult) -> None:
            if self._document_gone(document, "All-vs-all scores"):
                return
            self.heatmap.set_matrix(result.names, result.scores,
                                    f"{len(result.names)} sequences, {result.mode} "
                                    f"{result.matrix} scores")
            self.results_changed()
            self.tabs.setCurrentWidget(self.heatmap)

        return self._start_job("All-vs-all scores",
                               jobs.all_vs_all_task(data.records, self.device, mode, matrix),
                               done)

    def run_tree(self, method: str = "nj", distance: str = "auto") -> jobs.Job | None:
        """NJ or UPGMA tree of the open sequences / alignment; shown in the Tree tab."""
        data = self._need_data(2)
        if data is None:
            return None

        document = self._document

        def done(result: jobs.TreeResult) -> None:
            if self._document_gone(document, "Tree"):
                return
            self.tree_view.set_tree(result.tree)
            self.results_changed()
            self.tabs.setCurrentWidget(self.tree_view)
            self.tree_view.fit()

        return self._start_job(f"Tree ({method.upper()})",
                               jobs.tree_task(data, self.device, method, distance), done)

    def run_benchmarks(self, devices: list | None = None, names: list | None = None,
                       sizes: BenchSizes | None = None) -> jobs.Job | None:
        """Micro-benchmarks on the ticked devices; results in the Benchmarks tab."""
        devices = devices if devices is not None else self.benchmark_page.checked_devices()
        names = names if names is not None else self.benchmark_page.checked_benchmarks()
        if not devices or not names:
            self.show_error("tick at least one device and one benchmark")
            return None
        if sizes is not None:
            self.benchmark_page.set_sizes(sizes)
        sizes = self.benchmark_page.sizes

        def done(results) -> None:
            self.benchmark_page.add_results(results)
            self.tabs.setCurrentWidget(self.benchmark_page)

        return self._start_job("Benchmarks",
                               benchmark_task([tuple(d) for d in devices], list(names), sizes),
                               done)

    # -- selection sync -----------------------------------------------------------------
    def _tree_selected(self, names: list) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            self.alignment_view.highlight_names(list(names))
        finally:
            self._syncing = False

    def _rows_highlighted(self, names: list) -> None:
        if self._syncing or self.tree_view.tree is None:
            return
        self._syncing = True
        try:
            self.tree_view.select_leaves(list(names))
        finally:
            self._syncing = False

    def closeEvent(self, event) -> None:  # noqa: N802
        """Close at once when idle. During a job: cancel it and show "cancelling…" for up
        to :data:`CLOSE_GRACE_MS` (closing as soon as it stops), then close anyway; a
        second close closes at once. Never waits for the job on the UI thread: a job in a
        long kernel ends unseen (:func:`wait_for_jobs`). Unsaved changes are asked about
        first (:meth:`maybe_save`); Cancel keeps the window, its document and its job."""
        if not (self._closing or self._unsaved_settled) and not self._settle_unsaved():
            event.ignore()  # asked: closes once the changes are saved or discarded
            return
        if self.job is not None and not self._closing:
            self._closing = True
            self.cancel_job()
            self.statusBar().showMessage(f"cancelling {self.job.name}… the window closes "
                                         "when it stops")
            QTimer.singleShot(CLOSE_GRACE_MS, self, self.close)  # not after deletion
            event.ignore()
            return
        self._closing = True  # a job that ends from now on touches no widget
        if self.last_result_box is not None:
            self.last_result_box.close()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()
        super().closeEvent(event)

    def _settle_unsaved(self) -> bool:
        """Whether closing may go on now as far as unsaved changes go (:meth:`maybe_save`).
        An answer that comes after this close event closes the window anew."""
        in_event = [True]

        def settled() -> bool:
            self._unsaved_settled = True
            if not in_event[0]:
                self.close()
            return True

        try:
            return self.maybe_save("closing", settled)
        finally:
            in_event[0] = False

    def jobs_running(self) -> bool:
        """Whether a job (perhaps one cancelled by closing the window) is still running."""
        return self.pool.activeThreadCount() > 0
