"""The ``navmesh`` command: check, build, search, draw and convert levels from a shell or CI.

``navmesh SUBCOMMAND --help`` explains each subcommand. A LEVEL is a navmesh level file (JSON), a
Tiled map (``.tmj``/``.tmx``, or a ``.json`` written by Tiled) or a Moving AI ``.map`` file (read
as a level with one waypoint per free cell; ``navmesh path`` searches it as a tile grid).
With ``--mesh``, ``build``, ``path`` and ``render`` use the level's polygon navigation mesh
(:func:`~navmesh.polymesh.build.build_navmesh`, exact any-angle paths) instead of its waypoint
graph; ``build --mesh -o OUT.mesh`` writes it, and ``path`` also reads a ``.mesh`` file as LEVEL.

Exit status: 0 success; 1 the level has problems (``check``), the goal is unreachable or the file
cannot be read; 2 bad arguments. Every error is one line on stderr; there is never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
import warnings
from pathlib import Path as FilePath
from typing import Any, Callable, NoReturn, Sequence

import numpy as np

from navmesh._checks import MAX_COST
from navmesh.errors import InvalidOptionError, NavmeshError, NavmeshWarning, NoPathError
from navmesh.palette import TERRAIN_RGB, terrain_rgb

__all__ = ["main"]

PROG = "navmesh"
EXIT_OK, EXIT_PROBLEM, EXIT_USAGE = 0, 1, 2
BENCHMARKS = ("search", "grid", "fatcat", "build", "anyangle")
TILED_SUFFIXES = (".tmj", ".tmx")
#: Longest side of a ``navmesh render`` picture, pixels (an RGB picture this size takes 200 MB).
MAX_PICTURE_SIZE = 8192

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


class UsageError(Exception):
    """Bad command-line arguments (exit status 2)."""


class _Formatter(argparse.HelpFormatter):
    """Help that writes a metavar naming every value (``"X1 Y1 X2 Y2"`` for nargs=4) once, not nargs times."""

    def _format_args(self, action: argparse.Action, default_metavar: str) -> str:
        metavar = action.metavar
        if isinstance(action.nargs, int) and isinstance(metavar, str) and len(metavar.split()) == action.nargs:
            return metavar
        return super()._format_args(action, default_metavar)


class _RawFormatter(argparse.RawDescriptionHelpFormatter, _Formatter):
    """:class:`_Formatter` keeping the description's line breaks (the top-level help)."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors as one line and exit status 2, without the usage block."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message} (see {self.prog} --help)")


# -- reading levels ------------------------------------------------------------------------------
def _is_tiled_json(path: FilePath) -> bool:
    try:
        with open(path, encoding="utf-8") as fh:
            head = fh.read(4096)
    except (OSError, UnicodeDecodeError):
        return False
    return '"tiledversion"' in head or '"orientation"' in head


def _kind(path: str) -> str:
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


def _grid(path: str, cell_size: float) -> Any:
    from navmesh.grid import GridMap

    return GridMap.from_movingai(path, water="blocked", cell_size=cell_size)


def _grid_level(grid: Any, waypoints: str) -> Any:
    """A level from a tile grid: blocked cells merged into obstacle polygons (holes kept), optionally a
    waypoint per free cell."""
    import shapely

    from navmesh.geometry import cell_rectangles
    from navmesh.level import Level

    s = grid.cell_size
    ox, oy = grid.origin
    # One polygon per connected wall (cells sharing an edge), not one box per run of cells: an editor
    # shows walls, not hundreds of strips. simplify(0) drops the vertices left between merged boxes.
    walls = shapely.simplify(shapely.union_all(cell_rectangles(grid.blocked[::-1])), 0.0)
    obstacles = [shapely.transform(p, lambda xy: xy * s + (ox, oy)) for p in shapely.get_parts(walls) if p.area > 0]
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    points = grid.cell_center(free) if waypoints == "cells" else np.zeros((0, 2))
    bounds = [(ox, oy), (ox + grid.width * s, oy), (ox + grid.width * s, oy + grid.height * s), (ox, oy + grid.height * s)]
    return Level(bounds, obstacles=obstacles, waypoints=points)


