"""Unit types (cost profile, speed, look) and the army simulation that moves them under orders.

The simulation needs no window, so the benchmark and the tests run it alone. An :class:`Army`
keeps what the game knows about units (kind, team, goal, queued waypoints) and hands the motion
to one of two engines, switched at runtime:

- ``"crowd"`` (default): :class:`navmesh.steering.Crowd`: group orders into formation slots, one
  shared route tree per unit type and order, separation and wall sliding in one compiled step.
- ``"straight"`` / ``"hermite"``: one ``NavQuery.find_path`` per unit, walked by a
  :class:`navmesh.steering.PathFollower` along straight segments or a cubic Hermite curve,
  optionally varied (seeded waypoint offsets, "path variation"). Speeds are divided by the
  terrain multiplier under the unit, so a path's cost is its travel time x speed.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray
from PIL import Image, ImageDraw

import navmesh
from navmesh import Crowd, PathFollower
from navmesh.steering import Walls, vary_path
from navmesh.steering import formation_slots as steering_formation_slots

__all__ = [
    "INFANTRY",
    "MOTION_MODES",
    "SCOUT",
    "TANK",
    "TEAM_COLORS",
    "UNIT_TYPES",
    "Army",
    "CrowdEngine",
    "PathEngine",
    "UnitType",
    "formation_slots",
    "ring_image",
    "unit_image",
]

MotionMode = Literal["crowd", "straight", "hermite"]
MOTION_MODES: tuple[str, ...] = ("crowd", "straight", "hermite")


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


def formation_slots(navmap: navmesh.NavMap, kinds: list[UnitType], goal: ArrayLike, count: int, *,
                    spacing: float | None = None, taken: NDArray[np.float64] | None = None,
                    clearance: float | NDArray[np.float64] = 0.0,
                    walls: dict[tuple[str, ...], Walls] | None = None) -> NDArray[np.float64]:
    """``count`` standing places around ``goal`` for a group of ``kinds``, nearest first.

    The library's :func:`navmesh.steering.formation_slots` (the crowd's own slots): lattice
    points where the largest unit of the group fits, away from walls and from the terrain any
    of the kinds may not enter, connected to the goal, ``spacing`` apart (default 2.4 radii of
    the largest unit) and ``clearance`` away from ``taken`` places. ``walls`` caches the wall
    arrays per group of kinds (build them once per map).
    """
    kinds = sorted(set(kinds), key=lambda k: -k.radius)
    key = tuple(k.name for k in kinds)
    if walls is None or key not in walls:
        made = Walls(navmap, [k.radius for k in kinds], [k.profile for k in kinds])
        if walls is not None:
            walls[key] = made
    else:
        made = walls[key]
    slots = steering_formation_slots(made, 0, goal, count, spacing or 2.4 * kinds[0].radius,
                                     taken=taken, clearance=clearance)
    for c in range(1, len(kinds)):  # and free for every other kind of the group too
        slots = made.nearest_free(slots, c)
    return slots


class PathEngine:
    """One path search per unit (:class:`navmesh.NavQuery`), walked by a
    :class:`navmesh.steering.PathFollower` along straight segments or a Hermite curve; with
    ``variation`` each path first gets seeded waypoint offsets (``vary_path``). With a ``mesh``
    (a :class:`navmesh.PolyMesh` of the same level) paths and re-plans are exact mesh paths;
    formation slots and terrain speeds still come from the waypoint map."""

    def __init__(self, navmap: navmesh.NavMap, *, mesh: navmesh.PolyMesh | None = None, curve: bool = False,
                 variation: bool = False, seed: int = 0) -> None:
        self.navmap = navmap
        self.mesh = mesh
        self.mode = "hermite" if curve else "straight"
        self.variation = variation
        self.rng = np.random.default_rng(seed)
        self.queries = {t.name: navmesh.NavQuery(navmap if mesh is None else mesh, t.profile) for t in UNIT_TYPES}
        self.positions = np.zeros((0, 2))
        self.headings = np.zeros(0)
        self.kinds = np.zeros(0, dtype=np.int64)
        self.followers: list[PathFollower | None] = []
        self.paths: list[navmesh.Path | None] = []
        self.terrain_factor = np.ones(0)
        self._factor_cursor = 0
        self._walls: dict[tuple[str, ...], Walls] = {}

    def add(self, kind: UnitType, positions: NDArray[np.float64], headings: NDArray[np.float64]) -> None:
        k = len(positions)
        self.positions = np.concatenate([self.positions, positions])
        self.headings = np.concatenate([self.headings, headings])
        self.kinds = np.concatenate([self.kinds, np.full(k, UNIT_TYPES.index(kind))])
        self.terrain_factor = np.concatenate([self.terrain_factor, np.ones(k)])
        self.followers.extend([None] * k)
        self.paths.extend([None] * k)

    @property
    def arrived(self) -> NDArray[np.bool_]:
        return np.array([f is None or f.done for f in self.followers], dtype=bool)

    def order(self, ids: NDArray[np.int64], goal: NDArray[np.float64],
              standable: Callable[[NDArray[np.float64]], NDArray[np.bool_]]) -> None:
        kinds = [UNIT_TYPES[int(k)] for k in np.unique(self.kinds[ids])]
        # places other units hold: the ends of their paths, or where idle ones stand
        others = np.setdiff1d(np.arange(len(self.positions)), ids)
        held = np.array([self.followers[i].goal if self.followers[i] is not None and not self.followers[i].done
                         else self.positions[i] for i in others.tolist()]).reshape(-1, 2)
        radii = np.array([t.radius for t in UNIT_TYPES])
        clearance = 1.2 * (max(k.radius for k in kinds) + radii[self.kinds[others]])
        slots = formation_slots(self.navmap, kinds, goal, len(ids), taken=held, clearance=clearance, walls=self._walls)
        cost = np.hypot(*(self.positions[ids][:, None, :] - slots[None, :, :]).transpose(2, 0, 1))
        from scipy.optimize import linear_sum_assignment  # here: scipy.optimize costs the demo's start 0.1 s

        rows, cols = linear_sum_assignment(cost)
        for r, c in zip(rows, cols):
            self.plan(int(ids[r]), slots[c])

    def plan(self, i: int, goal: NDArray[np.float64]) -> bool:
        """Find unit ``i``'s path to ``goal`` and start following it; False when there is none."""
        kind = UNIT_TYPES[int(self.kinds[i])]
        try:
            path = self.queries[kind.name].find_path(self.positions[i], goal, allow_partial=True)
        except navmesh.NavmeshError:
            self.followers[i], self.paths[i] = None, None
            return False
        if path.start_moved:  # pushed into a wall: walk out along the first leg
            path = dataclasses.replace(path, points=np.concatenate([self.positions[i][None], path.points]))
        if self.variation and len(path.points) > 2:
            path = vary_path(path, self.navmap, seed=self.rng, max_offset=2.5 * kind.radius, radius=kind.radius)
        self.paths[i] = path
        self.followers[i] = PathFollower(path, kind.speed, mode=self.mode,
                                         navmap=self.navmap if self.mesh is None else self.queries[kind.name],
                                         radius=min(kind.radius, self.navmap.options.agent_radius),
                                         profile=kind.profile)
        return not self.followers[i].done

    def set_navmap(self, navmap: navmesh.NavMap, replan: list[int], mesh: navmesh.PolyMesh | None = None) -> None:
        self.navmap = navmap
        self.mesh = mesh
        self._walls = {}
        self.queries = {t.name: navmesh.NavQuery(navmap if mesh is None else mesh, t.profile) for t in UNIT_TYPES}
        for i in replan:
            f = self.followers[i]
            if f is not None and not f.done:
                self.plan(i, f.goal)

    def update(self, dt: float) -> None:
        self._refresh_terrain_factor()
        speeds = self._speed_table()
        for i, f in enumerate(self.followers):
            if f is None or f.done:
                continue
            f.speed = speeds[i]
            f.update(dt)
            self.positions[i] = f.position
            self.headings[i] = f.heading

    def _speed_table(self) -> NDArray[np.float64]:
        base = np.array([t.speed for t in UNIT_TYPES])[self.kinds]
        return base / self.terrain_factor

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

    def route(self, i: int) -> NDArray[np.float64]:
        f = self.followers[i]
        if f is None or f.done:
            return self.positions[i][None].copy()
        along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(f.route, axis=0).T))])
        ahead = f.route[np.searchsorted(along, f.travelled, side="right"):]
        return np.concatenate([f.position[None], ahead])

    def path(self, i: int) -> navmesh.Path | None:
        return self.paths[i]


