"""Hand-made levels with known shortest paths (tests/scenarios/levels/*.json).

Each ``<name>.json`` is an ordinary level file (``navmesh.level.load_level``, so the editor opens it);
``<name>.expected.json`` holds the build options and queries with their hand-computed answers (the
formulas are in the file's notes). Every query is checked with each refinement mode: refinement
never changes the cost of these paths, because the optimal paths here bend only at waypoints.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from navmesh import errors
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.io.level_json import load_level
from navmesh.waypoints.query import find_path
from navmesh.terrain import CostProfile

LEVELS = Path(__file__).parent / "levels"
NAMES = sorted(p.name[: -len(".expected.json")] for p in LEVELS.glob("*.expected.json"))


def _cases():
    for name in NAMES:
        spec = json.loads((LEVELS / f"{name}.expected.json").read_text())
        for i, query in enumerate(spec["queries"]):
            for refine in ("none", "smooth", "any_angle"):
                yield pytest.param(name, spec["build"], query, refine, id=f"{name}-{i}-{refine}")


def _profile(data):
    if data is None:
        return None
    return CostProfile(
        data.get("name", "default"),
        data.get("multipliers", {}),
        forbidden=frozenset(data.get("forbidden", ())),
        capabilities=frozenset(data.get("capabilities", ())),
    )


_NAVS: dict = {}


def _nav(name, build, radius):
    key = (name, radius)
    if key not in _NAVS:
        options = dict(build)
        if radius is not None:
            options["agent_radius"] = radius
        _NAVS[key] = build_waypoint_graph(load_level(LEVELS / f"{name}.json"), **options)
    return _NAVS[key]


def test_every_scenario_has_a_level_file():
    assert set(NAMES) == {"corridor_agent_wide", "goal_behind_wall", "two_islands", "one_way_bridge", "swamp_detour"}
    for name in NAMES:
        assert (LEVELS / f"{name}.json").exists()


@pytest.mark.parametrize("name, build, query, refine", list(_cases()))
def test_scenario_query(name, build, query, refine):
    nav = _nav(name, build, query.get("agent_radius"))
    kwargs = dict(profile=_profile(query.get("profile")), refine=refine, allow_partial=query.get("allow_partial", False))
    if "error" in query:
        with pytest.raises(getattr(errors, query["error"])):
            find_path(nav, query["start"], query["goal"], **kwargs)
        return
    path = find_path(nav, query["start"], query["goal"], **kwargs)
    assert path.cost == pytest.approx(query["cost"], abs=1e-6)
    assert path.partial == query.get("partial", False)
    np.testing.assert_array_equal(path.points[0], query["start"])
    np.testing.assert_array_equal(path.points[-1], query.get("end", query["goal"]))
    if query.get("profile") is None:
        # with plain costs the cost is the geometric length of the returned polyline
        assert path.length == pytest.approx(path.cost, abs=1e-6)
