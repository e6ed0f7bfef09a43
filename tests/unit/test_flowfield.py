"""FlowField: distances against scipy, signposts lead to the goal on least-cost, straight paths."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import csgraph

from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NodeNotFoundError,
    NoPathError,
)
from navmesh.grid import GridMap
from navmesh.grid.flowfield import FlowField

SQRT2 = 2**0.5


def scipy_distance(grid: GridMap, goals) -> np.ndarray:
    dist = csgraph.dijkstra(grid.to_navgraph().to_scipy(), indices=np.atleast_1d(goals), min_only=True)
    return dist


def step_cost(grid: GridMap, a: int, b: int) -> float:
    g = grid.to_navgraph()
    lo, hi = g.indptr[a], g.indptr[a + 1]
    hit = np.flatnonzero(g.indices[lo:hi] == b)
    assert hit.size, f"{a} -> {b} is not an allowed step"
    return float(g.lengths[lo + hit[0]])


@pytest.mark.parametrize(
    "options",
    [{}, {"connectivity": 4}, {"diagonal": "always"}, {"wrap": "both"}, {"cell_size": 3.0}],
)
def test_distances_match_scipy(options):
    rng = np.random.default_rng(2)
    cells = rng.choice([0.5, 1.0, 3.0, np.inf], size=(16, 19), p=[0.2, 0.5, 0.1, 0.2])
    grid = GridMap(cells, **options)
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    goals = rng.choice(free, 3, replace=False)
    field = FlowField(grid, goals)
    expected = scipy_distance(grid, goals)
    np.testing.assert_allclose(field.distance.reshape(-1), expected, rtol=1e-12)
    reached = np.flatnonzero(np.isfinite(expected))
    assert field.expansions == len(reached)
    # each cell is led to the goal it is nearest to
    per_goal = csgraph.dijkstra(grid.to_navgraph().to_scipy(), indices=goals)
    chosen = field.nearest_goal.reshape(-1)[reached]
    np.testing.assert_allclose(per_goal[chosen, reached], expected[reached], rtol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_following_signposts_is_least_cost(seed):
    rng = np.random.default_rng(seed)
    cells = rng.choice([1.0, 2.0, np.inf], size=(15, 15), p=[0.6, 0.15, 0.25])
    grid = GridMap(cells, wrap="x" if seed % 2 else "none")
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    field = FlowField(grid, int(rng.choice(free)))
    for u in free:
        if not np.isfinite(field.distance_at(int(u))):
            with pytest.raises(NoPathError):
                field.path_from(int(u))
            assert field.next_cell(int(u)) == -1
            continue
        path = field.path_from(int(u))
        assert path.nodes[-1] in field.goals
        walked = sum(step_cost(grid, int(a), int(b)) for a, b in zip(path.nodes[:-1], path.nodes[1:]))
        assert walked == pytest.approx(field.distance_at(int(u)), rel=1e-9, abs=1e-12)
        assert path.cost == field.distance_at(int(u))
        d = field.distance.reshape(-1)[path.nodes]
        assert np.all(np.diff(d) < 0)


def _worst_offset(grid: GridMap, goal: int, paths) -> float:
    gx, gy = grid.cell_center(goal)
    worst = 0.0
    for u, points in paths:
        sx, sy = grid.cell_center(u)
        line = np.array([gx - sx, gy - sy])
        rel = points - [sx, sy]
        worst = max(worst, float((np.abs(rel[:, 0] * line[1] - rel[:, 1] * line[0]) / np.hypot(*line)).max()))
    return worst


def test_no_zig_zag_on_open_ground():
    grid = GridMap(np.zeros((21, 21), dtype=bool))
    goal = grid.cell_id(10, 10)
    field = FlowField(grid, goal)
    starts = [u for u in range(grid.n_cells) if u != goal]
    ours = _worst_offset(grid, goal, [(u, field.path_from(u).points) for u in starts])

    # The rule of the seed article, "step to the neighbour nearest the goal", on the same costs:
    # it takes its diagonal steps first and bends late.
    dist = field.distance.reshape(-1)
    g_col, g_row = grid.col_row(goal)

    def nearest_first(u):
        cells = [u]
        while cells[-1] != goal:
            v = cells[-1]
            ok = [w for w in grid.neighbors(v) if dist[w] < dist[v] and abs(
                dist[w] + np.hypot(*(grid.col_row(w) - grid.col_row(v))) - dist[v]) < 1e-9]
            cells.append(min(ok, key=lambda w: ((grid.col_row(w) - [g_col, g_row]) ** 2).sum()))
        return grid.cell_center(np.array(cells))

    theirs = _worst_offset(grid, goal, [(u, nearest_first(u)) for u in starts])
    assert ours < 1.5 < theirs


def test_diagonal_first_would_stray_but_we_do_not():
    grid = GridMap(np.zeros((3, 12), dtype=bool))
    field = FlowField(grid, grid.cell_id(11, 2))
    path = field.path_from(grid.cell_id(0, 0))
    assert path.cost == pytest.approx(9 + 2 * SQRT2)
    rows = grid.col_row(path.nodes)[:, 1]
    # a "diagonals first" rule would drop to row 2 within two steps; the straight line does not
    assert rows[1] == 0 and rows[2] == 0


def test_direction_vectors_world_y_up():
    grid = GridMap.from_strings(["...", "...", "..."], connectivity=4)
    field = FlowField(grid, 1)  # goal: top-middle
    vec = field.direction_at([4, 3, 5, 1])
    # from 3 (left middle) up and right are equally good and equally aligned: the lower code wins
    assert vec.tolist() == [[0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 0.0]]
    assert field.direction_at(0).tolist() == [1.0, 0.0]
    assert field.direction_at(7).tolist() == [0.0, 1.0]
    assert field.next_cell([4, 1]).tolist() == [1, 1]
    assert field.next_cell(3) == 0
    diag = FlowField(GridMap(np.zeros((3, 3), dtype=bool)), 2)  # top-right
    assert diag.direction_at(6) == pytest.approx([SQRT2 / 2, SQRT2 / 2])


def test_thousand_units_in_one_call():
    rng = np.random.default_rng(9)
    walls = rng.random((64, 64)) < 0.2
    walls[32, 32] = False
    grid = GridMap(walls, cell_size=16, origin=(-100, 40))
    field = FlowField(grid, grid.cell_id(32, 32))
    cells = rng.choice(np.flatnonzero(~walls.reshape(-1)), 1000)
    vec = field.direction_at(cells)
    assert vec.shape == (1000, 2)
    norms = np.hypot(vec[:, 0], vec[:, 1])
    moving = np.isfinite(field.distance_at(cells)) & (cells != grid.cell_id(32, 32))
    np.testing.assert_allclose(norms[moving], 1.0)
    assert np.all(norms[~moving] == 0)
    points = grid.cell_center(cells) + rng.uniform(-7.9, 7.9, (1000, 2))
    np.testing.assert_array_equal(field.direction_at_points(points), vec)
    # stepping along the vector lands in the next cell
    nxt = field.next_cell(cells)
    stepped = grid.cell_at(grid.cell_center(cells[moving]) + vec[moving] * 16 * np.where(
        np.abs(vec[moving]).min(axis=1) > 0, SQRT2, 1.0)[:, None])
    np.testing.assert_array_equal(stepped, nxt[moving])


def test_blocked_and_unreached_cells_have_no_signpost():
    grid = GridMap.from_strings(["..@..", "..@..", "..@.."], connectivity=4)
    field = FlowField(grid, 0)
    assert np.isinf(field.distance[0, 3]) and field.directions[0, 3] == -1
    assert field.directions[0, 2] == -1 and field.direction_at(2).tolist() == [0.0, 0.0]
    assert field.nearest_goal[0, 4] == -1
    with pytest.raises(NoPathError, match="no path to a goal"):
        field.path_from(4)


@pytest.mark.parametrize("cell", [[1, 2], (1,), np.array([3]), [[1]], [1, [2]], "1", 1.0, True, 15, -1])
def test_path_from_takes_exactly_one_cell_id(cell):
    grid = GridMap(np.zeros((3, 5), dtype=bool), connectivity=4)
    field = FlowField(grid, 0)
    with pytest.raises(NodeNotFoundError, match="cell"):
        field.path_from(cell)
    # one id, as a Python or numpy integer (0-d array included): 4 + 2 steps from the far corner
    for one in (14, np.int64(14), np.array(14)):
        path = field.path_from(one)
        assert path.cost == 6 and len(path.nodes) == 7 and path.nodes[0] == 14 and path.nodes[-1] == 0


def test_max_cost_limits_the_search():
    grid = GridMap(np.zeros((1, 10), dtype=bool), connectivity=4)
    field = FlowField(grid, 0, max_cost=4.0)
    assert field.distance[0].tolist()[:6] == [0.0, 1.0, 2.0, 3.0, 4.0, np.inf]
    assert field.expansions == 5
    with pytest.raises(InvalidOptionError, match="max_cost"):
        FlowField(grid, 0, max_cost=-1)


def test_several_goals_and_tunnel():
    rows = ["@@@@@@@@@", ".........", "@@@@@@@@@"]
    grid = GridMap.from_strings(rows, connectivity=4, wrap="x")
    field = FlowField(grid, [grid.cell_id(0, 1)])
    assert field.distance_at(grid.cell_id(8, 1)) == 1.0
    assert field.next_cell(grid.cell_id(8, 1)) == grid.cell_id(0, 1)
    assert field.direction_at(grid.cell_id(8, 1)).tolist() == [1.0, 0.0]  # through the tunnel
    two = FlowField(grid, [grid.cell_id(2, 1), grid.cell_id(6, 1)])
    assert two.nearest_goal[1].tolist()[1:4] == [0, 0, 0]
    assert two.nearest_goal[1, 7] == 1


def test_bad_input():
    grid = GridMap.from_strings(["..@", "..."])
    with pytest.raises(NodeNotFoundError, match="blocked"):
        FlowField(grid, [0, 2])
    with pytest.raises(NodeNotFoundError, match="out of range"):
        FlowField(grid, 9)
    with pytest.raises(NodeNotFoundError, match="non-empty"):
        FlowField(grid, [])
    field = FlowField(grid, 0)
    with pytest.raises(NodeNotFoundError, match="out of range"):
        field.direction_at([0, 6])
    with pytest.raises(NodeNotFoundError, match="outside"):
        field.direction_at_points([[0.5, 0.5], [5.0, 0.5]])
    with pytest.raises(InvalidGeometryError):
        field.direction_at_points([1.0])
    with pytest.raises(ValueError):
        field.distance[0, 0] = 5.0
    assert "FlowField(1 goals" in repr(field)


def _assert_every_reached_cell_leads_to_a_goal(field: FlowField) -> None:
    grid = field.grid
    goals = set(field.goals.tolist())
    for u in np.flatnonzero(np.isfinite(field.distance.reshape(-1))).tolist():
        path = field.path_from(u)
        assert int(path.nodes[-1]) in goals, f"path from {u} stops at {int(path.nodes[-1])}"
        assert len(path.nodes) <= grid.n_cells
        step = field.next_cell(u)
        assert step >= 0
        assert (step == u) == (u in goals)
        if u not in goals:
            assert step in grid.neighbors(u).tolist()


@pytest.mark.parametrize(
    "row",
    [
        [1.0, 1e17, 1.0, 1.0, 1.0, 1.0],          # 1e17 + 1 == 1e17: costs tie after the big cell
        [1e17, 1.0, 1.0, 1.0, 1.0, 1.0],
        [5e-324] * 6,                             # subnormal: every step rounds to cost 0
        [1e-310, 5e-324, 1e-320, 5e-324, 1e-315, 1.0],
    ],
)
def test_ties_after_rounding_still_lead_to_the_goal(row):
    for cells in (np.array([row]), np.array([row, row[::-1], row])):
        grid = GridMap(cells)
        field = FlowField(grid, 0)
        assert np.isfinite(field.distance).all()
        _assert_every_reached_cell_leads_to_a_goal(field)
        far = grid.n_cells - 1
        assert field.path_from(far).nodes[-1] == 0
        assert field.next_cell(far) != -1


def test_random_huge_and_tiny_multipliers_lead_to_a_goal():
    rng = np.random.default_rng(15)
    for _ in range(20):
        cells = rng.choice([1.0, 1e17, 1e16, 5e-324, 1e-300, np.inf], size=(7, 9), p=[0.4, 0.15, 0.1, 0.15, 0.1, 0.1])
        grid = GridMap(cells, connectivity=int(rng.choice([4, 8])))
        free = np.flatnonzero(~grid.blocked.reshape(-1))
        if free.size == 0:
            continue
        field = FlowField(grid, rng.choice(free, size=min(2, free.size), replace=False))
        _assert_every_reached_cell_leads_to_a_goal(field)