def _load(args: argparse.Namespace) -> Any:
    """The Level named by ``args.level`` (any supported format)."""
    kind = _kind(args.level)
    if kind == "mesh":
        raise UsageError(f"{args.level} is a navigation mesh, not a level; only 'navmesh path' reads a .mesh file")
    if kind == "movingai":
        return _grid_level(_grid(args.level, args.cell_size), getattr(args, "waypoints", "cells"))
    if kind == "tiled":
        from navmesh.io.tiled import load_tiled_level

        return load_tiled_level(args.level, wall_layers=args.wall_layer or ("walls",), scaling=args.scaling)
    from navmesh.io.level_json import load_level

    return load_level(args.level)


def _build(level: Any, args: argparse.Namespace, report: Callable[[str], None]) -> Any:
    from navmesh.waypoints.build import build_waypoint_graph

    report(f"building: {level.n_waypoints} waypoints, {len(level.obstacles)} obstacles, k={args.k}")
    t0 = time.perf_counter()
    nav = build_waypoint_graph(
        level, k=args.k, max_distance=args.max_distance, agent_radius=args.agent_radius, corners=args.corners,
        fill_spacing=args.fill_spacing,
    )
    report(f"built in {time.perf_counter() - t0:.2f} s")
    return nav


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _quiet(line: str) -> None:
    pass


# -- subcommands ---------------------------------------------------------------------------------
def _summary(level: Any, nav: Any) -> list[str]:
    return [
        f"level: {level.n_waypoints} waypoints, {len(level.obstacles)} obstacles, {len(level.terrain)} terrain "
        f"regions, {len(level.links)} links, bounds {_fmt_bounds(level.bounds.bounds)}",
        f"graph: {nav.n_nodes} nodes ({nav.n_generated} generated), {nav.graph.n_edges} arcs, "
        f"agent radius {nav.options.agent_radius:g}",
    ]


def _fmt_bounds(b: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:g}" for v in b) + ")"


def _ids(values: Any, limit: int = 8) -> str:
    v = [int(x) for x in values]
    return ", ".join(map(str, v[:limit])) + (f", ... ({len(v)} in all)" if len(v) > limit else "")


def cmd_check(args: argparse.Namespace) -> int:
    from navmesh.waypoints.diagnostics import diagnose

    level = _load(args)
    nav = _build(level, args, _quiet)
    diag = diagnose(nav, origin=args.origin)
    for line in _summary(level, nav):
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


def _build_mesh(level: Any, args: argparse.Namespace, report: Callable[[str], None]) -> Any:
    from navmesh.polymesh.build import build_navmesh

    report(f"building the mesh: {len(level.obstacles)} obstacles, agent radius {args.agent_radius:g}")
    t0 = time.perf_counter()
    mesh = build_navmesh(level, agent_radius=args.agent_radius)
    report(f"built in {time.perf_counter() - t0:.2f} s")
    return mesh


def _mesh_of(args: argparse.Namespace) -> Any:
    """The PolyMesh for ``path --mesh``: a .mesh file as is, or built from the level."""
    if _kind(args.level) == "mesh":
        from navmesh.io.mesh_file import load_mesh

        return load_mesh(args.level)
    return _build_mesh(_load(args), args, _quiet)


def cmd_build(args: argparse.Namespace) -> int:
    if args.output is not None and not args.mesh:
        raise UsageError("-o/--output writes a .mesh file; it needs --mesh")
    level = _load(args)
    if args.mesh:
        from navmesh.io.mesh_file import save_mesh

        mesh = _build_mesh(level, args, _stderr if not args.quiet else _quiet)
        print(f"mesh: {mesh.n_polygons} polygons, {mesh.n_vertices} vertices, tags {list(mesh.tag_names[1:]) or 'none'}")
        if args.output is not None:
            save_mesh(mesh, args.output)
            print(f"wrote {args.output}")
        return EXIT_OK
    nav = _build(level, args, _stderr if not args.quiet else _quiet)
    for line in _summary(level, nav):
        print(line)
    return EXIT_OK


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

    grid = _grid(args.level, args.cell_size)
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