class CrowdEngine:
    """:class:`navmesh.steering.Crowd` moving every unit (see module notes)."""

    def __init__(self, navmap: navmesh.NavMap) -> None:
        self.navmap = navmap
        self.crowd = Crowd(navmap)
        self._paths: dict[int, navmesh.Path] = {}

    def add(self, kind: UnitType, positions: NDArray[np.float64], headings: NDArray[np.float64]) -> None:
        ids = self.crowd.add(positions, radius=kind.radius, speed=kind.speed, profile=kind.profile)
        self.crowd.headings[ids] = headings

    @property
    def positions(self) -> NDArray[np.float64]:
        return self.crowd.positions

    @property
    def headings(self) -> NDArray[np.float64]:
        return self.crowd.headings

    @property
    def arrived(self) -> NDArray[np.bool_]:
        return self.crowd.arrived

    def order(self, ids: NDArray[np.int64], goal: NDArray[np.float64],
              standable: Callable[[NDArray[np.float64]], NDArray[np.bool_]]) -> None:
        self.crowd.move_to(ids, goal)

    def set_navmap(self, navmap: navmesh.NavMap, replan: list[int], mesh: navmesh.PolyMesh | None = None) -> None:
        # The crowd re-searches every order on the new map (its route trees are shared per order).
        self.navmap = navmap
        self.crowd.set_map(navmap)

    def update(self, dt: float) -> None:
        self.crowd.update(dt)

    def route(self, i: int) -> NDArray[np.float64]:
        if self.crowd.arrived[i]:
            return self.crowd.positions[i][None].copy()
        return np.asarray(self.crowd.path_of(i).points[:, :2])

    def path(self, i: int) -> navmesh.Path | None:
        return None


