"""A team's member values read the roller's values as ``roller_<name>``, those the roller's
roll gave too (``high: highest(roll)`` as ``roller_high``: an outside author found it refused,
"did you mean 'roller_dice'?"), and a value read only so is read (no W525 "never read").

Oracle: every throw of the roller's dice, the member values worked out by hand."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

from rulesengine.ruleset import loads
from rulesengine.validate import validate_text

TEXT = """\
ruleset: crew
name: Crew
version: "1"
source: tests
checks:
  act:
    inputs:
      skill: {type: integer, default: 0, min: 0, max: 4}
      dice: {type: integer, default: 2, min: 1, max: 3}
    roll: (dice)d6
    let:
      high: highest(roll)
      twice: skill * 2
    result: roll + skill
    outcomes:
      - {name: success, when: "result >= 12", success: true}
      - {name: failure, success: false}
procedures:
  team:
    kind: team
    check: act
    rank_by: [skill, dice]
    member_values:
      inspired: "roller_high == 6 and not roller_success"
      taught: "roller_twice > skill"
"""


def test_member_values_read_the_rollers_highest_die_and_its_values():
    odds = loads(TEXT, "crew.yaml").procedure("team").odds(parties=[{"skill": 1, "dice": 3}, {"skill": 0, "dice": 1}])
    inspired = sum(1 for t in product(range(1, 7), repeat=3) if max(t) == 6 and sum(t) + 1 < 12)
    second = odds.to_dict()["members"][1]
    rows = {r["value"]: F(r["exact"]) for r in second["inspired"]}
    assert rows == {True: F(inspired, 216), False: 1 - F(inspired, 216)}
    assert {r["value"]: F(r["exact"]) for r in second["taught"]} == {True: F(1)}  # 2 > 0


def test_a_value_read_only_by_a_team_as_roller_name_is_read():
    report = validate_text(TEXT, "crew.yaml")
    assert not [d for d in report.diagnostics if d.code == "W525"], report.diagnostics


def test_the_odds_text_shows_each_members_values():
    """The docs promise each member value's distribution; the JSON has it under "members",
    and the text now says it too, member by member."""
    from rulesengine.present.text import format_odds

    odds = loads(TEXT, "crew.yaml").procedure("team").odds(parties=[{"skill": 1, "dice": 3}, {"skill": 0, "dice": 1}])
    text = format_odds(odds)
    assert "member 2 taught: P(true) 100.00%" in text and "member 1 inspired: P(true)" in text
    assert "member values" not in odds.to_dict()  # the JSON keeps them under "members" alone


EXPLODING_TEAM = """\
ruleset: wod
name: WoD
version: "1"
source: tests
checks:
  pool:
    inputs:
      dice: {type: integer, default: 3, min: 1, max: 10}
    roll: (dice)d10!cs>=8
    result: roll
    outcomes:
      - {name: success, when: "result >= 1", success: true}
      - {name: failure, success: false}
procedures:
  team:
    kind: team
    check: pool
    rank_by: [dice]
    member_values:
      helped: "dice < roller_dice and roller_success"
"""


def test_member_values_on_throws_the_depth_cuts_are_read_where_they_are_decided():
    """Neither member has fewer dice than the roller: ``helped`` is false on every throw, the
    cut ones too (an outside author saw 1 − 3e-11 with nothing said to be cut)."""
    odds = loads(EXPLODING_TEAM, "wod.yaml").procedure("team").odds(parties=[{"dice": 3}, {"dice": 3}])
    assert odds.truncated == 0
    for member in odds.to_dict()["members"]:
        assert [(r["value"], F(r["exact"])) for r in member["helped"]] == [(False, F(1))]
