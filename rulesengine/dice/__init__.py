"""The dice language on its own: text → syntax tree → one evaluator with two drivers.

This package imports nothing from :mod:`rulesengine.rules` or :mod:`rulesengine.run`; rulesets
build on it, never the other way round. Its public API (re-exported here) is what
``from rulesengine import dice`` has always meant:

>>> from rulesengine import dice
>>> dice.odds("2d6").probability(7)
Fraction(1, 6)
"""

from .api import Expression, Odds, RollResult, odds, parse, roll

__all__ = ["Expression", "RollResult", "Odds", "parse", "roll", "odds"]
