"""The operators and built-in functions of the language, on plain values (the built-ins are
declared, with their arity and signature, in :mod:`.builtins`).

Defined once, on ints and bools, and used by both drivers of the evaluator: rolling
applies them to the rolled values, exact odds applies them to every combination of
outcomes. They raise :class:`OpError` (message + hint) and the evaluator adds where.

Values are whole numbers and yes/no values, and the two never mix silently: ``3d6 >= 10``
is a yes/no and cannot be added to a number (count successes with ``cs`` instead).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..codes import E_DIVISION_BY_ZERO
from ..records import replace
from .beyond import AtLeast, Beyond, RollAtLeast, Undetermined, highest_of, lowest_of
from .pool import kept_ranks
from .values import DicePool, Rolled


class OpError(Exception):
    def __init__(self, message: str, hint: str | None = None, limit: str | None = None,
                 code: str | None = None) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint
        self.limit = limit  # set when a documented limit was hit (see limits.py)
        # The code when the failure has its own (see codes.py); None: the caller's general one.
        self.code = code


def describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the yes/no value {'true' if value else 'false'}"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value}'"
    if isinstance(value, DicePool):
        return f"the dice pool {value.text()}"
    if isinstance(value, Rolled):
        return f"the roll {value.total}"
    if value is None:
        return "nothing (an optional input that was not given; test it with given())"
    return type(value).__name__


def _number(value: Any, what: str) -> int:
    if type(value) is int:  # the common case first (bool is a subclass of int: excluded)
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, Rolled):  # a roll used as a number is its total
        return value.total
    if isinstance(value, Beyond):  # what explosions cut, where exact odds try it (.beyond)
        return value  # type: ignore[return-value]
    if isinstance(value, bool):
        raise OpError(f"{what} needs a number, not {describe(value)}",
                      "a yes/no value (a comparison, a yes/no input) is not a number: count it as one "
                      "with if(x, 1, 0); to count the dice that meet a condition, cs>=N")
    raise OpError(f"{what} needs a number, not {describe(value)}")


def _boolean(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise OpError(f"{what} needs a yes/no value, not {describe(value)}",
                      "compare it first, e.g. 'x >= 10'")
    return value


def floor_div(a: int, b: int) -> int:
    return a // b


def ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def round_div(a: int, b: int) -> int:
    """Nearest whole number; halves go up (7/2 → 4, −7/2 → −3)."""
    return (2 * a + b) // (2 * b)


def division(rounder: Callable[[int, int], int]) -> Callable[[Any, Any], int]:
    """``/`` with its quotient rounded by ``rounder`` (:func:`floor_div` for ``a / b``; the
    rounding of ``ceil(a / b)`` and the like, declared in :mod:`.builtins`)."""

    floor = rounder is floor_div

    def divide(a: Any, b: Any) -> int:
        if type(a) is int and type(b) is int and b:  # the common case first (bool excluded)
            return a // b if floor else rounder(a, b)
        a, b = _number(a, "'/'"), _number(b, "'/'")
        if b == 0:
            raise OpError("division by zero", "make sure the divisor cannot be 0", code=E_DIVISION_BY_ZERO)
        return rounder(a, b)

    return divide


def _add(a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int:
        return a + b
    return _number(a, "'+'") + _number(b, "'+'")


def _sub(a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int:
        return a - b
    return _number(a, "'-'") - _number(b, "'-'")


def _mul(a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int:
        return a * b
    return _number(a, "'*'") * _number(b, "'*'")


def _remainder(a: Any, b: Any) -> int:
    """``a % b``: what is left of ``a`` after ``a / b`` (rounded down) times ``b``; between 0
    and b - 1 for a positive ``b`` (-7 % 3 is 2), as ``a - (a / b) * b`` gives."""
    a, b = _number(a, "'%'"), _number(b, "'%'")
    if b == 0:
        raise OpError("remainder of a division by zero", "make sure the divisor cannot be 0", code=E_DIVISION_BY_ZERO)
    return a % b


ARITHMETIC: dict[str, Callable[[Any, Any], int]] = {
    "+": _add,
    "-": _sub,
    "*": _mul,
    "%": _remainder,
    "/": division(floor_div),
}


def negate(a: Any) -> int:
    return -_number(a, "'-'")


def _order(op: str) -> Callable[[Any, Any], bool]:
    import operator

    fn = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]

    def compare(a: Any, b: Any) -> bool:
        if type(a) is int and type(b) is int:
            return fn(a, b)
        return fn(_number(a, f"'{op}'"), _number(b, f"'{op}'"))

    return compare


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, Rolled, Beyond)):
        return "number"
    return type(value).__name__


def _equal(a: Any, b: Any) -> bool:
    if type(a) is type(b) and type(a) in (int, str, bool):
        return a == b
    if _kind(a) != _kind(b):
        raise OpError(f"cannot compare {describe(a)} with {describe(b)}")
    if isinstance(a, Rolled) or isinstance(b, Rolled):
        return _number(a, "'=='") == _number(b, "'=='")
    return a == b


COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "<": _order("<"),
    "<=": _order("<="),
    ">": _order(">"),
    ">=": _order(">="),
    "==": _equal,
    "!=": lambda a, b: not _equal(a, b),
}


def logic_and(a: Any, b: Any) -> bool:
    return _boolean(a, "'and'") and _boolean(b, "'and'")


def logic_or(a: Any, b: Any) -> bool:
    return _boolean(a, "'or'") or _boolean(b, "'or'")


def logic_not(a: Any) -> bool:
    return not _boolean(a, "'not'")


# ---- built-in functions -------------------------------------------------------------------


def smallest(*args: Any) -> int:
    numbers = [_number(a, "min()") for a in args]
    if any(isinstance(n, Beyond) for n in numbers):  # what explosions cut, with other values
        return lowest_of(numbers)
    return min(numbers)


def largest(*args: Any) -> int:
    numbers = [_number(a, "max()") for a in args]
    if any(isinstance(n, Beyond) for n in numbers):
        return highest_of(numbers)
    return max(numbers)


def absolute(a: Any) -> int:
    return abs(_number(a, "abs()"))


POW_EXPONENTS = range(0, 65)
"""The exponents ``pow()`` takes, a rule of the language (as a choose's ``pick`` is 1 to 10):
one outside is an error of the rules, which validate finds at an input's bound."""


def power(base: Any, exponent: Any, *, limit: int | None = None) -> int:
    """pow(b, e): ``b`` multiplied by itself ``e`` times (``pow(2, 3)`` is 8, ``pow(b, 0)`` is
    1), ``e`` from 0 to 64. ``limit``: the largest size a result may have (``max_magnitude``),
    charged before the work: a power sure to pass it is refused without being worked out."""
    b, e = _number(base, "pow()"), _number(exponent, "pow()")
    if isinstance(b, Beyond) or isinstance(e, Beyond):  # a power of what explosions cut: cut
        raise Undetermined
    if e not in POW_EXPONENTS:
        raise OpError(f"pow() takes an exponent from {POW_EXPONENTS[0]} to {POW_EXPONENTS[-1]}, not {e}",
                      "bound the exponent, e.g. pow(2, max(0, min(n, 10)))")
    if limit is not None:
        # |b| >= 2**(bits - 1), so |b ** e| >= 2**((bits - 1) * e): past the limit, not worked out
        if abs(b) >= 2 and (abs(b).bit_length() - 1) * e > limit.bit_length():
            raise OpError(f"pow({b}, {e}) is too large", f"results are limited to ±{limit:,}",
                          limit="max_magnitude")
        r = b ** e
        if not -limit <= r <= limit:
            raise OpError(f"pow({b}, {e}) = {str(r)[:24]}… is too large", f"results are limited to ±{limit:,}",
                          limit="max_magnitude")
        return r
    return b ** e


def whole(name: str) -> Callable[[Any], int]:
    def rounded(a: Any) -> int:
        # Values are whole numbers already; floor/ceil/round matter around a division,
        # which the evaluator rounds their way (ceil(7/2) = 4).
        return _number(a, f"{name}()")

    return rounded


def choose(condition: Any, then: Any, otherwise: Any) -> Any:
    # Both branches are always evaluated (so every die is rolled once); only one is used.
    return then if _boolean(condition, "if()") else otherwise


def _rolled(value: Any, what: str) -> Rolled:
    """A roll seen whole; a roll the depth cut (:class:`~.beyond.RollAtLeast`) stands in with
    the dice it had, for the functions that read it knowing that more were to come."""
    if isinstance(value, (Rolled, RollAtLeast)):
        return value  # type: ignore[return-value]
    raise OpError(f"{what} needs a roll of dice, not {describe(value)}",
                  "pass the name of a roll, e.g. count(roll, 1)")


def count_dice(value: Any, low: Any = None, high: Any = None) -> int:
    """count(roll): kept dice; count(roll, v): dice showing v; count(roll, lo, hi): lo..hi."""
    if type(value) is Rolled and type(low) is int:  # the common cases, first
        if high is None:
            return value.faces.count(low)
        if type(high) is int:
            return in_range(value.faces, low, high)
    if isinstance(value, DicePool) and low is None:
        return len(_unfiltered(value, "count()").sides)
    faces = _rolled(value, "count()").faces
    if low is None:
        n = len(faces)
    else:
        lo = _number(low, "count()")
        hi = lo if high is None else _number(high, "count()")
        n = in_range(faces, lo, hi)
    # A roll the depth cut had these dice and more to come: at least as many.
    return AtLeast(n) if isinstance(value, RollAtLeast) else n  # type: ignore[return-value]


def in_range(faces: tuple, lo: int, hi: int) -> int:
    """How many ``faces`` are from ``lo`` to ``hi``: a narrow range counted value by value
    (``tuple.count`` runs in C: exact odds read a pool once for each joint value), a wide
    one die by die."""
    if 0 <= hi - lo < 8:
        return sum(map(faces.count, range(lo, hi + 1)))
    return sum(1 for f in faces if lo <= f <= hi)


def highest_die(value: Any) -> int:
    faces = _rolled(value, "highest()").faces
    if not faces:
        raise OpError("highest() of a roll with no dice", hint="read it where the roll has dice: "
                      "if(count(roll) > 0, highest(roll), 0), with your roll's name")
    return AtLeast(max(faces)) if isinstance(value, RollAtLeast) else max(faces)  # type: ignore[return-value]


def lowest_die(value: Any) -> int:
    if isinstance(value, RollAtLeast):  # a die still to come may show less
        raise Undetermined
    faces = _rolled(value, "lowest()").faces
    if not faces:
        raise OpError("lowest() of a roll with no dice", hint="read it where the roll has dice: "
                      "if(count(roll) > 0, lowest(roll), 0), with your roll's name")
    return min(faces)


def _unfiltered(pool: DicePool, what: str, low: Any = None) -> DicePool:
    """A pool whose dice are known before it is rolled: not one that keeps dice by face
    (``(pool)p1``), and not read by face (``largest_die(pool, 2, 12)``)."""
    if pool.by_face or low is not None:
        which = "it keeps" if pool.by_face else "show what"
        raise OpError(f"{what} of the pool {pool.text()}, not rolled: which dice {which} is known once it is rolled",
                      f"roll it (roll: {'(pool)' + pool.marks if pool.by_face else 'pool'}) and read the roll, e.g. "
                      f"{what[:-2]}(roll{', 2, 12' if low is not None else ''})")
    return pool


def largest_die(value: Any, low: Any = None, high: Any = None) -> int:
    """largest_die(x): the number of sides of the largest die of a mixed pool (d10/d8/d6 → 10),
    rolled or not, or of the dice chosen from it or left (``chosen``, ``rest``);
    largest_die(x, lo, hi): of its dice showing lo to hi (one bound: that face), as
    ``count(x, lo, hi)`` counts them: ``largest_die(rest, 2, 12)``, the largest die left not
    showing 1."""
    if isinstance(value, DicePool):
        return max(_unfiltered(value, "largest_die()", low).sides)
    if isinstance(value, RollAtLeast):
        raise Undetermined
    rolled = _rolled(value, "largest_die()")
    if not rolled.sides:
        raise OpError("largest_die() of dice whose sizes are not known" if rolled.faces else "largest_die() of no dice",
                      "largest_die() reads a pool of mixed dice (a dice_pool input), or the dice chosen from it"
                      if rolled.faces else "check count(x) > 0 first, e.g. if(count(rest) > 0, largest_die(rest), 4)")
    if low is None:
        return max(rolled.sides)
    lo = _number(low, "largest_die()")
    hi = lo if high is None else _number(high, "largest_die()")
    sizes = [s for f, s in zip(rolled.faces, rolled.sides, strict=True) if lo <= f <= hi]
    if not sizes:
        faces = f"{lo}" if lo == hi else f"{lo} to {hi}"
        bounds = f"{lo}" if high is None else f"{lo}, {hi}"
        raise OpError(f"largest_die() of no dice: none shows {faces}",
                      f"check count(x, {bounds}) > 0 first, e.g. if(count(rest, {bounds}) > 0, "
                      f"largest_die(rest, {bounds}), 4)")
    return max(sizes)


def first_throw(value: Any) -> Rolled:
    """initial(roll): the dice of the first throw, without those explosions added (a botch
    judged on the first throw: count(initial(roll), 1))."""
    rolled = _rolled(value, "initial()")
    if rolled.initial is None:
        raise OpError("initial() of a roll that keeps or drops dice",
                      "initial() reads a roll that keeps all its dice (exploding or not)")
    return Rolled(sum(rolled.initial), rolled.initial, initial=rolled.initial)


def count_symbols(value: Any, *names: Any) -> int:
    """symbols(roll, 'success'): how many times the kept dice of a roll of symbol dice show
    that symbol; several names count each (``symbols(roll, 'success', 'triumph')``)."""
    rolled = _rolled(value, "symbols()")
    for name in names:
        if not isinstance(name, str):
            raise OpError(f"symbols() counts symbols named in quotes, not {describe(name)}",
                          "e.g. symbols(roll, 'success')")
    if isinstance(value, RollAtLeast):  # a roll the depth cut: dice still to come only add symbols
        return AtLeast(sum(n for s, n in value.symbols if s in names))  # type: ignore[return-value]
    return rolled.count_symbols(names)


def sum_of(value: Any) -> int:
    if isinstance(value, AtLeast):
        return AtLeast(value.low)  # type: ignore[return-value]
    return _rolled(value, "sum()").total if isinstance(value, Rolled) else _number(value, "sum()")


def kept_indexes(values: list[int], keeps: Any) -> set[int]:
    """Which of ``values`` a set's keeps leave, by the rule of a pool's keeps
    (:func:`~rulesengine.dice.pool.kept_ranks`); among equal values the one listed first
    counts as higher."""
    ranked = sorted(range(len(values)), key=lambda i: (-values[i], i))  # highest first
    lo, hi = kept_ranks(keeps, len(values))
    return set(ranked[lo:hi])


def set_values(values: Any) -> list[int]:
    """The whole numbers of a set's items (a roll counts by its total)."""
    return [_number(getattr(v, "total", v), "a set") for v in values]


def keep_sum(keeps: Any) -> Callable[..., int]:
    """A set's value: the sum of the items its keeps leave."""
    def total(*values: Any) -> int:
        numbers = set_values(values)
        return sum(numbers[i] for i in kept_indexes(numbers, keeps))
    return total


def _pool(value: Any, what: str) -> DicePool:
    if isinstance(value, DicePool):
        return value
    raise OpError(f"{what} needs a pool of mixed dice such as d8/d6, not {describe(value)}")


def drop_highest(value: Any) -> DicePool:
    """The pool without one of its largest dice (a d8 from d8/d6/d6), its keeps by face kept."""
    pool = _pool(value, "drop_highest()")
    return replace(pool, sides=pool.sides[1:]) if len(pool.sides) > 1 else pool


def drop_lowest(value: Any) -> DicePool:
    """The pool without one of its smallest dice (a d6 from d8/d6/d6), its keeps by face kept."""
    pool = _pool(value, "drop_lowest()")
    return replace(pool, sides=pool.sides[:-1]) if len(pool.sides) > 1 else pool


def pool_to_keep(value: Any, keeps: str) -> DicePool:
    """The pool that keeps by face (``keeps``, as written: ``p1``) are applied to: a pool of
    mixed dice, not yet rolled; anything else is refused."""
    if isinstance(value, DicePool):
        return value
    hint = ("keep by face the pool before it is rolled, e.g. roll: (pool)" + keeps
            if isinstance(value, (Rolled, RollAtLeast)) else
            f"put it on a dice term, e.g. 4d6{keeps}, or after a pool of mixed dice, e.g. (pool){keeps}")
    raise OpError(f"'{keeps}' keeps the dice of a pool of mixed dice such as d8/d6, not of {describe(value)}", hint)


def given(value: Any) -> bool:
    """given(x): whether an optional input was given (or a best_of found a candidate)."""
    return value is not None
