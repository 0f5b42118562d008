"""The real app under a real X server (Xvfb): start-up check, xcb platform, jobs, and the
screenshots script (the path that makes the README's pictures). Skipped without Xvfb."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "screenshots" / "make_screenshots.py"
FASTA = """>1aab_
GKGDPKKPRGKMSSYAFFVQTSREEHKKKHPDASVNFSEFSKKCSERWKTMSAKEKGKFEDMAKADKARYEREMKTYIPPKGE
>1j46_A
MQDRVKRPMNAFIVWSRDQRRKMALENPRMRNSEISKQLGYQWKMLTEAEKWPFFQEAQKLQAMHREKYPNYKYRPRRKAKMLPK
>1k99_A
MKKLKKHPDFPKKPLTPYFRFFMEKRAKYAKLHPEMSNLDLTKILSKKYKELPEKKKMKYIQDFQREKQEFERNLARFREDHPDLIQNAKK
>2lef_A
MHIKKPLNAFMLYMKEMRANVVAESTLKESAAINQILGRRWHALSREEQAKYYELARKERQLHMQLYPGWSARDNYGKKKKRKREK
"""


def xvfb_run() -> str:
    path = shutil.which("xvfb-run")
    if path is None or shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (Debian: apt-get install xvfb libxcb-cursor0)")
    return path


def cpu_device() -> None:
    from bioplug.runtime import list_devices

    if not any(d.kind == "CPU" for d in list_devices()):
        pytest.skip("no CPU (PoCL) OpenCL device")


def test_real_app_under_xvfb_makes_the_screenshots(tmp_path):
    runner = xvfb_run()
    cpu_device()
    fasta = tmp_path / "four.fasta"
    fasta.write_text(FASTA)
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY",
                                                            "WAYLAND_DISPLAY")}
    out = tmp_path / "shots"
    proc = subprocess.run(
        [runner, "-a", "-s", "-screen 0 1600x1000x24", sys.executable, str(SCRIPT),
         "--quick", str(fasta), "--out", str(out)],
        env=env, capture_output=True, text=True, timeout=300, cwd=ROOT)
    if proc.returncode == 2 and "needs libraries that are not installed" in proc.stderr:
        pytest.skip(proc.stderr.strip())  # bioplug-gui's own start-up check said why
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "platform xcb" in proc.stdout  # the X11 window, not offscreen
    from PySide6.QtGui import QImage

    for name in ("alignment", "tree_beside", "heatmap"):
        image = QImage(str(out / f"{name}.png"))
        assert image.width() >= 1000 and image.height() >= 600, name
        colours = {image.pixel(x, y) for x in range(0, image.width(), 37)
                   for y in range(0, image.height(), 29)}
        assert len(colours) > 20, f"{name}.png looks blank"
