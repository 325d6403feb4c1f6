"""A check's ``choose`` block: which roll it chooses dice from, how many (``pick``: a number,
or an expression of values known before the roll), the values the chosen dice give and the
policy that prefers one choice (docs/ruleset-language.md, "Choosing dice")."""

from __future__ import annotations

from typing import Any

from ..codes import E_BAD_CHOOSE, E_UNKNOWN_REFERENCE
from .context import BuildContext
from .model import Choose, Expr
from .scope import Scope, escape_pointer


def build_choose(b: BuildContext, spec: dict, ptr: str, roll_names: list[str], full_scope: Scope,
                 after: set[str]) -> tuple[Choose | None, Scope]:
    """The optional ``choose`` block of the check ``spec`` and the scope after it (its values
    become names); ``after``: the names known only once the dice are rolled."""
    scope_after_choose = Scope(dict(full_scope.names))
    if "choose" not in spec:
        return None, scope_after_choose
    c = spec["choose"]
    cptr = f"{ptr}/choose"
    if c["from"] not in roll_names:
        b.error(E_BAD_CHOOSE, f"choose from '{c['from']}', which is not a roll of this check",
                f"{cptr}/from", "rolls: " + ", ".join(roll_names))
    inner = full_scope.with_names(chosen="the chosen dice", rest="the dice not chosen")
    values = []
    for vname, vtext in c["values"].items():
        e = b.expr(vtext, f"{cptr}/values/{escape_pointer(vname)}", inner, what=f"'{vname}'")
        if e is not None:
            values.append((vname, e))
        inner.names[vname] = "value"
        scope_after_choose.names[vname] = "value"
    prefer = b.expr(c["prefer"], f"{cptr}/prefer", inner, what="'prefer'") if "prefer" in c else None
    order = tuple(c.get("order", [v for v, _ in values]))
    for o in order:
        if o not in dict(values):
            b.error(E_UNKNOWN_REFERENCE, f"order by '{o}', which is not one of the chosen values", f"{cptr}/order")
    pick = _pick(b, c.get("pick", 2), f"{cptr}/pick", full_scope, after)
    return Choose(c["from"], pick, tuple(values), prefer, order, cptr), scope_after_choose


def _pick(b: BuildContext, pick: Any, pointer: str, full_scope: Scope, after: set[str]) -> int | Expr:
    """How many dice ``choose`` picks: a number 1 to 10 (the schema says so), or an
    expression of values known before the roll (``pick: ring``), which must give 1 to 10 for
    every input allowed (the resolver says so where it does not; validate tries the inputs'
    bounds)."""
    if not isinstance(pick, str):
        return pick
    e = b.expr(pick, pointer, full_scope, what="'pick'")
    if e is None:
        return 2
    if e.names & after:
        b.error(E_BAD_CHOOSE, "how many dice to choose is decided before the roll, but 'pick' reads the dice",
                pointer, "use values known before the roll: inputs and lets that read no roll, e.g. "
                "pick: min(ring, 10)")
        return 2
    return e
