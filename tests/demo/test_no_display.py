"""Without a display the demo and the editor say so in one line and exit 1 (no pyglet traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("module", "prog"), [("demo_game", "navmesh-demo"), ("editor", "navmesh-editor")])
def test_no_display_is_one_clear_line(module: str, prog: str) -> None:
    if sys.platform != "linux":
        pytest.skip("X11 displays only")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "ARCADE_HEADLESS")}
    env["PYTHONPATH"] = str(ROOT)
    run = subprocess.run([sys.executable, "-m", module], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith(f"{prog}: error: cannot open a window")
    assert "xvfb-run" in lines[0]
    assert "Traceback" not in run.stderr
