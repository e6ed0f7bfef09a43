"""Unit types (cost profile, speed, look) and the army simulation that moves them under orders.

The simulation is plain numpy and needs no window, so the benchmark and the tests can run it
alone. Positions, headings and speeds of every unit are arrays; a frame moves all moving units
toward their current route point in one vectorised step and only units that reached a route
point (a few per frame) are handled one by one.

Speeds are world units per second on plain ground. On other terrain a unit moves at its speed
divided by its profile's multiplier there, so a path's cost is also its travel time x speed.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray
from PIL import Image, ImageDraw
from scipy.optimize import linear_sum_assignment

import navmesh

__all__ = [
    "UnitType",
    "INFANTRY",
    "TANK",
    "SCOUT",
    "UNIT_TYPES",
    "TEAM_COLORS",
    "Army",
    "unit_image",
    "ring_image",
    "formation_slots",
]

MotionMode = Literal["straight", "hermite"]


@dataclass(frozen=True)
class UnitType:
    """What a kind of unit is: how it values terrain, how fast it moves and how it looks.

    Parameters
    ----------
    name : str
        ``"infantry"``, ``"tank"`` or ``"scout"``.
    profile : navmesh.CostProfile
        Terrain multipliers and forbidden terrain for its path searches.
    speed : float
        World units per second on plain ground, > 0.
    radius : float
        Body radius in world units (selection and formation spacing), > 0.
    """

    name: str
    profile: navmesh.CostProfile
    speed: float
    radius: float


INFANTRY = UnitType(
    "infantry",
    navmesh.CostProfile("infantry", {"swamp": 2.5, "ford": 2.0, "forest": 1.3, "road": 0.9}, forbidden={"water"}),
    speed=70.0,
    radius=9.0,
)
TANK = UnitType(
    "tank",
    navmesh.CostProfile("tank", {"swamp": 6.0, "forest": 2.0, "road": 0.5, "bridge": 0.5},
                        forbidden={"water", "ford"}),
    speed=95.0,
    radius=14.0,
)
SCOUT = UnitType(
    "scout",
    navmesh.CostProfile("scout", {"road": 0.8}, forbidden={"water"}),
    speed=160.0,
    radius=8.0,
)
UNIT_TYPES: tuple[UnitType, ...] = (INFANTRY, TANK, SCOUT)
TEAM_COLORS: tuple[tuple[int, int, int], ...] = ((80, 160, 255), (240, 80, 70))


def unit_image(kind: UnitType, size: int = 64) -> Image.Image:
    """A white-and-grey top view of a unit pointing right (+x), to be tinted with a team colour.

    The image is ``size`` pixels square and drawn for a body of ``kind.radius``; sprites scale
    it to the radius.
    """
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    dark, light, edge = (150, 150, 150, 255), (255, 255, 255, 255), (40, 40, 40, 255)
    if kind.name == "tank":
        d.rounded_rectangle((4, 10, size - 8, size - 10), radius=6, fill=light, outline=edge, width=2)
        d.rectangle((4, 10, size - 8, 18), fill=dark)
        d.rectangle((4, size - 18, size - 8, size - 10), fill=dark)
        d.ellipse((c - 12, c - 12, c + 8, c + 8), fill=dark, outline=edge, width=2)
        d.rectangle((c + 2, c - 4, size - 1, c + 2), fill=edge)
    elif kind.name == "scout":
        d.polygon([(size - 4, c), (8, 10), (18, c), (8, size - 10)], fill=light, outline=edge, width=2)
    else:
        d.ellipse((8, 8, size - 8, size - 8), fill=light, outline=edge, width=3)
        d.polygon([(size - 2, c), (c + 8, c - 12), (c + 8, c + 12)], fill=dark)
    return img


def ring_image(size: int = 64) -> Image.Image:
    """A green selection ring, ``size`` pixels square."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse((3, 3, size - 4, size - 4), outline=(120, 255, 120, 255), width=5)
    return img


