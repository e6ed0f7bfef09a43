"""Level files: the JSON format (schema 1), atomic saves with a ``.bak``, code-free loading.

File format (``"schema": 1``)
-----------------------------
UTF-8 JSON object with exactly these keys (``schema`` and ``bounds`` required)::

    {"schema": 1,
     "bounds": {"exterior": [[x, y], ...], "holes": [[[x, y], ...], ...]},
     "obstacles": [{"exterior": [...], "holes": [...]}, ...],
     "waypoints": [[x, y], ...]                      (or [x, y, z] rows),
     "terrain": [{"tag": "swamp", "polygon": {"exterior": [...], "holes": [...]}}, ...],
     "links": [{"a": 0, "b": 1, "kind": "forced", "tag": "", "requires": null}, ...],
     "offmesh_links": [{"a": 2, "b": 5, "cost": 3.0, "tag": "ladder",
                        "bidirectional": false, "requires": null}, ...]}

Floats are written with Python's shortest round-trip repr, so save + load gives the identical
level. Loading parses plain JSON only (no code runs); NaN/Infinity literals are rejected.
"""

from __future__ import annotations

import errno
import glob
import json
import math
import os
import shutil
import secrets
import stat
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import shapely

from navmesh._checks import MAX_COORDINATE, check_option, check_path
from navmesh.errors import (
    InvalidOptionError,
    LevelFormatError,
    NavmeshError,
    describe,
)
from navmesh.geometry import as_polygon, polygon_to_data
from navmesh.level import BAD_WAYPOINT_POLICIES, BadWaypointPolicy, Level, OffMeshLink

__all__ = ["SCHEMA_VERSION", "load_level", "save_level", "level_to_data", "level_from_data"]

SCHEMA_VERSION = 1

# -- JSON files ------------------------------------------------------------------------------
_TOP_KEYS = ("schema", "bounds", "obstacles", "waypoints", "terrain", "links", "offmesh_links")


def level_to_data(level: Level) -> dict[str, Any]:
    """The level as plain JSON-ready data (schema 1); inverse of :func:`level_from_data`.

    Examples
    --------
    >>> data = level_to_data(Level.rectangle(4, 3, waypoints=[[1, 1]]))
    >>> data["schema"], data["waypoints"]
    (1, [[1.0, 1.0]])
    """
    if not isinstance(level, Level):
        raise InvalidOptionError(f"level={describe(level)} is not a Level")
    return {
        "schema": SCHEMA_VERSION,
        "bounds": polygon_to_data(level.bounds),
        "obstacles": [polygon_to_data(p) for p in level.obstacles],
        "waypoints": level.waypoints.tolist(),
        "terrain": [{"tag": r.tag, "polygon": polygon_to_data(r.polygon)} for r in level.terrain],
        "links": [
            {"a": lk.a, "b": lk.b, "kind": lk.kind, "tag": lk.tag, "requires": lk.requires} for lk in level.links
        ],
        "offmesh_links": [
            {
                "a": lk.a,
                "b": lk.b,
                "cost": lk.cost,
                "tag": lk.tag,
                "bidirectional": lk.bidirectional,
                "requires": lk.requires,
            }
            for lk in level.offmesh_links
        ],
    }


