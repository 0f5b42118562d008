"""Connecting to Dask, pinning workers to OpenCL devices, and the task loop both jobs share.

One Dask worker drives one device: :class:`DevicePlugin` gives each worker of a
:func:`local_cluster` its device specification, and workers started by hand
(``dask worker --resources GPU=1``) take theirs from ``BIOPLUG_DEVICE``. Tasks ask for the
``GPU`` resource when every worker offers it, so a worker never runs two device tasks at once.

:func:`run_tasks` submits the tasks, writes a manifest entry for each one as it finishes
(its file is already renamed into place by then) and turns a task's bad input into the
:class:`~bioplug.errors.InputError` the single-process path raises, not a Dask traceback.
Retries of failed tasks, recomputation of a lost worker's tasks, work stealing and the
dashboard are Dask's.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from bioplug.errors import BioplugError, InputError

log = logging.getLogger(__name__)

#: Times Dask reruns a task that raised something other than bad input.
RETRIES = 2


def _dask():
    """The ``distributed`` module, or a clear error naming the extra to install."""
    try:
        import distributed
    except ImportError as exc:
        raise BioplugError(
            "bioplug.distributed needs Dask distributed: pip install 'bioplug[distributed]' "
            "(dask[distributed], pyarrow, zarr)"
        ) from exc
    return distributed


class DevicePlugin:
    """Worker plugin giving each worker of a local cluster its own OpenCL device.

    Parameters
    ----------
    devices : sequence of str
        Device specifications (``"P:D"``, see :func:`bioplug.runtime.select_device`);
        worker ``k`` (its integer name) gets ``devices[k % len(devices)]``.

    Notes
    -----
    Subclasses ``distributed.WorkerPlugin`` at run time (:func:`device_plugin`) so that this
    module imports without Dask.
    """

    name = "bioplug-device"

    def __init__(self, devices: Sequence[str]):
        self.devices = list(devices)

    def setup(self, worker) -> None:
        try:
            index = int(worker.name)
        except (TypeError, ValueError):  # a named worker: BIOPLUG_DEVICE decides
            return
        worker.bioplug_device = self.devices[index % len(self.devices)]
        log.info("worker %s drives OpenCL device %s", worker.name, worker.bioplug_device)


def device_plugin(devices: Sequence[str]):
    """A :class:`DevicePlugin` that is also a ``distributed.WorkerPlugin``."""
    distributed = _dask()
    cls = type("DevicePlugin", (DevicePlugin, distributed.WorkerPlugin), {})
    return cls(devices)


def worker_device() -> str | None:
    """This worker's device specification: its plugin's, else ``BIOPLUG_DEVICE`` (None: the
    fastest device, see :func:`bioplug.runtime.select_device`)."""
    try:
        from distributed import get_worker

        spec = getattr(get_worker(), "bioplug_device", None)
    except (ImportError, ValueError):  # not inside a worker (a direct call)
        spec = None
    return spec or os.environ.get("BIOPLUG_DEVICE") or None


def local_devices(devices: Sequence | None = None) -> list[str]:
    """Device specifications for a local cluster: every GPU, else the default device."""
    from bioplug.runtime import select_device
    from bioplug.runtime.devices import list_devices

    if devices is not None:
        return [select_device(d).spec for d in devices]
    gpus = [d.spec for d in list_devices() if d.kind == "GPU"]
    return gpus or [select_device(None).spec]


def local_cluster(devices: Sequence | None = None, n_workers: int | None = None,
                  processes: bool = True, **kwargs):
    """A ``distributed.LocalCluster`` with one single-threaded worker per device.

    Parameters
    ----------
    devices : sequence, optional
        Device specifications; default every local GPU, else the default (PoCL) device.
    n_workers : int, optional
        Workers (default one per device; devices are reused round-robin beyond that).
    processes : bool
        Worker processes (each with its own OpenCL context) rather than threads.
    **kwargs
        Passed to ``LocalCluster`` (e.g. ``dashboard_address``).

    Returns
    -------
    distributed.LocalCluster
        Its workers carry :class:`DevicePlugin` once a client from :func:`connect` uses it.
    """
    distributed = _dask()
    specs = local_devices(devices)
    kwargs.setdefault("resources", {"GPU": 1})
    cluster = distributed.LocalCluster(n_workers=n_workers or len(specs), threads_per_worker=1,
                                       processes=processes, **kwargs)
    cluster.bioplug_devices = specs
    return cluster


@contextlib.contextmanager
def connect(client=None) -> Iterator:
    """A ``distributed.Client`` for a job, closed afterwards only when made here.

    Parameters
    ----------
    client : Client, LocalCluster, str, callable or None
        An existing client (used as it is), a cluster, a scheduler address
        (``"tcp://host:8786"``), None / ``"local"`` for a new :func:`local_cluster`, or a
        function returning a new cluster or client: called here, so that a job with nothing
        left to do starts none; what it returns is closed afterwards.
    """
    distributed = _dask()
    if isinstance(client, distributed.Client):
        yield client
        return
    local = client is None or client == "local" or callable(client)
    with contextlib.ExitStack() as stack:
        if client is None or (isinstance(client, str) and client == "local"):
            client = stack.enter_context(local_cluster())
        elif callable(client):
            client = stack.enter_context(client())
        made = client if isinstance(client, distributed.Client) else stack.enter_context(
            distributed.Client(client))
        devices = getattr(client, "bioplug_devices", None)
        if devices:
            made.register_plugin(device_plugin(devices))
        if local and not has_bokeh():   # its page would only ask to install bokeh
            log.debug("no Dask dashboard: bokeh is not installed")
        else:
            log.info("Dask dashboard: %s", made.dashboard_link)
        yield made


def has_bokeh() -> bool:
    """Whether bokeh, which serves a local scheduler's dashboard, is installed."""
    return importlib.util.find_spec("bokeh") is not None


