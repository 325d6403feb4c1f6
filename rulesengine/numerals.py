"""Whole numbers written as text: one rule for the dice language and for every number typed
outside it (``name=value`` words, ``--seed``, ``--faces``, a ruleset input given as text).

The rule is ASCII digits only, with an optional sign: ``12``, ``-3``, ``+4``. Python's
``int()`` also reads ``١٢`` (Arabic-Indic), ``１２`` (full-width) and ``1_2``; the dice
language never did, so ``skill=١٢`` worked where ``3d6 <= ١٢`` was an error. Both now read
numbers through :func:`whole_number`, so they cannot drift apart again.
"""

from __future__ import annotations

import re

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")

# The hint for a number written with other characters, shared by every caller.
ASCII_DIGITS_HINT = "write digits as ASCII 0-9"


def whole_number(text: str) -> int:
    """The whole number ``text`` spells (surrounding spaces allowed), or ValueError.

    The error's message says why when the text looks like a number written another way
    (digits of another script, ``_`` between digits), so that callers can pass it on."""
    stripped = text.strip()
    if _WHOLE_NUMBER.fullmatch(stripped):
        return int(stripped)
    if stripped and any(ch.isdigit() or ch == "_" for ch in stripped):
        raise ValueError(f"{text!r} is not written with ASCII digits 0-9 only")
    raise ValueError(f"{text!r} is not a whole number")
