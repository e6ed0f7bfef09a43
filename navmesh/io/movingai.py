"""Readers for the Moving AI grid benchmark formats: ``.map`` files and ``.scen`` scenario files.

Map format (``type octile``): four header lines ``type octile``, ``height H``, ``width W``,
``map`` (height before width; the reader accepts the two in either order), then ``H`` rows of
``W`` characters. ``.`` ``G`` ``S`` are passable ground, ``@`` ``O`` ``T`` are blocked, ``W`` is
water, which connects only to other water cells (see :meth:`navmesh.grid.GridMap.from_movingai`
for the ways to read it). Cell (x, y) is column x, row y, zero-based from the top-left.

Scenario format: a first line ``version 1`` (``version 1.0`` is the same), then one query per
line, whitespace separated: ``bucket map width height start_x start_y goal_x goal_y
optimal_length`` (width before height here). Blank lines are skipped and folder prefixes on the
map name (``maps/dao/arena.map``) are dropped.

Both readers accept LF and CRLF line ends and never execute anything from the file. A file that
cannot be read raises :class:`~navmesh.errors.LevelFormatError` naming the file, the line and
the reason. Map data: Moving AI Lab benchmark set (N. Sturtevant, "Benchmarks for Grid-Based
Pathfinding", IEEE TCIAIG 4(2), 2012; movingai.com).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from navmesh._checks import check_path, check_positive_int
from navmesh.errors import LevelFormatError, NodeNotFoundError, describe

__all__ = ["MovingAIMap", "Scenarios", "read_map", "read_scenarios", "decode_rows", "MAP_CHARACTERS"]

#: Characters a map body may hold: passable ``.GS``, blocked ``@OT``, water ``W``.
MAP_CHARACTERS = ".GS@OTW"
_INT32_MAX = 2**31 - 1
_WHOLE = re.compile(r"-?[0-9]+")


@dataclass(frozen=True, eq=False)
class MovingAIMap:
    """The raw contents of a Moving AI ``.map`` file.

    Attributes
    ----------
    path : str
        The file read.
    type : str
        The header's map type (``"octile"`` in every published map).
    chars : str array of shape (height, width)
        One map character per cell, row 0 at the top (read-only).
    """

    path: str
    type: str
    chars: NDArray[np.str_]

    @property
    def height(self) -> int:
        """Number of rows."""
        return int(self.chars.shape[0])

    @property
    def width(self) -> int:
        """Number of columns."""
        return int(self.chars.shape[1])


@dataclass(frozen=True, eq=False)
class Scenarios:
    """The queries of a Moving AI ``.scen`` file, one array entry per scenario line.

    Attributes
    ----------
    path : str
        The file read.
    version : str
        The version from the first line, as written (``"1"`` or ``"1.0"``).
    buckets : int32 array of shape (n,)
        Bucket of each query (roughly its optimal length / 4).
    map_names : tuple of str
        Map file name of each query, without folder prefix.
    map_widths, map_heights : int32 arrays of shape (n,)
        Map size each query was written for.
    starts, goals : int32 arrays of shape (n, 2)
        Start and goal cells as (x, y) = (column, row).
    optimal : float64 array of shape (n,)
        Published optimal octile length (8-connected, no corner cutting, diagonal sqrt 2).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "tiny.scen"
    >>> _ = f.write_text("version 1.0\\r\\n\\r\\n0\\tmaps/tiny.map\\t4\\t3\\t0\\t0\\t3\\t2\\t3.82842712\\r\\n")
    >>> scen = read_scenarios(f)
    >>> len(scen), scen.map_names[0], scen.goals[0].tolist()
    (1, 'tiny.map', [3, 2])
    >>> scen.start_cells(4).tolist(), scen.goal_cells(4).tolist()   # row * width + col
    ([0], [11])
    """

    path: str
    version: str
    buckets: NDArray[np.int32]
    map_names: tuple[str, ...]
    map_widths: NDArray[np.int32]
    map_heights: NDArray[np.int32]
    starts: NDArray[np.int32]
    goals: NDArray[np.int32]
    optimal: NDArray[np.float64]

    def __len__(self) -> int:
        return len(self.buckets)

    def start_cells(self, width: int) -> NDArray[np.int32]:
        """Flat cell ids ``y * width + x`` of the starts on a map ``width`` columns wide."""
        return _cells(self.starts, width)

    def goal_cells(self, width: int) -> NDArray[np.int32]:
        """Flat cell ids ``y * width + x`` of the goals on a map ``width`` columns wide."""
        return _cells(self.goals, width)


def _cells(xy: NDArray[np.int32], width: int) -> NDArray[np.int32]:
    w = check_positive_int("width", width, maximum=_INT32_MAX)
    if len(xy) and int(xy[:, 0].max()) >= w:
        raise NodeNotFoundError(f"a cell has x={int(xy[:, 0].max())}, outside a map {w} columns wide")
    cells = xy[:, 1].astype(np.int64) * w + xy[:, 0]
    if len(cells) and int(cells.max()) > _INT32_MAX:
        raise NodeNotFoundError(f"cell id {int(cells.max())} does not fit int32 node ids (map {w} columns wide)")
    return cells.astype(np.int32)


def _read_lines(path: str | os.PathLike[str]) -> tuple[str, list[str]]:
    name = check_path("path", path)
    with open(name, "rb") as fh:
        raw = fh.read()
    # latin-1 maps every byte to a character, so odd bytes surface as "unknown character" errors
    # with a line number instead of a decoding error without one.
    text = raw.decode("latin-1")
    return name, [ln.rstrip("\r") for ln in text.split("\n")]


def decode_rows(
    lines: Sequence[str], *, source: str, first_line: int, allow_hash: bool = False
) -> NDArray[np.str_]:
    """Check map body rows and return them as a (height, width) array of characters.

    Parameters
    ----------
    lines : sequence of str
        The rows, top first, without line ends (trailing spaces are ignored).
    source : str
        File name (or description) for error messages.
    first_line : int
        Line number of ``lines[0]`` in the source, for error messages.
    allow_hash : bool
        Also accept ``#`` as a wall (for hand-written maps).

    Raises
    ------
    LevelFormatError
        No rows, rows of different lengths, or a character outside :data:`MAP_CHARACTERS`.
    """
    rows = [ln.rstrip() for ln in lines]
    if not rows or not rows[0]:
        raise LevelFormatError(f"{source}, line {first_line}: the map has no rows")
    width = len(rows[0])
    allowed = set(MAP_CHARACTERS + ("#" if allow_hash else ""))
    for i, row in enumerate(rows):
        if len(row) != width:
            raise LevelFormatError(
                f"{source}, line {first_line + i}: row has {len(row)} characters; expected {width}"
            )
        bad = set(row) - allowed
        if bad:
            ch = min(bad, key=row.index)
            raise LevelFormatError(
                f"{source}, line {first_line + i}, column {row.index(ch) + 1}: unknown map character "
                f"{ch!r}; expected one of {''.join(sorted(allowed))!r}"
            )
    chars = np.array([list(row) for row in rows], dtype="<U1")
    chars.flags.writeable = False
    return chars


def read_map(path: str | os.PathLike[str]) -> MovingAIMap:
    """Read a Moving AI ``.map`` file.

    Parameters
    ----------
    path : path-like
        The file; LF or CRLF line ends.

    Returns
    -------
    MovingAIMap
        Header type and the (height, width) character array. Use
        :meth:`navmesh.grid.GridMap.from_movingai` to get a searchable grid directly.

    Raises
    ------
    LevelFormatError
        Missing or malformed header line, non-positive size, wrong number or length of rows,
        unknown map character, or text after the last row.
    FileNotFoundError
        No such file (other ``OSError``: it cannot be read, e.g. it is a folder).
    InvalidOptionError
        ``path`` is not a str or path-like.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "tiny.map"
    >>> _ = f.write_text("type octile\\r\\nheight 2\\r\\nwidth 3\\r\\nmap\\r\\n..@\\r\\nT.W\\r\\n")
    >>> m = read_map(f)
    >>> m.height, m.width, m.chars[1].tolist()
    (2, 3, ['T', '.', 'W'])
    """
    name, lines = _read_lines(path)
    header: dict[str, str] = {}
    i = 0
    while True:
        if i >= len(lines):
            raise LevelFormatError(f"{name}: the header has no 'map' line; expected type, height, width, map")
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        if line.lower() == "map":
            break
        parts = line.split()
        key = parts[0].lower()
        if key not in ("type", "height", "width") or len(parts) != 2:
            raise LevelFormatError(
                f"{name}, line {i}: header line {describe(line)} is not valid; expected 'type octile', "
                "'height H', 'width W' or 'map'"
            )
        if key in header:
            raise LevelFormatError(f"{name}, line {i}: {key!r} is given twice")
        header[key] = parts[1]
    for key in ("type", "height", "width"):
        if key not in header:
            raise LevelFormatError(f"{name}: the header has no {key!r} line before 'map'")
    size = {}
    for key in ("height", "width"):
        text = header[key]
        if not _WHOLE.fullmatch(text) or not 1 <= int(text) <= _INT32_MAX:
            raise LevelFormatError(
                f"{name}: {key} {describe(text)} is not valid; expected a whole number from 1 to {_INT32_MAX}"
            )
        size[key] = int(text)
    height, width = size["height"], size["width"]
    rest = lines[i:]
    while rest and not rest[-1].strip():
        rest.pop()
    if len(rest) < height:
        raise LevelFormatError(f"{name}: expected {height} map rows after line {i}; found {len(rest)}")
    if len(rest) > height:
        raise LevelFormatError(f"{name}, line {i + height + 1}: unexpected text after the {height} map rows")
    body = rest
    for j, row in enumerate(body):
        if len(row.rstrip()) != width:
            raise LevelFormatError(
                f"{name}, line {i + j + 1}: row has {len(row.rstrip())} characters; expected width {width}"
            )
    chars = decode_rows(body, source=name, first_line=i + 1)
    return MovingAIMap(name, header["type"], chars)


def read_scenarios(path: str | os.PathLike[str]) -> Scenarios:
    """Read a Moving AI ``.scen`` file (``version 1`` or ``version 1.0``).

    Parameters
    ----------
    path : path-like
        The file; LF or CRLF line ends, blank lines allowed anywhere.

    Returns
    -------
    Scenarios
        One entry per query line; see the class for the fields and an example.

    Raises
    ------
    LevelFormatError
        Missing or unsupported version line, a line without exactly 9 fields, a field that is
        not a number, a start or goal outside the stated map size, or a negative length.
    FileNotFoundError
        No such file (other ``OSError``: it cannot be read, e.g. it is a folder).
    InvalidOptionError
        ``path`` is not a str or path-like.
    """
    name, lines = _read_lines(path)
    numbered = [(k + 1, ln.strip()) for k, ln in enumerate(lines) if ln.strip()]
    if not numbered:
        raise LevelFormatError(f"{name}: the file is empty; expected a 'version 1' line")
    line_no, first = numbered[0]
    parts = first.split()
    if len(parts) != 2 or parts[0].lower() != "version":
        raise LevelFormatError(f"{name}, line {line_no}: expected 'version 1', found {describe(first)}")
    try:
        version_ok = float(parts[1]) == 1.0
    except ValueError:
        version_ok = False
    if not version_ok:
        raise LevelFormatError(
            f"{name}, line {line_no}: scenario version {describe(parts[1])} is not supported; expected 1 or 1.0"
        )
    n = len(numbered) - 1
    ints = np.empty((n, 7), dtype=np.int64)
    optimal = np.empty(n, dtype=np.float64)
    names: list[str] = []
    for row, (line_no, line) in enumerate(numbered[1:]):
        fields = line.split()
        if len(fields) != 9:
            raise LevelFormatError(
                f"{name}, line {line_no}: {len(fields)} fields; expected 9 "
                "(bucket map width height start_x start_y goal_x goal_y optimal_length)"
            )
        numbers = [fields[0], *fields[2:8]]
        if not all(_WHOLE.fullmatch(f) and len(f) <= 12 and abs(int(f)) <= _INT32_MAX for f in numbers):
            raise LevelFormatError(
                f"{name}, line {line_no}: bucket, width, height and coordinates must be whole numbers "
                f"within +-{_INT32_MAX} (int32)"
            )
        vals = [int(f) for f in numbers]
        try:
            length = float(fields[8]) if "_" not in fields[8] else math.nan
        except ValueError:
            length = math.nan
        if not (length >= 0 and math.isfinite(length)):
            raise LevelFormatError(
                f"{name}, line {line_no}: optimal length {describe(fields[8])} is not valid; expected a number >= 0"
            )
        _, w, h, sx, sy, gx, gy = vals
        if w < 1 or h < 1 or not (0 <= sx < w and 0 <= gx < w and 0 <= sy < h and 0 <= gy < h):
            raise LevelFormatError(
                f"{name}, line {line_no}: start ({sx}, {sy}) or goal ({gx}, {gy}) lies outside the "
                f"{w}x{h} map"
            )
        ints[row] = vals
        optimal[row] = length
        names.append(fields[1].replace("\\", "/").rsplit("/", 1)[-1])
    arrays = {
        "buckets": ints[:, 0].astype(np.int32),
        "map_widths": ints[:, 1].astype(np.int32),
        "map_heights": ints[:, 2].astype(np.int32),
        "starts": ints[:, 3:5].astype(np.int32),
        "goals": ints[:, 5:7].astype(np.int32),
        "optimal": optimal,
    }
    for arr in arrays.values():
        arr.flags.writeable = False
    return Scenarios(name, parts[1], map_names=tuple(names), **arrays)
