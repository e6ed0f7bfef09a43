"""``python -m demo_game``: start the navmesh RTS demo."""

from .app import main

if __name__ == "__main__":
    raise SystemExit(main())
