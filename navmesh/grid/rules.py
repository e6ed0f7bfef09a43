"""The step rules of a grid: which of the eight steps each cell allows, as one byte per cell.

Walls, the diagonal rule, regions (water that connects only to water), map edges and
wrap-around borders are all folded into the move bits once, when a
:class:`~navmesh.grid.GridMap` is made; the kernels then never check them again. Bit ``d`` of a
cell is the step in direction ``d``: 0 up (row - 1), 1 right, 2 down, 3 left, 4 up-right,
5 down-right, 6 down-left, 7 up-left (:data:`DIRECTION_NAMES`).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from navmesh._checks import check_option
from navmesh._kernels.grid import DCOL, DROW
from navmesh.errors import InvalidOptionError, describe

__all__ = ["DIAGONAL_RULES", "DIRECTION_NAMES", "WRAP_MODES", "Diagonal", "Wrap", "check_rules", "move_bits"]

Diagonal = Literal["never", "no_corner_cutting", "one_blocked", "always"]
Wrap = Literal["none", "x", "y", "both"]
DIAGONAL_RULES: tuple[str, ...] = ("never", "no_corner_cutting", "one_blocked", "always")
WRAP_MODES: tuple[str, ...] = ("none", "x", "y", "both")
#: Direction codes used by the move bits and by flow fields (row - 1 is "up" on screen).
DIRECTION_NAMES: tuple[str, ...] = (
    "up", "right", "down", "left", "up_right", "down_right", "down_left", "up_left",
)


def check_rules(connectivity: object, diagonal: object, wrap: object) -> None:
    """Check a map's step options (see :class:`~navmesh.grid.GridMap`).

    Raises
    ------
    InvalidOptionError
        ``connectivity`` is not 4 or 8, or ``diagonal`` / ``wrap`` is not one of its values.
    """
    if isinstance(connectivity, (bool, np.bool_)) or connectivity not in (4, 8):
        raise InvalidOptionError(f"connectivity={describe(connectivity)} is not valid; expected 4 or 8")
    check_option("diagonal", diagonal, DIAGONAL_RULES)
    check_option("wrap", wrap, WRAP_MODES)


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


def move_bits(
    passable: NDArray[np.bool_],
    regions: NDArray[np.int32],
    connectivity: int,
    diagonal: str,
    wrap_r: bool,
    wrap_c: bool,
) -> NDArray[np.uint8]:
    """Bit d of each cell: the step in direction d is allowed.

    Parameters
    ----------
    passable : bool array of shape (height, width)
        Cells that are not blocked.
    regions : int32 array of shape (height, width)
        Region id of each cell; a step (and each side cell the diagonal rule looks at) stays in one.
    connectivity : {4, 8}
        Neighbours a cell can step to.
    diagonal : {"never", "no_corner_cutting", "one_blocked", "always"}
        The diagonal rule (see :class:`~navmesh.grid.GridMap`).
    wrap_r, wrap_c : bool
        Whether rows (top/bottom) or columns (left/right) wrap around.

    Returns
    -------
    uint8 array of shape (height, width)
    """
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
