"""A team check: one member rolls for the team (the best, the worst or the first by a
ranking); values are then worked out for every member from the roller's result."""

from __future__ import annotations

from ...records import Record
from types import MappingProxyType
from collections.abc import Mapping

from ...limits import MAX_PARTIES
from ..context import BuildContext, built
from ..model import Check, Expr, Input, Role
from ..scope import Scope, escape_pointer
from .counts import party_counts


ROLLERS = ("highest", "lowest", "first")  # who rolls: the best ranked member, the worst, the first


class TeamSpec(Record):
    rank_by: tuple[Expr, ...]
    roller: Expr  # gives one of ROLLERS
    min_parties: int
    max_parties: int
    member_values: Mapping[str, Expr]  # in order: later values may read earlier ones
    # roller_<name> → name, for each input and value of the roller's check member values may read
    roller_names: Mapping[str, str] = MappingProxyType({})

    def party_expressions(self, check: str) -> list[tuple[str, list[Expr], dict[str, str]]]:
        return [(check, list(self.member_values.values()), {"roller_result": "result", **self.roller_names})]

    def conditions(self) -> list[tuple[str, Expr]]:
        return []

    def texts(self) -> list[tuple[str, Expr, tuple[str, ...]]]:
        return [("the roller", self.roller, ROLLERS)]

    def roles(self, check: str) -> tuple[Role, ...]:
        return (Role("member", check, self.min_parties, min(self.max_parties, MAX_PARTIES)),)

    def numbers(self) -> list[tuple[str, Expr]]:
        return []


def end_scope(spec: TeamSpec, own: Scope, party: Scope) -> Scope:
    """A team check's report reads the roller's check, the roller's number and its own inputs."""
    return Scope({**party.names, **own.names}).with_names(roller="the number of the member who rolled")


def build(builder: BuildContext, name: str, spec: dict, ptr: str, check: Check, inputs: tuple[Input, ...],
          party: Scope) -> TeamSpec | None:
    own = Scope({i.name: "input" for i in inputs})
    member = Scope({i.name: "input" for i in check.inputs})
    member.names.update({let.name: "value" for let in check.lets if not let.after_roll})
    rank_by = tuple(built(builder.expr(e, f"{ptr}/rank_by/{i}", member.with_names(**own.names), what="rank_by"))
                    for i, e in enumerate(spec.get("rank_by") or []))
    roller = builder.expr(spec.get("roller", "'highest'"), f"{ptr}/roller", own, what="roller")
    lo, hi = party_counts(builder, name, spec, "parties", ptr, 1, MAX_PARTIES)
    # the roller's inputs and values, those its roll gave too (highest(roll)): it has rolled
    roller_of = {f"roller_{n}": n for n in [*member.names, *(let.name for let in check.lets if let.after_roll)]}
    roller_names = {alias: "the roller's value" for alias in roller_of}
    roller_names.update(roller_result="the roller's result", roller_success="whether the roller succeeded",
                        roller_outcome="the roller's outcome")
    scope = member.with_names(**own.names, **roller_names)
    values: dict[str, Expr] = {}
    for n, e in (spec.get("member_values") or {}).items():
        values[n] = built(builder.expr(e, f"{ptr}/member_values/{escape_pointer(n)}", scope,
                                       what=f"member value '{n}'"))
        scope.names[n] = "a member value"  # later member values may use it
    return TeamSpec(rank_by, built(roller), lo, hi, MappingProxyType(values), MappingProxyType(roller_of))
