"""What a dice term means: one die's rerolls and explosions, then the pool's keeps and counts.

A dice term's modifiers are applied in one fixed order, whatever order they are written
in (docs/dice-language.md, "Order of modifiers"):

1. **roll** each die; **reroll** it (``ro``: once if it matches; ``r``: until it doesn't);
2. **explode**: a die whose face (after rerolls) meets the condition rolls one more die
   (itself rerolled the same way): ``!`` adds it to the pool, ``!!`` adds its face to the
   same die, ``!p`` adds it to the pool worth one less; at most ``explode_depth`` times
   for each die of the original pool;
3. **clamp** each die's value (``min``/``max``);
4. **keep/drop** (``kh kl dh dl``, in the order written) among all the pool's dice,
   exploded ones included;
5. the term's value: the number of kept dice meeting ``cs`` minus those meeting ``cf``
   when counting, else the sum of the kept dice.

:class:`PoolSpec` holds these rules once. Two readings of it follow: :func:`roll_pool`
rolls one pool from a dice source and records every die (for traces and for faces read
off physical dice), and :func:`pool_dist` computes the exact distribution of the term's
value. Tests check the two against each other by feeding :func:`roll_pool` every possible
sequence of faces.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from typing import Callable, NamedTuple, Protocol

from .dist import Budget, Dist, step_cost, sum_of
from . import ast
from ..errors import InputError
from ..limits import Limits


@dataclass(frozen=True, slots=True)
class PoolSpec:
    """The rules of one dice term, independent of how many dice it rolls."""

    die: ast.Die
    rerolls: tuple[ast.Cond, ...] = ()
    reroll_once: bool = False
    explode: str | None = None  # "explode" | "compound" | "penetrate"
    explode_cond: ast.Cond | None = None
    low: int | None = None  # clamp: every die is at least this
    high: int | None = None  # clamp: every die is at most this
    keeps: tuple[tuple[str, int], ...] = ()
    successes: tuple[ast.Cond, ...] = ()
    failures: tuple[ast.Cond, ...] = ()

    @staticmethod
    def of(node: ast.Dice) -> "PoolSpec":
        rerolls, once, explode, cond = [], False, None, None
        lows, highs, keeps, succ, fail = [], [], [], [], []
        for m in node.modifiers:
            if isinstance(m, ast.Reroll):
                rerolls.append(m.cond)
                once = m.once
            elif isinstance(m, ast.Explode):
                explode, cond = m.kind, m.cond
            elif isinstance(m, ast.Clamp):
                (lows if m.kind == "min" else highs).append(m.n)
            elif isinstance(m, ast.Keep):
                keeps.append((m.kind, m.n))
            elif isinstance(m, ast.CountDice):
                (fail if m.failures else succ).append(m.cond)
        return PoolSpec(
            die=node.die,
            rerolls=tuple(rerolls),
            reroll_once=once,
            explode=explode,
            explode_cond=cond,
            low=max(lows) if lows else None,
            high=min(highs) if highs else None,
            keeps=tuple(keeps),
            successes=tuple(succ),
            failures=tuple(fail),
        )

    # ---- the rules, shared by both readings -------------------------------------------
    @property
    def plain(self) -> bool:
        """No modifier at all (``3d6``): every die rolled once, kept, worth its face."""
        return not (self.rerolls or self.explode or self.keeps or self.successes or self.failures) \
            and self.low is None and self.high is None

    @property
    def counting(self) -> bool:
        return bool(self.successes or self.failures)

    def is_rerolled(self, face: int) -> bool:
        return any(c(face) for c in self.rerolls)

    def is_kept_face(self, face: int) -> bool:
        return not self.is_rerolled(face)

    def explodes(self, face: int) -> bool:
        if self.explode is None:
            return False
        if self.explode_cond is None:
            return face == self.die.highest
        return self.explode_cond(face)

    def clamp(self, value: int) -> int:
        if self.low is not None and value < self.low:
            value = self.low
        if self.high is not None and value > self.high:
            value = self.high
        return value

    def is_success(self, value: int) -> bool:
        return any(c(value) for c in self.successes)

    def is_failure(self, value: int) -> bool:
        return any(c(value) for c in self.failures)

    def score(self, value: int) -> int:
        """What one kept die adds to the term: its value, or +1/−1/0 when counting."""
        if not self.counting:
            return value
        return self.is_success(value) - self.is_failure(value)

    def kept_range(self, n: int) -> tuple[int, int]:
        """Kept ranks [lo, hi) among n dice sorted from highest (rank 0) to lowest."""
        lo, hi = 0, n
        for kind, k in self.keeps:
            k = min(k, hi - lo)
            if kind == "kh":
                hi = lo + k
            elif kind == "kl":
                lo = hi - k
            elif kind == "dh":
                lo += k
            else:  # dl
                hi -= k
        return lo, hi


# ---- dice sources ------------------------------------------------------------------------


class DiceSource(Protocol):
    """Where faces come from when rolling: a random generator or faces typed by a player."""

    def draw(self, die: ast.Die) -> int: ...

    def draw_many(self, die: ast.Die, n: int) -> list[int]: ...

    def draw_allowed(self, die: ast.Die, allowed: Callable[[int], bool]) -> int: ...


def _randbelow(rng, n: int) -> int:
    """A uniform integer in [0, n) from ``getrandbits`` only.

    ``getrandbits`` is fully specified for Mersenne Twister, so a seed gives the same
    faces on every machine and Python version (``randrange``'s algorithm is not a
    documented guarantee).
    """
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


class RandomSource:
    """Faces from an injected ``random.Random`` (or any object with ``getrandbits``)."""

    __slots__ = ("rng",)

    def __init__(self, rng) -> None:
        self.rng = rng

    def draw(self, die: ast.Die) -> int:
        if die.custom is None:
            return 1 + _randbelow(self.rng, die.sides)  # type: ignore[arg-type]
        return die.custom[_randbelow(self.rng, len(die.custom))]

    def draw_many(self, die: ast.Die, n: int) -> list[int]:
        """n draws, the same as n calls of ``draw`` (the same bits in the same order),
        without a function call per die: pools of plain dice are the commonest roll."""
        if die.custom is not None:
            return [self.draw(die) for _ in range(n)]
        sides = die.sides
        k = sides.bit_length()  # type: ignore[union-attr]
        bits = self.rng.getrandbits
        faces = []
        for _ in range(n):
            r = bits(k)
            while r >= sides:  # type: ignore[operator]
                r = bits(k)
            faces.append(r + 1)
        return faces

    def draw_allowed(self, die: ast.Die, allowed: Callable[[int], bool]) -> int:
        faces = [f for f in die.faces if allowed(f)]
        return faces[_randbelow(self.rng, len(faces))]


def dice_source(*, rng=None, seed: int | str | None = None, faces=None) -> "RandomSource | FacesSource":
    """Where a roll's faces come from: physical dice typed in (``faces``), an injected
    ``rng``, or a ``seed`` (else fresh randomness). The one place every entry point — bare
    dice, checks and procedures — turns the caller's choice into a dice source."""
    if faces is not None:
        return FacesSource(faces)
    if rng is not None and seed is not None:
        raise InputError("give either rng or seed, not both")
    return RandomSource(rng if rng is not None else random.Random(seed))


