"""The mesh's exactness check of the property tests: a path on a PolyMesh against the exact
visibility graph (the ``k=None`` corner waypoint graph of the same level and radius)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from navmesh.errors import NodeNotFoundError, NoPathError


def check_against_visibility_graph(query: Any, oracle: Any, start: Any, goal: Any) -> Any:
    """Assert that ``query`` (a MeshQuery) finds the cost the ``oracle`` (a NavQuery on the
    visibility graph) finds from ``start`` to ``goal`` (relative 1e-6), or no path when the
    oracle finds none. Returns the mesh's Path, or None when there was none to compare: no path,
    or an endpoint the waypoint graph calls unwalkable (shapely's rounding at a mesh edge)."""
    try:
        want = oracle.find_path(start, goal, refine="none", strict=True)
    except NoPathError:
        with pytest.raises(NoPathError):
            query.find_path(start, goal)
        return None
    except NodeNotFoundError:
        return None
    got = query.find_path(start, goal)
    assert got.cost == pytest.approx(want.cost, rel=1e-6, abs=1e-9), (np.asarray(start).tolist(), np.asarray(goal).tolist())
    return got
