"""Errors as problem objects (RFC 9457), with the engine's own fields, and their HTTP status.

Anything a client can send gets a 4xx with the engine's code, message, hint and, where the
error has one, the place (path, line, column, JSON pointer) and the limit it hit: a client
program shows it as the command line would, without scraping text. Only a bug of the engine
is a 500, and it says so without a traceback.

An error about what the request gave (an input, a party, ``given``) is written in the
request's terms: ``pointer`` is the JSON pointer of that field of the request body
(``/inputs/skil``, ``/parties/1/skill``), and a hint that shows what to give shows it as JSON
(``give "parties": [{"skill": …}, {"skill": …}]``), not as the command line's or Python's words.
"""

from __future__ import annotations

import json
from ..records import replace
from typing import Any

from ..codes import CODES, E_BODY_TOO_LARGE, E_NOT_FOUND, E_NOT_READY, E_UNCLASSIFIED
from ..errors import Diagnostic, LimitError, PartiesExample, RequestError, RulesEngineError, out_of_memory
from ..rules.yaml_positions import to_pointer

PROBLEM_TYPE = "urn:ttrpg-rulesengine:error:"
"""A problem's ``type`` is this followed by its code (docs/errors.md lists each)."""

TIME_LIMIT = "time_limit"
"""The limit a request names when it ran past the service's wall-clock limit."""


def status_of(exc: RulesEngineError) -> int:
    """400 a malformed request, 404 something it names that does not exist, 413 too large,
    503 past the wall-clock limit (load-dependent: retrying later may succeed), 422 anything
    else the engine refuses (bad inputs, a bad ruleset or expression, a limit of work)."""
    if isinstance(exc, RequestError):
        return {E_NOT_FOUND: 404, E_BODY_TOO_LARGE: 413, E_NOT_READY: 503}.get(exc.code, 400)
    if isinstance(exc, LimitError) and exc.limit == TIME_LIMIT:
        return 503
    return 422


def problem(exc: RulesEngineError) -> dict[str, Any]:
    """The problem object of an engine error: RFC 9457's members, then the engine's."""
    status = status_of(exc)
    out: dict[str, Any] = {"type": PROBLEM_TYPE + exc.code, "title": _title(exc.code), "status": status,
                           "detail": exc.message}
    out.update(_in_request_terms(exc).to_dict())
    return out


def _in_request_terms(exc: RulesEngineError) -> Diagnostic:
    """The error's diagnostic with the field of the request it is about as its ``pointer``
    (unless it is at a place in a file) and a hint that shows what to give written as JSON."""
    diagnostic = exc.diagnostic()
    loc = exc.location
    if loc.field is not None and loc.path is None and loc.pointer is None:
        diagnostic = replace(diagnostic, location=replace(loc, pointer=to_pointer(loc.field)))
    if exc.example is not None:
        diagnostic = replace(diagnostic, hint=json_hint(exc.example))
    return diagnostic


def json_hint(example: PartiesExample) -> str:
    """A hint's example in a JSON request's terms: ``give "parties": [{"skill": …}, {"skill": …}]``."""
    shown = ", ".join("{" + ", ".join(f"{json.dumps(name, ensure_ascii=False)}: …" for name in names) + "}"
                      for names in example.parties)
    return f'{example.lead} "parties": [{shown}]'


def internal_problem(exc: BaseException) -> dict[str, Any]:
    """A bug of the engine (never a client's input): a 500 with the error's kind, no traceback.
    Running out of memory is no bug but a request too big for the machine: the engine's
    refusal (``errors.out_of_memory``, E210 naming ``max_states``), a 422 as the budget's."""
    if isinstance(exc, MemoryError):
        return problem(out_of_memory())
    return {"type": "about:blank", "title": "Internal Server Error", "status": 500,
            "detail": f"internal error (please report): {type(exc).__name__}", "code": E_UNCLASSIFIED,
            "severity": "error", "message": "internal error (please report)"}


def _title(code: str) -> str:
    entry = CODES.get(code)
    return entry.meaning[:1].upper() + entry.meaning[1:] if entry else "Error"
