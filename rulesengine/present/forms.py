"""What a front end must ask a user before rolling: a JSON Schema for each check's and
procedure's inputs, and the plain description of one input that the export shares.

A web page, a chat bot or a generated client renders a form from the schema and may check
what the user typed against it before sending it; the engine still checks every value
itself (:mod:`rulesengine.run.inputs`), so a form is a help, never the safety.

The schema describes the call's arguments as one object, ``{"inputs": {...}, "parties":
[...]}``, the same shape the service's roll and odds requests take: ``parties`` only where a
procedure has parties (a contest's, a team's members, an assisted check's leader then its
helpers).
"""

from __future__ import annotations

from typing import Any

from ..dice.values import POOL_PATTERN
from ..limits import MAX_POOL_DICE, MAX_POOL_SIDES
from ..rules.model import Grid, Input, Ladder, Procedure, Role, RulesetModel

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

POOL_EXAMPLES = ("d8/d6/d6", "2d10+d4")
POOL_FORMAT = {"pattern": POOL_PATTERN, "max_dice": MAX_POOL_DICE, "max_sides": MAX_POOL_SIDES,
               "separators": ["/", "+", ","], "examples": list(POOL_EXAMPLES)}
"""A dice pool input's text, machine-readable: the form of the text and the bounds the
engine adds to it."""


def label_values(model: RulesetModel, spec: Input) -> dict[str, int]:
    """The labels an integer input may be given as, each with its number (a ladder's entries,
    a grid's rows in the input's column); empty when it takes none."""
    table = model.tables.get(spec.labels) if spec.labels else None
    if isinstance(table, Ladder):
        return dict(table.entries)
    if isinstance(table, Grid) and spec.labels_column in table.columns:
        col = table.columns.index(spec.labels_column)
        return {label: values[col] for label, values in table.rows}
    return {}


def input_json(model: RulesetModel, spec: Input) -> dict[str, Any]:
    """One input as the export describes it: every field a front end needs to render and
    check it, with no engine types."""
    labels = label_values(model, spec)
    return {"label": spec.label or spec.name, "type": spec.type, "help": spec.help,
            "required": not spec.has_default and not spec.optional,
            "default": _plain(spec.default) if spec.has_default else None, "optional": spec.optional,
            "min": spec.min, "max": spec.max, "choices": list(spec.choices) or None,
            "labels": ({"table": spec.labels, "column": spec.labels_column, "values": labels}
                       if spec.labels else None),
            "format": dict(POOL_FORMAT) if spec.type == "dice_pool" else None}


def input_schema(model: RulesetModel, spec: Input) -> dict[str, Any]:
    """One input as a JSON Schema: its type, bounds, choices or labels, default and help."""
    out: dict[str, Any] = {"title": spec.label or spec.name}
    if spec.help:
        out["description"] = spec.help
    if spec.type == "boolean":
        out["type"] = "boolean"
    elif spec.type == "choice":
        out.update(type="string", enum=list(spec.choices))
    elif spec.type == "dice_pool":
        out.update(type="string", pattern=POOL_PATTERN, examples=list(POOL_EXAMPLES))
    else:
        number: dict[str, Any] = {"type": "integer"}
        if spec.min is not None:
            number["minimum"] = spec.min
        if spec.max is not None:
            number["maximum"] = spec.max
        labels = [k for k, v in label_values(model, spec).items()
                  if (spec.min is None or v >= spec.min) and (spec.max is None or v <= spec.max)]
        if labels:
            out["anyOf"] = [number, {"type": "string", "enum": labels}]
        else:
            out.update(number)
    if spec.has_default:
        out["default"] = _plain(spec.default)
    if spec.optional:
        out = {"anyOf": [out, {"type": "null"}], "title": out["title"]}
    return out


def inputs_schema(model: RulesetModel, specs: tuple[Input, ...] | list[Input],
                  computed: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object of inputs: each input's schema; the ones without a default required."""
    shown = [s for s in specs if s.name not in computed]
    return {"type": "object", "properties": {s.name: input_schema(model, s) for s in shown},
            "required": [s.name for s in shown if not s.has_default and not s.optional],
            "additionalProperties": False}


def check_form(model: RulesetModel, name: str) -> dict[str, Any]:
    """The form of a check: ``{"inputs": {...}}``."""
    check = model.checks[name]
    return _document(check.label or name, check.description,
                     {"inputs": inputs_schema(model, check.inputs)}, [])


def procedure_form(model: RulesetModel, proc: Procedure) -> dict[str, Any]:
    """The form of a procedure: its own inputs (with the check's, for a kind that takes them
    beside its own) and, where it has parties, one object of inputs per party."""
    specs = list(proc.inputs)
    props: dict[str, Any] = {}
    items: list[tuple[Role, dict[str, Any]]] = []
    for role in proc.settings.roles(proc.check):
        check = model.checks[role.check]
        if role.given_as == "inputs":
            specs += [i for i in check.inputs if i.name not in role.computed]
        else:
            party = inputs_schema(model, check.inputs, role.computed)
            party["title"] = f"{role.name} ({check.label or check.name})"
            items.append((role, party))
    props["inputs"] = inputs_schema(model, specs)
    required = []
    if items:
        props["parties"] = _parties_schema(items)
        required.append("parties")
    return _document(proc.label or proc.name, proc.description, props, required)


def _parties_schema(items: list[tuple[Role, dict[str, Any]]]) -> dict[str, Any]:
    """The parties array: a single role repeats ``min``..``max`` times; a role of exactly one
    party (an assisted check's leader) comes first, the next role fills the rest."""
    low = sum(r.min for r, _ in items)
    high = sum(r.max for r, _ in items)
    out: dict[str, Any] = {"type": "array", "minItems": low, "maxItems": high}
    fixed = [schema for role, schema in items[:-1]]
    if fixed:
        out["prefixItems"] = fixed
    out["items"] = items[-1][1]
    out["description"] = "; ".join(_who(role) for role, _ in items)
    return out


def _who(role: Role) -> str:
    """``party1: the leader`` or ``party2..: 1 to 4 helpers``: who fills which entries."""
    if role.max == 1 and role.min == 1:
        return f"party{role.first}: the {role.name}"
    count = f"{role.min}" if role.min == role.max else f"{role.min} to {role.max}"
    return f"party{role.first} onwards: {count} {plural(role.name, role.max)}"


def plural(noun: str, n: int) -> str:
    """``party`` → ``parties``, ``helper`` → ``helpers``; the noun itself for one."""
    if n == 1:
        return noun
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


def input_form(model: RulesetModel, name: str) -> dict[str, Any]:
    """The form of a check or procedure by name (a KeyError for neither: callers look the
    name up first, with their own error)."""
    if name in model.checks:
        return check_form(model, name)
    return procedure_form(model, model.procedures[name])


def _document(title: str, description: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"$schema": JSON_SCHEMA_DIALECT, "title": title}
    if description:
        out["description"] = description
    out.update(type="object", properties=props, required=required, additionalProperties=False)
    return out


def _plain(value: Any) -> Any:
    return value if isinstance(value, (int, str, bool)) or value is None else str(value)
