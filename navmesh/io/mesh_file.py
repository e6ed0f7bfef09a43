"""Reader and writer of the ``.mesh`` navigation-mesh formats, versions 2 and 3.

Version 2 (Cui and Harabor's Polyanya meshes): ``mesh``, ``2``, ``V P``, then V vertex records
``x y n p1 .. pn`` (the polygons around the vertex, -1 for an obstacle) and P polygon records
``n v1 .. vn p1 .. pn``, vertices zero-based and counter-clockwise, where ``p[i]`` is the polygon
across the edge from ``v[i-1]`` to ``v[i]`` (-1 for none). Version 3: ``mesh``, ``3``, ``V F``,
V records ``x y``, then F records ``trav n v1 .. vn k1 .. kn`` with one-based vertex and face
ids, ``trav`` 1 for a walkable face, ``k[j]`` the face across the edge from ``v[j-1]`` to
``v[j]`` (positive: crossable, negative: not crossable, 0: none). Both are whitespace
insensitive. Faces that are not traversable are dropped on reading.

Polygons are stored counter-clockwise; a file whose polygons run clockwise (meshes drawn with y
growing downward) is read with each polygon reversed, so the mesh's geometry is the file's.
Reading never executes anything; a file that cannot be read raises
:class:`~navmesh.errors.LevelFormatError` naming the file, the line and the field. Writing is
atomic (a temporary file in the same folder, flushed, then ``os.replace``).
"""

from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass
from typing import Literal

import numpy as np

from navmesh._checks import check_path
from navmesh.errors import InvalidOptionError, LevelFormatError, describe
from navmesh.polymesh.mesh import PolyMesh, split_pinches

__all__ = ["load_mesh", "save_mesh", "MESH_VERSIONS"]

MESH_VERSIONS: tuple[int, ...] = (2, 3)


class _Tokens:
    """Whitespace-separated tokens with their line numbers, read with named fields."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.items: list[tuple[str, int]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            self.items.extend((tok, number) for tok in line.split())
        self.pos = 0

    def fail(self, field: str, why: str, line: int | None = None) -> LevelFormatError:
        if line is None:
            line = self.items[min(self.pos, len(self.items) - 1)][1] if self.items else 1
        return LevelFormatError(f"{self.path}: line {line}: {field}: {why}")

    def take(self, field: str) -> tuple[str, int]:
        if self.pos >= len(self.items):
            raise self.fail(field, "the file ends too early")
        tok = self.items[self.pos]
        self.pos += 1
        return tok

    def number(self, field: str) -> float:
        tok, line = self.take(field)
        try:
            value = float(tok)
        except ValueError:
            raise self.fail(field, f"{describe(tok)} is not a number", line) from None
        if not math.isfinite(value):
            raise self.fail(field, f"{describe(tok)} is not a finite number", line)
        return value

    def integer(self, field: str, lo: int, hi: int) -> int:
        tok, line = self.take(field)
        try:
            value = int(tok)
        except ValueError:
            raise self.fail(field, f"{describe(tok)} is not an integer", line) from None
        if not lo <= value <= hi:
            raise self.fail(field, f"{value} is out of range; expected {lo} to {hi}", line)
        return value


@dataclass(frozen=True)
class _Format:
    """What sets one version of the format apart from the other."""

    base: int  # id of the first vertex and polygon in the file
    polygon: str  # what the file calls a polygon (used in error messages)
    vertex_rings: bool  # vertex records list the polygons around the vertex (v2)
    traversable_flag: bool  # polygon records start with a 0/1 traversable flag (v3)
    negative_ids: bool  # a negative neighbour id names a polygon that cannot be crossed (v3)


_FORMATS = {2: _Format(0, "polygon", True, False, False), 3: _Format(1, "face", False, True, True)}
_MAX_COUNT = 2**31 - 1


def _read(tok: _Tokens, fmt: _Format):
    """(vertices, indptr, indices, neighbours) of the traversable polygons, neighbours renumbered
    and moved to this package's convention (slot i: the edge v[i] -> v[i+1])."""
    b = fmt.base
    n_v = tok.integer("vertex count", 0, _MAX_COUNT)
    n_p = tok.integer(f"{fmt.polygon} count", 0, _MAX_COUNT)
    xy = np.empty((n_v, 2))
    for i in range(n_v):
        xy[i, 0] = tok.number(f"vertex {i + b} x")
        xy[i, 1] = tok.number(f"vertex {i + b} y")
        if fmt.vertex_rings:  # checked, not needed: adjacency comes from the polygon records
            for j in range(tok.integer(f"vertex {i + b} neighbour count", 0, _MAX_COUNT)):
                tok.integer(f"vertex {i + b} polygon {j}", b - 1, n_p - 1 + b)
    lowest = -n_p if fmt.negative_ids else b - 1
    records = []
    for p in range(n_p):
        name = f"{fmt.polygon} {p + b}"
        walkable = tok.integer(f"{name} traversable flag", 0, 1) if fmt.traversable_flag else 1
        n = tok.integer(f"{name} vertex count", 3, max(n_v, 3))
        vs = [tok.integer(f"{name} vertex {j + b}", b, n_v - 1 + b) - b for j in range(n)]
        ks = [tok.integer(f"{name} neighbour {j + b}", lowest, n_p - 1 + b) - b for j in range(n)]
        records.append((walkable, vs, ks))
    new_id = np.cumsum([w for w, _, _ in records]) - 1  # ids after dropping untraversable ones
    ptr, idx, nbr = [0], [], []
    for walkable, vs, ks in records:
        if not walkable:
            continue
        ps = [int(new_id[k]) if k >= 0 and records[k][0] else -1 for k in ks]
        idx.extend(vs)
        nbr.extend(ps[1:] + ps[:1])  # file: p[i] across v[i-1]-v[i]; here: slot i across v[i]-v[i+1]
        ptr.append(len(idx))
    return xy, ptr, idx, nbr


