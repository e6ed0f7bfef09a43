"""The edited document: the current immutable level, its build settings, undo/redo, files, autosave.

Undo and redo keep whole snapshots (level plus build settings): levels are immutable values, so a
snapshot is a reference, not a copy. The waypoint graph follows every change through the library's
local update (``nav.update(level)``), which reuses every line-of-sight and terrain answer the
change cannot affect; only a change of build settings rebuilds from scratch.

Autosave writes the level to a side file (``<file>.autosave``, or ``untitled.json.autosave`` in
the state folder for a level that was never saved) when an edit burst ends (no edit for
``BURST_GAP`` seconds) and at least every ``AUTOSAVE_PERIOD`` seconds while edits keep coming.
A clean save or a clean exit removes it, so an autosave found at start-up means the last session
ended without saving: the editor offers it for recovery.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import navmesh

BURST_GAP = 1.0  # seconds without an edit that end an edit burst
AUTOSAVE_PERIOD = 60.0  # seconds: longest time unsaved edits wait for an autosave
UNDO_LIMIT = 500  # snapshots kept
AUTOSAVE_SUFFIX = ".autosave"
UNTITLED = "untitled.json"


def default_state_dir() -> Path:
    """Where autosaves of never-saved levels go (``$XDG_STATE_HOME/navmesh-editor``)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "navmesh-editor"


@dataclass(frozen=True)
class BuildSettings:
    """Options the editor builds the waypoint graph with.

    Attributes
    ----------
    k : int or None
        Nearest visible waypoints each waypoint links to (None: every visible one).
    max_distance : float or None
        Longest automatic link in world units (None: no limit).
    agent_radius : float
        Radius of the agent in world units, >= 0 (obstacles grow by it).
    fill_spacing : float
        Lattice spacing of the open-area fill tool, world units > 0.
    """

    k: int | None = 8
    max_distance: float | None = None
    agent_radius: float = 0.0
    fill_spacing: float = 48.0

    def build_options(self) -> dict[str, Any]:
        """Keyword arguments for ``navmesh.build_waypoint_graph``."""
        return {"k": self.k, "max_distance": self.max_distance, "agent_radius": self.agent_radius}


@dataclass(frozen=True)
class Snapshot:
    """One undo step: the level and the settings at that moment."""

    level: navmesh.Level
    settings: BuildSettings


