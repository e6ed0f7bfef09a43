"""The program itself: unattended runs of every mode exit 0 and save a screenshot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from demo_game.app import parse_args
from demo_game.views import MODES

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("mode", MODES)
def test_unattended_run_exits_0_with_a_screenshot(display: str, tmp_path: Path, mode: str) -> None:
    if display == "headless":
        pytest.skip("needs an X display for a second window")
    shot = tmp_path / f"{mode}.png"
    env = dict(os.environ, DISPLAY=display, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "demo_game", "--mode", mode, "--frames", "20", "--seed", "1",
         "--scenario", "--screenshot", str(shot), "--size", "640", "400"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    with Image.open(shot) as image:
        assert image.size == (640, 400)
        assert len(set(image.convert("RGB").getdata())) > 20  # a picture, not a blank frame


def test_bad_arguments_are_refused(capsys: Any) -> None:
    for argv in (["--mode", "chess"], ["--frames", "0"], ["--screenshot", "x.png"]):
        with pytest.raises(SystemExit) as exc:
            parse_args(argv)
        assert exc.value.code == 2
    assert "--screenshot needs --frames" in capsys.readouterr().err
