"""The desktop application end to end, offscreen, on the PoCL CPU device.

Open a FASTA file, run the jobs (MSA, tree, pairwise, all-vs-all, benchmarks) off the GUI
thread, check progress events, cancel, error dialogs, exports and the selection link between
the tree and the alignment; write a PNG screenshot of every main view.
"""

import json
import os
import subprocess
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")
from Bio import Align  # noqa: E402
from gui_windows import FOUR, cpu_spec, make_window, shown  # noqa: E402
from PySide6.QtCore import QSettings, Qt  # noqa: E402

from bioplug.errors import InputError  # noqa: E402
from bioplug.io import read_records  # noqa: E402

JOB_TIMEOUT_MS = 180_000
FASTA = FOUR
MSA_STAGES = ["I posteriors", "II guide tree", "III consistency", "IV progressive",
              "IV refinement"]


@pytest.fixture
def fasta(tmp_path):
    path = tmp_path / "four.fasta"
    path.write_text(FASTA)
    return path


@pytest.fixture
def window(qtbot, tmp_path):
    return shown(qtbot, make_window(tmp_path))


def run_job(qtbot, window, start, *args, **kwargs):
    """Start a job, record its stage events, wait for the end; returns (status, events)."""
    events = []

    def hook(job):
        job.signals.stage.connect(lambda s, d, t: events.append((s, d, t)))

    window.jobStarted.connect(hook)
    try:
        with qtbot.waitSignal(window.jobFinished, timeout=JOB_TIMEOUT_MS) as blocker:
            assert start(*args, **kwargs) is not None
    finally:
        window.jobStarted.disconnect(hook)
    qtbot.wait(10)  # deliver the last queued stage events
    return blocker.args[1], events


def test_open_fasta_shows_sequences(window, fasta, qtbot):
    with qtbot.waitSignal(window.dataLoaded):
        assert window.open_file(fasta)
    data = window.data
    assert data.names == ["1aab_", "1j46_A", "1k99_A", "2lef_A"]
    assert data.shape == (4, 30) and not data.aligned
    assert window.alignment_view.visible_rows() == data.names
    r0, r1, c0, c1 = window.alignment_view.canvas.visible_cells()
    assert (r0, r1, c0, c1) == (0, 4, 0, 30)
    assert window.recent_files()[0] == str(fasta.resolve())
    assert window.act_msa.isEnabled()
    assert window.act_three.isEnabled()


def test_msa_progress_in_stage_order_and_viewer(window, fasta, qtbot):
    before = fasta.read_bytes()
    window.open_file(fasta)
    status, events = run_job(qtbot, window, window.run_msa)
    assert status == "done", window.last_error
    # stages arrive in pipeline order, each stage contiguous
    order = []
    for stage, _, _ in events:
        if not order or order[-1] != stage:
            assert stage not in order, f"stage {stage} came back: {events}"
            order.append(stage)
    assert [s for s in MSA_STAGES if s in order] == [s for s in order if s in MSA_STAGES]
    assert order[0] == "I posteriors" and order[-1] in MSA_STAGES
    for stage in order:  # the fraction done never goes backwards within a stage
        fractions = [d / t if t else 1.0 for s, d, t in events if s == stage]
        assert fractions == sorted(fractions), (stage, events)
    last = events[-1]
    assert last[1] == last[2]  # the last event is complete
    assert all(p == 100 for _, p in window.progress_view.stages())
    assert "done" in window.progress_view.title.text()
    # the viewer shows the alignment: same rows, in input order, the right columns
    data = window.data
    assert data.aligned and data.names == ["1aab_", "1j46_A", "1k99_A", "2lef_A"]
    length = data.alignment.shape[1]
    assert data.shape == (4, length)
    for i in range(4):
        assert data.row_text(i) == data.alignment[i]
        assert data.row_text(i).replace("-", "") == str(read_records(fasta)[i].seq)
    r0, r1, c0, c1 = window.alignment_view.canvas.visible_cells()
    assert (r0, r1, c0, c1) == (0, 4, 0, length)
    assert fasta.read_bytes() == before  # nothing the user opened is modified
    # the reliability track under the alignment: the pipeline's own column values
    from bioplug import MultipleSequenceAligner

    view = window.alignment_view
    expected = MultipleSequenceAligner(device="cpu", reliability=True).align(
        read_records(fasta)).column_reliability
    assert view.reliability.isVisibleTo(view)
    np.testing.assert_allclose(view.reliability.values, np.nan_to_num(expected), atol=1e-6)
    view.canvas.highlighted = np.array([True, False, False, False])
    view.editor.delete_sequences()   # edited rows: their columns are not the annotated ones
    assert not view.reliability.isVisibleTo(view)


