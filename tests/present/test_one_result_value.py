"""Every kind's roll is shown through one value (issue 31, part 3): the text of ``roll`` and
the JSON (``roll --json``, ``to_dict()``, the service) read
:class:`~rulesengine.run.result_value.ResultValue`, never a kind's own attributes.

The dice are given (``faces``), so each figure below is worked out by hand from them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesengine.present.text import format_roll
from rulesengine.records import FrozenInstanceError
from rulesengine.ruleset import loads
from rulesengine.run.result_value import CHECK_ORDER, PROCEDURE_ORDER, VALUES, ResultValue

TEXT = Path(__file__).resolve().parents[2] / "rulesengine" / "present" / "text.py"

YAML = """
ruleset: kinds
name: One of each kind
version: "1"
source: tests
checks:
  d6:
    inputs:
      bonus: {type: integer, default: 0, min: -10, max: 10}
      target: {type: integer, default: 4}
    roll: 1d6
    let:
      total: roll + bonus
      doubled: total * 2
    result: total
    outcomes:
      - {name: hit, success: true, when: result >= target}
      - {name: miss, success: false}
    report: [doubled]
procedures:
  stand: {kind: contest, check: d6, rank_by: [result], ties: stand}
  race:
    kind: extended
    check: d6
    inputs: {goal: {type: integer, default: 2, min: 1, max: 10}}
    state: {pool: 0}
    each_round:
      - {when: success, set: {pool: pool + 1}}
    succeed_when: pool >= goal
    max_rounds: 5
  team:
    kind: team
    check: d6
    rank_by: [bonus]
    roller: "'highest'"
    member_values: {learns: bonus < roller_bonus}
  helped:
    kind: assisted
    check: d6
    helpers: {min: 1, max: 2}
    totals: {hits: "if(success, 1, 0)"}
    bonus: hits
    bonus_to: bonus
  crew:
    kind: group
    check: d6
    parties: {min: 2, max: 4}
    tally: {hits: "if(success, 1, 0)"}
    outcomes:
      - {name: done, when: "hits * 2 >= parties", success: true}
      - {name: undone, success: false}
