"""Dropped dice in a trace, as a terminal shows them.

A trace marks a dropped die (or a face rerolled away) as ``~~2~~``, Markdown's strike-through,
and keeps that mark in JSON and in the library's ``trace``: a bot posts it where Markdown is
read. A terminal reads no Markdown, so the command line shows the mark its own way: struck
through with ANSI (SGR 9) when standard output is a terminal and ``NO_COLOR`` is not set
(https://no-color.org), else in parentheses, ``(2)``.
"""

from __future__ import annotations

import os
import re
from typing import Any

STRUCK = re.compile(r"(?<=[\[ ])~~([^~\[\],]+?)~~(?=[\], ])")
"""A struck die in a pool: after ``[`` or a space, before ``]``, ``,`` or a space (a label with
``~``, ``[``, ``]`` or ``,`` in it keeps its Markdown marks)."""


def struck_parts(text: str) -> list[tuple[str, bool]]:
    """``text`` as pieces: (piece, whether it is a struck die's text, without its marks)."""
    parts: list[tuple[str, bool]] = []
    at = 0
    for m in STRUCK.finditer(text):
        parts += [(text[at:m.start()], False), (m.group(1), True)]
        at = m.end()
    return [p for p in parts + [(text[at:], False)] if p[0]]


def plain(text: str) -> str:
    """The trace with each struck die in parentheses: ``[6, 5, 4, (2)]``."""
    return "".join(f"({p})" if struck else p for p, struck in struck_parts(text))


def strike_with_ansi(stream: Any) -> bool:
    """Whether ``stream`` is a terminal that may be given ANSI strike-through: it says it is
    one, and ``NO_COLOR`` is not set to a non-empty value."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")
