"""Steering: units that follow paths smoothly, re-plan, vary their routes and move as crowds.

Pure numpy / numba (no arcade import).

- :class:`PathFollower`: one unit along a path (straight or Hermite curves), constant speed,
  exact arrival, events, re-planning (:meth:`PathFollower.chase`, pushes, map changes).
- :class:`Crowd`: many units per compiled update: group orders with formation slots, shared
  route trees / flow fields, separation and exact wall sliding.
- :mod:`navmesh.steering.curves`: Hermite curves, flattening, arc-length sampling.
- :mod:`navmesh.steering.variation`: seeded waypoint offsets and alternative routes.
- :class:`Walls`: free space per unit radius as arrays for the kernels.

Examples
--------
One unit along a path, at constant speed, stopping exactly on the goal:

>>> import navmesh
>>> from navmesh.steering import Crowd, PathFollower
>>> level = navmesh.Level.rectangle(20, 10, obstacles=[[(8, 0), (12, 0), (12, 7), (8, 7)]])
>>> nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.5)
>>> path = navmesh.NavQuery(nav).find_path([2, 2], [18, 2])
>>> unit = PathFollower(path, speed=5.0, mode="hermite", navmap=nav, radius=0.5)
>>> while not unit.done:
...     events = unit.update(1 / 60)
>>> unit.position.tolist(), events[-1].kind
([18.0, 2.0], 'goal')

A crowd of two unit types (ids index the arrays ``positions``, ``velocities``, ``headings``,
``arrived``; ``path_of(id)`` is the route left, for drawing):

>>> tank = navmesh.CostProfile("tank", {"swamp": 3.0}, forbidden={"water"})
>>> crowd = Crowd(nav)
>>> infantry = crowd.add([[1, 1], [1, 2], [2, 1]], radius=0.4, speed=4.0)
>>> tanks = crowd.add([[3, 3]], radius=0.5, speed=3.0, profile=tank)
>>> crowd.move_to([*infantry, *tanks], [17, 5])
>>> for _ in range(600):
...     crowd.update(1 / 30)
>>> bool(crowd.arrived.all()), crowd.positions.shape
(True, (4, 2))
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
