"""`GridMap`: a tile map for grid searches and flow fields.

A grid is a rectangle of ``height`` rows by ``width`` columns of square cells. Each cell is
passable with a cost multiplier, or blocked. Which steps are allowed (4 or 8 neighbours, the
diagonal rule, wrap-around borders, regions such as water that connect only to themselves) is
decided once, when the map is made; the searches in :mod:`navmesh.grid.search` and
:mod:`navmesh.grid.flowfield` then just read the result.

Coordinates
-----------
Cells are numbered the way map files list them: row 0 is the top row, column 0 the left column,
and the flat cell id is ``row * width + col`` (Moving AI ``x`` is the column, ``y`` the row).
World coordinates follow arcade: ``y`` grows upward. ``origin`` is the world position of the
grid's bottom-left corner and ``cell_size`` the side of a cell in world units, so the centre of
cell (col, row) is::

    x = origin_x + (col + 0.5) * cell_size
    y = origin_y + (height - row - 0.5) * cell_size

This matches where ``arcade.load_tilemap`` draws a Tiled map's tiles (top row at the top).

Costs
-----
A straight step has length 1 and a diagonal step sqrt(2) (in cells, times ``cell_size`` in world
units). A step costs its length times the mean of the multipliers of the two cells it joins, so a
step costs the same both ways and a grid of multipliers 1 gives plain octile distances.
"""

from __future__ import annotations

import os
import pathlib
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import as_array, check_option
from navmesh._kernels.grid import DCOL, DROW, STEP_LEN
from navmesh.errors import (
    InvalidCostError,
    InvalidGeometryError,
    InvalidOptionError,
    LevelFormatError,
    NodeNotFoundError,
    describe,
)
from navmesh.grid.preprocess import JumpTable
from navmesh.grid.targets import TargetFieldCache

if TYPE_CHECKING:
    from navmesh.graph import NavGraph
    from navmesh.path import Path

__all__ = ["DIAGONAL_RULES", "DIRECTION_NAMES", "MAX_COST_SCALE", "WRAP_MODES", "Diagonal", "GridArrays", "GridMap", "Workspace", "Wrap"]

Diagonal = Literal["never", "no_corner_cutting", "one_blocked", "always"]
Wrap = Literal["none", "x", "y", "both"]
DIAGONAL_RULES: tuple[str, ...] = ("never", "no_corner_cutting", "one_blocked", "always")
WRAP_MODES: tuple[str, ...] = ("none", "x", "y", "both")
#: Direction codes used by the move bits and by flow fields (row - 1 is "up" on screen).
DIRECTION_NAMES: tuple[str, ...] = (
    "up", "right", "down", "left", "up_right", "down_right", "down_left", "up_left",
)

_MAX_CELLS = 2**31 - 1
#: Bound on multiplier x cell_size x number of cells, so that any path cost stays finite
#: (a path crosses each cell at most once, a step costs at most sqrt 2 times its multipliers).
MAX_COST_SCALE = 1e300


def _shifted(arr: NDArray, dr: int, dc: int, fill: Any, wrap_r: bool, wrap_c: bool) -> NDArray:
    """``out[r, c] = arr[r + dr, c + dc]``; outside the grid ``fill`` unless that axis wraps."""
    out = arr
    for axis, delta, wrap in ((0, dr, wrap_r), (1, dc, wrap_c)):
        if delta == 0:
            continue
        if wrap:
            out = np.roll(out, -delta, axis=axis)
            continue
        tmp = np.full_like(out, fill)
        size = out.shape[axis]
        if abs(delta) < size:
            src = [slice(None), slice(None)]
            dst = [slice(None), slice(None)]
            if delta > 0:
                src[axis], dst[axis] = slice(delta, None), slice(None, size - delta)
            else:
                src[axis], dst[axis] = slice(None, size + delta), slice(-delta, None)
            tmp[tuple(dst)] = out[tuple(src)]
        out = tmp
    return out


def _move_bits(
    passable: NDArray[np.bool_],
    regions: NDArray[np.int32],
    connectivity: int,
    diagonal: str,
    wrap_r: bool,
    wrap_c: bool,
) -> NDArray[np.uint8]:
    """Bit d of each cell: the step in direction d is allowed (see navmesh._kernels.grid)."""
    bits = np.zeros(passable.shape, dtype=np.uint8)

    def joins(dr: int, dc: int) -> NDArray[np.bool_]:
        other_ok = _shifted(passable, dr, dc, False, wrap_r, wrap_c)
        same = _shifted(regions, dr, dc, -1, wrap_r, wrap_c) == regions
        return passable & other_ok & same

    for d in range(4):
        bits |= joins(int(DROW[d]), int(DCOL[d])).astype(np.uint8) << d
    if connectivity == 8 and diagonal != "never":
        for d in range(4, 8):
            dr, dc = int(DROW[d]), int(DCOL[d])
            ok = joins(dr, dc)
            if diagonal != "always":
                side_a, side_b = joins(dr, 0), joins(0, dc)
                ok &= (side_a & side_b) if diagonal == "no_corner_cutting" else (side_a | side_b)
            bits |= ok.astype(np.uint8) << d
    return bits


