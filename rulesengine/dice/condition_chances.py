"""The chance of a condition that reads a check's earlier rolls by name, for the closed-form
mean of ``if(c, a, b)`` (:mod:`.expectation`): a roll made after seeing another (``again:
if(highest(first) == lowest(first), 2d6!, 0)``, doubles rolling over) has the mean
P(c)·E[a] + (1 − P(c))·E[b] where its branches roll dice of their own and read no roll, so
that what they show is independent of what the condition read. P(c) is the condition read
on every joint value of the rolls it reads, each roll's exact outcomes (nothing of them cut
by the depth) given by the caller. The value is correlated with those rolls, so no variance
follows from it here."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any
from collections.abc import Callable, Mapping

from . import ast
from .beyond import UNDETERMINED
from .context import Context
from .dist import Budget
from .evaluate import Functions, compile_expression
from .sampling import Sampling
from ..errors import RulesEngineError
from ..limits import Limits

MAX_CONDITION_READINGS = 10_000
"""The most joint values of the rolls a condition reads that are read for its chance: past
it, the mean is the mass worked out's (a mean is a nicety, not worth more work than that)."""

RollOutcomes = Callable[[str], "Mapping[Any, Fraction] | None"]
"""A check's earlier roll by name → its exact outcomes (value → probability), or None where
some of it is cut by the depth or it is not known here."""


def condition_chances(cond: ast.Node, env: Mapping[str, Any], rolls: frozenset[str], outcomes: RollOutcomes,
                      budget: Budget, limits: Limits, text: str, functions: Functions) -> dict[bool, Fraction] | None:
    """P(``cond``) and P(not ``cond``) over the joint values of the rolls of ``rolls`` it reads
    (each independent of the others: rolls that read none), with the names of ``env``; None
    where it rolls dice of its own, reads a roll whose outcomes are not known, has too many
    joint values, or is not yes or no on some of them."""
    read = sorted(ast.names(cond) & rolls)
    if not read or ast.has_dice(cond):
        return None
    tables = []
    for name in read:
        found = outcomes(name)
        if found is None:
            return None
        tables.append(list(found.items()))
    size = math.prod(len(t) for t in tables)
    if size > MAX_CONDITION_READINGS:
        return None
    budget.spend(size)
    run = compile_expression(cond, Sampling(), limits, text, functions)
    chances: dict[bool, Fraction] = {}
    for combo in itertools.product(*tables):
        local = {**env, **{name: value for name, (value, _) in zip(read, combo, strict=True)}}
        try:
            value = run(Context(text, local, limits))
        except (RulesEngineError,) + UNDETERMINED:
            return None
        if not isinstance(value, bool):
            return None
        chances[value] = chances.get(value, Fraction(0)) + math.prod(p for _, p in combo)
    return chances
