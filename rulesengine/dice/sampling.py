"""The sampling driver: values are plain ints and bools; each dice term is rolled from a
dice source (a seeded ``random.Random`` or faces read off physical dice) and recorded for
the trace. The compiler (:mod:`.evaluate`) decides what everything means; this decides
only how values flow."""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from . import ast
from .beyond import UNDETERMINED, Beyond, Undetermined
from .context import (Compiled, Context, check_count, dice_failure, dice_text, dynamic_spec, eval_error,
                      unknown_name)
from .functions import OpError, kept_indexes, logic_and, logic_or, set_values
from .pool import DieRoll, PoolRoll, PoolSpec, roll_plain, roll_pool
from .sources import DiceLimitReached, FacesError


def _bare_args(node: ast.Node) -> tuple[ast.Node, ...] | None:
    """The arguments of a call, each without the parentheses around it, where ``node`` is a
    call (whose compiled parts are its arguments, in order: :meth:`Sampling.lift`)."""
    if not isinstance(node, ast.Call):
        return None
    return tuple(a.inner if isinstance(a, ast.Group) else a for a in node.args)


def _number_written(node: ast.Node) -> Any:
    assert isinstance(node, ast.Num), "only names and numbers written out are read in place"
    return node.value


class Sampling:
    """Plain values; dice rolled from ``ctx.source``."""

    def const(self, value: Any) -> Compiled:
        return lambda ctx: value

    def set_keep(self, node: ast.SetKeep, parts: list[Compiled], keeps: tuple) -> Compiled:
        """A set's items rolled in order; the values kept and dropped are recorded for the
        trace like the dice of a pool."""
        key = id(node)

        def run(ctx: Context) -> int:
            try:
                values = set_values([p(ctx) for p in parts])
            except OpError as exc:
                raise eval_error(ctx, node.span, exc) from None
            kept = kept_indexes(values, keeps)
            total = sum(values[i] for i in kept)
            ctx.pools[key] = PoolRoll("set", tuple(DieRoll(v, v, i in kept) for i, v in enumerate(values)), total)
            return total

        return run

    def known(self, value: Any) -> Any:
        """A value that must be known before dice are rolled (a die's condition): as it is."""
        return getattr(value, "total", value)

    def name(self, node: ast.Name) -> Compiled:
        key = node.name

        def run(ctx: Context) -> Any:
            try:
                return ctx.env[key]
            except KeyError:
                raise unknown_name(ctx, node) from None

        return run

    def lift(self, fn: Callable[..., Any], parts: list[Compiled], node: ast.Node) -> Compiled:
        if len(parts) == 1:
            (p,) = parts

            def run1(ctx: Context) -> Any:
                try:
                    return fn(p(ctx))
                except OpError as exc:
                    raise eval_error(ctx, node.span, exc) from None

            return run1
        if len(parts) == 2:
            return self._lift2(fn, parts[0], parts[1], node)
        args = _bare_args(node)
        if args is not None and all(isinstance(a, (ast.Name, ast.Num)) for a in args):
            return self._lift_read(fn, args, node)

        def run(ctx: Context) -> Any:
            values = [p(ctx) for p in parts]
            try:
                return fn(*values)
            except OpError as exc:
                raise eval_error(ctx, node.span, exc) from None

        return run

    def _lift2(self, fn: Callable[[Any, Any], Any], a: Compiled, b: Compiled, node: ast.Node) -> Compiled:
        """``fn`` of two sides, both always evaluated, left first. A side that is a name or
        a number written out is read in place, not by a call of its own: the common
        conditions (``value <= skill``, ``roll >= 10``) then take one call, not three, and a
        sweep's resolutions evaluate tens of thousands of them."""
        sides = (node.left, node.right) if isinstance(node, (ast.Binary, ast.Compare, ast.Logic)) else \
            _bare_args(node) or (None, None)
        left, right = (s.inner if isinstance(s, ast.Group) else s for s in sides)
        if isinstance(left, ast.Name) and isinstance(right, ast.Num):
            key, named, value = left.name, left, right.value

            def name_number(ctx: Context) -> Any:
                try:
                    x = ctx.env[key]
                except KeyError:
                    raise unknown_name(ctx, named) from None
                try:
                    return fn(x, value)
                except OpError as exc:
                    raise eval_error(ctx, node.span, exc) from None

            return name_number
        if isinstance(left, ast.Name) and isinstance(right, ast.Name):
            key, named, key2, named2 = left.name, left, right.name, right

            def names(ctx: Context) -> Any:
                env = ctx.env
                try:
                    x = env[key]
                except KeyError:
                    raise unknown_name(ctx, named) from None
                try:
                    y = env[key2]
                except KeyError:
                    raise unknown_name(ctx, named2) from None
                try:
                    return fn(x, y)
                except OpError as exc:
                    raise eval_error(ctx, node.span, exc) from None

            return names
        if isinstance(left, ast.Name):
            key, named = left.name, left

            def name_first(ctx: Context) -> Any:
                try:
                    x = ctx.env[key]
                except KeyError:
                    raise unknown_name(ctx, named) from None
                y = b(ctx)
                try:
                    return fn(x, y)
                except OpError as exc:
                    raise eval_error(ctx, node.span, exc) from None

            return name_first
        if isinstance(right, ast.Num):
            value = right.value

            def then_number(ctx: Context) -> Any:
                x = a(ctx)
                try:
                    return fn(x, value)
                except OpError as exc:
                    raise eval_error(ctx, node.span, exc) from None

            return then_number

        def run2(ctx: Context) -> Any:
            x, y = a(ctx), b(ctx)  # both sides are always evaluated, left first
            try:
                return fn(x, y)
            except OpError as exc:
                raise eval_error(ctx, node.span, exc) from None

        return run2

    def _lift_read(self, fn: Callable[..., Any], args: tuple[ast.Node, ...], node: ast.Node) -> Compiled:
        """``fn`` of three or more arguments, each a name or a number written out, read in
        place (``count(roll, 2, 5)``, ``count(roll, double, 10)``): one call, not one for
        each argument and one for the function."""
        names = [a for a in args if isinstance(a, ast.Name)]
        reads = tuple((True, a.name) if isinstance(a, ast.Name) else (False, _number_written(a)) for a in args)

        def read_in_place(ctx: Context) -> Any:
            env = ctx.env
            try:
                values = [env[k] if named else k for named, k in reads]
            except KeyError:
                raise unknown_name(ctx, next(a for a in names if a.name not in env)) from None
            try:
                return fn(*values)
            except OpError as exc:
                raise eval_error(ctx, node.span, exc) from None

        return read_in_place

    def lazy_logic(self, op: str, left: Compiled, right: Compiled, node: ast.Node) -> Compiled:
        fn = logic_and if op == "and" else logic_or
        decides = op == "or"  # `and` is decided by false, `or` by true
        goes_on = not decides  # the other yes/no: the right side decides

        def open_left(ctx: Context, open_side: Exception) -> Any:
            """The left side explosions past the depth leave open (exact odds): read no
            further where the right decides (false and …, true or …); else open."""
            try:
                b = right(ctx)
            except Exception:  # noqa: BLE001 - the other is no help: open, as it was
                raise open_side from None
            if b is decides:
                return decides
            raise open_side

        def run(ctx: Context) -> Any:
            try:
                a = left(ctx)
            except UNDETERMINED as open_side:
                return open_left(ctx, open_side)
            if a is decides:
                return a
            if a is not goes_on and isinstance(a, Beyond):  # held open (a let the depth left undecided)
                return open_left(ctx, Undetermined())
            b = right(ctx)
            try:
                return fn(a, b)
            except OpError as exc:
                raise eval_error(ctx, node.span, exc) from None

        return run

    def lazy_if(self, cond: Compiled, then: Compiled, other: Compiled, node: ast.Node) -> Compiled:
        def run(ctx: Context) -> Any:
            c = cond(ctx)
            if c is True:
                return then(ctx)
            if c is False:
                return other(ctx)
            raise eval_error(ctx, node.span, OpError(f"if() needs a yes/no value first, not {c!r}",
                                                "compare it first, e.g. if(x >= 10, a, b)"))

        return run

    def dice(self, node: ast.Dice, spec: PoolSpec | None, count: Compiled,
             sides: Compiled | None) -> Compiled:
        static_text = dice_text(node)
        key = id(node)

        dynamic_count = not isinstance(node.count, ast.Num)
        made: dict[int, tuple[PoolSpec, str, bool]] = {}  # d(expr): the rules (plain or not) for each size seen

        if spec is not None and spec.plain and isinstance(node.count, ast.Num):
            # `3d6`, `1d20`: nothing to decide when rolling (count, die and rules are fixed).
            fixed_n, die = node.count.value, spec.die

            def run_plain(ctx: Context) -> int:
                if fixed_n > ctx.limits.max_dice:
                    check_count(ctx, node, fixed_n)
                try:
                    rolled = roll_plain(die, static_text, fixed_n, ctx.source, ctx.counter)  # type: ignore[arg-type]
                except (DiceLimitReached, FacesError) as exc:
                    raise dice_failure(ctx, node, static_text, exc) from None
                ctx.pools[key] = rolled
                return rolled.total

            return run_plain

        plain_spec = spec is not None and spec.plain

        def run(ctx: Context) -> int:
            n = check_count(ctx, node, count(ctx))
            rule, text, plain = spec, static_text, plain_spec
            if rule is None:  # d(expr): the die is known now
                s = sides(ctx)  # type: ignore[misc]
                known = made.get(s) if type(s) is int and s <= ctx.limits.max_sides else None
                if known is None:
                    rule = dynamic_spec(ctx, node, s)
                    known = (rule, dice_text(node, rule.die), rule.plain)
                    if len(made) < 64:
                        made[s] = known
                rule, text, plain = known
            if dynamic_count:  # show the count that was rolled: (level)d6 → 3d6
                text = str(n) + text.removeprefix("(…)")
            try:
                if plain:
                    rolled = roll_plain(rule.die, text, n, ctx.source, ctx.counter)  # type: ignore[arg-type]
                else:
                    rolled = roll_pool(rule, text, n, ctx.source, ctx.counter, ctx.limits)  # type: ignore[arg-type]
            except (DiceLimitReached, FacesError) as exc:
                raise dice_failure(ctx, node, text, exc) from None
            ctx.pools[key] = rolled
            return rolled.total

        return run
