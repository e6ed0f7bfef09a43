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
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

from navmesh._kernels.jumps import build_jump_table, update_jump_table

__all__ = ["JumpTable"]


class JumpTable:
    """The JPS+ jump distances of one map (see the module docstring).

    Attributes
    ----------
    table : int16 (int32 beyond 32,000 cells a side) array of shape ((height + 2) * (width + 2), 8)
        Jump entries per direction and padded cell (read-only).
    build_seconds : float
        Wall time spent building (or updating) it, in seconds.
    """

    __slots__ = ("build_seconds", "table")

    def __init__(self, table: NDArray[np.int32], build_seconds: float) -> None:
        table.flags.writeable = False
        self.table = table
        self.build_seconds = build_seconds

    @classmethod
    def build(cls, padded_free: NDArray[np.uint8], padded_width: int) -> JumpTable:
        """Build the table of padded passable flags (``GridArrays.padded_free``)."""
        t0 = time.perf_counter()
        small = max(padded_width, len(padded_free) // padded_width) < 2**15
        table = np.zeros((len(padded_free), 8), dtype=np.int16 if small else np.int32)
        build_jump_table(padded_free, padded_width, table)
        return cls(table, time.perf_counter() - t0)

    def updated(
        self, padded_free: NDArray[np.uint8], padded_width: int, rows: tuple[int, int], cols: tuple[int, int]
    ) -> JumpTable:
        """A copy refreshed for new flags, where only grid rows ``rows`` and columns ``cols``
        (half-open ranges of unpadded indices) changed."""
        t0 = time.perf_counter()
        table = self.table.copy()
        update_jump_table(padded_free, padded_width, table, rows[0] + 1, rows[1] + 1, cols[0] + 1, cols[1] + 1)
        return JumpTable(table, time.perf_counter() - t0)

    @property
    def nbytes(self) -> int:
        """Memory held by the table, in bytes."""
        return int(self.table.nbytes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JumpTable) and np.array_equal(self.table, other.table)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"JumpTable({self.nbytes / 2**20:.1f} MiB, built in {self.build_seconds * 1e3:.1f} ms)"
