"""The unit profiles the editor checks a level against (test paths, forbidden-terrain diagnostics)."""

from __future__ import annotations

import navmesh

PROFILES: tuple[navmesh.CostProfile, ...] = (
    navmesh.CostProfile("walker"),
    navmesh.CostProfile("infantry", {"swamp": 2.0, "road": 0.8, "custom": 1.5}, forbidden={"water"}),
    navmesh.CostProfile("tank", {"swamp": 4.0, "road": 0.5, "custom": 2.0}, forbidden={"water"}),
    navmesh.CostProfile("wader", {"swamp": 1.5, "water": 2.5}, capabilities={"wade"}),
)
"""walker: every tag x1, no capabilities; the others are typical RTS unit types."""

TAGS = ("swamp", "road", "water", "custom")
"""Terrain tags the paint tool offers (keys 1-4)."""
