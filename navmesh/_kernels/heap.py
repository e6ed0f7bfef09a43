"""The one min-heap and the parent-link trace-back shared by every search kernel.

The heap is binary (measured against a 4-ary heap: the same speed for the grid kernels and a
few per cent faster for the graph kernels). It lives in two caller-owned arrays (``keys``
float64, ``vals`` int64: every caller passes these two types, so each heap kernel compiles once
for the graph, waypoint and Polyanya searches together) with a size counter, so a search
allocates it once per call (or borrows a workspace) and never calls Python. Entries with equal keys come out in an
unspecified but deterministic order (the graph kernels' order is the one they had before).
The heap kernels neither allocate nor return arrays: compiled without reference counting
(``_nrt=False``), so callers with and without it share them.
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels.signatures import njit, plain_arguments


@njit(cache=True, internal=True, _nrt=False)
def heap_push(keys, vals, size, key, val):
    """Push (key, val) on the heap stored in ``keys``/``vals``; return the new size.

    The arrays must have room for ``size + 1`` entries.
    """
    i = size
    while i > 0:
        p = (i - 1) >> 1
        if keys[p] <= key:
            break
        keys[i] = keys[p]
        vals[i] = vals[p]
        i = p
    keys[i] = key
    vals[i] = val
    return size + 1


@njit(cache=True, internal=True, _nrt=False)
def heap_sift_down(keys, vals, size, i, key, val):
    """Place (key, val) at slot ``i`` or below, moving smaller children up (heap of ``size``)."""
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and keys[c + 1] < keys[c]:
            c += 1
        if keys[c] >= key:
            break
        keys[i] = keys[c]
        vals[i] = vals[c]
        i = c
    keys[i] = key
    vals[i] = val


@njit(cache=True, internal=True, _nrt=False)
def heap_pop(keys, vals, size):
    """Remove the smallest entry; return (key, val, new size). ``size`` must be > 0."""
    top_key = keys[0]
    top_val = vals[0]
    size -= 1
    heap_sift_down(keys, vals, size, 0, keys[size], vals[size])
    return top_key, top_val, size


@njit(cache=True, internal=True, _nrt=False)
def heapify(keys, vals, size):
    """Restore the heap order of the first ``size`` entries (after entries were dropped in place)."""
    for i in range((size - 2) // 2, -1, -1):
        heap_sift_down(keys, vals, size, i, keys[i], vals[i])


@njit(cache=True)
def trace_back(parent, end):
    """Node ids from the root of ``parent`` links to ``end``, in travel order."""
    count = 1
    v = end
    while parent[v] >= 0:
        v = parent[v]
        count += 1
    out = np.empty(count, np.int32)
    v = end
    for i in range(count - 1, -1, -1):
        out[i] = v
        v = parent[v]
    return out


plain_arguments(globals())
