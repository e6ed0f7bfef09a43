"""Flow-field mode: hundreds of units stream to one clicked goal along one ``navmesh.FlowField``.

The valley is rasterised into 40-unit tiles (swamp costs x2.5, water is a wall, the ford and
bridge are open); one Dijkstra from the goal gives every tile its signpost, and each unit just
reads the signpost under it, all units in one array lookup. Units move with the library's wall
arrays (:class:`navmesh.steering.Walls`): obstacles and the open water are walls for a unit's
whole body, as in the RTS mode, and a step into them slides along them.
"""

from __future__ import annotations

import time

import arcade
import numpy as np
from scipy.spatial import cKDTree

import navmesh
import navmesh.arcade_draw as nd
from navmesh.level_grid import grid_from_level
from navmesh.steering import Walls

from ..units import INFANTRY, TEAM_COLORS
from .base import ACCENT, GRID_MARGIN, DemoView, load_valley
from .rts import TERRAIN_COLORS

CELL = 40.0
SPEED = 110.0  # world units per second on plain ground
RADIUS = 9.0
HELP = [
    ("Left click", "set the goal: every unit streams there"),
    ("R", "show / hide the flow-field arrows"),
    ("Space", "scatter the units again"),
    ("", "One Dijkstra from the goal (navmesh.FlowField)"),
    ("", "serves every unit."),
]


