"""Prepare the BRAliBASE 2.1 RNA reference alignments in ``.peers/data/nucleotide/`` (git-ignored).

Usage (from the repository root)::

    python benchmarks/_fetch_nucleotide_ref.py [--git-dir DIR] [--sets k10,k15] [--dest DIR]

What it writes: ``.peers/data/nucleotide/bralibase2.1/<set>/<RNA family>/<name>.ref.fa.gz``, the
reference (structural) alignments of BRAliBASE 2.1's ``k10`` (845 alignments of 10 sequences, 31
Rfam families) and ``k15`` (503 of 15, 27 families), each gzipped (0.7 MB in all; ``.peers``
travels to the GPU machine within a 64 MiB carry), and a ``SOURCE`` file beside them.
``benchmarks/nucleotide.py --reference .peers/data/nucleotide/bralibase2.1`` aligns each one's
sequences with the gaps removed and scores the result against it. BRAliBASE's ``*.raw.fa``
inputs are not kept: each is exactly its ``*.ref.fa`` with the gaps removed (checked here for
every alignment), which is what ``nucleotide.py`` feeds the tools.

Source (nothing of it is committed to this repository; it is other people's data):

* BRAliBASE 2.1: Wilm A, Mainz I, Steger G (2006) "An enhanced RNA alignment benchmark for
  sequence alignment programs", Algorithms Mol Biol 1:19. Built from Rfam 7.0 seed alignments;
  file names carry the alignment's mean pairwise identity (``apsi``) and structure conservation
  index (``sci``). The data set states no licence of its own; Rfam's data are public (CC0).
* The copy used: the LocARNA repository (github ``s-will/LocARNA``, GPL-3.0, which ships the
  data set for its own benchmarks), file ``Data/Bralibase2.1/all.tgz`` on ``master``
  (commit a6736722216bbb9541caf397f87742d5ff099d0b, git blob 316490d8..., holds k2 and k10) and
  ``Data/Bralibase2.1/k15.tgz`` of commit 4b8951a9f3465dcfb21caf3a6ca8a55854ebc734 (the head of
  that repository's pull request 37, blob d505a21a...). The blobs are read by their ids, which
  are checked, so the data are the same whichever copy of the repository is used.

Where the repository comes from: ``--git-dir`` (a clone or bare snapshot of s-will/LocARNA that
holds those blobs; default: the search tool's snapshot under ``/work/.mirror`` if present), else
a shallow ``git fetch`` of the two commits from GitHub (needs network; the GPU machine has none,
so prepare ``.peers`` here and carry it).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = "s-will/LocARNA"
URL = f"https://github.com/{REPO}.git"
MASTER = "a6736722216bbb9541caf397f87742d5ff099d0b"
PR37 = "4b8951a9f3465dcfb21caf3a6ca8a55854ebc734"
# set -> (commit, path, git blob id of the tarball)
BLOBS = {
    "all": (MASTER, "Data/Bralibase2.1/all.tgz", "316490d8802777c6aa942429356155dc2275ce7f"),
    "k15": (PR37, "Data/Bralibase2.1/k15.tgz", "d505a21adeab35fcf6b253654c3b548cb3735282"),
}
TARBALL_OF = {"k2": "all", "k10": "all", "k15": "k15"}
DEFAULT_MIRROR = Path("/work/.mirror/s-will+LocARNA/repo")


def _blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _git(git_dir: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True,
                          capture_output=True, **kw)


def _has_blob(git_dir: Path, blob: str) -> bool:
    r = subprocess.run(["git", f"--git-dir={git_dir}", "cat-file", "-e", blob],
                       capture_output=True)
    return r.returncode == 0


def _clone(tmp: Path) -> Path:
    """A bare repository with the two commits, fetched shallowly from GitHub."""
    git_dir = tmp / "locarna.git"
    subprocess.run(["git", "init", "-q", "--bare", str(git_dir)], check=True)
    _git(git_dir, "fetch", "-q", "--depth", "1", URL, "master", "refs/pull/37/head")
    return git_dir


def _read_fasta(data: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for line in data.splitlines():
        if line.startswith(">"):
            out.append((line[1:].strip(), ""))
        elif out:
            out[-1] = (out[-1][0], out[-1][1] + line.strip())
    return out


def extract(tar_bytes: bytes, kset: str, dest: Path) -> tuple[int, int, int]:
    """Write ``kset``'s ``*.ref.fa`` under ``dest``, gzipped; (alignments, families, bytes)."""
    refs, raws = {}, {}
    with tarfile.open(fileobj=io.BytesIO(tar_bytes), mode="r:gz") as tar:
        for m in tar.getmembers():
            parts = Path(m.name).parts
            if not m.isfile() or len(parts) != 3 or parts[0] != kset:
                continue
            text = tar.extractfile(m).read().decode("ascii")
            if m.name.endswith(".ref.fa"):
                refs[m.name] = text
            elif m.name.endswith(".raw.fa"):
                raws[m.name] = text
    if not refs:
        raise SystemExit(f"no {kset}/*/*.ref.fa in the tarball")
    size, fams = 0, set()
    for name, text in sorted(refs.items()):
        raw = raws.get(name[: -len(".ref.fa")] + ".raw.fa")
        ref = _read_fasta(text)
        if raw is not None and _read_fasta(raw) != [(i, r.replace("-", "")) for i, r in ref]:
            raise SystemExit(f"{name}: the raw file is not the reference without gaps")
        out = dest / (name + ".gz")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(gzip.compress(text.encode("ascii"), 9, mtime=0))
        size += len(text)
        fams.add(Path(name).parts[1])
    return len(refs), len(fams), size


