"""One blocked-waypoint policy: a waypoint in a wall meets the map's ``on_blocked_waypoint`` alone.

A waypoint outside the walkable area for the agent radius is kept as a node without automatic
links (``"warn"``, one warning), removed (``"drop"``) or refused (``"error"``), whatever ``k`` and
``linking`` say; manual links still reach a kept one, and a position never joins it. A door
closing over a waypoint (``NavMap.with_obstacle``) meets the same policy, once: before, Level's
own ``on_bad_waypoint`` check also warned about it, so one waypoint gave two warnings from two
rules. The linking stage skips blocked waypoints explicitly (it used to rely on their line-of-
sight tests failing).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from navmesh.errors import InvalidGeometryError, NavmeshWarning
from navmesh.level import Level, Link
from navmesh.waypoints.build import ARC_LINK, build_waypoint_graph
from navmesh.waypoints.options import ARC_WALK
from navmesh.waypoints.query import NavQuery

# a 4 x 4 pillar; with agent_radius=1 the blocked area is (3, 3)-(8, 8)
PILLAR = [(4, 4), (7, 4), (7, 7), (4, 7)]
# waypoint 0 stands in the inflated pillar (outside the raw one), in plain sight of the others
WAYPOINTS = [[3.5, 5.5], [2, 2], [2, 9], [9, 2], [9, 9], [1.5, 5.5]]
OPTIONS = [
    dict(k=None),
    dict(k=2),
    dict(k=2, max_candidates=2),
    dict(k=3, linking="cones", corners=True),
    dict(k=None, visibility="kernel"),
]


def _build(links=(), **options):
    level = Level.rectangle(11, 11, obstacles=[PILLAR], waypoints=WAYPOINTS, links=list(links))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        return build_waypoint_graph(level, agent_radius=1.0, **options)


def _walk_arcs(nav):
    g = nav.graph
    src = np.repeat(np.arange(g.n_nodes), np.diff(g.indptr))
    walk = nav.arc_kinds == ARC_WALK
    return src[walk], g.indices[walk]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_a_blocked_waypoint_gets_no_automatic_link_in_any_linking(options):
    nav = _build(**options)
    assert nav.blocked_waypoints.tolist() == [0]
    src, dst = _walk_arcs(nav)
    assert 0 not in src and 0 not in dst
    # the others still link: waypoint 5 sees 1 and 2 (west of the pillar)
    assert len(src) > 0 and 5 in src


def test_nearest_linking_skips_blocked_candidates_and_keeps_k_links():
    # waypoint 5's nearest candidate is the blocked waypoint 0 (2 units away); it links to its
    # two nearest *free* visible waypoints instead
    nav = _build(k=2)
    src, dst = _walk_arcs(nav)
    chosen_by_5 = set(dst[src == 5].tolist())
    assert 0 not in chosen_by_5 and {1, 2} <= chosen_by_5


def test_manual_links_still_reach_a_blocked_waypoint():
    nav = _build(links=[Link(0, 5, "forced")], k=None)
    g = nav.graph
    assert set(g.neighbors(0).tolist()) == {5}
    kinds = nav.arc_kinds[g.indptr[0]:g.indptr[1]]
    assert (kinds == ARC_LINK).all()


@pytest.mark.parametrize("options", OPTIONS[:2], ids=["k=None", "k=2"])
def test_positions_never_join_a_blocked_waypoint(options):
    nav = _build(**options)
    query = NavQuery(nav)
    # right next to the blocked waypoint, with it the nearest node in sight
    assert query.snap([2.2, 5.5]) != 0
    path = query.find_path([2.2, 5.5], [9.5, 5.5], refine="none")
    assert 0 not in path.nodes.tolist()


def test_a_blocked_flag_flipping_under_a_door_updates_like_a_rebuild():
    # a door over waypoint 1 blocks it; rows that had it as a candidate choose again
    nav = _build(k=2)
    door = [(1.2, 1.2), (2.8, 1.2), (2.8, 2.8), (1.2, 2.8)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        updated = nav.with_obstacle(door)
        rebuilt = build_waypoint_graph(updated.level, k=2, agent_radius=1.0)
    assert updated.blocked_waypoints.tolist() == rebuilt.blocked_waypoints.tolist() == [0, 1]
    np.testing.assert_array_equal(updated.graph.indptr, rebuilt.graph.indptr)
    np.testing.assert_array_equal(updated.graph.indices, rebuilt.graph.indices)
    src, dst = _walk_arcs(updated)
    assert 1 not in src and 1 not in dst


# -- a door closing over a waypoint meets the map's own policy, once ------------------------------
DOOR_OVER_1 = [(1, 1), (3, 1), (3, 3), (1, 3)]  # strictly covers waypoint 1 at (2, 2)


def _door_update(policy):
    level = Level.rectangle(11, 11, obstacles=[PILLAR], waypoints=WAYPOINTS[1:])
    nav = build_waypoint_graph(level, k=2, agent_radius=0.5, on_blocked_waypoint=policy)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        updated = nav.with_obstacle(DOOR_OVER_1)
    return updated, [w for w in caught if issubclass(w.category, NavmeshWarning)]


def test_a_door_over_a_waypoint_warns_once_and_keeps_it_unlinked():
    updated, caught = _door_update("warn")
    assert len(caught) == 1 and "no automatic links" in str(caught[0].message)
    assert updated.blocked_waypoints.tolist() == [0]
    assert updated.graph.neighbors(0).tolist() == []


def test_a_door_over_a_waypoint_drops_it_under_drop():
    updated, caught = _door_update("drop")
    assert len(caught) == 1 and "dropped 1 waypoints" in str(caught[0].message)
    assert updated.n_nodes == len(WAYPOINTS) - 2 and updated.blocked_waypoints.tolist() == []


def test_a_door_over_a_waypoint_raises_under_error():
    level = Level.rectangle(11, 11, obstacles=[PILLAR], waypoints=WAYPOINTS[1:])
    nav = build_waypoint_graph(level, k=2, agent_radius=0.5, on_blocked_waypoint="error")
    with pytest.raises(InvalidGeometryError, match=r"waypoints\[0\]=\[2.0, 2.0\].*on_blocked_waypoint"):
        nav.with_obstacle(DOOR_OVER_1)


def test_build_and_level_share_one_set_of_policies():
    from navmesh.level import BAD_WAYPOINT_POLICIES
    from navmesh.waypoints.options import BLOCKED_POLICIES

    assert BLOCKED_POLICIES is BAD_WAYPOINT_POLICIES
