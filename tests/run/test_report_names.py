"""A check's reported values in a roll's JSON (issue 29, item 7): under ``report``, and beside
the result's own keys as before; a value named like one of those keys (``dice``) loads, as it
did before validate refused it (E525), with a deprecation warning naming the fix (W504), and
is only under ``report``: it never overwrites the result's own key."""

from __future__ import annotations

import json
from pathlib import Path

from rulesengine.cli import main
from rulesengine.ruleset import load, loads

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "roll-result.schema.json").read_text(encoding="utf-8"))

REPORTS_DICE = """\
ruleset: report-named-dice
name: A pool that reports its size as 'dice'
version: "1"
source: tests
checks:
  pool_roll:
    inputs:
      skill: {type: integer, default: 2, min: 0, max: 5}
    let:
      dice: skill + 1
      spare: 6 - skill
    roll: (dice)d6
    result: count(roll, 5, 6)
    report: [dice, spare]
    outcomes:
      - {name: success, success: true, when: result >= 1}
      - {name: failure, success: false}
"""


def test_a_reported_value_named_like_a_result_key_loads_with_a_deprecation_that_names_the_fix():
    rs = loads(REPORTS_DICE, "reports-dice.yaml")
    [warning] = rs.warnings
    assert warning.code == "W504" and warning.severity == "warning"
    assert (warning.location.line, warning.location.column) == (14, 14)  # the 'dice' in report: [dice, spare]
    assert "deprecated" in warning.message and "dice_value" in (warning.hint or "")


def test_validate_passes_it_but_strict_validation_fails_on_the_deprecation(tmp_path, capsys):
    path = tmp_path / "reports-dice.yaml"
    path.write_text(REPORTS_DICE, encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    assert main(["validate", "--strict", str(path)]) == 1
    assert "warning[W504]" in capsys.readouterr().out


def test_a_value_named_dice_is_under_report_and_the_results_own_dice_stay_the_dice():
    """skill 2: three dice (faces 5, 1, 6 as given), two hits; 'dice' reports 3, 'spare' 4."""
    result = loads(REPORTS_DICE).check("pool_roll").roll({"skill": 2}, faces=[5, 1, 6])
    out = result.to_dict()
    assert [d["face"] for d in out["dice"]] == [5, 1, 6]  # the result's own dice, not the value 3
    assert out["report"] == {"dice": 3, "spare": 4}
    assert out["spare"] == 4  # a name the result does not use: beside its keys too, as before
    assert out["result"] == 2 and out["outcome"] == "success"


def test_the_roll_json_with_a_report_follows_the_roll_result_schema(capsys, tmp_path):
    import jsonschema

    path = tmp_path / "reports-dice.yaml"
    path.write_text(REPORTS_DICE, encoding="utf-8")
    assert main(["roll", str(path), "pool_roll", "skill=4", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.validate(data, SCHEMA)
    assert data["report"] == {"dice": 5, "spare": 2} and isinstance(data["dice"], list) and len(data["dice"]) == 5


def test_every_reported_value_of_a_shipped_check_is_under_report_and_beside_the_keys():
    """mudd's action reports precision and impact: the same values in both places."""
    chk = load("mudd").check("action")
    out = chk.roll({"pool": "d8/d4/d4", "precision_target": 5, "impact_target": 2}, seed=1).to_dict()
    assert set(out["report"]) == set(chk.model.report) and out["report"]
    for name, value in out["report"].items():
        assert out[name] == value
