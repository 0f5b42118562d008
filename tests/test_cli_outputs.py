"""Inputs and outputs every command refuses before any work: an output that is one of its
inputs, standard input given twice, standard input with ``--outdir``.

The device named (``99:99``) does not exist: a command that started work would fail on it
(exit 1) instead of refusing (exit 2), and the input must be left as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bioplug.cli import main

PROTEINS = ">a first\nMKVLAAGIVALLL\n>b\nMKVLGIVALL\n>c\nMKVAGIVALL\n"
MODEL = {"states": ["x", "y"], "symbols": ["A", "B"], "startprob": [0.5, 0.5],
         "transmat": [[0.9, 0.1], [0.2, 0.8]], "emissionprob": [[0.7, 0.3], [0.4, 0.6]]}


@pytest.fixture
def files(tmp_path):
    (tmp_path / "p.fa").write_text(PROTEINS)
    (tmp_path / "aln.fa").write_text(">a\nMKV-LA\n>b\nMKVQLA\n")
    (tmp_path / "new.fa").write_text(">n\nMKVLA\n")
    (tmp_path / "hmm.json").write_text(json.dumps(MODEL))
    (tmp_path / "obs.fa").write_text(">s\nABBA\n")
    return tmp_path


@pytest.mark.parametrize("argv, target", [
    (["msa", "p.fa", "-o", "p.fa"], "p.fa"),
    (["msa", "p.fa", "-o", "p.fa", "--method", "progressive"], "p.fa"),
    (["pairwise", "p.fa", "-o", "p.fa"], "p.fa"),
    (["search", "new.fa", "p.fa", "-o", "p.fa"], "p.fa"),
    (["tree", "p.fa", "-o", "p.fa"], "p.fa"),
    (["align3", "p.fa", "-o", "p.fa"], "p.fa"),
    (["profile", "aln.fa", "--add", "new.fa", "-o", "new.fa"], "new.fa"),
    (["viterbi", "hmm.json", "obs.fa", "-o", "obs.fa"], "obs.fa"),
])
def test_an_input_is_never_the_output(files, monkeypatch, capsys, argv, target):
    monkeypatch.chdir(files)
    before = (files / target).read_bytes()
    assert main(["-q", *argv, "--device", "99:99"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith(f"{target}: refusing to overwrite an input file"), err
    assert (files / target).read_bytes() == before


@pytest.mark.parametrize("argv, message", [
    (["pairwise", "-", "-", "-o", "out.fa"], "standard input (-) can be read once"),
    (["profile", "-", "-", "-o", "out.fa"], "standard input (-) can be read once"),
    (["profile", "-", "--add", "-", "-o", "out.fa"], "standard input (-) can be read once"),
    (["msa", "-", "--outdir", "outdir"], "has no name to write under --outdir"),
])
def test_standard_input_once_and_only_where_it_has_a_use(files, monkeypatch, capsys, argv,
                                                        message):
    import io

    monkeypatch.chdir(files)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(PROTEINS.encode())))
    assert main(["-q", *argv, "--device", "99:99"]) == 2
    assert message in capsys.readouterr().err
    assert not (files / "out.fa").exists() and not (files / "outdir").exists()


# -- output format from the extension, side outputs, same-file outputs -----------------------
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "BB11001.fasta"
EXAMPLE_IDS = ["1aab_", "1j46_A", "1k99_A", "2lef_A"]
FORMATS = {"aln": "clustal", "sto": "stockholm", "phy": "phylip", "nex": "nexus", "maf": "maf",
           "fa": "fasta", "txt": "fasta"}


@pytest.mark.parametrize("method", ["quickprobs", "progressive"])
@pytest.mark.parametrize("ext", sorted(FORMATS))
def test_msa_format_follows_the_output_extension(tmp_path, method, ext):
    """`bioplug msa IN -o OUT.aln` writes Clustal (.sto Stockholm, ...), FASTA for other
    extensions, whichever the method; the file reads back in the extension's format."""
    from Bio import Align

    out = tmp_path / f"m.{ext}"
    assert main(["-q", "msa", str(EXAMPLE), "-o", str(out), "--method", method,
                 "--device", "cpu"]) == 0
    assert [s.id for s in Align.read(out, FORMATS[ext]).sequences] == EXAMPLE_IDS
    assert out.read_text().startswith(">1aab_") == (FORMATS[ext] == "fasta")


