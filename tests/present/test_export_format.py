"""Export format 1 and input forms (issue 16, item 4): a front end in any language reads a
ruleset, what each party must enter, and a JSON Schema form per check and procedure."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, strategies as st

import rulesengine
from rulesengine.dice.values import POOL_PATTERN, DicePool
from rulesengine.errors import InputError
from rulesengine.present.export import EXPORT_FORMAT, export
from rulesengine.present.forms import input_form
from rulesengine.ruleset import shipped_ids

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
EXPORT_SCHEMA = json.loads((SCHEMAS / "export.schema.json").read_text(encoding="utf-8"))

LABELLED = """\
ruleset: labelled
name: Labelled
version: "1"
source: a test of display labels
license: MIT
tables:
  difficulty:
    ladder: {easy: 2, hard: -2}
checks:
  attack:
    label: Attack roll
    inputs:
      bonus: {type: integer, label: Attack bonus, min: -5, max: 10, labels: difficulty}
      pool: {type: dice_pool, default: d8/d6, label: Dice pool}
      stance: {type: choice, choices: [calm, wild], default: calm}
      lucky: {type: boolean, optional: true}
    roll: 1d20
    result: roll + bonus
    outcomes:
      - {name: hit, label: A hit, success: true, when: result >= 10}
      - {name: miss, success: false}
  help_check:
    inputs:
      bonus: {type: integer, min: -5, max: 10}
      edge: {type: integer, default: 0}
    roll: 1d20
    result: roll + bonus + edge
    outcomes:
      - {name: ok, success: true, when: result >= 10}
      - {name: short, success: false}
procedures:
  duel:
    kind: contest
    label: A duel
    check: attack
    parties: {min: 2, max: 3}
    rank_by: [result]
  helped:
    kind: assisted
    check: help_check
    helper_check: help_check
    helper_inputs: {edge: leader_bonus}
    helpers: {min: 1, max: 4}
    totals: {ok_count: "if(success, 1, 0)"}
    bonus: ok_count
    bonus_to: bonus
  push:
    kind: extended
    check: help_check
    inputs:
      goal: {type: integer, min: 1, max: 20, default: 5}
    state: {progress: "0"}
    each_round:
      - set: {progress: progress + 1}
    round_inputs: {edge: progress}
    succeed_when: progress >= goal
    max_rounds: "10"
"""


@pytest.fixture(scope="module")
def labelled():
    return rulesengine.loads(LABELLED, "labelled.yaml")


@pytest.mark.parametrize("rid", shipped_ids())
def test_every_shipped_export_validates_against_the_export_schema(rid):
    document = json.loads(json.dumps(export(rulesengine.load(rid))))
    jsonschema.Draft202012Validator.check_schema(EXPORT_SCHEMA)
    jsonschema.validate(document, EXPORT_SCHEMA)
    assert document["format"] == EXPORT_FORMAT == 1
    assert document["engine"]["name"] == "rulesengine"


def test_the_export_of_a_ruleset_with_every_kind_of_input_and_procedure_validates(labelled):
    jsonschema.validate(json.loads(json.dumps(export(labelled))), EXPORT_SCHEMA)


def test_labels_are_exported_and_default_to_the_name(labelled):
    doc = export(labelled)
    attack = doc["checks"]["attack"]
    assert attack["label"] == "Attack roll"
    assert attack["inputs"]["bonus"]["label"] == "Attack bonus"
    assert attack["inputs"]["stance"]["label"] == "stance"
    assert [o["label"] for o in attack["outcomes"]] == ["A hit", "miss"]
    assert doc["procedures"]["duel"]["label"] == "A duel"
    assert doc["procedures"]["helped"]["label"] == "helped"


def test_show_gives_a_label_that_says_more_than_the_name(labelled, capsys, tmp_path):
    from rulesengine.cli import main

    path = tmp_path / "labelled.yaml"
    path.write_text(LABELLED, encoding="utf-8")
    assert main(["show", str(path), "attack"]) == 0
    out = capsys.readouterr().out
    assert "attack (Attack roll)" in out
    assert "bonus (Attack bonus): a whole number" in out
    assert "hit (A hit)" in out
    assert "stance (" not in out  # no label: the name alone


def test_a_dice_pool_input_carries_its_format_machine_readably(labelled):
    fmt = export(labelled)["checks"]["attack"]["inputs"]["pool"]["format"]
    assert fmt["pattern"] == POOL_PATTERN
    assert fmt["max_dice"] == 100 and fmt["max_sides"] == 1000
    for example in fmt["examples"]:
        assert re.fullmatch(fmt["pattern"], example)
        DicePool.parse(example)


def test_an_integer_input_lists_the_labels_it_takes_with_their_numbers(labelled):
    labels = export(labelled)["checks"]["attack"]["inputs"]["bonus"]["labels"]
    assert labels == {"table": "difficulty", "column": None, "values": {"easy": 2, "hard": -2}}


def test_a_procedure_says_what_every_party_gives(labelled):
    doc = export(labelled)["procedures"]
    duel = doc["duel"]
    assert duel["inputs"] == {}
    assert [(p["role"], p["check"], p["first"], p["min"], p["max"]) for p in duel["parties"]] == [
        ("party", "attack", 1, 2, 3)]
    assert set(duel["parties"][0]["inputs"]) == {"bonus", "pool", "stance", "lucky"}
    helped = doc["helped"]
    assert [(p["role"], p["first"], p["min"], p["max"]) for p in helped["parties"]] == [
        ("leader", 1, 1, 1), ("helper", 2, 1, 4)]
    assert set(helped["parties"][1]["inputs"]) == {"bonus"}  # edge is worked out by the procedure
    assert helped["parties"][1]["computed"] == ["edge"]
    push = doc["push"]
    assert push["parties"] == []
    assert set(push["inputs"]) == {"goal", "bonus"}  # edge is set each round


def test_what_the_export_says_a_procedure_takes_is_what_it_takes(labelled):
    """Each role's count and inputs, given as the export says, roll; one party fewer is refused."""
    rolled = labelled.procedure("duel").roll(parties=[{"bonus": 1}, {"bonus": 2}], seed=1)
    assert rolled.to_dict()["procedure"] == "duel"
    with pytest.raises(InputError):
        labelled.procedure("duel").roll(parties=[{"bonus": 1}], seed=1)
    labelled.procedure("helped").roll(parties=[{"bonus": 1}, {"bonus": 0}], seed=1)
    labelled.procedure("push").roll({"goal": 3, "bonus": 2}, seed=1)


