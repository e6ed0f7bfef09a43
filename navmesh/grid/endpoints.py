"""Endpoints of grid searches: flat cell ids, (col, row) cells or world positions, one rule.

Every grid search names its endpoints ``start`` and ``goal`` (batched: ``starts``, ``goals``)
and accepts any of three forms:

- a flat cell id: a Python or numpy integer, ``row * width + col``;
- a cell by column and row: a pair of integers ``(col, row)``;
- a world position: a pair ``(x, y)`` with at least one float (``(3.0, 4.0)``), resolved with
  :meth:`GridMap.cell_at`.

Batched forms are a 1-D integer array of ids, an (n, 2) integer array of (col, row) pairs, or an
(n, 2) float array of world positions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import as_array
from navmesh.errors import NodeNotFoundError, describe
from navmesh.grid.map import GridMap

__all__ = ["cell_of", "cell_pair", "cells_of"]


def cell_of(grid: GridMap, name: str, value: Any) -> int:
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
    if grid.arrays.blocked_bytes[cell]:
        where = f"{name}={cell}" if isinstance(value, (int, np.integer)) else f"{name}={describe(value)}, cell {cell}"
        raise NodeNotFoundError(f"{where} (col, row)={divmod(cell, grid.width)[::-1]} is a blocked cell")
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
            raise NodeNotFoundError(f"{name}[{i}]={int(ids[i])} is a blocked cell")
    return ids
