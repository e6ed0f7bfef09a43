"""Route packing: every route tree and every unit's own route in four flat arrays for the kernel.

A :class:`RouteBlock` is one route: rows (points) with the next row of each (-1: then the unit's
slot), the route cost from each row to the route's end and the unit type's terrain multiplier at
each row. A :class:`RouteTable` packs the blocks of all live orders one after the other, so the
crowd kernel follows ``next`` from any unit's current row without knowing which block it is in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from navmesh.path import Path

__all__ = ["RouteBlock", "RouteTable"]


@dataclass
class RouteBlock:
    """One route tree toward a goal, or one unit's own route: row positions, next row (-1: then
    the unit's slot), the route cost from each row to the goal, and the unit type's terrain
    multiplier at each row (0 on grids: no cost test for shortcuts there). In a tree the last
    row is the goal (grids: its cell centre); ``path`` is the planned path of a unit's own route."""

    xy: NDArray[np.float64]
    nxt: NDArray[np.int64]
    dist: NDArray[np.float64]
    goal: NDArray[np.float64]
    mult: NDArray[np.float64]
    path: Path | None = None


def _grown(arr: NDArray[Any], cap: int, fill: float) -> NDArray[Any]:
    """``arr`` copied into a new array of ``cap`` rows, the new rows set to ``fill``."""
    out = np.full((cap, *arr.shape[1:]), fill, dtype=arr.dtype)
    out[: len(arr)] = arr
    return out


class RouteTable:
    """The packed rows of all routes: ``xy`` (rows, 2), ``next``, ``rest`` (cost to the route's
    end), ``mult``; ``length`` rows in use (the arrays may be longer); ``base[key]`` is the first
    row of block ``key``. ``dirty`` asks for a :meth:`rebuild` (an order ended or changed)."""

    def __init__(self) -> None:
        self.xy = np.zeros((0, 2))
        self.next = np.zeros(0, np.int64)
        self.rest = np.zeros(0)
        self.mult = np.zeros(0)
        self.length = 0
        self.base: dict[Any, int] = {}
        self.blocks: dict[Any, RouteBlock] = {}
        self.dirty = False

    def append(self, key: Any, block: RouteBlock, cur: NDArray[np.int64], blocks: Iterable[tuple[Any, RouteBlock]]) -> None:
        """Add one block after the rows in use; the arrays grow by doubling (a block it replaces
        stays behind, unused, until the next rebuild). A dirty table is rebuilt from ``blocks``
        instead (see :meth:`rebuild`), which must then hold ``key``."""
        if self.dirty:
            self.rebuild(blocks, cur)
            return
        off, m = self.length, len(block.xy)
        if off + m > len(self.xy):
            cap = max(2 * len(self.xy), off + m, 64)
            self.xy = _grown(self.xy, cap, 0.0)
            self.next = _grown(self.next, cap, -1)
            self.rest = _grown(self.rest, cap, 0.0)
            self.mult = _grown(self.mult, cap, 0.0)
        self.xy[off : off + m] = block.xy
        self.next[off : off + m] = np.where(block.nxt >= 0, block.nxt + off, -1)
        self.rest[off : off + m] = block.dist
        self.mult[off : off + m] = block.mult
        self.length = off + m
        self.base[key] = off
        self.blocks[key] = block

    def rebuild(self, blocks: Iterable[tuple[Any, RouteBlock]], cur: NDArray[np.int64]) -> None:
        """Pack ``blocks`` (key, block) afresh when dirty; units' current rows ``cur`` (written in
        place) follow their block, or become -1 where it is gone or replaced."""
        if not self.dirty:
            return
        xy, nxt, rest, mult = [np.zeros((0, 2))], [np.zeros(0, np.int64)], [np.zeros(0)], [np.zeros(0)]
        base: dict[Any, int] = {}
        kept: dict[Any, RouteBlock] = {}
        remap = np.full(self.length, -1, np.int64)
        off = 0
        for key, block in blocks:
            m = len(block.xy)
            base[key] = off
            kept[key] = block
            if self.blocks.get(key) is block:  # a replaced block's old rows lead nowhere
                ob = self.base[key]
                remap[ob : ob + m] = np.arange(off, off + m)
            xy.append(block.xy)
            rest.append(block.dist)
            mult.append(block.mult)
            nxt.append(np.where(block.nxt >= 0, block.nxt + off, -1))
            off += m
        has = cur >= 0
        cur[has] = remap[cur[has]] if len(remap) else -1
        self.xy = np.ascontiguousarray(np.concatenate(xy))
        self.next = np.ascontiguousarray(np.concatenate(nxt))
        self.rest = np.ascontiguousarray(np.concatenate(rest), dtype=np.float64)
        self.mult = np.ascontiguousarray(np.concatenate(mult), dtype=np.float64)
        self.length = len(self.xy)
        self.base = base
        self.blocks = kept
        self.dirty = False

    def rows_from(self, row: int) -> list[int]:
        """The rows a unit at ``row`` walks through (following ``next``)."""
        out = []
        while row >= 0 and len(out) < self.length:
            out.append(row)
            row = int(self.next[row])
        return out
