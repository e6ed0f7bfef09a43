"""Every example runs: the arcade programs for a few frames in a real window (Xvfb), the quick start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ARCADE_EXAMPLES = ["waypoint_following", "terrain_costs", "tilemap_chase", "flowfield_crowd", "search_visualiser"]


def test_every_example_is_tested():
    found = {p.stem for p in EXAMPLES.glob("*.py") if not p.stem.startswith("_")}
    assert found == set(ARCADE_EXAMPLES) | {"quickstart"}


def run_example(name, *args, display=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if display is not None and display != "headless":
        env["DISPLAY"] = display
    return subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py"), *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("name", ARCADE_EXAMPLES)
def test_arcade_example_runs_for_a_few_frames(name, display, screenshot_dir):
    from PIL import Image

    shot = screenshot_dir / f"example_{name}.png"
    shot.unlink(missing_ok=True)
    proc = run_example(name, "--frames", "30", "--screenshot", str(shot), display=display)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    image = Image.open(shot).convert("RGB")
    assert image.size == (800, 600)
    # Something was drawn: a cleared window has one colour; walls, units and paths add many.
    assert len(image.getcolors(maxcolors=1 << 16) or range(1 << 16)) > 5


def test_quickstart_prints_its_tour():
    proc = run_example("quickstart")
    assert proc.returncode == 0, proc.stderr
    assert "infantry" in proc.stdout and "tank" in proc.stdout and "flow-field distances" in proc.stdout


def import_example(name):
    """An example module, imported as the examples import each other (their folder on sys.path)."""
    import importlib

    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))
    return importlib.import_module(name)


def test_terrain_costs_labels_stay_inside_the_window_and_off_the_terrain(window):
    example = import_example("terrain_costs")
    view = example.TerrainView()
    assert (window.width, window.height) == (example.WIDTH, example.HEIGHT)
    lake_right = max(x for x, _ in example.LAKE.polygon.exterior.coords)
    assert len(view.labels) == 2 * len(example.UNIT_TYPES)
    for label in view.labels:
        assert 0 <= label.left and label.right <= example.WIDTH, (label.text, label.left, label.right)
        assert 0 <= label.bottom and label.top <= example.HEIGHT, (label.text, label.bottom, label.top)
        assert label.left >= lake_right, (label.text, label.left)  # on the open floor, not over the lake


def test_search_visualiser_title_is_above_the_maze_not_over_it(window):
    example = import_example("search_visualiser")
    view = example.TraceView()
    grid = view.grid
    maze_top = grid.origin[1] + grid.height * grid.cell_size
    title = view.title
    assert title.bottom >= maze_top, (title.bottom, maze_top)  # the text clears every cell, walls included
    assert 0 <= title.left and title.right <= example.WIDTH and title.top <= example.HEIGHT
    assert grid.origin[0] >= 0 and grid.origin[1] >= 0 and grid.origin[0] + grid.width * grid.cell_size <= example.WIDTH
    goal = view.goal
    view.on_mouse_press(example.WIDTH / 2, example.HEIGHT - 5, 1, 0)  # a click on the title: nothing happens
    assert view.goal == goal
