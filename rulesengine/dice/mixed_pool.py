"""The exact distribution of rolling a pool of mixed dice (a ``dice_pool`` input such as
d8/d4/d4): only what the rules read of the throw where that is a view
(:func:`dice_pool_view_dist`: how many show 5 or more, the highest, the total), as a pool of
dice of one size is read (:func:`.pool_odds.view_dist`); else every throw, with each die's
size where the rules read sizes (:func:`dice_pool_dist`). Every step charges the exact-odds
:class:`Budget` before it does the work.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from .dist import Budget, Dist
from .pool_odds import joined_dist
from .values import DicePool, Rolled
from .view_fold import PoolView


Rank = tuple[int, ...]


class RankedChoice:
    """What a choice of the ``k`` dice of highest rank reads of a throw, where it reads the
    dice left only by their largest size and how many they are (``largest_die(rest)``,
    ``count(rest)``): ``rank`` gives each die, as ``(face, size)``, its rank (its values
    chosen alone: a face for ``sum(chosen)``). A die with k dice ranked above it is never
    chosen, so its face says nothing: such dice are kept only as their largest size and
    their number, and the throws alike in the rest are one (:func:`dice_pool_dist`). A plain
    class: a record's class costs start-up time in every process, and this one is made only
    by exact odds of such a pool."""

    __slots__ = ("k", "rank", "cap")

    def __init__(self, k: int, rank: Mapping[tuple[int, int], Rank], cap: int | None = None) -> None:
        self.k = k
        self.rank = rank
        self.cap = cap  # the most dice set aside told apart (``count(rest) > 0``: 1); None: all


def dice_pool_dist(pool: DicePool, budget: Budget, sizes: bool = True, ranked: RankedChoice | None = None) -> Dist:
    """Rolling a mixed pool such as d8/d4/d4 once: ``Rolled(sum, faces, sizes)``, the dice
    highest face first (the larger die first among equal faces), each with its size; a die
    that a keep by face sets aside (``(pool)p1``) is not among them, as when rolling. Where
    nothing reads the dice's sizes (``sizes`` False: no ``largest_die``, in the rules or in
    a value of ``choose``), throws alike in their faces are one: ``Rolled(sum, faces)``
    (five dice d12 to d6: 4,368 multisets of faces, not 46,080 of faces and sizes). Where
    the rules read the throw only by choosing from it (``ranked``): the dice that can't be
    chosen by their largest size and number alone (:func:`_ranked_dist`)."""
    if ranked is not None:
        return _ranked_dist(pool, budget, sizes, ranked)
    states: dict[tuple, int] = {(): 1}
    denom = 1
    for i, s in enumerate(pool.sides):
        budget.spend(len(states) * s * (i + 1))  # each new state sorts a tuple of i + 1 dice
        nxt: dict[tuple, int] = defaultdict(int)
        playing = [(f, pool.in_play(f)) for f in range(1, s + 1)]  # the keep's conditions: once a face
        for t, w in states.items():
            for f, kept in playing:
                nxt[tuple(sorted(t + ((f, s if sizes else 0),), reverse=True)) if kept else t] += w
        states, denom = nxt, denom * s
    return Dist({Rolled(sum(f for f, _ in t), tuple(f for f, _ in t), tuple(s for _, s in t) if sizes else ()): w
                 for t, w in states.items()}, denom).reduced()


def dice_pool_view_dist(pool: DicePool, view: PoolView, budget: Budget) -> Dist:
    """Rolling a mixed pool where the rules read only ``view`` of the throw (counts, sums,
    the highest or lowest die; not the dice's sizes): each die one part, the parts joined
    through the view (:func:`.pool_odds.joined_dist`), a state per distinct reading. Twenty
    dice of four sizes read by how many show 5 or more: a few dozen states, where every
    throw's multiset of faces and sizes runs to billions. Each value is one throw that reads
    so, its faces highest first, without sizes (nothing reads them). A die a keep by face
    sets aside (``(pool)p1``) is no die of the throw, as when rolling."""
    budget.spend(sum(pool.sides))  # each die's faces, before they are made
    kinds: dict[int, Dist] = {}  # alike dice share one die: read once
    for s in pool.sides:
        if s not in kinds:
            faces: dict[Rolled, int] = defaultdict(int)
            for f in range(1, s + 1):
                faces[Rolled(f, (f,)) if pool.in_play(f) else Rolled(0, ())] += 1
            kinds[s] = Dist(dict(faces), s)
    return joined_dist([kinds[s] for s in pool.sides], view, budget)


def _ranked_dist(pool: DicePool, budget: Budget, sizes: bool, ranked: RankedChoice) -> Dist:
    """:func:`dice_pool_dist` read by ``ranked``: each state the dice that may yet be chosen
    (fewer than k dice ranked above each: adding dice only adds dice above), the largest
    size of the others and how many they are. Each state's value is one throw that reads
    so: the others shown as dice of that largest size, each with the face of that size
    ranked lowest (one of them is such a die, ranked below k dice, so that face is too).
    Six step dice: 11,279 states, not 149,760 throws."""
    k, rank, cap = ranked.k, ranked.rank, ranked.cap
    Top = tuple[tuple[int, int], ...]
    states: dict[tuple[Top, int, int], int] = {((), 0, 0): 1}
    moves: dict[tuple[Top, int, int], tuple[Top, int, int]] = {}  # (dice that may be chosen, a die) → its move
    lowest: dict[int, int] = {}  # each size's face ranked lowest (of those in play)
    denom = 1
    for s in pool.sides:
        size = s if sizes else 0
        playing = [f for f in range(1, s + 1) if pool.in_play(f)]
        for f in playing:
            if size not in lowest or (rank[(f, size)], f) < (rank[(lowest[size], size)], lowest[size]):
                lowest[size] = f
        widest = max(len(top) for top, _, _ in states)
        budget.spend(len(states) * s * (widest + 2))  # each new state ranks the dice that may be chosen
        nxt: dict[tuple[Top, int, int], int] = defaultdict(int)
        for (top, most, many), w in states.items():
            for f in range(1, s + 1):
                if f not in playing:
                    nxt[(top, most, many)] += w
                    continue
                key = (top, f, size)
                move = moves.get(key)
                if move is None:
                    move = moves[key] = _added(top, (f, size), k, rank)
                kept, set_size, set_aside = move
                many_now = many + set_aside if cap is None else min(many + set_aside, cap)
                nxt[(kept, max(most, set_size), many_now)] += w
        states, denom = nxt, denom * s
    values: dict[Rolled, int] = defaultdict(int)
    for (top, most, many), w in states.items():
        dice = sorted(top + (((lowest[most], most),) * many if many else ()), reverse=True)
        faces = tuple(f for f, _ in dice)
        values[Rolled(sum(faces), faces, tuple(s for _, s in dice) if sizes else ())] += w
    return Dist(dict(values), denom).reduced()


def _added(top: tuple[tuple[int, int], ...], die: tuple[int, int], k: int, rank: Mapping[tuple[int, int], Rank]
           ) -> tuple[tuple[tuple[int, int], ...], int, int]:
    """The dice that may yet be chosen once ``die`` joins ``top`` (highest first), the
    largest size of those it sets aside (0: none) and how many they are."""
    dice = sorted(top + (die,), reverse=True)
    ranks = [rank[d] for d in dice]
    kept, most, out = [], 0, 0
    for d, r in zip(dice, ranks, strict=True):
        if sum(1 for other in ranks if other > r) >= k:
            most, out = max(most, d[1]), out + 1
        else:
            kept.append(d)
    return tuple(kept), most, out
