"""`GridArrays`: the flat arrays and flags the grid kernels read, made once per map.

This is the one bundle the search, flow-field and preprocessing modules take from a
:class:`~navmesh.grid.GridMap` (``grid.arrays``), with the map's caches of derived data: the JPS+
jump table, the first-step fields, the nearest passable cell of every cell, the padded passable
flags, the lattice-maze junctions, and the pool of search workspaces. None of them ever changes
an answer.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from navmesh.grid.preprocess import JumpTable
from navmesh.grid.targets import TargetFieldCache
from navmesh.grid.workspace import WorkspacePool

__all__ = ["GridArrays"]


class GridArrays:
    """The flat arrays and flags the grid kernels read, made once per :class:`GridMap`.

    This is the one bundle the search, flow-field and preprocessing modules take from a map
    (``grid.arrays``); they never read the map's other internals. Arrays are read-only. Made by
    :class:`~navmesh.grid.GridMap` from its checked multipliers, walls, move bits, regions and
    options (the keyword arguments have the map's meanings).

    Attributes
    ----------
    height, width, n_cells : int
        Grid size.
    moves : uint8 array of shape (n_cells,)
        Allowed-step bits per cell (see :attr:`GridMap.moves`).
    half_cost : float64 array of shape (n_cells,)
        Half the multiplier times the cell size (0 on blocked cells): a step in direction ``d``
        from ``u`` to ``v`` costs ``STEP_LEN[d] * (half_cost[u] + half_cost[v])``.
    blocked : bool array of shape (n_cells,)
        Blocked cells.
    blocked_bytes : bytes
        ``blocked`` as bytes (indexing a ``bytes`` is the fastest per-call lookup in Python).
    wrap_r, wrap_c : bool
        Whether rows (top/bottom) or columns (left/right) wrap around.
    wrap : (bool, bool) or None
        ``(wrap_r, wrap_c)``, or None on a map without wrap-around (the A* kernel's argument).
    uniform : bool
        Every passable cell has the same multiplier.
    unit_steps : bool
        ``uniform`` and no diagonal steps: every step costs the same (maze first-step search).
    hscale : float
        Admissible scale of the octile heuristic: cell size times the smallest multiplier.
    geo : float64 array (origin_x, origin_y, cell_size)
        For turning cell ids into world centres inside the kernels.
    jps_problem : str
        Why Jump Point Search cannot run on the map ("" when it can).
    jump_table : JumpTable or None
        The JPS+ preprocessing once built (:meth:`GridMap.preprocess`).
    target_fields : TargetFieldCache
        The map's cache of first-step fields (:mod:`navmesh.grid.targets`).
    workspaces : WorkspacePool
        Search buffers lent to one search at a time (:mod:`navmesh.grid.workspace`).
    """

    def __init__(
        self,
        mult: NDArray[np.float64],
        blocked: NDArray[np.bool_],
        bits: NDArray[np.uint8],
        regions: NDArray[np.int32],
        *,
        cell_size: float,
        origin: tuple[float, float],
        connectivity: int,
        diagonal: str,
        wrap: str,
    ) -> None:
        self.height, self.width = (int(x) for x in blocked.shape)
        self.n_cells = self.height * self.width
        self.moves = bits.reshape(-1)
        self.blocked = blocked.reshape(-1)
        self.blocked_bytes = bytes(self.blocked.view(np.uint8))
        half = np.where(blocked, 0.0, 0.5 * cell_size * mult).reshape(-1)
        half.flags.writeable = False
        self.half_cost = half
        self.wrap_r = wrap in ("y", "both")
        self.wrap_c = wrap in ("x", "both")
        self.wrap = (self.wrap_r, self.wrap_c) if wrap != "none" else None
        passable_mult = mult[~blocked]
        self.min_multiplier = float(passable_mult.min()) if passable_mult.size else 1.0
        self.uniform = bool(passable_mult.size == 0 or passable_mult.max() == passable_mult.min())
        self.unit_steps = self.uniform and not bool((bits & 0xF0).any())
        self.hscale = cell_size * self.min_multiplier
        self.geo = np.array([origin[0], origin[1], cell_size])
        self.geo.flags.writeable = False
        self.jps_problem = _jps_problem(connectivity, diagonal, wrap, self.uniform, regions[~blocked])
        self.jump_table: JumpTable | None = None
        self.target_fields = TargetFieldCache(self.moves, self.height, self.width, self.wrap_r or self.wrap_c)
        self.workspaces = WorkspacePool()
        self._padded: NDArray[np.uint8] | None = None
        self._lattice: NDArray[np.uint8] | None | bool = False
        self._grid_moves = bits
        self._grid_free = ~blocked
        self._nearest: NDArray[np.int64] | None = None

    @property
    def nearest_passable(self) -> NDArray[np.int64]:
        """For every cell, the passable cell whose centre is nearest to its centre (itself when
        passable; -1 everywhere on an all-wall map). Built on first use: the endpoint rule of
        :mod:`navmesh.grid.endpoints` moves a start or goal in a wall there."""
        if self._nearest is None:
            blocked = ~self._grid_free
            if blocked.all():
                near = np.full(self.n_cells, -1, dtype=np.int64)
            else:
                from scipy import ndimage

                rows, cols = ndimage.distance_transform_edt(blocked, return_distances=False, return_indices=True)
                near = (rows.astype(np.int64) * self.width + cols).reshape(-1)
            near.flags.writeable = False
            self._nearest = near
        return self._nearest

    @property
    def padded_free(self) -> NDArray[np.uint8]:
        """Passable flags padded with a blocked border, flattened ((height + 2) * (width + 2))."""
        if self._padded is None:
            free = np.zeros((self.height + 2, self.width + 2), dtype=np.uint8)
            free[1:-1, 1:-1] = self._grid_free
            free = free.reshape(-1)
            free.flags.writeable = False
            self._padded = free
        return self._padded

    @property
    def lattice(self) -> NDArray[np.uint8] | None:
        """Junction flags (odd row and odd column) when the map is a lattice maze, else None.

        A lattice maze has walls on every cell with even row and even column and on the whole
        border, free cells on every odd/odd cell, steps of cost 1 along rows and columns only,
        no wrap-around, and every open corridor cell joined to the junctions at both its ends.
        """
        if self._lattice is False:
            self._lattice = _find_lattice(self._grid_free, self._grid_moves, self)
        return self._lattice  # type: ignore[return-value]


def _find_lattice(free: NDArray[np.bool_], m: NDArray[np.uint8], arrays: GridArrays) -> NDArray[np.uint8] | None:
    h, w = free.shape
    if h % 2 == 0 or w % 2 == 0 or h < 3 or w < 3 or arrays.wrap_r or arrays.wrap_c:
        return None
    if not arrays.unit_steps:
        return None
    if free[0::2, 0::2].any() or not free[1::2, 1::2].all():
        return None
    if free[0].any() or free[-1].any() or free[:, 0].any() or free[:, -1].any():
        return None
    horiz = free[1::2, 2:-1:2]
    hbits = m[1::2, 2:-1:2]
    if np.any(horiz & ((hbits & 0b1010) != 0b1010)):
        return None
    vert = free[2:-1:2, 1::2]
    vbits = m[2:-1:2, 1::2]
    if np.any(vert & ((vbits & 0b0101) != 0b0101)):
        return None
    junction = np.zeros((h, w), dtype=np.uint8)
    junction[1::2, 1::2] = 1
    return junction.reshape(-1)


def _jps_problem(connectivity: int, diagonal: str, wrap: str, uniform: bool, passable_regions: NDArray[np.int32]) -> str:
    """Why Jump Point Search cannot run on a map with these rules ("" when it can)."""
    if connectivity != 8 or diagonal != "no_corner_cutting":
        return (
            f"connectivity=8 and diagonal='no_corner_cutting' (the map has connectivity={connectivity}, "
            f"diagonal={diagonal!r})"
        )
    if wrap != "none":
        return f"wrap='none' (the map has wrap={wrap!r})"
    if not uniform:
        return "one cost multiplier for every passable cell (the map has several)"
    if passable_regions.size and passable_regions.min() != passable_regions.max():
        return "a single region (the map has several, e.g. water)"
    return ""
