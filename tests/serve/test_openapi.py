"""The served OpenAPI document works with standard tooling (issue 36): it passes
openapi-spec-validator, every ``$ref`` resolves from the document's root, the shipped result
schemas sit hoisted under ``components/schemas`` (``FILE`` and ``FILE__DEF``, no nested
``$id``/``$defs``), and what the live server answers validates against the component each
operation declares."""

from __future__ import annotations

import copy
import re
from urllib.parse import quote

import jsonschema
import pytest
import referencing
import referencing.jsonschema
from openapi_spec_validator import validate as validate_openapi

from service_support import schema

SHIPPED_RESULTS = ["dice-odds-result", "dice-roll-result", "export", "list-result", "odds-result",
                   "problem", "roll-result", "source-result", "validate-result"]


@pytest.fixture(scope="module")
def document(server):
    status, doc = server.get("/openapi.json")
    assert status == 200
    return doc


def walk(node, path=""):
    """Every (JSON pointer, key, value) of a JSON document."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield path, key, value
            yield from walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from walk(item, f"{path}/{i}")


def resolve(doc, ref: str):
    """A local reference looked up by hand from the document's root (RFC 6901)."""
    assert ref.startswith("#/"), ref
    node = doc
    for token in ref[2:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def test_the_served_document_passes_openapi_spec_validator(document):
    assert document["openapi"].startswith("3.1")
    validate_openapi(document)


def test_every_ref_in_the_document_resolves_from_its_root(document):
    refs = [(where, value) for where, key, value in walk(document) if key == "$ref"]
    assert len(refs) > 30  # the shipped schemas' own references are among them, not just the paths'
    for where, ref in refs:
        assert re.fullmatch(r"#/components/schemas/[A-Za-z0-9._-]+(/.*)?", ref), (where, ref)
        target = resolve(document, ref)
        assert isinstance(target, dict), (where, ref)


def test_no_schema_inside_the_document_has_an_id_a_dialect_or_defs_of_its_own(document):
    keys = {key for _, key, _ in walk(document["components"])} | {key for _, key, _ in walk(document["paths"])}
    assert not keys & {"$id", "$schema", "$defs", "definitions", "$anchor", "$dynamicRef"}
    assert document["jsonSchemaDialect"] == "https://json-schema.org/draft/2020-12/schema"


def test_component_names_are_the_schema_file_and_its_defs_entries(document):
    names = set(document["components"]["schemas"])
    expected = set(SHIPPED_RESULTS)
    for stem in SHIPPED_RESULTS:
        expected |= {f"{stem}__{d}" for d in schema(stem).get("$defs", {})}
    assert names == expected
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+", n) for n in names)  # OpenAPI 3.1's component name pattern


def unhoist(components: dict, stem: str) -> dict:
    """The inverse of the hoisting, written separately: the components of ``stem`` put back into one schema."""
    prefix = f"#/components/schemas/{stem}"

    def back(node):
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                if key == "$ref" and isinstance(value, str) and value.startswith(prefix):
                    rest = value[len(prefix):]
                    if rest.startswith("__"):
                        name, _, tail = rest[2:].partition("/")
                        out[key] = f"#/$defs/{name}" + (f"/{tail}" if tail else "")
                    else:
                        out[key] = "#" + rest
                else:
                    out[key] = back(value)
            return out
        if isinstance(node, list):
            return [back(item) for item in node]
        return node

    whole = back(copy.deepcopy(components[stem]))
    defs = {name[len(stem) + 2:]: back(copy.deepcopy(body)) for name, body in components.items()
            if name.startswith(f"{stem}__")}
    if defs:
        whole["$defs"] = defs
    return whole


@pytest.mark.parametrize("stem", SHIPPED_RESULTS)
def test_each_component_group_is_the_shipped_schema_put_back_together(document, stem):
    shipped = schema(stem)
    shipped.pop("$id")
    shipped.pop("$schema")
    assert unhoist(document["components"]["schemas"], stem) == shipped


# ---- the live answers against the components their operation declares --------------------------


def declared(method: str, path: str, status: int, media: str) -> str:
    """The JSON pointer of the schema an operation declares for an answer."""
    escaped = path.replace("~", "~0").replace("/", "~1")
    return f"/paths/{escaped}/{method}/responses/{status}/content/{media.replace('/', '~1')}/schema"


def check(document, instance, pointer: str) -> None:
    """Validate against a schema of the document, its references resolved in the document itself."""
    resource = referencing.Resource.from_contents(document, default_specification=referencing.jsonschema.DRAFT202012)
    registry = referencing.Registry().with_resource("urn:openapi", resource)
    assert isinstance(resolve(document, "#" + pointer), dict)
    jsonschema.Draft202012Validator({"$ref": "urn:openapi#" + quote(pointer, safe="/~")},
                                    registry=registry).validate(instance)


GURPS = {"ruleset": "gurps-4e"}
CONTEST = {**GURPS, "name": "quick_contest", "parties": [{"skill": 12}, {"skill": 10}], "seed": 4}
BROKEN = ("ruleset: mine\nname: Mine\nversion: '1'\nsource: x\nlicense: MIT\nchecks:\n  c:\n    roll: 1d20 +\n"
          "    outcomes:\n      - {name: any, success: true}\n")

ANSWERS = [
    ("get", "/api/rulesets", None),
    ("post", "/api/list", {}),
    ("get", "/api/rulesets/gurps-4e", None),
    ("get", "/api/rulesets/gurps-4e/source", None),
    ("post", "/api/source", GURPS),
    ("post", "/api/export", GURPS),
    ("get", "/api/rulesets/gurps-4e/forms/quick_contest", None),
    ("post", "/api/roll", {**GURPS, "name": "success_roll", "inputs": {"skill": 12}, "seed": 7}),
    ("post", "/api/roll", CONTEST),
    ("post", "/api/odds", {**GURPS, "name": "success_roll", "inputs": {"skill": 12}, "given": "success"}),
    ("post", "/api/odds", {**GURPS, "name": "success_roll", "inputs": {"skill": [8, 12]}}),
    ("post", "/api/odds", {**GURPS, "name": "quick_contest", "parties": [{"skill": 12}, {"skill": 11}]}),
    ("post", "/api/dice_roll", {"expression": "4d6kh3 + 2", "seed": 3}),
    ("post", "/api/dice_odds", {"expression": "3d6 >= 10"}),
    ("post", "/api/dice_odds", {"expression": "1d6!"}),
    ("post", "/api/validate", {"yaml": BROKEN, "path": "mine.yaml"}),
    ("get", "/healthz", None),
    ("get", "/readyz", None),
]


@pytest.mark.parametrize("method, path, body", ANSWERS, ids=[f"{m} {p}" for m, p, _ in ANSWERS])
def test_a_live_answer_validates_against_the_component_its_operation_declares(server, document, method, path, body):
    status, answer = server.get(path) if method == "get" else server.post(path, body)
    assert status == 200, answer
    template = re.sub(r"/gurps-4e", "/{rid}", path).replace("/quick_contest", "/{name}")
    check(document, answer, declared(method, template, 200, "application/json"))


@pytest.mark.parametrize("method, path, body, status", [
    ("post", "/api/roll", {**GURPS, "name": "no_such_check"}, 404),
    ("post", "/api/roll", {**GURPS, "name": 12}, 400),
    ("post", "/api/dice_odds", {"expression": "1d20 +"}, 422),
    ("get", "/api/rulesets/no-such-ruleset", None, 404),
])
def test_a_live_error_validates_against_the_problem_component(server, document, method, path, body, status):
    got, answer = server.get(path) if method == "get" else server.post(path, body)
    assert got == status, answer
    template = "/api/rulesets/{rid}" if method == "get" else path
    check(document, answer, declared(method, template, status, "application/problem+json"))


def test_the_components_reject_a_contest_whose_party_is_not_a_check_roll(server, document):
    """The check above is not vacuous: a reference into a hoisted $defs entry is followed."""
    status, answer = server.post("/api/roll", CONTEST)
    assert status == 200
    del answer["parties"][0]["outcome"]  # roll-result__check_roll requires it
    with pytest.raises(jsonschema.ValidationError):
        check(document, answer, declared("post", "/api/roll", 200, "application/json"))
