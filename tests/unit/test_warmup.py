"""Tests of navmesh.warmup: warm_up() and the one-time compile notice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from navmesh.errors import InvalidOptionError
from navmesh.warmup import COMPILE_NOTICE, PARTS, warm_up, warm_up_steps

ROOT = Path(__file__).resolve().parents[2]


def test_warm_up_reports_each_part_and_progress():
    calls = []
    seconds = warm_up(["grid", "waypoints"], progress=lambda part, done, total: calls.append((part, done, total)))
    assert list(seconds) == ["grid", "waypoints"]
    assert all(s >= 0 for s in seconds.values())
    assert calls == [("grid", 0, 2), ("waypoints", 1, 2), ("", 2, 2)]


def test_warm_up_logs_progress(caplog):
    with caplog.at_level("INFO", logger="navmesh"):
        warm_up("grid")
    messages = [r.getMessage() for r in caplog.records if r.name == "navmesh"]
    assert messages[0] == "navmesh warm-up: grid (1 of 1)"
    assert messages[-1].startswith("navmesh warm-up done in ")


@pytest.mark.parametrize("parts", [["roads"], [], ["grid", 3], 5, None, 2.5, [None]])
def test_unknown_parts(parts):
    with pytest.raises(InvalidOptionError, match=r"parts=.*expected one or more of \['waypoints', 'grid', 'jps', 'flowfield', 'steering', 'mesh'\]"):
        warm_up(parts)
    with pytest.raises(InvalidOptionError, match=r"parts=.*expected one or more of"):
        next(warm_up_steps(parts))


def test_bad_parts_message_names_the_value():
    with pytest.raises(InvalidOptionError, match="parts=5 is not valid"):
        warm_up(5)


@pytest.mark.parametrize("background", ["yes", 1, None])
def test_background_must_be_a_bool(background):
    with pytest.raises(InvalidOptionError, match=r"background=.* expected True or False"):
        next(warm_up_steps(["grid"], background=background))


@pytest.mark.parametrize("background", [False, True])
def test_warm_up_steps_counts_every_step_once_in_order(background):
    seen = list(warm_up_steps(["jps", "grid"], background=background))
    total = seen[0][1]
    assert total == 5  # the cache check; jps: 1 step; grid: paths, A*, first steps
    assert seen[0] == (0, total, "navmesh: kernel cache")
    assert seen[-1] == (total, total, "")
    assert all(t == total for _, t, _ in seen)
    done = [d for d, _, _ in seen]
    assert done == sorted(done)
    names = list(dict.fromkeys(name for _, _, name in seen))
    assert names == ["navmesh: kernel cache", "jps: jump point search", "grid: grid paths", "grid: grid A*",
                     "grid: first steps", ""]


def test_closing_the_generator_early_is_clean():
    steps = warm_up_steps(["grid"])
    assert next(steps)[0] == 0
    steps.close()
    with pytest.raises(StopIteration):
        next(steps)


def test_progress_must_be_callable():
    with pytest.raises(InvalidOptionError, match="progress"):
        warm_up(["grid"], progress="yes")


def test_parts_constant():
    assert PARTS == ("waypoints", "grid", "jps", "flowfield", "steering", "mesh")


CHILD = """
import numpy as np
import navmesh.warmup
from navmesh._kernels.grid import cell_centers
for _ in range(2):
    cell_centers(np.arange(3, dtype=np.int64), 2, 2, np.array([0.0, 0.0, 1.0]))
"""


def test_compile_notice_once_on_a_real_compile_and_not_on_a_cache_load(tmp_path):
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("nothing compiles with NUMBA_DISABLE_JIT=1")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    cold = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300)
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.count(COMPILE_NOTICE) == 1
    warm = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300)
    assert warm.returncode == 0, warm.stderr
    assert COMPILE_NOTICE not in warm.stderr


def _dispatchers():
    from numba.core.registry import CPUDispatcher

    found = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("navmesh"):
            for attr, value in vars(module).items():
                if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name:
                    found[f"{name}.{attr}"] = value
    return found


GAME = """
import numpy as np
import navmesh
level = navmesh.Level.rectangle(800, 600, obstacles=[[(300, 100), (340, 100), (340, 500), (300, 500)]],
                                terrain=[navmesh.TerrainRegion([(0, 0), (200, 0), (200, 200), (0, 200)], "mud")])
nav = navmesh.build_waypoint_graph(level, k=8, corners=True, agent_radius=10.0, fill_spacing=110.0)
query = navmesh.NavQuery(nav, navmesh.CostProfile("jeep", multipliers={"mud": 3.0}))
query.find_path((50, 300), (750, 300))
query.find_paths([(50, 300), (60, 500)], [(750, 300), (700, 100)])
crowd = navmesh.Crowd(nav)
ids = crowd.add([[50, 300], [60, 500]], radius=8.0, speed=100.0)
crowd.move_to(ids, [750, 300])
for _ in range(5):
    crowd.update(1 / 60)
rng = np.random.default_rng(1)
flags = rng.random((64, 64)) < 0.2  # True: blocked
flags[0, 0] = flags[-1, -1] = False
grid = navmesh.GridMap(flags, cell_size=16.0)
try:
    grid.find_path(0, flags.size - 1)
except navmesh.NoPathError:
    pass
navmesh.grid_astar(navmesh.GridMap(rng.uniform(1, 3, (20, 20))), 0, 399)
free = np.flatnonzero(~flags.ravel())
try:
    navmesh.first_step(grid, 0, int(free[-1]))
except navmesh.NoPathError:
    pass
