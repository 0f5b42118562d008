"""Work-arounds for PySide6 builds (kept apart so they are easy to drop).

PySide6 6.12 wheels return ``None`` from void methods without taking a reference. On
Python 3.12+ ``None`` is immortal and nothing happens; on 3.11 every such call (``update()``,
``setText()``, ``repaint()`` ... thousands per second in a GUI) drops ``None``'s reference
count by one until the interpreter aborts with "none_dealloc: deallocating None".
:func:`guard_none_refcount` detects the fault with a few harmless calls and, only when it is
present, gives ``None`` (and ``True`` / ``False``, also seen dropped on some virtual-call paths) a
very large reference count, i.e. what 3.12 does by design.
"""

from __future__ import annotations

import logging
import platform
import sys

log = logging.getLogger(__name__)
_DONE = False


def guard_none_refcount() -> bool:
    """Protect ``None`` from the PySide6 reference-count fault on CPython < 3.12.

    Returns
    -------
    bool
        True when the fault was found and the guard applied.
    """
    global _DONE
    if _DONE or sys.version_info >= (3, 12) or platform.python_implementation() != "CPython":
        return False
    _DONE = True
    try:
        from PySide6.QtCore import QRect
    except ImportError:
        return False
    rect = QRect()
    calls = 64
    before = sys.getrefcount(None)
    for _ in range(calls):
        rect.setWidth(1)
    lost = before - sys.getrefcount(None)
    if lost < calls // 2:
        return False
    import ctypes

    # ob_refcnt is the first field of every CPython object (Py_ssize_t). The same builds
    # also lose references to True / False on some virtual-call paths: guard them too.
    for singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value += 1 << 40
    log.info("PySide6 drops references to None on void calls; None/True/False counts raised "
             "(Python %s)", platform.python_version())
    return True
