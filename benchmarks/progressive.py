"""Issue 20: bioplug's progressive mode against FAMSA, Clustal Omega, MAFFT and ClustalW.

One run times every tool on the same inputs, one case after another (each case runs all tools
before the next starts), and scores every result:

* ``--homfam [N]`` / ``--families a,b``: extended HomFam dev families (101; first N), scored by
  the HomFam protocol (``benchmarks/homfam.py``: reference members' rows, SP and exact-column
  TC over all reference columns).
* ``--balibase [N]``: BAliBASE 3 RV11 + RV12 (82 sets; first N), SP / TC on the core blocks
  (``bioplug.msa.score``, as ``benchmarks/balibase.py``).
* ``--sim 1000,10000,30000,100000 --seeds 1,2,3``: families simulated by
  ``benchmarks/simulate.py`` (~300 residues), SP / TC against the true alignment, every column.

Tools (``--tools``; a tool that is not installed is skipped with the reason printed):

``bioplug``     ``bioplug.ProgressiveAligner(device=...).align(path)`` in a worker process
``bioplug-cli`` ``bioplug msa IN -o OUT --method progressive --device D`` (``--cli`` adds it):
                wall time of the command, output file written, in its own process
                (``BIOPLUG_NO_SERVER=1``)
``bioplug-srv`` the same command while a ``bioplug server`` runs (``--server`` adds it): the
                call hands its job to the resident server, as a user who started one has it;
                the server is started (and its programs warmed) before the first case and
                stopped at the end; its device memory is sampled as the server's
``bioplug-qp``  ``bioplug.MultipleSequenceAligner`` (QuickProbs pipeline; k <= ``--qp-max-k``)
``pyfamsa``     ``pyfamsa.Aligner(threads=T).align`` in a worker process (FAMSA)
``clustalo``    ``clustalo -i IN -o OUT --threads=T``
``mafft``       ``mafft --auto --thread T IN`` (``--parttree`` from ``--parttree-from``)
``clustalw``    ``clustalw -QUICKTREE`` (one thread; k <= ``--clustalw-max-k``)

T is every core of the machine (``--threads``).

Python tools run in worker processes. bioplug's: one per tool for the whole run, warmed up
(untimed: kernel builds) on the first case's first 300 sequences, and again before the first
case above each size where its pipeline changes mode (bioplug's ``max_matrix``, the QuickProbs
pipeline's ``max_full``); ``--fresh-workers`` gives each case a fresh one. pyfamsa: a fresh one
per case, as FAMSA's command would be (it keeps state between alignments in one process, which
changes its results). Their time is the ``align`` call (reading the input file included,
writing the output not); their peak host memory is the worker's high-water mark (VmHWM)
during the case, reset before it through ``/proc/self/clear_refs`` (it includes the
interpreter and imports; where the reset is refused, the process's ru_maxrss, noted).
Programs (clustalo, mafft, clustalw, ``bioplug-cli``) run as child processes through a small
launcher: their time is the program's from start to exit, output file written; their peak
memory its ru_maxrss (``wait4``: the process and its waited-for children). Peak device memory
(``GPU MiB``) is sampled with ``nvidia-smi`` where it exists: the bioplug process's own, or the
device's use above its level before the run where process ids are not visible.
``--repeats R`` runs each case R times and keeps the median. A tool that runs past
``--timeout`` on a case is stopped and skips the larger cases of that dataset
(``--no-skip-larger`` keeps trying). ``--budget S`` starts no case after S seconds and stops
a tool still running ``--budget-grace`` seconds later (that run is left out), so that one
command ends within a time limit; ``--part I/N`` runs every N-th case, and ``--merge A.tsv
B.tsv ...`` prints the summary of several runs' TSVs (a tool's time compared with pyfamsa's
from the same TSV).

Every (case, tool) row goes to ``--out`` (TSV, written as the run goes), the summary per
dataset (mean SP / TC over the cases a tool finished, and over all with failures as 0; total
and median time; time / pyfamsa's time on the cases both finished; peak memory) is printed
last and written beside it (``.summary.txt``).

Peers on the GPU machine (no package index): ``bash benchmarks/peers.sh`` here fills
``.peers/`` (Debian's clustalo, mafft, clustalw unpacked, plus the HomFam and BAliBASE data,
which ``../shared`` does not bring there); carry ``[".device", ".peers"]``. This script finds
``.peers/`` itself (``--peers-dir``) and gives its environment to the peers only.

Examples (repository root; on the GPU machine prefix ``bash .device/prelude.sh &&``, carry
``[".device", ".peers"]`` and write under ``$OUT``)::

    # here, PoCL: the harness end to end on small inputs
    python benchmarks/progressive.py --families Cyclotide,bowman,B --balibase 4 --device cpu \
        --timeout 60
    # GPU machine: each command ends within 10 minutes (--budget), parts merged afterwards
    python benchmarks/progressive.py --homfam --device gpu --cli --tools bioplug,pyfamsa \
        --timeout 120 --budget 420 --out $OUT/homfam_bioplug.tsv
    python benchmarks/progressive.py --homfam --part 1/3 --tools pyfamsa,clustalo,mafft \
        --timeout 120 --budget 420 --out $OUT/homfam_peers1.tsv        # 2/3, 3/3 likewise
    python benchmarks/progressive.py --balibase --device gpu --cli \
        --tools bioplug,pyfamsa,clustalo,mafft,clustalw --timeout 60 --budget 420 \
        --out $OUT/balibase.tsv
    python benchmarks/progressive.py --sim 1000,10000,30000 --seeds 1,2,3 --device gpu --cli \
        --tools bioplug,pyfamsa,clustalo,mafft --timeout 200 --budget 420 --out $OUT/sim.tsv
    python benchmarks/progressive.py --sim 100000 --seeds 1 --device gpu --cli \
        --tools bioplug,pyfamsa,mafft,clustalo --timeout 300 --budget 420 --out $OUT/sim100k.tsv
    # anywhere: one summary of several runs
    python benchmarks/progressive.py --merge homfam_bioplug.tsv homfam_peers1.tsv ...
"""

from __future__ import annotations

import argparse
import csv
import gc
import json
import mmap
import os
import selectors
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

TOOLS = ("bioplug", "bioplug-cli", "bioplug-srv", "bioplug-qp", "pyfamsa", "clustalo", "mafft",
         "clustalw")
WORKER_TOOLS = ("bioplug", "bioplug-qp", "pyfamsa")
CLI_TOOLS = ("bioplug-cli", "bioplug-srv")   # the command: in its own process / a server's
# pyfamsa keeps state between alignments in one process (an input's result changes after the
# process has aligned something else: BB11001 SP 100 first, 81.6 afterwards), so as with
# FAMSA's command each case gets a fresh process, without warm-up (nothing to compile).
FRESH_TOOLS = ("pyfamsa",)
DEFAULT_TOOLS = "bioplug,pyfamsa,clustalo,mafft,clustalw"
WARMUP_SEQS = 300     # warm-up input: this many sequences (more above a mode threshold)
TSV_FIELDS = ("dataset", "case", "k", "mean_len", "tool", "status", "wall_s", "walls",
              "rss_mib", "gpu_mib", "sp", "tc", "note", "stages")


