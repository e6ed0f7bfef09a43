"""Hypothesis properties of the line-of-sight rule on drawn (non-grid) levels.

Levels are built from shapes that make the awkward cases common, then moved by a random rotation
and scale so that no edge is axis-aligned and few coordinates are round: checkerboards (squares
touching at corners), fans of triangles meeting at one vertex, polygons whose hole touches the
outer ring, and loose random triangles. Segments join their vertices, run along their edges,
graze their vertices (a ray from a random point through a vertex, extended beyond it in floats)
and join random points. Every property is checked against an independent answer: the two
backends against each other, both against the exact rational oracle of ``tests/los_oracle.py``,
and path lengths against the oracle's visibility graph solved by scipy.sparse.csgraph.
"""

from __future__ import annotations

import math
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from shapely import affinity

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from los_oracle import exact_shortest, oracle_for  # noqa: E402

from navmesh._kernels import los as LK  # noqa: E402
from navmesh.errors import NavmeshWarning  # noqa: E402
from navmesh.sight import LineOfSight  # noqa: E402
from navmesh.level import Level  # noqa: E402
from navmesh.waypoints.build import build_waypoint_graph  # noqa: E402
from navmesh.waypoints.linking import wall_grid_for  # noqa: E402
from navmesh.waypoints.query import find_path  # noqa: E402

# the exact oracle is slow: no shrinking (a failure prints the whole level instead)
SETTINGS = dict(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                phases=[Phase.explicit, Phase.reuse, Phase.generate])
SIZE = 10.0


def _checkerboard(rng: np.random.Generator) -> list[shapely.Polygon]:
    cells = [(x, y) for x in range(1, 8) for y in range(1, 8) if (x + y) % 2 == 0 and rng.random() < 0.5]
    return [shapely.box(x, y, x + 1, y + 1) for x, y in cells]


def _fan(rng: np.random.Generator) -> list[shapely.Polygon]:
    c = rng.uniform(3, 7, 2)
    cuts = np.sort(rng.choice(12, size=2 * int(rng.integers(2, 4)), replace=False)) * (2 * math.pi / 12)
    out = []
    for t0, t1 in cuts.reshape(-1, 2):
        r0, r1 = rng.uniform(1.5, 3, 2)
        out.append(shapely.Polygon([tuple(c), tuple(c + r0 * np.array([math.cos(t0), math.sin(t0)])),
                                    tuple(c + r1 * np.array([math.cos(t1), math.sin(t1)]))]))
    return out


def _hole_touching(rng: np.random.Generator) -> list[shapely.Polygon]:
    x, y = rng.integers(1, 4, 2).astype(float)
    w = float(rng.integers(4, 6))
    shell = [(x, y), (x + w / 2, y), (x + w, y), (x + w, y + w), (x, y + w)]
    if rng.random() < 0.5:  # the hole touches the outer ring at one of its vertices
        hole = [(x + w / 2, y), (x + w - 1, y + w - 1.5), (x + 1, y + w - 1)]
    else:  # ... or inside one of its edges
        hole = [(x + w, y + w / 2 + 0.5), (x + 1.5, y + w - 1), (x + 1, y + 1)]
    out = [shapely.Polygon(shell, [hole])]
    if rng.random() < 0.5:  # something inside the hole
        out.append(shapely.box(x + w / 2 - 0.25, y + w / 2 - 0.25, x + w / 2 + 0.25, y + w / 2 + 0.25))
    return out


def _triangles(rng: np.random.Generator) -> list[shapely.Polygon]:
    out = []
    for _ in range(int(rng.integers(2, 6))):
        tri = shapely.Polygon(rng.uniform(0.5, SIZE - 0.5, (3, 2)))
        if tri.area > 0.3 and all(not tri.intersects(t) for t in out):
            out.append(tri)
    return out


FAMILIES = {"checkerboard": _checkerboard, "fan": _fan, "hole": _hole_touching, "triangles": _triangles}


