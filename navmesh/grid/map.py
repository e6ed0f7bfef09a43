"""`GridMap`: a tile map for grid searches and flow fields.

A grid is a rectangle of ``height`` rows by ``width`` columns of square cells. Each cell is
passable with a cost multiplier, or blocked. Which steps are allowed (4 or 8 neighbours, the
diagonal rule, wrap-around borders, regions such as water that connect only to themselves) is
decided once, when the map is made (:mod:`navmesh.grid.rules`, cell values read by
:mod:`navmesh.grid.cells`, kernel arrays in :mod:`navmesh.grid.arrays`); the searches in
:mod:`navmesh.grid.search` and :mod:`navmesh.grid.flowfield` then just read the result.

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
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._kernels.grid import DCOL, DROW
from navmesh.errors import (
    InvalidCostError,
    InvalidGeometryError,
    InvalidOptionError,
    NodeNotFoundError,
    describe,
)
from navmesh.grid.arrays import GridArrays
from navmesh.grid.cells import (
    MAX_COST_SCALE, check_cost_scale, read_chars, read_multipliers, read_placement, read_regions,
)
from navmesh.grid.graph import grid_graph
from navmesh.grid.preprocess import JumpTable
from navmesh.grid.rules import Diagonal, Wrap, check_rules, move_bits
from navmesh.grid.search import find_path as _find_path
from navmesh.grid.targets import TargetFieldCache

if TYPE_CHECKING:
    from navmesh.graph import NavGraph
    from navmesh.path import Path

__all__ = ["MAX_COST_SCALE", "GridMap"]

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
        mult = read_multipliers(cells)
        size, org = read_placement(cell_size, origin)
        check_cost_scale(mult, size)
        check_rules(connectivity, diagonal, wrap)
        reg = read_regions(regions, mult.shape)

        blocked = ~np.isfinite(mult)
        wrap_r, wrap_c = wrap in ("y", "both"), wrap in ("x", "both")
        bits = move_bits(~blocked, reg, int(connectivity), diagonal, wrap_r, wrap_c)
        for a in (mult, blocked, reg, bits):
            a.flags.writeable = False

        self.height: int = int(mult.shape[0])
        self.width: int = int(mult.shape[1])
        self.n_cells: int = self.height * self.width
        self.cell_size: float = size
        self.origin: tuple[float, float] = org
        self.connectivity: int = int(connectivity)
        self.diagonal: str = diagonal
        self.wrap: str = wrap
        self.costs: NDArray[np.float64] = mult
        self.blocked: NDArray[np.bool_] = blocked
        self.regions: NDArray[np.int32] = reg
        self.moves: NDArray[np.uint8] = bits

        self.arrays: GridArrays = GridArrays(
            mult, blocked, bits, reg, cell_size=size, origin=self.origin, connectivity=self.connectivity,
            diagonal=diagonal, wrap=wrap,
        )
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
        blocked, regions = read_chars(chars, water=water)
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
        from navmesh.io.tiled import read_tiled_grid

        multipliers, tile = read_tiled_grid(source, walls_layer=walls_layer, cost_property=cost_property)
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

        See :func:`navmesh.grid.search.find_path`: the search the cached jump table names where
        Jump Point Search applies (JPS+ or A*, by the map's character), octile A* elsewhere.
        ``start`` and ``goal`` are cell ids, (col, row) pairs or world positions. A blocked
        start or goal moves to the nearest passable cell (``path.start_moved`` /
        ``path.goal_moved``) unless ``strict=True``.

        Examples
        --------
        >>> grid = GridMap.from_strings(["....", ".@..", "...."])
        >>> round(grid.find_path((0, 2), (3, 0)).cost, 4)
        4.4142
        """
        return _find_path(self, start, goal, max_expansions=max_expansions, allow_partial=allow_partial, strict=strict)

    def preprocess(self) -> JumpTable:
        """Build (once) and return the map's JPS+ jump table; later calls return the cached one.

        Its ``build_seconds`` and ``nbytes`` report the cost, its ``method`` the search
        :meth:`find_path` runs on this map. :meth:`find_path` builds it on its first call
        anyway; call this at load time to keep that cost out of the first query.

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
        return grid_graph(self)
