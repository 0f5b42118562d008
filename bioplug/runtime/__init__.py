"""OpenCL runtime shared by every capability.

Device choice (:func:`select_device`), one :class:`Runtime` per device (context, profiling
queue, program cache, device limits) and the multi-device work queue (:func:`run_lpt`).
"""

from bioplug.runtime.devices import DeviceInfo, list_devices, select_device
from bioplug.runtime.runtime import Runtime, get_runtime, get_runtimes
from bioplug.runtime.schedule import run_lpt

__all__ = [
    "DeviceInfo",
    "Runtime",
    "get_runtime",
    "get_runtimes",
    "list_devices",
    "run_lpt",
    "select_device",
]