@st.composite
def drawn_levels(draw):
    """(obstacles, bounds): one family (sometimes two mixed), rotated and scaled at random."""
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    names = draw(st.lists(st.sampled_from(sorted(FAMILIES)), min_size=1, max_size=2, unique=True))
    obstacles = []
    for name in names:
        obstacles += FAMILIES[name](rng)
    if len(names) > 1:  # keep the second family's shapes only where they do not overlap the first
        first = shapely.union_all(FAMILIES[names[0]](np.random.default_rng(seed)))
        obstacles = [o for o in obstacles if not o.overlaps(first) or o.area == 0]
    bounds = shapely.box(0, 0, SIZE, SIZE)
    if draw(st.booleans()):
        angle = draw(st.floats(1, 89))
        scale = draw(st.floats(0.3, 3.0))
        obstacles = [affinity.scale(affinity.rotate(o, angle, origin=(0, 0)), scale, scale, origin=(0, 0)) for o in obstacles]
        bounds = affinity.scale(affinity.rotate(bounds, angle, origin=(0, 0)), scale, scale, origin=(0, 0))
    obstacles = [o for o in obstacles if o.is_valid and o.area > 0]
    assume(obstacles)
    return obstacles, bounds, seed


def _segments(los: LineOfSight, obstacles, bounds, rng: np.random.Generator, n: int):
    """Segments between vertices, along edges, grazing vertices, and between random points;
    both ends walkable."""
    verts = np.unique(np.concatenate([shapely.get_coordinates(obstacles), shapely.get_coordinates(bounds)]), axis=0)
    x0, y0, x1, y1 = bounds.bounds
    rand = np.column_stack([rng.uniform(x0, x1, 4 * n), rng.uniform(y0, y1, 4 * n)])
    rand = rand[los.walkable(rand)]
    verts = verts[los.walkable(verts)]
    assume(len(verts) >= 2 and len(rand) >= 2)
    edges = los.edges[:, :4]
    a, b = [], []
    i, j = rng.integers(len(verts), size=(2, n))
    a.append(verts[i]), b.append(verts[j])
    e = edges[rng.integers(len(edges), size=n)]
    a.append(e[:, :2]), b.append(e[:, 2:])
    p, v = rand[rng.integers(len(rand), size=n)], verts[rng.integers(len(verts), size=n)]
    a.append(p), b.append(v)
    a.append(p), b.append(p + rng.uniform(1.2, 3.0, (n, 1)) * (v - p))  # through a vertex and beyond
    a.append(rand[rng.integers(len(rand), size=n)]), b.append(rand[rng.integers(len(rand), size=n)])
    if len(los.pinch_points):
        k = rng.integers(len(los.pinch_points), size=n)
        a.append(p), b.append(los.pinch_points[k])
        a.append(p), b.append(p + 2.0 * (los.pinch_points[k] - p))  # through a pinch point
    a, b = np.concatenate(a), np.concatenate(b)
    ok = los.walkable(a) & los.walkable(b)
    return a[ok], b[ok]


@settings(**SETTINGS)
@given(drawn_levels(), st.sampled_from([0.0, 0.0, 0.25]))
def test_backends_agree_with_each_other_and_with_the_exact_oracle(level, radius):
    obstacles, bounds, seed = level
    los = LineOfSight(obstacles, bounds, agent_radius=radius)
    rng = np.random.default_rng(seed)
    a, b = _segments(los, obstacles, bounds, rng, 200)
    shapely_free = ~los.blocked(a, b)
    kernel_free = LK.segments_free(np.ascontiguousarray(a), np.ascontiguousarray(b), *wall_grid_for(los))
    np.testing.assert_array_equal(kernel_free, shapely_free)
    oracle = oracle_for(los)
    pick = rng.choice(len(a), size=min(40, len(a)), replace=False)
    wrong = [(a[i].tolist(), b[i].tolist()) for i in pick if oracle.visible(a[i], b[i]) != shapely_free[i]]
    assert not wrong, f"segments the library judges wrongly: {wrong[:3]}; level {[o.wkt for o in obstacles]}"


