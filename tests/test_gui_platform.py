"""``bioplug-gui``'s start-up check of Qt platform libraries (no Qt started)."""

from __future__ import annotations

import pytest
from bioplug.gui import platform_check as pc


def loader_without(*missing: str):
    gone = set(missing)
    return lambda soname: soname not in gone


def test_all_present_keeps_xcb():
    choice = pc.choose_platform({"DISPLAY": ":0"}, loader_without(), "linux")
    assert choice.ok and choice.platform is None and not choice.message


def test_missing_xcb_names_every_debian_package():
    loader = loader_without("libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1")
    choice = pc.choose_platform({"DISPLAY": ":0"}, loader, "linux")
    assert not choice.ok
    assert choice.missing == ["libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1"]
    assert "sudo apt-get install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1" in choice.message


def test_falls_back_to_wayland_with_a_note():
    loader = loader_without("libxcb-cursor.so.0")
    env = {"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}
    choice = pc.choose_platform(env, loader, "linux")
    assert choice.ok and choice.platform == "wayland"
    assert "libxcb-cursor0" in choice.message


def test_no_display_says_how():
    choice = pc.choose_platform({}, loader_without(), "linux")
    assert not choice.ok and "xvfb-run" in choice.message


@pytest.mark.parametrize("platform", ["offscreen", "minimal"])
def test_headless_platforms_need_nothing(platform):
    choice = pc.choose_platform({}, loader_without(*pc.XCB_LIBRARIES), "linux",
                                requested=platform)
    assert choice.ok and choice.platform == platform


def test_gui_libraries_first():
    choice = pc.choose_platform({"DISPLAY": ":0"}, loader_without("libEGL.so.1"), "linux")
    assert not choice.ok and choice.missing == ["libegl1"]


def test_other_systems_unchecked():
    choice = pc.choose_platform({}, loader_without(*pc.XCB_LIBRARIES), "darwin")
    assert choice.ok


def test_every_xcb_plugin_library_is_listed():
    """The installed plugin's NEEDED entries are all in the tables (when readelf exists)."""
    import shutil
    import subprocess
    from pathlib import Path

    PySide6 = pytest.importorskip("PySide6")
    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.exists() or not shutil.which("readelf"):
        pytest.skip("no xcb plugin or no readelf")
    text = subprocess.run(["readelf", "-d", str(plugin)], capture_output=True, text=True).stdout
    needed = {line.split("[")[1].rstrip("]") for line in text.splitlines() if "NEEDED" in line}
    bundled = {x for x in needed if x.startswith("libQt6")}
    system = {"libstdc++.so.6", "libm.so.6", "libgcc_s.so.1", "libc.so.6"}
    known = set(pc.XCB_LIBRARIES) | set(pc.GUI_LIBRARIES)
    assert needed - bundled - system - known == set()


def test_app_exits_2_with_the_message(monkeypatch, capsys):
    from bioplug.gui import app

    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(pc, "choose_platform", _with_loader(pc.choose_platform))
    assert app.main([]) == 2
    assert "libxcb-cursor0" in capsys.readouterr().err


def _with_loader(fn):
    return lambda **kw: fn(loader=lambda s: s != "libxcb-cursor.so.0", **kw)
