"""Less LLVM work for navmesh's own kernels: one optimisation of their fresh code, not two.

numba optimises each freshly lowered module function by function with LLVM's O3 simplification
pipeline (``CPUCodeLibrary._optimize_functions``), links the callees' already optimised modules in,
and then optimises the whole module with LLVM's O3 module pipeline, whose inliner runs the same
simplification pipeline on every function again (``_optimize_final_module``). For navmesh's kernels
the first run is redundant: a cold compile of every kernel spent about 6 CPU seconds in it (about
a tenth of the compile), and skipping it made the module pipeline about 2.5 CPU seconds slower:
about 3.5 CPU seconds (5-6 per cent) less in all (``tools/llvm_costs.py`` and
``tools/compile_phases.py`` measure it; the README's figures).

:func:`install` makes ``_optimize_functions`` skip the per-function pipeline for a module that
defines a navmesh function (a kernel or one of its entry points: :data:`NAVMESH_PREFIXES`); every other module (a game's own numba functions,
numba's implementations of numpy functions, which a game's functions share) is optimised by
numba's own method, exactly as before. The whole-module pipeline, its reference-count pruning and
the machine code are numba's own for every module. It applies only with numba's default
optimisation settings (``NUMBA_OPT`` 3, the reference-count pruning pass on), only to the numba
versions it was checked against (:data:`CHECKED_NUMBA`), and only while numba's method is the one
it replaces; otherwise numba is left alone.

numba's on-disk cache does not record how a kernel was optimised (its index key is the signature,
the CPU and its features), so a cache written with and without this replacement are interchangeable:
both hold correct machine code of the same kernels, and a process loads whichever it finds.
"""

from __future__ import annotations

from typing import Any

import numba

#: numba's own ``CPUCodeLibrary._optimize_functions``, kept when :func:`install` replaces it.
ORIGINALS: dict[str, Any] = {}

#: numba versions whose ``CPUCodeLibrary._optimize_functions`` :func:`install` was checked against.
CHECKED_NUMBA = ((0, 68),)

#: How numba's names of navmesh's functions start: a kernel, its CPython entry point, its C entry point.
NAVMESH_PREFIXES = ("_ZN7navmesh", "_ZN7cpython7navmesh", "cfunc._ZN7navmesh")


def _numba_version() -> tuple[int, int]:
    """(major, minor) of the installed numba; (0, 0) if its version string does not say."""
    try:
        major, minor = numba.__version__.split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        return 0, 0


def defines_navmesh_code(ll_module: Any) -> bool:
    """True if the LLVM module (``llvmlite.binding.ModuleRef``) defines a navmesh function."""
    return any(not f.is_declaration and f.name.startswith(NAVMESH_PREFIXES) for f in ll_module.functions)


def _default_settings() -> bool:
    """True while numba runs its default optimisation settings (the ones the replacement was
    measured with)."""
    from numba.core import config

    return int(config.OPT) == 3 and not config.OPT.is_opt_max and bool(config.LLVM_REFPRUNE_PASS)


def install() -> bool:
    """Make numba skip the per-function pipeline for navmesh's modules (see the module's docstring).

    Returns
    -------
    bool
        True if the replacement is in place (now or from an earlier call), False if this numba
        version or its ``CPUCodeLibrary`` is not the one it was checked against (numba is then
        left alone).
    """
    from numba.core import codegen

    cls = codegen.CPUCodeLibrary
    if getattr(cls, "_navmesh_one_optimisation", False):
        return True
    original = cls.__dict__.get("_optimize_functions")
    if _numba_version() not in CHECKED_NUMBA or getattr(original, "__qualname__", "") != (
        "CPUCodeLibrary._optimize_functions"
    ):
        return False

    def optimize_functions(self: Any, ll_module: Any) -> None:
        if not (_default_settings() and defines_navmesh_code(ll_module)):
            original(self, ll_module)
            return
        # numba's method sets the data layout before its passes; the module pipeline needs it too.
        ll_module.data_layout = self._codegen._data_layout

    optimize_functions.__doc__ = original.__doc__
    ORIGINALS["_optimize_functions"] = original
    cls._optimize_functions = optimize_functions
    cls._navmesh_one_optimisation = True
    return True
