"""Oracles written from the rules as the documentation states them, sharing no code with navmesh.

- Grids: the step rules of :class:`navmesh.grid.GridMap` (4/8 neighbours, the four diagonal rules,
  wrap-around, a step costs its length x cell size x the mean multiplier of its two cells) are
  spelled out here cell by cell into a scipy matrix; ``grid.to_navgraph()`` is not used.
- Terrain: the painter's rule (the last region containing a point wins, boundary included) and the
  arc weight rule (length in each tag x its multiplier, closed when any length lies in a forbidden
  tag) are applied to box regions by cutting each segment at every box edge it crosses.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from navmesh.errors import NoPathError
from navmesh.grid import GridMap
from navmesh.grid.flowfield import FlowField
from navmesh.grid.search import grid_astar, grid_dijkstra, jump_point_search
from navmesh.level import Level
from navmesh.terrain import CostProfile, TerrainLayer, TerrainRegion
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import find_path

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- grids -------------------------------------------------------------------------------------------
def grid_matrix(cells: np.ndarray, connectivity: int, diagonal: str, wrap: str, cell_size: float) -> sp.csr_array:
    """Step costs between cells by the documented rules, one cell and one direction at a time."""
    h, w = cells.shape
    free = np.isfinite(cells) & (cells > 0)
    wrap_rows, wrap_cols = wrap in ("y", "both"), wrap in ("x", "both")

    def cell(r: int, c: int) -> tuple[int, int] | None:
        if not 0 <= r < h:
            if not wrap_rows:
                return None
            r %= h
        if not 0 <= c < w:
            if not wrap_cols:
                return None
            c %= w
        return r, c

    straight = [(-1, 0), (0, 1), (1, 0), (0, -1)]
    diagonals = [(-1, 1), (1, 1), (1, -1), (-1, -1)] if connectivity == 8 and diagonal != "never" else []
    best: dict[tuple[int, int], float] = {}
    for r in range(h):
        for c in range(w):
            if not free[r, c]:
                continue
            for dr, dc in straight + diagonals:
                to = cell(r + dr, c + dc)
                if to is None or not free[to]:
                    continue
                if dr and dc:
                    sides = [cell(r + dr, c), cell(r, c + dc)]
                    n_free = sum(1 for s in sides if s is not None and free[s])
                    if diagonal == "no_corner_cutting" and n_free < 2:
                        continue
                    if diagonal == "one_blocked" and n_free < 1:
                        continue
                length = math.sqrt(2.0) if dr and dc else 1.0
                cost = length * cell_size * (cells[r, c] + cells[to]) / 2
                key = (r * w + c, to[0] * w + to[1])
                best[key] = min(cost, best.get(key, math.inf))
    rows, cols = zip(*best) if best else ((), ())
    return sp.csr_array((list(best.values()), (list(rows), list(cols))), shape=(h * w, h * w))


@st.composite
def grid_cases(draw, *, uniform: bool = False):
    h = draw(st.integers(1, 10))
    w = draw(st.integers(1, 10))
    pool = [np.inf, 1.0, 1.0, 1.0] if uniform else [np.inf, 0.5, 1.0, 1.0, 2.0, 4.0]
    cells = np.array(draw(st.lists(st.sampled_from(pool), min_size=h * w, max_size=h * w))).reshape(h, w)
    options = {
        "connectivity": draw(st.sampled_from([4, 8])),
        "diagonal": draw(st.sampled_from(["never", "no_corner_cutting", "one_blocked", "always"])),
        "wrap": draw(st.sampled_from(["none", "x", "y", "both"])),
        "cell_size": draw(st.sampled_from([1.0, 0.5, 3.0])),
    }
    return cells, options


@SETTINGS
@given(grid_cases(), st.data())
def test_grid_searches_match_the_step_rules(case, data):
    cells, options = case
    free = np.flatnonzero(np.isfinite(cells).reshape(-1))
    assume(len(free) > 0)
    grid = GridMap(cells, **options)
    expected = csgraph.dijkstra(grid_matrix(cells, **options), directed=True)
    for _ in range(4):
        s = int(data.draw(st.sampled_from(free.tolist())))
        t = int(data.draw(st.sampled_from(free.tolist())))
        for search in (grid_astar, grid_dijkstra):
            if np.isinf(expected[s, t]):
                with pytest.raises(NoPathError):
                    search(grid, s, t)
            else:
                assert search(grid, s, t).cost == pytest.approx(expected[s, t], rel=1e-9, abs=1e-12)


@SETTINGS
@given(grid_cases(uniform=True), st.data())
def test_jump_point_search_matches_the_step_rules(case, data):
    cells, _ = case
    free = np.flatnonzero(np.isfinite(cells).reshape(-1))
    assume(len(free) > 0)
    grid = GridMap(cells)  # JPS: 8 neighbours, no corner cutting, uniform costs
    expected = csgraph.dijkstra(grid_matrix(cells, 8, "no_corner_cutting", "none", 1.0), directed=True)
    s = int(data.draw(st.sampled_from(free.tolist())))
    t = int(data.draw(st.sampled_from(free.tolist())))
    if np.isinf(expected[s, t]):
        with pytest.raises(NoPathError):
            jump_point_search(grid, s, t)
    else:
        assert jump_point_search(grid, s, t).cost == pytest.approx(expected[s, t], rel=1e-9, abs=1e-12)


@SETTINGS
@given(grid_cases(), st.data())
def test_flow_field_distances_match_the_step_rules(case, data):
    cells, options = case
    free = np.flatnonzero(np.isfinite(cells).reshape(-1))
    assume(len(free) > 0)
    goals = data.draw(st.lists(st.sampled_from(free.tolist()), min_size=1, max_size=3))
    field = FlowField(GridMap(cells, **options), goals)
    # distance to the nearest goal = shortest path from it on the reversed steps
    reverse = grid_matrix(cells, **options).T
    expected = csgraph.dijkstra(reverse, directed=True, indices=goals, min_only=True)
    np.testing.assert_allclose(field.distance.reshape(-1), expected, rtol=1e-9, atol=1e-12)


# -- terrain -----------------------------------------------------------------------------------------
BOXES = st.tuples(*[st.integers(0, 12)] * 4).filter(lambda b: b[0] != b[2] and b[1] != b[3]).map(
    lambda b: (min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3]))
)
TAGS = ("swamp", "road", "water")


def in_box(p: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


def segment_cost(a, b, regions, multipliers, forbidden) -> float:
    """Cost of walking straight from a to b under the painter's and arc weight rules.

    The segment is cut at every parameter where it crosses a box edge line; inside each piece the
    terrain is constant, so the tag at the piece's midpoint holds for the whole piece.
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    length = math.hypot(*d)
    if length == 0:
        return 0.0
    cuts = {0.0, 1.0}
    for box, _ in regions:
        for axis, lo, hi in ((0, box[0], box[2]), (1, box[1], box[3])):
            if d[axis] != 0:
                for edge in (lo, hi):
                    with np.errstate(over="ignore"):  # a subnormal step: the crossing is far outside
                        t = (edge - a[axis]) / d[axis]
                    if 0 < t < 1:
                        cuts.add(t)
    cuts = sorted(cuts)
    total = 0.0
    for t0, t1 in zip(cuts[:-1], cuts[1:]):
        mid = tuple(a + d * (t0 + t1) / 2)
        tag = ""
        for box, region_tag in regions:  # painter's order: the last one containing the point wins
            if in_box(mid, box):
                tag = region_tag
        piece = (t1 - t0) * length
        if tag in forbidden and piece > 1e-9 * max(length, 1.0):
            return math.inf
        total += piece * multipliers.get(tag, 1.0)
    return total


