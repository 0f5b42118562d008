"""Start the OpenCL drivers, and the chosen device's context, while Python imports the rest.

A command's first OpenCL calls start the drivers (the ICD loader opens every vendor library,
and NVIDIA's initialises its GPUs) and create a context: about 0.13 s and 0.12 s of each
``bioplug msa`` call on an H100 host. pyopencl holds Python's lock (the GIL) inside those
calls, so on a thread they still stalled the ~0.3 s of imports they were meant to overlap.
ctypes releases the GIL around every foreign call: made through it, on a thread started before
numpy and pyopencl are imported, driver start-up and context creation run beside the imports.
pyopencl then finds the drivers started, and :class:`bioplug.runtime.Runtime` adopts the
context made here (:func:`take_context`) instead of creating one.

The device is resolved here only where :func:`bioplug.runtime.select_device` would choose it
without pyopencl (the fastest GPU, ``P:D``, an index, or the one device of a kind); other
specifications only start the drivers. Contexts are keyed by the driver's device handle, so a
guess that differs from ``select_device`` costs an unused context, never a wrong device.
Errors are left for pyopencl's own calls to report.

Standard library only: the command imports this module before numpy and pyopencl.
"""

from __future__ import annotations

import ctypes
import glob
import importlib.util
import logging
import os
import threading

log = logging.getLogger(__name__)

# OpenCL 1.2 constants (CL/cl.h).
_DEVICE_TYPE_ALL = 0xFFFFFFFF
_DEVICE_TYPE = 0x1000
_MAX_COMPUTE_UNITS = 0x1002
_MAX_CLOCK_FREQUENCY = 0x100C
_TYPE_CPU, _TYPE_GPU, _TYPE_ACCELERATOR = 2, 4, 8
_KINDS = {"cpu": _TYPE_CPU, "gpu": _TYPE_GPU, "accelerator": _TYPE_ACCELERATOR}

_thread: threading.Thread | None = None
_contexts: dict[int, int] = {}   # device handle -> context handle made by the thread
_loader: ctypes.CDLL | None = None   # the ICD loader the thread opened
_lock = threading.Lock()


def start(spec: str | None = None) -> None:
    """Start the drivers (and the context of the device ``spec`` names) on a thread, once.

    Parameters
    ----------
    spec : str or None
        The command's ``--device`` value; None reads ``BIOPLUG_DEVICE`` as
        :func:`bioplug.runtime.select_device` does.
    """
    global _thread
    with _lock:
        if _thread is not None:
            return
        if spec is None or not spec.strip():
            spec = os.environ.get("BIOPLUG_DEVICE") or None
        # Not a daemon: an interpreter that ends while the thread is inside a driver's
        # start-up would unload what the driver is using (the executable leaves by os._exit
        # and does not wait; a script that calls bioplug.cli.main waits at most this start-up).
        _thread = threading.Thread(target=_run, args=(*_loader_paths(), spec),
                                   name="bioplug-driver-start", daemon=False)
        _thread.start()


def wait() -> None:
    """Return once the thread has finished: no two threads start the drivers at once."""
    thread = _thread
    if thread is not None and thread is not threading.current_thread():
        thread.join()


def take_context(device_handle: int) -> int | None:
    """The context handle made for this device (the caller owns its reference), or None."""
    wait()
    with _lock:
        return _contexts.pop(device_handle, None)


def create_context(device_handle: int) -> int | None:
    """A new context for the device (the caller owns its reference), made through the ICD
    loader that the thread opened, which releases Python's lock while the driver works; None
    when this process did not start the drivers here, or the driver refused."""
    wait()
    lib = _loader
    return None if lib is None else _create_context(lib, device_handle)


