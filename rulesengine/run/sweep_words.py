"""Whether an input's value, as written on the command line, sweeps it (``skill=3..18``,
``stance=low,high``). Apart from :mod:`.sweep`, which works a sweep out, so that a command
whose inputs sweep nothing does not import that (start-up, issue 33)."""

from __future__ import annotations

import re
from collections.abc import Collection

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
