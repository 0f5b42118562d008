"""One OpenCL context and queue per device, with a program cache and the device's limits.

Programs are built once per (device, source, options) in a process, and their binaries are
kept on disk (pyopencl's binary cache, ``pyopencl.cache``): a later process loads a binary
instead of compiling the source again. PoCL keeps its own cache of source builds instead (see
:func:`keeps_binaries`). ``PYOPENCL_NO_CACHE=1`` turns the disk cache off.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import warnings
from collections.abc import Callable
from functools import cache, cached_property
from importlib import resources

import numpy as np
import pyopencl as cl

# Imported here rather than at first use: a command imports this module while its driver
# thread starts the OpenCL drivers (:mod:`bioplug.runtime.driver_start`), which hides them;
# imported lazily they came after the context, on every command's critical path (the binary
# cache with hashlib and platformdirs, the kernel-call code generator).
import pyopencl.cache
import pyopencl.invoker  # noqa: F401

from bioplug.errors import KernelBuildError
from bioplug.faults import remember
from bioplug.runtime import driver_start, host_memory
from bioplug.runtime.devices import DeviceInfo, select_device

log = logging.getLogger(__name__)

#: Largest piece of one buffer fill (see :meth:`Runtime.fill`).
FILL_PIECE = 1 << 30

_INCLUDE = re.compile(r'^\s*#include\s+"([^"]+)"\s*$', re.MULTILINE)


def _binary_cache_enabled() -> bool:
    """False when the user turned pyopencl's cache off (``PYOPENCL_NO_CACHE``)."""
    return os.environ.get("PYOPENCL_NO_CACHE", "").strip().lower() not in (
        "1", "y", "yes", "t", "true", "on")


def keeps_binaries(info: DeviceInfo) -> bool:
    """Whether programs built for this device go through pyopencl's binary cache.

    Not on PoCL: to hand out a binary it compiles every kernel of the program for any
    work-group size, about a second a kernel on one core (23 of the 27 s that a first
    ``bioplug msa`` of 4 proteins took on a fresh two-core machine), where its own cache of
    source builds (``~/.cache/pocl``, pyopencl's default there) compiles a kernel when it is
    first launched, and only the kernels a run launches (6 s). A later call then finds each
    program in about 25 ms instead of 1-3 ms, the smaller cost. Elsewhere (NVIDIA hands out
    PTX) a binary costs nothing to make.
    """
    return _binary_cache_enabled() and "Portable Computing Language" not in info.platform


@cache
def kernel_source(name: str) -> str:
    """Text of ``kernels/<name>`` with its ``#include "x.h"`` lines inlined.

    Inlining (rather than ``-I``) keeps builds independent of where the package is
    installed and lets pyopencl's cache key on the full text.
    """
    text = resources.files("bioplug.kernels").joinpath(name).read_text(encoding="utf-8")
    return _INCLUDE.sub(lambda m: kernel_source(m.group(1)), text)


def _context(device: cl.Device) -> cl.Context:
    """The context :mod:`~bioplug.runtime.driver_start` made for the device, else a new one.

    A new one is made through ``ctypes``, which releases Python's lock for the driver's
    0.1 s or more (pyopencl's own ``Context`` holds it): another device's host thread keeps
    launching while this one starts (:class:`Runtime`).
    """
    handle = driver_start.take_context(device.int_ptr)
    if handle is not None:
        log.debug("context of %s made while the modules imported", device.name.strip())
    else:
        handle = driver_start.create_context(device.int_ptr)
    if handle is not None:
        return cl.Context.from_int_ptr(handle, retain=False)   # its reference is ours now
    return cl.Context([device])


