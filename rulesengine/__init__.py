"""rulesengine: a declarative rules-data engine for tabletop role-playing games.

Game systems are data (YAML rulesets); one generic interpreter rolls them and computes
their exact odds. The dice language is available on its own as :mod:`rulesengine.dice`.

Importing this package is cheap: the parser and evaluator load on first use.
"""

from .errors import (DiceEvalError, DiceSyntaxError, InputError, LimitError, Location,
                     RulesEngineError)
from .limits import DEFAULT_LIMITS, Limits

from .version import __version__


def load(name_or_path, limits: Limits = DEFAULT_LIMITS):
    """Load a ruleset: a shipped id or a path (see :func:`rulesengine.ruleset.load`)."""
    from .ruleset import load as _load

    return _load(name_or_path, limits)


def loads(text: str, path: str | None = None, limits: Limits = DEFAULT_LIMITS):
    """Load a ruleset from YAML text (see :func:`rulesengine.ruleset.loads`)."""
    from .ruleset import loads as _loads

    return _loads(text, path, limits)


def validate(*paths: str) -> list:
    """Validate ruleset files or folders: a report per file (see :mod:`rulesengine.validate`)."""
    from .validate import validate_paths

    return validate_paths(paths)


def __getattr__(name: str):
    """Ruleset, Check, CheckResult, CheckOdds: imported on first use, to keep start-up small."""
    lazy = {"Ruleset": "ruleset", "Check": "ruleset", "CheckResult": "run.results", "CheckOdds": "run.results",
            "RollResult": "dice", "Odds": "dice"}
    if name in lazy:
        import importlib

        return getattr(importlib.import_module(f".{lazy[name]}", __name__), name)
    raise AttributeError(f"module 'rulesengine' has no attribute {name!r}")


__all__ = [
    "Check",
    "CheckOdds",
    "CheckResult",
    "Odds",
    "RollResult",
    "Ruleset",
    "load",
    "loads",
    "validate",
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
