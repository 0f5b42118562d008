"""Start-up check of Qt's platform plugin libraries, before Qt is started.

Qt's own failure when a library of its ``xcb`` plugin is missing is an abort with a hint
about one library ("xcb-cursor0 or libxcb-cursor0 is needed"), after which the user finds
the next missing one by trying again. Here every shared library that the plugin of the
installed PySide6 links (its ``NEEDED`` entries, PySide6 6.5 to 6.12, listed below) is
opened with ``ctypes`` first, and all the Debian / Ubuntu packages that are missing are
named at once. Where the ``xcb`` libraries are missing but a Wayland session has what
Qt's ``wayland`` plugin needs, the application starts on Wayland instead, saying so.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

#: Libraries of ``libqxcb.so`` / ``libQt6XcbQpa.so.6`` (and the GUI libraries they need that
#: PySide6 does not bundle) -> Debian package (bookworm; trixie and Ubuntu 24.04 use the same
#: names, except ``libglib2.0-0t64`` there).
XCB_LIBRARIES: dict[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
}
#: Libraries every platform of QtGui needs that PySide6 does not bundle.
GUI_LIBRARIES: dict[str, str] = {
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
}
#: Libraries of Qt's ``wayland`` platform plugin.
WAYLAND_LIBRARIES: dict[str, str] = {
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
    "libxkbcommon.so.0": "libxkbcommon0",
}


@dataclass
class PlatformChoice:
    """What to start Qt with, and what to tell the user.

    Attributes
    ----------
    platform : str or None
        Value for ``QT_QPA_PLATFORM`` (None: leave Qt's choice alone).
    ok : bool
        False when Qt cannot start: print ``message`` and exit.
    message : str
        Text for standard error ("" when there is nothing to say).
    missing : list of str
        Debian packages to install for the ``xcb`` platform.
    """

    platform: str | None
    ok: bool = True
    message: str = ""
    missing: list[str] = field(default_factory=list)


def can_load(soname: str) -> bool:
    """True when the dynamic loader finds and opens ``soname``."""
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def missing_packages(libraries: Mapping[str, str],
                     loader: Callable[[str], bool] = can_load) -> list[str]:
    """Debian packages of the libraries ``loader`` cannot open (sorted, without repeats)."""
    return sorted({pkg for lib, pkg in libraries.items() if not loader(lib)})


def install_hint(packages: list[str]) -> str:
    """The command that installs ``packages`` on Debian / Ubuntu."""
    return "sudo apt-get install " + " ".join(packages)


def choose_platform(env: Mapping[str, str] | None = None,
                    loader: Callable[[str], bool] = can_load,
                    system: str | None = None, requested: str | None = None) -> PlatformChoice:
    """Pick Qt's platform plugin for this session, checking its libraries first.

    Parameters
    ----------
    env : mapping, optional
        Environment (default ``os.environ``): ``QT_QPA_PLATFORM``, ``DISPLAY``,
        ``WAYLAND_DISPLAY``.
    loader : callable
        ``loader(soname) -> bool`` (tests pass a fake).
    system : str, optional
        ``sys.platform`` (default: this one); only Linux is checked.
    requested : str, optional
        ``--platform`` from the command line (wins over the environment).

    Returns
    -------
    PlatformChoice
    """
    env = os.environ if env is None else env
    system = sys.platform if system is None else system
    wanted = requested or env.get("QT_QPA_PLATFORM") or None
    if not system.startswith("linux"):
        return PlatformChoice(wanted)
    base = wanted.split(":")[0] if wanted else None
    if base in ("offscreen", "minimal", "vnc", "eglfs", "linuxfb"):
        return PlatformChoice(wanted)
    gui_missing = missing_packages(GUI_LIBRARIES, loader)
    if gui_missing:
        return PlatformChoice(None, ok=False, missing=gui_missing, message=(
            "bioplug-gui: Qt's GUI libraries are missing. Install them with:\n  "
            + install_hint(gui_missing)))
    if base == "wayland":
        return _wayland_or_fail(wanted, env, loader, [])
    has_x = bool(env.get("DISPLAY"))
    if not has_x and not env.get("WAYLAND_DISPLAY"):
        return PlatformChoice(None, ok=False, message=(
            "bioplug-gui: no display (neither DISPLAY nor WAYLAND_DISPLAY is set). Run it in "
            "a desktop session, under `xvfb-run bioplug-gui`, or with --platform offscreen."))
    xcb_missing = missing_packages(XCB_LIBRARIES, loader)
    if not xcb_missing and (has_x or base == "xcb"):
        return PlatformChoice(wanted)
    if env.get("WAYLAND_DISPLAY") and base != "xcb":
        return _wayland_or_fail("wayland", env, loader, xcb_missing)
    return PlatformChoice(None, ok=False, missing=xcb_missing, message=(
        "bioplug-gui: Qt's xcb (X11) platform needs libraries that are not installed. "
        "Install them with:\n  " + install_hint(xcb_missing)))


def _wayland_or_fail(wanted: str, env: Mapping[str, str], loader, xcb_missing: list[str]):
    """Wayland when its libraries are there; else a message naming every package."""
    way_missing = missing_packages(WAYLAND_LIBRARIES, loader)
    if not way_missing and env.get("WAYLAND_DISPLAY"):
        note = ""
        if xcb_missing:
            note = ("bioplug-gui: X11 (xcb) libraries are missing, starting on Wayland. For "
                    "X11: " + install_hint(xcb_missing))
        return PlatformChoice(wanted, message=note, missing=xcb_missing)
    packages = sorted(set(way_missing) | set(xcb_missing))
    if not packages:
        return PlatformChoice(None, ok=False, message=(
            "bioplug-gui: no Wayland session (WAYLAND_DISPLAY is not set)."))
    return PlatformChoice(None, ok=False, missing=packages, message=(
        "bioplug-gui: neither Qt's X11 (xcb) nor its Wayland platform can start here. "
        "Install:\n  " + install_hint(packages)))