class Workspace:
    """Per-cell search buffers lent to one search at a time (never to two at once).

    A cell's entries are valid only where ``stamp`` holds the current generation's marks
    (``2 * gen`` reached, ``2 * gen + 1`` expanded), so the buffers need no clearing between
    searches. The heap has one slot per cell plus the kernels' small reserve.
    """

    __slots__ = ("g", "gen", "heap_keys", "heap_nodes", "parent", "stamp")

    def __init__(self, n: int) -> None:
        self.stamp = np.zeros(n, dtype=np.int32)
        self.g = np.empty(n, dtype=np.float64)
        self.parent = np.empty(n, dtype=np.int32)
        self.heap_keys = np.empty(n + 64, dtype=np.float64)
        self.heap_nodes = np.empty(n + 64, dtype=np.int32)
        self.gen = 1

    def advance(self) -> None:
        """Move to the next generation (clearing the stamps once every 2**30 searches)."""
        self.gen += 1
        if self.gen >= 2**30 - 1:
            self.stamp[:] = 0
            self.gen = 1


class GridArrays:
    """The flat arrays and flags the grid kernels read, made once per :class:`GridMap`.

    This is the one bundle the search, flow-field and preprocessing modules take from a map
    (``grid.arrays``); they never read the map's other internals. Arrays are read-only.

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
    """

    def __init__(
        self, grid: GridMap, mult: NDArray[np.float64], blocked: NDArray[np.bool_], bits: NDArray[np.uint8]
    ) -> None:
        self.height = grid.height
        self.width = grid.width
        self.n_cells = grid.n_cells
        self.moves = bits.reshape(-1)
        self.blocked = blocked.reshape(-1)
        self.blocked_bytes = bytes(self.blocked.view(np.uint8))
        half = np.where(blocked, 0.0, 0.5 * grid.cell_size * mult).reshape(-1)
        half.flags.writeable = False
        self.half_cost = half
        self.wrap_r = grid.wrap in ("y", "both")
        self.wrap_c = grid.wrap in ("x", "both")
        passable_mult = mult[~blocked]
        self.min_multiplier = float(passable_mult.min()) if passable_mult.size else 1.0
        self.uniform = bool(passable_mult.size == 0 or passable_mult.max() == passable_mult.min())
        self.unit_steps = self.uniform and not bool((bits & 0xF0).any())
        self.hscale = grid.cell_size * self.min_multiplier
        self.geo = np.array([grid.origin[0], grid.origin[1], grid.cell_size])
        self.geo.flags.writeable = False
        self.jps_problem = _jps_problem(grid, self.uniform)
        self.jump_table: JumpTable | None = None
        self.target_fields = TargetFieldCache(self.moves, self.height, self.width, self.wrap_r or self.wrap_c)
        self._pools: dict[int, list[Workspace]] = {}
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

    def borrow(self, n: int) -> Workspace:
        """A workspace of ``n`` cells for one search; hand it back with :meth:`give_back`."""
        try:
            return self._pools.setdefault(n, []).pop()
        except IndexError:
            return Workspace(n)

    def give_back(self, ws: Workspace) -> None:
        """Return a borrowed workspace (its generation advanced) to the pool."""
        ws.advance()
        self._pools.setdefault(len(ws.stamp), []).append(ws)

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


def _jps_problem(grid: GridMap, uniform: bool) -> str:
    """Why Jump Point Search cannot run on ``grid`` ("" when it can)."""
    if grid.connectivity != 8 or grid.diagonal != "no_corner_cutting":
        return (
            f"connectivity=8 and diagonal='no_corner_cutting' (the map has connectivity={grid.connectivity}, "
            f"diagonal={grid.diagonal!r})"
        )
    if grid.wrap != "none":
        return f"wrap='none' (the map has wrap={grid.wrap!r})"
    if not uniform:
        return "one cost multiplier for every passable cell (the map has several)"
    regions = grid.regions[~grid.blocked]
    if regions.size and regions.min() != regions.max():
        return "a single region (the map has several, e.g. water)"
    return ""