def test_msa_dash_and_outdir_write_fasta_without_format(tmp_path, monkeypatch, capsys):
    assert main(["-q", "msa", str(EXAMPLE), "-o", "-", "--device", "cpu"]) == 0
    assert capsys.readouterr().out.startswith(">1aab_")
    assert main(["-q", "msa", str(EXAMPLE), "--outdir", str(tmp_path / "d"),
                 "--device", "cpu"]) == 0
    assert (tmp_path / "d" / "BB11001.fasta").read_text().startswith(">1aab_")


def test_readme_round_trip_msa_aln_then_profile_then_tree(tmp_path):
    """README: `bioplug msa big.fasta -o big.aln --method progressive`, then `bioplug profile
    a.aln b.aln -o merged.aln`: each command reads the .aln the previous one wrote."""
    from Bio import Align, SeqIO

    records = list(SeqIO.parse(EXAMPLE, "fasta"))
    for name, part in (("a", records[:2]), ("b", records[2:])):
        SeqIO.write(part, tmp_path / f"{name}.fasta", "fasta")
        assert main(["-q", "msa", str(tmp_path / f"{name}.fasta"), "-o",
                     str(tmp_path / f"{name}.aln"), "--method", "progressive",
                     "--device", "cpu"]) == 0
    merged = tmp_path / "merged.aln"
    assert main(["-q", "profile", str(tmp_path / "a.aln"), str(tmp_path / "b.aln"),
                 "-o", str(merged), "--device", "cpu"]) == 0
    alignment = Align.read(merged, "clustal")
    assert [s.id for s in alignment.sequences] == [r.id for r in records]
    assert main(["-q", "tree", str(merged), "-o", str(tmp_path / "t.nwk"),
                 "--device", "cpu"]) == 0


def test_profile_format_follows_the_output_extension(files):
    out = files / "added.sto"
    assert main(["-q", "profile", str(files / "aln.fa"), "--add", str(files / "new.fa"),
                 "-o", str(out), "--device", "cpu"]) == 0
    assert out.read_text().startswith("# STOCKHOLM")


