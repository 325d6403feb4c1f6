"""Reported values read apart from the rest of a check (issue 33, item 4).

A check's odds list each reported value's own distribution, never its joint one with the
outcome or with another reported value. A reported let that nothing else reads (``triumphs:
symbols(roll, 'triumph')`` beside ``net: symbols(roll, 'success') - …``) need not multiply
the readings the outcome is worked out over: the outcome, result, tags and tiers are worked
out over what their own rules read of the rolls, and each such value over what it reads
(its own :class:`PoolView` of the rolls). A pool of symbol dice read by a net and by two
counts of symbols is then a few one-number readings, not every joint reading of the three.

Where this holds is decided from the check alone (:func:`report_passes`): no dice chosen,
every view of the rolls known in advance (no count of a range given by a name), and the
reported let read by nothing but the report. The exact driver falls back to one pass over
every reading whenever something the passes can't split turns up (a roll cut by the depth).
"""

from __future__ import annotations

from typing import NamedTuple

from ..dice.pool_odds import PoolView
from ..rules.faces import face_views
from ..rules.model import Check, Expr, check_expressions, let_exprs


class ReportPasses(NamedTuple):
    """The views of the rolls for the outcome's pass, and for each reported let read apart,
    its name with the views of its own pass."""

    core: dict[str, PoolView | None]
    apart: tuple[tuple[str, dict[str, PoolView | None]], ...]


def _let_exprs(check: Check, name: str) -> list[Expr]:
    return let_exprs(next(let for let in check.lets if let.name == name))


def _closure(check: Check, name: str) -> list[Expr]:
    """The expressions of let ``name`` and of every let it reads, directly or through others."""
    lets = {let.name for let in check.lets}
    out: list[Expr] = []
    todo, seen = [name], {name}
    while todo:
        for e in _let_exprs(check, todo.pop()):
            out.append(e)
            for n in e.names & lets - seen:
                seen.add(n)
                todo.append(n)
    return out


def _apart(check: Check, exprs: list[Expr]) -> list[str]:
    """The reported lets nothing else reads: not the check's other expressions, nor another
    of them (a let read by another is read with it, in the outcome's pass)."""
    apart = [let.name for let in check.lets if let.after_roll and let.name in check.report]
    while apart:
        own = {id(e) for name in apart for e in _let_exprs(check, name)}
        read = set().union(*(e.names for e in exprs if id(e) not in own))
        for name in apart:
            read |= set().union(*(e.names for other in apart if other != name for e in _let_exprs(check, other)))
        kept = [name for name in apart if name not in read]
        if kept == apart:
            break
        apart = kept
    return apart


def _views_of(check: Check, source: list[Expr]) -> dict[str, PoolView | None] | None:
    """What ``source`` reads of the check's rolls (a roll it doesn't read at all: nothing, one
    reading, where its total made the pass's joint values that many times more: a pushed
    pool's damage pass read the other pools by their totals, 20,000 joint values), or None
    where that can't be told in advance."""
    views = face_views(check, list(source))
    if any(v is None for v in views.values()):
        return None
    for name, _ in check.face_views:
        views.setdefault(name, PoolView())  # its dice are not read here
    return views


def report_passes(check: Check) -> ReportPasses | None:
    """How the check's odds may be worked out in passes (see the module), or None."""
    if check.choose is not None or len(check.view_sources) != 1 or not check.face_views:
        return None
    if any(view is None for _, view in check.face_views):
        return None
    if check.initial_needed or any(view is not None and view.initial for _, view in check.face_views):
        # Every pass resolves every rule, and a pass that doesn't read a roll's first throw
        # gives its rolls none: the rules' initial(roll) would fail there (E201), not count.
        return None
    # every expression the resolver reads: outcome rules' `success:`, `best_of` conditions too
    exprs = list(check_expressions(check))
    apart = _apart(check, exprs)
    if not apart:
        return None
    own = {id(e) for name in apart for e in _let_exprs(check, name)}
    core = _views_of(check, [e for e in exprs if id(e) not in own])
    if core is None or core == dict(check.face_views):
        return None
    passes = []
    for name in apart:
        views = _views_of(check, _closure(check, name) + [e for _, e in check.rolls])
        if views is None:
            return None
        passes.append((name, views))
    return ReportPasses(core, tuple(passes))
