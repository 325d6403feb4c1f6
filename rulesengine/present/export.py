"""A ruleset as plain JSON (`export`), and syntax trees as JSON (``ast_json``).

Presentation only: a front end or another tool reads what a ruleset says without parsing
YAML or the dice language itself.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable, Mapping

from ..records import asdict, fields, is_record
from ..rules.model import Check, Expr, Grid, Input, Ladder, Procedure, Ranges, RulesetModel
from .forms import input_json


def ast_json(node: Any) -> Any:
    """A syntax tree as plain JSON: {"node": "Binary", "op": "+", "left": {...}, ...}."""
    if isinstance(node, tuple):
        return [ast_json(x) for x in node]
    if is_record(node):
        out: dict[str, Any] = {"node": type(node).__name__}
        for name in fields(node):
            if name == "span":
                continue
            value = getattr(node, name)
            if value is None:
                continue
            out[name] = ast_json(value)
        return out
    return node


def _expr(e: Expr | None) -> Any:
    if e is None:
        return None
    return {"text": e.text, "names": sorted(e.names), "ast": ast_json(e.tree)}


EXPORT_FORMAT = 1
"""The version of the export's shape (``schemas/export.schema.json``). It changes only when
a field is removed or changes meaning; new optional fields keep the number."""


def export(rs) -> dict[str, Any]:
    """A loaded ruleset as export format 1: what a front end in any language needs to show
    a ruleset and ask for its inputs, and every expression as text and as a syntax tree."""
    from ..version import __version__

    m = rs.model
    return {"format": EXPORT_FORMAT, "engine": {"name": "rulesengine", "version": __version__},
            "id": m.id, "name": m.name, "version": m.version, "source": asdict(m.source),
            "license": m.license, "description": m.description,
            "tables": {name: _table(t) for name, t in m.tables.items()},
            "checks": {name: _check(m, c) for name, c in m.checks.items()},
            "procedures": {name: _procedure(m, p) for name, p in m.procedures.items()}}


def summary(rs) -> dict[str, Any]:
    """A ruleset in one row (``list --json``, the service's list): id, name, version, and its
    checks' and procedures' names."""
    return {"id": rs.id, "name": rs.name, "version": rs.model.version,
            "checks": rs.checks(), "procedures": rs.procedures()}


def _table(t: Any) -> dict[str, Any]:
    if isinstance(t, Ladder):
        body: dict[str, Any] = {"entries": dict(t.entries)}
    elif isinstance(t, Ranges):
        body = {"rows": [{"min": r.low, "max": r.high, "value": r.value} for r in t.rows]}
    elif isinstance(t, Grid):
        body = {"columns": list(t.columns), "rows": {label: list(v) for label, v in t.rows}}
    else:
        body = {"tiers": [{"min": x.min, "label": x.label, "description": x.description} for x in t.tiers]}
    return {"kind": t.kind, "description": t.description, **body}


def _inputs(m: RulesetModel, specs: Iterable[Input], computed: tuple[str, ...] = ()) -> dict[str, Any]:
    return {i.name: input_json(m, i) for i in specs if i.name not in computed}


def _check(m: RulesetModel, c: Check) -> dict[str, Any]:
    return {
        "label": c.label or c.name,
        "description": c.description,
        "rules": list(c.rules),
        "inputs": _inputs(m, c.inputs),
        "let": [{"name": let.name, "after_roll": let.after_roll, "expression": _expr(let.expr),
                 "best_of": [{"value": _expr(x.value), "when": _expr(x.when), "label": x.label}
                             for x in let.best_of] or None} for let in c.lets],
        "gates": [{"when": _expr(g.when), "outcome": g.outcome, "result": _expr(g.result),
                   "rolls": {k: _expr(e) for k, e in g.rolls} or None, "reason": g.reason} for g in c.gates],
        "secret": _expr(c.secret),
        "rolls": {n: _expr(e) for n, e in c.rolls},
        "choose": None if c.choose is None else {
            "from": c.choose.source, "pick": c.choose.pick if c.choose.pick_expr is None else _expr(c.choose.pick_expr),
            "values": {k: _expr(e) for k, e in c.choose.values}, "prefer": _expr(c.choose.prefer),
            "order": list(c.choose.order)},
        "result": _expr(c.result),
        "outcomes": [{"name": o.name, "label": o.label or o.name,
                      "success": o.success if isinstance(o.success, bool) else _expr(o.success),
                      "when": _expr(o.when), "result": _expr(o.result),
                      "description": o.description} for o in c.outcomes],
        "tags": [{"name": t.name, "when": _expr(t.when), "description": t.description} for t in c.tags],
        "report": list(c.report),
        "tiers": c.tiers,
    }


def _procedure(m: RulesetModel, p: Procedure) -> dict[str, Any]:
    """A procedure, with who gives which inputs: ``inputs`` are given once (the procedure's
    own, and for a kind that takes them so, its check's), ``parties`` one entry per role."""
    inputs = _inputs(m, p.inputs)
    parties = []
    for role in p.settings.roles(p.check):
        check = m.checks[role.check]
        if role.given_as == "inputs":
            inputs.update(_inputs(m, check.inputs, role.computed))
            continue
        parties.append({"role": role.name, "check": role.check, "first": role.first, "min": role.min,
                        "max": role.max, "inputs": _inputs(m, check.inputs, role.computed),
                        "computed": list(role.computed)})
    spec: Any = p.settings  # every kind's spec is a record
    settings = {name: _settings_json(getattr(spec, name)) for name in fields(spec)}
    return {"kind": p.kind, "label": p.label or p.name, "description": p.description, "check": p.check,
            "rules": list(p.rules), "inputs": inputs, "parties": parties, "settings": settings,
            "report": {name: _expr(e) for name, e in p.report}}


def _settings_json(v: Any) -> Any:
    if isinstance(v, Expr):
        return _expr(v)
    if isinstance(v, Mapping):
        return {k: _settings_json(x) for k, x in v.items()}
    if is_record(v):  # a tie-breaker, a round rule, an outcome rule: its fields by name
        return {k: _settings_json(getattr(v, k)) for k in fields(v)}
    if hasattr(v, "_asdict"):  # a NamedTuple: the same
        return {k: _settings_json(x) for k, x in v._asdict().items()}
    if isinstance(v, (list, tuple)):
        return [_settings_json(x) for x in v]
    return v
