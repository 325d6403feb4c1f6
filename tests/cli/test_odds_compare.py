"""`rulesengine odds RULESET NAME inputs --compare WORDS …` (issue 35): the same check or
procedure under other inputs or another ruleset, side by side — each outcome's chance in a
row, the result's distribution as a row per value and a column per case (normal, at least,
at most), its statistics, as text, CSV, JSON (schemas/odds-comparison.schema.json) and SVG.
Every figure is checked against brute-force enumeration of the dice."""

from __future__ import annotations

import csv
import io
import itertools
import json
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from rulesengine.cli import main

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
SVG = "{http://www.w3.org/2000/svg}"


def blades_action(rating: int) -> dict[str, Fraction]:
    """Blades in the Dark's action roll by brute force: the highest of ``rating`` d6 (two 6s a
    critical); at zero dots the lower of two d6, never a critical."""
    dice = max(rating, 2) if rating == 0 else rating
    counts = dict.fromkeys(("critical", "full_success", "partial_success", "bad_outcome"), 0)
    for faces in itertools.product(range(1, 7), repeat=dice):
        read = min(faces) if rating == 0 else max(faces)
        if rating > 0 and faces.count(6) >= 2:
            counts["critical"] += 1
        elif read == 6:
            counts["full_success"] += 1
        elif read >= 4:
            counts["partial_success"] += 1
        else:
            counts["bad_outcome"] += 1
    return {k: Fraction(c, 6 ** dice) for k, c in counts.items()}


def blades_read(rating: int) -> dict[int, Fraction]:
    """The die read in Blades' action roll, by brute force."""
    dice = 2 if rating == 0 else rating
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=dice):
        read = min(faces) if rating == 0 else max(faces)
        counts[read] = counts.get(read, 0) + 1
    return {v: Fraction(c, 6 ** dice) for v, c in sorted(counts.items())}


