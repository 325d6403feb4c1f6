"""A check's or procedure's inputs: checked and converted before anything is rolled.

Unknown names, missing ones, types, bounds and labels of a table are all refused here with
an InputError that says what the input takes (``describe_input``, also what `show` prints).
"""

from __future__ import annotations

from ..records import replace
from typing import Any
from collections.abc import Iterable, Mapping

from ..dice.parser import closest
from ..dice.trace import format_value
from ..dice.values import DicePool
from ..errors import Field, InputError, LimitError, PartiesExample, RulesEngineError
from ..limits import Limits
from ..numerals import ASCII_DIGITS_HINT, whole_number
from ..rules.model import Grid, Input, Ladder, RulesetModel, name_with_label


class InputChecker:
    """Checks given values against input specs of one ruleset: its tables give the labels
    an integer input may be given as, its limits the largest number."""

    def __init__(self, model: RulesetModel, limits: Limits) -> None:
        self.model = model
        self.limits = limits

    def coerce_specs(self, specs: Iterable[Input], given: Mapping[str, Any] | None, owner: str,
                     unknown_hint: str | PartiesExample | None = None, at: Field = ("inputs",)) -> dict[str, Any]:
        """Check given values against input specs: unknown names, missing ones, types,
        bounds and labels; fill in defaults; an optional input left out is None. An error is
        at ``at`` (the field of the call the mapping was given in), or at its name in it."""
        specs = list(specs)
        given = dict(given or {})
        names = [i.name for i in specs]
        for key in given:
            if key not in names:
                near = closest(str(key), names)
                if near:
                    raise InputError(f"unknown input '{key}' for {owner}", hint=f"did you mean '{near}'?",
                                     field=at + (key,))
                if isinstance(unknown_hint, PartiesExample):
                    raise InputError(f"unknown input '{key}' for {owner}", field=at + (key,), example=unknown_hint)
                raise InputError(f"unknown input '{key}' for {owner}",
                                 hint=unknown_hint or "inputs: " + (", ".join(names) or "none"), field=at + (key,))
        env: dict[str, Any] = {}
        for spec in specs:
            if spec.name in given and not (given[spec.name] is None and spec.optional):
                env[spec.name] = self._coerce(spec, given[spec.name], at + (spec.name,))
            elif spec.has_default:
                env[spec.name] = self._coerce(spec, spec.default, at + (spec.name,))
            elif spec.optional:
                env[spec.name] = None
            else:
                raise InputError(f"missing input '{spec.name}' for {owner}", hint=describe_input(spec), field=at)
        return env

    def _coerce(self, spec: Input, value: Any, at: Field) -> Any:
        try:
            return self._value(spec, value)
        except RulesEngineError as exc:
            exc.location = replace(exc.location, field=at)  # the value's own field of the call
            raise

    def _value(self, spec: Input, value: Any) -> Any:
        where = f"{spec.name}={_short(value)}"
        if spec.type == "boolean":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "on"):
                return True
            if isinstance(value, str) and value.strip().lower() in ("false", "no", "0", "off"):
                return False
            raise InputError(f"{where} is not true or false", hint=describe_input(spec))
        if spec.type == "choice":
            text = str(value).strip() if not isinstance(value, bool) else ""
            if text in spec.choices:
                return text
            near = closest(text, list(spec.choices))
            raise InputError(f"{where} is not one of its choices",
                             hint=(f"did you mean '{near}'? " if near else "") + "choices: " + ", ".join(spec.choices))
        if spec.type == "dice_pool":
            try:
                return DicePool.parse(str(value))
            except ValueError as exc:
                raise InputError(f"{where} is not a dice pool: {exc}", hint="e.g. d8/d6") from None
        # integer, possibly a label from a table
        number = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str):
            text = value.strip()
            try:
                number = whole_number(text)  # ASCII digits, as in the dice language
            except ValueError:
                number = self._label(spec, text)
        if number is None:
            raise InputError(f"{where} is not a whole number", hint=describe_input(spec))
        if spec.min is not None and number < spec.min:
            raise InputError(f"{spec.name}={_short(number, False)} is below its minimum {spec.min}",
                             hint=describe_input(spec))
        if spec.max is not None and number > spec.max:
            raise InputError(f"{spec.name}={_short(number, False)} is above its maximum {spec.max}",
                             hint=describe_input(spec))
        if abs(number) > self.limits.max_magnitude:  # an input without bounds still has the engine's
            raise LimitError(f"{spec.name} is too large", "max_magnitude",
                             hint=f"numbers are limited to ±{self.limits.max_magnitude:,}")
        return number

    def _label(self, spec: Input, text: str) -> int:
        table = self.model.tables.get(spec.labels) if spec.labels else None
        if table is None:
            digits = any(ch.isdigit() or ch == "_" for ch in text)
            raise InputError(f"{spec.name}={_short(text)} is not a whole number",
                             hint=describe_input(spec) + (f"; {ASCII_DIGITS_HINT}" if digits else ""))
        if isinstance(table, Ladder):
            entries = dict(table.entries)
        elif isinstance(table, Grid):
            col = table.columns.index(spec.labels_column)
            entries = {label: values[col] for label, values in table.rows}
        else:  # pragma: no cover - rejected when the ruleset is built
            entries = {}
        key = _label_key(text)
        if key in entries:
            return entries[key]
        if text in entries:
            return entries[text]
        items = [_label_key(item.strip()) for item in text.split(",")]
        if len(items) > 1 and all(item in entries for item in items):  # labels that read as a dice pool, d4,d8
            numbers = ",".join(str(entries[item]) for item in items)
            raise InputError(f"{spec.name}={_short(text)} reads as one dice pool, not a list of labels",
                             hint=f"to sweep these labels give their numbers: {spec.name}={numbers}")
        near = closest(key, list(entries))
        raise InputError(f"{spec.name}={_short(text)} is neither a number nor a label of {spec.labels}",
                         hint=(f"did you mean '{near}'? " if near else "") + "labels: " + ", ".join(entries))


def _label_key(text: str) -> str:
    """A label as its table keys it: lower case, spaces and hyphens as underscores."""
    return text.lower().replace(" ", "_").replace("-", "_")


def _short(value: Any, quote: bool = True) -> str:
    """A value as an error message shows it: never more than 40 characters; yes/no and none
    as the language and JSON write them (``true``, not Python's ``True``)."""
    if isinstance(value, bool) or value is None:
        return "null" if value is None else "true" if value else "false"
    shown = repr(value) if quote else str(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def describe_input(spec: Input) -> str:
    """One line about an input: its type, range, default and help (for errors and `show`)."""
    name = name_with_label(spec.name, spec.label)
    if spec.type == "integer":
        rng = ""
        if spec.min is not None or spec.max is not None:
            rng = f" {'' if spec.min is None else spec.min}..{'' if spec.max is None else spec.max}"
        text = f"{name}: a whole number{rng}"
        if spec.labels:
            text += f" or a label of {spec.labels}"
    elif spec.type == "boolean":
        text = f"{name}: true or false"
    elif spec.type == "choice":
        text = f"{name}: one of {', '.join(spec.choices)}"
    else:
        text = f"{name}: a pool of mixed dice such as d8/d6"
    if spec.has_default:
        text += f" (default {format_value(spec.default)})"
    elif spec.optional:
        text += " (optional)"
    if spec.help:
        text += f" — {spec.help}"
    return text
