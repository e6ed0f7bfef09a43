"""Searches on a :class:`~navmesh.grid.GridMap`: octile A*, Dijkstra, Jump Point Search, maze BFS.

The grid is searched in place by numba kernels (:mod:`navmesh._kernels.grid`); no graph is built.
Start and goal are flat cell ids, (col, row) pairs of integers or (x, y) world positions (see
:mod:`navmesh.grid.endpoints`). :func:`find_path` (also :meth:`GridMap.find_path`) picks the
fastest exact search for the map; the individual searches stay available. Results
are the same :class:`~navmesh.path.Path` the graph searches return: ``nodes`` are cell ids,
``points`` the cell centres in world coordinates, ``cost`` the total step cost (see
:mod:`navmesh.grid`: length in world units times the mean multiplier of the two cells). On maps
with wrap-around a path through a border jumps from one side of the map to the other between two
consecutive points (so ``Path.length`` counts that jump; ``cost`` does not).

Unreachable goals raise :class:`~navmesh.errors.NoPathError` unless ``allow_partial=True``, which
returns a partial path to the expanded cell nearest the goal (straight-line distance). A spent
``max_expansions`` budget raises :class:`~navmesh.errors.SearchBudgetError` unless
``allow_partial=True``. Every search keeps its state in buffers it owns for the duration of the
call, so one grid serves many searches and threads at once (the kernels release the GIL).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import check_positive_int
from navmesh._kernels import grid as K
from navmesh._kernels import grid_jps as K_J
from navmesh._kernels import grid_maze as K_M
from navmesh._kernels import targets as K_T
from navmesh._kernels.status import BUDGET, FOUND
from navmesh.errors import (
    InvalidOptionError,
    NodeNotFoundError,
    NoPathError,
    SearchBudgetError,
)
from navmesh.grid.endpoints import cell_pair, cells_of, resolve
from navmesh.path import Path

if TYPE_CHECKING:  # the map imports this module for GridMap.find_path
    from navmesh.grid.map import GridMap

__all__ = ["find_path", "first_step", "first_steps", "grid_astar", "grid_dijkstra", "jps_plus", "jump_point_search"]


def _where(grid: GridMap, cell: int) -> str:
    return f"cell {cell} (col {cell % grid.width}, row {cell // grid.width})"


def _finish(
    grid: GridMap,
    kind: str,
    start: int,
    goal: int,
    status: int,
    nodes: NDArray[np.int32],
    points: NDArray[np.float64],
    cost: float,
    expansions: int,
    allow_partial: bool,
) -> Path:
    if status == FOUND:
        return Path(nodes, points, cost, expansions, False)
    if allow_partial:
        return Path(nodes, points, cost, expansions, True)
    if status == BUDGET:
        raise SearchBudgetError(
            f"{kind}: spent max_expansions={expansions} before reaching {_where(grid, goal)} from "
            f"{_where(grid, start)}; raise max_expansions or pass allow_partial=True"
        )
    raise NoPathError(f"{kind}: {_where(grid, goal)} cannot be reached from {_where(grid, start)}")


def _best_first(
    grid: GridMap, kind: str, start: Any, goal: Any, hscale: float, max_expansions: Any, allow_partial: bool,
    cells: tuple[int, int] | None = None,
) -> Path:
    s, t = cells if cells is not None else cell_pair(grid, start, goal)
    budget = 0 if max_expansions is None else check_positive_int("max_expansions", max_expansions)
    a = grid.arrays
    ws = a.workspaces.borrow(a.n_cells)
    try:
        status, nodes, points, cost, expansions = K.astar(
            a.moves, a.half_cost, a.height, a.width, a.wrap, a.uniform, s, t, hscale, budget,
            ws.g, ws.stamp, ws.gen, ws.parent, ws.heap, a.geo,
        )
    finally:
        a.workspaces.give_back(ws)
    return _finish(grid, kind, s, t, status, nodes, points, cost, expansions, allow_partial)


def grid_astar(
    grid: GridMap,
    start: int,
    goal: int,
    *,
    max_expansions: int | None = None,
    allow_partial: bool = False,
) -> Path:
    """Least-cost path between two cells by A* with the octile heuristic.

    The heuristic is the octile distance (wrap-aware) times the cell size times the smallest
    multiplier on the map, so it never overestimates and the returned path is optimal for any
    multipliers, diagonal rule, regions and wrap-around. Among equal estimates the search expands
    the cell deepest along its path first.

    Parameters
    ----------
    grid : GridMap
        The map.
    start, goal : int, (col, row) or (x, y)
        Passable cells: flat ids (``row * width + col``), (col, row) integer pairs or world
        positions (see :mod:`navmesh.grid.endpoints`).
    max_expansions : int, optional
        Stop after expanding this many cells (>= 1). Default: no limit.
    allow_partial : bool
        Return a partial path (``partial=True``) to the expanded cell nearest the goal instead of
        raising when the goal is unreachable or the budget runs out.

    Returns
    -------
    Path
        ``nodes`` cell ids from start to goal, ``points`` their centres (world units), ``cost``
        in world units (on a cell-size-1 map with multipliers 1: the octile length),
        ``expansions`` cells expanded.

    Raises
    ------
    NodeNotFoundError
        ``start`` or ``goal`` is not a cell, lies outside the grid, or is a blocked cell.
    NoPathError
        The goal is unreachable (and ``allow_partial`` is False).
    SearchBudgetError
        ``max_expansions`` was spent first (and ``allow_partial`` is False).

    Examples
    --------
    >>> from navmesh.grid.map import GridMap
    >>> grid = GridMap.from_strings('''
    ... ....
    ... .@..
    ... ....''')
    >>> path = grid_astar(grid, grid.cell_id(0, 2), grid.cell_id(3, 0))
    >>> path.nodes.tolist(), round(path.cost, 4)   # the corner of the wall is not cut
    ([8, 9, 10, 7, 3], 4.4142)
    >>> path.points[0].tolist()                     # centre of (col 0, row 2), y up
    [0.5, 0.5]
    """
    return _best_first(grid, "grid_astar", start, goal, grid.arrays.hscale, max_expansions, allow_partial)


def grid_dijkstra(
    grid: GridMap,
    start: int,
    goal: int,
    *,
    max_expansions: int | None = None,
    allow_partial: bool = False,
) -> Path:
    """Least-cost path between two cells by Dijkstra's algorithm (A* without a heuristic).

    Same parameters, result and errors as :func:`grid_astar`; it expands every cell cheaper than
    the goal, so it is slower, and serves as a plain reference. Among equal costs the cell
    reached by the longest path is expanded first.

    Examples
    --------
    >>> from navmesh.grid.map import GridMap
    >>> grid = GridMap.from_strings(["...", "...", "..."], connectivity=4)
    >>> grid_dijkstra(grid, 0, 8).cost
    4.0
    """
    return _best_first(grid, "grid_dijkstra", start, goal, 0.0, max_expansions, allow_partial)


def jump_point_search(
    grid: GridMap,
    start: int,
    goal: int,
    *,
    max_expansions: int | None = None,
    allow_partial: bool = False,
) -> Path:
    """Least-cost path by Jump Point Search (Harabor and Grastien), the no-corner-cutting variant.

    JPS skips over runs of cells whose best paths are symmetric and expands only "jump points",
    giving the same optimal cost as :func:`grid_astar` with far fewer heap operations on open
    maps. It needs a map where every step costs its length times one constant: 8-connected,
    ``diagonal="no_corner_cutting"``, one multiplier for all passable cells, one region and no
    wrap-around. The returned path lists every cell (the straight runs between jump points are
    filled in); ``expansions`` counts jump points. Each scan is a lookup in the map's jump table
    (built on the first call and cached, as for :func:`jps_plus`), which gives exactly the
    successors of scanning the cells one by one; so this and :func:`jps_plus` are one search.

    Parameters
    ----------
    grid : GridMap
        The map (see the requirements above).
    start, goal : int
        Flat cell ids of passable cells.
    max_expansions : int, optional
        Stop after expanding this many jump points (>= 1). Default: no limit.
    allow_partial : bool
        Return a partial path to the expanded jump point nearest the goal instead of raising.

    Returns
    -------
    Path
        As for :func:`grid_astar`.

    Raises
    ------
    InvalidOptionError
        The map breaks one of the requirements above (use :func:`grid_astar` instead).
    NodeNotFoundError, NoPathError, SearchBudgetError
        As for :func:`grid_astar`.

    Examples
    --------
    >>> from navmesh.grid.map import GridMap
    >>> grid = GridMap.from_strings(["........", "...@@...", "........"])
    >>> path = jump_point_search(grid, grid.cell_id(0, 1), grid.cell_id(7, 1))
    >>> round(path.cost, 4), len(path.nodes)
    (7.8284, 8)
    """
    return _jump_search(grid, "jump_point_search", start, goal, max_expansions, allow_partial)


def jps_plus(
    grid: GridMap,
    start: Any,
    goal: Any,
    *,
    max_expansions: int | None = None,
    allow_partial: bool = False,
) -> Path:
    """Jump Point Search over the map's precomputed jump table (JPS+): same paths, no scanning.

    Builds the table on first use (:meth:`GridMap.preprocess`, cached on the map); the same
    search as :func:`jump_point_search` (kept under both names). Same parameters, requirements,
    result and errors as :func:`jump_point_search`.

    Examples
    --------
    >>> from navmesh.grid.map import GridMap
    >>> grid = GridMap.from_strings(["........", "...@@...", "........"])
    >>> path = jps_plus(grid, (0, 1), (7, 1))          # (col, row) cells
    >>> path.nodes.tolist() == jump_point_search(grid, (0, 1), (7, 1)).nodes.tolist()
    True
    """
    return _jump_search(grid, "jps_plus", start, goal, max_expansions, allow_partial)


def _jump_search(
    grid: GridMap, kind: str, start: Any, goal: Any, max_expansions: Any, allow_partial: bool,
    cells: tuple[int, int] | None = None,
) -> Path:
    a = grid.arrays
    if a.jps_problem:
        raise InvalidOptionError(f"{kind} needs {a.jps_problem}; use grid_astar on this map")
    s, t = cells if cells is not None else cell_pair(grid, start, goal)
    budget = 0 if max_expansions is None else check_positive_int("max_expansions", max_expansions)
    jumps = grid.preprocess().table
    free = a.padded_free
    w = a.width
    pw = w + 2
    ps = (s // w + 1) * pw + s % w + 1
    pt = (t // w + 1) * pw + t % w + 1
    ws = a.workspaces.borrow(len(free))
    try:
        status, nodes, points, cost, expansions = K_J.jps(
            free, jumps, a.height + 2, pw, w, ps, pt, a.hscale, budget, ws.g, ws.stamp, ws.gen, ws.parent, ws.heap,
            a.geo,
        )
    finally:
        a.workspaces.give_back(ws)
    return _finish(grid, kind, s, t, status, nodes, points, cost, expansions, allow_partial)


def find_path(
    grid: GridMap,
    start: Any,
    goal: Any,
    *,
    max_expansions: int | None = None,
    allow_partial: bool = False,
    strict: bool = False,
) -> Path:
    """Least-cost path between two cells by the fastest exact search for the map.

    On maps that meet Jump Point Search's requirements (8-connected, no corner cutting, one
    multiplier, one region, no wrap-around) the first call builds the map's jump table
    (:meth:`GridMap.preprocess`, cached on the map), which also measures how far jumps go, and
    the search is the one its :attr:`~navmesh.grid.JumpTable.method` names: :func:`jps_plus` on
    maps of rooms, corridors, cities or dense obstacles, :func:`grid_astar` on open maps
    sprinkled with a few small obstacles, where JPS barely jumps (see
    :mod:`navmesh.grid.preprocess`). On every other map it is :func:`grid_astar`. Either way the
    cost is optimal. Same parameters, result and errors as
    :func:`grid_astar`; ``expansions`` counts what the chosen search expands (jump points or
    cells).

    Unlike the individual searches, a start or goal in a blocked cell is not an error: it moves
    to the nearest passable cell and the path says so (``start_moved`` / ``goal_moved``), the
    library's one endpoint policy (see :mod:`navmesh.grid.endpoints`). With ``strict=True`` a
    blocked start or goal raises :class:`~navmesh.errors.NodeNotFoundError` instead.

    Examples
    --------
    >>> from navmesh.grid.map import GridMap
    >>> grid = GridMap.from_strings(["....", ".@..", "...."], cell_size=2.0)
    >>> path = find_path(grid, (0, 2), (3, 0))
    >>> round(path.cost, 4), path.nodes.tolist()[0], path.nodes.tolist()[-1]
    (8.8284, 8, 3)
    >>> find_path(grid, (0.5, 0.5), (7.5, 5.5)).cost == path.cost    # world positions
    True
    >>> moved = find_path(grid, (0.5, 0.5), (3.0, 3.0))              # the goal is in the wall
    >>> moved.goal_moved, moved.points[-1].tolist()
    (True, [1.0, 3.0])
    """
    if not isinstance(strict, (bool, np.bool_)):
        raise InvalidOptionError(f"strict={strict!r} is not valid; expected True or False")
    s, s_moved = resolve(grid, "start", start, strict=bool(strict))
    t, t_moved = resolve(grid, "goal", goal, strict=bool(strict))
    if grid.arrays.jps_problem or grid.preprocess().method == "astar":
        path = _best_first(grid, "find_path", start, goal, grid.arrays.hscale, max_expansions, allow_partial, (s, t))
    else:
        path = _jump_search(grid, "find_path", start, goal, max_expansions, allow_partial, (s, t))
    if s_moved or t_moved:
        path = Path(path.nodes, path.points, path.cost, path.expansions, path.partial, s_moved, t_moved)
    return path


def _lattice_or_raise(grid: GridMap) -> NDArray[np.uint8]:
    junction = grid.arrays.lattice
    if junction is None:
        raise InvalidOptionError(
            "two_step=True needs a lattice maze: odd height and width, walls on the border and on every "
            "cell with even row and even column, free cells on every odd/odd cell, unit-cost steps along "
            "rows and columns only, no wrap-around; this map is not one, use two_step=False"
        )
    return junction


def first_step(grid: GridMap, start: Any, goal: Any, *, two_step: bool = False) -> int:
    """The next cell to step to from ``start`` on a least-cost path to ``goal``.

    This is the chaser's search of a maze game: re-run it every time the target moves and take
    one step. On maps where every step costs the same (one multiplier, no diagonal steps, as in a
    classic 4-connected maze) the answer is that of a breadth-first search from ``start`` trying
    directions in the order up, right, down, left, so among equally short paths the first found
    in that order wins. Many chasers sharing a target share the work: the map's
    :attr:`GridMap.first_step_cache` keeps one backward search per target (built the second time
    a target is asked for, bounded in memory) and answers every later query by a lookup, with
    identical answers. On other maps it runs :func:`grid_astar` and returns the path's second cell.

    Parameters
    ----------
    grid : GridMap
        The map.
    start, goal : int, (col, row) or (x, y)
        Passable cells (see :mod:`navmesh.grid.endpoints`).
    two_step : bool
        The speed-up for lattice mazes (walls on all even/even cells, as in the FatCat game) when
        the forward search runs: search only the junction cells (odd row, odd column), two cells
        per hop, while still checking the cell in between for the goal. Same answers.

    Returns
    -------
    int
        The cell id of the first step; ``start`` itself when ``start == goal``.

    Raises
    ------
    NodeNotFoundError
        ``start`` or ``goal`` is not a cell, lies outside the grid, or is a blocked cell.
    NoPathError
        The goal is unreachable.
    InvalidOptionError
        ``two_step=True`` on a map that is not a lattice maze.

    Examples
    --------
    >>> from navmesh.grid.map import GridMap
    >>> maze = GridMap.from_strings('''
    ... @@@@@@@
    ... @.....@
    ... @.@@@.@
    ... @.....@
    ... @@@@@@@''', connectivity=4)
    >>> step = first_step(maze, (1, 1), (5, 3))      # cat at (col 1, row 1), mouse at (5, 3)
    >>> maze.col_row(step).tolist()                   # right first: ties go to up, right, down, left
    [2, 1]
    >>> first_step(maze, (1, 1), (5, 3), two_step=True) == step
    True
    """
    s, t = cell_pair(grid, start, goal)
    a = grid.arrays
    if two_step and a.lattice is None:
        _lattice_or_raise(grid)
    if s == t:
        return s
    if a.unit_steps:
        nxt = a.target_fields.step(s, t)
        if nxt is None:
            nxt = _first_step_forward(a, s, t, two_step)
    else:
        path = _best_first(grid, "first_step", s, t, a.hscale, None, False)
        nxt = int(path.nodes[1])
    if nxt < 0:
        raise NoPathError(f"first_step: {_where(grid, t)} cannot be reached from {_where(grid, s)}")
    return nxt


def _first_step_forward(a: Any, s: int, t: int, two_step: bool) -> int:
    """The forward breadth-first search of :func:`first_step` on a unit-step map."""
    hop = bool(two_step and a.lattice[s])
    return int(K_M.first_step_bfs(a.moves, a.height, a.width, a.wrap_r or a.wrap_c, hop, s, t))


def first_steps(grid: GridMap, starts: ArrayLike, goals: ArrayLike, *, two_step: bool = False) -> NDArray[np.int32]:
    """:func:`first_step` for many (start, goal) pairs in one call, spread over the CPU cores.

    On maps where every step costs the same, the pairs are grouped by goal: a goal with a cached
    field (see :attr:`GridMap.first_step_cache`) is a lookup per pair, a goal asked by several
    pairs gets one backward search shared by them all, a goal asked once the forward search.
    Answers are identical to :func:`first_step` pair by pair.

    Parameters
    ----------
    grid : GridMap
        The map.
    starts, goals : int array of shape (k,), int array (k, 2) of (col, row), or float array (k, 2)
        Passable cells (see :mod:`navmesh.grid.endpoints`); pair ``i`` is ``(starts[i], goals[i])``.
    two_step : bool
        Validated as for :func:`first_step` (the answers do not depend on it).

    Returns
    -------
    int32 array of shape (k,)
        The first step of each pair; the start itself where start == goal, and ``-1``
        (``NO_NODE``) where the goal is unreachable (no error, so one cut-off unit does not fail
        the whole batch).

    Raises
    ------
    NodeNotFoundError
        A cell is out of range or blocked; ``starts`` and ``goals`` differ in length.
    InvalidOptionError
        ``two_step=True`` on a map that is not a lattice maze.

    Examples
    --------
    >>> from navmesh.grid.map import GridMap
    >>> grid = GridMap.from_strings(["....", ".@@.", "...."], connectivity=4)
    >>> first_steps(grid, [0, 0, 11], [3, 0, 8]).tolist()    # pairs (0, 3), (0, 0), (11, 8)
    [1, 0, 10]
    """
    s = cells_of(grid, "starts", starts)
    t = cells_of(grid, "goals", goals)
    if s.shape != t.shape:
        raise NodeNotFoundError(f"starts has {len(s)} cells and goals {len(t)}; expected one goal per start")
    if two_step:
        _lattice_or_raise(grid)
    if len(s) == 0:
        return np.zeros(0, dtype=np.int32)
    a = grid.arrays
    if not a.unit_steps:
        return K.first_steps_astar(
            a.moves, a.half_cost, a.height, a.width, a.wrap, a.uniform, s, t, a.hscale
        )
    out = np.empty(len(s), dtype=np.int32)
    order, bounds, group_goals = K_T.group_by_goal(t, a.n_cells)
    group_field = np.full(len(group_goals), -1, dtype=np.int64)
    cache = a.target_fields
    fields = [cache.build(g) for g in group_goals.tolist() if g in cache] if len(cache) else []
    if fields:
        group_field[[k for k, g in enumerate(group_goals.tolist()) if g in cache]] = np.arange(len(fields))
    table = np.stack(fields) if fields else np.zeros((0, 0), dtype=np.int32)
    # Threads pay off once the backward searches outweigh starting them.
    kernel = K_T.first_steps_grouped_parallel if len(group_goals) * a.n_cells > _PARALLEL_WORK else K_T.first_steps_grouped
    kernel(a.moves, a.height, a.width, a.wrap_r or a.wrap_c, s, order, bounds, group_goals, group_field, table, out)
    return out


_PARALLEL_WORK = 4_000_000
