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

import atexit
import dataclasses
import functools
import json
import os
import itertools
import math
import operator
from collections import Counter, defaultdict
from pathlib import Path
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


# ---- explosions followed deep: an enumerator written apart from the engine -----------------
#
# The engine follows explosions to ``explode_depth`` and reasons about what it cut
# (rulesengine.dice.beyond). This oracle shares none of that: each die's chain is enumerated
# here in plain Python to a much deeper depth (DEEP), and what *it* cuts is kept as a
# :class:`Cut` — an interval the value lies in, and an interval its mean lies in (exact where
# the rest of the chain is a fresh chain of the same dice, whose mean is the closed form
# "mean worth / (1 − p)", Wald's identity) — carried through interval arithmetic. So for any
# event it says "exactly p" where every cut path lies wholly inside or outside it, and an
# interval otherwise; and the mean exactly where every cut path's mean is known.

INF = math.inf
DEEP = 30

COUNTS: Counter = Counter()
"""What the oracle properties checked (expressions, exact claims, disagreements...),
written as JSON at exit when ``RULESENGINE_ORACLE_STATS=path`` is set."""


def _dump_counts() -> None:
    path = os.environ.get("RULESENGINE_ORACLE_STATS")
    if path and COUNTS:
        Path(path).write_text(json.dumps(dict(sorted(COUNTS.items())), indent=2), encoding="utf-8")


atexit.register(_dump_counts)
"""Extra dice one die may add in the oracle's enumeration (the engine's default is 10)."""

Num = Any  # an int, or ±INF where a bound is open


@dataclasses.dataclass(frozen=True)
class Cut:
    """The value of the paths the oracle cut: in [lo, hi], its mean over them in [mlo, mhi]."""

    lo: Num
    hi: Num
    mlo: Any
    mhi: Any

    @property
    def mean_known(self) -> bool:
        return self.mlo == self.mhi


class Maybe:
    """A yes/no the oracle's cut paths leave open (a mixture of yes and no)."""

    _it: Maybe | None = None

    def __new__(cls) -> Maybe:
        if cls._it is None:
            cls._it = super().__new__(cls)
        return cls._it

    def __repr__(self) -> str:
        return "Maybe()"


MAYBE = Maybe()


def _cut(v: Any) -> Cut:
    return v if isinstance(v, Cut) else Cut(v, v, Fraction(v), Fraction(v))


def _known(c: Cut) -> Any:
    """A cut whose interval is one number is that number."""
    return c.lo if c.lo == c.hi and c.lo not in (INF, -INF) else c


def o_add(a: Any, b: Any) -> Any:
    if not isinstance(a, Cut) and not isinstance(b, Cut):
        return a + b
    x, y = _cut(a), _cut(b)
    return _known(Cut(x.lo + y.lo, x.hi + y.hi, x.mlo + y.mlo, x.mhi + y.mhi))


def o_neg(a: Any) -> Any:
    if not isinstance(a, Cut):
        return -a
    return Cut(-a.hi, -a.lo, -a.mhi, -a.mlo)


def o_sub(a: Any, b: Any) -> Any:
    return o_add(a, o_neg(b))


def o_scale(k: int, a: Any) -> Any:
    if not isinstance(a, Cut):
        return k * a
    if k == 0:
        return 0
    if k < 0:
        return o_neg(o_scale(-k, a))
    return Cut(a.lo * k, a.hi * k, a.mlo * k, a.mhi * k)


def o_max(a: Any, b: Any) -> Any:
    if not isinstance(a, Cut) and not isinstance(b, Cut):
        return max(a, b)
    x, y = _cut(a), _cut(b)
    if x.lo >= y.hi:
        return a
    if y.lo >= x.hi:
        return b
    # E max(X, Y) >= max(E X, E Y); max(X, Y) <= X + max(0, Y - X) <= X + max(0, hi_Y - lo_X)
    up = min(x.mhi + max(0, y.hi - x.lo), y.mhi + max(0, x.hi - y.lo), max(x.hi, y.hi))
    return Cut(max(x.lo, y.lo), max(x.hi, y.hi), max(x.mlo, y.mlo), up)


def o_min(a: Any, b: Any) -> Any:
    return o_neg(o_max(o_neg(a), o_neg(b)))


def o_abs(a: Any) -> Any:
    if not isinstance(a, Cut):
        return abs(a)
    if a.lo >= 0:
        return a
    if a.hi <= 0:
        return o_neg(a)
    return Cut(0, max(-a.lo, a.hi), max(0, a.mlo, -a.mhi), max(-a.lo, a.hi))


def o_compare(op: str, a: Any, b: Any) -> Any:
    """``a op b``: a yes/no where every value of the cut paths gives one answer, else MAYBE."""
    if not isinstance(a, Cut) and not isinstance(b, Cut):
        return CONDITION_MEANING[op](a, b)
    d = _cut(o_sub(a, b))  # whole numbers in [lo, hi]
    answers = {CONDITION_MEANING[op](v, 0) for v in _probe_points(d.lo, d.hi)}
    return answers.pop() if len(answers) == 1 else MAYBE


def _probe_points(lo: Num, hi: Num) -> list[Any]:
    """Enough values of [lo, hi] to tell every comparison with 0 apart: its ends and what
    lies between them and around 0."""
    pts = [lo, hi] + [v for v in (-1, 0, 1) if lo <= v <= hi]
    return pts


