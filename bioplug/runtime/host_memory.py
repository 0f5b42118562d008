"""The memory this process may still fill on its host.

It sizes what works through host memory: an index's sort (:mod:`bioplug.pairwise.database`)
and a CPU device's batches, whose "global memory" is all of the machine's RAM whatever else
runs there or a cluster job's limit allows. Linux only (``/proc/meminfo`` and cgroups v1 or
v2); elsewhere nothing is known and callers keep their own bounds.
"""

from __future__ import annotations

from pathlib import Path


def available() -> int | None:
    """Bytes this process may still fill: the least of the system's available memory (the
    reclaimable page cache included) and what the memory limits of its cgroup and their
    parents leave (a cluster job's limit often sits on the job, not on its step); None where
    none of them can be read."""
    room = []
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            info = dict(line.split(":", 1) for line in handle)
        room.append(int(info["MemAvailable"].split()[0]) * 1024)
    except (OSError, KeyError, ValueError):
        pass
    room.extend(cgroup_room())
    return min(room) if room else None


def cgroup_room() -> list[int]:
    """Bytes left under each memory limit of this process's cgroup and its parents, the
    page cache they hold not counted (the kernel reclaims it); [] without a limit."""
    try:
        groups = Path("/proc/self/cgroup").read_text(encoding="ascii").splitlines()
    except OSError:
        return []
    room = []
    for line in groups:
        _, controllers, path = line.split(":", 2)
        if controllers == "":   # v2: each level's own limit
            top = Path("/sys/fs/cgroup")
            here = top / path.lstrip("/")
            for level in [here, *here.parents]:
                room.extend(room_under(level, "memory.max", "memory.current", "file"))
                if level == top:
                    break
        elif "memory" in controllers.split(","):   # v1: the limit counts the parents'
            room.extend(room_under(Path("/sys/fs/cgroup/memory") / path.lstrip("/"),
                                   "hierarchical_memory_limit", "memory.usage_in_bytes",
                                   "total_cache"))
    return room


def room_under(base: Path, limit: str, used: str, cache: str) -> list[int]:
    """[bytes left] under the cgroup folder ``base``'s limit (a file, or a memory.stat
    entry), or [] where it has none or cannot be read."""
    try:
        stats = dict(row.split() for row in
                     (base / "memory.stat").read_text(encoding="ascii").splitlines())
        cap = stats[limit] if limit in stats else (base / limit).read_text("ascii").strip()
        if cap == "max" or int(cap) >= 1 << 60:
            return []
        held = int((base / used).read_text(encoding="ascii")) - int(stats.get(cache, 0))
        return [max(0, int(cap) - held)]
    except (OSError, ValueError, KeyError):
        return []
