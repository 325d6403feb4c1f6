"""The service's OpenAPI 3.1 document (``GET /openapi.json``), built from the same tables the
service runs on: request bodies from :data:`.requests.REQUESTS`, answers from the shipped
result schemas (``schemas/*.schema.json``, under ``components/schemas``), so a client
generated from it reads exactly what the engine writes.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

from .requests import REQUESTS, RESULTS

SUMMARIES = {
    "list": "The rulesets this service has: id, name, version, checks, procedures.",
    "export": "A ruleset as export format 1 (labels, inputs, what each party gives, expressions).",
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
    paths["/api/rulesets/{rid}/forms/{name}"] = {"get": {"operationId": "inputForm", "summary": SUMMARIES["form"],
                                                         "parameters": [rid, name], "responses": _answers("form")}}
    paths["/healthz"] = {"get": {"operationId": "health", "summary": "Whether the service is up, and its version.",
                                 "responses": {"200": {"description": "up"}}}}
    names = sorted({r for r in RESULTS.values() if r} | {"problem"})
    document = {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {"title": "rulesengine", "version": __version__,
                 "description": "Roll and compute the exact odds of tabletop RPG rules written as YAML rulesets "
                                "(docs/service.md)."},
        "paths": paths,
        "components": {"schemas": {n: _schema(n) for n in names}},
    }
    return json.dumps(document)


def openapi_document() -> dict[str, Any]:
    return json.loads(_document())
