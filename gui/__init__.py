"""bioplug's desktop application (``bioplug-gui``, ``python -m bioplug.gui``).

Open sequences or alignments, choose an OpenCL device, run pairwise, all-vs-all, multiple
alignment and tree jobs off the GUI thread with per-stage progress and cancel, view the
alignment (colour schemes, consensus, conservation), the tree and the heat map, export them,
and benchmark devices.

Modules: ``app`` (entry point), ``main_window``, ``devices_panel``, ``jobs``, ``progress_view``,
``alignment_view``, ``tree_view``, ``heatmap_view``, ``benchmark_page``, ``colors``,
``documents`` (reading / writing), ``export`` (PNG / SVG).

``MainWindow`` is imported lazily, so ``import bioplug.gui`` works without PySide6 and the
error names the missing package when it is used.
"""

from __future__ import annotations

GUI_MISSING = (
    "the bioplug GUI needs PySide6 and pyqtgraph; install them with `pip install 'bioplug[gui]'`"
)

__all__ = ["MainWindow"]

try:  # PySide6 6.12 + Python 3.11 reference fault (see _compat); no-op without PySide6
    from ._compat import guard_none_refcount as _guard

    _guard()
except ImportError:  # pragma: no cover
    pass


def __getattr__(name: str):
    if name == "MainWindow":
        try:
            from .main_window import MainWindow
        except ImportError as exc:
            missing = getattr(exc, "name", None) or ""
            if missing.split(".")[0] in ("PySide6", "pyqtgraph"):
                raise ImportError(f"{GUI_MISSING} (missing: {missing})") from exc
            raise
        return MainWindow
    raise AttributeError(f"module 'bioplug.gui' has no attribute {name!r}")
