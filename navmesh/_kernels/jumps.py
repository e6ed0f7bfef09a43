"""numba kernels for JPS+: jump distances precomputed for every cell and direction.

Jump Point Search (see :mod:`navmesh._kernels.grid`) spends most of its time scanning straight
and diagonal runs of cells for the next jump point. These scans do not depend on the goal except
where the goal itself lies on the run, so JPS+ (Rabin, "JPS+: over 100x faster than A*", GDC
2015; here for the no-corner-cutting rule) stores, for every free cell and each of the eight
directions, how far the scan from that cell goes; a query then jumps in O(1) and only checks
whether the goal interrupts the run. The successors, and so the search, are exactly those of
plain JPS.

Layout: ``table[v, d]`` (int16, or int32 on maps over 32,000 cells wide or high; a cell's
eight entries side by side) for padded cell id ``v`` (the padded grid has a blocked border,
``pw`` columns) and direction ``d`` (0 up, 1 right, 2 down, 3 left, 4 up-right, 5 down-right,
6 down-left, 7 up-left; "up" is row - 1):

- ``k >= 0``: the scan starting at ``v`` (``v`` included) stops at the cell ``k`` steps away: a
  straight scan at a cell with a forced neighbour, a diagonal scan at a cell whose straight
  sub-scans (along its two components, starting one step further) find a jump point;
- ``k < 0``: no stop; ``-k`` cells (``v`` included) are visited before a wall or, for a
  diagonal, a step that would cut a corner.

Entries of blocked cells are 0 and never read. The search reads the table in
:func:`navmesh._kernels.grid_jps.jps`.
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels.signatures import njit, plain_arguments

# Unit column / row step of each direction (the same order as navmesh._kernels.grid).
JCOL = np.array([0, 1, 0, -1, 1, 1, -1, -1], dtype=np.int64)
JROW = np.array([-1, 0, 1, 0, -1, 1, 1, -1], dtype=np.int64)


#: Direction index of a unit step (sx, sy), at ``3 * sy + sx + 4`` (a table rather than a
#: function: one compiled helper less in every kernel that looks a direction up).
DIRECTION = np.array([7, 0, 4, 3, -1, 1, 6, 2, 5], dtype=np.int64)


@njit(cache=True, internal=True)
def _fill_straight(free, pw, d, table, lo, hi):
    sx = JCOL[d]
    sy = JROW[d]
    step = sx + sy * pw
    side = pw if sy == 0 else 1
    row = table[:, d]
    n = len(free)
    # Cells are filled after the neighbour they scan into: backwards for steps to higher ids.
    first, last, inc = (hi - 1, lo - 1, -1) if step > 0 else (lo, hi, 1)
    for v in range(first, last, inc):
        if v < pw or v >= n - pw or free[v] == 0:
            row[v] = 0
            continue
        if (free[v + side] and not free[v + side - step]) or (free[v - side] and not free[v - side - step]):
            row[v] = 0
        elif free[v + step]:
            x = row[v + step]
            row[v] = x + 1 if x >= 0 else x - 1
        else:
            row[v] = -1


@njit(cache=True, internal=True)
def _fill_diagonal(free, pw, d, table, lo, hi):
    sx = JCOL[d]
    sy = JROW[d]
    step = sx + sy * pw
    h_row = table[:, DIRECTION[4 + sx]]
    v_row = table[:, DIRECTION[3 * sy + 4]]
    row = table[:, d]
    n = len(free)
    first, last, inc = (hi - 1, lo - 1, -1) if step > 0 else (lo, hi, 1)
    for v in range(first, last, inc):
        if v < pw or v >= n - pw or free[v] == 0:
            row[v] = 0
            continue
        a = v + sx
        b = v + sy * pw
        if (free[a] and h_row[a] >= 0) or (free[b] and v_row[b] >= 0):
            row[v] = 0
        elif free[a] and free[b] and free[v + step]:
            x = row[v + step]
            row[v] = x + 1 if x >= 0 else x - 1
        else:
            row[v] = -1


@njit(cache=True)
def build_jump_table(free, pw, table):
    """Fill ``table`` (shape (len(free), 8), int16 or int32) with the JPS+ entries of ``free``."""
    for d in range(4):
        _fill_straight(free, pw, d, table, 0, len(free))
    for d in range(4, 8):
        _fill_diagonal(free, pw, d, table, 0, len(free))


@njit(cache=True)
def update_jump_table(free, pw, table, rows_lo, rows_hi, cols_lo, cols_hi):
    """Refresh ``table`` in place after cells in padded rows/cols ``[lo, hi)`` changed.

    A cell's straight entries read only its own row (horizontal) or column (vertical) and the
    two beside it, so the straight entries are recomputed on the rows ``rows_lo - 1 ..
    rows_hi`` and the columns ``cols_lo - 1 .. cols_hi``; diagonal entries chain across the
    whole map and are recomputed everywhere (one linear pass per direction).
    """
    n = len(free)
    ph = n // pw
    r0 = max(rows_lo - 1, 0)
    r1 = min(rows_hi + 1, ph)
    for d in (1, 3):
        _fill_straight(free, pw, d, table, r0 * pw, r1 * pw)
    c0 = max(cols_lo - 1, 0)
    c1 = min(cols_hi + 1, pw)
    for d in (0, 2):
        for c in range(c0, c1):
            _fill_column(free, pw, d, table, c)
    for d in range(4, 8):
        _fill_diagonal(free, pw, d, table, 0, n)


@njit(cache=True, internal=True)
def _fill_column(free, pw, d, table, c):
    sy = JROW[d]
    step = sy * pw
    row = table[:, d]
    n = len(free)
    ph = n // pw
    rows = range(ph - 1, -1, -1) if step > 0 else range(ph)
    for r in rows:
        v = r * pw + c
        if v < pw or v >= n - pw or free[v] == 0:
            row[v] = 0
            continue
        if (free[v + 1] and not free[v + 1 - step]) or (free[v - 1] and not free[v - 1 - step]):
            row[v] = 0
        elif free[v + step]:
            x = row[v + step]
            row[v] = x + 1 if x >= 0 else x - 1
        else:
            row[v] = -1


plain_arguments(globals())
