"""Reading the cells of a grid map: walls or cost multipliers in, checked float64 multipliers out.

The one place that decides what a cell value means (see :class:`~navmesh.grid.GridMap`):
booleans are walls (``True``) or free cells of multiplier 1; numbers are multipliers, where 0
and ``inf`` both mean blocked and negative or NaN values are errors.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import as_array, check_option
from navmesh.errors import InvalidCostError, InvalidGeometryError, InvalidOptionError, describe

__all__ = ["MAX_COST_SCALE", "check_cost_scale", "read_chars", "read_multipliers", "read_placement", "read_regions"]

_MAX_CELLS = 2**31 - 1
#: Bound on multiplier x cell_size x number of cells, so that any path cost stays finite
#: (a path crosses each cell at most once, a step costs at most sqrt 2 times its multipliers).
MAX_COST_SCALE = 1e300


def read_multipliers(cells: ArrayLike) -> NDArray[np.float64]:
    """The multiplier of every cell (``inf`` = blocked) of a (height, width) array of walls or numbers.

    Raises
    ------
    InvalidGeometryError
        ``cells`` is not a non-empty 2-D array, or has more than 2**31 - 1 cells.
    InvalidCostError
        A value is negative or NaN, or ``cells`` holds neither booleans nor real numbers.
    """
    arr = as_array("cells", cells, InvalidGeometryError)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InvalidGeometryError(
            f"cells has shape {arr.shape}; expected a non-empty 2-D array (height, width)"
        )
    if arr.shape[0] * arr.shape[1] > _MAX_CELLS:
        raise InvalidGeometryError(f"cells has shape {arr.shape}; at most {_MAX_CELLS} cells are supported")
    if arr.dtype == np.bool_:
        return np.where(arr, np.inf, 1.0)
    if not np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.complexfloating):
        raise InvalidCostError(f"cells has dtype {arr.dtype}; expected booleans (walls) or numbers (multipliers)")
    mult = arr.astype(np.float64)
    bad = ~(mult >= 0)
    if bad.any():
        r, c = (int(i) for i in np.argwhere(bad)[0])
        raise InvalidCostError(
            f"cells[{r}, {c}]={mult[r, c]} is not allowed; multipliers must be >= 0 "
            "(0 or inf = blocked)"
        )
    mult[mult == 0] = np.inf
    return mult


def check_cost_scale(mult: NDArray[np.float64], cell_size: float) -> None:
    """Reject finite multipliers above ``MAX_COST_SCALE / (cell_size * number of cells)``.

    Raises
    ------
    InvalidCostError
        A multiplier is so large that a path cost could overflow.
    """
    finite = np.isfinite(mult)
    if not finite.any():
        return
    limit = MAX_COST_SCALE / (cell_size * mult.size)
    too_big = finite & (mult > limit)
    if too_big.any():
        r, c = (int(i) for i in np.argwhere(too_big)[0])
        raise InvalidCostError(
            f"cells[{r}, {c}]={mult[r, c]:g} is too large: multiplier x cell_size x number of cells "
            f"must stay below {MAX_COST_SCALE:g} so path costs stay finite (here multipliers up to "
            f"{limit:g})"
        )


def read_regions(regions: ArrayLike | None, shape: tuple[int, int]) -> NDArray[np.int32]:
    """Region ids (int32, of ``shape``); one region (all 0) when ``regions`` is None.

    Raises
    ------
    InvalidOptionError
        ``regions`` is not an integer array of ``shape``.
    """
    if regions is None:
        return np.zeros(shape, dtype=np.int32)
    reg = np.asarray(regions)
    if reg.shape != shape or not np.issubdtype(reg.dtype, np.integer):
        raise InvalidOptionError(
            f"regions has shape {reg.shape} and dtype {reg.dtype}; expected integers of shape {shape}"
        )
    return reg.astype(np.int32)


def read_placement(cell_size: object, origin: ArrayLike) -> tuple[float, tuple[float, float]]:
    """The checked cell size (> 0, finite) and origin (two finite numbers) of a map.

    Raises
    ------
    InvalidOptionError
        ``cell_size`` is not a finite number > 0.
    InvalidGeometryError
        ``origin`` is not two finite numbers.
    """
    try:
        size = float(cell_size)  # type: ignore[arg-type]
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
    return size, (float(org[0]), float(org[1]))


def read_chars(chars: NDArray[np.str_], *, water: str) -> tuple[NDArray[np.bool_], NDArray[np.int32] | None]:
    """Walls and regions of Moving AI map characters (``@ O T #`` walls, ``W`` water).

    ``water="separate"`` (the Moving AI rule) makes water a region of its own (None when there
    is none), ``"blocked"`` a wall, ``"passable"`` ordinary ground.

    Raises
    ------
    InvalidOptionError
        ``water`` is not one of the three values.
    """
    check_option("water", water, ("separate", "blocked", "passable"))
    is_water = chars == "W"
    blocked = np.isin(chars, ["@", "O", "T", "#"])
    regions = None
    if water == "blocked":
        blocked |= is_water
    elif water == "separate" and is_water.any():
        regions = is_water.astype(np.int32)
    return blocked, regions
