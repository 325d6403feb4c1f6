"""Every JSON shape the command line prints is described by a shipped schema (issue 15), and
real output of each command validates against it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from rulesengine.cli import main

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def schema(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("argv, name", [
    (["dice", "4d6kh3 + 1", "--seed", "1", "--json"], "dice-roll-result"),
    (["dice", "3d6!cs>=5", "--seed", "2", "--json"], "dice-roll-result"),
    (["dice", "4d6kh3", "--odds", "--json"], "dice-odds-result"),
    (["dice", "1d20 >= 10", "--odds", "--json"], "dice-odds-result"),
    (["dice", "3d6", "2d10", "--odds", "--json"], "dice-odds-result"),
    (["dice", "1d20 + b", "b=0..2", "--odds", "--json"], "dice-odds-result"),
    (["dice", "d6!>=(x)", "x=5", "--odds", "--json"], "dice-odds-result"),
    (["dice", "max(1d6!, 3)", "--odds", "--json"], "dice-odds-result"),
    (["list", "--json"], "list-result"),
    (["export", "spycraft-2e"], "export"),
    (["odds", "gurps-4e", "success_roll", "skill=12", "--json"], "odds-result"),
    (["odds", "gurps-4e", "success_roll", "skill=12", "--given", "success", "--json"], "odds-result"),
    (["odds", "rps", "sustained", "goal=5", "skill=8", "attribute=6", "--json"], "odds-result"),
    (["roll", "gurps-4e", "success_roll", "skill=12", "--seed", "1", "--json"], "roll-result"),
])
def test_json_output_validates_against_its_shipped_schema(capsys, argv, name):
    assert main(argv) == 0
    jsonschema.validate(json.loads(capsys.readouterr().out), schema(name))


def test_a_sweep_is_a_list_of_odds_results_each_with_its_sweep(capsys):
    assert main(["odds", "gurps-4e", "success_roll", "skill=8,12", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    for row in rows:
        jsonschema.validate(row, schema("odds-result"))
        assert set(row["sweep"]) == {"skill"}


def test_the_statistics_of_cut_explosions_name_only_fields_the_schema_lists(capsys):
    """Issue 29: which mean the odds give (``mean_kind``) and what they leave out
    (``mass_left_out``) are described, for a closed-form mean and for one of the mass worked out."""
    listed = schema("dice-odds-result")["$defs"]["summary"]["properties"]
    assert main(["dice", "d6!!max8", "max(1d6!, 3)", "--odds", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["columns"]  # several expressions: a comparison (issue 35)
    assert [r["stats"]["mean_kind"] for r in rows] == ["exact", "of_mass_worked_out"]
    for row in rows:
        assert set(row["stats"]) <= set(listed)
        assert "mass_left_out" in row["stats"]
    assert set(listed) == set(schema("odds-result")["$defs"]["summary"]["properties"])


@pytest.mark.parametrize("argv", [
    ["odds", "gurps-4e", "success_roll", "skill=8,12", "--json"],
    ["odds", "dnd-5e-srd", "damage", "dice=1..2", "modifier=0..1", "--at-least", "5", "--json"],
])
def test_a_sweep_validates_against_the_odds_sweep_schema(capsys, argv):
    """Issue 35: a sweep's JSON is its own schema, whose rows are odds results (by ``$id``)."""
    from referencing import Registry, Resource

    assert main(argv) == 0
    registry: Registry = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in (schema("odds-result"), schema("odds-sweep")))
    jsonschema.Draft202012Validator(schema("odds-sweep"), registry=registry).validate(
        json.loads(capsys.readouterr().out))
