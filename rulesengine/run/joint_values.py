"""The joint values of a check's rolls, as the exact driver builds them roll by roll: each
a mapping of the rolls so far to their values, with its weight. What every module that
joins a roll to them shares (:mod:`.enumeration`, :mod:`.reading_join`, :mod:`.pushed`)."""

from __future__ import annotations

from typing import Any

from ..dice.beyond import cut_value
from ..dice.dist import Dist

Joint = list[tuple[dict[str, Any], int]]
"""The joint values of a check's rolls so far, each with its weight (``run.enumeration``)."""


def outcomes_of(dist: Dist, cut: bool) -> list[tuple[Any, int]]:
    """A roll's values with their weights; with ``cut``, what explosions cut off too, each
    as the bound it is known by (:func:`rulesengine.dice.beyond.cut_value`)."""
    outcomes = list(dist.weights.items())
    if cut:
        outcomes += [(cut_value(lo), w) for lo, w in dist.tail.items()]
    return outcomes


def joint_width(joint: Joint) -> int:
    """The values each joint value holds (every one holds the same rolls)."""
    return len(joint[0][0]) if joint else 0
