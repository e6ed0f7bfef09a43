"""File formats: level JSON (atomic saves), Tiled maps, Moving AI maps and scenarios.

Models (`Level`, `GridMap`) never import these modules at load time; readers are imported lazily.
"""
