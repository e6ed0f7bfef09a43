"""numba's two recursive walks over IR values without a Python call per leaf: less compile time.

numba lists the variables an IR instruction reads or writes (``Inst.list_vars``, for every
liveness, use-def and dead-variable analysis, rerun after most passes) by walking the
instruction's attributes with ``Inst._rec_list_vars``, one recursive call per value: a location,
a name, a constant or a variable alike. A cold compile of all of navmesh's kernels makes 2.9
million such calls (about 3 per cent of its CPU time). Its bytecode analysis flattens the
registers an instruction uses (``byteflow._flatten_inst_regs``) with one nested generator per
tuple or list (about 1 per cent).

:func:`install` replaces both with versions that look at each value in the loop and recurse only
into lists, tuples, dicts and instructions: the same values in the same order (the tests compare
both on every instruction of compiled kernels). It applies only to the numba versions it was
checked against (:data:`CHECKED_NUMBA`), and only while numba's functions are the ones it
replaces; otherwise numba is left alone. It changes numba for the whole process; the compiled code
is unchanged.
"""

from __future__ import annotations

from typing import Any, Iterable

from navmesh._kernels.call_type_cache import numba_version

#: numba versions whose ``Inst._rec_list_vars`` and ``byteflow._flatten_inst_regs`` were read.
CHECKED_NUMBA = ((0, 68),)

#: numba's own functions, kept when :func:`install` replaces them (the tests compare).
ORIGINALS: dict[str, Any] = {}


def install() -> bool:
    """Replace ``Inst._rec_list_vars`` and ``byteflow._flatten_inst_regs`` (see the module's
    docstring; process-wide).

    Returns
    -------
    bool
        True if the replacements are in place (now or from an earlier call), False if this numba
        version or its functions are not the ones they were checked against (numba is then left
        alone).
    """
    from numba.core import byteflow, ir

    if getattr(ir.Inst, "_navmesh_fast_walks", False):
        return True
    rec_list_vars = ir.Inst.__dict__.get("_rec_list_vars")
    flatten = getattr(byteflow, "_flatten_inst_regs", None)
    if (numba_version() not in CHECKED_NUMBA
            or getattr(rec_list_vars, "__qualname__", "") != "Inst._rec_list_vars"
            or getattr(flatten, "__qualname__", "") != "_flatten_inst_regs"
            or getattr(flatten, "__module__", "") != byteflow.__name__):
        return False
    var, inst = ir.Var, ir.Inst

    def fast_rec_list_vars(self: Any, val: Any) -> list:
        """numba's ``Inst._rec_list_vars``: the variables in ``val`` (a variable, an instruction's
        ``list_vars()``, or those of a list's, tuple's or dict's values in order)."""
        if isinstance(val, var):
            return [val]
        if isinstance(val, inst):
            return val.list_vars()
        if isinstance(val, (list, tuple)):
            values: Iterable = val
        elif isinstance(val, dict):
            values = val.values()
        else:
            return []
        found: list = []
        for item in values:
            if isinstance(item, var):
                found.append(item)
            elif isinstance(item, inst):
                found.extend(item.list_vars())
            elif isinstance(item, (list, tuple, dict)):
                found.extend(self._rec_list_vars(item))
        return found

    ORIGINALS["_rec_list_vars"] = rec_list_vars
    ORIGINALS["_flatten_inst_regs"] = flatten
    ir.Inst._rec_list_vars = fast_rec_list_vars
    byteflow._flatten_inst_regs = flatten_inst_regs
    ir.Inst._navmesh_fast_walks = True
    return True


def flatten_inst_regs(iterable: Iterable) -> Iterable[str]:
    """numba's ``byteflow._flatten_inst_regs``: the strings in ``iterable`` and, depth first, in
    its nested tuples and lists, in order (a list here, a generator in numba; its one caller makes
    a set of it)."""
    found: list[str] = []
    for item in iterable:
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, (tuple, list)):
            found.extend(flatten_inst_regs(item))
    return found
