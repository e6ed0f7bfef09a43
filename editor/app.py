"""Command line, window and main loop of the editor (``navmesh-editor`` / ``python -m editor``).

Unattended runs for tests and screenshots: ``--script FILE`` replays a JSON list of editor actions
(one per frame), ``--frames N`` stops after N frames and ``--screenshot FILE`` saves the last frame.
Script actions (coordinates are world units)::

    {"key": "W"}  {"key": "S", "mods": ["ctrl"]}       a key press (pyglet key names)
    {"click": [x, y]}  {"click": [x, y], "button": "right", "mods": ["ctrl"]}
    {"drag": [[x0, y0], [x1, y1]]}                      left-button drag
    {"text": "path/to/file.json"}                       typed into the open prompt
    {"prompt": "path/to/file.json"}                     replaces the open prompt's text
    {"wait": 30}                                        do nothing for 30 frames
    {"screenshot": "file.png"}                          save the window now
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import arcade
import pyglet

import navmesh

from .views.loading import loading_view

if TYPE_CHECKING:  # imported behind the loading view's bar
    from .model import EditorModel
    from .views.editor_view import EditorView

TILED_SUFFIXES = (".tmj", ".tmx")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="navmesh-editor", description="Level editor for navmesh waypoint levels.")
    p.add_argument("level", nargs="?", help="level JSON to open (created on first save if missing), or a Tiled map")
    p.add_argument("--width", type=int, default=1280, help="window width in pixels")
    p.add_argument("--height", type=int, default=800, help="window height in pixels")
    p.add_argument("--frames", type=int, default=None, help="quit after this many frames (unattended)")
    p.add_argument("--screenshot", default=None, help="save the last frame to this PNG")
    p.add_argument("--script", default=None, help="JSON list of editor actions to replay, one per frame")
    p.add_argument("--state-dir", default=None, help="folder for autosaves of untitled levels")
    p.add_argument("--hidden", action="store_true", help="do not show the window (unattended runs)")
    return p.parse_args(argv)


def load_script(path: str) -> list[dict[str, Any]]:
    """Read a script file: a JSON list of action objects (see the module notes)."""
    actions = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise ValueError(f"{path}: a script is a JSON list of action objects")
    return actions


def make_model(level: str | None, state_dir: str | None) -> tuple[EditorModel, str | None]:
    """The starting document and an error message when the given file could not be read.

    A file that fails to load is never adopted as the document's path, so a later save cannot
    overwrite it.
    """
    from .model import EditorModel

    model = EditorModel(state_dir=state_dir)
    if level is None:
        return model, None
    path = Path(level)
    try:
        if path.suffix.lower() in TILED_SUFFIXES:
            model.import_tiled(path)
        elif path.exists():
            model.open(path)
        else:
            model.path = path
    except (OSError, navmesh.NavmeshError) as exc:
        return model, f"cannot open {level}: {exc}"
    return model, None


def replay(view: EditorView, action: dict[str, Any]) -> int:
    """Perform one script action on the view; returns frames to wait afterwards."""
    mods = frozenset(action.get("mods", ()))
    if "key" in action:
        view.press_key(str(action["key"]), mods)
    elif "click" in action:
        view.click(*action["click"], button=action.get("button", "left"), mods=mods)
    elif "drag" in action:
        start, end = action["drag"]
        view.drag_to(tuple(start), tuple(end))
    elif "text" in action:
        view.on_text(str(action["text"]))
    elif "prompt" in action:
        if view.prompt is None or view.prompt.text is None:
            raise ValueError(f"{action!r}: no text prompt is open")
        view.prompt.text = str(action["prompt"])
    elif "screenshot" in action:
        view.on_draw()
        arcade.get_image().save(action["screenshot"])
    elif "wait" in action:
        return int(action["wait"])
    else:
        raise ValueError(f"unknown script action {action!r}")
    return 0


class EditorWindow(arcade.Window):
    """The editor's window: closing it asks the view first."""

    def on_close(self) -> None:
        from .views.editor_view import EditorView

        view = self.current_view
        if isinstance(view, EditorView):
            view.request_close()
        else:
            self.close()


class Runner:
    """Steps an unattended run: script actions, frame limit, final screenshot."""

    def __init__(self, window: EditorWindow, view: EditorView, script: list[dict[str, Any]],
                 frames: int | None, screenshot: str | None) -> None:
        self.window, self.view, self.script = window, view, list(script)
        self.frames, self.screenshot = frames, screenshot
        self.count = 0
        self.wait = 0

    def step(self, dt: float) -> None:
        self.count += 1
        if self.wait > 0:
            self.wait -= 1
        elif self.script:
            self.wait = replay(self.view, self.script.pop(0))
        if self.frames is not None and self.count >= self.frames:
            self.finish()

    def finish(self) -> None:
        pyglet.clock.unschedule(self.step)
        if self.screenshot:
            self.view.on_draw()
            arcade.get_image().save(self.screenshot)
        if self.view.model.dirty:
            self.view.model.write_autosave()  # an unattended run never drops work
        self.window.close()


def main(argv: list[str] | None = None) -> int:
    """Run the editor; returns the process exit code."""
    args = parse_args(argv)
    try:
        script = load_script(args.script) if args.script else []
    except (OSError, ValueError) as exc:
        print(f"navmesh-editor: {exc}", file=sys.stderr)
        return 2
    try:
        window = EditorWindow(args.width, args.height, "navmesh editor", resizable=True, visible=not args.hidden)
    except Exception as exc:  # noqa: BLE001 - pyglet's own classes cannot be imported without a display
        if not type(exc).__module__.startswith("pyglet"):
            raise
        print(f"navmesh-editor: error: cannot open a window ({type(exc).__name__}: {exc}); "
              "run it on a desktop, or headless under xvfb-run", file=sys.stderr)
        return 1

    prepared: dict[str, Any] = {}

    def prepare() -> None:
        from .views.editor_view import EditorView  # the editor's own modules load behind the bar

        model, problem = make_model(args.level, args.state_dir)
        prepared.update(view=EditorView(model, on_quit=window.close), problem=problem)

    def start() -> None:
        view, problem = prepared["view"], prepared["problem"]
        window.show_view(view)
        if problem is not None:
            view.say(problem, error=True)
        else:
            view.offer_recovery()
        if script or args.frames is not None or args.screenshot:
            runner = Runner(window, view, script, args.frames, args.screenshot)
            pyglet.clock.schedule_interval(runner.step, 1 / 60)

    window.show_view(loading_view(window, steps=[("editor: opening the level", prepare)], on_done=start))
    arcade.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
