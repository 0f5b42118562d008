"""``bioplug viterbi``: the best state path of each FASTA record under an HMM model file."""

from __future__ import annotations

import argparse
import logging

from bioplug.errors import InputError

log = logging.getLogger(__name__)


def add_parser(sub) -> None:
    """Register the ``viterbi`` sub-command."""
    from bioplug.cli import add_device_option

    p = sub.add_parser(
        "viterbi",
        help="HMM Viterbi decoding: log probability and state path of each sequence",
        description="Decode each FASTA record with a categorical HMM on the OpenCL device. "
        "MODEL.json holds states (names), symbols (one character each), startprob, transmat "
        "(rows: from-state) and emissionprob (rows: state, columns: symbol); every row sums "
        "to 1. Output: a header line, then one tab-separated line per record: id, log "
        "probability of the best path, the path (state names, run together when each is one "
        "character, else comma-separated).",
    )
    p.add_argument("model", metavar="MODEL.json", help="HMM model file (JSON; - for standard "
                   "input)")
    p.add_argument("sequences", metavar="SEQS", help="FASTA file of symbol sequences (- for "
                   "standard input)")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="output table (- for standard output)")
    p.add_argument("--method", choices=["auto", "steps", "chain"], default="auto",
                   help="steps: step-wise recurrence; chain: tropical product chain (parallel "
                   "over time, for few long sequences of small models); default auto")
    p.add_argument("--float32", action="store_true",
                   help="compute in float32 (default float64, as hmmlearn)")
    add_device_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read the model and the records, decode them together, write the table atomically."""
    import numpy as np

    from bioplug.hmm.decoding import viterbi
    from bioplug.hmm.model import read_model
    from bioplug.io import (
        atomic_output,
        check_one_stdin,
        check_output,
        check_unique_ids,
        read_records,
    )
    from bioplug.progress import TerminalBar

    check_one_stdin(args.model, args.sequences)
    check_output(args.output, [args.model, args.sequences])
    model = read_model(args.model)
    records = read_records(args.sequences, "fasta")
    source = "standard input" if args.sequences == "-" else args.sequences
    seqs = []
    for index, record in enumerate(records):
        name = f"{source}: record {index + 1} ({record.id})" if record.id else \
            f"{source}: record {index + 1}"
        text = str(record.seq)
        if not text:
            raise InputError(f"{name}: the sequence is empty")
        seqs.append(model.encode(text, name))
    check_unique_ids(records, source)   # after each record's own check, as align3 does
    bar = TerminalBar(enabled=False if getattr(args, "quiet", False) else None)
    try:
        logp, paths = viterbi(*model.log_parameters(), seqs, method=args.method,
                              dtype=np.float32 if args.float32 else np.float64,
                              device=args.device, progress=bar)
    finally:
        bar.close()
    with atomic_output(args.output, [args.model, args.sequences]) as handle:
        handle.write("#id\tlog_prob\tpath\n")
        for record, value, path in zip(records, logp.tolist(), paths, strict=True):
            handle.write(f"{record.id}\t{value!r}\t{model.path_text(path)}\n")
    log.info("decoded %d sequence(s) into %s", len(records), args.output)
    return 0