"""


@pytest.fixture(scope="module")
def rs():
    return loads(YAML, "kinds.yaml")


def rolls(rs):
    """One roll of each kind, with the dice given."""
    return {
        "check": rs.check("d6").roll({"bonus": 1}, faces=[4]),
        "contest": rs.procedure("stand").roll(parties=[{}, {"bonus": 2}], faces=[5, 2]),
        "extended": rs.procedure("race").roll({"goal": 2}, faces=[2, 5, 6]),
        "team": rs.procedure("team").roll(parties=[{"bonus": 1}, {"bonus": 3}], faces=[3]),
        "assisted": rs.procedure("helped").roll(parties=[{}, {}], faces=[6, 3]),
        "group": rs.procedure("crew").roll(parties=[{}, {}, {}], faces=[4, 1, 6]),
    }


def test_the_roll_text_reads_one_value_not_each_kind():
    source = TEXT.read_text(encoding="utf-8")
    assert "isinstance(" not in source and "CheckResult" not in source


def test_every_kind_writes_its_roll_json_from_its_one_value_in_one_order(rs):
    for kind, rolled in rolls(rs).items():
        value = rolled.view()
        assert isinstance(value, ResultValue) and value.kind == kind
        data = json.loads(json.dumps(rolled.to_dict()))
        assert data == json.loads(json.dumps(value.to_dict()))
        order = CHECK_ORDER if kind in ("check", "team") else PROCEDURE_ORDER
        own = [k for k in data if k in order]
        assert own == sorted(own, key=order.index), (kind, own)
        # A check's reported values come right after its trace, before the keys that follow.
        if order is CHECK_ORDER:
            after_trace = list(data)[list(data).index("trace") + 1:]
            assert after_trace[0] == "doubled" and CHECK_ORDER.index(VALUES) == CHECK_ORDER.index("trace") + 1


def test_a_rolled_check_writes_what_its_die_gave(rs):
    data = rs.check("d6").roll({"bonus": 1}, faces=[4]).to_dict()
    result = 4 + 1  # roll + bonus
    assert (data["result"], data["outcome"], data["success"]) == (result, "hit", True)  # 5 >= target 4
    assert data["doubled"] == data["report"]["doubled"] == 2 * result
    assert [d["face"] for d in data["dice"]] == [4] and data["rolls"] == {"roll": 4}


def test_a_contest_names_its_winner_from_one_with_each_party_s_roll(rs):
    data = rs.procedure("stand").roll(parties=[{}, {"bonus": 2}], faces=[5, 2]).to_dict()
    results = [5 + 0, 2 + 2]  # each party's face + bonus
    assert [p["result"] for p in data["parties"]] == results
    assert (data["winner"], data["tie"], data["winner_result"]) == (1, False, max(results))
    assert "result" not in data and "outcome" not in data


def test_an_extended_check_s_round_is_its_check_s_roll_with_the_state_after_it(rs):
    data = rs.procedure("race").roll({"goal": 2}, faces=[2, 5, 6]).to_dict()
    # 2 misses (2 < 4), 5 and 6 hit: the pool reaches the goal of 2 in round 3.
    assert [r["state"] for r in data["rounds"]] == [{"pool": 0}, {"pool": 1}, {"pool": 2}]
    assert (data["outcome"], data["success"], data["result"]) == ("success", True, 3)
    for face, r in zip([2, 5, 6], data["rounds"], strict=True):
        alone = rs.check("d6").roll(faces=[face]).to_dict()
        assert {k: v for k, v in r.items() if k != "state"} == alone and list(r)[-1] == "state"


def test_a_team_s_roll_is_its_roller_s_check_with_the_team_around_it(rs):
    rolled = rs.procedure("team").roll(parties=[{"bonus": 1}, {"bonus": 3}], faces=[3])
    data = rolled.to_dict()
    alone = rs.check("d6").roll({"bonus": 3}, faces=[3]).to_dict()  # the member with the highest bonus
    assert list(data)[:4] == ["ruleset", "procedure", "roller", "check"] and data["roller"] == 2
    assert {k: v for k, v in data.items() if k not in ("procedure", "roller", "members", "trace", "report")} == \
        {k: v for k, v in alone.items() if k not in ("trace", "report")}
    assert data["members"] == [{"learns": True}, {"learns": False}]  # bonus 1 < 3; 3 < 3 is not
    assert data["trace"] == rolled.trace and list(data)[-1] == "members"


def test_an_assisted_check_writes_its_leader_and_helpers_as_checks_of_their_own(rs):
    data = rs.procedure("helped").roll(parties=[{}, {}], faces=[6, 3]).to_dict()
    # The helper rolls first: a 6 hits, giving a bonus of 1; the leader's 3 + 1 = 4 hits.
    assert (data["bonus"], data["totals"], data["ruined"]) == (1, {"hits": 1}, False)
    assert data["helpers"][0]["result"] == 6 and data["leader"]["result"] == 3 + 1
    assert (data["outcome"], data["result"]) == ("hit", 4)


def test_a_group_writes_each_member_s_check_and_its_tallies(rs):
    data = rs.procedure("crew").roll(parties=[{}, {}, {}], faces=[4, 1, 6]).to_dict()
    assert [p["result"] for p in data["parties"]] == [4, 1, 6]
    hits = 2  # 4 and 6 reach the target of 4
    assert data["tallies"] == {"hits": hits} and data["outcome"] == ("done" if hits * 2 >= 3 else "undone")
    assert data["best"] is None and data["result"] is None  # not ranked: no best member


def test_a_procedure_s_roll_text_shows_only_inputs_of_its_own(rs):
    race = format_roll(rs.procedure("race").roll({"goal": 2}, faces=[2, 5, 6]))
    team = format_roll(rs.procedure("team").roll(parties=[{"bonus": 1}, {"bonus": 3}], faces=[3]))
    assert race.splitlines()[:2] == ["kinds / race", "inputs: bonus=0, target=4, goal=2"]
    assert team.splitlines()[0] == "kinds / team" and "inputs" not in team


def test_a_result_value_is_not_changed_after_it_is_made(rs):
    value = rs.check("d6").roll(faces=[4]).view()
    with pytest.raises(FrozenInstanceError):
        value.outcome = "miss"  # type: ignore[misc]
