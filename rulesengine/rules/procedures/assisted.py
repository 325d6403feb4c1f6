"""An assisted check: helpers make a (helper) check first or after the leader; their totals
give the leader a bonus to one input, and a ruin rule may spoil the attempt."""

from __future__ import annotations

from ...records import Record
from types import MappingProxyType
from collections.abc import Mapping

from ...codes import E_UNKNOWN_REFERENCE
from ...limits import MAX_PARTIES
from ..context import BuildContext, built
from ..model import Check, Expr, Input, Role
from ..scope import Scope, escape_pointer
from .counts import party_counts
from .set_inputs import build_set_inputs

ORDERS = ("helpers_first", "leader_first")


class AssistedSpec(Record):
    helper_check: str
    order: str  # one of ORDERS
    helper_inputs: Mapping[str, Expr]
    totals: Mapping[str, Expr]
    ruin_when: Expr | None
    bonus: Expr
    bonus_to: str  # an integer input of the leader's check
    min_helpers: int
    max_helpers: int

    def party_expressions(self, check: str) -> list[tuple[str, list[Expr], dict[str, str]]]:
        return [(self.helper_check, [*self.totals.values(), *([self.ruin_when] if self.ruin_when else [])], {}),
                (check, list(self.helper_inputs.values()), {"leader_result": "result"})]

    def texts(self) -> list[tuple[str, Expr, tuple[str, ...]]]:
        return []

    def conditions(self) -> list[tuple[str, Expr]]:
        return [("ruin_when", self.ruin_when)] if self.ruin_when is not None else []

    def roles(self, check: str) -> tuple[Role, ...]:
        return (Role("leader", check, 1, 1),
                Role("helper", self.helper_check, self.min_helpers, self.max_helpers, first=2,
                     computed=tuple(self.helper_inputs)))

    def numbers(self) -> list[tuple[str, Expr]]:
        return [*((f"the total {name}", e) for name, e in self.totals.items()), ("the bonus", self.bonus)]


def end_scope(spec: AssistedSpec, own: Scope, party: Scope) -> Scope:
    """An assisted check's report reads the leader's check (after the help), the bonus and
    the procedure's own inputs."""
    return Scope({**party.names, **own.names}).with_names(bonus="the bonus the helpers gave")


def build(builder: BuildContext, name: str, spec: dict, ptr: str, check: Check, inputs: tuple[Input, ...],
          party: Scope) -> AssistedSpec | None:
    helper_check = builder.checks.get(spec.get("helper_check", check.name))
    if helper_check is None:
        builder.error(E_UNKNOWN_REFERENCE, f"helper check '{spec.get('helper_check')}' does not exist",
                      f"{ptr}/helper_check")
        return None
    own = Scope({i.name: "input" for i in inputs})
    order = spec.get("order", "helpers_first")
    inputs_scope = Scope({i.name: "input" for i in helper_check.inputs}).with_names(**own.names)
    inputs_scope.names.update({f"leader_{i.name}": "the leader's input" for i in check.inputs})
    if order == "leader_first":
        inputs_scope.names["leader_result"] = "the leader's result before help"
    helper_inputs = build_set_inputs(builder, spec, "helper_inputs", ptr, helper_check, inputs_scope, "helper input")
    helper = Scope({i.name: "input" for i in helper_check.inputs})
    helper.names.update({let.name: "value" for let in helper_check.lets})
    helper.names.update({r: "value" for r in helper_check.report})
    helper.names.update(result="the result", outcome="the outcome", success="whether it succeeded")
    helper.names.update(own.names)
    totals = {n: built(builder.expr(e, f"{ptr}/totals/{escape_pointer(n)}", helper, what=f"total '{n}'"))
              for n, e in (spec.get("totals") or {}).items()}
    ruin_when = builder.expr(spec["ruin_when"], f"{ptr}/ruin_when", helper, what="ruin_when") \
        if "ruin_when" in spec else None
    bonus = builder.expr(spec.get("bonus", 0), f"{ptr}/bonus", own.with_names(**{n: "a total" for n in totals}),
                         what="bonus")
    target = spec.get("bonus_to")
    target_input = check.input(target) if target is not None else None
    if target is None or target_input is None or target_input.type != "integer":
        builder.error(E_UNKNOWN_REFERENCE, f"bonus_to must name an integer input of check '{check.name}'",
                      f"{ptr}/bonus_to" if target else ptr,
                      "inputs: " + ", ".join(i.name for i in check.inputs if i.type == "integer"))
        return None
    lo, hi = party_counts(builder, name, spec, "helpers", ptr, 1, MAX_PARTIES - 1)
    return AssistedSpec(helper_check.name, order, MappingProxyType(helper_inputs), MappingProxyType(totals),
                        ruin_when, built(bonus), target, lo, hi)
