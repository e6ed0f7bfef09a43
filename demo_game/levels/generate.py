"""Generate the bundled level ``valley.json``: ``python -m demo_game.levels.generate``.

The valley is 3,200 x 2,000 world units (larger than any screen): a river runs north to south
through it, crossed by a bridge (which the player can raise) and a ford; a road leads from the
west edge over the bridge to the east edge and skirts a large swamp; rocks, slanted walls, a fort
and a village block the way. All geometry is plain data here, so the level can be regenerated
and then edited in the level editor.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import shapely

import navmesh

from . import VALLEY

WIDTH, HEIGHT = 3200.0, 2000.0

RIVER_LINE = [(1690, 2000), (1735, 1620), (1760, 1400), (1830, 1000), (1800, 600), (1810, 450), (1880, 0)]
RIVER_HALF_WIDTH = 75.0
ROAD_WEST = [(0, 1120), (260, 1160), (520, 1260), (900, 1330), (1300, 1370), (1640, 1400)]
ROAD_EAST = [(1880, 1400), (2200, 1420), (2560, 1330), (2900, 1180), (3200, 1150)]
ROAD_HALF_WIDTH = 26.0
BRIDGE = (1630.0, 1372.0, 1890.0, 1428.0)  # xmin, ymin, xmax, ymax
FORD = (1700.0, 395.0, 1925.0, 505.0)
# What is put on the bridge when it is raised (slightly inside the deck, across the water).
BRIDGE_GATE = (1680.0, 1376.0, 1840.0, 1424.0)
SWAMP = [(560, 320), (820, 260), (1120, 300), (1280, 420), (1300, 760), (1240, 1060), (1060, 1180),
         (780, 1170), (600, 1060), (520, 800), (500, 520)]
FOREST = [(2250, 120), (2700, 80), (3000, 260), (2950, 520), (2600, 560), (2300, 420)]


def _rect(xmin: float, ymin: float, xmax: float, ymax: float) -> list[tuple[float, float]]:
    return [(xmin, ymin), (xmax, ymin), (xmax, ymax), (xmin, ymax)]


def _wall(cx: float, cy: float, length: float, thickness: float, degrees: float) -> list[tuple[float, float]]:
    """A thin rectangle centred on (cx, cy), turned by ``degrees`` counter-clockwise."""
    a = math.radians(degrees)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux
    h, t = length / 2, thickness / 2
    return [(round(cx + sx * h * ux + st * t * vx, 3), round(cy + sx * h * uy + st * t * vy, 3))
            for sx, st in ((-1, -1), (1, -1), (1, 1), (-1, 1))]


def _rock(cx: float, cy: float, radius: float, rng: np.random.Generator, sides: int = 7) -> list[tuple[float, float]]:
    angles = np.sort(rng.uniform(0, 2 * np.pi, sides))
    radii = radius * rng.uniform(0.7, 1.0, sides)
    return [(round(cx + r * math.cos(a), 2), round(cy + r * math.sin(a), 2)) for a, r in zip(angles, radii)]


def _band(line: list[tuple[float, float]], half_width: float) -> shapely.Polygon:
    band = shapely.LineString(line).buffer(half_width, quad_segs=2, cap_style="flat")
    band = band.intersection(shapely.box(0, 0, WIDTH, HEIGHT))
    return shapely.Polygon(np.round(np.asarray(band.exterior.coords), 2))


def _along(line: list[tuple[float, float]], spacing: float) -> list[tuple[float, float]]:
    """Points every ``spacing`` units along a polyline, ends included."""
    ls = shapely.LineString(line)
    n = max(2, int(ls.length // spacing) + 1)
    pts = shapely.line_interpolate_point(ls, np.linspace(0, ls.length, n))
    # Keep clear of the level's edge, where agents of any radius cannot stand.
    return [(round(p.x, 2), round(p.y, 2)) for p in pts if 30 < p.x < WIDTH - 30 and 30 < p.y < HEIGHT - 30]


def build_level() -> navmesh.Level:
    """The valley as a :class:`navmesh.Level` (deterministic)."""
    rng = np.random.default_rng(7)
    obstacles: list[list[tuple[float, float]]] = []
    # Rock ridge south of the swamp and scattered boulders.
    for cx, cy, r in [(520, 170, 70), (700, 120, 60), (900, 150, 80), (1100, 110, 60), (1300, 200, 70),
                      (300, 520, 60), (250, 1500, 80), (520, 1700, 65), (1000, 1620, 90), (1350, 1800, 60),
                      (1420, 900, 55), (2150, 900, 70), (2050, 1750, 60), (1500, 560, 45), (3050, 1850, 60)]:
        obstacles.append(_rock(cx, cy, r, rng))
    # Slanted walls: a fort in the east and a few barricades.
    for cx, cy, length, deg in [(2560, 900, 320, 30), (2800, 900, 320, -30), (2680, 640, 240, 90),
                                (380, 1350, 260, 60), (1150, 1550, 300, -20), (2100, 620, 260, 45),
                                (2950, 1450, 260, 75)]:
        obstacles.append(_wall(cx, cy, length, 28, deg))
    # A village of houses north-east of the bridge.
    for x, y, w, h in [(2250, 1600, 120, 90), (2420, 1650, 100, 120), (2600, 1580, 140, 80),
                       (2780, 1700, 90, 110), (2400, 1850, 160, 70)]:
        obstacles.append(_rect(x, y, x + w, y + h))

    river = _band(RIVER_LINE, RIVER_HALF_WIDTH)
    road_w = _band(ROAD_WEST, ROAD_HALF_WIDTH)
    road_e = _band(ROAD_EAST, ROAD_HALF_WIDTH)
    terrain = [
        navmesh.TerrainRegion(FOREST, "forest"),
        navmesh.TerrainRegion(SWAMP, "swamp"),
        navmesh.TerrainRegion(river, "water"),
        navmesh.TerrainRegion(_rect(*FORD), "ford"),
        navmesh.TerrainRegion(road_w, "road"),
        navmesh.TerrainRegion(road_e, "road"),
        navmesh.TerrainRegion(_rect(*BRIDGE), "bridge"),
    ]
    # Waypoints on the road's centre line, the bridge and the ford, so roads and crossings are
    # in the graph even where the generated corner and fill waypoints are sparse.
    cy = (BRIDGE[1] + BRIDGE[3]) / 2
    fy = (FORD[1] + FORD[3]) / 2
    waypoints = _along(ROAD_WEST, 130) + _along(ROAD_EAST, 130)
    waypoints += [(BRIDGE[0] + 6, cy), (BRIDGE[2] - 6, cy)]  # not in the middle, where the gate goes
    waypoints += [(FORD[0] + 6, fy), ((FORD[0] + FORD[2]) / 2, fy), (FORD[2] - 6, fy)]
    level = navmesh.Level.rectangle(WIDTH, HEIGHT, obstacles=obstacles, terrain=terrain,
                                    waypoints=sorted(set(waypoints)), on_bad_waypoint="drop")
    return level


def main(argv: list[str] | None = None) -> int:
    """Write the level to ``valley.json`` (or the path given as the first argument)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else VALLEY
    navmesh.save_level(build_level(), out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
