"""Merging alignments: ``bioplug profile A B C ... -o OUT`` against ``mafft --merge``, in one
run, on reference alignments.

Each case is a reference alignment (BAliBASE XML, scored on its core columns; HomFam
references, every column) whose sequences are split into ``--groups`` subfamilies: UPGMA on
k-tuple distances (bioplug's, one computation shared by both tools), cut into that many
clusters. Each subfamily is given as an alignment:

``reference``   the reference's own rows of it (columns of gaps only removed): the merge
                alone is judged
``mafft``       aligned by ``mafft --auto`` (as users have subfamily alignments)
``bioplug``     aligned by bioplug's progressive mode, in this process

``--simulate K`` takes a simulated family of K sequences (``simulate.evolve``, every column
of its true alignment scored) instead of references.

With ``--homologs DIR --depth N`` (HomFam's family sequences) N homologs join the reference
rows, the reference rows are spread over the subfamilies (each homolog joins its nearest
reference row's), every subfamily is aligned by MAFFT, and the reference rows are scored.
Both tools run as users run them, output written; the time is the process's, start to exit
(``progressive.run_process``):

``bioplug``   ``bioplug -q profile g1.fa g2.fa ... -o out.fa --device D``
``mafft``     ``cat g*.fa > input; mafft --merge table --thread T input`` (the table lists
              each subfamily's sequence numbers; single sequences are left out of it, as
              MAFFT's documentation asks)

Both must keep every subfamily's columns (``kept``: checked on every output).

Examples (repository root)::

    python benchmarks/merge.py --references ../shared/bench/balibase3/RV11 \\
        ../shared/bench/balibase3/RV12 --given reference,mafft --device cpu
    python benchmarks/merge.py --references ../shared/bench/homfam/ref --homologs \\
        ../shared/bench/homfam/small --depth 200 --device cpu
    # GPU machine: bash .device/prelude.sh && python benchmarks/merge.py --simulate 2000 \\
    #   --groups 8 --given reference,bioplug --device gpu --threads 16 --peers-dir .peers
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from progressive import (  # noqa: E402
    add_peer_run_options,
    bioplug_command,
    peer_environment,
    peer_version,
    run_process,
)

REPO = Path(__file__).resolve().parents[1]


def reference_files(folders: list[str], every: int) -> list[Path]:
    files = []
    for folder in folders:
        path = Path(folder)
        found = sorted(path.glob("*.xml")) or sorted(p for p in path.iterdir() if p.is_file())
        if not found:   # HomFam: one folder a family, the reference inside
            found = sorted(q for d in sorted(path.iterdir()) if d.is_dir()
                           for q in d.iterdir() if q.is_file())
        files += found
    return files[::every]


def homologs(family: str, folder: Path, depth: int, rng) -> list[tuple[str, str]]:
    from Bio import SeqIO

    hits = [p for p in folder.iterdir() if p.name.split(".")[0] == family]
    if not hits:
        return []
    target = hits[0] if hits[0].is_file() else next(q for q in hits[0].iterdir() if q.is_file())
    records = [(r.id, str(r.seq).upper().replace("-", "").replace(".", ""))
               for r in SeqIO.parse(str(target), "fasta")]
    pick = rng.choice(len(records), size=min(depth, len(records)), replace=False)
    return [records[i] for i in sorted(pick)]


def subfamilies(texts: list[str], groups: int, device, seeds: int | None = None
                ) -> np.ndarray:
    """Cluster number (0-based) of each sequence: UPGMA on k-tuple distances, ``groups``
    clusters. With ``seeds`` (the first ``seeds`` sequences are the scored reference rows)
    those are clustered so, and every other sequence joins its nearest reference row's
    cluster: the reference rows are spread over the subfamilies, so that the merge decides
    how they align (with 200 homologs clustered freely they mostly share one)."""
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import squareform

    from bioplug.tree import ktuple_distances

    dist = ktuple_distances(texts, k=2, device=device).to_numpy().astype(np.float64)
    dist = (dist + dist.T) / 2
    np.fill_diagonal(dist, 0.0)
    if seeds is None:
        link = linkage(squareform(np.maximum(dist, 0.0), checks=False), "average")
        return fcluster(link, groups, "maxclust") - 1
    if seeds <= groups:
        ref = np.arange(seeds)
    else:
        block = np.maximum(dist[:seeds, :seeds], 0.0)
        ref = fcluster(linkage(squareform(block, checks=False), "average"), groups,
                       "maxclust") - 1
    return np.concatenate([ref, ref[np.argmin(dist[seeds:, :seeds], axis=1)]])


def given_rows(ids, rows, members, given: str, work: Path, env, device=None) -> list[str]:
    """The subfamily's alignment as the tools get it."""
    if given == "reference":
        block = np.array([list(rows[i]) for i in members])
        keep = (block != "-").any(axis=0)
        return ["".join(r[keep]) for r in block]
    plain = [rows[i].replace("-", "") for i in members]
    if len(members) == 1:
        return plain
    if given == "bioplug":
        from bioplug import ProgressiveAligner
        from bioplug.io import alignment_rows

        # bioplug's own rows: Biopython's per-row strings take minutes at this size
        aligned = alignment_rows(ProgressiveAligner(device=device).align(plain))
        return [r.tobytes().decode("latin-1").upper() for r in aligned]
    src = work / "sub.fa"
    src.write_text("".join(f">{ids[i]}\n{t}\n" for i, t in zip(members, plain, strict=True)))
    out = subprocess.run(["mafft", "--auto", "--quiet", "--thread", "2", str(src)],
                         capture_output=True, text=True, env=env, check=True).stdout
    got = dict(_fasta(out))
    return [got[ids[i]].upper() for i in members]


