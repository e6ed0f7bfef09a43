"""navmesh.arcade_loading.LoadingView in a real window: first frame before any work, a bar that
fills step by step (kernels, then the game's own steps), then the next view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import arcade
import pytest

from navmesh.arcade_loading import BAR_WIDTH, DRAW_RATE, WAIT_DRAW_RATE, LoadingView
from navmesh.errors import InvalidOptionError
from navmesh.warmup import KernelLoader

BAR = (200, 40, 40)
EMPTY = (40, 40, 200)


def bar_colours(view: LoadingView, fractions: tuple[float, ...]) -> list[tuple[int, int, int]]:
    """Draw the view and read the bar's colour at ``fractions`` of its length (middle row)."""
    view.on_draw()
    image = arcade.get_image().convert("RGB")
    w, h = view.window.width, view.window.height
    scale = image.width / w
    left = (w - BAR_WIDTH * w) / 2
    row = image.height - round((h / 2) * scale)
    return [image.getpixel((round((left + f * BAR_WIDTH * w) * scale), row)) for f in fractions]


def close(colour: tuple[int, ...], expected: tuple[int, ...]) -> bool:
    return all(abs(a - b) <= 3 for a, b in zip(colour, expected[:3]))


class Next(arcade.View):
    def on_draw(self) -> None:
        self.clear()


def test_steps_fill_the_bar_then_the_next_view_is_shown(window: Any, screenshot_dir: Path) -> None:
    log: list[str] = []
    following = Next(window)
    view = LoadingView(window, parts=["jps"], bar=BAR, bar_empty=EMPTY,
                       steps=[("level", lambda: log.append("level")), ("units", lambda: log.append("units"))],
                       on_done=lambda: (log.append("done"), following)[1])
    window.show_view(view)
    view.on_update(1 / 60)  # before the first frame: nothing is done, so the bar shows at once
    assert (view.done, view.step_name) == (0, "starting navmesh") and view.loader is None
    assert all(close(c, EMPTY) for c in bar_colours(view, (0.05, 0.5, 0.95)))
    seen: list[tuple[int, int, str]] = []
    shot = False
    while not view.finished:
        view.on_update(1 / 60)
        seen.append((view.done, view.total, view.step_name))
        if not shot and 0.4 < view.fraction < 0.9:
            start, end = bar_colours(view, (0.02, 0.98))
            assert close(start, BAR) and close(end, EMPTY)  # part filled
            arcade.get_image().save(screenshot_dir / "arcade_loading.png")
            shot = True
    assert shot
    # the cache check and the JPS step, then the game's two steps, each announced before it runs
    names = list(dict.fromkeys(name for _, _, name in seen))
    assert names == ["navmesh: kernel cache", "jps: jump point search", "level", "units", ""]
    assert all(total == 4 for _, total, _ in seen)
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen) and seen[-1][0] == 4
    assert log == ["level", "units", "done"]
    assert window.current_view is following
    view.on_update(1 / 60)
    assert log == ["level", "units", "done"]  # on_done runs once
    assert all(close(c, BAR) for c in bar_colours(view, (0.05, 0.5, 0.95)))  # full


def test_a_step_is_announced_in_one_frame_and_done_in_the_next(window: Any) -> None:
    ran: list[int] = []
    view = LoadingView(window, parts=["jps"], steps=[("a", lambda: ran.append(1))], on_done=lambda: None)
    window.show_view(view)
    view.on_draw()
    while view.step_name != "a":
        view.on_update(1 / 60)
    assert ran == [] and view.done == view.total - 1
    view.on_update(1 / 60)
    assert ran == [1] and view.finished and view.fraction == 1.0
    assert window.current_view is view  # on_done returned None: the game decides what follows


def test_frames_are_counted_for_start_up_reports(window: Any) -> None:
    view = LoadingView(window, parts=["jps"], on_done=lambda: None)
    window.show_view(view)
    for _ in range(3):
        view.on_draw()
    assert view.frames == 3 and view.first_drawn > 0 and len(view.frame_gaps) == 2


class WaitingLoader(KernelLoader):
    """A real loader whose next ``waits`` steps find a helper process still compiling (step
    returns False, as KernelLoader.step does then)."""

    waits = 0

    def step(self) -> bool:
        if self.waits:
            self.waits -= 1
            return False
        return super().step()


def test_frames_slow_down_while_waiting_for_helpers_and_the_game_rate_comes_back(window: Any) -> None:
    window.set_draw_rate(1 / 60)
    loader = WaitingLoader(["jps"])
    following = Next(window)
    view = LoadingView(window, loader=loader, on_done=lambda: following)
    window.show_view(view)
    assert window._draw_rate == DRAW_RATE
    view.on_draw()
    view.on_update(1 / 60)  # the first step (the cache check) runs
    loader.waits = 2
    view.on_update(1 / 60)
    assert loader.waits == 1 and window._draw_rate == WAIT_DRAW_RATE > DRAW_RATE  # waiting: fewer frames
    view.on_update(1 / 60)
    view.on_update(1 / 60)  # a step done: the usual rate
    assert loader.waits == 0 and window._draw_rate == DRAW_RATE
    while not view.finished:
        view.on_update(1 / 60)
    assert window.current_view is following and window._draw_rate == 1 / 60


@pytest.mark.parametrize("kwargs, match", [
    ({"on_done": "start"}, r"on_done='start' is not valid; expected a callable"),
    ({"on_done": print, "steps": [("level", 3)]}, r"steps entry \('level', 3\) is not valid"),
    ({"on_done": print, "steps": ["level"]}, r"steps entry 'level' is not valid; expected a \(label, callable\) pair"),
])
def test_bad_options_are_clear_errors(window: Any, kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidOptionError, match=match):
        LoadingView(window, **kwargs)


def test_an_unknown_part_is_reported_at_the_first_step(window: Any) -> None:
    view = LoadingView(window, parts=["roads"], on_done=lambda: None)
    view.on_draw()
    with pytest.raises(InvalidOptionError, match=r"parts=\['roads'\] is not valid"):
        view.on_update(1 / 60)