def test_cancel_stops_the_job(window, fasta, qtbot):
    window.open_file(fasta)

    def press_cancel(job):
        assert window.progress_view.cancel_button.isEnabled()
        window.progress_view.cancel_button.click()

    window.jobStarted.connect(press_cancel)
    status, events = run_job(qtbot, window, window.run_msa)
    assert status == "cancelled"
    assert "cancelled" in window.progress_view.title.text()
    assert not window.data.aligned  # the sequences stay as they were
    assert window.job is None and window.act_msa.isEnabled()


def test_cancel_between_launches(window, fasta, qtbot):
    """Cancel after the first engine event: the engine stops at its next report."""
    window.open_file(fasta)

    def cancel_on_first_event(job):
        job.signals.stage.connect(lambda *a: job.cancel(), Qt.ConnectionType.DirectConnection)

    window.jobStarted.connect(cancel_on_first_event)
    status, events = run_job(qtbot, window, window.run_msa)
    assert status == "cancelled"
    assert len(events) == 1 and events[0][0] == "I posteriors"
    assert not window.data.aligned


def test_bad_file_shows_error_dialog(window, tmp_path, fasta, qtbot):
    window.open_file(fasta)
    bad = tmp_path / "notes.fasta"
    bad.write_text("this is not a sequence file\n")
    with pytest.raises(InputError) as cli_error:  # what the command line would print
        read_records(bad)
    with qtbot.waitSignal(window.errorShown) as blocker:
        assert not window.open_file(bad)
    assert blocker.args == [str(cli_error.value)]
    box = window.last_error_box
    assert box is not None and box.isVisible() and box.text() == str(cli_error.value)
    box.close()
    assert window.data.source == fasta  # the open document is unchanged
    assert bad.read_text() == "this is not a sequence file\n"
    with qtbot.waitSignal(window.errorShown) as blocker:
        window.open_file(tmp_path / "missing.fasta")
    assert "no such file" in blocker.args[0]


def test_exports_and_input_protection(window, fasta, tmp_path, qtbot):
    window.open_file(fasta)
    status, _ = run_job(qtbot, window, window.run_msa)
    assert status == "done"
    rows = [window.data.row_text(i) for i in range(4)]
    for name, fmt in [("out.fasta", "fasta"), ("out.aln", "clustal"), ("out.sto", "stockholm")]:
        path = window.export_alignment(tmp_path / name)
        assert path is not None
        back = Align.read(str(path), fmt)
        assert [back[i] for i in range(4)] == rows
        assert [s.id for s in back.sequences] == window.data.names
    before = fasta.read_bytes()
    with qtbot.waitSignal(window.errorShown) as blocker:
        assert window.export_alignment(fasta) is None
    assert "refusing to overwrite an input file" in blocker.args[0]
    assert fasta.read_bytes() == before
    window.last_error_box.close()
    # large alignments are written by a job (off the GUI thread): same file
    status, events = run_job(
        qtbot, window, lambda: window.export_alignment(tmp_path / "bg.aln", background=True)
        or window.job)
    assert status == "done" and events[-1][0] == "write bg.aln"
    assert events[-1][1] == events[-1][2]  # complete
    assert (tmp_path / "bg.aln").read_text() == (tmp_path / "out.aln").read_text()
    window.tabs.setCurrentWidget(window.alignment_view)
    assert window.export_view_image(tmp_path / "aln.svg").read_text().count("<svg") == 1


