"""numba's typing of a call remembered for audited templates: less of navmesh's compile time.

numba types each call of a builtin, numpy function, ``@overload`` or ``@intrinsic`` function
(``types.Function``) at every call site by trying its typing templates in turn
(``BaseFunction.get_call_type``), formatting an error message for each one that fails. A cold
compile of all of navmesh's kernels makes about 22,000 such calls, most of them repeats.

:func:`install` makes the method answer a repeated call from a dict (:data:`CALL_TYPES`) keyed by
the function type, the typing context, the target, the argument types, the keyword argument types
and the compile flags in force (a copy: numba builds an ``@overload`` implementation per flag set).
An answer is kept only when every template numba tried for it, up to and including the one that
matched, is on the audited list (:data:`AUDITED` by class, :data:`AUDITED_KINDS` by base class),
each entry with the reason read in numba's source: its answer for a call is a function of that
key, it reads no mutable global state and registers nothing per call that a later step reads,
except the implementation key, which a remembered answer sets again as numba would
(``_impl_keys``, and an ``@overload``'s ``_compiled_overloads``). An entry may hold only for some
argument types (``Audit.when``: e.g. ``bool()`` of a number; of anything else numba types
``operator.truth``, whose implementation key a remembered answer would not set). Calls served by
any other template, failures, and calls made while the same function type is being typed further
up (recursion) always take numba's own method. Each answer is a copy of the remembered signature
(numba's parfors pass rewrites the return type of a signature it was given).

The cached method applies only to the numba versions it was checked against
(:data:`CHECKED_NUMBA`), and only while numba's method is the one it replaces; otherwise numba is
left alone. It changes numba for the whole process (a game's own numba code compiles with it too);
the compiled code is unchanged (``tools/call_type_compare.py`` compares the cached object code of
every kernel with and without it).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

import numba

#: numba versions whose ``BaseFunction.get_call_type`` and audited templates were read (major, minor).
CHECKED_NUMBA = ((0, 68),)


class Audit(NamedTuple):
    """Why a template's answer for a call depends only on the key, read in numba 0.68's source, and
    the argument types it holds for (``when(args)``; None: all)."""

    reason: str
    when: Callable[[tuple], bool] | None = None


def _scalars(args: tuple) -> bool:
    from numba.core import types

    return all(isinstance(a, (types.Boolean, types.Number)) for a in args)


def _no_lists(args: tuple) -> bool:
    from numba.core import types

    return not any(isinstance(a, (types.List, types.Optional)) for a in args)


def _scalars_or_plain_arrays(args: tuple) -> bool:
    from numba.core import types

    return all(isinstance(a, (types.Boolean, types.Number)) or type(a) is types.Array for a in args)


_PURE = "generic() only tests the argument types' classes and builds a signature"
_CONVERT = "generic() tests types and asks context.can_convert/unify_pairs (fixed conversion rules)"
_DATETIME = "generic() tests for NPDatetime/NPTimedelta and combines units (npdatetime_helpers, pure)"
_UFUNC = ("generic() finds the ufunc loop (numpy's ufunc.types, numba's ufunc_db, filled once); "
          "only numbers and plain arrays: no __array_ufunc__, __array_wrap__ typing yields nothing")

#: Template kinds whose answer is a function of the key, for every class made of them that keeps
#: the kind's own methods (:data:`_KIND_METHODS`): base class (``module.qualname``) -> audit.
AUDITED_KINDS: dict[str, Audit] = {
    "numba.core.typing.templates.ConcreteTemplate": Audit(
        "apply() selects among the class's fixed `cases` with context.resolve_overload; no state"),
    "numba.core.typing.templates._OverloadFunctionTemplate": Audit(
        "generic() is numba's own cache per (context, args, kws, flags) (_impl_cache) + the compiled "
        "dispatcher; only never-inlined answers numba kept there are remembered; _compiled_overloads replayed"),
    "numba.core.typing.templates._IntrinsicTemplate": Audit(
        "generic() is numba's own cache per (context, args, kws) (_impl_cache); impl key re-read on a hit"),
    "numba.core.typing.npydecl.Numpy_rules_ufunc": Audit(_UFUNC, _scalars_or_plain_arrays),
}

#: Audited template classes (``module.qualname``, as :func:`template_name` gives) -> audit. Each
#: keeps ``AbstractTemplate.apply`` and ``FunctionTemplate.get_impl_key`` (the class's key).
AUDITED: dict[str, Audit] = {
    "numba.core.typing.builtins.GetItemCPointer": Audit(_PURE + " (CPointer, Integer)"),
    "numba.core.typing.builtins.SetItemCPointer": Audit(_PURE + " (CPointer, Integer)"),
    "numba.core.typing.builtins.ConstOpEq": Audit(_PURE + " (both Literal); literal types are in the key"),
    "numba.core.typing.builtins.ConstOpNotEq": Audit("ConstOpEq's generic()"),
    "numba.core.typing.builtins.Len": Audit(_PURE + " (Buffer, BaseTuple, RangeType)"),
    "numba.core.typing.builtins.Enumerate": Audit(_PURE + " (IterableType, Integer start)"),
    "numba.core.typing.builtins.Float": Audit(_PURE + " (number domains, StringLiteral)"),
    "numba.core.typing.builtins.Bool": Audit(
        _PURE + " for booleans and numbers only: any other argument delegates to operator.truth's "
        "typing, whose implementation key a remembered answer would not set", _scalars),
    "numba.core.typing.collections.GetItemSequence": Audit(_PURE + " (Sequence, slice or integer)"),
    "numba.core.typing.collections.SetItemSequence": Audit(_CONVERT),
    "numba.core.typing.arraydecl.GetItemBuffer": Audit("generic() is get_array_index_type(): index types only"),
    "numba.core.typing.arraydecl.SetItemBuffer": Audit("get_array_index_type() + context.can_convert; ary.copy"),
    "numba.core.typing.listdecl.AddList": Audit(_CONVERT),
    "numba.core.typing.listdecl.MulList": Audit(_PURE + " (List, Integer)"),
    "numba.core.typing.listdecl.InplaceAddList": Audit(_CONVERT),
    "numba.core.typing.listdecl.InplaceMulList": Audit("MulList's generic()"),
    "numba.core.typing.listdecl.ListEq": Audit(
        "returns None unless both arguments are lists; with lists it types the element comparison "
        "(another function's implementation key), so lists and optionals are refused", _no_lists),
    "numba.core.typing.setdecl.ConcreteSetOperator": Audit(_PURE + " (two Sets of one dtype)"),
    "numba.core.typing.setdecl.ConcreteInplaceSetOperator": Audit(_PURE + " (two Sets of one dtype)"),
    "numba.core.typing.enumdecl.EnumEq": Audit(_PURE + " (EnumMember ==)"),
    "numba.core.typing.enumdecl.EnumNe": Audit(_PURE + " (EnumMember ==)"),
    "numba.core.typing.npydecl.DtypeEq": Audit(_PURE + " (two DTypes)"),
    **{f"numba.np.types.datetime.{name}": Audit(_DATETIME) for name in (
        "TimedeltaUnaryNeg", "TimedeltaUnaryPos", "TimedeltaAbs", "TimedeltaBinAdd", "TimedeltaBinSub",
        "TimedeltaBinMult", "TimedeltaTrueDiv", "TimedeltaFloorDiv", "TimedeltaCmpEq", "TimedeltaCmpNe",
        "TimedeltaCmpLt", "TimedeltaCmpLE", "TimedeltaCmpGt", "TimedeltaCmpGE", "DatetimePlusTimedelta",
        "DatetimeMinusTimedelta", "DatetimeMinusDatetime", "DatetimeCmpEq", "DatetimeCmpNe",
        "DatetimeCmpLt", "DatetimeCmpLE", "DatetimeCmpGt", "DatetimeCmpGE")},
}

#: Remembered answers: key -> (signature, matched template class, implementation key).
CALL_TYPES: dict[tuple, tuple] = {}

#: numba's own ``BaseFunction.get_call_type``, kept when :func:`install` replaces it.
ORIGINALS: dict[str, Any] = {}


def numba_version() -> tuple[int, int]:
    """(major, minor) of the installed numba; (0, 0) if its version string does not say."""
    try:
        major, minor = numba.__version__.split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        return 0, 0


_WRAPPER = "Registry.register_global.<locals>.decorate.<locals>.Template"


def template_name(cls: type) -> str:
    """``module.qualname`` of a template class; for the class numba's ``Registry.register_global``
    wraps around a declared class (adding only its ``key``), the declared class's."""
    own = {name for name in vars(cls) if not (name.startswith("__") and name.endswith("__"))}
    if cls.__qualname__ == _WRAPPER and own <= {"key", "_abc_impl"}:
        cls = cls.__mro__[1]
    return f"{cls.__module__}.{cls.__qualname__}"


