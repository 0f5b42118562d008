"""What the desktop app's tests share: a main window with settings of its own (never the
user's), on the PoCL CPU device, and a small protein family."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

#: Four related ~30-residue proteins (BAliBASE BB11001 starts, trimmed).
FOUR = """>1aab_
GKGDPKKPRGKMSSYAFFVQTSREEHKKKH
>1j46_A
MQDRVKRPMNAFIVWSRDQRRKMALENPRM
>1k99_A
MKKLKKHPDFPKKPLTPYFRFFMEKRAKYA
>2lef_A
MHIKKPLNAFMLYMKEMRANVVAESTLKES
"""


def cpu_spec() -> str:
    """The PoCL CPU device's specification; the test is skipped without one."""
    from bioplug.runtime import list_devices

    cpus = [d for d in list_devices() if d.kind == "CPU"]
    if not cpus:
        pytest.skip("no CPU (PoCL) OpenCL device")
    return cpus[0].spec


def make_window(tmp_path, *, device: bool = True, size: tuple[int, int] = (1280, 860)):
    """A main window whose settings and data live in ``tmp_path``, on the CPU device."""
    from bioplug.gui import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, data_dir=tmp_path / "data")
    w.resize(*size)
    if device:
        w.devices_panel.select_spec(cpu_spec())
    return w


def shown(qtbot, w):
    """``w`` handed to qtbot (closed after the test), shown and exposed."""
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def family_files(tmp_path, first: str, second: str) -> tuple:
    """Two FASTA files in ``tmp_path`` (``four.fasta``, ``other.fasta``) holding the texts."""
    paths = tmp_path / "four.fasta", tmp_path / "other.fasta"
    for path, text in zip(paths, (first, second), strict=True):
        path.write_text(text)
    return paths
