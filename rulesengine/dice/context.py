"""The state of one evaluation, and the errors an evaluation raises with their positions:
what the compiler (:mod:`.evaluate`) and both drivers (:mod:`.sampling`, :mod:`.exact`) share."""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Mapping

from ..codes import E_BAD_COUNT, E_EVAL, E_FACES, E_UNKNOWN_VARIABLE
from .dist import Budget
from ..errors import DiceEvalError, LimitError, Location
from . import ast
from .functions import OpError
from .parser import locate
from ..limits import Limits
from ..records import Record, field
from .pool import PoolRoll, PoolSpec
from .sources import DiceCounter, DiceLimitReached, DiceSource, FacesError
from .values import Rolled


class Context(Record, frozen=False):
    """The state of one evaluation. A sampling run always has a ``source`` and a ``counter``,
    an exact run a ``budget``; the sampling hot path reads them without a check (hence the
    two ``type: ignore[arg-type]`` there: a narrowing would cost a call per dice term)."""

    text: str
    env: Mapping[str, Any]
    limits: Limits
    source: DiceSource | None = None
    counter: DiceCounter | None = None
    budget: Budget | None = None
    pools: dict[int, PoolRoll] = field(default_factory=dict)

    def __init__(self, text: str, env: Mapping[str, Any], limits: Limits, source: DiceSource | None = None,
                 counter: DiceCounter | None = None, budget: Budget | None = None,
                 pools: dict[int, PoolRoll] | None = None) -> None:
        # Written out, as records made by the thousand are (rulesengine/records.py): one per evaluation.
        self.text = text
        self.env = env
        self.limits = limits
        self.source = source
        self.counter = counter
        self.budget = budget
        self.pools = {} if pools is None else pools

    def where(self, span: ast.Span) -> Location:
        return locate(self.text, *span)


Compiled = Callable[[Context], Any]


def eval_error(ctx: Context, span: ast.Span, exc: OpError, code: str = E_EVAL) -> DiceEvalError | LimitError:
    if exc.limit is not None:
        return LimitError(exc.message, exc.limit, ctx.where(span), exc.hint)
    return DiceEvalError(exc.message, ctx.where(span), exc.hint, exc.code or code)


def too_big(ctx: Context, node: ast.Node) -> LimitError:
    return LimitError(
        f"'{ctx.text[node.span[0]:node.span[1]]}' is too big to work out exactly",
        "max_states", ctx.where(node.span),
        f"it needs more than {ctx.limits.max_states:,} steps; use fewer dice, or roll it instead")



def dice_failure(ctx: Context, node: ast.Dice, text: str,
                  exc: DiceLimitReached | FacesError) -> LimitError | DiceEvalError:
    if isinstance(exc, FacesError):
        return DiceEvalError(exc.message, ctx.where(node.span), exc.hint, E_FACES)
    return LimitError(f"'{text}' rolls more than {ctx.limits.max_dice:,} dice with its rerolls and explosions",
                      "max_dice", ctx.where(node.span), "use fewer dice or a lower explosion depth")


def unknown_name(ctx: Context, node: ast.Name) -> DiceEvalError:
    from .parser import closest

    known = sorted(ctx.env)
    near = closest(node.name, known)
    if near:
        hint = f"did you mean '{near}'?"
    elif known:
        hint = "known names: " + ", ".join(known[:12])
    else:
        hint = f"give '{node.name}' a value (e.g. {node.name}=3)"
    return DiceEvalError(f"unknown name '{node.name}'", ctx.where(node.span), hint, E_UNKNOWN_VARIABLE)


def check_count(ctx: Context, node: ast.Dice, n: Any) -> int:
    if isinstance(n, Rolled):  # a roll used as a number is its total (a count also read die by die)
        n = n.total
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        count = ctx.text[node.count.span[0]:node.count.span[1]].strip()
        hint = f"it can come out below 0: write max(0, {count.strip('()')})" \
            if isinstance(n, int) and not isinstance(n, bool) and count else None
        raise DiceEvalError(f"the number of dice must be a whole number 0 or more, not {n!r}",
                            ctx.where(node.count.span), hint, E_BAD_COUNT)
    if n > ctx.limits.max_dice:
        raise LimitError(f"{n:,} dice is more than one roll may use", "max_dice",
                         ctx.where(node.count.span),
                         f"a roll may use at most {ctx.limits.max_dice:,} dice")
    return n


def dynamic_spec(ctx: Context, node: ast.Dice, sides: Any) -> PoolSpec:
    """The rules of a ``d(expr)`` term once its number of sides is known."""
    from .parser import check_modifiers

    where = node.sides.span if node.sides is not None else node.span
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
        # a choice's word is text even where it is a number written out ('6')
        hint = None
        if isinstance(sides, str) and sides.strip().lstrip("-").isdigit():
            hint = (f"a choice is text, even {sides!r}: give the sides by an integer input (with labels, if its "
                    "values have names)")
        elif isinstance(sides, str) and sides.strip().lower().startswith("d") and sides.strip()[1:].isdigit():
            hint = (f"a choice is text, even {sides!r}: make it an integer input whose labels name the sides "
                    f"(a ladder table {sides.strip()}: {sides.strip()[1:]}, …), still given as {sides.strip()}")
        raise DiceEvalError(f"a die needs a whole number of sides, 1 or more, not {sides!r}",
                            ctx.where(where), hint, E_BAD_COUNT)
    if sides > ctx.limits.max_sides:
        raise LimitError(f"a die with {sides:,} sides is too large", "max_sides", ctx.where(where),
                         f"dice may have at most {ctx.limits.max_sides:,} sides")
    die = ast.Die(sides=sides, text=f"d{sides}")
    check_modifiers(die, node.modifiers, ctx.text)
    return PoolSpec.of(node, die)


def dice_text(node: ast.Dice, die: ast.Die | None = None) -> str:
    """The dice term as written in canonical form, for traces (``4d6kh3``)."""
    die = die or node.die
    count = node.count
    head = "" if isinstance(count, ast.Num) and count.span[0] == count.span[1] else (
        str(count.value) if isinstance(count, ast.Num) else "(…)")
    mods = []
    for m in node.modifiers:
        if isinstance(m, ast.Keep):
            mods.append(f"{m.kind}({m.source})" if m.expr is not None else f"{m.kind}{m.n}")
        elif isinstance(m, ast.Explode):
            mods.append(m.text())
        elif isinstance(m, ast.Reroll):
            mods.append(("ro" if m.once else "r") + m.cond.text())
        elif isinstance(m, ast.CountDice):
            mods.append(("cf" if m.failures else "cs") + m.cond.text())
        elif isinstance(m, (ast.KeepFace, ast.RerollRank)):
            mods.append(m.text())
        else:
            mods.append(f"{m.kind}{m.n}")
    return head + (die.text if die is not None else "d(…)") + "".join(mods)
