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
    """Load a ruleset: a shipped id or a path (see :func:`rulesengine.ruleset.load`).

    Args:
        name_or_path: a shipped id (see ``rulesengine list``), or a path to a
            ``.yaml``/``.yml`` file.
        limits: the limits the file is read with and its checks run with.

    Returns:
        The :class:`Ruleset` (cached while the file is unchanged).

    Raises:
        InputError: neither a shipped id nor a path.
        RulesEngineError: the file's first error, with its place (a ``LoadError``,
            ``SchemaError`` or ``RulesetError``); ``rulesengine validate`` lists them all.
    """
    from .ruleset import load as _load

    return _load(name_or_path, limits)


def loads(text: str, path: str | None = None, limits: Limits = DEFAULT_LIMITS):
    """Load a ruleset from YAML text (see :func:`rulesengine.ruleset.loads`).

    Args:
        text: the YAML, as text or as UTF-8 bytes.
        path: the name the text's errors give it (``"<string>"`` when None).
        limits: the limits the text is read with and its checks run with.

    Returns:
        A new :class:`Ruleset`.

    Raises:
        TypeError: ``text`` is neither text nor bytes.
        RulesEngineError: the text's first error, with its place (a ``LoadError``,
            ``SchemaError`` or ``RulesetError``).
    """
    from .ruleset import loads as _loads

    return _loads(text, path, limits)


def validate(*paths: str) -> list:
    """Validate ruleset files or folders: a report per file (see :mod:`rulesengine.validate`).

    Every diagnostic of each file is found, not only the first: the format, what the rules
    mean, and a search of each check's and procedure's inputs for faults.

    Args:
        *paths: files, and folders searched for ``*.yaml`` and ``*.yml`` files (hidden
            folders and virtualenvs skipped).

    Returns:
        A ``FileReport`` per file, in order: its ``path``, its ``diagnostics`` and their
        count of ``errors`` and ``warnings``. A file that cannot be read is reported, not
        raised.

    Raises:
        RulesEngineError: a path that does not exist, or a folder search past its limit of
            entries (a ``UsageError``).
    """
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
