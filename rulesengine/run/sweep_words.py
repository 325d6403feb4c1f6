"""Whether an input's value, as written on the command line, sweeps it (``skill=3..18``,
``stance=low,high``). Apart from :mod:`.sweep`, which works a sweep out, so that a command
whose inputs sweep nothing does not import that (start-up, issue 33)."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the type alone: start-up imports only this module for a call that sweeps nothing
    from ..rules.model import RulesetModel

DICE_LIKE = re.compile(r"^\s*\d*d\d+\s*$")  # an item that reads as dice: d8, 2d6


def is_swept(text: str, choices: Collection[str] = ()) -> bool:
    """Whether an input's value on the command line is a sweep: ``LO..HI``, or a list ``a,b,c``
    (not a dice pool written with commas, ``d8,d6``, which is one value, unless each item is
    one of the input's ``choices``: a choice of ``d4``, ``d6`` sweeps ``die=d4,d6``)."""
    if ".." in text:
        return True
    items = text.split(",")
    return len(items) > 1 and all(item.strip() for item in items) and (
        not all(DICE_LIKE.match(i) for i in items) or all(i.strip() in choices for i in items))


def choices_of(model: RulesetModel, name: str) -> dict[str, tuple[str, ...]]:
    """The choices of each choice input of a check (or of a procedure and its check's, which
    its parties give), by name: a list of them sweeps even where each reads as dice."""
    proc = model.procedures.get(name)
    check = model.checks.get(proc.check if proc is not None else name)
    specs = [*(check.inputs if check is not None else ()), *(proc.inputs if proc is not None else ())]
    return {spec.name: spec.choices for spec in specs if spec.type == "choice"}