def _kind_methods() -> dict[type, tuple[str, ...]]:
    """Base classes of :data:`AUDITED_KINDS` -> the methods typing calls, which a class must keep."""
    from numba.core.typing import npydecl, templates

    return {
        templates.ConcreteTemplate: ("apply", "_select", "get_impl_key"),
        templates._OverloadFunctionTemplate: ("apply", "generic", "_get_impl", "_build_impl", "get_impl_key"),
        templates._IntrinsicTemplate: ("apply", "generic", "get_impl_key"),
        npydecl.Numpy_rules_ufunc: ("apply", "_handle_inputs", "get_impl_key"),
    }


def inherits(cls: type, base: type) -> bool:
    """``cls`` is ``base`` or a class derived from it (its MRO holds ``base``).

    ``issubclass`` gives the same answer for numba's template classes (none is registered as a
    virtual subclass), but they are ``abc.ABCMeta`` classes: for a class that is not a subclass,
    ``issubclass`` asks every subclass of ``base`` in turn (hundreds for ``ConcreteTemplate``),
    about 1.5 per cent of a cold compile of all of navmesh's kernels. A virtual subclass is not
    one here, which only makes the audit stricter.
    """
    return base in cls.__mro__


def _same(method: Any, other: Any) -> bool:
    return getattr(method, "__func__", method) is getattr(other, "__func__", other)


