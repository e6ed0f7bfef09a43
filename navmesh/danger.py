"""Runtime danger: discs that cost extra to cross (an enemy tower's range), added to arc weights.

Danger changes while a game runs, so it is applied to weights already computed
(:meth:`CostProfile.arc_weights <navmesh.terrain.CostProfile.arc_weights>`), never to the map.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import MAX_COORDINATE, MAX_COST
from navmesh.errors import InvalidCostError, InvalidGeometryError, InvalidOptionError, describe
from navmesh.geometry import segment_arrays
from navmesh.terrain import real_value

__all__ = ["DangerZone", "danger_lengths", "add_danger"]


@dataclass(frozen=True)
class DangerZone:
    """A disc that costs extra to cross, e.g. the range of an enemy tower.

    Parameters
    ----------
    centre : (float, float)
        Centre in world units.
    radius : float
        Radius in world units, > 0.
    extra : float
        Added cost per world unit of path inside the disc, >= 0 and finite (1.0 doubles the
        cost of plain ground there).

    Examples
    --------
    >>> DangerZone((0, 0), 5.0, 2.0).radius
    5.0
    """

    centre: tuple[float, float]
    radius: float
    extra: float

    def __post_init__(self) -> None:
        try:
            c = tuple(real_value(v) for v in self.centre)
        except TypeError:
            c = ()
        if len(c) not in (2, 3) or not all(abs(v) <= MAX_COORDINATE for v in c):
            raise InvalidGeometryError(
                f"DangerZone centre={describe(self.centre)} must be (x, y) numbers within +-{MAX_COORDINATE:g}"
            )
        r = real_value(self.radius)
        if not 0 < r <= MAX_COORDINATE:
            raise InvalidGeometryError(
                f"DangerZone radius={describe(self.radius)} must be a number > 0 and <= {MAX_COORDINATE:g}"
            )
        e = real_value(self.extra)
        if not 0 <= e <= MAX_COST:
            raise InvalidCostError(f"DangerZone extra={describe(self.extra)} must be a number from 0 to {MAX_COST:g}")
        object.__setattr__(self, "centre", c[:2])
        object.__setattr__(self, "radius", r)
        object.__setattr__(self, "extra", e)


def danger_lengths(a: ArrayLike, b: ArrayLike, centre: ArrayLike, radius: float) -> NDArray[np.float64]:
    """Length of each segment ``a[i] -> b[i]`` inside the disc (centre, radius), exact and vectorised.

    Examples
    --------
    >>> danger_lengths([[-10, 0], [-10, 5]], [[10, 0], [10, 5]], (0, 0), 3.0).round(9).tolist()
    [6.0, 0.0]
    """
    pa, pb = segment_arrays(a, b)
    c = np.asarray(centre, dtype=np.float64)[:2]
    d = pb - pa
    f = pa - c
    dd = (d * d).sum(axis=1)
    seg_len = np.sqrt(dd)
    out = np.zeros(len(pa))
    moving = dd > 0
    # |f + t d|^2 = r^2  ->  dd t^2 + 2 (f.d) t + (|f|^2 - r^2) = 0
    fd = (f * d).sum(axis=1)
    ff = (f * f).sum(axis=1) - radius * radius
    disc = fd * fd - dd * ff
    hit = moving & (disc > 0)
    root = np.sqrt(np.where(hit, disc, 0.0))
    safe = np.where(moving, dd, 1.0)
    t0 = np.clip((-fd - root) / safe, 0.0, 1.0)
    t1 = np.clip((-fd + root) / safe, 0.0, 1.0)
    out[hit] = (t1[hit] - t0[hit]) * seg_len[hit]
    return out


def add_danger(
    weights: ArrayLike, a: ArrayLike, b: ArrayLike, zones: Iterable[DangerZone]
) -> NDArray[np.float64]:
    """Return ``weights`` raised by the danger zones, without touching the graph's topology.

    Parameters
    ----------
    weights : float array of shape (m,)
        Current arc weights (e.g. from :meth:`CostProfile.arc_weights`); ``inf`` stays ``inf``.
    a, b : float arrays of shape (m, 2)
        Start and end point of each arc (``graph.points[graph.arc_sources]`` and
        ``graph.points[graph.indices]``).
    zones : iterable of DangerZone
        Each adds ``extra`` x (length of the arc inside its disc).

    Returns
    -------
    float array of shape (m,)
        New weights; never lower than the input, so A* heuristics stay admissible.

    Examples
    --------
    >>> add_danger([20.0, 20.0], [[-10, 0], [-10, 9]], [[10, 0], [10, 9]],
    ...            [DangerZone((0, 0), 3.0, 2.0)]).round(9).tolist()
    [32.0, 20.0]
    """
    w = np.array(weights, dtype=np.float64).reshape(-1)
    pa, pb = segment_arrays(a, b)
    if len(pa) != len(w):
        raise InvalidCostError(f"weights has {len(w)} values but there are {len(pa)} arcs")
    for zone in zones:
        if not isinstance(zone, DangerZone):
            raise InvalidOptionError(f"zones holds {describe(zone)}; expected DangerZone")
        if zone.extra > 0:
            w = w + zone.extra * danger_lengths(pa, pb, zone.centre, zone.radius)
    return w
