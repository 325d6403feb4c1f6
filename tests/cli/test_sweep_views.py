"""Issue 35: a sweep of a check whose result is a number shows the result's mean and its
chance of N or more (``--at-least N``) in each row and grid; its JSON is the documented
``odds-sweep`` schema. Every figure is checked against brute-force enumeration of the dice."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from rulesengine.cli import main

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"

NO_RESULT = """\
ruleset: word
name: Word
version: "0.1"
source: a test
license: CC0
checks:
  guess:
    inputs:
      bonus: {type: integer, default: 0, min: 0, max: 5}
    roll: 1d6
    outcomes:
      - {name: hit, when: "roll + bonus >= 5", success: true}
      - {name: miss, success: false}
"""


def damage(dice: int, die: int, modifier: int = 0) -> dict[int, Fraction]:
    """dnd-5e-srd damage by brute force: every face of every die, max(0, sum + modifier)."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, die + 1), repeat=dice):
        v = max(0, sum(faces) + modifier)
        counts[v] = counts.get(v, 0) + 1
    total = die ** dice
    return {v: Fraction(c, total) for v, c in counts.items()}


def mean(dist: dict[int, Fraction]) -> Fraction:
    return sum((v * p for v, p in dist.items()), Fraction(0))


def at_least(dist: dict[int, Fraction], n: int) -> Fraction:
    return sum((p for v, p in dist.items() if v >= n), Fraction(0))


def sweep_validator() -> jsonschema.Draft202012Validator:
    """The odds-sweep schema, with the odds-result schema its rows refer to by ``$id``."""
    schemas = [json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.glob("odds-*.schema.json")]
    registry: Registry = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas)
    sweep = next(s for s in schemas if s["$id"].endswith(":odds-sweep"))
    return jsonschema.Draft202012Validator(sweep, registry=registry)


