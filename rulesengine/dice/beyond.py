"""What an explosion cut off, kept as far as it is known: a value of at least some number.

Exact odds follow an exploding die only so deep. The paths cut there are not lost without
a trace when every explosion can only raise the value being worked out (a sum of faces of
at least 0, a count of successes with no failures subtracted): each such path ends on a
value of at least what it had when it was cut. :class:`AtLeast` is that knowledge, and it
answers exactly whatever the depth cannot change: ``AtLeast(11) >= 3`` is true (whatever
more explosions add), ``AtLeast(11) + 2`` is ``AtLeast(13)``, ``AtLeast(11) < 3`` false.
Anything that would depend on how deep the explosions really went (``AtLeast(11) >= 12``,
``5 - AtLeast(11)``, a table read by value, its use as a key) raises :class:`Undetermined`,
and the caller leaves that path's mass truncated, as before.

So "how exact" is decided by the same operators and functions that roll the dice (the
functions module accepts an ``AtLeast`` wherever it takes a number), and a mechanic the
class does not know simply stays truncated: it can make the odds more exact, never wrong.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Undetermined(Exception):
    """The value asked about depends on explosions deeper than the odds followed."""


# What a caller catches when it tries a cut path: the answer depends on the depth
# (Undetermined), or an operation this class leaves out (TypeError), or one that would fail
# for some of the values the path stands for (the caller's own errors, added by it).
UNDETERMINED: tuple[type[Exception], ...] = (Undetermined, TypeError, ArithmeticError)


class AtLeast:
    """A whole number of at least ``low``, the rest unknown."""

    __slots__ = ("low",)

    def __init__(self, low: int) -> None:
        self.low = low

    def __repr__(self) -> str:
        return f"AtLeast({self.low})"

    # ---- arithmetic: what keeps a lower bound ------------------------------------------------
    def __add__(self, other: Any) -> AtLeast:
        if isinstance(other, AtLeast):
            return AtLeast(self.low + other.low)
        return AtLeast(self.low + _whole(other))

    __radd__ = __add__

    def __sub__(self, other: Any) -> AtLeast:
        if isinstance(other, AtLeast):
            raise Undetermined
        return AtLeast(self.low - _whole(other))

    def __rsub__(self, other: Any) -> Any:
        raise Undetermined

    def __mul__(self, other: Any) -> Any:
        if isinstance(other, AtLeast):
            if self.low >= 0 and other.low >= 0:
                return AtLeast(self.low * other.low)
            raise Undetermined
        k = _whole(other)
        if k == 0:
            return 0
        if k > 0:
            return AtLeast(self.low * k)
        raise Undetermined

    __rmul__ = __mul__

    def __floordiv__(self, other: Any) -> AtLeast:
        if isinstance(other, AtLeast) or _whole(other) <= 0:
            raise Undetermined
        return AtLeast(self.low // other)

    def __rfloordiv__(self, other: Any) -> Any:
        raise Undetermined

    def __neg__(self) -> Any:
        raise Undetermined

    def __abs__(self) -> AtLeast:
        if self.low >= 0:
            return self
        raise Undetermined

    # ---- comparisons: decided where every value from ``low`` up gives one answer -----------
    def __ge__(self, other: Any) -> bool:
        if self.low >= _whole(other):
            return True
        raise Undetermined

    def __gt__(self, other: Any) -> bool:
        if self.low > _whole(other):
            return True
        raise Undetermined

    def __le__(self, other: Any) -> bool:
        if self.low > _whole(other):
            return False
        raise Undetermined

    def __lt__(self, other: Any) -> bool:
        if self.low >= _whole(other):
            return False
        raise Undetermined

    def __eq__(self, other: object) -> bool:
        if isinstance(other, int) and not isinstance(other, bool) and self.low > other:
            return False
        raise Undetermined

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    # ---- nothing else: a cut value cannot be a key, a truth value or a plain int ---------------
    def __hash__(self) -> int:
        raise Undetermined

    def __bool__(self) -> bool:
        raise Undetermined

    def __index__(self) -> int:
        raise Undetermined

    __int__ = __index__


class RollAtLeast(AtLeast):
    """A roll read die by die (``count(roll, 1)``, ``initial(roll)``) whose explosions were
    cut: its total at least ``low``; ``faces``, the dice it had when it was cut (more were
    still to come); ``initial``, its first throw (None where the rules don't read it), which
    the depth can't change. What rules read of it is answered where the depth can't change
    the answer: ``count(roll, lo, hi)`` is at least the count so far, ``highest(roll)`` at
    least the highest so far, ``initial(roll)`` exactly the first throw; ``lowest()`` and
    symbol counts (further dice may lower them) raise :class:`Undetermined`."""

    __slots__ = ("faces", "initial")

    def __init__(self, low: int, faces: tuple[int, ...], initial: tuple[int, ...] | None) -> None:
        super().__init__(low)
        self.faces = faces
        self.initial = initial

    def __repr__(self) -> str:
        return f"RollAtLeast({self.low}, {self.faces}, {self.initial})"


class CutRoll(NamedTuple):
    """A cut roll as a distribution's tail keeps it (:class:`RollAtLeast` can't be a key)."""

    low: int
    faces: tuple[int, ...]
    initial: tuple[int, ...] | None

    def value(self) -> RollAtLeast:
        return RollAtLeast(self.low, self.faces, self.initial)


def cut_value(key: Any) -> AtLeast:
    """The value a tail's key stands for: a lower bound (a whole number) or a cut roll."""
    return key.value() if isinstance(key, CutRoll) else AtLeast(key)


def highest_of(values: list[Any]) -> Any:
    """``max`` of whole numbers some of which are :class:`AtLeast`: at least the highest of
    their bounds and numbers (each value is at least its bound, so their highest is too)."""
    return AtLeast(max(v.low if isinstance(v, AtLeast) else _whole(v) for v in values))


def lowest_of(values: list[Any]) -> Any:
    """``min`` of whole numbers some of which are :class:`AtLeast`: a plain number where it
    is no more than every bound (it is the lowest whatever the cut values are), else at
    least the lowest of their bounds and numbers."""
    numbers = [_whole(v) for v in values if not isinstance(v, AtLeast)]
    low = min(v.low for v in values if isinstance(v, AtLeast))
    if numbers and min(numbers) <= low:
        return min(numbers)
    return AtLeast(min([low, *numbers]))


def _whole(value: Any) -> int:
    """A plain whole number to work with; another cut value is not one (its top is unknown)."""
    if type(value) is int:
        return value
    raise TypeError(f"not a whole number: {value!r}")


def try_value(fn: Any, *args: Any, errors: tuple[type[Exception], ...] = ()) -> tuple[bool, Any]:
    """``fn(*args)`` for arguments some of which are :class:`AtLeast`: (True, value) where
    the value is the same whatever the cut paths went on to (a number, a yes/no, or a new
    ``AtLeast``), (False, None) where it depends on them. ``errors``: the caller's own
    errors that mean the same (an operation refused for some of the values)."""
    try:
        return True, fn(*args)
    except UNDETERMINED + errors:
        return False, None