def main(argv=None) -> int:
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--git-dir", type=Path, default=None,
                    help=f"a clone or snapshot of {REPO} (default: {DEFAULT_MIRROR} if present, "
                         "else fetched from GitHub)")
    ap.add_argument("--sets", default="k10,k15", help="BRAliBASE 2.1 sets: k2, k10, k15")
    ap.add_argument("--dest", type=Path, default=root / ".peers/data/nucleotide")
    args = ap.parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    for s in sets:
        if s not in TARBALL_OF:
            ap.error(f"unknown set {s!r} (k2, k10, k15)")
    with tempfile.TemporaryDirectory() as tmp:
        git_dir = args.git_dir or (DEFAULT_MIRROR if DEFAULT_MIRROR.exists() else None)
        need = {TARBALL_OF[s] for s in sets}
        if git_dir is None or not all(_has_blob(git_dir, BLOBS[t][2]) for t in need):
            print(f"fetching {REPO} ({', '.join(sorted(need))}) from GitHub", file=sys.stderr)
            git_dir = _clone(Path(tmp))
        out = args.dest / "bralibase2.1"
        lines = []
        for s in sets:
            commit, path, blob = BLOBS[TARBALL_OF[s]]
            data = _git(git_dir, "cat-file", "blob", blob).stdout
            if _blob_id(data) != blob:
                raise SystemExit(f"{path}: blob id mismatch")
            shutil.rmtree(out / s, ignore_errors=True)
            n, nfam, size = extract(data, s, out)
            lines.append(f"{s}: {n} reference alignments, {nfam} RNA families, {size} bytes; "
                         f"from {path} (git blob {blob}) of {REPO} commit {commit}")
            print(lines[-1])
    (out / "SOURCE").write_text(
        "BRAliBASE 2.1 reference alignments (Wilm, Mainz & Steger 2006, Algorithms Mol Biol "
        "1:19;\nbuilt from Rfam 7.0 seed alignments; no licence stated by the data set, Rfam's "
        "data are CC0).\nCopy taken from the LocARNA repository, github.com/" + REPO
        + " (GPL-3.0):\n" + "\n".join(lines)
        + "\nOnly the *.ref.fa files are kept, gzipped (each *.raw.fa is its .ref.fa without "
        "gaps; checked); the sizes above are uncompressed.\n"
        "Prepared by bioplug's benchmarks/_fetch_nucleotide_ref.py; not part of bioplug.\n")
    print(f"wrote {out} ({sum(f.stat().st_size for f in out.rglob('*') if f.is_file())} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