def device_resources(client) -> dict | None:
    """``{"GPU": 1}`` when every worker offers a GPU resource, else None (no constraint:
    a cluster started without resources still runs the tasks)."""
    workers = client.scheduler_info().get("workers", {})
    if workers and all(w.get("resources", {}).get("GPU", 0) >= 1 for w in workers.values()):
        return {"GPU": 1}
    return None


@dataclass
class Failed:
    """What a task returns instead of raising for bad input (Dask would retry an exception,
    and would show its remote traceback)."""

    error: BaseException


def guarded(fn: Callable, *args, **kwargs):
    """Run ``fn``; a :class:`BioplugError`, ``ValueError`` or ``OSError`` comes back as
    :class:`Failed` (bad input is not retried); anything else raises (a defect, retried)."""
    try:
        return fn(*args, **kwargs)
    except (BioplugError, ValueError, OSError) as exc:
        return Failed(exc)


@dataclass
class Summary:
    """What a job did.

    Attributes
    ----------
    out : str
        The output folder.
    total : int
        Tasks of the job (tiles and merges, or families).
    computed : int
        Tasks run now.
    skipped : int
        Tasks the manifest already listed as complete.
    failed : list of Exception
        Failures recorded with ``keep_going`` (each message names its input).
    dashboard : str or None
        The Dask dashboard link.
    """

    out: str
    total: int = 0
    computed: int = 0
    skipped: int = 0
    failed: list = field(default_factory=list)
    dashboard: str | None = None


def run_tasks(client, tasks: list[tuple], on_done: Callable,
              keep_going: bool = False) -> tuple[int, list]:
    """Submit ``(key, fn, args, priority[, after])`` tasks and call ``on_done(key, result)``
    for each as it finishes, in the client's thread.

    ``after`` lists keys of earlier tasks: their results are passed as one more argument, so
    Dask starts the task only when they are done.

    Returns
    -------
    (int, list)
        Tasks completed, and the failures kept with ``keep_going``.

    Raises
    ------
    BioplugError
        A task's bad input (its own exception, without the Dask traceback), or a task that
        killed every worker it ran on.
    """
    distributed = _dask()
    resources = device_resources(client)
    futures = {}
    by_key = {}
    for key, fn, args, priority, *after in tasks:
        if after:
            args = (*args, [by_key[k] for k in after[0]])
        fut = client.submit(guarded, fn, *args, key=key, pure=False, retries=RETRIES,
                            priority=priority, resources=resources)
        futures[fut] = key
        by_key[key] = fut
    done, failures = 0, []
    try:
        for fut in distributed.as_completed(list(futures)):
            result = _result(fut, distributed)
            if isinstance(result, Failed):
                if not keep_going:
                    raise _plain(result.error)
                failures.append(result.error)
                log.warning("%s", result.error)
                continue
            on_done(futures[fut], result)
            done += 1
    finally:
        client.cancel([f for f in futures if not f.done()])
    return done, failures


def _result(fut, distributed):
    try:
        return fut.result()
    except distributed.KilledWorker as exc:
        raise BioplugError(f"task {exc.task} killed every worker that ran it ({exc}); "
                           "look at the workers' logs (out of memory?)") from None


def _plain(exc: BaseException) -> BaseException:
    """The exception without Dask's remote traceback attached."""
    exc.__traceback__ = None
    exc.__cause__ = exc.__context__ = None
    if isinstance(exc, BioplugError):
        return exc
    return InputError(str(exc))