class Runtime:
    """An OpenCL device ready for work: context, in-order profiling queue, program cache.

    The context and queue are made at first use (:meth:`start`), in the thread that first
    needs them: with several devices each one starts in its own host thread of
    :func:`~bioplug.runtime.run_lpt`, while the devices already started work, and one still
    starting when the work runs out is not waited for. The limits (``max_alloc``,
    ``compute_units``, ...) come from the device and need no context.

    Parameters
    ----------
    info : DeviceInfo
        The device, as returned by :func:`bioplug.runtime.select_device`.
    """

    context: cl.Context
    queue: cl.CommandQueue

    def __init__(self, info: DeviceInfo):
        self.info = info
        self.device = info.device
        self._programs: dict[tuple[str, str], cl.Program] = {}
        self._kernels: dict[tuple, cl.Kernel] = {}
        self._lock = threading.Lock()
        self._start_lock = threading.Lock()
        self._copy_queue: cl.CommandQueue | None = None

    def start(self) -> Runtime:
        """Make the context and queue, once (later calls return at once); returns self."""
        if "queue" not in self.__dict__:
            with self._start_lock:
                if "queue" not in self.__dict__:
                    self.context = _context(self.device)
                    self.queue = cl.CommandQueue(
                        self.context, properties=cl.command_queue_properties.PROFILING_ENABLE)
        return self

    def __getattr__(self, name: str):
        # Only reached for attributes not set yet: the context and queue before start().
        if name in ("context", "queue"):
            return getattr(self.start(), name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def copy_queue(self) -> cl.CommandQueue:
        """A second in-order queue for reading results back while ``queue`` computes (large
        reads into pageable host memory take milliseconds that would otherwise stall it)."""
        with self._lock:
            if self._copy_queue is None:
                self._copy_queue = cl.CommandQueue(self.context, self.device)
            return self._copy_queue

    def __repr__(self) -> str:
        return f"Runtime({self.info.name!r} on {self.info.platform!r})"

    # -- limits used to size launches -------------------------------------------------------
    @property
    def is_gpu(self) -> bool:
        return self.info.kind == "GPU"

    @property
    def max_work_group(self) -> int:
        return self.info.max_work_group

    @property
    def local_mem(self) -> int:
        return self.info.local_mem

    @property
    def max_alloc(self) -> int:
        return self.info.max_alloc

    @property
    def compute_units(self) -> int:
        return self.info.compute_units

    @property
    def supports_ptx_s16x2(self) -> bool:
        """NVIDIA OpenCL on compute capability 9.0 or later: kernels may use inline PTX
        packed 16-bit integer arithmetic (``add.s16x2`` / ``max.s16x2``)."""
        if "NVIDIA" not in self.device.platform.vendor.upper():
            return False
        try:
            return self.device.compute_capability_major_nv >= 9
        except (cl.LogicError, cl.RuntimeError, AttributeError):
            return False

    def memory_budget(self, fraction: float = 0.5) -> int:
        """Bytes of device memory one batch may use (a fraction of global memory; on a CPU
        device, whose global memory is the host's RAM, of what the host still has free when
        first asked, a cluster job's limit included: :mod:`bioplug.runtime.host_memory`)."""
        return int(min(self.info.global_mem, self._host_room) * fraction)

    @cached_property
    def _host_room(self) -> int:
        """The host memory a CPU device may fill (read once: batches stay the same size
        through a run); no bound for other devices."""
        room = host_memory.available() if self.info.kind == "CPU" else None
        return room if room is not None else self.info.global_mem

    def preferred_group(self, kernel: cl.Kernel, wanted: int = 256) -> int:
        """Largest work-group size not above ``wanted`` that the kernel and device allow."""
        limit = kernel.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, self.device)
        size = min(wanted, limit, self.max_work_group)
        multiple = kernel.get_work_group_info(
            cl.kernel_work_group_info.PREFERRED_WORK_GROUP_SIZE_MULTIPLE, self.device
        )
        if size >= multiple:
            size -= size % multiple
        return max(size, 1)

    def fitted_group(self, kernel_at: Callable[[int], cl.Kernel], size: int,
                     smallest: int = 1) -> tuple[int, cl.Kernel]:
        """(work-group size, kernel) for a kernel whose program is built for its group size
        (a ``-DWG`` define): ``kernel_at(size)``, or, when the compiled kernel allows fewer
        work-items (its registers), built again at :func:`smaller_group` until it fits or
        reaches ``smallest``."""
        while True:
            knl = kernel_at(size)
            limit = knl.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE,
                                            self.device)
            if limit >= size or size <= smallest:
                return size, knl
            log.debug("%s allows %d work-items, not %d", knl.function_name, limit, size)
            size = smaller_group(size, limit, smallest)

    # -- programs ---------------------------------------------------------------------------
    def program(self, name: str, defines: dict[str, object] | None = None) -> cl.Program:
        """Build (once) ``kernels/<name>`` with ``-D`` defines; raise with the build log."""
        options = " ".join(f"-D{k}={v}" for k, v in sorted((defines or {}).items()))
        key = (name, options)
        remember(self)  # the device to name if a later call of this thread fails
        with self._lock:
            prog = self._programs.get(key)
            if prog is None:
                src = kernel_source(name)
                try:
                    # Compiler notes (PoCL prints some for constant conditions) go to the
                    # debug log, not to users' terminals; failures raise below with the log.
                    with warnings.catch_warnings(record=True) as notes:
                        warnings.simplefilter("always", cl.CompilerWarning)
                        prog = self._build(name, src, options)
                    for note in notes:
                        log.debug("build of %s: %s", name, note.message)
                except cl.RuntimeError as exc:  # build failure: show the compiler's log
                    raise KernelBuildError(
                        f"OpenCL build of {name} failed on {self.info.name} "
                        f"(options: {options or 'none'}); try another device, e.g. "
                        f"--device cpu (device='cpu'):\n{exc}"
                    ) from exc
                log.debug("built %s %s on %s", name, options, self.info.name)
                self._programs[key] = prog
        return prog

    def _build(self, name: str, src: str, options: str) -> cl.Program:
        """A built program, from the on-disk binary cache when the device keeps binaries.

        ``cl.Program.build`` skips pyopencl's binary cache on PoCL and NVIDIA, trusting the
        driver's own cache of source builds; on NVIDIA a binary still loads faster than a
        cached source build, and per-call start-up matters when users run ``bioplug msa``
        once per file. PoCL keeps the plain source build (:func:`keeps_binaries`). Any
        failure here falls back to the plain source build, which also carries the
        compiler's log when the source is at fault.
        """
        if keeps_binaries(self.info):
            try:
                built, hit = pyopencl.cache.create_built_program_from_source_cached(
                    self.context, src, options.encode(), [self.device])
                log.debug("%s %s: %s", name, options,
                          "binary cache hit" if hit else "built, binary cached")
                return cl.Program(built)
            except Exception as exc:  # noqa: BLE001 - the source build below reports errors
                log.debug("binary cache not used for %s %s: %s", name, options, exc)
        return cl.Program(self.context, src).build(options=options)

    def kernel(self, name: str, kernel: str, defines: dict[str, object] | None = None):
        """A kernel of a cached program, itself cached (pyopencl warns on re-retrieval).

        Kernels hold their arguments (``clSetKernelArg`` is the one OpenCL call that is not
        thread-safe on a shared object), so each host thread gets its own kernel objects:
        two aligners on one device in two threads cannot launch with each other's arguments.
        """
        key = (name, kernel, tuple(sorted((defines or {}).items())), threading.get_ident())
        remember(self)
        knl = self._kernels.get(key)
        if knl is None:
            knl = cl.Kernel(self.program(name, defines), kernel)
            self._kernels[key] = knl
        return knl

    def to_device(self, array: np.ndarray) -> cl.Buffer:
        """A read-only device buffer holding ``array`` (never zero-sized)."""
        array = np.ascontiguousarray(array)
        if array.nbytes == 0:
            array = np.zeros(1, dtype=array.dtype)
        mf = cl.mem_flags
        return cl.Buffer(self.context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=array)

    def upload(self, array: np.ndarray) -> cl.Buffer:
        """A new device buffer filled from ``array`` by a non-blocking write on ``queue``:
        kernels queued after it on ``queue`` see the data, and pyopencl keeps ``array`` alive
        until the write is done (the caller must not change it meanwhile).

        Unlike :meth:`to_device`, the host does not wait: NVIDIA's host-pointer
        ``clCreateBuffer`` waits for the busy device while holding Python's lock, which
        stalls every other device's host thread.
        """
        array = np.ascontiguousarray(array)
        buf = self.empty(array.nbytes)
        if array.nbytes:
            cl.enqueue_copy(self.queue, buf, array, is_blocking=False)
        return buf

    def empty(self, nbytes: int) -> cl.Buffer:
        """An uninitialised read-write device buffer of at least one byte."""
        return cl.Buffer(self.context, cl.mem_flags.READ_WRITE, max(int(nbytes), 1))

    def fill(self, buf: cl.Buffer, pattern: np.generic, offset: int, nbytes: int) -> None:
        """Fill ``nbytes`` of ``buf`` from ``offset`` with ``pattern``, in pieces below 2 GiB:
        NVIDIA's fill hangs or fails from 2 GiB on (pyopencl issue 395, which pyopencl's own
        ``Array.fill`` works around); the progressive pool's zeroing passes 5 GB at 100,000
        sequences."""
        step = FILL_PIECE - FILL_PIECE % pattern.nbytes
        for at in range(int(offset), int(offset) + int(nbytes), step):
            cl.enqueue_fill_buffer(self.queue, buf, pattern, at,
                                   min(step, int(offset) + int(nbytes) - at))


