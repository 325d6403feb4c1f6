"""The sampling driver of a check: roll its dice from a dice source (a seeded generator, or
faces read off physical dice), with a trace line for each roll. Nothing is resolved here: the
values rolled go to the one resolver (:mod:`.resolver`), as exact odds' values do."""

from __future__ import annotations

from typing import Any, NamedTuple
from collections.abc import Callable, Iterable

from ..dice import ast
from ..dice.context import Context
from ..dice.pool import PoolRoll, roll_dice_pool
from ..dice.sources import DiceCounter, DiceLimitReached, DiceSource, FacesError
from ..dice.trace import TraceLine, format_value, line_maker
from ..dice.values import DicePool, Rolled, symbols_text
from ..codes import E_FACES
from ..errors import DiceEvalError, LimitError, Location, RulesEngineError
from ..rules.model import Check, Expr
from .resolver import PreRoll, Resolver
from .json_parts import jsonable
from .results import Sample
from .runtime import Runtime
from .whole import pool_rolled, rolled_whole, unrolled_whole, whole_dice


class RollPlan(NamedTuple):
    """How a roll's value is seen once its dice are rolled, decided once per check: whole
    (:func:`whole_dice`: total and dice, ``Rolled``) or as the expression's value; with the
    dice of the first throw where the rules read them; its symbols in the trace where its
    dice show symbols (not the sum of their places)."""

    whole: bool
    term: int | None  # the id of the one dice term the roll is, when it is one
    initial: bool
    symbols: bool
    line: TraceLine  # makes its trace line
    earlier: frozenset[str]  # the rolls listed before it, which it may take again

    @staticmethod
    def of(name: str, e: Expr, check: Check, earlier: frozenset[str]) -> RollPlan:
        # Seen whole only where the rules read its dice (as exact odds see it): a roll read as
        # a number stays its total, which is cheaper to make and to remember results by.
        whole = name in check.faces_needed and whole_dice(e.tree, earlier) is not None
        bare = ast.bare(e.tree)
        return RollPlan(whole, id(bare) if whole and isinstance(bare, ast.Dice) else None,
                        name in check.initial_needed,
                        any(isinstance(n, ast.Dice) and n.die is not None and n.die.symbols is not None
                            for n in ast.walk(e.tree)), line_maker(name, e.text, e.tree), earlier)


class Sampler:
    """Rolls the dice of one check."""

    def __init__(self, runtime: Runtime, resolver: Resolver, plans: Iterable[tuple[str, Expr, RollPlan]]) -> None:
        self.runtime = runtime
        self.resolver = resolver
        self.plans = list(plans)

    def sample(self, values: dict[str, Any], source: DiceSource, pre: PreRoll | None = None,
               choose: Iterable[int] | None = None) -> Sample:
        """Roll the check's dice (unless a gate decides first); nothing is resolved yet.
        ``pre``: the PreRoll of these inputs, if the caller has it already. The rolls made
        after the choice (``Check.after_choice``) read the values of the dice chosen, by the
        player's ``choose`` or the rules' policy, as the resolver will choose them."""
        if pre is None:
            pre = self.resolver.before_roll(values)
        env, gated, fixed, secret, fixed_reason, _ = pre
        env = dict(env)
        pools: list[tuple[str, PoolRoll]] = []
        lines: list[Any] = []
        rolls: dict[str, Any] = {}
        if gated is None:
            counter = DiceCounter(self.runtime.limits)
            late, chose = self.resolver.check.after_choice, False
            for name, e, plan in self.plans:
                if name in late and not chose and name not in fixed:
                    env.update(self.resolver.chosen_values(env, choose))
                    chose = True
                if name in fixed:
                    rolls[name] = env[name] = fixed[name]
                    lines.append(f"{name}: {format_value(fixed[name])} (not rolled"
                                 + (f": {fixed_reason})" if fixed_reason else ")"))
                    continue
                value, pool_list, line = self._sample_roll(name, e, plan, env, source, counter)
                rolls[name] = env[name] = value
                pools += [(name, p) for p in pool_list]
                lines.append(line)
        else:
            lines.append(f"no roll: {gated.reason}" if gated.reason else "no roll")
        return Sample(gated, rolls, tuple(pools), tuple(lines), secret, pre, values)

    def _sample_roll(self, name: str, e: Expr, plan: RollPlan, env: dict, source: DiceSource,
                     counter: DiceCounter) -> tuple[Any, Iterable[PoolRoll], Callable[[], str]]:
        """Roll one of the check's rolls; ``plan`` says how its value is seen."""
        rt = self.runtime
        ctx = Context(e.text, env, rt.limits, source, counter)
        try:
            value = e.run(ctx)
        except RulesEngineError as exc:
            raise rt.relocate(exc, e) from None
        if type(value) is DicePool:
            try:
                pool = roll_dice_pool(value, source, counter)
            except FacesError as exc:
                raise rt.relocate(DiceEvalError(exc.message, Location(column=1, source_line=e.text),
                                                exc.hint, E_FACES), e) from None
            except DiceLimitReached:
                raise rt.relocate(LimitError(f"the pool {value.text()} has more dice than a roll may use",
                                             "max_dice", Location(column=1, source_line=e.text)), e) from None
            sizes = value.sides
            if value.by_face:
                value = Rolled(pool.total, tuple([d.value for d in pool.dice if d.kept]),
                               tuple([s for d, s in zip(pool.dice, sizes, strict=True) if d.kept]))
            else:  # every die kept, as it fell
                value = Rolled(pool.total, tuple([d.value for d in pool.dice]), sizes)
            return (value, [*ctx.pools.values(), pool],
                    lambda: f"{name}: {pool.text} → [{_faces_text(pool, sizes)}] = {pool.total}")
        if plan.term is not None:  # one dice term, the commonest roll
            if plan.term in ctx.pools:
                value = pool_rolled(ctx.pools[plan.term], plan.initial)
        elif plan.whole:
            seen = rolled_whole(e.tree, ctx.pools, env, plan.initial, plan.earlier)
            value = seen if seen is not None else unrolled_whole(value, plan.initial)
        # ``env`` only gains names after this (the later rolls), none of which this roll's
        # expression can read, so the trace may read it later without a copy.
        by_node = ctx.pools

        def line() -> str:
            shown = symbols_text(value.symbols) if plan.symbols and isinstance(value, Rolled) else None
            return plan.line(by_node, env, jsonable(value), shown)

        return value, by_node.values(), line


def _faces_text(pool: PoolRoll, sizes: tuple[int, ...] = ()) -> str:
    """The faces of a rolled pool, as a trace lists them (only when a trace is read); each
    with its die's size when the pool mixes sizes (``d10:7, d8:2``)."""
    if len(set(sizes)) > 1:
        return ", ".join(_set_aside(f"d{s}:{d.face}", d.kept) for d, s in zip(pool.dice, sizes, strict=True))
    return ", ".join(_set_aside(str(d.face), d.kept) for d in pool.dice)


def _set_aside(text: str, kept: bool) -> str:
    """A die as a trace shows it: struck through when a keep by face set it aside (``~~d8:1~~``)."""
    return text if kept else f"~~{text}~~"
