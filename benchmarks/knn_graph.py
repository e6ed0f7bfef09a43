"""The k-nearest-neighbour benchmark graph: random points linked to their k nearest neighbours.

Reads the shared anchor's ``graph.bin`` and ``queries.txt`` when ``../shared/anchors/knn_graph``
exists (so our numbers and the C++ anchor's use the very same input); otherwise generates a graph
of the same kind (same recipe, same seed) so the benchmark also runs without ``shared/``.
"""

from __future__ import annotations

from pathlib import Path as FilePath

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph
from scipy.spatial import cKDTree

ANCHOR_DIR = FilePath(__file__).resolve().parents[1].parent / "shared" / "anchors" / "knn_graph"


def generate(seed: int = 2026, n: int = 10_000, k: int = 8, n_queries: int = 200):
    """Return (points (n, 2), scipy CSR matrix, queries (q, 2)) for a random k-NN graph.

    Points are uniform in a 1000 x 1000 square; each is linked both ways to its k nearest
    neighbours with Euclidean weights; query ends lie in the largest connected component.
    """
    rng = np.random.default_rng(seed)
    pts = rng.uniform(0, 1000, (n, 2))
    _, nb = cKDTree(pts).query(pts, k=k + 1)
    u = np.repeat(np.arange(n), k)
    v = nb[:, 1:].ravel()
    pairs = np.unique(np.stack([np.minimum(u, v), np.maximum(u, v)], axis=1), axis=0)
    w = np.linalg.norm(pts[pairs[:, 0]] - pts[pairs[:, 1]], axis=1)
    rows = np.concatenate([pairs[:, 0], pairs[:, 1]])
    cols = np.concatenate([pairs[:, 1], pairs[:, 0]])
    matrix = sp.csr_matrix((np.concatenate([w, w]), (rows, cols)), shape=(n, n))
    matrix.sort_indices()
    comp = csgraph.connected_components(matrix, directed=False)[1]
    big = np.flatnonzero(comp == np.bincount(comp).argmax())
    return pts, matrix, rng.choice(big, (n_queries, 2))


def load(directory: FilePath = ANCHOR_DIR):
    """Return (points, scipy CSR matrix, queries) from the anchor's files, or generate them."""
    if not (directory / "graph.bin").exists():
        return generate()
    raw = (directory / "graph.bin").read_bytes()
    n, m = np.frombuffer(raw, "<i4", 2)
    at = 8
    pts = np.frombuffer(raw, "<f8", 2 * n, at).reshape(n, 2); at += 16 * n
    indptr = np.frombuffer(raw, "<i4", n + 1, at); at += 4 * (n + 1)
    indices = np.frombuffer(raw, "<i4", m, at); at += 4 * m
    data = np.frombuffer(raw, "<f8", m, at)
    matrix = sp.csr_matrix((data.copy(), indices.copy(), indptr.copy()), shape=(n, n))
    queries = np.loadtxt(directory / "queries.txt", dtype=np.int64).reshape(-1, 2)
    return pts.copy(), matrix, queries