def smaller_group(size: int, limit: int, smallest: int = 1) -> int:
    """The next work-group size to build after a kernel built for ``size`` allowed only
    ``limit``: the largest power of two within the limit (at least ``smallest``), not halving
    step by step, since each try loads a program (~3 ms of a small command's start-up on an
    H100 host)."""
    return max(smallest, min(size // 2, 1 << (max(int(limit), 1).bit_length() - 1)))


class PooledRuntime:
    """``runtime`` whose :meth:`empty` and :meth:`upload` buffers come from a pyopencl
    ``MemoryPool`` and go back to it when dropped; everything else is ``runtime``'s.

    For a device's own host thread that makes and drops buffers for every piece of a long
    job while other devices run: pyopencl calls ``clReleaseMemObject`` holding Python's
    lock, and NVIDIA's release waits for the device, so one thread's releases stalled the
    others (a database search on two H200s took 1.28 s against one's 1.21 s; with pooled
    buffers 0.70 s). The pool's memory is released with the object (or ``pool.free_held()``).
    Device buffers made otherwise (``to_device``, engines given ``runtime``) are not pooled.
    """

    def __init__(self, runtime: Runtime):
        self.runtime = runtime
        self._pool = None
        self._pool_lock = threading.Lock()

    def __getattr__(self, name: str):
        return getattr(self.runtime, name)

    @property
    def pool(self):
        """The memory pool, made at first use (it needs the runtime's queue, see
        :meth:`Runtime.start`)."""
        from pyopencl.tools import ImmediateAllocator, MemoryPool

        with self._pool_lock:
            if self._pool is None:
                self._pool = MemoryPool(ImmediateAllocator(self.runtime.queue))
            return self._pool

    def empty(self, nbytes: int):
        """A pooled read-write device buffer of at least one byte."""
        return self.pool.allocate(max(int(nbytes), 1))

    upload = Runtime.upload


_runtimes: dict[str, Runtime] = {}
_runtimes_lock = threading.Lock()
#: Devices whose "using OpenCL device" line was logged (see :func:`forget_logged_devices`).
_logged: set[str] = set()


def every_gpu(spec) -> bool:
    """Whether a device specification asks for every GPU (``"all"``)."""
    return isinstance(spec, str) and spec.strip().lower() == "all"


def get_runtime(device=None) -> Runtime:
    """The shared :class:`Runtime` for a device specification (see ``select_device``).

    A :class:`Runtime` passed in is returned as it is; ``"all"`` (every GPU) gives the first
    of :func:`get_runtimes` ``("all")``, for work that one device does alone.
    """
    if isinstance(device, Runtime):
        return device
    if every_gpu(device):
        return get_runtimes("all")[0]
    driver_start.wait()
    info = select_device(device)
    with _runtimes_lock:
        rt = _runtimes.get(info.spec)
        if rt is None:
            rt = Runtime(info)
            _runtimes[info.spec] = rt
        if info.spec not in _logged:
            _logged.add(info.spec)
            log.info("using OpenCL device %s [%s], %d compute units", info.name, info.platform,
                     info.compute_units)
    remember(rt)
    return rt


def forget_logged_devices() -> None:
    """Log the "using OpenCL device" line again at the next :func:`get_runtime` of each device.

    For ``bioplug server``: each of its jobs stands for a command in its own process, whose
    ``-v`` shows that line, while the device stays open (and logged) from an earlier job.
    """
    with _runtimes_lock:
        _logged.clear()


def started_runtimes() -> list[Runtime]:
    """Every :class:`Runtime` this process has started (the devices an error may name)."""
    with _runtimes_lock:
        return list(_runtimes.values())


def get_runtimes(devices=None) -> list[Runtime]:
    """Runtimes for a list of specifications; ``None`` means one default device.

    ``"all"`` means every GPU, or the default device when there is none: CPU OpenCL devices
    share the host's cores (two of them are no faster than one), and one that cannot build
    kernels must be skipped as :func:`select_device` skips it.
    """
    if devices is None or isinstance(devices, (str, int, Runtime, DeviceInfo)):
        if every_gpu(devices):
            from bioplug.runtime.devices import list_devices

            gpus = [d for d in list_devices() if d.kind == "GPU"]
            return [get_runtime(d) for d in gpus] if gpus else [get_runtime(None)]
        return [get_runtime(devices)]
    return [d if isinstance(d, Runtime) else get_runtime(d) for d in devices]
