"""An input's YAML → its model, with the checks that its default and bounds can work: a
default of the input's type, inside its bounds, one of its choices, a step of its ladder,
a dice pool."""

from __future__ import annotations

from typing import Any

from ..codes import E_BAD_DEFAULT, E_UNKNOWN_REFERENCE
from ..dice.parser import closest
from ..dice.values import DicePool
from .model import Grid, Input, Ladder


def build_input(builder: Any, name: str, spec: dict, ptr: str) -> Input:
    """One input of a check or procedure; a default or bound that could never work is reported
    through ``builder.error`` at its place, and the input is made all the same."""
    kind = spec["type"]
    low, high = spec.get("min"), spec.get("max")
    _check_bounds(builder, name, low, high, ptr)
    labels, column = _labels(builder, name, spec, ptr)
    has_default = "default" in spec
    default = spec.get("default")
    if has_default and kind == "integer":
        _check_integer_default(builder, name, default, low, high, labels, ptr)
    if has_default:
        _check_default_type(builder, name, kind, default, ptr)
    _check_choices(builder, name, spec, ptr)
    if has_default and kind == "dice_pool":
        problem = _pool_default_error(default)
        if problem:
            builder.error(E_BAD_DEFAULT, f"input '{name}': default {default!r} is not a dice pool: {problem}",
                          f"{ptr}/default", "write dice joined by /, e.g. d8/d6/d6")
    return Input(name=name, type=kind, help=spec.get("help", ""), default=default,
                 has_default=has_default, optional=spec.get("optional", False), min=low, max=high,
                 choices=tuple(str(c) for c in spec.get("choices", ())), labels=labels,
                 labels_column=column, pointer=ptr, label=spec.get("label", ""))


def _check_bounds(builder: Any, name: str, low: Any, high: Any, ptr: str) -> None:
    """Bounds are whole numbers, the lower not above the higher."""
    for bound, value in (("min", low), ("max", high)):
        if isinstance(value, float):  # the schema's "integer" lets 0.0 through; checks compare ints
            builder.error(E_BAD_DEFAULT, f"input '{name}': {bound} {value!r} is not a whole number",
                          f"{ptr}/{bound}", f"write it without a decimal point: {bound}: {int(value)}"
                          if value.is_integer() else None)
    if low is not None and high is not None and low > high:
        builder.error(E_BAD_DEFAULT, f"input '{name}': min {low} is above max {high}", f"{ptr}/min",
                      f"min is the lowest value allowed: min: {high}, max: {low}")


def _check_integer_default(builder: Any, name: str, default: Any, low: Any, high: Any, labels: str | None,
                           ptr: str) -> None:
    """An integer input's default: inside its bounds, or a step of the ladder it takes labels from."""
    if isinstance(default, int) and not isinstance(default, bool):
        if (low is not None and default < low) or (high is not None and default > high):
            builder.error(E_BAD_DEFAULT, f"input '{name}': default {default} is outside {low}..{high}",
                          f"{ptr}/default", "give a default the bounds allow, or widen the bounds")
    if isinstance(default, str):
        if labels is None:
            builder.error(E_BAD_DEFAULT, f"input '{name}': default {default!r} is not a number", f"{ptr}/default",
                          "write a whole number without quotes, or give the input labels: a ladder")
        elif isinstance(ladder := builder.tables.get(labels), Ladder) and default not in dict(ladder.entries):
            builder.error(E_BAD_DEFAULT, f"input '{name}': default {default!r} is not a number or a step "
                          f"of the ladder '{labels}'", f"{ptr}/default",
                          "steps: " + ", ".join(label for label, _ in ladder.entries))


def _check_default_type(builder: Any, name: str, kind: str, default: Any, ptr: str) -> None:
    wrong_type = _default_type_error(kind, default)
    if wrong_type:
        shown = str(default).lower() if isinstance(default, bool) else repr(default)
        builder.error(E_BAD_DEFAULT, f"input '{name}': default {shown} is {wrong_type}", f"{ptr}/default",
                      "write true or false" if kind == "boolean" else
                      "write a whole number (YAML 1.1 reads on/off/yes/no as true/false)")


def _check_choices(builder: Any, name: str, spec: dict, ptr: str) -> None:
    """A choice input lists its choices, and its default is one of them."""
    if spec["type"] != "choice":
        return
    if not spec.get("choices"):
        builder.error(E_BAD_DEFAULT, f"choice input '{name}' lists no choices", ptr,
                      "add choices: [one, two, ...]", key=True)
    elif "default" in spec and spec.get("default") not in spec.get("choices", []):
        builder.error(E_BAD_DEFAULT, f"input '{name}': default {spec.get('default')!r} is not one of its choices",
                      f"{ptr}/default", "choices: " + ", ".join(map(str, spec.get("choices", []))))


def _labels(builder: Any, name: str, spec: dict, ptr: str) -> tuple[str | None, str | None]:
    """The table whose labels an input takes (a ladder, or a grid and its column), checked."""
    labels_spec = spec.get("labels")
    labels, column = labels_spec, None
    if isinstance(labels_spec, dict):
        labels, column = labels_spec.get("table"), labels_spec.get("column")
    if labels is None:
        return None, None
    table = builder.tables.get(labels)
    if table is None:
        near = closest(labels, list(builder.tables))
        builder.error(E_UNKNOWN_REFERENCE, f"input '{name}' takes labels from '{labels}', which is not a table",
                      f"{ptr}/labels", f"did you mean '{near}'?" if near else None)
    elif isinstance(table, Grid):
        if column not in table.columns:
            builder.error(E_UNKNOWN_REFERENCE, f"input '{name}': the table '{labels}' has no column '{column}'",
                          f"{ptr}/labels", "columns: " + ", ".join(table.columns))
    elif not isinstance(table, Ladder):
        builder.error(E_UNKNOWN_REFERENCE, f"input '{name}' takes labels from '{labels}', which is not a ladder "
                      "or grid", f"{ptr}/labels",
                      "name a ladder table, or a grid's column: {table: a_grid, column: skill}")
    return labels, column


def _default_type_error(kind: str, default: Any) -> str | None:
    """Why a default cannot be a value of an input of this type (None if it can).

    The schema allows integer, boolean and text defaults for every type, so ``default: on``
    on an integer (YAML reads true) would pass it and then fail every roll."""
    if kind == "integer" and (isinstance(default, bool) or isinstance(default, float)):
        return "not a whole number"
    if kind == "boolean" and not isinstance(default, bool):
        return "not true or false"
    return None


def _pool_default_error(default: Any) -> str | None:
    """Why a dice pool input's default is not a pool (None if it is one)."""
    if not isinstance(default, str):
        return "it is not text"
    try:
        DicePool.parse(default)
    except ValueError as exc:
        return str(exc)
    return None
