"""Grid searches: A*, Dijkstra, JPS and the maze first-step search, checked against scipy and BFS."""

from __future__ import annotations

import collections
import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

from navmesh.errors import (
    InvalidOptionError,
    NodeNotFoundError,
    NoPathError,
    SearchBudgetError,
)
from navmesh.grid import GridMap
from navmesh.grid.search import find_path, first_step, first_steps, grid_astar, grid_dijkstra, jump_point_search
from navmesh.path import Path

ROOT = pathlib.Path(__file__).resolve().parents[2]
FATCAT = ROOT.parent / "shared" / "anchors" / "fatcat"
SQRT2 = 2**0.5
SEARCHES = [grid_astar, grid_dijkstra, jump_point_search]


def random_grid(seed: int, shape=(20, 24), wall_rate=0.3, **kwargs) -> GridMap:
    rng = np.random.default_rng(seed)
    return GridMap(rng.random(shape) < wall_rate, **kwargs)


def scipy_costs(grid: GridMap, source: int) -> np.ndarray:
    return csgraph.dijkstra(grid.to_navgraph().to_scipy(), indices=source)


def lattice_maze(seed: int, cells_w: int = 12, cells_h: int = 9, extra: int = 15) -> list[str]:
    """A random maze with walls on even coordinates, plus some loops (not from the project)."""
    rng = np.random.default_rng(seed)
    w, h = 2 * cells_w + 1, 2 * cells_h + 1
    lab = np.ones((h, w), dtype=bool)
    seen = np.zeros((cells_h, cells_w), dtype=bool)
    stack = [(0, 0)]
    seen[0, 0] = True
    lab[1, 1] = False
    while stack:
        cx, cy = stack[-1]
        options = [
            (cx + dx, cy + dy, dx, dy)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= cx + dx < cells_w and 0 <= cy + dy < cells_h and not seen[cy + dy, cx + dx]
        ]
        if not options:
            stack.pop()
            continue
        nx, ny, dx, dy = options[rng.integers(len(options))]
        seen[ny, nx] = True
        lab[2 * ny + 1, 2 * nx + 1] = False
        lab[2 * cy + 1 + dy, 2 * cx + 1 + dx] = False
        stack.append((nx, ny))
    opened = 0
    while opened < extra:
        x, y = int(rng.integers(1, w - 1)), int(rng.integers(1, h - 1))
        if x % 2 != y % 2 and lab[y, x]:
            lab[y, x] = False
            opened += 1
    return ["".join("@" if b else "." for b in row) for row in lab]


def bfs_steps(rows: list[str], goal: tuple[int, int]) -> dict[tuple[int, int], int]:
    """Steps from every free cell to ``goal`` (4-connected), by a plain queue over the text."""
    dist = {goal: 0}
    queue = collections.deque([goal])
    while queue:
        x, y = queue.popleft()
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            nx, ny = x + dx, y + dy
            if 0 <= ny < len(rows) and 0 <= nx < len(rows[0]) and rows[ny][nx] != "@" and (nx, ny) not in dist:
                dist[(nx, ny)] = dist[(x, y)] + 1
                queue.append((nx, ny))
    return dist


# -- paths ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("search", SEARCHES)
def test_open_grid_octile(search):
    grid = GridMap(np.zeros((6, 9), dtype=bool), cell_size=2.0, origin=(10, 20))
    s, t = grid.cell_id(0, 5), grid.cell_id(8, 1)
    path = search(grid, s, t)
    assert isinstance(path, Path) and not path.partial
    assert path.cost == pytest.approx(2.0 * (4 + 4 * SQRT2))
    assert path.nodes[0] == s and path.nodes[-1] == t
    assert path.points.tolist() == grid.cell_center(path.nodes).tolist()
    steps = np.abs(np.diff(grid.col_row(path.nodes), axis=0))
    assert steps.max() == 1  # every consecutive pair is one step apart (JPS fills its runs)
    assert path.expansions > 0


