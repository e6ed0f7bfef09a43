"""`Level`: the designer's data (bounds, obstacles, waypoints, terrain, links) and its JSON files.

A level is an immutable value, validated once when it is made. Names in error messages are the
JSON paths of the file format (``obstacles[3]``, ``waypoints[7]``, ``links[0].b``), so the same
message points into a file when a level is loaded.

File format (``"schema": 1``)
-----------------------------
UTF-8 JSON object with exactly these keys (``schema`` and ``bounds`` required)::

    {"schema": 1,
     "bounds": {"exterior": [[x, y], ...], "holes": [[[x, y], ...], ...]},
     "obstacles": [{"exterior": [...], "holes": [...]}, ...],
     "waypoints": [[x, y], ...]                      (or [x, y, z] rows),
     "terrain": [{"tag": "swamp", "polygon": {"exterior": [...], "holes": [...]}}, ...],
     "links": [{"a": 0, "b": 1, "kind": "forced", "tag": "", "requires": null}, ...],
     "offmesh_links": [{"a": 2, "b": 5, "cost": 3.0, "tag": "ladder",
                        "bidirectional": false, "requires": null}, ...]}

Floats are written with Python's shortest round-trip repr, so save + load gives the identical
level. Loading parses plain JSON only (no code runs); NaN/Infinity literals are rejected.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import shutil
import tempfile
import warnings
from dataclasses import KW_ONLY, InitVar, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Literal

import numpy as np
import shapely
from numpy.typing import NDArray

from navmesh._checks import check_option, check_points
from navmesh.errors import (
    InvalidCostError,
    InvalidGeometryError,
    InvalidOptionError,
    LevelFormatError,
    NavmeshError,
    NavmeshWarning,
    NodeNotFoundError,
    describe,
)
from navmesh.geometry import LineOfSight, Join, as_bounds, as_polygon, polygon_list, polygon_to_data
from navmesh.terrain import TerrainLayer, TerrainRegion, check_tag

__all__ = [
    "Level",
    "Link",
    "OffMeshLink",
    "LinkKind",
    "BadWaypointPolicy",
    "LINK_KINDS",
    "SCHEMA_VERSION",
    "save_level",
    "load_level",
    "level_to_data",
    "level_from_data",
]

SCHEMA_VERSION = 1
LinkKind = Literal["forced", "forbidden", "one_way"]
LINK_KINDS: tuple[str, ...] = ("forced", "forbidden", "one_way")
BadWaypointPolicy = Literal["error", "warn", "drop"]
BAD_WAYPOINT_POLICIES: tuple[str, ...] = ("error", "warn", "drop")


def _check_index(name: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
        raise NodeNotFoundError(f"{name}={describe(value)} is not a waypoint index; expected an integer >= 0")
    return int(value)


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
                f"Link({self.a}, {self.b}, 'forbidden') has requires={self.requires!r}; a gated passage is "
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
        ok = isinstance(self.cost, (int, float, np.integer, np.floating)) and not isinstance(self.cost, bool)
        cost = float(self.cost) if ok else float("nan")
        if not (math.isfinite(cost) and cost >= 0):
            raise InvalidCostError(
                f"OffMeshLink cost={describe(self.cost)} is not allowed; expected a finite number >= 0"
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
        The walkable area. Nothing outside it is walkable; holes in it act as obstacles.
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
        Invalid polygon, NaN/inf coordinates, or a bad waypoint with ``on_bad_waypoint="error"``.
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
waypoints must lie in the walkable area, ...
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
    _cache: dict[Any, Any] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self, on_bad_waypoint: str, repair: bool, known_tags: Iterable[str] | None) -> None:
        check_option("on_bad_waypoint", on_bad_waypoint, BAD_WAYPOINT_POLICIES)
        put = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 - frozen dataclass
        put("bounds", as_bounds(self.bounds, name="bounds", repair=repair))

        if isinstance(self.obstacles, (shapely.Geometry, str)):
            raise InvalidGeometryError("obstacles must be a sequence of polygons, not a single geometry")
        put("obstacles", polygon_list(self.obstacles, name="obstacles", repair=repair))

        regions: list[TerrainRegion] = []
        for i, reg in enumerate(self.terrain):
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

        pts = np.asarray(self.waypoints, dtype=object)
        pts = _no_waypoints() if pts.size == 0 else check_points("waypoints", self.waypoints)
        links = [self._as_link(i, lk) for i, lk in enumerate(self.links)]
        offmesh = [self._as_offmesh(i, lk) for i, lk in enumerate(self.offmesh_links)]

        bad = self._bad_waypoints(pts)
        if bad:
            pts, links, offmesh = self._apply_policy(on_bad_waypoint, bad, pts, links, offmesh)
        pts = np.array(pts, dtype=np.float64)
        pts.flags.writeable = False
        put("waypoints", pts)

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
            known = frozenset(known_tags)
            used = [(f"terrain[{i}].tag", r.tag) for i, r in enumerate(self.terrain)]
            used += [(f"links[{i}].tag", lk.tag) for i, lk in enumerate(self.links) if lk.tag]
            used += [(f"offmesh_links[{i}].tag", lk.tag) for i, lk in enumerate(self.offmesh_links) if lk.tag]
            for where, tag in used:
                if tag not in known:
                    raise InvalidOptionError(
                        f"{where}={tag!r} is not a known tag; known tags: {', '.join(map(repr, sorted(known)))}"
                    )

    # -- validation helpers -----------------------------------------------------------------
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

    def _bad_waypoints(self, pts: NDArray[np.float64]) -> dict[int, str]:
        """Index -> reason for every waypoint that breaks a placement rule."""
        bad: dict[int, str] = {}
        if len(pts) == 0:
            return bad
        _, first, inverse = np.unique(pts, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        for i in np.flatnonzero(first[inverse] != np.arange(len(pts))):
            bad[int(i)] = f"is a duplicate of waypoints[{int(first[inverse[i]])}]"
        los = self.line_of_sight()
        for i in np.flatnonzero(los.outside_bounds(pts)):
            bad.setdefault(int(i), "is outside the bounds")
        inside = np.flatnonzero(los.inside_obstacle(pts))
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
                f"{lines[0]}; waypoints must lie in the walkable area, outside obstacles, each at its own "
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
        """A level whose walkable area is the rectangle ``[0, width] x [0, height]``.

        Keyword arguments are those of :class:`Level`.

        Examples
        --------
        >>> Level.rectangle(640, 480).bounds.bounds
        (0.0, 0.0, 640.0, 480.0)
        """
        return cls((0.0, 0.0, width, height), **kwargs)

    def replace(self, **changes: Any) -> "Level":
        """A new level with some fields changed (validated again, like a new level).

        Examples
        --------
        >>> level = Level.rectangle(10, 10, waypoints=[[1, 1]])
        >>> level.replace(waypoints=[[1, 1], [9, 9]]).n_waypoints
        2
        """
        return dataclasses.replace(self, **changes)

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
        :class:`navmesh.geometry.LineOfSight`).

        Examples
        --------
        >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 6), (4, 6)]])
        >>> level.line_of_sight().blocked([[1, 1], [1, 8]], [[9, 1], [9, 8]]).tolist()
        [True, False]
        >>> level.line_of_sight(agent_radius=2.5).blocked([[1, 8]], [[9, 8]]).tolist()
        [True]
        """
        key = ("los", agent_radius, join)
        try:
            hash(key)
        except TypeError:
            key = ("los", repr(agent_radius), repr(join))
        if key not in self._cache:
            self._cache[key] = LineOfSight(self.obstacles, self.bounds, agent_radius=agent_radius, join=join)
        return self._cache[key]

    def terrain_layer(self) -> TerrainLayer:
        """The terrain regions prepared for bulk length queries (built once, cached)."""
        if "terrain" not in self._cache:
            self._cache["terrain"] = TerrainLayer(self.terrain)
        return self._cache["terrain"]

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


