"""A roll the check reads only as a number (``result: roll + bonus``) whose dice something
beside the check's rules reads (a ``--given`` condition, a procedure's ranking) is worked out
die by die and by its total: reading only the dice read every throw as one (an outside author:
``--given "count(roll, 6) >= 1"`` gave a result of 7 for certain, where it is 7/11 high).

Oracles: every throw listed, the rules applied by hand. And where explosions past the depth
leave paths open, each row given a condition is at least its chance and at most that plus
``truncated`` (it was the odds of the mass worked out, which could lie above it).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest

from rulesengine.limits import Limits
from rulesengine.ruleset import loads

TEXT = """\
ruleset: beside
name: Beside
version: "1"
source: tests
checks:
  plus:
    inputs:
      bonus: {type: integer, min: 0, max: 3, default: 0}
    roll: 2d6
    result: roll + bonus
    outcomes:
      - {name: high, when: "result >= 9", success: true}
      - {name: low, success: false}
  wild:
    inputs:
      bonus: {type: integer, min: 0, max: 3, default: 0}
    rolls:
      normal: 2d6
      wild: 1d6!
    result: normal + wild + bonus
    outcomes:
      - {name: high, when: "result >= 10", success: true}
      - {name: low, success: false}
procedures:
  sixes_first:
    kind: contest
    check: plus
    parties: {min: 2, max: 2}
    rank_by: ["count(roll, 6)", result]
    ties: first
"""


@pytest.mark.parametrize("bonus", [0, 2])
def test_a_condition_on_the_dice_of_a_roll_read_as_a_number(bonus):
    given = [t for t in product(range(1, 7), repeat=2) if 6 in t]
    high = sum(1 for t in given if sum(t) + bonus >= 9)
    odds = loads(TEXT, "beside.yaml").check("plus").odds({"bonus": bonus}, given="count(roll, 6) >= 1")
    assert odds.outcomes == {"high": F(high, len(given)), "low": F(len(given) - high, len(given))}
    assert odds.given_probability == F(11, 36)
    results = Counter(sum(t) + bonus for t in given)
    assert odds.result_distribution == {v: F(c, len(given)) for v, c in results.items()}


def test_a_procedure_ranking_by_the_dice_of_a_roll_read_as_a_number():
    """Two sides of ``roll + bonus``: the more 6s wins, then the higher result, ties to the first."""
    wins = Counter()
    for a, b in product(product(range(1, 7), repeat=2), repeat=2):
        key_a, key_b = (a.count(6), sum(a) + 1), (b.count(6), sum(b))
        wins[1 if key_a >= key_b else 2] += 1
    odds = loads(TEXT, "beside.yaml").procedure("sixes_first").odds(parties=[{"bonus": 1}, {"bonus": 0}])
    assert odds.wins == (F(wins[1], 6 ** 4), F(wins[2], 6 ** 4)) and odds.tie == 0


def test_rows_given_a_condition_on_paths_the_depth_leaves_open_are_bounds():
    """The wild die explodes; at depth 0 a wild 6 is cut, the sum's rows beyond it open: given
    ``count(normal, 6) >= 1 and normal + wild <= 14``, each row is at least its chance and at
    most that plus ``truncated``, and the condition's own chance at least the one given."""
    odds = loads(TEXT, "beside.yaml", Limits(explode_depth=0)).check("wild").odds(
        {"bonus": 0}, given="count(normal, 6) >= 1 and normal + wild <= 14")
    # By hand: the wild die followed as far as the condition lets it (12 at most: two extra dice).
    wild: dict[int, F] = {}
    for extra in range(3):
        for face in range(1, 6):
            wild[6 * extra + face] = F(1, 6 ** (extra + 1))
    held = high = F(0)
    for t in product(range(1, 7), repeat=2):
        for w, p in wild.items():
            if 6 in t and sum(t) + w <= 14:
                held += p / 36
                high += p / 36 if sum(t) + w >= 10 else 0
    assert odds.truncated > 0
    for name, truth in (("high", high / held), ("low", 1 - high / held)):
        assert odds.outcomes[name] <= truth <= odds.outcomes[name] + odds.truncated, name
    assert odds.given_probability <= held


def test_a_tag_named_in_a_condition_is_told_to_be_given_by_its_condition():
    text = TEXT.replace("    result: roll + bonus\n", "    result: roll + bonus\n    tags:\n"
                        "      - {name: boxcars, when: \"count(roll, 6) == 2\"}\n", 1)
    with pytest.raises(Exception) as found:
        loads(text, "beside.yaml").check("plus").odds({}, given="boxcars")
    assert found.value.code == "E601"
    assert found.value.hint == "'boxcars' is a tag, not a name: give its condition instead, count(roll, 6) == 2"


EXPLODING = """\
ruleset: open
name: Open
version: "1"
source: tests
checks:
  far:
    roll: 1d6!
    result: roll
    outcomes:
      - {name: high, when: "result >= 20", success: true}
      - {name: low, success: false}
"""


def test_a_condition_on_the_first_throw_is_exact_where_the_outcome_is_open():
    """At depth 1 a chain 6, 6 is cut (at least 12): whether it is 20 or more is open, but
    its first throw is known, so the condition's own chance is exactly 1/6; P(high | a 6
    first) is P(two more dice add 14 or more) = (1/6)^2 · 5/6, within the bounds."""
    odds = loads(EXPLODING, "open.yaml", Limits(explode_depth=1)).check("far").odds(
        {}, given="count(initial(roll), 6) == 1")
    assert odds.given_probability == F(1, 6) and odds.given_open == 0
    truth = F(1, 36) * F(5, 6)
    assert odds.truncated > 0 and odds.outcomes["high"] <= truth <= odds.outcomes["high"] + odds.truncated
    assert "truncated" not in odds.to_dict()["given"]


def test_a_condition_reading_what_is_open_has_its_chance_as_a_bound():
    """3, or 13 (6, 6, 1: the chain cut at 6, 6 may be it): at least the 3's 1/6, and at most
    the cut chains' 1/36 more; where the condition holds on no path worked out but may on
    the open ones, every row is 0 with all of it truncated (not "never holds")."""
    far = loads(EXPLODING, "open.yaml", Limits(explode_depth=1)).check("far")
    odds = far.odds({}, given="result == 13 or result == 3")
    assert odds.given_probability == F(1, 6) and odds.given_open == F(1, 36)
    assert odds.given_probability <= F(1, 6) + F(1, 216) <= odds.given_probability + odds.given_open
    assert odds.to_dict()["given"]["truncated"] == "1/36"
    only_open = far.odds({}, given="result == 13")
    assert only_open.given_probability == 0 and only_open.truncated == 1
    assert set(only_open.outcomes.values()) == {0}
