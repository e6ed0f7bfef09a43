"""One compiled specialisation per argument type, not one more per constant value.

When a kernel calls another with a constant (``heap_push(keys, vals, 0, ...)``, ``False``, ``-1``),
numba types that argument as a literal (``Literal[int](0)``) and compiles the callee once more for
it, although the code is the same; type inference can also pass a literal first and the plain
type later, compiling twice at one call site. Those copies were about a tenth of navmesh's cold
compile time. :func:`plain_arguments` makes the dispatchers of a kernel module compile for the
plain type of every argument instead; a call with a constant then uses that one specialisation.
"""

from __future__ import annotations

from typing import Any

from numba.core import types


def _plain(dispatcher: Any) -> None:
    literal_aware = dispatcher.get_call_template

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        return literal_aware(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template


def plain_arguments(namespace: dict[str, Any]) -> None:
    """Apply the rule above to every numba dispatcher defined in the module ``namespace``
    (``globals()`` at the end of a kernel module); a no-op with ``NUMBA_DISABLE_JIT=1``."""
    module = namespace.get("__name__")
    for value in list(namespace.values()):
        if hasattr(value, "get_call_template") and getattr(getattr(value, "py_func", None), "__module__", None) == module:
            _plain(value)