def _find_path(args: argparse.Namespace, nav: Any, coords: Sequence[float]) -> Any:
    from navmesh.polymesh.mesh import PolyMesh
    from navmesh.waypoints.query import NavQuery

    if isinstance(nav, PolyMesh):
        if args.algorithm not in (None, "any_angle"):
            raise UsageError(f"--algorithm {args.algorithm} does not apply to --mesh (mesh paths are exact any-angle)")
        return NavQuery(nav, _profile(args.profile, nav, args.level)).find_path(
            coords[:2], coords[2:], strict=bool(getattr(args, "strict", False)))
    query = NavQuery(nav, _profile(args.profile, nav.level, args.level))
    return query.find_path(coords[:2], coords[2:], refine=_refine(args), strict=bool(getattr(args, "strict", False)))


def _check_path_options(args: argparse.Namespace, level: Any) -> None:
    """Usage errors of --algorithm and --profile, before the (slow) build."""
    _refine(args)
    _profile(args.profile, level, args.level)


def cmd_path(args: argparse.Namespace) -> int:
    if args.mesh or _kind(args.level) == "mesh":
        path = _find_path(args, _mesh_of(args), args.coords)
    elif _kind(args.level) == "movingai":
        path = _grid_path(args)
    else:
        level = _load(args)
        _check_path_options(args, level)
        path = _find_path(args, _build(level, args, _quiet), args.coords)
    if args.json:
        print(json.dumps(_path_dict(path, args.coords)))
        return EXIT_OK
    moves = _moves(path, args.coords)
    for end, asked, point in (("start", args.coords[:2], path.points[0]), ("goal", args.coords[2:], path.points[-1])):
        if getattr(path, f"{end}_moved"):
            _stderr(f"{PROG}: note: the {end} ({asked[0]:g}, {asked[1]:g}) is not walkable; moved {moves[end]:.6g} "
                    f"world units to ({point[0]:.6g}, {point[1]:.6g}), the nearest walkable point (--strict: fail instead)")
    notes = [n for n, flag in (("partial", path.partial), (f"start moved {moves['start']:.6g}", path.start_moved),
                               (f"goal moved {moves['goal']:.6g}", path.goal_moved)) if flag]
    print(f"cost {path.cost:.6g}, length {path.length:.6g}, {len(path.points)} points, "
          f"{path.expansions} expansions" + (f" ({', '.join(notes)})" if notes else ""))
    for x, y in path.points[:, :2]:
        print(f"{x:.6g} {y:.6g}")
    return EXIT_OK


def cmd_render(args: argparse.Namespace) -> int:
    from PIL import Image, ImageDraw

    overlays = {o.strip() for o in args.overlay.split(",") if o.strip()} if args.overlay else set()
    unknown = overlays - {"graph", "terrain", "diagnostics", "mesh"}
    if unknown:
        raise UsageError(f"--overlay {','.join(sorted(unknown))} is not known; choose from graph, terrain, diagnostics, mesh")
    level = _load(args)
    if args.path is not None and not args.mesh:
        _check_path_options(args, level)
    need_nav = bool(overlays & {"graph", "diagnostics"}) or (args.path is not None and not args.mesh)
    nav = _build(level, args, _quiet) if need_nav else None
    mesh = _build_mesh(level, args, _quiet) if args.mesh or "mesh" in overlays else None
    path = _find_path(args, mesh if args.mesh else nav, args.path) if args.path is not None else None

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


def cmd_convert(args: argparse.Namespace) -> int:
    from navmesh.io.level_json import save_level

    if _kind(args.level) == "level":
        if FilePath(args.level).suffix.lower() == ".json":
            raise UsageError(
                f"{args.level} is already a navmesh level; convert reads Tiled (.tmj/.tmx) or Moving AI (.map) maps"
            )
        raise UsageError(
            f"{args.level}: the format is not recognised; convert reads Tiled maps (.tmj, .tmx, or a .json written "
            "by Tiled) and Moving AI maps (.map)"
        )
    level = _load(args)
    out = FilePath(args.output)
    if not out.parent.is_dir():
        raise FileNotFoundError(f"{out}: the folder {out.parent} does not exist")
    save_level(level, out)
    print(f"wrote {out}: {level.n_waypoints} waypoints, {len(level.obstacles)} obstacles, {len(level.terrain)} terrain regions")
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    import importlib

    names = args.names or list(BENCHMARKS)
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        raise UsageError(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(BENCHMARKS)}")
    extra = [a for a in args.extra if a != "--"]
    for name in names:
        try:
            module = importlib.import_module(f"benchmarks.{name}")
        except ModuleNotFoundError as exc:
            raise FileNotFoundError(
                f"benchmark {name!r} cannot be imported ({exc}); run navmesh bench from a navmesh checkout with the "
                "bench extra installed (pip install -e '.[bench]')"
            ) from None
        print(f"== benchmarks.{name}", flush=True)
        module.main(extra)
    return EXIT_OK


