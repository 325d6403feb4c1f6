"""Acknowledged warnings: ``allow: {W503: "rare on purpose: 1 in 10,000"}`` on an outcome rule.

A warning is a question the file's author may answer: "this outcome may never happen" is
sometimes right (a rule kept from the book for completeness, an outcome rarer than anything
``validate`` works out). ``allow`` answers it on the rule, by code, with the reason (the
schema requires one): ``validate`` and ``--strict`` no longer report that warning at the rule
or inside it. An acknowledgement of a warning that does not fire there is itself a warning
(W505), so a reason never outlives what it was for.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from collections.abc import Iterator

from ..codes import CODES, W_ACKNOWLEDGED_NOTHING
from ..dice.parser import closest
from ..errors import Diagnostic
from .document import Document
from .scope import escape_pointer


class Allowance(NamedTuple):
    pointer: str  # the rule's
    code: str
    reason: str
    what: str  # "outcome 'x' of check 'c'", for messages


def allowances(doc: Document) -> Iterator[Allowance]:
    """Every ``allow`` of every outcome rule of the file, in file order."""
    checks = doc.data.get("checks") if isinstance(doc.data, dict) else None
    for name, spec in (checks or {}).items() if isinstance(checks, dict) else ():
        rules = spec.get("outcomes") if isinstance(spec, dict) else None
        for i, rule in enumerate(rules if isinstance(rules, list) else ()):
            allow = rule.get("allow") if isinstance(rule, dict) else None
            for code, reason in (allow or {}).items() if isinstance(allow, dict) else ():
                yield Allowance(f"/checks/{escape_pointer(str(name))}/outcomes/{i}", str(code), str(reason),
                                f"outcome '{rule.get('name')}' of check '{name}'")


def acknowledge(doc: Document, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` without the warnings the file acknowledges, and a W505 for each
    acknowledgement that answered no warning (at its code, in the rule's ``allow``)."""
    given = list(allowances(doc))
    if not given:
        return diagnostics
    used: set[int] = set()
    kept = []
    for d in diagnostics:
        hit = None if d.severity != "warning" else next(
            (i for i, a in enumerate(given) if a.code == d.code and _inside(d.location.pointer, a.pointer)), None)
        if hit is None:
            kept.append(d)
        else:
            used.add(hit)
    for i, a in enumerate(given):
        if i not in used:
            kept.append(_unanswered(doc, a))
    return kept


def _inside(pointer: str | None, rule: str) -> bool:
    return pointer is not None and (pointer == rule or pointer.startswith(rule + "/"))


def _unanswered(doc: Document, a: Allowance) -> Diagnostic:
    where = doc.location(f"{a.pointer}/allow/{escape_pointer(a.code)}", key=True)
    warnings = sorted(c for c, entry in CODES.items() if entry.raised_as == "warning")
    if a.code not in warnings:
        near = closest(a.code, warnings)
        return Diagnostic(W_ACKNOWLEDGED_NOTHING, f"{a.what} acknowledges {a.code}, which is no warning code",
                          where, f"did you mean {near}?" if near else "warning codes: " + ", ".join(warnings),
                          "warning")
    return Diagnostic(W_ACKNOWLEDGED_NOTHING, f"{a.what} acknowledges {a.code} ({_short(a.reason)}), but validate "
                                              f"does not report {a.code} there",
                      where, f"remove '{a.code}' from the rule's allow: the warning it answered is gone", "warning")


def _short(text: Any, most: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= most else text[:most - 1] + "…"
