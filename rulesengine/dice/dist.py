"""Finite exact distributions: integer weights over one common denominator.

``Dist({3: 1, 4: 3, ...}, 216)`` means P(3) = 1/216, P(4) = 3/216, ... Keeping integer
weights instead of ``Fraction`` values makes convolution and dynamic programming a matter
of integer multiply-adds (several times faster than Fraction arithmetic, which reduces by
gcd on every operation); Fractions are produced only at the edge, for users.

Truncation is part of the representation: when an unbounded mechanic (explosions) is cut
off, the cut paths are simply not in ``weights``, so ``sum(weights) < denom`` and
``truncated`` = 1 − sum/denom is exact and can never be dropped silently: every
operation below multiplies denominators and so carries the missing mass along. What is
known of the cut paths is kept beside the weights, in ``tail`` (lower bound → weight: the
paths that end on a value of at least that, see :mod:`.beyond`; for a roll read die by die,
a :class:`~.beyond.CutRoll` → weight); an operation that does not know about tails drops
it, which leaves that mass truncated, as it was.

A :class:`Budget` counts the work done (entries combined) so that an expression that is
too big to enumerate exactly fails with an error naming the term, instead of hanging.
Several computations can share one total as well (:func:`shared_budget`): a sweep of odds
over many input values is bounded as a whole, not only value by value.
"""

from __future__ import annotations

from collections import defaultdict
from contextlib import contextmanager
from contextvars import ContextVar
import time
from fractions import Fraction
from itertools import product
from math import gcd, isqrt
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping

from ..records import Record, set_field as _set
from .beyond import Beyond, CutBelow, cut_value, tail_key, try_value

if TYPE_CHECKING:
    from .open_ended import OpenLaw


class BudgetExceeded(Exception):
    """Raised by :class:`Budget`; the evaluator turns it into a LimitError with a position."""


class Budget:
    """A work counter shared by one exact evaluation.

    A budget made while a :func:`shared_budget` is in force also charges that one: the
    computations that make their own budgets (each check's odds, each procedure's) then
    add up to one total, without every caller having to pass a budget down."""

    __slots__ = ("limit", "used", "total", "deadline", "next_look", "timed_out", "made", "sole")

    def __init__(self, limit: int, deadline: float | None = None) -> None:
        self.limit = limit
        self.used = 0
        self.total = _SHARED.get()
        self.deadline = deadline
        self.next_look = 0
        self.timed_out = False
        # What this computation has worked out and may use again at no further charge (the
        # sums of 1, 2, … n dice of one kind, :func:`.exact.sums_of_dice`): its own work, so
        # what it is charged never depends on what another computation left behind.
        self.made: dict[Hashable, Any] = {}
        # Set by the caller where the work left for this budget is one roll's and holding its
        # values (a check of one roll): following a roll's cut explosions may then take more
        # of what is left (:func:`.pool_odds._afford`).
        self.sole = False

    def spend(self, amount: int) -> None:
        self.used += amount
        if self.used > self.limit:
            raise BudgetExceeded()
        if self.deadline is not None and self.used >= self.next_look:
            self.next_look = self.used + CLOCK_STEPS
            if time.monotonic() > self.deadline:
                self.timed_out = True
                raise BudgetExceeded()
        if self.total is not None:
            self.total.spend(amount)

    def spend_here(self, amount: int) -> None:
        """Charge this budget only, not the shared ones it charges: for work done once and
        already charged to them (a roll's distribution a sweep's values share, see
        ``run.shared_rolls.sharing_rolls``), which still counts toward each computation's own
        limit, so a value is refused in a sweep exactly where it is refused alone."""
        self.used += amount
        if self.used > self.limit:
            raise BudgetExceeded()

    def afford(self, amount: int) -> None:
        """Refuse now if ``amount`` more steps would take this budget, or a shared one it
        charges, past its limit, without spending them yet: for work whose whole cost is
        known before it starts but which is charged piece by piece as it is done (writing
        out an answer), so that a deadline is looked at while it is done. A refused budget
        counts the amount as spent, as :meth:`spend` does when it refuses."""
        budget: Budget | None = self
        while budget is not None:
            if budget.used + amount > budget.limit:
                budget.used += amount
                raise BudgetExceeded()
            budget = budget.total

    @property
    def exhausted(self) -> bool:
        return self.used > self.limit or self.timed_out


