"""RTS scenario: every blue unit finishes its orders, queued ones included, and groups stand apart."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.spatial import cKDTree

from demo_game.units import SCOUT, UNIT_TYPES
from demo_game.views.rts import RtsView


def test_the_scenario_ends_with_every_blue_unit_arrived_and_none_stacked(window: Any) -> None:
    """The scouts' second goal is queued, so each scout starts it when it reaches the first one:
    before, each took the goal point itself as its slot, they stood in one pile from frame 1200
    on and 4 blue units still counted as moving after 2,400 frames."""
    view = RtsView(window, scenario=True)
    window.show_view(view)
    a = view.army
    blue = np.flatnonzero(a.teams == 0)
    scouts = blue[a.kinds[blue] == UNIT_TYPES.index(SCOUT)]
    for _ in range(2400):
        view.step(1 / 60)
    assert not a.moving[blue].any()
    assert not any(a.queues[int(i)] for i in blue)
    # the scouts stand round their queued goal, side by side
    assert np.hypot(*(a.positions[scouts] - [2400.0, 1450.0]).T).max() < 8 * SCOUT.radius
    radii = np.array([t.radius for t in UNIT_TYPES])[a.kinds]
    d, j = cKDTree(a.positions).query(a.positions, k=2)
    assert (d[:, 1] >= 0.95 * (radii + radii[j[:, 1]])).all()  # nobody overlaps anybody