# -- argument parsing ----------------------------------------------------------------------------
def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def _positive(text: str) -> float:
    value = _finite(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be > 0")
    return value


def _non_negative(text: str) -> float:
    value = _finite(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be >= 0")
    return value


def _picture_size(text: str) -> int:
    value = _count(text)
    if value > MAX_PICTURE_SIZE:
        raise argparse.ArgumentTypeError(f"{text!r} is too large; the picture's longer side is at most {MAX_PICTURE_SIZE} px")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be >= 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The ``navmesh`` argument parser (subcommands check, build, path, render, convert, bench)."""
    parser = _Parser(prog=PROG, description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                     formatter_class=_RawFormatter)
    from navmesh import __version__

    parser.add_argument("--version", action="version", version=f"navmesh {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def level_parser(name: str, help_: str, *, graph: bool = True) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=help_)
        p.add_argument("level", metavar="LEVEL", help="level JSON, Tiled map (.tmj/.tmx/.json) or Moving AI .map")
        maps = p.add_argument_group("map reading")
        maps.add_argument("--wall-layer", action="append", metavar="NAME",
                          help="Tiled: a tile layer whose tiles are walls (repeatable; default 'walls')")
        maps.add_argument("--scaling", type=_positive, default=None, help="Tiled: world units per map pixel (default 1)")
        maps.add_argument("--cell-size", type=_positive, default=1.0,
                          help="Moving AI: world units per cell (default 1)")
        if graph:
            g = p.add_argument_group("waypoint graph")
            g.add_argument("--k", type=_count, default=8, help="visible neighbours linked per waypoint (default 8)")
            g.add_argument("--max-distance", type=_positive, default=None,
                           help="longest link, world units (default unlimited)")
            g.add_argument("--agent-radius", type=_non_negative, default=0.0,
                           help="grow obstacles by this radius, world units (default 0)")
            g.add_argument("--corners", action="store_true", help="add waypoints at obstacle corners")
            g.add_argument("--fill-spacing", type=_positive, default=None,
                           help="add waypoints on a lattice of this spacing in open areas")
        return p

    p = level_parser("check", "Diagnose a level's waypoint graph (islands, isolated, blocked and unreachable "
                              "waypoints, sinks, sources); exit status 1 when there are problems.")
    p.add_argument("--origin", type=int, default=None, help="report waypoints this node cannot reach")
    p.set_defaults(run=cmd_check)

    p = level_parser("build", "Build a level's waypoint graph (or, with --mesh, its navigation mesh) and report its "
                              "size (stages and times on stderr).")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--mesh", action="store_true", help="build the polygon navigation mesh (uses --agent-radius)")
    p.add_argument("-o", "--output", metavar="OUT.mesh", default=None, help="with --mesh: write the mesh to this file")
    p.set_defaults(run=cmd_build)

    p = level_parser("path", "Find a path from (X1, Y1) to (X2, Y2), world units, and print it.")
    p.add_argument("coords", metavar="X1 Y1 X2 Y2", nargs=4, type=_finite, help="start and goal")
    p.add_argument("--profile", metavar="SPEC",
                   help="terrain costs, e.g. 'swamp=3,water=forbid,+wade': multipliers > 0, each TAG one the level "
                        "uses (a tag the level lacks is an error, exit 2)")
    p.add_argument("--algorithm", choices=["any_angle", "smooth", "astar", "jps"], default=None,
                   help="waypoint levels: any_angle (default), smooth, astar (graph path, unrefined); "
                        "Moving AI grids: astar (default), jps")
    p.add_argument("--json", action="store_true", help="print the path as one JSON object")
    p.add_argument("--mesh", action="store_true",
                   help="search the level's navigation mesh (exact any-angle path; implied when LEVEL is a .mesh file)")
    p.add_argument("--strict", action="store_true",
                   help="fail when the start or goal is not walkable, instead of moving it to the nearest walkable "
                        "point (a point more than 5%% of the level's size outside its bounds always fails)")
    p.set_defaults(run=cmd_path)

    p = level_parser("render", "Draw a level (obstacles, terrain, graph, a path) to a PNG, without a window.")
    p.add_argument("-o", "--output", required=True, metavar="PNG", help="the picture to write")
    p.add_argument("--path", nargs=4, type=_finite, metavar=("X1", "Y1", "X2", "Y2"), help="also draw this path")
    p.add_argument("--overlay", default="terrain", metavar="LIST",
                   help="comma-separated: graph, terrain, diagnostics, mesh (default terrain)")
    p.add_argument("--mesh", action="store_true", help="draw --path on the navigation mesh instead of the graph")
    p.add_argument("--size", type=_picture_size, default=800,
                   help=f"longer side of the picture in pixels, 1 to {MAX_PICTURE_SIZE} (default 800)")
    p.add_argument("--profile", metavar="SPEC", help="terrain costs of the drawn path (as for path)")
    p.add_argument("--algorithm", choices=["any_angle", "smooth", "astar"], default=None, help="as for path")
    p.set_defaults(run=cmd_render)

    p = level_parser("convert", "Convert a Tiled or Moving AI map to a navmesh level file (JSON).", graph=False)
    p.add_argument("-o", "--output", required=True, metavar="LEVEL", help="the level file to write (atomic, keeps a .bak)")
    p.add_argument("--waypoints", choices=["cells", "none"], default="cells",
                   help="Moving AI: a waypoint at every free cell's centre (default) or none")
    p.set_defaults(run=cmd_convert)

    p = sub.add_parser("bench", help="Run benchmarks and print their ratio tables (from a checkout).",
                       description="Run benchmarks (navmesh against its peers on the same inputs) and print their "
                                   "ratio tables. Arguments after -- go to every benchmark, e.g. "
                                   "navmesh bench search -- --runs 1")
    p.add_argument("names", nargs="*", metavar="NAME", help=f"benchmarks to run (default all: {', '.join(BENCHMARKS)})")
    p.add_argument("extra", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(run=cmd_bench)
    return parser


class _CompileLine(logging.Handler):
    """Shows the library's one-time compile notice as one ``navmesh:`` line on stderr (other
    warnings on the ``navmesh`` logger as ``navmesh: warning:`` lines)."""

    def emit(self, record: logging.LogRecord) -> None:
        from navmesh.warmup import COMPILE_NOTICE

        text = record.getMessage()
        if text == COMPILE_NOTICE:
            _stderr(f"{PROG}: compiling the search kernels once for this installation (a few seconds; "
                    "later runs load them from the cache)")
        else:
            _stderr(f"{PROG}: warning: {' '.join(text.split())}")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 400 else text[:397] + "..."


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``navmesh`` command; return its exit status (the console script exits with it)."""
    parser = build_parser()
    logger = logging.getLogger("navmesh")
    handler = _CompileLine(logging.WARNING)
    logger.addHandler(handler)
    try:
        args = parser.parse_args(argv)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", NavmeshWarning)
            try:
                return args.run(args)
            finally:
                for w in caught:
                    if issubclass(w.category, NavmeshWarning):
                        _stderr(f"{PROG}: warning: {_one_line(w.message)}")
    except UsageError as exc:
        text = _one_line(exc)
        _stderr(text if text.startswith(PROG) else f"{PROG}: error: {text}")
        return EXIT_USAGE
    except InvalidOptionError as exc:
        _stderr(f"{PROG}: error: {_one_line(exc)}")
        return EXIT_USAGE
    except (NavmeshError, OSError) as exc:
        kind = "no path" if isinstance(exc, NoPathError) else "error"
        _stderr(f"{PROG}: {kind}: {_one_line(exc)}")
        return EXIT_PROBLEM
    except KeyboardInterrupt:
        _stderr(f"{PROG}: interrupted")
        return 130
    except Exception as exc:  # noqa: BLE001 - the promise is one line, never a traceback
        _stderr(f"{PROG}: internal error: {type(exc).__name__}: {_one_line(exc)} (please report this)")
        return EXIT_PROBLEM
    finally:
        logger.removeHandler(handler)


if __name__ == "__main__":
    sys.exit(main())
