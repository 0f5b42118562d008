"""OpenCL runtime shared by every capability.

Device choice (:func:`select_device`), one :class:`Runtime` per device (context, profiling
queue, program cache, device limits) and the multi-device work queue (:func:`run_lpt`).

The names load on first use (PEP 562): a command imports :mod:`bioplug.runtime.driver_start`
before numpy and pyopencl, and importing this package must not pull them in.
"""

from importlib import import_module

_HOMES = {
    "DeviceInfo": "devices",
    "list_devices": "devices",
    "select_device": "devices",
    "Runtime": "runtime",
    "get_runtime": "runtime",
    "get_runtimes": "runtime",
    "run_lpt": "schedule",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    if name in _HOMES:
        return getattr(import_module(f"bioplug.runtime.{_HOMES[name]}"), name)
    raise AttributeError(f"module 'bioplug.runtime' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
