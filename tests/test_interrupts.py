"""Ctrl-C in a command (``bioplug.interrupts``): the process ends at once, even inside a device
wait, except while a file is being put in place, which is then removed."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import numpy as np

from bioplug import interrupts


def _interrupted_default():
    """A child's SIGINT as a terminal's foreground job has it (a test runner, like a shell's
    background job, may pass it on ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_search_stops_at_once_and_leaves_nothing(tmp_path):
    """SIGINT in the middle of a search on the CPU device: the process ends within moments
    (it went on to the end of the scan's device wait, 15 s here, before Python raised
    KeyboardInterrupt), with no output and no temporary file."""
    rng = np.random.default_rng(1)
    letters = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    queries, database = tmp_path / "q.fa", tmp_path / "db.fa"
    queries.write_text("".join(f">q{i}\n{''.join(rng.choice(letters, 400))}\n"
                               for i in range(40)))
    database.write_text("".join(f">d{i}\n{''.join(rng.choice(letters, 300))}\n"
                                for i in range(2000)))
    out = tmp_path / "hits.tsv"
    command = [sys.executable, "-m", "bioplug", "-q", "search", str(queries), str(database),
               "-o", str(out), "--device", "cpu"]
    # the index first (one short query), so that the signal comes during the scan
    one = tmp_path / "one.fa"
    one.write_text(">one\nMKVLAAGIVG\n")
    subprocess.run([sys.executable, "-m", "bioplug", "-q", "search", str(one), str(database),
                    "-o", str(tmp_path / "first.tsv"), "--device", "cpu"], check=True,
                   timeout=600)
    started = time.monotonic()
    proc = subprocess.Popen(command, preexec_fn=_interrupted_default)
    time.sleep(2.5)
    if proc.poll() is not None:   # a machine fast enough to finish first: nothing to stop
        return
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=120)
    assert code == -signal.SIGINT, code
    assert time.monotonic() - sent < 2.0, (time.monotonic() - sent, sent - started)
    assert not out.exists()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".hits")]


def test_cleaning_up_turns_sigint_into_keyboardinterrupt(tmp_path):
    """After end_at_once, SIGINT ends the process, except inside cleaning_up, where it raises
    KeyboardInterrupt (and the block's clean-up runs); PoCL's own handler, installed as it
    lists its devices, passes the signal on to the default action."""
    script = tmp_path / "child.py"
    script.write_text(
        "import os, signal, sys\n"
        "from bioplug import interrupts\n"
        "interrupts.end_at_once()\n"
        "try:\n"
        "    with interrupts.cleaning_up():\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "        signal.pause()\n"
        "except KeyboardInterrupt:\n"
        "    print('cleaned up', flush=True)\n"
        "import pyopencl as cl\n"
        "cl.get_platforms()[0].get_devices()   # PoCL installs its handler, chaining to ours\n"
        "assert signal.getsignal(signal.SIGINT) is signal.SIG_DFL\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "signal.pause()\n"
        "print('not reached')\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          preexec_fn=_interrupted_default, timeout=30)
    assert done.returncode == -signal.SIGINT and done.stdout == "cleaned up\n", done


def test_library_callers_keep_pythons_handler():
    """Without end_at_once (the library, the GUI, tests): nothing changes."""
    before = signal.getsignal(signal.SIGINT)
    with interrupts.cleaning_up():
        assert signal.getsignal(signal.SIGINT) is before
