"""build_navmesh on free space whose holes touch each other and the outline at points.

GEOS's polygon triangulator raises "Unable to find a convex corner" on such a polygon (legal
in shapely: holes may touch at single points). Here a terrain outline crosses obstacles that
touch corner to corner, so the terrain piece has a chain of touching holes, one touching its
outline (a level from the editor).
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery
from navmesh.terrain import TerrainRegion

OBSTACLES = [shapely.box(6, 6, 7, 8), shapely.box(8, 7, 10, 8), shapely.box(5, 16, 6, 17), shapely.box(6, 17, 7, 18),
             shapely.box(9, 5, 10, 6), shapely.box(10, 6, 11, 7),
             shapely.box(1, 12, 4, 15).difference(shapely.box(2, 13, 3, 14))]
MUD = shapely.Polygon([(5, 5), (12, 4), (9, 13)])


def _convex(mesh) -> bool:
    for p in range(mesh.n_polygons):
        pts = mesh.polygon_points(p)
        d = np.roll(pts, -1, axis=0) - pts
        cross = d[:, 0] * np.roll(d[:, 1], -1) - d[:, 1] * np.roll(d[:, 0], -1)
        if np.any(cross < -1e-9):
            return False
    return True


@pytest.mark.parametrize("terrain", [[TerrainRegion(MUD, "mud")], []], ids=["mud", "plain"])
def test_mesh_covers_free_space_whose_holes_touch(terrain):
    level = Level((0, 0, 20, 20), obstacles=OBSTACLES, terrain=terrain)
    mesh = build_navmesh(level)
    free = shapely.box(0, 0, 20, 20).difference(shapely.union_all(OBSTACLES))
    assert free.area == 384.0  # 400 - 6 unit boxes - the 2 x 1 box - the ring (9 - 1)
    shapes = mesh.to_shapely()
    assert abs(float(mesh.areas().sum()) - free.area) < 1e-9
    assert shapely.union_all(shapes).symmetric_difference(free).area < 1e-9  # no overlap, no gap
    assert _convex(mesh)
    if terrain:  # the mud triangle's free part is tagged mud, the rest plain ground
        mud = mesh.tags == mesh.tag_names.index("mud")
        assert abs(sum(s.area for s in shapes[mud]) - MUD.difference(shapely.union_all(OBSTACLES)).area) < 1e-9
    # out of the pocket between three boxes touching corner to corner (touching corners do not
    # let a unit through): around the corner (8, 7) of box(8, 7, 10, 8), by hand
    s, g = (9.5, 6.5), (7.5, 9.5)
    path = MeshQuery(mesh).find_path(s, g)
    assert path.points.tolist() == [[9.5, 6.5], [8.0, 7.0], [7.5, 9.5]]
    assert path.cost == pytest.approx(np.hypot(1.5, 0.5) + np.hypot(0.5, 2.5), abs=1e-12)
