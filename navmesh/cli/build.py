"""``navmesh check`` and ``navmesh build``: diagnose a level's graph, build its graph or mesh."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from navmesh.cli.common import EXIT_OK, EXIT_PROBLEM, UsageError, quiet, stderr
from navmesh.cli.levels import build_graph, build_mesh, load, summary

__all__ = ["cmd_check", "cmd_build"]


def _ids(values: Any, limit: int = 8) -> str:
    v = [int(x) for x in values]
    return ", ".join(map(str, v[:limit])) + (f", ... ({len(v)} in all)" if len(v) > limit else "")


def cmd_check(args: argparse.Namespace) -> int:
    from navmesh.waypoints.diagnostics import diagnose

    level = load(args)
    nav = build_graph(level, args, quiet)
    diag = diagnose(nav, origin=args.origin)
    for line in summary(level, nav):
        print(line)
    problems = []
    if nav.n_nodes == 0:
        problems.append("the graph has no nodes (no waypoints; try --corners or --fill-spacing)")
    if diag.n_islands > 1:
        sizes = np.bincount(diag.components)
        problems.append(f"{diag.n_islands} islands (sizes {_ids(sorted(sizes.tolist(), reverse=True))})")
    for name, nodes, why in [
        ("isolated", diag.isolated, "waypoints without any link"),
        ("blocked", diag.blocked, "waypoints inside an obstacle for this agent radius"),
        ("unreachable", diag.unreachable, f"waypoints node {args.origin} cannot reach"),
        ("sinks", diag.sinks, "waypoints that can be entered but not left"),
        ("sources", diag.sources, "waypoints that can be left but not entered"),
        ("one-way traps", diag.one_way_traps, "waypoints with no way back to part of their island"),
    ]:
        if len(nodes):
            problems.append(f"{len(nodes)} {name}: {why}: {_ids(nodes)}")
    for p in problems:
        print(f"error: {p}")
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return EXIT_OK if not problems else EXIT_PROBLEM


def cmd_build(args: argparse.Namespace) -> int:
    if args.output is not None and not args.mesh:
        raise UsageError("-o/--output writes a .mesh file; it needs --mesh")
    level = load(args)
    if args.mesh:
        from navmesh.io.mesh_file import save_mesh

        mesh = build_mesh(level, args, stderr if not args.quiet else quiet)
        print(f"mesh: {mesh.n_polygons} polygons, {mesh.n_vertices} vertices, tags {list(mesh.tag_names[1:]) or 'none'}")
        if args.output is not None:
            save_mesh(mesh, args.output)
            print(f"wrote {args.output}")
        return EXIT_OK
    nav = build_graph(level, args, stderr if not args.quiet else quiet)
    for line in summary(level, nav):
        print(line)
    return EXIT_OK

