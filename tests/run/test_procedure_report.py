"""A procedure's ``report``: values worked out when it ends (issue 15, "a procedure's end
state"). Rolls show them; exact odds give each one's distribution, checked here against an
enumeration of every roll written independently of the engine, for each kind: a contest
(the winner's margin, nothing on a tie), an extended check (read from its final state), a
team check (the roller's margin) and assisted checks (helpers first, and after the leader's
dice: the same dice worked out again with the bonus)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F
from pathlib import Path

import jsonschema
import pytest

from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import loads

YAML = """
ruleset: reports
name: Report test
version: "1"
source: tests
checks:
  d6:
    inputs:
      bonus: {type: integer, default: 0, min: -10, max: 10}
      target: {type: integer, default: 4}
    roll: 1d6
    result: roll + bonus
    outcomes:
      - {name: great, success: true, when: roll == 6}
      - {name: botch, success: false, when: roll == 1}
      - {name: hit, success: true, when: result >= target}
      - {name: miss, success: false}
procedures:
  duel:
    kind: contest
    check: d6
    rank_by: [result]
    ties: stand
    report: {margin: result - runner_up, who: winner, natural: roll}
  rematch:
    kind: contest
    check: d6
    rank_by: [result]
    ties: reroll
    report: {margin: result - runner_up}
  dig:
    kind: extended
    check: d6
    inputs: {goal: {type: integer, default: 3, min: 1, max: 10}}
    state: {pool: 0, botches: 0}
    each_round:
      - {when: outcome == 'botch', set: {pool: 0, botches: botches + 1}}
      - {when: success, set: {pool: pool + 1}}
    succeed_when: pool >= goal
    fail_when: botches >= 2
    max_rounds: 4
    report: {short: goal - pool, spoiled: botches > 0}
  team:
    kind: team
    check: d6
    rank_by: [bonus]
    roller: "'highest'"
    report: {over: result - target, who: roller}
  helped:
    kind: assisted
    check: d6
    helpers: {min: 1, max: 2}
    totals: {hits: "if(success, 1, 0)", greats: "if(outcome == 'great', 1, 0)"}
    ruin_when: outcome == 'botch'
    bonus: min(1, hits) + greats
    bonus_to: bonus
    report: {final: result, given: bonus}
  after:
    kind: assisted
    check: d6
    order: leader_first
    helpers: {min: 1, max: 1}
    helper_inputs: {target: "max(4, leader_result)"}
    totals: {hits: "if(success, 1, 0)"}
    bonus: hits
    bonus_to: bonus
    report: {natural: roll, final: result}
