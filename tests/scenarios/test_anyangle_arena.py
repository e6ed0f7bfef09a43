"""Published any-angle shortest paths on the Moving AI ``arena`` map (Polyanya reference lengths).

The blocked cells of ``arena.map`` become obstacles (cell (x, y) is the square [x, x+1] x [y, y+1],
y downward, exactly as in the reference data) and the map rectangle is the level's bounds. With
generated corner waypoints and unlimited k the waypoint graph is the visibility graph, whose
shortest paths are the true Euclidean shortest paths: every one of the 160 published lengths must
be matched within 1e-3. The data are copied into tests/data/anyangle/ (see the README there).
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
import shapely

from navmesh.waypoints.build import build_waypoint_graph
from navmesh.geometry import cell_rectangles
from navmesh.level import Level
from navmesh.io.movingai import read_map
from navmesh.waypoints.query import find_path

DATA = Path(__file__).resolve().parents[1] / "data" / "anyangle"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def _files() -> tuple[Path, Path]:
    for folder_map, folder_csv in ((DATA, DATA), (SHARED / "movingai", SHARED / "anyangle")):
        m, c = folder_map / "arena.map", folder_csv / "arena.expected.csv"
        if m.exists() and c.exists():
            return m, c
    pytest.skip("arena any-angle reference data not found (tests/data/anyangle or ../shared/data)")


@pytest.fixture(scope="module")
def arena():
    map_path, csv_path = _files()
    chars = read_map(map_path).chars
    blocked = ~np.isin(chars, list(".GS"))
    level = Level((0, 0, blocked.shape[1], blocked.shape[0]), obstacles=cell_rectangles(blocked))
    rows = list(csv.DictReader(csv_path.open()))
    queries = [
        ((float(r["start_x"]), float(r["start_y"])), (float(r["goal_x"]), float(r["goal_y"])), float(r["expected_euclidean_length"]))
        for r in rows
    ]
    return level, blocked, queries


def test_rectangles_cover_exactly_the_blocked_cells(arena):
    level, blocked, _ = arena
    union = shapely.union_all(level.obstacles)
    assert union.area == blocked.sum()
    ys, xs = np.nonzero(blocked)
    assert shapely.contains_xy(union, xs + 0.5, ys + 0.5).all()


def test_unlimited_k_matches_every_published_length(arena):
    level, _, queries = arena
    assert len(queries) == 160
    nav = build_waypoint_graph(level, k=None, corners=True)
    got = np.array([find_path(nav, s, g, refine="none").cost for s, g, _ in queries])
    want = np.array([e for _, _, e in queries])
    worst = np.abs(got - want).max()
    assert worst <= 1e-3, f"largest difference {worst}"


def test_kernel_visibility_builds_the_same_visibility_graph(arena):
    level, _, _ = arena
    a = build_waypoint_graph(level, k=None, corners=True)
    b = build_waypoint_graph(level, k=None, corners=True, visibility="kernel")
    np.testing.assert_array_equal(a.graph.indptr, b.graph.indptr)
    np.testing.assert_array_equal(a.graph.indices, b.graph.indices)


def test_refinement_keeps_optimal_paths_optimal(arena):
    level, _, queries = arena
    nav = build_waypoint_graph(level, k=None, corners=True)
    for s, g, want in queries[::8]:
        for refine in ("smooth", "any_angle"):
            assert find_path(nav, s, g, refine=refine).cost == pytest.approx(want, abs=1e-3)


def test_sparse_graph_with_refinement_is_close_to_optimal(arena):
    level, _, queries = arena
    nav = build_waypoint_graph(level, k=8, corners=True)
    want = np.array([e for _, _, e in queries])
    cost = {
        refine: np.array([find_path(nav, s, g, refine=refine).cost for s, g, _ in queries])
        for refine in ("none", "any_angle")
    }
    ratio = {refine: c / want for refine, c in cost.items()}
    # never shorter than the true shortest path (published lengths are rounded: 1e-3 slack)
    assert (cost["none"] >= want - 1e-3).all() and (cost["any_angle"] >= want - 1e-3).all()
    # refinement helps on every query, and on average lands within 1% of optimal
    assert (ratio["any_angle"] <= ratio["none"] + 1e-9).all()
    assert ratio["any_angle"].mean() <= 1.01
