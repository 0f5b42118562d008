"""Save and open a whole session as one project file (``.bioplug``).

Format (version 1): a zip archive holding

``project.json``
    ``{"format": "bioplug-project", "version": 1, "title": str, "aligned": bool,
    "scheme": str, "zoom": int, "selection": {"rows": [names], "columns": [first, last] or
    null}, "tree_beside": bool, "has_tree": bool, "has_heatmap": bool, "source": str or
    null}``; rows are named, so a selection survives any row order.
``alignment.fasta``
    The rows as shown (gapped for an alignment, ungapped sequences otherwise), in display
    order: edits, sorting and renames are saved.
``tree.nwk`` (when a tree is shown)
    Newick; internal labels are the bootstrap support (``TreeNode.support``) as
    :func:`bioplug.tree.bootstrap` writes them, read back into ``support``.
``heatmap.npz`` (when all-vs-all scores are shown)
    ``names`` and ``scores`` arrays.

The file is written through :func:`bioplug.io.atomic_output` (a temporary file renamed into
place), so a crash or a full disk never leaves half a project, and an opened input file is
never overwritten.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import numpy as np
from Bio import SeqIO
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog

from bioplug.errors import InputError
from bioplug.io import atomic_output

from .documents import AlignmentData, titled_records

FORMAT = "bioplug-project"
VERSION = 1
SUFFIX = ".bioplug"
FILTER = "bioplug project (*.bioplug)"
#: What the save dialog offers (``format -> (label, extension)``, see :mod:`.export`).
SAVE_FORMATS = {"bioplug": ("bioplug project", SUFFIX)}


def project_state(window) -> dict:
    """What ``project.json`` records about a :class:`MainWindow`."""
    view = window.alignment_view
    data = view.data
    cols = view.canvas.sel_columns
    return {
        "format": FORMAT, "version": VERSION, "title": data.title, "aligned": data.aligned,
        "scheme": view.scheme, "zoom": view.canvas.zoom,
        "selection": {"rows": view.highlighted_names(),
                      "columns": list(cols) if cols is not None else None},
        "tree_beside": not window.tree_features.panel.isHidden(),
        "has_tree": window.tree_view.tree is not None,
        "has_heatmap": bool(window.heatmap.names),
        "has_reliability": data.column_reliability is not None,
        "source": str(data.source) if data.source is not None else None,
    }


def save_project(window, path: str | os.PathLike) -> Path:
    """Write the open alignment, tree, heat map, colours and selection to ``path``.

    Raises
    ------
    InputError
        Nothing is open, or ``path`` is a file that was opened as input.
    """
    data = window.alignment_view.data
    if data is None:
        raise InputError("nothing to save: open sequences first")
    state = project_state(window)
    fasta = io.StringIO()
    SeqIO.write(titled_records(data, gapped=True), fasta, "fasta")  # titles too
    with atomic_output(path, window.inputs, mode="wb") as handle, \
            zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("project.json", json.dumps(state, indent=1))
        archive.writestr("alignment.fasta", fasta.getvalue())
        if state["has_tree"]:
            archive.writestr("tree.nwk", window.tree_view.newick())
        if state["has_heatmap"]:
            buf = io.BytesIO()
            np.savez_compressed(buf, names=np.array(window.heatmap.names),
                                scores=window.heatmap.scores)
            archive.writestr("heatmap.npz", buf.getvalue())
        if state["has_reliability"]:   # the columns' reliability (a QuickProbs alignment's)
            buf = io.BytesIO()
            np.save(buf, data.column_reliability)
            archive.writestr("reliability.npy", buf.getvalue())
    return Path(path)


def read_project(path: str | os.PathLike) -> tuple[dict, AlignmentData, object, tuple | None]:
    """State, data, tree (or None) and heat map ``(names, scores)`` (or None) of a project.

    Raises
    ------
    InputError
        Not a zip, not a bioplug project, or a newer format version.
    """
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as archive:
            state = json.loads(archive.read("project.json"))
            if state.get("format") != FORMAT:
                raise InputError(f"{path}: not a bioplug project")
            if int(state.get("version", 0)) > VERSION:
                raise InputError(f"{path}: project version {state['version']} is newer than "
                                 f"this bioplug reads ({VERSION})")
            fasta = archive.read("alignment.fasta").decode()
            newick = archive.read("tree.nwk").decode() if state.get("has_tree") else None
            heat = archive.read("heatmap.npz") if state.get("has_heatmap") else None
            reliability = (archive.read("reliability.npy") if state.get("has_reliability")
                           else None)
    except (zipfile.BadZipFile, KeyError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a readable bioplug project ({exc})") from exc
    records = list(SeqIO.parse(io.StringIO(fasta), "fasta"))
    data = AlignmentData.from_records(records, path, aligned=bool(state["aligned"]))
    data.title = state.get("title") or path.name
    if reliability is not None and data.alignment is not None:
        data.alignment.column_reliability = np.load(io.BytesIO(reliability))
    tree = _read_tree(newick) if newick else None
    heatmap = None
    if heat is not None:
        arrays = np.load(io.BytesIO(heat))
        heatmap = ([str(x) for x in arrays["names"]], arrays["scores"])
    return state, data, tree, heatmap


def _read_tree(newick: str):
    """A tree whose numeric internal labels become ``support`` again."""
    from skbio import TreeNode

    tree = TreeNode.read(io.StringIO(newick))
    for node in tree.non_tips(include_self=True):
        try:
            node.support = float(node.name)
        except (TypeError, ValueError):
            continue
        node.name = None
    return tree


def open_project(window, path: str | os.PathLike) -> None:
    """Replace the window's session with a saved project."""
    state, data, tree, heatmap = read_project(path)
    window.set_data(data)
    if state.get("source"):  # the file the project was made from stays an input: never written
        window.inputs.append(Path(state["source"]).resolve())
    view = window.alignment_view
    view.set_scheme(state.get("scheme") or view.scheme)
    view.canvas.set_zoom(int(state.get("zoom") or view.canvas.zoom))
    if tree is not None:
        window.tree_view.set_tree(tree)
    if heatmap is not None:
        window.heatmap.set_matrix(*heatmap)
    if tree is not None and state.get("tree_beside"):
        window.tree_features.show_beside(True)
    selection = state.get("selection") or {}
    rows = [data.names.index(n) for n in selection.get("rows", []) if n in data.names]
    if selection.get("columns"):
        view.select_block(rows, *selection["columns"])
    else:
        view.highlight_rows(rows)
    window.tabs.setCurrentWidget(view)


def install_project_actions(window) -> None:
    """File ▸ Open project… / Save project… (Ctrl+Shift+O, Ctrl+S) on a :class:`MainWindow`."""
    file_menu = window.menuBar().actions()[0].menu()
    first = file_menu.actions()[2]  # after Open… and Open recent

    def ask_open() -> None:
        path, _ = QFileDialog.getOpenFileName(window, "Open project", "", FILTER)
        if path:
            window.open_file(path)

    window.act_open_project = window._action("Open pro&ject…", ask_open,
                                             QKeySequence("Ctrl+Shift+O"))
    window.act_save_project = window._action("&Save project…",
                                             lambda: window.ask_save_project(),
                                             QKeySequence.StandardKey.Save,
                                             "Alignment, tree, colours and selection in one file")
    file_menu.insertAction(first, window.act_open_project)
    file_menu.insertAction(first, window.act_save_project)
