"""OpenCL runtime shared by every capability.

Device choice (:func:`select_device`), one :class:`Runtime` per device (context, profiling
queue, program cache, device limits) and the multi-device work queue (:func:`run_lpt`).

The names load on first use, as the other packages' front doors do: a command imports
:mod:`bioplug.runtime.driver_start` before numpy and pyopencl, and importing this package must
not pull them in.
"""

from __future__ import annotations

from bioplug._front_doors import front_doors

_FRONT_DOORS = {
    "DeviceInfo": "devices",
    "list_devices": "devices",
    "select_device": "devices",
    "PooledRuntime": "runtime",
    "Runtime": "runtime",
    "every_gpu": "runtime",
    "get_runtime": "runtime",
    "get_runtimes": "runtime",
    "run_lpt": "schedule",
}

__all__ = sorted(_FRONT_DOORS)


__getattr__, __dir__ = front_doors(__name__, _FRONT_DOORS)
