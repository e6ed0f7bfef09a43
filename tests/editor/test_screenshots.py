"""Screenshots of the editor with each overlay, made by unattended runs of the real program
(``--script``, ``--screenshot``) at 1280 x 800, plus the diagnostics they show.

The images go to the session's screenshot folder (not tracked); the copies in ``docs/images`` are
these files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import shapely
from PIL import Image

import navmesh
from editor import edits
from editor.profiles import PROFILES
from editor.views import overlays

REPO = Path(__file__).resolve().parents[2]
OBSTACLE_FILL = (92, 94, 110)  # arcade_draw defaults
PATH_COLOR = (255, 215, 0)
START, GOAL = (60.0, 700.0), (1150.0, 300.0)


def showcase_level() -> navmesh.Level:
    """A level with every kind of thing the editor makes, and problems for the diagnostics."""
    room = [(820.0, 480.0), (1120.0, 480.0), (1120.0, 740.0), (820.0, 740.0)]
    yard_a = [(850.0, 510.0), (960.0, 510.0), (960.0, 710.0), (850.0, 710.0)]
    yard_b = [(990.0, 510.0), (1090.0, 510.0), (1090.0, 710.0), (990.0, 710.0)]
    level = navmesh.Level.rectangle(
        1200, 800,
        obstacles=[
            [(300.0, 200.0), (420.0, 200.0), (420.0, 560.0), (300.0, 560.0)],
            [(560.0, 80.0), (700.0, 120.0), (660.0, 300.0), (540.0, 260.0)],
            {"exterior": room, "holes": [yard_a, yard_b]},
        ],
        terrain=[
            ([(0.0, 600.0), (280.0, 600.0), (280.0, 800.0), (0.0, 800.0)], "swamp"),
            ([(0.0, 0.0), (1200.0, 0.0), (1200.0, 50.0), (0.0, 50.0)], "road"),
            ([(480.0, 380.0), (700.0, 380.0), (700.0, 620.0), (480.0, 620.0)], "water"),
        ],
    )
    level = edits.generate_corners(level, 0.0)
    level = edits.generate_fill(level, 110.0, 0.0)
    n = level.n_waypoints
    level = edits.add_waypoints(level, [(880.0, 560.0), (930.0, 660.0), (1040.0, 600.0), (1160.0, 420.0),
                                        (450.0, 700.0), (740.0, 700.0)])
    level = edits.set_link(level, n + 3, n + 2, "one_way")  # into yard B: a sink
    return edits.set_link(level, n + 4, n + 5, "forced", "wade")  # a gated passage


def run_editor(tmp_path: Path, level_file: Path, actions: list[dict], screenshot: Path) -> Image.Image:
    script = tmp_path / f"{screenshot.stem}.json"
    script.write_text(json.dumps(actions), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "editor", str(level_file), "--script", str(script), "--frames", str(len(actions) + 5),
         "--screenshot", str(screenshot), "--hidden", "--width", "1280", "--height", "800",
         "--state-dir", str(tmp_path / "state")],
        cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)), capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return Image.open(screenshot)


def colour_count(image: Image.Image, rgb: tuple[int, int, int]) -> int:
    return int((np.asarray(image)[..., :3] == rgb).all(axis=-1).sum())


def test_diagnostics_find_the_planted_problems(make_editor) -> None:
    level = showcase_level()
    view = make_editor(level)
    view.press_key("D")
    found = overlays.findings(view)
    d = found.diagnostics
    n = level.n_waypoints
    assert d.n_islands == 2 and set(d.components[[n - 6, n - 5]]) != {d.components[0]}  # yard A alone
    assert d.sinks.tolist() == [n - 4]  # yard B: in by the one-way link, no way out
    assert found.origin == 0 and {n - 6, n - 5} <= set(d.unreachable.tolist())
    water = level.terrain[2].polygon
    g = view.model.nav.graph
    src = np.repeat(np.arange(g.n_nodes), np.diff(g.indptr))
    lines = shapely.linestrings(np.stack([g.points[src], g.points[g.indices]], 1))
    crossing = shapely.intersects(lines, water) & ~shapely.touches(lines, water)
    assert sorted(found.forbidden["tank"].tolist()) == np.flatnonzero(crossing).tolist()


@pytest.mark.usefixtures("display")
def test_screenshots_with_each_overlay(tmp_path: Path, screenshot_dir: Path) -> None:
    level_file = tmp_path / "showcase.json"
    navmesh.save_level(showcase_level(), level_file)

    image = run_editor(tmp_path, level_file, [{"key": "S"}, {"click": [835.0, 600.0]}], screenshot_dir / "editor.png")
    assert colour_count(image, OBSTACLE_FILL) > 10_000

    path_keys = [{"key": "P"}, {"click": list(START)}, {"click": list(GOAL)}, {"key": "TAB"}, {"key": "TAB"},
                 {"key": "A"}]
    export = tmp_path / "export.png"
    shot = screenshot_dir / "editor_testpath.png"
    run_editor(tmp_path, level_file, path_keys + [{"screenshot": str(shot)}, {"key": "E", "mods": ["ctrl"]},
                                                  {"prompt": str(export)}, {"key": "RETURN"}], tmp_path / "end.png")
    assert colour_count(Image.open(shot), PATH_COLOR) > 300
    exported = Image.open(export)
    assert exported.size == (1280, 800)
    assert colour_count(exported, OBSTACLE_FILL) > 10_000 and colour_count(exported, PATH_COLOR) > 300
    exported.save(screenshot_dir / "editor_export.png")
    tank = navmesh.find_path(navmesh.build_waypoint_graph(showcase_level()), START, GOAL, profile=PROFILES[2])
    assert tank.cost > 0

    image = run_editor(tmp_path, level_file, [{"key": "S"}, {"key": "D"}], screenshot_dir / "editor_diagnostics.png")
    assert colour_count(image, (255, 0, 255)) > 50  # arcs over the tank's forbidden water

    image = run_editor(tmp_path, level_file, [{"key": "F1"}], screenshot_dir / "editor_help.png")
    assert colour_count(image, OBSTACLE_FILL) < 100  # the help covers the level
