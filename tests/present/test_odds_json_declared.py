"""Every field of the odds JSON is declared, with a description, in the schema a client's
generator reads (schemas/, served in the service's OpenAPI document): a front end learns the
JSON from its types, not from trying commands. The keys the engine writes are the ones
`JSON_ORDER` lists (rulesengine/run/odds_value.py); each is a property of the odds-result
schema, and the odds of each kind of procedure validate against it with the shapes declared
(no field left to ``additionalProperties``)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from rulesengine.ruleset import load
from rulesengine.run.odds_value import JSON_ORDER

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
ODDS = json.loads((SCHEMAS / "odds-result.schema.json").read_text())


def undescribed(node: object, path: str = "") -> list[str]:
    """The properties under ``node`` without a description (a ``$ref`` takes the one it names)."""
    found: list[str] = []
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            if isinstance(sub, dict) and "description" not in sub and "$ref" not in sub:
                found.append(f"{path}/{name}")
            found += undescribed(sub, f"{path}/{name}")
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                found += undescribed(node[key], f"{path}[]")
        for key in ("allOf", "anyOf", "oneOf"):
            for sub in node.get(key, ()):
                found += undescribed(sub, path)
        for name, sub in node.get("$defs", {}).items():
            found += undescribed(sub, f"#{name}")
    return found


@pytest.mark.parametrize("name", ["odds-result", "odds-sweep", "dice-odds-result"])
def test_every_field_of_the_odds_schemas_has_a_description(name):
    assert undescribed(json.loads((SCHEMAS / f"{name}.schema.json").read_text())) == []


def test_every_key_the_odds_json_may_have_is_a_property_of_the_schema():
    assert set(JSON_ORDER) <= set(ODDS["properties"])


def _validated(data: dict) -> dict:
    jsonschema.Draft202012Validator(ODDS).validate(data)
    return data


TEAM = [{"characteristic": 5, "skill": 3, "dn": "hard"}, {"characteristic": 6, "skill": 4, "dn": "hard"}]


def test_a_team_procedures_roller_and_members_are_declared():
    d = _validated(load("cyberpunk-3d6").procedure("team").odds({"all_must_succeed": True}, parties=TEAM).to_dict())
    assert d["roller"] in (1, 2) and len(d["members"]) == 2


def test_an_assisted_procedures_bonus_is_declared():
    helper = {"characteristic": 5, "skill": 3, "dn": "hard"}
    d = _validated(load("cyberpunk-3d6").procedure("complementary").odds({"bare_success_helps": True},
                                                                          parties=[helper, helper]).to_dict())
    assert sum(row["probability"] for row in d["bonus"]) == pytest.approx(1)


def test_an_extended_checks_rounds_are_declared():
    d = _validated(load("cyberpunk-3d6").procedure("extended").odds(
        {"characteristic": 6, "skill": 5, "dn": "average", "steps": 3}).to_dict())
    rounds = d["by_round"]
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    # by the end of each round: each chance adds up the rounds before it
    assert all(a["succeeded"] <= b["succeeded"] and a["failed"] <= b["failed"] for a, b in zip(rounds, rounds[1:]))
    assert d["expected_rounds"] == pytest.approx(fraction_value(d["expected_rounds_exact"]))


def test_a_groups_parties_are_declared():
    d = _validated(load("dnd-5e-srd").procedure("group_check").odds(
        parties=[{"ability_modifier": 2}, {"ability_modifier": 0}]).to_dict())
    assert [p["ability_modifier"] for p in d["parties"]] == [2, 0]


def fraction_value(text: str) -> float:
    p, q = text.split("/")
    return int(p) / int(q)
