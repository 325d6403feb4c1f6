"""A pool of dice of one kind read face by face: how many dice show each face, in turn (a
multinomial), for rules that read numbers made of complete counts (a
:class:`.view_fold.PoolView`'s ``complete``): the largest, smallest or sum of numbers each made
of one count, ``max(count(roll, 1), …, count(roll, 10))`` (the widest set of matching faces),
``max(if(count(roll, 1) >= 2, 1, 0), …)`` (the highest set), ``min(count(roll, 1), 1) + …``
(how many faces show), ``floor(count(roll, 1) / 2) + …`` (how many pairs).

Die by die (:func:`.view_fold.fold`) a state must hold every count, since the largest is known
only once the last die is in: ten counts of 10d10 are 92,378 states. Face by face, a count is
complete once its faces have been read, so a state holds the largest (the sum) so far and the
counts still open: for 10d10, (dice left, widest so far), a hundred states. This is how icepool's
multiset evaluators read a pool (outcome by outcome, with the count of each); the other
things a view reads (the total, counts, sums, highest, lowest) add up face by face alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

from .dist import Budget, step_cost
from .view_fold import PoolView, tally

Face = tuple[int, int, tuple]  # a face, its weight, what the view reads of one die showing it


class _Complete(NamedTuple):
    """A number a view reads made of complete counts: the largest (``max``) or smallest
    (``min``) of them, or their sum; ``values``: for each range, what each count from 0 up
    gives (at most its cap, through its function, times its weight), worked out once."""

    op: str  # "max", "min" or "sum"
    ranges: tuple[tuple[int, int], ...]
    values: tuple[tuple[int, ...], ...]

    def taken(self, acc: int | None, count: int, j: int) -> int:
        """``acc`` with range ``j``'s complete ``count`` taken in."""
        v = self.values[j][count]
        if acc is None:
            return v
        return v + acc if self.op == "sum" else max(acc, v) if self.op == "max" else min(acc, v)


def complete_reads(view: PoolView, count: int, budget: Budget) -> list[_Complete] | None:
    """The numbers ``view`` reads made of complete counts of ``count`` dice, in the order of
    its ``complete`` field (each term's values charged before they are worked out); None where
    a function of a count gives no whole number for some count (the pool is then read die by
    die, and the rules meet that where they read it)."""
    budget.spend(sum(len(terms) for _, terms in view.complete) * (count + 1))
    out = []
    for op, terms in view.complete:
        values = []
        for _, cap, of, weight in terms:
            capped = [c if cap is None or c < cap else cap for c in range(count + 1)]
            given = capped if of is None else [v for v in map(of, capped) if type(v) is int]
            if len(given) < count + 1:
                return None
            values.append(tuple(weight * v for v in given))
        out.append(_Complete(op, tuple(c for c, _, _, _ in terms), tuple(values)))
    return out


