"""``navmesh convert`` (Tiled and Moving AI maps to level files) and ``navmesh bench``."""

from __future__ import annotations

import argparse
from pathlib import Path as FilePath

from navmesh.cli.common import EXIT_OK, UsageError
from navmesh.cli.levels import file_kind, load

__all__ = ["cmd_convert", "cmd_bench", "BENCHMARKS"]

BENCHMARKS = ("search", "grid", "fatcat", "build", "anyangle")


def cmd_convert(args: argparse.Namespace) -> int:
    from navmesh.io.level_json import save_level

    if file_kind(args.level) == "level":
        if FilePath(args.level).suffix.lower() == ".json":
            raise UsageError(
                f"{args.level} is already a navmesh level; convert reads Tiled (.tmj/.tmx) or Moving AI (.map) maps"
            )
        raise UsageError(
            f"{args.level}: the format is not recognised; convert reads Tiled maps (.tmj, .tmx, or a .json written "
            "by Tiled) and Moving AI maps (.map)"
        )
    level = load(args)
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

