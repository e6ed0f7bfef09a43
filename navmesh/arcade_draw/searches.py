"""Graphs and searches: a graph as a cached shape list; a path, a search's progress, a flow field drawn now."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from arcade.shape_list import ShapeElementList
from arcade.types import RGBOrA255

from navmesh.arcade_draw.batch import Batch, shape_list
from navmesh.arcade_draw.style import (
    ARC_COLOR,
    ARROW_COLOR,
    EXPANDED_COLOR,
    GOAL_COLOR,
    NODE_COLOR,
    OPEN_COLOR,
    PARTIAL_COLOR,
    PATH_COLOR,
    TREE_COLOR,
    check_color,
    check_size,
    check_type,
)
from navmesh.arcade_draw.triangles import arrowheads, dashes, discs, segments, stroke
from navmesh.errors import InvalidOptionError, NodeNotFoundError, describe
from navmesh.graph import NavGraph
from navmesh.grid.flowfield import FlowField
from navmesh.path import Path, SearchTrace

__all__ = ["graph_shapes", "draw_path", "draw_trace", "draw_flow_field"]


def graph_shapes(
    graph: NavGraph,
    *,
    color: RGBOrA255 = ARC_COLOR,
    node_color: RGBOrA255 = NODE_COLOR,
    node_radius: float = 3.0,
    line_width: float = 1.0,
    arrow_size: float = 8.0,
    tag_colors: Mapping[str, RGBOrA255] | None = None,
) -> ShapeElementList:
    """A navigation graph as a cached shape list: arcs as lines, nodes as dots.

    An undirected edge (arcs both ways) is drawn once; a one-way arc gets an arrowhead at its
    target, so one-way links stand out. Self-loops are not drawn.

    Parameters
    ----------
    graph : NavGraph
        The graph (a built level's ``nav.graph``).
    color : colour
        Colour of the arcs.
    node_color : colour
        Colour of the node dots.
    node_radius : float
        Radius of a node dot in world units, >= 0 (0: no dots).
    line_width : float
        Width of an arc in world units, > 0.
    arrow_size : float
        Length and width of the arrowhead of a one-way arc in world units, >= 0 (0: none).
    tag_colors : mapping of str to colour, optional
        Arc colour per arc tag name (``graph.tag_names``), e.g. ``{"ladder": (255, 0, 255)}``. A
        name is looked up whole and, failing that, by its part before ``"|"`` (the surface of a
        gated arc such as ``"ford|requires:boots"``). Unlisted tags use ``color``.

    Returns
    -------
    arcade.shape_list.ShapeElementList
        Call its ``draw()`` in ``on_draw``; rebuild it when the graph changes.

    Raises
    ------
    InvalidOptionError
        A colour or a size is invalid, or ``graph`` is not a NavGraph.
    """
    check_type("graph", graph, NavGraph)
    radius = check_size("node_radius", node_radius)
    width = check_size("line_width", line_width, allow_zero=False)
    head = check_size("arrow_size", arrow_size)
    rgba = check_color("color", color)
    node_rgba = check_color("node_color", node_color)

    table = dict(tag_colors or {})
    tag_rgba = np.broadcast_to(rgba, (len(graph.tag_names), 4)).copy()
    for i, tag in enumerate(graph.tag_names):
        key = tag if tag in table else tag.split("|", 1)[0]
        if key in table:
            tag_rgba[i] = check_color(f"tag_colors[{key!r}]", table[key])

    pts = graph.points[:, :2]
    src = graph.arc_sources.astype(np.int64)
    dst = graph.indices.astype(np.int64)
    n = np.int64(graph.n_nodes)
    has_reverse = np.isin(dst * n + src, src * n + dst)
    draw = (src != dst) & ((src < dst) | ~has_reverse)
    one_way = draw & ~has_reverse
    arc_rgba = tag_rgba[graph.tags]

    arcs = Batch()
    a, b = pts[src[draw]], pts[dst[draw]]
    length = np.hypot(*(b - a).T)
    live = length > 0
    arcs.add(segments(a, b, width), np.repeat(arc_rgba[draw][live], 6, axis=0))
    if head > 0 and one_way.any():
        a, b = pts[src[one_way]], pts[dst[one_way]]
        length = np.hypot(*(b - a).T)
        live = length > 0
        unit = (b - a)[live] / length[live, None]
        tips = b[live] - unit * radius
        arcs.add(arrowheads(tips, unit, head), np.repeat(arc_rgba[one_way][live], 3, axis=0))

    nodes = Batch()
    if radius > 0 and graph.n_nodes:
        nodes.add(discs(pts, radius), node_rgba)
    return shape_list([arcs, nodes])


def draw_path(
    path: Path,
    *,
    color: RGBOrA255 = PATH_COLOR,
    line_width: float = 3.0,
    point_radius: float = 4.0,
    partial_color: RGBOrA255 = PARTIAL_COLOR,
    dash: tuple[float, float] = (12.0, 8.0),
) -> None:
    """Draw a path now: its polyline and a dot at each of its points.

    A partial path (``path.partial``, the goal was not reached) is drawn dashed in
    ``partial_color``, so it cannot be mistaken for a complete one.

    Parameters
    ----------
    path : Path
        The path; ``path.points`` gives the positions (z ignored).
    color : colour
        Colour of a complete path.
    line_width : float
        Width of the polyline in world units, > 0.
    point_radius : float
        Radius of the dot at each point in world units, >= 0 (0: no dots).
    partial_color : colour
        Colour of a partial path.
    dash : pair of float
        Length of a dash and of the gap after it, in world units (> 0, >= 0), for partial paths.

    Raises
    ------
    InvalidOptionError
        A colour or a size is invalid, or ``path`` is not a Path.
    """
    check_type("path", path, Path)
    width = check_size("line_width", line_width, allow_zero=False)
    radius = check_size("point_radius", point_radius)
    try:
        on, off = dash
    except (TypeError, ValueError):
        raise InvalidOptionError(f"dash={describe(dash)} is not valid; expected (dash length, gap length)") from None
    on = check_size("dash[0]", on, allow_zero=False)
    off = check_size("dash[1]", off)
    rgba = check_color("partial_color", partial_color) if path.partial else check_color("color", color)
    pts = path.points[:, :2]
    mesh = Batch()
    if len(pts) >= 2:
        if path.partial:
            a, b = dashes(pts, on, off)
            mesh.add(stroke(a, b, width, np.concatenate([a, b])), rgba)
        else:
            mesh.add(stroke(pts[:-1], pts[1:], width, pts), rgba)
    if radius > 0 and len(pts):
        mesh.add(discs(pts, radius), rgba)
    mesh.draw()


def draw_trace(
    trace: SearchTrace,
    graph: NavGraph,
    *,
    step: int | None = None,
    expanded_color: RGBOrA255 = EXPANDED_COLOR,
    open_color: RGBOrA255 = OPEN_COLOR,
    tree_color: RGBOrA255 = TREE_COLOR,
    node_radius: float = 4.0,
    line_width: float = 1.5,
) -> None:
    """Draw the state of a recorded search after ``step`` expansions (the "watch the search" view).

    Shows the closed set (nodes expanded so far), the open set (nodes reached but not yet
    expanded: the frontier) and the search tree (each reached node joined to the node it is
    currently reached from). Increase ``step`` by one each frame to animate the search; draw
    ``trace.path`` with :func:`draw_path` once ``step`` reaches ``len(trace.expanded)``.

    Parameters
    ----------
    trace : SearchTrace
        A trace from :func:`navmesh.tracing.search_trace`.
    graph : NavGraph
        The graph the trace was recorded on (gives the node positions; z ignored).
    step : int, optional
        Expansions to show, >= 0; values past ``len(trace.expanded)`` show the finished search.
        Default: the finished search.
    expanded_color, open_color, tree_color : colour
        Colours of expanded nodes, open nodes and search-tree lines (alpha 0 leaves one out).
    node_radius : float
        Radius of a node dot in world units, > 0.
    line_width : float
        Width of a search-tree line in world units, > 0.

    Raises
    ------
    InvalidOptionError
        ``step`` is negative or not an int, a colour or a size is invalid, or the arguments are
        not a SearchTrace and a NavGraph.
    NodeNotFoundError
        The trace holds node ids the graph does not have (it was recorded on another graph).
    """
    check_type("trace", trace, SearchTrace)
    check_type("graph", graph, NavGraph)
    n_exp = len(trace.expanded)
    if step is None:
        k = n_exp
    elif isinstance(step, (int, np.integer)) and not isinstance(step, bool) and step >= 0:
        k = min(int(step), n_exp)
    else:
        raise InvalidOptionError(f"step={describe(step)} is not valid; expected an int >= 0 or None")
    radius = check_size("node_radius", node_radius, allow_zero=False)
    width = check_size("line_width", line_width, allow_zero=False)
    exp_rgba = check_color("expanded_color", expanded_color)
    open_rgba = check_color("open_color", open_color)
    tree_rgba = check_color("tree_color", tree_color)
    top = max(
        int(trace.expanded.max(initial=-1)),
        int(trace.opened.max(initial=-1)),
        int(trace.opened_parent.max(initial=-1)),
    )
    if top >= graph.n_nodes:
        raise NodeNotFoundError(
            f"trace holds node {top} but graph has {graph.n_nodes} nodes; pass the graph the trace was recorded on"
        )

    pts = graph.points[:, :2]
    reached = trace.opened_step < k
    nodes = trace.opened[reached]
    parents = trace.opened_parent[reached]
    # A node may be opened again with a better parent; the latest opening is the current one.
    last = len(nodes) - 1 - np.unique(nodes[::-1], return_index=True)[1]
    nodes, parents = nodes[last], parents[last]
    closed = np.zeros(graph.n_nodes, dtype=bool)
    closed[trace.expanded[:k]] = True

    mesh = Batch()
    linked = parents >= 0
    mesh.add(segments(pts[parents[linked]], pts[nodes[linked]], width), tree_rgba)
    mesh.add(discs(pts[np.flatnonzero(closed)], radius), exp_rgba)
    mesh.add(discs(pts[nodes[~closed[nodes]]], radius), open_rgba)
    mesh.draw()


def draw_flow_field(
    field: FlowField,
    *,
    color: RGBOrA255 = ARROW_COLOR,
    goal_color: RGBOrA255 = GOAL_COLOR,
    arrow_length: float = 0.7,
    line_width: float | None = None,
) -> None:
    """Draw a flow field now: an arrow in each reached cell pointing along its signpost.

    Goal cells get a dot; blocked and unreached cells (no signpost) get nothing (draw the walls
    with :func:`grid_shapes`). All arrows go in one draw call.

    Parameters
    ----------
    field : FlowField
        The field; its grid gives the cell positions and size.
    color : colour
        Colour of the arrows.
    goal_color : colour
        Colour of the goal dots.
    arrow_length : float
        Length of an arrow as a fraction of the cell size, in (0, 1].
    line_width : float, optional
        Width of an arrow's shaft in world units, > 0. Default: a tenth of the cell size.

    Raises
    ------
    InvalidOptionError
        A colour or a size is invalid, or ``field`` is not a FlowField.
    """
    check_type("field", field, FlowField)
    frac = check_size("arrow_length", arrow_length, allow_zero=False)
    if frac > 1:
        raise InvalidOptionError(f"arrow_length={describe(arrow_length)} is not valid; expected a fraction in (0, 1]")
    rgba = check_color("color", color)
    goal_rgba = check_color("goal_color", goal_color)
    grid = field.grid
    s = float(grid.cell_size)
    width = 0.1 * s if line_width is None else check_size("line_width", line_width, allow_zero=False)

    cells = np.arange(grid.n_cells)
    dirs = field.direction_at(cells)
    moving = np.flatnonzero((dirs != 0).any(axis=1))
    centers = grid.cell_center(moving) if len(moving) else np.zeros((0, 2))
    unit = dirs[moving]
    half = 0.5 * frac * s
    head = min(0.35 * s, 0.6 * frac * s)
    tail, tip = centers - unit * half, centers + unit * half

    mesh = Batch()
    # The shaft stops where the head begins so that translucent arrows do not darken there.
    mesh.add(segments(tail, tip - unit * (0.5 * head), width), rgba)
    mesh.add(arrowheads(tip, unit, head), rgba)
    mesh.add(discs(grid.cell_center(field.goals.astype(np.int64)), 0.3 * s), goal_rgba)
    mesh.draw()
