"""RTS view: units of types that may not enter water keep their whole body out of the river."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import shapely
from demo_drive import make_rts

from demo_game.units import INFANTRY, SCOUT, UNIT_TYPES


@pytest.mark.parametrize("motion", ["straight", "hermite"])
def test_routed_units_never_put_a_body_in_the_open_water(window: Any, motion: str) -> None:
    """Sent across the river towards the ford, scouts walked the water's edge with their centre:
    their bodies reached 8 units (their whole radius) into the open water, on main 48bf878."""
    view = make_rts(window, seed=3, scenario=False)
    a = view.army
    a.motion = motion
    level = a.navmap.level
    water = shapely.union_all([r.polygon for r in level.terrain if r.tag == "water"])
    # the painter's rule by hand: what is painted over the water later is not water
    over = shapely.union_all([r.polygon for r in level.terrain if r.tag in ("ford", "bridge", "road")])
    open_water = water.difference(over)
    blue = np.flatnonzero(a.teams == 0)
    walkers = blue[np.isin(a.kinds[blue], [UNIT_TYPES.index(INFANTRY), UNIT_TYPES.index(SCOUT)])]
    radii = np.array([t.radius for t in UNIT_TYPES])[a.kinds[walkers]]
    assert radii.max() <= view.army.navmap.options.agent_radius  # the map is built for these bodies
    view.select(blue)
    view.order(np.array([2600.0, 450.0]))
    start = a.positions[walkers].copy()
    deepest = -np.inf
    for frame in range(900):
        view.step(1 / 60)
        if frame % 5 == 0:
            depth = radii - shapely.distance(open_water, shapely.points(a.positions[walkers]))
            deepest = max(deepest, float(depth.max()))
    assert deepest <= 1e-6
    assert np.hypot(*(a.positions[walkers] - start).T).min() > 100  # they did move
