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

A difference turns a lower bound into an upper one: ``5 - AtLeast(11)`` is at most -6
(:class:`AtMost`), and ``AtMost(-6) >= 2`` is false whatever the explosions went on to. So a
difference of open-ended rolls (a swerve: ``pos - neg``) decides every comparison the cut
paths of one side can't change, and a difference ``dS! - dT!`` whose values below those
listed are cut keeps them as at most the lowest bound (:class:`CutBelow` in a tail).
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Undetermined(Exception):
    """The value asked about depends on explosions deeper than the odds followed."""


# What a caller catches when it tries a cut path: the answer depends on the depth
# (Undetermined), or an operation this class leaves out (TypeError), or one that would fail
# for some of the values the path stands for (the caller's own errors, added by it).
UNDETERMINED: tuple[type[Exception], ...] = (Undetermined, TypeError, ArithmeticError)


class Beyond:
    """A value explosions cut, known only by a bound (:class:`AtLeast`, :class:`AtMost`):
    never a key, a truth value or a plain int."""

    __slots__ = ()

    def __hash__(self) -> int:
        raise Undetermined

    def __bool__(self) -> bool:
        raise Undetermined

    def __index__(self) -> int:
        raise Undetermined

    __int__ = __index__


class AtLeast(Beyond):
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
        if isinstance(other, AtMost):  # at least low, less at most high: at least low - high
            return AtLeast(self.low - other.high)
        if isinstance(other, AtLeast):
            raise Undetermined
        return AtLeast(self.low - _whole(other))

    def __rsub__(self, other: Any) -> AtMost:
        return AtMost(_whole(other) - self.low)

    def __mul__(self, other: Any) -> Any:
        if isinstance(other, Beyond):
            if isinstance(other, AtLeast) and self.low >= 0 and other.low >= 0:
                return AtLeast(self.low * other.low)
            raise Undetermined
        k = _whole(other)
        if k == 0:
            return 0
        if k > 0:
            return AtLeast(self.low * k)
        return AtMost(self.low * k)

    __rmul__ = __mul__

    def __floordiv__(self, other: Any) -> AtLeast:
        if isinstance(other, Beyond) or _whole(other) <= 0:
            raise Undetermined
        return AtLeast(self.low // other)

    def __rfloordiv__(self, other: Any) -> Any:
        raise Undetermined

    def __neg__(self) -> AtMost:
        return AtMost(-self.low)

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

    __hash__ = Beyond.__hash__  # defining __eq__ would clear it: a cut value is never a key


class AtMost(Beyond):
    """A whole number of at most ``high``, the rest unknown: what is left of a cut lower
    bound taken away (``5 - AtLeast(11)``) or negated, and the values a difference of
    open-ended dice has below those listed. The mirror of :class:`AtLeast`."""

    __slots__ = ("high",)

    def __init__(self, high: int) -> None:
        self.high = high

    def __repr__(self) -> str:
        return f"AtMost({self.high})"

    def __add__(self, other: Any) -> AtMost:
        if isinstance(other, AtMost):
            return AtMost(self.high + other.high)
        if isinstance(other, AtLeast):
            raise Undetermined
        return AtMost(self.high + _whole(other))

    __radd__ = __add__

    def __sub__(self, other: Any) -> AtMost:
        if isinstance(other, AtLeast):  # at most high, less at least low: at most high - low
            return AtMost(self.high - other.low)
        if isinstance(other, AtMost):
            raise Undetermined
        return AtMost(self.high - _whole(other))

    def __rsub__(self, other: Any) -> AtLeast:
        return AtLeast(_whole(other) - self.high)

    def __mul__(self, other: Any) -> Any:
        if isinstance(other, Beyond):
            raise Undetermined
        k = _whole(other)
        if k == 0:
            return 0
        return AtMost(self.high * k) if k > 0 else AtLeast(self.high * k)

    __rmul__ = __mul__

    def __floordiv__(self, other: Any) -> AtMost:
        if isinstance(other, Beyond) or _whole(other) <= 0:
            raise Undetermined
        return AtMost(self.high // other)

    def __rfloordiv__(self, other: Any) -> Any:
        raise Undetermined

    def __neg__(self) -> AtLeast:
        return AtLeast(-self.high)

    def __abs__(self) -> AtLeast:
        if self.high <= 0:
            return AtLeast(-self.high)
        raise Undetermined

    # ---- comparisons: decided where every value from ``high`` down gives one answer -----------
    def __le__(self, other: Any) -> bool:
        if self.high <= _whole(other):
            return True
        raise Undetermined

    def __lt__(self, other: Any) -> bool:
        if self.high < _whole(other):
            return True
        raise Undetermined

    def __ge__(self, other: Any) -> bool:
        if self.high < _whole(other):
            return False
        raise Undetermined

    def __gt__(self, other: Any) -> bool:
        if self.high <= _whole(other):
            return False
        raise Undetermined

    def __eq__(self, other: object) -> bool:
        if isinstance(other, int) and not isinstance(other, bool) and self.high < other:
            return False
        raise Undetermined

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = Beyond.__hash__


class Unknown(Beyond):
    """A value explosions past the depth leave wholly open (a ``let`` whose expression they
    leave undecided): every use of it is undecided too, but ``false and it`` is false and
    ``true or it`` true (the dice language's ``and`` and ``or`` read it no further). Exact
    odds hold it so that a rule that does not need it is still decided."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Unknown()"

    def _open(self, *_: Any) -> Any:
        raise Undetermined

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _open
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __neg__ = __abs__ = _open
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _open
    __hash__ = Beyond.__hash__


UNKNOWN = Unknown()


class RollAtLeast(AtLeast):
    """A roll read die by die (``count(roll, 1)``, ``initial(roll)``) whose explosions were
    cut: its total at least ``low``; ``faces``, the dice it had when it was cut (more were
    still to come); ``initial``, its first throw (None where the rules don't read it), which
    the depth can't change. What rules read of it is answered where the depth can't change
    the answer: ``count(roll, lo, hi)`` is at least the count so far, ``highest(roll)`` at
    least the highest so far, ``initial(roll)`` exactly the first throw, and
    ``symbols(roll, …)`` at least the symbols so far (``symbols``: counted by name, as
    ``Rolled.symbols``; dice still to come only add to them); ``lowest()`` raises
    :class:`Undetermined` (a die still to come may show less)."""

    __slots__ = ("faces", "initial", "symbols")

    def __init__(self, low: int, faces: tuple[int, ...], initial: tuple[int, ...] | None,
                 symbols: tuple[tuple[str, int], ...] = ()) -> None:
        super().__init__(low)
        self.faces = faces
        self.initial = initial
        self.symbols = symbols

    def __repr__(self) -> str:
        return f"RollAtLeast({self.low}, {self.faces}, {self.initial}, {self.symbols})"


class CutRoll(NamedTuple):
    """A cut roll as a distribution's tail keeps it (:class:`RollAtLeast` can't be a key)."""

    low: int
    faces: tuple[int, ...]
    initial: tuple[int, ...] | None
    symbols: tuple[tuple[str, int], ...] = ()  # the symbols its dice so far show, by name

    def value(self) -> RollAtLeast:
        return RollAtLeast(self.low, self.faces, self.initial, self.symbols)


class CutBelow(NamedTuple):
    """Cut paths a distribution's tail keeps as at most ``high`` (:class:`AtMost` can't be a key)."""

    high: int

    def value(self) -> AtMost:
        return AtMost(self.high)


def cut_value(key: Any) -> Beyond:
    """The value a tail's key stands for: a lower bound (a whole number), an upper one
    (:class:`CutBelow`) or a cut roll."""
    return key.value() if isinstance(key, (CutRoll, CutBelow)) else AtLeast(key)


def tail_key(value: Beyond) -> Any:
    """How a distribution's tail keeps a cut value (see :func:`cut_value`)."""
    return CutBelow(value.high) if isinstance(value, AtMost) else value.low  # type: ignore[attr-defined]


def highest_of(values: list[Any]) -> Any:
    """``max`` of whole numbers some of which are cut (:class:`AtLeast`, :class:`AtMost`): at
    least the highest of the lower bounds and numbers where there is a lower bound (each
    value is at least its bound, so their highest is too); else a plain number where it is
    no less than every upper bound, or at most the highest of them all."""
    lows = [v.low for v in values if isinstance(v, AtLeast)]
    numbers = [_whole(v) for v in values if not isinstance(v, Beyond)]
    if lows:
        return AtLeast(max(lows + numbers))
    high = max(v.high for v in values if isinstance(v, AtMost))
    if numbers and max(numbers) >= high:
        return max(numbers)
    return AtMost(max([high, *numbers]))


def lowest_of(values: list[Any]) -> Any:
    """``min`` of whole numbers some of which are cut: the mirror of :func:`highest_of` (a
    plain number where it is no more than every lower bound, else at least the lowest of
    them; at most the lowest upper bound or number where there is an upper bound)."""
    highs = [v.high for v in values if isinstance(v, AtMost)]
    numbers = [_whole(v) for v in values if not isinstance(v, Beyond)]
    if highs:
        return AtMost(min(highs + numbers))
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