def formation_slots(goal: ArrayLike, count: int, spacing: float, ok: callable | None = None) -> NDArray[np.float64]:
    """``count`` goal positions packed around ``goal``, nearest first, ``spacing`` apart.

    Candidates lie on a square lattice around the goal; ``ok(points) -> bool array`` drops those
    a unit cannot stand on. The goal itself is used for the rest when too few remain.
    """
    g = np.asarray(goal, dtype=np.float64)
    side = int(math.ceil(math.sqrt(max(count, 1) * 3))) | 1
    r = np.arange(side) - side // 2
    offsets = np.stack(np.meshgrid(r, r), axis=-1).reshape(-1, 2) * spacing
    # Rows alternate half a step, so the formation looks less like a chessboard.
    offsets[:, 0] += (np.abs(offsets[:, 1] / spacing) % 2) * spacing * 0.5
    cand = g + offsets[np.argsort(np.hypot(*offsets.T), kind="stable")]
    if ok is not None:
        cand = cand[ok(cand)]
    if len(cand) < count:
        cand = np.concatenate([cand, np.repeat(g[None], count - len(cand), axis=0)])
    return cand[:count]


def _catmull_rom(points: NDArray[np.float64], per_unit: float = 0.05) -> NDArray[np.float64]:
    """A centripetal-free (uniform) Catmull-Rom curve through ``points``, sampled about every 20 units."""
    if len(points) < 3:
        return points
    p = np.concatenate([points[:1], points, points[-1:]])
    out = [points[:1]]
    for i in range(1, len(p) - 2):
        p0, p1, p2, p3 = p[i - 1], p[i], p[i + 1], p[i + 2]
        n = max(2, int(np.hypot(*(p2 - p1)) * per_unit))
        t = np.linspace(0, 1, n + 1)[1:, None]
        out.append(0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t**2
                          + (-p0 + 3 * p1 - 3 * p2 + p3) * t**3))
    return np.concatenate(out)


@dataclass
class _Orders:
    """Per-unit route state (Python objects; the hot loop only touches the Army's arrays)."""

    path: navmesh.Path | None = None
    route: NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 2)))
    index: int = 0
    goal: NDArray[np.float64] | None = None
    queue: list[NDArray[np.float64]] = field(default_factory=list)