# -- JSON files ------------------------------------------------------------------------------
_TOP_KEYS = ("schema", "bounds", "obstacles", "waypoints", "terrain", "links", "offmesh_links")


def level_to_data(level: Level) -> dict[str, Any]:
    """The level as plain JSON-ready data (schema 1); inverse of :func:`level_from_data`.

    Examples
    --------
    >>> data = level_to_data(Level.rectangle(4, 3, waypoints=[[1, 1]]))
    >>> data["schema"], data["waypoints"]
    (1, [[1.0, 1.0]])
    """
    if not isinstance(level, Level):
        raise InvalidOptionError(f"level={describe(level)} is not a Level")
    return {
        "schema": SCHEMA_VERSION,
        "bounds": polygon_to_data(level.bounds),
        "obstacles": [polygon_to_data(p) for p in level.obstacles],
        "waypoints": level.waypoints.tolist(),
        "terrain": [{"tag": r.tag, "polygon": polygon_to_data(r.polygon)} for r in level.terrain],
        "links": [
            {"a": lk.a, "b": lk.b, "kind": lk.kind, "tag": lk.tag, "requires": lk.requires} for lk in level.links
        ],
        "offmesh_links": [
            {
                "a": lk.a,
                "b": lk.b,
                "cost": lk.cost,
                "tag": lk.tag,
                "bidirectional": lk.bidirectional,
                "requires": lk.requires,
            }
            for lk in level.offmesh_links
        ],
    }


