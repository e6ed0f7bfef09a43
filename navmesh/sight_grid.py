"""Candidate pairs for bulk line of sight: a uniform grid of wall bounding boxes (:class:`BoxGrid`).

:meth:`navmesh.sight.LineOfSight.blocked` cuts segments into short pieces and asks this grid for
the (piece, wall) pairs whose bounding boxes overlap. The grid counts a batch's pairs before it
gathers them, so the pairs come out in slices of a fixed size: the memory of a batch is known in
advance whatever the level. Pure numpy; no geometry objects are made per piece.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

__all__ = ["BoxGrid", "piece_length"]


class BoxGrid:
    """Axis-aligned boxes (wall edges, pinch points, seams) bucketed in square cells.

    Each item is listed in every cell its box, grown by :attr:`pad` on every side, overlaps: so a
    point within ``pad`` of an item's box lies in a cell that lists the item, even when rounding
    puts a point computed near a cell's side on the wrong side of it.

    Parameters
    ----------
    lo, hi : float arrays of shape (n, 2)
        Lower-left and upper-right corners of each item's bounding box (world units).
    cell : float
        Side of a cell in world units (> 0). The side is doubled while the items would fill more
        than about ``8 n + 100,000`` cell slots (long diagonal walls), which bounds the grid's memory.

    Attributes
    ----------
    pad : float
        ``1e-7`` times the items' extent (their largest coordinate plus their span), world units.
    """

    def __init__(self, lo: NDArray[np.float64], hi: NDArray[np.float64], cell: float) -> None:
        self.n = len(lo)
        base = lo.min(axis=0) if self.n else np.zeros(2)
        span = (hi.max(axis=0) - base) if self.n else np.zeros(2)
        self.pad = 1e-7 * (float(np.abs(np.r_[lo.ravel(), hi.ravel()]).max(initial=0.0)) + float(span.max(initial=0.0)))
        self.origin = base - self.pad
        span = span + 2 * self.pad
        cell = float(cell) if np.isfinite(cell) and cell > 0 else float(max(span.max(), 1.0))
        while True:
            self.cell = cell
            first = self._cells(lo - self.pad, 0)
            last = self._cells(hi + self.pad, 0)
            self.shape = (last.max(axis=0) + 1) if self.n else np.ones(2, np.int64)
            wide = last - first + 1
            per = wide[:, 0] * wide[:, 1]
            slots = int(per.sum()) + int(self.shape[0] * self.shape[1])
            if slots <= 8 * self.n + 100_000 or cell >= span.max():
                break
            cell *= 2.0
        item = np.repeat(np.arange(self.n), per)
        off = np.arange(len(item)) - np.repeat(np.cumsum(per) - per, per)
        cx = first[item, 0] + off % wide[item, 0]
        cy = first[item, 1] + off // wide[item, 0]
        key = cy * self.shape[0] + cx
        order = np.argsort(key, kind="stable")
        self.items = item[order]
        self.first = first
        # per slot (cell order): the item's box, and whether the item's first cell column / row is
        # this slot's (bits 1 / 2), which picks the one cell where a pair is reported
        self.slot_box = np.c_[lo, hi][self.items]
        here = (first[self.items] == np.c_[cx, cy][order]).astype(np.int8)
        self.slot_code = here[:, 0] | (here[:, 1] << 1)
        self.count = np.bincount(key, minlength=int(self.shape[0] * self.shape[1]))
        self.start = np.cumsum(self.count) - self.count
        # slots of the cells [0, x) x [0, y), for :meth:`listed`
        self._below = np.zeros((int(self.shape[1]) + 1, int(self.shape[0]) + 1), dtype=np.int64)
        self._below[1:, 1:] = self.count.reshape(int(self.shape[1]), int(self.shape[0])).cumsum(0).cumsum(1)

    def _cells(self, xy: NDArray[np.float64], clip: int) -> NDArray[np.int64]:
        c = np.floor((xy - self.origin) / self.cell)
        if clip:
            c = np.clip(c, 0, self.shape - 1)
        return c.astype(np.int64)

    def cells(self, xy: NDArray[np.float64]) -> NDArray[np.int64]:
        """Column and row of the cell holding each point (n, 2), clipped to the grid."""
        return self._cells(xy, 1)

    def listed(self, j0: NDArray[np.int64], j1: NDArray[np.int64]) -> NDArray[np.int64]:
        """How many slots the cells ``j0`` to ``j1`` (inclusive columns and rows, from
        :meth:`cells`) list together: a bound on the pairs a box over them gives."""
        s = self._below
        x0, y0, x1, y1 = j0[:, 0], j0[:, 1], j1[:, 0] + 1, j1[:, 1] + 1
        return s[y1, x1] - s[y0, x1] - s[y1, x0] + s[y0, x0]

    def pairs(self, j0: NDArray[np.int64], j1: NDArray[np.int64], lo: NDArray[np.float64], hi: NDArray[np.float64],
              budget: int) -> Iterator[tuple[NDArray[np.int64], NDArray[np.int64]]]:
        """(piece, item) index pairs listed in the pieces' cells whose boxes overlap, in slices.

        Parameters
        ----------
        j0, j1 : int arrays of shape (m, 2)
            Each piece's first and last cell column and row (from :meth:`cells`): the cells
            whose lists are read.
        lo, hi : float arrays of shape (m, 2)
            The pieces' bounding boxes (closed).
        budget : int
            Candidate pairs gathered per slice (>= 1): every slice's temporary arrays hold at most
            this many pairs, however many walls a cell holds.

        Yields
        ------
        piece, item : int arrays of the same length
            Each overlapping pair exactly once over all slices.
        """
        if self.n == 0 or len(lo) == 0:
            return
        wide = j1 - j0 + 1
        per = wide[:, 0] * wide[:, 1]
        if (per == 1).all():  # one cell each (a walk's pieces)
            piece, cx, cy = np.arange(len(lo)), j0[:, 0], j0[:, 1]
        else:
            piece = np.repeat(np.arange(len(lo)), per)
            off = np.arange(len(piece)) - np.repeat(np.cumsum(per) - per, per)
            cx = j0[piece, 0] + off % wide[piece, 0]
            cy = j0[piece, 1] + off // wide[piece, 0]
        cell = cy * self.shape[0] + cx
        cnt = self.count[cell]
        keep = cnt > 0
        piece, cx, cy, cell, cnt = piece[keep], cx[keep], cy[keep], cell[keep], cnt[keep]
        # a pair is reported in the cell at the low corner of the two boxes' common cells: where the
        # piece's first column (row) is not this cell's, the item's first must be
        need = ((cx != j0[piece, 0]) | ((cy != j0[piece, 1]) << 1)).astype(np.int8)
        several = bool(need.any())
        box = np.c_[lo, hi][piece]
        first_slot = self.start[cell]
        end = np.cumsum(cnt)
        total = int(end[-1]) if len(end) else 0
        budget = max(int(budget), 1)
        for s in range(0, total, budget):  # count first, then gather ``budget`` pairs at a time
            e = min(s + budget, total)
            k = np.arange(np.searchsorted(end, s, side="right"), np.searchsorted(end, e - 1, side="right") + 1)
            begin = end[k] - cnt[k]
            skip = np.maximum(begin, s) - begin
            take = np.minimum(end[k], e) - begin - skip
            # slot of the j-th pair of this slice: j + (first slot of its entry + skip - j at its start)
            slot = np.arange(e - s) + np.repeat(first_slot[k] + skip - (np.cumsum(take) - take), take)
            b = np.repeat(box[k], take, axis=0)
            sb = self.slot_box[slot]
            ok = (sb[:, 0] <= b[:, 2]) & (b[:, 0] <= sb[:, 2]) & (sb[:, 1] <= b[:, 3]) & (b[:, 1] <= sb[:, 3])
            del b, sb
            if several:
                need_p = np.repeat(need[k], take)
                ok &= (self.slot_code[slot] & need_p) == need_p
            keep = np.flatnonzero(ok)
            yield np.repeat(piece[k], take)[keep], self.items[slot[keep]]


def piece_length(edges: NDArray[np.float64]) -> float:
    """A length scale of the walls: the side of a square holding about nine wall edges on average
    (walls spread evenly over their bounding box), and no shorter than the median edge.
    :class:`navmesh.sight.LineOfSight` makes its wall grid's cells a fraction of it."""
    if len(edges) == 0:
        return math.inf
    xy = np.concatenate([edges[:, 0:2], edges[:, 2:4]])
    span = xy.max(axis=0) - xy.min(axis=0)
    area = max(float(span[0]) * float(span[1]), float(span.max()) ** 2 / max(len(edges), 1))
    median = float(np.median(np.hypot(edges[:, 2] - edges[:, 0], edges[:, 3] - edges[:, 1])))
    return max(3.0 * math.sqrt(area / len(edges)), median, 1e-300)
