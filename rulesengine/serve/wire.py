"""What goes over the wire, both ways, for HTTP and stdio alike.

In: a request body is one JSON object whose every text is Unicode that UTF-8 can carry and
whose every number is finite. Python's ``json`` reads more than that (a ``\\ud800`` escape
with no partner, ``NaN``, ``Infinity``, ``1e400``), and what it reads would be echoed back
(an ``id``, a label, a name) into an answer that either cannot be written as UTF-8 or is not
JSON for a strict parser; so such a body is refused here, before anything runs, with a 400
naming the JSON pointer of the first bad value.

Out: an answer is always written, whatever text it holds: as UTF-8 JSON, and if some text in
it cannot be UTF-8, with every non-ASCII character as a ``\\uXXXX`` escape; never ``NaN``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ..errors import Location, RequestError

_SURROGATE = re.compile("[\ud800-\udfff]")
_JSON_WORDS = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _shown(text: str) -> str:
    """A pointer or key as an error quotes it: a lone surrogate written as ``\\uXXXX`` text."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _step(pointer: str, key: Any) -> str:
    return f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}"


def unwritable(value: Any, pointer: str = "") -> RequestError | None:
    """The first text (key or value) with a lone surrogate, or number that is not finite, in
    ``value`` (a decoded JSON value), as the RequestError that refuses it; None if all is well.
    Walked without recursion: any depth ``json`` can read is walked."""
    stack: list[tuple[str, Any]] = [(pointer, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found:
                return RequestError(
                    f"{_shown(where) or 'the request'}: text with a lone surrogate "
                    f"(\\u{ord(found.group()):04x} at character {found.start() + 1})", Location(pointer=_shown(where)),
                    hint="send Unicode text: a \\uD800-\\uDBFF escape must be followed by a \\uDC00-\\uDFFF one")
        elif isinstance(item, float):
            if not math.isfinite(item):
                return RequestError(
                    f"{_shown(where) or 'the request'}: a number that is not finite ({_JSON_WORDS[repr(item)]})",
                    Location(pointer=_shown(where)),
                    hint="send finite numbers: JSON has no NaN or Infinity, and 1e400 is past a float's range")
        elif isinstance(item, dict):
            for key, sub in reversed(item.items()):
                if _SURROGATE.search(key):
                    return RequestError(f"{_shown(_step(where, key))}: a name with a lone surrogate",
                                        Location(pointer=_shown(_step(where, key))),
                                        hint="send Unicode text: a \\uD800-\\uDBFF escape must be followed "
                                             "by a \\uDC00-\\uDFFF one")
                stack.append((_step(where, key), sub))
        elif isinstance(item, list):
            stack.extend((_step(where, i), sub) for i, sub in reversed(list(enumerate(item))))
    return None


def load_object(data: bytes) -> dict[str, Any]:
    """A JSON object as Python's ``json`` reads it, or a RequestError saying why not (never a
    crash, even on 100,000 nested brackets). Its texts and numbers are not checked yet."""
    try:
        value = json.loads(data)
    except RecursionError:
        raise RequestError("the request nests too deeply", hint="send a flat JSON object") from None
    except ValueError as exc:
        raise RequestError(f"the request is not JSON: {str(exc)[:120]}",
                           hint='send one JSON object, e.g. {"op": "list"}') from None
    if not isinstance(value, dict):
        raise RequestError("the request must be a JSON object", hint='e.g. {"op": "list"}')
    return value


def parse_json(data: bytes) -> dict[str, Any]:
    """A request body: a JSON object of Unicode text and finite numbers, or a RequestError."""
    value = load_object(data)
    refused = unwritable(value)
    if refused is not None:
        raise refused
    return value


def dump_json(value: Any, separators: tuple[str, str] | None = None) -> bytes:
    """``value`` as UTF-8 JSON that any parser reads; a ValueError (a bug of the engine, as
    the service never takes one in) if it holds a number that is not finite."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=separators)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # text the service did not refuse: still written, as escapes
        return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=separators).encode("ascii")