# -- cases ---------------------------------------------------------------------------------------
@dataclass
class Case:
    """One input: ``path`` holds the sequences as ``s0, s1, ...`` (index = position in ``ids``).

    ``scorer(output_path)`` reads a tool's FASTA output of it and returns (SP, TC).
    """

    dataset: str
    name: str
    path: Path
    ids: list[str]
    mean_len: float
    scorer: Callable[[Path], tuple[float, float]]
    group: str = ""

    @property
    def k(self) -> int:
        return len(self.ids)


def _write_indexed(path: Path, seqs: Sequence[str]) -> None:
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "w") as fh:
        fh.writelines(f">s{i}\n{s}\n" for i, s in enumerate(seqs))
    os.replace(tmp, path)


def iter_fasta(path: Path):
    """(name, sequence) bytes of each record of a FASTA file, line breaks removed.

    Reads through mmap: outputs of 100,000 sequences x 20,000 columns are gigabytes.
    """
    with open(path, "rb") as fh:
        if os.fstat(fh.fileno()).st_size == 0:
            return
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            pos = mm.find(b">")
            while pos != -1:
                nl = mm.find(b"\n", pos)
                nl = len(mm) if nl == -1 else nl
                name = mm[pos + 1:nl].split()[0] if nl > pos + 1 else b""
                nxt = mm.find(b"\n>", nl)
                end = len(mm) if nxt == -1 else nxt
                body = mm[nl + 1:end].replace(b"\n", b"").replace(b"\r", b"").replace(b" ", b"")
                yield name, body
                pos = -1 if nxt == -1 else nxt + 1


def read_output(path: Path, case: Case) -> tuple[list[str], list[str]]:
    """(original ids, rows) of a tool's FASTA output of ``case``."""
    ids, rows = [], []
    for name, body in iter_fasta(path):
        ids.append(case.ids[_index(name, case.k)])
        rows.append(body.decode("latin-1"))
    if len(ids) != case.k or len(set(ids)) != case.k:
        raise ValueError(f"output has {len(set(ids))} of {case.k} sequences")
    if len({len(r) for r in rows}) != 1:
        raise ValueError("output rows differ in length")
    return ids, rows


def _index(name: bytes, k: int) -> int:
    if not (name[:1] == b"s" and name[1:].isdigit()) or int(name[1:]) >= k:
        raise ValueError(f"unexpected id {name!r} in the output")
    return int(name[1:])


def homfam_cases(names: list[str] | None, first: int | None, work: Path) -> list[Case]:
    """HomFam cases (input written under ``work``), sorted like ``homfam.families``."""
    import homfam

    root = homfam.default_root()
    names = names or homfam.families(root)
    if first:
        names = names[:first]
    cases = []
    for fam in names:
        records, ref_ids, ref_rows = homfam.prepare(fam, root)
        path = work / "homfam" / f"{fam}.fa"
        path.parent.mkdir(parents=True, exist_ok=True)
        seqs = [str(r.seq) for r in records]
        _write_indexed(path, seqs)
        case = Case("homfam", fam, path, [r.id for r in records],
                    float(np.mean([len(s) for s in seqs])), None, "homfam")

        def scorer(out, case=case, ref_ids=ref_ids, ref_rows=ref_rows):
            d = homfam.score_detail(ref_ids, ref_rows, *read_output(out, case))
            return d.sp, d.tc

        case.scorer = scorer
        cases.append(case)
    return cases


def balibase_cases(dirs: list[str], first: int | None, work: Path) -> list[Case]:
    """BAliBASE sets (``*.tfa`` with a ``.xml`` beside it) of ``dirs``."""
    from balibase import find_sets
    from Bio import SeqIO

    from bioplug.msa.score import read_reference, sp_tc

    cases = []
    for tfa in find_sets(dirs, first):
        recs = list(SeqIO.parse(str(tfa), "fasta"))
        seqs = [str(r.seq).replace("-", "").upper() for r in recs]
        path = work / "balibase" / f"{tfa.stem}.fa"
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_indexed(path, seqs)
        ref = read_reference(tfa.with_suffix(".xml"))
        case = Case("balibase", tfa.stem, path, [r.id for r in recs],
                    float(np.mean([len(s) for s in seqs])), None, "balibase")

        def scorer(out, case=case, ref=ref):
            return sp_tc(*read_output(out, case), ref)

        case.scorer = scorer
        cases.append(case)
    return cases


def _residue_columns(rows: Sequence[str | bytes]) -> tuple[np.ndarray, np.ndarray]:
    """(column of every residue, row by row, int32; row offsets into it) of aligned rows."""
    cols, offsets = [], [0]
    for row in rows:
        arr = np.frombuffer(row.encode("latin-1") if isinstance(row, str) else row, np.uint8)
        c = np.flatnonzero((arr != ord("-")) & (arr != ord("."))).astype(np.int32)
        cols.append(c)
        offsets.append(offsets[-1] + c.size)
    return np.concatenate(cols), np.asarray(offsets, dtype=np.int64)