def test_tree_selection_highlights_alignment_rows(window, fasta, tmp_path, qtbot):
    window.open_file(fasta)
    assert run_job(qtbot, window, window.run_msa)[0] == "done"
    status, events = run_job(qtbot, window, window.run_tree, "nj")
    assert status == "done", window.last_error
    tree = window.tree_view.tree
    assert sorted(t.name for t in tree.tips()) == sorted(window.data.names)
    window.tree_view.select_leaves(["1k99_A", "1aab_"])
    assert window.alignment_view.highlighted_names() == ["1aab_", "1k99_A"]
    label = window.tree_view.labels["2lef_A"]
    label.setSelected(True)  # as a click does
    assert "2lef_A" in window.alignment_view.highlighted_names()
    window.alignment_view.find("1j46")  # and back: rows picked in the alignment
    assert window.tree_view.selected_leaves() == ["1j46_A"]
    scale = window.tree_view.transform().m11()
    window.tree_view.zoom(2.0)
    assert window.tree_view.transform().m11() == pytest.approx(2 * scale)
    newick = window.export_newick(tmp_path / "tree.nwk")
    from skbio import TreeNode

    back = TreeNode.read(str(newick))
    assert sorted(t.name for t in back.tips()) == sorted(window.data.names)
    window.tabs.setCurrentWidget(window.tree_view)
    assert window.export_view_image(tmp_path / "tree.png").stat().st_size > 1000
    status, _ = run_job(qtbot, window, window.run_tree, "upgma", "ktuple")
    assert status == "done", window.last_error
    assert window.tree_view.tree.count(tips=True) == 4


def test_job_option_dialogs(window, fasta, qtbot):
    from bioplug.gui.main_window import MsaDialog, TreeDialog

    dialog = MsaDialog(window)
    qtbot.addWidget(dialog)
    dialog.refinement.setValue(0)
    dialog.seed.setValue(7)
    options = dialog.options()
    assert options == {"seed": 7, "consistency": 2, "refinement": 0, "accurate": False}
    window.open_file(fasta)
    status, events = run_job(qtbot, window, window.run_msa, **options)
    assert status == "done" and "IV refinement" not in {s for s, _, _ in events}
    tree = TreeDialog(aligned=False, parent=window)
    qtbot.addWidget(tree)
    assert "msa" not in [tree.distance.itemData(i) for i in range(tree.distance.count())]


def test_msa_dialog_progressive_method(window, fasta, qtbot):
    """The MSA job offers the progressive method; its stages reach the progress view and
    the result (every input residue, in order) replaces the open sequences."""
    from bioplug.gui.main_window import MsaDialog

    dialog = MsaDialog(window)
    qtbot.addWidget(dialog)
    dialog.method.setCurrentIndex(dialog.method.findData("progressive"))
    assert not dialog.refinement.isEnabled()
    options = dialog.options()
    assert options == {"method": "progressive"}
    window.open_file(fasta)
    before = [str(r.seq) for r in window.data.records]
    status, events = run_job(qtbot, window, window.run_msa, **options)
    assert status == "done", window.last_error
    assert {"guide tree", "progressive"} <= {s for s, _, _ in events}
    assert window.data.aligned
    rows = [str(r.seq).replace("-", "") for r in window.data.records]
    assert rows == before


