"""Suite-wide fixtures."""

import gc
import sys

import pytest


@pytest.fixture(autouse=True)
def _qt_garbage_freed_on_the_main_thread(request):
    """After a test that made Qt objects, collect the cyclic garbage at once, here on the
    main thread.

    Left for later, a collection triggered by whichever thread allocates next (a later
    test's reader thread) frees them there, and their destructors, holding a Qt lock, wait
    for Python's lock, held by the main thread waiting for that Qt lock: the worker hangs
    (seen in ``test_msa_batch``, after GUI tests in the same xdist worker). The app pauses
    the collector while its jobs run (``gui.jobs.cyclic_gc_paused``) for the same reason.
    """
    yield
    gui = "qtbot" in request.fixturenames or request.module.__name__.startswith("test_gui")
    if gui and "PySide6.QtWidgets" in sys.modules:
        gc.collect()