def _named_methods_kept(temp_cls: type) -> bool:
    from numba.core.typing import templates

    return (getattr(temp_cls, "apply", None) is templates.AbstractTemplate.apply
            and getattr(temp_cls, "get_impl_key", None) is templates.FunctionTemplate.get_impl_key)


def audit_of(temp_cls: Any) -> Audit | None:
    """The audit that lets answers of template class ``temp_cls`` be remembered, or None.

    A class is audited by name (:data:`AUDITED`, keeping ``AbstractTemplate.apply`` and
    ``FunctionTemplate.get_impl_key``, with a ``generic`` from its own module), or by kind
    (:data:`AUDITED_KINDS`) when it keeps every method of its kind that typing calls (for
    ``Numpy_rules_ufunc``: numba's two ``generic``).
    """
    if not isinstance(temp_cls, type):
        return None
    name = template_name(temp_cls)
    found = AUDITED.get(name)
    if found is not None:
        own_generic = getattr(getattr(temp_cls, "generic", None), "__module__", None) == name.rsplit(".", 1)[0]
        return found if own_generic and _named_methods_kept(temp_cls) else None
    for kind, methods in _kind_methods().items():
        if inherits(temp_cls, kind):
            found = AUDITED_KINDS.get(template_name(kind))
            if found is None or not all(_same(getattr(temp_cls, m), getattr(kind, m)) for m in methods):
                return None
            if kind.__name__ == "Numpy_rules_ufunc" and getattr(temp_cls.generic, "__module__", "") != kind.__module__:
                return None
            return found
    return None


def search(fnty: Any, context: Any, args: Any, kws: Any, target_hw: Any) -> tuple[Any, type, int]:
    """numba 0.68's ``BaseFunction.get_call_type`` for ``fnty``, also returning the matched
    template class and its position in numba's order (the classes before it failed).

    Raises numba's typing error when no template matches, as numba does.
    """
    from numba.core import errors, utils
    from numba.core.types.functions import _ResolutionFailures, _unlit_non_poison

    prefer_lit = [True, False]
    prefer_not = [False, True]
    failures = _ResolutionFailures(context, fnty, args, kws, depth=fnty._depth)
    order = utils.order_by_target_specificity(target_hw, fnty.templates, fnkey=fnty.key[0])
    fnty._depth += 1
    for index, temp_cls in enumerate(order):
        temp = temp_cls(context)
        choice = prefer_lit if temp.prefer_literal else prefer_not
        for uselit in choice:
            try:
                if uselit:
                    sig = temp.apply(args, kws)
                else:
                    nolitargs = tuple([_unlit_non_poison(a) for a in args])
                    nolitkws = {k: _unlit_non_poison(v) for k, v in kws.items()}
                    sig = temp.apply(nolitargs, nolitkws)
            except Exception as e:
                if not isinstance(e, errors.NumbaError):
                    raise e
                sig = None
                failures.add_error(temp, False, e, uselit)
            else:
                if sig is not None:
                    fnty._impl_keys[sig.args] = temp.get_impl_key(sig)
                    fnty._depth -= 1
                    return sig, temp_cls, index
                registered_sigs = getattr(temp, "cases", None)
                if registered_sigs is not None:
                    msg = "No match for registered cases:\n%s"
                    msg = msg % "\n".join(" * {}".format(x) for x in registered_sigs)
                else:
                    msg = "No match."
                failures.add_error(temp, True, msg, uselit)
    failures.raise_error()
    raise AssertionError("unreachable")  # raise_error always raises