CLOCK_STEPS = 4096
"""Steps between two looks at the clock of a budget with a deadline (about a millisecond)."""

_SHARED: ContextVar[Budget | None] = ContextVar("rulesengine_shared_budget", default=None)


@contextmanager
def shared_budget(limit: int, deadline: float | None = None) -> Iterator[Budget]:
    """Charge every budget made inside the block to one more, with ``limit``: the whole
    block may do at most that much work. A check's finished odds taken from its cache
    cost nothing, as nothing is worked out again; a dice term's distribution taken from
    the process-wide cache is charged the steps it cost (``cache.POOL_DISTS``). When the shared budget runs out,
    the computation under way fails as it would on its own budget (a LimitError naming
    ``max_states``); the caller tells the two apart by the shared budget's ``exhausted``.

    ``deadline`` (a ``time.monotonic()`` value) is for a service's wall-clock limit: past it
    the work stops the same way, at the next charge after every ``CLOCK_STEPS`` steps (a clock
    read per charge would cost more than the charge), and ``timed_out`` says so. Only a service sets it: everywhere
    else the engine is bounded by what it counts, the same on every machine."""
    total = Budget(limit, deadline)  # inside an outer shared budget, charges that one in turn
    token = _SHARED.set(total)
    try:
        yield total
    finally:
        _SHARED.reset(token)


UNLIMITED = 10**30
"""A limit no computation reaches: a budget with it counts, and charges a shared budget in force."""

_NO_BUDGET = Budget(UNLIMITED)

WORD_BITS = 2048
"""Weights under this many bits cost one step per multiply-add; larger ones more (see
:func:`step_cost`). 2,048 rather than 1,024: 750d1000cs=1 (7,500-bit weights) still fits the
budget and takes half a second, as it did before weights were charged by size."""


def step_cost(bits: int) -> int:
    """Steps charged for one multiply-add of weights of about ``bits`` bits.

    Weights are exact integers, and they grow: ``1000d1000000`` has a denominator of 20,000
    bits, so one multiply-add there costs as much as dozens of small ones. Charging entries
    alone let a computation inside the budget run for minutes of big-integer arithmetic
    and fill memory with huge weights before it was refused (issue 19). The cost is worked
    out from the operands' sizes, known before the work, so it is charged first. It grows
    as k·√k for k words of ``WORD_BITS``, about as CPython's Karatsuba multiplication
    (k^1.58) and gcd do: a linear charge let a convolution of 500 compounding d100s
    (36,000 bits) take half a second for 300,000 steps."""
    k = bits // WORD_BITS
    return 1 + k * isqrt(k)


HELD_PER_STEP = 4
"""Values an entry may hold for one step; each ``HELD_PER_STEP`` more cost one step more (see
:func:`held_cost`). An entry with its first few values is about 100 bytes, a value more about
25 (a slot of a dictionary or a tuple, and the small number in it), which is what a step of
the caches is reckoned at (``limits.MAX_CACHED_WEIGHTS``)."""


