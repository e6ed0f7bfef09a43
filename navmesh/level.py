"""`Level`: the designer's data (bounds, obstacles, waypoints, terrain, links).

A level is an immutable value, validated once when it is made. Names in error messages are the
JSON paths of the file format (``obstacles[3]``, ``waypoints[7]``, ``links[0].b``), so the same
message points into a file when a level is loaded.

The JSON file format is in :mod:`navmesh.io.level_json`.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, InitVar, dataclass, field
from typing import Any, Literal

import numpy as np
import shapely
from numpy.typing import NDArray

from navmesh._checks import MAX_COORDINATE, MAX_COST, check_nonneg_float, check_option, check_points, is_real
from navmesh.errors import (
    InvalidCostError,
    InvalidGeometryError,
    InvalidOptionError,
    NavmeshError,
    NavmeshWarning,
    NodeNotFoundError,
    describe,
)
from navmesh.geometry import Join, as_bounds, as_polygon, polygon_list
from navmesh.sight import LineOfSight
from navmesh.tags import check_tag
from navmesh.terrain import TerrainLayer, TerrainRegion

__all__ = [
    "Level",
    "Link",
    "OffMeshLink",
    "LinkKind",
    "BadWaypointPolicy",
    "LINK_KINDS",
]

LinkKind = Literal["forced", "forbidden", "one_way"]
LINK_KINDS: tuple[str, ...] = ("forced", "forbidden", "one_way")
BadWaypointPolicy = Literal["error", "warn", "drop"]
BAD_WAYPOINT_POLICIES: tuple[str, ...] = ("error", "warn", "drop")


def _check_index(name: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
        raise NodeNotFoundError(f"{name}={describe(value)} is not a waypoint index; expected an integer >= 0")
    return int(value)


def _sequence(name: str, value: Any) -> tuple[Any, ...]:
    """``value`` as a tuple, refusing what is not a sequence (a str, a number, a geometry)."""
    if isinstance(value, (str, bytes, shapely.Geometry)):
        raise InvalidOptionError(f"{name}={describe(value)} must be a sequence, not a single value")
    try:
        return tuple(value)
    except TypeError:
        raise InvalidOptionError(f"{name}={describe(value)} must be a sequence") from None


def _check_requires(name: str, value: Any) -> str | None:
    return None if value is None else check_tag(name, value)


@dataclass(frozen=True)
class Link:
    """A manual rule between two waypoints, overriding what line of sight decides.

    Parameters
    ----------
    a, b : int
        Waypoint indices (rows of ``Level.waypoints``), different.
    kind : {"forced", "forbidden", "one_way"}
        ``"forced"``: arcs a->b and b->a exist even without line of sight. ``"forbidden"``:
        no arc between a and b in either direction. ``"one_way"``: the arc a->b exists (even
        without line of sight) and b->a does not.
    tag : str
        Surface tag of the link's arcs (e.g. ``"bridge"``); ``""`` means the terrain under it
        counts. A tagged arc costs length x the tag's multiplier (see :mod:`navmesh.terrain`).
    requires : str or None
        Capability a unit needs to use the link (e.g. ``"wading_boots"``). Not allowed on
        ``"forbidden"`` links.

    Examples
    --------
    >>> Link(0, 1, "one_way", tag="bridge")
    Link(a=0, b=1, kind='one_way', tag='bridge', requires=None)
    """

    a: int
    b: int
    kind: LinkKind
    tag: str = ""
    requires: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "a", _check_index("Link.a", self.a))
        object.__setattr__(self, "b", _check_index("Link.b", self.b))
        if self.a == self.b:
            raise InvalidOptionError(f"Link a=b={self.a}; a link joins two different waypoints")
        check_option("Link.kind", self.kind, LINK_KINDS)
        check_tag("Link.tag", self.tag, allow_empty=True)
        _check_requires("Link.requires", self.requires)
        if self.kind == "forbidden" and self.requires is not None:
            raise InvalidOptionError(
                f"Link({self.a}, {self.b}, 'forbidden') has requires={describe(self.requires)}; a gated passage is "
                "a 'forced' or 'one_way' link with requires"
            )


@dataclass(frozen=True)
class OffMeshLink:
    """A connection that is not a walk along a straight line: a teleport, ladder or jump.

    Parameters
    ----------
    a, b : int
        Waypoint indices, different. The link leads from a to b.
    cost : float
        Cost of taking the link for a unit whose profile does not change its tag; finite, >= 0.
        A profile's multiplier for ``tag`` scales it.
    tag : str
        Tag of the link (e.g. ``"teleport"``, ``"ladder"``); ``""`` for none.
    bidirectional : bool
        Whether the link also leads from b to a (at the same cost).
    requires : str or None
        Capability a unit needs to use the link.

    Examples
    --------
    >>> OffMeshLink(3, 9, 2.5, "ladder", bidirectional=True).cost
    2.5
    """

    a: int
    b: int
    cost: float
    tag: str
    bidirectional: bool = False
    requires: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "a", _check_index("OffMeshLink.a", self.a))
        object.__setattr__(self, "b", _check_index("OffMeshLink.b", self.b))
        if self.a == self.b:
            raise InvalidOptionError(f"OffMeshLink a=b={self.a}; a link joins two different waypoints")
        try:
            cost = float(self.cost) if is_real(self.cost) else math.nan
        except OverflowError:
            cost = math.inf
        if not 0 <= cost <= MAX_COST:
            raise InvalidCostError(
                f"OffMeshLink cost={describe(self.cost)} is not allowed; expected a number from 0 to {MAX_COST:g}"
            )
        object.__setattr__(self, "cost", cost)
        check_tag("OffMeshLink.tag", self.tag, allow_empty=True)
        if not isinstance(self.bidirectional, (bool, np.bool_)):
            raise InvalidOptionError(f"OffMeshLink bidirectional={describe(self.bidirectional)} must be True or False")
        object.__setattr__(self, "bidirectional", bool(self.bidirectional))
        _check_requires("OffMeshLink.requires", self.requires)


def _no_waypoints() -> NDArray[np.float64]:
    return np.zeros((0, 2))


@dataclass(frozen=True, eq=False)
class Level:
    """Level geometry and navigation hints: the input of ``build_waypoint_graph``.

    Parameters
    ----------
    bounds : shapely Polygon, coordinates, or (xmin, ymin, xmax, ymax)
        The level's outline. Nothing outside it is walkable; holes in it act as obstacles.
    obstacles : sequence of shapely Polygon or coordinates
        Blocked areas (holes allowed). With ``repair=True`` a polygon that ``make_valid``
        splits becomes several obstacles.
    waypoints : float array of shape (n, 2) or (n, 3)
        Waypoint positions in world units; the optional third column is a z / floor value
        (obstacles and terrain are 2-D footprints that apply on every floor).
    terrain : sequence of TerrainRegion (or (polygon, tag) pairs)
        Terrain in painter's order: later regions win where they overlap.
    links : sequence of Link (or (a, b, kind[, tag[, requires]]) tuples)
        Manual forced / forbidden / one-way links between waypoint indices.
    offmesh_links : sequence of OffMeshLink
        Teleports, ladders and the like.
    on_bad_waypoint : {"error", "warn", "drop"}
        What to do with waypoints that are exact duplicates of an earlier one, outside the
        bounds, or strictly inside an obstacle (on its edge is fine): raise
        ``InvalidGeometryError``; keep them and emit one ``NavmeshWarning``; or remove them,
        renumber the remaining waypoints and the links, remove links that touched a removed
        waypoint, and emit one ``NavmeshWarning`` saying what was removed. Non-finite
        coordinates always raise.
    repair : bool
        Repair invalid obstacle and bounds polygons with ``shapely.make_valid``.
    known_tags : iterable of str, optional
        If given, every tag used by terrain, links and off-mesh links must be in it.

    Raises
    ------
    InvalidGeometryError
        Invalid polygon, NaN/inf coordinates, a coordinate beyond +-1e15 (``MAX_COORDINATE``: past
        it float64 cannot carry areas, squared distances and costs), or a bad waypoint with
        ``on_bad_waypoint="error"``.
    NodeNotFoundError
        A link refers to a waypoint that does not exist.
    InvalidOptionError
        Unknown tag (with ``known_tags``), conflicting links (forced and forbidden on one pair).
    InvalidCostError
        An off-mesh link with a negative or NaN cost.

    Examples
    --------
    >>> level = Level.rectangle(100, 50, obstacles=[[(40, 0), (60, 0), (60, 30), (40, 30)]],
    ...                         waypoints=[[10, 10], [90, 10], [50, 40]])
    >>> level.n_waypoints, len(level.obstacles)
    (3, 1)
    >>> Level((0, 0, 10, 10), waypoints=[[5, 5], [20, 5]])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    navmesh.errors.InvalidGeometryError: waypoints[1]=[20.0, 5.0] is outside the bounds; \
