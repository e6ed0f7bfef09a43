"""navmesh.warmup compiling in several processes at once (navmesh.warmup_helpers, navmesh.warmup_lock):
every part compiled, no kernel compiled in two processes, and a failing helper process reported
and made up for by the calling process."""

from __future__ import annotations

import contextlib

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from navmesh.warmup_helpers import Session, priority_order

ROOT = Path(__file__).resolve().parents[2]

# Records the navmesh kernels each process compiles (numba's compile events) in $COMPILED_DIR,
# in the calling process and in the helper processes (whose command gets the same listener).
LISTENER = '''
import os
from numba.core import event
compiled = []
class Seen(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        if f.__module__.startswith("navmesh."):
            compiled.append(f.__module__ + "." + f.__qualname__)
    def on_end(self, ev):
        pass
event.register("numba:compile", Seen())
def dump(role):
    with open(os.path.join(os.environ["COMPILED_DIR"], f"{role}-{os.getpid()}.json"), "w") as fh:
        fh.write(__import__("json").dumps(compiled))
'''

CHILD = LISTENER + '''
import json, logging, sys
import navmesh.warmup_helpers as helpers
from navmesh.warmup import KernelLoader, warm_up
helpers.cores = lambda: 2  # two compiling processes, whatever this machine has
mode, parts = sys.argv[1], sys.argv[2].split(",")
if mode == "failing":
    helpers.HELPER_CODE = "import sys; sys.exit('navmesh test: this helper fails on purpose')"
else:
    helpers.HELPER_CODE = (LISTENER_CODE + "\\nimport sys, navmesh.warmup as w\\ntry:\\n    w.serve(*sys.argv[1:])\\n"
                           "finally:\\n    dump('helper')\\n")
logs = []
handler = logging.Handler()
handler.emit = lambda record: logs.append(record.getMessage())
logging.getLogger("navmesh").addHandler(handler)
if sys.argv[3] == "warm_up":
    warm_up(parts)
    loader = KernelLoader(parts, background=False)
    loader.step()  # the first step reads the record of compiled parts
    report = {p: loader.compiled([p]) for p in parts}
else:
    loader = KernelLoader(parts)
    while not loader.finished:
        loader.step()
    report = {p: loader.compiled([p]) and loader.loaded([p]) for p in parts}
dump("main")
print(json.dumps({"ready": report, "logs": logs}))
'''.replace("LISTENER_CODE", repr(LISTENER))


def _run(tmp_path: Path, mode: str, parts: str, how: str) -> tuple[dict, dict[str, list[list[str]]]]:
    compiled = tmp_path / f"compiled-{mode}-{how}"
    compiled.mkdir(exist_ok=True)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / f"cache-{how}"), "PYTHONPATH": str(ROOT),
           "COMPILED_DIR": str(compiled)}
    run = subprocess.run([sys.executable, "-c", CHILD, mode, parts, how], env=env, capture_output=True, text=True,
                         timeout=1800)
    assert run.returncode == 0, run.stderr
    by_role: dict[str, list[list[str]]] = {"main": [], "helper": []}
    for f in compiled.glob("*.json"):
        by_role[f.name.split("-")[0]].append(json.loads(f.read_text()))
        f.unlink()
    return json.loads(run.stdout.strip().splitlines()[-1]), by_role


def _skip_without_jit() -> None:
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("nothing compiles with NUMBA_DISABLE_JIT=1")


@pytest.mark.parametrize("how", ["warm_up", "loader"])
def test_the_parallel_warm_up_compiles_every_part_once(tmp_path, how):
    _skip_without_jit()
    parts = "grid,jps,flowfield"
    out, compiled = _run(tmp_path, "parallel", parts, how)
    assert out["ready"] == {"grid": True, "jps": True, "flowfield": True}
    assert not [m for m in out["logs"] if "failed" in m]
    helper_lists = compiled["helper"]
    assert helper_lists and any(helper_lists)  # a helper process compiled some of the kernels
    everything = [name for names in compiled["main"] + helper_lists for name in names]
    if sys.platform != "win32":  # the compile locks need fcntl
        assert sorted(everything) == sorted(set(everything))  # no kernel compiled twice across processes
    # a later process finds every kernel in numba's cache: it compiles nothing
    again, compiled_again = _run(tmp_path, "parallel", parts, how)
    assert again["ready"] == out["ready"]
    assert [n for names in compiled_again["main"] + compiled_again["helper"] for n in names] == []


@pytest.mark.parametrize("how", ["warm_up", "loader"])
def test_a_failing_helper_is_reported_and_its_work_done_here(tmp_path, how):
    _skip_without_jit()
    out, compiled = _run(tmp_path, "failing", "jps,flowfield", how)
    assert out["ready"] == {"jps": True, "flowfield": True}
    failures = [m for m in out["logs"] if "helper process" in m]
    assert failures and "this helper fails on purpose" in failures[0] and "compiling its kernels here" in failures[0]
    assert compiled["main"] and "navmesh._kernels.grid_flow.flow_field" in compiled["main"][0]


def test_the_longest_chain_of_compile_cost_goes_first():
    # step 2 (cost 3) needs step 1 (cost 1): chain 1 -> 2 costs 4, more than step 3 alone (3.5)
    steps, needs, costs = [1, 2, 3, 4], {2: [1]}, [0.0, 1.0, 3.0, 3.5, 0.5]
    assert priority_order(steps, needs, costs, [0] * 5) == [1, 3, 2, 4]
    assert priority_order(steps, {}, costs, [0] * 5) == [3, 2, 1, 4]  # no chains: costliest first


def test_parts_wanted_first_go_first_with_the_steps_they_need():
    # a loader wants part rank 0 (steps 1, 2) before rank 1 (steps 3, 4); step 2 needs step 4,
    # so step 4 is as urgent as step 2, though its own part comes later
    steps, needs, costs = [1, 2, 3, 4], {2: [4]}, [0.0, 1.0, 1.0, 9.0, 2.0]
    assert priority_order(steps, needs, costs, [-1, 0, 0, 1, 1]) == [4, 1, 2, 3]
    assert priority_order(steps, needs, costs, [-1, 0, 0, 0, 0]) == [3, 4, 1, 2]  # one rank: longest chain first


@contextlib.contextmanager
def _session(*args):
    """A Session.create(*args) that is removed afterwards (its folder gone, checked)."""
    session = Session.create(*args)
    try:
        yield session
    finally:
        session.remove()
    assert not session.folder.exists()


def test_a_step_waits_for_the_steps_it_needs_while_another_is_ready():
    # order by chain: 1 (1 + 5), 3 (5), 2 (2); step 3 needs step 1
    with _session([1, 2, 3], {3: [1]}, [0.0, 1.0, 2.0, 5.0], [0] * 4) as session:
        assert session.order == [1, 3, 2]
        assert session.next_step(1) == 1
        assert session.next_step(0) == 2  # 1 not done yet: 2 before 3
        assert session.next_step(1) == 3  # nothing else left: 3 anyway (its kernels then wait)
        assert session.claimed_by(3) == 1 and session.claimed_by(2) == 0
        assert session.next_step(0) is None  # every step claimed
        assert not session.is_done(1)
        session.finish(1)
        assert session.is_done(1)


def test_a_ready_step_goes_as_soon_as_what_it_needs_is_done():
    with _session([1, 2, 3], {3: [1]}, [0.0, 1.0, 2.0, 5.0], [0] * 4) as session:
        assert session.next_step(0) == 1
        session.finish(1)
        assert session.next_step(1) == 3  # its chain is longer than step 2's
