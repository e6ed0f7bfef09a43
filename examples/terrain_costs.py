"""Terrain costs per unit type: infantry wades through the swamp, the tank drives round it, neither swims.

Run: ``python examples/terrain_costs.py``; click to send both units to a new goal.
"""

from __future__ import annotations

import arcade

import navmesh
from navmesh.arcade_adapt import follow_path, walk_to
from navmesh.arcade_draw import level_shapes

from _runner import HEIGHT, WIDTH, ExampleView, run

SWAMP = navmesh.TerrainRegion([(300, 120), (500, 120), (500, 480), (300, 480)], "swamp")
LAKE = navmesh.TerrainRegion([(300, 480), (500, 480), (500, 600), (300, 600)], "water")
ROAD = navmesh.TerrainRegion([(0, 0), (800, 0), (800, 60), (0, 60)], "road")
UNIT_TYPES = {
    "infantry": (navmesh.CostProfile("infantry", {"swamp": 1.3, "road": 0.8}, forbidden={"water"}),
                 arcade.color.DARK_GREEN, 110.0),
    "tank": (navmesh.CostProfile("tank", {"swamp": 6.0, "road": 0.5}, forbidden={"water"}),
             arcade.color.DARK_BROWN, 170.0),
}


class TerrainView(ExampleView):
    def __init__(self) -> None:
        super().__init__()
        level = navmesh.Level.rectangle(WIDTH, HEIGHT, terrain=[ROAD, SWAMP, LAKE])
        nav = navmesh.build_waypoint_graph(level, fill_spacing=50, agent_radius=10)
        self.static = level_shapes(level)
        self.units = arcade.SpriteList()
        self.queries, self.followers, self.sprites = {}, {}, {}
        for name, (profile, color, _) in UNIT_TYPES.items():
            self.queries[name] = navmesh.NavQuery(nav, profile)  # one query object per unit type
            self.sprites[name] = arcade.SpriteCircle(10, color, center_x=100, center_y=300)
            self.units.append(self.sprites[name])
        # Right-aligned in the open floor right of the lake, two lines per unit type, inside the window.
        self.labels = []
        for i, (name, (profile, color, _)) in enumerate(UNIT_TYPES.items()):
            costs = ", ".join(f"{tag} x{m:g}" for tag, m in profile.multipliers.items()) + ", no water"
            top = HEIGHT - 10 - 46 * i
            self.labels.append(arcade.Text(name, WIDTH - 10, top, color, 13, anchor_x="right", anchor_y="top",
                                           bold=True))
            self.labels.append(arcade.Text(costs, WIDTH - 10, top - 20, color, 12, anchor_x="right", anchor_y="top"))
        self.on_mouse_press(700, 300, arcade.MOUSE_BUTTON_LEFT, 0)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        for name, (_, _, speed) in UNIT_TYPES.items():
            try:
                self.followers[name] = walk_to(self.sprites[name], self.queries[name], (x, y), speed)
            except navmesh.NoPathError:  # clicked on the lake: nobody goes
                self.followers.pop(name, None)

    def on_update(self, delta_time: float) -> None:
        for name, follower in self.followers.items():
            follow_path(self.sprites[name], follower, delta_time)

    def on_draw(self) -> None:
        self.clear(color=arcade.color.BEIGE)
        self.static.draw()
        for name, follower in self.followers.items():
            arcade.draw_line_strip(follower.waypoints.tolist(), UNIT_TYPES[name][1], 3)
        self.units.draw()
        for label in self.labels:
            label.draw()
        self.after_draw()


def main(argv: list[str] | None = None) -> None:
    run(TerrainView, "navmesh: terrain costs per unit type (click to send both units)", argv)


if __name__ == "__main__":
    main()
