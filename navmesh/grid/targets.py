"""Shared work for many chasers: a bounded per-map cache of first-step fields, one per target.

Every ghost chasing one player, or 100,000 cat-and-mouse queries over a 713-cell maze, ask for
first steps toward far fewer targets than queries. On maps where every step costs the same
(``GridMap.arrays.unit_steps``), one backward breadth-first search from a target gives the first
step from every cell at once (see :mod:`navmesh._kernels.targets`), with exactly the answers and
tie-breaking (up, right, down, left) of the forward search. :func:`navmesh.grid.first_step` and
:func:`~navmesh.grid.first_steps` use the cache of the map they are given; nothing needs turning
on.

Policy: a target's field (4 bytes per cell) is built the second time the target is asked for
while it is remembered (a one-off target is answered by the forward search, which stops early),
and fields are dropped least recently used first once their total passes ``max_bytes``.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
from numpy.typing import NDArray

from navmesh._kernels.targets import first_step_field
from navmesh.errors import InvalidOptionError, describe

__all__ = ["DEFAULT_MAX_BYTES", "TargetFieldCache"]

#: Default memory bound of one map's field cache (bytes).
DEFAULT_MAX_BYTES = 64 * 2**20

# How many once-asked targets are remembered before that memory is wiped.
_MAX_REMEMBERED = 1 << 16


class TargetFieldCache:
    """First-step fields of recently asked targets of one map, at most ``max_bytes`` in total.

    Parameters
    ----------
    moves : uint8 array of shape (n_cells,)
        The map's move bits (4-connected, unit-cost steps).
    height, width : int
        Grid size.
    wrap : bool
        Whether a border wraps around.
    max_bytes : int
        Memory bound (>= 0; 0 disables the cache). Default :data:`DEFAULT_MAX_BYTES`.

    Attributes
    ----------
    hits, builds : int
        Lookups answered from a cached field; fields built.

    Notes
    -----
    Thread-safe in the sense that concurrent use never gives a wrong answer (a field is only
    published once complete); two threads may build the same field twice.
    """

    def __init__(self, moves: NDArray[np.uint8], height: int, width: int, wrap: bool,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self._moves = moves
        self._height = height
        self._width = width
        self._wrap = wrap
        self._fields: OrderedDict[int, NDArray[np.int32]] = OrderedDict()
        # The same fields as memoryviews: indexing one gives a Python int several times faster
        # than indexing the array, which matters when one call answers one query.
        self._views: dict[int, memoryview] = {}
        self._asked: dict[int, int] = {}
        self._max_bytes = 0
        self.max_bytes = max_bytes
        self.hits = 0
        self.builds = 0

    @property
    def max_bytes(self) -> int:
        """Memory bound in bytes (>= 0); lowering it drops fields at once."""
        return self._max_bytes

    @max_bytes.setter
    def max_bytes(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise InvalidOptionError(f"max_bytes={describe(value)} is not valid; expected an integer >= 0")
        self._max_bytes = int(value)
        self._evict(0)

    @property
    def nbytes(self) -> int:
        """Bytes held by cached fields."""
        return len(self._fields) * self._field_bytes

    @property
    def _field_bytes(self) -> int:
        return 4 * self._height * self._width

    def __len__(self) -> int:
        return len(self._fields)

    def __contains__(self, target: int) -> bool:
        return target in self._fields

    def clear(self) -> None:
        """Drop every field and forget which targets were asked for."""
        self._fields.clear()
        self._views.clear()
        self._asked.clear()

    def field(self, target: int) -> NDArray[np.int32] | None:
        """The first-step field of ``target`` (trusted to be a passable cell id), or None.

        Returns the cached field, builds it when ``target`` was asked for before, and otherwise
        remembers the request and returns None (the caller searches forward).
        """
        fields = self._fields
        hit = fields.get(target)
        if hit is not None:
            try:
                fields.move_to_end(target)
            except KeyError:  # another thread evicted it meanwhile; the field itself is still valid
                pass
            self.hits += 1
            return hit
        if self._field_bytes > self._max_bytes:
            return None
        asked = self._asked
        if target not in asked:
            if len(asked) >= _MAX_REMEMBERED:
                asked.clear()
            asked[target] = 1
            return None
        del asked[target]
        return self.build(target)

    def step(self, start: int, target: int) -> int | None:
        """The first step from ``start`` toward ``target`` read from the target's field, or None.

        Both are trusted to be passable cell ids. Same policy as :meth:`field` (the field is built
        the second time ``target`` is asked for); None means the caller searches forward. The
        step is ``-1`` (``NO_NODE``) when ``target`` cannot be reached from ``start``.
        """
        view = self._views.get(target)
        if view is None:
            field = self.field(target)
            return None if field is None else int(field[start])
        try:
            self._fields.move_to_end(target)
        except KeyError:  # another thread evicted it meanwhile; the view itself is still valid
            pass
        self.hits += 1
        return view[start]

    def build(self, target: int) -> NDArray[np.int32]:
        """Build (or fetch) and cache the field of ``target``, evicting older fields to fit."""
        hit = self._fields.get(target)
        if hit is not None:
            return hit
        out = first_step_field(self._moves, self._height, self._width, self._wrap, target)
        out.flags.writeable = False
        self.builds += 1
        if self._field_bytes <= self._max_bytes:
            self._evict(self._field_bytes)
            self._fields[target] = out
            self._views[target] = memoryview(out)
        return out

    def _evict(self, room: int) -> None:
        while self._fields and self.nbytes + room > self._max_bytes:
            try:
                target, _ = self._fields.popitem(last=False)
                self._views.pop(target, None)
            except KeyError:  # emptied by another thread
                break
