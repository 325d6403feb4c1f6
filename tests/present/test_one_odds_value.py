"""Every kind's odds are shown through one value (issue 31, part 3): the text table and the
JSON read :class:`~rulesengine.run.odds_value.OddsValue`, never a kind's own attributes."""

from __future__ import annotations

import json
from pathlib import Path

from rulesengine.present.text import format_odds
from rulesengine.ruleset import load
from rulesengine.run.odds_value import JSON_ORDER

TEXT = Path(__file__).resolve().parents[2] / "rulesengine" / "present" / "text.py"


def test_the_text_table_probes_no_attribute():
    source = TEXT.read_text(encoding="utf-8")
    assert "getattr(" not in source and "hasattr(" not in source


def test_a_team_table_shows_what_its_json_has():
    """A team's odds are its check's odds and more; the table used to leave out the roller's
    inputs, the tags and the reported values, because it probed attributes the team's record
    did not have. Now the table shows whatever the JSON has."""
    spycraft = load("spycraft-2e")
    party = {"bonus": 10, "ranks": 10, "dc": 10}
    odds = spycraft.runnable("team").odds(parties=[party, party])
    data = odds.to_dict()
    text = format_odds(odds)
    assert text.splitlines()[1].startswith(f"party{data['roller']} rolls, with: bonus=10, ranks=10, dc=10")
    assert "tags: " + ", ".join(f"{t['name']} {t['probability'] * 100:.2f}%" for t in data["tags"]) in text
    numbers = [name for name, stats in data["stats"]["values"].items() if stats["kind"] == "number"]
    assert numbers
    for name in numbers:
        mean = data["stats"]["values"][name]["mean"]
        assert f"\n{name}: mean {mean:.4g}" in text


def test_every_kind_writes_its_json_keys_in_one_order():
    cases = [("gurps-4e", "success_roll", {"skill": 12}, None),
             ("gurps-4e", "quick_contest", {}, [{"skill": 12}, {"skill": 10}]),
             ("dnd-5e-srd", "group_check", {}, [{"ability_modifier": 1}, {"ability_modifier": 2}]),
             ("dnd-5e-srd", "dying", {}, None),
             ("spycraft-2e", "team", {}, [{"bonus": 1, "ranks": 1, "dc": 10}] * 2)]
    for ruleset, name, inputs, parties in cases:
        data = json.loads(json.dumps(load(ruleset).runnable(name).odds(inputs, parties=parties).to_dict()))
        keys = list(data)
        assert keys == sorted(keys, key=JSON_ORDER.index), (ruleset, name, keys)
