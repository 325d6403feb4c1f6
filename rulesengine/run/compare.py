"""The cases of a comparison (`odds … --compare`): the same check or procedure under the
inputs given and under each compared set — its inputs over the ones given, a party's over
that party's, under another ruleset where one is named — each labelled by what tells it
apart: the compared inputs as the case took them (a default too), led by the ruleset where
rulesets are compared. Front ends parse the words and show the table; what a case is and
what it is called is decided here once."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from ..dice.trace import format_value
from .json_parts import jsonable
from .odds_value import OddsValue


class Case(NamedTuple):
    """One set of inputs to work odds out for: ``ruleset`` (None: the one given), plain
    ``inputs`` by name, and ``parties`` (a procedure's, by number from 1), values as given."""

    ruleset: str | None
    inputs: Mapping[str, str]
    parties: Mapping[int, Mapping[str, str]]


def compared_cases(base: Case, others: Sequence[Case], base_ruleset: str,
                   odds_of: Callable[[Case], OddsValue]) -> list[tuple[str, OddsValue]]:
    """``base`` and each of ``others`` (its inputs and parties over the base's), with their
    labels and odds (``odds_of``, in order: the base first)."""
    changed = list(dict.fromkeys([k for c in others for k in c.inputs]
                                 + [f"party{n}.{k}" for c in others for n, p in c.parties.items() for k in p]))
    by_ruleset = any(c.ruleset is not None for c in others)

    def labelled(case: Case) -> tuple[str, OddsValue]:
        odds = odds_of(case)
        took = {**{f"party{n}.{k}": x for n, p in case.parties.items() for k, x in p.items()}, **case.inputs,
                **{k: format_value(jsonable(x)) for k, x in (odds.inputs or {}).items()},
                **{f"party{i}.{k}": format_value(jsonable(x))
                   for i, p in enumerate(odds.parties or (), start=1) for k, x in p.items()}}
        words = [case.ruleset or base_ruleset] if by_ruleset else []
        words += [f"{k}={took[k]}" for k in changed if k in took]
        return " ".join(words) or "as given", odds

    merged = [Case(c.ruleset, {**base.inputs, **c.inputs},
                   {n: {**base.parties.get(n, {}), **c.parties.get(n, {})}
                    for n in sorted({*base.parties, *c.parties})}) for c in others]
    return [labelled(c) for c in [base, *merged]]
