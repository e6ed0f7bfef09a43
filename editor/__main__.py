"""``python -m editor [LEVEL]``: run the navmesh level editor."""

from .app import main

if __name__ == "__main__":
    raise SystemExit(main())
