"""The demo's start: the first mode as soon as its kernels are compiled, the other modes' kernels
loaded between frames afterwards, a short loading view for a mode not loaded yet, and RTS features
(mesh, flow arrows) that wait for their kernels instead of freezing a frame."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import arcade
import pytest
from demo_drive import make_rts

from demo_game.app import PARTS, load_order
from demo_game.views import FEATURE_PARTS, MODE_PARTS, MODES
from demo_game.views import loading as demo_loading
from navmesh.arcade_loading import LoadingView
from navmesh.warmup import KernelLoader

ROOT = Path(__file__).resolve().parents[2]


def test_every_mode_and_feature_part_is_loaded_by_the_demo() -> None:
    needed = {p for parts in (*MODE_PARTS.values(), *FEATURE_PARTS.values()) for p in parts}
    assert needed == set(PARTS)
    for mode in MODES:
        order = load_order(mode)
        assert sorted(order) == sorted(PARTS) and order[:len(MODE_PARTS[mode])] == MODE_PARTS[mode]


def test_a_mode_not_loaded_yet_gets_a_loading_view_on_the_shared_loader(window: Any, screenshot_dir: Path) -> None:
    loader = KernelLoader(load_order("rts"))
    while not loader.compiled(MODE_PARTS["rts"]):  # what the demo's first loading view waits for
        loader.step()
    assert not loader.loaded(MODE_PARTS["maze"])
    built: list[bool] = []
    view = demo_loading.loading_view(window, loader=loader, parts=MODE_PARTS["maze"], title="navmesh demo  -  maze",
                                     steps=[("demo: building the maze mode", lambda: built.append(True))],
                                     on_done=lambda: None)
    window.show_view(view)
    view.on_draw()
    shot = False
    fractions = []
    while not view.finished:
        view.on_update(1 / 60)
        fractions.append(view.fraction)
        if not shot and 0 < view.fraction < 1:
            view.on_draw()
            arcade.get_image().save(screenshot_dir / "demo_mode_loading.png")
            shot = True
    assert shot and built == [True]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert loader.loaded(MODE_PARTS["maze"]) and not loader.loaded(["mesh"])  # only what the mode needs
    window.show_view(arcade.View(window))  # hiding the view leaves the shared loader going
    assert not loader.closed
    while not loader.finished:
        loader.step()


def test_the_rts_mesh_and_flow_arrows_wait_for_their_kernels(window: Any) -> None:
    ready = {"mesh": False, "flow": False}
    view = make_rts(window, seed=2, ready=lambda feature: ready[feature])
    view.on_key_press(arcade.key.N, 0)
    assert not view.on_mesh and view.waiting == "mesh"
    view.on_key_press(arcade.key.R, 0)
    view.last_goal = view.army.positions[0].copy()
    view.on_draw()
    assert view.flow_field is None  # no flow field made before its kernels are loaded
    assert "(loading: mesh, flow arrows)" in view.status_text.text
    ready.update(mesh=True, flow=True)
    view.on_update(1 / 60)
    assert view.on_mesh and view.waiting is None  # switched on by itself once loaded
    view.on_draw()
    assert view.flow_field is not None and "loading" not in view.status_text.text


def test_the_startup_report_names_the_first_frame_and_the_all_loaded_frame(display: str) -> None:
    if display == "headless":
        pytest.skip("needs an X display for a second window")
    env = dict(os.environ, DISPLAY=display, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "demo_game", "--frames", "1", "--startup-report", "--size", "640", "400"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    marks = dict(line.rsplit(" ", 1) for line in proc.stdout.splitlines()
                 if line.startswith(("loading view", "first frame", "all loaded")))
    assert float(marks["loading view"]) <= float(marks["first frame"]) <= float(marks["all loaded"])
    assert float(marks["loading view cpu"]) <= float(marks["first frame cpu"]) <= float(marks["all loaded cpu"])
