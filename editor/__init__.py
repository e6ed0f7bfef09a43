"""Level editor for waypoints, obstacles and terrain built on the public navmesh API (its own issue;
not written yet)."""
