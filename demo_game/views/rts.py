"""The RTS mode: select units, order them around the valley, raise the bridge, watch them re-plan."""

from __future__ import annotations

from collections.abc import Callable

import arcade
import numpy as np
from arcade.types import LBWH, LRBT

import navmesh
import navmesh.arcade_draw as nd
from navmesh.level_grid import grid_from_level
from navmesh.polymesh import with_obstacle, without_obstacle

from ..levels.generate import BRIDGE_GATE
from ..units import (
    INFANTRY,
    MOTION_MODES,
    SCOUT,
    TANK,
    TEAM_COLORS,
    UNIT_TYPES,
    Army,
    UnitType,
    formation_slots,
    ring_image,
    unit_image,
)
from .base import (
    ACCENT,
    DIM_TEXT,
    FONT,
    TEXT,
    GRID_MARGIN,
    DemoView,
    load_valley,
    panel,
)

# The library's shared terrain colours (the ones ``navmesh render`` uses), drawn opaque: the map's ground.
TERRAIN_COLORS = {tag: (*nd.terrain_color(tag)[:3], 255) for tag in ("water", "ford", "bridge", "road", "swamp", "forest")}
PATH_COLOR = (255, 215, 90, 255)
ROUTE_COLOR = (120, 255, 160, 230)
QUEUE_COLOR = (255, 150, 60, 255)
QUEUE_DASH, QUEUE_GAP = 10.0, 10.0  # screen pixels of a queued order's dashed line
BOX_FILL = (120, 255, 120, 40)
BOX_EDGE = (120, 255, 120, 220)
GRAPH_ARC = (120, 190, 255, 110)
GRAPH_NODE = (170, 215, 255, 200)
MESH_FILL = (90, 200, 255, 36)
MESH_EDGE = (120, 225, 255, 170)
FLOW_CELL = 40.0
CLICK_SLOP = 6  # pixels a press may move and still count as a click
EDGE_SCROLL = 12  # pixels from the window edge where the mouse pans the camera
PAN_SPEED = 700.0  # screen pixels per second
MINIMAP_WIDTH = 256
RING_SCALE = 4.0  # selection ring diameter in unit radii
MAX_ROUTES = 60  # routes drawn at most (of the selected units), to keep frames fast
DEFAULT_MOTION = "crowd"

HELP = [
    ("Left click / drag", "select your (blue) units; Shift adds"),
    ("Right click", "move there in formation"),
    ("Shift + right click", "queue a waypoint"),
    ("Arrows / WASD", "pan (also the window edge, middle drag)"),
    ("Wheel, + / -", "zoom"),
    ("Minimap click", "jump there"),
    ("Ctrl+A / X", "select all / stop"),
    ("B", "raise / lower the bridge (units on the way re-plan)"),
    ("M", "motion: crowd / straight path / Hermite curve"),
    ("N", "routing: waypoint graph / navigation mesh (shown)"),
    ("V", "path variation (straight and Hermite motion)"),
    ("G T P R", "overlays: graph, terrain, paths, flow arrows"),
    ("", "Infantry: slow in swamp, wades the ford."),
    ("", "Tanks: avoid swamp, love roads, cannot wade."),
    ("", "Scouts: fast on any land."),
    ("", "On the mesh paths are exact; the crowd keeps the graph."),
]


