"""Steering: units that follow paths smoothly, re-plan, vary their routes and move as crowds.

Pure numpy / numba (no arcade import). :class:`Crowd` moves many units per compiled update;
:mod:`navmesh.steering.walls` holds the free space per unit radius that both use.
"""

from navmesh.steering.crowd import Crowd, formation_slots
from navmesh.steering.walls import Walls

__all__ = ["Crowd", "Walls", "formation_slots"]
