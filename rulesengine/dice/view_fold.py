"""What rules read of a roll's dice (:class:`PoolView`), and the fold that works a pool of
dice out through it: one die's outcomes grouped by what the view reads of them
(:func:`readings`), then the dice added one at a time, a state per distinct reading
(:func:`fold`) — icepool's multiset evaluators as a small state machine. Split from
:mod:`.pool_odds`, which builds a dice term's distribution on it (:func:`.pool_odds.view_dist`).
"""

from __future__ import annotations

import math
import operator
from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from .alike_fold import SHARE_COST, Counted, Readings, fold_alike, fold_pairs, settle_capped, shares, worth_it
from .dist import Budget, Dist, step_cost
from .power_fold import power_cost, power_fold
from .functions import in_range


class OfCount(Protocol):
    """A number made of one count of a roll, as the rules write it (``floor(count(roll, 1) /
    2)``; ``rules.faces.CountFunction``): its value for a count, None where it has no whole
    number. Views are compared and hashed, so it is a value: equal where it gives alike."""

    def __call__(self, count: int) -> int | None: ...


Term = tuple[tuple[int, int], int | None, OfCount | None, int]
"""A number made of one count of a roll, a term of a :class:`PoolView`'s ``complete`` read:
the count's range, its cap or None, a function of the (capped) count or None, a weight."""