class Army:
    """Every unit on the map: kinds, teams, goals and queued waypoints, moved by a motion engine.

    Parameters
    ----------
    navmap : navmesh navigation map
        The built waypoint graph of the level; replace it with :meth:`set_navmap`.
    seed : int
        Seed of the random generator used for path variation.
    motion : {"crowd", "straight", "hermite"}
        The motion engine (see module notes); change it later through :attr:`motion`.
    mesh : navmesh.PolyMesh, optional
        The level's navigation mesh: the path engines route on it instead of the waypoint
        graph (the crowd stays on the graph); change it later through :attr:`mesh`.

    Attributes
    ----------
    kinds : int array of shape (n,)
        Index into :data:`UNIT_TYPES`.
    teams : int array of shape (n,)
        Team index into :data:`TEAM_COLORS`.
    goals : float64 array of shape (n, 2)
        Each unit's current goal (the point clicked; the engine spreads a group around it).
    busy : bool array of shape (n,)
        Units under an order they have not finished.
    last_plan_ms : float
        Milliseconds the latest order took to plan, per unit.
    """

    def __init__(self, navmap: navmesh.NavMap, *, seed: int = 0, motion: MotionMode = "crowd",
                 mesh: navmesh.PolyMesh | None = None) -> None:
        if motion not in MOTION_MODES:
            raise ValueError(f"motion={motion!r} is not valid; expected one of {', '.join(MOTION_MODES)}")
        self.navmap = navmap
        self._mesh = mesh
        self.seed = seed
        self.kinds = np.zeros(0, dtype=np.int64)
        self.teams = np.zeros(0, dtype=np.int64)
        self.goals = np.zeros((0, 2))
        self.busy = np.zeros(0, dtype=bool)
        self.group = np.zeros(0, dtype=np.int64)
        self.queues: list[list[tuple[int, NDArray[np.float64]]]] = []
        self.last_plan_ms = 0.0
        self._variation = False
        self._motion: MotionMode = motion
        self._next_group = 0
        self.engine = self._make_engine(motion, navmap)

    # -- units ----------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.kinds)

    @property
    def positions(self) -> NDArray[np.float64]:
        """World positions, shape (n, 2)."""
        return self.engine.positions

    @property
    def headings(self) -> NDArray[np.float64]:
        """Direction of travel in radians, counter-clockwise from +x, shape (n,)."""
        return self.engine.headings

    @property
    def moving(self) -> NDArray[np.bool_]:
        """Units that have not yet arrived at the goal of their current order."""
        return self.busy & ~self.engine.arrived

    def add(self, kind: UnitType, positions: ArrayLike, team: int = 0) -> NDArray[np.int64]:
        """Add units of one kind at ``positions`` (shape (k, 2)); returns their ids."""
        pts = np.atleast_2d(np.asarray(positions, dtype=np.float64))
        k, first = len(pts), len(self.kinds)
        self.engine.add(kind, pts, np.full(k, math.pi if team else 0.0))
        self.kinds = np.concatenate([self.kinds, np.full(k, UNIT_TYPES.index(kind))])
        self.teams = np.concatenate([self.teams, np.full(k, team)])
        self.goals = np.concatenate([self.goals, pts])
        self.busy = np.concatenate([self.busy, np.zeros(k, dtype=bool)])
        self.group = np.concatenate([self.group, np.full(k, -1)])
        self.queues.extend([] for _ in range(k))
        return np.arange(first, first + k)

    def kind_of(self, unit: int) -> UnitType:
        """The :class:`UnitType` of one unit."""
        return UNIT_TYPES[int(self.kinds[unit])]

    def standable(self, points: NDArray[np.float64], ids: ArrayLike) -> NDArray[np.bool_]:
        """Which points every unit in ``ids`` may stand on (walkable, terrain not forbidden)."""
        ok = shapely.contains_xy(self.navmap.walkable_region, points[:, 0], points[:, 1])
        for k in np.unique(self.kinds[np.asarray(ids, dtype=np.int64)]):
            ok &= np.isfinite(self.navmap.point_multipliers(points, UNIT_TYPES[int(k)].profile))
        return ok

    # -- motion engine --------------------------------------------------------------------------
    def _make_engine(self, motion: MotionMode, navmap: navmesh.NavMap) -> PathEngine | CrowdEngine:
        if motion == "crowd":
            return CrowdEngine(navmap)
        return PathEngine(navmap, mesh=self._mesh, curve=motion == "hermite", variation=self._variation, seed=self.seed)

    def _swap_engine(self, motion: MotionMode, navmap: navmesh.NavMap) -> None:
        """Move every unit with a new engine (or map) and give the busy units their orders again."""
        old = self.engine
        pos, head = np.array(old.positions), np.array(old.headings)
        self.engine = self._make_engine(motion, navmap)
        self._motion = motion
        for start, stop in _runs(self.kinds):
            self.engine.add(UNIT_TYPES[int(self.kinds[start])], pos[start:stop], head[start:stop])
        for g in np.unique(self.group[self.busy]):
            ids = np.flatnonzero(self.busy & (self.group == g))
            self._send(ids, self.goals[ids[0]])

    @property
    def motion(self) -> MotionMode:
        """``"crowd"``, ``"straight"`` or ``"hermite"``; setting it switches engines at once."""
        return self._motion

    @motion.setter
    def motion(self, value: MotionMode) -> None:
        if value not in MOTION_MODES:
            raise ValueError(f"motion={value!r} is not valid; expected one of {', '.join(MOTION_MODES)}")
        if value != self._motion:
            self._swap_engine(value, self.navmap)

    @property
    def mesh(self) -> navmesh.PolyMesh | None:
        """The mesh the path engines route on (None: the waypoint graph); setting it re-plans
        the busy units on the new routing at once."""
        return self._mesh

    @mesh.setter
    def mesh(self, value: navmesh.PolyMesh | None) -> None:
        if value is not None and not isinstance(value, navmesh.PolyMesh):
            raise ValueError(f"mesh={value!r} is not valid; expected a navmesh.PolyMesh or None")
        if value is not self._mesh:
            self._mesh = value
            self._swap_engine(self._motion, self.navmap)

    @property
    def variation(self) -> bool:
        """Jitter new routes of the path engines a little (no effect on the crowd)."""
        return self._variation

    @variation.setter
    def variation(self, value: bool) -> None:
        self._variation = bool(value)
        if isinstance(self.engine, PathEngine):
            self.engine.variation = self._variation

    # -- orders ---------------------------------------------------------------------------------
    def order(self, ids: ArrayLike, goal: ArrayLike, *, queue: bool = False) -> None:
        """Send units to ``goal`` as a group; with ``queue`` after their current orders."""
        ids = np.unique(np.asarray(ids, dtype=np.int64).reshape(-1))
        if len(ids) == 0:
            return
        g = np.asarray(goal, dtype=np.float64)
        key = self._next_group
        self._next_group += 1
        if queue:
            later = np.array([self.busy[i] or bool(self.queues[i]) for i in ids], dtype=bool)
            for i in ids[later]:
                self.queues[int(i)].append((key, g))
            ids = ids[~later]
        else:
            for i in ids:
                self.queues[int(i)].clear()
        if len(ids):
            self.group[ids] = key
            self._send(ids, g)

    def _send(self, ids: NDArray[np.int64], goal: NDArray[np.float64]) -> None:
        t0 = time.perf_counter()
        self.goals[ids] = goal
        self.busy[ids] = True
        try:
            self.engine.order(ids, goal, lambda p: self.standable(p, ids))
        except navmesh.NavmeshError:
            self.busy[ids] = False
        self.last_plan_ms = 1000 * (time.perf_counter() - t0) / len(ids)

    def stop(self, ids: ArrayLike) -> None:
        """Cancel every order of ``ids``: they halt (the crowd closes ranks where they stand)."""
        ids = np.asarray(ids, dtype=np.int64).reshape(-1)
        if len(ids) == 0:
            return
        for i in ids:
            self.queues[int(i)].clear()
        if isinstance(self.engine, PathEngine):
            self.engine.moving[ids] = False
            self.busy[ids] = False
        else:
            self._send(ids, self.positions[ids].mean(axis=0))

    # -- map changes ----------------------------------------------------------------------------
    def set_navmap(self, navmap: navmesh.NavMap, *, blocked_only: bool, mesh: navmesh.PolyMesh | None = None) -> list[int]:
        """Use a changed map (and, when routing on a mesh, the same change of the mesh); the
        units whose route it affects re-plan. Returns their ids.

        With ``blocked_only`` (something was added, e.g. a bridge raised) the affected units are
        those whose remaining route lost line of sight; otherwise (something opened) every
        moving unit, since a shorter way may exist now.
        """
        moving = np.flatnonzero(self.moving)
        if blocked_only and len(moving):
            heads, tails, owner = [], [], []
            for i in moving.tolist():
                rest = self.route_of(i)
                heads.append(rest[:-1])
                tails.append(rest[1:])
                owner.append(np.full(len(rest) - 1, i))
            seen = navmap.visible(np.concatenate(heads), np.concatenate(tails))
            moving = np.unique(np.concatenate(owner)[~seen])
        affected = [int(i) for i in moving]
        self.navmap = navmap
        if mesh is not None:
            self._mesh = mesh
        self.engine.set_navmap(navmap, affected, self._mesh)
        return affected

    # -- simulation -----------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance every unit by ``dt`` seconds; units done with an order take their next queued one."""
        self.engine.update(dt)
        done = np.flatnonzero(self.busy & self.engine.arrived)
        if len(done) == 0:
            return
        self.busy[done] = False
        waiting = [int(i) for i in done if self.queues[int(i)]]
        by_key: dict[int, list[int]] = {}
        for i in waiting:
            key, goal = self.queues[i].pop(0)
            by_key.setdefault(key, []).append(i)
            self.goals[i] = goal
        for key, members in by_key.items():
            ids = np.array(members)
            self.group[ids] = key
            self._send(ids, self.goals[ids[0]])

    # -- reading --------------------------------------------------------------------------------
    def route_of(self, i: int) -> NDArray[np.float64]:
        """The rest of unit ``i``'s route from its position (shape (m, 2); m = 1 when idle)."""
        if not self.busy[i]:
            return self.positions[i][None].copy()
        return self.engine.route(i)

    def path_of(self, i: int) -> navmesh.Path | None:
        """The path a path engine planned for unit ``i`` (``None`` under the crowd engine)."""
        return self.engine.path(i)

    def queued_goals(self, i: int) -> list[NDArray[np.float64]]:
        """Goals queued after unit ``i``'s current order."""
        return [goal for _, goal in self.queues[i]]


def _runs(values: NDArray[np.int64]) -> list[tuple[int, int]]:
    """(start, stop) of each run of equal consecutive values."""
    if len(values) == 0:
        return []
    cuts = np.flatnonzero(np.diff(values)) + 1
    edges = np.concatenate([[0], cuts, [len(values)]])
    return list(zip(edges[:-1].tolist(), edges[1:].tolist()))
