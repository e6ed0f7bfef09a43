"""`NavGraph`: an immutable directed graph in CSR form with 2-D or 3-D node coordinates.

Topology (``indptr``, ``indices``), geometry (``points``, arc ``lengths``) and arc tags live
here; costs do not. A search takes an :class:`EdgeWeights` (or a plain array, or nothing for the
arc lengths), so per-agent cost profiles reuse one graph.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal, Sequence

import numpy as np
import scipy.sparse
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import as_array, check_costs, check_flag, check_node, check_option, check_points
from navmesh.errors import InvalidGeometryError, InvalidOptionError, NodeNotFoundError

__all__ = ["NavGraph", "EdgeWeights", "Heuristic", "HEURISTICS", "NO_NODE"]

NO_NODE = -1
_MAX_SCALE = 1e100
Heuristic = Literal["euclidean", "manhattan", "octile", "chebyshev", "zero"]
HEURISTICS: tuple[str, ...] = ("zero", "euclidean", "manhattan", "octile", "chebyshev")


def metric_lengths(deltas: NDArray[np.float64], heuristic: str) -> NDArray[np.float64]:
    """Length of each row of ``deltas`` (shape (m, d)) under a heuristic's metric.

    ``octile`` is the 8-connected grid distance in x and y, plus ``|dz|`` in 3-D.
    """
    a = np.abs(deltas)
    if heuristic == "euclidean":
        return np.sqrt((a * a).sum(axis=1))
    if heuristic == "manhattan":
        return a.sum(axis=1)
    if heuristic == "chebyshev":
        return a.max(axis=1)
    if heuristic == "octile":
        lo = np.minimum(a[:, 0], a[:, 1])
        hi = np.maximum(a[:, 0], a[:, 1])
        extra = a[:, 2] if a.shape[1] == 3 else 0.0
        return hi + (np.sqrt(2.0) - 1.0) * lo + extra
    return np.zeros(len(a))


class NavGraph:
    """Immutable directed graph: CSR arcs plus node coordinates.

    Parameters
    ----------
    points : array of shape (n, 2) or (n, 3)
        Node coordinates in world units; finite, within +-1e15.
    indptr : int array of shape (n + 1,)
        Arcs of node ``u`` are ``indices[indptr[u]:indptr[u + 1]]``.
    indices : int array of shape (m,)
        Target node of each arc.
    lengths : float array of shape (m,), optional
        Arc lengths (>= 0, finite). Default: Euclidean distance between the end points.
    tags : int array of shape (m,), optional
        Tag id of each arc, an index into ``tag_names``. Default: all 0.
    tag_names : sequence of str, optional
        Name of each tag id; id 0 is plain ground. Default ``("",)``.

    Attributes
    ----------
    arc_sources : int array of shape (m,)
        Source node of each arc (the CSR rows spelled out).

    Notes
    -----
    Arrays are stored read-only and shared, never copied on access, so a "copy" of a graph is free
    and a graph can serve many searches (and threads) at once.

    Examples
    --------
    >>> g = NavGraph.from_edges([[0, 0], [3, 0], [3, 4]], [(0, 1), (1, 2)])
    >>> g.n_nodes, g.n_edges          # undirected input is stored as two arcs per edge
    (3, 4)
    >>> g.neighbors(1).tolist()
    [0, 2]
    """

    def __init__(
        self,
        points: ArrayLike,
        indptr: ArrayLike,
        indices: ArrayLike,
        lengths: ArrayLike | None = None,
        tags: ArrayLike | None = None,
        tag_names: Sequence[str] = ("",),
    ) -> None:
        pts = check_points("points", points)
        n = len(pts)
        ptr = as_array("indptr", indptr, InvalidGeometryError)
        idx = as_array("indices", indices, InvalidGeometryError)
        if ptr.ndim != 1 or ptr.shape[0] != n + 1 or not np.issubdtype(ptr.dtype, np.integer):
            raise InvalidGeometryError(f"indptr has shape {ptr.shape}; expected ({n + 1},) integers")
        if ptr[0] != 0 or np.any(np.diff(ptr) < 0):
            raise InvalidGeometryError("indptr must start at 0 and never decrease")
        m = int(ptr[-1])
        if idx.ndim != 1 or idx.shape[0] != m or (m and not np.issubdtype(idx.dtype, np.integer)):
            raise InvalidGeometryError(f"indices has shape {idx.shape}; expected ({m},) integers (indptr[-1])")
        if m and (idx.min() < 0 or idx.max() >= n):
            bad = idx[(idx < 0) | (idx >= n)][0]
            raise NodeNotFoundError(f"indices holds node {int(bad)}, out of range; the graph has {n} nodes")
        ptr = ptr.astype(np.int32)
        idx = idx.astype(np.int32)
        src = np.repeat(np.arange(n, dtype=np.int32), np.diff(ptr))
        if lengths is None:
            lens = np.sqrt(((pts[idx] - pts[src]) ** 2).sum(axis=1)) if m else np.zeros(0)
        else:
            lens = check_costs("lengths", lengths, m)
            if not np.isfinite(lens).all():
                raise InvalidGeometryError("lengths must be finite; close an arc with an inf weight instead")
        names = tuple(str(t) for t in tag_names)
        if not names:
            raise InvalidOptionError("tag_names must hold at least the plain tag (id 0)")
        if tags is None:
            tg = np.zeros(m, dtype=np.int32)
        else:
            tg = as_array("tags", tags, InvalidGeometryError)
            if tg.shape != (m,) or (m and not np.issubdtype(tg.dtype, np.integer)):
                raise InvalidGeometryError(f"tags has shape {tg.shape}; expected ({m},) integer tag ids")
            if m and (tg.min() < 0 or tg.max() >= len(names)):
                raise InvalidOptionError(f"tags hold ids outside 0..{len(names) - 1} (tag_names has {len(names)})")
            tg = tg.astype(np.int32)
        for arr in (pts, ptr, idx, lens, tg, src):
            arr.flags.writeable = False
        self.points: NDArray[np.float64] = pts
        self.indptr: NDArray[np.int32] = ptr
        self.indices: NDArray[np.int32] = idx
        self.lengths: NDArray[np.float64] = lens
        self.tags: NDArray[np.int32] = tg
        self.tag_names: tuple[str, ...] = names
        self.arc_sources: NDArray[np.int32] = src

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def from_edges(
        cls,
        points: ArrayLike,
        edges: ArrayLike,
        *,
        lengths: ArrayLike | None = None,
        tags: ArrayLike | None = None,
        tag_names: Sequence[str] = ("",),
        directed: bool = False,
    ) -> "NavGraph":
        """Build a graph from an edge list.

        Parameters
        ----------
        points : array of shape (n, 2) or (n, 3)
            Node coordinates.
        edges : int array of shape (e, 2)
            ``(u, v)`` pairs. With ``directed=False`` each becomes the arcs u->v and v->u.
        lengths, tags : arrays of shape (e,), optional
            Per edge; copied to both arcs of an undirected edge.
        directed : bool
            Whether each pair is a one-way arc.
        """
        pts = check_points("points", points)
        directed = check_flag("directed", directed)
        e = as_array("edges", edges, InvalidGeometryError)
        if e.size == 0:
            e = np.zeros((0, 2), dtype=np.int64)
        if e.ndim != 2 or e.shape[1] != 2 or not np.issubdtype(e.dtype, np.integer):
            raise InvalidGeometryError(f"edges has shape {e.shape}; expected (e, 2) integer node ids")
        if len(e) and (e.min() < 0 or e.max() >= len(pts)):
            bad = e[(e < 0) | (e >= len(pts))][0]
            raise NodeNotFoundError(f"edges holds node {int(bad)}, out of range; there are {len(pts)} points")
        lens = None if lengths is None else check_costs("lengths", lengths, len(e))
        tg = None if tags is None else as_array("tags", tags, InvalidGeometryError)
        if tg is not None and tg.shape != (len(e),):
            raise InvalidGeometryError(f"tags has shape {tg.shape}; expected ({len(e)},), one per edge")
        if not directed:
            e = np.concatenate([e, e[:, ::-1]])
            lens = None if lens is None else np.concatenate([lens, lens])
            tg = None if tg is None else np.concatenate([tg, tg])
        order = np.lexsort((e[:, 1], e[:, 0]))
        e = e[order]
        indptr = np.zeros(len(pts) + 1, dtype=np.int64)
        np.cumsum(np.bincount(e[:, 0], minlength=len(pts)), out=indptr[1:])
        return cls(
            pts,
            indptr,
            e[:, 1],
            None if lens is None else lens[order],
            None if tg is None else tg[order],
            tag_names,
        )

    @classmethod
    def from_scipy(cls, points: ArrayLike, matrix: scipy.sparse.spmatrix | scipy.sparse.sparray) -> "NavGraph":
        """Build a directed graph from a sparse (n, n) matrix whose stored values are arc lengths."""
        csr = scipy.sparse.csr_array(matrix)
        csr.sort_indices()
        return cls(points, csr.indptr, csr.indices, csr.data)

    # -- shape --------------------------------------------------------------------------------
    @property
    def n_nodes(self) -> int:
        """Number of nodes."""
        return len(self.points)

    @property
    def n_edges(self) -> int:
        """Number of arcs (an undirected edge counts twice)."""
        return len(self.indices)

    @property
    def dim(self) -> int:
        """2 or 3: the number of coordinates per node."""
        return self.points.shape[1]

    @cached_property
    def default_weights(self) -> "EdgeWeights":
        """The arc lengths as validated search weights."""
        return EdgeWeights(self, self.lengths)

    def copy(self) -> "NavGraph":
        """Return the same graph; arrays are read-only, so sharing them is safe."""
        return self

    def neighbors(self, node: int) -> NDArray[np.int32]:
        """Targets of the arcs leaving ``node``."""
        u = check_node("node", node, self.n_nodes)
        return self.indices[self.indptr[u] : self.indptr[u + 1]]

    def arc(self, u: int, v: int) -> int:
        """Index of the cheapest-length arc u->v, or ``NO_NODE`` (-1) when there is none."""
        u = check_node("u", u, self.n_nodes)
        v = check_node("v", v, self.n_nodes)
        lo, hi = self.indptr[u], self.indptr[u + 1]
        hits = np.flatnonzero(self.indices[lo:hi] == v)
        if hits.size == 0:
            return NO_NODE
        return int(lo + hits[np.argmin(self.lengths[lo + hits])])

    def out_degree(self) -> NDArray[np.int32]:
        """Number of arcs leaving each node, shape (n,)."""
        return np.diff(self.indptr).astype(np.int32)

    def in_degree(self) -> NDArray[np.int32]:
        """Number of arcs entering each node, shape (n,)."""
        return np.bincount(self.indices, minlength=self.n_nodes).astype(np.int32)

    def weights(self, values: ArrayLike, *, allow_negative: bool = False) -> "EdgeWeights":
        """Validate a per-arc cost array once, for reuse across many searches.

        Parameters
        ----------
        values : float array of shape (m,)
            Cost of each arc in CSR order (arc ``i`` runs from ``arc_sources[i]`` to ``indices[i]``), >= 0 (``inf`` closes the arc). Negative values only with
            ``allow_negative`` (for Bellman-Ford). Finite values at most 1e50 in size (an arc
            1e15 long times a multiplier of 1e30 fits).
        """
        return EdgeWeights(self, check_costs("weights", values, self.n_edges, allow_negative=allow_negative))

    def to_scipy(self, weights: "EdgeWeights | ArrayLike | None" = None) -> scipy.sparse.csr_array:
        """The graph as an (n, n) ``scipy.sparse.csr_array`` of arc weights.

        Closed (inf) arcs are left out; of parallel arcs the cheapest is kept; zero weights are
        stored explicitly, which ``scipy.sparse.csgraph`` treats as arcs.
        """
        w = self.resolve_weights(weights, allow_negative=True).values
        keep = np.isfinite(w)
        src, dst, w = self.arc_sources[keep], self.indices[keep], w[keep]
        order = np.lexsort((w, dst, src))
        src, dst, w = src[order], dst[order], w[order]
        first = np.ones(len(src), dtype=bool)
        first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
        src, dst, w = src[first], dst[first], w[first]
        indptr = np.zeros(self.n_nodes + 1, dtype=np.int32)
        np.cumsum(np.bincount(src, minlength=self.n_nodes), out=indptr[1:])
        return scipy.sparse.csr_array((w, dst, indptr), shape=(self.n_nodes, self.n_nodes))

    def resolve_weights(
        self, weights: "EdgeWeights | ArrayLike | None", *, allow_negative: bool = False
    ) -> "EdgeWeights":
        """Turn the ``weights=`` argument of a search into validated :class:`EdgeWeights`."""
        if weights is None:
            return self.default_weights
        if isinstance(weights, EdgeWeights):
            if weights.graph is not self and (
                weights.graph.n_edges != self.n_edges or weights.graph.indices is not self.indices
            ):
                raise InvalidOptionError("weights were made for another graph; call graph.weights(values)")
            if weights.has_negative and not allow_negative:
                raise InvalidOptionError("weights has negative values; only bellman_ford accepts them")
            return weights
        return self.weights(weights, allow_negative=allow_negative)

    def __repr__(self) -> str:
        return f"NavGraph(n_nodes={self.n_nodes}, n_edges={self.n_edges}, dim={self.dim})"


class EdgeWeights:
    """Per-arc costs validated once for one graph, with cached heuristic scales.

    Make one with :meth:`NavGraph.weights`; pass it as ``weights=`` to any search. The array is
    read-only. ``heuristic_scale(h)`` is the largest factor ``s`` with ``s * metric(arc) <= weight``
    for every open arc, so ``s * metric(node, goal)`` never overestimates: A* stays optimal even
    when some arcs cost less than their length (a road).
    """

    __slots__ = ("graph", "values", "has_negative", "_scales")

    def __init__(self, graph: NavGraph, values: NDArray[np.float64]) -> None:
        values = np.array(values, dtype=np.float64)
        values.flags.writeable = False
        self.graph = graph
        self.values: NDArray[np.float64] = values
        self.has_negative = bool(len(values) and values.min() < 0)
        self._scales: dict[str, float] = {}

    def heuristic_scale(self, heuristic: str) -> float:
        """Admissible scale for ``heuristic`` under these weights (computed once, then cached)."""
        check_option("heuristic", heuristic, HEURISTICS)
        if heuristic not in self._scales:
            g = self.graph
            open_arcs = np.isfinite(self.values)
            deltas = g.points[g.indices[open_arcs]] - g.points[g.arc_sources[open_arcs]]
            metric = metric_lengths(deltas, heuristic)
            positive = metric > 0
            if heuristic == "zero" or not positive.any():
                scale = 0.0 if heuristic == "zero" else 1.0
            else:
                scale = float(np.min(self.values[open_arcs][positive] / metric[positive]))
            # A smaller scale stays admissible: the cap keeps scale * distance finite even when
            # nearly coincident nodes make a ratio overflow.
            self._scales[heuristic] = min(max(scale, 0.0), _MAX_SCALE)
        return self._scales[heuristic]
