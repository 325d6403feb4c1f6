"""A check's ``examples:``: tests the file carries, run by ``validate``.

Each example gives inputs (those left out take their defaults) and the outcome they give:

* with ``faces`` (the faces the dice show, in the order the check rolls them, as ``roll
  --faces``), the check is rolled with those dice and must give exactly that outcome;
* without, the outcome must be possible with those inputs: its exact odds above 0.

A mismatch is an error at the example (E527), as is an example that cannot be checked (its
odds too big to work out: give ``faces``); an error the check raises for the example's inputs
or dice is reported there with its own code. An example that reaches an outcome is a proof
that the outcome can happen: it settles the search's W503 for that rule
(:mod:`rulesengine.run.reach`).
"""

from __future__ import annotations

import shlex
from typing import Any
from collections.abc import Mapping

from ..codes import E_EXAMPLE, E_UNKNOWN_REFERENCE, W_UNREACHABLE_OUTCOME
from ..dice.parser import closest
from ..errors import Diagnostic, RulesEngineError
from ..limits import Limits
from ..rules.build import ruleset_functions
from ..rules.document import Document
from ..rules.model import Check, RulesetModel
from .check import CheckRunner


def check_examples(model: RulesetModel, doc: Document, limits: Limits) -> tuple[list[Diagnostic], dict[str, set[str]]]:
    """Every example of every check, run: the diagnostics of those that fail, and for each
    check the outcomes its examples showed happening."""
    functions = ruleset_functions(model)
    out: list[Diagnostic] = []
    reached: dict[str, set[str]] = {}
    checks = doc.data.get("checks") or {}
    for name, check in model.checks.items():
        examples = (checks.get(name) or {}).get("examples") or []
        if not examples:
            continue
        runner = CheckRunner(model, check, functions, doc, limits)
        for i, example in enumerate(examples):
            pointer = f"{check.pointer}/examples/{i}"
            what = f"example {i + 1} of check '{name}'"
            problem = _run(runner, check, example, pointer, what, doc)
            if problem is None:
                reached.setdefault(name, set()).add(example["outcome"])
            else:
                out.append(problem)
    return out, reached


def _run(runner: CheckRunner, check: Check, example: Mapping[str, Any], pointer: str, what: str,
         doc: Document) -> Diagnostic | None:
    """None when the example holds, else what is wrong with it."""
    expected = example["outcome"]
    if expected not in check.outcome_names:
        near = closest(expected, list(check.outcome_names))
        return Diagnostic(E_UNKNOWN_REFERENCE, f"{what}: '{expected}' is no outcome of the check",
                          doc.location(f"{pointer}/outcome"),
                          f"did you mean '{near}'?" if near else "outcomes: " + ", ".join(check.outcome_names))
    inputs = dict(example.get("inputs") or {})
    faces = example.get("faces")
    where = doc.location(pointer)
    said = _with(inputs)
    try:
        if faces is not None:
            got = runner.roll(inputs, faces=faces).outcome
            if got == expected:
                return None
            dice = ",".join(str(f) for f in faces)
            return Diagnostic(E_EXAMPLE, f"{what}: the faces {dice}{said} give '{got}', not '{expected}'", where,
                              f"fix the rules or the example; 'rulesengine roll {_file(doc)} {check.name}"
                              f"{_args(inputs)} --faces {dice}' shows the roll step by step")
        odds = runner.odds(inputs)
    except RulesEngineError as exc:
        if faces is None and exc.limit is not None:
            return Diagnostic(E_EXAMPLE, f"{what} cannot be checked: its odds are too big to work out ({exc.message})",
                              where, "give the faces the dice show (faces: [...]): one roll is always checked")
        return Diagnostic(exc.code, f"{what}: {exc.message}", where, exc.hint, limit=exc.limit)
    if odds.outcomes.get(expected, 0) > 0:
        return None
    if odds.truncated:
        return Diagnostic(E_EXAMPLE, f"{what}: '{expected}' never happened{said} in the explosions the odds follow",
                          where, "give the faces the dice show (faces: [...]) to check one roll that reaches it")
    return Diagnostic(E_EXAMPLE, f"{what}: '{expected}' can never happen{said} (its exact odds are 0)", where,
                      "fix the rules or the example (its inputs, or the outcome)")


def settle(diagnostics: list[Diagnostic], model: RulesetModel, reached: dict[str, set[str]]) -> list[Diagnostic]:
    """``diagnostics`` without the W503 of outcomes an example showed happening."""
    settled = {rule.pointer for name, outcomes in reached.items() for rule in model.checks[name].outcomes
               if rule.name in outcomes}
    return [d for d in diagnostics if not (d.code == W_UNREACHABLE_OUTCOME and d.location.pointer in settled)]


def _file(doc: Document) -> str:
    return shlex.quote(doc.path) if doc.path else "FILE"


def _with(inputs: Mapping[str, Any]) -> str:
    return " with " + ", ".join(f"{k}={v}" for k, v in inputs.items()) if inputs else ""


def _args(inputs: Mapping[str, Any]) -> str:
    return "".join(f" {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in inputs.items())