def _counter_clockwise(xy, ptr, idx, nbr):
    """Reverse clockwise polygons (and their neighbour lists) in place."""
    ptr = np.asarray(ptr, np.int64)
    idx = np.asarray(idx, np.int64)
    nbr = np.asarray(nbr, np.int64)
    for p in range(len(ptr) - 1):
        lo, hi = int(ptr[p]), int(ptr[p + 1])
        v = idx[lo:hi]
        pts = xy[v]
        area = float(np.sum(pts[:, 0] * np.roll(pts[:, 1], -1) - np.roll(pts[:, 0], -1) * pts[:, 1]))
        if area < 0:
            n = hi - lo
            old = nbr[lo:hi].copy()
            idx[lo:hi] = v[::-1]
            nbr[lo:hi] = old[(n - 2 - np.arange(n)) % n]
    return ptr, idx, nbr


def load_mesh(path: str | os.PathLike[str]) -> PolyMesh:
    """Read a ``.mesh`` file (version 2 or 3).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    PolyMesh
        The walkable polygons (``agent_radius`` 0, no terrain tags).

    Raises
    ------
    LevelFormatError
        The file is not a mesh file of version 2 or 3, or a record is wrong (the message names
        the file, the line and the field).
    FileNotFoundError
        No such file.

    Examples
    --------
    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "two.mesh")
    >>> with open(target, "w") as fh:
    ...     _ = fh.write("mesh 2 4 2  0 0 2 0 -1  1.5 0 3 0 1 -1  1.5 1.5 2 1 -1  0 1.5 3 -1 1 0"
    ...                  "  3 0 1 3 -1 -1 1  3 1 2 3 0 -1 -1")
    >>> load_mesh(target)
    PolyMesh(2 polygons, 4 vertices, agent_radius=0)
    """
    name = check_path("path", path)
    with open(name, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    tok = _Tokens(str(name), text)
    head, line = tok.take("header")
    if head != "mesh":
        raise tok.fail("header", f"{describe(head)} is not 'mesh'", line)
    version = tok.integer("version", 2, 3)
    xy, ptr, idx, nbr = _read(tok, _FORMATS[version])
    if tok.pos != len(tok.items):
        raise tok.fail("end of file", f"{len(tok.items) - tok.pos} unexpected extra values", tok.items[tok.pos][1])
    ptr, idx, nbr = _counter_clockwise(xy, ptr, idx, nbr)
    xy2, idx2 = split_pinches(xy, ptr, idx, nbr)
    try:
        return PolyMesh(xy2, ptr, idx2, nbr)
    except Exception as exc:  # an inconsistent mesh is a bad file
        raise LevelFormatError(f"{name}: line 1: polygons: {exc}") from None


def _vertex_polygons(mesh: PolyMesh) -> list[list[int]]:
    """Per vertex, the polygons around it counter-clockwise, with -1 for each wall gap."""
    around: list[list[int]] = [[] for _ in range(mesh.n_vertices)]
    for e, v in enumerate(mesh.indices.tolist()):
        around[v].append(int(mesh.polygon_of[e]))
    shapes = mesh.vertices[mesh.indices]
    centre = np.add.reduceat(shapes, mesh.indptr[:-1], axis=0) / np.diff(mesh.indptr)[:, None] if mesh.n_polygons else shapes
    pairs = set()
    for e in range(len(mesh.indices)):
        q = int(mesh.neighbours[e])
        if q >= 0:
            pairs.add((int(mesh.polygon_of[e]), q))
    out = []
    for v, polys in enumerate(around):
        d = centre[polys] - mesh.vertices[v]
        order = [polys[i] for i in np.argsort(np.arctan2(d[:, 1], d[:, 0]))]
        ring: list[int] = []
        for i, p in enumerate(order):
            ring.append(p)
            q = order[(i + 1) % len(order)]
            if len(order) == 1 or (p, q) not in pairs:
                ring.append(-1)
        if not mesh.on_wall[v]:
            ring = [p for p in ring if p >= 0]
        out.append(ring)
    return out


def save_mesh(mesh: PolyMesh, path: str | os.PathLike[str], *, version: Literal[2, 3] = 2) -> None:
    """Write ``mesh`` to a ``.mesh`` file atomically (terrain tags are not stored).

    Parameters
    ----------
    mesh : PolyMesh
    path : str or path-like
        Target file; its folder must exist.
    version : {2, 3}
        File format version.

    Raises
    ------
    InvalidOptionError
        ``mesh`` is not a PolyMesh or ``version`` is not 2 or 3.
    OSError
        The file could not be written (``path`` is left as it was).

    Examples
    --------
    >>> import os, tempfile
    >>> mesh = PolyMesh([[0, 0], [2, 0], [2, 1], [0, 1]], [0, 4], [0, 1, 2, 3], [-1, -1, -1, -1])
    >>> target = os.path.join(tempfile.mkdtemp(), "box.mesh")
    >>> save_mesh(mesh, target, version=3)
    >>> load_mesh(target) == mesh
    True
    """
    if not isinstance(mesh, PolyMesh):
        raise InvalidOptionError(f"mesh={describe(mesh)} is not a PolyMesh")
    if isinstance(version, bool) or version not in MESH_VERSIONS:
        raise InvalidOptionError(f"version={describe(version)} is not valid; expected 2 or 3")
    target = os.path.realpath(check_path("path", path))
    lines = ["mesh", str(version), f"{mesh.n_vertices} {mesh.n_polygons}"]
    xy = mesh.vertices
    if version == 2:
        rings = _vertex_polygons(mesh)
        for v in range(mesh.n_vertices):
            lines.append(" ".join([repr(float(xy[v, 0])), repr(float(xy[v, 1])), str(len(rings[v]))] + list(map(str, rings[v]))))
    else:
        lines.extend(f"{float(x)!r} {float(y)!r}" for x, y in xy)
    for p in range(mesh.n_polygons):
        lo, hi = int(mesh.indptr[p]), int(mesh.indptr[p + 1])
        vs = mesh.indices[lo:hi].tolist()
        ps = mesh.neighbours[lo:hi].tolist()
        ps = ps[-1:] + ps[:-1]  # back to "p[i] across v[i-1]-v[i]"
        if version == 2:
            lines.append(" ".join(map(str, [len(vs), *vs, *ps])))
        else:
            lines.append(" ".join(map(str, [1, len(vs), *[v + 1 for v in vs], *[q + 1 if q >= 0 else 0 for q in ps]])))
    text = "\n".join(lines) + "\n"
    folder = os.path.dirname(target) or "."
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(target) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
