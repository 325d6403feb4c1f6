"""The requests the service takes, as JSON Schemas: one table, read by the request checker
and written into the OpenAPI document, so what is documented is what is checked.

A request names its ruleset by ``ruleset`` (a shipped id, or one of the service's own
folders) or carries one inline as ``yaml`` text; never a path.
"""

from __future__ import annotations

from typing import Any

from ..limits import MAX_PARTIES

_ID = {"type": "string", "minLength": 1, "maxLength": 100, "description": "A ruleset id (`GET /api/rulesets`)."}
_YAML = {"type": "string", "description": "A whole ruleset as YAML text, instead of `ruleset` (cached by content)."}
_NAME = {"type": "string", "minLength": 1, "maxLength": 200, "description": "A check or procedure of the ruleset."}
_VALUE = {"type": ["integer", "string", "boolean", "null"]}
_INPUTS = {"type": "object", "additionalProperties": _VALUE,
           "description": "Input name → value: a whole number, a label, true/false, a choice, a dice pool."}
_SWEPT_INPUTS = {"type": "object", "additionalProperties": {"anyOf": [
    _VALUE, {"type": "array", "items": _VALUE, "minItems": 1}]},
    "description": "As for roll; a list of values sweeps that input (one or two inputs at a time)."}
_PARTIES = {"type": "array", "maxItems": MAX_PARTIES, "items": _INPUTS,
            "description": "A procedure's parties in order, each its inputs (see the procedure's form)."}
_SEED = {"type": ["integer", "string"], "description": "The same seed gives the same roll on every machine."}
_FACES = {"type": "array", "items": {"type": ["integer", "string"], "maxLength": 40}, "maxItems": 10_000,
          "description": "Physical dice: the faces rolled, in order, instead of a seed; as printed where "
                         "that differs (a d10's 0, a percentile die's 00, a Fate die's +, - or blank, "
                         "a label printed on a face such as 'hit')."}
_ENV = {"type": "object", "additionalProperties": _VALUE, "description": "Name → value for names in the expression."}
_EXPRESSION = {"type": "string", "minLength": 1, "description": "A dice expression (docs/dice-language.md)."}
_DIALECT = {"enum": ["foundry", "roll20", "d20"],
            "description": "Read the expression with another roller's spellings (docs/dice-language.md, Dialects)."}

_RULESET = {"ruleset": _ID, "yaml": _YAML}
_ONE_RULESET = [{"required": ["ruleset"]}, {"required": ["yaml"]}]


def _request(props: dict[str, Any], required: list[str], *, ruleset: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": {"op": {"type": "string"}, "id": {},
                                                            **(_RULESET if ruleset else {}), **props},
                           "required": required, "additionalProperties": False}
    if ruleset:
        out["oneOf"] = _ONE_RULESET
    return out


REQUESTS: dict[str, dict[str, Any]] = {
    "list": _request({}, []),
    "export": _request({}, [], ruleset=True),
    "source": _request({}, [], ruleset=True),
    "form": _request({"name": _NAME}, ["name"], ruleset=True),
    "roll": _request({"name": _NAME, "inputs": _INPUTS, "parties": _PARTIES, "seed": _SEED, "faces": _FACES,
                      "choose": {"type": "array", "items": {"type": "integer"}, "maxItems": 100}},
                     ["name"], ruleset=True),
    "odds": _request({"name": _NAME, "inputs": _SWEPT_INPUTS, "parties": {**_PARTIES, "items": _SWEPT_INPUTS},
                      "given": {"type": "string", "minLength": 1,
                                "description": "A yes/no expression: the odds given that it holds (checks only)."}},
                     ["name"], ruleset=True),
    "dice_roll": _request({"expression": _EXPRESSION, "env": _ENV, "seed": _SEED, "faces": _FACES,
                           "dialect": _DIALECT}, ["expression"]),
    "dice_odds": _request({"expression": _EXPRESSION, "env": _ENV, "dialect": _DIALECT,
                           "explode_depth": {"type": "integer", "minimum": 0,
                                             "description": "How deep exploding dice are followed."}},
                          ["expression"]),
    "validate": _request({"yaml": _YAML, "path": {"type": "string", "maxLength": 200,
                                                  "description": "The name diagnostics give the file."}},
                         ["yaml"]),
}
"""Operation → the JSON Schema of its request (``op`` and ``id`` are the stdio mode's)."""

RESULTS = {"list": "list-result", "export": "export", "source": "source-result", "form": None, "roll": "roll-result",
           "odds": "odds-result", "dice_roll": "dice-roll-result", "dice_odds": "dice-odds-result",
           "validate": "validate-result"}
"""Operation → the shipped schema (``schemas/NAME.schema.json``) of its answer; a form is a
JSON Schema itself. An odds sweep answers a list of odds results."""
