"""Waypoint navigation: placement, build options, the build (`NavMap`), local updates, queries.

The data flows one way: a `Level` goes through :func:`build_waypoint_graph` (placement, linking,
terrain breakdown) into an immutable :class:`NavMap`; a :class:`NavQuery` per unit type answers
paths on it.
"""
