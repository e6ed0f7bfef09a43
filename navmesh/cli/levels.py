"""A subcommand's LEVEL argument: the file's kind, the level read from it, its graph or mesh."""

from __future__ import annotations

import argparse
import time
from pathlib import Path as FilePath
from typing import Any, Callable, Sequence

from navmesh.cli.common import UsageError, quiet

__all__ = ["file_kind", "read_grid", "load", "build_graph", "build_mesh", "mesh_of", "summary"]

TILED_SUFFIXES = (".tmj", ".tmx")


def _is_tiled_json(path: FilePath) -> bool:
    try:
        with open(path, encoding="utf-8") as fh:
            head = fh.read(4096)
    except (OSError, UnicodeDecodeError):
        return False
    return '"tiledversion"' in head or '"orientation"' in head


def file_kind(path: str) -> str:
    p = FilePath(path)
    if p.is_dir():
        raise IsADirectoryError(f"{path}: is a directory; expected a level file (JSON, Tiled map or Moving AI .map)")
    if not p.is_file() and not path.startswith(":"):
        raise FileNotFoundError(f"{path}: no such file")
    suffix = p.suffix.lower()
    if suffix == ".map":
        return "movingai"
    if suffix == ".mesh":
        return "mesh"
    if suffix in TILED_SUFFIXES or path.startswith(":") or (suffix == ".json" and _is_tiled_json(p)):
        return "tiled"
    return "level"


def read_grid(path: str, cell_size: float) -> Any:
    from navmesh.grid import GridMap

    return GridMap.from_movingai(path, water="blocked", cell_size=cell_size)


def load(args: argparse.Namespace) -> Any:
    """The Level named by ``args.level`` (any supported format)."""
    kind = file_kind(args.level)
    if kind == "mesh":
        raise UsageError(f"{args.level} is a navigation mesh, not a level; only 'navmesh path' reads a .mesh file")
    if kind == "movingai":
        from navmesh.level_grid import level_from_grid

        return level_from_grid(read_grid(args.level, args.cell_size), waypoints=getattr(args, "waypoints", "cells"))
    if kind == "tiled":
        from navmesh.io.tiled import load_tiled_level

        return load_tiled_level(args.level, wall_layers=args.wall_layer or ("walls",), scaling=args.scaling)
    from navmesh.io.level_json import load_level

    return load_level(args.level)


def build_graph(level: Any, args: argparse.Namespace, report: Callable[[str], None]) -> Any:
    from navmesh.waypoints.build import build_waypoint_graph

    report(f"building: {level.n_waypoints} waypoints, {len(level.obstacles)} obstacles, k={args.k}")
    t0 = time.perf_counter()
    nav = build_waypoint_graph(
        level, k=args.k, max_distance=args.max_distance, agent_radius=args.agent_radius, corners=args.corners,
        fill_spacing=args.fill_spacing,
    )
    report(f"built in {time.perf_counter() - t0:.2f} s")
    return nav


def build_mesh(level: Any, args: argparse.Namespace, report: Callable[[str], None]) -> Any:
    from navmesh.polymesh.build import build_navmesh

    report(f"building the mesh: {len(level.obstacles)} obstacles, agent radius {args.agent_radius:g}")
    t0 = time.perf_counter()
    mesh = build_navmesh(level, agent_radius=args.agent_radius)
    report(f"built in {time.perf_counter() - t0:.2f} s")
    return mesh


def mesh_of(args: argparse.Namespace) -> Any:
    """The PolyMesh for ``path --mesh``: a .mesh file as is, or built from the level."""
    if file_kind(args.level) == "mesh":
        from navmesh.io.mesh_file import load_mesh

        return load_mesh(args.level)
    return build_mesh(load(args), args, quiet)
def summary(level: Any, nav: Any) -> list[str]:
    return [
        f"level: {level.n_waypoints} waypoints, {len(level.obstacles)} obstacles, {len(level.terrain)} terrain "
        f"regions, {len(level.links)} links, bounds {_fmt_bounds(level.bounds.bounds)}",
        f"graph: {nav.n_nodes} nodes ({nav.n_generated} generated), {nav.graph.n_edges} arcs, "
        f"agent radius {nav.options.agent_radius:g}",
    ]


def _fmt_bounds(b: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:g}" for v in b) + ")"

