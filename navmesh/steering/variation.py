"""Path variation: units sent the same way should not all walk the same predictable line.

- :func:`vary_path`: seeded random offsets of a path's inner waypoints, kept only inside free
  space with the requested clearance, and only where both legs stay walkable.
- :func:`alternative_paths`: several routes between two points, each found after penalising the
  arcs the previous ones used.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from navmesh.errors import InvalidOptionError, NoPathError, describe
from navmesh.path import Path
from navmesh.search import astar
from navmesh.steering.curves import as_polyline
from navmesh.terrain import CostProfile
from navmesh.waypoints.query import NavQuery

__all__ = ["alternative_paths", "vary_path"]


def _check_nonneg(name: str, value: Any) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"{name}={describe(value)} is not a number") from None
    if not np.isfinite(v) or v < 0:
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected a finite number >= 0")
    return v


def vary_path(
    path: Path | ArrayLike,
    navmap: Any,
    *,
    seed: int | np.random.Generator | None,
    max_offset: float,
    radius: float | None = None,
    clearance: float = 0.0,
) -> Path:
    """The path with each inner waypoint moved by a random offset inside free space.

    Waypoints are visited in order; each gets a uniform random offset in the disc of radius
    ``max_offset``. The offset is kept when the moved point lies at least ``clearance`` outside
    every obstacle inflated by ``radius`` (and inside the bounds) and both legs to the previous
    (already moved) point and the next point are walkable for ``radius``; otherwise it is halved,
    up to four times, and the waypoint stays where it was if none fits. The ends never move.

    Parameters
    ----------
    path : Path or float array of shape (n, 2)
    navmap : NavMap
        The map (its level's obstacles and bounds).
    seed : int or numpy Generator
        The same seed gives the same path.
    max_offset : float
        Largest offset in world units (>= 0).
    radius : float, optional
        Unit radius; default the NavMap's ``agent_radius``.
    clearance : float
        Extra distance kept from walls by a moved waypoint (>= 0).

    Returns
    -------
    Path
        Same ``nodes``; ``points`` varied; ``cost`` is the new polyline length.
    """
    pts = as_polyline(path.points if isinstance(path, Path) else path, "path")
    off = _check_nonneg("max_offset", max_offset)
    c = _check_nonneg("clearance", clearance)
    r = float(navmap.options.agent_radius) if radius is None else _check_nonneg("radius", radius)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    level = navmap.level
    walk = navmap.line_of_sight if r == navmap.options.agent_radius else level.line_of_sight(agent_radius=r)
    clear = walk if c == 0 else level.line_of_sight(agent_radius=r + c)
    out = pts.copy()
    for i in range(1, len(out) - 1):
        ang = rng.uniform(0, 2 * np.pi)
        dist = off * np.sqrt(rng.uniform())
        step = dist * np.array([np.cos(ang), np.sin(ang)])
        for _ in range(5):
            q = pts[i] + step
            if clear.walkable(q[None])[0] and not walk.blocked(np.stack([out[i - 1], q]), np.stack([q, out[i + 1]])).any():
                out[i] = q
                break
            step = step / 2
    length = float(np.hypot(*np.diff(out, axis=0).T).sum())
    nodes = path.nodes if isinstance(path, Path) else np.zeros(0, np.int32)
    return Path(nodes, out, length)


def alternative_paths(
    navmap: Any,
    start: ArrayLike,
    goal: ArrayLike,
    count: int,
    *,
    profile: CostProfile | None = None,
    penalty: float = 1.0,
) -> list[Path]:
    """Up to ``count`` different routes from ``start`` to ``goal``, cheapest first.

    Each route is an A* search over the NavMap's graph whose arc weights are the profile's,
    multiplied by ``1 + penalty`` once for every earlier route that used the arc (either
    direction), so later routes prefer other corridors. ``NavQuery`` has no penalty option
    yet, so the penalised weights are built here and searched with :func:`navmesh.astar`.

    Parameters
    ----------
    navmap : NavMap
    start, goal : float arrays of shape (2,)
        Moved to the nearest walkable point when needed (as ``NavQuery.find_path``).
    count : int
        Routes wanted, >= 1. Duplicates are dropped, so fewer may come back.
    profile : CostProfile, optional
    penalty : float
        Extra cost factor per earlier use of an arc, >= 0.

    Returns
    -------
    list of Path
        ``points`` = start, the route's waypoints (string-pulled by ``NavQuery.smooth_path``,
        which keeps each route in its corridor), goal; ``cost`` under the profile.

    Raises
    ------
    NoPathError
        No route at all.
    """
    if not isinstance(count, (int, np.integer)) or count < 1:
        raise InvalidOptionError(f"count={describe(count)} is not valid; expected an int >= 1")
    pen = _check_nonneg("penalty", penalty)
    query = NavQuery(navmap, profile)
    s, g = query.nearest_walkable(np.asarray(start, dtype=np.float64)), query.nearest_walkable(np.asarray(goal, dtype=np.float64))
    a, b = query.snap(s), query.snap(g)
    graph = navmap.graph
    base = np.asarray(navmap.weights(profile).values, dtype=np.float64)
    uses = np.zeros(len(base))
    src = np.repeat(np.arange(graph.n_nodes), np.diff(graph.indptr))
    out: list[Path] = []
    seen: set[bytes] = set()
    for _ in range(int(count)):
        w = base * (1.0 + pen) ** uses
        try:
            found = astar(graph, a, b, weights=graph.weights(w))
        except NoPathError:
            if not out:
                raise
            break
        nodes = found.nodes
        u, v = nodes[:-1], nodes[1:]
        # every arc of the route, both directions
        used = np.isin(src * graph.n_nodes + graph.indices, np.concatenate([u * graph.n_nodes + v, v * graph.n_nodes + u]))
        uses += used
        raw = Path(nodes, np.concatenate([s[None, :2], graph.points[nodes, :2], g[None, :2]]), found.cost)
        path = query.smooth_path(raw)
        key = path.points.round(9).tobytes()
        if key not in seen:
            seen.add(key)
            out.append(path)
    return sorted(out, key=lambda path: path.cost)

