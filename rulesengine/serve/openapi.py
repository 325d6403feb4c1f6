"""The service's OpenAPI 3.1 document (``GET /openapi.json``), built from the same tables the
service runs on: request bodies from :data:`.requests.REQUESTS`, answers from the shipped
result schemas (``schemas/*.schema.json``, under ``components/schemas``), so a client
generated from it reads exactly what the engine writes.

Each shipped schema is a JSON Schema resource of its own (``$id``, ``$defs``, ``#/$defs/...``
references), which OpenAPI tools resolve against the document's root, not the schema's. So
the document holds them *hoisted*: a schema is the component named after its file
(``roll-result``), each of its ``$defs`` entries a component of its own named
``FILE__DEF`` (``roll-result__check_roll``; a ``$defs`` inside a ``$defs`` entry adds another
``__DEF``), every ``$ref`` rewritten to ``#/components/schemas/NAME``, and no ``$id``,
``$schema`` or ``$defs`` left inside (the document's ``jsonSchemaDialect`` is 2020-12).
"""

from __future__ import annotations

import copy
import functools
import json
import re
from typing import Any

from .requests import REQUESTS, RESULTS

SUMMARIES = {
    "list": "The rulesets this service has: id, name, version, checks, procedures.",
    "export": "A ruleset as export format 1 (labels, inputs, what each party gives, expressions).",
    "source": "A ruleset's YAML text, as its file has it (comments included), and the file's name.",
    "form": "The input form of a check or procedure: a JSON Schema of {inputs, parties}.",
    "roll": "Roll a check or procedure once (seed for a repeatable roll, faces for physical dice).",
    "odds": "Exact odds of a check or procedure; a list as an input's value sweeps it.",
    "dice_roll": "Roll a dice expression, with its trace.",
    "dice_odds": "Exact odds of a dice expression.",
    "validate": "Validate ruleset YAML text: every diagnostic with its line and column.",
}


def _schema(name: str) -> dict[str, Any]:
    from ..shipped import schema_text

    return json.loads(schema_text(name))


_COMPONENT_NAME = re.compile(r"^[A-Za-z0-9._-]+$")  # what OpenAPI 3.1 allows as a component's name


def _component_ref(stem: str, ref: str) -> str:
    """``#/$defs/a/$defs/b/rest`` of schema ``stem`` → ``#/components/schemas/stem__a__b/rest``."""
    if not (ref == "#" or ref.startswith("#/")):
        raise ValueError(f"{stem}: $ref {ref!r} is not within the schema; the OpenAPI document cannot hoist it")
    tokens = ref[2:].split("/") if ref != "#" else []
    name = stem
    while len(tokens) >= 2 and tokens[0] == "$defs":
        name, tokens = f"{name}__{tokens[1]}", tokens[2:]
    return "/".join(["#/components/schemas", name, *tokens])


_NAMED = ("properties", "patternProperties", "dependentSchemas")  # keywords whose keys are data, not keywords
_UNHOISTABLE = ("$id", "$defs", "$anchor", "$dynamicAnchor", "$dynamicRef")


