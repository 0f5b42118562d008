"""``bioplug devices``: list OpenCL devices and their limits."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def add_parser(sub) -> None:
    p = sub.add_parser("devices", help="list OpenCL devices and their properties")
    p.add_argument("--json", action="store_true",
                   help="one JSON object (version, default device, every device's limits)")
    p.set_defaults(func=run)


def as_json(default) -> str:
    """The device list as JSON, for scripts and bug reports (``default``: the device commands
    use without ``--device``, None when ``BIOPLUG_DEVICE`` names none)."""
    import json
    import platform

    import pyopencl as cl

    from bioplug import __version__
    from bioplug.runtime.devices import list_devices

    devices = [{
        "index": d.index, "spec": d.spec, "name": d.name, "platform": d.platform,
        "type": d.kind, "compute_units": d.compute_units, "clock_mhz": d.clock_mhz,
        "global_mem": d.global_mem, "local_mem": d.local_mem, "max_alloc": d.max_alloc,
        "max_work_group": d.max_work_group, "fp64": bool(d.fp64),
        "default": default is not None and d.index == default.index,
    } for d in list_devices()]
    return json.dumps({"bioplug": __version__, "python": platform.python_version(),
                       "pyopencl": cl.VERSION_TEXT, "devices": devices}, indent=2)


def default_device():
    """The device commands use without ``--device``; None, with a warning, when
    ``BIOPLUG_DEVICE`` matches no device: the list is what helps to correct it.

    Raises
    ------
    NoOpenCLError
        No OpenCL platform or device at all.
    """
    import os

    from bioplug.errors import NoOpenCLError
    from bioplug.runtime.devices import list_devices, select_device

    try:
        return select_device(None)
    except NoOpenCLError:
        spec = os.environ.get("BIOPLUG_DEVICE")
        if not spec or not list_devices():   # nothing to list: the error stands
            raise
        log.warning("BIOPLUG_DEVICE=%s matches none of these devices: commands without "
                    "--device will fail until it names one (P:D, an index, gpu, cpu or a "
                    "name part) or is unset", spec)
        return None


def run(args) -> int:
    from bioplug.runtime.devices import list_devices

    default = default_device()
    if getattr(args, "json", False):
        print(as_json(default))
        return 0
    print(f"{'#':>2} {'P:D':<5} {'type':<4} {'CUs':>4} {'MHz':>5} {'global':>9} {'local':>7} "
          f"{'max WG':>6} {'fp64':<4}  name [platform]")
    for d in list_devices():
        mark = "*" if default is not None and d.index == default.index else " "
        print(f"{d.index:>2}{mark}{d.spec:<5} {d.kind:<4} {d.compute_units:>4} {d.clock_mhz:>5} "
              f"{d.global_mem / 2**30:>7.1f}Gi {d.local_mem // 1024:>5}Ki {d.max_work_group:>6} "
              f"{'yes' if d.fp64 else 'no':<4}  {d.name} [{d.platform}]")
    if default is not None:
        print("* = default (set BIOPLUG_DEVICE or --device to choose another)")
    return 0
