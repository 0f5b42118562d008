"""The progress view: one row per pipeline stage (name, bar, elapsed) and a Cancel button."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


class ProgressView(QWidget):
    """Stages of the running job as they are reported by the engine.

    A stage's row appears at its first event; when the next stage starts, or the job
    finishes, the previous rows are shown complete. Elapsed time ticks for the current stage.
    A stage's time runs from the end of the one before it (the first stage's from the start
    of the job): the work before a stage's first event, such as building its kernels, is its
    own.

    Signals
    -------
    cancelRequested()
        The Cancel button was pressed.
    """

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.title = QLabel("No job running")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self._cancel_clicked)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Stage", "Progress", "Elapsed"])
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.table)
        self._rows: dict[str, int] = {}
        self._started: dict[str, float] = {}
        self._ended: dict[str, float] = {}
        self._current: str | None = None
        self._job_start = 0.0
        self.running = False
        self.events: list[tuple[str, int, int]] = []
        self._timer = QTimer(self)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self._tick)

    # -- job life -----------------------------------------------------------------------
    def start(self, name: str) -> None:
        """Clear the stages and show a new job as running."""
        self.table.setRowCount(0)
        self._rows.clear()
        self._started.clear()
        self._ended.clear()
        self.events = []
        self._current = None
        self._job_start = time.perf_counter()
        self.running = True
        self.title.setText(f"{name}: running…")
        self._name = name
        self.cancel_button.setEnabled(True)
        self._timer.start()

    def on_stage(self, stage: str, done: int, total: int) -> None:
        """An engine event: ``stage``, ``done`` of ``total``."""
        self.events.append((stage, done, total))
        now = time.perf_counter()
        if stage not in self._rows:
            begun = self._job_start
            if self._current is not None:
                self._complete(self._current, now)
                begun = self._ended[self._current]
            row = self.table.rowCount()
            self.table.insertRow(row)
            self.table.setItem(row, 0, QTableWidgetItem(stage))
            bar = QProgressBar()
            bar.setRange(0, 1000)
            bar.setFormat("%p %")
            self.table.setCellWidget(row, 1, bar)
            item = QTableWidgetItem("0.0 s")
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, 2, item)
            self._rows[stage] = row
            self._started[stage] = begun
        self._current = stage
        frac = done / total if total > 0 else 1.0
        self._bar(stage).setValue(int(round(1000 * min(max(frac, 0.0), 1.0))))
        if total > 0 and done >= total:
            self._ended[stage] = now
        else:
            self._ended.pop(stage, None)
        self._tick()

    def finish(self, status: str = "done") -> None:
        """The job ended: ``done`` completes every stage; ``cancelled`` / ``failed`` keep them."""
        now = time.perf_counter()
        if status == "done":
            for stage in self._rows:
                self._complete(stage, now)
        elif self._current is not None:
            self._ended.setdefault(self._current, now)
        self._tick()
        self._timer.stop()
        self.running = False
        self.cancel_button.setEnabled(False)
        total = now - self._job_start
        self.title.setText(f"{getattr(self, '_name', 'job')}: {status} ({total:.1f} s)")

    # -- queries (tests, status bar) ----------------------------------------------------
    def stages(self) -> list[tuple[str, int]]:
        """``(stage, percent)`` per row, in the order the stages started."""
        return [(s, round(self._bar(s).value() / 10)) for s in self._rows]

    # -- internals ----------------------------------------------------------------------
    def _bar(self, stage: str) -> QProgressBar:
        return self.table.cellWidget(self._rows[stage], 1)

    def _complete(self, stage: str, now: float) -> None:
        self._bar(stage).setValue(1000)
        self._ended.setdefault(stage, now)

    def _tick(self) -> None:
        now = time.perf_counter()
        for stage, row in self._rows.items():
            end = self._ended.get(stage, now if self.running else self._started[stage])
            self.table.item(row, 2).setText(f"{end - self._started[stage]:.1f} s")

    def show_cancelling(self) -> None:
        """Show that the running job was asked to stop (it ends at its next report)."""
        if self.running:
            self.cancel_button.setEnabled(False)
            self.title.setText(f"{getattr(self, '_name', 'job')}: cancelling…")

    def _cancel_clicked(self) -> None:
        self.show_cancelling()
        self.cancelRequested.emit()