field = navmesh.FlowField(grid, int(free[-1]))
field.next_cell(free[:10])
"""


def test_after_warm_up_a_game_compiles_and_loads_nothing_more():
    """Every kernel specialisation a game's own calls need is made by warm_up (not on first use)."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("nothing compiles with NUMBA_DISABLE_JIT=1")
    warm_up(["waypoints", "grid", "flowfield", "steering"])
    before = {name: len(d.signatures) for name, d in _dispatchers().items()}
    exec(compile(GAME, "game", "exec"), {})
    after = {name: len(d.signatures) for name, d in _dispatchers().items()}
    grown = {name: (before.get(name, 0), n) for name, n in after.items() if n != before.get(name, 0)}
    assert grown == {}


ONE_SIGNATURE = """
import sys
import navmesh
from numba.core.registry import CPUDispatcher
navmesh.warm_up()
several = sorted(
    f"{name}.{attr}" for name, module in list(sys.modules.items()) if name.startswith("navmesh")
    for attr, value in vars(module).items()
    if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name and len(value.signatures) > 1
)
print(several)
"""


def test_warm_up_compiles_each_kernel_for_one_signature():
    """In a fresh process (other tests here call kernels with other array flags), warm_up makes
    one specialisation per kernel."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("nothing compiles with NUMBA_DISABLE_JIT=1")
    run = subprocess.run([sys.executable, "-c", ONE_SIGNATURE], capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


HELPER = """
import json
from numba.core import event
import navmesh
class Count(event.Listener):
    n = 0
    def on_start(self, ev):
        Count.n += 1
    def on_end(self, ev):
        pass
event.register("numba:compile", Count())
log = []
for done, total, name in navmesh.warm_up_steps(["grid"]):
    log.append([done, total, name, Count.n])
print(json.dumps(log))
"""


def test_after_the_first_real_compile_a_helper_process_compiles_the_rest(tmp_path):
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("nothing compiles with NUMBA_DISABLE_JIT=1")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", HELPER], env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    log = json.loads(run.stdout.strip().splitlines()[-1])
    total = log[0][1]
    after_first_step = [entry for entry in log if entry[0] >= 1]
    compiled_in_first_step = after_first_step[0][3]
    assert compiled_in_first_step > 0  # a cold cache: the first step compiled here
    assert all(entry[3] == compiled_in_first_step for entry in after_first_step)  # the rest only loaded here
    waits = [entry for entry in log if entry[0] == 1]
    assert len(waits) > 1  # this process yielded while the helper compiled the first grid step
    assert log[-1] == [total, total, "", compiled_in_first_step]
    warm = subprocess.run([sys.executable, "-c", HELPER], env=env, capture_output=True, text=True, timeout=900)
    assert warm.returncode == 0, warm.stderr
    warm_log = json.loads(warm.stdout.strip().splitlines()[-1])
    assert warm_log[-1][3] == 0  # everything came from the cache the helper filled
    assert len(warm_log) == total + 1  # no waiting: one value per step, and the last


MORE_CALLS = """
import json
import sys
import numpy as np
import navmesh
from navmesh.search import astar_multi, dijkstra_tree
from numba.core.registry import CPUDispatcher
navmesh.warm_up()
level = navmesh.Level.rectangle(300, 200, obstacles=[[(100, 40), (140, 40), (140, 160), (100, 160)]])
nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=5.0)
graph = nav.graph
last = graph.n_nodes - 1
# the calls that once made second specialisations: costs given by the caller (writeable),
# read-only trees, search traces, sliced searches and meshes
astar_multi(graph, [0, 1], [last], start_costs=[0.0, 2.0], goal_costs=[1.0])
tree = dijkstra_tree(graph, [0])
tree.path_to(last)
dijkstra_tree(graph, [0], limit=50.0).reached(last)
for algorithm in ("astar", "dijkstra", "bfs", "dfs", "bellman_ford"):
    navmesh.search_trace(graph, 0, last, algorithm=algorithm)
query = navmesh.NavQuery(nav)
search = query.start_search((10, 10), (290, 190))
while not search.advance(3):
    pass
search.result()
query.find_paths(np.array([[10.0, 10.0], [20.0, 180.0]]), np.array([[290.0, 190.0], [290.0, 10.0]]))
mesh = navmesh.MeshQuery(navmesh.build_navmesh(level, agent_radius=5.0))
mesh.find_path((10, 10), (290, 190))
watched = sys.argv[1].split(",")
several = sorted(
    f"{name}.{attr}" for name, module in list(sys.modules.items()) if name.startswith("navmesh")
    for attr, value in vars(module).items()
    if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name and len(value.signatures) > 1
)
print(json.dumps(several))
"""

# Seen with a second specialisation in a full test session before: int64 heap values (meshes),
# read-only arrays into search_run and trace_back, writeable costs into best_first.
WATCHED = ("heap_push", "heap_pop", "heap_sift_down", "trace_back", "search_run", "best_first", "best_first_path")


def test_one_signature_also_for_the_calls_that_once_made_more():
    """Calls beyond warm_up's own (user-given costs, read-only trees, traces, sliced and mesh
    searches) reuse warm_up's specialisation of the shared kernels instead of compiling another."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("nothing compiles with NUMBA_DISABLE_JIT=1")
    run = subprocess.run([sys.executable, "-c", MORE_CALLS, ",".join(WATCHED)], capture_output=True, text=True,
                         timeout=1800, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    several = json.loads(run.stdout.strip().splitlines()[-1])
    assert [name for name in several if name.rsplit(".", 1)[1] in WATCHED] == []
