"""A sliced search on a mesh gives what find_path gives, whatever the budget per slice."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navmesh import NavQuery
from navmesh.errors import InvalidOptionError, NoPathError, SearchBudgetError
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery
from navmesh.polymesh.sliced import MeshSlicedSearch, start_search
from navmesh.terrain import CostProfile, TerrainRegion


@st.composite
def meshes(draw):
    obstacles = []
    for _ in range(draw(st.integers(0, 8))):
        x, y = draw(st.integers(1, 17)), draw(st.integers(1, 17))
        w, h = draw(st.integers(1, 3)), draw(st.integers(1, 6))
        if draw(st.booleans()):
            obstacles.append(shapely.box(x, y, min(x + w, 19), min(y + h, 19)))
        else:  # slanted
            obstacles.append(shapely.Polygon([(x, y), (min(x + w + 1.3, 19.5), y + 0.5), (x + 0.7, min(y + h, 19))]))
    terrain = [TerrainRegion(shapely.box(2, 2, 9, 7), "mud")] if draw(st.booleans()) else []
    level = Level((0, 0, 20, 20), obstacles=obstacles, terrain=terrain)
    return build_navmesh(level, agent_radius=draw(st.sampled_from([0.0, 0.4])))


def _outcome(run):
    try:
        return run()
    except (NoPathError, SearchBudgetError) as err:
        return type(err)


def _sliced(query, s, g, step, **options):
    search = query.start_search(s, g, **options)
    frames = 0
    while not search.advance(step):
        frames += 1
        assert search.expansions == frames * step  # a full slice each unfinished frame
    assert search.finished
    return _outcome(search.result)


def _same(a, b):
    if isinstance(a, type) or isinstance(b, type):
        assert a is b
        return
    assert np.array_equal(a.points, b.points)
    assert np.array_equal(a.nodes, b.nodes)
    assert (a.cost, a.expansions, a.partial, a.start_moved, a.goal_moved) == \
        (b.cost, b.expansions, b.partial, b.start_moved, b.goal_moved)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meshes(), st.randoms(use_true_random=False), st.sampled_from([1, 2, 3, 7, 50, 10**6]),
       st.sampled_from([None, 1, 4, 20]), st.booleans(), st.booleans())
def test_sliced_result_equals_find_path_for_any_budget(mesh, rnd, step, cap, partial, muddy):
    if not mesh.n_polygons:
        return
    profile = CostProfile("muddy", multipliers={"mud": 3.0}) if muddy else None
    query = MeshQuery(mesh, profile)
    for _ in range(6):
        s = [rnd.uniform(-0.5, 20.5), rnd.uniform(-0.5, 20.5)]  # some off the mesh: moved onto it
        g = [rnd.uniform(-0.5, 20.5), rnd.uniform(-0.5, 20.5)]
        options = {"max_expansions": cap, "allow_partial": partial}
        want = _outcome(lambda: query.find_path(s, g, **options))
        _same(_sliced(query, s, g, step, **options), want)


def test_slices_interleave_with_other_queries_and_one_expansion_per_frame():
    level = Level.rectangle(30, 30, obstacles=[shapely.box(x, 3, x + 1, 27) for x in range(4, 27, 4)])
    query = NavQuery(build_navmesh(level, agent_radius=0.3))
    assert isinstance(query, MeshQuery)
    searches = [query.start_search([1, 1], [29, 29]), start_search(query, [1, 29], [29, 1])]
    assert all(isinstance(x, MeshSlicedSearch) for x in searches)
    frames = 0
    while not all([x.advance(1) for x in searches]):
        query.find_path([2, 2], [28, 2])  # other queries between slices use the query's own pool
        frames += 1
    assert frames >= 5  # the search really was spread over frames
    for x, (s, g) in zip(searches, [([1, 1], [29, 29]), ([1, 29], [29, 1])]):
        _same(x.result(), query.find_path(s, g))
    assert searches[0].result() is searches[0].result()


def test_unfinished_and_bad_options_raise_clear_errors():
    # a free-standing wall: the search must go round it (inside one dead-end branch the funnel
    # answers when the search starts)
    query = MeshQuery(build_navmesh(Level.rectangle(10, 10, obstacles=[[(4, 1), (6, 1), (6, 8), (4, 8)]])))
    search = query.start_search([1, 1], [9, 1])
    assert not search.finished
    with pytest.raises(InvalidOptionError, match="has not finished"):
        search.result()
    with pytest.raises(InvalidOptionError, match="max_expansions=0"):
        search.advance(0)
    with pytest.raises(InvalidOptionError, match="max_expansions"):
        query.start_search([1, 1], [9, 1], max_expansions=-3)
    walled = MeshQuery(build_navmesh(Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 10), (4, 10)]])))
    apart = walled.start_search([1, 1], [9, 1])
    assert apart.finished  # known at once: different components
    with pytest.raises(NoPathError):
        apart.result()


def test_one_expansion_per_slice_keeps_the_expansion_order_on_a_cluttered_level():
    # many ties and lone successors (expanded at once, off the heap): a slice that ended with a
    # node in hand must expand that node first, or the order - and so the count - drifts
    obstacles = [shapely.box(x, y, x + 1.5, y + 0.7) for x in range(2, 38, 4) for y in range(2, 38, 3)]
    obstacles += [shapely.Polygon([(x + 1, y + 1), (x + 2.3, y + 1.4), (x + 1.5, y + 2.6)])
                  for x in range(0, 36, 5) for y in range(0, 36, 5)]
    query = MeshQuery(build_navmesh(Level((0, 0, 40, 40), obstacles=obstacles)))
    rng = np.random.default_rng(3)
    checked = 0
    for s, g in rng.uniform(0, 40, (60, 2, 2)):
        want = _outcome(lambda: query.find_path(s, g))
        if isinstance(want, type):
            continue
        _same(_sliced(query, s, g, 1), want)
        checked += want.expansions > 3
    assert checked >= 30