class _Reader:
    """Type checks on parsed JSON that name the field path in the error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, reason: str) -> LevelFormatError:
        return LevelFormatError(f"{self.source}: {path}: {reason}")

    def obj(self, value: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected an object, got {type(value).__name__}")
        for key in required:
            if key not in value:
                raise self.fail(path, f"missing field {key!r}")
        for key in value:
            if key not in required and key not in optional:
                raise self.fail(f"{path}.{key}" if path != "$" else key, "unknown field")
        return value

    def arr(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected an array, got {type(value).__name__}")
        return value

    def num(self, value: Any, path: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(path, f"expected a number, got {describe(value)}")
        return float(value)

    def int_(self, value: Any, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected an integer, got {describe(value)}")
        return value

    def str_(self, value: Any, path: str, *, nullable: bool = False) -> Any:
        if value is None and nullable:
            return None
        if not isinstance(value, str):
            raise self.fail(path, f"expected a string{' or null' if nullable else ''}, got {describe(value)}")
        return value

    def bool_(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(path, f"expected true or false, got {describe(value)}")
        return value

    def points(self, value: Any, path: str, dims: tuple[int, ...]) -> list[list[float]]:
        rows = self.arr(value, path)
        out: list[list[float]] = []
        width = None
        for i, row in enumerate(rows):
            row = self.arr(row, f"{path}[{i}]")
            if len(row) not in dims or (width is not None and len(row) != width):
                want = width if width is not None else " or ".join(map(str, dims))
                raise self.fail(f"{path}[{i}]", f"expected {want} coordinates, got {len(row)}")
            width = len(row)
            out.append([self.num(v, f"{path}[{i}][{j}]") for j, v in enumerate(row)])
        return out

    def polygon(self, value: Any, path: str) -> shapely.Polygon:
        poly = self.obj(value, path, ("exterior",), ("holes",))
        shell = self.points(poly["exterior"], f"{path}.exterior", (2,))
        rings = self.arr(poly.get("holes", []), f"{path}.holes")
        holes = [self.points(h, f"{path}.holes[{j}]", (2,)) for j, h in enumerate(rings)]
        try:
            return as_polygon({"exterior": shell, "holes": holes}, name=path)
        except NavmeshError as exc:
            raise LevelFormatError(f"{self.source}: {exc}") from None


def level_from_data(
    data: Any,
    *,
    source: str = "<data>",
    on_bad_waypoint: BadWaypointPolicy = "error",
    known_tags: Iterable[str] | None = None,
) -> Level:
    """Build a :class:`Level` from plain data in the schema-1 layout (see the module notes).

    Parameters
    ----------
    data : dict
        Parsed JSON.
    source : str
        Where the data came from, for messages (a file name).
    on_bad_waypoint, known_tags
        As for :class:`Level`.

    Raises
    ------
    LevelFormatError
        Wrong layout, type, schema version or any invalid content; the message is
        ``"<source>: <field path>: <reason>"``.

    Examples
    --------
    >>> level = level_from_data({"schema": 1, "bounds": {"exterior": [[0, 0], [4, 0], [4, 4], [0, 4]]}})
    >>> level.bounds.area
    16.0
    >>> level_from_data({"schema": 2, "bounds": {}}, source="a.json")
    Traceback (most recent call last):
    ...
    navmesh.errors.LevelFormatError: a.json: schema: version 2 is not supported; this navmesh reads schema 1
    """
    check_option("on_bad_waypoint", on_bad_waypoint, BAD_WAYPOINT_POLICIES)
    if isinstance(known_tags, str):
        raise InvalidOptionError("known_tags must be a set of str, not one str")
    rd = _Reader(source)
    top = rd.obj(data, "$", ("schema", "bounds"), _TOP_KEYS[2:])
    version = top["schema"]
    if version != SCHEMA_VERSION or isinstance(version, bool):
        raise rd.fail(
            "schema", f"version {describe(version)} is not supported; this navmesh reads schema {SCHEMA_VERSION}"
        )
    bounds = rd.polygon(top["bounds"], "bounds")
    obstacles = [rd.polygon(o, f"obstacles[{i}]") for i, o in enumerate(rd.arr(top.get("obstacles", []), "obstacles"))]
    waypoints = rd.points(top.get("waypoints", []), "waypoints", (2, 3))
    terrain = []
    for i, item in enumerate(rd.arr(top.get("terrain", []), "terrain")):
        reg = rd.obj(item, f"terrain[{i}]", ("tag", "polygon"))
        tag = rd.str_(reg["tag"], f"terrain[{i}].tag")
        poly = rd.polygon(reg["polygon"], f"terrain[{i}].polygon")
        terrain.append((poly, tag))
    links = []
    for i, item in enumerate(rd.arr(top.get("links", []), "links")):
        p = f"links[{i}]"
        lk = rd.obj(item, p, ("a", "b", "kind"), ("tag", "requires"))
        links.append(
            (
                rd.int_(lk["a"], f"{p}.a"),
                rd.int_(lk["b"], f"{p}.b"),
                rd.str_(lk["kind"], f"{p}.kind"),
                rd.str_(lk.get("tag", ""), f"{p}.tag"),
                rd.str_(lk.get("requires"), f"{p}.requires", nullable=True),
            )
        )
    offmesh = []
    for i, item in enumerate(rd.arr(top.get("offmesh_links", []), "offmesh_links")):
        p = f"offmesh_links[{i}]"
        lk = rd.obj(item, p, ("a", "b", "cost", "tag"), ("bidirectional", "requires"))
        try:
            offmesh.append(
                OffMeshLink(
                    rd.int_(lk["a"], f"{p}.a"),
                    rd.int_(lk["b"], f"{p}.b"),
                    rd.num(lk["cost"], f"{p}.cost"),
                    rd.str_(lk["tag"], f"{p}.tag"),
                    bidirectional=rd.bool_(lk.get("bidirectional", False), f"{p}.bidirectional"),
                    requires=rd.str_(lk.get("requires"), f"{p}.requires", nullable=True),
                )
            )
        except LevelFormatError:
            raise
        except NavmeshError as exc:
            raise rd.fail(p, str(exc)) from None
    try:
        return Level(
            bounds,
            obstacles=obstacles,
            waypoints=np.array(waypoints, dtype=np.float64) if waypoints else _no_waypoints(),
            terrain=terrain,
            links=links,
            offmesh_links=offmesh,
            on_bad_waypoint=on_bad_waypoint,
            known_tags=known_tags,
        )
    except NavmeshError as exc:
        raise LevelFormatError(f"{source}: {exc}") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed; coordinates and costs must be finite numbers")


def load_level(
    path: str | os.PathLike[str],
    *,
    on_bad_waypoint: BadWaypointPolicy = "error",
    known_tags: Iterable[str] | None = None,
) -> Level:
    """Read a level from a schema-1 JSON file (plain JSON: no code is ever run).

    Parameters
    ----------
    path : str or path-like
        The file.
    on_bad_waypoint, known_tags
        As for :class:`Level`.

    Returns
    -------
    Level

    Raises
    ------
    LevelFormatError
        Not UTF-8, not JSON (the message gives line and column), wrong schema version, or a
        field of the wrong type or with invalid content (the message gives the field path,
        e.g. ``obstacles[3].exterior[2]``).
    FileNotFoundError
        The file does not exist.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> save_level(Level.rectangle(8, 8, waypoints=[[1, 1]]), os.path.join(folder, "a.json"))
    >>> load_level(os.path.join(folder, "a.json")).n_waypoints
    1
    """
    p = Path(path)
    raw = p.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LevelFormatError(f"{p}: byte {exc.start}: not UTF-8 text") from None
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise LevelFormatError(f"{p}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    except ValueError as exc:
        raise LevelFormatError(f"{p}: {exc}") from None
    return level_from_data(data, source=str(p), on_bad_waypoint=on_bad_waypoint, known_tags=known_tags)


def _dumps(data: dict[str, Any]) -> str:
    """JSON with one top-level field per line and one list item per line: diff-friendly, compact."""
    dump = lambda v: json.dumps(v, allow_nan=False, ensure_ascii=False, separators=(", ", ": "))  # noqa: E731
    parts = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            body = ",\n  ".join(dump(v) for v in value)
            parts.append(f' {json.dumps(key)}: [\n  {body}\n ]')
        else:
            parts.append(f" {json.dumps(key)}: {dump(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # some systems cannot open folders; the rename itself is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save_level(level: Level, path: str | os.PathLike[str]) -> None:
    """Write a level to a JSON file atomically, keeping the previous file as ``<path>.bak``.

    The data goes to a temporary file in the same folder, is flushed to disk (fsync), and then
    replaces ``path`` in one rename; a previous ``path`` is first copied to ``<path>.bak``. A crash
    or error at any point leaves either the old or the new complete file at ``path``, never a
    half-written one.

    Parameters
    ----------
    level : Level
        The level to save.
    path : str or path-like
        Target file; its folder must exist.

    Raises
    ------
    InvalidOptionError
        ``level`` is not a Level.
    OSError
        The file or its backup could not be written; ``path`` is left as it was.

    Examples
    --------
    >>> import tempfile, os
    >>> target = os.path.join(tempfile.mkdtemp(), "level.json")
    >>> save_level(Level.rectangle(8, 8), target)
    >>> save_level(Level.rectangle(9, 9), target)
    >>> load_level(target + ".bak").bounds.bounds
    (0.0, 0.0, 8.0, 8.0)
    """
    text = _dumps(level_to_data(level))  # may raise before any file is touched
    target = Path(path)
    folder = target.parent
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            _backup(target)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(folder)


def _backup(target: Path) -> None:
    """Copy ``target`` to ``target.bak`` atomically (copy to a temp file, then rename)."""
    bak = target.with_name(target.name + ".bak")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{bak.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        shutil.copyfile(target, tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, bak)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