@pytest.mark.parametrize("search", SEARCHES)
def test_start_is_goal(search):
    grid = GridMap(np.zeros((3, 3), dtype=bool))
    path = search(grid, 4, 4)
    assert path.nodes.tolist() == [4] and path.cost == 0.0


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("seed", range(6))
def test_costs_match_scipy(search, seed):
    grid = random_grid(seed)
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    rng = np.random.default_rng(100 + seed)
    source = int(rng.choice(free))
    dist = scipy_costs(grid, source)
    for t in rng.choice(free, 25):
        if np.isfinite(dist[t]):
            path = search(grid, source, int(t))
            assert path.cost == pytest.approx(dist[t], rel=1e-12, abs=1e-12)
            edges = grid.to_navgraph()
            assert all(int(b) in edges.neighbors(int(a)).tolist() for a, b in zip(path.nodes[:-1], path.nodes[1:]))
        else:
            with pytest.raises(NoPathError, match="cannot be reached"):
                search(grid, source, int(t))


@pytest.mark.parametrize(
    "options",
    [
        {"connectivity": 4},
        {"diagonal": "one_blocked"},
        {"diagonal": "always"},
        {"wrap": "both"},
        {"wrap": "x", "diagonal": "always"},
    ],
)
def test_weighted_rules_match_scipy(options):
    rng = np.random.default_rng(7)
    cells = rng.choice([0.5, 1.0, 2.0, 5.0, np.inf], size=(14, 17), p=[0.2, 0.4, 0.1, 0.1, 0.2])
    grid = GridMap(cells, cell_size=1.5, **options)
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    for source in rng.choice(free, 4):
        dist = scipy_costs(grid, int(source))
        for t in rng.choice(free, 15):
            if np.isfinite(dist[t]):
                for search in (grid_astar, grid_dijkstra):
                    assert search(grid, int(source), int(t)).cost == pytest.approx(dist[t], rel=1e-12)


def test_multipliers_change_the_route():
    #   road along the top row is cheap, the straight line through the middle is swamp
    cells = np.ones((3, 7))
    cells[0, :] = 0.25
    cells[1, 1:6] = 10.0
    grid = GridMap(cells, connectivity=4)
    path = grid_astar(grid, grid.cell_id(0, 1), grid.cell_id(6, 1))
    assert grid.col_row(path.nodes)[:, 1].min() == 0  # went up to the road
    assert path.cost == pytest.approx(dist := scipy_costs(grid, grid.cell_id(0, 1))[grid.cell_id(6, 1)])
    assert dist < 6 * 1.0


def test_errors_name_the_argument():
    grid = GridMap.from_strings(["..@", "..."])
    with pytest.raises(NodeNotFoundError, match=r"goal=2 .*blocked"):
        grid_astar(grid, 0, 2)
    with pytest.raises(NodeNotFoundError, match="start=6 is out of range"):
        grid_dijkstra(grid, 6, 0)
    with pytest.raises(NodeNotFoundError, match="start=1.0 is not a cell"):
        jump_point_search(grid, 1.0, 0)
    with pytest.raises(NodeNotFoundError, match="start=True"):
        grid_astar(grid, True, 0)
    with pytest.raises(InvalidOptionError, match="max_expansions=0"):
        grid_astar(grid, 0, 5, max_expansions=0)
    assert grid_astar(grid, np.int64(0), np.int32(5)).nodes[-1] == 5


@pytest.mark.parametrize("search", SEARCHES)
def test_unreachable_and_partial(search):
    grid = GridMap.from_strings(["....@..", "....@..", "....@.."])
    s, t = grid.cell_id(0, 1), grid.cell_id(6, 1)
    with pytest.raises(NoPathError, match=r"cell 13 \(col 6, row 1\) cannot be reached from cell 7"):
        search(grid, s, t)
    path = search(grid, s, t, allow_partial=True)
    assert path.partial and path.nodes[0] == s
    if search is jump_point_search:
        # only jump points are expanded: here the start is the only one
        assert path.nodes.tolist() == [s] and path.cost == 0.0
    else:
        assert grid.col_row(path.nodes[-1]).tolist() == [3, 1]  # next to the wall, level with the goal
        assert path.cost == pytest.approx(3.0)