def _run(loader: str, drivers: list[str], spec: str | None) -> None:
    global _loader
    try:
        for path in drivers:
            ctypes.CDLL(path)
        lib = _typed(ctypes.CDLL(loader))
        _loader = lib
        devices = _devices(lib)
        chosen = _choose(devices, spec)
        if chosen is not None:
            context = _create_context(lib, chosen)
            if context:
                with _lock:
                    _contexts[chosen] = context
    except Exception as exc:  # noqa: BLE001 - pyopencl's own calls report the failure
        log.debug("OpenCL driver start-up on a thread failed: %s", exc)


#: Where NVIDIA's kernel driver lists the host's GPUs, one folder each (Linux).
NVIDIA_GPUS = "/proc/driver/nvidia/gpus"
#: Variables :func:`narrow` set (not the user's: messages do not blame them).
narrowed: set[str] = set()


def narrow(spec: str | None) -> str | None:
    """Hide the NVIDIA GPUs a one-device command will not use, before the drivers start.

    NVIDIA's OpenCL driver starts every GPU it is shown: on a host with two H200s a
    ``bioplug msa`` call of four proteins took 0.64 s with both against 0.49 s with one
    (``CUDA_VISIBLE_DEVICES=0``), and ``--device cpu`` 0.96 s against 0.60 s with none.
    So, where the user has not set ``CUDA_VISIBLE_DEVICES``: ``cpu`` shows the driver no
    GPU, and the fastest GPU (no ``--device``, or ``gpu``) on a host of identical GPUs shows
    it the first, the one :func:`bioplug.runtime.select_device` picks among equals. Other
    specifications (``all``, ``P:D``, an index, a name) and hosts of mixed GPUs are left as
    they are. For the executable's own process only: the variable reaches child processes.

    Returns the value set, or None.
    """
    if "CUDA_VISIBLE_DEVICES" in os.environ:
        return None
    if spec is None or not spec.strip():
        spec = os.environ.get("BIOPLUG_DEVICE") or ""
    text = spec.strip().lower()
    models = _nvidia_models()
    if not models:
        return None
    if text == "cpu":
        value = ""
    elif text in ("", "gpu") and len(models) > 1 and len(set(models)) == 1:
        value = "0"
    else:
        return None
    os.environ["CUDA_VISIBLE_DEVICES"] = value
    narrowed.add("CUDA_VISIBLE_DEVICES")
    log.debug("CUDA_VISIBLE_DEVICES=%r for this call (%d NVIDIA GPUs, device %r)", value,
              len(models), text or "fastest GPU")
    return value


def _nvidia_models() -> list[str]:
    """The model line of every GPU NVIDIA's kernel driver lists (empty without one)."""
    models = []
    for folder in sorted(glob.glob(os.path.join(NVIDIA_GPUS, "*"))):
        try:
            with open(os.path.join(folder, "information")) as handle:
                lines = handle.read().splitlines()
        except OSError:
            continue
        models.append(next((line.split(":", 1)[1].strip() for line in lines
                            if line.startswith("Model:")), "?"))
    return models


def _loader_paths() -> tuple[str, list[str]]:
    """The ICD loader pyopencl links, and the drivers its wheel bundles beside it.

    The wheel's loader finds its drivers through ``PYOPENCL_HOME`` (it crashes without it),
    which pyopencl sets to its own folder when imported: set here to the same, on the main
    thread, before the loader is opened. Its ``.icd`` files name the bundled drivers without a
    folder, found through the run path of pyopencl's extension module; opened here first by
    their full path, they are found the same way (a loaded library answers its name).
    Without the wheel's loader, the system's.
    """
    spec = importlib.util.find_spec("pyopencl")   # finds the package without importing it
    for folder in (spec.submodule_search_locations or []) if spec else []:
        libs = os.path.join(folder, ".libs")
        bundled = sorted(glob.glob(os.path.join(libs, "libOpenCL*.so*")))
        if bundled:
            os.environ["PYOPENCL_HOME"] = os.path.abspath(folder)
            return bundled[0], _named_drivers(libs)
    return "libOpenCL.so.1", []


