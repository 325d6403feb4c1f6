"""An error about what a request gave names that field of the request (issue 36, item 4): over
HTTP and stdio its problem's ``pointer`` is the JSON pointer of the field in the request body,
and a hint that shows what to give shows it as JSON, never in the command line's
``party1.name=value`` words or Python's ``parties=[...]``.

The expected pointers are written from the requests themselves (the key that is wrong, the
index of the party); what a party takes and how many parties a procedure needs come from the
service's own input form of the procedure (``/api/form``), not from the error."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import jsonschema
import pytest

from service_support import schema

CONTEST = {"ruleset": "gurps-4e", "name": "quick_contest"}
CHECK = {"ruleset": "gurps-4e", "name": "success_roll"}
TOO_HIGH = 61  # gurps-4e's skill is -20..60 (checked against the form below)

# (what is wrong, operation, request, the pointer of the field it is about)
CASES = [
    ("a contest given inputs of its own", "odds", {"ruleset": "dnd-5e-srd", "name": "contest", "inputs": {"a": 1}},
     "/inputs"),
    ("an unknown input", "odds", {**CHECK, "inputs": {"skil": 12}}, "/inputs/skil"),
    ("an input out of its bounds", "odds", {**CHECK, "inputs": {"skill": TOO_HIGH}}, "/inputs/skill"),
    ("a missing input", "odds", {**CHECK, "inputs": {}}, "/inputs"),
    ("a party's input out of its bounds", "odds", {**CONTEST, "parties": [{"skill": 10}, {"skill": TOO_HIGH}]},
     "/parties/1/skill"),
    ("a party's unknown input", "roll", {**CONTEST, "parties": [{"skill": 10}, {"skil": 10}], "seed": 1},
     "/parties/1/skil"),
    ("a party missing an input", "odds", {**CONTEST, "parties": [{}, {"skill": 10}]}, "/parties/0"),
    ("too few parties", "odds", {**CONTEST, "parties": [{"skill": 10}]}, "/parties"),
    ("parties for a check", "odds", {**CHECK, "inputs": {"skill": 10}, "parties": [{"skill": 10}]}, "/parties"),
    ("a condition for a procedure", "odds", {**CONTEST, "parties": [{"skill": 10}, {"skill": 10}],
                                             "given": "outcome == 'tie'"}, "/given"),
    ("a condition naming nothing", "odds", {**CHECK, "inputs": {"skill": 10}, "given": "outcom == 'success'"},
     "/given"),
    ("chosen dice for a procedure", "roll", {**CONTEST, "parties": [{"skill": 10}, {"skill": 10}], "choose": [1],
                                             "seed": 1}, "/choose"),
    ("faces left over", "roll", {**CHECK, "inputs": {"skill": 10}, "faces": [1, 2, 3, 4]}, "/faces"),
    ("a swept input out of its bounds", "odds", {**CHECK, "inputs": {"skill": [10, TOO_HIGH]}}, "/inputs/skill"),
    ("a party's swept input out of its bounds", "odds",
     {**CONTEST, "parties": [{"skill": [10, TOO_HIGH]}, {"skill": 10}]}, "/parties/0/skill"),
    ("too few parties in a sweep", "odds", {**CONTEST, "parties": [{"skill": [10, 12]}]}, "/parties"),
]
IDS = [c[0] for c in CASES]

COMMAND_LINE_OR_PYTHON = re.compile(r"party\d+\.|=value|=\.\.\.|in Python|parties=")


def shows_what_to_give(hint: str) -> list[dict] | None:
    """The parties a hint shows as JSON (``give "parties": [{"skill": …}, …]``), with each
    placeholder read as null; None for a hint that shows none."""
    found = re.search(r'"parties": (\[.*\])', hint)
    return None if found is None else json.loads(found.group(1).replace("…", "null"))


def assert_in_request_terms(problem: dict, pointer: str) -> None:
    jsonschema.validate(problem, schema("problem"))
    assert problem["code"] == "E601", problem
    assert problem["pointer"] == pointer and problem["path"] is None, problem
    assert problem["hint"] and not COMMAND_LINE_OR_PYTHON.search(problem["hint"]), problem["hint"]


@pytest.mark.parametrize("what, op, body, pointer", CASES, ids=IDS)
def test_an_error_in_a_request_points_at_its_field_and_hints_in_json(server, what, op, body, pointer):
    status, found = server.post(f"/api/{op}", body)
    assert status == 422
    assert_in_request_terms(found, pointer)


def test_the_bound_used_above_is_the_forms(server):
    _, form = server.get("/api/rulesets/gurps-4e/forms/success_roll")
    assert form["properties"]["inputs"]["properties"]["skill"]["maximum"] == TOO_HIGH - 1


def test_a_missing_input_is_named_by_the_message_at_the_inputs(server):
    _, found = server.post("/api/odds", {**CHECK, "inputs": {}})
    assert found["pointer"] == "/inputs" and "'skill'" in found["message"]


def test_a_condition_points_at_given_and_the_column_in_its_text(server):
    given = "outcom == 'success'"
    _, found = server.post("/api/odds", {**CHECK, "inputs": {"skill": 10}, "given": given})
    assert (found["pointer"], found["column"]) == ("/given", given.index("outcom") + 1)


@pytest.mark.parametrize("body", [
    {"ruleset": "dnd-5e-srd", "name": "contest", "inputs": {"a": 1}},
    {**CONTEST, "parties": [{"skill": 10}]},
], ids=["inputs for a contest", "too few parties"])
def test_a_hint_that_shows_the_parties_shows_what_the_form_says_a_party_takes(server, body):
    _, found = server.post("/api/odds", body)
    _, form = server.get(f"/api/rulesets/{body['ruleset']}/forms/{body['name']}")
    parties = form["properties"]["parties"]
    shown = shows_what_to_give(found["hint"])
    assert found["hint"].startswith('give "parties": [')
    assert shown is not None and len(shown) == parties["minItems"]
    assert all(p and set(p) <= set(parties["items"]["properties"]) for p in shown)


def test_an_error_in_a_ruleset_file_keeps_its_files_pointer(server):
    status, found = server.post("/api/roll", {**CHECK, "inputs": {"skill": 12}, "faces": [99]})
    assert (status, found["path"], found["pointer"]) == (422, "gurps-4e", "/checks/success_roll/roll")


def test_over_stdio_each_error_line_points_at_its_field_likewise():
    lines = [json.dumps({"id": i, "op": op, **body}).encode() + b"\n" for i, (_, op, body, _) in enumerate(CASES)]
    done = subprocess.run([sys.executable, "-m", "rulesengine", "serve", "--stdio"], input=b"".join(lines),
                          capture_output=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and [a["id"] for a in answers] == list(range(len(CASES)))
    for answer, (what, _, _, pointer) in zip(answers, CASES, strict=True):
        assert answer["ok"] is False, what
        assert_in_request_terms(answer["error"], pointer)
