"""rulesengine: a declarative rules-data engine for tabletop role-playing games.

Game systems are data (YAML rulesets); one generic interpreter rolls them and computes
their exact odds. The dice language is available on its own as :mod:`rulesengine.dice`.

Importing this package is cheap: the parser and evaluator load on first use.
"""

from .errors import (DiceEvalError, DiceSyntaxError, InputError, LimitError, Location,
                     RulesEngineError)
from .limits import DEFAULT_LIMITS, Limits

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_LIMITS",
    "DiceEvalError",
    "DiceSyntaxError",
    "InputError",
    "LimitError",
    "Limits",
    "Location",
    "RulesEngineError",
    "__version__",
]
