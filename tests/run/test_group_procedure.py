"""The group procedure: every member makes the check; the group's outcome is read from
tallies over the members and from its best member (issue 17's group actions and group
checks, which no other kind could write). Exact odds against an enumeration of every
member's every roll, written here; rolls, JSON and load-time errors."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from fractions import Fraction as F
from pathlib import Path

import jsonschema
import pytest

from rulesengine.errors import RulesEngineError
from rulesengine.ruleset import loads

YAML = """
ruleset: groups
name: Group procedures
version: "1"
source: tests
checks:
  pool:
    inputs:
      rating: {type: integer, default: 1, min: 0, max: 3}
    roll: if(rating > 0, (rating)d6, 2d6kl1)
    result: highest(roll)
    outcomes:
      - {name: critical, when: "count(roll, 6) >= 2", success: true}
      - {name: full, when: "result == 6", success: true}
      - {name: partial, when: "result >= 4", success: true}
      - {name: bad, success: false}
  d20:
    inputs:
      modifier: {type: integer, default: 0, min: -5, max: 10}
    roll: 1d20
    result: roll + modifier
    outcomes:
      - {name: success, when: "result >= 12", success: true}
      - {name: failure, success: false}
procedures:
  best_counts:
    kind: group
    check: pool
    best_by: ["count(roll, 6) >= 2", result]
    tally: {low: "if(result <= 3, 1, 0)"}
    report: {stress: low, leader: best}
  half_must:
    kind: group
    check: d20
    parties: {min: 2, max: 6}
    tally: {successes: "if(success, 1, 0)"}
    outcomes:
      - {name: success, when: "successes * 2 >= parties", success: true}
      - {name: failure, success: false}
"""
SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.fixture(scope="module")
def rs():
    return loads(YAML, "groups.yaml")


def pool_rolls(rating: int):
    """(kept faces, probability) for every roll of the pool check."""
    n = 2 if rating == 0 else rating
    for faces in itertools.product(range(1, 7), repeat=n):
        yield ((min(faces),) if rating == 0 else faces), F(1, 6 ** n)


def read(kept) -> tuple[str, tuple]:
    best = max(kept)
    crit = kept.count(6) >= 2
    name = "critical" if crit else "full" if best == 6 else "partial" if best >= 4 else "bad"
    return name, (int(crit), best)


@pytest.mark.parametrize("ratings", [(2, 1), (0, 1, 2), (3, 0), (1, 1, 1)])
def test_the_best_members_outcome_counts_and_lows_are_tallied(rs, ratings):
    outcomes: dict[str, F] = defaultdict(F)
    stress: dict[int, F] = defaultdict(F)
    leader: dict[int, F] = defaultdict(F)
    for combo in itertools.product(*(list(pool_rolls(r)) for r in ratings)):
        p = F(1)
        best, best_key, low = None, None, 0
        for i, (kept, q) in enumerate(combo):
            p *= q
            name, key = read(kept)
            low += max(kept) <= 3
            if best_key is None or key > best_key:
                best, best_key = (i, name), key
        outcomes[best[1]] += p
        stress[low] += p
        leader[best[0] + 1] += p
    odds = rs.procedure("best_counts").odds(parties=[{"rating": r} for r in ratings])
    assert {k: v for k, v in odds.outcomes.items() if v} == dict(outcomes)
    assert odds.report == {"stress": dict(sorted(stress.items())), "leader": dict(sorted(leader.items()))}
    assert odds.tallies["low"] == dict(sorted(stress.items()))


@pytest.mark.parametrize("modifiers", [(0, 0), (3, -2, 5), (1, 1, 1, 1), (10, -5, 0, 2, 4)])
def test_a_group_check_succeeds_when_at_least_half_succeed(rs, modifiers):
    probs = [F(sum(1 for r in range(1, 21) if r + m >= 12), 20) for m in modifiers]
    success = F(0)
    for oks in itertools.product((True, False), repeat=len(modifiers)):
        p = F(1)
        for ok, q in zip(oks, probs, strict=True):
            p *= q if ok else 1 - q
        if 2 * sum(oks) >= len(modifiers):
            success += p
    odds = rs.procedure("half_must").odds(parties=[{"modifier": m} for m in modifiers])
    assert odds.success == success and odds.outcomes["success"] == success


def test_a_group_roll_shows_every_member_the_best_and_the_tallies(rs):
    r = rs.procedure("best_counts").roll(parties=[{"rating": 2}, {"rating": 1}, {"rating": 0}],
                                         faces=[2, 3, 1, 6, 4])
    assert (r.outcome, r.best, r.tallies, r.report) == ("partial", 2, {"low": 2}, {"stress": 2, "leader": 3})
    assert r.trace.splitlines()[-4:] == ["best: member 3, result 4", "tallies: low 2", "the group: partial",
                                         "report: stress 2, leader 3"]
    data = r.to_dict()
    jsonschema.validate(data, json.loads((SCHEMAS / "roll-result.schema.json").read_text()))
    assert data["best"] == 3 and data["tallies"] == {"low": 2} and data["result"] == 4
    odds = rs.procedure("half_must").odds(parties=[{"modifier": 1}, {"modifier": 2}]).to_dict()
    jsonschema.validate(odds, json.loads((SCHEMAS / "odds-result.schema.json").read_text()))


def test_a_group_needs_outcomes_or_a_best_member():
    text = YAML.replace("    best_by: [\"count(roll, 6) >= 2\", result]\n", "")
    with pytest.raises(RulesEngineError, match="neither outcomes nor best_by") as info:
        loads(text, "groups.yaml")
    assert info.value.location.line is not None


def test_a_group_outcome_reading_a_name_it_cannot_see_is_an_error_at_load():
    text = YAML.replace('"successes * 2 >= parties"', '"successes * 2 >= parties and best == 1"')
    with pytest.raises(RulesEngineError, match="unknown name 'best'"):
        loads(text, "groups.yaml")


def test_member_inputs_set_one_value_for_every_member_from_the_groups_own_inputs():
    text = YAML.replace('''    parties: {min: 2, max: 6}
    tally: {successes''', '''    parties: {min: 2, max: 6}
    inputs: {bonus: {type: integer, default: 0, min: -5, max: 5}}
    member_inputs: {modifier: bonus}
    tally: {successes''')
    rs = loads(text, "groups.yaml")
    shared = rs.procedure("half_must").odds({"bonus": 3}, parties=[{}, {}, {}])
    given = loads(YAML, "groups.yaml").procedure("half_must").odds(parties=[{"modifier": 3}] * 3)
    assert shared.outcomes == given.outcomes
    bad = text.replace("member_inputs: {modifier: bonus}", "member_inputs: {modifer: bonus}")
    with pytest.raises(RulesEngineError, match="member input 'modifer' is not an input of check 'd20'"):
        loads(bad, "groups.yaml")
