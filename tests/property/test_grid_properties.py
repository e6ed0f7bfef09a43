"""Hypothesis properties of the grid searches and flow fields, checked against scipy.sparse.csgraph."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from navmesh.errors import NoPathError
from navmesh.grid.flowfield import FlowField
from navmesh.grid import GridMap
from navmesh.grid.search import first_step, first_steps, grid_astar, grid_dijkstra, jump_point_search

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VALUES = [np.inf, 0.5, 1.0, 1.0, 1.0, 2.0, 4.0]


@st.composite
def grids(draw, *, uniform=False, options=True):
    h = draw(st.integers(1, 11))
    w = draw(st.integers(1, 11))
    pool = [np.inf, 1.0, 1.0, 1.0] if uniform else VALUES
    cells = np.array(draw(st.lists(st.sampled_from(pool), min_size=h * w, max_size=h * w))).reshape(h, w)
    kwargs = {}
    if options:
        kwargs = {
            "connectivity": draw(st.sampled_from([4, 8])),
            "diagonal": draw(st.sampled_from(["never", "no_corner_cutting", "one_blocked", "always"])),
            "wrap": draw(st.sampled_from(["none", "x", "y", "both"])),
            "cell_size": draw(st.sampled_from([1.0, 0.5, 3.0])),
        }
    return GridMap(cells, **kwargs)


def free_pair(draw, grid):
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    assume(len(free) > 0)
    return int(draw(st.sampled_from(free.tolist()))), int(draw(st.sampled_from(free.tolist())))


def reference(grid: GridMap, source: int) -> np.ndarray:
    return csgraph.dijkstra(grid.to_navgraph().to_scipy(), indices=source)


@SETTINGS
@given(st.data())
def test_astar_dijkstra_scipy_agree(data):
    grid = data.draw(grids())
    s, t = free_pair(data.draw, grid)
    expected = reference(grid, s)[t]
    if np.isinf(expected):
        for search in (grid_astar, grid_dijkstra):
            with pytest.raises(NoPathError):
                search(grid, s, t)
        return
    for search in (grid_astar, grid_dijkstra):
        path = search(grid, s, t)
        assert path.cost == pytest.approx(expected, rel=1e-12, abs=1e-12)
        assert path.nodes[0] == s and path.nodes[-1] == t


@SETTINGS
@given(st.data())
def test_reversed_query_same_cost(data):
    grid = data.draw(grids())
    s, t = free_pair(data.draw, grid)
    forward = grid_astar(grid, s, t, allow_partial=True)
    backward = grid_astar(grid, t, s, allow_partial=True)
    assert forward.partial == backward.partial
    if not forward.partial:
        assert forward.cost == pytest.approx(backward.cost, rel=1e-12, abs=1e-12)


@SETTINGS
@given(st.data(), st.sampled_from([1.5, 3.0, np.inf]))
def test_raising_a_multiplier_never_lowers_a_cost(data, factor):
    grid = data.draw(grids(options=False))
    s, t = free_pair(data.draw, grid)
    cells = grid.costs.copy()
    r = data.draw(st.integers(0, grid.height - 1))
    c = data.draw(st.integers(0, grid.width - 1))
    cells[r, c] *= factor
    if (r * grid.width + c) in (s, t):
        cells[r, c] = min(cells[r, c], 1e6)
    raised = GridMap(cells)
    before = grid_astar(grid, s, t, allow_partial=True)
    after = grid_astar(raised, s, t, allow_partial=True)
    if not before.partial:
        assert after.partial or after.cost >= before.cost - 1e-9


@SETTINGS
@given(st.data())
def test_jps_matches_astar(data):
    grid = data.draw(grids(uniform=True, options=False))
    s, t = free_pair(data.draw, grid)
    a = grid_astar(grid, s, t, allow_partial=True)
    j = jump_point_search(grid, s, t, allow_partial=True)
    assert a.partial == j.partial
    if not a.partial:
        assert j.cost == pytest.approx(a.cost, rel=1e-12, abs=1e-12)
        steps = np.abs(np.diff(grid.col_row(j.nodes), axis=0))
        assert len(j.nodes) == 1 or steps.max() == 1


@SETTINGS
@given(st.data())
def test_following_a_flow_field_lowers_the_distance(data):
    grid = data.draw(grids())
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    assume(len(free) > 0)
    goals = data.draw(st.lists(st.sampled_from(free.tolist()), min_size=1, max_size=3))
    field = FlowField(grid, goals)
    dist = field.distance.reshape(-1)
    expected = csgraph.dijkstra(grid.to_navgraph().to_scipy(), indices=goals, min_only=True)
    np.testing.assert_allclose(dist, expected, rtol=1e-12, atol=1e-12)
    for u in free:
        if np.isfinite(dist[u]):
            path = field.path_from(int(u))
            assert np.all(np.diff(dist[path.nodes]) < 0)
            assert dist[path.nodes[-1]] == 0.0


@SETTINGS
@given(st.data())
def test_first_step_lies_on_a_least_cost_path(data):
    grid = data.draw(grids())
    s, t = free_pair(data.draw, grid)
    to_goal = reference(grid, t)  # step costs are symmetric, so this is the cost to t
    if np.isinf(to_goal[s]):
        with pytest.raises(NoPathError):
            first_step(grid, s, t)
        assert first_steps(grid, [s], [t]).tolist() == [-1]
        return
    nxt = first_step(grid, s, t)
    assert first_steps(grid, [s], [t]).tolist() == [nxt]
    if s == t:
        assert nxt == s
        return
    graph = grid.to_navgraph()
    assert nxt in graph.neighbors(s).tolist()
    step = graph.lengths[graph.arc(s, nxt)]
    assert to_goal[nxt] + step == pytest.approx(to_goal[s], rel=1e-9)


@st.composite
def lattice_mazes(draw):
    cw = draw(st.integers(1, 7))
    ch = draw(st.integers(1, 6))
    w, h = 2 * cw + 1, 2 * ch + 1
    lab = np.ones((h, w), dtype=bool)
    lab[1::2, 1::2] = False
    corridors = [(y, x) for y in range(1, h - 1) for x in range(1, w - 1) if (x % 2) != (y % 2)]
    opened = draw(st.lists(st.booleans(), min_size=len(corridors), max_size=len(corridors)))
    for (y, x), o in zip(corridors, opened):
        lab[y, x] = not o
    return GridMap(lab, connectivity=4)


@SETTINGS
@given(lattice_mazes(), st.data())
def test_two_step_equals_plain(grid, data):
    free = np.flatnonzero(~grid.blocked.reshape(-1)).tolist()
    starts = data.draw(st.lists(st.sampled_from(free), min_size=1, max_size=20))
    goals = data.draw(st.lists(st.sampled_from(free), min_size=len(starts), max_size=len(starts)))
    plain = first_steps(grid, starts, goals)
    assert first_steps(grid, starts, goals, two_step=True).tolist() == plain.tolist()
    for s, t, p in zip(starts, goals, plain):
        if p < 0:
            with pytest.raises(NoPathError):
                first_step(grid, s, t, two_step=True)
        else:
            assert first_step(grid, s, t, two_step=True) == p == first_step(grid, s, t)


@SETTINGS
@given(st.data())
def test_queries_leave_the_grid_unchanged(data):
    grid = data.draw(grids())
    snapshot = [a.copy() for a in (grid.blocked, grid.costs, grid.moves, grid.regions)]
    s, t = free_pair(data.draw, grid)
    grid_astar(grid, s, t, allow_partial=True)
    grid_dijkstra(grid, s, t, allow_partial=True)
    FlowField(grid, t)
    first_steps(grid, [s], [t])
    for before, after in zip(snapshot, (grid.blocked, grid.costs, grid.moves, grid.regions)):
        np.testing.assert_array_equal(before, after)
