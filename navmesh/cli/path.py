"""``navmesh path``: a path between two points on a level's graph, mesh or tile grid."""

from __future__ import annotations

import argparse
import json
from typing import Any, Sequence

import numpy as np

from navmesh._checks import MAX_COST
from navmesh.cli.common import EXIT_OK, PROG, UsageError, quiet, stderr
from navmesh.cli.levels import build_graph, file_kind, load, mesh_of, read_grid

__all__ = ["cmd_path", "find_path", "check_path_options"]


def _level_tags(level: Any) -> set[str]:
    """Tags a --profile can name: terrain regions' and links' tags (a PolyMesh: its polygons' tags)."""
    from navmesh.polymesh.mesh import PolyMesh

    if isinstance(level, PolyMesh):
        return set(level.tag_names[1:])
    tags = {region.tag for region in level.terrain}
    return tags | {lk.tag for lk in (*level.links, *level.offmesh_links) if lk.tag}


def _profile(spec: str | None, level: Any, name: str) -> Any:
    """A CostProfile from ``"swamp=3,water=forbid,+wade"``; every tag must occur in ``level`` (file ``name``)."""
    from navmesh.terrain import CostProfile

    if spec is None:
        return None
    multipliers: dict[str, float] = {}
    forbidden, capabilities = set(), set()
    for item in filter(None, (s.strip() for s in spec.split(","))):
        if item.startswith("+"):
            capabilities.add(item[1:])
            continue
        tag, eq, value = item.partition("=")
        if not eq or not tag:
            raise UsageError(f"--profile item {item!r} is not TAG=MULTIPLIER, TAG=forbid or +CAPABILITY")
        if value == "forbid":
            forbidden.add(tag)
            continue
        try:
            multipliers[tag] = float(value)
        except ValueError:
            raise UsageError(f"--profile item {item!r}: {value!r} is not a number") from None
        if not 0 < multipliers[tag] <= MAX_COST:
            raise UsageError(
                f"--profile item {item!r}: a multiplier must be a number > 0 and <= {MAX_COST:g} "
                f"(use {tag}=forbid to close the tag)"
            )
    known = _level_tags(level)
    unknown = sorted((set(multipliers) | forbidden) - known)
    if unknown:
        shown = ", ".join(sorted(known)) if known else "none"
        raise UsageError(f"--profile tag {unknown[0]!r} does not occur in {name}; its tags: {shown}")
    return CostProfile("cli", multipliers, forbidden=frozenset(forbidden), capabilities=frozenset(capabilities))


def _moves(path: Any, coords: Sequence[float]) -> dict[str, float]:
    """How far the start and goal moved (world units): 0.0 unless the path says it moved it."""
    asked = np.asarray(coords, dtype=np.float64).reshape(2, 2)
    used = path.points[[0, -1], :2]
    dist = np.hypot(*(used - asked).T)
    return {"start": float(dist[0]) if path.start_moved else 0.0, "goal": float(dist[1]) if path.goal_moved else 0.0}


def _path_dict(path: Any, coords: Sequence[float]) -> dict[str, Any]:
    moves = _moves(path, coords)
    return {
        "cost": float(path.cost),
        "length": float(path.length),
        "expansions": int(path.expansions),
        "partial": bool(path.partial),
        "start_moved": bool(path.start_moved),
        "goal_moved": bool(path.goal_moved),
        "start_moved_by": moves["start"],
        "goal_moved_by": moves["goal"],
        "nodes": path.nodes.tolist(),
        "points": path.points.tolist(),
    }


def _grid_path(args: argparse.Namespace) -> Any:
    from navmesh.grid import grid_astar, jump_point_search

    if args.profile is not None:
        raise UsageError("--profile applies to waypoint levels; a Moving AI grid has no terrain tags")
    algorithm = args.algorithm or "astar"
    if algorithm not in ("astar", "jps"):
        raise UsageError(f"--algorithm {algorithm} does not apply to a tile grid; use astar or jps")
    from navmesh.grid.endpoints import resolve
    from navmesh.path import Path

    grid = read_grid(args.level, args.cell_size)
    strict = bool(getattr(args, "strict", False))
    (start, s_moved), (goal, g_moved) = (resolve(grid, name, np.asarray(xy, dtype=np.float64), strict=strict)
                                         for name, xy in (("start", args.coords[:2]), ("goal", args.coords[2:])))
    search = grid_astar if algorithm == "astar" else jump_point_search
    path = search(grid, start, goal)
    return Path(path.nodes, path.points, path.cost, path.expansions, path.partial, s_moved, g_moved)


def _refine(args: argparse.Namespace) -> str:
    algorithm = args.algorithm or "any_angle"
    refine = {"any_angle": "any_angle", "smooth": "smooth", "astar": "none"}.get(algorithm)
    if refine is None:
        raise UsageError(f"--algorithm {algorithm} does not apply to a waypoint level; use any_angle, smooth or astar")
    return refine


def find_path(args: argparse.Namespace, nav: Any, coords: Sequence[float]) -> Any:
    from navmesh.polymesh.mesh import PolyMesh
    from navmesh.waypoints.query import NavQuery

    if isinstance(nav, PolyMesh):
        if args.algorithm not in (None, "any_angle"):
            raise UsageError(f"--algorithm {args.algorithm} does not apply to --mesh (mesh paths are exact any-angle)")
        return NavQuery(nav, _profile(args.profile, nav, args.level)).find_path(
            coords[:2], coords[2:], strict=bool(getattr(args, "strict", False)))
    query = NavQuery(nav, _profile(args.profile, nav.level, args.level))
    return query.find_path(coords[:2], coords[2:], refine=_refine(args), strict=bool(getattr(args, "strict", False)))


def check_path_options(args: argparse.Namespace, level: Any) -> None:
    """Usage errors of --algorithm and --profile, before the (slow) build."""
    _refine(args)
    _profile(args.profile, level, args.level)


def cmd_path(args: argparse.Namespace) -> int:
    if args.mesh or file_kind(args.level) == "mesh":
        path = find_path(args, mesh_of(args), args.coords)
    elif file_kind(args.level) == "movingai":
        path = _grid_path(args)
    else:
        level = load(args)
        check_path_options(args, level)
        path = find_path(args, build_graph(level, args, quiet), args.coords)
    if args.json:
        print(json.dumps(_path_dict(path, args.coords)))
        return EXIT_OK
    moves = _moves(path, args.coords)
    for end, asked, point in (("start", args.coords[:2], path.points[0]), ("goal", args.coords[2:], path.points[-1])):
        if getattr(path, f"{end}_moved"):
            stderr(f"{PROG}: note: the {end} ({asked[0]:g}, {asked[1]:g}) is not walkable; moved {moves[end]:.6g} "
                    f"world units to ({point[0]:.6g}, {point[1]:.6g}), the nearest walkable point (--strict: fail instead)")
    notes = [n for n, flag in (("partial", path.partial), (f"start moved {moves['start']:.6g}", path.start_moved),
                               (f"goal moved {moves['goal']:.6g}", path.goal_moved)) if flag]
    print(f"cost {path.cost:.6g}, length {path.length:.6g}, {len(path.points)} points, "
          f"{path.expansions} expansions" + (f" ({', '.join(notes)})" if notes else ""))
    for x, y in path.points[:, :2]:
        print(f"{x:.6g} {y:.6g}")
    return EXIT_OK

