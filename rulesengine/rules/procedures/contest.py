"""A contest: each party makes the same check; a ranking orders them; a tie rule settles a
tie for first place (it stands, the tied parties roll again, the first or last party wins,
or tie-breakers apply in turn: a higher value, then a roll-off)."""

from __future__ import annotations

from ...records import Record
from typing import NamedTuple

from ...codes import E_PROCEDURE
from ...limits import MAX_PARTIES
from ..context import BuildContext, built
from ..model import Check, Expr, Input, Role
from ..scope import Scope
from .counts import party_counts

TIE_RULES = ("stand", "reroll", "first", "last")  # a tie rule given as a word


class TieBreaker(NamedTuple):
    how: str  # "higher": the higher value wins; "roll": the tied parties roll this off
    expr: Expr


class ContestSpec(Record):
    rank_by: tuple[Expr, ...]
    min_parties: int
    max_parties: int
    ties: str | tuple[TieBreaker, ...]  # a word of TIE_RULES, or tie-breakers in turn
    winner_result: Expr | None = None

    def party_expressions(self, check: str) -> list[tuple[str, list[Expr], dict[str, str]]]:
        ties = [t.expr for t in self.ties] if isinstance(self.ties, tuple) else []
        return [(check, [*self.rank_by, *ties, *([self.winner_result] if self.winner_result else [])], {})]

    def texts(self) -> list[tuple[str, Expr, tuple[str, ...]]]:
        return []

    def conditions(self) -> list[tuple[str, Expr]]:
        return []

    def roles(self, check: str) -> tuple[Role, ...]:
        return (Role("party", check, self.min_parties, min(self.max_parties, MAX_PARTIES)),)

    def numbers(self) -> list[tuple[str, Expr]]:
        return [("winner_result", self.winner_result)] if self.winner_result is not None else []


def end_scope(spec: ContestSpec, own: Scope, party: Scope) -> Scope:
    """A contest's report reads the winner's check, its number and the runner-up's result."""
    return party.with_names(winner="the winning party's number", runner_up="the runner-up's result")


def build(builder: BuildContext, name: str, spec: dict, ptr: str, check: Check, inputs: tuple[Input, ...],
          party: Scope) -> ContestSpec | None:
    party = party.with_names(party="the party's number, 1 for the first")
    if not spec.get("rank_by"):
        builder.error(E_PROCEDURE, f"contest '{name}' needs rank_by", ptr, "e.g. rank_by: [result]")
        return None
    rank_by = tuple(built(builder.expr(e, f"{ptr}/rank_by/{i}", party, what="rank_by"))
                    for i, e in enumerate(spec["rank_by"]))
    ties = spec.get("ties", "stand")
    if isinstance(ties, list):
        breakers = []
        for i, t in enumerate(ties):
            if "higher" in t:
                breakers.append(TieBreaker("higher", built(builder.expr(t["higher"], f"{ptr}/ties/{i}/higher", party,
                                                                        what="a tie-breaker"))))
            else:
                breakers.append(TieBreaker("roll", built(builder.expr(t["roll"], f"{ptr}/ties/{i}/roll", party,
                                                                      dice=True, what="a roll-off"))))
        ties = tuple(breakers)
    winner_result = None
    if "winner_result" in spec:
        winner_result = builder.expr(spec["winner_result"], f"{ptr}/winner_result",
                                     party.with_names(runner_up="the runner-up's result"), what="winner_result")
    lo, hi = party_counts(builder, name, spec, "parties", ptr, 2, MAX_PARTIES)
    return ContestSpec(rank_by, lo, hi, ties, winner_result)