def _rewrite(stem: str, node: Any, names: bool = False) -> Any:
    """A copy of part of shipped schema ``stem`` with its references rewritten; a ``$id``,
    ``$defs`` or anchor below the root and its ``$defs`` entries is refused (none can be hoisted)."""
    if isinstance(node, list):
        return [_rewrite(stem, item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if names:
            out[key] = _rewrite(stem, value)
        elif key in _UNHOISTABLE:
            raise ValueError(f"{stem}: {key} below the schema's root and its $defs entries cannot be hoisted")
        elif key == "$ref" and isinstance(value, str):
            out[key] = _component_ref(stem, value)
        else:
            out[key] = _rewrite(stem, value, key in _NAMED)
    return out


def _hoist(name: str, stem: str, schema: dict[str, Any], into: dict[str, Any]) -> None:
    """Put ``schema`` (the root of shipped schema ``stem``, or one of its ``$defs`` entries) into
    ``into`` as component ``name``, and each of its ``$defs`` entries as ``name__DEF``."""
    if name != stem and ("$id" in schema or "$schema" in schema):
        raise ValueError(f"{stem}: $defs entry {name} is a resource of its own ($id/$schema); it cannot be hoisted")
    body = dict(schema)
    body.pop("$schema", None)
    body.pop("$id", None)
    defs = body.pop("$defs", {})
    if not _COMPONENT_NAME.match(name) or name in into:
        raise ValueError(f"component name {name!r} is not a valid OpenAPI name or not unique")
    into[name] = _rewrite(stem, body)
    for sub, sub_schema in defs.items():
        _hoist(f"{name}__{sub}", stem, sub_schema, into)


def components(stems: list[str]) -> dict[str, Any]:
    """The shipped schemas ``stems``, hoisted into one ``components/schemas`` table (the module's doc)."""
    out: dict[str, Any] = {}
    for stem in stems:
        _hoist(stem, stem, _schema(stem), out)
    return out


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _answers(op: str) -> dict[str, Any]:
    result = RESULTS[op]
    body: dict[str, Any] = _ref(result) if result else {"type": "object", "description": "A JSON Schema."}
    if op == "odds":
        body = {"anyOf": [body, {"type": "array", "items": body, "description": "A sweep: one per value."}]}
    problem = {"description": "An error (docs/errors.md)",
               "content": {"application/problem+json": {"schema": _ref("problem")}}}
    return {"200": {"description": SUMMARIES[op], "content": {"application/json": {"schema": body}}},
            "400": problem, "404": problem, "413": problem, "422": problem, "503": problem}


HEALTH = {"type": "object", "required": ["status", "engine", "version"], "additionalProperties": False,
          "properties": {"status": {"const": "ok"}, "engine": {"const": "rulesengine"},
                         "version": {"type": "string", "description": "The engine's version."}}}
"""``GET /healthz``'s answer (rulesengine/serve/http.py)."""

READY = {"type": "object", "required": ["status", "rulesets"], "additionalProperties": False,
         "properties": {"status": {"const": "ready"},
                        "rulesets": {"type": "integer", "minimum": 0, "description": "How many rulesets it serves."}}}
"""``GET /readyz``'s answer once the rulesets are loaded (before, a problem object, E704)."""


def _json(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


@functools.lru_cache(maxsize=1)
def _document() -> str:
    from ..version import __version__

    paths: dict[str, Any] = {}
    for op, request in REQUESTS.items():
        body = copy.deepcopy(request)
        body["properties"].pop("op", None)
        body["properties"].pop("id", None)
        paths[f"/api/{op}"] = {"post": {"operationId": op, "summary": SUMMARIES[op], "requestBody": {
            "required": True, "content": {"application/json": {"schema": body}}}, "responses": _answers(op)}}
    rid = {"name": "rid", "in": "path", "required": True, "schema": {"type": "string"}}
    name = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
    paths["/api/rulesets"] = {"get": {"operationId": "listRulesets", "summary": SUMMARIES["list"],
                                      "responses": _answers("list")}}
    paths["/api/rulesets/{rid}"] = {"get": {"operationId": "exportRuleset", "summary": SUMMARIES["export"],
                                            "parameters": [rid], "responses": _answers("export")}}
    paths["/api/rulesets/{rid}/source"] = {"get": {"operationId": "rulesetSource", "summary": SUMMARIES["source"],
                                                   "parameters": [rid], "responses": _answers("source")}}
    paths["/api/rulesets/{rid}/forms/{name}"] = {"get": {"operationId": "inputForm", "summary": SUMMARIES["form"],
                                                         "parameters": [rid, name], "responses": _answers("form")}}
    paths["/healthz"] = {"get": {"operationId": "health", "summary": "Whether the service is up, and its version.",
                                 "responses": {"200": _json("up", HEALTH)}}}
    paths["/readyz"] = {"get": {"operationId": "ready", "summary": "Whether the service has loaded its rulesets "
                                "(a load balancer's or Kubernetes' readiness probe).",
                                "responses": {"200": _json("ready", READY),
                                              "503": {"description": "loading (or a ruleset failed to load)",
                                                      "content": {"application/problem+json": {
                                                          "schema": {"$ref": "#/components/schemas/problem"}}}}}}}
    paths["/metrics"] = {"get": {"operationId": "metrics", "summary": "Prometheus metrics, in its text format.",
                                 "responses": {"200": {"description": "the metrics",
                                                       "content": {"text/plain": {"schema": {"type": "string"}}}}}}}
    names = sorted({r for r in RESULTS.values() if r} | {"problem"})
    document = {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {"title": "rulesengine", "version": __version__,
                 "description": "Roll and compute the exact odds of tabletop RPG rules written as YAML rulesets "
                                "(docs/service.md)."},
        "paths": paths,
        "components": {"schemas": components(names)},
    }
    return json.dumps(document)


def openapi_document() -> dict[str, Any]:
    return json.loads(_document())
