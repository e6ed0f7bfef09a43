"""Endpoints of grid searches: flat cell ids, (col, row) cells or world positions, one rule.

Every grid search names its endpoints ``start`` and ``goal`` (batched: ``starts``, ``goals``)
and accepts any of three forms:

- a flat cell id: a Python or numpy integer, ``row * width + col``;
- a cell by column and row: a pair of integers ``(col, row)``;
- a world position: a pair ``(x, y)`` with at least one float (``(3.0, 4.0)``), resolved with
  :meth:`GridMap.cell_at`.

Batched forms are a 1-D integer array of ids, an (n, 2) integer array of (col, row) pairs, or an
(n, 2) float array of world positions.

Endpoints in a wall
-------------------
The individual searches (``grid_astar``, ``jump_point_search``, ...) take passable cells only
and raise :class:`~navmesh.errors.NodeNotFoundError` for a blocked one. :func:`find_path` (and
:meth:`GridMap.find_path`, ``walk_to`` on a grid) follow the library's one endpoint policy, the
same as :meth:`NavQuery.find_path <navmesh.waypoints.query.NavQuery.find_path>`: a start or goal
in a blocked cell moves to the passable cell whose centre is nearest and the path says so
(``start_moved`` / ``goal_moved``); ``strict=True`` raises instead, naming the cell and how far
the nearest passable one is. A world position outside the grid by at most
:data:`~navmesh.endpoints.ENDPOINT_TOLERANCE` times the grid's size counts as in its border cell;
one farther out, up to :data:`~navmesh.endpoints.BOUNDS_MARGIN` (5%) of the grid's size, moves
into the grid (``strict=True`` raises); one farther still raises either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import as_array
from navmesh.errors import NodeNotFoundError, describe
from navmesh.endpoints import BOUNDS_MARGIN, ENDPOINT_TOLERANCE, level_size

if TYPE_CHECKING:  # the map imports the searches, which import this module
    from navmesh.grid.map import GridMap

__all__ = ["cell_of", "cell_pair", "cells_of", "resolve"]

_WHY = ("a wall, or a cell closed when the walls were grown by an agent radius (a radius above half the cell "
        "size closes corridors one cell wide)")


def resolve(grid: GridMap, name: str, value: Any, *, strict: bool) -> tuple[int, bool]:
    """The cell a search starts or ends in under the endpoint policy (see the module notes).

    Returns
    -------
    (cell, moved) : (int, bool)
        A passable cell id, and whether it replaces a blocked one.

    Raises
    ------
    NodeNotFoundError
        ``value`` is not a cell, lies outside the grid (world positions: beyond the tolerance),
        the map has no passable cell, or ``strict`` and the cell is blocked.
    InvalidGeometryError
        A world position is not finite.
    """
    arr = None if isinstance(value, (int, np.integer)) else _floats(value)
    out = 0.0
    if arr is not None:
        s = grid.cell_size
        x0, y0 = grid.origin
        x1, y1 = x0 + grid.width * s, y0 + grid.height * s
        size = level_size((x0, y0, x1, y1))
        out = float(np.hypot(max(x0 - arr[0], 0.0, arr[0] - x1), max(y0 - arr[1], 0.0, arr[1] - y1)))
        if out > BOUNDS_MARGIN * size:
            raise NodeNotFoundError(
                f"{name}={arr.tolist()} lies {out:.6g} world units outside the grid (x in [{x0:g}, {x1:g}], "
                f"y in [{y0:g}, {y1:g}]); a start or goal may lie at most BOUNDS_MARGIN x the grid's size = "
                f"{BOUNDS_MARGIN * size:.6g} outside it"
            )
        inner = np.array([min(max(arr[0], x0), np.nextafter(x1, x0)), min(max(arr[1], y0), np.nextafter(y1, y0))])
        cell = int(grid.cell_at(inner))
        if out <= ENDPOINT_TOLERANCE * size:
            out = 0.0
    else:
        cell = cell_of(grid, name, value, allow_blocked=True)
    if not grid.arrays.blocked_bytes[cell] and out == 0.0:
        return cell, False
    if not grid.arrays.blocked_bytes[cell]:  # outside the grid, beside a passable border cell
        if strict:
            raise NodeNotFoundError(
                f"{name}={describe(value)} lies {out:.6g} world units outside the grid (pass strict=False to start "
                "from its nearest cell)"
            )
        return cell, True
    near = int(grid.arrays.nearest_passable[cell])
    if near < 0:
        raise NodeNotFoundError(f"{name}={describe(value)}: the grid has no passable cell")
    if strict:
        col, row = cell % grid.width, cell // grid.width
        gap = float(np.hypot(*(grid.cell_center(near) - grid.cell_center(cell))))
        raise NodeNotFoundError(
            f"{name}={describe(value)} is in cell {cell} (col {col}, row {row}), a blocked cell ({_WHY}); the nearest "
            f"passable cell, {near}, is {gap:.6g} world units away centre to centre (pass strict=False to use it)"
        )
    return near, True


def _floats(value: Any) -> NDArray[np.float64] | None:
    """A world position (x, y) as floats, or None when ``value`` is not a pair with a float."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        return None
    if arr.shape != (2,) or not np.issubdtype(arr.dtype, np.floating):
        return None
    return arr.astype(np.float64)


