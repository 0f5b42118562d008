"""Finding OpenCL devices and choosing one from a user's specification.

A specification (``device=`` argument, ``--device`` option or ``BIOPLUG_DEVICE``) is one of

* ``"gpu"`` / ``"cpu"``: the fastest device of that type;
* ``"P:D"``: platform index P, device index D, as ``bioplug devices`` numbers them;
* ``"N"``: the N-th device in that listing;
* any other text: the first device whose platform or device name contains it (case-insensitive),
  e.g. ``"pocl"`` or ``"H100"``.

With no specification the fastest GPU wins, else the CPU (PoCL) device.
"""

from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass

import pyopencl as cl

from bioplug import cache_dirs
from bioplug.errors import NoOpenCLError

log = logging.getLogger(__name__)

NO_PLATFORM_HELP = (
    "No OpenCL platform found. Install the embedded CPU device with "
    "`pip install 'bioplug[pocl]'` (PoCL), or, on an NVIDIA machine, register the driver with "
    "`echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd`."
)


@dataclass(frozen=True)
class DeviceInfo:
    """What ``bioplug devices`` shows about one OpenCL device."""

    index: int
    platform_index: int
    device_index: int
    platform: str
    name: str
    kind: str
    compute_units: int
    clock_mhz: int
    global_mem: int
    max_alloc: int
    local_mem: int
    max_work_group: int
    fp64: bool
    device: cl.Device

    @property
    def spec(self) -> str:
        return f"{self.platform_index}:{self.device_index}"

    @property
    def score(self) -> float:
        """Rough speed rank: GPUs first, then compute units times clock."""
        return (1e9 if self.kind == "GPU" else 0.0) + self.compute_units * max(self.clock_mhz, 1)


def _kind(dev: cl.Device) -> str:
    t = dev.type
    if t & cl.device_type.GPU:
        return "GPU"
    if t & cl.device_type.CPU:
        return "CPU"
    if t & cl.device_type.ACCELERATOR:
        return "ACCELERATOR"
    return "OTHER"


def list_devices() -> list[DeviceInfo]:
    """Every OpenCL device on every platform, in platform order.

    Raises
    ------
    NoOpenCLError
        When no OpenCL platform is installed, with instructions to get one.
    """
    cache_dirs.report()   # a cache folder replaced at import: say so where logging shows it
    try:
        platforms = cl.get_platforms()
    except cl.LogicError:  # the ICD loader reports "no platforms" as an error
        platforms = []
    out: list[DeviceInfo] = []
    for pi, plat in enumerate(platforms):
        try:
            devices = plat.get_devices()
        except cl.Error:
            continue
        for di, dev in enumerate(devices):
            out.append(
                DeviceInfo(
                    index=len(out),
                    platform_index=pi,
                    device_index=di,
                    platform=plat.name.strip(),
                    name=dev.name.strip(),
                    kind=_kind(dev),
                    compute_units=dev.max_compute_units,
                    clock_mhz=dev.max_clock_frequency,
                    global_mem=dev.global_mem_size,
                    max_alloc=dev.max_mem_alloc_size,
                    local_mem=dev.local_mem_size,
                    max_work_group=dev.max_work_group_size,
                    fp64="cl_khr_fp64" in dev.extensions or dev.double_fp_config != 0,
                    device=dev,
                )
            )
    if not out:
        raise NoOpenCLError(NO_PLATFORM_HELP + _driver_variables_note())
    return out


#: Variables that choose which OpenCL drivers load, or which devices they show.
DRIVER_VARIABLES = ("OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "POCL_DEVICES",
                    "CUDA_VISIBLE_DEVICES")


def _driver_variables_note() -> str:
    """What in the environment may hide the drivers that are installed."""
    from bioplug.runtime import driver_start

    found = [f"{name}={os.environ[name]!r}" for name in DRIVER_VARIABLES
             if name in os.environ and name not in driver_start.narrowed]
    if not found:
        return ""
    return (f" These variables choose which drivers load or what they show, and may hide the "
            f"installed ones: {', '.join(found)}.")


_PROBE = "__kernel void probe(__global int *x) { x[get_global_id(0)] += 1; }"


@functools.cache
def compiles(device: cl.Device) -> bool:
    """True when the device's compiler builds a trivial kernel.

    A CPU OpenCL whose LLVM predates the host processor (PoCL wheels built on LLVM 14 on AMD
    Zen 5: "unknown target CPU") lists the device but cannot build anything.
    """
    try:
        cl.Program(cl.Context([device]), _PROBE).build()
        return True
    except cl.Error as exc:
        log.warning("OpenCL device %s cannot build kernels, skipped: %s",
                    device.name.strip(), str(exc).splitlines()[0] if str(exc) else exc)
        return False


def fastest(devices: list[DeviceInfo]) -> DeviceInfo:
    """The best-ranked device; among several CPU devices only one whose compiler works.

    GPUs are not probed (one GPU platform per vendor; a probe would cost start-up time).
    """
    ranked = sorted(devices, key=lambda d: d.score, reverse=True)
    cpus = [d for d in ranked if d.kind == "CPU"]
    if ranked[0].kind != "CPU" or len(cpus) < 2:
        return ranked[0]
    for d in cpus:
        if compiles(d.device):
            return d
    return ranked[0]


def select_device(spec: str | int | DeviceInfo | cl.Device | None = None) -> DeviceInfo:
    """Choose one device from a specification (see the module docstring).

    Parameters
    ----------
    spec : str, int, DeviceInfo, pyopencl.Device or None
        What to choose; None reads ``BIOPLUG_DEVICE`` and falls back to the fastest device.

    Returns
    -------
    DeviceInfo

    Raises
    ------
    NoOpenCLError
        When nothing matches; the message lists the devices that exist.
    """
    devices = list_devices()
    if isinstance(spec, DeviceInfo):
        return spec
    if isinstance(spec, cl.Device):
        for d in devices:
            if d.device == spec:
                return d
        raise NoOpenCLError(f"OpenCL device {spec.name!r} is not in the platform list")
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        spec = os.environ.get("BIOPLUG_DEVICE") or None
    if spec is None:
        return fastest(devices)
    text = str(spec).strip()
    low = text.lower()
    if low in ("gpu", "cpu", "accelerator"):
        matches = [d for d in devices if d.kind == low.upper()]
        if matches:
            return fastest(matches)
    elif ":" in text and all(p.strip().isdigit() for p in text.split(":", 1)):
        p, d = (int(x) for x in text.split(":", 1))
        for dev in devices:
            if dev.platform_index == p and dev.device_index == d:
                return dev
    elif text.isdigit():
        if int(text) < len(devices):
            return devices[int(text)]
    else:
        for dev in devices:
            if low in dev.name.lower() or low in dev.platform.lower():
                return dev
    listing = "; ".join(f"{d.index} ({d.spec}) {d.name} [{d.platform}]" for d in devices)
    raise NoOpenCLError(f"no OpenCL device matches {text!r}; available: {listing}")
