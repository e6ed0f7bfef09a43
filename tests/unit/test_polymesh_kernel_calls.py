"""How MeshQuery calls the Polyanya kernels: find_path's hot call goes to the kernel's compiled
code directly (navmesh.polymesh.workspace.kernel_code) and gives the same paths as numba's
dispatcher; the kernels run without numba's reference counting (navmesh._kernels.polyanya's
notes), so no call may change the reference counts of the arrays it is given, and raycast's
visited polygons come back in the caller's array."""

from __future__ import annotations

import sys

import numpy as np

from navmesh._kernels import polyanya as PK
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery
from navmesh.polymesh.workspace import kernel_code


def _level() -> Level:
    walls = [[(x, 0 if i % 2 else 2), (x + 1, 0 if i % 2 else 2), (x + 1, 18 if i % 2 else 20), (x, 18 if i % 2 else 20)]
             for i, x in enumerate(range(2, 30, 3))]
    return Level.rectangle(32, 20, obstacles=walls + [[(14, 9), (15, 9), (15, 11), (14, 11)]])


def _ends(n: int, seed: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    rng = np.random.default_rng(seed)
    return [((float(rng.uniform(0.2, 1.8)), float(rng.uniform(0.2, 19.8))),
             (float(rng.uniform(30.2, 31.8)), float(rng.uniform(0.2, 19.8)))) for _ in range(n)]


def test_the_hot_call_uses_the_compiled_code_and_equals_the_dispatcher():
    query = MeshQuery(build_navmesh(_level()))
    ends = _ends(30, 1)
    query.find_path(*ends[0])
    call = query._hot[0]
    if hasattr(PK.search, "signatures"):  # compiled (not NUMBA_DISABLE_JIT=1)
        b = query._block
        args = (query._xy_mesh, query._mi, query._ws.wi, query._ws.wf, b.pts, b.polys, 0.0, 0.0, 0.0, 0.0)
        assert call is not PK.search and call is kernel_code(PK.search, args)
        # arguments of other types (a read-only array here) have no code yet: the dispatcher
        assert kernel_code(PK.search, args[:5] + (query._block.pts_ro.reshape(-1),) + args[6:]) is PK.search
    dispatcher = MeshQuery(build_navmesh(_level()))
    for s, g in ends:
        fast = query.find_path(s, g)
        wi, wf, block = dispatcher._ws.wi, dispatcher._ws.wf, dispatcher._block
        status, at, n_pts, n_polys, _, length = PK.search(dispatcher._xy_mesh, dispatcher._mi, wi, wf, block.pts,
                                                          block.polys, s[0], s[1], g[0], g[1])
        assert status == PK.FOUND and at >= 0
        assert np.array_equal(fast.points, block.pts_ro[at:at + n_pts])
        assert np.array_equal(fast.nodes, block.polys_ro[at:at + n_polys]) and fast.cost == length


def test_until_numba_has_the_code_find_path_takes_the_long_way_and_binds_the_code(monkeypatch):
    import navmesh.polymesh.query as QM

    real = QM.kernel_code
    monkeypatch.setattr(QM, "kernel_code", lambda kernel, args: kernel)  # as before the first call compiles it
    query = MeshQuery(build_navmesh(_level()))
    assert query._hot[0] is PK.search and not query._hot_ready
    monkeypatch.setattr(QM, "kernel_code", real)
    s, g = _ends(1, 3)[0]
    first = query.find_path(s, g)
    if hasattr(PK.search, "signatures"):  # compiled (not NUMBA_DISABLE_JIT=1): bound by the long way
        assert query._hot[0] is not PK.search and query._hot_ready
    again = query.find_path(s, g)
    assert np.array_equal(first.points, again.points) and np.array_equal(first.nodes, again.nodes)
    assert first.cost == again.cost and first.expansions == again.expansions


def test_queries_leave_the_reference_counts_of_their_arrays_unchanged():
    query = MeshQuery(build_navmesh(_level()))
    ends = _ends(20, 2)
    query.find_path(*ends[0])
    query.raycast(*ends[0])
    arrays = [query._xy_mesh, query._mi, query._ws.wi, query._ws.wf]
    before = [sys.getrefcount(a) for a in arrays]
    for s, g in ends * 5:
        query.find_path(s, g)
        query.find_path(s, g, max_expansions=10**6)  # the checked route
        query.polygon_at(s)
        query.raycast(s, g)
        search = query.start_search(s, g)
        while not search.advance(3):
            pass
        search.result()
    assert [sys.getrefcount(a) for a in arrays] == before


def test_raycast_reports_its_visited_polygons_in_order():
    query = MeshQuery(build_navmesh(_level()))
    hit = query.raycast([0.5, 19.0], [31.5, 19.0])  # along the top, through the gaps above the low walls
    assert hit.hit  # stopped by the first high wall
    assert hit.polygons[0] == query.polygon_at([0.5, 19.0])
    assert query.polygon_at(hit.point - [1e-6, 0]) == hit.polygons[-1]
    assert len(np.unique(hit.polygons)) == len(hit.polygons)