def test_pairwise_and_heat_map(window, fasta, qtbot):
    window.open_file(fasta)
    status, _ = run_job(qtbot, window, window.run_pairwise, 0, 2, "local", "BLOSUM62")
    assert status == "done", window.last_error
    text = window.pair_text.toPlainText()
    assert "# 1: 1aab_\n# 2: 1k99_A\n" in text and "# Score: " in text  # water's header
    assert "# Identity: " in text and "# Similarity: " in text and "# Gaps: " in text
    status, _ = run_job(qtbot, window, window.run_all_vs_all)
    assert status == "done", window.last_error
    scores = window.heatmap.scores
    assert scores.shape == (4, 4) and (scores == scores.T).all()
    assert all(scores[i, i] >= scores[i].max() for i in range(4))
    assert window.heatmap.image.image.shape == (4, 4)
    shown = window.heatmap.shown_values()  # normalised by default: 1 on the diagonal
    assert np.allclose(np.diag(shown), 1.0) and shown.max() <= 1.0 + 1e-9
    window.heatmap.normalise.setChecked(False)
    assert (window.heatmap.image.image == scores.astype(np.float32)).all()


def test_menu_and_toolbar_jobs_run_with_their_defaults(window, fasta, qtbot, monkeypatch):
    """Jobs ▸ All-vs-all scores and Multiple alignment (menu, toolbar, Ctrl+M) run as their
    methods do without arguments: the action's ``checked`` flag is no mode and no seed."""
    from bioplug.gui import jobs

    window.open_file(fasta)
    status, _ = run_job(qtbot, window, lambda: window.act_all.trigger() or window.job)
    assert status == "done", window.last_error
    assert window.heatmap.scores.shape == (4, 4)
    seen = {}
    real = jobs.msa_task

    def spy(records, device, seed=0, **options):
        seen.update(seed=seed, **options)
        return real(records, device, seed, **options)

    monkeypatch.setattr(jobs, "msa_task", spy)
    status, _ = run_job(qtbot, window, lambda: window.act_msa.trigger() or window.job)
    assert status == "done", window.last_error
    assert seen == {"seed": 0} and type(seen["seed"]) is int  # not False


def test_benchmark_page_figure_and_history(window, tmp_path, qtbot):
    from bioplug.gui.benchmark_page import BenchSizes

    spec = cpu_spec()
    page = window.benchmark_page
    listed = [page.device_list.item(i).data(Qt.ItemDataRole.UserRole)[0]
              for i in range(page.device_list.count())]
    assert listed == [d.spec for d in window.devices_panel.devices]  # every device offered
    assert len(page.checked_devices()) == 1  # the panel's choice ticked at start
    status, events = run_job(qtbot, window, window.run_benchmarks, [(spec, "cpu")],
                             ["pairwise", "nj", "msa"], BenchSizes.small())
    assert status == "done", window.last_error
    values = page.figure_values()
    assert set(values) == {"pairwise", "nj", "msa"}
    assert all(v > 0 for rows in values.values() for _, v in rows)
    assert set(page.bars) == {"pairwise", "nj", "msa"}
    history = json.loads(page.history_path.read_text())
    assert len(history) == 3 and history[0]["device"] == spec
    csv_path = page.export_csv(tmp_path / "bench.csv")
    assert csv_path.read_text().splitlines()[0].startswith("when,device")
    window.tabs.setCurrentWidget(page)
    assert window.export_view_image(tmp_path / "bench.png").stat().st_size > 1000


def test_device_choice_remembered(window, tmp_path, qtbot):
    from bioplug.gui import MainWindow

    spec = cpu_spec()
    window.devices_panel.select_spec(spec)
    assert window.settings.value("device/spec") == spec
    again = MainWindow(settings=window.settings, data_dir=tmp_path / "data")
    qtbot.addWidget(again)
    assert again.device == spec
    table = again.devices_panel.table
    assert table.rowCount() == len(again.devices_panel.devices) >= 1
    assert table.horizontalHeaderItem(3).text() == "Compute units"


