"""The ``navmesh`` command, run as a subprocess: outputs, exit codes, pictures and conversions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import navmesh
from navmesh.cli.render import COLORS, TERRAIN_COLORS

ROOT = Path(__file__).resolve().parents[2]
LEVELS = ROOT / "tests" / "scenarios" / "levels"
MOVINGAI = ROOT / "tests" / "data" / "movingai"
TILED = ROOT / "tests" / "data" / "tiled"
COMPILE_NOTICE = "navmesh: compiling the search kernels once"


def run(*args, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "navmesh.cli", *map(str, args)], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600)
    return proc


def stderr_lines(proc):
    """stderr's lines without the one-time compile notice, which comes first on a cold numba cache
    (tests/cli/test_cli_compile_notice.py checks it)."""
    return [ln for ln in proc.stderr.strip().splitlines() if not ln.startswith(COMPILE_NOTICE)]


def one_line_error(proc, code):
    """The failure promise: the given exit code, exactly one line on stderr, no traceback."""
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = stderr_lines(proc)
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr and lines[0].startswith("navmesh")
    return lines[0]


# -- help ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["", "check", "build", "path", "render", "convert", "bench"])
def test_help_on_every_subcommand(command):
    proc = run(*([command] if command else []), "--help")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("usage: navmesh")
    if not command:
        for name in ("check", "build", "path", "render", "convert", "bench"):
            assert name in proc.stdout


# -- check and build ------------------------------------------------------------------------------
def test_check_ok_level():
    proc = run("check", LEVELS / "swamp_detour.json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "level: 2 waypoints, 0 obstacles, 1 terrain regions, 0 links, bounds (0, 0, 100, 100)",
        "graph: 2 nodes (0 generated), 2 arcs, agent radius 0",
        "ok",
    ]


def test_check_reports_islands_and_fails():
    proc = run("check", LEVELS / "two_islands.json")
    assert proc.returncode == 1
    assert "error: 2 islands (sizes 3, 2)" in proc.stdout.splitlines()
    assert proc.stdout.splitlines()[-1] == "1 problem(s)"


def test_check_reports_blocked_waypoints(tmp_path):
    level = navmesh.Level.rectangle(100, 100, obstacles=[[(40, 40), (60, 40), (60, 60), (40, 60)]],
                                    waypoints=[[10, 10], [90, 10], [35, 50]])
    navmesh.save_level(level, tmp_path / "tight.json")
    proc = run("check", tmp_path / "tight.json", "--agent-radius", "8")
    assert proc.returncode == 1
    assert any(line.startswith("error: 1 blocked: waypoints inside an obstacle for this agent radius: 2")
               for line in proc.stdout.splitlines()), proc.stdout


def test_build_reports_graph_and_stages():
    proc = run("build", LEVELS / "goal_behind_wall.json", "--corners")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[1].startswith("graph: ")
    assert proc.stderr.startswith("building: ") and "built in " in proc.stderr
    assert run("build", LEVELS / "goal_behind_wall.json", "-q").stderr == ""


# -- path ---------------------------------------------------------------------------------------
def test_path_matches_the_scenario_answer():
    expected = json.loads((LEVELS / "swamp_detour.expected.json").read_text())["queries"][0]
    assert expected["profile"]["multipliers"] == {"swamp": 3.0}
    proc = run("path", LEVELS / "swamp_detour.json", *expected["start"], *expected["goal"],
               "--profile", "swamp=3", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["cost"] == pytest.approx(expected["cost"])
    assert out["points"][0] == expected["start"] and out["points"][-1] == expected["goal"]


def test_path_text_output():
    proc = run("path", LEVELS / "swamp_detour.json", 10, 50, 90, 50)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0
    assert lines[0] == "cost 80, length 80, 2 points, 0 expansions" or lines[0].startswith("cost 80, length 80, 2 points")
    assert lines[1:] == ["10 50", "90 50"]


def test_no_path_is_one_line_and_exit_1():
    line = one_line_error(run("path", LEVELS / "two_islands.json", 10, 25, 90, 25, "--algorithm", "astar"), 1)
    assert line.startswith("navmesh: no path: ")


def test_profile_forbid_and_bad_spec():
    proc = run("path", LEVELS / "swamp_detour.json", 10, 50, 90, 50, "--profile", "swamp=forbid", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["cost"] > 80
    line = one_line_error(run("path", LEVELS / "swamp_detour.json", 10, 50, 90, 50, "--profile", "swamp"), 2)
    assert "TAG=MULTIPLIER" in line


@pytest.mark.parametrize("value", ["-1", "nan", "0", "-inf", "1e31"])
def test_profile_multiplier_out_of_range_is_a_usage_error(value):
    line = one_line_error(run("path", LEVELS / "swamp_detour.json", 10, 50, 90, 50, "--profile", f"swamp={value}"), 2)
    assert f"--profile item 'swamp={value}': a multiplier must be a number > 0 and <= 1e+30" in line


@pytest.mark.parametrize("spec", ["watr=forbid", "swamp=2,watr=3", "Swamp=2"])
def test_profile_tag_the_level_lacks_is_a_usage_error_listing_its_tags(spec, tmp_path):
    line = one_line_error(run("path", LEVELS / "swamp_detour.json", 10, 50, 90, 50, "--profile", spec), 2)
    assert "does not occur in" in line and line.endswith("its tags: swamp")
    render = run("render", LEVELS / "swamp_detour.json", "-o", tmp_path / "x.png", "--path", 10, 50, 90, 50,
                 "--profile", spec)
    assert "its tags: swamp" in one_line_error(render, 2)
    assert not (tmp_path / "x.png").exists()


def test_profile_largest_multiplier_is_usable():
    """1e30 is the documented limit of a multiplier: the search must accept it (and go around)."""
    proc = run("path", LEVELS / "swamp_detour.json", 10, 50, 90, 50, "--profile", "swamp=1e30", "--json")
    assert proc.returncode == 0, proc.stderr
    avoid = run("path", LEVELS / "swamp_detour.json", 10, 50, 90, 50, "--profile", "swamp=forbid", "--json")
    assert json.loads(proc.stdout)["cost"] == pytest.approx(json.loads(avoid.stdout)["cost"])


def test_path_help_names_the_coordinates_once():
    proc = run("path", "--help")
    assert proc.returncode == 0
    assert proc.stdout.count("X1 Y1 X2 Y2") == 2  # the usage line and the argument's help line
    assert "LEVEL X1 Y1 X2 Y2\n" in proc.stdout


def test_grid_path_on_a_moving_ai_map():
    # First row of the scenario file: start (15, 2), goal (1, 27), published optimal length 64.3137085.
    proc = run("path", MOVINGAI / "maze-32-32-2.map", 15.5, 32 - 2.5, 1.5, 32 - 27.5, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["cost"] == pytest.approx(64.31370850)
    jps = run("path", MOVINGAI / "maze-32-32-2.map", 15.5, 29.5, 1.5, 4.5, "--json", "--algorithm", "jps")
    assert json.loads(jps.stdout)["cost"] == pytest.approx(64.31370850)


def test_path_endpoints_in_a_wall_move_and_say_how_far():
    # swamp_detour is 100 x 100; with --agent-radius 2 the eroded bounds start at x = 2
    proc = run("path", LEVELS / "swamp_detour.json", "--agent-radius", "2", "--", 0.5, 50, 90, 50)
    assert proc.returncode == 0, proc.stderr
    assert stderr_lines(proc) == [
        "navmesh: note: the start (0.5, 50) is not walkable; moved 1.5 world units to (2, 50), the nearest walkable "
        "point (--strict: fail instead)"]
    assert "(start moved 1.5)" in proc.stdout.splitlines()[0]
    out = json.loads(run("path", LEVELS / "swamp_detour.json", "--agent-radius", "2", "--json", "--",
                         0.5, 50, 90, 50).stdout)
    assert out["start_moved"] and out["start_moved_by"] == pytest.approx(1.5) and out["goal_moved_by"] == 0.0
    line = one_line_error(run("path", LEVELS / "swamp_detour.json", "--agent-radius", "2", "--strict", "--",
                              0.5, 50, 90, 50), 1)
    assert "start=[0.5, 50.0] is not walkable" in line and "1.5 world units from the nearest walkable point" in line


def test_path_endpoints_far_outside_the_bounds_fail():
    # main 2c8c9c7 moved this start 50,000 units silently and exited 0
    line = one_line_error(run("path", LEVELS / "swamp_detour.json", "--", -50000, 50, 90, 50), 1)
    assert "start=[-50000.0, 50.0] lies 50000 world units outside the level's bounds" in line
    line = one_line_error(run("path", MOVINGAI / "maze-32-32-2.map", "--", -50000, 16, 1.5, 4.5), 1)
    assert "start=[-50000.0, 16.0] lies 50000 world units outside the grid" in line


def test_grid_path_endpoint_in_a_wall_moves_like_on_a_level():
    # (0.5, 0.5) is the maze's border wall; main 2c8c9c7 failed with "is a blocked cell"
    proc = run("path", MOVINGAI / "maze-32-32-2.map", 0.5, 0.5, 1.5, 4.5, "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["start_moved"] and out["start_moved_by"] == pytest.approx(1.0)
    text = run("path", MOVINGAI / "maze-32-32-2.map", 0.5, 0.5, 1.5, 4.5)
    assert "the start (0.5, 0.5) is not walkable; moved 1 world units" in text.stderr
    line = one_line_error(run("path", MOVINGAI / "maze-32-32-2.map", "--strict", "--", 0.5, 0.5, 1.5, 4.5), 1)
    assert "a blocked cell" in line


# -- bad files and bad arguments -----------------------------------------------------------------
def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("name, text, needle", [
    ("missing.json", None, "no such file"),
    ("garbage.json", "{not json", "garbage.json"),
    ("empty.json", "", "empty.json"),
    ("empty.tmj", "", "the file is empty"),
    ("bad.map", "type octile\nheight x\nwidth 4\nmap\n....\n", "bad.map"),
    ("short.map", "type octile\nheight 3\nwidth 4\nmap\n....\n", "short.map"),
])
def test_bad_files_give_one_line(tmp_path, name, text, needle):
    path = tmp_path / name if text is None else write(tmp_path, name, text)
    for command in (["check"], ["build"], ["render", "-o", tmp_path / "x.png"]):
        line = one_line_error(run(*command, path), 1)
        assert needle in line


def test_a_directory_is_not_a_level(tmp_path):
    for command in (["check"], ["path"], ["convert"]):
        extra = {"path": [1, 2, 3, 4], "convert": ["-o", tmp_path / "x.json"]}.get(command[0], [])
        line = one_line_error(run(*command, tmp_path, *extra), 1)
        assert line == f"navmesh: error: {tmp_path}: is a directory; expected a level file (JSON, Tiled map or Moving AI .map)"


@pytest.mark.parametrize("name", ["notes.txt", "level.yaml", "noextension"])
def test_convert_of_an_unknown_format_says_so(tmp_path, name):
    line = one_line_error(run("convert", write(tmp_path, name, "hello\n"), "-o", tmp_path / "out.json"), 2)
    assert "the format is not recognised" in line and "is already a navmesh level" not in line
    assert not (tmp_path / "out.json").exists()


def test_bad_tiled_coordinate_names_the_field(tmp_path):
    data = json.loads((TILED / "level_sample.tmj").read_text())
    layer = next(la for la in data["layers"] if la["name"] == "obstacles")
    layer["objects"][0]["x"] = "abc"
    path = write(tmp_path, "bad.tmj", json.dumps(data))
    line = one_line_error(run("check", path), 1)
    assert "bad.tmj: layer 'obstacles' object id=" in line and "field x = 'abc'" in line


@pytest.mark.parametrize("args, needle", [
    (["frobnicate"], "invalid choice"),
    ([], "required"),
    (["path", "LEVEL", "1", "2", "3"], "X1 Y1 X2 Y2"),
    (["path", "LEVEL", "1", "2", "3", "four"], "'four' is not a number"),
    (["path", "LEVEL", "1", "2", "3", "nan"], "not a finite number"),
    (["check", "LEVEL", "--k", "0"], "must be >= 1"),
    (["check", "LEVEL", "--agent-radius", "-1"], "must be >= 0"),
    (["render", "LEVEL"], "-o/--output"),
    (["render", "LEVEL", "-o", "x.png", "--overlay", "graph,sparkles"], "--overlay sparkles is not known"),
    (["path", "LEVEL", "1", "2", "3", "4", "--algorithm", "jps"], "does not apply to a waypoint level"),
    (["bench", "nosuch"], "unknown benchmark 'nosuch'"),
    (["convert", "LEVEL", "-o", "out.json"], "is already a navmesh level"),
    (["render", "LEVEL", "-o", "x.png", "--size", "1000000000"], "'1000000000' is too large; the picture's longer "
                                                                 "side is at most 8192 px"),
    (["render", "LEVEL", "-o", "x.png", "--size", "100000"], "at most 8192 px"),
    (["render", "LEVEL", "-o", "x.png", "--size", "8193"], "at most 8192 px"),
])
def test_bad_arguments_give_one_line_and_exit_2(args, needle):
    args = [str(LEVELS / "swamp_detour.json") if a == "LEVEL" else a for a in args]
    line = one_line_error(run(*args), 2)
    assert needle in line


# -- render -------------------------------------------------------------------------------------
def test_render_has_the_expected_colours_at_known_places(tmp_path):
    from PIL import Image

    wall = [(40, 0), (60, 0), (60, 60), (40, 60)]
    swamp = navmesh.TerrainRegion([(0, 60), (30, 60), (30, 100), (0, 100)], "swamp")
    level = navmesh.Level.rectangle(100, 100, obstacles=[wall], terrain=[swamp])
    navmesh.save_level(level, tmp_path / "room.json")
    size = 220
    proc = run("render", tmp_path / "room.json", "-o", tmp_path / "room.png", "--size", size, "--corners",
               "--agent-radius", "2", "--path", 10, 10, 90, 10, "--overlay", "terrain,graph")
    assert proc.returncode == 0, proc.stderr
    image = Image.open(tmp_path / "room.png").convert("RGB")
    margin, scale = 8, (size - 16) / 100
    assert image.size == (size, size)

    def at(x, y):
        return image.getpixel((round(margin + x * scale), round(size - margin - y * scale)))

    assert at(50, 30) == COLORS["obstacle"]
    assert at(15, 85) == TERRAIN_COLORS["swamp"]
    assert at(80, 85) == COLORS["floor"]
    assert image.getpixel((2, 2)) == COLORS["outside"]
    assert at(50, 62) == COLORS["path"]  # the path crosses over the wall's top, 2 units clear of it
    assert at(10, 10) == COLORS["start"] and at(90, 10) == COLORS["goal"]
    assert at(38, 62) in (COLORS["node"], COLORS["path"])  # a corner waypoint of the inflated wall


def test_render_without_terrain_overlay(tmp_path):
    from PIL import Image

    swamp = navmesh.TerrainRegion([(0, 0), (50, 0), (50, 50), (0, 50)], "swamp")
    navmesh.save_level(navmesh.Level.rectangle(100, 50, terrain=[swamp]), tmp_path / "flat.json")
    proc = run("render", tmp_path / "flat.json", "-o", tmp_path / "flat.png", "--overlay", "", "--size", 116)
    assert proc.returncode == 0, proc.stderr
    image = Image.open(tmp_path / "flat.png").convert("RGB")
    assert image.size == (116, 66)  # 100 x 50 world units at 1 px each, plus an 8 px margin
    assert image.getpixel((30, 30)) == COLORS["floor"]


@pytest.mark.parametrize("size", [8192, 1000, 33])
def test_render_size_is_the_pictures_longer_side(tmp_path, size):
    from PIL import Image

    proc = run("render", LEVELS / "swamp_detour.json", "-o", tmp_path / "s.png", "--size", size)  # 100 x 100 units
    assert proc.returncode == 0, proc.stderr
    assert Image.open(tmp_path / "s.png").size == (size, size)


def test_render_to_a_missing_folder(tmp_path):
    line = one_line_error(run("render", LEVELS / "swamp_detour.json", "-o", tmp_path / "no" / "x.png"), 1)
    assert "x.png" in line


# -- convert ------------------------------------------------------------------------------------
def scenario_rows(name, count):
    rows = []
    for line in (MOVINGAI / name).read_text().splitlines()[1:]:
        parts = line.split("\t")
        rows.append((int(parts[4]), int(parts[5]), int(parts[6]), int(parts[7]), float(parts[8])))
    return rows[:count]


def test_convert_moving_ai_round_trip_paths_equal_the_grids(tmp_path):
    out = tmp_path / "maze.json"
    proc = run("convert", MOVINGAI / "maze-32-32-2.map", "-o", out, "--cell-size", 2)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"wrote {out}: ")
    level = navmesh.load_level(out)
    grid = navmesh.GridMap.from_movingai(MOVINGAI / "maze-32-32-2.map", cell_size=2)
    assert level.n_waypoints == int((~grid.blocked).sum())
    # Links only to the 8 neighbouring cells (max_distance), and a tiny radius closes diagonals that
    # touch a wall corner (the grid's no-corner-cutting rule): then the graph is the grid's.
    # Searched between the waypoints themselves: a position query would also join far waypoints
    # in sight, which the grid cannot do.
    nav = navmesh.build_waypoint_graph(level, k=8, max_distance=3.0, agent_radius=0.01)
    query = navmesh.NavQuery(nav)
    rows = scenario_rows("maze-32-32-2-random-1.scen", 40)
    for sx, sy, gx, gy, optimal in rows:
        start, goal = grid.cell_center(grid.cell_id(sx, sy)), grid.cell_center(grid.cell_id(gx, gy))
        path = navmesh.astar(nav.graph, query.snap(start), query.snap(goal))
        grid_path = navmesh.grid_astar(grid, grid.cell_id(sx, sy), grid.cell_id(gx, gy))
        assert path.cost == pytest.approx(grid_path.cost) == pytest.approx(2 * optimal)
    sx, sy, gx, gy, optimal = rows[0]
    proc = run("path", out, 2 * sx + 1, 64 - 2 * sy - 1, 2 * gx + 1, 64 - 2 * gy - 1, "--algorithm", "astar",
               "--agent-radius", 0.01, "--max-distance", 3, "--json")
    start, goal = (2 * sx + 1, 64 - 2 * sy - 1), (2 * gx + 1, 64 - 2 * gy - 1)
    expected = query.find_path(start, goal, refine="none").cost  # joins may reach past the 8 neighbours
    assert json.loads(proc.stdout)["cost"] == pytest.approx(expected)
    assert expected <= 2 * optimal + 1e-9


def test_convert_moving_ai_merges_walls_into_polygons_with_holes(tmp_path):
    """One obstacle per wall (4-connected blocked cells), holes kept, not one box per run of cells."""
    import shapely
    from scipy import ndimage

    rows = [
        "..........",
        ".@@@@@....",
        ".@...@..@.",
        ".@.@.@...@",
        ".@...@....",
        ".@@@@@.@@.",
        ".......@..",
    ]
    path = write(tmp_path, "ring.map", f"type octile\nheight {len(rows)}\nwidth {len(rows[0])}\nmap\n" + "\n".join(rows) + "\n")
    proc = run("convert", path, "-o", tmp_path / "ring.json", "--cell-size", 2, "--waypoints", "none")
    assert proc.returncode == 0, proc.stderr
    level = navmesh.load_level(tmp_path / "ring.json")
    blocked = np.array([[ch == "@" for ch in row] for row in rows])
    _, n_walls = ndimage.label(blocked)  # 4-connected: cells touching at a corner are separate walls
    assert len(level.obstacles) == n_walls == 5
    # exactly the blocked cells, world y up: row 0 of the file is the top row
    cells = shapely.union_all([shapely.box(2 * c, 2 * (len(rows) - 1 - r), 2 * c + 2, 2 * (len(rows) - r))
                               for r, c in zip(*np.nonzero(blocked))])
    assert shapely.union_all(level.obstacles).symmetric_difference(cells).area == 0
    ring = max(level.obstacles, key=lambda p: p.area)
    assert len(ring.interiors) == 1 and ring.area == 4 * 16 and shapely.Polygon(ring.exterior).area == 4 * 25
    assert len(ring.exterior.coords) == 5  # a square: no vertices left between merged boxes
    # the island inside the ring is its own obstacle, standing in the hole
    island = next(p for p in level.obstacles if p.area == 4 and p.within(shapely.Polygon(ring.exterior)))
    assert island.bounds == (6.0, 6.0, 8.0, 8.0)


def test_convert_tiled_map(tmp_path):
    out = tmp_path / "sample.json"
    proc = run("convert", TILED / "level_sample.tmj", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert navmesh.load_level(out) == navmesh.load_tiled_level(TILED / "level_sample.tmj")


def test_convert_bundled_arcade_map_with_wall_layer(tmp_path):
    pytest.importorskip("arcade")
    out = tmp_path / "level_2.json"
    quiet = run("convert", ":resources:tiled_maps/level_2.json", "-o", out)
    assert quiet.returncode == 0
    assert "navmesh: warning: " in quiet.stderr and "layers skipped: 'Platforms' (tile layer)" in quiet.stderr
    proc = run("convert", ":resources:tiled_maps/level_2.json", "-o", out, "--wall-layer", "Platforms",
               "--scaling", 0.5)
    assert proc.returncode == 0 and proc.stderr == ""
    level = navmesh.load_level(out)
    assert level.bounds.bounds == (0.0, 0.0, 1600.0, 1280.0) and len(level.obstacles) > 0


def test_bench_lists_its_benchmarks():
    proc = run("bench", "--help")
    assert proc.returncode == 0
    assert all(name in proc.stdout for name in ("search", "grid", "fatcat", "build", "anyangle"))


# -- the navigation mesh (--mesh) ---------------------------------------------------------------
def _wall_room(tmp_path):
    level = navmesh.Level.rectangle(100, 100, obstacles=[[(40, 0), (60, 0), (60, 80), (40, 80)]])
    navmesh.save_level(level, tmp_path / "room.json")
    return level


def test_build_mesh_writes_a_mesh_file_that_path_reads(tmp_path):
    level = _wall_room(tmp_path)
    proc = run("build", tmp_path / "room.json", "--mesh", "--agent-radius", "2", "-o", tmp_path / "room.mesh", "-q")
    assert proc.returncode == 0, proc.stderr
    mesh = navmesh.load_mesh(tmp_path / "room.mesh")
    assert mesh.n_polygons == navmesh.build_navmesh(level, agent_radius=2).n_polygons
    assert f"mesh: {mesh.n_polygons} polygons" in proc.stdout
    # the exact any-angle path round the inflated (bevelled) wall top, from the file and from the level,
    # equals the exact k=None corner graph's
    exact = navmesh.NavQuery(navmesh.build_waypoint_graph(level, corners=True, k=None, agent_radius=2))
    oracle = exact.find_path([10, 10], [90, 10])
    for args in ((tmp_path / "room.mesh",), (tmp_path / "room.json", "--mesh", "--agent-radius", "2")):
        proc = run("path", *args, 10, 10, 90, 10, "--json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert out["cost"] == pytest.approx(oracle.cost, rel=1e-9)
        assert len(out["points"]) == len(oracle.points)
        for got, want in zip(out["points"], oracle.points.tolist()):
            assert got == pytest.approx(want, abs=1e-9)
    # the one endpoint policy on the mesh too: moved and told, or --strict fails
    proc = run("path", tmp_path / "room.mesh", 50, 40, 90, 10)
    assert proc.returncode == 0 and "moved 12 world units" in proc.stderr
    line = one_line_error(run("path", tmp_path / "room.mesh", 50, 40, 90, 10, "--strict"), 1)
    assert "start=[50.0, 40.0] is not walkable" in line
    one_line_error(run("path", tmp_path / "room.mesh", 10, 10, 90, 10, "--algorithm", "astar"), 2)
    one_line_error(run("build", tmp_path / "room.json", "-o", tmp_path / "x.mesh"), 2)
    one_line_error(run("check", tmp_path / "room.mesh"), 2)


def test_render_mesh_overlay_and_mesh_path(tmp_path):
    from PIL import Image

    _wall_room(tmp_path)
    size = 220
    proc = run("render", tmp_path / "room.json", "-o", tmp_path / "m.png", "--size", size, "--overlay", "mesh",
               "--mesh", "--path", 10, 10, 90, 10)
    assert proc.returncode == 0, proc.stderr
    image = Image.open(tmp_path / "m.png").convert("RGB")
    margin, scale = 8, (size - 16) / 100

    def at(x, y):
        return image.getpixel((round(margin + x * scale), round(size - margin - y * scale)))

    pixels = set(image.getdata())
    assert COLORS["mesh"] in pixels  # polygon outlines drawn
    assert at(50, 30) == COLORS["obstacle"] and at(50, 80) == COLORS["path"]  # over the wall's top
    assert at(10, 10) == COLORS["start"] and at(90, 10) == COLORS["goal"]
    plain = run("render", tmp_path / "room.json", "-o", tmp_path / "p.png", "--size", size, "--overlay", "terrain")
    assert plain.returncode == 0 and COLORS["mesh"] not in set(Image.open(tmp_path / "p.png").convert("RGB").getdata())
