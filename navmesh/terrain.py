"""Terrain regions, per-agent cost profiles and the arc weights they give.

Terrain rule (one rule for the whole library)
---------------------------------------------
The terrain at a point is the tag of the **last** region in the list whose polygon contains the
point, boundary included (painter's order: what an editor user sees on top wins). Points in no
region are plain ground. So a segment running exactly along a swamp's edge is in the swamp, and
along the shared edge of two regions it is in the later one. The length of a segment in each tag
is computed for many segments at once by :class:`TerrainLayer` (or :func:`terrain_lengths`).

Arc weight rule (:meth:`CostProfile.arc_weights`)
-------------------------------------------------
This is the library's one cost rule; every cost, multiplier and access decision (graph arcs,
straight shortcuts, mesh polygons, the multiplier under a unit, the terrain a crowd's walls keep
units out of, the editor's and the demo's overlays) calls :class:`CostProfile`'s
:meth:`~CostProfile.allows`, :meth:`~CostProfile.tag_multipliers`,
:meth:`~CostProfile.segment_weights` or :meth:`~CostProfile.arc_weights`.

- An untagged arc (graph tag ``""``) costs its plain length outside regions, plus for every tag
  its length inside that tag times the profile's multiplier (tags the profile does not list cost
  x1.0). It is closed (``inf``) when any positive length lies in a forbidden tag.
- A tagged arc (a manual link or off-mesh link with a tag such as ``"bridge"`` or ``"teleport"``)
  carries its own surface: its base cost (length, or the off-mesh link's own cost) times the
  multiplier of its tag; terrain regions under it are ignored (a bridge over water is not water).
  It is closed when its tag is forbidden.
- Gated arcs: an arc tag name may carry requirements, encoded by :func:`~navmesh.tags.encode_arc_tag` as
  ``"ford|requires:wading_boots"`` (or ``"requires:wading_boots"`` without a surface tag). The arc
  is closed unless the profile has every required capability.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

import numpy as np
import scipy.sparse
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import MAX_COST, as_float_array, check_points, is_real
from navmesh.errors import InvalidCostError, InvalidGeometryError, InvalidOptionError, describe
from navmesh.geometry import as_polygon, segment_arrays, segment_lines
from navmesh.tags import check_tag, decode_arc_tag, encodable

__all__ = [
    "TerrainRegion",
    "TerrainLayer",
    "TerrainLengths",
    "terrain_lengths",
    "CostProfile",
    "real_value",
]

# Lengths below this fraction of the arc (or absolute, for arcs shorter than 1) are rounding noise
# from the overlay, not real terrain: they neither cost nor forbid.
_NOISE = 1e-9


@dataclass(frozen=True, eq=False)
class TerrainRegion:
    """A polygon of terrain with a tag, e.g. a swamp.

    Parameters
    ----------
    polygon : shapely.Polygon or coordinates
        The region (see :func:`navmesh.geometry.as_polygon`; holes allowed). Validated and
        stored as a shapely Polygon.
    tag : str
        Terrain tag such as ``"swamp"``, ``"road"`` or ``"water"``; non-empty, no ``"|"``.

    Raises
    ------
    InvalidGeometryError
        The polygon is invalid.
    InvalidOptionError
        The tag is empty or not a str.

    Examples
    --------
    >>> TerrainRegion([(0, 0), (4, 0), (4, 4), (0, 4)], "swamp").polygon.area
    16.0
    """

    polygon: shapely.Polygon
    tag: str

    def __post_init__(self) -> None:
        check_tag("TerrainRegion.tag", self.tag)
        object.__setattr__(self, "polygon", as_polygon(self.polygon, name=f"TerrainRegion({describe(self.tag)}).polygon"))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TerrainRegion):
            return NotImplemented
        return self.tag == other.tag and bool(shapely.equals_exact(self.polygon, other.polygon, 0.0))

    def __hash__(self) -> int:
        return hash((self.tag, self.polygon.wkb))


class TerrainLengths(NamedTuple):
    """Length of m segments in each of T terrain tags.

    Attributes
    ----------
    tag_names : tuple of str
        The T tags, sorted; column j of ``lengths`` belongs to ``tag_names[j]``.
    lengths : scipy.sparse.csr_array of shape (m, T)
        World-unit length of segment i inside tag j (painter's rule, see module notes).
        Row sums are at most the segment lengths.
    """

    tag_names: tuple[str, ...]
    lengths: scipy.sparse.csr_array


class TerrainLayer:
    """Terrain regions prepared once for bulk length queries.

    Parameters
    ----------
    regions : sequence of TerrainRegion
        In painter's order: later regions win where they overlap earlier ones.

    Examples
    --------
    >>> layer = TerrainLayer([TerrainRegion([(2, -1), (6, -1), (6, 1), (2, 1)], "swamp"),
    ...                       TerrainRegion([(4, -1), (5, -1), (5, 1), (4, 1)], "road")])
    >>> names, lens = layer.lengths([[0, 0]], [[10, 0]])
    >>> names, lens.toarray().tolist()
    (('road', 'swamp'), [[1.0, 3.0]])
    """

    def __init__(self, regions: Sequence[TerrainRegion]) -> None:
        regions = tuple(regions)
        for i, r in enumerate(regions):
            if not isinstance(r, TerrainRegion):
                raise InvalidGeometryError(f"regions[{i}]={describe(r)} is not a TerrainRegion")
        self.regions: tuple[TerrainRegion, ...] = regions
        self.tag_names: tuple[str, ...] = tuple(sorted({r.tag for r in regions}))
        col = {t: j for j, t in enumerate(self.tag_names)}
        self._polys = np.asarray([r.polygon for r in regions], dtype=object)
        self._cols = np.asarray([col[r.tag] for r in regions], dtype=np.int64)
        self._tree = shapely.STRtree(self._polys)
        # What later regions cover of each region (closed), computed once: a segment's length in
        # region i is its length in polygon i minus its length in this cover.
        cover: list[shapely.Geometry | None] = []
        for i in range(len(regions)):
            near = self._tree.query(self._polys[i], predicate="intersects")
            later = near[near > i]
            cover.append(shapely.unary_union(self._polys[later]) if later.size else None)
        self._cover = np.asarray(cover, dtype=object)
        self._has_cover = np.asarray([c is not None for c in cover], dtype=bool)
        shapely.prepare(self._polys)

    def lengths(self, a: ArrayLike, b: ArrayLike) -> TerrainLengths:
        """Length of each segment ``a[i] -> b[i]`` in each tag, computed in bulk.

        Parameters
        ----------
        a, b : float arrays of shape (m, 2) (or (m, 3); z is ignored)
            Segment ends in world units.

        Returns
        -------
        TerrainLengths
            ``(tag_names, lengths)`` with ``lengths`` a csr array of shape (m, T).
        """
        pa, pb = segment_arrays(a, b)
        m, t = len(pa), len(self.tag_names)
        if m == 0 or len(self._polys) == 0:
            return TerrainLengths(self.tag_names, scipy.sparse.csr_array((m, t), dtype=np.float64))
        moving = ~(pa == pb).all(axis=1)
        idx = np.flatnonzero(moving)
        lines = segment_lines(pa[idx], pb[idx])
        seg, reg = self._tree.query(lines, predicate="intersects")
        inside = shapely.intersection(lines[seg], self._polys[reg])
        lens = shapely.length(inside)
        covered = self._has_cover[reg]
        if covered.any():
            lost = shapely.length(shapely.intersection(inside[covered], self._cover[reg[covered]]))
            lens[covered] = np.maximum(lens[covered] - lost, 0.0)
        keep = lens > 0
        mat = scipy.sparse.csr_array(
            (lens[keep], (idx[seg[keep]], self._cols[reg[keep]])), shape=(m, t), dtype=np.float64
        )
        mat.sum_duplicates()
        return TerrainLengths(self.tag_names, mat)

    def tag_at(self, points: ArrayLike) -> NDArray[np.object_]:
        """Terrain tag at each point (``""`` for plain ground), by the painter's rule.

        Examples
        --------
        >>> layer = TerrainLayer([TerrainRegion([(0, 0), (2, 0), (2, 2), (0, 2)], "swamp")])
        >>> layer.tag_at([[1, 1], [5, 5]]).tolist()
        ['swamp', '']
        """
        arr = as_float_array("points", points, InvalidGeometryError)
        arr = check_points("points", arr[None, :] if arr.ndim == 1 else arr)
        pts = shapely.points(arr[:, :2])
        out = np.full(len(pts), "", dtype=object)
        if len(self._polys) and len(pts):
            pi, ri = self._tree.query(pts, predicate="intersects")
            top = np.full(len(pts), -1, dtype=np.int64)
            np.maximum.at(top, pi, ri)  # the last region containing the point wins
            hit = top >= 0
            out[hit] = np.asarray([r.tag for r in self.regions], dtype=object)[top[hit]]
        return out

    def __repr__(self) -> str:
        return f"TerrainLayer(regions={len(self.regions)}, tags={self.tag_names})"


def terrain_lengths(a: ArrayLike, b: ArrayLike, regions: Sequence[TerrainRegion]) -> TerrainLengths:
    """Length of each segment in each terrain tag; one-shot form of :meth:`TerrainLayer.lengths`.

    Parameters
    ----------
    a, b : float arrays of shape (m, 2)
        Segment ends in world units.
    regions : sequence of TerrainRegion
        In painter's order (later wins where regions overlap).

    Returns
    -------
    TerrainLengths
        ``(tag_names, lengths)``; ``lengths`` is a csr array of shape (m, len(tag_names)).

    Examples
    --------
    >>> swamp = TerrainRegion([(2, -1), (6, -1), (6, 1), (2, 1)], "swamp")
    >>> terrain_lengths([[0, 0]], [[10, 0]], [swamp]).lengths.toarray().tolist()
    [[4.0]]
    """
    return TerrainLayer(regions).lengths(a, b)


def real_value(value: Any) -> float:
    """``value`` as a float, NaN when it is not a real number, inf when it is an int too large."""
    if not is_real(value):
        return math.nan
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _positive_multiplier(profile: str, tag: Any, value: Any) -> float:
    f = real_value(value)
    if not 0 < f <= MAX_COST:
        raise InvalidCostError(
            f"CostProfile {describe(profile)}: multipliers[{describe(tag)}]={describe(value)} is not allowed; "
            f"a multiplier must be a number > 0 and <= {MAX_COST:g} (use forbidden= to close a tag)"
        )
    return f


def _tag_set(profile: str, what: str, values: Any) -> frozenset[str]:
    if isinstance(values, str):
        raise InvalidOptionError(
            f"CostProfile {describe(profile)}: {what}={describe(values)} must be a set of str, not one str"
        )
    try:
        out = frozenset(values)
    except TypeError:
        raise InvalidOptionError(
            f"CostProfile {describe(profile)}: {what}={describe(values)} must be a set of str"
        ) from None
    for v in out:
        if not isinstance(v, str) or not v or not encodable(v):
            raise InvalidOptionError(
                f"CostProfile {describe(profile)}: {what} holds {describe(v)}; expected non-empty UTF-8 str"
            )
    return out


@dataclass(frozen=True, eq=False)
class CostProfile:
    """How one kind of unit values terrain: multipliers, forbidden tags and capabilities.

    Parameters
    ----------
    name : str
        Label for messages and caches.
    multipliers : mapping of str to float
        Cost factor per tag, each finite and > 0 (below 1 makes a tag cheaper than plain ground,
        e.g. a road x0.5). Tags not listed cost x1.0.
    forbidden : set of str
        Tags this unit never enters (e.g. ``{"water"}`` for wheeled units).
    capabilities : set of str
        Capabilities that unlock gated arcs (e.g. ``{"wading_boots"}``).

    Raises
    ------
    InvalidCostError
        A multiplier is NaN, inf, zero or negative.
    InvalidOptionError
        A tag or capability is not a non-empty str.

    Notes
    -----
    Profiles are immutable and hashable, so they can key a per-profile weights cache.

    Examples
    --------
    >>> tank = CostProfile("tank", {"swamp": 3.0, "road": 0.5}, forbidden={"water"})
    >>> tank.multiplier("swamp"), tank.multiplier("grass")
    (3.0, 1.0)
    """

    name: str = "default"
    multipliers: Mapping[str, float] = field(default_factory=dict)
    forbidden: frozenset[str] = frozenset()
    capabilities: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise InvalidOptionError(f"CostProfile name={describe(self.name)} must be a str")
        if not isinstance(self.multipliers, Mapping):
            raise InvalidCostError(
                f"CostProfile {describe(self.name)}: multipliers={describe(self.multipliers)} must be a mapping "
                "tag -> float"
            )
        mult: dict[str, float] = {}
        for tag, value in self.multipliers.items():
            check_tag(f"CostProfile {describe(self.name)}: multipliers key", tag)
            mult[tag] = _positive_multiplier(self.name, tag, value)
        object.__setattr__(self, "multipliers", _FrozenDict(sorted(mult.items())))
        object.__setattr__(self, "forbidden", _tag_set(self.name, "forbidden", self.forbidden))
        object.__setattr__(self, "capabilities", _tag_set(self.name, "capabilities", self.capabilities))

    def _key(self) -> tuple[Any, ...]:
        return (self.name, tuple(self.multipliers.items()), self.forbidden, self.capabilities)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CostProfile):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def multiplier(self, tag: str) -> float:
        """Cost factor of ``tag`` (1.0 for plain ground and unlisted tags; forbidden tags too)."""
        return self.multipliers.get(tag, 1.0)

    def allows(self, tag: str = "", requires: str | Iterable[str] | None = None) -> bool:
        """Whether this unit may use ground or a link of surface ``tag`` gated by ``requires``.

        The one access rule: a tag in :attr:`forbidden` closes it, and every required capability
        must be among :attr:`capabilities`. Plain ground (``""``) is always allowed.

        Parameters
        ----------
        tag : str
            Terrain or link tag (``""`` for plain ground or an untagged link).
        requires : str or iterable of str, optional
            Capabilities the link asks for (a :class:`~navmesh.level.Link`'s ``requires``).

        Examples
        --------
        >>> wader = CostProfile("wader", forbidden={"lava"}, capabilities={"wade"})
        >>> wader.allows("swamp"), wader.allows("lava"), wader.allows("ford", "wade"), wader.allows("", "key")
        (True, False, True, False)
        """
        if requires is None:
            needs: frozenset[str] = frozenset()
        elif isinstance(requires, str):
            needs = frozenset((requires,))
        else:
            needs = frozenset(requires)
        return tag not in self.forbidden and needs <= self.capabilities

    def tag_multipliers(self, tags: Iterable[str]) -> NDArray[np.float64]:
        """Cost factor of standing or walking on each tag: :meth:`multiplier`, ``inf`` where
        :meth:`allows` refuses the tag (1.0 for plain ground ``""``).

        Examples
        --------
        >>> CostProfile("tank", {"swamp": 3.0}, forbidden={"water"}).tag_multipliers(["", "swamp", "water", "grass"]).tolist()
        [1.0, 3.0, inf, 1.0]
        """
        return np.array([self.multiplier(t) if self.allows(t) else np.inf for t in tags], dtype=np.float64)

    def min_multiplier(self) -> float:
        """Smallest factor this profile applies anywhere (<= 1): the safe heuristic scale."""
        return min([1.0, *self.multipliers.values()])

    def arc_weights(
        self,
        lengths: ArrayLike,
        terrain_lengths: scipy.sparse.sparray | scipy.sparse.spmatrix | ArrayLike,
        terrain_tag_names: Sequence[str],
        arc_tags: ArrayLike,
        arc_tag_names: Sequence[str],
    ) -> NDArray[np.float64]:
        """Weight of each of m arcs for this profile (see the module notes for the rule).

        Parameters
        ----------
        lengths : float array of shape (m,)
            Base cost of each arc: its geometric length, or an off-mesh link's own cost; >= 0.
        terrain_lengths : sparse or dense float array of shape (m, T)
            Length of each arc inside each terrain tag (from :class:`TerrainLayer`).
        terrain_tag_names : sequence of T str
            The tag of each column of ``terrain_lengths``.
        arc_tags : int array of shape (m,)
            Graph tag id of each arc (``NavGraph.tags``).
        arc_tag_names : sequence of str
            ``NavGraph.tag_names``; names made by :func:`~navmesh.tags.encode_arc_tag`.

        Returns
        -------
        float array of shape (m,)
            Weights >= 0; ``inf`` for arcs this unit may not use.

        Raises
        ------
        InvalidCostError
            ``lengths`` negative/NaN, or shapes do not match.

        Examples
        --------
        >>> import numpy as np
        >>> tank = CostProfile("tank", {"swamp": 3.0, "ferry": 2.0}, forbidden={"water"})
        >>> tl = np.array([[4.0, 0.0], [0.0, 1.0], [0.0, 0.0], [0.0, 0.0]])  # columns: swamp, water
        >>> tank.arc_weights([10, 10, 50, 7], tl, ("swamp", "water"), [0, 0, 1, 2],
        ...                  ("", "ferry", "ford|requires:wading_boots")).tolist()
        [18.0, inf, 100.0, inf]
        """
        base = _check_lengths(lengths)
        m = len(base)
        tl, names = _check_terrain(terrain_lengths, terrain_tag_names, m)
        tags = np.asarray(arc_tags)
        if tags.shape != (m,) or (m and not np.issubdtype(tags.dtype, np.integer)):
            raise InvalidCostError(f"arc_tags has shape {tags.shape}; expected ({m},) integer tag ids")
        arc_names = tuple(arc_tag_names)
        if m and (tags.min() < 0 or tags.max() >= len(arc_names)):
            raise InvalidCostError(f"arc_tags hold ids outside 0..{len(arc_names) - 1}")

        # Arcs with a surface tag carry it; the others follow the terrain under them.
        weights = self.segment_weights(base, tl, names)
        k_tags = len(arc_names)
        has_surface = np.zeros(k_tags, dtype=bool)
        factor = np.ones(k_tags)
        closed = np.zeros(k_tags, dtype=bool)
        for k, arc_name in enumerate(arc_names):  # each graph tag name once, not per arc
            surface, needs = decode_arc_tag(arc_name)
            has_surface[k] = bool(surface)
            factor[k] = self.multiplier(surface)
            closed[k] = not self.allows(surface, needs)
        own = has_surface[tags]
        weights[own] = base[own] * factor[tags[own]]
        weights[closed[tags]] = np.inf
        return weights

    def segment_weights(
        self,
        lengths: ArrayLike,
        terrain_lengths: scipy.sparse.sparray | scipy.sparse.spmatrix | ArrayLike,
        terrain_tag_names: Sequence[str],
    ) -> NDArray[np.float64]:
        """Cost of m straight segments walked over terrain: the rule of an untagged arc.

        A segment costs its length outside every region (x1) plus, per tag, its length inside
        that tag times :meth:`multiplier`; it is closed (``inf``) when more than rounding noise
        (1e-9 of its length, or of 1 for segments shorter than 1) lies in a tag this profile
        may not enter (:meth:`allows`).

        Parameters
        ----------
        lengths : float array of shape (m,)
            Length (or base cost) of each segment, in [0, MAX_COST].
        terrain_lengths : sparse or dense float array of shape (m, T)
            Length of each segment inside each terrain tag (from :class:`TerrainLayer`).
        terrain_tag_names : sequence of T str
            The tag of each column.

        Returns
        -------
        float array of shape (m,)
            Costs >= 0, ``inf`` where closed.

        Raises
        ------
        InvalidCostError
            ``lengths`` negative/NaN/too large, or the shapes do not match.

        Examples
        --------
        >>> tank = CostProfile("tank", {"swamp": 3.0}, forbidden={"water"})
        >>> tank.segment_weights([10, 10, 10], [[4, 0], [0, 1], [0, 1e-12]], ("swamp", "water")).tolist()
        [18.0, inf, 10.0]
        """
        base = _check_lengths(lengths)
        tl, names = _check_terrain(terrain_lengths, terrain_tag_names, len(base))
        mult = np.array([self.multiplier(t) for t in names], dtype=np.float64)
        in_terrain = np.asarray(tl.sum(axis=1)).reshape(-1)
        weights = np.maximum(base - in_terrain, 0.0) + np.asarray(tl @ mult).reshape(-1)
        closed_col = np.array([not self.allows(t) for t in names], dtype=bool)
        if closed_col.any():
            closed_len = np.asarray(tl @ closed_col.astype(np.float64)).reshape(-1)
            weights[closed_len > _NOISE * np.maximum(base, 1.0)] = np.inf
        return weights


def _check_lengths(lengths: ArrayLike) -> NDArray[np.float64]:
    """Base arc costs as a flat float array, each in [0, MAX_COST]."""
    base = as_float_array("lengths", lengths, InvalidCostError).reshape(-1)
    bad = ~((base >= 0) & (base <= MAX_COST))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidCostError(f"lengths[{i}]={base[i]} is not allowed; base arc costs must lie in [0, {MAX_COST:g}]")
    return base


def _check_terrain(terrain_lengths: Any, terrain_tag_names: Sequence[str], m: int
                   ) -> tuple[scipy.sparse.csr_array, tuple[str, ...]]:
    """Terrain lengths as a csr array of shape (m, T) with their T tag names."""
    tl = scipy.sparse.csr_array(terrain_lengths, dtype=np.float64)
    names = tuple(terrain_tag_names)
    if tl.shape != (m, len(names)):
        raise InvalidCostError(
            f"terrain_lengths has shape {tl.shape}; expected ({m}, {len(names)}): one row per arc, one column per tag"
        )
    return tl, names


class _FrozenDict(dict):  # type: ignore[type-arg]
    """A dict that refuses changes, so a CostProfile stays immutable and hashable."""

    def _readonly(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("CostProfile.multipliers is read-only; make a new CostProfile")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))