def held_cost(entries: int, width: int) -> int:
    """Steps charged for making and keeping ``entries`` entries that each hold ``width``
    values (a joint value of four rolls holds four; a roll of ten dice, ten faces): one an
    entry, and one more for each :data:`HELD_PER_STEP` values it holds.

    A step was one entry whatever it held, so a computation inside the budget could keep
    millions of wide entries alive (a dictionary of every roll's value for each joint value,
    a roll of ten symbol dice for each of its throws) and run out of memory before it was
    refused (issue 34). Charged before the entries are made, from sizes known by then, as
    :func:`step_cost` charges big weights."""
    return entries * (1 + max(0, width) // HELD_PER_STEP)


NO_TAIL: Mapping[Any, int] = MappingProxyType({})



class Dist(Record):
    """An exact distribution over hashable outcomes (ints, bools, tuples).

    Treat ``weights`` as read-only: instances are shared between caches. ``tail``: what is
    known of the truncated mass, lower bound → weight (empty: nothing known, or nothing cut);
    a distribution of rolls read die by die has :class:`~.beyond.CutRoll` keys instead.
    """

    weights: dict[Any, int]
    denom: int
    tail: Mapping[Any, int] = NO_TAIL
    # Followed forever in closed form (.open_ended): a sum or difference of plain exploding
    # dice and numbers known exactly; None for anything else. Operations that don't know it drop it.
    open_ended: OpenLaw | None = None

    def __init__(self, weights: dict[Any, int], denom: int, tail: Mapping[Any, int] = NO_TAIL,
                 open_ended: OpenLaw | None = None) -> None:
        # Written out, as records made by the thousand are (rulesengine/records.py).
        _set(self, "weights", weights)
        _set(self, "denom", denom)
        _set(self, "tail", tail)
        _set(self, "open_ended", open_ended)

    # ---- construction -------------------------------------------------------------------
    @staticmethod
    def point(value: Hashable) -> Dist:
        return Dist({value: 1}, 1)

    @staticmethod
    def from_counts(items: Iterable[Hashable]) -> Dist:
        """Uniform over a list of outcomes, repeats counting double (a custom die)."""
        weights: dict[Any, int] = defaultdict(int)
        n = 0
        for item in items:
            weights[item] += 1
            n += 1
        return Dist(dict(weights), n)

    # ---- views ----------------------------------------------------------------------------
    @property
    def total_weight(self) -> int:
        return sum(self.weights.values())

    @property
    def truncated(self) -> Fraction:
        """The probability mass cut off by truncation (0 when nothing was cut)."""
        return Fraction(self.denom - self.total_weight, self.denom)

    def is_point(self) -> bool:
        return len(self.weights) == 1 and self.denom == next(iter(self.weights.values()))

    def probabilities(self) -> dict[Any, Fraction]:
        return {v: Fraction(w, self.denom) for v, w in self.weights.items()}

    @property
    def cut_from(self) -> int | None:
        """The least value a truncated path may end on, where every truncated path is known
        to end on some value of at least it (see :mod:`.beyond`): then every value below it
        has its exact probability, and so has "at least ``cut_from``". None where nothing was
        cut, or where some cut mass is not known that way."""
        if not self.tail or self.total_weight + sum(self.tail.values()) != self.denom \
                or any(type(lo) is not int for lo in self.tail):
            return None
        return min(self.tail)

    def reduced(self) -> Dist:
        """The same distribution with weights and denominator divided by their gcd."""
        g = self.denom
        for w in (*self.weights.values(), *self.tail.values()):
            g = gcd(g, w)
            if g == 1:
                return self
        return Dist({v: w // g for v, w in self.weights.items()}, self.denom // g,
                    {v: w // g for v, w in self.tail.items()} if self.tail else NO_TAIL, self.open_ended)

    # ---- combination --------------------------------------------------------------------
    def map(self, f: Callable[[Any], Any]) -> Dist:
        """The distribution of ``f(x)``; the tail is dropped (see :func:`with_tails`)."""
        out: dict[Any, int] = defaultdict(int)
        for v, w in self.weights.items():
            out[f(v)] += w
        return Dist(dict(out), self.denom)

    def scaled(self, factor: int) -> Dist:
        """The same probabilities over a denominator ``factor`` times larger."""
        return Dist({v: w * factor for v, w in self.weights.items()}, self.denom * factor,
                    {v: w * factor for v, w in self.tail.items()} if self.tail else NO_TAIL)


def combine(f: Callable[..., Any], dists: list[Dist], budget: Budget = _NO_BUDGET) -> Dist:
    """The distribution of ``f(x1, x2, ...)`` for independent ``xi ~ dists[i]``."""
    acc: dict[Any, int] = {(): 1}
    denom = 1
    for d in dists:
        budget.spend(len(acc) * len(d.weights) * step_cost(denom.bit_length() + d.denom.bit_length()))
        nxt: dict[Any, int] = {}
        for key, w in acc.items():
            for v, wv in d.weights.items():
                nxt[key + (v,)] = w * wv
        acc, denom = nxt, denom * d.denom
    out: dict[Any, int] = defaultdict(int)
    for key, w in acc.items():
        out[f(*key)] += w
    return Dist(dict(out), denom)


def combine2(f: Callable[[Any, Any], Any], a: Dist, b: Dist, budget: Budget = _NO_BUDGET) -> Dist:
    """``combine`` for two operands, without building tuples (the common case)."""
    if len(a.weights) == 1 and len(b.weights) == 1:
        (va, wa), = a.weights.items()
        (vb, wb), = b.weights.items()
        return Dist({f(va, vb): wa * wb}, a.denom * b.denom)
    budget.spend(len(a.weights) * len(b.weights) * step_cost(a.denom.bit_length() + b.denom.bit_length()))
    out: dict[Any, int] = defaultdict(int)
    bw = list(b.weights.items())
    for va, wa in a.weights.items():
        for vb, wb in bw:
            out[f(va, vb)] += wa * wb
    return Dist(dict(out), a.denom * b.denom)


def add(a: Dist, b: Dist, budget: Budget = _NO_BUDGET) -> Dist:
    """Convolution: the distribution of x + y. A cut path of either plus anything of the
    other is a cut path of at least the two lower bounds added."""
    budget.spend(len(a.weights) * len(b.weights) * step_cost(a.denom.bit_length() + b.denom.bit_length()))
    out = _convolve(a.weights, b.weights)
    a_tail, b_tail = _bounds(a.tail), _bounds(b.tail)
    if not a_tail and not b_tail:
        return Dist(out, a.denom * b.denom)
    tail: dict[int, int] = defaultdict(int)
    for x_tail, y, y_tail in ((a_tail, b, b_tail), (b_tail, a, a_tail)):
        if not x_tail:
            continue
        budget.spend(len(x_tail) * (len(y.weights) + len(y_tail)))
        # A yes/no added to a number is an error, not a number: that mass stays unknown.
        for lo, w in _convolve(x_tail, {v: wv for v, wv in y.weights.items() if type(v) is int}).items():
            tail[lo] += w
    for lo, w in _convolve(a_tail, b_tail).items():
        tail[lo] += w
    return Dist(out, a.denom * b.denom, capped(tail))


def _bounds(tail: Mapping[Any, int]) -> Mapping[Any, int]:
    """The lower bounds of a tail (a cut roll's mass is not added up: it stays truncated)."""
    if all(type(lo) is int for lo in tail):
        return tail
    return {lo: w for lo, w in tail.items() if type(lo) is int}


def _convolve(a: Mapping[Any, int], b: Mapping[Any, int]) -> dict[Any, int]:
    """The weights of x + y: by one big product where that is faster, else pair by pair."""
    out = _dense_add(a, b)
    if out is not None:
        return out
    sums: dict[Any, int] = defaultdict(int)
    bw = list(b.items())
    for va, wa in a.items():
        for vb, wb in bw:
            sums[va + vb] += wa * wb
    return dict(sums)


DENSE_PAIRS = 1024
"""From this many pairs of values up, :func:`add` multiplies two big integers instead."""


def _dense_add(a: Mapping[Any, int], b: Mapping[Any, int]) -> dict[Any, int] | None:
    """The convolution of two distributions over whole numbers by one big-integer product
    (Kronecker substitution): each weight in a slot of a number wide enough that no sum of
    products overflows into the next, so the product's slots are the convolution's weights.
    CPython multiplies big integers by Karatsuba, far fewer word operations than one
    multiply-add per pair once there are hundreds of values of hundreds of digits (a sum
    of 60 exploding dice: 7 times faster). None where it does not apply: few pairs, values
    other than whole numbers, or values spread out far more than there are of them."""
    if len(a) * len(b) < DENSE_PAIRS or any(type(v) is not int for v in (*a, *b)):
        return None
    lo_a, hi_a, lo_b, hi_b = min(a), max(a), min(b), max(b)
    span_a, span_b = hi_a - lo_a + 1, hi_b - lo_b + 1
    if span_a > 4 * len(a) or span_b > 4 * len(b):
        return None
    bits = max(a.values()).bit_length() + max(b.values()).bit_length() + min(span_a, span_b).bit_length() + 1
    width = (bits + 7) // 8

    def packed(d: Mapping[int, int], lo: int, span: int) -> int:
        zero = bytes(width)
        return int.from_bytes(b"".join(d[v].to_bytes(width, "little") if v in d else zero
                                       for v in range(lo, lo + span)), "little")

    product = (packed(a, lo_a, span_a) * packed(b, lo_b, span_b)).to_bytes((span_a + span_b) * width, "little")
    out: dict[Any, int] = {}
    for i in range(span_a + span_b - 1):
        w = int.from_bytes(product[i * width:(i + 1) * width], "little")
        if w:
            out[lo_a + lo_b + i] = w
    return out


TAIL_BOUNDS = 32
"""The most lower bounds a tail keeps apart. The cut paths' bounds multiply with every
convolution (60 exploding dice: hundreds), and keeping them all made sums several times
slower; the highest are lowered onto the 32nd lowest instead, which is still true of them
(a path of at least 40 is one of at least 30) and only matters for questions asked that
far up, where the mass then stays truncated."""


def capped(tail: Mapping[Any, int]) -> dict[Any, int]:
    """``tail`` with at most :data:`TAIL_BOUNDS` distinct lower bounds (see there); cut rolls
    are kept as they are (as many as the readings of the roll they cut)."""
    below = {k: w for k, w in tail.items() if isinstance(k, CutBelow)}
    if below and len(below) < len(tail):
        return capped({k: w for k, w in tail.items() if not isinstance(k, CutBelow)}) | capped(below)
    if below and len(below) > TAIL_BOUNDS:  # the mirror: the lowest upper bounds raised onto the 32nd highest
        highs = sorted((k.high for k in below), reverse=True)
        top = highs[TAIL_BOUNDS - 1]
        out = {CutBelow(h): below[CutBelow(h)] for h in highs[:TAIL_BOUNDS - 1]}
        out[CutBelow(top)] = sum(below[CutBelow(h)] for h in highs[TAIL_BOUNDS - 1:])
        return out
    if len(tail) <= TAIL_BOUNDS or any(type(lo) is not int for lo in tail):
        return dict(tail)
    bounds = sorted(tail)
    floor = bounds[TAIL_BOUNDS - 1]
    out = {lo: tail[lo] for lo in bounds[:TAIL_BOUNDS - 1]}
    out[floor] = sum(tail[lo] for lo in bounds[TAIL_BOUNDS - 1:])
    return out


def sum_of(d: Dist, n: int, budget: Budget = _NO_BUDGET) -> Dist:
    """The distribution of the sum of ``n`` independent copies of ``d``."""
    if n == 0:
        return Dist.point(0)
    if len(d.weights) == 2 and not d.tail and all(type(v) is int for v in d.weights):
        return _binomial(d, n, budget)
    result: Dist | None = None
    base = d
    # Repeated doubling keeps the number of convolutions logarithmic in n.
    while n:
        if n & 1:
            result = base if result is None else add(result, base, budget).reduced()
        n >>= 1
        if n:
            base = add(base, base, budget).reduced()
    assert result is not None
    return result


def _binomial(d: Dist, n: int, budget: Budget) -> Dist:
    """``n`` copies of a two-outcome value (a die counted as a success or not): the weight
    of k of the higher value is C(n, k) · w_hi^k · w_lo^(n-k), n + 1 terms worked out one
    from the next, where doubling convolutions cost about n² big-integer steps (issue 18:
    ``500d10cs>=8``)."""
    (lo, w_lo), (hi, w_hi) = sorted(d.weights.items())
    budget.spend((n + 1) * step_cost(n * d.denom.bit_length()))
    out: dict[Any, int] = {}
    term = w_lo ** n  # k = 0
    for k in range(n + 1):
        if k:  # C(n, k) w_hi^k w_lo^(n-k) from the term before
            term = term * (n - k + 1) * w_hi // (k * w_lo)
        out[n * lo + k * (hi - lo)] = term
    return Dist(out, d.denom ** n).reduced()


def mixture(parts: list[tuple[Dist, int]], denom: int, budget: Budget = _NO_BUDGET) -> Dist:
    """P(v) = Σ (w_i / denom) · P_i(v): pick part i with weight w_i, then draw from it.

    Charged one multiply-add per entry of every part, at the size of the common
    denominator (bounded by the sum of the distinct denominators' sizes, known before the
    common one is computed)."""
    bits = denom.bit_length() + sum(q.bit_length() for q in {d.denom for d, _ in parts})
    budget.spend(sum(len(d.weights) for d, _ in parts) * step_cost(bits) + len(parts))
    common = 1
    for d, _ in parts:
        common = common * d.denom // gcd(common, d.denom)
    out: dict[Any, int] = defaultdict(int)
    tail: dict[int, int] = defaultdict(int)
    for d, w in parts:
        scale = w * (common // d.denom)
        for v, wv in d.weights.items():
            out[v] += wv * scale
        for lo, wl in d.tail.items():
            tail[lo] += wl * scale
    return Dist(dict(out), denom * common, capped(tail) if tail else NO_TAIL)


def with_tails(f: Callable[..., Any], dists: list[Dist], result: Dist, budget: Budget = _NO_BUDGET,
               errors: tuple[type[Exception], ...] = ()) -> Dist:
    """``result`` (``f`` applied to ``dists`` with their tails dropped, as :func:`combine`
    or ``map`` give it) with what their tails decide added: ``f`` is tried on every
    combination with a cut path in it, the cut path standing as :class:`AtLeast` its lower
    bound. Where ``f``'s value is the same whatever the explosions went on to, that mass
    is worked out (a number, a yes/no, or a new lower bound); elsewhere it stays truncated.
    ``errors``: the caller's errors that mean "not the same for every value" (a number
    compared with a text is refused whatever the number)."""
    if not any(d.tail for d in dists):
        return result
    sides = [[*d.weights.items(), *((cut_value(lo), w) for lo, w in d.tail.items())] for d in dists]
    cut = [[(cut_value(lo), w) for lo, w in d.tail.items()] for d in dists]
    combos: Iterable[tuple[tuple, int]]
    if len(dists) <= 2:
        budget.spend(sum(len(d.tail) for d in dists) * max(len(s) for s in sides))
    else:
        budget.spend(sum(_cut_combinations(dists, sides)))
    if len(dists) == 1:
        combos = [((x,), w) for x, w in cut[0]]
    elif len(dists) == 2:  # a cut path on the left with anything on the right, or a cut one on the right only
        combos = [((x, y), wx * wy) for x, wx in cut[0] for y, wy in sides[1]] + \
                 [((x, y), wx * wy) for x, wx in dists[0].weights.items() for y, wy in cut[1]]
    else:  # max(a, b, c), min(...) of three or more: the first cut operand at each place
        combos = _with_a_cut(dists, sides, cut)
    weights: dict[Any, int] = defaultdict(int, result.weights)
    tail: dict[Any, int] = defaultdict(int)
    for args, w in combos:
        known, value = try_value(f, *args, errors=errors)
        if not known:
            continue
        if isinstance(value, Beyond):
            tail[tail_key(value)] += w
        else:
            weights[value] += w
    return Dist(dict(weights), result.denom, capped(tail) if tail else NO_TAIL)


def _cut_combinations(dists: list[Dist], sides: list[list[tuple[Any, int]]]) -> list[int]:
    """How many combinations :func:`_with_a_cut` goes through, by the place of the first cut
    operand: the operands before it uncut, it cut, those after it anything."""
    counts = []
    for i, d in enumerate(dists):
        n = len(d.tail)
        for j, other in enumerate(dists):
            if j != i:
                n *= len(other.weights) if j < i else len(sides[j])
        counts.append(n)
    return counts


def _with_a_cut(dists: list[Dist], sides: list[list[tuple[Any, int]]],
                cut: list[list[tuple[Any, int]]]) -> Iterator[tuple[tuple, int]]:
    """Every combination of the operands' outcomes with at least one cut path in it, once:
    grouped by the first operand that is cut (those before it are not, those after it may
    be), with its weight."""
    for i in range(len(dists)):
        if not cut[i]:
            continue
        places = [list(d.weights.items()) for d in dists[:i]] + [cut[i]] + sides[i + 1:]
        for combo in product(*places):
            w = 1
            for _, wv in combo:
                w *= wv
            yield tuple(v for v, _ in combo), w
