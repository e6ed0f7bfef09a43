"""Experiment (not in the library: it changes the callers' code): no machine code for navmesh's
internal kernels, their callers make their own.

Installed by ``NAVMESH_LLVM_EXP=linkonly`` (``sitecustomize.py`` here) or by calling :func:`install`.
Measured on a loaded machine (issue 18): a cold compile of every part spent about 1.1 CPU s (2 per
cent) less, the internal kernels' machine-code emission gone and the callers' unchanged. The
callers' code changes (below); the runtime benchmarks showed no difference beyond their noise in
interleaved rounds (Crowd.update on the cave, navmesh.astar on the 10,000-node graph: whichever
of a base/branch pair ran first was 5-15 per cent faster, in either order).

A kernel that only other kernels call (``signatures.njit(internal=True)``: no CPython entry point,
no C entry point) is still compiled by numba like any other: after LLVM's optimisation of its
module, numba hands the module to its JIT engine, which emits machine code for it
(``CPUCodeLibrary._finalize_final_module``), and the cache saves that object code with the
module's bitcode (``serialize_using_object_code``). Nothing needs that machine code: a caller
links the callee's optimised LLVM module into its own (``add_linking_library``: numba always does,
with the callee's functions made ``linkonce_odr``), optimises the whole, and emits its own machine
code for it; a caller loaded from numba's cache brings its own machine code and never loads the
callee. A cold compile of every part emitted about 40 such modules in vain (about 1 CPU second).

:func:`install` makes numba skip that step for exactly those libraries: a JIT library whose module,
after numba's own optimisation, defines at least one function with external linkage (its own
code, as opposed to the ``linkonce_odr`` copies of its callees), every one of them a navmesh
function (a mangled name starting ``_ZN7navmesh``; an entry point's name starts ``_ZN7cpython`` or
``cfunc``), and no recursion placeholder (``.numba.unresolved$``, numba's way for a function to
call one still being compiled; it also waits for none). Such a library is finalized as numba would,
except that its module is not handed to the JIT engine. numba's own ``get_executable`` works
unchanged (it already finds no entry point: address 0); the Environment it stores for the kernel
(``set_env``, into the module's ``_ZN08NumbaEnv...`` global) is kept aside. If anything asks for
the address of one of the module's functions (``get_pointer_to_function``: numba does for a kernel
used as a first-class function value), the module is handed to the engine then, as numba would
have, with the Environments kept aside. The cache
stores such a library as its final module's bitcode (numba's own ``serialize_using_bitcode``),
which numba's own loader reads with or without :func:`install` (it would then emit the machine
code at load).

What callers link changes: numba's JIT engine runs its machine-code passes (loop strength
reduction, CodeGenPrepare) on the module it was handed, in place, and numba's callers link that
rewritten module; a link-only kernel's callers link the module as LLVM's optimisation left it
(whose own O3 module pipeline then simplifies the whole). The answers are the same but the
callers' machine code differs; ``tools/codegen_compare.py`` shows which cached
records differ (same kernels, same signatures, same typed IR; most callers' machine code differs).

Every other library (a game's own numba functions, numba's implementations of numpy functions,
navmesh's entry kernels) takes numba's own methods. The replacement applies only to the numba
versions it was checked against (:data:`CHECKED_NUMBA`), and only while numba's methods are the
ones it replaces; otherwise numba is left alone. :func:`uninstall` puts numba's methods back.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable

import numba

#: numba's own methods (``Class.method`` -> function), kept while :func:`install`'s replacements are in place.
ORIGINALS: dict[str, Any] = {}

#: numba versions whose ``CPUCodeLibrary`` and JIT engine :func:`install` was checked against.
CHECKED_NUMBA = ((0, 68),)

#: How numba's name of a navmesh function starts (the kernel itself, not an entry point).
NAVMESH_PREFIX = "_ZN7navmesh"

#: How numba names the global holding a function's Environment pointer.
ENV_PREFIX = "_ZN08NumbaEnv"

#: The methods :func:`install` replaces, as ``Class.method`` of ``numba.core.codegen``.
REPLACED = (
    "CPUCodeLibrary._finalize_final_module",
    "CPUCodeLibrary.serialize_using_object_code",
    "JITCodeLibrary.get_pointer_to_function",
    "JITCPUCodegen.set_env",
)

#: Environments numba stored for link-only libraries' globals (name -> Environment), written into
#: the engine if such a library gets its machine code after all.
_KEPT_ENVS: dict[str, Any] = {}


def link_only(library: Any) -> bool:
    """True if ``library`` (a finalized numba ``CPUCodeLibrary``) is link-only: its module was not
    handed to the JIT engine (see the module's docstring)."""
    return bool(getattr(library, "_navmesh_link_only", False))


def _is_link_only(library: Any) -> bool:
    """The rule of the module's docstring, on the library's optimised final module."""
    import llvmlite.binding as ll
    from numba.core import codegen, config

    if type(library) is not codegen.JITCodeLibrary or config.DUMP_OPTIMIZED or config.DUMP_ASSEMBLY:
        return False
    module = library._final_module
    own = 0
    for fn in module.functions:
        if fn.is_declaration or fn.linkage != ll.Linkage.external:
            continue
        if not fn.name.startswith(NAVMESH_PREFIX):
            return False
        own += 1
    if not own or library._codegen._rtlinker._unresolved:  # a recursive call waits for its address
        return False
    unresolved = codegen.RuntimeLinker.PREFIX
    return not any(gv.name.startswith(unresolved) for gv in module.global_variables)


def _defines(library: Any, name: str) -> bool:
    try:
        return not library._final_module.get_function(name).is_declaration
    except NameError:
        return False


def _numbas(qualname: str) -> Any:
    from numba.core import codegen

    owner, method = qualname.split(".")
    return getattr(codegen, owner).__dict__.get(method)


def install() -> bool:
    """Make numba skip the machine code of navmesh's internal kernels (see the module's docstring).

    Returns
    -------
    bool
        True if the replacement is in place (now or from an earlier call), False if this numba
        version or one of the methods it replaces (:data:`REPLACED`) is not the one it was checked
        against (numba is then left alone).
    """
    from numba.core import codegen

    if getattr(codegen.CPUCodeLibrary, "_navmesh_link_only_internal", False):
        return True
    originals = {name: ORIGINALS.get(name) or _numbas(name) for name in REPLACED}
    if tuple(int(p) for p in numba.__version__.split(".")[:2]) not in CHECKED_NUMBA or any(
        getattr(f, "__qualname__", "") != name for name, f in originals.items()
    ):
        return False
    finalize_module = originals["CPUCodeLibrary._finalize_final_module"]
    serialize = originals["CPUCodeLibrary.serialize_using_object_code"]
    pointer_to = originals["JITCodeLibrary.get_pointer_to_function"]
    set_env = originals["JITCPUCodegen.set_env"]

    def _finalize_final_module(self: Any) -> None:
        if not _is_link_only(self):
            finalize_module(self)
            return
        # numba's method up to handing the module to the engine (no machine code).
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        for gv in self._final_module.global_variables:
            if gv.name.startswith(ENV_PREFIX) and not gv.is_declaration:
                _KEPT_ENVS.setdefault(gv.name, None)
        self._navmesh_link_only = True
        self._finalized = True

    def serialize_using_object_code(self: Any) -> tuple[str, str, Any]:
        if link_only(self):
            return self.serialize_using_bitcode()
        return serialize(self)

    def get_pointer_to_function(self: Any, name: str) -> int:
        if link_only(self) and _defines(self, name):
            # The machine code is wanted after all: the rest of numba's _finalize_final_module.
            self._navmesh_link_only = False
            self._final_module._CPUCodeLibrary__library = weakref.proxy(self)
            cleanup = self._codegen._add_module(self._final_module)
            if cleanup:
                weakref.finalize(self, cleanup)
            self._finalize_specific()
            for gv in self._final_module.global_variables:
                if _KEPT_ENVS.get(gv.name) is not None:
                    set_env(self._codegen, gv.name, _KEPT_ENVS[gv.name])
        return pointer_to(self, name)

    def set_env_kept(self: Any, env_name: str, env: Any) -> None:
        if env_name in _KEPT_ENVS and not self._engine.is_symbol_defined(env_name):
            _KEPT_ENVS[env_name] = env  # only a link-only library defines it: nothing reads it
            return
        set_env(self, env_name, env)

    replacements: dict[str, Callable[..., Any]] = {
        "CPUCodeLibrary._finalize_final_module": _finalize_final_module,
        "CPUCodeLibrary.serialize_using_object_code": serialize_using_object_code,
        "JITCodeLibrary.get_pointer_to_function": get_pointer_to_function,
        "JITCPUCodegen.set_env": set_env_kept,
    }
    for name, replacement in replacements.items():
        if name in ORIGINALS:
            continue  # still in place from before an uninstall()
        ORIGINALS[name] = originals[name]
        owner, method = name.split(".")
        replacement.__doc__ = originals[name].__doc__
        setattr(getattr(codegen, owner), method, replacement)
    codegen.CPUCodeLibrary._navmesh_link_only_internal = True
    return True


def uninstall() -> None:
    """Put numba's own methods back. Once a link-only library exists in the process, the two that
    serve it (its machine code if asked for, its Environment) stay: they are numba's own for every
    other library."""
    from numba.core import codegen

    if not getattr(codegen.CPUCodeLibrary, "_navmesh_link_only_internal", False):
        return
    for name in REPLACED if not _KEPT_ENVS else REPLACED[:2]:
        owner, method = name.split(".")
        setattr(getattr(codegen, owner), method, ORIGINALS.pop(name))
    del codegen.CPUCodeLibrary._navmesh_link_only_internal
