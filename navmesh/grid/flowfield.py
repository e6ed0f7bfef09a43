"""Flow fields ("signposts"): one search from the goal tells every cell which way to step.

A :class:`FlowField` runs a single Dijkstra search outward from one or several goal cells over a
:class:`~navmesh.grid.GridMap`. Every reached cell then knows its least cost to the nearest goal
and holds a signpost: the direction of the next step on a least-cost path. Any number of units
look their step up in one vectorised call instead of searching each for itself, which is what an
RTS needs when a crowd is sent to one place.

Grid steps cost the same both ways (see :mod:`navmesh.grid`), so the cost of reaching the goal
from a cell equals the cost the search found from the goal to it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import as_array, check_nonneg_float
from navmesh._kernels import grid as K
from navmesh._kernels import grid_flow as K_F
from navmesh.errors import InvalidOptionError, NodeNotFoundError, NoPathError, describe
from navmesh.grid.map import GridMap
from navmesh.path import Path

__all__ = ["FlowField"]

# Unit vector of each direction code in world coordinates (y up, so row - 1 is +y); the extra
# last row is what code -1 (no signpost) picks up through negative indexing.
_UNIT = np.zeros((9, 2))
_UNIT[:8, 0] = K.DCOL / K.STEP_LEN
_UNIT[:8, 1] = -K.DROW / K.STEP_LEN
_UNIT.flags.writeable = False

# Relative slack when deciding which steps keep a path least-cost (float sums of sqrt 2 differ
# in the last bits depending on their order).
_REL_TOL = 1e-9


class FlowField:
    """Least cost to the nearest goal and the best next step, for every cell of a grid.

    Parameters
    ----------
    grid : GridMap
        The map; its step rules and costs are used as they are.
    goals : int or int array of shape (k,)
        Flat cell ids of one or more passable goal cells; each cell is led to its nearest one.
    max_cost : float, optional
        Stop the search at this cost (world units, >= 0): cells farther from every goal are left
        unreached, as if walled off. Default: no limit.

    Attributes
    ----------
    grid : GridMap
        The map searched.
    goals : int32 array of shape (k,)
        The goal cells.
    distance : float64 array of shape (height, width)
        Least cost from each cell to its nearest goal; ``inf`` where unreached or blocked.
    directions : int8 array of shape (height, width)
        Direction code of the next step (0 up, 1 right, 2 down, 3 left, 4 up-right,
        5 down-right, 6 down-left, 7 up-left; see :data:`navmesh.grid.DIRECTION_NAMES`);
        -1 at goals and at unreached or blocked cells.
    nearest_goal : int32 array of shape (height, width)
        Index into ``goals`` of the goal each cell leads to; -1 where unreached.
    expansions : int
        Cells the search expanded.

    Notes
    -----
    A step is a signpost candidate when taking it keeps the path least-cost. Among several
    candidates the one pointing most nearly at the cell's goal (the largest cosine between the
    step and the straight line to the goal) wins, so units travel along the straight line
    instead of zig-zagging or taking all their diagonal steps first. Following the signposts from
    any reached cell ends at a goal, on a least-cost path, because every step lowers the
    distance (and every step leads to a cell the search settled earlier, so this holds even where
    float rounding makes neighbouring distances equal, as next to multipliers of 1e17 and 1 or
    with subnormal multipliers). Arrays are read-only; the field is an immutable value that can
    be shared.

    Examples
    --------
    >>> from navmesh.grid.map import GridMap
    >>> grid = GridMap.from_strings('''
    ... ......
    ... .@@@@.
    ... ......''', cell_size=10)
    >>> field = FlowField(grid, grid.cell_id(5, 2))
    >>> float(field.distance[2, 0])                  # row 2, col 0: five steps along the bottom
    50.0
    >>> field.direction_at([grid.cell_id(0, 2), grid.cell_id(5, 2)]).tolist()
    [[1.0, 0.0], [0.0, 0.0]]
    >>> field.path_from(grid.cell_id(0, 0)).nodes.tolist()    # along the top, then down
    [0, 1, 2, 3, 4, 5, 11, 17]
    """

    def __init__(self, grid: GridMap, goals: ArrayLike, *, max_cost: float | None = None) -> None:
        if not isinstance(grid, GridMap):
            raise InvalidOptionError(f"grid={describe(grid)} is not a GridMap")
        targets = np.atleast_1d(as_array("goals", goals, NodeNotFoundError))
        if targets.ndim != 1 or targets.size == 0 or not np.issubdtype(targets.dtype, np.integer):
            raise NodeNotFoundError(f"goals={describe(goals)} must be a cell id or a non-empty 1-D array of cell ids")
        if targets.min() < 0 or targets.max() >= grid.n_cells:
            bad = targets[(targets < 0) | (targets >= grid.n_cells)][0]
            raise NodeNotFoundError(f"goals holds {int(bad)}, out of range; cell ids run 0..{grid.n_cells - 1}")
        a = grid.arrays
        walls = a.blocked[targets]
        if walls.any():
            raise NodeNotFoundError(f"goals holds {int(targets[walls][0])}, a blocked cell")
        limit = check_nonneg_float("max_cost", max_cost)
        targets = targets.astype(np.int32)
        cost, origin, codes, expansions = K_F.flow_field(
            a.moves, a.half_cost, a.height, a.width, a.wrap_r, a.wrap_c, targets, np.inf if limit is None else limit,
            _REL_TOL,
        )
        is_goal = np.zeros(a.n_cells, dtype=np.bool_)
        is_goal[targets] = True
        for arr in (targets, cost, origin, codes, is_goal):
            arr.flags.writeable = False
        self.grid: GridMap = grid
        self.goals: NDArray[np.int32] = targets
        self._cost = cost
        self._codes = codes
        self._is_goal = is_goal
        self.distance: NDArray[np.float64] = cost.reshape(grid.shape)
        self.directions: NDArray[np.int8] = codes.reshape(grid.shape)
        self.nearest_goal: NDArray[np.int32] = origin.reshape(grid.shape)
        self.expansions: int = int(expansions)

    def __repr__(self) -> str:
        reached = int(np.isfinite(self._cost).sum())
        return f"FlowField({len(self.goals)} goals, {reached} of {self.grid.n_cells} cells reached)"

    def _ids(self, cells: ArrayLike) -> NDArray[np.int64]:
        ids = np.asarray(cells)
        if ids.ndim > 1 or not (np.issubdtype(ids.dtype, np.integer) or ids.size == 0):
            raise NodeNotFoundError(f"cells={describe(cells)} must be a cell id or a 1-D array of cell ids")
        ids = ids.astype(np.int64)
        n = self.grid.n_cells
        if ids.size and (ids.min() < 0 or ids.max() >= n):
            bad = ids[(ids < 0) | (ids >= n)].reshape(-1)[0]
            raise NodeNotFoundError(f"cells holds {int(bad)}, out of range; cell ids run 0..{n - 1}")
        return ids

    def direction_at(self, cells: ArrayLike) -> NDArray[np.float64]:
        """Unit step direction in world coordinates (y up) for each cell.

        Parameters
        ----------
        cells : int or int array of shape (n,)
            Flat cell ids (for example ``grid.cell_at(unit_positions)``).

        Returns
        -------
        float64 array of shape (2,) or (n, 2)
            ``(dx, dy)`` of length 1 toward the next cell; ``(0, 0)`` at goals and at cells
            with no signpost (unreached or blocked). One array for all units: no Python loop.

        Raises
        ------
        NodeNotFoundError
            An id is out of range.
        """
        return _UNIT[self._codes[self._ids(cells)]]

    def direction_at_points(self, points: ArrayLike) -> NDArray[np.float64]:
        """:meth:`direction_at` for world positions: shape (2,) for one (x, y), (n, 2) for n.

        Raises
        ------
        InvalidGeometryError
            ``points`` is not (2,) or (n, 2) finite numbers.
        NodeNotFoundError
            A point lies outside the grid.
        """
        return _UNIT[self._codes[self.grid.cell_at(points)]]

    def next_cell(self, cells: ArrayLike) -> Any:
        """The cell to step to from each cell: an int for one id, an int32 array for several.

        A goal cell gives itself; a cell without a signpost (unreached or blocked) gives -1.
        """
        ids = self._ids(cells)
        codes = self._codes[ids].astype(np.int64)
        g = self.grid
        rows, cols = np.divmod(ids, g.width)
        safe = np.maximum(codes, 0)
        nxt = ((rows + K.DROW[safe]) % g.height) * g.width + (cols + K.DCOL[safe]) % g.width
        nxt = np.where(codes >= 0, nxt, np.where(self._is_goal[ids], ids, -1))
        return int(nxt) if nxt.ndim == 0 else nxt.astype(np.int32)

    def distance_at(self, cells: ArrayLike) -> Any:
        """Least cost from each cell to its nearest goal (``inf`` where unreached)."""
        out = self._cost[self._ids(cells)]
        return float(out) if out.ndim == 0 else out

    def path_from(self, cell: int) -> Path:
        """The path the signposts lead along from ``cell`` to its goal.

        Returns
        -------
        Path
            Cell ids from ``cell`` to the goal, their centres, and ``cost`` = the distance.

        Raises
        ------
        NodeNotFoundError
            ``cell`` is not one cell id (an int in range; not a list).
        NoPathError
            ``cell`` is blocked or was not reached.
        """
        if as_array("cell", cell, NodeNotFoundError).ndim != 0:
            raise NodeNotFoundError(
                f"cell={describe(cell)} is not one cell id; path_from takes a single int (one path per call)"
            )
        u = int(self._ids(cell))
        if not np.isfinite(self._cost[u]):
            g = self.grid
            raise NoPathError(
                f"cell {u} (col {u % g.width}, row {u // g.width}) has no path to a goal "
                "(blocked, cut off, or beyond max_cost)"
            )
        nodes = K_F.follow_directions(self._codes, self.grid.height, self.grid.width, u)
        return Path(nodes, self.grid.cell_center(nodes), float(self._cost[u]), self.expansions)
