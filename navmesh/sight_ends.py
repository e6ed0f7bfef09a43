"""End corners: the wall corners a segment starts or ends at, judged before the grid walk.

A corner build links waypoints that sit exactly on wall corners. A segment that leaves its start
corner, or reaches its end corner, through the corner's blocked wedge is blocked right there, and
:func:`navmesh.predicates.edge_blocks` on the pair (segment, wall edge starting at that corner)
says so. :meth:`navmesh.sight.LineOfSight.blocked` judges these pairs first, with no grid walk:
its walk lists the same pairs (the edge's box holds the segment's end) and ORs the same test, so
the answers are unchanged; but for the far end it would only get there after walking the whole
segment. In all-pairs builds about half the pairs end in a corner's blocked wedge.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from navmesh.predicates import orient

__all__ = ["EndCorners"]

_CHUNK = 1 << 16  # segments judged per slice: temporaries of a few MB whatever the call


def _keys(xy: NDArray[np.float64]) -> NDArray[np.uint64]:
    """A hash of each (x, y) point: equal points (0.0 and -0.0 alike) get equal keys; unequal
    points rarely do (the lookups compare the coordinates too)."""
    bits = (np.asarray(xy, dtype=np.float64) + 0.0).view(np.uint64)  # + 0.0 turns -0.0 into 0.0
    return bits[:, 0] * np.uint64(0x9E3779B97F4A7C15) ^ bits[:, 1] * np.uint64(0xC2B2AE3D27D4EB4F)


class EndCorners:
    """Wall corners (not pinch points) in a hash table by position, to judge segments at their ends.

    Parameters
    ----------
    edges : float array of shape (E, 7)
        :attr:`navmesh.sight.LineOfSight.edges` (rows ``x0, y0, x1, y1, px, py, pinch``): each
        row's start is a corner whose free wedge is swept counter-clockwise from the ray towards
        ``(x1, y1)`` to the ray towards ``(px, py)``.
    """

    def __init__(self, edges: NDArray[np.float64]) -> None:
        corners = edges[edges[:, 6] == 0, 0:6]  # a pinch point's wedges are judged with the gaps
        bits = max(int(np.ceil(np.log2(max(len(corners), 1)))) + 3, 4)  # about 8 slots per corner
        self._shift = np.uint64(64 - bits)
        slot = (_keys(corners[:, 0:2]) >> self._shift).astype(np.int64)
        order = np.argsort(slot, kind="stable")
        slot = slot[order]
        count = np.bincount(slot, minlength=1 << bits)
        depth = np.arange(len(slot)) - (np.cumsum(count) - count)[slot]
        # (slot, k): the slot's k-th corner row (-1: none); the corners at one point share a slot
        self._table = np.full((1 << bits, max(int(count.max(initial=0)), 1)), -1, dtype=np.int64)
        self._table[slot, depth] = order
        self._corners = corners
        # each slot's first corner position (NaN: none), compared to the ends in one gather; the
        # few ends whose slot holds more corners read the whole row
        self._x = np.where(self._table[:, 0] >= 0, corners[self._table[:, 0], 0] if len(corners) else np.nan, np.nan)
        self._y = np.where(self._table[:, 0] >= 0, corners[self._table[:, 0], 1] if len(corners) else np.nan, np.nan)
        self._several = count > 1
        self._any_several = bool(self._several.any())
        v, q, r = corners[:, 0:2], corners[:, 2:4], corners[:, 4:6]
        self._turn = orient(v, q, r)  # the wedge's kind, as in :func:`navmesh.predicates.in_wedge`
        x = np.where((q[:, 0] != v[:, 0]) | (r[:, 0] != v[:, 0]), 0, 1)
        rows = np.arange(len(v))
        qc, vc, rc = q[rows, x], v[rows, x], r[rows, x]
        self._opposite = ((qc < vc) & (vc < rc)) | ((rc < vc) & (vc < qc))
        self._any = len(corners) > 0

    def blocked(self, a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Whether segment i leaves ``a[i]`` or reaches ``b[i]`` outside the free wedge of a wall
        corner lying exactly there.

        Parameters
        ----------
        a, b : float arrays of shape (m, 2)
            Segment ends in world units (walkable, ``a != b``).

        Returns
        -------
        bool array of shape (m,)
            True only where the segment is blocked under the line-of-sight rule; False says
            nothing (the grid walk decides).
        """
        out = np.zeros(len(a), dtype=bool)
        if not self._any:
            return out
        for s in range(0, len(a), _CHUNK):
            sa, sb = a[s : s + _CHUNK], b[s : s + _CHUNK]
            for end, sign in ((sa, 1), (sb, -1)):
                slot = (_keys(end) >> self._shift).astype(np.int64)
                seg = np.flatnonzero((self._x[slot] == end[:, 0]) & (self._y[slot] == end[:, 1]))
                at = self._table[slot[seg], 0]
                if self._any_several:
                    more = np.flatnonzero(self._several[slot])
                    row = self._table[slot[more], 1:]
                    c = self._corners[row.clip(0)]
                    i, k = np.nonzero((row >= 0) & (c[..., 0] == end[more, 0:1]) & (c[..., 1] == end[more, 1:2]))
                    seg, at = np.r_[seg, more[i]], np.r_[at, row[i, k]]
                if seg.size:
                    out[s + seg[~self._free(sa[seg], sb[seg], at, sign)]] = True
        return out

    def _free(self, a: NDArray[np.float64], b: NDArray[np.float64], at: NDArray[np.int64],
              sign: int) -> NDArray[np.bool_]:
        """:func:`navmesh.predicates.in_wedge` of direction ``sign * (b - a)`` at corners ``at``."""
        c = self._corners[at]
        c_qd = -sign * orient(a, b, c[:, 2:4]).astype(np.int64)
        c_dr = sign * orient(a, b, c[:, 4:6]).astype(np.int64)
        turn = self._turn[at]
        return np.where(turn > 0, (c_qd >= 0) & (c_dr >= 0),
                        np.where(turn < 0, (c_qd >= 0) | (c_dr >= 0), ~self._opposite[at] | (c_qd >= 0)))
