"""The Moving AI benchmark: every scenario's optimal length, by grid A*, JPS, the preprocessed
search (JPS+ through ``GridMap.find_path``) and (sampled) Dijkstra.

Published lengths come from the Moving AI Lab (see tests/data/movingai/README.md). The small maps
ship with the project; the 194x194 to 512x512 maps are read from ``../shared/data/movingai`` and
their tests skip when that folder is absent. The full 12,120-line maze512 file is marked slow; the
unmarked test runs every 25th line of it (all buckets).
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from navmesh.grid import GridMap
from navmesh.grid.search import (
    find_path,
    grid_astar,
    grid_dijkstra,
    jps_plus,
    jump_point_search,
)
from navmesh.io.movingai import read_scenarios

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "tests" / "data" / "movingai"
SHARED = next(
    (p for p in (ROOT.parent / "shared" / "data" / "movingai", pathlib.Path("/work/shared/data/movingai")) if p.exists()),
    ROOT.parent / "shared" / "data" / "movingai",
)

SMALL = [
    "arena.map.scen",
    "empty-8-8-random-1.scen",
    "random-32-32-10-random-1.scen",
    "room-32-32-4-random-1.scen",
    "maze-32-32-2-random-1.scen",
    "den312d-random-1.scen",
]
LARGE = ["lak303d.map.scen", "Berlin_0_256.map.scen"]
MAZE = "maze512-1-0.map.scen"


def tolerance(expected: np.ndarray) -> np.ndarray:
    """The data README's rule: published lengths are rounded to 2-8 digits."""
    return 0.0051 + 1e-5 * expected


def run_suite(folder: pathlib.Path, scen_name: str, search, every: int = 1) -> int:
    scen = read_scenarios(folder / scen_name)
    (map_name,) = set(scen.map_names)
    grid = GridMap.from_movingai(folder / map_name)
    starts = scen.start_cells(grid.width)[::every]
    goals = scen.goal_cells(grid.width)[::every]
    expected = scen.optimal[::every]
    got = np.array([search(grid, int(s), int(t)).cost for s, t in zip(starts, goals)])
    bad = np.flatnonzero(np.abs(got - expected) > tolerance(expected))
    assert bad.size == 0, (
        f"{scen_name}: {bad.size} of {len(got)} lengths differ, first at line "
        f"{bad[0] * every + 2}: got {got[bad[0]]}, published {expected[bad[0]]}"
    )
    return len(got)


def shared(name: str) -> pathlib.Path:
    if not (SHARED / name).exists():
        pytest.skip(f"{SHARED} is absent")
    return SHARED


SEARCHES = [grid_astar, jump_point_search, jps_plus, find_path]
SEARCH_IDS = ["astar", "jps", "jps_plus", "find_path"]


@pytest.mark.parametrize("search", SEARCHES, ids=SEARCH_IDS)
@pytest.mark.parametrize("scen_name", SMALL)
def test_shipped_maps(scen_name, search):
    assert run_suite(SHIPPED, scen_name, search) == len(read_scenarios(SHIPPED / scen_name))


@pytest.mark.parametrize("scen_name", SMALL)
def test_shipped_maps_dijkstra_sample(scen_name):
    run_suite(SHIPPED, scen_name, grid_dijkstra, every=7)


@pytest.mark.parametrize("search", SEARCHES, ids=SEARCH_IDS)
@pytest.mark.parametrize("scen_name", LARGE)
def test_large_maps(scen_name, search):
    run_suite(shared(scen_name), scen_name, search)


@pytest.mark.parametrize("scen_name", LARGE)
def test_large_maps_dijkstra_sample(scen_name):
    run_suite(shared(scen_name), scen_name, grid_dijkstra, every=50)


@pytest.mark.parametrize("search", SEARCHES, ids=SEARCH_IDS)
def test_maze512_sample(search):
    run_suite(shared(MAZE), MAZE, search, every=25)


def test_maze512_dijkstra_sample():
    run_suite(shared(MAZE), MAZE, grid_dijkstra, every=400)


@pytest.mark.slow
@pytest.mark.parametrize("search", [grid_astar, jump_point_search], ids=["astar", "jps"])
def test_maze512_full(search):
    assert run_suite(shared(MAZE), MAZE, search) == 12120


@pytest.mark.parametrize("scen_name", SMALL)
def test_shared_copies_of_small_maps_preprocessed(scen_name):
    """The shared data folder's own copies of the small maps, every line, preprocessed search."""
    assert run_suite(shared(scen_name), scen_name, find_path) == len(read_scenarios(SHARED / scen_name))


@pytest.mark.slow
def test_maze512_every_line_preprocessed():
    """Every one of maze512's 12,120 lines by the preprocessed search (about two minutes)."""
    assert run_suite(shared(MAZE), MAZE, find_path) == 12120
