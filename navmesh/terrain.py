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
- An untagged arc (graph tag ``""``) costs its plain length outside regions, plus for every tag
  its length inside that tag times the profile's multiplier (tags the profile does not list cost
  x1.0). It is closed (``inf``) when any positive length lies in a forbidden tag.
- A tagged arc (a manual link or off-mesh link with a tag such as ``"bridge"`` or ``"teleport"``)
  carries its own surface: its base cost (length, or the off-mesh link's own cost) times the
  multiplier of its tag; terrain regions under it are ignored (a bridge over water is not water).
  It is closed when its tag is forbidden.
- Gated arcs: an arc tag name may carry requirements, encoded by :func:`encode_arc_tag` as
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

from navmesh._checks import MAX_COORDINATE, MAX_COST, as_float_array, check_points, is_real
from navmesh.errors import InvalidCostError, InvalidGeometryError, InvalidOptionError, describe
from navmesh.geometry import as_polygon, segment_arrays, segment_lines

__all__ = [
    "TerrainRegion",
    "TerrainLayer",
    "TerrainLengths",
    "terrain_lengths",
    "CostProfile",
    "DangerZone",
    "danger_lengths",
    "add_danger",
    "encode_arc_tag",
    "decode_arc_tag",
    "check_tag",
    "REQUIRES_PREFIX",
]

REQUIRES_PREFIX = "requires:"
_SEP = "|"
# Lengths below this fraction of the arc (or absolute, for arcs shorter than 1) are rounding noise
# from the overlay, not real terrain: they neither cost nor forbid.
_NOISE = 1e-9


def check_tag(name: str, tag: Any, *, allow_empty: bool = False) -> str:
    """Return ``tag`` if it is a valid tag name: a str without ``"|"``, not starting with ``"requires:"``.

    ``""`` (plain ground) is allowed only with ``allow_empty``.

    Examples
    --------
    >>> check_tag("tag", "swamp")
    'swamp'
    """
    if not isinstance(tag, str):
        raise InvalidOptionError(f"{name}={describe(tag)} is not a tag; expected a str such as 'swamp'")
    if not _encodable(tag):
        raise InvalidOptionError(f"{name}={describe(tag)} is not valid; a tag must be UTF-8 text (no lone surrogates)")
    if not tag and not allow_empty:
        raise InvalidOptionError(f"{name}='' is not valid; a tag must be a non-empty str ('' is plain ground)")
    if _SEP in tag or tag.startswith(REQUIRES_PREFIX):
        raise InvalidOptionError(
            f"{name}={describe(tag)} is not valid; tags may not contain {_SEP!r} or start with {REQUIRES_PREFIX!r}"
        )
    return tag


def _encodable(text: str) -> bool:
    """Whether ``text`` can be written to a UTF-8 file (lone surrogates cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def encode_arc_tag(tag: str = "", requires: str | None = None) -> str:
    """Graph tag name for an arc with surface ``tag`` gated by capability ``requires``.

    The builder uses this to fill ``NavGraph.tag_names``; :meth:`CostProfile.arc_weights` decodes it.

    Examples
    --------
    >>> encode_arc_tag("ford", "wading_boots")
    'ford|requires:wading_boots'
    >>> encode_arc_tag(requires="key"), encode_arc_tag("ladder"), encode_arc_tag()
    ('requires:key', 'ladder', '')
    """
    check_tag("tag", tag, allow_empty=True)
    if requires is None:
        return tag
    check_tag("requires", requires)
    gate = REQUIRES_PREFIX + requires
    return f"{tag}{_SEP}{gate}" if tag else gate


def decode_arc_tag(name: str) -> tuple[str, frozenset[str]]:
    """Split a graph tag name into (surface tag, required capabilities); inverse of :func:`encode_arc_tag`.

    Examples
    --------
    >>> decode_arc_tag("ford|requires:wading_boots")
    ('ford', frozenset({'wading_boots'}))
    >>> decode_arc_tag("")
    ('', frozenset())
    """
    surface = ""
    needs: set[str] = set()
    for part in name.split(_SEP) if name else ():
        if part.startswith(REQUIRES_PREFIX):
            needs.add(part[len(REQUIRES_PREFIX) :])
        elif surface:
            raise InvalidOptionError(f"arc tag name {describe(name)} has two surface tags; expected 'tag|requires:cap'")
        else:
            surface = part
    return surface, frozenset(needs)


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


def _real(value: Any) -> float:
    """``value`` as a float, NaN when it is not a real number, inf when it is an int too large."""
    if not is_real(value):
        return math.nan
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _positive_multiplier(profile: str, tag: Any, value: Any) -> float:
    f = _real(value)
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
        if not isinstance(v, str) or not v or not _encodable(v):
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
            ``NavGraph.tag_names``; names made by :func:`encode_arc_tag`.

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
        base = as_float_array("lengths", lengths, InvalidCostError).reshape(-1)
        m = len(base)
        if not ((base >= 0) & (base <= MAX_COST)).all():
            i = int(np.flatnonzero(~((base >= 0) & (base <= MAX_COST)))[0])
            raise InvalidCostError(
                f"lengths[{i}]={base[i]} is not allowed; base arc costs must lie in [0, {MAX_COST:g}]"
            )
        tl = scipy.sparse.csr_array(terrain_lengths, dtype=np.float64)
        names = tuple(terrain_tag_names)
        if tl.shape != (m, len(names)):
            raise InvalidCostError(
                f"terrain_lengths has shape {tl.shape}; expected ({m}, {len(names)}): "
                "one row per arc, one column per tag"
            )
        tags = np.asarray(arc_tags)
        if tags.shape != (m,) or (m and not np.issubdtype(tags.dtype, np.integer)):
            raise InvalidCostError(f"arc_tags has shape {tags.shape}; expected ({m},) integer tag ids")
        arc_names = tuple(arc_tag_names)
        if m and (tags.min() < 0 or tags.max() >= len(arc_names)):
            raise InvalidCostError(f"arc_tags hold ids outside 0..{len(arc_names) - 1}")

        # Untagged arcs: plain part x1, terrain parts x multiplier.
        mult = np.array([self.multiplier(t) for t in names], dtype=np.float64)
        closed_col = np.array([t in self.forbidden for t in names], dtype=bool)
        in_terrain = np.asarray(tl.sum(axis=1)).reshape(-1)
        weighted = np.asarray(tl @ mult).reshape(-1)
        plain = np.maximum(base - in_terrain, 0.0)
        weights = plain + weighted
        noise = _NOISE * np.maximum(base, 1.0)
        if closed_col.any():
            closed_len = np.asarray(tl @ closed_col.astype(np.float64)).reshape(-1)
            weights[closed_len > noise] = np.inf

        # Tagged and gated arcs: decode each graph tag name once, not per arc.
        k_tags = len(arc_names)
        has_surface = np.zeros(k_tags, dtype=bool)
        factor = np.ones(k_tags)
        closed = np.zeros(k_tags, dtype=bool)
        for k, arc_name in enumerate(arc_names):
            surface, needs = decode_arc_tag(arc_name)
            if surface:
                has_surface[k] = True
                factor[k] = self.multiplier(surface)
                closed[k] = surface in self.forbidden
            if not needs <= self.capabilities:
                closed[k] = True
        own = has_surface[tags]
        weights[own] = base[own] * factor[tags[own]]
        weights[closed[tags]] = np.inf
        return weights


class _FrozenDict(dict):  # type: ignore[type-arg]
    """A dict that refuses changes, so a CostProfile stays immutable and hashable."""

    def _readonly(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("CostProfile.multipliers is read-only; make a new CostProfile")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))


# -- runtime danger --------------------------------------------------------------------------
@dataclass(frozen=True)
class DangerZone:
    """A disc that costs extra to cross, e.g. the range of an enemy tower.

    Parameters
    ----------
    centre : (float, float)
        Centre in world units.
    radius : float
        Radius in world units, > 0.
    extra : float
        Added cost per world unit of path inside the disc, >= 0 and finite (1.0 doubles the
        cost of plain ground there).

    Examples
    --------
    >>> DangerZone((0, 0), 5.0, 2.0).radius
    5.0
    """

    centre: tuple[float, float]
    radius: float
    extra: float

    def __post_init__(self) -> None:
        try:
            c = tuple(_real(v) for v in self.centre)
        except TypeError:
            c = ()
        if len(c) not in (2, 3) or not all(abs(v) <= MAX_COORDINATE for v in c):
            raise InvalidGeometryError(
                f"DangerZone centre={describe(self.centre)} must be (x, y) numbers within +-{MAX_COORDINATE:g}"
            )
        r = _real(self.radius)
        if not 0 < r <= MAX_COORDINATE:
            raise InvalidGeometryError(
                f"DangerZone radius={describe(self.radius)} must be a number > 0 and <= {MAX_COORDINATE:g}"
            )
        e = _real(self.extra)
        if not 0 <= e <= MAX_COST:
            raise InvalidCostError(f"DangerZone extra={describe(self.extra)} must be a number from 0 to {MAX_COST:g}")
        object.__setattr__(self, "centre", c[:2])
        object.__setattr__(self, "radius", r)
        object.__setattr__(self, "extra", e)


def danger_lengths(a: ArrayLike, b: ArrayLike, centre: ArrayLike, radius: float) -> NDArray[np.float64]:
    """Length of each segment ``a[i] -> b[i]`` inside the disc (centre, radius), exact and vectorised.

    Examples
    --------
    >>> danger_lengths([[-10, 0], [-10, 5]], [[10, 0], [10, 5]], (0, 0), 3.0).round(9).tolist()
    [6.0, 0.0]
    """
    pa, pb = segment_arrays(a, b)
    c = np.asarray(centre, dtype=np.float64)[:2]
    d = pb - pa
    f = pa - c
    dd = (d * d).sum(axis=1)
    seg_len = np.sqrt(dd)
    out = np.zeros(len(pa))
    moving = dd > 0
    # |f + t d|^2 = r^2  ->  dd t^2 + 2 (f.d) t + (|f|^2 - r^2) = 0
    fd = (f * d).sum(axis=1)
    ff = (f * f).sum(axis=1) - radius * radius
    disc = fd * fd - dd * ff
    hit = moving & (disc > 0)
    root = np.sqrt(np.where(hit, disc, 0.0))
    safe = np.where(moving, dd, 1.0)
    t0 = np.clip((-fd - root) / safe, 0.0, 1.0)
    t1 = np.clip((-fd + root) / safe, 0.0, 1.0)
    out[hit] = (t1[hit] - t0[hit]) * seg_len[hit]
    return out


def add_danger(
    weights: ArrayLike, a: ArrayLike, b: ArrayLike, zones: Iterable[DangerZone]
) -> NDArray[np.float64]:
    """Return ``weights`` raised by the danger zones, without touching the graph's topology.

    Parameters
    ----------
    weights : float array of shape (m,)
        Current arc weights (e.g. from :meth:`CostProfile.arc_weights`); ``inf`` stays ``inf``.
    a, b : float arrays of shape (m, 2)
        Start and end point of each arc (``graph.points[graph.arc_sources]`` and
        ``graph.points[graph.indices]``).
    zones : iterable of DangerZone
        Each adds ``extra`` x (length of the arc inside its disc).

    Returns
    -------
    float array of shape (m,)
        New weights; never lower than the input, so A* heuristics stay admissible.

    Examples
    --------
    >>> add_danger([20.0, 20.0], [[-10, 0], [-10, 9]], [[10, 0], [10, 9]],
    ...            [DangerZone((0, 0), 3.0, 2.0)]).round(9).tolist()
    [32.0, 20.0]
    """
    w = np.array(weights, dtype=np.float64).reshape(-1)
    pa, pb = segment_arrays(a, b)
    if len(pa) != len(w):
        raise InvalidCostError(f"weights has {len(w)} values but there are {len(pa)} arcs")
    for zone in zones:
        if not isinstance(zone, DangerZone):
            raise InvalidOptionError(f"zones holds {describe(zone)}; expected DangerZone")
        if zone.extra > 0:
            w = w + zone.extra * danger_lengths(pa, pb, zone.centre, zone.radius)
    return w
