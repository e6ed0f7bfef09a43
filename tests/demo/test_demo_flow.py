"""Flow-field mode: hundreds of units stream down one field to a clicked goal."""

from __future__ import annotations

from typing import Any

import numpy as np
from demo_drive import arcade, click, frame, pixel, run, screen

from demo_game.views.flow import FlowView


def test_a_click_sets_the_goal_and_the_units_stream_to_it(window: Any, screenshot_dir: Any) -> None:
    view = FlowView(window, seed=1, units=300)
    window.show_view(view)
    goal = np.array([2450.0, 1150.0])
    click(view, screen(view, goal), arcade.MOUSE_BUTTON_LEFT)
    grid, field = view.grid, view.field
    assert field.goals.tolist() == [int(grid.cell_at(goal))]
    start = field.distance_at(grid.cell_at(view.positions))
    assert np.isfinite(start).all() and start.min() > 1000  # everyone starts west of the river
    run(view, 600)  # 10 s
    middle = field.distance_at(grid.cell_at(view.positions))
    assert (middle < start).mean() > 0.95  # nearly everyone got closer, nobody is stuck in a wall
    assert view.walls.walkable(view.positions, 0).all()  # no body in a wall or the open water
    run(view, 1800)  # 40 s in all
    near = np.hypot(*(view.positions - goal).T)
    assert np.median(near) < 250
    image = frame(window, view)
    image.save(screenshot_dir / "demo_flow.png")
    x, y = screen(view, grid.cell_center(field.goals[0]))
    r, g, b = pixel(image, x, y)
    from demo_game.units import TEAM_COLORS

    unit = any(max(abs(r - c[0]), abs(g - c[1]), abs(b - c[2])) < 40 for c in TEAM_COLORS)
    assert (r > 150 and b < 200) or unit  # the goal dot or a team-coloured unit standing on it


def test_no_unit_body_ever_reaches_into_the_open_water_or_an_obstacle(window: Any) -> None:
    """Units stream east over the ford and bridge and back west: before, up to 49 unit centres
    stood in the open water at once, up to 12.9 units deep against a radius of 9."""
    import shapely

    from demo_game.views.flow import RADIUS

    view = FlowView(window, seed=2, units=300)
    window.show_view(view)
    level = view.level
    water = shapely.union_all([r.polygon for r in level.terrain if r.tag == "water"])
    # the painter's rule by hand: the ford, roads and bridge are painted after the water
    assert [r.tag for r in level.terrain].index("water") < min(
        i for i, r in enumerate(level.terrain) if r.tag in ("ford", "bridge", "road")
    )
    open_water = water.difference(shapely.union_all([r.polygon for r in level.terrain if r.tag in ("ford", "bridge", "road")]))
    walls = shapely.union_all([open_water, *level.obstacles])
    wet = 0
    east = 0.0
    for goal in [(2450.0, 1150.0), (300.0, 900.0)]:
        assert view.set_goal(goal)
        for f in range(1500):
            view.step(1 / 60)
            if f % 5 == 0:
                clear = shapely.distance(walls, shapely.points(view.positions))
                wet += int((clear < RADIUS - 1e-6).sum())
        east = max(east, float(np.median(view.positions[:, 0])))
    assert wet == 0
    assert east > 2300  # they did cross the river (it runs near x = 1650-1900)
    assert np.median(np.hypot(*(view.positions - [300.0, 900.0]).T)) < 600  # and came back