def o_not(a: Any) -> Any:
    return MAYBE if a is MAYBE else not a


def o_and(a: Any, b: Any) -> Any:
    if a is False or b is False:
        return False
    if a is MAYBE or b is MAYBE:
        return MAYBE
    return True


def o_or(a: Any, b: Any) -> Any:
    return o_not(o_and(o_not(a), o_not(b)))


def o_hull(values: Iterable[Any]) -> Any:
    """One value standing for several (a mixture of them in unknown shares)."""
    vals = list(values)
    if all(v is True or v is False or v is MAYBE for v in vals):
        return vals[0] if len(set(map(id, vals))) == 1 else MAYBE
    cuts = [_cut(v) for v in vals]
    return _known(Cut(min(c.lo for c in cuts), max(c.hi for c in cuts),
                      min(c.mlo for c in cuts), max(c.mhi for c in cuts)))


def o_if(cond: Any, a: Any, b: Any) -> Any:
    if cond is MAYBE:
        return o_hull([a, b])
    return a if cond else b


class Deep:
    """A distribution as the oracle knows it: values (numbers, yes/no, or tuples of numbers
    for a roll read die by die) with their exact probabilities (whole-number weights over
    one denominator, for speed), where a value may be a :class:`Cut` (or :data:`MAYBE`)
    standing for the paths cut at the oracle's depth."""

    MAX_CUTS = 6  # cut values kept apart in one distribution; more are merged (a mixture)

    def __init__(self, weights: dict[Any, int], denom: int = 1) -> None:
        self.weights = _merge_cuts(weights, self.MAX_CUTS)
        self.denom = denom

    @staticmethod
    def point(v: Any) -> Deep:
        return Deep({v: 1}, 1)

    @staticmethod
    def uniform(values: Iterable[Any]) -> Deep:
        out: dict = defaultdict(int)
        n = 0
        for v in values:
            out[v] += 1
            n += 1
        return Deep(dict(out), n)

    def map(self, fn: Callable[[Any], Any]) -> Deep:
        out: dict = defaultdict(int)
        for v, w in self.weights.items():
            out[fn(v)] += w
        return Deep(dict(out), self.denom)

    def combine(self, other: Deep, fn: Callable[[Any, Any], Any]) -> Deep:
        """fn of two independent values."""
        out: dict = defaultdict(int)
        for a, w in self.weights.items():
            for b, u in other.weights.items():
                out[fn(a, b)] += w * u
        return Deep(dict(out), self.denom * other.denom)

    def bind(self, fn: Callable[[Any], Deep]) -> Deep:
        """A distribution chosen by this one's value (a dice count that is a roll)."""
        parts = [(w, fn(a)) for a, w in self.weights.items()]
        denom = self.denom * math.lcm(*(d.denom for _, d in parts))
        out: dict = defaultdict(int)
        for w, d in parts:
            scale = denom // (self.denom * d.denom) * w
            for b, u in d.weights.items():
                out[b] += u * scale
        return Deep(dict(out), denom)

    # ---- what the oracle can say --------------------------------------------------------
    def cut_mass(self) -> Fraction:
        return Fraction(sum(w for v, w in self.weights.items() if _is_cut(v)), self.denom)

    def probability(self, event: Callable[[Any], Any]) -> tuple[Fraction, Fraction]:
        """[low, high] of P(event), ``event`` answering True, False or MAYBE for each value
        (a Cut included); low == high where every cut path is decided."""
        low = high = 0
        for v, w in self.weights.items():
            answer = event(v)
            if answer is MAYBE:
                high += w
            elif answer:
                low += w
                high += w
        return Fraction(low, self.denom), Fraction(high, self.denom)

    def mean(self) -> tuple[Any, Any]:
        """[low, high] of the mean (numbers only)."""
        low: Any = Fraction(0)
        high: Any = Fraction(0)
        for v, w in self.weights.items():
            c = _cut(v)
            low += w * c.mlo
            high += w * c.mhi
        return low / self.denom, high / self.denom


def _is_cut(v: Any) -> bool:
    if isinstance(v, tuple):
        return any(_is_cut(x) for x in v)
    return isinstance(v, Cut) or v is MAYBE