def fold_by_face(faces: Sequence[Face], count: int, view: PoolView, reads: Sequence[_Complete], bits: int,
                 budget: Budget) -> list[tuple[int, list]]:
    """``count`` dice of one kind (``faces``: each face with its weight and one die's
    reading, in the layout of ``pool_odds.view_reading`` without a cut part) read through
    ``view``, whose numbers made of complete counts are ``reads`` (:func:`complete_reads`):
    for each distinct reading, its weight (over the die's denominator to the power
    ``count``) and one roll that reads so, as a list of one-value chains (as
    :func:`.view_fold.fold` gives them). Each face's step is charged before it is taken."""
    faces = sorted(faces)
    n = view.parts
    caps = [None, *view.count_caps()]
    tops = [caps[j] if j < len(caps) else None for j in range(n)]
    # Each range is complete after the last face in it that the die can show (or before the
    # first face, holding 0, if it shows none of them).
    closes = [[_closing(faces, c) for c in r.ranges] for r in reads]
    start = tuple(_closed(r, (None, (0,) * len(r.ranges)), tuple(j for j, at in enumerate(cl) if at == -1))
                  for r, cl in zip(reads, closes, strict=True))
    states: dict[tuple, list] = {(count, (0,) * n, None, None, start): [1, None]}
    last = len(faces) - 1
    for i, (face, weight, one) in enumerate(faces):
        budget.spend(len(states) * (count + 1) * step_cost(count * bits))
        powers = [weight ** k for k in range(count + 1)]
        ways_of = [[math.comb(left, k) * powers[k] for k in range(left + 1)] for left in range(count + 1)]
        after = _step(face, one, view, tops, reads, closes, i)
        nxt: dict[tuple, list] = {}
        for state, (w, chain) in states.items():
            left = state[0]
            ways = ways_of[left]  # which k of the dice left show this face, each way's weight
            for k in (range(left + 1) if i < last else (left,)):
                key = after(*state, k)
                q = w * ways[k]
                entry = nxt.get(key)
                if entry is None:
                    nxt[key] = [q, (chain, (face, k)) if k else chain]
                else:
                    entry[0] += q
        states = nxt
    out = []
    for w, chain in states.values():
        reps: list = []
        while chain is not None:
            chain, (face, k) = chain
            reps += [(face,)] * k
        out.append((w, reps))
    return out


def _step(face: int, one: tuple, view: PoolView, tops: list, reads: Sequence[_Complete], closes: list[list[int]],
          i: int) -> Callable[..., tuple]:
    """What ``k`` more dice showing ``face`` (the ``i``-th, ``one`` what a die showing it
    reads) make of a state (dice left, parts, highest, lowest, complete reads): the counts it
    adds to each read's open ranges and those complete after it are found once, here, so the
    many states of the step skip what it leaves alone."""
    highest, lowest = view.highest, view.lowest
    adds = [tuple((j, t) for j, t in enumerate(tally(c, (face,)) for c in r.ranges) if t) or None for r in reads]
    shut = [tuple(j for j, at in enumerate(cl) if at == i) for cl in closes]  # counts complete after it
    closing = any(shut)
    reading = bool(view.parts and any(one))

    def after(left: int, parts: tuple, high: int | None, low: int | None, done: tuple, k: int) -> tuple:
        if k:
            if reading:
                parts = tuple(p + k * r if top is None else min(p + k * r, top)
                              for p, r, top in zip(parts, one, tops, strict=False))
            high = face if highest else 0
            low = (face if low is None else low) if lowest else 0  # the faces go up
            done = tuple(x if add is None else (x[0], _added(x[1], add, k)) for x, add in zip(done, adds, strict=True))
        if closing:
            done = tuple(_closed(r, x, js) if js else x for r, x, js in zip(reads, done, shut, strict=True))
        return (left - k, parts, high, low, done)

    return after


def _closing(faces: Sequence[Face], c: tuple[int, int]) -> int:
    """The step (a face's place) after which range ``c``'s count is complete: its last face
    the die shows, -1 where it shows none of them."""
    places = [i for i, (face, _, _) in enumerate(faces) if tally(c, (face,))]
    return places[-1] if places else -1


def _added(open_: tuple[int, ...], add: tuple[tuple[int, int], ...], k: int) -> tuple[int, ...]:
    """The open counts with ``k`` dice more of a face each range ``j`` of ``add`` counts ``t``
    times."""
    if len(add) == 1:
        (j, t), = add
        return open_[:j] + (open_[j] + k * t,) + open_[j + 1:]
    counts = list(open_)
    for j, t in add:
        counts[j] += k * t
    return tuple(counts)


def _closed(read: _Complete, x: tuple[int | None, tuple[int, ...]], shut: Sequence[int]
            ) -> tuple[int | None, tuple[int, ...]]:
    """A complete read's state once the counts ``shut`` are complete (after the step they
    close on): each taken in and set back to 0, so that states alike from here on are one."""
    acc, open_ = x
    for j in shut:
        acc = read.taken(acc, open_[j], j)
        open_ = open_[:j] + (0,) + open_[j + 1:]
    return acc, open_