def cell_of(grid: GridMap, name: str, value: Any, *, allow_blocked: bool = False) -> int:
    """The passable cell id that ``value`` names (see the module docstring).

    Raises
    ------
    NodeNotFoundError
        ``value`` is not one of the three forms, lies outside the grid, or is a blocked cell.
    InvalidGeometryError
        A world position is not finite.
    """
    if type(value) is int:
        cell = value
    elif isinstance(value, (np.integer, int)) and not isinstance(value, (bool, np.bool_)):
        cell = int(value)
    else:
        cell = _pair(grid, name, value)
    if not 0 <= cell < grid.n_cells:
        raise NodeNotFoundError(f"{name}={cell} is out of range; cell ids run 0..{grid.n_cells - 1}")
    if grid.arrays.blocked_bytes[cell] and not allow_blocked:
        where = f"{name}={cell}" if isinstance(value, (int, np.integer)) else f"{name}={describe(value)}, cell {cell}"
        raise NodeNotFoundError(f"{where} (col, row)={divmod(cell, grid.width)[::-1]} is a blocked cell ({_WHY})")
    return cell


def cell_pair(grid: GridMap, start: Any, goal: Any) -> tuple[int, int]:
    """``(cell_of(grid, "start", start), cell_of(grid, "goal", goal))``, with a short path for two
    valid Python ints (the per-call cost of a single-query search is mostly this check)."""
    if type(start) is int and type(goal) is int:
        a = grid.arrays
        n = a.n_cells
        blocked = a.blocked_bytes
        if 0 <= start < n and 0 <= goal < n and not blocked[start] and not blocked[goal]:
            return start, goal
    return cell_of(grid, "start", start), cell_of(grid, "goal", goal)


def _pair(grid: GridMap, name: str, value: Any) -> int:
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        arr = np.zeros(0)
    if arr.shape != (2,) or arr.dtype == np.bool_ or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise NodeNotFoundError(
            f"{name}={describe(value)} is not a cell; expected a cell id, a (col, row) pair of integers "
            "or an (x, y) world position"
        )
    if np.issubdtype(arr.dtype, np.integer):
        col, row = int(arr[0]), int(arr[1])
        if not (0 <= col < grid.width and 0 <= row < grid.height):
            raise NodeNotFoundError(
                f"{name}=(col {col}, row {row}) lies outside the grid ({grid.width} columns, {grid.height} rows)"
            )
        return row * grid.width + col
    return int(grid.cell_at(arr))


def cells_of(grid: GridMap, name: str, values: ArrayLike) -> NDArray[np.int64]:
    """Passable cell ids (int64, shape (n,)) named by ``values`` (see the module docstring)."""
    arr = as_array(name, values, NodeNotFoundError)
    if arr.ndim == 2 and arr.shape[1] == 2 and arr.dtype != np.bool_ and np.issubdtype(arr.dtype, np.integer):
        cols, rows = arr[:, 0].astype(np.int64), arr[:, 1].astype(np.int64)
        bad = (cols < 0) | (cols >= grid.width) | (rows < 0) | (rows >= grid.height)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise NodeNotFoundError(f"{name}[{i}]=(col {cols[i]}, row {rows[i]}) lies outside the grid")
        ids = rows * grid.width + cols
    elif arr.ndim == 2 and arr.shape[1] == 2 and np.issubdtype(arr.dtype, np.floating):
        ids = np.asarray(grid.cell_at(arr), dtype=np.int64).reshape(-1)
    elif arr.ndim == 1 and (arr.size == 0 or (np.issubdtype(arr.dtype, np.integer) and arr.dtype != np.bool_)):
        ids = arr.astype(np.int64)
        bad = (ids < 0) | (ids >= grid.n_cells)
        if bad.any():
            raise NodeNotFoundError(
                f"{name} holds {int(ids[bad][0])}, out of range; cell ids run 0..{grid.n_cells - 1}"
            )
    else:
        raise NodeNotFoundError(
            f"{name}={describe(values)} must be a 1-D array of cell ids, an (n, 2) integer array of "
            "(col, row) pairs or an (n, 2) float array of world positions"
        )
    if ids.size:
        walls = grid.arrays.blocked[ids]
        if walls.any():
            i = int(np.flatnonzero(walls)[0])
            raise NodeNotFoundError(f"{name}[{i}]={int(ids[i])} is a blocked cell ({_WHY})")
    return ids