class FacesError(Exception):
    """Raised by FacesSource; the evaluator adds the position and the error code."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


class FacesSource:
    """Faces read off physical dice, consumed in the order the roll needs them."""

    __slots__ = ("faces", "used")

    def __init__(self, faces) -> None:
        self.faces = list(faces)
        self.used = 0

    def draw(self, die: ast.Die) -> int:
        if self.used >= len(self.faces):
            raise FacesError(
                f"only {len(self.faces)} face{'s' if len(self.faces) != 1 else ''} given, "
                f"but the roll needs more (next: a {die.text})",
                "give one face per die, in the order the dice are read",
            )
        face = self.faces[self.used]
        self.used += 1
        ok = isinstance(face, int) and not isinstance(face, bool) and (
            1 <= face <= die.sides if die.custom is None else face in die.custom)
        if not ok:
            raise FacesError(f"face {face!r} (number {self.used} given) cannot come up on a {die.text}",
                             f"a {die.text} shows {_face_range(die)}")
        return face

    def draw_many(self, die: ast.Die, n: int) -> list[int]:
        return [self.draw(die) for _ in range(n)]

    def draw_allowed(self, die: ast.Die, allowed: Callable[[int], bool]) -> int:
        face = self.draw(die)
        if not allowed(face):
            raise FacesError(f"face {face} (number {self.used} given) should have been rerolled",
                             "after the last reroll allowed, give a face that is kept")
        return face


def _face_range(die: ast.Die) -> str:
    if die.custom is None:
        return f"1 to {die.sides}"
    return ", ".join(map(str, sorted(set(die.custom))))


# ---- rolling -----------------------------------------------------------------------------


class DieRoll(NamedTuple):
    """One die of a rolled pool, as a trace shows it. (A NamedTuple: rolling makes many of
    these, and a tuple is several times cheaper to create than a frozen dataclass.)"""

    face: int  # the face it finally showed (after rerolls)
    value: int  # what it is worth: compounded, penetration −1, clamped
    kept: bool = True
    rerolled: tuple[int, ...] = ()  # faces replaced by rerolls, in order
    exploded: bool = False  # this die made another die roll
    added: bool = False  # this die was added by an explosion
    parts: tuple[int, ...] = ()  # compounded faces, when ``!!`` added to it
    success: bool = False
    failure: bool = False

    def to_dict(self) -> dict:
        d = {"face": self.face, "value": self.value, "kept": self.kept}
        for key in ("rerolled", "parts"):
            if getattr(self, key):
                d[key] = list(getattr(self, key))
        for key in ("exploded", "added", "success", "failure"):
            if getattr(self, key):
                d[key] = True
        return d


class PoolRoll(NamedTuple):
    """A rolled dice term: its dice in reading order and its value. (A NamedTuple, like
    DieRoll: one is made per dice term rolled, and rolling is the hot path.)"""

    text: str
    dice: tuple[DieRoll, ...]
    total: int
    counting: bool = False


class _Building:
    __slots__ = ("face", "rerolled", "exploded", "added", "parts", "penalty")

    def __init__(self, face: int, rerolled: tuple[int, ...], added: bool = False, penalty: int = 0):
        self.face = face
        self.rerolled = rerolled
        self.exploded = False
        self.added = added
        self.parts: list[int] | None = None
        self.penalty = penalty

    def raw_value(self) -> int:
        if self.parts is not None:
            return sum(self.parts)
        return self.face - self.penalty


class DiceCounter:
    """Counts dice rolled in one evaluation against ``Limits.max_dice``."""

    __slots__ = ("left",)

    def __init__(self, limits: Limits) -> None:
        self.left = limits.max_dice

    def spend(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            raise DiceLimitReached()


class DiceLimitReached(Exception):
    """Raised by DiceCounter; the evaluator adds the position and the limit's name."""


