"""`diagnose`: what is wrong with a waypoint graph (islands, sinks, blocked waypoints)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from navmesh.connectivity import connectivity_report
from navmesh.errors import (
    InvalidOptionError,
    describe,
)
from navmesh.waypoints.navmap import NavMap


# -- diagnostics -------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Diagnostics:
    """What may be wrong with a waypoint graph, for designers.

    Attributes
    ----------
    n_islands : int
        Weakly connected components (ignoring arc direction).
    components : int32 array (n,)
        Island label per node.
    isolated : int32 array
        Nodes without any arc.
    unreachable : int32 array
        Nodes that ``origin`` cannot reach (empty without an origin).
    sinks : int32 array
        Nodes with arcs in but none out (one-way links leading into a dead end).
    sources : int32 array
        Nodes with arcs out but none in.
    one_way_traps : int32 array
        Nodes from which some node of their island cannot be reached back (their strongly
        connected component is smaller than their island).
    blocked : int32 array
        Waypoints outside the walkable area for the agent radius (inside inflated obstacles).
    """

    n_islands: int
    components: NDArray[np.int32]
    isolated: NDArray[np.int32]
    unreachable: NDArray[np.int32]
    sinks: NDArray[np.int32]
    sources: NDArray[np.int32]
    one_way_traps: NDArray[np.int32]
    blocked: NDArray[np.int32]

    @property
    def ok(self) -> bool:
        """True when the graph is one island with no isolated, trapped or blocked waypoint."""
        return (
            self.n_islands <= 1 and not len(self.isolated) and not len(self.unreachable) and not len(self.sinks)
            and not len(self.sources) and not len(self.one_way_traps) and not len(self.blocked)
        )


def diagnose(nav: NavMap, *, origin: int | None = None) -> Diagnostics:
    """Islands, isolated and unreachable waypoints, one-way sinks and sources, blocked waypoints.

    Parameters
    ----------
    nav : NavMap
    origin : int, optional
        A node (e.g. the player's spawn): report the nodes it cannot reach.

    Returns
    -------
    Diagnostics

    Examples
    --------

    >>> from navmesh import Level, build_waypoint_graph
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 10), (4, 10)]],
    ...                         waypoints=[[1, 1], [1, 9], [9, 5]])
    >>> d = diagnose(build_waypoint_graph(level), origin=0)
    >>> d.n_islands, d.isolated.tolist(), d.unreachable.tolist()
    (2, [2], [2])
    """
    if not isinstance(nav, NavMap):
        raise InvalidOptionError(f"nav={describe(nav)} is not a NavMap")
    report = connectivity_report(nav.graph, origin)
    weak = report.components
    strong = report.strong_components
    weak_size = np.bincount(weak, minlength=max(int(weak.max()) + 1, 1)) if len(weak) else np.zeros(0, int)
    strong_size = np.bincount(strong, minlength=max(int(strong.max()) + 1, 1)) if len(strong) else np.zeros(0, int)
    traps = np.flatnonzero(strong_size[strong] < weak_size[weak]).astype(np.int32) if len(weak) else np.zeros(0, np.int32)
    return Diagnostics(
        n_islands=report.n_islands,
        components=weak,
        isolated=report.isolated,
        unreachable=report.unreachable,
        sinks=report.sinks,
        sources=report.sources,
        one_way_traps=traps,
        blocked=nav.blocked_waypoints,
    )
