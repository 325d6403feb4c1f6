"""What happens when several conditions hold at once (docs/ruleset-language.md, "When several
conditions hold at once"; issue 13 part 5). One test per rule of precedence."""

from __future__ import annotations

from rulesengine.ruleset import loads

HEAD = """ruleset: t
name: T
version: "1"
source: tests
"""


def test_the_first_gate_that_holds_decides():
    rs = loads(HEAD + """checks:
  c:
    inputs: {x: {type: integer, min: 0, max: 10}}
    gates:
      - {when: x >= 5, outcome: first, reason: first gate}
      - {when: x >= 3, outcome: second, reason: second gate}
    roll: 1d6
    result: roll
    outcomes:
      - {name: first, success: true, when: "false"}
      - {name: second, success: true, when: "false"}
      - {name: rolled, success: false}
""", "t.yaml")
    assert rs.check("c").roll({"x": 7}, seed=1).outcome == "first"
    assert rs.check("c").roll({"x": 4}, seed=1).outcome == "second"


def test_the_first_outcome_rule_that_holds_gives_the_outcome():
    rs = loads(HEAD + """checks:
  c:
    roll: 1d6
    result: roll
    outcomes:
      - {name: six, success: true, when: roll == 6}
      - {name: high, success: true, when: roll >= 4}
      - {name: low, success: false}
""", "t.yaml")
    assert rs.check("c").roll(faces=[6]).outcome == "six"
    assert rs.check("c").odds().outcomes["high"] == rs.check("c").odds().outcomes["six"] * 2


def test_every_tag_that_holds_is_set():
    rs = loads(HEAD + """checks:
  c:
    roll: 1d6
    result: roll
    outcomes: [{name: any, success: true}]
    tags:
      - {name: even, when: roll == 2 or roll == 4 or roll == 6}
      - {name: high, when: roll >= 4}
""", "t.yaml")
    assert set(rs.check("c").roll(faces=[6]).tags) == {"even", "high"}


def extended(body: str):
    """A ruleset with a 1d6 check 'c' and an extended procedure 'p' whose settings are ``body``."""
    return loads(HEAD + """checks:
  c:
    roll: 1d6
    result: roll
    outcomes: [{name: done, success: true}]
procedures:
  p:
    kind: extended
    check: c
""" + body, "t.yaml")


def test_succeed_when_is_asked_before_fail_when():
    rs = extended("""    state: {rounds: 0}
    each_round:
      - set: {rounds: rounds + 1}
    succeed_when: rounds >= 1
    fail_when: rounds >= 1
    max_rounds: 3
""")
    proc = rs.procedure("p")
    assert proc.roll({}, faces=[3]).outcome == "success"
    assert proc.odds({}).outcomes["success"] == 1


def test_the_first_round_rule_that_holds_applies():
    rs = extended("""    state: {points: 0}
    each_round:
      - {when: result >= 4, set: {points: points + 10}}
      - {when: result >= 2, set: {points: points + 1}}
    succeed_when: points >= 10
    max_rounds: 1
""")
    assert rs.procedure("p").roll({}, faces=[5]).outcome == "success"
    assert rs.procedure("p").roll({}, faces=[3]).outcome == "unfinished"
