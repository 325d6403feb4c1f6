"""A ruleset as plain JSON (`export`), and syntax trees as JSON (``ast_json``).

Presentation only: a front end or another tool reads what a ruleset says without parsing
YAML or the dice language itself.
"""

from __future__ import annotations

import dataclasses
from typing import Any
from collections.abc import Mapping

from ..rules.model import Expr, Grid, Ladder, Ranges


def ast_json(node: Any) -> Any:
    """A syntax tree as plain JSON: {"node": "Binary", "op": "+", "left": {...}, ...}."""
    if isinstance(node, tuple):
        return [ast_json(x) for x in node]
    if dataclasses.is_dataclass(node):
        out: dict[str, Any] = {"node": type(node).__name__}
        for f in dataclasses.fields(node):
            if f.name == "span":
                continue
            value = getattr(node, f.name)
            if value is None:
                continue
            out[f.name] = ast_json(value)
        return out
    return node


def _expr(e: Expr | None) -> Any:
    if e is None:
        return None
    return {"text": e.text, "names": sorted(e.names), "ast": ast_json(e.tree)}


def export(rs) -> dict[str, Any]:
    m = rs.model
    tables: dict[str, Any] = {}
    for name, t in m.tables.items():
        if isinstance(t, Ladder):
            body: Any = {"entries": dict(t.entries)}
        elif isinstance(t, Ranges):
            body = {"rows": [{"min": r.low, "max": r.high, "value": r.value} for r in t.rows]}
        elif isinstance(t, Grid):
            body = {"columns": list(t.columns), "rows": {label: list(v) for label, v in t.rows}}
        else:
            body = {"tiers": [{"min": x.min, "label": x.label, "description": x.description} for x in t.tiers]}
        tables[name] = {"kind": t.kind, "description": t.description, **body}

    def inp(i) -> dict[str, Any]:
        return {"type": i.type, "help": i.help, "required": not i.has_default and not i.optional,
                "default": _json_value(i.default) if i.has_default else None, "optional": i.optional,
                "min": i.min, "max": i.max, "choices": list(i.choices) or None,
                "labels": ({"table": i.labels, "column": i.labels_column} if i.labels else None)}

    checks = {}
    for name, c in m.checks.items():
        checks[name] = {
            "description": c.description,
            "rules": list(c.rules),
            "inputs": {i.name: inp(i) for i in c.inputs},
            "let": [{"name": let.name, "after_roll": let.after_roll, "expression": _expr(let.expr),
                     "best_of": [{"value": _expr(x.value), "when": _expr(x.when), "label": x.label}
                                 for x in let.best_of] or None} for let in c.lets],
            "gates": [{"when": _expr(g.when), "outcome": g.outcome, "result": _expr(g.result),
                       "rolls": {k: _expr(e) for k, e in g.rolls} or None, "reason": g.reason} for g in c.gates],
            "secret": _expr(c.secret),
            "rolls": {n: _expr(e) for n, e in c.rolls},
            "choose": None if c.choose is None else {
                "from": c.choose.source, "pick": c.choose.pick,
                "values": {k: _expr(e) for k, e in c.choose.values}, "prefer": _expr(c.choose.prefer),
                "order": list(c.choose.order)},
            "result": _expr(c.result),
            "outcomes": [{"name": o.name, "success": o.success if isinstance(o.success, bool) else _expr(o.success),
                          "when": _expr(o.when), "result": _expr(o.result),
                          "description": o.description} for o in c.outcomes],
            "tags": [{"name": t.name, "when": _expr(t.when), "description": t.description} for t in c.tags],
            "report": list(c.report),
            "tiers": c.tiers,
        }
    procedures = {}
    for name, p in m.procedures.items():
        settings = {f.name: _settings_json(getattr(p.settings, f.name)) for f in dataclasses.fields(p.settings)}
        procedures[name] = {"kind": p.kind, "description": p.description, "check": p.check,
                            "rules": list(p.rules), "inputs": {i.name: inp(i) for i in p.inputs}, **settings}
    src = dataclasses.asdict(m.source)
    return {"ruleset": m.id, "name": m.name, "version": m.version, "source": src, "license": m.license,
            "description": m.description, "tables": tables, "checks": checks, "procedures": procedures}


def _json_value(v: Any) -> Any:
    return v if isinstance(v, (int, str, bool)) or v is None else str(v)


def _settings_json(v: Any) -> Any:
    if isinstance(v, Expr):
        return _expr(v)
    if isinstance(v, Mapping):
        return {k: _settings_json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_settings_json(x) for x in v]
    return v
