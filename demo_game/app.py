"""The demo program: command line, window and mode switching (``main`` is the console script)."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from importlib import import_module
from pathlib import Path
from typing import Any

import arcade

import navmesh
from navmesh.arcade_loading import LoadingView

from navmesh.warmup import KernelLoader

from .views import FEATURE_PARTS, MODE_PARTS, MODES, make_view
from .views.loading import loading_view

TITLE = "navmesh demo"
FIXED_DT = 1 / 60  # seconds per simulated frame in unattended runs
PARTS = ("waypoints", "steering", "grid", "flowfield", "mesh")  # what the modes search with (no JPS)


def load_order(mode: str) -> tuple[str, ...]:
    """The demo's parts, those of ``mode`` first (the parts of the other modes follow in the
    order of their keys)."""
    return tuple(dict.fromkeys((*MODE_PARTS[mode], *PARTS)))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see ``python -m demo_game --help``)."""
    p = argparse.ArgumentParser(prog="navmesh-demo", description="RTS-style demo of the navmesh library.")
    p.add_argument("--mode", choices=MODES, default="rts", help="mode to start in (default: rts)")
    p.add_argument("--frames", type=int, default=None, metavar="N",
                   help="run N frames with a fixed 1/60 s step, then exit 0 (unattended runs)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument("--screenshot", type=Path, default=None, metavar="FILE",
                   help="save the last frame as an image (with --frames)")
    p.add_argument("--scenario", action=argparse.BooleanOptionalAction, default=True,
                   help="start with a few orders already given, so units are on the move (default; "
                        "--no-scenario starts with every unit idle)")
    p.add_argument("--units", type=int, default=None, metavar="N",
                   help="blue units in RTS mode, or units in flow mode")
    p.add_argument("--size", type=int, nargs=2, default=(1280, 720), metavar=("W", "H"), help="window size")
    p.add_argument("--fps-report", action="store_true", help="print the mean frames per second at exit")
    p.add_argument("--startup-report", action="store_true",
                   help="print when the loading view, the first interactive frame and the frame after the "
                        "last kernel loaded were drawn (Unix time and CPU seconds); with --frames, the run "
                        "also lasts until every kernel is loaded")
    args = p.parse_args(argv)
    if args.frames is not None and args.frames < 1:
        p.error("--frames must be >= 1")
    if args.screenshot is not None and args.frames is None:
        p.error("--screenshot needs --frames")
    return args