class FlowView(DemoView):
    """Many units, one goal, one flow field."""

    title = "Flow field"

    def __init__(self, window: arcade.Window | None = None, *, seed: int = 0, scenario: bool = False,
                 units: int = 400, **kwargs) -> None:
        super().__init__(window, help_lines=HELP, **kwargs)
        self.level, self.navmap = load_valley()
        self.world_size = np.array(self.level.bounds.bounds[2:], dtype=float)
        # infantry's terrain costs, but roads at x1: the field shows the shape of the land
        profile = navmesh.CostProfile("flow", {**INFANTRY.profile.multipliers, "road": 1.0},
                                      forbidden=INFANTRY.profile.forbidden)
        # the units' walls: obstacles and the terrain infantry may not enter, for a body of RADIUS
        self.walls = Walls(self.navmap, [RADIUS], [INFANTRY.profile])
        grid = grid_from_level(self.level, CELL, profile=profile, agent_radius=GRID_MARGIN * CELL)
        # a tile where the body cannot stand at its centre is a wall for the flow field too
        costs = np.array(grid.costs, dtype=float)
        centres = grid.cell_center(np.arange(grid.n_cells))
        costs.reshape(-1)[~self.walls.walkable(centres, 0)] = np.inf
        self.grid = navmesh.GridMap(costs, cell_size=CELL, origin=grid.origin)
        navmesh.FlowField(navmesh.GridMap(np.zeros((2, 2), dtype=bool)), 0)  # compile once, before timing
        self.rng = np.random.default_rng(seed)
        self.n_units = units
        self.camera = arcade.Camera2D()
        self._fit_camera()
        self.static = nd.level_shapes(self.level, terrain_colors=TERRAIN_COLORS, obstacle_color=(96, 92, 88),
                                      outline_width=2.0, outline_color=(40, 36, 34), waypoint_radius=0.0)
        self.field: navmesh.FlowField | None = None
        self.show_arrows = True
        self.sprites = arcade.SpriteList()
        self.positions = np.zeros((0, 2))
        self.scatter()
        self.field_ms = 0.0
        self.set_goal((2450.0, 1150.0) if scenario else (2500.0, 1450.0))

    def _fit_camera(self) -> None:
        w, h = self.window.width, self.window.height
        self.camera.match_window()
        self.camera.zoom = 0.96 * min(w / self.world_size[0], (h - 70) / self.world_size[1])
        self.camera.position = (self.world_size[0] / 2, self.world_size[1] / 2 + 35 / self.camera.zoom)

    def scatter(self) -> None:
        """Put the units on random free tiles of the western half."""
        free = np.flatnonzero(~self.grid.blocked.reshape(-1))
        centres = self.grid.cell_center(free)
        west = free[centres[:, 0] < 1500]
        cells = self.rng.choice(west, self.n_units)
        jitter = self.rng.uniform(-0.35, 0.35, (self.n_units, 2)) * CELL
        self.positions = self.walls.nearest_free(self.grid.cell_center(cells) + jitter, 0)
        self.sprites.clear()
        for i in range(self.n_units):
            self.sprites.append(arcade.SpriteCircle(int(RADIUS), TEAM_COLORS[i % 2]))

    def set_goal(self, point: tuple[float, float]) -> bool:
        """Compute the flow field to the tile under ``point``; False when that tile is a wall."""
        cell = int(self.grid.cell_at(np.asarray(point, dtype=float)))
        if not self.grid.is_passable(cell):
            return False
        t0 = time.perf_counter()
        self.field = navmesh.FlowField(self.grid, cell)
        self.field_ms = 1000 * (time.perf_counter() - t0)
        return True

    # -- input ----------------------------------------------------------------------------------
    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        p = self.camera.unproject((x, y))
        self.set_goal((p[0], p[1]))

    def key(self, symbol: int, modifiers: int) -> None:
        if symbol == arcade.key.R:
            self.show_arrows = not self.show_arrows
        elif symbol == arcade.key.SPACE:
            self.scatter()

    # -- simulation -----------------------------------------------------------------------------
    def step(self, dt: float) -> None:
        if self.field is None or len(self.positions) == 0:
            return
        cells = self.grid.cell_at(self.positions)
        direction = self.field.direction_at(cells)
        slow = self.grid.costs.reshape(-1)[cells]
        speed = SPEED / np.where(np.isfinite(slow), slow, 1.0)
        # Steer toward the centre line of the tile's step, so streams do not scrape walls.
        centre = self.grid.cell_center(cells)
        off = centre - self.positions
        along = (off * direction).sum(axis=1, keepdims=True)
        lateral = off - along * direction
        velocity = direction * speed[:, None] + 2.0 * lateral * (np.abs(direction).sum(axis=1, keepdims=True) > 0)
        # a unit on a tile without a signpost (its centre too close to the water or a wall for
        # a body) heads for the centre of the neighbouring tile nearest to the goal
        lost = np.flatnonzero(~np.isfinite(self.field.distance_at(cells).reshape(-1)))
        if len(lost):
            velocity[lost] = self._back_to_field(self.positions[lost]) * SPEED
        moved = self.positions + velocity * dt
        moved += self._separation(moved) * dt
        # Never into a wall, for the whole body: a blocked step slides along the wall.
        self.positions = self.walls.move(self.positions, moved, 0)

    def _back_to_field(self, points: np.ndarray) -> np.ndarray:
        """Unit directions from ``points`` to the centre of the neighbouring tile (of the 8) with
        the shortest way to the goal; (0, 0) where no neighbour has one."""
        steps = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy], dtype=float) * CELL
        lo = np.asarray(self.grid.origin, dtype=float) + 1e-6
        hi = lo + np.array([self.grid.width, self.grid.height]) * CELL - 2e-6
        near = np.clip(points[:, None, :] + steps[None], lo, hi).reshape(-1, 2)
        cells = np.asarray(self.grid.cell_at(near)).reshape(len(points), len(steps))
        dist = np.asarray(self.field.distance_at(cells.reshape(-1)), dtype=float).reshape(cells.shape)
        best = np.argmin(np.where(np.isfinite(dist), dist, np.inf), axis=1)
        target = self.grid.cell_center(cells[np.arange(len(points)), best])
        way = target - points
        norm = np.hypot(way[:, 0], way[:, 1])[:, None]
        ok = np.isfinite(dist[np.arange(len(points)), best])[:, None] & (norm > 1e-9)
        return np.where(ok, way / np.maximum(norm, 1e-9), 0.0)

    def _separation(self, points: np.ndarray) -> np.ndarray:
        """A push apart for units closer than two radii (world units per second)."""
        pairs = cKDTree(points).query_pairs(2 * RADIUS, output_type="ndarray")
        push = np.zeros_like(points)
        if len(pairs):
            d = points[pairs[:, 0]] - points[pairs[:, 1]]
            dist = np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-3)
            f = d / dist[:, None] * ((2 * RADIUS - dist) / (2 * RADIUS) * 160.0)[:, None]
            np.add.at(push, pairs[:, 0], f)
            np.add.at(push, pairs[:, 1], -f)
        return push

    # -- drawing --------------------------------------------------------------------------------
    def draw(self) -> None:
        self.camera.use()
        self.static.draw()
        if self.field is not None and self.show_arrows:
            nd.draw_flow_field(self.field, color=(225, 235, 255, 150), arrow_length=0.65)
        if self.field is not None:
            gx, gy = self.grid.cell_center(self.field.goals[0])
            arcade.draw_circle_outline(gx, gy, 60, ACCENT, 14)
        for sprite, (x, y) in zip(self.sprites, self.positions.tolist()):
            sprite.position = (x, y)
        self.sprites.draw()

    def draw_hud(self) -> None:
        reached = 0 if self.field is None else int(np.isfinite(self.field.distance).sum())
        self.draw_header(f"{self.n_units} units   field: {reached} tiles in {self.field_ms:.1f} ms   "
                         "click: new goal   R: arrows   Space: scatter")

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._fit_camera()
