"""The result type of a mesh raycast: :class:`MeshRaycast` (see
:meth:`navmesh.polymesh.query.MeshQuery.raycast`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["MeshRaycast"]


@dataclass(frozen=True, eq=False)
class MeshRaycast:
    """Result of :meth:`navmesh.polymesh.query.MeshQuery.raycast` (Detour's ``raycast``).

    Attributes
    ----------
    hit : bool
        True when a wall stops the segment before ``end``.
    t : float
        Fraction of the segment walked before the wall (1.0 when nothing was hit).
    point : float64 array of shape (2,)
        Where the walk stops: the wall hit, or ``end``.
    normal : float64 array of shape (2,)
        Unit normal of the wall hit, pointing into the walkable side ((0, 0) without a hit).
    polygons : int32 array
        The polygons visited, in order.
    """

    hit: bool
    t: float
    point: NDArray[np.float64]
    normal: NDArray[np.float64]
    polygons: NDArray[np.int32]
