"""A pool of dice of one kind read face by face: how many dice show each face, in turn (a
multinomial), for rules that read the largest or smallest of several counts (a
:class:`.view_fold.PoolView`'s ``extremes``: ``max(count(roll, 1), …, count(roll, 10))``, the
widest set of matching faces).

Die by die (:func:`.view_fold.fold`) a state must hold every count, since the largest is known
only once the last die is in: ten counts of 10d10 are 92,378 states. Face by face, a count is
complete once its faces have been read, so a state holds the largest so far and the counts
still open: for 10d10, (dice left, widest so far), a hundred states. This is how icepool's
multiset evaluators read a pool (outcome by outcome, with the count of each); the other
things a view reads (the total, counts, sums, highest, lowest) add up face by face alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .dist import Budget, step_cost
from .view_fold import PoolView, tally

Face = tuple[int, int, tuple]  # a face, its weight, what the view reads of one die showing it


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
    # Each range a largest (smallest) count reads is complete after the last face in it
    # that the die can show (or before the first face, holding 0, if it shows none).
    closes = [[_closing(faces, c) for c in cs] for _, cs in view.extremes]
    start_ext = tuple(_close((None, (0,) * len(cs)), is_max, cl, -1)
                      for (is_max, cs), cl in zip(view.extremes, closes, strict=True))
    states: dict[tuple, list] = {(count, (0,) * n, None, None, start_ext): [1, None]}
    last = len(faces) - 1
    for i, (face, weight, one) in enumerate(faces):
        budget.spend(len(states) * (count + 1) * step_cost(count * bits))
        powers = [weight ** k for k in range(count + 1)]
        inside = [[tally(c, (face,)) for c in cs] for _, cs in view.extremes]
        nxt: dict[tuple, list] = {}
        for (left, parts, high, low, ext), (w, chain) in states.items():
            for k in (range(left + 1) if i < last else (left,)):
                if k:
                    read = tuple(p + k * r if top is None else min(p + k * r, top)
                                 for p, r, top in zip(parts, one, tops, strict=False))
                    hi = face if view.highest else 0
                    lo = (face if low is None else low) if view.lowest else 0  # the faces go up
                    opened = tuple((acc, tuple(p + k * t for p, t in zip(open_, ins, strict=True)))
                                   for (acc, open_), ins in zip(ext, inside, strict=True))
                    link: Any = (chain, (face, k))
                else:
                    read, hi, lo, opened, link = parts, high, low, ext, chain
                closed = tuple(_close(x, is_max, cl, i)
                               for x, (is_max, _), cl in zip(opened, view.extremes, closes, strict=True))
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


def _close(x: tuple[int | None, tuple[int, ...]], is_max: bool, closing: Sequence[int], step: int
           ) -> tuple[int | None, tuple[int, ...]]:
    """An extreme's state after ``step``: each count complete there taken into the largest
    (smallest) so far and set back to 0, so that states alike from here on are one state."""
    acc, open_ = x
    if step not in closing:
        return x
    for j, at in enumerate(closing):
        if at == step:
            v = open_[j]
            acc = v if acc is None else (max(acc, v) if is_max else min(acc, v))
    return acc, tuple(0 if at == step else v for v, at in zip(open_, closing, strict=True))
