"""Reference distributions for tests, computed without the exact driver.

Two oracles:

* :func:`product_dist` — textbook brute force: every tuple of faces from
  ``itertools.product``, each equally likely, mapped through a plain Python function.
* :func:`replay_dist` — the *sampling* driver fed every possible sequence of faces (a
  depth-first walk over what the roll asks for next), each path weighted by the chance of
  its faces. It shares no code with the exact driver's dynamic programming and
  convolutions, so agreement between the two is real evidence.
"""

from __future__ import annotations

import itertools
import operator
from collections import defaultdict
from fractions import Fraction
from typing import Any
from collections.abc import Callable, Iterable

from rulesengine import dice
from rulesengine.errors import DiceEvalError
from rulesengine.limits import DEFAULT_LIMITS, Limits
from rulesengine.dice.sources import FacesError


# What each die-condition operator means (`cs>=8`, `r==1`), written with Python's operators
# and independently of the engine's table, for tests to compare against.
CONDITION_MEANING = {"=": operator.eq, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
                     "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def product_dist(faces_per_die: Iterable[Iterable[int]], fn: Callable[..., Any]) -> dict:
    """P(fn(*faces)) over all tuples of faces, every tuple equally likely."""
    lists = [list(f) for f in faces_per_die]
    counts: dict = defaultdict(int)
    total = 0
    for combo in itertools.product(*lists):
        counts[fn(*combo)] += 1
        total += 1
    return {v: Fraction(c, total) for v, c in counts.items()}


class _NeedMore(Exception):
    def __init__(self, options: list[int]) -> None:
        self.options = options


class _ReplaySource:
    """Answers draws from a fixed prefix, then asks the walk to branch."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.used = 0

    def _next(self, options: list[int]) -> int:
        if self.used < len(self.prefix):
            face = self.prefix[self.used]
            self.used += 1
            return face
        raise _NeedMore(options)

    def draw(self, die) -> int:
        return self._next(list(die.faces))

    def draw_many(self, die, n: int) -> list[int]:
        return [self.draw(die) for _ in range(n)]

    def draw_allowed(self, die, allowed) -> int:
        return self._next([f for f in die.faces if allowed(f)])


def _truncated(expr: dice.Expression, pools) -> bool:
    """Did a die stop exploding only because it hit the depth limit?"""
    from rulesengine.dice.pool import PoolSpec
    from rulesengine.dice import ast

    specs = {}
    for node in ast.walk(expr.tree):
        if isinstance(node, ast.Dice) and node.die is not None:  # d(expr): no fixed die, not read here
            specs[id(node)] = PoolSpec.of(node)
    for key, pool in pools.items():
        spec = specs.get(key)
        if spec is None or spec.explode is None:
            continue
        for d in pool.dice:
            if d.parts:  # compounded: cut if its last face would have exploded again
                if spec.explodes(d.parts[-1]):
                    return True
            elif spec.explodes(d.face) and not d.exploded and not (spec.explode == "once" and d.added):
                return True
    return False


def replay_dist(text: str, env: dict | None = None, limits: Limits = DEFAULT_LIMITS,
                max_paths: int = 200_000) -> tuple[dict, Fraction]:
    """(distribution, truncated mass) of ``text`` by walking every face sequence."""
    from rulesengine.dice.context import Context
    from rulesengine.dice.evaluate import compile_expression
    from rulesengine.dice.sampling import Sampling
    from rulesengine.dice.sources import DiceCounter

    expr = dice.Expression(text, limits)
    run = compile_expression(expr.tree, Sampling(), limits, text)
    out: dict = defaultdict(Fraction)
    truncated = Fraction(0)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    paths = 0
    while stack:
        prefix, p = stack.pop()
        paths += 1
        assert paths <= max_paths, "oracle walk too large for a test"
        ctx = Context(text, env or {}, limits, source=_ReplaySource(prefix), counter=DiceCounter(limits))
        try:
            value = run(ctx)
        except _NeedMore as need:
            share = p / len(need.options)
            for face in need.options:
                stack.append((prefix + [face], share))
            continue
        except (DiceEvalError, FacesError) as exc:  # pragma: no cover - oracle misuse
            raise AssertionError(f"oracle failed on {prefix}: {exc}") from exc
        if _truncated(expr, ctx.pools):
            truncated += p
        else:
            out[value] += p
    return dict(out), truncated


def exact(text: str, env: dict | None = None, limits: Limits = DEFAULT_LIMITS) -> tuple[dict, Fraction]:
    o = dice.Expression(text, limits).odds(env)
    return o.distribution, o.truncated