profiles = st.tuples(
    st.dictionaries(st.sampled_from(TAGS), st.sampled_from([0.25, 0.5, 2.0, 3.0, 10.0])),
    st.frozensets(st.sampled_from(TAGS), max_size=1),
)
points = st.tuples(st.integers(-1, 13), st.integers(-1, 13)) | st.tuples(
    st.floats(-1, 13, allow_nan=False), st.floats(-1, 13, allow_nan=False)
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(BOXES, st.sampled_from(TAGS)), max_size=5),
    st.lists(st.tuples(points, points), min_size=1, max_size=8),
    profiles,
)
def test_arc_weights_match_the_painter_and_weight_rules(regions, segments, profile):
    multipliers, forbidden = profile
    unit = CostProfile("unit", multipliers, forbidden=forbidden)
    layer = TerrainLayer([TerrainRegion(shapely.box(*box), tag) for box, tag in regions])
    a = np.array([s[0] for s in segments], float)
    b = np.array([s[1] for s in segments], float)
    names, lens = layer.lengths(a, b)
    got = unit.arc_weights(np.hypot(*(b - a).T), lens, names, np.zeros(len(a), np.int32), ("",))
    expected = [segment_cost(p, q, regions, multipliers, forbidden) for p, q in zip(a, b)]
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.tuples(BOXES, st.sampled_from(("swamp", "road"))), min_size=1, max_size=4),
    profiles.filter(lambda p: not p[1]),
    st.sampled_from(["none", "smooth", "any_angle"]),
    st.data(),
)
def test_navquery_path_cost_is_the_rule_cost_of_its_points(regions, profile, refine, data):
    """A path of plain walking has exactly the cost of its polyline by the rules (no links)."""
    multipliers, _ = profile
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    pts = np.unique(rng.integers(0, 13, size=(30, 2)).astype(float), axis=0)
    terrain = [TerrainRegion(shapely.box(*box), tag) for box, tag in regions]
    nav = build_waypoint_graph(Level.rectangle(12, 12, waypoints=pts[(pts <= 12).all(axis=1)], terrain=terrain))
    start = data.draw(st.tuples(st.floats(0, 12), st.floats(0, 12)))
    goal = data.draw(st.tuples(st.floats(0, 12), st.floats(0, 12)))
    path = find_path(nav, start, goal, profile=CostProfile("unit", multipliers), refine=refine)
    by_rule = sum(segment_cost(p, q, regions, multipliers, frozenset()) for p, q in zip(path.points[:-1], path.points[1:]))
    assert path.cost == pytest.approx(by_rule, rel=1e-9, abs=1e-9)