def _fasta(text: str) -> list[tuple[str, str]]:
    out = []
    for block in text.split(">")[1:]:
        head, *seq = block.splitlines()
        out.append((head.split()[0], "".join(seq)))
    return out


def kept(result: dict[str, str], groups: list[tuple[list[str], list[str]]]) -> bool:
    """Every subfamily's rows, columns of gaps only removed, are as given."""
    for names, rows in groups:
        block = np.array([list(result[n].upper()) for n in names])
        keep = (block != "-").any(axis=0)
        if ["".join(r[keep]) for r in block] != rows:
            return False
    return True


def simulated(k: int, length: int, seed: int):
    """(name, Reference) of a simulated family (``simulate.evolve``), every column scored."""
    from simulate import evolve

    from bioplug.msa.score import Reference

    names, _, rows = evolve(k, length, seed)
    return f"sim{k}x{length}s{seed}", Reference(list(names), [r.upper() for r in rows],
                                                np.ones(len(rows[0]), dtype=bool))


def run_case(ref_path: Path | None, args, env, rng, work: Path, loaded=None) -> list[dict]:
    from bioplug.msa.score import read_reference, sp_tc

    if loaded is None:
        ref = read_reference(ref_path)
        family = ref_path.stem if ref_path.suffix == ".xml" else ref_path.name.split(".")[0]
    else:
        family, ref = loaded
    ids, rows = list(ref.ids), list(ref.rows)
    extra = homologs(family, Path(args.homologs), args.depth, rng) if args.homologs else []
    if args.homologs and not extra:
        return []
    taken = set(ids)
    extra = [(n, t) for n, t in extra if n not in taken]
    all_ids = ids + [n for n, _ in extra]
    all_rows = rows + [t for _, t in extra]   # homologs unaligned: only ever re-aligned
    plain = [r.replace("-", "") for r in all_rows]
    cluster = subfamilies(plain, args.groups, args.device,
                          len(ids) if args.homologs else None)
    g = int(cluster.max()) + 1
    if g < 2:
        return []
    out = []
    for given in (["mafft"] if args.homologs else args.given.split(",")):
        groups = []
        for c in range(g):
            members = [int(i) for i in np.flatnonzero(cluster == c)]
            groups.append(([all_ids[i] for i in members],
                           given_rows(all_ids, all_rows, members, given, work, env,
                                      args.device)))
        files = []
        for c, (names, grows) in enumerate(groups):
            files.append(work / f"g{c}.fa")
            files[-1].write_text("".join(f">{n}\n{r}\n" for n, r in
                                         zip(names, grows, strict=True)))
        for tool in args.tools.split(","):
            result, status, wall = run_tool(tool, files, groups, args, env, work)
            row = dict(case=family, given=given, tool=tool, k=len(all_ids), groups=g,
                       status=status, wall=wall)
            if result is not None:
                sp, tc = sp_tc(list(result), [result[n].upper() for n in result], ref)
                row.update(sp=100 * sp, tc=100 * tc, kept=kept(result, groups))
            out.append(row)
            print("\t".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}"
                            for k, v in row.items()), flush=True)
    return out


