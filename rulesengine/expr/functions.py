"""The operators and built-in functions of the language, on plain values.

Defined once, on ints and bools, and used by both drivers of the evaluator: rolling
applies them to the rolled values, exact odds applies them to every combination of
outcomes. They raise :class:`OpError` (message + hint) and the evaluator adds where.

Values are whole numbers and yes/no values, and the two never mix silently: ``3d6 >= 10``
is a yes/no and cannot be added to a number (count successes with ``cs`` instead).
"""

from __future__ import annotations

from typing import Any, Callable


class OpError(Exception):
    def __init__(self, message: str, hint: str | None = None, limit: str | None = None) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint
        self.limit = limit  # set when a documented limit was hit (see limits.py)


def describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the yes/no value {'true' if value else 'false'}"
    if isinstance(value, int):
        return f"the number {value}"
    return type(value).__name__


def _number(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OpError(f"{what} needs a number, not {describe(value)}",
                      "comparisons give yes/no values; count successes with cs>=N instead")
    return value


def _boolean(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise OpError(f"{what} needs a yes/no value, not {describe(value)}",
                      "compare it first, e.g. 'x >= 10'")
    return value


def _floor_div(a: int, b: int) -> int:
    return a // b


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def _round_div(a: int, b: int) -> int:
    """Nearest whole number; halves go up (7/2 → 4, −7/2 → −3)."""
    return (2 * a + b) // (2 * b)


ROUNDINGS: dict[str, Callable[[int, int], int]] = {
    "floor": _floor_div,
    "ceil": _ceil_div,
    "round": _round_div,
}


def division(rounding: str) -> Callable[[Any, Any], int]:
    rounder = ROUNDINGS[rounding]

    def divide(a: Any, b: Any) -> int:
        a, b = _number(a, "'/'"), _number(b, "'/'")
        if b == 0:
            raise OpError("division by zero", "make sure the divisor cannot be 0")
        return rounder(a, b)

    return divide


def _add(a: Any, b: Any) -> int:
    return _number(a, "'+'") + _number(b, "'+'")


def _sub(a: Any, b: Any) -> int:
    return _number(a, "'-'") - _number(b, "'-'")


def _mul(a: Any, b: Any) -> int:
    return _number(a, "'*'") * _number(b, "'*'")


ARITHMETIC: dict[str, Callable[[Any, Any], int]] = {
    "+": _add,
    "-": _sub,
    "*": _mul,
    "/": division("floor"),
}


def negate(a: Any) -> int:
    return -_number(a, "'-'")


def _order(op: str) -> Callable[[Any, Any], bool]:
    import operator

    fn = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]

    def compare(a: Any, b: Any) -> bool:
        return fn(_number(a, f"'{op}'"), _number(b, f"'{op}'"))

    return compare


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) != isinstance(b, bool):
        raise OpError(f"cannot compare {describe(a)} with {describe(b)}")
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


def _min(*args: Any) -> int:
    return min(_number(a, "min()") for a in args)


def _max(*args: Any) -> int:
    return max(_number(a, "max()") for a in args)


def _abs(a: Any) -> int:
    return abs(_number(a, "abs()"))


def _identity(name: str) -> Callable[[Any], int]:
    def whole(a: Any) -> int:
        # Values are whole numbers already; floor/ceil/round matter around a division,
        # which the evaluator rounds their way (ceil(7/2) = 4).
        return _number(a, f"{name}()")

    return whole


# name -> (function, fewest arguments, most arguments or None)
FUNCTIONS: dict[str, tuple[Callable[..., Any], int, int | None]] = {
    "min": (_min, 1, None),
    "max": (_max, 1, None),
    "abs": (_abs, 1, 1),
    "floor": (_identity("floor"), 1, 1),
    "ceil": (_identity("ceil"), 1, 1),
    "round": (_identity("round"), 1, 1),
}