def test_a_numeric_sweep_shows_the_results_mean_in_each_row(capsys):
    assert main(["odds", "dnd-5e-srd", "damage", "dice=1..3", "die=6"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split()[-2:] == ["mean", "result"]
    for dice, row in zip(range(1, 4), rows, strict=True):
        assert row.split()[0] == str(dice)
        assert row.split()[-1] == f"{float(mean(damage(dice, 6))):.2f}"


def test_at_least_adds_the_chance_of_each_value_or_more_to_each_row(capsys):
    assert main(["odds", "dnd-5e-srd", "damage", "dice=1..3", "die=6", "modifier=-2",
                 "--at-least", "3,10", "--at-least", "15", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    for dice, row in zip(range(1, 4), rows, strict=True):
        dist = damage(dice, 6, -2)
        figures = row["sweep_result"]
        assert figures["of"] == "result"
        assert Fraction(figures["mean_exact"]) == mean(dist)
        assert [f["value"] for f in figures["at_least"]] == [3, 10, 15]
        assert [Fraction(f["exact"]) for f in figures["at_least"]] == [at_least(dist, n) for n in (3, 10, 15)]


def test_at_least_columns_in_the_table_and_csv_agree_with_brute_force(capsys):
    assert main(["odds", "dnd-5e-srd", "damage", "dice=2,4", "die=4", "--at-least", "7"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.endswith("mean result  result >= 7")
    assert [r.split()[-1] for r in rows] == [f"{float(at_least(damage(d, 4), 7)) * 100:.1f}%" for d in (2, 4)]
    assert main(["odds", "dnd-5e-srd", "damage", "dice=2,4", "die=4", "--at-least", "7", "--csv"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split(",")[-2:] == ["mean result", "result >= 7"]
    for d, row in zip((2, 4), rows, strict=True):
        assert row.split(",")[-2:] == [f"{float(mean(damage(d, 4))):.6f}", f"{float(at_least(damage(d, 4), 7)):.6f}"]


def test_a_sweep_of_two_inputs_keeps_its_success_grid_and_adds_grids_of_the_mean_and_at_least(capsys):
    assert main(["odds", "dnd-5e-srd", "damage", "dice=1..2", "die=6", "modifier=0..2", "--at-least", "8"]) == 0
    blocks = capsys.readouterr().out.split("\n\n")
    assert [b.splitlines()[0] for b in blocks] == [
        "P(success) by dice (rows) and modifier (columns)", "mean result by dice (rows) and modifier (columns)",
        "result >= 8 by dice (rows) and modifier (columns)"]
    means = [line.split()[1:] for line in blocks[1].splitlines()[2:]]
    assert means == [[f"{float(mean(damage(d, 6, m))):.2f}" for m in range(3)] for d in (1, 2)]
    chances = [line.split()[1:] for line in blocks[2].splitlines()[2:]]
    assert chances == [[f"{float(at_least(damage(d, 6, m), 8)) * 100:.1f}%" for m in range(3)] for d in (1, 2)]


def test_at_least_is_refused_where_there_is_no_sweep_or_no_numeric_result(capsys, tmp_path):
    assert main(["odds", "dnd-5e-srd", "damage", "dice=2", "--at-least", "5"]) == 2
    assert "--at-least N is for a sweep" in capsys.readouterr().err
    path = tmp_path / "word.yaml"
    path.write_text(NO_RESULT, encoding="utf-8")
    assert main(["odds", str(path), "guess", "bonus=0..2", "--at-least", "3"]) == 2
    err = capsys.readouterr().err
    assert "has outcomes only" in err and "Traceback" not in err
    assert main(["odds", "dnd-5e-srd", "damage", "dice=1..2", "--at-least", "five"]) == 2
    assert "give whole numbers" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["odds", "gurps-4e", "success_roll", "skill=8,12"],  # a check, a list sweep
    ["odds", "dnd-5e-srd", "damage", "dice=1..3", "--at-least", "4,6"],  # a numeric result with at-least
    ["odds", "rps", "sustained", "goal=3..4", "skill=8", "attribute=6"],  # a procedure (an extended check)
    ["odds", "gurps-4e", "quick_contest", "party1.skill=10..11", "party2.skill=10"],  # a contest's party input
    ["odds", "gurps-4e", "success_roll", "skill=8..9", "modifier=0..1"],  # two inputs
])
def test_sweep_json_validates_against_the_odds_sweep_schema(capsys, argv):
    code = main(argv + ["--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    rows = json.loads(out)
    sweep_validator().validate(rows)
    assert all(len(r["sweep"]) == (2 if argv[-1] == "modifier=0..1" else 1) for r in rows)


def test_the_schema_refuses_a_sweep_row_without_its_sweep(capsys):
    assert main(["odds", "gurps-4e", "success_roll", "skill=8,12", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    del rows[0]["sweep"]
    with pytest.raises(jsonschema.ValidationError):
        sweep_validator().validate(rows)


def test_a_sweep_of_a_check_without_a_result_has_no_sweep_result(capsys, tmp_path):
    path = tmp_path / "word.yaml"
    path.write_text(NO_RESULT, encoding="utf-8")
    assert main(["odds", str(path), "guess", "bonus=0..2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    sweep_validator().validate(rows)
    assert all("sweep_result" not in r for r in rows)
    assert [Fraction(r["success"]["exact"]) for r in rows] == [Fraction(sum(f + b >= 5 for f in range(1, 7)), 6)
                                                               for b in range(3)]


def test_a_sweeps_percentages_are_rounded_from_the_exact_fractions_halves_to_even(capsys, tmp_path):
    """49/80 is 61.25 % and 31/80 is 38.75 %: rounded from the fractions, halves to even,
    61.2 and 38.8 (a row sums to 100.0); from floats they read 61.3 and 38.8 (an outside
    author's sweep table summed to 100.1)."""
    path = tmp_path / "half.yaml"
    path.write_text('ruleset: half\nname: Half\nversion: "1"\nsource: test\nchecks:\n  c:\n'
                    '    inputs:\n      x: {type: integer, min: 1, max: 2}\n    roll: 1d80\n    result: roll\n'
                    '    outcomes:\n      - {name: low, when: "roll <= 49", success: true}\n'
                    '      - {name: high, success: false}\n')
    assert main(["odds", str(path), "c", "x=1..2"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert rows and all(r[1:5] == ["61.2%", "61.2%", "38.8%", "38.8%"] for r in rows)
