"""Procedures built from checks: one typed spec and one small builder per kind, in a registry.

A procedure kind is one module here (its frozen spec and its builder) and one module in
:mod:`rulesengine.run.procedures` (its runner); adding a kind adds its name to ``KINDS``.
What every kind shares — the check it is made of, its own inputs, the names a party's
check defines — is built once, here."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

from ...dice.parser import closest
from ...codes import E_UNKNOWN_REFERENCE
from ..context import BuildContext
from ..inputs import build_input
from ..model import Check, Expr, Procedure, ProcedureSpec
from ..scope import Scope, escape_pointer

KINDS: tuple[str, ...] = ("contest", "extended", "team", "assisted", "group")
"""The procedure kinds, each the module of that name here: its spec, ``build`` (the spec from
the file) and ``end_scope`` (what its ``report`` may read when it ends, from its spec, its own
inputs' scope and the names of its check). A kind's module is imported when a file has a
procedure of that kind (start-up: most files have none)."""


def kind_module(kind: str) -> Any:
    """The module of procedure kind ``kind`` (KeyError for a kind that is not one)."""
    if kind not in KINDS:
        raise KeyError(kind)
    return importlib.import_module(f"{__name__}.{kind}")


def party_scope(check: Check) -> Scope:
    """The names a party's check defines once it has resolved: what a procedure's
    expressions read of each party."""
    scope = Scope({i.name: "input" for i in check.inputs})
    scope.names.update({let.name: "value" for let in check.lets})
    scope.names.update({n: "roll" for n, _ in check.rolls})
    scope.names.update({r: "value" for r in check.report})
    if check.choose is not None:
        scope.names.update({n: "value" for n, _ in check.choose.values})
    scope.names.update(result="the result", outcome="the outcome", success="whether it succeeded")
    return scope


def build_procedure(builder: BuildContext, name: str, spec: dict, ptr: str) -> Procedure | None:
    check = builder.checks.get(spec["check"])
    if check is None:
        near = closest(spec["check"], list(builder.checks))
        builder.error(E_UNKNOWN_REFERENCE, f"procedure '{name}' uses check '{spec['check']}', which does not exist",
                      f"{ptr}/check", f"did you mean '{near}'?" if near else None)
        return None
    inputs = tuple(build_input(builder, n, s, f"{ptr}/inputs/{escape_pointer(n)}")
                   for n, s in (spec.get("inputs") or {}).items())
    party = party_scope(check)
    module = kind_module(spec["kind"])
    settings: ProcedureSpec | None = module.build(builder, name, spec, ptr, check, inputs, party)
    if settings is None:
        return None
    own = Scope({i.name: "input" for i in inputs})
    end = module.end_scope(settings, own, party)
    report = []
    names = list(spec.get("report") or {})
    for i, (n, text) in enumerate((spec.get("report") or {}).items()):
        # a report value reads those listed above it, as a let reads the lets above (one named
        # as something it may read already leaves that as it was)
        later = {m: f"'{m}' is a report value listed below '{n}': a report value reads those above it"
                 for m in names[i:] if m not in end.names}
        e = builder.expr(text, f"{ptr}/report/{escape_pointer(n)}", Scope(end.names, {**end.elsewhere, **later}),
                         what=f"report '{n}'")
        if e is not None:
            report.append((n, e))
        if n not in end.names:
            end = end.with_names(**{n: "a report value"})
    return Procedure(name, spec["kind"], spec.get("description", ""), check.name, settings, inputs,
                     tuple(spec.get("rules", ())), ptr, spec.get("label", ""), tuple(report))


def party_expressions(proc: Procedure) -> list[tuple[str, list[Expr], dict[str, str]]]:
    """(check, expressions, aliases) for each check whose values after it resolved a
    procedure's expressions read (see each spec's ``party_expressions``), its ``report``
    included where the kind's report reads a party's check (all kinds but extended, whose
    report reads its final state)."""
    out = proc.settings.party_expressions(proc.check)
    if proc.report and proc.kind != "extended":
        out = out + [(proc.check, [e for _, e in proc.report], {})]
    return out


def roll_readers(procedures: Iterable[Procedure], check: str, also: Iterable[Expr] = ()
                 ) -> tuple[list[Expr], frozenset[str]]:
    """What reads a check's rolls beside its own rules: what ``procedures`` read of them (and
    the names they read them by, their aliases), and ``also``."""
    more, renamed = list(also), set()
    for proc in procedures:
        for name, exprs, aliases in party_expressions(proc):
            if name == check:
                more += exprs
                renamed |= set(aliases.values())
    return more, frozenset(renamed)
