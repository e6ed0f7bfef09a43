"""Crowd on a PolyMesh: walls from the mesh's level, each unit's own exact path from the mesh
query; every unit arrives, no unit centre enters an inflated obstacle, bad input is refused."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

import navmesh
from navmesh.errors import InvalidOptionError
from navmesh.steering import Crowd

TOL = 1e-6  # how far (world units) a centre may reach into an inflated obstacle: rounding only
R = 0.5


def _level():
    obstacles = [
        [(15, 5), (20, 5), (20, 25), (15, 25)],
        [(28, 15), (33, 15), (33, 38), (28, 38)],
        [(40, 4), (46, 10), (42, 22), (37, 12)],  # slanted walls
    ]
    return navmesh.Level.rectangle(60, 40, obstacles=obstacles)


def _body_hits(level, radius, points):
    """Unit bodies at ``points`` reaching into an obstacle or out of the bounds by more than TOL
    (shapely distances, independent of the kernels)."""
    pts = shapely.points(points)
    walls = shapely.union_all(list(level.obstacles) + [level.bounds.exterior])
    clear = shapely.distance(walls, pts)
    inside = shapely.contains(level.bounds, pts) & ~shapely.intersects(shapely.union_all(list(level.obstacles)), pts)
    return int((~inside | (clear < radius - TOL)).sum())


@pytest.mark.parametrize("count", [20, 40])
def test_units_on_a_mesh_all_arrive_across_the_level_and_never_enter_a_wall(count):
    level = _level()
    mesh = navmesh.build_navmesh(level, agent_radius=R)
    rng = np.random.default_rng(count)
    start = np.column_stack([rng.uniform(2, 12, count), rng.uniform(2, 38, count)])
    goal = np.array([54.0, 20.0])
    crowd = Crowd(mesh)
    ids = crowd.add(start, radius=R, speed=8.0)
    crowd.move_to(ids, goal)
    bad = 0
    for f in range(3000):
        crowd.update(1 / 30)
        bad += _body_hits(level, R, crowd.positions[ids])
        if crowd.arrived[ids].all():
            break
    assert crowd.arrived[ids].all() and bad == 0
    assert np.hypot(*(crowd.positions[ids] - goal).T).max() < 8.0  # a formation round the goal
    # the units planned with the mesh query: exact paths, as long as the exact waypoint graph's
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=R, k=None)
    oracle = navmesh.NavQuery(nav)
    planned = [crowd.planned_path(int(u)) for u in ids]
    assert all(p is not None and not p.partial for p in planned)
    for p in planned[:5]:
        ref = oracle.find_path(p.points[0, :2], p.points[-1, :2])
        assert p.length == pytest.approx(ref.length, rel=1e-6)


def test_a_stuck_unit_on_a_mesh_replans_from_where_it_stands():
    level = _level()
    mesh = navmesh.build_navmesh(level, agent_radius=R)
    crowd = Crowd(mesh)
    ids = crowd.add([[5.0, 15.0], [6.0, 16.0]], radius=R, speed=8.0)
    crowd.move_to(ids, [25.0, 15.0])
    for _ in range(10):
        crowd.update(1 / 30)
    first = crowd.planned_path(int(ids[0]))
    crowd.positions[ids[0]] = [36.0, 30.0]  # carried off its route, behind the second wall
    for _ in range(1500):
        crowd.update(1 / 30)
        assert _body_hits(level, R, crowd.positions[ids]) == 0
        if crowd.arrived[ids].all():
            break
    assert crowd.arrived[ids].all()
    again = crowd.planned_path(int(ids[0]))
    # a new path, from where the unit stood east of the second wall, round that wall's south end
    assert again is not first and again.points[0, 0] > 33.0 and again.points[:, 1].min() < 15.0


def test_bad_input_on_a_mesh_gives_clear_errors():
    level = _level()
    mesh = navmesh.build_navmesh(level, agent_radius=R)
    crowd = Crowd(mesh)
    with pytest.raises(InvalidOptionError, match=r"radius=0\.8.*agent_radius=0\.5"):
        crowd.add([[5.0, 5.0]], radius=0.8)
    profile = navmesh.CostProfile("tank", {"road": 0.5})
    with pytest.raises(InvalidOptionError, match="profile"):
        crowd.add([[5.0, 5.0]], radius=R, profile=profile)
    crowd.add([[5.0, 5.0]], radius=0.3)  # a narrower unit is fine: the mesh's paths clear it
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=R)
    with pytest.raises(InvalidOptionError, match="same kind"):
        crowd.set_map(nav)
    with pytest.raises(InvalidOptionError, match="same kind"):
        Crowd(nav).set_map(mesh)
    bare = navmesh.PolyMesh(mesh.vertices, mesh.indptr, mesh.indices, mesh.neighbours, agent_radius=R)
    with pytest.raises(InvalidOptionError, match="without a level"):
        Crowd(bare)
