"""Searches on a :class:`~navmesh.grid.GridMap`: octile A*, Dijkstra, Jump Point Search, maze BFS.

The grid is searched in place by numba kernels (:mod:`navmesh._kernels.grid`); no graph is built.
Start and goal are flat cell ids (``grid.cell_id(col, row)``, ``grid.cell_at(point)``). Results
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

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import as_array, check_positive_int
from navmesh._kernels import grid as K
from navmesh.errors import (
    InvalidOptionError,
    NodeNotFoundError,
    NoPathError,
    SearchBudgetError,
    describe,
)
from navmesh.grid.map import GridMap
from navmesh.path import Path

__all__ = ["grid_astar", "grid_dijkstra", "jump_point_search", "first_step", "first_steps"]


def _cell(grid: GridMap, name: str, cell: Any) -> int:
    """Validate one cell id: an integer in range on a passable cell."""
    if type(cell) is not int:
        if isinstance(cell, (bool, np.bool_)) or not isinstance(cell, (int, np.integer)):
            raise NodeNotFoundError(f"{name}={describe(cell)} is not a cell id; expected an integer")
        cell = int(cell)
    if not 0 <= cell < grid.n_cells:
        raise NodeNotFoundError(f"{name}={cell} is out of range; cell ids run 0..{grid.n_cells - 1}")
    if grid._blocked_bytes[cell]:
        col_row = (cell % grid.width, cell // grid.width)
        raise NodeNotFoundError(f"{name}={cell} (col, row)={col_row} is a blocked cell")
    return cell


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
    if status == K.FOUND:
        return Path(nodes, points, cost, expansions, False)
    if allow_partial:
        return Path(nodes, points, cost, expansions, True)
    if status == K.BUDGET:
        raise SearchBudgetError(
            f"{kind}: spent max_expansions={expansions} before reaching {_where(grid, goal)} from "
            f"{_where(grid, start)}; raise max_expansions or pass allow_partial=True"
        )
    raise NoPathError(f"{kind}: {_where(grid, goal)} cannot be reached from {_where(grid, start)}")


def _best_first(
    grid: GridMap, kind: str, start: Any, goal: Any, hscale: float, max_expansions: Any, allow_partial: bool
) -> Path:
    s = _cell(grid, "start", start)
    t = _cell(grid, "goal", goal)
    budget = -1 if max_expansions is None else check_positive_int("max_expansions", max_expansions)
    pool = grid._pool
    ws = grid._borrow(pool, grid.n_cells)
    try:
        status, nodes, points, cost, expansions = K.astar_path(
            grid._moves_flat, grid._half_cost, grid.height, grid.width, grid._wrap_r, grid._wrap_c,
            grid._uniform, s, t, hscale, budget, ws.stamp, ws.gen, ws.g, ws.parent, ws.heap_keys,
            ws.heap_nodes, grid._geo,
        )
    finally:
        ws.advance()
        pool.append(ws)
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
    start, goal : int
        Flat cell ids (``row * width + col``) of passable cells.
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
        ``start`` or ``goal`` is not a cell id, or is a blocked cell.
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
    hscale = grid.cell_size * grid.min_multiplier
    return _best_first(grid, "grid_astar", start, goal, hscale, max_expansions, allow_partial)


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
    filled in); ``expansions`` counts jump points.

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
    if "jps_ok" not in grid._lazy:
        grid._lazy["jps_ok"] = _jps_problem(grid)
    problem = grid._lazy["jps_ok"]
    if problem:
        raise InvalidOptionError(f"jump_point_search needs {problem}; use grid_astar on this map")
    s = _cell(grid, "start", start)
    t = _cell(grid, "goal", goal)
    budget = -1 if max_expansions is None else check_positive_int("max_expansions", max_expansions)
    free, ph, pw = grid._jps_arrays()
    w = grid.width
    ps = (s // w + 1) * pw + s % w + 1
    pt = (t // w + 1) * pw + t % w + 1
    pool = grid._jps_pool
    ws = grid._borrow(pool, ph * pw)
    try:
        status, nodes, points, cost, expansions = K.jps_path(
            free, ph, pw, w, ps, pt, grid.cell_size * grid.min_multiplier, budget,
            ws.stamp, ws.gen, ws.g, ws.parent, ws.heap_keys, ws.heap_nodes, grid._geo,
        )
    finally:
        ws.advance()
        pool.append(ws)
    return _finish(grid, "jump_point_search", s, t, status, nodes, points, cost, expansions, allow_partial)


def _jps_problem(grid: GridMap) -> str:
    """Why JPS cannot run on ``grid`` ("" when it can)."""
    if grid.connectivity != 8 or grid.diagonal != "no_corner_cutting":
        return (
            f"connectivity=8 and diagonal='no_corner_cutting' (the map has connectivity={grid.connectivity}, "
            f"diagonal={grid.diagonal!r})"
        )
    if grid.wrap != "none":
        return f"wrap='none' (the map has wrap={grid.wrap!r})"
    if not grid.uniform_cost:
        return "one cost multiplier for every passable cell (the map has several)"
    if np.unique(grid.regions[~grid.blocked]).size > 1:
        return "a single region (the map has several, e.g. water)"
    return ""


def _lattice_or_raise(grid: GridMap) -> NDArray[np.uint8]:
    junction = grid._lattice()
    if junction is None:
        raise InvalidOptionError(
            "two_step=True needs a lattice maze: odd height and width, walls on the border and on every "
            "cell with even row and even column, free cells on every odd/odd cell, unit-cost steps along "
            "rows and columns only, no wrap-around; this map is not one, use two_step=False"
        )
    return junction


def first_step(grid: GridMap, start: int, goal: int, *, two_step: bool = False) -> int:
    """The next cell to step to from ``start`` on a least-cost path to ``goal``.

    This is the chaser's search of a maze game: re-run it every time the target moves and take
    one step. Only the first step is computed, nothing is traced back. On maps where every step
    costs the same (one multiplier, no diagonal steps, as in a classic 4-connected maze) it is a
    breadth-first search from ``start``, trying directions in the order up, right, down, left,
    so among equally short paths the first found in that order wins. On other maps it runs
    :func:`grid_astar` and returns the path's second cell.

    Parameters
    ----------
    grid : GridMap
        The map.
    start, goal : int
        Flat cell ids of passable cells.
    two_step : bool
        The speed-up for lattice mazes (walls on all even/even cells, as in the FatCat game):
        search only the junction cells (odd row, odd column), two cells per hop, while still
        checking the cell in between for the goal. Gives the same answers as the plain search;
        when ``start`` is not a junction the plain search runs.

    Returns
    -------
    int
        The cell id of the first step; ``start`` itself when ``start == goal``.

    Raises
    ------
    NodeNotFoundError
        ``start`` or ``goal`` is not a cell id, or is a blocked cell.
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
    >>> cat, mouse = maze.cell_id(1, 1), maze.cell_id(5, 3)
    >>> step = first_step(maze, cat, mouse)
    >>> maze.col_row(step).tolist()       # right first: ties go to up, right, down, left
    [2, 1]
    >>> first_step(maze, cat, mouse, two_step=True) == step
    True
    """
    s = _cell(grid, "start", start)
    t = _cell(grid, "goal", goal)
    if s == t:
        return s
    if grid._unit_steps:
        if two_step:
            junction = _lattice_or_raise(grid)
            nxt = (
                K.first_step_hop(grid._moves_flat, grid.width, s, t)
                if junction[s]
                else K.first_step_bfs(grid._moves_flat, grid.width, s, t)
            )
        elif grid._wrap_r or grid._wrap_c:
            nxt = K.first_step_bfs_wrap(grid._moves_flat, grid.height, grid.width, s, t)
        else:
            nxt = K.first_step_bfs(grid._moves_flat, grid.width, s, t)
    else:
        if two_step:
            _lattice_or_raise(grid)
        path = _best_first(grid, "first_step", s, t, grid.cell_size * grid.min_multiplier, None, False)
        nxt = int(path.nodes[1])
    if nxt < 0:
        raise NoPathError(f"first_step: {_where(grid, t)} cannot be reached from {_where(grid, s)}")
    return nxt


def first_steps(grid: GridMap, starts: ArrayLike, goals: ArrayLike, *, two_step: bool = False) -> NDArray[np.int32]:
    """:func:`first_step` for many (start, goal) pairs in one call, spread over the CPU cores.

    Parameters
    ----------
    grid : GridMap
        The map.
    starts, goals : int arrays of shape (k,)
        Flat cell ids of passable cells; pair ``i`` is ``(starts[i], goals[i])``.
    two_step : bool
        As for :func:`first_step`.

    Returns
    -------
    int32 array of shape (k,)
        The first step of each pair; the start itself where start == goal, and ``-1``
        (``NO_NODE``) where the goal is unreachable (no error, so one cut-off unit does not fail
        the whole batch).

    Raises
    ------
    NodeNotFoundError
        An id is out of range or a blocked cell; ``starts`` and ``goals`` differ in length.
    InvalidOptionError
        ``two_step=True`` on a map that is not a lattice maze.

    Examples
    --------
    >>> from navmesh.grid.map import GridMap
    >>> grid = GridMap.from_strings(["....", ".@@.", "...."], connectivity=4)
    >>> first_steps(grid, [0, 0, 11], [3, 0, 8]).tolist()    # pairs (0, 3), (0, 0), (11, 8)
    [1, 0, 10]
    """
    s = _cells(grid, "starts", starts)
    t = _cells(grid, "goals", goals)
    if s.shape != t.shape:
        raise NodeNotFoundError(f"starts has {len(s)} cells and goals {len(t)}; expected one goal per start")
    if len(s) == 0:
        return np.zeros(0, dtype=np.int32)
    if grid._unit_steps:
        junction = _lattice_or_raise(grid) if two_step else np.zeros(0, dtype=np.uint8)
        return K.first_steps_bfs(
            grid._moves_flat, grid.height, grid.width, grid._wrap_r or grid._wrap_c, s, t, junction
        )
    if two_step:
        _lattice_or_raise(grid)
    return K.first_steps_astar(
        grid._moves_flat, grid._half_cost, grid.height, grid.width, grid._wrap_r, grid._wrap_c,
        grid._uniform, s, t, grid.cell_size * grid.min_multiplier,
    )


def _cells(grid: GridMap, name: str, cells: ArrayLike) -> NDArray[np.int64]:
    arr = as_array(name, cells, NodeNotFoundError)
    if arr.ndim != 1 or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
        raise NodeNotFoundError(f"{name}={describe(cells)} must be a 1-D array of cell ids")
    arr = arr.astype(np.int64)
    if arr.size:
        bad = (arr < 0) | (arr >= grid.n_cells)
        if bad.any():
            raise NodeNotFoundError(
                f"{name} holds {int(arr[bad][0])}, out of range; cell ids run 0..{grid.n_cells - 1}"
            )
        walls = grid._blocked_flat[arr]
        if walls.any():
            i = int(np.flatnonzero(walls)[0])
            raise NodeNotFoundError(f"{name}[{i}]={int(arr[i])} is a blocked cell")
    return arr
