"""Editing and checking tools, one module per tool; each turns mouse and key input into level edits."""

from editor.tools.base import Selection, Tool
from editor.tools.linking import LinkTool
from editor.tools.polygon import PolygonTool
from editor.tools.select import SelectTool
from editor.tools.testpath import TestPathTool
from editor.tools.waypoint import WaypointTool

__all__ = ["LinkTool", "PolygonTool", "SelectTool", "Selection", "TestPathTool", "Tool", "WaypointTool"]
