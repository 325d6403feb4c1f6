"""A result with a sign of its own that says otherwise than its outcome (issue 32).

``result_sign`` gives a result of 0 its sign: +0 ranks with the successes, -0 with the
failures (docs/ruleset-language.md). A sign that doesn't follow the outcome — ``result_sign:
true``, or a comparison of the dice that misses a rule (a critical failure under the
target) — puts a 0 on the wrong side: a failure shown as +0, a success as -0, ranked with
the others. Validation looks for such a roll over the same input sets the reach search
tries (:mod:`.reach`), reading every resolution of the check exactly, and warns (W512) at
``result_sign`` with the first it finds.
"""

from __future__ import annotations

from ..records import replace
from typing import Any

from ..codes import W_SIGN_AGAINST_SUCCESS
from ..errors import Diagnostic, RulesEngineError
from ..limits import REACH_MAX_TRIES, REACH_SEARCH_STATES, Limits
from ..rules.document import Document
from ..rules.model import Check, RulesetModel
from ..rules.table_functions import ruleset_functions
from .check import CheckRunner
from .reach import candidates, every_input_set
from .results import NOT_ALLOWED, Resolution


def signs_against_success(model: RulesetModel, doc: Document, limits: Limits) -> list[Diagnostic]:
    """W512 for each check whose ``result_sign`` gives some reachable 0 the sign its outcome's
    success does not have."""
    small = replace(limits, max_states=min(limits.max_states, REACH_SEARCH_STATES))
    functions = ruleset_functions(model)
    out: list[Diagnostic] = []
    for name, check in model.checks.items():
        if check.result_sign is None:
            continue
        found = sign_against_success(model, check, functions, doc, small)
        if found is None:
            continue
        res, inputs = found
        shown = " with " + ", ".join(f"{k}={v}" for k, v in inputs.items()) if inputs else ""
        out.append(Diagnostic(
            W_SIGN_AGAINST_SUCCESS,
            f"check '{name}': result_sign makes a result of 0 '{res.signed}' on outcome '{res.outcome}', which "
            f"{'succeeds' if res.success else 'fails'}{shown}: {res.signed} ranks with the "
            f"{'successes' if res.signed == '+0' else 'failures'}",
            doc.location(f"{check.pointer}/result_sign"),
            "give a 0 the sign of its outcome: result_sign: success", "warning"))
    return out


def sign_against_success(model: RulesetModel, check: Check, functions: Any, doc: Document,
                         limits: Limits) -> tuple[Resolution, dict[str, Any]] | None:
    """A resolution with a chance whose result is 0 signed against its success, and the
    inputs that give it; None if none of the input sets tried has one."""
    runner = CheckRunner(model, check, functions, doc, limits)
    everything = every_input_set(check, REACH_MAX_TRIES)
    for tried, inputs in enumerate(everything if everything is not None else candidates(check)):
        if tried >= REACH_MAX_TRIES:
            break
        given = {k: v for k, v in inputs.items() if v is not None}
        try:
            resolutions, _ = runner.resolutions(runner.coerce_inputs(given))
        except RulesEngineError:
            continue  # a limit, or a fault the other searches report
        for res, _env, weight in resolutions:
            if weight and res.outcome != NOT_ALLOWED and res.signed in ("+0", "-0") \
                    and (res.signed == "+0") != bool(res.success):
                return res, given
    return None
