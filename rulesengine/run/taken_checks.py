"""Exact odds of a check as its inputs make it (:mod:`rulesengine.rules.taken`): the
``if()``s and ``and``/``or``s the values known before rolling decide, taken, before the exact
driver reads the rules for what it needs of the rolls. One exact driver for each way the
inputs decide them, made the first time it is asked for and kept (a few: a chance die or a
pool, a rote or none); the check as written where they decide nothing."""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ..dice import ast
from ..dice.context import Context
from ..dice.evaluate import compile_expression
from ..dice.sampling import Sampling
from ..errors import RulesEngineError
from ..rules.taken import conditions, taken
from .enumeration import Enumerator
from .exact import ExactRolls
from .resolver import Resolver
from .runtime import Runtime

MAX_TAKEN = 16
"""The most exact drivers kept for one check's ways of being taken (inputs swept over many
thresholds each decide a condition apart): past it, the kept ones are dropped."""


class TakenChecks:
    """The exact drivers of one check, by the way its inputs decide its conditions."""

    def __init__(self, runtime: Runtime, enumerator: Enumerator) -> None:
        self.runtime, self.written = runtime, enumerator
        self._conditions: list[ast.Node] | None = None  # rules.taken.conditions(check), once asked
        self._made: dict[tuple, Enumerator] = {}
        self._compiled: dict[int, tuple[frozenset[str], Any]] = {}  # each condition's names and run, by node

    def forget(self) -> None:
        for made in self._made.values():
            if made is not self.written:
                made.forget()
        self._made.clear()

    def enumerator(self, values: Mapping[str, Any]) -> Enumerator:
        """The exact driver of the check as the (coerced) inputs ``values`` make it."""
        check = self.written.check
        if self._conditions is None:
            self._conditions = conditions(check)
        if not self._conditions:
            return self.written
        pre = self.written.resolver.before_roll(dict(values))
        if pre.gated is not None:
            return self.written
        known = {id(node): self._decided(node, pre.env) for node in self._conditions}
        key = tuple(known.values())
        if all(v is None for v in key):
            return self.written
        found = self._made.get(key)
        if found is None:
            rt = self.runtime
            made = taken(check, lambda node: known.get(id(node)),
                         lambda tree, text: compile_expression(tree, Sampling(), rt.limits, text, rt.functions))
            family = self.written.exact.family  # a roll written alike is worked out once for both
            found = self.written if made is check else Enumerator(rt, Resolver(rt, made),
                                                                   ExactRolls(made, rt.functions, rt.limits, family))
            if len(self._made) >= MAX_TAKEN:
                self.forget()
            self._made[key] = found
        return found

    def _decided(self, node: ast.Node, env: Mapping[str, Any]) -> bool | None:
        """``node``'s value where it reads only values known before rolling and rolls no dice
        and is yes or no; None otherwise (a mistake in it is said where the rules read it)."""
        found = self._compiled.get(id(node))
        if found is None:  # what it reads, and compiled where it rolls no dice: once for each condition
            rt, run = self.runtime, None
            if not ast.has_dice(node):
                try:
                    run = compile_expression(node, Sampling(), rt.limits, "", rt.functions)
                except RulesEngineError:
                    pass  # said where the rules read it
            found = self._compiled[id(node)] = (ast.names(node), run)
        names, run = found
        if run is None or not names <= env.keys():
            return None
        try:
            value = run(Context("", env, self.runtime.limits))
        except RulesEngineError:
            return None
        return value if isinstance(value, bool) else None
