"""The dice language on its own: text → syntax tree → one evaluator with two drivers.

This package imports nothing from :mod:`rulesengine.rules` or :mod:`rulesengine.run`; rulesets
build on it, never the other way round. Its public API (re-exported here) is what
``from rulesengine import dice`` has always meant:

>>> from rulesengine import dice
>>> dice.odds("2d6").probability(7)
Fraction(1, 6)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported on first use (__getattr__), to keep start-up small
    from .api import Expression, Odds, RollResult, odds, parse, roll

__all__ = ["Expression", "RollResult", "Odds", "parse", "roll", "odds"]


def __getattr__(name: str) -> Any:
    """The names of ``__all__``, from :mod:`.api` on first use: a module of the engine that
    imports a part of this package (its syntax tree, its parser) need not load them all."""
    if name in __all__:
        from . import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
