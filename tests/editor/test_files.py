"""Work is never lost silently: corrupt files, unwritable places, closing, crashes and autosave."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import navmesh
from editor.app import make_model
from editor.model import EditorModel

REPO = Path(__file__).resolve().parents[2]


def test_corrupt_file_is_refused_and_nothing_is_overwritten(make_editor, tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"schema": 1, "bounds": {"exterior": [[0, 0], [10, 0]', encoding="utf-8")
    original = bad.read_bytes()
    view = make_editor(navmesh.Level.rectangle(400, 300, waypoints=[(10.0, 10.0)]))
    before = view.model.level
    view.open_file(str(bad))
    assert view.model.level is before
    assert view.message_error and "not valid JSON" in view.message and "broken.json" in view.message
    # started on the broken file: a message, an untitled document, and Ctrl+S cannot write over it
    model, problem = make_model(str(bad), str(tmp_path / "state"))
    assert problem is not None and "not valid JSON" in problem
    assert model.path is None
    wrong_schema = tmp_path / "v2.json"
    wrong_schema.write_text(json.dumps({"schema": 2, "bounds": {}}), encoding="utf-8")
    view.open_file(str(wrong_schema))
    assert view.model.level is before and "schema" in view.message
    assert bad.read_bytes() == original


def test_saving_to_an_unwritable_place_says_so_and_keeps_the_work(make_editor, tmp_path: Path) -> None:
    view = make_editor()
    view.press_key("W")
    view.click(100.0, 100.0)
    edited = view.model.level
    view.save_as()
    view.prompt.text = str(tmp_path / "no" / "such" / "folder" / "level.json")
    view.press_key("RETURN")
    assert view.message_error and view.message.startswith("NOT saved")
    assert view.model.dirty and view.model.level is edited and view.model.path is None
    folder = tmp_path / "a_folder.json"  # a folder where the file should go: fails even for root
    folder.mkdir()
    view.save_as()
    view.prompt.text = str(folder)
    view.press_key("RETURN")
    assert view.message_error and view.message.startswith("NOT saved")
    assert view.model.dirty and view.model.level is edited and folder.is_dir()


def test_closing_with_unsaved_changes_asks(make_editor, tmp_path: Path) -> None:
    view = make_editor()
    view.request_close()
    assert view.quit_requested  # nothing to lose: closes at once
    view = make_editor()
    view.press_key("W")
    view.click(100.0, 100.0)
    view.request_close()
    assert not view.quit_requested and view.prompt is not None and "unsaved" in view.prompt.title
    view.press_key("ESCAPE")
    assert not view.quit_requested and view.model.dirty
    view.request_close()
    view.press_key("S")  # save first: untitled, so it asks where
    assert view.prompt is not None and view.prompt.text is not None
    view.prompt.text = str(tmp_path / "kept.json")
    view.press_key("RETURN")
    assert view.quit_requested and navmesh.load_level(tmp_path / "kept.json") == view.model.level


def test_autosave_after_an_edit_burst_and_recovery(tmp_path: Path) -> None:
    now = [0.0]
    target = tmp_path / "level.json"
    model = EditorModel(navmesh.Level.rectangle(100, 100), path=target, clock=lambda: now[0])
    model.apply(model.level.replace(waypoints=[(10.0, 10.0)]))
    now[0] = 0.5
    assert not model.tick()  # still inside the burst
    now[0] = 1.6
    assert model.tick() and model.autosave_path.exists()
    assert navmesh.load_level(model.autosave_path) == model.level
    again = EditorModel(path=target)
    assert again.recovery() == model.autosave_path
    again.recover()
    assert again.level == model.level and again.dirty
    again.save()
    assert not model.autosave_path.exists()


@pytest.mark.usefixtures("display")
def test_editor_killed_while_editing_leaves_an_autosave_the_next_start_recovers(make_editor, tmp_path: Path) -> None:
    level_file = tmp_path / "crash.json"
    navmesh.save_level(navmesh.Level.rectangle(400, 300), level_file)
    script = tmp_path / "edits.json"
    clicks = [(50.0, 50.0), (350.0, 250.0), (200.0, 150.0)]
    script.write_text(json.dumps([{"key": "W"}] + [{"click": list(p)} for p in clicks]), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [sys.executable, "-m", "editor", str(level_file), "--script", str(script), "--frames", "100000",
         "--hidden", "--width", "800", "--height", "600", "--state-dir", str(tmp_path / "state")],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    autosave = level_file.with_name(level_file.name + ".autosave")
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if autosave.exists():
                try:
                    if navmesh.load_level(autosave).n_waypoints == len(clicks):
                        break
                except navmesh.LevelFormatError:
                    pass
            time.sleep(0.2)
        assert proc.poll() is None, proc.stdout.read().decode(errors="replace")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert navmesh.load_level(level_file).n_waypoints == 0  # the file itself was never saved
    model, problem = make_model(str(level_file), str(tmp_path / "state"))
    assert problem is None
    view = make_editor(model.level, path=level_file)
    view.offer_recovery()
    assert view.prompt is not None and "Y: recover" in view.prompt.title
    view.press_key("Y")
    got = sorted(map(tuple, view.model.level.waypoints.tolist()))
    np.testing.assert_allclose(got, sorted(clicks), atol=1.0)  # clicks went through screen pixels
    assert view.model.dirty
    view.press_key("S", frozenset({"ctrl"}))
    assert not autosave.exists() and navmesh.load_level(level_file) == view.model.level
