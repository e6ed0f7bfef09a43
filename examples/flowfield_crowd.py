"""Flow-field crowd: forty units cross a walled yard to the clicked cell, sharing one flow field.

Run: ``python examples/flowfield_crowd.py``; click a free cell to send the crowd there. The arrows
are the flow field toward the goal: one search serves every unit, however many there are.
"""

from __future__ import annotations

import arcade
import numpy as np

import navmesh
from navmesh.arcade_adapt import place_sprites
from navmesh.arcade_draw import draw_flow_field, grid_shapes
from navmesh.steering import Crowd

from _runner import ExampleView, run

YARD = [
    "....................",
    "....................",
    "..######....######..",
    "..#..............#..",
    "..#..##########..#..",
    "..#..............#..",
    "..########..######..",
    "....................",
    "........#####.......",
    "....................",
    "....................",
    "....................",
    "....................",
    "....................",
    "....................",
]
CELL = 40


class CrowdView(ExampleView):
    def __init__(self) -> None:
        super().__init__()
        self.grid = navmesh.GridMap.from_strings(YARD, cell_size=CELL)
        self.walls = grid_shapes(self.grid)
        self.crowd = Crowd(self.grid)
        rng = np.random.default_rng(7)
        starts = np.column_stack([rng.uniform(20, 780, 40), rng.uniform(20, 140, 40)])
        self.ids = self.crowd.add(starts, radius=9, speed=120)
        self.sprites = arcade.SpriteList()
        for _ in self.ids:
            self.sprites.append(arcade.SpriteCircle(9, arcade.color.ROYAL_BLUE))
        place_sprites(self.sprites, self.crowd, self.ids)
        self.field = None
        self.on_mouse_press(420, 500, arcade.MOUSE_BUTTON_LEFT, 0)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        cell = self.grid.cell_at((x, y))
        if self.grid.is_passable(cell):
            self.crowd.move_to(self.ids, self.grid.cell_center(cell))
            self.field = navmesh.FlowField(self.grid, cell)  # drawn only; the crowd keeps its own

    def on_update(self, delta_time: float) -> None:
        self.crowd.update(delta_time)
        place_sprites(self.sprites, self.crowd, self.ids)

    def on_draw(self) -> None:
        self.clear(color=arcade.color.BEIGE)
        if self.field is not None:
            draw_flow_field(self.field, color=(150, 150, 150, 160))
        self.walls.draw()
        self.sprites.draw()
        self.after_draw()


def main(argv: list[str] | None = None) -> None:
    run(CrowdView, "navmesh: flow-field crowd (click to send the crowd)", argv)


if __name__ == "__main__":
    main()
