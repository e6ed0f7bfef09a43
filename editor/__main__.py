"""``python -m editor [LEVEL]``: run the navmesh level editor."""

from editor.app import main

if __name__ == "__main__":
    raise SystemExit(main())