def test_screenshots_of_each_view(window, fasta, tmp_path, qtbot):
    from bioplug.gui.benchmark_page import BenchSizes

    window.open_file(fasta)
    assert run_job(qtbot, window, window.run_msa)[0] == "done"
    shots = {"alignment": window.alignment_view}
    assert run_job(qtbot, window, window.run_tree, "nj")[0] == "done"
    shots["tree"] = window.tree_view
    assert run_job(qtbot, window, window.run_all_vs_all)[0] == "done"
    shots["heatmap"] = window.heatmap
    assert run_job(qtbot, window, window.run_benchmarks, [(cpu_spec(), "cpu")], ["nj"],
                   BenchSizes.small())[0] == "done"
    shots["benchmarks"] = window.benchmark_page
    for name, widget in shots.items():
        window.tabs.setCurrentWidget(widget)
        qtbot.wait(20)
        image = window.grab().toImage()
        path = tmp_path / f"{name}.png"
        assert image.save(str(path))
        assert path.stat().st_size > 5000
        # not blank: some pixel differs from the top-left one
        corner = image.pixel(0, 0)
        assert any(image.pixel(x, y) != corner for x in range(0, image.width(), 37)
                   for y in range(0, image.height(), 23))


def test_import_without_pyside6_gives_clear_error():
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('PySide6', 'pyqtgraph'):\n"
        "            raise ImportError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import bioplug.gui\n"
        "try:\n"
        "    bioplug.gui.MainWindow\n"
        "except ImportError as exc:\n"
        "    print('ERR', exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "ERR" in out.stdout and "pip install 'bioplug[gui]'" in out.stdout


