"""PolyMesh, build_navmesh, MeshQuery and the .mesh files on hand-computed cases."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from navmesh.errors import InvalidGeometryError, InvalidOptionError, LevelFormatError, NodeNotFoundError, NoPathError
from navmesh.io.mesh_file import load_mesh, save_mesh
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh, free_space
from navmesh.polymesh.mesh import PolyMesh
from navmesh.polymesh.query import MeshQuery
from navmesh.terrain import CostProfile, TerrainRegion
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery

WALL = [(4, 0), (6, 0), (6, 8), (4, 8)]


@pytest.fixture(scope="module")
def wall_query():
    return MeshQuery(build_navmesh(Level.rectangle(10, 10, obstacles=[WALL])))


def test_mesh_is_convex_covers_free_space_and_adjacency_is_mutual():
    level = Level.rectangle(10, 10, obstacles=[WALL, [(7, 7), (9, 7.5), (8, 9)]])
    mesh = build_navmesh(level)
    shapes = mesh.to_shapely()
    assert all(shapely.equals_exact(s.convex_hull.normalize(), s.normalize(), 1e-9) or
               abs(s.convex_hull.area - s.area) < 1e-9 for s in shapes)
    assert mesh.areas().sum() == pytest.approx(free_space(level).area, rel=1e-12)
    has = mesh.neighbours >= 0
    assert np.all(mesh.polygon_of[mesh.twins[has]] == mesh.neighbours[has])


def test_obstacles_touching_at_a_point_leave_no_adjacency_across_it():
    # two squares touching at (5, 5): the gaps left-top and right-bottom meet only at that point
    level = Level.rectangle(10, 10, obstacles=[[(0, 0), (5, 0), (5, 5), (0, 5)], [(5, 5), (10, 5), (10, 10), (5, 10)]])
    mesh = build_navmesh(level)
    assert len(np.flatnonzero(np.all(mesh.vertices == [5, 5], axis=1))) == 2  # one copy per side
    with pytest.raises(NoPathError):
        MeshQuery(mesh).find_path([1, 9], [9, 1])


def test_shortest_path_goes_round_the_wall_and_lists_polygons(wall_query):
    path = wall_query.find_path([1, 1], [9, 1])
    assert path.points.tolist() == [[1, 1], [4, 8], [6, 8], [9, 1]]
    assert path.cost == pytest.approx(2 * math.hypot(3, 7) + 2)
    assert path.nodes[0] == wall_query.polygon_at([1, 1]) and path.nodes[-1] == wall_query.polygon_at([9, 1])


def test_same_polygon_edge_and_vertex_endpoints(wall_query):
    assert wall_query.find_path([1, 1], [2, 2]).points.tolist() == [[1, 1], [2, 2]]
    on_vertex = wall_query.find_path([4, 8], [6, 0])  # start on a wall corner, goal on a wall foot
    assert on_vertex.cost == pytest.approx(2 + 8)
    on_edge = wall_query.find_path([4, 5], [6, 5])  # both on the wall's sides
    assert on_edge.cost == pytest.approx(2 * 3 + 2)


def test_endpoints_follow_the_navquery_policy(wall_query):
    # within ENDPOINT_TOLERANCE x the level's size: accepted silently (NavQuery does the same)
    near = wall_query.find_path([-1e-9, 1], [9, 1], strict=True)
    assert not near.start_moved and near.points[0] == pytest.approx([0, 1], abs=1e-8)
    # farther: moved to the nearest walkable point, and said so
    path = wall_query.find_path([4.2, 3], [5.5, 1])  # both inside the wall
    assert path.start_moved and path.goal_moved
    np.testing.assert_allclose(path.points, [[4, 3], [4, 8], [6, 8], [6, 1]], atol=1e-9)
    assert path.cost == pytest.approx(5 + 2 + 7)
    assert not wall_query.find_path([1, 1], [9, 1]).start_moved
    # strict: the same message as NavQuery's, naming point, distance and where it would move
    with pytest.raises(NodeNotFoundError, match=r"start=\[4.2, 3.0\] is not walkable .* 0.2 world units from the nearest walkable point \[4.0, 3.0\]"):
        wall_query.find_path([4.2, 3], [9, 1], strict=True)
    with pytest.raises(NodeNotFoundError, match="goal="):
        wall_query.find_paths([[1, 1]], [4.2, 3], strict=True)
    moved = wall_query.find_paths([[1, 1], [5.5, 4]], [9, 1])
    assert [p.start_moved for p in moved] == [False, True] and moved[1].points[0].tolist() == [6, 4]
    with pytest.raises(InvalidOptionError, match="strict="):
        wall_query.find_path([1, 1], [9, 1], strict="yes")


def test_mesh_and_navquery_agree_on_endpoints_beyond_the_bounds():
    level = Level.rectangle(10, 10, obstacles=[WALL])
    mesh_q = MeshQuery(build_navmesh(level, agent_radius=0.5))
    graph_q = NavQuery(build_waypoint_graph(level, corners=True, agent_radius=0.5))
    for q in (mesh_q, graph_q):
        with pytest.raises(NodeNotFoundError, match=r"goal=\[12.0, 1.0\] lies 2 world units outside the level's bounds"):
            q.find_path([1, 1], [12, 1])
        with pytest.raises(NodeNotFoundError, match="at most BOUNDS_MARGIN x the level's size = 0.5 outside them"):
            q.find_path([1, 1], [10.6, 1])
        path = q.find_path([1, 1], [10.4, 1])  # within the margin: moved inside the eroded area
        assert path.goal_moved and path.points[-1] == pytest.approx([9.5, 1.0])
        with pytest.raises(NodeNotFoundError, match="0.9 world units from the nearest walkable point"):
            q.find_path([1, 1], [10.4, 1], strict=True)
    # the same moved endpoints and lengths on both maps (the k=None corner graph is exact)
    for s, g in (([4.2, 3], [5.5, 1]), ([0.1, 0.1], [9.9, 9.9]), ([3, 4], [7, 2])):
        a, b = mesh_q.find_path(s, g), graph_q.find_path(s, g)
        assert (a.start_moved, a.goal_moved) == (b.start_moved, b.goal_moved)
        assert a.cost == pytest.approx(b.cost, rel=1e-9)


def test_partial_path_reaches_the_point_nearest_the_goal():
    level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 10), (4, 10)]])
    query = MeshQuery(build_navmesh(level))
    path = query.find_path([1, 1], [9, 5], allow_partial=True)
    assert path.partial and path.points[-1] == pytest.approx([4, 5])


def test_raycast_random_point_nearest_walkable(wall_query):
    hit = wall_query.raycast([1, 1], [9, 1])
    assert hit.hit and hit.t == pytest.approx(3 / 8) and hit.normal.tolist() == [-1, 0]
    free = wall_query.raycast([1, 9], [9, 9])
    assert not free.hit and free.point.tolist() == [9, 9]
    rng = np.random.default_rng(1)
    pts = np.array([wall_query.random_point(rng) for _ in range(200)])
    assert not shapely.contains_xy(shapely.box(4, 0, 6, 8), pts[:, 0], pts[:, 1]).any()
    assert wall_query.nearest_walkable([[5, 7.5], [1, 1]]).tolist() == [[5, 8], [1, 1]]


def test_terrain_splits_polygons_and_changes_the_route():
    swamp = TerrainRegion(shapely.box(0, 3, 10, 7), "swamp")
    level = Level.rectangle(10, 10, terrain=[swamp])
    mesh = build_navmesh(level)
    assert mesh.tag_names == ("", "swamp")
    centres = np.array([mesh.polygon_points(p).mean(axis=0) for p in range(mesh.n_polygons)])
    in_swamp = (centres[:, 1] > 3) & (centres[:, 1] < 7)
    assert np.all((mesh.tags == 1) == in_swamp)
    plain = MeshQuery(mesh).find_path([1, 1], [1, 9])
    assert plain.cost == pytest.approx(8)
    slow = MeshQuery(mesh, CostProfile("tank", {"swamp": 3.0})).find_path([1, 1], [1, 9])
    assert slow.cost == pytest.approx(2 + 3 * 4 + 2)
    with pytest.raises(NoPathError):
        MeshQuery(mesh, CostProfile("car", forbidden={"swamp"})).find_path([1, 1], [1, 9])


def test_navquery_dispatches_on_a_polymesh():
    mesh = build_navmesh(Level.rectangle(10, 10, obstacles=[WALL]))
    assert isinstance(NavQuery(mesh), MeshQuery)


def test_bad_meshes_and_files(tmp_path):
    with pytest.raises(InvalidGeometryError, match="counter-clockwise"):
        PolyMesh([[0, 0], [0, 1], [1, 0]], [0, 3], [0, 1, 2], [-1, -1, -1])
    with pytest.raises(InvalidGeometryError, match="mutual"):
        PolyMesh([[0, 0], [1, 0], [1, 1], [0, 1]], [0, 3, 6], [0, 1, 2, 0, 2, 3], [-1, -1, -1, -1, -1, 0])
    bad = tmp_path / "bad.mesh"
    bad.write_text("mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n1 x 1 0\n3 0 1 2 -1 -1 -1\n")
    with pytest.raises(LevelFormatError, match=r"line 6: vertex 2 y"):
        load_mesh(bad)
    bad.write_text("mesh\n4\n")
    with pytest.raises(LevelFormatError, match="version"):
        load_mesh(bad)


def test_file_round_trip_of_a_built_mesh(tmp_path):
    mesh = build_navmesh(Level.rectangle(10, 10, obstacles=[WALL, [(1, 1), (2, 1), (2, 2)]]))
    for version in (2, 3):
        target = tmp_path / f"m{version}.mesh"
        save_mesh(mesh, target, version=version)
        again = load_mesh(target)
        assert np.array_equal(again.vertices, mesh.vertices) and np.array_equal(again.indices, mesh.indices)
        assert np.array_equal(again.neighbours, mesh.neighbours)
        assert not list(tmp_path.glob(".*.tmp"))


def test_budget_same_point_and_pinch_endpoints():
    from navmesh.errors import SearchBudgetError

    level = Level.rectangle(10, 10, obstacles=[WALL, [(7, 7), (8, 7), (8, 8), (7, 8)], [(8, 8), (9, 8), (9, 9), (8, 9)]])
    query = MeshQuery(build_navmesh(level))
    with pytest.raises(SearchBudgetError):
        query.find_path([1, 1], [9, 1], max_expansions=1)
    assert query.find_path([1, 1], [9, 1], max_expansions=1, allow_partial=True).partial
    same = query.find_path([2, 2], [2, 2])
    assert same.cost == 0 and same.points.tolist() == [[2, 2], [2, 2]]
    # from the pinch point where the two small boxes touch, both free sides are reachable
    assert query.find_path([8, 8], [9.5, 7]).cost == pytest.approx(math.hypot(1.5, 1))
    assert query.find_path([8, 8], [7.5, 9.5]).cost == pytest.approx(math.hypot(0.5, 1.5))
