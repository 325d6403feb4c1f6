"""The ruleset schema is written for editors: every property explains itself on hover.

Every property has a description and an example, and every object is closed
(additionalProperties false, or a typed map), so a typo is an error, not a silent no-op.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "ruleset.schema.json").read_text())


def walk(node, path="#"):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{path}/{i}")


def test_the_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_every_property_has_a_description_and_an_example():
    missing = []
    for path, node in walk(SCHEMA):
        for name, prop in (node.get("properties") or {}).items() if "properties" in node else ():
            target = prop
            if "$ref" in prop and set(prop) <= {"$ref"}:
                ref = prop["$ref"].split("/")[-1]
                target = SCHEMA["$defs"][ref]
            if not target.get("description"):
                missing.append(f"{path}/properties/{name}: description")
            if not (target.get("examples") or target.get("enum") or target.get("const") is not None
                    or target.get("type") == "boolean" and "examples" in target):
                missing.append(f"{path}/properties/{name}: example")
    assert missing == []


def test_every_object_is_closed():
    open_objects = [path for path, node in walk(SCHEMA)
                    if node.get("type") == "object" and "properties" in node
                    and node.get("additionalProperties") is not False]
    assert open_objects == []


def test_allow_takes_every_warning_code_and_no_error_code():
    """`allow:` on an outcome rule acknowledges warnings only: an error is fixed, not allowed."""
    import re

    from rulesengine.codes import CODES

    names = SCHEMA["$defs"]["outcome"]["properties"]["allow"]["propertyNames"]["pattern"]
    warnings = {c for c, entry in CODES.items() if entry.raised_as == "warning"}
    assert warnings and all(re.search(names, c) for c in warnings)
    assert not any(re.search(names, c) for c in set(CODES) - warnings)


def test_an_example_of_a_check_gives_its_outcome_and_may_give_inputs_and_faces():
    example = SCHEMA["$defs"]["example"]
    assert example["required"] == ["outcome"]
    assert set(example["properties"]) == {"inputs", "faces", "outcome", "description"}
    jsonschema.validate(example["examples"][0], example)
