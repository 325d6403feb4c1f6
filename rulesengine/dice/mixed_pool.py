"""The exact distribution of rolling a pool of mixed dice (a ``dice_pool`` input such as
d8/d4/d4): only what the rules read of the throw where that is a view
(:func:`dice_pool_view_dist`: how many show 5 or more, the highest, the total), as a pool of
dice of one size is read (:func:`.pool_odds.view_dist`); else every throw, with each die's
size where the rules read sizes (:func:`dice_pool_dist`). Every step charges the exact-odds
:class:`Budget` before it does the work.
"""

from __future__ import annotations

from collections import defaultdict

from .dist import Budget, Dist
from .pool_odds import joined_dist
from .values import DicePool, Rolled
from .view_fold import PoolView


def dice_pool_dist(pool: DicePool, budget: Budget, sizes: bool = True) -> Dist:
    """Rolling a mixed pool such as d8/d4/d4 once: ``Rolled(sum, faces, sizes)``, the dice
    highest face first (the larger die first among equal faces), each with its size; a die
    that a keep by face sets aside (``(pool)p1``) is not among them, as when rolling. Where
    nothing reads the dice's sizes (``sizes`` False: no ``largest_die``, in the rules or in
    a value of ``choose``), throws alike in their faces are one: ``Rolled(sum, faces)``
    (five dice d12 to d6: 4,368 multisets of faces, not 46,080 of faces and sizes)."""
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