def run_tool(tool: str, files: list[Path], groups, args, env, work: Path):
    out = work / f"{tool}.out.fa"
    out.unlink(missing_ok=True)
    log = work / f"{tool}.log"
    if tool == "bioplug":
        cmd = [*bioplug_command(), "-q", "profile", *map(str, files), "-o", str(out)]
        if args.device:
            cmd += ["--device", args.device]
        status, wall, _, note = run_process(cmd, stdout=None, cwd=work, env=env,
                                            timeout=args.timeout, log=log)
    else:
        inp, table = work / "input.fa", work / "table.txt"
        inp.write_text("".join(f.read_text() for f in files))
        lines, start = [], 1
        for names, _ in groups:
            if len(names) > 1:
                lines.append(" ".join(str(start + i) for i in range(len(names))))
            start += len(names)
        table.write_text("".join(line + "\n" for line in lines))
        cmd = ["mafft", "--merge", str(table), "--thread", str(args.threads), "--quiet",
               str(inp)]
        status, wall, _, note = run_process(cmd, stdout=out, cwd=work, env=env,
                                            timeout=args.timeout, log=log)
    if status != "ok" or not out.exists():
        return None, f"{status} {note}".strip(), wall
    return dict(_fasta(out.read_text())), status, wall


def summary(rows: list[dict]) -> None:
    print("\ngiven\ttool\tcases\tSP\tTC\tkept\twall s (sum)")
    keys = sorted({(r["given"], r["tool"]) for r in rows})
    both = {r["case"] for r in rows if r.get("sp") is not None}
    for given, tool in keys:
        mine = [r for r in rows if (r["given"], r["tool"]) == (given, tool)
                and r["case"] in both and r.get("sp") is not None]
        if not mine:
            continue
        print(f"{given}\t{tool}\t{len(mine)}\t{statistics.mean(r['sp'] for r in mine):.2f}\t"
              f"{statistics.mean(r['tc'] for r in mine):.2f}\t"
              f"{sum(r['kept'] for r in mine)}/{len(mine)}\t"
              f"{sum(r['wall'] for r in mine):.1f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--references", nargs="+", default=[])
    p.add_argument("--simulate", type=int, default=0, metavar="K",
                   help="a simulated family of K sequences instead (simulate.evolve)")
    p.add_argument("--length", type=int, default=300)
    p.add_argument("--given", default="reference,mafft")
    p.add_argument("--groups", type=int, default=4)
    p.add_argument("--homologs")
    p.add_argument("--depth", type=int, default=200)
    p.add_argument("--every", type=int, default=1)
    p.add_argument("--tools", default="bioplug,mafft")
    add_peer_run_options(p, timeout=600)
    args = p.parse_args()
    env, where = peer_environment(args.peers_dir)
    print(f"# peers from {where}; mafft {peer_version('mafft', env)}")
    rng = np.random.default_rng(args.seed)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in reference_files(args.references, args.every):
            rows += run_case(path, args, env, rng, Path(tmp))
        if args.simulate:
            rows += run_case(None, args, env, rng, Path(tmp),
                             simulated(args.simulate, args.length, args.seed))
    summary(rows)


if __name__ == "__main__":
    main()
