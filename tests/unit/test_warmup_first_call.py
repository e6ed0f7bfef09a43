"""After ``warm_up(["waypoints"])`` a game's first waypoint search compiles nothing (issue 18).

The warm-up runs on a tiny level; a game's level is bigger, has no terrain (NavQuery's one-call
road) or has terrain and a cost profile (the general road). Each is tried in a fresh process, so
no other test's calls have compiled anything beforehand. Two counts: numba's "numba:compile"
events (real compilations, cache misses) and the specialisations each navmesh dispatcher holds
(which also grow when a kernel warm_up missed is merely loaded from a cache an earlier run filled).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing compiles without the JIT")

GAME = """
import json
import sys
from numba.core import event
from numba.core.registry import CPUDispatcher
import navmesh
def specialisations():
    return {f"{name}.{attr}": len(value.signatures) for name, module in list(sys.modules.items())
            if name.startswith("navmesh") for attr, value in vars(module).items()
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name}
navmesh.warm_up(["waypoints"])
before = specialisations()
compiled = []
class Seen(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        compiled.append(f"{f.__module__}.{f.__qualname__}")
    def on_end(self, ev):
        pass
event.register("numba:compile", Seen())
walls = [[(300, 100), (340, 100), (340, 500), (300, 500)], [(500, 0), (540, 0), (540, 350), (500, 350)]]
if sys.argv[1] == "terrain":
    mud = navmesh.TerrainRegion([(0, 0), (200, 0), (200, 200), (0, 200)], "mud")
    level = navmesh.Level.rectangle(800, 600, obstacles=walls, terrain=[mud])
    profile = navmesh.CostProfile("jeep", multipliers={"mud": 3.0})
else:
    level = navmesh.Level.rectangle(800, 600, obstacles=walls)
    profile = None
query = navmesh.NavQuery(navmesh.build_waypoint_graph(level, corners=True, agent_radius=12.0), profile)
path = query.find_path((50, 300), (750, 300))
grown = sorted(name for name, n in specialisations().items() if n != before.get(name, 0))
print(json.dumps({"compiled": compiled, "grown": grown, "cost": path.cost}))
"""


@pytest.mark.parametrize("ground", ["plain", "terrain"])
def test_first_find_path_on_a_new_bigger_level_compiles_nothing(ground):
    run = subprocess.run([sys.executable, "-c", GAME, ground], capture_output=True, text=True, timeout=1800,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["cost"] > 700.0  # a real path round both walls, longer than the straight 700
    assert out["compiled"] == []
    assert out["grown"] == []