class GridMap:
    """A tile map: passable cells with cost multipliers, blocked cells, and the allowed steps.

    Parameters
    ----------
    cells : array of shape (height, width)
        Either booleans, ``True`` meaning a wall (blocked) and ``False`` a free cell of
        multiplier 1; or numbers, the cost multiplier of each cell: a value in (0, inf) is a
        passable cell whose steps cost that much more (2 = swamp, 0.5 = road), while ``0`` and
        ``inf`` both mean blocked. Negative or NaN values are rejected, and so are finite
        multipliers above ``MAX_COST_SCALE / (cell_size * height * width)`` (1e300 over the
        map's size: larger ones could overflow a path cost). Integer arrays are read
        as multipliers (so a 0/1 array is 0 = wall, 1 = free, like the ``pathfinding`` package).
    cell_size : float
        Side of a cell in world units, > 0. Default 1.
    origin : pair of float
        World position (x, y) of the grid's bottom-left corner. Default (0, 0).
    connectivity : {4, 8}
        Neighbours a cell can step to. Default 8.
    diagonal : {"never", "no_corner_cutting", "one_blocked", "always"}
        When a diagonal step (connectivity 8 only) is allowed, judged by the two cells beside it
        (the ones sharing an edge with both ends): ``"no_corner_cutting"`` (default, the Moving AI
        rule) needs both passable, ``"one_blocked"`` needs at least one, ``"always"`` ignores
        them, ``"never"`` allows no diagonal steps.
    wrap : {"none", "x", "y", "both"}
        Borders joined to the opposite border: ``"x"`` joins the left and right columns (the
        tunnel of FatCat or Pac-Man: a step goes through wherever both border cells are free),
        ``"y"`` the top and bottom rows. Default ``"none"``.
    regions : int array of shape (height, width), optional
        Region id of each cell. A step (and, for diagonal steps, each side cell the diagonal rule
        looks at) must stay inside one region: water that only connects to water. Default: one
        region.

    Attributes
    ----------
    height, width : int
        Rows and columns.
    n_cells : int
        ``height * width``; cell ids run from 0 to ``n_cells - 1``.
    blocked : bool array of shape (height, width)
        Blocked cells (read-only).
    costs : float64 array of shape (height, width)
        Cost multiplier of each cell, ``inf`` where blocked (read-only).
    regions : int32 array of shape (height, width)
        Region id of each cell (read-only).
    moves : uint8 array of shape (height, width)
        Bit ``d`` is set when the step in direction ``d`` is allowed, with directions numbered
        0 up (row - 1), 1 right, 2 down, 3 left, 4 up-right, 5 down-right, 6 down-left,
        7 up-left (:data:`DIRECTION_NAMES`). Read-only.
    arrays : GridArrays
        The flat arrays and flags the search kernels read (the one bundle other modules take
        from a map), with the caches of derived data: the JPS+ jump table
        (:meth:`preprocess`) and the first-step fields (:attr:`first_step_cache`).

    Raises
    ------
    InvalidGeometryError
        ``cells`` is not a non-empty 2-D array; ``origin`` is not two finite numbers.
    InvalidCostError
        A multiplier is negative, NaN or too large (see ``cells``).
    InvalidOptionError
        ``cell_size``, ``connectivity``, ``diagonal``, ``wrap`` or ``regions`` is invalid.

    Notes
    -----
    The map is an immutable value: searches keep their state in buffers they own for the
    duration of the call, so one map serves many units and threads at once. Derived data
    (the jump table, first-step fields) is cached on the map and never changes an answer; a
    changed map is a new map (:meth:`with_cells`).

    Examples
    --------
    >>> import numpy as np
    >>> walls = np.array([[0, 0, 0],
    ...                   [1, 1, 0],
    ...                   [0, 0, 0]], dtype=bool)
    >>> grid = GridMap(walls, cell_size=32)
    >>> grid.shape, grid.n_cells
    ((3, 3), 9)
    >>> grid.cell_id(2, 1)                   # col 2, row 1
    5
    >>> grid.cell_center(5).tolist()         # world units, y up: row 1 is the middle row
    [80.0, 48.0]
    >>> int(grid.cell_at([10.0, 90.0]))      # top-left cell
    0
    >>> grid.neighbors(5).tolist()           # up, down (diagonals would cut the wall's corner)
    [2, 8]
    """

    def __init__(
        self,
        cells: ArrayLike,
        *,
        cell_size: float = 1.0,
        origin: ArrayLike = (0.0, 0.0),
        connectivity: int = 8,
        diagonal: Diagonal = "no_corner_cutting",
        wrap: Wrap = "none",
        regions: ArrayLike | None = None,
    ) -> None:
        arr = as_array("cells", cells, InvalidGeometryError)
        if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
            raise InvalidGeometryError(
                f"cells has shape {arr.shape}; expected a non-empty 2-D array (height, width)"
            )
        if arr.shape[0] * arr.shape[1] > _MAX_CELLS:
            raise InvalidGeometryError(f"cells has shape {arr.shape}; at most {_MAX_CELLS} cells are supported")
        if arr.dtype == np.bool_:
            mult = np.where(arr, np.inf, 1.0)
        elif np.issubdtype(arr.dtype, np.number) and not np.issubdtype(arr.dtype, np.complexfloating):
            mult = arr.astype(np.float64)
            bad = ~(mult >= 0)
            if bad.any():
                r, c = (int(i) for i in np.argwhere(bad)[0])
                raise InvalidCostError(
                    f"cells[{r}, {c}]={mult[r, c]} is not allowed; multipliers must be >= 0 "
                    "(0 or inf = blocked)"
                )
            mult[mult == 0] = np.inf
        else:
            raise InvalidCostError(f"cells has dtype {arr.dtype}; expected booleans (walls) or numbers (multipliers)")
        try:
            size = float(cell_size)
        except (TypeError, ValueError):
            size = float("nan")
        if not (size > 0 and np.isfinite(size)):
            raise InvalidOptionError(f"cell_size={describe(cell_size)} is not valid; expected a finite number > 0")
        try:
            org = np.array(origin, dtype=np.float64)
        except (TypeError, ValueError):
            org = np.zeros(0)
        if org.shape != (2,) or not np.isfinite(org).all():
            raise InvalidGeometryError(f"origin={describe(origin)} is not valid; expected two finite numbers (x, y)")
        finite = np.isfinite(mult)
        if finite.any():
            limit = MAX_COST_SCALE / (size * arr.shape[0] * arr.shape[1])
            too_big = finite & (mult > limit)
            if too_big.any():
                r, c = (int(i) for i in np.argwhere(too_big)[0])
                raise InvalidCostError(
                    f"cells[{r}, {c}]={mult[r, c]:g} is too large: multiplier x cell_size x number of cells "
                    f"must stay below {MAX_COST_SCALE:g} so path costs stay finite (here multipliers up to "
                    f"{limit:g})"
                )
        if isinstance(connectivity, (bool, np.bool_)) or connectivity not in (4, 8):
            raise InvalidOptionError(f"connectivity={describe(connectivity)} is not valid; expected 4 or 8")
        check_option("diagonal", diagonal, DIAGONAL_RULES)
        check_option("wrap", wrap, WRAP_MODES)
        if regions is None:
            reg = np.zeros(arr.shape, dtype=np.int32)
        else:
            reg = np.asarray(regions)
            if reg.shape != arr.shape or not np.issubdtype(reg.dtype, np.integer):
                raise InvalidOptionError(
                    f"regions has shape {reg.shape} and dtype {reg.dtype}; expected integers of shape {arr.shape}"
                )
            reg = reg.astype(np.int32)

        blocked = ~np.isfinite(mult)
        wrap_r, wrap_c = wrap in ("y", "both"), wrap in ("x", "both")
        bits = _move_bits(~blocked, reg, int(connectivity), diagonal, wrap_r, wrap_c)
        for a in (mult, blocked, reg, bits):
            a.flags.writeable = False

        self.height: int = int(arr.shape[0])
        self.width: int = int(arr.shape[1])
        self.n_cells: int = self.height * self.width
        self.cell_size: float = size
        self.origin: tuple[float, float] = (float(org[0]), float(org[1]))
        self.connectivity: int = int(connectivity)
        self.diagonal: str = diagonal
        self.wrap: str = wrap
        self.costs: NDArray[np.float64] = mult
        self.blocked: NDArray[np.bool_] = blocked
        self.regions: NDArray[np.int32] = reg
        self.moves: NDArray[np.uint8] = bits

        self.arrays: GridArrays = GridArrays(self, mult, blocked, bits)
    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def from_strings(
        cls,
        rows: str | list[str],
        *,
        water: Literal["separate", "blocked", "passable"] = "separate",
        cell_size: float = 1.0,
        origin: ArrayLike = (0.0, 0.0),
        connectivity: int = 8,
        diagonal: Diagonal = "no_corner_cutting",
        wrap: Wrap = "none",
    ) -> GridMap:
        """Build a grid from text rows in Moving AI map characters (top row first).

        ``.`` ``G`` ``S`` are passable, ``@`` ``O`` ``T`` blocked, ``W`` is water (see
        :func:`navmesh.io.movingai.read_map`); ``#`` is also accepted as a wall.

        Parameters
        ----------
        rows : str or list of str
            One string per row, all the same length; a single string is split into lines and
            blank lines are dropped.
        water, cell_size, origin, connectivity, diagonal, wrap
            As for :meth:`from_movingai` and :class:`GridMap`.

        Examples
        --------
        >>> grid = GridMap.from_strings('''
        ... ..@
        ... .@.
        ... ...''', connectivity=4)
        >>> grid.blocked.astype(int).tolist()
        [[0, 0, 1], [0, 1, 0], [0, 0, 0]]
        """
        from navmesh.io.movingai import decode_rows

        if isinstance(rows, str):
            lines = [ln.strip() for ln in rows.splitlines() if ln.strip()]
        else:
            lines = list(rows)
        chars = decode_rows(lines, source="rows", first_line=1, allow_hash=True)
        return cls._from_chars(
            chars, water=water, cell_size=cell_size, origin=origin, connectivity=connectivity,
            diagonal=diagonal, wrap=wrap,
        )

    @classmethod
    def from_movingai(
        cls,
        path: str | os.PathLike[str],
        *,
        water: Literal["separate", "blocked", "passable"] = "separate",
        cell_size: float = 1.0,
        origin: ArrayLike = (0.0, 0.0),
        connectivity: int = 8,
        diagonal: Diagonal = "no_corner_cutting",
        wrap: Wrap = "none",
    ) -> GridMap:
        """Load a Moving AI ``.map`` file (see :func:`navmesh.io.movingai.read_map` for the format).

        The defaults (8-connected, no corner cutting, cell size 1) are the rules behind the
        benchmark's published optimal lengths, so ``grid_astar(...).cost`` matches them.

        Parameters
        ----------
        path : path-like
            The ``.map`` file.
        water : {"separate", "blocked", "passable"}
            How ``W`` cells are read: ``"separate"`` (default, the Moving AI rule) makes water a
            region of its own that connects only to water; ``"blocked"`` makes it a wall;
            ``"passable"`` makes it ordinary ground.
        cell_size, origin, connectivity, diagonal, wrap
            As for :class:`GridMap`.

        Raises
        ------
        LevelFormatError
            The file cannot be read; the message names the file, line and reason.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> f = pathlib.Path(tempfile.mkdtemp()) / "pond.map"
        >>> _ = f.write_text("type octile\\nheight 2\\nwidth 4\\nmap\\n..WW\\n.TWW\\n")
        >>> grid = GridMap.from_movingai(f)
        >>> grid.blocked.astype(int).tolist(), grid.regions.tolist()
        ([[0, 0, 0, 0], [0, 1, 0, 0]], [[0, 0, 1, 1], [0, 0, 1, 1]])
        >>> grid.neighbors(grid.cell_id(1, 0)).tolist()   # not into the water (right), nor the tree
        [0]
        """
        from navmesh.io.movingai import read_map

        chars = read_map(path).chars
        return cls._from_chars(
            chars, water=water, cell_size=cell_size, origin=origin, connectivity=connectivity,
            diagonal=diagonal, wrap=wrap,
        )

    @classmethod
    def _from_chars(cls, chars: NDArray[np.str_], *, water: str, **options: Any) -> GridMap:
        check_option("water", water, ("separate", "blocked", "passable"))
        is_water = chars == "W"
        blocked = np.isin(chars, ["@", "O", "T", "#"])
        regions = None
        if water == "blocked":
            blocked |= is_water
        elif water == "separate" and is_water.any():
            regions = is_water.astype(np.int32)
        return cls(blocked, regions=regions, **options)

    @classmethod
    def from_tiled(
        cls,
        source: Any,
        *,
        walls_layer: str = "walls",
        cost_property: str = "cost",
        scaling: float = 1.0,
        origin: ArrayLike = (0.0, 0.0),
        connectivity: int = 8,
        diagonal: Diagonal = "no_corner_cutting",
        wrap: Wrap = "none",
    ) -> GridMap:
        """Build a grid from a Tiled map: tiles in the walls layer block their cells.

        Every cell holding a tile in the tile layer named ``walls_layer`` is blocked. A tile
        whose tileset gives it a numeric property ``cost_property`` (in any tile layer) sets its
        cell's multiplier; where several layers give one, the largest wins. Other cells cost 1.
        The map is read with ``pytiled_parser``, the reader behind ``arcade.load_tilemap``, and
        placed the way arcade draws it: bottom-left corner at ``origin`` (arcade's ``offset``,
        default (0, 0)), cell size = tile size times ``scaling``, top row at the top.

        Parameters
        ----------
        source : path-like, ``pytiled_parser.TiledMap`` or ``arcade.TileMap``
            A ``.tmj``/``.json``/``.tmx`` file, or a map already loaded (an ``arcade.TileMap`` is
            read through its ``tiled_map`` attribute).
        walls_layer : str
            Name of the tile layer whose tiles are walls (searched inside layer groups too).
        cost_property : str
            Tile property holding a cost multiplier, a number > 0 (``inf`` blocks the cell).
        scaling : float
            The ``scaling`` passed to ``arcade.load_tilemap``, > 0.
        origin : pair of float
            The ``offset`` passed to ``arcade.load_tilemap`` (world units). Default (0, 0).
        connectivity, diagonal, wrap
            As for :class:`GridMap`.

        Raises
        ------
        LevelFormatError
            The map cannot be parsed, is not orthogonal, is infinite, has non-square tiles, has
            no tile layer named ``walls_layer``, or a cost property is not a number > 0.
        """
        multipliers, tile = _read_tiled(source, walls_layer, cost_property)
        try:
            scale = float(scaling)
        except (TypeError, ValueError):
            scale = float("nan")
        if not (scale > 0 and np.isfinite(scale)):
            raise InvalidOptionError(f"scaling={describe(scaling)} is not valid; expected a finite number > 0")
        return cls(
            multipliers, cell_size=tile * scale, origin=origin, connectivity=connectivity, diagonal=diagonal,
            wrap=wrap,
        )

    # -- shape and costs ----------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        """(height, width)."""
        return (self.height, self.width)

    @property
    def uniform_cost(self) -> bool:
        """Whether every passable cell has the same multiplier (needed by Jump Point Search)."""
        return self.arrays.uniform

    @property
    def min_multiplier(self) -> float:
        """Smallest multiplier of a passable cell (scales the A* heuristic); 1 on an all-wall map."""
        return self.arrays.min_multiplier

    def __repr__(self) -> str:
        return (
            f"GridMap({self.height}x{self.width}, cell_size={self.cell_size:g}, "
            f"connectivity={self.connectivity}, diagonal={self.diagonal!r}, wrap={self.wrap!r})"
        )

    # -- searching, preprocessing and local changes ---------------------------------------------
    def find_path(
        self,
        start: Any,
        goal: Any,
        *,
        max_expansions: int | None = None,
        allow_partial: bool = False,
        strict: bool = False,
    ) -> Path:
        """Least-cost path from ``start`` to ``goal`` by the fastest exact search for this map.

        See :func:`navmesh.grid.search.find_path`: JPS+ over the cached jump table where Jump
        Point Search applies (the table is built on the first call), octile A* elsewhere.
        ``start`` and ``goal`` are cell ids, (col, row) pairs or world positions. A blocked
        start or goal moves to the nearest passable cell (``path.start_moved`` /
        ``path.goal_moved``) unless ``strict=True``.

        Examples
        --------
        >>> grid = GridMap.from_strings(["....", ".@..", "...."])
        >>> round(grid.find_path((0, 2), (3, 0)).cost, 4)
        4.4142
        """
        from navmesh.grid.search import find_path

        return find_path(self, start, goal, max_expansions=max_expansions, allow_partial=allow_partial, strict=strict)

    def preprocess(self) -> JumpTable:
        """Build (once) and return the map's JPS+ jump table; later calls return the cached one.

        Its ``build_seconds`` and ``nbytes`` report the cost. :meth:`find_path` builds it on its
        first call anyway; call this at load time to keep that cost out of the first query.

        Raises
        ------
        InvalidOptionError
            The map does not meet Jump Point Search's requirements (see
            :func:`navmesh.grid.search.jump_point_search`); plain A* needs no preprocessing.
        """
        a = self.arrays
        if a.jps_problem:
            raise InvalidOptionError(f"preprocess needs {a.jps_problem}")
        if a.jump_table is None:
            a.jump_table = JumpTable.build(a.padded_free, self.width + 2)
        return a.jump_table

    @property
    def preprocessed(self) -> JumpTable | None:
        """The JPS+ jump table if it has been built, else None."""
        return self.arrays.jump_table

    @property
    def first_step_cache(self) -> TargetFieldCache:
        """The map's bounded cache of first-step fields (see :mod:`navmesh.grid.targets`)."""
        return self.arrays.target_fields

    def with_cells(self, cells: ArrayLike, multipliers: ArrayLike) -> GridMap:
        """A new map with the multipliers of some cells replaced (a door closing: ``inf``).

        Parameters
        ----------
        cells : int array of shape (k,) or (k, 2)
            Flat cell ids, or (col, row) pairs.
        multipliers : float or float array of shape (k,)
            New multipliers, as in the constructor (``0`` or ``inf`` = blocked, else > 0).

        Returns
        -------
        GridMap
            The changed map, with the same size, options and regions. When this map has a jump
            table and the new map still meets Jump Point Search's requirements, the new map gets
            a locally updated copy of it (equal to a table built from scratch); otherwise the new
            map has none and :meth:`find_path` builds one or uses A*, never a stale table.

        Raises
        ------
        NodeNotFoundError
            A cell is out of range.
        InvalidCostError
            A multiplier is negative, NaN or too large.

        Examples
        --------
        >>> grid = GridMap.from_strings(["...", "...", "..."])
        >>> closed = grid.with_cells([(1, 0), (1, 1)], float("inf"))
        >>> closed.blocked.astype(int).tolist()
        [[0, 1, 0], [0, 1, 0], [0, 0, 0]]
        """
        arr = np.asarray(cells)
        if arr.ndim == 2 and arr.shape[1] == 2 and np.issubdtype(arr.dtype, np.integer):
            ids = np.asarray(self.cell_id(arr[:, 0], arr[:, 1]), dtype=np.int64).reshape(-1)
        else:
            ids = self._check_ids("cells", arr).reshape(-1)
        costs = self.costs.copy().reshape(-1)
        try:
            costs[ids] = np.asarray(multipliers, dtype=np.float64)
        except (TypeError, ValueError):
            raise InvalidCostError(
                f"multipliers={describe(multipliers)} must be a number or one number per cell"
            ) from None
        new = GridMap(
            costs.reshape(self.shape), cell_size=self.cell_size, origin=self.origin,
            connectivity=self.connectivity, diagonal=self.diagonal, wrap=self.wrap,  # type: ignore[arg-type]
            regions=self.regions,
        )
        old_table = self.arrays.jump_table
        if old_table is not None and not new.arrays.jps_problem and ids.size:
            rows, cols = np.divmod(ids, self.width)
            new.arrays.jump_table = old_table.updated(
                new.arrays.padded_free, self.width + 2,
                (int(rows.min()), int(rows.max()) + 1), (int(cols.min()), int(cols.max()) + 1),
            )
        return new

    # -- cells and world coordinates ----------------------------------------------------------
    def cell_id(self, col: ArrayLike, row: ArrayLike) -> Any:
        """Flat id ``row * width + col`` of cells given by column and row (scalars or arrays).

        Raises
        ------
        NodeNotFoundError
            A column or row lies outside the grid.
        """
        c = np.asarray(col)
        r = np.asarray(row)
        if not (np.issubdtype(c.dtype, np.integer) and np.issubdtype(r.dtype, np.integer)):
            raise NodeNotFoundError(f"col={describe(col)}, row={describe(row)} must be integers")
        bad = (c < 0) | (c >= self.width) | (r < 0) | (r >= self.height)
        if np.any(bad):
            raise NodeNotFoundError(
                f"cell (col, row) outside the grid: cols must be in 0..{self.width - 1}, rows in 0..{self.height - 1}"
            )
        ids = r.astype(np.int64) * self.width + c
        return int(ids) if ids.ndim == 0 else ids.astype(np.int32)

    def col_row(self, cells: ArrayLike) -> NDArray[np.int64]:
        """Column and row of each cell id: shape (2,) for one id, (n, 2) for n ids."""
        ids = self._check_ids("cells", cells)
        return np.stack([ids % self.width, ids // self.width], axis=-1)

    def cell_center(self, cells: ArrayLike) -> NDArray[np.float64]:
        """World position of each cell's centre: shape (2,) for one id, (n, 2) for n ids."""
        ids = self._check_ids("cells", cells)
        return self._centers(ids)

    def _centers(self, ids: NDArray[np.int64]) -> NDArray[np.float64]:
        rows, cols = np.divmod(ids, self.width)
        s = self.cell_size
        x = self.origin[0] + (cols + 0.5) * s
        y = self.origin[1] + (self.height - rows - 0.5) * s
        return np.stack([x, y], axis=-1)

    def cell_at(self, points: ArrayLike) -> Any:
        """Id of the cell containing each world point: an int for one (x, y), an array for (n, 2).

        Cells are half-open squares: a point on the line between two cells belongs to the cell
        right of it / below it (the one with the larger column / row).

        Raises
        ------
        InvalidGeometryError
            ``points`` is not (2,) or (n, 2) finite numbers.
        NodeNotFoundError
            A point lies outside the grid.
        """
        try:
            pts = np.asarray(points, dtype=np.float64)
        except (TypeError, ValueError):
            raise InvalidGeometryError(f"points={describe(points)} cannot be read as numbers") from None
        if pts.shape[-1:] != (2,) or pts.ndim > 2 or not np.isfinite(pts).all():
            raise InvalidGeometryError(f"points has shape {pts.shape}; expected finite (2,) or (n, 2) world positions")
        s = self.cell_size
        cols = np.floor((pts[..., 0] - self.origin[0]) / s)
        rows_up = np.floor((pts[..., 1] - self.origin[1]) / s)
        bad = (cols < 0) | (cols >= self.width) | (rows_up < 0) | (rows_up >= self.height)
        if np.any(bad):
            i = int(np.flatnonzero(np.atleast_1d(bad))[0])
            p = np.atleast_2d(pts)[i].tolist()
            raise NodeNotFoundError(f"points[{i}]={p} lies outside the grid")
        ids = (self.height - 1 - rows_up.astype(np.int64)) * self.width + cols.astype(np.int64)
        return int(ids) if ids.ndim == 0 else ids.astype(np.int32)

    def is_passable(self, cells: ArrayLike) -> Any:
        """Whether each cell is passable: a bool for one id, a bool array for several."""
        ids = self._check_ids("cells", cells)
        out = ~self.arrays.blocked[ids]
        return bool(out) if out.ndim == 0 else out

    def neighbors(self, cell: int) -> NDArray[np.int32]:
        """Cells one allowed step away from ``cell``, in direction order (see :attr:`moves`)."""
        u = int(self._check_ids("cell", cell))
        r, c = divmod(u, self.width)
        bits = int(self.arrays.moves[u])
        out = [
            ((r + int(DROW[d])) % self.height) * self.width + (c + int(DCOL[d])) % self.width
            for d in range(8)
            if bits >> d & 1
        ]
        return np.array(out, dtype=np.int32)

    def _check_ids(self, name: str, cells: ArrayLike) -> NDArray[np.int64]:
        ids = np.asarray(cells)
        if not np.issubdtype(ids.dtype, np.integer) or ids.ndim > 1:
            raise NodeNotFoundError(f"{name}={describe(cells)} must be a cell id or a 1-D array of cell ids")
        if ids.size and (ids.min() < 0 or ids.max() >= self.n_cells):
            bad = ids[(ids < 0) | (ids >= self.n_cells)].reshape(-1)[0]
            raise NodeNotFoundError(f"{name} holds {int(bad)}, out of range; cell ids run 0..{self.n_cells - 1}")
        return ids.astype(np.int64)

    # -- graph interop ------------------------------------------------------------------------
    def to_navgraph(self) -> NavGraph:
        """The grid as a :class:`~navmesh.graph.NavGraph` with one node per cell.

        Node ``i`` is cell ``i`` at its centre (blocked cells are isolated nodes), one arc per
        allowed step. Arc ``lengths`` are the step costs (length in world units times the mean
        multiplier), so graph searches with default weights solve the same problem as the grid
        searches. Steps across a wrapped border carry the tag ``"wrap"`` (tag id 1).

        Examples
        --------
        >>> grid = GridMap.from_strings(["...", ".@."], connectivity=4)
        >>> g = grid.to_navgraph()
        >>> g.n_nodes, g.n_edges
        (6, 8)
        """
        from navmesh.graph import NavGraph

        h, w = self.height, self.width
        rows, cols = np.divmod(np.arange(self.n_cells, dtype=np.int64), w)
        src_parts, dst_parts, len_parts, tag_parts = [], [], [], []
        for d in range(8):
            src = np.flatnonzero(self.arrays.moves & (1 << d))
            if src.size == 0:
                continue
            r2 = rows[src] + int(DROW[d])
            c2 = cols[src] + int(DCOL[d])
            crossed = (r2 < 0) | (r2 >= h) | (c2 < 0) | (c2 >= w)
            dst = (r2 % h) * w + (c2 % w)
            src_parts.append(src)
            dst_parts.append(dst)
            len_parts.append(STEP_LEN[d] * (self.arrays.half_cost[src] + self.arrays.half_cost[dst]))
            tag_parts.append(crossed.astype(np.int32))
        if src_parts:
            src = np.concatenate(src_parts)
            dst = np.concatenate(dst_parts)
            lens = np.concatenate(len_parts)
            tags = np.concatenate(tag_parts)
        else:
            src = dst = np.zeros(0, dtype=np.int64)
            lens = np.zeros(0)
            tags = np.zeros(0, dtype=np.int32)
        order = np.argsort(src, kind="stable")
        indptr = np.zeros(self.n_cells + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=self.n_cells), out=indptr[1:])
        points = self._centers(np.arange(self.n_cells, dtype=np.int64))
        return NavGraph(points, indptr, dst[order], lens[order], tags[order], ("", "wrap"))


def _read_tiled(source: Any, walls_layer: str, cost_property: str) -> tuple[NDArray[np.float64], float]:
    """Multipliers (inf = wall) and tile size from a Tiled map; see :meth:`GridMap.from_tiled`."""
    import pytiled_parser

    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if not os.path.isfile(name):
            raise FileNotFoundError(f"{name}: no such Tiled map file")
        try:
            tmap = pytiled_parser.parse_map(pathlib.Path(name))
        except Exception as exc:  # the parser raises many kinds of errors on bad input
            raise LevelFormatError(f"{name}: cannot read the Tiled map: {type(exc).__name__}: {exc}") from None
    else:
        tmap = getattr(source, "tiled_map", source)
        name = str(getattr(tmap, "map_file", "tiled map"))
    if not hasattr(tmap, "layers") or not hasattr(tmap, "map_size"):
        raise InvalidOptionError(
            f"source={describe(source)} is not a Tiled map; pass a file path, a pytiled_parser.TiledMap "
            "or an arcade.TileMap"
        )
    if tmap.orientation != "orthogonal":
        raise LevelFormatError(f"{name}: orientation {tmap.orientation!r} is not supported; expected 'orthogonal'")
    if tmap.infinite:
        raise LevelFormatError(f"{name}: infinite maps are not supported; give the map a fixed size")
    tw, th = tmap.tile_size.width, tmap.tile_size.height
    if tw != th or tw <= 0:
        raise LevelFormatError(f"{name}: tiles are {tw}x{th}; grid maps need square tiles")
    h, w = int(tmap.map_size.height), int(tmap.map_size.width)

    gid_cost: dict[int, float] = {}
    for firstgid, tileset in tmap.tilesets.items():
        for local_id, tile in (tileset.tiles or {}).items():
            props = tile.properties or {}
            if cost_property not in props:
                continue
            value = props[cost_property]
            try:
                cost = float(value) if not isinstance(value, bool) else float("nan")
            except (TypeError, ValueError):
                cost = float("nan")
            if not cost > 0:
                raise LevelFormatError(
                    f"{name}: tile {local_id} of tileset {tileset.name!r} has {cost_property}={value!r}; "
                    "expected a number > 0 (inf = blocked)"
                )
            gid_cost[int(firstgid) + int(local_id)] = cost

    def tile_layers(layers: list) -> list:
        out = []
        for layer in layers:
            if isinstance(layer, pytiled_parser.LayerGroup):
                out.extend(tile_layers(layer.layers or []))
            elif isinstance(layer, pytiled_parser.TileLayer):
                out.append(layer)
        return out

    layers = tile_layers(tmap.layers)
    multipliers = np.ones((h, w), dtype=np.float64)
    has_cost = np.zeros((h, w), dtype=bool)
    walls = None
    lookup_ids = np.array(sorted(gid_cost), dtype=np.int64)
    lookup_vals = np.array([gid_cost[k] for k in lookup_ids], dtype=np.float64)
    for layer in layers:
        rows = layer.data or []  # pytiled_parser gives one list of tile ids per row
        if len(rows) != h or any(len(row) != w for row in rows):
            raise LevelFormatError(
                f"{name}: tile layer {layer.name!r} holds {sum(map(len, rows))} tiles in {len(rows)} rows; "
                f"expected {h} rows of {w} tiles"
            )
        try:
            data = np.array(rows, dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            raise LevelFormatError(f"{name}: tile layer {layer.name!r} holds a value that is not a tile id") from None
        gids = (data & 0x0FFFFFFF).reshape(h, w)
        if layer.name == walls_layer and walls is None:
            walls = gids != 0
        if lookup_ids.size:
            pos = np.clip(np.searchsorted(lookup_ids, gids), 0, lookup_ids.size - 1)
            hit = lookup_ids[pos] == gids
            vals = np.where(hit, lookup_vals[pos], 0.0)
            multipliers = np.where(hit & has_cost, np.maximum(multipliers, vals), np.where(hit, vals, multipliers))
            has_cost |= hit
    if walls is None:
        names = ", ".join(repr(layer.name) for layer in layers) or "none"
        raise LevelFormatError(f"{name}: no tile layer named {walls_layer!r} (tile layers: {names})")
    multipliers[walls] = np.inf
    return multipliers, float(tw)