waypoints must lie in the walkable region, ...
    """

    bounds: shapely.Polygon
    _: KW_ONLY
    obstacles: tuple[shapely.Polygon, ...] = ()
    waypoints: NDArray[np.float64] = field(default_factory=_no_waypoints)
    terrain: tuple[TerrainRegion, ...] = ()
    links: tuple[Link, ...] = ()
    offmesh_links: tuple[OffMeshLink, ...] = ()
    on_bad_waypoint: InitVar[str] = "error"
    repair: InitVar[bool] = False
    known_tags: InitVar[Iterable[str] | None] = None
    _derived_from: InitVar[Level | None] = None  # set by replace(): the level whose caches may be shared
    _cache: dict[Any, Any] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self, on_bad_waypoint: str, repair: bool, known_tags: Iterable[str] | None,
                      _derived_from: Level | None) -> None:
        check_option("on_bad_waypoint", on_bad_waypoint, BAD_WAYPOINT_POLICIES)
        put = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 - frozen dataclass
        try:
            self._put_geometry(repair)
        except OverflowError:
            raise InvalidGeometryError(
                f"a coordinate of the level is too large; coordinates must lie within +-{MAX_COORDINATE:g}"
            ) from None
        self._check_extent()
        if _derived_from is not None:
            self._share_caches(_derived_from)

        raw = self.waypoints
        empty = (isinstance(raw, (list, tuple)) and not raw) or (isinstance(raw, np.ndarray) and raw.size == 0)
        pts = _no_waypoints() if empty else check_points("waypoints", raw)
        links = [self._as_link(i, lk) for i, lk in enumerate(_sequence("links", self.links))]
        offmesh = [self._as_offmesh(i, lk) for i, lk in enumerate(_sequence("offmesh_links", self.offmesh_links))]

        bad = self._bad_waypoints(pts, _derived_from)
        if bad:
            pts, links, offmesh = self._apply_policy(on_bad_waypoint, bad, pts, links, offmesh)
        pts = np.array(pts, dtype=np.float64)
        pts.flags.writeable = False
        put("waypoints", pts)
        checked = self._cache.pop("placement", None)
        if checked is not None and len(checked[1]) == len(pts):  # no waypoint dropped: the flags are this level's
            self._cache["placement"] = (pts, checked[1], checked[2])

        n = len(pts)
        for field_name, items in (("links", links), ("offmesh_links", offmesh)):
            for i, lk in enumerate(items):
                for end in ("a", "b"):
                    v = getattr(lk, end)
                    if v >= n:
                        raise NodeNotFoundError(
                            f"{field_name}[{i}].{end}={v} refers to a missing waypoint; the level has "
                            f"{n} waypoints (indices 0..{n - 1})"
                        )
        pairs: dict[frozenset[int], tuple[int, str]] = {}
        for i, lk in enumerate(links):
            key = frozenset((lk.a, lk.b))
            if key in pairs:
                j, other = pairs[key]
                if (lk.kind == "forbidden") != (other == "forbidden"):
                    raise InvalidOptionError(
                        f"links[{i}] ({lk.kind}) and links[{j}] ({other}) join the same waypoints "
                        f"{lk.a} and {lk.b}; a pair cannot be both forbidden and linked"
                    )
            else:
                pairs[key] = (i, lk.kind)
        put("links", tuple(links))
        put("offmesh_links", tuple(offmesh))

        if known_tags is not None:
            if isinstance(known_tags, str):
                raise InvalidOptionError("known_tags must be a set of str, not one str")
            known = frozenset(check_tag("known_tags item", t) for t in _sequence("known_tags", known_tags))
            used = [(f"terrain[{i}].tag", r.tag) for i, r in enumerate(self.terrain)]
            used += [(f"links[{i}].tag", lk.tag) for i, lk in enumerate(self.links) if lk.tag]
            used += [(f"offmesh_links[{i}].tag", lk.tag) for i, lk in enumerate(self.offmesh_links) if lk.tag]
            for where, tag in used:
                if tag not in known:
                    shown = ", ".join(map(describe, sorted(known)[:10])) + (", ..." if len(known) > 10 else "")
                    raise InvalidOptionError(f"{where}={describe(tag)} is not a known tag; known tags: {shown}")

    # -- validation helpers -----------------------------------------------------------------
    def _put_geometry(self, repair: bool) -> None:
        """Validate and store bounds, obstacles and terrain."""
        put = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 - frozen dataclass
        put("bounds", as_bounds(self.bounds, name="bounds", repair=repair))

        if isinstance(self.obstacles, (shapely.Geometry, str)):
            raise InvalidGeometryError("obstacles must be a sequence of polygons, not a single geometry")
        put("obstacles", polygon_list(_sequence("obstacles", self.obstacles), name="obstacles", repair=repair))

        regions: list[TerrainRegion] = []
        for i, reg in enumerate(_sequence("terrain", self.terrain)):
            if not isinstance(reg, TerrainRegion):
                try:
                    poly, tag = reg
                except (TypeError, ValueError):
                    raise InvalidGeometryError(
                        f"terrain[{i}]={describe(reg)} is not a TerrainRegion or (polygon, tag) pair"
                    ) from None
                check_tag(f"terrain[{i}].tag", tag)
                reg = TerrainRegion(as_polygon(poly, name=f"terrain[{i}].polygon"), tag)
            regions.append(reg)
        put("terrain", tuple(regions))

    def _check_extent(self) -> None:
        """Refuse geometry beyond MAX_COORDINATE: areas, squared distances and costs of larger
        values overflow or lose every digit that matters."""
        parts = [("bounds", self.bounds)]
        parts += [(f"obstacles[{i}]", p) for i, p in enumerate(self.obstacles)]
        parts += [(f"terrain[{i}].polygon", r.polygon) for i, r in enumerate(self.terrain)]
        for where, geom in parts:
            box = np.asarray(geom.bounds, dtype=np.float64)
            if not np.all(np.abs(box) <= MAX_COORDINATE):
                raise InvalidGeometryError(
                    f"{where} reaches {describe(tuple(box.tolist()))}; coordinates must lie within "
                    f"+-{MAX_COORDINATE:g}"
                )
    def _share_caches(self, other: Level) -> None:
        """Adopt ``other``'s derived data that depends only on parts equal in both levels.

        Levels are immutable, so a line-of-sight tester (bounds and obstacles) or a terrain
        layer (terrain regions) built for one serves the other. Each cache is one dict shared by
        both levels, so what is built later for either serves both.
        """
        def same(p: Sequence[shapely.Geometry], q: Sequence[shapely.Geometry]) -> bool:
            return len(p) == len(q) and all(x is y or bool(shapely.equals_exact(x, y, 0.0)) for x, y in zip(p, q))

        if same((self.bounds, *self.obstacles), (other.bounds, *other.obstacles)):
            self._cache["geometry"] = other._cache.setdefault("geometry", {})
        if [r.tag for r in self.terrain] == [r.tag for r in other.terrain] \
                and same([r.polygon for r in self.terrain], [r.polygon for r in other.terrain]):
            self._cache["terrain"] = other._cache.setdefault("terrain", {})

    @staticmethod
    def _as_link(i: int, lk: Any) -> Link:
        if isinstance(lk, Link):
            return lk
        try:
            return Link(*lk)
        except TypeError:
            raise InvalidOptionError(f"links[{i}]={describe(lk)} is not a Link or (a, b, kind) tuple") from None
        except NavmeshError as exc:
            raise type(exc)(f"links[{i}]: {exc}") from None

    @staticmethod
    def _as_offmesh(i: int, lk: Any) -> OffMeshLink:
        if isinstance(lk, OffMeshLink):
            return lk
        raise InvalidOptionError(f"offmesh_links[{i}]={describe(lk)} is not an OffMeshLink")

    def _placement(self, pts: NDArray[np.float64], previous: Level | None) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """(outside the bounds, inside an obstacle) for each waypoint.

        A ``previous`` level with the same bounds lends its answers for rows it checked at the
        same coordinates (an equal head and tail of the array: waypoints moved, added or removed
        in one run), except, when obstacles changed, for rows in the bounding box of an obstacle
        in one level and not the other (only there can "inside an obstacle" change).
        """
        los = self.line_of_sight()
        old = None if previous is None else previous._cache.get("placement")
        same_bounds = old is not None and (
            self.bounds is previous.bounds or bool(shapely.equals_exact(self.bounds, previous.bounds, 0.0))
        )
        if not same_bounds or old[0].shape[1:] != pts.shape[1:]:
            outside, inside = los.outside_bounds(pts), los.inside_obstacle(pts)
        else:
            old_pts, old_out, old_in = old
            m = min(len(pts), len(old_pts))
            same_head = (pts[:m] == old_pts[:m]).all(axis=1)
            head = m if same_head.all() else int(np.argmin(same_head))
            rest = m - head
            same_tail = (pts[len(pts) - rest:] == old_pts[len(old_pts) - rest:]).all(axis=1)
            tail = rest if same_tail.all() else rest - 1 - int(np.flatnonzero(~same_tail)[-1])
            outside = np.zeros(len(pts), dtype=bool)
            inside = np.zeros(len(pts), dtype=bool)
            for mine, theirs in ((outside, old_out), (inside, old_in)):
                mine[:head] = theirs[:head]
                mine[len(pts) - tail:] = theirs[len(old_pts) - tail:]
            todo = np.zeros(len(pts), dtype=bool)
            todo[head:len(pts) - tail] = True
            outside[todo] = los.outside_bounds(pts[todo])
            if self._cache.get("geometry") is not previous._cache.get("geometry"):
                for poly in self._changed_obstacles(previous):
                    x0, y0, x1, y1 = poly.bounds
                    todo |= (pts[:, 0] >= x0) & (pts[:, 0] <= x1) & (pts[:, 1] >= y0) & (pts[:, 1] <= y1)
            inside[todo] = los.inside_obstacle(pts[todo])
        self._cache["placement"] = (pts, outside, inside)  # __post_init__ keeps it for the final waypoints
        return outside, inside

    def _changed_obstacles(self, other: Level) -> list[shapely.Polygon]:
        """Obstacles of either level not matched by an equal one at the same index in the other
        (a superset of those in only one level)."""
        mine, theirs = self.obstacles, other.obstacles
        out = [*mine[len(theirs):], *theirs[len(mine):]]
        for p, q in zip(mine, theirs):
            if p is not q and not shapely.equals_exact(p, q, 0.0):
                out += [p, q]
        return out

    def _bad_waypoints(self, pts: NDArray[np.float64], previous: Level | None = None) -> dict[int, str]:
        """Index -> reason for every waypoint that breaks a placement rule."""
        bad: dict[int, str] = {}
        if len(pts) == 0:
            return bad
        _, first, inverse = np.unique(pts, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        for i in np.flatnonzero(first[inverse] != np.arange(len(pts))):
            bad[int(i)] = f"is a duplicate of waypoints[{int(first[inverse[i]])}]"
        outside, inside_flags = self._placement(pts, previous)
        for i in np.flatnonzero(outside):
            bad.setdefault(int(i), "is outside the bounds")
        inside = np.flatnonzero(inside_flags)
        if inside.size:
            obst = np.asarray(self.obstacles, dtype=object)
            tree = shapely.STRtree(obst)
            pi, oi = tree.query(shapely.points(pts[inside, :2]), predicate="within")
            owner = dict(zip(inside[pi].tolist(), oi.tolist()))
            for i in inside.tolist():
                where = f"obstacles[{owner[i]}]" if i in owner else "touching obstacles (on their shared edge)"
                bad.setdefault(int(i), f"is inside {where}")
        return dict(sorted(bad.items()))

    def _apply_policy(
        self,
        policy: str,
        bad: dict[int, str],
        pts: NDArray[np.float64],
        links: list[Link],
        offmesh: list[OffMeshLink],
    ) -> tuple[NDArray[np.float64], list[Link], list[OffMeshLink]]:
        lines = [f"waypoints[{i}]={pts[i].tolist()} {why}" for i, why in bad.items()]
        if policy == "error":
            raise InvalidGeometryError(
                f"{lines[0]}; waypoints must lie in the walkable region, outside obstacles, each at its own "
                "position (on_bad_waypoint='warn' or 'drop' to keep or remove them)"
                + (f" ({len(lines) - 1} more bad waypoints)" if len(lines) > 1 else "")
            )
        shown = "; ".join(lines[:5]) + (f"; and {len(lines) - 5} more" if len(lines) > 5 else "")
        if policy == "warn":
            warnings.warn(f"{len(bad)} bad waypoints kept: {shown}", NavmeshWarning, stacklevel=4)
            return pts, links, offmesh
        keep = np.ones(len(pts), dtype=bool)
        keep[list(bad)] = False
        new_id = np.cumsum(keep) - 1
        n = len(pts)

        def remap(items: list[Any]) -> list[Any]:
            # Links to missing waypoints are kept as they are: the range check after this reports them.
            out = []
            for lk in items:
                if lk.a >= n or lk.b >= n:
                    out.append(lk)
                elif keep[lk.a] and keep[lk.b]:
                    out.append(dataclasses.replace(lk, a=int(new_id[lk.a]), b=int(new_id[lk.b])))
            return out

        kept_links, kept_off = remap(links), remap(offmesh)
        lost = (len(links) - len(kept_links)) + (len(offmesh) - len(kept_off))
        warnings.warn(
            f"dropped {len(bad)} bad waypoints and {lost} links that used them: {shown}",
            NavmeshWarning,
            stacklevel=4,
        )
        return pts[keep], kept_links, kept_off

    # -- constructors and copies ------------------------------------------------------------
    @classmethod
    def rectangle(cls, width: float, height: float, **kwargs: Any) -> "Level":
        """A level whose bounds are the rectangle ``[0, width] x [0, height]``.

        Keyword arguments are those of :class:`Level`.

        Examples
        --------
        >>> Level.rectangle(640, 480).bounds.bounds
        (0.0, 0.0, 640.0, 480.0)
        """
        return cls((0.0, 0.0, width, height), **kwargs)

    def replace(self, **changes: Any) -> "Level":
        """A new level with some fields changed (validated again, like a new level).

        Derived data of unchanged parts is shared, not rebuilt: the line-of-sight testers when
        the bounds and obstacles are unchanged, the terrain layer when the terrain is.

        Examples
        --------
        >>> level = Level.rectangle(10, 10, waypoints=[[1, 1]])
        >>> level.replace(waypoints=[[1, 1], [9, 9]]).n_waypoints
        2
        """
        return dataclasses.replace(self, _derived_from=self, **changes)

    # -- derived values ---------------------------------------------------------------------
    @property
    def n_waypoints(self) -> int:
        """Number of waypoints."""
        return len(self.waypoints)

    @property
    def tags(self) -> frozenset[str]:
        """Every non-empty tag used by terrain regions, links and off-mesh links."""
        used = {r.tag for r in self.terrain}
        used |= {lk.tag for lk in self.links if lk.tag}
        used |= {lk.tag for lk in self.offmesh_links if lk.tag}
        return frozenset(used)

    def line_of_sight(self, *, agent_radius: float = 0.0, join: Join = "mitre") -> LineOfSight:
        """Line-of-sight tester for an agent of the given radius (built once per radius, cached).

        Obstacles are merged, then inflated and the bounds eroded by ``agent_radius`` (see
        :class:`navmesh.sight.LineOfSight`).

        Examples
        --------
        >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 6), (4, 6)]])
        >>> level.line_of_sight().blocked([[1, 1], [1, 8]], [[9, 1], [9, 8]]).tolist()
        [True, False]
        >>> level.line_of_sight(agent_radius=2.5).blocked([[1, 8]], [[9, 8]]).tolist()
        [True]
        """
        agent_radius = check_nonneg_float("agent_radius", agent_radius, allow_none=False)
        key = ("los", agent_radius, join)
        try:
            hash(key)
        except TypeError:
            key = ("los", agent_radius, repr(join))
        cache = self._cache.setdefault("geometry", {})
        if key not in cache:
            cache[key] = LineOfSight(self.obstacles, self.bounds, agent_radius=agent_radius, join=join)
        return cache[key]

    def terrain_layer(self) -> TerrainLayer:
        """The terrain regions prepared for bulk length queries (built once, cached)."""
        cache = self._cache.setdefault("terrain", {})
        if "layer" not in cache:
            cache["layer"] = TerrainLayer(self.terrain)
        return cache["layer"]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Level):
            return NotImplemented
        same_polys = lambda p, q: len(p) == len(q) and all(  # noqa: E731
            bool(shapely.equals_exact(x, y, 0.0)) for x, y in zip(p, q)
        )
        return (
            same_polys((self.bounds,), (other.bounds,))
            and same_polys(self.obstacles, other.obstacles)
            and self.waypoints.shape == other.waypoints.shape
            and bool(np.array_equal(self.waypoints, other.waypoints))
            and self.terrain == other.terrain
            and self.links == other.links
            and self.offmesh_links == other.offmesh_links
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Level(bounds={self.bounds.bounds}, obstacles={len(self.obstacles)}, waypoints={self.n_waypoints}, "
            f"terrain={len(self.terrain)}, links={len(self.links)}, offmesh_links={len(self.offmesh_links)})"
        )