def _roll_wave(spec: PoolSpec, n: int, source: DiceSource, counter: DiceCounter,
               limits: Limits) -> list[_Building]:
    """Roll n dice, then reroll those that need it, each reroll round in die order."""
    counter.spend(n)
    die = spec.die
    faces = [source.draw(die) for _ in range(n)]
    history: list[list[int]] | None = None
    if spec.rerolls:
        pending = [i for i, f in enumerate(faces) if spec.is_rerolled(f)]
        depth = 0
        while pending:
            if history is None:
                history = [[] for _ in range(n)]
            depth += 1
            last = not spec.reroll_once and depth >= limits.reroll_depth
            counter.spend(len(pending))
            for i in pending:
                history[i].append(faces[i])
                # At the depth limit, the last reroll draws among the faces that are kept:
                # the same distribution as rerolling on, so rolls and odds still agree.
                faces[i] = source.draw_allowed(die, spec.is_kept_face) if last else source.draw(die)
            if spec.reroll_once or last:
                break
            pending = [i for i in pending if spec.is_rerolled(faces[i])]
    if history is None:
        return [_Building(f, ()) for f in faces]
    return [_Building(f, tuple(h)) for f, h in zip(faces, history)]


def roll_plain(die: ast.Die, text: str, count: int, source: DiceSource, counter: DiceCounter) -> PoolRoll:
    """Roll a term without modifiers (``3d6``), the commonest by far: every die is rolled
    once, kept, and worth its face."""
    counter.spend(count)
    faces = source.draw_many(die, count)
    return PoolRoll(text, _plain_dice(faces), sum(faces), False)


_PLAIN = DieRoll(0, 0)[2:]  # the fields after face and value of a die kept as it fell


def _plain_dice(faces: list[int]) -> tuple[DieRoll, ...]:
    """``DieRoll(f, f)`` for each face, made the way NamedTuple's own ``_make`` does, without
    its per-call argument handling (half the cost, on the hottest line of rolling)."""
    make, rest = tuple.__new__, _PLAIN
    return tuple([make(DieRoll, (f, f) + rest) for f in faces])