class DemoWindow(arcade.Window):
    """The demo's window: holds the options and switches between the mode views."""

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__(*args.size, TITLE, resizable=True, visible=args.frames is None)
        self.args = args
        self.frames_drawn = 0
        self._clock: float | None = None
        self._first: arcade.View | None = None
        self._all_loaded_reported = False
        # One loader for the whole run: the first mode's parts first. The window shows the bar at
        # once; the first mode is built as soon as its kernels are compiled (numba's cache holds
        # them: a warm start waits for nothing), and loads the kernels it calls itself. The rest
        # is loaded one step per frame after the first interactive frame (on_update).
        self.kernels = KernelLoader(load_order(args.mode))
        self._loading: LoadingView | None = loading_view(
            self, loader=self.kernels, parts=MODE_PARTS[args.mode], load=False,
            steps=[(f"demo: importing the {args.mode} mode", lambda: import_module(f".views.{args.mode}", __package__)),
                   ("demo: building the level", self._build_first)],
            on_done=self._loaded, title=TITLE,
        )
        self.show_view(self._loading)

    def ready(self, parts: tuple[str, ...]) -> bool:
        """Whether the kernels of ``parts`` are loaded (a feature using them starts without a stall)."""
        return self.kernels.loaded(parts)

    def on_update(self, delta_time: float) -> None:
        """Between frames: one more step of the kernels' loading, unless a loading view drives it."""
        if self.kernels.finished or isinstance(self.current_view, LoadingView):
            return
        self.kernels.step()

    def close(self) -> None:
        """Close the window, stopping helper processes still compiling kernels."""
        self.kernels.close()
        super().close()

    def _build_first(self) -> None:
        self._first = self.make_mode_view(self.args.mode)

    def _loaded(self) -> None:
        if self.args.startup_report and self._loading is not None:
            gaps = sorted(self._loading.frame_gaps) or [0.0]
            print(f"loading view {self._loading.first_drawn:.3f}", flush=True)
            print(f"loading view cpu {self._loading.first_drawn_cpu:.3f}", flush=True)
            print(f"loading frames {self._loading.frames} median-gap {gaps[len(gaps) // 2]:.4f} "
                  f"max-gap {gaps[-1]:.4f}", flush=True)
        self._loading = None
        if self.args.frames is not None:
            # Unattended: draw as fast as possible, one fixed simulation step per frame (from here:
            # a loading view drawn flat out would take a core from the compiling helpers).
            self.set_update_rate(1 / 1000)
            self.set_draw_rate(1 / 1000)
        assert self._first is not None
        self._show(self._first)
        self._first = None

    def switch_mode(self, mode: str) -> None:
        """Show the view of ``mode``, freshly made; first a short loading view while the mode's
        kernels are not loaded yet (never a frozen frame)."""
        if self.ready(MODE_PARTS[mode]):
            self._show(self.make_mode_view(mode))
            return
        made: list[arcade.View] = []
        view = loading_view(self, loader=self.kernels, parts=MODE_PARTS[mode], title=f"{TITLE}  -  {mode}",
                            steps=[(f"demo: building the {mode} mode", lambda: made.append(self.make_mode_view(mode)))],
                            on_done=lambda: self._show(made[0]))
        self.set_caption(f"{TITLE}  -  loading")
        self.show_view(view)

    def make_mode_view(self, mode: str) -> arcade.View:
        """The view of ``mode``, freshly made with the command line's options."""
        options: dict[str, Any] = {"seed": self.args.seed, "scenario": self.args.scenario}
        if mode in ("rts", "flow") and self.args.units is not None:
            options["units"] = self.args.units
        if mode == "rts":
            options["ready"] = lambda feature: self.ready(FEATURE_PARTS[feature])
        return make_view(mode, self, switch_mode=self.switch_mode, **options)

    def _show(self, view: arcade.View) -> None:
        self.set_caption(f"{TITLE}  -  {view.title}")
        if self.args.frames is not None:
            view.fixed_dt = FIXED_DT  # type: ignore[attr-defined]
            view.after_draw = self._frame_done  # type: ignore[attr-defined]
        self.show_view(view)

    def _frame_done(self) -> None:
        if self._clock is None:
            self._clock = time.perf_counter()
            if self.args.startup_report:
                print(f"first frame {time.time():.3f}", flush=True)
                print(f"first frame cpu {time.process_time():.3f}", flush=True)
        if self.args.startup_report and self.kernels.finished and not self._all_loaded_reported:
            self._all_loaded_reported = True
            print(f"all loaded {time.time():.3f}", flush=True)
            print(f"all loaded cpu {time.process_time():.3f}", flush=True)
        self.frames_drawn += 1
        if self.frames_drawn < self.args.frames or (self.args.startup_report and not self.kernels.finished):
            return
        if self.args.screenshot is not None:
            self.args.screenshot.parent.mkdir(parents=True, exist_ok=True)
            arcade.get_image().save(self.args.screenshot)
        if self.args.fps_report and self.frames_drawn > 1:
            seconds = time.perf_counter() - self._clock
            print(f"fps {(self.frames_drawn - 1) / seconds:.1f}")
        self.close()


def main(argv: list[str] | None = None) -> int:
    """Start the demo; returns the exit status (0, or 1 when no window can be opened)."""
    args = parse_args(argv)
    warnings.simplefilter("ignore", navmesh.NavmeshWarning)
    try:
        DemoWindow(args)
    except Exception as exc:  # noqa: BLE001 - pyglet's own classes cannot be imported without a display
        if not type(exc).__module__.startswith("pyglet"):
            raise
        print(f"navmesh-demo: error: cannot open a window ({type(exc).__name__}: {exc}); "
              "run it on a desktop, or headless under xvfb-run", file=sys.stderr)
        return 1
    arcade.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