@pytest.mark.parametrize("search", SEARCHES)
def test_budget(search):
    grid = GridMap.from_strings(lattice_maze(0))
    s, t = grid.cell_id(1, 1), grid.cell_id(grid.width - 2, grid.height - 2)
    with pytest.raises(SearchBudgetError, match="max_expansions=1"):
        search(grid, s, t, max_expansions=1)
    partial = search(grid, s, t, max_expansions=1, allow_partial=True)
    assert partial.partial and partial.expansions == 1
    assert not search(grid, s, t, max_expansions=100_000).partial


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"connectivity": 4}, "connectivity=8"),
        ({"diagonal": "always"}, "no_corner_cutting"),
        ({"wrap": "x"}, "wrap='none'"),
    ],
)
def test_jps_refuses_maps_it_cannot_solve(options, pattern):
    grid = GridMap(np.zeros((4, 4), dtype=bool), **options)
    with pytest.raises(InvalidOptionError, match=pattern):
        jump_point_search(grid, 0, 15)


def test_jps_refuses_mixed_costs_and_regions():
    with pytest.raises(InvalidOptionError, match="one cost multiplier"):
        jump_point_search(GridMap(np.array([[1.0, 2.0], [1.0, 1.0]])), 0, 3)
    with pytest.raises(InvalidOptionError, match="single region"):
        jump_point_search(GridMap.from_strings(["..W", "..W"]), 0, 1)
    scaled = GridMap(np.full((5, 5), 3.0), cell_size=2.0)  # one constant multiplier is fine
    assert jump_point_search(scaled, 0, 24).cost == pytest.approx(6.0 * 4 * SQRT2)


def test_repeated_queries_reuse_buffers_correctly():
    grid = random_grid(3, shape=(30, 30), wall_rate=0.2)
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    rng = np.random.default_rng(5)
    pairs = [tuple(int(x) for x in rng.choice(free, 2)) for _ in range(40)]
    first = [grid_astar(grid, s, t, allow_partial=True).cost for s, t in pairs]
    again = [grid_astar(grid, s, t, allow_partial=True).cost for s, t in pairs]
    assert first == again


# -- first steps ----------------------------------------------------------------------------------
def test_first_step_prefers_up_right_down_left():
    grid = GridMap.from_strings(["...", "...", "..."], connectivity=4)
    centre = 4
    # goal at a corner: two equally short first steps; up beats left, right beats down
    assert first_step(grid, centre, 0) == 1
    assert first_step(grid, centre, 8) == 5
    assert first_step(grid, centre, 6) == 7
    assert first_step(grid, centre, centre) == centre


@pytest.mark.parametrize("seed", range(4))
def test_first_step_is_one_step_closer(seed):
    rows = lattice_maze(seed)
    grid = GridMap.from_strings(rows, connectivity=4)
    free = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "."]
    rng = np.random.default_rng(seed)
    for k in rng.choice(len(free), 12, replace=False):
        goal = free[k]
        dist = bfs_steps(rows, goal)
        for j in rng.choice(len(free), 20):
            start = free[j]
            nxt = first_step(grid, grid.cell_id(*start), grid.cell_id(*goal))
            col, row = (int(v) for v in grid.col_row(nxt))
            if start == goal:
                assert (col, row) == start
            else:
                assert abs(col - start[0]) + abs(row - start[1]) == 1
                assert dist[(col, row)] == dist[start] - 1


@pytest.mark.parametrize("seed", range(4))
def test_two_step_gives_the_same_answers(seed):
    rows = lattice_maze(seed + 10)
    grid = GridMap.from_strings(rows, connectivity=4)
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    rng = np.random.default_rng(seed)
    starts = rng.choice(free, 300)
    goals = rng.choice(free, 300)
    plain = [first_step(grid, int(s), int(t)) for s, t in zip(starts, goals)]
    hopped = [first_step(grid, int(s), int(t), two_step=True) for s, t in zip(starts, goals)]
    assert plain == hopped
    assert first_steps(grid, starts, goals).tolist() == plain
    assert first_steps(grid, starts, goals, two_step=True).tolist() == plain


