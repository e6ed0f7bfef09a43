"""Load-time preprocessing for static tile maps: the JPS+ jump table.

:class:`JumpTable` stores, for every cell and each of the eight directions, where Jump Point
Search's scan from that cell stops (see :mod:`navmesh._kernels.jumps`). With it a search jumps
from jump point to jump point in constant time per successor instead of walking the cells in
between, and returns exactly the paths of plain Jump Point Search, which are optimal under the
default rules (8-connected, no corner cutting, one multiplier, no wrap-around, one region).

The table is built on request (:meth:`navmesh.grid.GridMap.preprocess`) or lazily by the first
:meth:`~navmesh.grid.GridMap.find_path`, and cached on the map. Memory is 16 bytes per cell
(8 int16 entries) on the grid padded by a one-cell border. A local change
(:meth:`~navmesh.grid.GridMap.with_cells`, a door opening or closing) updates a copy of the
table: the straight entries of the changed rows and columns and their neighbours, and all
diagonal entries (one linear pass each), which equals a table built from scratch.

Choosing the search
-------------------
The table also measures the map's character, and :meth:`~navmesh.grid.GridMap.find_path`
picks its search by it (:attr:`JumpTable.method`). JPS pays for each jump point with more work
than A* spends on a cell, so it loses where nearly every cell is a jump point in open ground:
maps sprinkled with a few small obstacles, where every diagonal scan stops at once. The measure
is the *diagonal stop share*: of the four diagonal steps of every passable cell, the share that
are legal (both side cells and the cell ahead passable) and whose scan stops at the cell itself
(table entry 0). Measured (CPU time of JPS+ over A* on the 40 longest of 400 random queries,
512x512 maps unless named): random obstacles on 1% / 3% / 10% / 20% of cells: share 0.82 / 0.79
/ 0.63 / 0.43, JPS+ took 1.54 / 1.35 / 0.83 / 0.89 of A*'s time; Moving AI's room-32-32-4
(32x32): 0.23, 0.77; a one-cell maze (maze512-1-0, no legal diagonal step): 0, 0.77; 8-cell
rooms: 0.25, about 0.2; Berlin_0_256: 0.12, about 0.05. From :data:`STOP_SHARE` up A* is used.
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

from navmesh._kernels.jumps import build_jump_table, update_jump_table

__all__ = ["STOP_SHARE", "JumpTable"]

#: Diagonal stop share (see the module notes) from which :meth:`~navmesh.grid.GridMap.find_path`
#: uses octile A*; below it, JPS+.
STOP_SHARE = 0.7


class JumpTable:
    """The JPS+ jump distances of one map (see the module docstring).

    Attributes
    ----------
    table : int16 (int32 beyond 32,000 cells a side) array of shape ((height + 2) * (width + 2), 8)
        Jump entries per direction and padded cell (read-only).
    build_seconds : float
        Wall time spent building (or updating) it, in seconds.
    stop_share : float
        The diagonal stop share in [0, 1] (see the module notes; 0 on a map without passable
        cells).
    method : {"jps_plus", "astar"}
        The search :meth:`~navmesh.grid.GridMap.find_path` runs on this map: ``"astar"`` when
        ``stop_share >= STOP_SHARE``, else ``"jps_plus"``. Both return optimal costs.
    """

    __slots__ = ("build_seconds", "method", "stop_share", "table")

    def __init__(
        self, table: NDArray[np.int32], build_seconds: float, padded_free: NDArray[np.uint8], padded_width: int
    ) -> None:
        table.flags.writeable = False
        self.table = table
        self.build_seconds = build_seconds
        self.stop_share = _stop_share(table, padded_free.astype(bool), padded_width)
        self.method = "astar" if self.stop_share >= STOP_SHARE else "jps_plus"

    @classmethod
    def build(cls, padded_free: NDArray[np.uint8], padded_width: int) -> JumpTable:
        """Build the table of padded passable flags (``GridArrays.padded_free``)."""
        t0 = time.perf_counter()
        small = max(padded_width, len(padded_free) // padded_width) < 2**15
        table = np.zeros((len(padded_free), 8), dtype=np.int16 if small else np.int32)
        build_jump_table(padded_free, padded_width, table)
        return cls(table, time.perf_counter() - t0, padded_free, padded_width)

    def updated(
        self, padded_free: NDArray[np.uint8], padded_width: int, rows: tuple[int, int], cols: tuple[int, int]
    ) -> JumpTable:
        """A copy refreshed for new flags, where only grid rows ``rows`` and columns ``cols``
        (half-open ranges of unpadded indices) changed."""
        t0 = time.perf_counter()
        table = self.table.copy()
        update_jump_table(padded_free, padded_width, table, rows[0] + 1, rows[1] + 1, cols[0] + 1, cols[1] + 1)
        return JumpTable(table, time.perf_counter() - t0, padded_free, padded_width)

    @property
    def nbytes(self) -> int:
        """Memory held by the table, in bytes."""
        return int(self.table.nbytes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JumpTable) and np.array_equal(self.table, other.table)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"JumpTable({self.nbytes / 2**20:.1f} MiB, built in {self.build_seconds * 1e3:.1f} ms, "
            f"diagonal stop share {self.stop_share:.2f}: {self.method})"
        )


def _stop_share(table: NDArray[np.int32], free: NDArray[np.bool_], pw: int) -> float:
    """The diagonal stop share of a table (see the module notes); ``free`` the padded flags."""
    n_free = int(np.count_nonzero(free))
    if n_free == 0:
        return 0.0
    cells = np.flatnonzero(free[pw:-pw]) + pw  # the padded border is blocked: no bounds checks
    stops = 0
    for d, (sx, sy) in enumerate(((1, -1), (1, 1), (-1, 1), (-1, -1)), start=4):
        legal = free[cells + sx] & free[cells + sy * pw] & free[cells + sx + sy * pw]
        stops += int(np.count_nonzero(legal & (table[cells, d] == 0)))
    return stops / (4 * n_free)