def roll_pool(spec: PoolSpec, text: str, count: int, source: DiceSource,
              counter: DiceCounter, limits: Limits) -> PoolRoll:
    """Roll one dice term. Faces are read in this order: the pool's dice; their rerolls;
    then, wave by wave, the dice added by explosions (and their rerolls)."""
    if spec.plain:
        return roll_plain(spec.die, text, count, source, counter)
    dice = _roll_wave(spec, count, source, counter, limits)
    if spec.explode is not None:
        compound = spec.explode == "compound"
        penalty = 1 if spec.explode == "penetrate" else 0
        frontier = [d for d in dice if spec.explodes(d.face)]
        depth = 0
        while frontier and depth < limits.explode_depth:
            depth += 1
            wave = _roll_wave(spec, len(frontier), source, counter, limits)
            nxt = []
            for parent, extra in zip(frontier, wave):
                parent.exploded = True
                if compound:
                    if parent.parts is None:
                        parent.parts = [parent.face]
                    parent.parts.append(extra.face)
                    parent.rerolled += extra.rerolled
                    if spec.explodes(extra.face):
                        nxt.append(parent)
                else:
                    extra.added, extra.penalty = True, penalty
                    dice.append(extra)
                    if spec.explodes(extra.face):
                        nxt.append(extra)
            frontier = nxt

    values = [spec.clamp(d.raw_value()) for d in dice]
    n = len(values)
    lo, hi = spec.kept_range(n)
    if (lo, hi) == (0, n):
        kept = [True] * n
    else:
        order = sorted(range(n), key=values.__getitem__, reverse=True)
        # sorted() is stable even with reverse=True, so among equal values the die
        # read first ranks higher: it is kept, the later one dropped.
        kept = [False] * n
        for i in order[lo:hi]:
            kept[i] = True
    counting = spec.counting
    total = 0
    records = []
    for d, v, k in zip(dice, values, kept):
        s = counting and spec.is_success(v)
        f = counting and spec.is_failure(v)
        if k:
            total += (s - f) if counting else v
        records.append(DieRoll(d.face, v, k, d.rerolled, d.exploded, d.added,
                               tuple(d.parts) if d.parts else (), bool(s), bool(f)))
    return PoolRoll(text, tuple(records), total, counting)


# ---- exact distribution ------------------------------------------------------------------


def face_dist(spec: PoolSpec, budget: Budget) -> Dist:
    """One die roll's face after rerolls.

    Rerolling *until* a face is kept ends on each kept face with probability proportional
    to its weight, however many rerolls it takes: exact, with nothing truncated.
    """
    die = spec.die
    budget.spend(die.size)
    if die.custom is None:
        base = Dist({f: 1 for f in range(1, die.size + 1)}, die.size)
    else:
        base = Dist.from_counts(die.custom)
    if not spec.rerolls:
        return base
    matched = {f: w for f, w in base.weights.items() if spec.is_rerolled(f)}
    m = sum(matched.values())
    s = base.denom
    if spec.reroll_once:
        weights = {f: (0 if f in matched else w * s) + m * w for f, w in base.weights.items()}
        return Dist({f: w for f, w in weights.items() if w}, s * s).reduced()
    return Dist({f: w for f, w in base.weights.items() if f not in matched}, s - m)


def die_dist(spec: PoolSpec, mode: str, limits: Limits, budget: Budget) -> Dist:
    """One die of the pool, explosions included.

    ``mode`` says what the caller needs to know about it: ``"total"`` its contribution to
    the term (value or success count, explosion dice included), ``"value"`` its value
    (no ``!``/``!p``: the die stays one die), ``"values"`` the sorted tuple of the values
    of it and the dice it added. Explosion paths longer than ``limits.explode_depth`` are
    cut and their mass is left out of the weights (reported as truncated).
    """
    fd = face_dist(spec, budget)
    if spec.explode is None:
        if mode != "values" and not spec.counting and spec.low is None and spec.high is None:
            return fd  # each face is its own value: no copy (a million-sided die is big)
        if mode == "total":
            return fd.map(lambda f: spec.score(spec.clamp(f)))
        if mode == "value":
            return fd.map(spec.clamp)
        return fd.map(lambda f: (spec.clamp(f),))

    compound = spec.explode == "compound"
    penalty = 1 if spec.explode == "penetrate" else 0
    if compound:
        start = lambda f: f  # noqa: E731 - the running sum of faces
        extend = lambda s, f: s + f  # noqa: E731
        finish = (lambda s: spec.score(spec.clamp(s))) if mode == "total" else spec.clamp
        if mode == "values":
            finish = lambda s: (spec.clamp(s),)  # noqa: E731
    elif mode == "total":
        start = lambda f: spec.score(spec.clamp(f))  # noqa: E731
        extend = lambda s, f: s + spec.score(spec.clamp(f - penalty))  # noqa: E731
        finish = None
    else:
        start = lambda f: (spec.clamp(f),)  # noqa: E731
        extend = lambda s, f: s + (spec.clamp(f - penalty),)  # noqa: E731
        finish = lambda s: tuple(sorted(s, reverse=True))  # noqa: E731

    faces = list(fd.weights.items())
    active: dict = defaultdict(int)
    finished: dict = defaultdict(int)
    for f, w in faces:
        (active if spec.explodes(f) else finished)[start(f)] += w
    denom = fd.denom
    depth = 0
    while active and depth < limits.explode_depth:
        depth += 1
        budget.spend((len(active) * len(faces) + len(finished)) * step_cost(denom.bit_length() + fd.denom.bit_length()))
        finished = defaultdict(int, {s: w * fd.denom for s, w in finished.items()})
        denom *= fd.denom
        nxt: dict = defaultdict(int)
        for s, w in active.items():
            for f, wf in faces:
                (nxt if spec.explodes(f) else finished)[extend(s, f)] += w * wf
        active = nxt
    result = Dist(dict(finished), denom)
    return result.map(finish) if finish is not None else result


