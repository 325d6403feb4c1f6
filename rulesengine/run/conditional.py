"""Conditional odds: a check's exact odds given a yes/no expression over its names ("given
a success, how likely is a critical?"), with the condition's own probability. The
condition is compiled like the check's own expressions and read on each resolution of the
one exact driver."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..dice import ast
from ..dice.beyond import UNDETERMINED, Beyond
from ..dice.evaluate import compile_expression
from ..dice.parser import closest, parse
from ..dice.sampling import Sampling
from ..errors import InputError, Location, RulesEngineError
from ..records import replace
from ..rules.faces import face_views, faces_needed, initial_needed
from ..rules.model import Check, Expr
from ..rules.procedures import party_scope
from .exact import RollReads
from .results import CheckOdds
from .enumeration import Enumerator
from .runtime import Runtime
from .tally import OddsTally, collecting_open_paths


def conditional_odds(enumerator: Enumerator, values: dict[str, Any], holds: Expr, given: str) -> CheckOdds:
    """The odds of the resolutions for which ``holds`` (the :func:`condition` ``given``) holds,
    over their own weight, for these (coerced) inputs: P(x | given) = P(x and given) /
    P(given), exactly. The probability of ``given`` itself is reported beside them;
    ``truncated`` is the mass cut before conditioning."""
    runtime = enumerator.runtime
    acc = OddsTally()
    # The condition may look at dice the check's own rules don't (count(roll, 6), the first
    # throw): the rolls are then read for both.
    check = enumerator.check
    known = dict(check.face_views)
    views = face_views(check, [holds], None, known, beside=True)
    for name in faces_needed(check, [holds]) - check.faces_needed:
        views.setdefault(name, None)
    first = initial_needed(check, [holds])
    # Always given: the condition is read with the inputs as the check's own rules are
    # (ExactRolls.settled_reads), and may read a band they settle away.
    reads = RollReads(views, frozenset(first | check.initial_needed), (holds,))
    # What explosions cut off counts where the condition is decided whatever the depth
    # (rulesengine.dice.beyond); where it is not, that mass stays truncated. The paths whose
    # outcome the depth left open are noted, so that the condition may still be read on them.
    with collecting_open_paths() as open_paths:
        outcomes, joint_denom = enumerator.resolutions(values, reads, cut=True, open_ok=True)
    kept = total = 0
    for res, env, w in outcomes:
        local = {**env, **res.env}
        if any(isinstance(v, Beyond) for v in local.values()):
            try:
                holds_here = runtime.truth(holds, local)
            except UNDETERMINED + (RulesEngineError,):
                continue
        else:
            holds_here = runtime.truth(holds, local)
        total += w
        if holds_here:
            acc.add(res, w, 1)
            kept += w
    # A path whose outcome is open may still decide the condition (the first throw is known
    # exactly): where it fails there, that mass is not the condition's; where it holds, it is
    # (its outcome open). Where the condition reads what is open (the result, the outcome),
    # it stays open too.
    held_open = 0
    for local, w in open_paths:
        try:
            holds_here = runtime.truth(holds, local)
        except UNDETERMINED + (RulesEngineError,):
            continue
        total += w
        held_open += w if holds_here else 0
    undecided = joint_denom - total  # where the condition itself is open
    if not kept + held_open + undecided:
        raise InputError(f"the condition '{given}' never holds for these inputs",
                         hint="conditional odds need a condition with a chance above zero", field=("given",))
    # Where explosions past the depth leave some paths open (their outcome, or the condition
    # itself), each chance given the condition is at least what the paths worked out give
    # over all the mass the condition may hold on (what it holds on, and the open mass), and
    # ``truncated`` is that open mass over the same, so every row is at least its chance and
    # at most that plus ``truncated``, as without a condition. (Over the mass worked out
    # alone, a row could lie above its chance: issue 33's outside authors.)
    open_mass = held_open + undecided
    odds = acc.finish(runtime.model, check, values, kept + open_mass, kept, runtime.limits.max_states)
    # Where the condition is open on some cut paths, its chance is at least the one given
    # (``given_open`` more at most), and anything divided by it not exact: no result is then
    # exact given it.
    return replace(odds, given=given, given_probability=Fraction(kept + held_open, joint_denom),
                   given_open=Fraction(undecided, joint_denom),
                   result_cut_from=odds.result_cut_from if not open_mass else None)


def condition(runtime: Runtime, check: Check, text: str) -> Expr:
    """A yes/no expression over the check's names after it resolved (its inputs, values,
    rolls, ``result``, ``outcome``, ``success``), compiled like the check's own: the
    condition of conditional odds. A mistake in it is the caller's (InputError)."""
    try:
        tree = parse(text, runtime.limits)
    except RulesEngineError as exc:
        raise InputError(f"given: {exc.message}", exc.location, exc.hint, field=("given",)) from None
    known = party_scope(check).names
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.name not in known:
            tag = next((t for t in check.tags if t.name == node.name), None)
            near = closest(node.name, list(known))
            hint = (f"'{node.name}' is a tag, not a name: give its condition instead, {tag.when.text}"
                    if tag is not None else f"did you mean '{near}'?" if near else
                    "names: " + ", ".join(sorted(known)))
            raise InputError(f"given: unknown name '{node.name}'", Location(column=node.span[0] + 1,
                             source_line=text), hint, field=("given",))
        if isinstance(node, ast.Dice):
            raise InputError("given: a condition cannot roll dice", Location(column=node.span[0] + 1,
                             source_line=text), "name one of the check's rolls instead", field=("given",))
    run = compile_expression(tree, Sampling(), runtime.limits, text, runtime.functions)
    return Expr(text, tree, "", run, ast.names(tree))