class PoolView(NamedTuple):
    """What rules read of a roll's dice, when that is all they read: its total (the term's
    value), how many dice show a value in each range (``count(roll, lo, hi)``; None for
    ``count(roll)``, every die), its highest and its lowest die. Rolls that agree on all of
    these are the same to the rules, so exact odds need only these, not every multiset of
    faces (:func:`view_dist`)."""

    total: bool = False
    counts: tuple[tuple[int, int] | None, ...] = ()
    highest: bool = False
    lowest: bool = False
    initial: tuple[tuple[int, int] | None, ...] = ()  # counts among the first throw's dice
    # Symbols counted, each read a signed sum of symbols: ``(('failure', -1), ('success', 1))``
    # for ``symbols(roll, 'success') - symbols(roll, 'failure')``.
    symbols: tuple[tuple[tuple[str, int], ...], ...] = ()
    # Counts the rules only compare with numbers written out (``count(initial(roll), 1) >= 1``):
    # each as ((first throw?, its range), cap), read as at most ``cap``: rolls whose count is
    # ``cap`` or more answer every such comparison alike (cap is one past the largest number).
    caps: tuple[tuple[tuple[bool, tuple[int, int] | None], int], ...] = ()
    # Counts read only added together, each a signed sum of counts of ranges with whole-number
    # weights: ``((7, 10), 1), ((9, 10), 1)`` for ``count(roll, 7, 10) + count(roll, 9, 10)``
    # (successes, a 9 or 10 counting twice). One number a die adds to, where the two counts
    # would be a pair: the states of a pool grow with the sum's range, not the counts' product.
    sums: tuple[tuple[tuple[tuple[int, int] | None, int], ...], ...] = ()
    # Sums of symbols the rules only compare with numbers written out (``symbols(roll,
    # 'strife') == 0``), each as (its read, one of ``symbols``; cap): read as at most ``cap``,
    # as ``caps`` reads counts. Only sums that count up (every sign +) are capped.
    symbol_caps: tuple[tuple[tuple[tuple[str, int], ...], int], ...] = ()
    # Numbers made of complete counts, each read only as that one number: the largest
    # (``"max"``), smallest (``"min"``) or sum (``"sum"``) of terms, each a number made of one
    # count: its range, a cap (``min(count(roll, 1), 1)``) or None, a function of the (capped)
    # count or None (``floor(count(roll, 1) / 2)``, the pairs of 1s; see
    # ``rules.faces.CountFunction``), and its weight. ``("max", (((1, 1), None, None, 1), …))``
    # for ``max(count(roll, 1), count(roll, 2), …)``, the widest set of matching faces;
    # ``("sum", (((1, 1), 1, None, 1), …))`` for ``min(count(roll, 1), 1) + …``, how many faces
    # show. Such a number does not add up die by die (a state would hold every count, since
    # the largest is known only when the last die is in); dice of one kind are read face by
    # face for it (:mod:`.face_fold`), where a count is complete once its faces are read.
    complete: tuple[tuple[str, tuple[Term, ...]], ...] = ()

    @property
    def reads(self) -> int:
        """Steps charged for reading one outcome through this view: one, and one for each
        thing it reads (its total, each count, each sum of symbols or of counts, its highest,
        its lowest)."""
        return 1 + self.parts + self.highest + self.lowest

    @property
    def parts(self) -> int:
        """How many numbers of a reading add up from die to die: the total, each count (the
        first throw's too), each sum of symbols, each sum of counts."""
        return 1 + len(self.counts) + len(self.initial) + len(self.symbols) + len(self.sums)

    @property
    def capped_reads(self) -> bool:
        """Some count or sum of symbols is read as at most a cap."""
        return bool(self.caps or self.symbol_caps)

    def merge(self, other: PoolView) -> PoolView:
        """What both read."""
        counts = self.counts + tuple(c for c in other.counts if c not in self.counts)
        initial = self.initial + tuple(c for c in other.initial if c not in self.initial)
        symbols = self.symbols + tuple(c for c in other.symbols if c not in self.symbols)
        sums = self.sums + tuple(c for c in other.sums if c not in self.sums)
        caps = [(key, cap) for key in [(False, c) for c in counts] + [(True, c) for c in initial]
                if (cap := _merged_cap(self.reads_count(*key), self.cap_of(*key),
                                       other.reads_count(*key), other.cap_of(*key))) is not None]
        symbol_caps = [(read, cap) for read in symbols
                       if (cap := _merged_cap(read in self.symbols, self.symbol_cap(read),
                                              read in other.symbols, other.symbol_cap(read))) is not None]
        complete = self.complete + tuple(x for x in other.complete if x not in self.complete)
        return PoolView(self.total or other.total, counts, self.highest or other.highest,
                        self.lowest or other.lowest, initial, symbols, tuple(caps), sums, tuple(symbol_caps),
                        complete)

    @property
    def face_by_face(self) -> bool:
        """Whether it reads numbers made of complete counts (``complete``), which dice of one
        kind read face by face (:mod:`.face_fold`)."""
        return bool(self.complete)

    def spread(self) -> PoolView:
        """This view with each count that ``complete`` reads read on its own (as at most its cap
        where a term caps it; merge drops a cap read elsewhere), and no complete read: what a
        fold die by die reads (its states must hold every count to know the largest, or the
        sum, at the end)."""
        if not self.face_by_face:
            return self
        view = self._replace(complete=())
        for _, terms in self.complete:
            for c, cap, _, _ in terms:
                view = view.merge(PoolView(counts=(c,), caps=() if cap is None else (((False, c), cap),)))
        return view

    def reads_count(self, first: bool, c: tuple[int, int] | None) -> bool:
        """Whether this view reads the count ``c`` (of the first throw's dice if ``first``)."""
        return c in (self.initial if first else self.counts)

    def cap_of(self, first: bool, c: tuple[int, int] | None) -> int | None:
        """The most a count is read as (see ``caps``), None where it is read whole."""
        for key, cap in self.caps:
            if key == (first, c):
                return cap
        return None

    def symbol_cap(self, read: tuple[tuple[str, int], ...]) -> int | None:
        """The most a sum of symbols is read as (see ``symbol_caps``), None where it is read whole."""
        for key, cap in self.symbol_caps:
            if key == read:
                return cap
        return None

    def count_caps(self) -> list[int | None]:
        """The cap of each count read, in reading order (the counts, then the first throw's),
        then of each sum of symbols (the parts of a reading that follow them)."""
        return [self.cap_of(False, c) for c in self.counts] + [self.cap_of(True, c) for c in self.initial] + \
            [self.symbol_cap(read) for read in self.symbols]

    def capped(self, counts: list[int]) -> tuple[int, ...]:
        """The counts read (the counts, then the first throw's), each at most its cap."""
        if not self.caps:
            return tuple(counts)
        caps = self.count_caps()
        return tuple(t if cap is None else min(t, cap) for t, cap in zip(counts, caps[:len(counts)], strict=True))

    def symbol_reads(self, counts: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
        """Each signed sum of symbols this view reads, of dice showing ``counts`` (at most its
        cap where it has one)."""
        have = dict(counts)
        out = tuple(sum(sign * have.get(name, 0) for name, sign in read) for read in self.symbols)
        if not self.symbol_caps:
            return out
        return tuple(v if (cap := self.symbol_cap(read)) is None else min(v, cap) for v, read in zip(
            out, self.symbols, strict=True))

    def count_sums(self, values: tuple) -> tuple[int, ...]:
        """Each weighted sum of counts this view reads (``sums``), of dice showing ``values``."""
        return tuple(sum(weight * tally(c, values) for c, weight in read) for read in self.sums)


def _merged_cap(mine_read: bool, mine: int | None, theirs_read: bool, theirs: int | None) -> int | None:
    """The cap of one read two views merge: where both read it, the larger cap (none where
    either reads it whole); else the cap of the one that reads it."""
    if mine_read and theirs_read:
        return None if mine is None or theirs is None else max(mine, theirs)
    return mine if mine_read else theirs


def tally(c: tuple[int, int] | None, values: tuple) -> int:
    """How many of ``values`` are in the range ``c`` (inclusive; None: all of them), counted
    as ``count(roll, lo, hi)`` counts them (:func:`.functions.in_range`)."""
    return len(values) if c is None else in_range(values, c[0], c[1])


class CutChain(tuple):
    """A die's chain of values that the depth cut (more dice were to come)."""

    __slots__ = ()


def readings(d: Dist, reading: Callable[[Any], tuple]) -> Readings:
    """The outcomes of ``d`` grouped by what ``reading`` makes of them: each reading's weight,
    and the first outcome that reads so."""
    one: dict[tuple, list] = {}
    for outcome, w in d.weights.items():
        key = reading(outcome)
        if key in one:
            one[key][0] += w
        else:
            one[key] = [w, outcome]
    return [(k, w, rep) for k, (w, rep) in one.items()]


def fold(steps: list[Readings], view: PoolView, bits: int, budget: Budget, flag: bool = False
          ) -> list[tuple[int, list]]:
    """The readings of several independent parts read together: ``steps`` lists, for each
    part (a die, or a whole roll), its readings as (reading, weight, what reads so). Sums and
    counts add, highest and lowest take the max and min; each state keeps the first parts
    that reached it. Returns (weight, [one part of each step]) for each distinct reading.
    ``flag``: the readings carry one more part, before highest and lowest, a yes/no (0 or 1)
    that is yes where any part's is (whether a die of the roll was cut by the depth)."""
    n = view.parts + flag  # the sum, each count, the flag
    caps = [None, *view.count_caps()] if view.capped_reads else None
    settle = None
    if view.highest != view.lowest and len(steps) > 1:
        return _fold_by_extreme(steps, view, n, caps, bits, budget, flag)
    if view.highest or view.lowest:
        join, packed = (_capped_join(n, flag, caps) if caps else _extremes_join(n, flag)), steps
    else:
        join, settle, packed = _packed(steps, n, flag, caps)
    states: dict[Any, list] = {k: [w, (None, rep)] for k, w, rep in packed[0]}
    for i, items in enumerate(packed[1:], 2):
        budget.spend(len(states) * len(items) * step_cost(i * bits))
        states = _step(states, items, join, settle)
    return _unchained(states)


def fold_dice(items: Readings, count: int, view: PoolView, bits: int, budget: Budget, flag: bool = False
              ) -> list[tuple[int, Counted]]:
    """:func:`fold` of ``count`` alike dice, each with the readings ``items``: (weight, each
    part that reads so with the number of dice it stands for) for each distinct reading.
    Where the view reads sums and counts alone and that is cheaper, the dice are taken at
    once (:func:`fold_at_once`), not added one at a time."""
    at_once = fold_at_once(items, count, view, bits, budget, flag)
    if at_once is not None:
        return at_once
    return [(w, Counter(reps)) for w, reps in fold([items] * count, view, bits, budget, flag)]


def fold_at_once(items: Readings, count: int, view: PoolView, bits: int, budget: Budget, flag: bool = False,
                 share: bool = True) -> list[tuple[int, Counted]] | None:
    """``count`` alike dice read through sums and counts alone, taken at once where that
    costs less than the fold die by die (decided on counts, before the work): one die's
    readings raised to the power of their number (:mod:`.power_fold`; sums, and counts read
    as none or some), or the dice shared out among the readings (:mod:`.alike_fold`; counts
    apart, unless not ``share``). None where neither is cheaper."""
    if view.highest or view.lowest:
        return None
    n = view.parts + flag
    tops = [*([None, *view.count_caps()] if view.capped_reads else []), *[None] * n][:n]
    if flag:
        tops[-1] = 1  # the flag: whether any die was cut
    by_die = fold_pairs(items, count, n, tops)
    power = power_cost(items, count, n, tops, 0)
    shared = share and worth_it(items, count, n, tops)
    if power is not None and power < by_die and not (shared and SHARE_COST * shares(count, len(items)) <= power):
        return power_fold(items, count, n, tops, bits, budget)
    if shared:
        return fold_alike(items, count, n, tops, bits, budget)
    return None


def _fold_by_extreme(steps: list[Readings], view: PoolView, n: int, caps: list[int | None] | None, bits: int,
                     budget: Budget, flag: bool) -> list[tuple[int, list]]:
    """:func:`fold` where the view reads the highest die (or the lowest), not both: one fold
    of the sums and counts alone for each value ``m`` the highest may take, of the parts'
    readings up to ``m`` (a state with a part at ``m`` apart from one without). Below ``m`` a
    part's highest no longer matters, so its readings alike in the rest are one: a state is
    a reading of the sums and counts, not of those and the highest together (eight
    compounding d12s with their 1s counted: 9 states, not 961, each met by 2 readings, not
    121). Returns what :func:`fold` returns, each state one reading with the highest at ``m``."""
    at = n if view.highest else n + 1  # the place of the extreme in a reading
    distinct = {id(step): step for step in steps}  # alike dice share one list of readings
    values = sorted({k[at] for step in distinct.values() for k, _, _ in step}, reverse=not view.highest)
    # Charged before: each part's readings packed, and each distinct part's sorted for each m.
    budget.spend((len(values) + len(steps)) * sum(len(step) for step in distinct.values()))
    trimmed = {i: [(k[:n], w, rep) for k, w, rep in step] for i, step in distinct.items()}
    join, settle, packed = _packed([trimmed[id(step)] for step in steps], n, flag, caps)
    out: list[tuple[int, list]] = []
    for m in values:
        split: dict[int, tuple[Readings, Readings]] = {}
        for step, items in zip(steps, packed, strict=True):
            if id(step) not in split:
                split[id(step)] = _below_and_at(step, items, at, m, view.highest)
        below = [split[id(step)][0] for step in steps]
        at_m = [split[id(step)][1] for step in steps]
        without = {k: [w, (None, rep)] for k, w, rep in below[0]}  # no part at m yet
        with_m = {k: [w, (None, rep)] for k, w, rep in at_m[0]}
        for i in range(1, len(steps)):
            budget.spend((len(without) + len(with_m)) * (len(below[i]) + len(at_m[i])) * step_cost(i * bits))
            reached = _step(with_m, below[i] + at_m[i], join, settle)
            for k, entry in _step(without, at_m[i], join, settle).items():
                have = reached.get(k)
                if have is None:
                    reached[k] = entry
                else:
                    have[0] += entry[0]
            without, with_m = _step(without, below[i], join, settle), reached
        out += _unchained(with_m)
    return out


def _below_and_at(step: Readings, items: Readings, at: int, m: Any, highest: bool) -> tuple[Readings, Readings]:
    """A part's readings (``step``, and ``items``, the same packed) below ``m`` (above it, for
    the lowest) and at ``m``, each read by its sums and counts alone: readings alike in
    those are one, weighing them all."""
    parts: tuple[dict[Any, list], dict[Any, list]] = ({}, {})
    for (k, _, _), (key, w, rep) in zip(step, items, strict=True):
        if k[at] == m or (k[at] < m if highest else k[at] > m):
            into = parts[k[at] == m]
            if key in into:
                into[key][0] += w
            else:
                into[key] = [w, rep]
    return ([(key, w, rep) for key, (w, rep) in parts[0].items()],
            [(key, w, rep) for key, (w, rep) in parts[1].items()])


def _unchained(states: dict[Any, list]) -> list[tuple[int, list]]:
    """Each state's weight and the parts that reached it, one of each step."""
    out = []
    for w, chain in states.values():
        reps = []
        while chain is not None:
            chain, rep = chain
            reps.append(rep)
        out.append((w, reps))
    return out


def _step(states: dict[Any, list], items: Readings, join: Callable[[Any, Any], Any],
          settle: Callable[[int], int] | None) -> dict[Any, list]:
    """One more part read into ``states``: each state with each of the part's readings,
    joined; then, where counts are capped, each new state taken back to its caps (once per
    state, not once per pair: adding two readings leaves a capped digit at most twice its cap,
    which its width holds, see :func:`_packed`)."""
    nxt: dict[Any, list] = {}
    adding = join is operator.add
    for key, (w, chain) in states.items():
        for k2, w2, rep in items:
            k = key + k2 if adding else join(key, k2)
            entry = nxt.get(k)
            if entry is None:
                nxt[k] = [w * w2, (chain, rep)]
            else:
                entry[0] += w * w2
    if settle is None:
        return nxt
    out: dict[Any, list] = {}
    for k, entry in nxt.items():
        k = settle(k)
        have = out.get(k)
        if have is None:
            out[k] = entry
        else:
            have[0] += entry[0]
    return out


def fold_one_cut(uncut: Readings, cut: tuple[Any, int, Any], count: int, view: PoolView, bits: int,
                  budget: Budget) -> list[tuple[int, Counted]]:
    """:func:`_fold` of ``count`` alike dice with the flag, where the depth cuts the die one
    way (one reading, ``cut``): the rolls with j dice cut are C(count, j) · cut^j joined with
    the rolls of the other count - j dice, none of them cut, whose states the fold of the
    uncut dice alone made on its way. So only the uncut dice are folded, and the cut rolls
    are added to each of its steps' states once, not folded die by die with them."""
    n = view.parts + 1  # the sum, each count, the flag
    caps = [None, *view.count_caps()] if view.capped_reads else None
    join, settle, packed = _packed([uncut + [cut]] * count, n, True, caps)
    items, (kc, wc, rc) = packed[0][:len(uncut)], packed[0][len(uncut)]

    def joined(a: int, b: int) -> int:
        k = join(a, b)
        return settle(k) if settle is not None else k

    levels: list[dict[Any, list]] = [{0: [1, None]}]  # the states of 0, 1, … uncut dice
    states: dict[Any, list] = {k: [w, (None, rep)] for k, w, rep in items}
    levels.append(states)
    # No uncut die sets the flag: their states add as numbers (the flag's join, which takes it
    # back to 1, is for the cut rolls joined below).
    for i in range(2, count + 1):
        budget.spend(len(states) * len(items) * step_cost(i * bits))
        states = _step(states, items, operator.add, settle)
        levels.append(states)
    out: dict[Any, list] = {k: [w, chain, 0] for k, (w, chain) in states.items()}
    key_cut, weight_cut = 0, 1
    for j in range(1, count + 1):  # j dice cut, in any C(count, j) places
        key_cut, weight_cut = joined(key_cut, kc), weight_cut * wc
        rest = levels[count - j]
        budget.spend(len(rest) * step_cost(count * bits))
        ways = math.comb(count, j) * weight_cut
        for key, (w, chain) in rest.items():
            k = joined(key, key_cut)
            entry = out.get(k)
            if entry is None:
                out[k] = [ways * w, chain, j]
            else:
                entry[0] += ways * w
    result: list[tuple[int, Counted]] = []
    for w, chain, j in out.values():
        dice = Counter({rc: j}) if j else Counter()
        while chain is not None:
            chain, rep = chain
            dice[rep] += 1
        result.append((w, dice))
    return result


def _extremes_join(n: int, flag: bool) -> Callable[[Any, Any], Any]:
    """Joining two readings with a highest and a lowest (after ``n`` sums and counts, the
    last of them the flag if ``flag``): sums and counts add, the flag is either's, highest
    and lowest take the max and min."""
    s = n - 1 if flag else n

    def join(a: Any, b: Any) -> Any:
        return (*(x + y for x, y in zip(a[:s], b[:s], strict=True)), *((a[s] | b[s],) if flag else ()),
                max(a[n], b[n]), min(a[n + 1], b[n + 1]))

    return join


def _capped_join(n: int, flag: bool, caps: list[int | None]) -> Callable[[Any, Any], Any]:
    """Joining two readings some of whose counts are capped (``caps``, by position: None for
    a sum or count read whole): as :func:`_extremes_join`, a capped count taken back to its cap."""
    s = n - 1 if flag else n
    tops = caps + [None] * (s - len(caps))

    def join(a: Any, b: Any) -> Any:
        return (*(x + y if top is None else min(x + y, top) for x, y, top in zip(a[:s], b[:s], tops, strict=True)),
                *((a[s] | b[s],) if flag else ()), max(a[n], b[n]), min(a[n + 1], b[n + 1]))

    return join


def _packed(steps: list[Readings], n: int, flag: bool, caps: list[int | None] | None = None
            ) -> tuple[Callable[[Any, Any], Any], Callable[[int], int] | None, list[Readings]]:
    """Sums and counts only: each reading packed into one whole number (a digit per sum or
    count, each wide enough for every part together), so joining two readings is adding;
    the join, what takes each new state back where counts are capped (else None), and the
    steps with their readings packed. ``caps`` (by position, None for a digit read whole): a
    capped count's digit, from 0, wide enough for twice the cap, is taken back to its cap
    after each step, and the flag's to 1 with it."""
    tops = (caps or []) + [None] * n
    lows = [sum(min(k[j] for k, _, _ in step) for step in steps) for j in range(n)]
    highs = [sum(max(k[j] for k, _, _ in step) for step in steps) for j in range(n)]
    for j in range(n):
        cap = tops[j]
        if cap is not None:
            lows[j], highs[j] = 0, 2 * cap
    places = [1]
    for lo, hi in zip(lows[:-1], highs[:-1], strict=True):
        places.append(places[-1] * (hi - lo + 1))
    part_lows = [[0 if tops[j] is not None else min(k[j] for k, _, _ in step) for j in range(n)] for step in steps]
    if flag:  # the flag is the last digit, from 0: past 1 it is taken back to 1
        for low in part_lows:
            low[-1] = 0

    def pack(k: tuple, low: list[int]) -> int:
        return sum((k[j] - low[j]) * places[j] for j in range(n))

    join: Callable[[Any, Any], Any] = operator.add
    settle: Callable[[int], int] | None = None
    capped: list[tuple[int, int, int | None]] = [(places[j], top, 2 * top + 1) for j, top in enumerate(tops[:n])
                                                 if top is not None]
    if flag:
        capped.append((places[-1], 1, None))  # the top digit: no width
    if caps and capped:
        # Adding two readings leaves a capped digit at most twice its cap: each state the
        # adding made is taken back once, after the step (the flag with them).
        settle = settle_capped(capped)
    elif flag:
        top = places[-1]
        twice = 2 * top

        def join(a: Any, b: Any) -> Any:
            k = a + b
            return k - top if k >= twice else k

    packed = [[(pack(k, low), w, rep) for k, w, rep in step] for step, low in zip(steps, part_lows, strict=True)]
    return join, settle, packed