class _Reader:
    """Type checks on parsed JSON that name the field path in the error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, reason: str) -> LevelFormatError:
        return LevelFormatError(f"{self.source}: {path}: {reason}")

    def obj(self, value: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected an object, got {type(value).__name__}")
        for key in required:
            if key not in value:
                raise self.fail(path, f"missing field {key!r}")
        for key in value:
            if key not in required and key not in optional:
                where = describe(key) if not isinstance(key, str) or len(key) > 40 else key
                raise self.fail(f"{path}.{where}" if path != "$" else where, "unknown field")
        return value

    def arr(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected an array, got {type(value).__name__}")
        return value

    def num(self, value: Any, path: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(path, f"expected a number, got {describe(value)}")
        try:
            f = float(value)
        except OverflowError:
            f = math.inf
        if not abs(f) <= MAX_COORDINATE:
            raise self.fail(path, f"{describe(value)} is too large; numbers must lie within +-{MAX_COORDINATE:g}")
        return f

    def int_(self, value: Any, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected an integer, got {describe(value)}")
        return value

    def str_(self, value: Any, path: str, *, nullable: bool = False) -> Any:
        if value is None and nullable:
            return None
        if not isinstance(value, str):
            raise self.fail(path, f"expected a string{' or null' if nullable else ''}, got {describe(value)}")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise self.fail(path, f"{describe(value)} holds a lone surrogate (\\ud800-\\udfff); not UTF-8 text") from None
        return value

    def bool_(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(path, f"expected true or false, got {describe(value)}")
        return value

    def points(self, value: Any, path: str, dims: tuple[int, ...]) -> list[list[float]]:
        rows = self.arr(value, path)
        out: list[list[float]] = []
        width = None
        for i, row in enumerate(rows):
            row = self.arr(row, f"{path}[{i}]")
            if len(row) not in dims or (width is not None and len(row) != width):
                want = width if width is not None else " or ".join(map(str, dims))
                raise self.fail(f"{path}[{i}]", f"expected {want} coordinates, got {len(row)}")
            width = len(row)
            out.append([self.num(v, f"{path}[{i}][{j}]") for j, v in enumerate(row)])
        return out

    def polygon(self, value: Any, path: str) -> shapely.Polygon:
        poly = self.obj(value, path, ("exterior",), ("holes",))
        shell = self.points(poly["exterior"], f"{path}.exterior", (2,))
        rings = self.arr(poly.get("holes", []), f"{path}.holes")
        holes = [self.points(h, f"{path}.holes[{j}]", (2,)) for j, h in enumerate(rings)]
        try:
            return as_polygon({"exterior": shell, "holes": holes}, name=path)
        except NavmeshError as exc:
            raise LevelFormatError(f"{self.source}: {exc}") from None


def level_from_data(
    data: Any,
    *,
    source: str = "<data>",
    on_bad_waypoint: BadWaypointPolicy = "error",
    known_tags: Iterable[str] | None = None,
) -> Level:
    """Build a :class:`Level` from plain data in the schema-1 layout (see the module notes).

    Parameters
    ----------
    data : dict
        Parsed JSON.
    source : str
        Where the data came from, for messages (a file name).
    on_bad_waypoint, known_tags
        As for :class:`Level`.

    Raises
    ------
    LevelFormatError
        Wrong layout, type, schema version or any invalid content; the message is
        ``"<source>: <field path>: <reason>"``.

    Examples
    --------
    >>> level = level_from_data({"schema": 1, "bounds": {"exterior": [[0, 0], [4, 0], [4, 4], [0, 4]]}})
    >>> level.bounds.area
    16.0
    >>> level_from_data({"schema": 2, "bounds": {}}, source="a.json")
    Traceback (most recent call last):
    ...
    navmesh.errors.LevelFormatError: a.json: schema: version 2 is not supported; this navmesh reads schema 1
    """
    check_option("on_bad_waypoint", on_bad_waypoint, BAD_WAYPOINT_POLICIES)
    if isinstance(known_tags, str):
        raise InvalidOptionError("known_tags must be a set of str, not one str")
    rd = _Reader(source)
    top = rd.obj(data, "$", ("schema", "bounds"), _TOP_KEYS[2:])
    version = top["schema"]
    if version != SCHEMA_VERSION or isinstance(version, bool):
        raise rd.fail(
            "schema", f"version {describe(version)} is not supported; this navmesh reads schema {SCHEMA_VERSION}"
        )
    bounds = rd.polygon(top["bounds"], "bounds")
    obstacles = [rd.polygon(o, f"obstacles[{i}]") for i, o in enumerate(rd.arr(top.get("obstacles", []), "obstacles"))]
    waypoints = rd.points(top.get("waypoints", []), "waypoints", (2, 3))
    terrain = []
    for i, item in enumerate(rd.arr(top.get("terrain", []), "terrain")):
        reg = rd.obj(item, f"terrain[{i}]", ("tag", "polygon"))
        tag = rd.str_(reg["tag"], f"terrain[{i}].tag")
        poly = rd.polygon(reg["polygon"], f"terrain[{i}].polygon")
        terrain.append((poly, tag))
    links = []
    for i, item in enumerate(rd.arr(top.get("links", []), "links")):
        p = f"links[{i}]"
        lk = rd.obj(item, p, ("a", "b", "kind"), ("tag", "requires"))
        links.append(
            (
                rd.int_(lk["a"], f"{p}.a"),
                rd.int_(lk["b"], f"{p}.b"),
                rd.str_(lk["kind"], f"{p}.kind"),
                rd.str_(lk.get("tag", ""), f"{p}.tag"),
                rd.str_(lk.get("requires"), f"{p}.requires", nullable=True),
            )
        )
    offmesh = []
    for i, item in enumerate(rd.arr(top.get("offmesh_links", []), "offmesh_links")):
        p = f"offmesh_links[{i}]"
        lk = rd.obj(item, p, ("a", "b", "cost", "tag"), ("bidirectional", "requires"))
        try:
            offmesh.append(
                OffMeshLink(
                    rd.int_(lk["a"], f"{p}.a"),
                    rd.int_(lk["b"], f"{p}.b"),
                    rd.num(lk["cost"], f"{p}.cost"),
                    rd.str_(lk["tag"], f"{p}.tag"),
                    bidirectional=rd.bool_(lk.get("bidirectional", False), f"{p}.bidirectional"),
                    requires=rd.str_(lk.get("requires"), f"{p}.requires", nullable=True),
                )
            )
        except LevelFormatError:
            raise
        except NavmeshError as exc:
            raise rd.fail(p, str(exc)) from None
    try:
        return Level(
            bounds,
            obstacles=obstacles,
            waypoints=np.array(waypoints, dtype=np.float64) if waypoints else np.zeros((0, 2)),
            terrain=terrain,
            links=links,
            offmesh_links=offmesh,
            on_bad_waypoint=on_bad_waypoint,
            known_tags=known_tags,
        )
    except NavmeshError as exc:
        raise LevelFormatError(f"{source}: {exc}") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed; coordinates and costs must be finite numbers")


def load_level(
    path: str | os.PathLike[str],
    *,
    on_bad_waypoint: BadWaypointPolicy = "error",
    known_tags: Iterable[str] | None = None,
) -> Level:
    """Read a level from a schema-1 JSON file (plain JSON: no code is ever run).

    Parameters
    ----------
    path : str or path-like
        The file.
    on_bad_waypoint, known_tags
        As for :class:`Level`.

    Returns
    -------
    Level

    Raises
    ------
    LevelFormatError
        Not UTF-8, not JSON (the message gives line and column), wrong schema version, or a
        field of the wrong type or with invalid content (the message gives the field path,
        e.g. ``obstacles[3].exterior[2]``).
    InvalidOptionError
        ``path`` is not a str or path-like.
    FileNotFoundError
        The file does not exist (other ``OSError``: it cannot be read, e.g. it is a folder).

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> save_level(Level.rectangle(8, 8, waypoints=[[1, 1]]), os.path.join(folder, "a.json"))
    >>> load_level(os.path.join(folder, "a.json")).n_waypoints
    1
    """
    p = Path(check_path("path", path))
    raw = p.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LevelFormatError(f"{p}: byte {exc.start}: not UTF-8 text") from None
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise LevelFormatError(f"{p}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise LevelFormatError(f"{p}: not a level: arrays or objects nested too deeply for a level file") from None
    except ValueError as exc:
        # also Python's limit on the digits of an integer literal
        raise LevelFormatError(f"{p}: {describe(str(exc))}") from None
    return level_from_data(data, source=str(p), on_bad_waypoint=on_bad_waypoint, known_tags=known_tags)


def _dumps(data: dict[str, Any]) -> str:
    """JSON with one top-level field per line and one list item per line: diff-friendly, compact."""
    dump = lambda v: json.dumps(v, allow_nan=False, ensure_ascii=False, separators=(", ", ": "))  # noqa: E731
    parts = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            body = ",\n  ".join(dump(v) for v in value)
            parts.append(f' {json.dumps(key)}: [\n  {body}\n ]')
        else:
            parts.append(f" {json.dumps(key)}: {dump(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # some systems cannot open folders; the rename itself is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save_level(level: Level, path: str | os.PathLike[str]) -> None:
    """Write a level to a JSON file atomically, keeping the previous file as ``<path>.bak``.

    The data goes to a temporary file in the same folder, is flushed to disk (fsync), and then
    replaces ``path`` in one rename; a previous ``path`` is first copied to ``<path>.bak``. A crash
    or error at any point leaves either the old or the new complete file at ``path``, never a
    half-written one. Temporary files an interrupted save left behind (``.<name>.*.tmp``) are
    removed by the next successful save of the same file.

    The saved file keeps the permission bits of the file it replaces (a new file gets the usual
    ``0o666`` minus the umask), and so does the ``.bak``. When ``path`` is a symbolic link the
    file it points to is written and the link stays.

    Parameters
    ----------
    level : Level
        The level to save.
    path : str or path-like
        Target file; its folder must exist.

    Raises
    ------
    InvalidOptionError
        ``level`` is not a Level.
    FileNotFoundError
        The folder does not exist (the error names ``path``).
    OSError
        The file or its backup could not be written; ``path`` is left as it was.

    Examples
    --------
    >>> import tempfile, os
    >>> target = os.path.join(tempfile.mkdtemp(), "level.json")
    >>> save_level(Level.rectangle(8, 8), target)
    >>> save_level(Level.rectangle(9, 9), target)
    >>> load_level(target + ".bak").bounds.bounds
    (0.0, 0.0, 8.0, 8.0)
    """
    text = _dumps(level_to_data(level))  # may raise before any file is touched
    target = Path(os.path.realpath(check_path("path", path)))
    folder = target.parent
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"cannot save the level: folder {str(folder)!r} does not exist", str(target))
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
    tmp = _new_temp(target)
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            if mode is not None:
                os.chmod(fh.fileno(), mode)
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            _backup(target, mode)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(folder)
    _remove_strays(target)


def _new_temp(target: Path) -> Path:
    """Create an empty ``.<name>.<random>.tmp`` beside ``target`` with the default permissions
    (``0o666`` minus the umask, unlike ``mkstemp``'s ``0o600``) and return its path."""
    for _ in range(100):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return tmp
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(target))


def _remove_strays(target: Path) -> None:
    """Delete temporary files that interrupted saves of ``target`` (or of its ``.bak``) left."""
    for name in (target.name, target.name + ".bak"):
        for stray in target.parent.glob(f".{glob.escape(name)}.*.tmp"):
            if stray.name.count(".") == name.count(".") + 3:  # ".<name>.<hex>.tmp", not another file's
                stray.unlink(missing_ok=True)


def _backup(target: Path, mode: int) -> None:
    """Copy ``target`` to ``target.bak`` atomically (copy to a temp file, then rename)."""
    bak = target.with_name(target.name + ".bak")
    tmp = _new_temp(bak)
    try:
        shutil.copyfile(target, tmp)
        os.chmod(tmp, mode)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, bak)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
