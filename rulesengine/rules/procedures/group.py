"""A group check: every member makes the same check and the group gets one outcome, read
from tallies summed over the members (how many succeeded, how many rolled low) and, when
the group is ranked, from its best member's check ("the best single roll counts for all",
"the group succeeds if at least half succeed")."""

from __future__ import annotations

from ...records import Record, field
from types import MappingProxyType
from collections.abc import Mapping

from ...codes import E_MISSING_KEY
from ...limits import MAX_PARTIES
from ..context import BuildContext, built
from ..model import Check, Expr, Input, OutcomeRule, Role
from ..scope import Scope, escape_pointer
from .counts import party_counts
from .set_inputs import build_set_inputs


class GroupSpec(Record):
    best_by: tuple[Expr, ...]  # ranks the members, highest first; empty: no best member
    tally: Mapping[str, Expr]  # per member, summed over the group
    outcomes: tuple[OutcomeRule, ...]  # the group's; empty: the best member's outcome
    min_parties: int
    max_parties: int
    member_inputs: Mapping[str, Expr] = field(default_factory=dict)  # set for every member, from its own inputs

    def party_expressions(self, check: str) -> list[tuple[str, list[Expr], dict[str, str]]]:
        exprs = list(self.best_by) + list(self.tally.values())
        exprs += [e for o in self.outcomes for e in (o.when, o.result, o.success) if isinstance(e, Expr)]
        return [(check, exprs, {})]

    def conditions(self) -> list[tuple[str, Expr]]:
        out = [(f"the condition of outcome '{o.name}'", o.when) for o in self.outcomes if o.when is not None]
        return out + [(f"the success of outcome '{o.name}'", o.success) for o in self.outcomes
                      if isinstance(o.success, Expr)]

    def texts(self) -> list[tuple[str, Expr, tuple[str, ...]]]:
        return []

    def roles(self, check: str) -> tuple[Role, ...]:
        return (Role("member", check, self.min_parties, min(self.max_parties, MAX_PARTIES),
                     computed=tuple(self.member_inputs)),)

    def numbers(self) -> list[tuple[str, Expr]]:
        return [(f"the tally '{n}'", e) for n, e in self.tally.items()]


def group_scope(spec: GroupSpec | None, own: Scope, party: Scope, ranked: bool, tallies: list[str]) -> Scope:
    """What the group's outcomes and report read: its tallies, ``parties`` (how many), its
    own inputs and, when it is ranked, the best member's check and ``best`` (its number)."""
    names = dict(own.names)
    if ranked:
        names.update(party.names)
        names["best"] = "the number of the best member"
    names.update({t: "a tally" for t in tallies})
    names["parties"] = "how many members made the check"
    return Scope(names)


def end_scope(spec: GroupSpec, own: Scope, party: Scope) -> Scope:
    return group_scope(spec, own, party, bool(spec.best_by), list(spec.tally))


def build(builder: BuildContext, name: str, spec: dict, ptr: str, check: Check, inputs: tuple[Input, ...],
          party: Scope) -> GroupSpec | None:
    own = Scope({i.name: "input" for i in inputs})
    member = Scope({**party.names, **own.names})
    best_by = tuple(builder.expr(e, f"{ptr}/best_by/{i}", member, what="best_by")
                    for i, e in enumerate(spec.get("best_by") or []))
    tally: dict[str, Expr | None] = {}
    for n, e in (spec.get("tally") or {}).items():
        tally[n] = builder.expr(e, f"{ptr}/tally/{escape_pointer(n)}", member, what=f"the tally '{n}'")
    scope = group_scope(None, own, party, bool(best_by), list(tally))
    outcomes, _ = builder.check_outcomes(name, spec, ptr, scope)
    if not outcomes and not best_by:
        builder.error(E_MISSING_KEY,
                      f"group '{name}' has neither outcomes nor best_by: nothing gives the group an outcome", ptr,
                      "add outcomes read from tallies (successes * 2 >= parties), or best_by", key=True)
        return None
    member_inputs = build_set_inputs(builder, spec, "member_inputs", ptr, check, own, "member input")
    lo, hi = party_counts(builder, name, spec, "parties", ptr, 2, MAX_PARTIES)
    if any(e is None for e in (*best_by, *tally.values())):
        return None
    return GroupSpec(tuple(map(built, best_by)), MappingProxyType({n: built(e) for n, e in tally.items()}),
                     tuple(outcomes), lo, hi, MappingProxyType(member_inputs))