def test_two_step_needs_a_lattice_maze():
    grid = GridMap.from_strings(["....", "....", "...."], connectivity=4)
    with pytest.raises(InvalidOptionError, match="lattice maze"):
        first_step(grid, 0, 5, two_step=True)
    with pytest.raises(InvalidOptionError, match="lattice maze"):
        first_steps(grid, [0], [5], two_step=True)
    tunnel = GridMap.from_strings(lattice_maze(1), connectivity=4, wrap="x")
    with pytest.raises(InvalidOptionError, match="lattice maze"):
        first_step(tunnel, tunnel.cell_id(1, 1), tunnel.cell_id(3, 1), two_step=True)


def test_first_step_unreachable():
    grid = GridMap.from_strings(["..@..", "..@.."], connectivity=4)
    with pytest.raises(NoPathError, match="first_step"):
        first_step(grid, 0, 4)
    assert first_steps(grid, [0, 0, 4], [4, 1, 3]).tolist() == [-1, 1, 3]
    with pytest.raises(NodeNotFoundError, match=r"goals\[0\]=2 is a blocked cell"):
        first_steps(grid, [0], [2])
    with pytest.raises(NodeNotFoundError, match="one goal per start"):
        first_steps(grid, [0, 1], [3])
    assert first_steps(grid, [], []).tolist() == []


def test_first_step_follows_costs_on_weighted_and_diagonal_maps():
    cells = np.ones((3, 5))
    cells[1, 1:4] = 9.0  # swamp in the middle row
    grid = GridMap(cells, connectivity=4)
    s, t = grid.cell_id(0, 1), grid.cell_id(4, 1)
    nxt = first_step(grid, s, t)
    assert nxt in (grid.cell_id(0, 0), grid.cell_id(0, 2))
    assert first_steps(grid, [s], [t]).tolist() == [nxt]
    diag = GridMap(np.zeros((5, 5), dtype=bool))
    assert first_step(diag, 0, 24) == 6
    assert first_steps(diag, [0, 24], [24, 24]).tolist() == [6, 24]


def test_first_step_through_a_tunnel():
    rows = ["@@@@@@@", "...@...", "@@@@@@@"]
    grid = GridMap.from_strings(rows, connectivity=4, wrap="x")
    s, t = grid.cell_id(1, 1), grid.cell_id(5, 1)
    assert first_step(grid, s, t) == grid.cell_id(0, 1)
    assert first_steps(grid, [s], [t]).tolist() == [grid.cell_id(0, 1)]


