"""The navmesh RTS demo: an arcade 3 program built only on navmesh's public API.

Run it with ``python -m demo_game`` (or the ``navmesh-demo`` console script); ``--help`` lists the
options for unattended runs (``--frames``, ``--screenshot``, ``--mode``, ``--scenario``).
"""
