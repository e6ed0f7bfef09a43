"""Shared fixtures: real arcade windows (one hidden window per session, under Xvfb when needed).

When ``DISPLAY`` is unset (and ``ARCADE_HEADLESS`` is not set) the session starts its own Xvfb
server and stops it at the end. Xvfb picks a free display number itself (``-displayfd``), so
parallel test runs on one machine do not collide, and reports it only once it accepts clients.

Without a display and without Xvfb the render tests are skipped with the reason. Under CI
(``CI=true``), whose script installs Xvfb on purpose, not getting a window is a failure instead.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

XVFB_ARGS = ("-screen", "0", "1280x800x24", "-nolisten", "tcp")
XVFB_START_TIMEOUT = 15.0  # seconds
WINDOW_SIZE = (800, 600)
SCREENSHOT_DIR = Path(__file__).resolve().parents[1] / "screenshots"
INSTALL_HINT = "apt-get install -y xvfb xauth libgl1 libegl1 libgl1-mesa-dri fonts-dejavu-core"


def _no_window(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"render tests need a window under CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _start_xvfb(log: Any) -> tuple[subprocess.Popen[bytes] | None, str]:
    """Start Xvfb; return (process, display) or (None, reason it could not start)."""
    exe = shutil.which("Xvfb") or ("/usr/bin/Xvfb" if os.path.exists("/usr/bin/Xvfb") else None)
    if exe is None:
        return None, f"DISPLAY is unset and Xvfb is not installed ({INSTALL_HINT})"
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.Popen(
            [exe, "-displayfd", str(write_end), *XVFB_ARGS],
            pass_fds=(write_end,),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
        )
    finally:
        os.close(write_end)
    received = b""
    try:
        while not received.endswith(b"\n"):
            ready, _, _ = select.select([read_end], [], [], XVFB_START_TIMEOUT)
            chunk = os.read(read_end, 32) if ready else b""
            if not chunk:
                break
            received += chunk
    finally:
        os.close(read_end)
    if not received.endswith(b"\n"):
        _stop(proc)
        log.seek(0)
        tail = log.read().decode("utf-8", "replace").strip().splitlines()[-3:]
        return None, f"Xvfb did not start within {XVFB_START_TIMEOUT:.0f} s: {' | '.join(tail) or 'no output'}"
    return proc, ":" + received.decode().strip()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """The X display the session draws on, started here (Xvfb) when there is none."""
    if os.environ.get("DISPLAY") or os.environ.get("ARCADE_HEADLESS"):
        yield os.environ.get("DISPLAY", "headless")
        return
    with tempfile.TemporaryFile() as log:
        proc, found = _start_xvfb(log)
        if proc is None:
            _no_window(found)
        os.environ["DISPLAY"] = found
        try:
            yield found
        finally:
            del os.environ["DISPLAY"]
            _stop(proc)


@pytest.fixture(scope="session")
def window(display: str) -> Iterator[Any]:
    """One hidden 800 x 600 ``arcade.Window`` for the whole session."""
    try:
        import arcade

        win = arcade.Window(*WINDOW_SIZE, "navmesh render tests", visible=False)
    except Exception as exc:  # noqa: BLE001 - any failure to get a GL window means the machine cannot render
        _no_window(f"cannot open an arcade window on {display}: {type(exc).__name__}: {exc}")
    try:
        yield win
    finally:
        win.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """``screenshots/`` at the repository root (git-ignored), where tests save images for people."""
    SCREENSHOT_DIR.mkdir(exist_ok=True)
    return SCREENSHOT_DIR