# -- the FatCat anchor ----------------------------------------------------------------------------
@pytest.mark.skipif(not (FATCAT / "queries.txt").exists(), reason="../shared/anchors/fatcat is absent")
def test_fatcat_queries_agree_with_an_independent_bfs():
    text = (FATCAT / "maze.map").read_text().splitlines()
    height, width = int(text[1].split()[1]), int(text[2].split()[1])
    rows = [ln.rstrip("\r") for ln in text[4 : 4 + height]]
    assert len(rows[0]) == width
    grid = GridMap.from_movingai(FATCAT / "maze.map", connectivity=4)
    queries = np.loadtxt(FATCAT / "queries.txt", dtype=np.int64, max_rows=100_000)
    sample = queries[:: max(1, len(queries) // 2000)]
    starts = grid.cell_id(sample[:, 0], sample[:, 1])
    goals = grid.cell_id(sample[:, 2], sample[:, 3])
    batched = first_steps(grid, starts, goals)
    hopped = first_steps(grid, starts, goals, two_step=True)
    dist_cache: dict[tuple[int, int], dict] = {}
    for (cx, cy, mx, my), s, t, b, h in zip(sample.tolist(), starts, goals, batched, hopped):
        nxt = first_step(grid, int(s), int(t))
        assert nxt == b == h == first_step(grid, int(s), int(t), two_step=True)
        dist = dist_cache.setdefault((mx, my), bfs_steps(rows, (mx, my)))
        col, row = (int(v) for v in grid.col_row(nxt))
        assert abs(col - cx) + abs(row - cy) == 1
        assert dist[(col, row)] == dist[(cx, cy)] - 1


# -- plain Python kernels ---------------------------------------------------------------------------
def test_kernels_run_without_jit():
    code = textwrap.dedent(
        """
        import numpy as np
        from navmesh.grid import GridMap
        from navmesh.grid.search import grid_astar, jump_point_search, first_step, first_steps
        from navmesh.grid.flowfield import FlowField
        grid = GridMap.from_strings(["@@@@@@@", "@.....@", "@.@.@.@", "@.....@", "@@@@@@@"])
        assert abs(grid_astar(grid, 8, 26).cost - jump_point_search(grid, 8, 26).cost) < 1e-12
        maze = GridMap.from_strings(["@@@@@@@", "@.....@", "@.@@@.@", "@.....@", "@@@@@@@"], connectivity=4)
        assert first_step(maze, 8, 26, two_step=True) == first_step(maze, 8, 26) == 9
        assert first_steps(maze, [8, 8], [26, 12]).tolist() == [9, 9]
        assert FlowField(grid, 26).path_from(8).cost == grid_astar(grid, 8, 26).cost
        assert first_steps(grid, [8, 26], [26, 26]).tolist() == [first_step(grid, 8, 26), 26]
        print("ok")
        """
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# -- the endpoint policy of find_path ----------------------------------------------------------
def test_find_path_moves_a_blocked_start_or_goal_and_says_so():
    grid = GridMap.from_strings(["....", ".@@.", "...."], cell_size=2.0)
    wall = (3.0, 3.0)  # world position inside cell (col 1, row 1)
    path = grid.find_path(wall, (7.0, 1.0))
    assert path.start_moved and not path.goal_moved
    assert grid.is_passable(int(path.nodes[0]))
    assert np.hypot(*(path.points[0] - wall)) == pytest.approx(2.0)  # the nearest centre, one cell over
    same = find_path(grid, int(path.nodes[0]), (7.0, 1.0))
    assert path.cost == same.cost
    by_id = grid.find_path(grid.cell_id(2, 1), 0)  # a blocked cell id moves too
    assert by_id.start_moved and grid.is_passable(int(by_id.nodes[0]))
    assert not grid.find_path(0, 11).start_moved


def test_find_path_strict_names_the_cell_why_and_how_far():
    grid = GridMap.from_strings(["....", ".@@.", "...."], cell_size=2.0)
    with pytest.raises(NodeNotFoundError, match=r"goal=\(3.0, 3.0\) is in cell 5 \(col 1, row 1\), a blocked cell "
                                                 r"\(a wall, or a cell closed .* agent radius.*\); the nearest passable "
                                                 r"cell, \d+, is 2 world units away"):
        grid.find_path(0, (3.0, 3.0), strict=True)
    with pytest.raises(NodeNotFoundError, match="start=5"):
        find_path(grid, 5, 0, strict=True)
    with pytest.raises(NodeNotFoundError, match="blocked cell .a wall, or a cell closed"):
        grid_astar(grid, 5, 0)  # the individual searches take passable cells only


def test_find_path_positions_outside_the_grid():
    grid = GridMap.from_strings(["....", "....", "...."], cell_size=2.0)
    with pytest.raises(NodeNotFoundError, match=r"goal=\[-50000.0, 3.0\] lies 50000 world units outside the grid"):
        grid.find_path(0, (-50000.0, 3.0))
    edge = grid.find_path((8.0 + 1e-12, 6.0), 0)  # within the tolerance: the corner cell
    assert not edge.start_moved and int(edge.nodes[0]) == grid.cell_id(3, 0)
    near = grid.find_path((8.3, 3.0), 0)  # within BOUNDS_MARGIN (5% of 8): the nearest cell, moved
    assert near.start_moved and int(near.nodes[0]) == grid.cell_id(3, 1)
    with pytest.raises(NodeNotFoundError, match="lies 0.3 world units outside the grid"):
        grid.find_path((8.3, 3.0), 0, strict=True)
    with pytest.raises(NodeNotFoundError, match="at most BOUNDS_MARGIN x the grid's size = 0.4 outside"):
        grid.find_path((8.5, 3.0), 0)


def test_find_path_on_an_all_wall_grid_says_so():
    grid = GridMap.from_strings(["@@", "@@"])
    with pytest.raises(NodeNotFoundError, match="no passable cell"):
        grid.find_path(0, 3)
