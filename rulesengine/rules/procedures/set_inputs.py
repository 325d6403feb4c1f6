"""Inputs a procedure sets on a check for its parties (an assisted check's helper inputs, a
group's member inputs): each must be an input of that check, and is an expression over what
the procedure knows."""

from __future__ import annotations


from ...codes import E_UNKNOWN_REFERENCE
from ..context import BuildContext
from ..model import Check, Expr
from ..scope import Scope, escape_pointer


def build_set_inputs(builder: BuildContext, spec: dict, key: str, ptr: str, check: Check, scope: Scope,
                     what: str) -> dict[str, Expr]:
    """``spec[key]`` (name → expression) built in ``scope``. A name that is not an input of
    ``check``, or whose expression has an error, is reported and left out: the builder refuses
    the ruleset once anything was reported, so nothing runs on the partial mapping."""
    out: dict[str, Expr] = {}
    for n, e in (spec.get(key) or {}).items():
        where = f"{ptr}/{key}/{escape_pointer(n)}"
        if check.input(n) is None:
            builder.error(E_UNKNOWN_REFERENCE, f"{what} '{n}' is not an input of check '{check.name}'", where,
                          key=True)
            continue
        built = builder.expr(e, where, scope, what=f"{what} '{n}'")
        if built is not None:
            out[n] = built
    return out
