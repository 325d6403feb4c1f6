"""A roll made after seeing earlier ones (a push, a rote's reroll of the first throw's
failures), joined to the joint values of the rolls before it: worked out once for each
reading of what it reads of them, each of its values joined to every joint value that
reads so.

What explosions cut off an earlier roll is followed into it too, where the roll reads
nothing of what was cut (the first throw of a cut roll is known exactly; a roll that an
input turns off reads nothing at all) and that fits half the work left, as the cut rolls of
a pool are (:func:`rulesengine.dice.pool_odds.view_dist`); a reading it can't be worked out
for, or more than that, stays truncated, as the rest of what the depth cut does.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Protocol
from collections.abc import Mapping

from ..dice.beyond import UNDETERMINED, Beyond, Undetermined
from ..dice.dist import Budget, BudgetExceeded, Dist, held_cost
from ..errors import LimitError, RulesEngineError
from ..rules.model import Expr
from .exact import ExactRolls, RollReads
from .joint_values import Joint, joint_width, outcomes_of

if TYPE_CHECKING:  # imported where a roll reads another: a check of one roll never needs them
    from .pushed import PushedSum

_UNSET = object()


class RollSource(Protocol):
    """What joining a roll needs of the check's exact driver (``run.enumeration.Enumerator``)."""

    exact: ExactRolls

    def roll_dist(self, name: str, e: Expr, env: dict, budget: Budget, reads: RollReads | None = None,
                  what: str = "") -> Dist: ...

    def too_big(self, e: Expr, what: str = "") -> LimitError: ...

    def names_held(self, env: Mapping[str, Any], joint: Joint) -> int: ...


def seen_key(values: tuple) -> tuple:
    """A reading of earlier rolls (their values) as a key: itself, or where a value is one
    explosions cut (a :class:`Beyond`, which is no key: it can't be told equal to another),
    that value by its identity. A roll that reads it is worked out for it alone."""
    try:
        hash(values)
        return values
    except Undetermined:
        return tuple((Beyond, id(v)) if isinstance(v, Beyond) else v for v in values)


