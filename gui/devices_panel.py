"""The device panel: every OpenCL device, the chosen one remembered across sessions."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bioplug.errors import BioplugError
from bioplug.runtime import DeviceInfo, list_devices

SETTINGS_KEY = "device/spec"
SETTINGS_NAME_KEY = "device/name"
COLUMNS = ["Device", "Platform", "Type", "Compute units", "Global memory", "Local memory",
           "Max work-group", "fp64"]


def _bytes(n: int) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


class DevicesPanel(QWidget):
    """Lists :func:`bioplug.runtime.list_devices`; the selected row is the jobs' device.

    Parameters
    ----------
    settings : QSettings
        Where the choice is remembered (``device/spec`` and ``device/name``).

    Signals
    -------
    deviceChanged(str)
        The chosen device's ``"P:D"`` specification.
    """

    deviceChanged = Signal(str)

    def __init__(self, settings: QSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings
        self.devices: list[DeviceInfo] = []
        self.error: str | None = None
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.message = QLabel()
        self.message.setWordWrap(True)
        refresh = QPushButton("Refresh")
        refresh.clicked.connect(self.refresh)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.table)
        layout.addWidget(self.message)
        layout.addWidget(refresh)
        self.refresh()

    def refresh(self) -> None:
        """List the devices again and re-select the remembered one (else the first GPU)."""
        try:
            self.devices = list_devices()
            self.error = None
        except BioplugError as exc:
            self.devices = []
            self.error = str(exc)
        self.table.blockSignals(True)
        self.table.setRowCount(len(self.devices))
        for row, d in enumerate(self.devices):
            values = [d.name, d.platform, d.kind, str(d.compute_units), _bytes(d.global_mem),
                      _bytes(d.local_mem), str(d.max_work_group), "yes" if d.fp64 else "no"]
            for col, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setToolTip(f"{d.spec}  {d.name} [{d.platform}]")
                self.table.setItem(row, col, item)
        self.table.blockSignals(False)
        if self.error:
            self.message.setText(self.error)
            return
        row = self._remembered_row()
        self.table.selectRow(row)
        self._show_choice()

    def _remembered_row(self) -> int:
        spec = self.settings.value(SETTINGS_KEY, "", type=str)
        name = self.settings.value(SETTINGS_NAME_KEY, "", type=str)
        for row, d in enumerate(self.devices):  # same spec and name: surely the same device
            if d.spec == spec and (not name or d.name == name):
                return row
        for row, d in enumerate(self.devices):  # numbering changed: find it by name
            if name and d.name == name:
                return row
        best = max(range(len(self.devices)), key=lambda i: self.devices[i].score)
        return best

    def current(self) -> DeviceInfo | None:
        """The chosen device."""
        rows = self.table.selectionModel().selectedRows()
        if not rows or not self.devices:
            return None
        return self.devices[rows[0].row()]

    def current_spec(self) -> str | None:
        """The chosen device as ``"P:D"`` (what jobs pass as ``device=``)."""
        d = self.current()
        return d.spec if d is not None else None

    def select_spec(self, spec: str) -> None:
        """Choose a device by its ``"P:D"`` specification."""
        for row, d in enumerate(self.devices):
            if d.spec == spec:
                self.table.selectRow(row)
                return
        raise BioplugError(f"no OpenCL device {spec!r}")

    def _selection_changed(self) -> None:
        d = self.current()
        if d is None:
            return
        self.settings.setValue(SETTINGS_KEY, d.spec)
        self.settings.setValue(SETTINGS_NAME_KEY, d.name)
        self.settings.sync()
        self._show_choice()
        self.deviceChanged.emit(d.spec)

    def _show_choice(self) -> None:
        d = self.current()
        if d is not None:
            self.message.setText(f"Jobs run on {d.spec}: {d.name} [{d.platform}]")
