"""Local mesh updates (doors) equal a rebuild: the same walkable area, the same exact path
lengths, and only the polygons near the door change.

The oracle is ``build_navmesh`` on the changed level (itself checked against the exact
visibility graph in test_polymesh_oracle.py); areas are compared with shapely.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navmesh.errors import InvalidGeometryError, InvalidOptionError, NoPathError
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.mesh import PolyMesh
from navmesh.polymesh.query import MeshQuery
from navmesh.polymesh.update import with_obstacle, without_obstacle
from navmesh.terrain import TerrainRegion


@st.composite
def levels_with_door(draw):
    obstacles = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["box", "tri", "touch"]))
        x, y = draw(st.integers(1, 16)), draw(st.integers(1, 16))
        w, h = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        if kind == "box":
            obstacles.append(shapely.box(x, y, min(x + w, 19), min(y + h, 19)))
        elif kind == "tri":  # slanted walls
            dx = draw(st.floats(0.3, 3.0))
            obstacles.append(shapely.Polygon([(x, y), (min(x + w + dx, 19.5), y + 0.5), (x + 0.7, min(y + h, 19))]))
        else:  # two boxes touching at a corner: a pinch
            obstacles += [shapely.box(x, y, x + 1, y + 1), shapely.box(x + 1, y + 1, min(x + 2, 19.5), min(y + 2, 19.5))]
    terrain = []
    if draw(st.booleans()):
        cx, cy = draw(st.floats(3, 17)), draw(st.floats(3, 17))
        terrain.append(TerrainRegion(shapely.Polygon([(cx - 3, cy - 1), (cx + 2.5, cy - 2), (cx + 1, cy + 3.3)]), "mud"))
    # the door: a thin slab anywhere, over free space, obstacles or the level's edge (sevenths:
    # on and off the obstacles' integer lines, never subnormal)
    def at(lo: int, hi: int) -> float:
        return draw(st.integers(lo, hi)) / 7

    dx, dy = at(0, 126), at(0, 126)
    if draw(st.booleans()):
        door = shapely.box(dx, dy, dx + at(1, 14), dy + at(7, 42))
    else:
        door = shapely.box(dx, dy, dx + at(7, 42), dy + at(1, 14))
    radius = draw(st.sampled_from([0.0, 0.0, 0.3, 0.6]))
    return Level((0, 0, 20, 20), obstacles=obstacles, terrain=terrain), door, radius


def _area(mesh: PolyMesh) -> shapely.Geometry:
    return shapely.union_all(mesh.to_shapely()) if mesh.n_polygons else shapely.Polygon()


def _rings(mesh: PolyMesh) -> list[tuple[tuple[float, float], ...]]:
    return [tuple(map(tuple, mesh.polygon_points(p).tolist())) for p in range(mesh.n_polygons)]


def _same_as_rebuild(updated: PolyMesh, rebuilt: PolyMesh, rnd) -> None:
    a, b = _area(updated), _area(rebuilt)
    assert shapely.symmetric_difference(a, b).area <= 1e-9 * max(b.area, 1.0)
    assert updated.tag_names == rebuilt.tag_names
    # each polygon keeps one terrain class: the tag at its centre
    layer = updated.level.terrain_layer()
    centres = np.array([updated.polygon_points(p).mean(axis=0) for p in range(updated.n_polygons)]).reshape(-1, 2)
    if len(centres):
        assert [updated.tag_names[t] for t in updated.tags] == [t or "" for t in layer.tag_at(centres).tolist()]
    if not rebuilt.n_polygons:
        return
    mine, theirs = MeshQuery(updated), MeshQuery(rebuilt)
    for _ in range(10):
        s = theirs.random_point(rnd.randrange(2**32))
        g = theirs.random_point(rnd.randrange(2**32))
        try:
            want = theirs.find_path(s, g, strict=True).cost
        except NoPathError:
            with pytest.raises(NoPathError):
                mine.find_path(s, g, strict=True)
            continue
        assert mine.find_path(s, g, strict=True).cost == pytest.approx(want, rel=1e-9, abs=1e-9)


def _kept_in_order(old: PolyMesh, new: PolyMesh, door: shapely.Polygon) -> None:
    """Polygons away from the door's touched box keep their coordinates, tags and order, first
    (unless the update fell back to a full rebuild, as documented, when a corner of the door
    lands exactly on an edge of the old mesh)."""
    if new == build_navmesh(new.level, agent_radius=new.agent_radius, join=new.join):
        return
    r = old.agent_radius
    zone = shapely.buffer(door, 1.5 * r) if r > 0 else door  # the documented zone of change
    shapes = old.to_shapely()
    touched = shapely.intersects(shapes, zone) if len(shapes) else np.zeros(0, bool)
    if not touched.any():
        assert _rings(new) == _rings(old)
        return
    x0, y0, x1, y1 = shapely.total_bounds(shapes[touched])
    box = shapely.box(x0, y0, x1, y1)
    old_rings = _rings(old)
    kept = [old_rings[p] for p in np.flatnonzero(~touched)]
    assert _rings(new)[: len(kept)] == kept
    assert new.tags[: len(kept)].tolist() == old.tags[~touched].tolist()
    far = [old_rings[p] for p in range(old.n_polygons) if not shapely.intersects(shapes[p], box)]
    assert set(far) <= set(_rings(new))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels_with_door(), st.randoms(use_true_random=False))
def test_a_door_closing_and_opening_equals_a_rebuild(case, rnd):
    level, door, r = case
    mesh = build_navmesh(level, agent_radius=r)
    closed = with_obstacle(mesh, door)
    assert len(closed.level.obstacles) == len(level.obstacles) + 1
    assert closed.agent_radius == r and mesh.level is level  # the old mesh is untouched
    _same_as_rebuild(closed, build_navmesh(closed.level, agent_radius=r), rnd)
    _kept_in_order(mesh, closed, door)
    opened = without_obstacle(closed, -1)
    assert len(opened.level.obstacles) == len(level.obstacles)
    _same_as_rebuild(opened, mesh, rnd)
    _kept_in_order(closed, opened, door)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels_with_door(), st.randoms(use_true_random=False), st.data())
def test_removing_any_obstacle_equals_a_rebuild(case, rnd, data):
    level, _, r = case
    if not level.obstacles:
        return
    i = data.draw(st.integers(0, len(level.obstacles) - 1))
    mesh = build_navmesh(level, agent_radius=r)
    opened = without_obstacle(mesh, i)
    _same_as_rebuild(opened, build_navmesh(opened.level, agent_radius=r), rnd)
    _kept_in_order(mesh, opened, level.obstacles[i])


def test_removing_a_member_of_a_merged_group_equals_a_rebuild():
    """The build merges touching obstacles and inflates each group's outline as one: removing a
    member moves the group's outline away from the member too (found by hypothesis: a triangle
    and two boxes touching at corners; obstacle 4 touches obstacle 5, which touches the triangle)."""
    import random

    obstacles = [[(5, 13), (7, 13.5), (5.7, 15)], [(2, 1), (2, 2), (1, 2), (1, 1)], [(6, 14), (6, 15), (2, 15), (2, 14)],
                 [(2, 1), (2, 2), (1, 2), (1, 1)], [(4, 12), (4, 13), (3, 13), (3, 12)], [(5, 13), (5, 14), (4, 14), (4, 13)]]
    mesh = with_obstacle(build_navmesh(Level.rectangle(20, 20, obstacles=obstacles), agent_radius=0.3),
                         [(1, 0), (1, 0.143), (0, 0.143), (0, 0)])
    for i in range(len(mesh.level.obstacles)):
        opened = without_obstacle(mesh, i)
        _same_as_rebuild(opened, build_navmesh(opened.level, agent_radius=0.3), random.Random(i))


def _big_level() -> Level:
    rng = np.random.default_rng(3)
    obstacles = []
    for _ in range(60):
        x, y = rng.uniform(0, 195, 2)
        w, h = rng.uniform(1, 6, 2)
        obstacles.append(shapely.box(x, y, x + w, y + h))
    return Level((0, 0, 200, 200), obstacles=obstacles)


def test_a_door_re_meshes_few_polygons_of_a_big_level():
    mesh = build_navmesh(_big_level(), agent_radius=0.5)
    door = shapely.box(100, 100, 101, 104)
    closed = with_obstacle(mesh, door)
    old, new = set(_rings(mesh)), set(_rings(closed))
    changed = len(set(_rings(mesh)) - new)
    # the door sits where the build's tile seams cross (x = y = 100: TILE_VERTICES halves the
    # 200 x 200 box), so the polygons of four tiles meet at it: 16 of 253 change there, 1-2
    # elsewhere (measured); a rebuild would change most of them
    assert 0 < changed <= 0.1 * mesh.n_polygons
    assert len(new - old) <= 0.1 * closed.n_polygons
    # blocked: a path through the door's place now goes round it, as on a rebuild
    rebuilt = MeshQuery(build_navmesh(closed.level, agent_radius=0.5))
    s, g = [99.0, 102.0], [102.5, 102.0]
    assert MeshQuery(closed).find_path(s, g).cost == pytest.approx(rebuilt.find_path(s, g).cost, rel=1e-12)
    assert MeshQuery(closed).find_path(s, g).cost > 3.5 + 1.0
    reopened = without_obstacle(closed, -1)
    assert MeshQuery(reopened).find_path(s, g).cost == pytest.approx(3.5, rel=1e-12)


def test_update_errors_are_clear():
    level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
    mesh = build_navmesh(level)
    bare = PolyMesh(mesh.vertices, mesh.indptr, mesh.indices, mesh.neighbours)
    with pytest.raises(InvalidOptionError, match="does not know its level"):
        with_obstacle(bare, [(1, 1), (2, 1), (2, 2)])
    with pytest.raises(InvalidOptionError, match="is not a PolyMesh"):
        with_obstacle(level, [(1, 1), (2, 1), (2, 2)])
    with pytest.raises(InvalidOptionError, match=r"index=1 is not valid; the level has obstacles 0\.\.0"):
        without_obstacle(mesh, 1)
    with pytest.raises(InvalidOptionError, match="index=True"):
        without_obstacle(mesh, True)
    with pytest.raises(InvalidOptionError, match="margin"):
        with_obstacle(mesh, [(1, 1), (2, 1), (2, 2)], margin=-1)
    with pytest.raises(InvalidGeometryError):
        with_obstacle(mesh, [(1, 1), (2, 2)])


def test_margin_re_meshes_more_and_still_equals_a_rebuild():
    mesh = build_navmesh(_big_level(), agent_radius=0.5)
    door = shapely.box(100, 100, 101, 104)
    tight, wide = with_obstacle(mesh, door), with_obstacle(mesh, door, margin=15.0)
    old = set(_rings(mesh))
    assert len(old - set(_rings(wide))) > len(old - set(_rings(tight)))
    a, b = _area(wide), _area(build_navmesh(wide.level, agent_radius=0.5))
    assert shapely.symmetric_difference(a, b).area <= 1e-9 * b.area


def test_a_door_meeting_an_obstacle_fills_the_corner_their_merged_inflation_fills():
    """Obstacles are merged before the mitre inflation, which then fills corners that neither
    obstacle's own inflation covers: the re-meshed zone must reach them (found by a random search)."""
    level = Level((0, 0, 20, 20), obstacles=[shapely.Polygon([(9, 6), (15.667785757206833, 6.5), (9.7, 7)])])
    door = shapely.box(9, 10 / 7, 71 / 7, 48 / 7)  # overlaps the triangle's tip
    mesh = build_navmesh(level, agent_radius=0.6)
    for updated in (with_obstacle(mesh, door), without_obstacle(build_navmesh(
            level.replace(obstacles=(*level.obstacles, door)), agent_radius=0.6), -1)):
        a, b = _area(updated), _area(build_navmesh(updated.level, agent_radius=0.6))
        assert shapely.symmetric_difference(a, b).area <= 1e-12 * b.area


def test_a_door_corner_on_an_old_edge_still_equals_a_rebuild():
    """The door's corner (14, 12/7) lies exactly on an edge of the old mesh: the region is pinched
    there and its triangulation leaves a flat triangle (found by a random search)."""
    ring = shapely.box(10, 2, 13, 5).difference(shapely.box(11, 3, 12, 4))
    level = Level((0, 0, 20, 20), obstacles=[shapely.box(7, 11, 11, 13), ring])
    mesh = build_navmesh(level)
    closed = with_obstacle(mesh, shapely.box(10, 4 / 7, 14, 12 / 7))
    a, b = _area(closed), _area(build_navmesh(closed.level))
    assert shapely.symmetric_difference(a, b).area <= 1e-12 * b.area
    assert without_obstacle(closed, -1).areas().sum() == pytest.approx(mesh.areas().sum(), rel=1e-12)
