"""The open list of the grid searches: a 4-ary min-heap with each key stored beside its cell.

The grid searches (A*, Jump Point Search, flow fields) pop far more often per expansion than the
graph searches, and their pops dominate their time. Measured on the 40 longest queries of a
512x512 map with 10% random walls (issue 21), this layout made octile A* about 25% faster than
the shared binary heap of :mod:`navmesh._kernels.heap` (same expansions, same answers): four
children per node halve the depth of a pop, and keeping a key and its cell side by side in one
float64 array (``heap[2 * i]`` the key, ``heap[2 * i + 1]`` the cell id, exact below 2**53) lets
a pop read each level from one place instead of two arrays.

The array needs ``2 * capacity`` slots. Equal keys come out in an unspecified but deterministic
order. All functions also run as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations


import numpy as np

from navmesh._kernels.signatures import njit, plain_arguments


@njit(cache=True, internal=True)
def sift_up(heap, i, key, cell):
    """Place (key, cell) at slot ``i`` or above, moving larger parents down."""
    while i > 0:
        p = (i - 1) >> 2
        kp = heap[2 * p]
        if kp <= key:
            break
        heap[2 * i] = kp
        heap[2 * i + 1] = heap[2 * p + 1]
        i = p
    heap[2 * i] = key
    heap[2 * i + 1] = cell


@njit(cache=True, internal=True)
def push(heap, size, key, cell):
    """Push (key, cell); return the new size. ``heap`` must have room for ``size + 1`` entries."""
    sift_up(heap, size, key, cell)
    return size + 1


@njit(cache=True, internal=True)
def smallest_child(heap, c, size):
    """The slot and key of the smallest of the children ``c .. c + 3`` that exist (``c < size``)."""
    best = c
    bk = heap[2 * c]
    if c + 3 < size:  # all four children: compared written out (about 5% faster A*)
        k1 = heap[2 * c + 2]
        k2 = heap[2 * c + 4]
        k3 = heap[2 * c + 6]
        if k1 < bk:
            bk = k1
            best = c + 1
        if k2 < bk:
            bk = k2
            best = c + 2
        if k3 < bk:
            bk = k3
            best = c + 3
    else:
        for j in range(c + 1, size):
            kj = heap[2 * j]
            if kj < bk:
                bk = kj
                best = j
    return best, bk


@njit(cache=True, internal=True)
def pop(heap, size):
    """Remove the smallest entry; return (key, cell, new size). ``size`` must be > 0.

    Bottom-up (Floyd): the hole left at the top moves down along the smallest children to a
    leaf without comparing them to the last entry, which then rises from there; the last entry
    almost always belongs near the bottom, so this saves a comparison per level (about 5% less
    A* time on the big random map than sifting the last entry down from the top)."""
    top_key = heap[0]
    top_cell = np.int64(heap[1])  # np.int64, not int(): numba compiles int() once more for internal kernels
    size -= 1
    key = heap[2 * size]
    cell = heap[2 * size + 1]
    i = 0
    while True:
        c = 4 * i + 1
        if c >= size:
            break
        best, bk = smallest_child(heap, c, size)
        heap[2 * i] = bk
        heap[2 * i + 1] = heap[2 * best + 1]
        i = best
    sift_up(heap, i, key, np.int64(cell))
    return top_key, top_cell, size


@njit(cache=True, internal=True)
def heapify(heap, size):
    """Restore the heap order of the first ``size`` entries (after entries were dropped in place):
    each parent, last first, sinks below its smaller children (written out here, the sift-down's
    one use, rather than compiled on its own)."""
    for top in range((size - 2) // 4, -1, -1):
        key = heap[2 * top]
        cell = heap[2 * top + 1]
        i = top
        while True:
            c = 4 * i + 1
            if c >= size:
                break
            best, bk = smallest_child(heap, c, size)
            if bk >= key:
                break
            heap[2 * i] = bk
            heap[2 * i + 1] = heap[2 * best + 1]
            i = best
        heap[2 * i] = key
        heap[2 * i + 1] = cell


plain_arguments(globals())
