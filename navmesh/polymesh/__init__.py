"""Polygon navigation meshes: the build (:func:`build_navmesh`), the mesh (:class:`PolyMesh`)
and exact any-angle queries on it (:class:`MeshQuery`, Polyanya).

One job per module: :mod:`~navmesh.polymesh.mesh` (the immutable arrays),
:mod:`~navmesh.polymesh.build` (level -> mesh), :mod:`~navmesh.polymesh.update` (local
updates: doors), :mod:`~navmesh.polymesh.locate` (point location), :mod:`~navmesh.polymesh.query`
(paths, raycasts, random points), :mod:`~navmesh.polymesh.sliced` (searches spread over frames);
the search kernel is :mod:`navmesh._kernels.polyanya` and the files are :mod:`navmesh.io.mesh_file`.
"""

from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.mesh import PolyMesh
from navmesh.polymesh.query import MeshQuery, MeshRaycast
from navmesh.polymesh.sliced import MeshSlicedSearch
from navmesh.polymesh.update import with_obstacle, without_obstacle

__all__ = ["build_navmesh", "PolyMesh", "MeshQuery", "MeshRaycast", "MeshSlicedSearch", "with_obstacle",
           "without_obstacle"]
