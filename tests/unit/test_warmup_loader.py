"""navmesh.warmup.KernelLoader: steps with what is ready on the way, and the record of compiled
parts that lets a later start skip loading before its first screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from navmesh.errors import InvalidOptionError
from navmesh.warmup import KernelLoader

ROOT = Path(__file__).resolve().parents[2]


def test_compiled_and_loaded_follow_the_steps():
    loader = KernelLoader(["jps", "grid"], background=False)
    assert (loader.done, loader.total, loader.name) == (0, 5, "navmesh: kernel cache")
    assert not loader.compiled(["jps"]) and not loader.loaded(["jps"])  # nothing known before the first step
    seen = []
    while not loader.finished:
        assert loader.step()
        seen.append((loader.done, loader.loaded(["jps"]), loader.loaded(["grid"])))
    # jps is loaded after its one step, grid only after its three
    assert seen == [(1, False, False), (2, True, False), (3, True, False), (4, True, False), (5, True, True)]
    assert loader.compiled(["jps", "grid"]) and loader.name == ""
    assert not loader.step()  # finished: nothing more to do


def test_parts_outside_the_loader_are_clear_errors():
    loader = KernelLoader(["jps"])
    with pytest.raises(InvalidOptionError, match=r"parts=\['grid'\] is not valid; this loader loads \['jps'\]"):
        loader.compiled(["grid"])
    with pytest.raises(InvalidOptionError, match=r"parts=\['roads'\] is not valid"):
        loader.loaded(["roads"])
    with pytest.raises(InvalidOptionError, match="background"):
        KernelLoader(["jps"], background="yes")


def test_close_stops_the_steps():
    loader = KernelLoader(["jps"])
    loader.close()
    assert not loader.step() and loader.done == 0


CHILD = """
import json, sys
from navmesh.warmup import KernelLoader, warm_up
if sys.argv[1] == "warm_up":
    warm_up(["jps"])
loader = KernelLoader(["jps", "flowfield"], background=False)
loader.step()  # the first step reads the record
print(json.dumps([loader.compiled(["jps"]), loader.compiled(["flowfield"]), loader.loaded(["jps"])]))
"""


def _child(mode: str, cache: Path) -> list[bool]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", CHILD, mode], env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_a_part_compiled_by_an_earlier_process_is_known_at_the_first_step(tmp_path):
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("nothing compiles with NUMBA_DISABLE_JIT=1 (every part counts as compiled)")
    assert _child("none", tmp_path) == [False, False, False]  # an empty cache
    assert _child("warm_up", tmp_path) == [True, False, False]  # warm_up(["jps"]) recorded jps
    assert _child("none", tmp_path) == [True, False, False]  # a later process reads it: compiled, not loaded
    records = list(tmp_path.rglob("navmesh-parts-py*.json"))
    assert len(records) == 1
    data = json.loads(records[0].read_text())
    assert data["parts"] == ["jps"]
    # a record written for other kernel sources (an edited kernel file) says nothing
    data["key"]["sources"]["heap.py"][1] += 1
    records[0].write_text(json.dumps(data))
    assert _child("none", tmp_path) == [False, False, False]