def _wall_vertices(los: LineOfSight) -> np.ndarray:
    return np.unique(los.edges[:, :2], axis=0)


def _path_respects_pinches(los: LineOfSight, points: np.ndarray) -> bool:
    """No leg passes through a pinch point and no turn at a pinch point changes free wedge."""
    for p, wedges in zip(los.pinch_points, los.pinch_wedges):
        for k in range(1, len(points) - 1):
            if not (points[k] == p).all():
                continue
            arrive, leave = points[k - 1] - p, points[k + 1] - p

            def wedge_of(d):
                out = set()
                for w, (qx, qy, rx, ry) in enumerate(wedges):
                    q, r = np.array([qx, qy]) - p, np.array([rx, ry]) - p
                    c_qr = q[0] * r[1] - q[1] * r[0]
                    c_qd, c_dr = q[0] * d[1] - q[1] * d[0], d[0] * r[1] - d[1] * r[0]
                    if (c_qd >= 0 and c_dr >= 0) if c_qr > 0 else (c_qd >= 0 or c_dr >= 0):
                        out.add(w)
                return out

            if not wedge_of(arrive) & wedge_of(leave):
                return False
    return True


@settings(**{**SETTINGS, "max_examples": 15})
@given(drawn_levels(), st.sampled_from([0.0, 0.0, 0.2]), st.sampled_from(["shapely", "kernel"]),
       st.integers(0, 2**31))
def test_visibility_graph_paths_equal_the_exact_optimum(level, radius, visibility, seed):
    obstacles, bounds, _ = level
    lvl = Level(bounds, obstacles=obstacles)
    los = lvl.line_of_sight(agent_radius=radius)
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = bounds.bounds
    pts = np.column_stack([rng.uniform(x0, x1, 60), rng.uniform(y0, y1, 60)])
    pts = pts[los.walkable(pts)]
    assume(len(pts) >= 2)
    start, goal = pts[0], pts[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        nav = build_waypoint_graph(lvl, k=None, corners=True, agent_radius=radius, visibility=visibility)
    oracle = oracle_for(los)
    want = exact_shortest(oracle, _wall_vertices(los), start, goal)
    assume(math.isfinite(want))
    for refine in ("none", "any_angle"):
        path = find_path(nav, start, goal, refine=refine)
        assert path.cost == pytest.approx(want, rel=1e-9, abs=1e-9)
        legs_ok = [oracle.visible(p, q) for p, q in zip(path.points[:-1], path.points[1:])]
        assert all(legs_ok)
        assert _path_respects_pinches(los, path.points)


@settings(**SETTINGS)
@given(drawn_levels(), st.integers(0, 2**31))
def test_no_path_passes_through_a_pinch_point(level, seed):
    obstacles, bounds, _ = level
    lvl = Level(bounds, obstacles=obstacles)
    los = lvl.line_of_sight()
    assume(len(los.pinch_points))
    rng = np.random.default_rng(seed)
    nav = build_waypoint_graph(lvl, k=None, corners=True, visibility="kernel")
    # ends near the pinch points, on both sides: the tempting paths are the ones through them
    k = rng.integers(len(los.pinch_points), size=20)
    ends = los.pinch_points[k] + rng.normal(0, 0.3, (20, 2))
    ends = ends[los.walkable(ends)]
    for s, g in zip(ends[::2], ends[1::2]):
        try:
            path = find_path(nav, s, g, refine="any_angle")
        except Exception as exc:  # unreachable across a pinch point is a fine answer
            assert type(exc).__name__ in {"NoPathError", "NodeNotFoundError"}
            continue
        assert (~los.blocked(path.points[:-1], path.points[1:])).all()
        assert _path_respects_pinches(los, path.points)
