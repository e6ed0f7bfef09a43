"""navmesh level editor: place waypoints, draw obstacles, paint terrain, link, test paths, diagnose.

Run ``python -m editor [LEVEL]`` (console script ``navmesh-editor``). Built only on the public
``navmesh`` API and ``navmesh.arcade_draw``.
"""