def build(level: navmesh.Level, settings: BuildSettings) -> navmesh.NavMap:
    """The waypoint graph of ``level`` under ``settings`` (a full build)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", navmesh.NavmeshWarning)
        return navmesh.build_waypoint_graph(level, **settings.build_options())


class EditorModel:
    """The document being edited.

    Parameters
    ----------
    level : Level, optional
        Starting level (default: an empty 1200 x 800 rectangle).
    path : path-like, optional
        The file the level belongs to (None: untitled).
    settings : BuildSettings
    state_dir : path-like, optional
        Folder for autosaves of untitled levels (default :func:`default_state_dir`).
    clock : callable
        Seconds, monotonic (tests pass their own).
    """

    def __init__(self, level: navmesh.Level | None = None, *, path: str | os.PathLike[str] | None = None,
                 settings: BuildSettings = BuildSettings(), state_dir: str | os.PathLike[str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.level = level if level is not None else navmesh.Level.rectangle(1200, 800)
        self.settings = settings
        self.path = Path(path) if path is not None else None
        self.state_dir = Path(state_dir) if state_dir is not None else default_state_dir()
        self.nav = build(self.level, settings)
        self.undo_stack: list[Snapshot] = []
        self.redo_stack: list[Snapshot] = []
        self.saved: Snapshot = self.snapshot()
        self.revision = 0  # bumped on every change of level or settings (views cache by it)
        self._clock = clock
        self._merge: Any = None
        self._last_edit: float | None = None
        self._last_autosave = clock()
        self._autosave_pending = False
        self.last_warning: str | None = None

    # -- state ------------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        return Snapshot(self.level, self.settings)

    def mesh(self) -> navmesh.PolyMesh:
        """The level's navigation mesh for the current agent radius (built on first use per
        revision, for the mesh overlay and test paths on the mesh)."""
        cached = getattr(self, "_mesh", None)
        if cached is None or cached[0] != self.revision:
            cached = (self.revision, navmesh.build_navmesh(self.level, agent_radius=self.settings.agent_radius))
            self._mesh = cached
        return cached[1]

    @property
    def dirty(self) -> bool:
        """True when the level or settings differ from the last saved (or opened) state."""
        return self.level is not self.saved.level

    @property
    def title(self) -> str:
        name = self.path.name if self.path is not None else UNTITLED
        return f"{name}{' *' if self.dirty else ''}"

    def _restore(self, snap: Snapshot) -> None:
        same_settings = snap.settings == self.settings
        self.level, self.settings = snap.level, snap.settings
        self._relink(same_settings)

    def _relink(self, incremental: bool) -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", navmesh.NavmeshWarning)
            self.nav = self.nav.update(self.level) if incremental else navmesh.build_waypoint_graph(
                self.level, **self.settings.build_options())
        self.last_warning = str(caught[-1].message) if caught else None
        self.revision += 1
        self._touched()

    def _touched(self) -> None:
        self._last_edit = self._clock()
        self._autosave_pending = True

    # -- edits ------------------------------------------------------------------------------------
    def apply(self, level: navmesh.Level, *, merge: Any = None) -> None:
        """Make ``level`` the current level as one undo step.

        Parameters
        ----------
        level : Level
            The new level (already validated: it is a Level).
        merge : hashable, optional
            Consecutive edits with the same merge key (one mouse drag) form one undo step.
        """
        if level is self.level:
            return
        if merge is None or merge != self._merge:
            self._push_undo()
        self._merge = merge
        self.level = level
        self._relink(True)

    def edit(self, change: Callable[..., navmesh.Level], *args: Any, merge: Any = None) -> str | None:
        """Apply ``change(level, *args)``; return None, or the reason it was refused.

        A change that raises a navmesh error (bad geometry, a waypoint in a wall, a link to a
        missing waypoint) leaves the level, the graph and the undo history as they were.
        """
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", navmesh.NavmeshWarning)
                new = change(self.level, *args)
        except (navmesh.NavmeshError, navmesh.NavmeshWarning, IndexError) as exc:
            return str(exc)
        self.apply(new, merge=merge)
        return None

    def end_merge(self) -> None:
        """Close the current merged undo step (the mouse button went up)."""
        self._merge = None

    def set_settings(self, settings: BuildSettings) -> None:
        """Change the build settings (one undo step; rebuilds the graph)."""
        if settings == self.settings:
            return
        self._push_undo()
        self._merge = None
        self.settings = settings
        self._relink(False)

    def update_settings(self, **changes: Any) -> str | None:
        """``set_settings`` with some fields changed; returns the reason when they are refused."""
        new = replace(self.settings, **changes)
        try:  # the library checks the options; an empty level makes that cheap
            navmesh.build_waypoint_graph(navmesh.Level.rectangle(1, 1), **new.build_options())
        except navmesh.NavmeshError as exc:
            return str(exc)
        self.set_settings(new)
        return None

    def _push_undo(self) -> None:
        self.undo_stack.append(self.snapshot())
        del self.undo_stack[:-UNDO_LIMIT]
        self.redo_stack.clear()

    def undo(self) -> bool:
        """Go back one step; False when there is nothing to undo."""
        if not self.undo_stack:
            return False
        self.redo_stack.append(self.snapshot())
        self._merge = None
        self._restore(self.undo_stack.pop())
        return True

    def redo(self) -> bool:
        """Go forward one undone step; False when there is nothing to redo."""
        if not self.redo_stack:
            return False
        self.undo_stack.append(self.snapshot())
        self._merge = None
        self._restore(self.redo_stack.pop())
        return True

    # -- files ------------------------------------------------------------------------------------
    def open(self, path: str | os.PathLike[str]) -> None:
        """Load a level file as a new document.

        Raises
        ------
        LevelFormatError, OSError
            The file cannot be read; the current document is left untouched.
        """
        level = navmesh.load_level(path)
        nav = build(level, self.settings)
        self.level, self.nav, self.path = level, nav, Path(path)
        self.undo_stack.clear()
        self.redo_stack.clear()
        self.saved = self.snapshot()
        self._autosave_pending = False
        self.revision += 1

    def import_tiled(self, path: str | os.PathLike[str]) -> None:
        """Replace the level with a Tiled map's level, as one undoable edit.

        Raises
        ------
        LevelFormatError, OSError
            The map cannot be read; nothing changes.
        """
        self.apply(navmesh.load_tiled_level(path))

    def save(self, path: str | os.PathLike[str] | None = None) -> None:
        """Save atomically (``navmesh.save_level`` keeps ``.bak``) and forget the autosave.

        Raises
        ------
        OSError
            The file cannot be written; the document stays unsaved and unchanged.
        ValueError
            No path given for an untitled level.
        """
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("the level has no file name yet; use Save As")
        old_autosave = self.autosave_path
        navmesh.save_level(self.level, target)
        self.path = target
        self.saved = self.snapshot()
        self._autosave_pending = False
        self.discard_autosave(old_autosave)
        self.discard_autosave()

    # -- autosave ---------------------------------------------------------------------------------
    @property
    def autosave_path(self) -> Path:
        """The side file autosaves go to."""
        if self.path is not None:
            return self.path.with_name(self.path.name + AUTOSAVE_SUFFIX)
        return self.state_dir / (UNTITLED + AUTOSAVE_SUFFIX)

    def tick(self) -> bool:
        """Autosave when an edit burst has ended or the period has passed; True when it wrote."""
        if not self._autosave_pending or self._last_edit is None:
            return False
        now = self._clock()
        if now - self._last_edit < BURST_GAP and now - self._last_autosave < AUTOSAVE_PERIOD:
            return False
        self.write_autosave()
        return True

    def write_autosave(self) -> None:
        """Write the autosave now (or remove it when there is nothing unsaved)."""
        self._last_autosave = self._clock()
        self._autosave_pending = False
        if not self.dirty:
            self.discard_autosave()
            return
        target = self.autosave_path
        target.parent.mkdir(parents=True, exist_ok=True)
        navmesh.save_level(self.level, target)
        target.with_name(target.name + ".bak").unlink(missing_ok=True)

    def discard_autosave(self, path: Path | None = None) -> None:
        """Remove the autosave side file (after a clean save or exit)."""
        target = self.autosave_path if path is None else path
        target.unlink(missing_ok=True)
        target.with_name(target.name + ".bak").unlink(missing_ok=True)

    def recovery(self) -> Path | None:
        """The autosave a crashed session left for this document, if any."""
        target = self.autosave_path
        return target if target.exists() else None

    def recover(self) -> None:
        """Take the autosave's level as an (unsaved, undoable) edit and remove nothing yet.

        Raises
        ------
        LevelFormatError, OSError
            The autosave cannot be read; nothing changes.
        """
        found = self.recovery()
        if found is None:
            raise FileNotFoundError(f"no autosave at {self.autosave_path}")
        self.apply(navmesh.load_level(found))
