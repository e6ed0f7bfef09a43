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
    assert not grid.blocked.reshape(-1)[grid.cell_at(view.positions)].any()
    run(view, 1800)  # 40 s in all
    near = np.hypot(*(view.positions - goal).T)
    assert np.median(near) < 250
    image = frame(window, view)
    image.save(screenshot_dir / "demo_flow.png")
    x, y = screen(view, grid.cell_center(field.goals[0]))
    r, _, b = pixel(image, x, y)
    assert r > 150 and b < 200  # the goal dot or the team-coloured units piled on it