"""

D6 = range(1, 7)
SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.fixture(scope="module")
def rs():
    return loads(YAML, "reports.yaml")


def outcome(roll: int, bonus: int = 0, target: int = 4) -> tuple[str, bool]:
    """The d6 check of the ruleset above, restated."""
    if roll == 6:
        return "great", True
    if roll == 1:
        return "botch", False
    return ("hit", True) if roll + bonus >= target else ("miss", False)


def add(dist: dict, value, p: F) -> None:
    dist[value] = dist.get(value, F(0)) + p


def test_a_contest_reports_the_winners_margin_and_nothing_on_a_tie(rs):
    want: dict[str, dict] = {"margin": {}, "who": {}, "natural": {}}
    for a, b in itertools.product(D6, D6):
        r1, r2 = a + 2, b  # party 1 has bonus 2
        if r1 == r2:
            continue  # a tie stands: no winner, no report
        win, margin, natural = (1, r1 - r2, a) if r1 > r2 else (2, r2 - r1, b)
        add(want["margin"], margin, F(1, 36))
        add(want["who"], win, F(1, 36))
        add(want["natural"], natural, F(1, 36))
    odds = rs.procedure("duel").odds(parties=[{"bonus": 2}, {}])
    assert odds.report == {k: dict(sorted(v.items())) for k, v in want.items()}
    assert sum(odds.report["margin"].values()) == 1 - odds.tie


def test_a_contest_rolled_again_on_ties_reports_the_margin_of_the_round_that_decided_it(rs):
    want: dict = {}
    decided = [(a, b) for a, b in itertools.product(D6, D6) if a + 1 != b]  # party 1 has bonus 1
    for a, b in decided:
        add(want, abs(a + 1 - b), F(1, len(decided)))
    odds = rs.procedure("rematch").odds(parties=[{"bonus": 1}, {}])
    assert odds.report == {"margin": dict(sorted(want.items()))}


def test_an_extended_check_reports_values_read_from_its_final_state(rs):
    want: dict[str, dict] = {"short": {}, "spoiled": {}}
    goal = 3
    for rolls in itertools.product(D6, repeat=4):
        pool = botches = 0
        for r in rolls:
            name, success = outcome(r)
            if name == "botch":
                pool, botches = 0, botches + 1
            elif success:
                pool += 1
            if pool >= goal or botches >= 2:
                break
        add(want["short"], goal - pool, F(1, 6 ** 4))
        add(want["spoiled"], botches > 0, F(1, 6 ** 4))
    odds = rs.procedure("dig").odds({"goal": goal})
    assert odds.report["short"] == dict(sorted(want["short"].items()))
    assert odds.report["spoiled"] == want["spoiled"]
    data = odds.to_dict()
    assert data["stats"]["report"]["spoiled"]["kind"] == "yes/no"
    assert data["stats"]["report"]["short"]["mean_exact"] == str(
        sum((v * p for v, p in want["short"].items()), F(0)))


def test_a_team_check_reports_the_rollers_values(rs):
    odds = rs.procedure("team").odds(parties=[{"bonus": 1}, {"bonus": 3}, {"bonus": 2}])
    want: dict = {}
    for r in D6:
        add(want, r + 3 - 4, F(1, 6))  # the member with the highest bonus (3) rolls
    assert odds.report == {"over": dict(sorted(want.items())), "who": {2: F(1)}}


def test_an_assisted_check_reports_the_leaders_result_and_the_bonus_unless_ruined(rs):
    want: dict[str, dict] = {"final": {}, "given": {}}
    for helpers in itertools.product(D6, D6):
        results = [outcome(h) for h in helpers]
        if any(name == "botch" for name, _ in results):
            continue  # ruined: no report
        hits = sum(success for _, success in results)
        greats = sum(name == "great" for name, _ in results)
        bonus = min(1, hits) + greats
        for r in D6:
            p = F(1, 6 ** 3)
            add(want["final"], r + bonus, p)
            add(want["given"], bonus, p)
    odds = rs.procedure("helped").odds(parties=[{}, {}, {}])
    assert odds.report == {k: dict(sorted(v.items())) for k, v in want.items()}


def test_an_assisted_check_after_the_leaders_dice_reports_the_same_dice_with_the_bonus(rs):
    want: dict[str, dict] = {"natural": {}, "final": {}}
    for leader, helper in itertools.product(D6, D6):
        _, success = outcome(helper, target=max(4, leader))
        add(want["natural"], leader, F(1, 36))
        add(want["final"], leader + int(success), F(1, 36))
    odds = rs.procedure("after").odds(parties=[{}, {}])
    assert odds.report == {k: dict(sorted(v.items())) for k, v in want.items()}


@pytest.mark.parametrize("name, parties, inputs, faces, report", [
    ("duel", [{"bonus": 2}, {}], None, [3, 4], {"margin": 1, "who": 1, "natural": 3}),
    ("duel", [{}, {}], None, [4, 4], {}),  # a tie: no report
    ("dig", None, {"goal": 1}, [2, 1, 5], {"short": 0, "spoiled": True}),
    ("team", [{"bonus": 1}, {"bonus": 3}], None, [5], {"over": 4, "who": 2}),
    ("helped", [{}, {}], None, [6, 3], {"final": 5, "given": 2}),
    ("helped", [{}, {}], None, [1], {}),  # the helper botches: ruined, the leader never rolls
    ("after", [{}, {}], None, [3, 5], {"natural": 3, "final": 4}),
])
def test_a_roll_shows_its_report_in_the_trace_and_in_json(rs, name, parties, inputs, faces, report):
    rolled = rs.procedure(name).roll(inputs, parties=parties, faces=faces)
    data = rolled.to_dict()
    assert data["report"] == report
    if report:
        assert rolled.trace.splitlines()[-1] == "report: " + ", ".join(f"{k} {v}" for k, v in report.items())
    else:
        assert "report:" not in rolled.trace
    jsonschema.validate(data, json.loads((SCHEMAS / "roll-result.schema.json").read_text()))


def test_procedure_odds_with_a_report_match_the_odds_result_schema(rs):
    schema = json.loads((SCHEMAS / "odds-result.schema.json").read_text())
    for name, parties, inputs in [("duel", [{}, {}], None), ("dig", None, {}), ("team", [{}], None),
                                  ("helped", [{}, {}], None)]:
        data = rs.procedure(name).odds(inputs, parties=parties).to_dict()
        jsonschema.validate(data, schema)
        assert set(data["report"]) == set(data["stats"]["report"]) and data["report"]


def test_a_report_reads_only_what_its_kind_gives_it():
    """An extended check's report reads its inputs and final state, not a round's check: a
    name it can't read is an error at load, at the report's expression."""
    text = YAML.replace("report: {short: goal - pool, spoiled: botches > 0}", "report: {short: goal - result}")
    with pytest.raises(RulesEngineError, match="unknown name 'result' in report 'short'") as info:
        loads(text, "bad.yaml")
    assert info.value.code == "E502"
    assert info.value.location.path == "bad.yaml" and info.value.location.line is not None


def test_a_report_that_is_not_an_expression_is_refused_by_the_schema():
    text = YAML.replace("report: {margin: result - runner_up}", "report: [margin]")
    with pytest.raises(RulesEngineError) as info:
        loads(text, "bad.yaml")
    assert info.value.code.startswith("E4") and info.value.location.line is not None


def test_the_export_names_each_procedures_report(rs):
    from rulesengine.present.export import export

    doc = json.loads(json.dumps(export(rs)))
    jsonschema.validate(doc, json.loads((SCHEMAS / "export.schema.json").read_text()))
    assert list(doc["procedures"]["dig"]["report"]) == ["short", "spoiled"]
    assert doc["procedures"]["dig"]["report"]["short"]["text"] == "goal - pool"


def test_show_lists_a_procedures_report(rs):
    from rulesengine.present.show import describe_runnable

    assert "reports when it ends: short = goal - pool, spoiled = botches > 0" in describe_runnable(rs, "dig")


def test_a_report_reading_a_rounds_check_value_is_told_how_to_keep_it_in_state():
    """An extended check's report reads the final state and the inputs; a round's ``result``
    is not there. The hint says how to keep it (issue 32: it used to suggest a state name),
    and the file written as the hint says is valid and reports the last round's roll."""
    from pathlib import Path

    from rulesengine.ruleset import loads
    from rulesengine.validate import validate_text

    path = Path(__file__).resolve().parents[1] / "corpus" / "mistakes" / \
        "E502_extended_report_reads_a_rounds_check_value.yaml"
    text = path.read_text(encoding="utf-8")
    [said] = [d for d in validate_text(text, "climb.yaml").diagnostics if d.code == "E502"]
    assert "state: {last_result: 0}" in said.hint and "set: {last_result: result}" in said.hint
    fixed = (text.replace("state: {progress: 0}", "state: {progress: 0, last_result: 0}")
             .replace("set: {progress: progress + 1}",  # the first rule that applies sets it: each one does
                      "set: {progress: progress + 1, last_result: result}\n      - set: {last_result: result}")
             .replace("last_roll: result", "last_roll: last_result"))
    assert validate_text(fixed, "climb.yaml").errors == 0
    rolled = loads(fixed).procedure("long_climb").roll(faces=[12, 3, 15, 18])
    assert rolled.report["last_roll"] == 18
