"""Random test levels on a 100 x 100 field: rotated boxes and triangles, and two boxes touching at
a corner (a pinch point), shared by the line-of-sight and all-pairs build tests."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import shapely
import shapely.affinity

from navmesh.errors import NavmeshWarning
from navmesh.level import Level

PINCH = (shapely.box(40, 40, 45, 45), shapely.box(45, 45, 50, 50))  # touching at (45, 45)


def random_level(seed: int, n_shapes: int, *, margin: float, spread: float, size: tuple[float, float],
                 extra: Sequence[shapely.Polygon] = (), waypoints: Sequence[Sequence[float]] | None = None) -> Level:
    """``n_shapes`` obstacles with centres at least ``margin`` from the field's sides: every third a
    triangle (vertices within ``spread`` of its centre), the others boxes with sides drawn from
    ``size`` rotated at random; then :data:`PINCH` and ``extra``. Waypoints inside an obstacle are
    kept (``on_bad_waypoint="warn"``, the warning silenced)."""
    rng = np.random.default_rng(seed)
    shapes = []
    for k in range(n_shapes):
        c = rng.uniform(margin, 100 - margin, 2)
        if k % 3 == 0:
            shapes.append(shapely.Polygon(c + rng.uniform(-spread, spread, (3, 2))).convex_hull)
        else:
            w, h = rng.uniform(*size, 2)
            shapes.append(shapely.affinity.rotate(shapely.box(c[0], c[1], c[0] + w, c[1] + h), float(rng.uniform(0, 90))))
    shapes += [*PINCH, *extra]
    kept = [s for s in shapes if s.is_valid and s.area > 0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        if waypoints is None:
            return Level((0, 0, 100, 100), obstacles=kept, on_bad_waypoint="warn")
        return Level((0, 0, 100, 100), obstacles=kept, waypoints=waypoints, on_bad_waypoint="warn")