@pytest.mark.parametrize("command", ["msa", "profile"])
def test_format_help_says_the_extension_decides(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "default: from OUT's extension (.aln" in help_text


def test_unwritable_format_is_refused_before_work_and_leaves_no_file(files, capsys):
    """hhr cannot be written: refused before any device work (the device named does not
    exist), and the guide tree is not left behind."""
    out = files / "out"
    rc = main(["-q", "msa", str(files / "p.fa"), "-o", str(out / "tt.hhr"), "--format", "hhr",
               "--tree-out", str(out / "tt.nwk"), "--device", "99:99"])
    assert rc == 2
    assert "cannot write format 'hhr'" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("argv", [
    ["msa", "{d}/long.fa", "-o", "{d}/out.phy"],
    ["msa", "{d}/long.fa", "-o", "{d}/out.aln", "--method", "progressive"],
    ["profile", "{d}/aln.fa", "--add", "{d}/long.fa", "-o", "{d}/out.phy"],
    ["profile", "{d}/aln.fa", "{d}/long.fa", "-o", "{d}/out.phy"],
])
def test_names_one_in_print_are_refused_before_work(files, capsys, argv):
    """Two ids that PHYLIP (10 letters) or Clustal (30) print as one are refused before the
    alignment (the device named does not exist), not by the writer after it."""
    stem = "x" * 31
    (files / "long.fa").write_text(f">{stem}A\nMKVLA\n>{stem}B\nMKVIA\n")
    rc = main(["-q", *[a.format(d=files) for a in argv], "--device", "99:99"])
    err = capsys.readouterr().err
    assert rc == 2 and "cannot write format" in err and "are both" in err, err
    assert not list(files.glob("out.*"))


def test_failed_alignment_write_leaves_no_tree(files, monkeypatch, capsys):
    """The tree is committed with the alignment: a failing alignment write leaves neither."""
    import bioplug.io
    from bioplug.errors import InputError

    def fail(*args, **kwargs):
        raise InputError("disk full")

    monkeypatch.setattr(bioplug.io, "write_checked", fail)
    rc = main(["-q", "msa", str(files / "p.fa"), "-o", str(files / "m.fa"),
               "--tree-out", str(files / "m.nwk"), "--device", "cpu"])
    assert rc == 2 and "disk full" in capsys.readouterr().err
    assert not (files / "m.nwk").exists() and not (files / "m.fa").exists()
    assert not [p.name for p in files.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("argv", [
    ["msa", "p.fa", "-o", "same.out", "--tree-out", "same.out"],
    ["msa", "p.fa", "-o", "same.out", "--tree-out", "./sub/../same.out"],
    ["msa", "p.fa", "-o", "-", "--tree-out", "-"],
    ["tree", "p.fa", "-o", "same.nwk", "--distances-out", "same.nwk"],
    ["tree", "p.fa", "-o", "-", "--distances-out", "-"],
])
def test_two_outputs_of_one_command_are_never_one_file(files, monkeypatch, capsys, argv):
    monkeypatch.chdir(files)
    (files / "sub").mkdir()
    assert main(["-q", *argv, "--device", "99:99"]) == 2
    err = capsys.readouterr().err
    assert "-o and " in err and ("same file" in err or "standard output" in err), err
    assert not (files / "same.out").exists() and not (files / "same.nwk").exists()


def test_outputs_linked_to_one_file_are_refused(files, capsys):
    (files / "real.nwk").write_text("old\n")
    (files / "link.nwk").symlink_to(files / "real.nwk")
    assert main(["-q", "msa", str(files / "p.fa"), "-o", str(files / "real.nwk"),
                 "--tree-out", str(files / "link.nwk"), "--device", "99:99"]) == 2
    assert "name the same file" in capsys.readouterr().err
    assert (files / "real.nwk").read_text() == "old\n"


# -- the method switch and the options of one method --------------------------------------------
def test_tree_out_keeps_the_quickprobs_method_and_writes_its_tree(files, caplog):
    """--tree-out writes either method's guide tree: under --method auto a small family
    stays with QuickProbs (no switch said), and the tree's tips are the family's ids."""
    import logging

    from skbio import TreeNode

    caplog.set_level(logging.WARNING)
    assert main(["-q", "msa", str(files / "p.fa"), "-o", str(files / "auto.fa"),
                 "--tree-out", str(files / "t.nwk"), "--device", "cpu"]) == 0
    assert not [r for r in caplog.records if "progressive" in r.getMessage()]
    assert main(["-q", "msa", str(files / "p.fa"), "-o", str(files / "qp.fa"),
                 "--method", "quickprobs", "--device", "cpu"]) == 0
    assert (files / "auto.fa").read_bytes() == (files / "qp.fa").read_bytes()
    ids = [line[1:].split()[0] for line in (files / "p.fa").read_text().splitlines()
           if line.startswith(">")]
    tree = TreeNode.read(str(files / "t.nwk"), convert_underscores=False)
    assert sorted(t.name for t in tree.tips()) == sorted(ids)


def _fasta_rows(path) -> dict[str, str]:
    rows, name = {}, None
    for line in path.read_text().splitlines():
        if line.startswith(">"):
            name = line[1:].split()[0]
            rows[name] = ""
        else:
            rows[name] += line.strip()
    return rows


@pytest.mark.parametrize("method", ["quickprobs", "progressive"])
def test_output_order_tree(tmp_path, monkeypatch, capsys, method):
    """--output-order tree: the rows in the guide tree's tip order (close relatives side by
    side, as Clustal Omega's tree-order), each row as in input order; --outdir too."""
    monkeypatch.chdir(tmp_path)
    a, b = "MKVLATGHWEEILKRAGDDLPQ", "PWRSTYDNQQKEMCAVFWLIGH"
    family = {"a1": a, "b1": b, "a2": a[:10] + "C" + a[11:], "b2": b[:5] + "A" + b[6:],
              "a'3": a[:-2]}   # a quote: Newick-quoted in the tree
    (tmp_path / "f.fa").write_text("".join(f">{k}\n{v}\n" for k, v in family.items()))
    common = ["-q", "msa", "f.fa", "--method", method, "--device", "cpu"]
    assert main([*common, "-o", "in.fa"]) == 0
    assert main([*common, "-o", "tree.fa", "--output-order", "tree", "--tree-out", "t.nwk"]) == 0
    by_input, by_tree = _fasta_rows(tmp_path / "in.fa"), _fasta_rows(tmp_path / "tree.fa")
    assert list(by_input) == list(family) and by_tree == by_input
    order = "".join(k[0] for k in by_tree)
    assert order in ("aaabb", "bbaaa"), order           # the two clades, not interleaved
    from skbio import TreeNode

    tips = [t.name for t in TreeNode.read("t.nwk", convert_underscores=False).tips()]
    assert list(by_tree) == tips
    assert main([*common[:2], "f.fa", "--outdir", "d", "--method", method, "--device", "cpu",
                 "--output-order", "tree"]) == 0
    assert list(_fasta_rows(tmp_path / "d" / "f.fasta")) == tips


@pytest.mark.parametrize("option", [["--matrix", "BLOSUM62"], ["--gap-open", "3"],
                                    ["--gap-extend", "1"], ["--trees", "nj"], ["--ktuple"]])
def test_quickprobs_refuses_progressive_options(files, monkeypatch, capsys, option):
    monkeypatch.chdir(files)
    (files / "g.nwk").write_text("((a,b),c);\n")
    assert main(["-q", "msa", "p.fa", "-o", "out.fa", "--method", "quickprobs", *option,
                 "--device", "99:99"]) == 2
    err = capsys.readouterr().err
    assert f"{option[0]}: an option of --method progressive only" in err, err
    assert not (files / "out.fa").exists()


def test_progressive_option_under_auto_switches_with_a_warning(files, caplog):
    import logging

    caplog.set_level(logging.WARNING)
    assert main(["-q", "msa", str(files / "p.fa"), "-o", str(files / "auto.fa"),
                 "--matrix", "BLOSUM62", "--device", "cpu"]) == 0
    assert "--matrix given: aligning with --method progressive" in caplog.text
    assert main(["-q", "msa", str(files / "p.fa"), "-o", str(files / "prog.fa"),
                 "--matrix", "BLOSUM62", "--method", "progressive", "--device", "cpu"]) == 0
    assert (files / "auto.fa").read_bytes() == (files / "prog.fa").read_bytes()


# -- errors that name the file, the option or the path -------------------------------------------
BAD = ">a\nMKVLAQW1\n>b\nMKVIAQ\n"


@pytest.mark.parametrize("method", ["quickprobs", "progressive"])
def test_msa_letter_error_names_the_file(files, monkeypatch, capsys, method):
    monkeypatch.chdir(files)
    (files / "bad.fa").write_text(BAD)
    assert main(["-q", "msa", "bad.fa", "-o", "out.fa", "--method", method,
                 "--device", "cpu"]) == 2
    assert capsys.readouterr().err.startswith(
        "bioplug msa: error: bad.fa: a: letter '1' at position 8")


def test_msa_model_letter_error_names_the_file(files, monkeypatch, capsys):
    """A letter the chosen model lacks (E as DNA) is refused by the aligner, which names the
    record only: the command adds the file."""
    monkeypatch.chdir(files)
    (files / "dna.fa").write_text(">x\nACGTACGE\n>y\nACGTACG\n")
    assert main(["-q", "msa", "dna.fa", "-o", "out.fa", "--seqtype", "dna",
                 "--method", "quickprobs", "--device", "cpu"]) == 2
    assert "error: dna.fa: x: letter 'E' at position 8" in capsys.readouterr().err


@pytest.mark.parametrize("aln, text, extra, shown", [
    ("aln.fa", BAD, [], "a: letter '1' at position 8"),
    # refused by the aligner's scoring matrix, which names the record only
    ("dna.fa", ">z\nACGTEACG\n", ["--seqtype", "dna"], "z: letter 'E' at column 5"),
])
def test_profile_letter_error_names_the_file(files, monkeypatch, capsys, aln, text, extra,
                                             shown):
    monkeypatch.chdir(files)
    (files / "dna.fa").write_text(">a\nACGT-ACGTA\n>b\nACGTTACG-A\n")
    (files / "bad.fa").write_text(text)
    assert main(["-q", "profile", aln, "--add", "bad.fa", "-o", "out.fa", *extra,
                 "--device", "cpu"]) == 2
    assert f"error: bad.fa: {shown}" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["msa", "p.fa", "-o", "out.fa", "--guide-tree", "nonexist.nwk"],
     "--guide-tree nonexist.nwk: no such file"),
    (["msa", "p.fa", "-o", "out.fa", "--guide-tree", "folder"],
     "--guide-tree folder: is a folder"),
    (["msa", "p.fa", "-o", "out.fa", "--seed", "-1"], "--seed -1: must be 0 or more"),
    (["msa", "p.fa", "-o", "out.fa", "--refinement", "-2"], "--refinement -2: must be 0"),
    (["tree", "folder", "-o", "out.fa"], "folder: is a folder"),
    (["profile", "folder", "--add", "new.fa", "-o", "out.fa"], "folder: is a folder"),
    (["profile", "aln.fa", "--add", "folder", "-o", "out.fa"], "folder: is a folder"),
    (["msa", "p.fa", "--outdir", "d", "--tree-out", "t.nwk"], "not with --outdir"),
])
def test_bad_paths_and_values_are_input_errors(files, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(files)
    (files / "folder").mkdir()
    assert main(["-q", *argv, "--device", "99:99"]) == 2
    err = capsys.readouterr().err
    assert message in err and "failed" not in err, err
    assert not (files / "out.fa").exists()


def test_an_unexpected_failure_is_one_line_and_v_shows_its_traceback(files):
    """A failure no check foresaw: one line on stderr (exit 1) saying how to see more, and
    ``-v`` shows the traceback the line promises (its own process: logging is set up once)."""
    import subprocess
    import sys

    script = ("import sys\n"
              "from bioplug.msa import cli as msa_cli\n"
              "def broken(*args, **kwargs):\n"
              "    raise RuntimeError('injected')\n"
              "msa_cli.run_msa = broken\n"
              "from bioplug.cli import main\n"
              "sys.exit(main(sys.argv[1:]))\n")
    argv = ["msa", "p.fa", "-o", "out.fa", "--device", "cpu"]
    for flags in (["-q"], ["-v"]):
        done = subprocess.run([sys.executable, "-c", script, *flags, *argv], cwd=files,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1
        if flags == ["-q"]:
            assert done.stderr.strip().endswith(
                "failed: RuntimeError: injected (run with -v for the traceback)")
            assert "Traceback" not in done.stderr
        else:
            assert "Traceback" in done.stderr and "RuntimeError: injected" in done.stderr


@pytest.mark.parametrize("command", [["msa", "p.fa", "-o", "out.fa"],
                                     ["profile", "p.fa", "--add", "p.fa", "-o", "out.fa"]])
@pytest.mark.parametrize("flag", ["--gap-open", "--gap-extend", "--end-gap-open",
                                  "--end-gap-extend"])
def test_gap_penalties_are_refused_by_their_flag(files, monkeypatch, capsys, command, flag):
    """A negative or infinite penalty is refused by the option's name, before any work (the
    library's message names its keyword argument instead)."""
    monkeypatch.chdir(files)
    for value in ("-5", "inf", "x"):
        with pytest.raises(SystemExit) as stop:
            main([*command, flag, value, "--device", "cpu"])
        assert stop.value.code == 2
        assert f"argument {flag}: " in capsys.readouterr().err
    assert not (files / "out.fa").exists()


def test_guide_tree_options_only_where_they_are_read(capsys):
    """``bioplug msa`` lists --seqtype, --guide-tree and --tree-out apart from the progressive
    options (either method reads them); ``bioplug profile`` has no guide tree to take."""
    for command in ("msa", "profile"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
        assert "--seqtype" in text
        assert ("--tree-out" in text) == ("--guide-tree" in text) == (command == "msa")


def test_msa_help_says_what_auto_does(capsys):
    """The description and --method help give the thresholds the code uses."""
    from bioplug.msa import cli as msa_cli
    from bioplug.progressive import cli as progressive

    with pytest.raises(SystemExit):
        main(["msa", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    protein, every = msa_cli.AUTO_PROGRESSIVE_PROTEIN_K, f"{progressive.AUTO_PROGRESSIVE_K:,}"
    # the description, then the --method help
    assert f"protein families of more than {protein} sequences, for any family of more " \
           f"than {every}" in help_text
    assert f"protein families above {protein} sequences, any above {every}" in help_text


@pytest.mark.parametrize("argv", [["--method", "progressive", "--accurate"],
                                  ["--method", "progressive", "--consistency", "1"],
                                  ["--matrix", "BLOSUM62", "--tree-out", "{tree}",
                                   "--accurate"]])
def test_quickprobs_options_are_refused_by_the_progressive_method(files, capsys, argv):
    out = files / "q.fa"
    argv = [a.format(tree=files / "q.nwk") for a in argv]
    assert main(["-q", "msa", str(files / "p.fa"), "-o", str(out), *argv,
                 "--device", "cpu"]) == 2
    assert "QuickProbs options" in capsys.readouterr().err
    assert not out.exists() and not (files / "q.nwk").exists()


def test_verbosity_options_after_the_command(tmp_path, monkeypatch):
    """``-q`` / ``-v`` after the command act as before it (most tools take them anywhere):
    ``-v`` counts on from the ones before it, a ``-q`` before it is kept."""
    import logging

    from bioplug.cli import build_parser

    tail = [str(EXAMPLE), "-o", str(tmp_path / "o.fa")]
    assert build_parser("msa").parse_args(["msa", *tail, "-q"]).quiet is True
    assert build_parser("msa").parse_args(["-q", "msa", *tail]).quiet is True
    assert build_parser("msa").parse_args(["msa", *tail]).quiet is False
    levels = []
    monkeypatch.setattr(logging, "basicConfig", lambda **kw: levels.append(kw["level"]))
    for argv in (["msa", *tail], ["-v", "msa", *tail], ["msa", *tail, "-v"],
                 ["-v", "msa", *tail, "-v"], ["msa", *tail, "-vv"]):
        assert main([*argv, "--device", "cpu", "-q"]) == 0
    assert levels == [logging.WARNING, logging.INFO, logging.INFO, logging.DEBUG,
                      logging.DEBUG]


@pytest.mark.parametrize("command", [["msa", "p.fa"], ["profile", "aln.fa", "--add", "new.fa"],
                                     ["tree", "p.fa"]])
def test_an_output_that_cannot_be_written_is_refused_before_the_work(files, monkeypatch,
                                                                     capsys, command):
    """An output under a plain file (or in a folder that takes no file) is refused with exit
    2 before any work: it failed only once the work was done, as FileNotFoundError (exit 1)."""
    monkeypatch.chdir(files)
    (files / "plain").write_text("x\n")
    ran = []
    monkeypatch.setattr("bioplug.runtime.get_runtime", lambda *a, **k: ran.append(1))
    assert main(["-q", *command, "-o", "plain/out.fa", "--device", "cpu"]) == 2
    assert "plain/out.fa: cannot be written (plain is not a folder)" in capsys.readouterr().err
    assert not ran and (files / "plain").read_text() == "x\n"


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux's /proc")
def test_a_place_that_refuses_the_file_is_an_input_error(files, capsys):
    """/proc takes no new file whoever runs (root passes the early check there): the write
    says so as an error of the output (exit 2), not as a crash."""
    assert main(["-q", "msa", str(files / "p.fa"), "-o", "/proc/bioplug-none/out.fa",
                 "--device", "cpu"]) == 2
    assert "/proc/bioplug-none/out.fa: cannot be written" in capsys.readouterr().err


def test_ids_printed_otherwise_are_named_before_the_work(tmp_path, caplog):
    """PHYLIP keeps 10 letters of a name and drops or replaces characters it cannot hold
    (as Biopython writes it), Clustal keeps 30: the ids printed otherwise are named in a
    warning, and ids printed as given are not."""
    src = tmp_path / "w.fa"
    src.write_text(">sp|P1|A_HUMAN(x)\nMKVLAAGIVG\n>a:b\nMKVLSAGIVG\n>c,d\nMKILAAGLVG\n")
    assert main(["-q", "msa", str(src), "-o", str(tmp_path / "w.phy"), "--device", "cpu"]) == 0
    assert ("3 ids are printed otherwise ('sp|P1|A_HUMAN(x)' as 'sp|P1|A_HU', 'a:b' as 'a|b', "
            "'c,d' as 'cd')") in caplog.text
    caplog.clear()
    assert main(["-q", "msa", str(src), "-o", str(tmp_path / "w.aln"), "--device", "cpu"]) == 0
    assert "printed otherwise" not in caplog.text
    long = tmp_path / "long.fa"
    long.write_text(">" + "x" * 35 + "\nMKVLAAGIVG\n>b\nMKVLSAGIVG\n")
    assert main(["-q", "msa", str(long), "-o", str(tmp_path / "l.aln"), "--device", "cpu"]) == 0
    assert "Clustal keeps 30 letters of a name: 1 id is printed otherwise" in caplog.text


def test_a_refused_option_comes_without_advice_about_it(files, caplog, capsys):
    """``--method progressive --reliability -o x.fa``: the refusal alone, not first a warning
    on where the reliabilities would be written."""
    assert main(["-q", "msa", str(files / "p.fa"), "-o", str(files / "x.fa"), "--method",
                 "progressive", "--reliability", "--device", "cpu"]) == 2
    assert "QuickProbs options" in capsys.readouterr().err
    assert "annotation lines" not in caplog.text


def test_codon_tables_wait_for_their_first_use():
    """The executable defers ``Bio.Data.CodonTable`` (built at import, read only by
    ``translate``): ``Bio.Seq`` and ``SeqRecord`` import without running it, and translation
    still works, with the tables loaded then."""
    import subprocess
    import sys

    script = ("import sys\n"
              "from bioplug import cli\n"
              "cli._defer_codon_tables()\n"
              "from Bio.Seq import Seq\n"
              "from Bio.SeqRecord import SeqRecord\n"
              "import Bio.Align\n"
              "lazy = type(sys.modules['Bio.Data.CodonTable']).__name__\n"
              "assert lazy != 'module', lazy\n"
              "assert str(Seq('ATGGCCTAA').translate()) == 'MA*'\n"
              "from Bio.Data import CodonTable\n"
              "assert CodonTable.standard_dna_table.forward_table['TGG'] == 'W'\n"
              "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout == "ok\n", done.stderr
