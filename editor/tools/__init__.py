"""Editing and checking tools, one module per tool; each turns mouse and key input into level edits."""

from .base import Selection, Tool
from .linking import LinkTool
from .polygon import PolygonTool
from .select import SelectTool
from .testpath import TestPathTool
from .waypoint import WaypointTool

__all__ = ["LinkTool", "PolygonTool", "SelectTool", "Selection", "TestPathTool", "Tool", "WaypointTool"]