class RtsView(DemoView):
    """The valley with two armies. Blue is yours.

    Parameters
    ----------
    window : arcade.Window, optional
    seed : int
        Seed for spawn positions and path variation.
    scenario : bool
        Issue a few orders at once (for unattended screenshots) and show the overlays.
    units : int, optional
        Total number of blue units (default 30: 18 infantry, 6 tanks, 6 scouts; red gets half).
    motion : {"crowd", "straight", "hermite"}
        The army's motion engine at the start (M cycles through them).
    ready : callable, optional
        ``ready("flow")`` / ``ready("mesh")``: whether the kernels of the flow-field overlay or
        of the navigation mesh are loaded (the app loads them after the first frame); until then
        the feature waits and the header says so. Default: always ready.
    """

    title = "RTS"
    hint = "drag a box round blue units, right-click to send them   B bridge   M motion   N mesh   F1 help"

    def __init__(self, window: arcade.Window | None = None, *, seed: int = 0, scenario: bool = False,
                 units: int | None = None, motion: str = DEFAULT_MOTION,
                 ready: Callable[[str], bool] | None = None, **kwargs) -> None:
        super().__init__(window, help_lines=HELP, **kwargs)
        self.ready = ready if ready is not None else (lambda feature: True)
        self.waiting: str | None = None  # a feature asked for before its kernels were loaded
        self.level, navmap = load_valley()
        self.world_size = np.array(self.level.bounds.bounds[2:], dtype=float)
        self.army = Army(navmap, seed=seed, motion=motion)
        self.rng = np.random.default_rng(seed)
        self.bridge_raised = False
        self.mesh: navmesh.PolyMesh | None = None  # built on first use (N), then updated with the bridge
        self.mesh_overlay: arcade.shape_list.ShapeElementList | None = None
        self.selected = np.zeros(0, dtype=np.int64)
        self.overlays = {"graph": False, "terrain": False, "paths": True, "flow": False}
        self.flow_field: navmesh.FlowField | None = None
        self.flow_grid: navmesh.GridMap | None = None
        self._flow_bridge: bool | None = None  # the bridge state flow_grid was made for
        self.last_goal: np.ndarray | None = None
        self.replanned: list[int] = []
        self._press: tuple[float, float, int, int] | None = None
        self._drag_box: tuple[float, float, float, float] | None = None
        self._keys: set[int] = set()
        self._mouse = (0.0, 0.0)
        self.edge_scroll = False

        self.camera = arcade.Camera2D()
        self.camera.position = (700.0, 1050.0)
        self.minimap = arcade.Camera2D()
        self._layout_minimap()

        self._textures = [arcade.Texture(unit_image(t), hash=f"navmesh-demo-{t.name}") for t in UNIT_TYPES]
        self._ring = arcade.Texture(ring_image(), hash="navmesh-demo-ring")
        self.unit_sprites = arcade.SpriteList()
        self.ring_sprites = arcade.SpriteList()
        self._spawn(units if units is not None else 30)
        self._build_static()

        self._label_anchors = [tuple(r.polygon.representative_point().coords[0]) for r in self.level.terrain]
        self.terrain_labels = [arcade.Text(self._terrain_label(r.tag), 0, 0, TEXT, 11, anchor_x="center",
                                           font_name=FONT) for r in self.level.terrain]
        self.mini_label = arcade.Text("map", 0, 0, DIM_TEXT, 10, font_name=FONT)
        if scenario:
            self.run_scenario()

    # -- setup ----------------------------------------------------------------------------------
    def _spawn(self, total: int) -> None:
        self._spawn_walls: dict = {}
        n_tank = max(1, total // 5)
        n_scout = max(1, total // 5)
        n_inf = max(1, total - n_tank - n_scout)
        for team, centre, scale in ((0, (330.0, 880.0), 1.0), (1, (2860.0, 880.0), 0.5)):
            for kind, count, offset in ((INFANTRY, n_inf, (0, 0)), (TANK, n_tank, (-60, -210)),
                                        (SCOUT, n_scout, (60, 220))):
                k = max(1, round(count * scale))
                goal = np.add(centre, offset)
                spots = self._spread(goal, k, kind)
                self.army.add(kind, spots, team=team)
        for i in range(len(self.army)):
            kind = self.army.kind_of(i)
            sprite = arcade.Sprite(self._textures[int(self.army.kinds[i])], scale=3.0 * kind.radius / 64)
            sprite.color = TEAM_COLORS[int(self.army.teams[i])]
            self.unit_sprites.append(sprite)
        self._sync_sprites()

    def _spread(self, centre: np.ndarray, count: int, kind: UnitType) -> np.ndarray:
        """``count`` spawn spots around ``centre`` where a unit of ``kind`` may stand."""
        return formation_slots(self.army.navmap, [kind], centre, count, spacing=2.6 * kind.radius,
                               walls=self._spawn_walls)

    def _build_static(self) -> None:
        level = self.army.navmap.level
        self.static = nd.level_shapes(level, terrain_colors=TERRAIN_COLORS, obstacle_color=(96, 92, 88),
                                      outline_color=(40, 36, 34), outline_width=3.0, waypoint_radius=0.0,
                                      bounds_color=(20, 20, 20))
        self.ground = _ground_grid(*self.world_size)
        self.graph_overlay = nd.graph_shapes(self.army.navmap.graph, color=GRAPH_ARC, node_color=GRAPH_NODE,
                                             node_radius=4.0, line_width=1.5)
        if self.mesh is not None:
            self.mesh_overlay = nd.polymesh_shapes(self.mesh, fill_color=MESH_FILL, edge_color=MESH_EDGE,
                                                   line_width=2.0)

    def _layout_minimap(self) -> None:
        w = self.window.width
        mw = MINIMAP_WIDTH
        mh = mw * self.world_size[1] / self.world_size[0]
        self.minimap_rect = LBWH(w - mw - 10, 10, mw, float(mh))
        self.minimap.viewport = self.minimap_rect
        hx, hy = (float(v) / 2 for v in self.world_size)
        self.minimap.projection = LRBT(-hx, hx, -hy, hy)
        self.minimap.position = (hx, hy)

    @staticmethod
    def _terrain_label(tag: str) -> str:
        """``"swamp: inf x2.5, tan x6, sco x1"``: what the tag costs each unit type."""
        parts = [f"{t.name[:3]} {'no' if not t.profile.allows(tag) else f'x{t.profile.multiplier(tag):g}'}"
                 for t in UNIT_TYPES]
        return f"{tag}: " + ", ".join(parts)

    # -- scenario -------------------------------------------------------------------------------
    def run_scenario(self) -> None:
        """A few orders for unattended runs: the blue army marches over the bridge and the ford."""
        a = self.army
        blue = a.teams == 0
        inf = np.flatnonzero(blue & (a.kinds == UNIT_TYPES.index(INFANTRY)))
        tanks = np.flatnonzero(blue & (a.kinds == UNIT_TYPES.index(TANK)))
        scouts = np.flatnonzero(blue & (a.kinds == UNIT_TYPES.index(SCOUT)))
        a.order(inf, (1450.0, 620.0))
        a.order(tanks, (1450.0, 960.0))
        a.order(scouts, (1250.0, 1500.0))
        a.order(scouts, (2400.0, 1450.0), queue=True)
        red = np.flatnonzero(~blue)
        a.order(red, (2150.0, 1250.0))
        self.select(np.concatenate([tanks, scouts]))
        self.last_goal = np.array([1450.0, 960.0])
        self.overlays["terrain"] = True
        self.camera.zoom = 0.55
        self.camera.position = (1150.0, 1130.0)

    # -- selection and orders -------------------------------------------------------------------
    def select(self, ids: np.ndarray, *, add: bool = False) -> None:
        """Select blue units ``ids`` (replacing or adding to the selection)."""
        ids = np.asarray(ids, dtype=np.int64)
        ids = ids[self.army.teams[ids] == 0]
        self.selected = np.union1d(self.selected, ids) if add else np.unique(ids)
        self.ring_sprites.clear()
        for i in self.selected:
            ring = arcade.Sprite(self._ring, scale=RING_SCALE * self.army.kind_of(int(i)).radius / 64)
            self.ring_sprites.append(ring)
        self._sync_sprites()

    def world_point(self, x: float, y: float) -> np.ndarray:
        """World position under screen pixel (x, y)."""
        p = self.camera.unproject((x, y))
        return np.array([p[0], p[1]])

    def order(self, goal: np.ndarray, *, queue: bool = False) -> None:
        """Order the selection to ``goal`` (world units)."""
        if len(self.selected) == 0:
            return
        self.army.order(self.selected, goal, queue=queue)
        self.last_goal = np.asarray(goal, dtype=float)
        self.flow_field = None

    def toggle_bridge(self) -> list[int]:
        """Raise or lower the bridge through a local NavMap update (and a local update of the
        mesh, once there is one); returns the re-planned units."""
        nav = self.army.navmap
        if self.bridge_raised:
            nav = nav.without_obstacle(len(nav.level.obstacles) - 1)
            if self.mesh is not None:
                self.mesh = without_obstacle(self.mesh, -1)
        else:
            x0, y0, x1, y1 = BRIDGE_GATE
            gate = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
            nav = nav.with_obstacle(gate)
            if self.mesh is not None:
                self.mesh = with_obstacle(self.mesh, gate)
        self.bridge_raised = not self.bridge_raised
        self.replanned = self.army.set_navmap(nav, blocked_only=self.bridge_raised,
                                              mesh=self.mesh if self.on_mesh else None)
        self._build_static()
        return self.replanned

    @property
    def on_mesh(self) -> bool:
        """Whether the units route on the navigation mesh (else on the waypoint graph)."""
        return self.army.mesh is not None

    def toggle_mesh(self) -> None:
        """Switch the units between the waypoint graph and the navigation mesh (N).

        The mesh is built on first use from the map's level, for the map's agent radius; on it
        the path engines walk exact shortest paths. The crowd engine has no mesh mode, so the
        army changes to straight-path motion when it was in the crowd.
        """
        if self.on_mesh:
            self.army.mesh = None
            return
        if not self.ready("mesh"):
            self.waiting = "mesh"  # switched on by step() once its kernels are loaded
            return
        self.waiting = None
        if self.mesh is None:
            options = self.army.navmap.options
            self.mesh = navmesh.build_navmesh(self.army.navmap.level, agent_radius=options.agent_radius,
                                              join=options.join)
            self._build_static()
        if self.army.motion == "crowd":
            self.army.motion = "straight"
        self.army.mesh = self.mesh

    def _in_minimap(self, x: float, y: float) -> bool:
        r = self.minimap_rect
        return r.left <= x <= r.right and r.bottom <= y <= r.top

    def _units_in_box(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        p = self.army.positions
        inside = (p >= lo).all(axis=1) & (p <= hi).all(axis=1) & (self.army.teams == 0)
        return np.flatnonzero(inside)

    def _unit_at(self, point: np.ndarray) -> np.ndarray:
        d = np.hypot(*(self.army.positions - point).T)
        radii = np.array([self.army.kind_of(i).radius for i in range(len(self.army))])
        hit = np.flatnonzero((d <= radii + 6) & (self.army.teams == 0))
        return hit[np.argsort(d[hit])][:1]

    # -- input ----------------------------------------------------------------------------------
    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        if self._in_minimap(x, y) and button == arcade.MOUSE_BUTTON_LEFT:
            r = self.minimap_rect
            self.camera.position = ((x - r.left) / r.width * self.world_size[0],
                                    (y - r.bottom) / r.height * self.world_size[1])
            return
        if button == arcade.MOUSE_BUTTON_RIGHT:
            self.order(self.world_point(x, y), queue=bool(modifiers & arcade.key.MOD_SHIFT))
            return
        self._press = (x, y, button, modifiers)

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int, modifiers: int) -> None:
        self._mouse = (x, y)
        if buttons & arcade.MOUSE_BUTTON_MIDDLE:
            z = self.camera.zoom
            px, py = self.camera.position
            self.camera.position = (px - dx / z, py - dy / z)
        elif self._press is not None and self._press[2] == arcade.MOUSE_BUTTON_LEFT:
            self._drag_box = (self._press[0], self._press[1], x, y)

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        if self._press is None or button != arcade.MOUSE_BUTTON_LEFT:
            self._press = None
            return
        x0, y0, _, mods = self._press
        add = bool((mods | modifiers) & arcade.key.MOD_SHIFT)
        if abs(x - x0) <= CLICK_SLOP and abs(y - y0) <= CLICK_SLOP:
            self.select(self._unit_at(self.world_point(x, y)), add=add)
        else:
            self.select(self._units_in_box(self.world_point(x0, y0), self.world_point(x, y)), add=add)
        self._press = None
        self._drag_box = None

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        self._mouse = (x, y)
        self.edge_scroll = True

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        self.zoom_at(x, y, 1.15**scroll_y)

    def zoom_at(self, x: float, y: float, factor: float) -> None:
        """Zoom by ``factor`` keeping the world point under screen pixel (x, y) in place."""
        before = self.world_point(x, y)
        self.camera.zoom = float(np.clip(self.camera.zoom * factor, 0.3, 2.5))
        after = self.world_point(x, y)
        px, py = self.camera.position
        self.camera.position = (px + before[0] - after[0], py + before[1] - after[1])

    def key(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        if symbol == k.A and modifiers & k.MOD_CTRL:
            self.select(np.flatnonzero(self.army.teams == 0))
        elif symbol == k.B:
            self.toggle_bridge()
        elif symbol == k.M:
            modes = [m for m in MOTION_MODES if m != "crowd"] if self.on_mesh else MOTION_MODES
            self.army.motion = modes[(modes.index(self.army.motion) + 1) % len(modes)]
        elif symbol == k.N:
            self.toggle_mesh()
        elif symbol == k.V:
            self.army.variation = not self.army.variation
        elif symbol == k.X:
            self.army.stop(self.selected)
        elif symbol in (k.G, k.T, k.P, k.R):
            name = {k.G: "graph", k.T: "terrain", k.P: "paths", k.R: "flow"}[symbol]
            self.overlays[name] = not self.overlays[name]
        elif symbol in (k.PLUS, k.EQUAL, k.NUM_ADD):
            self.zoom_at(self.window.width / 2, self.window.height / 2, 1.25)
        elif symbol in (k.MINUS, k.NUM_SUBTRACT):
            self.zoom_at(self.window.width / 2, self.window.height / 2, 0.8)
        else:
            self._keys.add(symbol)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self._keys.discard(symbol)

    # -- simulation -----------------------------------------------------------------------------
    def step(self, dt: float) -> None:
        if self.waiting == "mesh" and self.ready("mesh"):
            self.toggle_mesh()
        self._pan(dt)
        self.army.update(dt)

    def _pan(self, dt: float) -> None:
        k = arcade.key
        dx = (any(s in self._keys for s in (k.RIGHT, k.D)) - any(s in self._keys for s in (k.LEFT, k.A)))
        dy = (any(s in self._keys for s in (k.UP, k.W)) - any(s in self._keys for s in (k.DOWN, k.S)))
        if self.edge_scroll:
            mx, my = self._mouse
            dx += (mx >= self.window.width - EDGE_SCROLL) - (mx <= EDGE_SCROLL)
            dy += (my >= self.window.height - EDGE_SCROLL) - (my <= EDGE_SCROLL)
        if dx or dy:
            z = self.camera.zoom
            px, py = self.camera.position
            px = float(np.clip(px + np.sign(dx) * PAN_SPEED * dt / z, 0, self.world_size[0]))
            py = float(np.clip(py + np.sign(dy) * PAN_SPEED * dt / z, 0, self.world_size[1]))
            self.camera.position = (px, py)

    # -- drawing --------------------------------------------------------------------------------
    def _sync_sprites(self) -> None:
        pos = self.army.positions
        deg = -np.degrees(self.army.headings)
        for sprite, (x, y), a in zip(self.unit_sprites, pos.tolist(), deg.tolist()):
            sprite.position = (x, y)
            sprite.angle = a
        for ring, i in zip(self.ring_sprites, self.selected.tolist()):
            ring.position = (pos[i, 0], pos[i, 1])

    def draw(self) -> None:
        self._sync_sprites()
        self.camera.use()
        self.ground.draw()
        self.static.draw()
        if self.on_mesh and self.mesh_overlay is not None:
            self.mesh_overlay.draw()
        if self.overlays["flow"]:
            self._draw_flow()
        if self.overlays["graph"]:
            self.graph_overlay.draw()
        if self.overlays["paths"]:
            self._draw_paths()
        self.ring_sprites.draw()
        self.unit_sprites.draw()
        if self.overlays["terrain"]:
            self._draw_terrain_outlines()
        self._draw_minimap()

    def _draw_paths(self) -> None:
        """Routes of (up to MAX_ROUTES of) the selected units, batched into one draw per colour."""
        a = self.army
        routes = []
        chains: set[tuple[tuple[float, float], ...]] = set()  # order goals, one chain per group
        for i in self.selected[a.moving[self.selected]][:MAX_ROUTES].tolist():
            path = a.path_of(i)
            if path is not None:
                nd.draw_path(path, color=(255, 215, 90, 90), line_width=2.0, point_radius=3.0)
            routes.append(_pairs(a.route_of(i)))
            goals = a.queued_goals(i)
            if goals:
                chains.add(tuple(map(tuple, np.concatenate([a.goals[i][None], np.asarray(goals)]).tolist())))
        if routes:
            arcade.draw_lines(np.concatenate(routes).tolist(), ROUTE_COLOR, 2.0)
        if chains:
            self._draw_queued_orders([np.array(c) for c in sorted(chains)])
        if self.last_goal is not None:
            gx, gy = self.last_goal
            arcade.draw_circle_outline(gx, gy, 16, ACCENT, 3)
            arcade.draw_circle_filled(gx, gy, 4, ACCENT)

    def _draw_queued_orders(self, chains: list[np.ndarray]) -> None:
        """Queued orders as order markers, not routes: thin dashed lines from goal to goal (no route
        is planned yet, so they may cross anything) and a ring on each queued goal."""
        zoom = self.camera.zoom
        dashes = [_dashes(chain, QUEUE_DASH / zoom, QUEUE_GAP / zoom) for chain in chains]
        arcade.draw_lines(np.concatenate(dashes).tolist(), QUEUE_COLOR, 2 / zoom)
        for x, y in np.concatenate([chain[1:] for chain in chains]).tolist():
            arcade.draw_circle_outline(x, y, 10 / zoom, QUEUE_COLOR, 2 / zoom)

    def _draw_flow(self) -> None:
        if self.last_goal is None or not self.ready("flow"):
            return
        if self.flow_field is None:
            if self.flow_grid is None or self.bridge_raised != self._flow_bridge:
                costs = {**INFANTRY.profile.multipliers, "road": 1.0, "bridge": 1.0}
                if self.bridge_raised:
                    del costs["bridge"]
                profile = navmesh.CostProfile("flow", costs, forbidden=self.level.tags - costs.keys())
                self.flow_grid = grid_from_level(self.level, FLOW_CELL, profile=profile, agent_radius=GRID_MARGIN * FLOW_CELL)
                self._flow_bridge = self.bridge_raised
            cell = int(self.flow_grid.cell_at(self.last_goal))
            if self.flow_grid.is_passable(cell):
                self.flow_field = navmesh.FlowField(self.flow_grid, cell)
        if self.flow_field is not None:
            nd.draw_flow_field(self.flow_field, color=(200, 230, 255, 150), arrow_length=0.6)

    def _draw_terrain_outlines(self) -> None:
        for region in self.army.navmap.level.terrain:
            ring = np.asarray(region.polygon.exterior.coords)
            arcade.draw_line_strip(ring.tolist(), (255, 255, 255, 160), 2.0)

    def _draw_terrain_labels(self) -> None:
        """What each terrain costs each unit type, in screen space so it reads at any zoom."""
        for label, anchor in zip(self.terrain_labels, self._label_anchors):
            x, y = self.camera.project(anchor)[:2]
            label.position = (x, y)
            panel(x - label.content_width / 2 - 6, y - 6, label.content_width + 12, label.content_height + 8)
            label.draw()

    def _draw_minimap(self) -> None:
        r = self.minimap_rect
        self.ui_camera.use()
        arcade.draw_lrbt_rectangle_filled(r.left - 3, r.right + 3, r.bottom - 3, r.top + 3, (10, 12, 16, 255))
        self.minimap.use()
        self.static.draw()
        pos = self.army.positions
        for team, color in enumerate(TEAM_COLORS):
            pts = pos[self.army.teams == team]
            if len(pts):
                arcade.draw_points(pts.tolist(), color, 40)
        # The part of the world the main camera shows.
        z = self.camera.zoom
        cx, cy = self.camera.position
        hw, hh = self.window.width / 2 / z, self.window.height / 2 / z
        arcade.draw_lrbt_rectangle_outline(cx - hw, cx + hw, cy - hh, cy + hh, (255, 255, 255, 230), 12)

    def draw_hud(self) -> None:
        a = self.army
        moving = int(a.moving[a.teams == 0].sum())
        bridge = "RAISED" if self.bridge_raised else "down"
        loading = [name for name, wanted in (("mesh", self.waiting == "mesh"), ("flow arrows", self.overlays["flow"]))
                   if wanted and not self.ready(name.split()[0])]
        self.draw_header(
            f"{len(self.selected)} selected   {moving} moving   motion: {a.motion}"
            f"{' on the mesh' if self.on_mesh else ''}   "
            f"variation: {'on' if a.variation else 'off'}   bridge: {bridge}   "
            f"overlays: {' '.join(k for k, v in self.overlays.items() if v) or 'none'}"
            + (f"   (loading: {', '.join(loading)})" if loading else "")
        )
        if self.overlays["terrain"]:
            self._draw_terrain_labels()
        if self._drag_box is not None:
            x0, y0, x1, y1 = self._drag_box
            l, r, b, t = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
            arcade.draw_lrbt_rectangle_filled(l, r, b, t, BOX_FILL)
            arcade.draw_lrbt_rectangle_outline(l, r, b, t, BOX_EDGE, 2)

    def readout(self) -> str:
        return f"   path {self.army.last_plan_ms:5.2f} ms"

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self.camera.match_window()
        self._layout_minimap()


def _pairs(polyline: np.ndarray) -> np.ndarray:
    """A polyline's segments as consecutive point pairs, the layout ``arcade.draw_lines`` takes."""
    return np.stack([polyline[:-1], polyline[1:]], axis=1).reshape(-1, 2)


def _dashes(polyline: np.ndarray, dash: float, gap: float) -> np.ndarray:
    """Point pairs (for ``arcade.draw_lines``) of a dashed polyline: ``dash`` drawn, ``gap`` left out."""
    pairs = []
    for a, b in zip(polyline[:-1], polyline[1:]):
        length = float(np.hypot(*(b - a)))
        starts = np.arange(0.0, length, dash + gap)
        ends = np.minimum(starts + dash, length)
        t = np.stack([starts, ends], axis=1).reshape(-1, 1) / max(length, 1e-12)
        pairs.append(a + t * (b - a))
    return np.concatenate(pairs) if pairs else np.zeros((0, 2))


def _ground_grid(width: float, height: float, step: float = 100.0) -> arcade.shape_list.ShapeElementList:
    """Faint lines every ``step`` world units: a sense of scale and of the camera moving."""
    xs, ys = np.arange(0.0, width + 1, step), np.arange(0.0, height + 1, step)
    points = [(x, y) for x in xs for y in (0.0, height)] + [(x, y) for y in ys for x in (0.0, width)]
    shapes = arcade.shape_list.ShapeElementList()
    shapes.append(arcade.shape_list.create_lines(points, (255, 255, 255, 16)))
    return shapes
