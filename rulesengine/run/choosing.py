"""The ways to choose dice from a roll (a check's ``choose``), and what exact odds remember
of them.

A roll lists every way of choosing for the player (``choices``); exact odds read only the
way the rules pick, of each of thousands of throws. Two things make that cheap, and
neither changes an answer:

* :func:`first_best` finds the way ``max`` finds among the ways a roll lists, without
  making the others' records;
* :class:`ChoiceMemo` remembers, for one computation of exact odds, what each value (and
  ``prefer``) gave for what it reads: the chosen dice, the dice left, the values before it
  and the rest of the names it reads. A value is a pure function of those (it rolls no
  dice: choose's expressions may not), so a value found again is the value worked out
  again; an evaluation that fails is never remembered, so it fails again where it failed.
  What it keeps is bounded (``MOST_KEPT`` values of each expression), and an expression
  that reads something new nearly every time (the whole roll) stops being remembered
  after a trial, decided by counts alone.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from ..dice import ast
from ..dice.builtins import BUILTINS
from ..dice.stats import value_order
from ..dice.values import Rolled, counted
from ..rules.model import Choose, Expr
from .fails_alike import fails_alike, small_number
from .json_parts import jsonable

Die = tuple[int, int, tuple[str, ...]]  # a die to choose from: its face, its size (0: all alike), its symbols
Way = tuple[tuple[Die, ...], dict[str, Any], bool]  # the dice chosen, the values they give, preferred

MISS: Any = object()  # nothing remembered
TRIAL = 2048  # lookups of a value before it is judged worth remembering...
KEPT_IN_TRIAL = TRIAL // 2  # ...by how few different things it read in them
MOST_KEPT = 1 << 14  # values remembered of one expression at most
_ABSENT = object()  # a name the environment does not hold


def dice_value(dice: Iterable[Die], mixed: bool) -> Rolled:
    """Dice chosen from a roll, or left: their total and faces, their sizes for a pool of
    mixed dice, and the symbols they show for symbol dice."""
    dice = list(dice)
    faces = tuple(f for f, _, _ in dice)
    shows = tuple(on for _, _, on in dice)
    if not any(shows):  # no symbols to count (the common case, worked out for every choice tried)
        return Rolled(sum(faces), faces, tuple(s for _, s, _ in dice) if mixed else (), None, (), ())
    return Rolled(sum(faces), faces, tuple(s for _, s, _ in dice) if mixed else (), None, counted(shows), shows)


class _Slot:
    """What one expression of ``choose`` gave, by what it read."""

    __slots__ = ("chosen", "rest", "names", "store", "lookups", "on")

    def __init__(self, e: Expr, constant: Collection[str], on: bool) -> None:
        read = ast.names(e.tree)  # from the tree itself, whoever made the expression
        self.chosen = "chosen" in read
        self.rest = "rest" in read
        # every name it reads but the dice and what is the same all through the computation
        self.names = tuple(sorted(read - {"chosen", "rest"} - set(constant)))
        self.store: dict[tuple, Any] = {}
        self.lookups = 0
        self.on = on

    def find(self, mixed: bool, combo: tuple[Die, ...], rest: tuple[Die, ...], values: Mapping[str, Any],
             env: Mapping[str, Any]) -> tuple[tuple | None, Any]:
        """What the expression reads of this way (each value with its type: ``True`` is not
        ``1``), None where it is not remembered; and what it gave for that, MISS where that
        is not known."""
        if not self.on:
            return None, MISS
        self.lookups += 1
        if self.lookups == TRIAL and len(self.store) > KEPT_IN_TRIAL:
            self.on = False  # it reads something new nearly every time: not worth the keys
            self.store = {}
            return None, MISS
        key = (mixed, combo if self.chosen else None, rest if self.rest else None)
        if self.names:
            read = [values[n] if n in values else env.get(n, _ABSENT) for n in self.names]
            key += tuple([(v.__class__, v) for v in read])
        try:
            return key, self.store.get(key, MISS)
        except TypeError:  # a value read that has no hash: worked out each time
            return None, MISS

    def put(self, key: tuple | None, value: Any) -> None:
        if key is not None and len(self.store) < MOST_KEPT:
            try:
                self.store[key] = value
            except TypeError:
                pass


class ChoiceMemo:
    """The values of the ways of choosing remembered over one computation of exact odds,
    in which the names ``constant`` hold the same values all through (the values known
    before the roll, but for the names the rolls, the lets after them and ``choose`` set)."""

    def __init__(self, spec: Choose, constant: Collection[str]) -> None:
        made = {name for name, _ in spec.values}
        exprs = [e for _, e in spec.values] + ([spec.prefer] if spec.prefer is not None else [])
        # A value named as the dice it reads, or an expression that rolls dice, is not
        # remembered (the schema allows neither today).
        on = not made & {"chosen", "rest"}
        self.slots = tuple(_Slot(e, constant, on and not ast.has_dice(e.tree)) for e in exprs)
        self.die_by_die = DieByDie.of(spec) if on else None


class DieByDie:
    """Choosing die by die (exact odds), where the first values of ``order`` add up over the
    dice chosen and nothing is preferred: ``order: [successes]`` with ``successes:
    symbols(chosen, 'success')``, or ``order: [total, effect]`` with ``total: sum(chosen)``.
    Each way's rank in those values is then the sum of its dice's own ranks, so the ways best
    in them are the dice of the highest ranks: those ranked above the k-th die, and as many
    as are left of those ranked with it. Where every value adds up (``whole``), ``max`` over
    every way in its order (:func:`splits`) takes, of those, the dice that come first, so
    :meth:`pick` finds the way the search of every way finds, with a die's rank worked out
    once per die (and per value of the names it reads), not every way's values. Otherwise
    :meth:`candidates` gives the ways best in those values, in the search's order (a subset
    of ranked-alike dice before another in :func:`itertools.combinations` order makes the
    whole way come first too), among which the search's first best is found: it is one of
    them, since a way worse in the first values is worse.

    Every value, not only those of ``order``: a roll works out every way's values, so one
    that fails on a way not picked fails the roll, and exact odds must fail with it (validate
    relies on that). A value that adds up can't fail on one way and not another: what is not
    a sum over the dice is the same for every way, and a product's factor is a number written
    out, at most :data:`.fails_alike.MOST_FACTOR`, times a sum with no product in it (so no way's product
    is past ``max_magnitude``: pick ≤ 10 dice, each at most a die's largest face). Where only
    the first values add up, every other value must fail on every way or on none
    (:func:`.fails_alike.fails_alike`: ``if(count(rest) > 0, largest_die(rest), 4)``), so a
    way not worked out fails only where the ways worked out do. Where a rank is not a whole
    number (its order would not be its sum's), :meth:`pick` and :meth:`candidates` say None
    and the caller searches every way."""

    def __init__(self, exprs: tuple[Expr, ...], whole: bool = True) -> None:
        self.exprs = exprs
        self.whole = whole
        self.names = tuple(sorted(set().union(*(ast.names(e.tree) for e in exprs)) - {"chosen"}))
        self.ranks: dict[tuple | None, Any] = {}

    @staticmethod
    def of(spec: Choose) -> DieByDie | None:
        """The ranking die by die of ``spec``, None where its first value of ``order`` is not
        a sum over the dice, or another value may fail on some ways and not others."""
        if spec.prefer is not None:
            return None
        made = {name for name, _ in spec.values}
        adds = {name for name, e in spec.values if _adds_up(e.tree, made) and not ast.has_dice(e.tree)}
        by_name = dict(spec.values)
        if adds == made:
            return DieByDie(tuple(by_name[o] for o in spec.order))
        lead = tuple(itertools.takewhile(lambda o: o in adds, spec.order))
        if not lead or not all(fails_alike(e.tree, made) and not ast.has_dice(e.tree)
                               for name, e in spec.values if name not in adds):
            return None
        return DieByDie(tuple(by_name[o] for o in lead), whole=False)

    def pick(self, dice: list[Die], k: int, mixed: bool, env: Mapping[str, Any],
             evaluate: Callable[[Expr, Mapping[str, Any]], Any]) -> tuple[int, ...] | None:
        """The places of the ``k`` dice chosen (of ``dice``, sorted highest first), as the
        search of every way chooses them, where every value adds up; None where a rank is
        not whole numbers."""
        tops = self._tops(dice, k, mixed, env, evaluate)
        if tops is None:
            return None
        above, alike, left = tops
        return tuple(sorted(above + alike[:left]))

    def candidates(self, dice: list[Die], k: int, mixed: bool, env: Mapping[str, Any],
                   evaluate: Callable[[Expr, Mapping[str, Any]], Any]) -> list[tuple[int, ...]] | None:
        """The places of the dice of each way best in the values that add up, in the order of
        :func:`splits`; None where a rank is not whole numbers."""
        tops = self._tops(dice, k, mixed, env, evaluate)
        if tops is None:
            return None
        above, alike, left = tops
        return [tuple(sorted(above + list(some))) for some in itertools.combinations(alike, left)]

    def _tops(self, dice: list[Die], k: int, mixed: bool, env: Mapping[str, Any],
              evaluate: Callable[[Expr, Mapping[str, Any]], Any]) -> tuple[list[int], list[int], int] | None:
        """The places of the dice ranked above the k-th, of those ranked with it, and how many
        of those a best way takes; None where a rank is not whole numbers."""
        if k <= 0:  # no dice to choose (a keep by face set every die aside): one way, of none
            return [], [], 0
        read = tuple([(v.__class__, v) for v in (env.get(n, _ABSENT) for n in self.names)])
        ranks = []
        for die in dice:
            key: tuple | None = (die, mixed, read)
            try:
                rank = self.ranks.get(key, MISS)
            except TypeError:  # a value read that has no hash: worked out each time
                key, rank = None, MISS
            if rank is MISS:
                rank = self.rank_of(die, mixed, env, evaluate)
                if key is not None and len(self.ranks) < MOST_KEPT:  # bounded as the values remembered are
                    self.ranks[key] = rank
            if rank is None:
                return None
            ranks.append(rank)
        kth = sorted(ranks, reverse=True)[k - 1]
        above = [i for i, r in enumerate(ranks) if r > kth]
        return above, [i for i, r in enumerate(ranks) if r == kth], k - len(above)

    def rank_of(self, die: Die, mixed: bool, env: Mapping[str, Any],
              evaluate: Callable[[Expr, Mapping[str, Any]], Any]) -> tuple[int, ...] | None:
        """The values of ``order`` for ``die`` chosen alone, None if one is not a whole number
        or no dice chosen give one that is not (``count(chosen) * 1.5``-like values)."""
        local = dict(env)
        values = []
        for dice in ((die,), ()):
            local["chosen"] = dice_value(dice, mixed)
            values.append([evaluate(e, local) for e in self.exprs])
        if any(type(v) is not int for row in values for v in row):
            return None
        return tuple(values[0])


def _adds_up(node: ast.Node, made: Collection[str], product: bool = True) -> bool:
    """Whether the expression ``node`` is the sum over the chosen dice of each die's value
    and a number the dice don't change: per-die built-ins of ``chosen`` (``count``,
    ``symbols``, ``sum``: ``per_die`` where they are declared), ``chosen`` itself (its total),
    added, taken away, negated, or multiplied by a number written out (at most
    :data:`.fails_alike.MOST_FACTOR`; ``product``: a product may be made here, not inside another, and a
    part the dice don't change may be any number, not only one written out)."""
    varying = {"chosen", "rest", *made}

    def fixed(n: ast.Node) -> bool:
        return not ast.names(n) & varying

    node = ast.bare(node)
    if fixed(node):  # the same for every way; in a product, a number written out
        return product or small_number(node)
    if isinstance(node, ast.Name):
        return node.name == "chosen"
    if isinstance(node, ast.Neg):
        return _adds_up(node.operand, made, product)
    if isinstance(node, ast.Binary) and node.op in ("+", "-"):
        return _adds_up(node.left, made, product) and _adds_up(node.right, made, product)
    if isinstance(node, ast.Binary) and node.op == "*" and product:
        return any(small_number(a) and _adds_up(b, made, False)
                   for a, b in ((node.left, node.right), (node.right, node.left)))
    if isinstance(node, ast.Call) and node.args:
        builtin = BUILTINS.get(node.name)
        first = ast.bare(node.args[0])
        return builtin is not None and builtin.per_die and isinstance(first, ast.Name) and first.name == "chosen" \
            and all(fixed(a) for a in node.args[1:])
    return False


def way_values(spec: Choose, env: dict[str, Any], combo: tuple[Die, ...], rest: tuple[Die, ...], mixed: bool,
               memo: ChoiceMemo | None, evaluate: Callable[[Expr, Mapping[str, Any]], Any],
               truth: Callable[[Expr, Mapping[str, Any]], bool]) -> tuple[dict[str, Any], bool]:
    """The values one way of choosing gives (each value reads the chosen dice, the dice
    left, the values before it and ``env``), and whether ``prefer`` prefers it; with
    ``memo``, each worked out only where it is not remembered there."""
    values: dict[str, Any] = {}
    if memo is None:
        local = _local(env, combo, rest, mixed, values)
        for name, e in spec.values:
            values[name] = local[name] = evaluate(e, local)
        return values, spec.prefer is not None and truth(spec.prefer, local)
    made: dict[str, Any] | None = None  # the names, made for the first value not remembered
    slots = memo.slots
    for slot, (name, e) in zip(slots, spec.values, strict=False):  # prefer's slot is last
        key, value = slot.find(mixed, combo, rest, values, env)
        if value is MISS:
            if made is None:
                made = _local(env, combo, rest, mixed, values)
            value = evaluate(e, made)
            slot.put(key, value)
        values[name] = value
        if made is not None:
            made[name] = value
    if spec.prefer is None:
        return values, False
    slot = slots[-1]
    key, preferred = slot.find(mixed, combo, rest, values, env)
    if preferred is MISS:
        preferred = truth(spec.prefer, made if made is not None else _local(env, combo, rest, mixed, values))
        slot.put(key, preferred)
    return values, preferred


def ranking(spec: Choose) -> Callable[[Way], tuple]:
    """The order of the ways of choosing: preferred first, then by the values of ``order``."""
    order = spec.order

    def rank(way: Way) -> tuple:
        values = way[1]
        return (way[2], *[value_order(values[o]) for o in order])

    return rank


def _local(env: Mapping[str, Any], combo: tuple[Die, ...], rest: tuple[Die, ...], mixed: bool,
           values: Mapping[str, Any]) -> dict[str, Any]:
    """The names one way's expressions read: ``env``, the dice chosen and left, the values so far."""
    local = dict(env)
    local["chosen"] = dice_value(combo, mixed)
    local["rest"] = dice_value(rest, mixed)
    local.update(values)
    return local


def same_offer(way: Way) -> tuple:
    """What a way offers the player: its faces, its values as results carry them, whether it
    is preferred. The same faces on dice of other sizes are another choice only where the
    sizes change what it gives (an effect die)."""
    combo, values, preferred = way
    return tuple(f for f, _, _ in combo), tuple((n, jsonable(v)) for n, v in values.items()), preferred


def first_best(ways: Iterable[Way], rank: Callable[[Way], tuple]) -> Way:
    """The way ``max(offers, key=rank)`` picks, where the offers are ``ways`` but those that
    offer what an earlier one does (:func:`same_offer`): the first of the highest rank. A
    way offering what an earlier one offers can only outrank the best so far where a value
    differs in kind alone (``True`` and ``1``), so that is asked only of a new best."""
    best: Way | None = None
    best_rank: tuple = ()
    earlier: list[Way] = []
    offers: list[tuple] = []  # same_offer of the first ways of ``earlier``, each made once
    for way in ways:
        r = rank(way)
        if best is None or r > best_rank:
            offer = same_offer(way)
            offers.extend(same_offer(w) for w in earlier[len(offers):])
            if offer not in offers:
                best, best_rank = way, r
        earlier.append(way)
    assert best is not None  # there is always at least one way (k of n dice, k ≤ n)
    return best


def ways_to_try(source: str, pick: int, joint: Iterable[tuple[Mapping[str, Any], int]]) -> int:
    """What choosing ``pick`` dice of roll ``source`` costs over these joint values (each a
    mapping of roll values, with its weight): one step for each, and one for every way of
    choosing of its own dice (an exploding roll has more dice in some than in others)."""
    dice = [len(r.faces) if isinstance(r, Rolled) else 1 for r in (d.get(source) for d, _ in joint)]
    return sum(1 + math.comb(n, min(pick, n)) for n in dice)


@functools.cache
def splits(n: int, k: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Each way to choose ``k`` of ``n`` dice, by their places: those chosen and those left,
    in the order of :func:`itertools.combinations`."""
    return tuple((picked, tuple(i for i in range(n) if i not in picked))
                 for picked in itertools.combinations(range(n), k))