def _merge_cuts(weights: dict[Any, int], keep: int) -> dict[Any, int]:
    """At most ``keep`` cut values (plain values untouched) of each shape (for tuples: the
    same plain parts, cuts elsewhere): neighbours merged into one standing for both, bounds
    widened and mean bounds mixed by their weights, part by part."""
    groups: dict[Any, list[tuple[Any, int]]] = defaultdict(list)
    for v, w in weights.items():
        if isinstance(v, Cut):
            groups["cut"].append((v, w))
        elif isinstance(v, tuple) and any(isinstance(x, Cut) for x in v):
            groups[tuple("cut" if isinstance(x, Cut) else x for x in v)].append((v, w))
    if all(len(g) <= keep for g in groups.values()):
        return weights
    out = dict(weights)
    for members in groups.values():
        if len(members) <= keep:
            continue
        for v, _ in members:
            del out[v]
        members.sort(key=lambda vw: _sort_key(vw[0]))
        size = -(-len(members) // keep)
        for i in range(0, len(members), size):
            group = members[i:i + size]
            merged = _merged([v for v, _ in group], [w for _, w in group])
            out[merged] = out.get(merged, 0) + sum(w for _, w in group)
    return out


def _sort_key(v: Any) -> tuple:
    parts = v if isinstance(v, tuple) else (v,)
    return tuple((x.lo, x.hi) for x in parts if isinstance(x, Cut))  # the plain parts are the group's


def _merged(values: list[Any], weights: list[int]) -> Any:
    if isinstance(values[0], tuple):
        return tuple(_merged([v[i] for v in values], weights) for i in range(len(values[0])))
    if all(not isinstance(v, Cut) for v in values) and len(set(values)) == 1:
        return values[0]
    cuts = [_cut(v) for v in values]
    mass = sum(weights)
    return _known(Cut(min(c.lo for c in cuts), max(c.hi for c in cuts),
                      _mix([(c.mlo, w) for c, w in zip(cuts, weights)], mass),
                      _mix([(c.mhi, w) for c, w in zip(cuts, weights)], mass)))


def _mix(values: list[tuple[Any, int]], mass: int) -> Any:
    if any(v in (INF, -INF) for v, _ in values):
        return sum(v for v, _ in values if v in (INF, -INF))  # an open end stays open
    return sum((Fraction(v) * w for v, w in values), Fraction(0)) / mass


@dataclasses.dataclass(frozen=True)
class DieSpec:
    """One kind of die as the dice language writes it (docs/dice-language.md, "Order of
    modifiers"): its faces, how it explodes (None, "!", "!!", "!p", "!o") and on which
    faces, clamps, and a success count."""

    faces: tuple[int, ...]
    explode: str | None = None
    explodes_on: frozenset[int] = frozenset()
    low: int | None = None  # min
    high: int | None = None  # max
    success: int | None = None  # cs>=success

    def clamp(self, v: Num) -> Num:
        if self.low is not None and v < self.low:
            v = self.low
        if self.high is not None and v > self.high:
            v = self.high
        return v

    def worth(self, v: Num) -> Num:
        """A die's value in the term's total: clamped, then counted (1 or 0) under ``cs``."""
        v = self.clamp(v)
        if self.success is None:
            return v
        return 1 if v >= self.success else 0

    @property
    def p_explode(self) -> Fraction:
        return Fraction(sum(1 for f in self.faces if f in self.explodes_on), len(self.faces))


def _fresh_chain(faces: tuple[int, ...], explodes_on: frozenset[int], worth: Callable[[int], Num]) -> Cut:
    """A chain of dice thrown until one does not explode, each adding ``worth(face)``: its
    bounds, and its mean in closed form, E = E[worth of one die] / (1 − p) (the k-th die is
    thrown with chance p^(k−1), whatever it then shows)."""
    p = Fraction(sum(1 for f in faces if f in explodes_on), len(faces))
    stop = [worth(f) for f in faces if f not in explodes_on]
    go = [worth(f) for f in faces if f in explodes_on]
    lo = -INF if any(w < 0 for w in go) else min(stop)
    hi = INF if any(w > 0 for w in go) else max(stop)
    mean = Fraction(sum(worth(f) for f in faces), len(faces)) / (1 - p)
    return Cut(lo, hi, mean, mean)


def die_chain(spec: DieSpec, depth: int = DEEP,
              features: Callable[[int, int], tuple[int, ...]] | None = None) -> Deep:
    """One die and the dice its explosions add, enumerated to ``depth`` extra dice.

    Its value is ``spec.worth`` summed over the chain, or with ``features(face, index)``
    (index 0: the first throw, else an added die) a tuple of such sums (a roll read die by
    die: its total, how many show 1, how many 1s on the first throw...); features of
    added dice must not depend on which added die (index >= 1) they are. A chain still
    exploding after ``depth`` added dice is cut: it has its sum so far plus a fresh chain
    of added dice, whose bounds and mean :func:`_fresh_chain` gives."""
    faces, n = spec.faces, len(spec.faces)
    if features is None:
        def features(face: int, index: int) -> tuple[int, ...]:
            if spec.explode == "!p" and index > 0:
                return (spec.worth(face - 1),)
            return (spec.worth(face),)
    if spec.explode is None:
        return Deep.uniform(_one(features(f, 0)) for f in faces)
    if spec.explode == "!!":
        return _compound_chain(spec, depth)
    out: dict = defaultdict(int)
    if spec.explode == "!o":
        for f in faces:
            first = features(f, 0)
            if f in spec.explodes_on:
                for g in faces:
                    out[_one(_vadd(first, features(g, 1)))] += 1
            else:
                out[_one(first)] += n
        return Deep(dict(out), n * n)
    width = len(features(faces[0], 0))
    rest = tuple(_fresh_chain(faces, spec.explodes_on, lambda f, j=j: features(f, 1)[j]) for j in range(width))
    # weights over n^(depth + 1): a path ending at die i weighs n^(depth - i)
    going: dict[tuple, int] = {tuple([0] * width): 1}
    for index in range(depth + 1):
        nxt: dict[tuple, int] = defaultdict(int)
        scale = n ** (depth - index)
        for sums, q in going.items():
            for f in faces:
                s = _vadd(sums, features(f, index))
                if f not in spec.explodes_on:
                    out[_one(s)] += q * scale
                elif index < depth:
                    nxt[s] += q
                else:
                    out[_one(tuple(o_add(a, r) for a, r in zip(s, rest)))] += q
        going = nxt
    return Deep(dict(out), n ** (depth + 1))


def _vadd(a: tuple, b: tuple) -> tuple:
    return tuple(x + y for x, y in zip(a, b))


def _one(t: tuple) -> Any:
    return t[0] if len(t) == 1 else t


def _compound_chain(spec: DieSpec, depth: int) -> Deep:
    """``!!``: the chain's faces summed into one die, which is then clamped and counted."""
    faces, n = spec.faces, len(spec.faces)
    rest = _fresh_chain(faces, spec.explodes_on, lambda f: f)  # the raw sum still to come
    out: dict = defaultdict(int)
    going: dict[int, int] = {0: 1}
    for index in range(depth + 1):
        nxt: dict[int, int] = defaultdict(int)
        scale = n ** (depth - index)
        for s, q in going.items():
            for f in faces:
                if f not in spec.explodes_on:
                    out[spec.worth(s + f)] += q * scale
                elif index < depth:
                    nxt[s + f] += q
                else:
                    out[_compound_cut(spec, s + f, rest)] += q
        going = nxt
    return Deep(dict(out), n ** (depth + 1))


def _compound_cut(spec: DieSpec, s: int, rest: Cut) -> Any:
    """A compounded die cut with ``s`` so far: worth(s + R), R the fresh chain's sum (worth
    is monotone: a clamp, then a count of at least)."""
    lo, hi = spec.worth(s + rest.lo), spec.worth(s + rest.hi)
    if lo == hi:
        return lo
    low_idle = spec.low is None or spec.low <= s + rest.lo
    high_idle = spec.high is None or spec.high >= s + rest.hi
    if low_idle and high_idle and spec.success is None:  # no clamp can bite: the sum itself
        return Cut(lo, hi, s + rest.mlo, s + rest.mhi)
    return Cut(lo, hi, Fraction(lo) if lo != -INF else -INF, Fraction(hi) if hi != INF else INF)


def pool(chain: Deep, count: int) -> Deep:
    """The sum (or tuple of sums) of ``count`` independent chains: brute-force convolution."""
    add = (lambda a, b: tuple(o_add(x, y) for x, y in zip(a, b))) if _is_tuple_dist(chain) else o_add
    zero = tuple([0] * len(next(iter(chain.weights)))) if _is_tuple_dist(chain) else 0
    total = Deep.point(zero)
    for _ in range(count):
        total = total.combine(chain, add)
    return total


def _is_tuple_dist(d: Deep) -> bool:
    return isinstance(next(iter(d.weights)), tuple)


# ---- expressions the deep oracle evaluates -------------------------------------------------
#
# Each node renders itself as dice-language text and works out its own distribution with
# the functions above; tests/dice_grammar.py draws trees of them. Every node is its own
# roll (a tree, not a graph), so children are independent and their distributions combine
# by product.


class ONode:
    leaf = False

    def text(self) -> str:
        raise NotImplementedError

    def deep(self, env: dict, depth: int) -> Deep:
        raise NotImplementedError

    def wrapped(self) -> str:
        return self.text() if self.leaf else f"({self.text()})"


@dataclasses.dataclass(frozen=True)
class OLit(ONode):
    value: int

    @property
    def leaf(self) -> bool:  # type: ignore[override]
        return self.value >= 0

    def text(self) -> str:
        return str(self.value)

    def deep(self, env: dict, depth: int) -> Deep:
        return Deep.point(self.value)


@dataclasses.dataclass(frozen=True)
class OName(ONode):
    name: str
    leaf = True

    def text(self) -> str:
        return self.name

    def deep(self, env: dict, depth: int) -> Deep:
        return Deep.point(env[self.name])


@dataclasses.dataclass(frozen=True)
class OTerm(ONode):
    """A dice term: ``count`` dice of ``spec`` (count: a number, a name, or ("roll", k): 1dk)."""

    written: str
    spec: DieSpec
    count: Any
    leaf = True

    def text(self) -> str:
        return self.written

    def deep(self, env: dict, depth: int) -> Deep:
        chain = die_chain(self.spec, depth)
        if isinstance(self.count, int):
            return pool(chain, self.count)
        if isinstance(self.count, str):
            return pool(chain, env[self.count])
        return Deep.uniform(range(1, self.count[1] + 1)).bind(lambda n: pool(chain, n))


_BINARY = {"+": o_add, "-": o_sub, "and": o_and, "or": o_or}


@dataclasses.dataclass(frozen=True)
class OBinary(ONode):
    op: str
    a: ONode
    b: ONode

    def text(self) -> str:
        return f"{self.a.wrapped()} {self.op} {self.b.wrapped()}"

    def deep(self, env: dict, depth: int) -> Deep:
        if self.op in CONDITION_MEANING:
            decided = _compared_forever(self.op, self.a, self.b, env)
            if decided is not None:
                return decided
            fn: Callable[[Any, Any], Any] = lambda x, y: o_compare(self.op, x, y)  # noqa: E731
        else:
            fn = _BINARY[self.op]
        return self.a.deep(env, depth).combine(self.b.deep(env, depth), fn)


@dataclasses.dataclass(frozen=True)
class OScale(ONode):
    k: int
    a: ONode

    def text(self) -> str:
        return f"{self.k} * {self.a.wrapped()}"

    def deep(self, env: dict, depth: int) -> Deep:
        return self.a.deep(env, depth).map(lambda v: o_scale(self.k, v))


@dataclasses.dataclass(frozen=True)
class OCall(ONode):
    fn: str  # max, min, abs, not
    args: tuple[ONode, ...]
    leaf = True

    def text(self) -> str:
        if self.fn == "not":
            return f"not {self.args[0].wrapped()}"
        return f"{self.fn}({', '.join(a.text() for a in self.args)})"

    def deep(self, env: dict, depth: int) -> Deep:
        dists = [a.deep(env, depth) for a in self.args]
        if self.fn == "abs":
            return dists[0].map(o_abs)
        if self.fn == "not":
            return dists[0].map(o_not)
        fn = o_max if self.fn == "max" else o_min
        out = dists[0]
        for d in dists[1:]:
            out = out.combine(d, fn)
        return out


@dataclasses.dataclass(frozen=True)
class OIf(ONode):
    cond: ONode
    then: ONode
    other: ONode
    leaf = True

    def text(self) -> str:
        return f"if({self.cond.text()}, {self.then.text()}, {self.other.text()})"

    def deep(self, env: dict, depth: int) -> Deep:
        a, b = self.then.deep(env, depth), self.other.deep(env, depth)
        return self.cond.deep(env, depth).bind(
            lambda k: a if k is True else b if k is False else a.combine(b, lambda x, y: o_hull([x, y])))


# ---- a difference of two open-ended dice, in closed form ------------------------------------
#
# One dS! exploding on its top face S ends on a·S + b (a ≥ 0 tops, then 0 < b < S) with
# probability (1/S)^(a+1). X − Y ≥ t for X a dS!, Y a dT! is then a sum over the last faces
# (b, e) of a double geometric series over the tops (a, c): Σ_c (1/T)^c Σ_{a ≥ a0(c)} (1/S)^a
# with a0(c) = max(0, ⌈(t − b + e + c·T) / S⌉); once positive, c → c + S/g raises a0 by T/g
# (g = gcd(S, T)), so the sum over c is geometric by blocks of S/g.


def open_difference_at_least(s: int, t: int, threshold: int) -> Fraction:
    """P(dS! − dT! ≥ threshold), both followed forever, summed by hand over the last faces."""
    x, y = Fraction(1, s), Fraction(1, t)
    g = math.gcd(s, t)
    block, rise = s // g, t // g
    total = Fraction(0)
    for b in range(1, s):
        for e in range(1, t):
            u = threshold - b + e  # need a·S − c·T ≥ u
            first = 0 if u > 0 else (-u) // t + 1  # from here on u + c·T > 0, so a0 ≥ 1
            series = sum((y ** c / (1 - x) for c in range(first)), Fraction(0))
            head = sum((y ** c * x ** -((-(u + c * t)) // s) / (1 - x) for c in range(first, first + block)),
                       Fraction(0))
            series += head / (1 - y ** block * x ** rise)
            total += x * y * series
    return total


def _taken(node: Any, env: dict) -> Any:
    """``node`` with each ``if()`` whose condition is known before rolling (it rolls no dice:
    one value, worked out with ``env``) replaced by the branch it takes (``if(flag, 1d4!,
    1d8!)`` with flag true is ``1d4!``)."""
    while isinstance(node, OIf):
        known = node.cond.deep(env, 1).weights
        if len(known) != 1 or not isinstance(next(iter(known)), bool):
            break
        node = node.then if next(iter(known)) else node.other
    return node


def open_difference(node: Any, env: dict) -> tuple[int, int] | None:
    """(S, T) where ``node`` is one plain dS! minus one plain dT! (exploding on the top face
    alone, nothing else), else None."""
    if not (isinstance(node, OBinary) and node.op == "-"):
        return None
    sizes = [plain_open_size(term, env) for term in (node.a, node.b)]
    if sizes[0] is None or sizes[1] is None:
        return None
    return sizes[0], sizes[1]


def plain_open_size(term: Any, env: dict) -> int | None:
    """S where ``term`` (an ``if()`` on a known condition seen through) is one plain dS!
    exploding on its top face alone, nothing else; else None."""
    term = _taken(term, env)
    if not isinstance(term, OTerm):
        return None
    spec, n = term.spec, term.count if not isinstance(term.count, str) else env[term.count]
    size = len(spec.faces)
    if n != 1 or spec.faces != tuple(range(1, size + 1)) or spec.explode not in ("!", "!!") \
            or spec.explodes_on != frozenset({size}) or (spec.low, spec.high, spec.success) != (None, None, None):
        return None
    return size


# ---- sums and differences of open-ended dice, summed by their own shortest recurrence -------
#
# X − Y + R: X a sum of plain dS! (each ends on q·S + r, 0 < r < S, with (1/S)^(q+1)), Y
# another, R a whole number the deep oracle knows exactly, all independent. P(X − Y + R ≥ t)
# = Σ_y P(Y = y) · P(X + R ≥ y + t): the oracle lists the series' terms from convolutions of
# the dice's own probabilities, finds the shortest linear recurrence they satisfy by
# Berlekamp–Massey (not the engine's formula for it), checks it on enough terms to be sure
# (a recurrence of length at most B that holds on B consecutive terms of a sequence holds on
# all of it; B is the product of Y's and X's recurrences' lengths, each at most the sum of
# its sizes) and sums the series as a rational function at 1.


Kind = tuple  # one die that explodes: (S, the faces it explodes on) for its sides S (faces 1..S), a
# third entry k where its total is taken k times (``3 * 1d6!``), a fourth, 1, where each die its
# explosions add is worth one less (``!p``), and a fifth, each face's whole-number weight (faces
# 1..S), where rerolls make them unequal (``1d6ro1!``: 1, 7, 7, 7, 7, 7 over 36)


def _scale(kind: Kind) -> int:
    return kind[2] if len(kind) > 2 else 1


def _penalty(kind: Kind) -> int:
    return kind[3] if len(kind) > 3 else 0


def _weights(kind: Kind) -> tuple[tuple[int, ...], int]:
    """Each face's weight and their total: 1 of S each, or the kind's own."""
    if len(kind) > 4:
        return kind[4], sum(kind[4])
    return (1,) * kind[0], kind[0]


@dataclasses.dataclass(frozen=True)
class OpenSum:
    plus: tuple[Kind, ...]
    minus: tuple[Kind, ...]
    rest: tuple[tuple[int, Fraction], ...] = ((0, Fraction(1)),)

    def __add__(self, other: OpenSum) -> OpenSum:
        rest: dict[int, Fraction] = defaultdict(Fraction)
        for a, p in self.rest:
            for b, q in other.rest:
                rest[a + b] += p * q
        return OpenSum(tuple(sorted(self.plus + other.plus)), tuple(sorted(self.minus + other.minus)),
                       tuple(sorted((v, p) for v, p in rest.items() if p)))

    def __neg__(self) -> OpenSum:
        return OpenSum(self.minus, self.plus, tuple(sorted((-v, p) for v, p in self.rest)))

    def times(self, k: int) -> OpenSum:
        """k·(X − Y + R) for a whole k, not 0: each die's total taken |k| times, on the side k's sign says."""
        if k < 0:
            return (-self).times(-k)

        def scaled(kind: Kind) -> Kind:
            return (kind[0], kind[1], _scale(kind) * k, *kind[3:])

        return OpenSum(tuple(sorted(map(scaled, self.plus))), tuple(sorted(map(scaled, self.minus))),
                       tuple(sorted((v * k, p) for v, p in self.rest)))

    @property
    def crosses(self) -> bool:
        return bool(self.plus) and bool(self.minus)


def open_sum(node: Any, env: dict) -> OpenSum | None:
    """``node`` as X − Y + R where it is built with + and − from exploding terms with no
    other modifier (``2d6!``, ``1d20!=10!=20``) and parts the deep oracle knows exactly as
    whole numbers (no cut even one explosion deep: nothing in them explodes); else None."""
    node = _taken(node, env)
    if isinstance(node, OBinary) and node.op in ("+", "-"):
        a, b = open_sum(node.a, env), open_sum(node.b, env)
        if a is None or b is None:
            return None
        return a + (b if node.op == "+" else -b)
    if isinstance(node, OScale) and node.k:
        a = open_sum(node.a, env)
        return None if a is None else a.times(node.k)
    if isinstance(node, OTerm):
        found = plain_open_dice(node, env)
        if found is not None:
            return OpenSum((found[0],) * found[1], ())
    known = node.deep(env, 1)  # no cut one explosion deep: nothing explodes, so it is exact
    if not all(type(v) is int for v in known.weights):
        return None  # a cut, a yes/no, a roll read die by die
    return OpenSum((), (), tuple(sorted((v, Fraction(w, known.denom)) for v, w in known.weights.items() if w)))


def plain_open_dice(term: Any, env: dict) -> tuple[Kind, int] | None:
    """((S, faces it explodes on), n) where ``term`` is n ≥ 1 standard dS exploding on some
    (not all) of its faces, with no other modifier; ((S, faces, 1, 1), n) where they
    penetrate (``!p``) on faces of 2 or more."""
    spec, n = term.spec, term.count if not isinstance(term.count, str) else env[term.count]
    size = len(spec.faces)
    if not isinstance(n, int) or n < 1 or spec.faces != tuple(range(1, size + 1)) \
            or spec.explode not in ("!", "!!", "!p") \
            or not 0 < len(spec.explodes_on) < size or (spec.low, spec.high, spec.success) != (None, None, None):
        return None
    if spec.explode == "!p":
        return ((size, tuple(sorted(spec.explodes_on)), 1, 1), n) if min(spec.explodes_on) >= 2 else None
    return (size, tuple(sorted(spec.explodes_on))), n


def _one_chain(kind: Kind, cap: int) -> list[int]:
    """P(one die's chain totals v) · S^cap for v < cap, worked out die by die: it ends on a
    face it doesn't explode on, or shows one it does and goes on with the dice added, each
    worth its face (less 1 under ``!p``: ``more``, what they add, may be 0 but no die that
    explodes adds 0, so a total v takes at most v + 1 dice)."""
    s, explodes, k, penalty = kind[0], kind[1], _scale(kind), _penalty(kind)
    weight, total = _weights(kind)
    top = total ** cap  # below it the weights over total^cap are whole: v takes at most cap dice
    more = [0] * cap  # P(the dice an explosion adds total v) · total^cap
    for v in range(cap):
        f = v + penalty
        w = top // total * weight[f - 1] if 1 <= f <= s and f not in explodes else 0
        for f in explodes:
            if 0 < f - penalty <= v:
                w += more[v - (f - penalty)] // total * weight[f - 1]
        more[v] = w
    out = [0] * cap
    for v in range(1, cap):
        w = top // total * weight[v - 1] if v <= s and v not in explodes else 0
        for f in explodes:
            if f <= v:
                w += more[v - f] // total * weight[f - 1]
        out[v] = w
    if k == 1:
        return out
    spread = [0] * cap  # the total taken k times: v becomes k·v
    for v in range(1, (cap - 1) // k + 1):
        spread[v * k] = out[v]
    return spread


def chain_sums(kinds: tuple[Kind, ...], cap: int) -> list[Fraction]:
    """P(the sum of one chain per kind = v) for v < cap, by convolution of whole numbers over
    one denominator (exact below the cap: every die adds 1 or more)."""
    weights = [1] + [0] * (cap - 1)
    denom = 1
    for kind in kinds:
        die = _one_chain(kind, cap)
        out = [0] * cap
        for i, x in enumerate(weights):
            if x:
                for j in range(cap - i):
                    if die[j]:
                        out[i + j] += x * die[j]
        weights, denom = out, denom * _weights(kind)[1] ** cap
    return [Fraction(w, denom) for w in weights]


_SUMS: dict[tuple[tuple[Kind, ...], int], list[Fraction]] = {}
_RECURRENCES: dict[OpenSum, list[Fraction]] = {}


def _sums(kinds: tuple[Kind, ...], cap: int) -> list[Fraction]:
    cap = -(-cap // 128) * 128
    if (kinds, cap) not in _SUMS:
        _SUMS[kinds, cap] = chain_sums(kinds, cap)
    return _SUMS[kinds, cap]


def shortest_recurrence(seq: list[Fraction]) -> list[Fraction]:
    """Berlekamp–Massey over the rationals: the shortest c (c[0] = 1) with
    Σ_j c[j]·seq[n − j] = 0 for every n ≥ len(c) − 1 the sequence reaches."""
    c, b = [Fraction(1)], [Fraction(1)]
    length, shift, last = 0, 1, Fraction(1)
    for n in range(len(seq)):
        d = sum((c[j] * seq[n - j] for j in range(min(length, len(c) - 1) + 1)), Fraction(0))
        if d == 0:
            shift += 1
            continue
        coef = d / last
        new = c + [Fraction(0)] * max(0, len(b) + shift - len(c))
        for j, x in enumerate(b):
            new[j + shift] -= coef * x
        if 2 * length <= n:
            b, length, last, shift = c, n + 1 - length, d, 1
        else:
            shift += 1
        c = new
    return (c + [Fraction(0)] * (length + 1))[:length + 1]


def _holds(c: list[Fraction], seq: list[Fraction]) -> bool:
    order = len(c) - 1
    return all(sum((c[j] * seq[n - j] for j in range(order + 1)), Fraction(0)) == 0 for n in range(order, len(seq)))


def open_sum_at_least(law: OpenSum, t: int) -> Fraction:
    """P(X − Y + R ≥ t), followed forever (``law.crosses``)."""
    lo, hi = law.rest[0][0], law.rest[-1][0]
    # B: no recurrence of the terms is longer than the product of the lengths of Y's and of
    # X + R's (each at most one more than the sum of its sizes, R's width added to X's)
    bound = (sum(k[0] * _scale(k) for k in law.plus) + hi - lo + 1) * (sum(k[0] * _scale(k) for k in law.minus) + 1)
    head = max(0, hi - t + 2)  # before it, X + R ≥ y + t may still read R's first values
    count = head + 2 * bound + 40
    cap = count + abs(t) + hi - lo + 2
    px, py = _sums(law.plus, cap), _sums(law.minus, cap)
    cdf = {}  # P(X + R <= n), exact while n < cap + lo
    running = Fraction(0)
    for n in range(lo, count + t + 1):
        running += sum((p * px[n - r] for r, p in law.rest if 0 <= n - r < len(px)), Fraction(0))
        cdf[n] = running

    def x_at_least(m: int) -> Fraction:
        return Fraction(1) if m <= lo else 1 - cdf[m - 1]

    terms = [py[y] * x_at_least(y + t) for y in range(head, count)]
    c = _RECURRENCES.get(law)
    if c is None or not _holds(c, terms[:bound + len(c) + 2]):
        c = _RECURRENCES[law] = shortest_recurrence(terms)
        assert 2 * (len(c) - 1) <= len(terms) - 40, "more terms needed to trust the recurrence"
    assert len(c) - 1 <= bound and _holds(c, terms[:bound + len(c) + 2])
    order = len(c) - 1
    numerator = sum((terms[k] * sum(c[:order - k], Fraction(0)) for k in range(order)), Fraction(0))
    return sum((py[y] * x_at_least(y + t) for y in range(head)), Fraction(0)) + numerator / sum(c, Fraction(0))


def _compared_forever(op: str, a: Any, b: Any, env: dict) -> Deep | None:
    """``a op b`` where ``a − b`` is a sum and difference of open-ended dice with dice on both
    sides (:func:`open_sum`): asked as ``a − b op 0``, followed forever; else None."""
    if op not in ("<", "<=", ">", ">=", "==", "!="):
        return None
    left, right = open_sum(a, env), open_sum(b, env)
    if left is None or right is None or not (left + -right).crosses:
        return None
    law = left + -right
    ge = {k: open_sum_at_least(law, k) for k in (0, 1)}
    p = {">=": ge[0], ">": ge[1], "<": 1 - ge[0], "<=": 1 - ge[1], "==": ge[0] - ge[1], "!=": 1 - ge[0] + ge[1]}[op]
    return Deep({True: p.numerator, False: p.denominator - p.numerator}, p.denominator)


def open_extreme_mean(sizes: list[int], highest: bool) -> Fraction:
    """E[max] (``highest``) or E[min] of one plain dS! for each size, followed forever, written
    here apart from the engine: E[X] = Σ_{m ≥ 1} P(X ≥ m); P(dS! ≥ m) for m = q·S + r + 1
    (0 ≤ r < S) is (1/S)^q · (S − r)/S; min: the product over the dice; max: 1 − the product
    of their chances below m. Past every size's whole tops, each m's term is the one L = lcm
    earlier times Π (1/S)^(L/S) (for max: expanded over the sets of dice, each geometric)."""
    def at_least(s: int, m: int) -> Fraction:
        q, r = divmod(m - 1, s)
        return Fraction(s - r, s) * Fraction(1, s) ** q

    def series(group: tuple[int, ...]) -> Fraction:
        period = math.lcm(*group)
        ratio = Fraction(1)
        for s in group:
            ratio *= Fraction(1, s) ** (period // s)
        block = Fraction(0)
        for m in range(1, period + 1):
            term = Fraction(1)
            for s in group:
                term *= at_least(s, m)
            block += term
        return block / (1 - ratio)

    if not highest:
        return series(tuple(sizes))
    total = Fraction(0)
    for k in range(1, len(sizes) + 1):
        for group in itertools.combinations(sizes, k):
            total += series(group) if k % 2 else -series(group)
    return total


# ---- the highest or lowest of exploding dice, and series summed by their recurrence ----------------


def one_at_least(s: int, m: int) -> Fraction:
    if m <= 1:
        return Fraction(1)
    a, r = divmod(m - 1, s)
    return Fraction(s - r, s ** (a + 1))


def extreme_at_least(sizes: tuple[int, ...], highest: bool, m: int) -> Fraction:
    if highest:
        return 1 - math.prod((1 - one_at_least(s, m) for s in sizes), start=Fraction(1))
    return math.prod((one_at_least(s, m) for s in sizes), start=Fraction(1))


def degree(sizes: tuple[int, ...], highest: bool) -> int:
    """A bound on the degree of the denominator of the highest's or lowest's chances."""
    sets = [c for k in range(1, len(sizes) + 1) for c in itertools.combinations(sizes, k)] if highest else [sizes]
    return sum(math.lcm(*t) for t in sets)


def series_sum(term, bound: int) -> Fraction:
    """Σ_{y ≥ 0} term(y), the terms satisfying a linear recurrence of at most ``bound`` terms."""
    count = 2 * bound + 40
    terms = [term(y) for y in range(count)]
    c = shortest_recurrence(terms)
    order = len(c) - 1
    assert order <= bound and 2 * order <= count - 40
    assert all(sum((c[j] * terms[n - j] for j in range(order + 1)), Fraction(0)) == 0 for n in range(order, count))
    numerator = sum((terms[k] * sum(c[:order - k], Fraction(0)) for k in range(order)), Fraction(0))
    return numerator / sum(c, Fraction(0))


def extreme_minus_sum(sizes, highest, minus: tuple[int, ...], t: int) -> Fraction:
    """P(max/min of dS! over ``sizes`` − (a sum of one dS! per ``minus``) ≥ t)."""
    bound = (degree(sizes, highest) + 1) * (sum(minus) + 1)
    py = chain_sums(tuple((s, (s,)) for s in minus), 2 * bound + 60)
    return series_sum(lambda y: py[y] * extreme_at_least(sizes, highest, y + t), bound)


def extreme_minus_extreme(a, a_high, b, b_high, t: int) -> Fraction:
    bound = (degree(a, a_high) + 1) * (degree(b, b_high) + 1)

    def term(y: int) -> Fraction:
        p_y = extreme_at_least(b, b_high, y) - extreme_at_least(b, b_high, y + 1) if y >= 1 else Fraction(0)
        return p_y * extreme_at_least(a, a_high, y + t)

    return series_sum(term, bound)


# ---- symbol dice exploding: the issue 34 system's ring and skill dice, and their chains ------------

RING = [[], ["opportunity", "strife"], ["opportunity"], ["success", "strife"], ["success"], ["explosive", "strife"]]
SKILL = [[], [], ["opportunity"], ["opportunity"], ["opportunity"], ["success", "strife"], ["success", "strife"],
         ["success"], ["success"], ["success", "opportunity"], ["explosive", "strife"], ["explosive"]]


def symbols_at_least(faces: list[list[str]], explodes: set[int], names: tuple[str, ...], n: int, k: int) -> Fraction:
    """P(n chains of the die, each face place in ``explodes`` rolling again, show ``k`` or
    more of the symbols ``names``), solved chain by chain and need by need."""
    p = Fraction(1, len(faces))
    shows = [sum(s in names for s in face) for face in faces]

    @functools.cache
    def chains(left: int, need: int) -> Fraction:
        if need <= 0:
            return Fraction(1)
        if left == 0:
            return Fraction(0)
        total, back = Fraction(0), Fraction(0)
        for place, s in enumerate(shows, start=1):
            if place in explodes:
                if s == 0:
                    back += p  # the chain comes back to where it was
                else:
                    total += p * chains(left, need - s)
            else:
                total += p * chains(left - 1, need - s)
        return total / (1 - back)

    return chains(n, k)


def faces_text(faces: list[list[str]]) -> str:
    """A symbol die's faces as a ruleset writes them: ``[[], [success, strife], …]``."""
    return "[" + ", ".join("[" + ", ".join(f) + "]" for f in faces) + "]"
