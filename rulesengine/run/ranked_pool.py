"""A pool of mixed dice the rules read only by choosing the dice of highest rank from it:
what exact odds need of each throw (:class:`.dice.mixed_pool.RankedChoice`).

Step dice keep the two dice that give the best total and name the largest die left the
effect. Every throw of six such dice is 149,760 multisets of faces and sizes, each resolved
with its choice; yet a die with two dice ranked above it is never chosen, and the effect
reads the dice left only by their largest size and how many they are. Such dice are kept
as that alone, and six dice are 11,279 states.

It holds where nothing tells two throws apart that it keeps as one:

* the roll is read by ``choose``, and elsewhere at most by how many dice it holds and their
  largest size (``hitches: count(pool) - count(roll)``); no procedure reads the check's
  rolls, and it is not reported;
* ``choose`` ranks die by die (:class:`.choosing.DieByDie`): the dice chosen are the k of
  highest rank, ties decided among the dice ranked with the k-th, never below it;
* its values read the dice left only by how many they are and their largest size
  (``count(rest)``, ``largest_die(rest)``: ``alone`` where the built-in is declared);
* every die's rank is a whole number for the values known before the roll.

A throw kept as one stands for the others with the same dice that may be chosen and the
same number and largest size of the rest: the ways of choosing offer the same dice, every
value is the same on each, and so are the roll's number of dice and largest size. Rolling
is untouched; a throw is only ever read here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..dice import ast
from ..dice.builtins import BUILTINS
from ..dice.context import Context
from ..dice.mixed_pool import RankedChoice
from ..dice.values import DicePool
from ..errors import RulesEngineError
from ..limits import Limits
from ..records import Record, fields
from ..rules.model import MAX_PICK, Check, Expr
from .choosing import DieByDie


def read_by_rank(check: Check) -> DieByDie | None:
    """The ranking die by die of ``check``'s choice where its roll is read only as the
    module says (by choosing, the dice left by how many and their largest size); else None."""
    spec = check.choose
    if spec is None or len(check.view_sources) != 1 or spec.source in check.report:
        return None
    ranking = DieByDie.of(spec)
    if ranking is None:
        return None
    if not all(read_alone(e, spec.source) for e in _expressions(check)):
        return None
    if not all(_alone(e.tree, "rest") for _, e in spec.values):
        return None
    return ranking


def read_alone(e: Expr, name: str) -> bool:
    """Whether ``e`` reads roll ``name`` at most as the module says: by how many dice it
    holds or their largest size (``count(pool) - count(roll)``, the 1s set aside)."""
    return name not in e.names or _alone(e.tree, name)


def ranked_choice(check: Check, ranking: DieByDie, pools: Iterator[DicePool], env: Mapping[str, Any],
                  sizes: bool, limits: Limits) -> RankedChoice | None:
    """How many dice ``check`` chooses and each die's rank, for the values known before the
    roll in ``env``, over the dice of ``pools``; None where that is not known so (a ``pick``
    or a rank that fails or is not a whole number: worked out throw by throw, which says
    what is wrong where it is)."""
    spec = check.choose
    assert spec is not None
    if not all(n in env for n in ranking.names):  # a rank that reads the rolls: not known before them
        return None
    try:
        k = spec.pick if spec.pick_expr is None else _value(spec.pick_expr, env, limits)
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_PICK:
            return None
        rank: dict[tuple[int, int], tuple[int, ...]] = {}
        for pool in pools:
            for s in set(pool.sides):
                size = s if sizes else 0
                for f in range(1, s + 1):
                    if (f, size) not in rank:
                        found = ranking.rank_of((f, size, ()), sizes, env, lambda e, local: _value(e, local, limits))
                        if found is None:
                            return None
                        rank[(f, size)] = found
    except RulesEngineError:
        return None
    return RankedChoice(k, rank)


def _value(e: Expr, env: Mapping[str, Any], limits: Limits) -> Any:
    return e.run(Context(e.text, env, limits))


def _alone(tree: ast.Node, name: str) -> bool:
    """Whether ``tree`` reads ``name`` only as a built-in's dice given alone whose reading is
    declared less than their faces (``count(rest)``, ``largest_die(rest)``)."""
    alone = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and len(node.args) == 1:
            builtin = BUILTINS.get(node.name)
            first = ast.bare(node.args[0])
            if builtin is not None and builtin.alone is not None and isinstance(first, ast.Name):
                alone.add(id(first))
    return all(id(node) in alone for node in ast.walk(tree) if isinstance(node, ast.Name) and node.name == name)


def _expressions(value: Any) -> Iterator[Expr]:
    """Every expression a check holds, in any of its parts."""
    if isinstance(value, Expr):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _expressions(item)
    elif isinstance(value, Record):
        for name in fields(value):
            yield from _expressions(getattr(value, name))
