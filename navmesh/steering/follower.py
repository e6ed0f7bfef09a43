"""One unit following a path: constant speed along the arc length, exact arrival, smooth curves,
re-planning when the target moves, the unit is pushed off its route or the map changes."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import check_option
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NoPathError,
    describe,
)
from navmesh.path import Path
from navmesh.steering.curves import (
    TANGENTS,
    Tangents,
    arc_lengths,
    as_polyline,
    hermite_curve,
    point_at,
)
from navmesh.terrain import CostProfile
from navmesh.endpoints import ENDPOINT_TOLERANCE, level_size
from navmesh.polymesh.mesh import PolyMesh
from navmesh.polymesh.query import MeshQuery
from navmesh.waypoints.navmap import NavMap
from navmesh.waypoints.query import NavQuery

__all__ = ["MODES", "FollowerEvent", "Mode", "PathFollower", "from_here"]

Mode = Literal["straight", "hermite"]
MODES: tuple[str, ...] = ("straight", "hermite")


@dataclass(frozen=True)
class FollowerEvent:
    """Something that happened during one :meth:`PathFollower.update`.

    Attributes
    ----------
    kind : {"waypoint", "goal", "replan", "blocked"}
        ``"waypoint"``: an inner waypoint was passed; ``"goal"``: the goal was reached (the
        follower is done); ``"replan"``: a new route was planned (target moved, timer, pushed
        off the route, or blocked); ``"blocked"``: the map changed and the route ahead is no
        longer walkable (followed by ``"replan"``, or alone when the goal can no longer be
        reached: the follower then stands still and is ``done``).
    index : int
        The waypoint's index in the route's points (``-1`` for replan / blocked).
    position : tuple of float
        Where it happened (world units).
    """

    kind: str
    index: int
    position: tuple[float, float]


def _positive(name: str, value: Any, *, allow_zero: bool = False, allow_none: bool = False) -> float | None:
    if value is None and allow_none:
        return None
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidOptionError(f"{name}={describe(value)} is not a number") from None
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        rule = ">= 0" if allow_zero else "> 0"
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected a finite number {rule}")
    return v


class PathFollower:
    """Moves one unit along a path at constant speed.

    Parameters
    ----------
    path_or_points : Path or float array of shape (n, 2)
        The route, from the unit's exact position to the goal (a :class:`~navmesh.path.Path`
        from ``find_path`` starts at the unit's position, so the unit never teleports).
    speed : float
        World units per second along the arc length, > 0.
    mode : {"straight", "hermite"}
        ``"straight"`` walks the polyline; ``"hermite"`` walks a cubic Hermite curve through the
        waypoints (see :mod:`navmesh.steering.curves`), flattened where it would leave the
        walkable area of ``navmap`` for ``radius``.
    navmap : NavMap, PolyMesh or MeshQuery, optional
        Needed for curve flattening, re-planning (:meth:`chase`, pushes, :meth:`set_navmap`).
        On a PolyMesh re-plans are mesh queries (a MeshQuery given here is reused, and its
        profile applies unless ``profile`` is given), and the walkable area for the curve
        check is the mesh itself (built for its own ``agent_radius``; ``radius`` is not used).
    radius : float
        Unit radius (world units, >= 0): obstacles are inflated by it for the curve check.
    profile : CostProfile, optional
        Cost profile for re-planning.
    tangents : {"catmull_rom", "centripetal"}
        Hermite tangents.
    brake_distance : float
        Distance before the goal over which the unit brakes evenly to a stop (>= 0, default 0:
        full speed until it stops exactly on the goal). Braking adds ``brake_distance / speed``
        seconds to the trip.
    replan_distance : float, optional
        Chasing: re-plan when the target is farther than this from the goal of the current route.
        Default: ``4 * radius`` or 1 world unit, whichever is larger.
    replan_interval : float, optional
        Chasing: also re-plan every this many seconds (> 0). Default: only on distance.
    offpath_distance : float, optional
        Re-plan when :meth:`push` moves the unit farther than this from its route (without a
        navmap: walk straight back to the route's next waypoint). Default: ``2 * radius`` or 0.5,
        whichever is larger.
    samples_per_piece : int
        Samples per curve piece (hermite mode), >= 2.

    Attributes
    ----------
    position : float array (2,)
        Current position (world units).
    heading : float
        Direction of travel in radians, counter-clockwise from +x.
    velocity : float array (2,)
        Velocity over the last update (units per second).
    done : bool
        True once the goal is reached (the position is then exactly the goal).
    events : tuple of FollowerEvent
        What happened during the last update.
    route : float array (m, 2)
        The polyline being walked (the sampled curve in hermite mode).
    waypoints : float array (n, 2)
        The route's waypoints (path points).

    Raises
    ------
    InvalidGeometryError
        The points are not finite (n, 2) numbers.
    InvalidOptionError
        An option is out of range, or ``navmap`` is not a NavMap.

    Examples
    --------
    >>> f = PathFollower([[0, 0], [3, 0], [3, 4]], speed=2.0)
    >>> while not f.done:
    ...     _ = f.update(0.25)
    >>> f.position.tolist(), [e.kind for e in f.events]
    ([3.0, 4.0], ['goal'])
    """

    def __init__(
        self,
        path_or_points: Path | ArrayLike,
        speed: float,
        *,
        mode: Mode = "straight",
        navmap: Any = None,
        radius: float = 0.0,
        profile: CostProfile | None = None,
        tangents: Tangents = "catmull_rom",
        brake_distance: float = 0.0,
        replan_distance: float | None = None,
        replan_interval: float | None = None,
        offpath_distance: float | None = None,
        samples_per_piece: int = 16,
    ) -> None:
        self.speed = _positive("speed", speed)
        self.mode = check_option("mode", mode, MODES)
        self.tangents = check_option("tangents", tangents, TANGENTS)
        self.radius = _positive("radius", radius, allow_zero=True)
        self.brake_distance = _positive("brake_distance", brake_distance, allow_zero=True)
        self.replan_distance = _positive("replan_distance", replan_distance, allow_none=True) or max(4 * self.radius, 1.0)
        self.replan_interval = _positive("replan_interval", replan_interval, allow_none=True)
        self.offpath_distance = _positive("offpath_distance", offpath_distance, allow_none=True) or max(
            2 * self.radius, 0.5
        )
        if profile is not None and not isinstance(profile, CostProfile):
            raise InvalidOptionError(f"profile={describe(profile)} is not a CostProfile")
        self.profile = profile
        self.samples_per_piece = samples_per_piece
        self._los = None
        self._query = None
        self.navmap = self._take_map(navmap)
        self.target: NDArray[np.float64] | None = None
        self._since_plan = 0.0
        self._replan_now = False
        self._blocked = False
        self.events: tuple[FollowerEvent, ...] = ()
        self.velocity = np.zeros(2)
        self.heading = 0.0
        self._set_route(self._points(path_or_points), start_tangent=None)
        self.position = self.route[0].copy()
        self.heading = self._direction_heading()

    # -- route ------------------------------------------------------------------------------
    @staticmethod
    def _points(path_or_points: Path | ArrayLike) -> NDArray[np.float64]:
        pts = path_or_points.points if isinstance(path_or_points, Path) else path_or_points
        return as_polyline(pts, "path_or_points")

    def _take_map(self, navmap: Any) -> Any:
        """The map to keep: a MeshQuery becomes its mesh, the query kept for re-plans."""
        if navmap is not None:
            _check_map(navmap)
        if isinstance(navmap, MeshQuery):
            self._query = navmap if self.profile is None or self.profile == navmap.profile else None
            if self.profile is None:
                self.profile = navmap.profile
            return navmap.mesh
        return navmap

    def _sight(self) -> Any:
        if self.navmap is None:
            return None
        if self._los is None and isinstance(self.navmap, PolyMesh):
            self._los = _MeshArea(self.navmap)
        if self._los is None:
            nav_r = float(getattr(self.navmap.options, "agent_radius", 0.0))
            self._los = (
                self.navmap.line_of_sight
                if nav_r == self.radius
                else self.navmap.level.line_of_sight(agent_radius=self.radius)
            )
        return self._los

    def _set_route(self, waypoints: NDArray[np.float64], start_tangent: NDArray[np.float64] | None) -> None:
        self.waypoints = waypoints
        # a two-point route curves too when it must leave in the current heading (a re-plan)
        if self.mode == "hermite" and (len(waypoints) > 2 or (len(waypoints) == 2 and start_tangent is not None)):
            curve = hermite_curve(
                waypoints, tangents=self.tangents, line_of_sight=self._sight(),
                samples_per_piece=self.samples_per_piece, start_tangent=start_tangent,
            )
            self.route, rows = curve.sample()
            self.curve = curve
        else:
            self.route, rows = waypoints.copy(), np.arange(len(waypoints))
            self.curve = None
        self._cum = arc_lengths(self.route)
        self._waypoint_s = self._cum[rows]
        self._s = 0.0
        self.done = len(self.route) < 2 or self._cum[-1] == 0.0

    @property
    def length(self) -> float:
        """Length of the route being walked (world units)."""
        return float(self._cum[-1])

    @property
    def travelled(self) -> float:
        """Distance walked along the current route (world units)."""
        return self._s

    @property
    def goal(self) -> NDArray[np.float64]:
        """The end of the current route."""
        return self.route[-1].copy()

    def set_path(self, path_or_points: Path | ArrayLike) -> None:
        """Follow a new route from where the unit stands.

        If the route does not start at the unit's position, a straight leg to its start is
        added, so the unit never jumps. In hermite mode the curve leaves in the current heading.
        """
        pts = self._points(path_or_points)
        if not np.array_equal(pts[0], self.position):
            pts = np.concatenate([self.position[None], pts])
        moving = float(np.hypot(*self.velocity)) > 0
        tangent = np.array([math.cos(self.heading), math.sin(self.heading)]) if moving else None
        self._set_route(pts, start_tangent=tangent)

    # -- re-planning ------------------------------------------------------------------------
    def _plan(self, goal: NDArray[np.float64]) -> Path:
        if self.navmap is not None:
            return _find_path(self, self.position, goal)
        if self.target is not None:
            pts = np.stack([self.position, goal])
        else:
            # no map: back to the route at its next waypoint, then on along it
            nxt = int(np.searchsorted(self._waypoint_s, self._s, side="right"))
            pts = np.concatenate([self.position[None], self.waypoints[nxt:]])
        return Path(np.zeros(0, np.int32), pts, float(np.hypot(*np.diff(pts, axis=0).T).sum()))

    def chase(self, target: ArrayLike) -> None:
        """Keep heading for a moving target: call every frame with its position.

        The route is re-planned (from the unit's exact position, so motion stays continuous) when
        the target is farther than ``replan_distance`` from the current route's goal, every
        ``replan_interval`` seconds, or when the unit has reached its route's goal and the target
        is elsewhere, on the next :meth:`update`.
        """
        t = np.asarray(target, dtype=np.float64).ravel()[:2]
        if t.shape != (2,) or not np.isfinite(t).all():
            raise InvalidGeometryError(f"target={describe(target)} is not two finite numbers")
        self.target = t
        gap = float(np.hypot(*(t - self.route[-1])))
        if gap > self.replan_distance or (self.done and gap > 0.0):
            self._replan_now = True

    def push(self, offset: ArrayLike) -> None:
        """Move the unit by ``offset`` (separation, a collision): it re-plans if that takes it
        farther than ``offpath_distance`` from its route, and otherwise keeps to the route."""
        d = np.asarray(offset, dtype=np.float64).ravel()
        if d.shape != (2,) or not np.isfinite(d).all():
            raise InvalidGeometryError(f"offset={describe(offset)} is not two finite numbers")
        self.position = self.position + d
        if self.done:
            return
        if self._distance_to_route() > self.offpath_distance:
            self._replan_now = True

    def _distance_to_route(self) -> float:
        a, b = self.route[:-1], self.route[1:]
        ab = b - a
        ll = (ab**2).sum(axis=1)
        t = np.clip(((self.position - a) * ab).sum(axis=1) / np.where(ll > 0, ll, 1), 0, 1)
        return float(np.hypot(*(a + t[:, None] * ab - self.position).T).min())

    def set_navmap(self, navmap: Any) -> bool:
        """Switch to a changed map (a door closed: a NavMap or PolyMesh from a local update,
        ``with_obstacle`` / ``without_obstacle``).

        Parameters
        ----------
        navmap : NavMap, PolyMesh or MeshQuery
            The new map (as for the constructor); re-plans run on it from now on.

        Returns
        -------
        bool
            True (and the unit re-plans from where it stands on the next update, with a
            ``"blocked"`` event) when the rest of the route is no longer walkable on the new map.

        Raises
        ------
        InvalidOptionError
            ``navmap`` is not a NavMap, PolyMesh or MeshQuery (the follower keeps its old map).
        """
        _check_map(navmap)
        self._los = None
        self._query = None
        self.navmap = self._take_map(navmap)
        if self.done:
            return False
        _, k = point_at(self.route, self._cum, self._s)
        ahead = np.concatenate([self.position[None], self.route[k + 1 :]])
        blocked = bool(np.asarray(self._sight().blocked(ahead[:-1], ahead[1:])).any()) if len(ahead) > 1 else False
        if blocked:
            self._replan_now = True
            self._blocked = True
        return blocked

    # -- motion -----------------------------------------------------------------------------
    def _advance(self, dt: float) -> float:
        """Distance along the route after ``dt`` seconds: cruise, then even braking."""
        length, s, v, d = self._cum[-1], self._s, self.speed, self.brake_distance
        if d <= 0.0:
            return min(length, s + v * dt)
        cruise_end = length - d
        if s < cruise_end:
            t_cruise = (cruise_end - s) / v
            if dt <= t_cruise:
                return s + v * dt
            dt -= t_cruise
            s = cruise_end
        # braking with deceleration a = v^2 / (2 d): sqrt(remaining) falls linearly in time
        a = v * v / (2 * d)
        root = max(math.sqrt(max(length - s, 0.0)) - math.sqrt(a / 2) * dt, 0.0)
        return length - root * root

    def update(self, dt: float) -> tuple[FollowerEvent, ...]:
        """Advance by ``dt`` seconds (>= 0); returns (and stores in ``events``) what happened.

        ``dt = 0`` (a paused game) changes nothing and returns no events.
        """
        dt = _positive("dt", dt, allow_zero=True)
        if dt == 0.0:
            self.events = ()
            return self.events
        events: list[FollowerEvent] = []
        self._since_plan += dt
        if self.target is not None and self.replan_interval is not None and self._since_plan >= self.replan_interval:
            self._replan_now = True
        if self._replan_now:
            if self._blocked:
                events.append(FollowerEvent("blocked", -1, tuple(self.position.tolist())))
                self._blocked = False
            goal = self.target if self.target is not None else self.route[-1]
            self._replan_now = False
            self._since_plan = 0.0
            try:
                self.set_path(self._plan(goal))
                events.append(FollowerEvent("replan", -1, tuple(self.position.tolist())))
            except NoPathError:
                # cut off: stand still (done) until the caller gives a new path or target
                self._set_route(self.position[None].copy(), start_tangent=None)
                if not events:
                    events.append(FollowerEvent("blocked", -1, tuple(self.position.tolist())))
        before = self.position.copy()
        if self.done:
            self.velocity = np.zeros(2)
        else:
            s0 = self._s
            self._s = self._advance(dt)
            for i in np.flatnonzero((self._waypoint_s > s0) & (self._waypoint_s <= self._s)).tolist():
                if i == len(self._waypoint_s) - 1:
                    continue
                if i > 0:
                    events.append(FollowerEvent("waypoint", i, tuple(self.waypoints[i].tolist())))
            if self._s >= self._cum[-1]:
                self._s = float(self._cum[-1])
                self.position = self.route[-1].copy()
                self.done = True
                events.append(FollowerEvent("goal", len(self.waypoints) - 1, tuple(self.position.tolist())))
            else:
                self.position, _ = point_at(self.route, self._cum, self._s)
            self.velocity = (self.position - before) / dt
            if float(np.hypot(*self.velocity)) > 0:
                self.heading = self._direction_heading()
        self.events = tuple(events)
        return self.events

    def _direction_heading(self) -> float:
        if len(self.route) < 2 or self._cum[-1] == 0.0:
            return self.heading
        s = min(self._s, float(self._cum[-1]) * (1 - 1e-12))
        _, k = point_at(self.route, self._cum, s)
        # skip zero-length segments
        while k < len(self.route) - 2 and self._cum[k + 1] == self._cum[k]:
            k += 1
        d = self.route[k + 1] - self.route[k]
        return float(math.atan2(d[1], d[0]))

    def __repr__(self) -> str:
        return (
            f"PathFollower(mode={self.mode!r}, speed={self.speed}, at {self.position.tolist()}, "
            f"{self._s:.4g} of {self.length:.4g}{', done' if self.done else ''})"
        )


def _check_map(navmap: Any) -> None:
    if not isinstance(navmap, (NavMap, PolyMesh, MeshQuery)):
        raise InvalidOptionError(
            f"navmap={describe(navmap)} is not a NavMap, PolyMesh or MeshQuery; pass the build_waypoint_graph "
            "or build_navmesh result (or their local updates)"
        )


class _MeshArea:
    """The walkable area of a PolyMesh, with the one test the follower needs (``blocked``): a
    segment is blocked when it leaves the union of the mesh's polygons (grown by the endpoint
    tolerance, so segments along walls and points a few ulps outside count as inside)."""

    def __init__(self, mesh: PolyMesh) -> None:
        area = shapely.union_all(mesh.to_shapely())
        self.area = area.buffer(ENDPOINT_TOLERANCE * level_size(mesh.bounds))
        shapely.prepare(self.area)

    def blocked(self, a: ArrayLike, b: ArrayLike) -> NDArray[np.bool_]:
        a2 = np.asarray(a, dtype=np.float64).reshape(-1, 2)
        b2 = np.asarray(b, dtype=np.float64).reshape(-1, 2)
        return ~shapely.covers(self.area, shapely.linestrings(np.stack([a2, b2], axis=1)))


def _find_path(follower: PathFollower, start: NDArray[np.float64], goal: NDArray[np.float64]) -> Path:
    """A path on the follower's map from ``start`` to ``goal`` (a goal inside an obstacle moves to
    the nearest walkable point; a start pushed into one walks out first)."""
    if follower._query is None:
        follower._query = NavQuery(follower.navmap, follower.profile)
    return from_here(follower._query.find_path(start, goal), start)


def from_here(path: Path, start: NDArray[np.float64]) -> Path:
    """``path`` made to begin exactly at ``start``, where the unit stands: a start the search
    moved (``start_moved``: the unit stands in a wall) gets a first leg from ``start`` to the
    moved point, so the unit walks out continuously; a start only pushed inside by the endpoint
    tolerance is replaced by ``start`` itself."""
    points = path.points
    if np.array_equal(points[0, :2], start[:2]):
        return path
    here = np.array(points[0], dtype=np.float64)
    here[:2] = start[:2]
    if path.start_moved:
        points = np.vstack([here, points])
    else:
        points = np.vstack([here, points[1:]])
    return Path(path.nodes, points, path.cost, path.expansions, path.partial, path.start_moved, path.goal_moved)