class Army:
    """Every unit on the map: arrays of state plus each unit's route and queued goals.

    Parameters
    ----------
    navmap : navmesh navigation map
        The built waypoint graph of the level; replace it with :meth:`set_navmap`.
    seed : int
        Seed of the random generator used for path variation.

    Attributes
    ----------
    positions : float64 array of shape (n, 2)
        World positions.
    headings : float64 array of shape (n,)
        Direction of travel in radians, counter-clockwise from +x.
    kinds : int array of shape (n,)
        Index into :data:`UNIT_TYPES`.
    teams : int array of shape (n,)
        Team index into :data:`TEAM_COLORS`.
    moving : bool array of shape (n,)
        Units with a route still to walk.
    motion : {"straight", "hermite"}
        How new routes are drawn: straight segments, or a curve through the path's points
        (kept only where the curve has line of sight everywhere).
    variation : bool
        Jitter the inner points of new routes a little, so a group does not walk in single file.
    last_plan_ms : float
        Milliseconds per path of the latest order.
    """

    def __init__(self, navmap: navmesh.WaypointGraph, *, seed: int = 0) -> None:
        self.navmap = navmap
        self.rng = np.random.default_rng(seed)
        self.positions = np.zeros((0, 2))
        self.headings = np.zeros(0)
        self.kinds = np.zeros(0, dtype=np.int64)
        self.teams = np.zeros(0, dtype=np.int64)
        self.moving = np.zeros(0, dtype=bool)
        self.targets = np.zeros((0, 2))
        self.terrain_factor = np.ones(0)
        self.orders: list[_Orders] = []
        self.motion: MotionMode = "straight"
        self.variation = False
        self.last_plan_ms = 0.0
        self._speed_table = np.array([t.speed for t in UNIT_TYPES])
        self._factor_cursor = 0

    # -- units ----------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.positions)

    def add(self, kind: UnitType, positions: ArrayLike, team: int = 0) -> NDArray[np.int64]:
        """Add units of one kind at ``positions`` (shape (k, 2)); returns their ids."""
        pts = np.atleast_2d(np.asarray(positions, dtype=np.float64))
        k = len(pts)
        first = len(self.positions)
        self.positions = np.concatenate([self.positions, pts])
        self.headings = np.concatenate([self.headings, np.zeros(k)])
        self.kinds = np.concatenate([self.kinds, np.full(k, UNIT_TYPES.index(kind))])
        self.teams = np.concatenate([self.teams, np.full(k, team)])
        self.moving = np.concatenate([self.moving, np.zeros(k, dtype=bool)])
        self.targets = np.concatenate([self.targets, pts])
        self.terrain_factor = np.concatenate([self.terrain_factor, np.ones(k)])
        self.orders.extend(_Orders() for _ in range(k))
        return np.arange(first, first + k)

    def kind_of(self, unit: int) -> UnitType:
        """The :class:`UnitType` of one unit."""
        return UNIT_TYPES[int(self.kinds[unit])]

    def standable(self, points: NDArray[np.float64], ids: ArrayLike) -> NDArray[np.bool_]:
        """Which points every unit in ``ids`` may stand on (walkable, terrain not forbidden)."""
        ok = shapely.contains_xy(self.navmap.walkable, points[:, 0], points[:, 1])
        for k in np.unique(self.kinds[np.asarray(ids, dtype=np.int64)]):
            mult = self.navmap.point_multipliers(points, UNIT_TYPES[int(k)].profile)
            ok &= np.isfinite(mult)
        return ok

    # -- orders ---------------------------------------------------------------------------------
    def order(self, ids: ArrayLike, goal: ArrayLike, *, queue: bool = False) -> None:
        """Send units to ``goal`` in formation; with ``queue`` after their current orders."""
        ids = np.asarray(ids, dtype=np.int64).reshape(-1)
        if len(ids) == 0:
            return
        spacing = 2.4 * max(UNIT_TYPES[int(k)].radius for k in np.unique(self.kinds[ids]))
        slots = formation_slots(goal, len(ids), spacing, lambda p: self.standable(p, ids))
        start = np.array([self._last_goal(i) if queue else self.positions[i] for i in ids])
        cost = np.hypot(*(start[:, None, :] - slots[None, :, :]).transpose(2, 0, 1))
        rows, cols = linear_sum_assignment(cost)
        t0 = time.perf_counter()
        for r, c in zip(rows, cols):
            i, slot = int(ids[r]), slots[c]
            o = self.orders[i]
            if queue and (self.moving[i] or o.queue):
                o.queue.append(slot)
            else:
                o.queue.clear()
                self._plan(i, slot)
        self.last_plan_ms = 1000 * (time.perf_counter() - t0) / len(ids)

    def stop(self, ids: ArrayLike) -> None:
        """Cancel every order of ``ids``."""
        for i in np.asarray(ids, dtype=np.int64).reshape(-1):
            self.orders[int(i)] = _Orders()
            self.moving[i] = False
            self.targets[i] = self.positions[i]

    def _last_goal(self, i: int) -> NDArray[np.float64]:
        o = self.orders[i]
        if o.queue:
            return o.queue[-1]
        return o.goal if (o.goal is not None and self.moving[i]) else self.positions[i]

    def _plan(self, i: int, goal: NDArray[np.float64]) -> bool:
        """Find and start unit ``i``'s route to ``goal``; False when no route starts."""
        o = self.orders[i]
        o.goal = np.asarray(goal, dtype=np.float64)
        try:
            path = navmesh.find_path(self.navmap, self.positions[i], o.goal, profile=self.kind_of(i).profile,
                                     allow_partial=True)
        except navmesh.NavmeshError:
            o.path, o.route, o.index = None, np.zeros((0, 2)), 0
            self.moving[i] = False
            return False
        o.path = path
        o.route = self._shape_route(np.asarray(path.points[:, :2], dtype=np.float64))
        o.index = 1
        self.moving[i] = len(o.route) > 1
        self.targets[i] = o.route[1] if self.moving[i] else self.positions[i]
        return bool(self.moving[i])

    def _shape_route(self, pts: NDArray[np.float64]) -> NDArray[np.float64]:
        """The polyline a unit walks: the path, maybe jittered, maybe curved, never through walls."""
        route = pts
        if self.variation and len(pts) > 2:
            jittered = pts.copy()
            jittered[1:-1] += self.rng.normal(0.0, 9.0, (len(pts) - 2, 2))
            if self._clear(jittered):
                route = jittered
        if self.motion == "hermite" and len(route) > 2:
            curve = _catmull_rom(route)
            if self._clear(curve):
                route = curve
        return route

    def _clear(self, route: NDArray[np.float64]) -> bool:
        return bool(self.navmap.visible(route[:-1], route[1:]).all())

    # -- map changes ----------------------------------------------------------------------------
    def set_navmap(self, navmap: navmesh.WaypointGraph, *, blocked_only: bool) -> list[int]:
        """Use a changed map; re-plan the moving units whose route it affects. Returns their ids.

        With ``blocked_only`` (something was added, e.g. a bridge raised) only units whose
        remaining route lost line of sight re-plan; otherwise (something opened) every moving
        unit re-plans, since a shorter way may exist now.
        """
        self.navmap = navmap
        moving = np.flatnonzero(self.moving)
        if blocked_only and len(moving):
            heads, tails, owner = [], [], []
            for i in moving:
                o = self.orders[int(i)]
                rest = np.concatenate([self.positions[i][None], o.route[o.index:]])
                heads.append(rest[:-1])
                tails.append(rest[1:])
                owner.append(np.full(len(rest) - 1, i))
            seen = navmap.visible(np.concatenate(heads), np.concatenate(tails))
            moving = np.unique(np.concatenate(owner)[~seen])
        replanned = [int(i) for i in moving]
        for i in replanned:
            self._plan(i, self.orders[i].goal)
        return replanned

    # -- simulation -----------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance every moving unit by ``dt`` seconds."""
        self._refresh_terrain_factor()
        idx = np.flatnonzero(self.moving)
        if len(idx) == 0:
            return
        delta = self.targets[idx] - self.positions[idx]
        dist = np.hypot(delta[:, 0], delta[:, 1])
        step = self._speed_table[self.kinds[idx]] / self.terrain_factor[idx] * dt
        arrive = dist <= step
        go = ~arrive & (dist > 0)
        self.positions[idx[go]] += delta[go] * (step[go] / dist[go])[:, None]
        turning = dist > 1e-9
        self.headings[idx[turning]] = np.arctan2(delta[turning, 1], delta[turning, 0])
        for i in idx[arrive].tolist():
            self._reach_point(i)

    def _reach_point(self, i: int) -> None:
        o = self.orders[i]
        self.positions[i] = o.route[o.index]
        o.index += 1
        if o.index < len(o.route):
            self.targets[i] = o.route[o.index]
            return
        self.moving[i] = False
        while o.queue and not self._plan(i, o.queue.pop(0)):
            pass

    def _refresh_terrain_factor(self) -> None:
        """Re-read the terrain multiplier under an eighth of the units (round robin)."""
        n = len(self.positions)
        if n == 0:
            return
        chunk = max(64, n // 8)
        sel = (self._factor_cursor + np.arange(min(chunk, n))) % n
        self._factor_cursor = int((self._factor_cursor + chunk) % n)
        for k in np.unique(self.kinds[sel]):
            part = sel[self.kinds[sel] == k]
            mult = self.navmap.point_multipliers(self.positions[part], UNIT_TYPES[int(k)].profile)
            self.terrain_factor[part] = np.where(np.isfinite(mult), np.maximum(mult, 0.25), 1.0)

    # -- reading --------------------------------------------------------------------------------
    def route_of(self, i: int) -> NDArray[np.float64]:
        """The rest of unit ``i``'s route from its position (shape (m, 2); m = 1 when idle)."""
        o = self.orders[i]
        if not self.moving[i]:
            return self.positions[i][None].copy()
        return np.concatenate([self.positions[i][None], o.route[o.index:]])

    def path_of(self, i: int) -> navmesh.Path | None:
        """The path unit ``i`` was last given (``None`` before any order)."""
        return self.orders[i].path

    def queued_goals(self, i: int) -> list[NDArray[np.float64]]:
        """Goals queued after unit ``i``'s current order."""
        return list(self.orders[i].queue)