def test_module_entry_point_help():
    out = subprocess.run([sys.executable, "-m", "bioplug.gui", "--help"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0 and "bioplug-gui" in out.stdout


def test_void_calls_do_not_exhaust_none_refcount():
    """PySide6 6.12 on Python 3.11 drops a reference to None per void call (see _compat)."""
    code = (
        "import bioplug.gui\n"
        "from PySide6.QtCore import QRect\n"
        "r = QRect()\n"
        "for _ in range(300_000):\n"
        "    r.setWidth(1)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr[-500:]


def test_failed_job_shows_the_cli_message(window, tmp_path, qtbot):
    bad = tmp_path / "digits.fasta"
    bad.write_text(">a\nMKV123LLKV\n>b\nMKVLLKVAA\n>c\nMKVLLKV\n")
    assert window.open_file(bad)
    errors = []
    window.errorShown.connect(errors.append)
    status, _ = run_job(qtbot, window, window.run_msa)
    assert status == "failed"
    from bioplug import MultipleSequenceAligner

    with pytest.raises(InputError) as cli_error:  # the message `bioplug msa` prints
        MultipleSequenceAligner(device=cpu_spec()).align(read_records(bad))
    assert errors == [str(cli_error.value)]
    assert window.last_error_box.text() == str(cli_error.value)
    window.last_error_box.close()
    assert "failed" in window.progress_view.title.text()


def test_drop_opens_file_and_unknown_extension_is_sniffed(window, tmp_path, qtbot):
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDropEvent

    path = tmp_path / "family.seqs"  # no known extension: format read from the first line
    path.write_text(FASTA)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.dataLoaded):
        window.dropEvent(event)
    assert window.data.source == path and window.data.shape == (4, 30)
    assert window.recent_files()[0] == str(path.resolve())
    window.close()  # geometry saved for next time
    assert window.settings.value("window/geometry") is not None


def test_no_opencl_platform_is_explained(qtbot, tmp_path, monkeypatch):
    from bioplug.gui import devices_panel

    from bioplug.errors import NoOpenCLError
    from bioplug.runtime.devices import NO_PLATFORM_HELP

    def none():
        raise NoOpenCLError(NO_PLATFORM_HELP)

    monkeypatch.setattr(devices_panel, "list_devices", none)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    panel = devices_panel.DevicesPanel(settings)
    qtbot.addWidget(panel)
    assert panel.devices == [] and panel.current_spec() is None
    assert panel.message.text() == NO_PLATFORM_HELP


def test_entry_point_without_pyqtgraph_explains():
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'pyqtgraph':\n"
        "            raise ImportError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from bioplug.gui.app import main\n"
        "sys.exit(main([]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 2
    assert "bioplug-gui: error:" in out.stderr and "pip install 'bioplug[gui]'" in out.stderr


def test_stage_elapsed_counts_from_job_start_and_previous_stage(qtbot, monkeypatch):
    """The first stage's time includes what came before its first event (building its
    kernels); the next one's runs from the end of the one before."""
    import types

    from bioplug.gui import progress_view

    now = [0.0]
    monkeypatch.setattr(progress_view, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    view = progress_view.ProgressView()
    qtbot.addWidget(view)
    view.start("Tree (NJ)")
    for t, event in [(0.9, ("p-distances", 0, 6)), (1.0, ("p-distances", 6, 6)),
                     (1.25, ("tree", 0, 4)), (1.3, ("tree", 4, 4))]:
        now[0] = t
        view.on_stage(*event)
    now[0] = 1.3
    view.finish("done")
    elapsed = [view.table.item(row, 2).text() for row in range(view.table.rowCount())]
    assert elapsed == ["1.0 s", "0.3 s"]


def test_ctrl_equals_zooms_in_as_ctrl_plus_does(window, fasta, qtbot):
    """Ctrl+= zooms in too ("+" needs Shift on most keyboards; the guide named Ctrl+=)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QKeySequence

    assert QKeySequence("Ctrl+=") in window.act_zoom_in.shortcuts()
    with qtbot.waitSignal(window.dataLoaded):
        assert window.open_file(fasta)
    canvas = window.alignment_view.canvas
    before = canvas._zoom
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert canvas._zoom > before


def test_msa_dialog_turns_nucleotides_that_face_the_other_way(window, tmp_path, qtbot):
    """The MSA dialog offers mafft's --adjustdirection for DNA / RNA only; the job names the
    turned rows _R_<id> and keeps every sequence's letters as turned."""
    from Bio.Seq import Seq
    from Bio.SeqRecord import SeqRecord
    from bioplug.gui import jobs
    from bioplug.gui.main_window import MsaDialog

    from bioplug.msa.direction import complement

    assert not MsaDialog(window).adjust_direction.isEnabled()   # proteins: nothing to turn
    rng = np.random.default_rng(3)
    root = "".join(rng.choice(list("ACGT"), 150))
    texts = ["".join(c if rng.random() > 0.06 else "ACGT"[rng.integers(4)] for c in root)
             for _ in range(5)]
    path = tmp_path / "dna.fa"
    path.write_text("".join(f">s{i}\n{complement(t) if i == 2 else t}\n"
                            for i, t in enumerate(texts)))
    with qtbot.waitSignal(window.dataLoaded):
        assert window.open_file(path)
    dialog = MsaDialog(window, None, True)
    qtbot.addWidget(dialog)
    dialog.adjust_direction.setChecked(True)
    options = dialog.options()
    assert options["adjust_direction"] is True
    status, _ = run_job(qtbot, window, window.run_msa, **options)
    assert status == "done", window.last_error
    assert window.data.names == ["s0", "s1", "_R_s2", "s3", "s4"]
    assert [str(r.seq).replace("-", "") for r in window.data.records] == texts
    dialog.method.setCurrentIndex(dialog.method.findData("progressive"))
    assert dialog.options() == {"method": "progressive", "adjust_direction": True}
    records = [SeqRecord(Seq(complement(t) if i == 2 else t), id=f"s{i}")
               for i, t in enumerate(texts)]
    aligned = jobs.msa_task(records, "cpu", **dialog.options())(lambda *a: True)
    assert [s.id for s in aligned.sequences] == ["s0", "s1", "_R_s2", "s3", "s4"]
