"""Tile-map chase: a ghost chases you through arcade's bundled tile map (click to move the player).

Run: ``python examples/tilemap_chase.py``. The map is ``:resources:tiled_maps/level_2.json`` with
30 px tiles; its "Platforms" tiles are the walls. The ghost takes the first step of a
shortest route to the player's cell whenever it reaches a cell centre (navmesh.first_step).
"""

from __future__ import annotations

import arcade
import numpy as np

import navmesh
from navmesh.arcade_adapt import follow_path, grid_from_tilemap, walk_to

from _runner import ExampleView, run

MAP = ":resources:tiled_maps/level_2.json"
SCALING = 30 / 128  # 128 px tiles drawn at 30 px: the 25 x 20 map is 750 x 600


class ChaseView(ExampleView):
    def __init__(self) -> None:
        super().__init__()
        self.tile_map = arcade.load_tilemap(MAP, scaling=SCALING)
        self.scene = arcade.Scene.from_tilemap(self.tile_map)
        # -- navigation: the same walls as a grid, cells grown by the ghost's radius -------------
        self.grid = grid_from_tilemap(self.tile_map, "Platforms", agent_radius=10)
        free = np.flatnonzero(~self.grid.blocked.reshape(-1))
        self.player = arcade.SpriteCircle(12, arcade.color.YELLOW, center_x=0, center_y=0)
        self.ghost = arcade.SpriteCircle(12, arcade.color.PINK, center_x=0, center_y=0)
        self.player.position = tuple(self.grid.cell_center(free[0]))
        self.ghost.position = tuple(self.grid.cell_center(free[-1]))
        self.sprites = arcade.SpriteList()
        self.sprites.extend([self.player, self.ghost])
        self.player_route = None
        self.ghost_target = self.ghost.position
        self.on_mouse_press(*self.grid.cell_center(free[len(free) // 2]), arcade.MOUSE_BUTTON_LEFT, 0)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        try:
            self.player_route = walk_to(self.player, self.grid, (x, y), speed=140)
        except navmesh.NavmeshError:  # a wall or outside the map
            pass

    def on_update(self, delta_time: float) -> None:
        if self.player_route is not None and not self.player_route.done:
            follow_path(self.player, self.player_route, delta_time)
        self.chase(delta_time * 110)

    def chase(self, distance: float) -> None:
        gx, gy = self.ghost.position
        tx, ty = self.ghost_target
        gap = float(np.hypot(tx - gx, ty - gy))
        if gap <= distance:  # at a cell centre: ask for the next step toward the player
            self.ghost.position = self.ghost_target
            here, there = self.grid.cell_at(self.ghost.position), self.grid.cell_at(self.player.position)
            step = navmesh.first_step(self.grid, here, there) if here != there else -1
            if step >= 0:
                self.ghost_target = tuple(self.grid.cell_center(step))
            return
        self.ghost.position = (gx + (tx - gx) * distance / gap, gy + (ty - gy) * distance / gap)

    def on_draw(self) -> None:
        self.clear(color=arcade.color.MIDNIGHT_BLUE)
        self.scene.draw()
        if self.player_route is not None:
            arcade.draw_line_strip(self.player_route.route.tolist(), arcade.color.YELLOW, 2)
        self.sprites.draw()
        self.after_draw()


def main(argv: list[str] | None = None) -> None:
    run(ChaseView, "navmesh: tile-map chase (click to move)", argv)


if __name__ == "__main__":
    main()
