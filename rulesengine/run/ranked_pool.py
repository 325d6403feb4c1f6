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

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..dice import ast
from ..dice.builtins import BUILTINS, HOW_MANY
from ..dice.context import Context
from ..dice.mixed_pool import RankedChoice
from ..dice.values import DicePool
from ..errors import RulesEngineError
from ..limits import Limits
from ..rules.faces import compared_caps
from ..rules.model import MAX_PICK, Check, Expr, check_expressions
from .choosing import DieByDie


class ReadByRank(NamedTuple):
    """How a check's choice reads its roll, where :func:`read_by_rank` finds it so."""

    ranking: DieByDie
    # The most dice set aside that need telling apart: ``count(rest) > 0`` tells none from
    # some (1), where the roll's own number of dice is read nowhere; None: every number.
    most_set_aside: int | None


def read_by_rank(check: Check) -> ReadByRank | None:
    """The ranking die by die of ``check``'s choice where its roll is read only as the
    module says (by choosing, the dice left by how many and their largest size); else None."""
    spec = check.choose
    if spec is None or len(check.view_sources) != 1 or spec.source in check.report:
        return None
    ranking = DieByDie.of(spec)
    if ranking is None:
        return None
    elsewhere = [e for e in check_expressions(check) if spec.source in e.names]
    if not all(read_alone(e, spec.source) for e in elsewhere):
        return None
    if not all(_alone(e.tree, "rest") for _, e in spec.values):
        return None
    return ReadByRank(ranking, None if elsewhere else _most_told_apart([e for _, e in spec.values]))


def _most_told_apart(values: list[Expr]) -> int | None:
    """The most dice left the values tell apart by their number: what each ``count(rest)``
    is compared with (``count(rest) > 0``: 1), at least 1 (``largest_die(rest)`` tells none
    from some); None where one is read otherwise (``spare: count(rest)``)."""
    most = 1
    for e in values:
        caps = compared_caps(ast.walk(e.tree))
        for node in ast.walk(e.tree):
            if _reads_alone(node, "rest") == HOW_MANY:
                if id(node) not in caps:
                    return None
                most = max(most, caps[id(node)] + 1)
    return most


def read_alone(e: Expr, name: str) -> bool:
    """Whether ``e`` reads roll ``name`` at most as the module says: by how many dice it
    holds or their largest size (``count(pool) - count(roll)``, the 1s set aside)."""
    return name not in e.names or _alone(e.tree, name)


def ranked_choice(check: Check, read: ReadByRank, pools: list[DicePool], env: Mapping[str, Any],
                  sizes: bool, limits: Limits, capped: bool) -> RankedChoice | None:
    """How many dice ``check`` chooses and each die's rank, for the values known before the
    roll in ``env``, over the dice of ``pools``; None where that is not known so (a ``pick``
    or a rank that fails or is not a whole number: worked out throw by throw, which says
    what is wrong where it is). ``capped``: the number of dice set aside may be capped as
    ``read`` says (nothing else reads the roll), where no throw could be refused for its
    ways of choosing (``max_choices``): a throw kept with fewer dice would not be."""
    spec = check.choose
    assert spec is not None
    ranking = read.ranking
    if not all(n in env for n in ranking.names):  # a rank that reads the rolls: not known before them
        return None
    try:
        k = spec.pick if spec.pick_expr is None else _value(spec.pick_expr, env, limits)
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_PICK:
            return None
        rank: dict[tuple[int, int], tuple[int, ...]] = {}
        for pool in pools:
            for s in sorted(set(pool.sides)):
                size = s if sizes else 0
                for f in range(1, s + 1):
                    if (f, size) not in rank:
                        found = ranking.rank_of((f, size, ()), sizes, env, lambda e, local: _value(e, local, limits))
                        if found is None:
                            return None
                        rank[(f, size)] = found
    except RulesEngineError:
        return None
    most = max(len(pool.sides) for pool in pools)
    cap = read.most_set_aside if capped and math.comb(most, min(k, most)) <= limits.max_choices else None
    return RankedChoice(k, rank, cap)


def _value(e: Expr, env: Mapping[str, Any], limits: Limits) -> Any:
    return e.run(Context(e.text, env, limits))


def _reads_alone(node: ast.Node, name: str) -> str | None:
    """What ``node`` reads of the dice ``name`` holds where it is a built-in given them alone
    and reads less than their faces (``count(rest)``: how many; ``largest_die(rest)``)."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1):
        return None
    first = ast.bare(node.args[0])
    builtin = BUILTINS.get(node.name)
    return builtin.alone if builtin is not None and isinstance(first, ast.Name) and first.name == name else None


def _alone(tree: ast.Node, name: str) -> bool:
    """Whether ``tree`` reads ``name`` only as :func:`_reads_alone` says."""
    alone = {id(ast.bare(n.args[0])) for n in ast.walk(tree)
             if isinstance(n, ast.Call) and _reads_alone(n, name) is not None}
    return all(id(node) in alone for node in ast.walk(tree) if isinstance(node, ast.Name) and node.name == name)
