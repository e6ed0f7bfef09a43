"""Waypoint following around sprite walls: click anywhere and the unit walks there around the walls.

Run: ``python examples/waypoint_following.py``. The navigation code is the marked block: a level
from the wall sprites' hit boxes, a waypoint graph at their corners, and one call per frame.
"""

from __future__ import annotations

import arcade

import navmesh
from navmesh.arcade_adapt import follow_path, level_from_sprites, sprite_radius, walk_to

from _runner import HEIGHT, WIDTH, ExampleView, run

WALL_CELLS = [(4, r) for r in range(3, 12)] + [(c, 11) for c in range(5, 12)] + [(12, r) for r in range(0, 8)]
TILE = 40


class FollowView(ExampleView):
    def __init__(self) -> None:
        super().__init__()
        self.walls = arcade.SpriteList()
        for col, row in WALL_CELLS:
            self.walls.append(arcade.SpriteSolidColor(TILE, TILE, (col + 0.5) * TILE, (row + 0.5) * TILE,
                                                      color=arcade.color.DARK_SLATE_GRAY))
        self.unit = arcade.SpriteCircle(12, arcade.color.ORANGE_RED, center_x=60, center_y=60)
        self.units = arcade.SpriteList()
        self.units.append(self.unit)
        # -- navigation ------------------------------------------------------------------------
        level = level_from_sprites(self.walls, bounds=(WIDTH, HEIGHT))
        nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=sprite_radius(self.unit) + 2)
        self.query = navmesh.NavQuery(nav)
        self.follower = None
        # ----------------------------------------------------------------------------------------
        self.on_mouse_press(330, 400, arcade.MOUSE_BUTTON_LEFT, 0)  # a first errand: inside the bracket

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        self.follower = walk_to(self.unit, self.query, (x, y), speed=240, mode="hermite", radius=14)

    def on_update(self, delta_time: float) -> None:
        if self.follower is not None and not self.follower.done:
            follow_path(self.unit, self.follower, delta_time)

    def on_draw(self) -> None:
        self.clear(color=arcade.color.BEIGE)
        self.walls.draw()
        if self.follower is not None:
            arcade.draw_line_strip(self.follower.route.tolist(), arcade.color.CERULEAN_BLUE, 2)
        self.units.draw()
        self.after_draw()


def main(argv: list[str] | None = None) -> None:
    run(FollowView, "navmesh: waypoint following around sprite walls (click to walk)", argv)


if __name__ == "__main__":
    main()
