"""Two of numba's typing costs made cheaper with the same answers: less of navmesh's compile time.

numba resolves every call inside a kernel through overload templates whose implementation cache is
keyed by the compile flags (``numba.core.targetconfig.TargetConfig``: 22 options). Its ``__eq__``
and ``__hash__`` rebuild a dict of all options through 22 property calls each time, and its hash
is the same for every flag set of a class (it hashes the sorted option *names*), so every lookup
compares the flags in full. A cold compile of all of navmesh's kernels made 126,000 such
comparisons and 100,000 hashes, building the dict 355,000 times: about 5 per cent of its CPU time.

:func:`install` replaces the three methods with versions that give the same results: the option
values come from one dict of defaults updated with the set values, two configurations of one class
with the same set values are equal without building either dict, and the hash of a class is
computed once. A configuration holding a value that is not one of its class's options (not made
by numba) takes numba's own methods. The replacement applies only to the numba versions it was
checked against (:data:`CHECKED_NUMBA`), and only while numba's methods are the ones it replaces;
otherwise numba is left alone.

Each failed overload tried while typing a call also formats an error message (most are never
shown), and numba wraps each highlighted piece of it in ``ColorShell``, which re-initialises
colorama (wrapping and restoring ``sys.stdout`` and ``sys.stderr``) and builds no part of the text:
13,600 times for the waypoint kernels alone (about 1-2 per cent of their cold compile). :func:`install` makes ``ColorShell`` do nothing;
the messages are the same strings.

Both replacements change numba for the whole process (a game's own numba code compiles with them
too); the compiled code is unaffected (the same object code is cached). :func:`install` also puts
in place the remembered call typing of :mod:`.call_type_cache`, the cheaper IR walks of
:mod:`.ir_walk_speedup` and the rarer garbage collections of :mod:`.compile_gc_speedup` (each with
its own guards, in its own module).
"""

from __future__ import annotations

from typing import Any

from navmesh._kernels import call_type_cache, compile_gc_speedup, ir_walk_speedup

#: numba's own ``TargetConfig`` methods and ``ColorShell``, kept when :func:`install` replaces them
#: (its test compares).
ORIGINALS: dict[str, Any] = {}

#: numba versions whose ``TargetConfig`` methods :func:`install` was checked against (major, minor).
CHECKED_NUMBA = ((0, 68),)


def install() -> bool:
    """Replace ``TargetConfig.values``, ``__eq__`` and ``__hash__``, and ``ColorShell`` (see the
    module's docstring), and install :mod:`.call_type_cache`, :mod:`.ir_walk_speedup` and
    :mod:`.compile_gc_speedup` (each with its own guards and result).

    Returns
    -------
    bool
        True if the faster ``TargetConfig`` methods are in place (now or from an earlier call),
        False if this numba version or its ``TargetConfig`` is not the one they were checked
        against (numba is then left alone).
    """
    call_type_cache.install()
    ir_walk_speedup.install()
    compile_gc_speedup.install()
    return _install_compare()


def _install_compare() -> bool:
    """The ``TargetConfig`` and ``ColorShell`` part of :func:`install`."""
    from numba.core import errors, targetconfig

    cls = targetconfig.TargetConfig
    if getattr(cls, "_navmesh_fast_compare", False):
        return True
    originals = {name: cls.__dict__.get(name) for name in ("values", "__eq__", "__hash__")}
    if call_type_cache.numba_version() not in CHECKED_NUMBA or any(
        getattr(f, "__qualname__", "") != f"TargetConfig.{name}" for name, f in originals.items()
    ):
        return False
    values, equal = originals["values"], originals["__eq__"]
    defaults: dict[type, dict[str, Any]] = {}
    hashes: dict[type, int] = {}

    def class_defaults(kind: type) -> dict[str, Any]:
        found = defaults.get(kind)
        if found is None:
            found = defaults[kind] = {name: option.default for name, option in kind.options.items()}
        return found

    def fast_values(self: Any) -> dict[str, Any]:
        base = class_defaults(type(self))
        if not self._values.keys() <= base.keys():
            return values(self)
        out = dict(base)
        out.update(self._values)
        return out

    def fast_eq(self: Any, other: Any) -> Any:
        if type(self) is type(other) and self._values == other._values:
            return True
        return equal(self, other)

    def fast_hash(self: Any) -> int:
        kind = type(self)
        if not self._values.keys() <= class_defaults(kind).keys():
            return hash(tuple(sorted(values(self))))
        found = hashes.get(kind)
        if found is None:
            found = hashes[kind] = hash(tuple(sorted(kind.options)))
        return found

    ORIGINALS.update(originals)
    shell = getattr(errors, "ColorShell", None)  # absent without colorama
    if getattr(shell, "__qualname__", "") == "ColorShell":
        ORIGINALS["ColorShell"] = shell
        errors.ColorShell = _NoColorShell
    cls.values = fast_values
    cls.__eq__ = fast_eq
    cls.__hash__ = fast_hash
    cls._navmesh_fast_compare = True
    return True


class _NoColorShell:
    """numba's ``ColorShell`` without re-initialising colorama: it builds no part of a message."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_detail: Any) -> None:
        return None
