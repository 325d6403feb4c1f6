"""Means and variances with explosions followed for ever, where they have a closed form
(:mod:`rulesengine.dice.expectation`): of a check's result, and of each reported value
worked out under ``let:`` (a Shadowrun pool's hits, ``count(roll, 5, 6)`` of exploding 6s,
is 2/5 of a die each, whatever the depth cuts).

Each is the expression read through the lets it names as if each were written in its place,
over the check's rolls (each read by its own mean, and a roll by the rolls before it) and the
values known before rolling; where reading each roll by its mean gives none, the rolls it
reads once are read in their place as their own dice (``max(trait, wild)`` as ``max(1d8!,
1d6!)``). None (each) where there is no closed form: the odds then label the mean (the
variance) of the mass worked out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import partial
from types import MappingProxyType
from typing import Any, NamedTuple

from ..dice import ast
from ..dice.dist import Budget
from ..dice.expectation import RollMean, exact_moments, roll_mean
from ..errors import LimitError
from ..limits import Limits
from ..rules.model import Check
from .exact import ExactRolls
from .joint_values import Joint
from .resolver import Resolver
from .runtime import Functions

Moments = tuple[Fraction | None, Fraction | None]
NONE: Moments = (None, None)


class ClosedMoments(NamedTuple):
    """The result's moments, and each reported value's (by name)."""

    result: Moments = NONE
    values: Mapping[str, Moments] = MappingProxyType({})


def unbounded_moments(check: Check, resolver: Resolver, exact: ExactRolls, values: dict[str, Any],
                      until_choice: Callable[[dict[str, Any], Budget], tuple[Joint, int]],
                      limits: Limits, functions: Functions) -> ClosedMoments:
    """The moments of ``check``'s result and reported values for the inputs ``values``, with
    no gate deciding, no dice chosen (or the rolls after a choice alone: a mixture, for the
    result only) and, for the result, no outcome rule rewriting it. ``until_choice``: the
    joint values of the rolls made before a choice, and their denominator."""
    env, gated, fixed = resolver.before_roll(values)[:3]
    if gated is not None or fixed or (check.choose is not None and not check.after_choice):
        return ClosedMoments()
    budget = Budget(limits.max_states)
    rewritten = check.result is None or any(o.result is not None for o in check.outcomes)
    if check.after_choice:  # a mixture: one closed form for each way the choice went
        if rewritten:
            return ClosedMoments()
        try:
            joint, denom = until_choice(env, budget)
        except LimitError:
            return ClosedMoments()
        from .after_choice import moments_after_choice

        return ClosedMoments(moments_after_choice(check, resolver, env, joint, denom, budget, limits, functions))
    lets = {let.name: let.expr.tree for let in check.lets if let.after_roll and let.expr}
    rolls: dict[str, RollMean] = {}
    outcomes = exact.roll_outcomes(env, budget)  # for an if() on a roll
    for name, e in check.rolls:
        if name in env:
            return ClosedMoments()  # a roll that hides a value of the same name: not worth the care
        found = roll_mean(e.tree, env, budget, rolls=rolls, limits=limits, text=e.text, functions=functions,
                          outcomes=outcomes)
        if found is not None:
            rolls[name] = found
    moments = partial(exact_moments, budget=budget, limits=limits, functions=functions, outcomes=outcomes)

    def of(tree: ast.Node, text: str) -> Moments:
        mean, variance = moments(tree, env, rolls=rolls, values=lets, text=text)
        alone = _read_once(check, lets, tree) if mean is None else {}
        if alone:  # the rolls read once, each in its place: max(trait, wild) as max(1d8!, 1d6!)
            others = {name: found for name, found in rolls.items() if name not in alone}
            return moments(tree, env, rolls=others, values={**lets, **alone}, text=text)
        return mean, variance

    result = NONE if rewritten else of(check.result.tree, check.result.text)  # type: ignore[union-attr]
    reported = {let.name: let.expr for let in check.lets if let.name in check.report and let.after_roll and let.expr}
    return ClosedMoments(result, {name: of(e.tree, e.text) for name, e in reported.items()})


def _read_once(check: Check, lets: Mapping[str, ast.Node], tree: ast.Node) -> dict[str, ast.Node]:
    """The check's rolls ``tree`` reads once (through its lets too), that read no other roll
    and that no other roll reads: each is read in its place as its own dice expression, so
    the value is one expression of independent dice (``max(trait, wild) + modifier`` as
    ``max(1d8!, 1d6!) + modifier``), whose moments may have a closed form where a mean for
    each roll has none (the largest of two exploding dice). Asked only where reading each
    roll by its mean gave none: a count of an exploding roll has one read by the roll's
    mean, not written out inside ``count()``."""
    names = {name for name, _ in check.rolls}
    whole = ast.with_names(tree, lets)
    if whole is None:
        return {}
    read = [n.name for n in ast.walk(whole) if isinstance(n, ast.Name) and n.name in names]
    by_rolls = set().union(*(ast.names(e.tree) for _, e in check.rolls))
    return {name: e.tree for name, e in check.rolls
            if read.count(name) == 1 and not ast.names(e.tree) & names and name not in by_rolls}