def pool_dist(spec: PoolSpec, count: int, limits: Limits, budget: Budget) -> Dist:
    """The exact distribution of a dice term's value with ``count`` dice."""
    if count == 0:
        return Dist.point(0)
    if not spec.keeps or spec.kept_range(count) == (0, count) and spec.explode in (None, "compound"):
        return sum_of(die_dist(spec, "total", limits, budget), count, budget)
    if spec.explode in (None, "compound"):
        lo, hi = spec.kept_range(count)
        return _keep_dp(die_dist(spec, "value", limits, budget), count, lo, hi, spec.score, budget)
    return _keep_multiset(spec, die_dist(spec, "values", limits, budget), count, budget)


def _keep_dp(d: Dist, n: int, lo: int, hi: int, score: Callable[[int], int],
             budget: Budget) -> Dist:
    """Sum of ``score`` over the dice ranked [lo, hi) among n iid dice (rank 0 = highest).

    Dynamic programming over face values instead of over dice: walk the values from the
    end nearer the kept ranks, choosing how many dice show each value (weight
    C(remaining, c)·w^c). The state is (dice placed, score so far), with fewer than ``hi``
    dice placed. Once a choice fills every kept rank the score no longer depends on how
    many more dice show that value, so that whole tail is one term in closed form,
    (w + rest)^left − (the head terms), rest being the weight of the lower values. Each
    state costs O(hi) big-integer steps, not O(n): 20d6kh3 has a few dozen states, and
    10000d6kh3 takes a fraction of a second.
    """
    values = sorted(d.weights.items(), reverse=True)  # highest first
    if lo > 0 and hi == n:  # keeping the lowest: walk upwards, ranks mirrored
        values.reverse()
        lo, hi = 0, n - lo
    # Every value costs at least one state's (hi + 1) steps, at the size of the final
    # weights (n · bits of one die): charge that floor before anything is built, so a term
    # too big for the budget (1000d1000000kh1) is refused at once; the loop charges the
    # states beyond the first.
    cost = (hi + 1) * step_cost(n * d.denom.bit_length())
    budget.spend(len(values) * cost)
    suffix = [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + values[i][1]
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    final: dict[int, int] = defaultdict(int)
    last = len(values) - 1
    for i, (v, w) in enumerate(values):
        sv = score(v)
        rest = suffix[i + 1]
        budget.spend((len(states) - 1) * cost)
        nxt: dict[tuple[int, int], int] = defaultdict(int)
        for (placed, acc), weight in states.items():
            left = n - placed
            if i == last:  # every remaining die shows this, the lowest value
                kept = hi - max(placed, lo)
                final[acc + kept * sv if kept > 0 else acc] += weight * w ** left
                continue
            need = hi - placed  # this many more dice fill every kept rank (1 <= need <= left)
            binom, wp, head = 1, 1, 0
            for c in range(need):  # fewer: the kept ranks are not filled yet
                if c:
                    binom = binom * (left - c + 1) // c
                    wp *= w
                term = binom * wp
                kept = placed + c - max(placed, lo)
                nxt[(placed + c, acc + kept * sv if kept > 0 else acc)] += weight * term
                head += term * rest ** (left - c)
            kept = hi - max(placed, lo)
            final[acc + kept * sv if kept > 0 else acc] += weight * ((w + rest) ** left - head)
        states = nxt
        if not states:
            break
    return Dist(dict(final), d.denom ** n).reduced()


def _keep_multiset(spec: PoolSpec, d: Dist, n: int, budget: Budget) -> Dist:
    """Keeps over pools that grow by explosion: combine the dice's sorted value tuples.

    Only the highest (``kh``) or lowest (``kl``) values that can still be kept are carried,
    which keeps the state small for the usual ``Nd6!khK``.
    """
    # With a single kh/kl, the carried values are exactly the kept ones.
    simple_keep = len(spec.keeps) == 1 and spec.keeps[0][0] in ("kh", "kl")
    trim: Callable[[tuple], tuple] = lambda t: t  # noqa: E731
    if simple_keep:
        k = spec.keeps[0][1]
        trim = (lambda t: t[:k]) if spec.keeps[0][0] == "kh" else (lambda t: t[-k:])  # noqa: E731
    states: dict[tuple, int] = {(): 1}
    items = list(d.weights.items())
    bits = d.denom.bit_length()
    for i in range(n):
        budget.spend(len(states) * len(items) * step_cost((i + 1) * bits))
        nxt: dict[tuple, int] = defaultdict(int)
        for t, w in states.items():
            for t2, w2 in items:
                nxt[trim(tuple(sorted(t + t2, reverse=True)))] += w * w2
        states = nxt
    out: dict[int, int] = defaultdict(int)
    for t, w in states.items():
        if simple_keep:
            kept = t
        else:
            lo, hi = spec.kept_range(len(t))
            kept = t[lo:hi]
        out[sum(spec.score(v) for v in kept)] += w
    return Dist(dict(out), d.denom ** n).reduced()


# ---- whole rolls, for rules that look at single dice ------------------------------------------


def faces_dist(spec: PoolSpec, count: int, limits: Limits, budget: Budget) -> Dist:
    """The distribution of a dice term seen whole: ``Rolled(total, kept values)``, the kept
    values sorted highest first (the order dice come up in doesn't change the odds).

    Enumerates multisets, not sequences: 3d6 has 56 states, 2d10 has 55.
    """
    from .values import Rolled

    d = die_dist(spec, "values", limits, budget)
    items = list(d.weights.items())
    states: dict[tuple, int] = {(): 1}
    for i in range(count):
        # sorting tuples of i + 1 dice, weights of (i + 1) dice's bits
        budget.spend(len(states) * len(items) * (i + 1) * step_cost((i + 1) * d.denom.bit_length()))
        nxt: dict[tuple, int] = defaultdict(int)
        for t, w in states.items():
            for t2, w2 in items:
                nxt[tuple(sorted(t + t2, reverse=True))] += w * w2
        states = nxt
    out: dict = defaultdict(int)
    for t, w in states.items():
        lo, hi = spec.kept_range(len(t))
        kept = t[lo:hi]
        out[Rolled(sum(spec.score(v) for v in kept), kept)] += w
    return Dist(dict(out), d.denom ** count).reduced()


def dice_pool_dist(sides: tuple[int, ...], budget: Budget) -> Dist:
    """Rolling a pool of mixed dice such as d8/d6 once: ``Rolled(sum, faces highest first)``."""
    from .values import Rolled

    states: dict[tuple, int] = {(): 1}
    denom = 1
    for i, s in enumerate(sides):
        budget.spend(len(states) * s * (i + 1))  # each new state sorts a tuple of i + 1 faces
        nxt: dict[tuple, int] = defaultdict(int)
        for t, w in states.items():
            for f in range(1, s + 1):
                nxt[tuple(sorted(t + (f,), reverse=True))] += w
        states, denom = nxt, denom * s
    return Dist({Rolled(sum(t), t): w for t, w in states.items()}, denom).reduced()


def roll_dice_pool(sides: tuple[int, ...], text: str, source: DiceSource, counter: DiceCounter) -> PoolRoll:
    """Roll a mixed pool once, each die in the order listed (largest first)."""
    counter.spend(len(sides))
    faces = [source.draw(_plain_die(s)) for s in sides]
    return PoolRoll(text, _plain_dice(faces), sum(faces))


@lru_cache(maxsize=256)
def _plain_die(sides: int) -> ast.Die:
    return ast.Die(sides=sides, text=f"d{sides}")
