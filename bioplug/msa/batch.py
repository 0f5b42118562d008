"""Many families in one ``bioplug msa`` call: ``bioplug msa A.fa B.fa DIR/ ... --outdir OUT``.

One process, one device context and one set of built programs for every family (a call per
file pays interpreter start-up, imports, context creation and program loading each time).
Inputs are files, or folders standing for their sequence files (the extensions of
:data:`bioplug.io.EXTENSION_FORMATS`, sorted by name). Each alignment goes to
``OUTDIR/<input stem>.<extension of --format>``, written atomically as soon as it is done, so
a failure never leaves a half-written file. The next input is read while the device aligns
the current one (:meth:`~bioplug.msa.aligner.MultipleSequenceAligner.align_each`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from bioplug.errors import BioplugError, InputError

log = logging.getLogger(__name__)

#: File extension of each ``Bio.Align.write`` format (the format name for any other).
FORMAT_EXTENSIONS = {
    "fasta": "fasta", "a2m": "a2m", "clustal": "aln", "stockholm": "sto", "phylip": "phy",
    "phylip-relaxed": "phy", "phylip-sequential": "phy", "msf": "msf", "nexus": "nex",
    "emboss": "txt", "mauve": "xmfa", "maf": "maf", "bed": "bed", "psl": "psl",
    "sam": "sam", "exonerate": "txt", "tabular": "tsv", "hhr": "hhr", "a3m": "a3m",
}


def expand_inputs(paths: Sequence[str | os.PathLike]) -> list[Path]:
    """Input files in order: files as given, folders replaced by their sequence files.

    Raises
    ------
    InputError
        A path that does not exist, or a folder holding no sequence file.
    """
    from bioplug.io import EXTENSION_FORMATS

    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.iterdir()
                           if p.is_file() and not p.name.startswith(".")
                           and p.suffix.lower() in EXTENSION_FORMATS)
            if not found:
                known = ", ".join(sorted(EXTENSION_FORMATS))
                raise InputError(f"{path}: no sequence files in this folder ({known})")
            out.extend(found)
        elif path.exists():
            out.append(path)
        else:
            raise InputError(f"{path}: no such file or folder")
    return out


def output_paths(inputs: Sequence[Path], outdir: str | os.PathLike, fmt: str) -> list[Path]:
    """``outdir/<stem>.<ext>`` for every input, checked before any work starts.

    Raises
    ------
    InputError
        Two inputs with one stem (their outputs would collide), or an output that is an input.
    """
    ext = FORMAT_EXTENSIONS.get(fmt, fmt)
    outdir = Path(outdir)
    outputs = [outdir / f"{p.stem}.{ext}" for p in inputs]
    seen: dict[Path, Path] = {}
    for src, dst in zip(inputs, outputs, strict=True):
        if dst in seen:
            raise InputError(f"{seen[dst]} and {src} would both be written to {dst}; "
                             "rename one or align them in two calls")
        seen[dst] = src
    given = {p.resolve() for p in inputs}
    for dst in outputs:
        if dst.resolve() in given:
            raise InputError(f"{dst}: refusing to overwrite an input file (choose another "
                             "--outdir or --format)")
    return outputs


def run_batch(
    aligner,
    inputs: Sequence[Path],
    outputs: Sequence[Path],
    write: Callable[[object, Path, Path], None],
    keep_going: bool = False,
    bar: Callable[[str, int, int], object] | None = None,
) -> int:
    """Align ``inputs`` with one aligner and write each result with ``write(alignment,
    output, input)`` as soon as it is done.

    Parameters
    ----------
    aligner : MultipleSequenceAligner
        Its device context and built programs serve every family.
    inputs, outputs : sequence of Path
        Input files and their output files (see :func:`output_paths`).
    write : callable
        Writes one alignment atomically (the single-file command's writer).
    keep_going : bool
        Report a failed family and go on; otherwise stop at the first failure (the files
        already written stay, complete).
    bar : callable, optional
        ``bar("families", done, total)`` progress over files.

    Returns
    -------
    int
        0 when every family was written, 2 when some failed (``keep_going``).

    Raises
    ------
    BioplugError
        The first failure (naming its file) when ``keep_going`` is False.
    """
    def files_only(stage: str, done: int, total: int) -> None:
        # one bar over files: the families' own stages would redraw it for every stage
        if bar is not None and stage == "families":
            bar(stage, done, total)

    failed = 0
    for result in aligner.align_each(inputs, progress=files_only, keep_going=keep_going):
        if result.error is not None:  # already logged by align_each
            failed += 1
            continue
        source, target = inputs[result.index], outputs[result.index]
        try:
            write(result.alignment, target, source)
        except BioplugError as exc:
            named = exc if str(exc).startswith(str(source)) else type(exc)(f"{source}: {exc}")
            if not keep_going:
                raise named from exc
            failed += 1
            log.error("%s", named)
            continue
        times = ", ".join(f"{k} {v:.2f}s" for k, v in result.times.items())
        log.info("%s -> %s (%d sequences, %s mode): %s", source, target,
                 len(result.alignment.sequences), result.mode, times)
    if failed:
        log.error("%d of %d families failed; the others were written", failed, len(inputs))
        return 2
    return 0


class AutoAligner:
    """``bioplug msa --method auto --outdir``: each family goes to the pipeline ``choose``
    names for it ("quickprobs" or "progressive"), one device context for all.

    Parameters
    ----------
    quickprobs : MultipleSequenceAligner
    progressive : ProgressiveAligner
    choose : callable
        ``choose(records)`` -> "quickprobs" or "progressive" (``bioplug.msa.cli.auto_method``).
    """

    def __init__(self, quickprobs, progressive, choose: Callable[[list], str]):
        self.quickprobs, self.progressive, self.choose = quickprobs, progressive, choose
        self.last_errors: list = []

    def align_each(self, inputs, progress=None, keep_going: bool = False):
        """As :meth:`MultipleSequenceAligner.align_each`, the pipeline chosen per family."""
        from bioplug.msa.aligner import align_families
        from bioplug.progress import Progress

        self.last_errors = []

        def align(records, report):
            if self.choose(records) == "progressive":
                aligner = self.progressive
                return aligner._align_records(records, report), aligner.last_times, "progressive"
            aligner = self.quickprobs
            return aligner._align_records(records, report), aligner.last_times, aligner.last_mode

        yield from align_families(inputs, self.quickprobs.reader(), align, Progress(progress),
                                  keep_going, self.last_errors)
