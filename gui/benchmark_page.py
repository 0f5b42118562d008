"""Device benchmarking page: pairwise GCUPS, NJ and MSA micro-benchmarks per device.

Inputs are small, fixed and random (generated from a seed), so runs are comparable across
machines and sessions. Each benchmark calls the front-door API (``PairwiseAligner.score_matrix``,
``bioplug.tree.nj``, ``MultipleSequenceAligner.align``) once to warm up (kernel builds, buffers)
and reports the median of the timed repeats. Results go to a bar chart per benchmark and a
history table kept as JSON in the user's data folder (``QStandardPaths.AppDataLocation``),
exportable as CSV.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import json
import logging
import os
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord
from PySide6.QtCore import QStandardPaths, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bioplug.errors import InputError
from bioplug.io import atomic_output

log = logging.getLogger(__name__)

PROTEIN = "ACDEFGHIKLMNPQRSTVWY"
HISTORY_FILE = "benchmark_history.json"
#: name -> (label, unit, higher is better)
BENCHMARKS = {
    "pairwise": ("Pairwise all-vs-all", "GCUPS", True),
    "nj": ("Neighbor-joining", "s", False),
    "msa": ("Multiple alignment", "s", False),
}
BAR_COLOURS = [(70, 110, 200), (230, 130, 40), (60, 160, 90), (190, 70, 70), (130, 90, 180)]
CSV_FIELDS = ["when", "device", "device_name", "benchmark", "value", "unit", "size", "repeats"]


@dataclass
class BenchSizes:
    """Input sizes of the micro-benchmarks."""

    pairwise_n: int = 32
    pairwise_len: int = 200
    nj_n: int = 300
    msa_n: int = 8
    msa_len: int = 100
    repeats: int = 3
    seed: int = 0

    @classmethod
    def small(cls) -> BenchSizes:
        """Tiny inputs (tests, slow devices)."""
        return cls(pairwise_n=6, pairwise_len=40, nj_n=20, msa_n=4, msa_len=30, repeats=1)


@dataclass
class BenchResult:
    """One measurement."""

    when: str
    device: str
    device_name: str
    benchmark: str
    value: float
    unit: str
    size: str
    repeats: int


def random_family(n: int, length: int, seed: int, identity: float = 0.6) -> list[SeqRecord]:
    """``n`` related random protein sequences (a random ancestor, point mutations, indels)."""
    rng = np.random.default_rng(seed)
    letters = np.array(list(PROTEIN))
    ancestor = rng.choice(letters, length)
    out = []
    for i in range(n):
        seq = ancestor.copy()
        mutate = rng.random(length) > identity
        seq[mutate] = rng.choice(letters, int(mutate.sum()))
        keep = rng.random(length) > 0.03
        text = "".join(seq[keep])
        out.append(SeqRecord(Seq(text), id=f"r{i + 1}", description=""))
    return out


def random_distances(n: int, seed: int) -> np.ndarray:
    """A symmetric ``(n, n)`` distance matrix: Euclidean distances of random points."""
    rng = np.random.default_rng(seed)
    pts = rng.random((n, 8))
    return np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(-1))


def _timed(fn, repeats: int) -> float:
    fn()  # warm-up: program builds, buffers
    times = []
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run_benchmark(name: str, device: str, sizes: BenchSizes) -> tuple[float, str]:
    """Run one micro-benchmark on one device.

    Returns
    -------
    value : float
        GCUPS for ``pairwise``, median seconds for ``nj`` and ``msa``.
    size : str
        What was run, e.g. ``"32 x 200 aa"``.
    """
    if name == "pairwise":
        from .jobs import make_pairwise_aligner

        seqs = random_family(sizes.pairwise_n, sizes.pairwise_len, sizes.seed)
        aligner = make_pairwise_aligner(device, "global", "BLOSUM62")
        lengths = np.array([len(s) for s in seqs], dtype=np.float64)
        cells = float((np.outer(lengths, lengths)[np.triu_indices(len(seqs))]).sum())
        seconds = _timed(lambda: aligner.score_matrix(seqs), sizes.repeats)
        return cells / seconds / 1e9, f"{sizes.pairwise_n} x {sizes.pairwise_len} aa"
    if name == "nj":
        from bioplug.tree import nj

        dm = random_distances(sizes.nj_n, sizes.seed)
        seconds = _timed(lambda: nj(dm, device=device), sizes.repeats)
        return seconds, f"{sizes.nj_n} taxa"
    if name == "msa":
        from bioplug import MultipleSequenceAligner

        seqs = random_family(sizes.msa_n, sizes.msa_len, sizes.seed + 1)
        aligner = MultipleSequenceAligner(device=device, seed=0)
        seconds = _timed(lambda: aligner.align(seqs), sizes.repeats)
        return seconds, f"{sizes.msa_n} x {sizes.msa_len} aa"
    raise InputError(f"unknown benchmark {name!r}; use {', '.join(BENCHMARKS)}")


def benchmark_task(devices: list[tuple[str, str]], names: list[str], sizes: BenchSizes):
    """A :class:`bioplug.gui.jobs.Job` function running ``names`` on every device.

    Parameters
    ----------
    devices : list of (spec, name)
    names : list of str
        Keys of :data:`BENCHMARKS`.
    """

    def fn(progress) -> list[BenchResult]:
        results = []
        total = len(devices) * len(names)
        when = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        step = 0
        for spec, dev_name in devices:
            for name in names:
                stage = f"{BENCHMARKS[name][0]} on {spec}"
                if progress(stage, 0, 1) is False:
                    from bioplug.progress import Cancelled

                    raise Cancelled(stage)
                value, size = run_benchmark(name, spec, sizes)
                results.append(BenchResult(when, spec, dev_name, name, float(value),
                                           BENCHMARKS[name][1], size, sizes.repeats))
                step += 1
                progress(stage, 1, 1)
        log.info("benchmarks: %d results over %d steps of %d", len(results), step, total)
        return results

    return fn


def default_data_dir() -> Path:
    """``QStandardPaths.AppDataLocation`` (created on demand)."""
    loc = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(loc or Path.home() / ".bioplug")


class BenchmarkPage(QWidget):
    """Device and benchmark choice, bar charts, history table and CSV export.

    Parameters
    ----------
    data_dir : path-like, optional
        Folder of the history file (default :func:`default_data_dir`).

    Signals
    -------
    runRequested(list, list)
        ``[(spec, name), ...]`` devices and benchmark names; the main window runs the job.
    """

    runRequested = Signal(list, list)

    def __init__(self, data_dir: str | os.PathLike | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.sizes = BenchSizes()
        self.history: list[BenchResult] = self._load_history()
        self.latest: list[BenchResult] = []

        self.device_list = QListWidget()
        self.device_list.setMaximumHeight(80)
        self.checks = {}
        checks_row = QHBoxLayout()
        for key, (label, unit, _) in BENCHMARKS.items():
            box = QCheckBox(f"{label} ({unit})")
            box.setChecked(True)
            self.checks[key] = box
            checks_row.addWidget(box)
        checks_row.addStretch(1)
        self.run_button = QPushButton("Run benchmarks")
        self.run_button.clicked.connect(self._run_clicked)
        self.export_button = QPushButton("Export CSV…")
        checks_row.addWidget(self.run_button)
        checks_row.addWidget(self.export_button)

        self.charts = pg.GraphicsLayoutWidget()
        self.charts.setBackground("w")
        self.plots: dict[str, pg.PlotItem] = {}
        for key, (label, unit, better) in BENCHMARKS.items():
            plot = self.charts.addPlot(title=f"{label} ({unit}, {'higher' if better else 'lower'}"
                                             " is better)")
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            self.plots[key] = plot
        self.bars: dict[str, pg.BarGraphItem] = {}

        self.table = QTableWidget(0, len(CSV_FIELDS))
        self.table.setHorizontalHeaderLabels(CSV_FIELDS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.note = QLabel()
        self.note.setWordWrap(True)

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(QLabel("Devices (tick one or several):"))
        top_layout.addWidget(self.device_list)
        top_layout.addLayout(checks_row)
        top_layout.addWidget(self.charts, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(self.table)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split, 1)
        layout.addWidget(self.note)
        self._fill_table()
        self._describe()

    # -- devices ------------------------------------------------------------------------
    def set_sizes(self, sizes: BenchSizes) -> None:
        """Input sizes of the next runs."""
        self.sizes = sizes
        self._describe()

    def set_devices(self, devices, checked_spec: str | None = None) -> None:
        """List devices (``DeviceInfo``); ``checked_spec`` is ticked (the panel's choice)."""
        self.device_list.clear()
        for d in devices:
            item = QListWidgetItem(f"{d.spec}  {d.name} [{d.platform}]")
            item.setData(Qt.ItemDataRole.UserRole, (d.spec, d.name))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if d.spec == checked_spec or
                               checked_spec is None else Qt.CheckState.Unchecked)
            self.device_list.addItem(item)

    def checked_devices(self) -> list[tuple[str, str]]:
        """``(spec, name)`` of the ticked devices."""
        out = []
        for i in range(self.device_list.count()):
            item = self.device_list.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                out.append(tuple(item.data(Qt.ItemDataRole.UserRole)))
        return out

    def checked_benchmarks(self) -> list[str]:
        """Keys of the ticked benchmarks."""
        return [k for k, box in self.checks.items() if box.isChecked()]

    def _run_clicked(self) -> None:
        self.runRequested.emit(self.checked_devices(), self.checked_benchmarks())

    def _describe(self) -> None:
        s = self.sizes
        self.note.setText(
            f"Inputs (seed {s.seed}): pairwise {s.pairwise_n} × {s.pairwise_len} aa all-vs-all "
            f"(BLOSUM62, global); NJ on {s.nj_n} taxa; MSA of {s.msa_n} × {s.msa_len} aa. "
            f"Median of {s.repeats} after a warm-up. History: {self.history_path}")

    # -- results ------------------------------------------------------------------------
    def add_results(self, results: list[BenchResult]) -> None:
        """Show a run's results in the charts and append them to the history file."""
        self.latest = list(results)
        self.history.extend(results)
        self._save_history()
        self._fill_table()
        self._draw()

    def _draw(self) -> None:
        for key, plot in self.plots.items():
            plot.clear()
            rows = [r for r in self.latest if r.benchmark == key]
            if not rows:
                continue
            x = np.arange(len(rows), dtype=float)
            heights = np.array([r.value for r in rows])
            bar = pg.BarGraphItem(x=x, height=heights, width=0.6,
                                  brushes=[pg.mkBrush(BAR_COLOURS[i % len(BAR_COLOURS)])
                                           for i in range(len(rows))])
            plot.addItem(bar)
            self.bars[key] = bar
            for xi, r in zip(x, rows, strict=True):
                text = pg.TextItem(f"{r.value:.3g}", color=(0, 0, 0), anchor=(0.5, 1.0))
                text.setPos(xi, r.value)
                plot.addItem(text)
            plot.getAxis("bottom").setTicks([[(xi, r.device_name[:18] + f" ({r.device})")
                                              for xi, r in zip(x, rows, strict=True)]])
            plot.setXRange(-0.7, max(len(rows), 3) - 0.3, padding=0)
            plot.setYRange(0, float(heights.max()) * 1.2 if heights.max() > 0 else 1, padding=0)

    def figure_values(self) -> dict[str, list[tuple[str, float]]]:
        """What the charts show: benchmark -> ``[(device, value), ...]``."""
        out: dict[str, list[tuple[str, float]]] = {}
        for r in self.latest:
            out.setdefault(r.benchmark, []).append((r.device, r.value))
        return out

    # -- history ------------------------------------------------------------------------
    @property
    def history_path(self) -> Path:
        """The JSON history file."""
        return self.data_dir / HISTORY_FILE

    def _load_history(self) -> list[BenchResult]:
        try:
            rows = json.loads(self.history_path.read_text())
            return [BenchResult(**row) for row in rows]
        except FileNotFoundError:
            return []
        except (ValueError, TypeError) as exc:
            log.warning("ignoring unreadable benchmark history %s: %s", self.history_path, exc)
            return []

    def _save_history(self) -> None:
        with atomic_output(self.history_path) as handle:
            json.dump([asdict(r) for r in self.history], handle, indent=1)

    def _fill_table(self) -> None:
        rows = list(reversed(self.history))
        self.table.setRowCount(len(rows))
        for i, r in enumerate(rows):
            values = asdict(r)
            for j, key in enumerate(CSV_FIELDS):
                v = values[key]
                self.table.setItem(i, j, QTableWidgetItem(f"{v:.4g}" if key == "value" else
                                                          str(v)))

    def history_csv(self) -> str:
        """The history as CSV text."""
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for r in self.history:
            writer.writerow(asdict(r))
        return buf.getvalue()

    def export_csv(self, path: str | os.PathLike) -> Path:
        """Write the history as CSV, atomically."""
        with atomic_output(path) as handle:
            handle.write(self.history_csv())
        return Path(path)

    def export_image(self, path: str | os.PathLike) -> Path:
        """The bar charts as PNG or SVG."""
        from PySide6.QtCore import QRectF, QSize
        from PySide6.QtGui import QColor

        from .export import paint_to_file

        size = QSize(max(self.charts.width(), 900), max(self.charts.height(), 300))
        scene = self.charts.scene()

        def paint(painter) -> None:
            painter.fillRect(QRectF(0, 0, size.width(), size.height()), QColor(255, 255, 255))
            scene.render(painter, QRectF(0, 0, size.width(), size.height()),
                         QRectF(0, 0, self.charts.width(), self.charts.height()))

        return paint_to_file(path, size, paint, title="bioplug benchmarks")
