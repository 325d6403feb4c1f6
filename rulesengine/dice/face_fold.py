"""A pool of dice of one kind read face by face: how many dice show each face, in turn (a
multinomial), for rules that read numbers made of complete counts (a
:class:`.view_fold.PoolView`'s ``extremes`` and ``complete_sums``): the largest or smallest of
several counts, ``max(count(roll, 1), …, count(roll, 10))`` (the widest set of matching
faces), or a sum of numbers each made of one count, ``min(count(roll, 1), 1) + …`` (how many
faces show), ``floor(count(roll, 1) / 2) + …`` (how many pairs).

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
from typing import Any, NamedTuple

from .dist import Budget, step_cost
from .view_fold import PoolView, tally

Face = tuple[int, int, tuple]  # a face, its weight, what the view reads of one die showing it


CountFunction = Callable[[int], "int | None"]  # a number made of one count, None where it has none


class _Complete(NamedTuple):
    """A number a view reads made of complete counts: the largest (``max``) or smallest
    (``min``) of them, or their sum, each count at most its cap, through its function and
    times its weight."""

    op: str  # "max", "min" or "sum"
    ranges: tuple[tuple[int, int], ...]
    caps: tuple[int | None, ...]
    functions: tuple[CountFunction | None, ...]
    weights: tuple[int, ...]

    def taken(self, acc: int | None, count: int, j: int) -> int:
        """``acc`` with range ``j``'s complete ``count`` taken in."""
        cap, function = self.caps[j], self.functions[j]
        v = count if cap is None or count < cap else cap
        if function is not None:
            v = function(v)  # type: ignore[assignment]  # a whole number: checked by whole_numbers()
        v *= self.weights[j]
        if acc is None:
            return v
        return v + acc if self.op == "sum" else max(acc, v) if self.op == "max" else min(acc, v)

    def whole_numbers(self, most: int) -> bool:
        """Whether each function gives a whole number for every count up to ``most``."""
        return all(type(f(c)) is int for f in self.functions if f is not None for c in range(most + 1))


def complete_reads(view: PoolView) -> list[_Complete]:
    """The numbers ``view`` reads made of complete counts, in the order of its fields."""
    out = [_Complete("max" if largest else "min", ranges, (None,) * len(ranges), (None,) * len(ranges),
                     (1,) * len(ranges)) for largest, ranges in view.extremes]
    out += [_Complete("sum", tuple(t[0] for t in terms), tuple(t[1] for t in terms), tuple(t[2] for t in terms),
                      tuple(t[3] for t in terms)) for terms in view.complete_sums]
    return out


def fold_by_face(faces: Sequence[Face], count: int, view: PoolView, bits: int, budget: Budget
                 ) -> list[tuple[int, list]]:
    """``count`` dice of one kind (``faces``: each face with its weight and one die's
    reading, in the layout of ``pool_odds.view_reading`` without a cut part) read through
    ``view``: for each distinct reading, its weight (over the die's denominator to the power
    ``count``) and one roll that reads so, as a list of one-value chains (as
    :func:`.view_fold.fold` gives them). Each face's step is charged before it is taken."""
    faces = sorted(faces)
    n = view.parts
    caps = [None, *view.count_caps()]
    tops = [caps[j] if j < len(caps) else None for j in range(n)]
    reads = complete_reads(view)
    # Each range is complete after the last face in it that the die can show (or before the
    # first face, holding 0, if it shows none of them).
    closes = [[_closing(faces, c) for c in r.ranges] for r in reads]
    start = tuple(_close(r, (None, (0,) * len(r.ranges)), cl, -1) for r, cl in zip(reads, closes, strict=True))
    states: dict[tuple, list] = {(count, (0,) * n, None, None, start): [1, None]}
    last = len(faces) - 1
    for i, (face, weight, one) in enumerate(faces):
        budget.spend(len(states) * (count + 1) * step_cost(count * bits))
        powers = [weight ** k for k in range(count + 1)]
        inside = [[tally(c, (face,)) for c in r.ranges] for r in reads]
        nxt: dict[tuple, list] = {}
        for (left, parts, high, low, done), (w, chain) in states.items():
            for k in (range(left + 1) if i < last else (left,)):
                if k:
                    read = tuple(p + k * r if top is None else min(p + k * r, top)
                                 for p, r, top in zip(parts, one, tops, strict=False))
                    hi = face if view.highest else 0
                    lo = (face if low is None else low) if view.lowest else 0  # the faces go up
                    opened = tuple((acc, tuple(p + k * t for p, t in zip(open_, ins, strict=True)))
                                   for (acc, open_), ins in zip(done, inside, strict=True))
                    link: Any = (chain, (face, k))
                else:
                    read, hi, lo, opened, link = parts, high, low, done, chain
                closed = tuple(_close(r, x, cl, i) for r, x, cl in zip(reads, opened, closes, strict=True))
                key = (left - k, read, hi, lo, closed)
                q = w * math.comb(left, k) * powers[k]
                entry = nxt.get(key)
                if entry is None:
                    nxt[key] = [q, link]
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


def _closing(faces: Sequence[Face], c: tuple[int, int]) -> int:
    """The step (a face's place) after which range ``c``'s count is complete: its last face
    the die shows, -1 where it shows none of them."""
    places = [i for i, (face, _, _) in enumerate(faces) if tally(c, (face,))]
    return places[-1] if places else -1


def _close(read: _Complete, x: tuple[int | None, tuple[int, ...]], closing: Sequence[int], step: int
           ) -> tuple[int | None, tuple[int, ...]]:
    """A complete read's state after ``step``: each count complete there taken in and set
    back to 0, so that states alike from here on are one state."""
    acc, open_ = x
    if step not in closing:
        return x
    for j, at in enumerate(closing):
        if at == step:
            acc = read.taken(acc, open_[j], j)
    return acc, tuple(0 if at == step else v for v, at in zip(open_, closing, strict=True))
