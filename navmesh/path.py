"""Result objects of searches: `Path`, `ShortestPathTree`, `RouteTable` and `SearchTrace`.

All are immutable values holding read-only numpy arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from navmesh._checks import check_node
from navmesh._kernels.heap import trace_back
from navmesh.errors import NoPathError

if TYPE_CHECKING:
    from navmesh.graph import NavGraph

__all__ = ["Path", "ShortestPathTree", "RouteTable", "SearchTrace"]


def _frozen(arr: NDArray, dtype: type) -> NDArray:
    out = np.ascontiguousarray(arr, dtype=dtype)
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False)
class Path:
    """A path found by a search.

    Attributes
    ----------
    nodes : int32 array of shape (k,)
        Graph node ids from start to end (grid searches: flat cell ids ``row * width + col``).
    points : float64 array of shape (p, d)
        World positions to travel through. Usually ``graph.points[nodes]``; level queries add the
        exact start and goal positions and smoothing may drop nodes.
    cost : float
        Total cost under the weights of the search (BFS: number of arcs).
    expansions : int
        Nodes the search expanded (0 when no search ran).
    partial : bool
        True when the goal was not reached and this path leads to the reached node nearest the goal.
    start_moved, goal_moved : bool
        Position queries only (``NavQuery.find_path``, ``GridMap.find_path``): True when the
        asked start (goal) was not walkable (inside an obstacle inflated by the agent radius,
        within the bounds but outside the eroded area, or a blocked grid cell) and the path
        starts (ends) at the nearest walkable point (grid: the centre of the nearest passable
        cell) instead; ``strict=True`` raises instead of moving. A position within
        :data:`~navmesh.endpoints.ENDPOINT_TOLERANCE` times the level's size of the walkable
        area counts as walkable: it may be pushed inside by at most about that much, unreported,
        so every point of a returned path is a valid endpoint again. How far an endpoint moved
        is ``|points[0] - start|`` (``|points[-1] - goal|``).

    Notes
    -----
    ``Path(...)`` converts and freezes its arrays. The library's own searches make their paths
    with :meth:`_trusted`, which takes arrays they have just made (of the right dtype, owned by
    nobody else) and only marks them read-only: a find_path of a few microseconds must not spend
    as much again on checks of its own output; :meth:`_views` takes arrays that are read-only
    already (views of a read-only block, see :mod:`navmesh.polymesh.workspace`).
    """

    nodes: NDArray[np.int32]
    points: NDArray[np.float64]
    cost: float
    expansions: int = 0
    partial: bool = False
    start_moved: bool = False
    goal_moved: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "nodes", _frozen(self.nodes, np.int32))
        object.__setattr__(self, "points", _frozen(self.points, np.float64))
        object.__setattr__(self, "cost", float(self.cost))

    @classmethod
    def _trusted(cls, nodes: NDArray[np.int32], points: NDArray[np.float64], cost: float, expansions: int,
                 partial: bool, start_moved: bool, goal_moved: bool) -> Path:
        """A Path of arrays the library has just made: ``nodes`` a fresh contiguous int32 array,
        ``points`` a fresh contiguous (p, 2) or (p, d) float64 array, ``cost`` a Python float;
        nothing is converted, the arrays are only made read-only (library use only)."""
        nodes.setflags(write=False)
        points.setflags(write=False)
        path = _new(cls)
        _set(path, "__dict__", {"nodes": nodes, "points": points, "cost": cost, "expansions": expansions,
                                "partial": partial, "start_moved": start_moved, "goal_moved": goal_moved})
        return path

    @classmethod
    def _views(cls, nodes: NDArray[np.int32], points: NDArray[np.float64], cost: float, expansions: int) -> Path:
        """A complete, not partial Path of read-only arrays the library has just made (``nodes``
        int32 of shape (k,), ``points`` float64 of shape (p, 2), ``cost`` a Python float): taken as
        they are (library use only). The flags left out read their defaults (False) from the class."""
        path = _new(cls)
        fields = path.__dict__  # filled in place: quicker than assigning a new dictionary
        fields["nodes"] = nodes
        fields["points"] = points
        fields["cost"] = cost
        fields["expansions"] = expansions
        return path

    @property
    def length(self) -> float:
        """Geometric length of the polyline through ``points`` (world units)."""
        if len(self.points) < 2:
            return 0.0
        return float(np.sqrt((np.diff(self.points, axis=0) ** 2).sum(axis=1)).sum())

    def __len__(self) -> int:
        return len(self.points)

    def __repr__(self) -> str:
        tag = ", partial" if self.partial else ""
        return f"Path({len(self.nodes)} nodes, cost={self.cost:.6g}{tag})"


_new = object.__new__
_set = object.__setattr__  # a frozen dataclass refuses plain assignment: its fields go in as one dictionary


def path_from_parents(
    parent: NDArray[np.int32],
    end: int,
    points: NDArray[np.float64],
    cost: float,
    *,
    expansions: int = 0,
    partial: bool = False,
) -> Path:
    """Follow ``parent`` links back from ``end`` (until -1) and wrap the chain in a :class:`Path`."""
    # a writeable array, as the search kernels pass it: one compiled trace_back for both
    nodes = trace_back(parent if parent.flags.writeable else parent.copy(), end)
    return Path(nodes, points[nodes], cost, expansions, partial)


@dataclass(frozen=True, eq=False)
class ShortestPathTree:
    """Costs and parent links from one or several sources to every node.

    Attributes
    ----------
    cost : float64 array of shape (n,)
        Cost from the nearest source (``inf`` when unreached; BFS trees: number of arcs).
    parent : int32 array of shape (n,)
        Previous node on the best path, -1 at sources and unreached nodes.
    origin : int32 array of shape (n,)
        The source each node is reached from (its nearest source), -1 when unreached.
    """

    graph: "NavGraph" = field(repr=False)
    cost: NDArray[np.float64]
    parent: NDArray[np.int32]
    origin: NDArray[np.int32]
    expansions: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "cost", _frozen(self.cost, np.float64))
        object.__setattr__(self, "parent", _frozen(self.parent, np.int32))
        object.__setattr__(self, "origin", _frozen(self.origin, np.int32))

    def reached(self, node: int) -> bool:
        """Whether ``node`` was reached (within the limit, if any)."""
        return bool(np.isfinite(self.cost[check_node("node", node, len(self.cost))]))

    def path_to(self, node: int) -> Path:
        """The best path from its nearest source to ``node``; raises NoPathError if unreached."""
        v = check_node("node", node, len(self.cost))
        if not np.isfinite(self.cost[v]):
            raise NoPathError(f"node {v} is not reachable from the sources (or lies beyond the limit)")
        return path_from_parents(self.parent, v, self.graph.points, self.cost[v], expansions=self.expansions)


@dataclass(frozen=True, eq=False)
class RouteTable:
    """All-pairs costs and next hops: O(1) ``next_hop(u, v)``, paths by following hops.

    Attributes
    ----------
    costs : float64 array of shape (n, n)
        ``costs[u, v]`` is the cheapest cost from u to v (``inf`` when unreachable).
    next_hops : int32 array of shape (n, n)
        First node after u on a cheapest path to v; ``v`` itself when u == v; -1 when unreachable.
    """

    graph: "NavGraph" = field(repr=False)
    costs: NDArray[np.float64]
    next_hops: NDArray[np.int32]

    def __post_init__(self) -> None:
        object.__setattr__(self, "costs", _frozen(self.costs, np.float64))
        object.__setattr__(self, "next_hops", _frozen(self.next_hops, np.int32))

    def next_hop(self, u: int, v: int) -> int:
        """First node to go to from ``u`` towards ``v`` (-1 when v is unreachable)."""
        n = len(self.costs)
        return int(self.next_hops[check_node("u", u, n), check_node("v", v, n)])

    def cost(self, u: int, v: int) -> float:
        """Cheapest cost from ``u`` to ``v`` (``inf`` when unreachable)."""
        n = len(self.costs)
        return float(self.costs[check_node("u", u, n), check_node("v", v, n)])

    def path(self, u: int, v: int) -> Path:
        """The cheapest path from ``u`` to ``v`` by following next hops; NoPathError if none."""
        n = len(self.costs)
        u, v = check_node("u", u, n), check_node("v", v, n)
        if not np.isfinite(self.costs[u, v]):
            raise NoPathError(f"no path from node {u} to node {v}")
        chain = [u]
        while chain[-1] != v:
            chain.append(int(self.next_hops[chain[-1], v]))
        nodes = np.array(chain, dtype=np.int32)
        return Path(nodes, self.graph.points[nodes], self.costs[u, v])


@dataclass(frozen=True, eq=False)
class SearchTrace:
    """A search recorded step by step, for visualising the frontier.

    Attributes
    ----------
    expanded : int32 array of shape (e,)
        Nodes in the order they were expanded (taken off the open list).
    opened : int32 array of shape (o,)
        Nodes in the order they were opened or improved (pushed onto the open list).
    opened_parent : int32 array of shape (o,)
        The node each ``opened`` entry was reached from.
    opened_step : int32 array of shape (o,)
        Index into ``expanded`` of the expansion that opened it (-1 for the start).
    path : Path
        The result; partial when the goal was not reached.
    """

    expanded: NDArray[np.int32]
    opened: NDArray[np.int32]
    opened_parent: NDArray[np.int32]
    opened_step: NDArray[np.int32]
    path: Path

    def __post_init__(self) -> None:
        for name in ("expanded", "opened", "opened_parent", "opened_step"):
            object.__setattr__(self, name, _frozen(getattr(self, name), np.int32))