def damage(dice: int, die: int) -> dict[int, Fraction]:
    """dnd-5e-srd damage (no modifier) by brute force: the sum of every face of every die."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, die + 1), repeat=dice):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return {v: Fraction(c, die ** dice) for v, c in counts.items()}


def run_json(capsys, *words: str) -> dict:
    assert main(["odds", *words, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def comparison_validator() -> jsonschema.Draft202012Validator:
    schemas = [json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.glob("*.schema.json")]
    registry: Registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas)
    comparison = next(s for s in schemas if s["$id"].endswith(":odds-comparison"))
    return jsonschema.Draft202012Validator(comparison, registry=registry)


def test_each_compared_input_set_is_a_column_of_outcome_chances_equal_to_brute_force(capsys):
    data = run_json(capsys, "blades-in-the-dark", "action", "rating=2", "--compare", "rating=3",
                    "--compare", "rating=0")
    assert data["cases"] == ["rating=2", "rating=3", "rating=0"]
    oracles = [blades_action(r) for r in (2, 3, 0)]
    for row in data["outcomes"]:
        assert row["probability"] == [float(o[row["name"]]) for o in oracles]
    assert data["success"] == [float(1 - o["bad_outcome"]) for o in oracles]
    for column, rating in zip(data["columns"], (2, 3, 0), strict=True):
        assert column["inputs"]["rating"] == rating


def test_the_result_rows_show_each_value_at_least_and_at_most_per_case(capsys):
    data = run_json(capsys, "blades-in-the-dark", "action", "rating=2", "--compare", "rating=3")
    oracles = [blades_read(2), blades_read(3)]
    assert [r["value"] for r in data["rows"]] == list(range(1, 7))
    for row in data["rows"]:
        v = row["value"]
        assert row["probability"] == [float(o[v]) for o in oracles]
        assert row["at_least"] == [float(sum(p for x, p in o.items() if x >= v)) for o in oracles]
        assert row["at_most"] == [float(sum(p for x, p in o.items() if x <= v)) for o in oracles]
    assert data["stats"]["mean"] == [float(sum(v * p for v, p in o.items())) for o in oracles]
    assert data["stats"]["min"] == [1, 1] and data["stats"]["max"] == [6, 6]


def test_comparison_json_validates_against_its_schema(capsys):
    validator = comparison_validator()
    validator.validate(run_json(capsys, "dnd-5e-srd", "damage", "dice=2", "die=6", "--compare", "die=8"))
    validator.validate(run_json(capsys, "dnd-5e-srd", "contest", "party1.level=1", "party2.level=1",
                                "--compare", "party2.ability_modifier=3"))
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**run_json(capsys, "gurps-4e", "success_roll", "skill=12", "--compare", "skill=14"), "rows": [{}]})


def test_a_value_only_one_case_takes_is_shown_as_a_dash_in_the_other(capsys):
    assert main(["odds", "dnd-5e-srd", "damage", "dice=2", "die=6", "--compare", "die=8"]) == 0
    out = capsys.readouterr().out
    row16 = next(line.split() for line in out.splitlines() if line.startswith("16 "))
    assert row16 == ["16", "-", f"{float(damage(2, 8)[16]) * 100:.2f}"]


@pytest.mark.parametrize("flag, view", [("--at-least", "at_least"), ("--at-most", "at_most")])
def test_at_least_and_at_most_views_of_a_comparison_agree_with_brute_force(capsys, flag, view):
    assert main(["odds", "dnd-5e-srd", "damage", "dice=2", "die=6", "--compare", "die=8", flag, "--csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["kind", "name", "die=6", "die=8"]  # labelled by what differs
    results = {int(r[1]): r[2:] for r in rows if r[0] == "result"}
    for v, cells in results.items():
        for cell, die in zip(cells, (6, 8), strict=True):
            d = damage(2, die)
            expected = sum(p for x, p in d.items() if (x >= v if view == "at_least" else x <= v))
            assert float(cell) == float(expected)


def test_the_same_check_under_another_ruleset_is_labelled_by_its_ruleset(capsys, tmp_path):
    copy = tmp_path / "copy.yaml"
    copy.write_text((Path(__file__).resolve().parents[2] / "rulesets" / "gurps-4e.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    data = run_json(capsys, "gurps-4e", "success_roll", "skill=12", "--compare", str(copy), "skill=13")
    assert data["cases"] == ["gurps-4e skill=12", f"{copy} skill=13"]
    # GURPS: 3d6 <= skill succeeds (17-18 always fail, 3-4 always succeed): brute force
    rolls = [sum(f) for f in itertools.product(range(1, 7), repeat=3)]
    expected = [Fraction(sum(1 for r in rolls if r <= min(skill, 16)), 216) for skill in (12, 13)]
    assert data["success"] == [float(p) for p in expected]


def test_a_party_input_is_compared_as_a_procedure_takes_it(capsys):
    data = run_json(capsys, "dnd-5e-srd", "contest", "party1.ability_modifier=2", "party2.ability_modifier=0",
                    "--compare", "party2.ability_modifier=3")
    assert data["cases"] == ["party2.ability_modifier=0", "party2.ability_modifier=3"]
    # a contest of 1d20 + modifier each, the higher wins (a tie is a tie): brute force
    for case, theirs in zip(data["outcomes"][0]["probability"], (0, 3), strict=True):
        wins = sum(1 for a in range(1, 21) for b in range(1, 21) if a + 2 > b + theirs)
        assert case == float(Fraction(wins, 400))


def test_plot_writes_one_series_per_compared_case(capsys, tmp_path):
    out = tmp_path / "c.svg"
    assert main(["odds", "blades-in-the-dark", "action", "rating=2", "--compare", "rating=3",
                 "--compare", "rating=0", "--plot", str(out)]) == 0
    capsys.readouterr()
    root = ET.parse(out).getroot()
    legend = [t.text for t in root.iter(f"{SVG}text")]
    assert all(label in legend for label in ("rating=2", "rating=3", "rating=0"))


@pytest.mark.parametrize("words, message", [
    (["rating=2..3", "--compare", "rating=1"], "--compare is for one set of inputs, not a sweep"),
    (["rating=2", "--at-least"], "--at-least without a number is for --compare"),
    (["rating=2", "--at-most"], "--at-most without a number is for --compare"),
    (["rating=2", "--compare", "gurps-4e", "fate-core"], "name one ruleset to compare with, not 2"),
    (["rating=2", "--compare", "rating=3", "--at-least", "--at-most"], "two views: give one"),
    # found in review: the number was dropped and the plain table printed
    (["rating=2", "--compare", "rating=3", "--at-least", "9"], "--at-least N is for a sweep"),
])
def test_a_comparison_asked_for_wrongly_is_a_one_line_usage_error(capsys, words, message):
    assert main(["odds", "blades-in-the-dark", "action", *words]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
