"""A check's ``choose`` block: which roll it chooses dice from, how many (``pick``: a number,
or an expression of values known before the roll), the values the chosen dice give and the
policy that prefers one choice (docs/ruleset-language.md, "Choosing dice"); and the rolls
made once the dice are chosen, which read its values (``more: (tens)d10!``: the kept 10s
roll again, "Rolling after the choice")."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..codes import E_BAD_CHOOSE, E_UNKNOWN_REFERENCE
from ..dice.parser import closest
from .context import BuildContext
from .model import Choose, Expr, Let
from .scope import Scope, escape_pointer


def build_choose(b: BuildContext, spec: dict, ptr: str, roll_names: list[str], full_scope: Scope,
                 after: set[str]) -> tuple[Choose | None, Scope]:
    """The optional ``choose`` block of the check ``spec`` and the scope after it (its values
    become names); ``after``: the names known only once the dice are rolled."""
    scope_after_choose = Scope(dict(full_scope.names), full_scope.elsewhere)
    if "choose" not in spec:
        return None, scope_after_choose
    # The dice chosen and left are read only by choose's values: after it, by the values' names.
    scope_after_choose = Scope(dict(full_scope.names), {**full_scope.elsewhere, **{
        dice: f"'{dice}' is read only in choose's values: add one there (e.g. sixes: count({dice}, 6)) and read "
              "it here by its name" for dice in ("chosen", "rest")}})
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
            near = closest(o, [v for v, _ in values])
            b.error(E_UNKNOWN_REFERENCE, f"order by '{o}', which is not one of the chosen values", f"{cptr}/order",
                    (f"did you mean '{near}'? " if near else "") + "values: " + ", ".join(v for v, _ in values))
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


def chosen_names(spec: dict) -> list[str]:
    """The names a check's ``choose`` values give, read off the file before any expression
    is: a roll listed after the choice may read them (it is then rolled after it)."""
    c = spec.get("choose")
    values = c.get("values") if isinstance(c, dict) else None
    return [str(n) for n in values] if isinstance(values, dict) else []


def rolls_after_choice(b: BuildContext, rolls: Sequence[tuple[str, Expr]], choose: Choose | None,
                       lets: Iterable[Let]) -> frozenset[str]:
    """The rolls made once the dice are chosen: the first roll that reads a chosen value and
    every roll listed after it. What the choice is made from (its roll, its values,
    ``prefer``, the lets) is worked out before them, so none of it may read one: each
    such read is an error at its line, E509, whose hint says where to read it instead."""
    if choose is None:
        return frozenset()
    chosen = {name for name, _ in choose.values}
    first = next((i for i, (_, e) in enumerate(rolls) if e.names & chosen), None)
    if first is None:
        return frozenset()
    late = [name for name, _ in rolls[first:]]
    after = frozenset(late)

    def hint(x: str) -> str:
        where = f"the dice are chosen before '{late[0]}' is rolled: read '{x}' in the result, the outcome rules, " \
            "tags or report"
        return where if x == late[0] else f"{where}, or list '{x}' before '{late[0]}'"

    if choose.source in after:
        b.error(E_BAD_CHOOSE, f"choose from '{choose.source}', which is rolled after the choice (it reads a "
                f"chosen value or comes after a roll that does)", f"{choose.pointer}/from",
                "choose from a roll made before the choice: " + (", ".join(n for n, _ in rolls[:first])
                                                                 or "one that reads no chosen value, listed first"))
    for let in lets:
        read = sorted(_names(let) & after)
        if read:
            b.error(E_BAD_CHOOSE, f"'{let.name}' reads '{read[0]}', a roll made after the dice are chosen; "
                    "lets are worked out before the choice", let.pointer, hint(read[0]))
    for what, e in [*((f"'{n}'", e) for n, e in choose.values),
                    *([("'prefer'", choose.prefer)] if choose.prefer is not None else [])]:
        read = sorted(e.names & after)
        if read:
            b.error(E_BAD_CHOOSE, f"{what} reads '{read[0]}', a roll made after the dice are chosen",
                    e.pointer, hint(read[0]))
    return after


def _names(let: Let) -> set[str]:
    if let.expr is not None:
        return set(let.expr.names)
    return set().union(*(c.value.names | (c.when.names if c.when else set()) for c in let.best_of))
