"""Polygon navigation meshes: the build (:func:`build_navmesh`), the mesh (:class:`PolyMesh`)
and exact any-angle queries on it (:class:`MeshQuery`, Polyanya)."""
