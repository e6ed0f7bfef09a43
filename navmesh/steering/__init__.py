"""Steering: units that follow paths smoothly, re-plan, vary their routes and move as crowds.

Pure numpy / numba (no arcade import).

- :class:`PathFollower`: one unit along a path (straight or Hermite curves), constant speed,
  exact arrival, events, re-planning (:meth:`PathFollower.chase`, pushes, map changes).
- :class:`Crowd`: many units per compiled update: group orders with formation slots, shared
  route trees / flow fields, separation and exact wall sliding.
- :mod:`navmesh.steering.curves`: Hermite curves, flattening, arc-length sampling.
- :mod:`navmesh.steering.variation`: seeded waypoint offsets and alternative routes.
- :class:`Walls`: free space per unit radius as arrays for the kernels.
"""

from navmesh.steering.crowd import Crowd, formation_slots
from navmesh.steering.curves import Curve, hermite_curve, hermite_tangents
from navmesh.steering.follower import FollowerEvent, PathFollower
from navmesh.steering.variation import alternative_paths, vary_path
from navmesh.steering.walls import Walls

__all__ = [
    "Crowd",
    "Curve",
    "FollowerEvent",
    "PathFollower",
    "Walls",
    "alternative_paths",
    "formation_slots",
    "hermite_curve",
    "hermite_tangents",
    "vary_path",
]
