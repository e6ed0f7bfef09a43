"""``navmesh render``: a level, its graph, mesh, terrain and a path drawn to a PNG without a window."""

from __future__ import annotations

import argparse
import math
from typing import Any

import numpy as np

from navmesh.cli.common import EXIT_OK, UsageError, quiet
from navmesh.cli.levels import build_graph, build_mesh, load
from navmesh.cli.path import check_path_options, find_path
from navmesh.palette import TERRAIN_RGB, terrain_rgb

__all__ = ["cmd_render", "COLORS", "TERRAIN_COLORS"]

# Picture colours (RGB): chosen far apart so tests and eyes can tell them apart.
COLORS: dict[str, tuple[int, int, int]] = {
    "outside": (40, 44, 52),
    "floor": (236, 236, 228),
    "obstacle": (70, 74, 84),
    "edge": (120, 150, 200),
    "node": (20, 45, 120),
    "path": (220, 40, 40),
    "start": (30, 160, 60),
    "goal": (230, 140, 20),
    "problem": (200, 0, 200),
    "mesh": (0, 150, 150),
}
TERRAIN_COLORS = TERRAIN_RGB  # the terrain colours of every picture (navmesh.palette)

def cmd_render(args: argparse.Namespace) -> int:
    from PIL import Image, ImageDraw

    overlays = {o.strip() for o in args.overlay.split(",") if o.strip()} if args.overlay else set()
    unknown = overlays - {"graph", "terrain", "diagnostics", "mesh"}
    if unknown:
        raise UsageError(f"--overlay {','.join(sorted(unknown))} is not known; choose from graph, terrain, diagnostics, mesh")
    level = load(args)
    if args.path is not None and not args.mesh:
        check_path_options(args, level)
    need_nav = bool(overlays & {"graph", "diagnostics"}) or (args.path is not None and not args.mesh)
    nav = build_graph(level, args, quiet) if need_nav else None
    mesh = build_mesh(level, args, quiet) if args.mesh or "mesh" in overlays else None
    path = find_path(args, mesh if args.mesh else nav, args.path) if args.path is not None else None

    left, bottom, right, top = level.bounds.bounds
    margin = 8
    scale = (args.size - 2 * margin) / max(right - left, top - bottom)
    # ceil of a value rounding may have put just above a whole number: --size is the longer side exactly
    width, height = (int(math.ceil(extent * scale - 1e-6)) + 2 * margin for extent in (right - left, top - bottom))

    def px(points: Any) -> list[tuple[float, float]]:
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        return [(margin + (x - left) * scale, height - margin - (y - bottom) * scale) for x, y in pts]

    def fill(poly: Any, color: tuple[int, int, int]) -> None:
        draw.polygon(px(poly.exterior.coords), fill=color)
        for hole in poly.interiors:
            draw.polygon(px(hole.coords), fill=COLORS["floor"])

    image = Image.new("RGB", (width, height), COLORS["outside"])
    draw = ImageDraw.Draw(image)
    fill(level.bounds, COLORS["floor"])
    if "terrain" in overlays:
        for region in level.terrain:
            fill(region.polygon, terrain_rgb(region.tag))
    for poly in level.obstacles:
        fill(poly, COLORS["obstacle"])
    if "graph" in overlays:
        g = nav.graph
        src = np.repeat(np.arange(g.n_nodes), np.diff(g.indptr))
        # An undirected edge is two arcs: draw each node pair once.
        pairs = np.unique(np.sort(np.column_stack([src, g.indices]), axis=1), axis=0)
        for a, b in pairs.tolist():
            draw.line(px(nav.points[[a, b], :2]), fill=COLORS["edge"], width=1)
        r = max(1.5, args.size / 400)
        for x, y in px(nav.points[:, :2]):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=COLORS["node"])
    if "mesh" in overlays:
        for p in range(mesh.n_polygons):
            ring = px(mesh.polygon_points(p))
            draw.polygon(ring, outline=COLORS["mesh"])
    if "diagnostics" in overlays:
        from navmesh.waypoints.diagnostics import diagnose

        diag = diagnose(nav)
        bad = np.unique(np.concatenate([diag.isolated, diag.blocked, diag.sinks, diag.sources, diag.one_way_traps]))
        r = max(4.0, args.size / 120)
        for x, y in px(nav.points[bad, :2]):
            draw.ellipse((x - r, y - r, x + r, y + r), outline=COLORS["problem"], width=2)
    if path is not None:
        w = max(2, args.size // 200)
        draw.line(px(path.points[:, :2]), fill=COLORS["path"], width=w, joint="curve")
        r = 2 * w
        for key, point in (("start", path.points[0]), ("goal", path.points[-1])):
            (x, y), = px(point[:2])
            draw.ellipse((x - r, y - r, x + r, y + r), fill=COLORS[key])
    try:
        image.save(args.output, format="PNG")
    except (OSError, ValueError) as exc:
        raise OSError(f"{args.output}: cannot write the picture ({exc})") from None
    print(f"wrote {args.output} ({width} x {height} px)")
    return EXIT_OK

