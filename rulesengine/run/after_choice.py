"""Exact odds of a check with rolls made after the choice (``Check.after_choice``: a roll
that reads a value of ``choose``, such as ``more: (tens)d10!`` for the kept 10s rolling
again): each joint value of the rolls made before the choice is given the values the
rules' pick gives it, so the rolls after it are worked out for each reading of those, as a
roll that reads earlier rolls is (:func:`.reading_join.join_reading`).

Where nothing after the choice reads the rolls made before it but through the chosen
values (the result, outcome rules, tags, report, ``result_sign``, what a procedure or a
condition reads, and the rolls after the choice), joint values that give the same chosen
values are one: their resolutions can't differ, so one of them stands for all, with their
weights added. Five d10 keep three: 2,002 throws, 52 chosen totals and counts of 10s.
"""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Iterable
from typing import Any

from ..dice.beyond import UNDETERMINED, Beyond
from ..dice.dist import Budget, BudgetExceeded, held_cost
from ..dice.expectation import RollMean, exact_moments, roll_mean
from ..errors import RulesEngineError
from ..limits import Limits
from ..rules.model import Check, Expr
from .choosing import ways_to_try
from .exact import remembered, remembering
from .joint_values import Joint
from .resolver import Resolver
from .runtime import Functions



def read_only_as_chosen(check: Check, also: Iterable[Expr | None], renamed: frozenset[str]) -> bool:
    """Whether what comes after the choice (and ``also``: what procedures and conditions
    read of the check; ``renamed``: the rolls a procedure reads by another name) reads the
    rolls made before it, and the lets of them, only through the chosen values."""
    before = {n for n, _ in check.rolls if n not in check.after_choice} | \
        {let.name for let in check.lets if let.after_roll}
    if renamed & before:
        return False
    exprs: list[Expr | None] = [check.result, check.result_sign, check.secret, *also]
    exprs += [x for o in check.outcomes for x in (o.when, o.result, o.success if isinstance(o.success, Expr) else None)]
    exprs += [t.when for t in check.tags] + [e for n, e in check.rolls if n in check.after_choice]
    read = set(check.report).union(*(e.names for e in exprs if e is not None))
    return not read & before


def with_choice(check: Check, resolver: Resolver, joint: Joint, env: dict, budget: Budget, cut: bool,
                alone: bool) -> Joint:
    """Each joint value of the rolls made before the choice, with the chosen values the rolls
    after it read (:meth:`Resolver.chosen_values`, the rules' pick); with ``alone`` (see
    :func:`read_only_as_chosen`), those that give the same chosen values as one. Charged
    before, as resolving chooses: every way of choosing of each joint value's dice, and the
    values each joint value then holds. A joint value whose choice depends on what the
    explosion depth cut stays truncated."""
    choose = check.choose
    assert choose is not None
    late = [e for name, e in check.rolls if name in check.after_choice]
    first = next(name for name, _ in check.rolls if name in check.after_choice)
    names = [name for name, _ in choose.values]
    read = sorted(set().union(*(e.names for e in late)) & set(names))
    pick = resolver.pick(choose, env)
    ways = ways_to_try(choose.source, pick, joint)
    try:
        budget.spend(ways)
        budget.spend(held_cost(len(joint), len(joint[0][0]) + len(read) if joint else 0))
    except BudgetExceeded:
        raise resolver.too_big(late[0], f"choosing {pick} dice of each of {len(joint):,} throws of '{choose.source}' "
                                        f"before '{first}' is rolled tries {ways:,} ways, more than "
                                        f"max_states ({budget.limit:,}) leaves after the rolls before it") from None
    # One odds call asks twice (its outcomes, then its result's moments) for the same throws:
    # worked out once (the throws' values and weights are the key; ``cut`` only where one is cut).
    if not remembering():
        return _chosen(resolver, joint, env, cut, alone, names, read)
    seen = tuple((tuple(sorted(d.items())), w) for d, w in joint)
    cut_read = cut and any(isinstance(v, Beyond) for d, _ in joint for v in d.values())
    key = ("with_choice", resolver, alone, cut_read, tuple(sorted(env.items())), seen)
    try:
        hash(key)
    except TypeError:  # a value that is no key (a pool's dice): worked out each time
        return _chosen(resolver, joint, env, cut, alone, names, read)
    return remembered(key, budget, lambda: _chosen(resolver, joint, env, cut, alone, names, read))


def _chosen(resolver: Resolver, joint: Joint, env: dict, cut: bool, alone: bool, names: list[str],
            read: list[str]) -> Joint:
    """:func:`with_choice`'s joint values, once charged."""
    memo = resolver.choice_memo(env)
    out: Joint = []
    merged: dict[tuple, int] = {}  # chosen values → their place in out
    for d, w in joint:
        local = {**env, **d}
        if cut and any(isinstance(v, Beyond) for v in d.values()):
            try:
                values = resolver.chosen_values(local, None, memo)
            except UNDETERMINED + (RulesEngineError,):
                continue  # which dice are chosen depends on how deep the explosions went: truncated
        else:
            values = resolver.chosen_values(local, None, memo)
        key = _key(values, names) if alone else None
        if key is not None and key in merged:
            at = merged[key]
            out[at] = (out[at][0], out[at][1] + w)
            continue
        if key is not None:
            merged[key] = len(out)
        out.append(({**d, **{n: values[n] for n in read}}, w))
    return out


def _key(values: dict[str, Any], names: list[str]) -> tuple | None:
    """The chosen values, each with its type (``True`` is not ``1``); None where one has no hash."""
    key = tuple((type(values[n]), values[n]) for n in names)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def moments_after_choice(check: Check, resolver: Resolver, env: dict, joint: Joint, denom: int, budget: Budget,
                         limits: Limits, functions: Functions) -> tuple[Fraction | None, Fraction | None]:
    """The result's mean and variance, explosions followed for ever, where the rolls made
    before the choice were worked out whole (``joint``, with ``denom``, nothing cut) and,
    for each way the choice went, the rolls after it and the result have a closed form
    (:func:`rulesengine.dice.expectation.exact_moments`): the mixture of those, by the
    weight of each way. None (each) otherwise."""
    if sum(w for _, w in joint) != denom:
        return None, None  # the rolls before the choice were cut: their mass is not all here
    late = [(name, e) for name, e in check.rolls if name in check.after_choice]
    memo = resolver.choice_memo(env)
    mean = second = Fraction(0)
    has_variance = True
    for d, w in joint:
        local = resolver.through_choice({**env, **d}, None, memo)[0]
        rolls: dict[str, RollMean] = {}
        for name, e in late:
            found = roll_mean(e.tree, local, budget, rolls=rolls, limits=limits, text=e.text, functions=functions)
            if found is None:
                return None, None
            rolls[name] = found
        assert check.result is not None
        m, v = exact_moments(check.result.tree, local, budget, rolls=rolls, limits=limits, text=check.result.text,
                             functions=functions)
        if m is None:
            return None, None
        mean += w * m
        if v is None:
            has_variance = False
        else:
            second += w * (v + m * m)
    mean /= denom
    return mean, (second / denom - mean * mean) if has_variance else None