def join_reading(source: RollSource, joint: Joint, name: str, e: Expr, reads_rolls: list[str], env: dict,
                 budget: Budget, reads: RollReads | None, cut: bool, keys: Mapping[str, dict[tuple, Any]] | None = None,
                 push: PushedSum | None = None) -> tuple[Joint, int]:
    """The joint values so far, each with each value of a roll made after seeing earlier
    ones (``reads_rolls``): its odds for each value they came to, over one common
    denominator (returned beside them); with ``push``, added up into one joint value per
    sum the rules read them through (:mod:`.pushed`), charged as the pairs would be."""
    readings: dict[tuple, tuple] = {}
    for d, _ in joint:
        values = tuple(d[n] for n in reads_rolls)
        try:  # hashed once where no value was cut (a joint value of a push: tens of thousands)
            readings.setdefault(values, values)
        except Undetermined:
            readings.setdefault(seen_key(values), values)
    cuts = [(s, v) for s, v in readings.items() if any(isinstance(x, Beyond) for x in v)]  # charged apart
    # Its size is known before any of it is worked out: one distribution for each reading of
    # the rolls it reads, and at least one value for each joint value so far. Charged first,
    # so a refusal comes at once rather than after every one of those distributions is built.
    try:
        budget.spend(len(readings) - len(cuts))
        budget.afford(len(joint))
    except BudgetExceeded:
        from .readings import readings_text

        raise source.too_big(e, readings_text(name, reads_rolls, len(readings), len(joint))) from None
    by_seen = _Distributions(source, name, e, reads_rolls, env, reads, cut, keys, len(readings))
    by_seen.work([(s, v) for s, v in readings.items() if not any(isinstance(x, Beyond) for x in v)], budget)
    if cuts:
        by_seen.follow(cuts, joint, budget, source.names_held(env, joint) + 1)
    found = by_seen.found
    common = math.lcm(*(x[0][2] for x in found.values() if x)) if found else 1
    made = sum(len(by_seen.of(d)) for d, _ in joint)
    width = joint_width(joint) + 1
    try:
        budget.spend(held_cost(made, width))
    except BudgetExceeded:
        steps = budget.used  # the work so far and these joint values, each charged for the rolls it holds
        raise source.too_big(e, f"with '{name}', {made:,} joint values"
                                f"{f' of {width} rolls each' if width > 1 else ''}: {steps:,} steps with "
                                f"the work before, past max_states ({budget.limit:,})") from None
    if push is not None:
        from .pushed import added_up

        return added_up(joint, name, push, env, lambda a: by_seen.of_values((a,)), common), common
    return [({**d, name: v}, w * wv * (common // dv)) for d, w in joint for v, wv, dv in by_seen.of(d)], common


class _Distributions:
    """The roll's distribution for each reading of the rolls it reads, worked out once for
    each value of what it reads of them (``ExactRolls.reading_key``)."""

    def __init__(self, source: RollSource, name: str, e: Expr, reads_rolls: list[str], env: dict,
                 reads: RollReads | None, cut: bool, keys: Mapping[str, dict[tuple, Any]] | None, readings: int
                 ) -> None:
        self.source, self.name, self.e, self.reads_rolls, self.env = source, name, e, reads_rolls, env
        self.reads, self.cut, self.readings = reads, cut, readings
        self.known = keys.get(name, {}) if keys else {}
        self.found: dict[tuple, list[tuple[Any, int, int]]] = {}
        self.by_key: dict[tuple, list[tuple[Any, int, int]]] = {}

    def of(self, d: Mapping[str, Any]) -> list[tuple[Any, int, int]]:
        """The values of the roll (value, weight, denominator) for the joint value ``d``."""
        return self.of_values(tuple(d[n] for n in self.reads_rolls))

    def of_values(self, values: tuple) -> list[tuple[Any, int, int]]:
        """The values of the roll for a reading of the rolls it reads (their values)."""
        try:  # hashed once where no value was cut
            return self.found[values]
        except Undetermined:
            return self.found[seen_key(values)]

    def follow(self, cuts: list[tuple[tuple, tuple]], joint: Joint, budget: Budget, names: int) -> None:
        """The readings of what explosions cut, worked out where that fits half the work left
        and leaves room for holding every joint value after (``names`` each), twice over
        (for the rolls after); else none of them: they stay truncated."""
        trial = Budget((budget.limit - budget.used) // 2, budget.deadline)
        try:
            trial.spend(len(cuts))
            self.work(cuts, trial, cut_off=True)
            made = sum(len(self.of(d)) for d, _ in joint)
            if budget.used + trial.used + 2 * held_cost(made, names) > budget.limit:
                raise BudgetExceeded
            budget.used += trial.used
        except (LimitError, BudgetExceeded):
            if trial.timed_out or (trial.total is not None and trial.total.exhausted):
                raise
            self.found.update((s, []) for s, _ in cuts)

    def work(self, items: list[tuple[tuple, tuple]], budget: Budget, cut_off: bool = False) -> None:
        """Each reading of ``items`` (its key, its values) worked out, charged to ``budget``;
        ``cut_off``: readings of what explosions cut, left truncated where the roll can't be
        worked out without what was cut."""
        source, name, e, read = self.source, self.name, self.e, self.reads_rolls
        for seen, values in items:
            local = {**self.env, **dict(zip(read, values, strict=True))}
            key = self.known.get(seen, _UNSET)
            if key is _UNSET:
                key = source.exact.reading_key(name, e, tuple(read), local, budget)
            if key is not None and key in self.by_key:
                self.found[seen] = self.by_key[key]
                continue
            what = f"'{name}' is worked out for each of {self.readings:,} readings of {', '.join(read)}: the work " \
                f"ran past max_states ({budget.limit:,}) with {len(self.found):,} of its distributions worked out"
            try:
                dist = source.roll_dist(name, e, local, budget, self.reads, what)
            except UNDETERMINED + (RulesEngineError,) as exc:
                if not cut_off or isinstance(exc, LimitError):
                    raise
                self.found[seen] = []  # it reads what explosions cut off an earlier roll: truncated
                continue
            self.found[seen] = [(v, w, dist.denom) for v, w in outcomes_of(dist, self.cut)]
            if key is not None:
                self.by_key[key] = self.found[seen]