def _named_drivers(folder: str) -> list[str]:
    """Libraries in ``folder`` that its ``.icd`` files name."""
    out = []
    for icd in sorted(glob.glob(os.path.join(folder, "*.icd"))):
        with open(icd) as handle:
            name = handle.read().strip()
        if name and os.path.exists(os.path.join(folder, name)):
            out.append(os.path.join(folder, name))
    return out


def _typed(lib: ctypes.CDLL) -> ctypes.CDLL:
    """Declare the handful of entry points used here (handles are pointers)."""
    p, u, ul = ctypes.c_void_p, ctypes.c_uint, ctypes.c_ulong
    lib.clGetPlatformIDs.argtypes = [u, p, p]
    lib.clGetDeviceIDs.argtypes = [p, ul, u, p, p]
    lib.clGetDeviceInfo.argtypes = [p, u, ctypes.c_size_t, p, p]
    lib.clCreateContext.argtypes = [p, u, p, p, p, p]
    lib.clCreateContext.restype = p
    return lib


def _handles(count_then_fill) -> list[int]:
    """An OpenCL list query: ask for the count, then the handles."""
    n = ctypes.c_uint(0)
    if count_then_fill(0, None, ctypes.byref(n)) != 0 or n.value == 0:
        return []
    out = (ctypes.c_void_p * n.value)()
    if count_then_fill(n.value, out, None) != 0:
        return []
    return [h for h in out if h]


def _devices(lib: ctypes.CDLL) -> list[tuple[int, int, int, int, int]]:
    """(platform index, device index, handle, type, speed rank) in pyopencl's listing order."""
    out = []
    for pi, platform in enumerate(_handles(lib.clGetPlatformIDs)):
        handles = _handles(lambda n, buf, ret, platform=platform: lib.clGetDeviceIDs(
            platform, _DEVICE_TYPE_ALL, n, buf, ret))
        for di, dev in enumerate(handles):
            kind = _info(lib, dev, _DEVICE_TYPE, ctypes.c_ulong)
            units = _info(lib, dev, _MAX_COMPUTE_UNITS, ctypes.c_uint)
            clock = _info(lib, dev, _MAX_CLOCK_FREQUENCY, ctypes.c_uint)
            out.append((pi, di, dev, kind, units * max(clock, 1)))
    return out


def _info(lib: ctypes.CDLL, device: int, param: int, ctype) -> int:
    value = ctype(0)
    lib.clGetDeviceInfo(device, param, ctypes.sizeof(value), ctypes.byref(value), None)
    return int(value.value)


def _choose(devices: list[tuple[int, int, int, int, int]], spec: str | None) -> int | None:
    """The handle :func:`bioplug.runtime.select_device` picks, where that needs no pyopencl."""
    text = (spec or "").strip().lower()
    if text.isdigit():
        return devices[int(text)][2] if int(text) < len(devices) else None
    if ":" in text and all(p.strip().isdigit() for p in text.split(":", 1)):
        p, d = (int(x) for x in text.split(":", 1))
        return next((h for pi, di, h, _, _ in devices if (pi, di) == (p, d)), None)
    gpus = [dev for dev in devices if dev[3] & _TYPE_GPU]
    if text == "all":   # get_runtimes("all"): every GPU in listing order, the first one first
        return gpus[0][2] if gpus else None
    if not text and gpus or text == "gpu":
        # select_device ranks by compute units x clock; a stable sort keeps the first of equals.
        return max(gpus, key=lambda dev: dev[4])[2] if gpus else None
    kind = _KINDS.get(text)
    if kind is not None:
        of_kind = [dev for dev in devices if dev[3] & kind]
        return of_kind[0][2] if len(of_kind) == 1 else None   # several CPUs: select_device probes
    return None


def _create_context(lib: ctypes.CDLL, device: int) -> int | None:
    err = ctypes.c_int(0)
    handle = ctypes.c_void_p(device)
    context = lib.clCreateContext(None, 1, ctypes.byref(handle), None, None, ctypes.byref(err))
    return context if err.value == 0 and context else None