@pytest.mark.parametrize("rid", shipped_ids())
def test_every_form_is_a_json_schema_that_the_defaults_and_the_engine_agree_on(rid):
    rs = rulesengine.load(rid)
    for name in rs.checks() + rs.procedures():
        form = input_form(rs.model, name)
        jsonschema.Draft202012Validator.check_schema(form)
        assert form["title"]
        assert set(form["properties"]) <= {"inputs", "parties"}


def _least(schema: dict) -> dict:
    """The smallest inputs a form asks for: each required input at its minimum (or first choice)."""
    out = {}
    for name in schema["required"]:
        prop = schema["properties"][name]
        number = prop["anyOf"][0] if "anyOf" in prop else prop
        if number.get("type") == "integer":
            out[name] = number.get("minimum", 0)
        else:
            out[name] = (prop.get("enum") or prop.get("examples") or [True])[0]
    return out


@pytest.mark.parametrize("rid", shipped_ids())
def test_inputs_a_form_accepts_are_inputs_the_engine_accepts(rid):
    rs = rulesengine.load(rid)
    for name in rs.checks():
        form = input_form(rs.model, name)
        inputs = _least(form["properties"]["inputs"])
        jsonschema.validate({"inputs": inputs}, form)
        rs.check(name).coerce_inputs(inputs)
    for name in rs.procedures():
        form = input_form(rs.model, name)
        request = {"inputs": _least(form["properties"]["inputs"])}
        parties = form["properties"].get("parties")
        if parties:
            items = parties.get("prefixItems", []) + [parties["items"]] * parties["minItems"]
            request["parties"] = [_least(p) for p in items[:parties["minItems"]]]
        jsonschema.validate(request, form)
        try:
            rs.procedure(name).roll(request["inputs"], parties=request.get("parties"), seed=1)
        except InputError as exc:  # the rules may forbid the attempt (skill too low): not a form's matter
            assert "may not make the check" in exc.message, exc.message


def test_a_form_refuses_what_the_engine_refuses(labelled):
    form = input_form(labelled.model, "attack")
    bad = [{"bonus": 11}, {"bonus": "legendary"}, {"bonus": 1, "stance": "angry"}, {"bonus": 1, "pool": "d8/x"},
           {"bonus": 1, "typo": 1}, {}]
    for inputs in bad:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"inputs": inputs}, form)
        with pytest.raises(InputError):
            labelled.check("attack").coerce_inputs(inputs)
    good = {"bonus": "easy", "pool": "2d10+d4", "stance": "wild", "lucky": None}
    jsonschema.validate({"inputs": good}, form)
    labelled.check("attack").coerce_inputs(good)


def test_a_procedure_form_numbers_its_parties(labelled):
    duel = input_form(labelled.model, "duel")["properties"]["parties"]
    assert (duel["minItems"], duel["maxItems"]) == (2, 3)
    helped = input_form(labelled.model, "helped")["properties"]["parties"]
    assert (helped["minItems"], helped["maxItems"]) == (2, 5)
    assert len(helped["prefixItems"]) == 1 and "edge" not in helped["items"]["properties"]
    assert "edge" in helped["prefixItems"][0]["properties"]
    assert helped["description"] == "party1: the leader; party2 onwards: 1 to 4 helpers"


@given(st.lists(st.tuples(st.sampled_from(["", "1", "2", "12"]), st.sampled_from(["d", "D"]),
                          st.sampled_from(["4", "6", "10", "1001"]), st.sampled_from(["", " "])),
                min_size=1, max_size=4),
       st.sampled_from(["/", "+", ",", " / "]))
def test_the_pool_pattern_matches_only_text_the_pool_parser_reads(parts, sep):
    text = sep.join(f"{n}{d}{s}{space}" for n, d, s, space in parts)
    assert re.fullmatch(POOL_PATTERN, text)
    try:
        DicePool.parse(text)
    except ValueError as exc:  # the pattern says the form; only the bounds may still refuse
        assert "1001" in text and "not allowed" in str(exc)


@pytest.mark.parametrize("text", ["d8/", "/d8", "d8//d6", "8", "d", "dd8", "d8 d6", "d-4", ""])
def test_the_pool_pattern_refuses_what_is_not_a_pool_of_dice(text):
    assert not re.fullmatch(POOL_PATTERN, text)


def test_a_role_of_a_fixed_number_of_parties_reads_as_english():
    """Issue 36, item 4: forms said "2 to 2 partys"."""
    from rulesengine.present.forms import plural

    assert [plural(w, 2) for w in ("party", "helper", "ally", "boss", "day")] == \
        ["parties", "helpers", "allies", "bosses", "days"]
    assert plural("party", 1) == "party"
    text = json.dumps([input_form(rulesengine.load(r).model, n) for r in shipped_ids()
                       for n in rulesengine.load(r).model.procedures])
    assert "onwards" in text and "partys" not in text and not re.search(r" (\d+) to \1 ", text)
