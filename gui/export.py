"""Writing views as PNG or SVG files, atomically (never over an opened input)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRect, QSize
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

from bioplug.errors import InputError
from bioplug.io import atomic_output


def paint_to_bytes(
    suffix: str, size: QSize, paint: Callable[[QPainter], None], title: str = "bioplug"
) -> bytes:
    """Run ``paint`` on a PNG raster or an SVG generator and return the file's bytes.

    Parameters
    ----------
    suffix : str
        ``.png`` or ``.svg``.
    size : QSize
        Picture size in pixels.
    paint : callable
        ``paint(painter)`` draws the picture in ``(0, 0, size)``.
    title : str
        SVG title.
    """
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if suffix == ".svg":
        gen = QSvgGenerator()
        gen.setOutputDevice(buffer)
        gen.setSize(size)
        gen.setViewBox(QRect(0, 0, size.width(), size.height()))
        gen.setTitle(title)
        gen.setDescription("made with bioplug")
        painter = QPainter(gen)
        paint(painter)
        painter.end()
    elif suffix == ".png":
        image = QImage(size, QImage.Format.Format_ARGB32)
        image.fill(0xFFFFFFFF)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        paint(painter)
        painter.end()
        image.save(buffer, "PNG")
    else:
        raise InputError(f"cannot write {suffix or 'suffix-less'} images: use .png or .svg")
    buffer.close()
    return bytes(data.data())


def paint_to_file(
    path: str | os.PathLike,
    size: QSize,
    paint: Callable[[QPainter], None],
    inputs: Iterable[str | os.PathLike] = (),
    title: str = "bioplug",
) -> Path:
    """Write a painted picture to ``path`` (``.png`` or ``.svg``), atomically.

    Returns
    -------
    pathlib.Path
    """
    path = Path(path)
    payload = paint_to_bytes(path.suffix.lower(), size, paint, title)
    with atomic_output(path, inputs, mode="wb") as handle:
        handle.write(payload)
    return path