def score_against_truth(out: Path, seqs: Sequence[bytes], true_cols: np.ndarray,
                        offsets: np.ndarray) -> tuple[float, float]:
    """SP and TC of an output against a true alignment, every column scored.

    The definitions of ``bioplug.msa.score.sp_tc`` (columns of two or more residues; TC: all
    of a column's residues in one test column), computed from residue-to-column maps so that
    100,000 rows x 20,000 columns need a few hundred MB instead of (k, L) int64 matrices.

    Parameters
    ----------
    out : Path
        The tool's FASTA output (ids ``s0`` ...).
    seqs : sequence of bytes
        The input sequences (upper case), to check the output's residues.
    true_cols, offsets : ndarray
        True column of each residue, sequence after sequence, and where each sequence starts.
    """
    k = len(seqs)
    test_cols = np.full(true_cols.size, -1, dtype=np.int64)
    seen = np.zeros(k, dtype=bool)
    width = None
    for name, body in iter_fasta(out):
        i = _index(name, k)
        if seen[i]:
            raise ValueError(f"{name!r} twice in the output")
        seen[i] = True
        if width is None:
            width = len(body)
        elif len(body) != width:
            raise ValueError("output rows differ in length")
        arr = np.frombuffer(body, np.uint8)
        pos = np.flatnonzero((arr != ord("-")) & (arr != ord(".")))
        if arr[pos].tobytes().upper() != seqs[i]:
            raise ValueError(f"s{i}: residues differ from the input")
        test_cols[offsets[i]:offsets[i + 1]] = pos
    if not seen.all():
        raise ValueError(f"output has {int(seen.sum())} of {k} sequences")
    stride = np.int64(width + 1)
    keys = true_cols.astype(np.int64) * stride + test_cols
    uniq, counts = np.unique(keys, return_counts=True)
    nres = np.bincount(true_cols).astype(np.int64)
    total = int((nres * (nres - 1) // 2).sum())
    counts = counts.astype(np.int64)
    good = int((counts * (counts - 1) // 2).sum())
    ncls = np.bincount(uniq // stride, minlength=nres.size)
    scored = nres >= 2
    tc = float((scored & (ncls == 1)).sum() / scored.sum()) if scored.any() else 0.0
    return (good / total if total else 0.0), tc


def sim_cases(sizes: list[int], seeds: list[int], length: int, work: Path) -> list[Case]:
    """Simulated families (cached under ``work/sim``), smallest first."""
    from simulate import evolve

    cases = []
    for k in sorted(sizes):
        for seed in seeds:
            folder = work / "sim" / f"k{k}_L{length}_s{seed}"
            folder.mkdir(parents=True, exist_ok=True)
            path, true = folder / "input.fa", folder / "true.npz"
            if not (path.exists() and true.exists()):
                t0 = time.perf_counter()
                _, seqs, rows = evolve(k, length, seed)
                cols, offsets = _residue_columns(rows)
                del rows
                np.savez(true, cols=cols, offsets=offsets)
                _write_indexed(path, seqs)
                print(f"# simulated {k} x {length} seed {seed} in "
                      f"{time.perf_counter() - t0:.1f} s -> {folder}", flush=True)
            with np.load(true) as z:
                offsets = z["offsets"]
            lengths = np.diff(offsets)

            def scorer(out, path=path, true=true):
                seqs = [body for _, body in iter_fasta(path)]
                with np.load(true) as z:
                    return score_against_truth(out, seqs, z["cols"], z["offsets"])

            cases.append(Case(f"sim{k}", f"k{k}_s{seed}", path,
                              [f"sim{i}" for i in range(lengths.size)],
                              float(lengths.mean()), scorer, "sim"))
    return cases


# -- measuring -----------------------------------------------------------------------------------
@dataclass
class Result:
    """One (case, tool) measurement."""

    status: str                      # ok, timeout, error, skipped
    walls: list[float] = field(default_factory=list)
    rss_kib: int | None = None
    gpu_mib: float | None = None
    sp: float | None = None
    tc: float | None = None
    note: str = ""
    stages: dict = field(default_factory=dict)

    @property
    def wall(self) -> float | None:
        return statistics.median(self.walls) if self.walls else None


class GpuSampler:
    """Peak device memory of the process under test, sampled with ``nvidia-smi`` (4 per second).

    Per process (``--query-compute-apps``) where nvidia-smi shows process ids: the worker's
    own use, or for a command everything but the idle workers'. Where it shows none (a
    container's own process ids are not the driver's), the device's memory.used minus its
    value just before the run (``note`` says which). ``start`` and ``stop`` bracket one run.
    """

    def __init__(self) -> None:
        self.exe = shutil.which("nvidia-smi")
        self.thread = None
        self.stop_event = threading.Event()

    def _query(self) -> tuple[float, dict[int, float]]:
        def run(q: str) -> list[list[str]]:
            p = subprocess.run([self.exe, q, "--format=csv,noheader,nounits"],
                               capture_output=True, text=True, timeout=10)
            return [[x.strip() for x in ln.split(",")] for ln in p.stdout.splitlines() if ln]

        total = max((float(r[0]) for r in run("--query-gpu=memory.used")
                     if r[0].replace(".", "").isdigit()), default=0.0)
        apps: dict[int, float] = {}
        for r in run("--query-compute-apps=pid,used_memory"):
            if len(r) == 2 and r[0].isdigit() and r[1].replace(".", "").isdigit():
                apps[int(r[0])] = apps.get(int(r[0]), 0.0) + float(r[1])
        return total, apps

    def start(self, include: set[int] | None = None, exclude: set[int] = frozenset()) -> None:
        """Sample the processes ``include`` (None: every process but ``exclude``)."""
        if not self.exe:
            return
        self.peak_apps = self.peak_total = None
        self.seen_pid = False
        self.base_total, _ = self._query()
        self.stop_event.clear()

        def loop():
            while True:
                try:
                    total, apps = self._query()
                except (OSError, subprocess.SubprocessError):
                    total, apps = 0.0, {}
                mine = sum(v for pid, v in apps.items()
                           if (pid in include if include is not None else pid not in exclude))
                if include is not None:
                    self.seen_pid |= any(pid in apps for pid in include)
                else:   # the excluded (idle, GPU-holding) workers must show: same pid space
                    self.seen_pid |= bool(apps) and (not exclude or any(p in apps for p in exclude))
                self.peak_apps = max(self.peak_apps or 0.0, mine)
                self.peak_total = max(self.peak_total or 0.0, total)
                if self.stop_event.wait(0.25):
                    break

        self.thread = threading.Thread(target=loop, daemon=True)
        self.thread.start()

    def stop(self) -> tuple[float | None, str]:
        """(peak MiB, how it was measured) of the run since ``start``."""
        if not self.thread:
            return None, ""
        self.stop_event.set()
        self.thread.join(timeout=15)
        self.thread = None
        if self.seen_pid:
            return self.peak_apps, ""
        if self.peak_total is None:
            return None, ""
        return max(0.0, self.peak_total - self.base_total), "GPU: device total minus before"


# A small launcher between this process and a program: a child forked from this (large)
# process would count this process's resident memory in its ru_maxrss (the high-water mark
# survives exec), so the launcher, a bare interpreter of a few MB, forks the program and
# reports the program's own wall time and ru_maxrss (wait4) in a file.
LAUNCHER = """
import os, sys, time
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - t0
with open(sys.argv[1], "w") as fh:
    fh.write(f"{wall!r} {usage.ru_maxrss}")
code = os.waitstatus_to_exitcode(status)
os._exit(code if code >= 0 else 128 - code)
"""


def run_process(cmd: list[str], *, stdout: Path | None, cwd: Path, env: dict, timeout: float,
                log: Path) -> tuple[str, float, int, str]:
    """Run ``cmd``; (status, wall seconds, peak RSS KiB of it and its children, note).

    The time is the program's, from fork to exit (its output file written); stopped after
    ``timeout`` seconds (status "timeout").
    """
    report = log.with_suffix(".usage")
    report.unlink(missing_ok=True)
    out = open(stdout, "wb") if stdout else subprocess.DEVNULL
    err = open(log, "wb")
    killed = threading.Event()
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-S", "-c", LAUNCHER, str(report), *cmd],
                                stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=cwd,
                                env=env, start_new_session=True)

        def kill():
            killed.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            code = proc.wait()
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
    finally:
        if stdout:
            out.close()
        err.close()
    rss = 0
    if report.exists():
        text = report.read_text().split()
        wall, rss = float(text[0]), int(text[1])
    tail = log.read_text(errors="replace").strip().splitlines()[-3:] if log.exists() else []
    if killed.is_set():
        return "timeout", wall, rss, ""
    if code != 0:
        return "error", wall, rss, f"exit {code}: {' / '.join(tail)}"
    return "ok", wall, rss, ""


class Worker:
    """A persistent Python process running one in-process tool (see ``worker_main``)."""

    def __init__(self, tool: str, args, log: Path) -> None:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", tool,
               "--threads", str(args.threads)]
        if args.device is not None:
            cmd += ["--device", str(args.device)]
        self.log = open(log, "ab")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, start_new_session=True, cwd=REPO)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        self.buf = b""
        self.hello = self._reply(args.start_timeout)
        info = (self.hello or {}).get("hello") or {}
        self.thresholds = sorted(info.get("thresholds", []))
        self.modes: set[int] = set()

    def _mode(self, k: int) -> int:
        return sum(k > t for t in self.thresholds)

    def warmup_size(self, k: int) -> int:
        """Sequences of the warm-up before a case of k (0: this mode already ran).

        The first case of each mode of the pipeline (e.g. bioplug's k-tuple matrix up to
        ``max_matrix`` sequences, the embedded tree above) is preceded by an untimed run on
        its first sequences: ``WARMUP_SEQS``, or just enough to be in that mode.
        """
        m = self._mode(k)
        if m in self.modes:
            return 0
        return min(k, WARMUP_SEQS if m == 0 else self.thresholds[m - 1] + WARMUP_SEQS)

    def warmed(self, k: int) -> None:
        self.modes.add(self._mode(k))

    def _reply(self, timeout: float) -> dict | None:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not self.sel.select(left):
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError(f"worker ended (exit {self.proc.wait()})")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def run(self, job: dict, timeout: float) -> dict | None:
        """Send a job; its reply, or None when it ran past ``timeout`` (the worker is killed)."""
        self.proc.stdin.write((json.dumps(job) + "\n").encode())
        self.proc.stdin.flush()
        reply = self._reply(timeout)
        if reply is None:
            self.close(kill=True)
        return reply

    def close(self, kill: bool = False) -> None:
        if self.proc.poll() is None:
            if kill:
                os.killpg(self.proc.pid, signal.SIGKILL)
            else:
                self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.sel.close()
        self.log.close()


# -- the worker side -----------------------------------------------------------------------------
def _reset_hwm() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _hwm_kib() -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _make_aligner(tool: str, device, threads: int):
    """(align(path) -> native result, rows(result) -> (ids, rows, stages), info) of a tool.

    Only ``align`` is timed: it reads the input file and returns what the library returns;
    ``rows`` turns that into FASTA rows afterwards.
    """
    if tool == "pyfamsa":
        import pyfamsa
        from Bio import SeqIO

        aligner = pyfamsa.Aligner(threads=threads)

        def align(path):
            return aligner.align([pyfamsa.Sequence(r.id.encode(), bytes(r.seq))
                                  for r in SeqIO.parse(path, "fasta")])

        def rows(aln):
            return [g.id.decode() for g in aln], [g.sequence.decode() for g in aln], {}

        return align, rows, {"version": getattr(pyfamsa, "__version__", "?"),
                             "threads": threads, "thresholds": []}
    import bioplug
    from bioplug.runtime import get_runtime

    try:   # (k, L) uint8 matrix in one numpy pass; Alignment[i] walks the coordinates per row
        from bioplug.alignio import alignment_rows
    except ImportError:
        alignment_rows = None
    rt = get_runtime(device)
    if tool == "bioplug":
        # BIOPLUG_BENCH_OPTIONS="max_matrix=10000,shift=2": ProgressiveAligner keywords to try
        options = {}
        for item in filter(None, os.environ.get("BIOPLUG_BENCH_OPTIONS", "").split(",")):
            key, _, value = item.partition("=")
            try:
                options[key] = int(value) if value.lstrip("-").isdigit() else float(value)
            except ValueError:
                options[key] = value
        aligner = bioplug.ProgressiveAligner(device=rt, **options)
    else:
        from bioplug.msa.posterior import prebuild

        aligner = bioplug.MultipleSequenceAligner(device=rt)
        prebuild(rt, 4096)   # every stage I variant the pipeline uses (as benchmarks/balibase.py)

    def align(path):
        return aligner.align(path)

    def rows(aln):
        ids = [r.id for r in aln.sequences]
        if alignment_rows is not None:
            text = [r.tobytes().decode("latin-1") for r in alignment_rows(aln)]
        else:
            text = [aln[i] for i in range(len(ids))]
        return ids, text, dict(getattr(aligner, "last_times", {}))

    # sizes where the pipeline changes mode (other kernels): each mode gets its own warm-up
    if tool == "bioplug":
        from bioplug.progressive.guide import matrix_limit

        thresholds = [matrix_limit(getattr(aligner, "max_matrix", None), rt)]
    else:
        thresholds = [int(getattr(aligner, "options", {}).get("max_full", 300))]
    info = {"version": bioplug.__version__, "device": f"{rt.info.name} [{rt.info.platform}]",
            "thresholds": thresholds}
    return align, rows, info


def worker_main(tool: str, device, threads: int) -> int:
    """Serve jobs (JSON lines on stdin) for one tool; one JSON reply line each on stdout."""
    out = sys.stdout
    sys.stdout = sys.stderr          # library chatter goes to the log, replies stay clean
    try:
        align, to_rows, info = _make_aligner(tool, device, threads)
    except Exception as exc:         # noqa: BLE001 - reported to the parent as a skip reason
        out.write(json.dumps({"error": f"{type(exc).__name__}: {exc}"}) + "\n")
        out.flush()
        return 1
    info["rss_kib"] = _hwm_kib()
    out.write(json.dumps({"hello": info}) + "\n")
    out.flush()
    for line in sys.stdin:
        job = json.loads(line)
        reply: dict = {"times": []}
        try:
            if job.get("warmup_n"):
                tmp = Path(job["output"]).with_suffix(".warmup.fa")
                with open(job["input"]) as fh, open(tmp, "w") as dst:
                    n = 0
                    for row in fh:
                        n += row.startswith(">")
                        if n > job["warmup_n"]:
                            break
                        dst.write(row)
                t0 = time.perf_counter()
                to_rows(align(str(tmp)))
                reply["warmup_s"] = time.perf_counter() - t0
                tmp.unlink()
            gc.collect()
            reply["rss_kind"] = "hwm" if _reset_hwm() else "maxrss"
            result = None
            for _ in range(job.get("repeats", 1)):
                result = None        # not two results alive at once (peak memory)
                t0 = time.perf_counter()
                result = align(job["input"])
                reply["times"].append(time.perf_counter() - t0)
            if reply["rss_kind"] == "hwm":
                reply["rss_kib"] = _hwm_kib()
            else:
                import resource

                reply["rss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            ids, rows, reply["stages"] = to_rows(result)
            with open(job["output"], "w") as fh:
                fh.writelines(f">{i}\n{r}\n" for i, r in zip(ids, rows, strict=True))
        except Exception as exc:     # noqa: BLE001 - one failed case must not end the run
            reply["error"] = f"{type(exc).__name__}: {exc}"
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


# -- peers ---------------------------------------------------------------------------------------
def peer_environment(peers_dir: Path | None) -> tuple[dict, str]:
    """Environment for the programs: ``.peers/env.sh`` applied when the folder exists."""
    env = dict(os.environ)
    if peers_dir is None or not (peers_dir / "env.sh").exists():
        return env, "system PATH"
    script = 'source "$0" >&2 && printf "%s\\0%s\\0%s" "$PATH" "$LD_LIBRARY_PATH" "$MAFFT_BINARIES"'
    got = subprocess.run(["bash", "-c", script, str(peers_dir / "env.sh")], capture_output=True,
                         env=env, check=True).stdout.decode().split("\0")
    env.update(PATH=got[0], LD_LIBRARY_PATH=got[1], MAFFT_BINARIES=got[2])
    return env, f"{peers_dir} (unpacked in {Path(got[2]).parents[5]})"


def add_peer_run_options(p, timeout: float) -> None:
    """The options every peer benchmark takes: ``--device``, ``--threads`` (the peers'),
    ``--timeout`` (a run's), ``--seed`` and ``--peers-dir``."""
    p.add_argument("--device", default=None)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--timeout", type=float, default=timeout)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--peers-dir", type=Path, default=None)


def peer_version(tool: str, env: dict) -> str:
    cmds = {"clustalo": ["clustalo", "--version"], "mafft": ["mafft", "--version"],
            "clustalw": ["clustalw", "-help"]}
    try:
        p = subprocess.run(cmds[tool], capture_output=True, env=env, timeout=30,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"? ({exc})"
    text = (p.stdout + p.stderr).decode(errors="replace")
    if tool == "clustalw":
        return next((w for w in text.split("\n") if "CLUSTAL" in w), "?").strip()
    return text.strip().splitlines()[0] if text.strip() else "?"


def bioplug_command() -> list[str]:
    """The installed ``bioplug`` program, else ``python -m bioplug``."""
    exe = shutil.which("bioplug")
    return [exe] if exe else [sys.executable, "-m", "bioplug"]


def peer_command(tool: str, case: Case, out: Path, args) -> tuple[list[str], Path | None]:
    """(argv, stdout file or None) of a program on ``case``."""
    inp = str(case.path)
    if tool == "clustalo":
        return ["clustalo", "-i", inp, "-o", str(out), "--outfmt=fasta", "--force",
                f"--threads={args.threads}"], None
    if tool == "mafft":
        mode = ["--parttree"] if case.k >= args.parttree_from else ["--auto"]
        return ["mafft", *mode, "--thread", str(args.threads), "--quiet", inp], out
    if tool == "clustalw":
        return ["clustalw", f"-INFILE={inp}", "-ALIGN", f"-OUTFILE={out}", "-OUTPUT=FASTA",
                "-QUICKTREE", f"-NEWTREE={out.with_suffix('.dnd')}", "-QUIET"], None
    if tool in CLI_TOOLS:
        cmd = [*bioplug_command(), "msa", inp, "-o", str(out), "--method", "progressive"]
        if args.device is not None:
            cmd += ["--device", str(args.device)]
        return cmd, None
    raise ValueError(tool)


# -- the run -------------------------------------------------------------------------------------
class Bench:
    """Runs the tools over one case after another (workers, programs, limits, deadline)."""

    def __init__(self, args, tools: list[str], env: dict, work: Path, logs: Path,
                 deadline: float | None = None) -> None:
        self.args, self.tools, self.env, self.work = args, tools, env, work
        self.deadline = deadline                          # time.monotonic() to stop at
        self.workers: dict[str, Worker] = {}
        self.too_big: dict[tuple[str, str], int] = {}    # (tool, group) -> smallest k timed out
        self.gpu = GpuSampler()
        self.info: dict[str, dict] = {}
        self.logs = logs                                  # workers' logs, programs' stderr
        self.logs.mkdir(parents=True, exist_ok=True)
        self.server_pid: int | None = None                # bioplug-srv's server
        self.server_base: list[str] = []

    def worker(self, tool: str) -> Worker:
        w = self.workers.get(tool)
        if w is None or w.proc.poll() is not None:
            w = Worker(tool, self.args, self.logs / f"{tool}.log")
            if w.hello is None or "hello" not in w.hello:
                reason = (w.hello or {}).get("error", "no answer")
                w.close(kill=True)
                raise RuntimeError(reason)
            self.info.setdefault(tool, w.hello["hello"])
            self.workers[tool] = w
        return w

    def limit(self, tool: str, case: Case) -> str | None:
        a = self.args
        if tool == "clustalw" and case.k > a.clustalw_max_k:
            return f"k > {a.clustalw_max_k}"
        if tool == "bioplug-qp" and case.k > a.qp_max_k:
            return f"k > {a.qp_max_k}"
        big = self.too_big.get((tool, case.group))
        if big is not None and case.k >= big and not a.no_skip_larger:
            return f"timed out at k = {big}"
        return None

    def run_case(self, case: Case) -> dict[str, Result]:
        out = {}
        for tool in self.tools:
            why = self.limit(tool, case)
            if self.deadline is not None and time.monotonic() >= self.deadline:
                res = Result("cut", note="not run: --budget spent")
            elif why:
                res = Result("skipped", note=why)
            else:
                res = self.measure(tool, case)
                if res.status == "timeout":
                    old = self.too_big.get((tool, case.group), case.k + 1)
                    self.too_big[(tool, case.group)] = min(old, case.k)
            out[tool] = res
        return out

    def measure(self, tool: str, case: Case) -> Result:
        res = self._measure(tool, case)
        if res.status == "timeout" and self.deadline and time.monotonic() >= self.deadline - 1:
            res.status, res.note = "cut", "stopped by --budget"
        return res

    def _timeout(self) -> float:
        """Seconds one run may take: --timeout, or less where the --budget deadline is near."""
        if self.deadline is None:
            return self.args.timeout
        return max(1.0, min(self.args.timeout, self.deadline - time.monotonic()))

    def _measure(self, tool: str, case: Case) -> Result:
        a = self.args
        dest = self.work / "out" / f"{case.dataset}_{case.name}_{tool}.fa"
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.unlink(missing_ok=True)
        gpu = tool in ("bioplug", "bioplug-qp", *CLI_TOOLS)
        if tool in WORKER_TOOLS:
            try:
                w = self.worker(tool)
            except RuntimeError as exc:
                return Result("error", note=f"worker: {exc}")
            fresh = tool in FRESH_TOOLS or a.fresh_workers
            warm_n = 0 if tool in FRESH_TOOLS else w.warmup_size(case.k)
            job = {"input": str(case.path), "output": str(dest), "repeats": a.repeats,
                   "warmup_n": warm_n}
            budget = self._timeout() * a.repeats + 60 + (a.start_timeout if warm_n else 0)
            if self.deadline is not None:
                budget = min(budget, max(1.0, self.deadline - time.monotonic()))
            if gpu:
                self.gpu.start(include={w.proc.pid})
            try:
                reply = w.run(job, budget)
            except RuntimeError as exc:  # the worker died (e.g. killed for memory)
                self.gpu.stop()
                w.close(kill=True)
                return Result("error", note=f"worker: {exc}")
            peak, how = self.gpu.stop() if gpu else (None, "")
            if reply is None:
                return Result("timeout", note=f"> {a.timeout:g} s", gpu_mib=peak)
            w.warmed(case.k)
            if fresh:
                w.close()
            if "warmup_s" in reply:
                self.info[tool]["warmup_s"] = round(reply["warmup_s"], 2)
            res = Result("ok", reply["times"], reply.get("rss_kib"), peak, note=how,
                         stages=reply.get("stages") or {})
            if reply.get("error"):
                return Result("error", res.walls, res.rss_kib, peak, note=reply["error"][:300])
            if reply.get("rss_kind") == "maxrss":
                res.note = "; ".join(x for x in (res.note, "RSS: process peak") if x)
            if res.wall is not None and res.wall > a.timeout:
                return Result("timeout", res.walls, res.rss_kib, peak, note="median > timeout")
        else:
            cmd, stdout = peer_command(tool, case, dest, a)
            res = Result("ok")
            env = self.tool_env(tool)
            for _ in range(a.repeats):
                dest.unlink(missing_ok=True)
                if tool == "bioplug-srv" and self.server_pid:
                    self.gpu.start(include={self.server_pid})
                elif gpu:
                    self.gpu.start(exclude={w.proc.pid for t, w in self.workers.items()
                                            if t != "pyfamsa" and w.proc.poll() is None}
                                   | ({self.server_pid} if self.server_pid else set()))
                status, wall, rss, note = run_process(
                    cmd, stdout=stdout, cwd=dest.parent, env=env, timeout=self._timeout(),
                    log=self.logs / f"{tool}.stderr")
                peak, how = self.gpu.stop() if gpu else (None, "")
                res.note = how if tool != "bioplug-srv" else "; ".join(
                    x for x in (how, "RSS: the calling process only") if x)
                res.walls.append(wall)
                res.rss_kib = max(res.rss_kib or 0, rss) or None
                if peak is not None:
                    res.gpu_mib = max(res.gpu_mib or 0, peak)
                if status != "ok":
                    res.status, res.note = status, note or f"> {a.timeout:g} s"
                    return res
        try:
            res.sp, res.tc = case.scorer(dest)
        except Exception as exc:     # noqa: BLE001 - a bad output is that tool's failure
            res.status, res.note = "error", f"scoring: {type(exc).__name__}: {exc}"[:300]
        if not a.keep:
            dest.unlink(missing_ok=True)
            dest.with_suffix(".dnd").unlink(missing_ok=True)
        return res

    def warm_programs(self) -> None:
        """Run each program once on a tiny input (page cache; bioplug-cli: kernel builds)."""
        tiny = self.work / "tiny.fa"
        tiny.write_text(">s0\nMKVLAAGIVGLLLAQDEK\n>s1\nMKVLAGIVGLLAQDEK\n>s2\nMKVLSAGIVGLLLQDK\n")
        case = Case("warmup", "tiny", tiny, ["a", "b", "c"], 16.0, lambda out: (0.0, 0.0))
        for tool in self.tools:
            if tool in WORKER_TOOLS:
                continue
            cmd, stdout = peer_command(tool, case, self.work / f"tiny_{tool}.fa", self.args)
            env = self.tool_env(tool)
            status, wall, _, note = run_process(
                cmd, stdout=stdout, cwd=self.work, env=env, timeout=self.args.start_timeout,
                log=self.logs / f"{tool}.stderr")
            self.info.setdefault(tool, {})["warmup_s"] = round(wall, 2)
            if status != "ok":
                print(f"# {tool}: warm-up failed ({status} {note})", flush=True)

    def tool_env(self, tool: str) -> dict:
        """A program's environment: the peers' PATH, or bioplug's own with the server (or
        none: ``BIOPLUG_NO_SERVER``) the tool is about."""
        if tool not in CLI_TOOLS:
            return self.env
        env = {k: v for k, v in os.environ.items() if k != "BIOPLUG_NO_SERVER"}
        if tool == "bioplug-cli":
            env["BIOPLUG_NO_SERVER"] = "1"
        else:
            env["BIOPLUG_SERVER_DIR"] = str(self.work / "server")
        return env

    def start_server(self) -> None:
        """``bioplug server start`` in the run's own socket folder (never the user's)."""
        env, base = self.tool_env("bioplug-srv"), bioplug_command()
        t0 = time.perf_counter()
        start = [*base, "server", "start", "--idle-timeout", "0"]
        if self.args.device is not None:
            start += ["--device", str(self.args.device)]
        subprocess.run(start, env=env, cwd=self.work, check=True)
        status = subprocess.run([*base, "server", "status", "--json"], env=env, cwd=self.work,
                                capture_output=True, text=True, check=True)
        self.server_pid = int(json.loads(status.stdout)["pid"])
        self.server_base = base
        self.info.setdefault("bioplug-srv", {})["server_start_s"] = round(
            time.perf_counter() - t0, 2)

    def close(self) -> None:
        for w in self.workers.values():
            w.close()
        if self.server_pid:
            subprocess.run([*self.server_base, "server", "stop"], cwd=self.work,
                           env=self.tool_env("bioplug-srv"))
            self.server_pid = None


def available_tools(wanted: list[str], env: dict, args) -> tuple[list[str], list[str]]:
    """(tools to run, 'tool: reason' lines for the skipped ones)."""
    import importlib.util

    tools, skipped = [], []
    for tool in wanted:
        reason = None
        if tool not in TOOLS:
            reason = "unknown tool"
        elif tool in ("bioplug", *CLI_TOOLS) and \
                importlib.util.find_spec("bioplug.progressive") is None:
            reason = "bioplug.progressive is not in this tree"
        elif tool == "pyfamsa" and importlib.util.find_spec("pyfamsa") is None:
            reason = "pyfamsa is not installed (pip install pyfamsa)"
        elif tool in ("clustalo", "mafft", "clustalw") and not shutil.which(tool, path=env["PATH"]):
            reason = "not on PATH (bash benchmarks/peers.sh prepares .peers/)"
        elif tool in CLI_TOOLS:
            p = subprocess.run([sys.executable, "-m", "bioplug", "msa", "--help"],
                               capture_output=True, text=True, cwd=REPO)
            if "--method" not in p.stdout:
                reason = "`bioplug msa` has no --method option yet"
        if reason:
            skipped.append(f"{tool}: {reason}")
        else:
            tools.append(tool)
    return tools, skipped


# -- reporting -----------------------------------------------------------------------------------
def _stage(v) -> str:
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def _fmt(v, spec: str, empty: str = "") -> str:
    return empty if v is None else format(v, spec)


def case_line(case: Case, results: dict[str, Result]) -> str:
    parts = []
    for tool, r in results.items():
        if r.status == "ok":
            parts.append(f"{tool} {r.wall:.2f}s {100 * r.sp:.1f}/{100 * r.tc:.1f}")
        else:
            parts.append(f"{tool} {r.status}" + (f" ({r.note[:60]})" if r.note else ""))
    return f"{case.dataset} {case.name} k={case.k}: " + " | ".join(parts)


def read_rows(paths: Sequence[str | os.PathLike]) -> list[dict]:
    """Rows of one or more TSVs of this script; a later (dataset, case, tool) row wins."""
    rows: dict[tuple[str, str, str], dict] = {}
    for src, path in enumerate(paths):
        with open(path, newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                row["_src"] = src
                rows[(row["dataset"], row["case"], row["tool"])] = row
    return list(rows.values())


def _num(row: dict, key: str) -> float | None:
    v = row.get(key, "")
    return float(v) if v not in ("", None) else None


def summary(rows: list[dict]) -> str:
    """Per-dataset tables (accuracy, time, time relative to pyfamsa, peak memory) of TSV rows.

    Runs cut short by ``--budget`` are left out (as if not attempted). The pyfamsa time a
    tool is compared with comes from the same TSV (the same run) where it exists.
    """
    cut = [r for r in rows if r["status"] == "cut"]
    rows = [r for r in rows if r["status"] != "cut"]
    base = {}
    for r in rows:
        if r["tool"] == "pyfamsa" and r["status"] == "ok":
            base[(r["_src"], r["dataset"], r["case"])] = _num(r, "wall_s")
            base.setdefault((None, r["dataset"], r["case"]), _num(r, "wall_s"))
    lines = []
    for ds in dict.fromkeys(r["dataset"] for r in rows):
        drows = [r for r in rows if r["dataset"] == ds]
        cases = {r["case"]: (int(r["k"]), float(r["mean_len"])) for r in drows}
        ks = [k for k, _ in cases.values()]
        lines.append(f"\n## {ds}: {len(cases)} cases, {min(ks):,}-{max(ks):,} sequences, mean "
                     f"length {np.mean([m for _, m in cases.values()]):.0f}")
        lines.append(f"{'tool':<12} {'done':>7} {'SP':>6} {'TC':>6} {'SP0':>6} {'TC0':>6} "
                     f"{'time s':>9} {'median s':>9} {'x pyfamsa':>9} {'RSS MiB':>8} "
                     f"{'GPU MiB':>8}")
        for tool in dict.fromkeys(r["tool"] for r in drows):
            rs = [r for r in drows if r["tool"] == tool]
            ok = [r for r in rs if r["status"] == "ok"]
            walls = [_num(r, "wall_s") for r in ok]
            sp = np.mean([_num(r, "sp") for r in ok]) if ok else None
            tc = np.mean([_num(r, "tc") for r in ok]) if ok else None
            sp0 = np.mean([_num(r, "sp") if r["status"] == "ok" else 0.0 for r in rs])
            tc0 = np.mean([_num(r, "tc") if r["status"] == "ok" else 0.0 for r in rs])
            both = []
            for r, w in zip(ok, walls, strict=True):
                b = base.get((r["_src"], ds, r["case"]), base.get((None, ds, r["case"])))
                if b:
                    both.append((w, b))
            ratio = sum(w for w, _ in both) / sum(b for _, b in both) if both else None
            rss = max((_num(r, "rss_mib") or 0 for r in ok), default=0) or None
            gpu = max((_num(r, "gpu_mib") or 0 for r in ok), default=0) or None
            fails: dict[str, int] = {}
            for r in rs:
                if r["status"] != "ok":
                    fails[r["status"]] = fails.get(r["status"], 0) + 1
            note = ", ".join(f"{n} {st}" for st, n in fails.items())
            lines.append(
                f"{tool:<12} {len(ok):>3}/{len(rs):<3} "
                f"{_fmt(None if sp is None else 100 * sp, '6.2f', '     -')} "
                f"{_fmt(None if tc is None else 100 * tc, '6.2f', '     -')} "
                f"{100 * sp0:6.2f} {100 * tc0:6.2f} "
                f"{_fmt(sum(walls) if ok else None, '9.2f', '        -')} "
                f"{_fmt(statistics.median(walls) if ok else None, '9.3f', '        -')} "
                f"{_fmt(ratio, '9.2f', '        -')} {_fmt(rss, '8.0f', '       -')} "
                f"{_fmt(gpu, '8.0f', '       -')}" + (f"  ({note})" if note else ""))
    if lines:
        lines.append("\nSP, TC: means over the cases the tool finished; SP0, TC0: over all, a "
                     "failure as 0; time s: summed over the cases it finished; x pyfamsa: its "
                     "time / pyfamsa's over the cases both finished (< 1: faster); RSS: peak "
                     "host memory of one case (max); GPU: peak device memory used (max).")
    if cut:
        lines.append("Cut short by --budget, left out: "
                     + ", ".join(f"{r['tool']} on {r['dataset']} {r['case']}" for r in cut))
    return "\n".join(lines)


# -- main ----------------------------------------------------------------------------------------
def _int_list(text: str) -> list[int]:
    return [int(x.replace("_", "")) for x in text.split(",") if x]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--homfam", nargs="?", type=int, const=0, default=None, metavar="N",
                    help="HomFam dev families (all, or the first N)")
    ap.add_argument("--families", default=None, help="HomFam families by name (a,b,...)")
    ap.add_argument("--homfam-dir", default=None, help="HomFam folder (ref/, small/)")
    ap.add_argument("--balibase", nargs="?", type=int, const=0, default=None, metavar="N",
                    help="BAliBASE RV11 + RV12 sets (all, or the first N)")
    ap.add_argument("--balibase-dir", default=None,
                    help="folder with RV11/ and RV12/ (default ../shared/bench/balibase3 or "
                         ".peers/data/balibase3)")
    ap.add_argument("--sim", type=_int_list, default=[], metavar="K,K,...",
                    help="simulated family sizes, e.g. 1000,10000,30000,100000")
    ap.add_argument("--seeds", type=_int_list, default=[1, 2, 3], metavar="S,S,...")
    ap.add_argument("--sim-length", type=int, default=300)
    ap.add_argument("--tools", default=DEFAULT_TOOLS, help=f"of {', '.join(TOOLS)}")
    ap.add_argument("--cli", action="store_true", help="also time the bioplug command")
    ap.add_argument("--server", action="store_true",
                    help="also time the bioplug command through a resident `bioplug server`")
    ap.add_argument("--device", default=None, help="bioplug device (gpu, cpu, P:D, ...)")
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                    help="threads for pyfamsa, clustalo and mafft (default: every core)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per tool per case")
    ap.add_argument("--start-timeout", type=float, default=900.0,
                    help="seconds for a worker to start and warm up (kernel builds)")
    ap.add_argument("--budget", type=float, default=None,
                    help="start no case after this many seconds; a tool still running "
                         "--budget-grace seconds later is stopped and that run left out "
                         "(the summary is printed anyway)")
    ap.add_argument("--budget-grace", type=float, default=60.0)
    ap.add_argument("--part", default=None, metavar="I/N",
                    help="only the I-th of N interleaved parts of the cases (1/3, 2/3, 3/3): "
                         "one command per part fits a per-command time limit")
    ap.add_argument("--merge", nargs="+", default=None, metavar="TSV",
                    help="print the summary of earlier runs' TSVs and exit")
    ap.add_argument("--repeats", type=int, default=1, help="runs per case (median kept)")
    ap.add_argument("--fresh-workers", action="store_true",
                    help="a fresh process for every case of bioplug / bioplug-qp too (warmed "
                         "up each time; pyfamsa always gets one)")
    ap.add_argument("--no-skip-larger", action="store_true",
                    help="keep running a tool on larger cases after it timed out")
    ap.add_argument("--clustalw-max-k", type=int, default=4000)
    ap.add_argument("--qp-max-k", type=int, default=4000)
    ap.add_argument("--parttree-from", type=int, default=10000,
                    help="MAFFT --parttree instead of --auto from this many sequences")
    ap.add_argument("--peers-dir", default=str(REPO / ".peers"),
                    help="unpacked peers (benchmarks/peers.sh); '' for the system PATH")
    ap.add_argument("--work", default=None,
                    help="inputs and outputs (default $TMPDIR/bioplug-progressive-bench)")
    ap.add_argument("--keep", action="store_true", help="keep the tools' output files")
    ap.add_argument("--out", default="out/progressive.tsv",
                    help="per-case TSV; the summary goes beside it (.summary.txt), and the "
                         "workers' logs and programs' stderr into <name>_logs/")
    ap.add_argument("--dry-run", action="store_true", help="list cases and tools, run nothing")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker_main(args.worker, args.device, args.threads)
    if args.merge:
        print(f"# summary of {', '.join(args.merge)}")
        print(summary(read_rows(args.merge)))
        return 0

    started = time.monotonic()
    if args.homfam_dir:
        os.environ["BIOPLUG_HOMFAM"] = args.homfam_dir
    work = Path(args.work or Path(tempfile.gettempdir()) / "bioplug-progressive-bench")
    work.mkdir(parents=True, exist_ok=True)
    peers = Path(args.peers_dir) if args.peers_dir else None
    env, env_note = peer_environment(peers)
    wanted = [t for t in args.tools.split(",") if t]
    for flag, tool in ((args.cli, "bioplug-cli"), (args.server, "bioplug-srv")):
        if flag and tool not in wanted:
            wanted.insert(wanted.index("bioplug") + 1 if "bioplug" in wanted else 0, tool)
    tools, skipped = available_tools(wanted, env, args)

    cases: list[Case] = []
    if args.homfam is not None or args.families:
        names = args.families.split(",") if args.families else None
        cases += homfam_cases(names, args.homfam or None, work)
    if args.balibase is not None:
        bdir = Path(args.balibase_dir) if args.balibase_dir else next(
            (d for d in (REPO.parent / "shared/bench/balibase3", REPO / ".peers/data/balibase3")
             if d.is_dir()), None)
        if bdir is None:
            print("no BAliBASE folder (--balibase-dir)", file=sys.stderr)
            return 2
        cases += balibase_cases([str(bdir / "RV11"), str(bdir / "RV12")],
                                args.balibase or None, work)
    if args.sim:
        cases += sim_cases(args.sim, args.seeds, args.sim_length, work)
    if not cases:
        ap.error("nothing to run: give --homfam, --families, --balibase or --sim")
    if args.part:
        i, n = (int(x) for x in args.part.split("/"))
        if not 1 <= i <= n:
            ap.error("--part I/N needs 1 <= I <= N")
        cases = cases[i - 1::n]

    cpu = (open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(" :\t")
           if Path("/proc/cpuinfo").exists() else "?")
    header = [f"# benchmarks/progressive.py {shlex.join(sys.argv[1:] if argv is None else argv)}",
              f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} CPUs "
              f"({cpu}), {args.threads} threads for the peers; peers from {env_note}",
              f"# {len(cases)} cases; tools: {', '.join(tools)}"]
    header += [f"# skipped {s}" for s in skipped]
    for t in tools:
        if t in ("clustalo", "mafft", "clustalw"):
            header.append(f"# {t}: {peer_version(t, env)}")
    print("\n".join(header), flush=True)
    if args.dry_run:
        for c in cases:
            print(f"{c.dataset} {c.name} k={c.k} mean length {c.mean_len:.0f} ({c.path})")
        return 0
    if not tools:
        print("no tool to run", file=sys.stderr)
        return 2

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    deadline = started + args.budget + args.budget_grace if args.budget else None
    bench = Bench(args, tools, env, work, out.with_name(out.stem + "_logs"), deadline)
    try:
        if "bioplug-srv" in tools:
            bench.start_server()
        bench.warm_programs()
        with open(out, "w", newline="") as fh:
            tsv = csv.writer(fh, delimiter="\t", lineterminator="\n")
            tsv.writerow(TSV_FIELDS)
            for n, case in enumerate(cases):
                if args.budget and time.monotonic() - started > args.budget:
                    print(f"# budget of {args.budget:g} s spent: {len(cases) - n} cases not "
                          "run", flush=True)
                    break
                results = bench.run_case(case)
                for tool, r in results.items():
                    tsv.writerow([case.dataset, case.name, case.k, f"{case.mean_len:.1f}", tool,
                                  r.status, _fmt(r.wall, ".4f"),
                                  ",".join(f"{w:.4f}" for w in r.walls),
                                  _fmt(r.rss_kib and r.rss_kib / 1024, ".1f"),
                                  _fmt(r.gpu_mib, ".0f"), _fmt(r.sp, ".5f"), _fmt(r.tc, ".5f"),
                                  r.note, ";".join(f"{k}={_stage(v)}"
                                                   for k, v in r.stages.items())])
                fh.flush()
                print(case_line(case, results), flush=True)
    finally:
        bench.close()
    info = [f"# {t}: " + ", ".join(f"{k} {v}" for k, v in i.items())
            for t, i in bench.info.items()]
    text = summary(read_rows([out]))
    print("\n".join(info) + "\n" + text, flush=True)
    out.with_suffix(".summary.txt").write_text("\n".join(header + info) + "\n" + text + "\n")
    print(f"# rows: {out}; summary: {out.with_suffix('.summary.txt')}; "
          f"{time.monotonic() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