def install() -> bool:
    """Replace numba's ``BaseFunction.get_call_type`` with the remembering one (see the module's
    docstring; process-wide).

    Returns
    -------
    bool
        True if the remembering method is in place (now or from an earlier call), False if this
        numba version or its method is not the one it was checked against (numba is then left
        alone).
    """
    from numba.core import targetconfig, utils
    from numba.core.target_extension import get_local_target
    from numba.core.types import functions
    from numba.core.typing import templates

    cls = functions.BaseFunction
    if getattr(cls, "_navmesh_call_cache", False):
        return True
    original = cls.__dict__.get("get_call_type")
    if numba_version() not in CHECKED_NUMBA or getattr(original, "__qualname__", "") != (
        "BaseFunction.get_call_type"
    ):
        return False
    overload, intrinsic = templates._OverloadFunctionTemplate, templates._IntrinsicTemplate
    unlit = functions._unlit_non_poison
    function_type = functions.Function
    config_stack = targetconfig.ConfigStack
    # (function type, target) -> the audits of the templates, in numba's order, up to the first unaudited.
    prefixes: dict[tuple, list[Audit]] = {}
    busy: set[int] = set()

    def audited_prefix(fnty: Any, target_hw: Any) -> list[Audit]:
        try:
            return prefixes[fnty, target_hw]
        except KeyError:
            pass
        try:
            order = utils.order_by_target_specificity(target_hw, fnty.templates, fnkey=fnty.key[0])
        except Exception:  # numba's own method raises its error
            order = []
        audits = []
        for temp_cls in order:
            found = audit_of(temp_cls)
            if found is None:
                break
            audits.append(found)
        prefixes[fnty, target_hw] = audits
        return audits

    def holds(audits: list[Audit], args: Any, kws: Any) -> bool:
        conditions = [a.when for a in audits if a.when is not None]
        if not conditions:
            return True
        plain = tuple([unlit(a) for a in args])
        return not kws and all(when(tuple(args)) and when(plain) for when in conditions)

    def get_call_type(self: Any, context: Any, args: Any, kws: Any) -> Any:
        if type(self) is not function_type or id(self) in busy:
            return original(self, context, args, kws)
        target_hw = get_local_target(context)
        try:
            audits = audited_prefix(self, target_hw)
        except TypeError:  # an unhashable function type
            return original(self, context, args, kws)
        if not audits:
            return original(self, context, args, kws)
        flags = config_stack.top_or_none()
        key = (self, context, target_hw, tuple(args), tuple(kws.items()), flags)
        try:
            found = CALL_TYPES.get(key)
        except TypeError:  # an unhashable argument type
            return original(self, context, args, kws)
        if found is not None:
            sig, temp_cls, impl = found
            if inherits(temp_cls, overload):
                temp_cls._compiled_overloads[sig.args] = impl
            elif inherits(temp_cls, intrinsic):
                impl = temp_cls(context).get_impl_key(sig)
            self._impl_keys[sig.args] = impl
            return sig.replace()  # a copy: numba's parfors pass rewrites a signature's return type
        busy.add(id(self))
        try:
            sig, temp_cls, index = search(self, context, args, kws, target_hw)
        finally:
            busy.discard(id(self))
        keep = index < len(audits) and holds(audits[: index + 1], args, kws)
        if keep and inherits(temp_cls, overload):
            built = temp_cls._impl_cache
            plain_args = tuple([unlit(a) for a in args])
            plain_kws = tuple([(k, unlit(v)) for k, v in kws.items()])
            keep = temp_cls._inline.is_never_inline and (
                (context, tuple(args), tuple(kws.items()), flags) in built
                or (context, plain_args, plain_kws, flags) in built
            )
        if keep:
            stored = (self, context, target_hw, tuple(args), tuple(kws.items()),
                      None if flags is None else flags.copy())
            CALL_TYPES[stored] = (sig.replace(), temp_cls, self._impl_keys[sig.args])
        return sig

    ORIGINALS["get_call_type"] = original
    cls.get_call_type = get_call_type
    cls._navmesh_call_cache = True
    return True


def uninstall() -> None:
    """Put numba's own ``BaseFunction.get_call_type`` back and forget the remembered answers (for
    comparing compiled code with and without the cache; :func:`install` puts it in place again)."""
    from numba.core.types import functions

    cls = functions.BaseFunction
    if getattr(cls, "_navmesh_call_cache", False):
        cls.get_call_type = ORIGINALS["get_call_type"]
        del cls._navmesh_call_cache
    CALL_TYPES.clear()
