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
import logging
import math
import warnings
from typing import Any, NoReturn, Sequence

from navmesh.cli.build import cmd_build, cmd_check
from navmesh.cli.common import EXIT_PROBLEM, EXIT_USAGE, PROG, UsageError, stderr
from navmesh.cli.convert import BENCHMARKS, cmd_bench, cmd_convert
from navmesh.cli.path import cmd_path
from navmesh.cli.render import cmd_render
from navmesh.errors import InvalidOptionError, NavmeshError, NavmeshWarning, NoPathError

__all__ = ["main", "build_parser"]

#: Longest side of a ``navmesh render`` picture, pixels (an RGB picture this size takes 200 MB).
MAX_PICTURE_SIZE = 8192


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
            stderr(f"{PROG}: compiling the search kernels once for this installation (a few seconds; "
                    "later runs load them from the cache)")
        else:
            stderr(f"{PROG}: warning: {' '.join(text.split())}")


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
                        stderr(f"{PROG}: warning: {_one_line(w.message)}")
    except UsageError as exc:
        text = _one_line(exc)
        stderr(text if text.startswith(PROG) else f"{PROG}: error: {text}")
        return EXIT_USAGE
    except InvalidOptionError as exc:
        stderr(f"{PROG}: error: {_one_line(exc)}")
        return EXIT_USAGE
    except (NavmeshError, OSError) as exc:
        kind = "no path" if isinstance(exc, NoPathError) else "error"
        stderr(f"{PROG}: {kind}: {_one_line(exc)}")
        return EXIT_PROBLEM
    except KeyboardInterrupt:
        stderr(f"{PROG}: interrupted")
        return 130
    except Exception as exc:  # noqa: BLE001 - the promise is one line, never a traceback
        stderr(f"{PROG}: internal error: {type(exc).__name__}: {_one_line(exc)} (please report this)")
        return EXIT_PROBLEM
    finally:
        logger.removeHandler(handler)

