"""The bundled level: ``valley.json`` (navmesh level format) and the script that generates it."""

from __future__ import annotations

from pathlib import Path

LEVEL_DIR = Path(__file__).resolve().parent
VALLEY = LEVEL_DIR / "valley.json"

__all__ = ["LEVEL_DIR", "VALLEY"]
