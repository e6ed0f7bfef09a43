"""Point location (navmesh.polymesh.locate and the kernel's OP_LOCATE): the bucket grid's cut
lists give exactly the polygons a test of every edge of every polygon gives, in mesh order,
for points inside polygons, on shared edges and vertices, on the cells' own borders, and off
the mesh."""

from __future__ import annotations

import numpy as np

from navmesh._kernels import polyanya as PK
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.locate import bucket_grid
from navmesh.polymesh.query import MeshQuery


def _level() -> Level:
    walls = [[(x, 0 if i % 2 else 2), (x + 1, 0 if i % 2 else 2), (x + 1, 18 if i % 2 else 20), (x, 18 if i % 2 else 20)]
             for i, x in enumerate(range(2, 30, 3))]
    return Level.rectangle(32, 20, obstacles=walls + [[(14, 9), (15, 9), (15, 11), (14, 11)], [(20, 3), (23, 5), (21, 7)]])


def _every_polygon(mesh, x: float, y: float) -> list[int]:
    """The polygons whose closed area holds (x, y): every edge of every polygon tested, as the
    kernel tests one (independent of the grid)."""
    v, ip, ind = mesh.vertices, mesh.indptr, mesh.indices
    out = []
    for p in range(mesh.n_polygons):
        lo, hi = ip[p], ip[p + 1]
        inside = True
        for e in range(lo, hi):
            a, b = ind[e], ind[e + 1] if e + 1 < hi else ind[lo]
            if (v[b, 0] - v[a, 0]) * (y - v[a, 1]) - (v[b, 1] - v[a, 1]) * (x - v[a, 0]) < 0.0:
                inside = False
                break
        if inside:
            out.append(p)
    return out


def _points(mesh, seed: int) -> list[tuple[float, float]]:
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = mesh.bounds
    grid = bucket_grid(mesh).grid
    size = 1.0 / grid[2]
    pts = [tuple(p) for p in rng.uniform((x0 - 1, y0 - 1), (x1 + 1, y1 + 1), (300, 2))]
    pts += [tuple(map(float, p)) for p in mesh.vertices]  # on vertices: every polygon around them
    a = mesh.vertices[mesh.indices]
    b = mesh.vertices[np.roll(mesh.indices, -1)]
    pts += [tuple(p) for p in (a + (b - a) * rng.uniform(0, 1, (len(a), 1)))]  # on (or a hair off) edges
    cx = grid[0] + size * rng.integers(0, int(grid[3]) + 1, 100)  # on the cells' borders
    cy = grid[1] + size * rng.integers(0, int(grid[4]) + 1, 100)
    pts += list(zip(cx.tolist(), rng.uniform(y0, y1, 100).tolist())) + list(zip(rng.uniform(x0, x1, 100).tolist(), cy.tolist()))
    pts += [(float(x), float(y)) for x in range(int(x0), int(x1) + 1) for y in range(int(y0), int(y1) + 1)]
    return pts


def test_located_polygons_equal_a_test_of_every_polygon():
    for radius in (0.0, 0.35):
        mesh = build_navmesh(_level(), agent_radius=radius)
        query = MeshQuery(mesh)
        at = int(query._ws.wi[1 + PK.W_START_POLYS])
        for x, y in _points(mesh, 3):
            n = query._kernel(PK.OP_LOCATE, query._ws, (x, y))[0]
            assert query._ws.wi[at:at + n].tolist() == _every_polygon(mesh, x, y), (radius, x, y)


def test_cell_lists_leave_out_most_polygons_and_edges_of_a_small_mesh():
    # the cuts must do something: a fine grid's cells list few polygons and fewer edges than
    # the polygons' bounding boxes would give
    mesh = build_navmesh(_level())
    g = bucket_grid(mesh)
    records = tests = 0
    k = 0
    while k < len(g.cell_polys):
        records += 1
        tests += int(g.cell_polys[k + 1])
        k += 2 + int(g.cell_polys[k + 1])
    cells = len(g.cell_ptr) - 1
    assert cells >= 16 * mesh.n_polygons
    assert records < 2 * cells and tests < records
