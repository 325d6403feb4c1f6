"""A difference of open-ended rolls decides what its cut paths can't change (issue 34,
"differences of rolls inside a check's rules"). A number less a value explosions cut is at
most some number (``AtMost``, the mirror of ``AtLeast``): ``10 - AtLeast(66)`` is at most
-56, so ``10 - 1d6! > 0`` is false on every cut path and nothing is truncated. A check whose
roll is ``1d6! - 1d6!`` gets both of its outcomes exact (the values below those listed are
kept as at most a bound, not dropped); with the two dice as two rolls read only through their
difference, the same (they are worked out as that one roll); read apart too, only the paths
that cut both stay truncated.

Oracles: the closed form of one exploding d6 written here (P(X ≥ 6a + b) = (1/6)^a · (7 − b)/6
for b in 1..6), summed over the other die's geometric blocks by hand.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rulesengine import dice
from rulesengine.ruleset import loads


def at_least(c: int) -> F:
    """P(one d6! ≥ c), followed forever."""
    if c <= 1:
        return F(1)
    a, b = divmod(c - 1, 6)
    return F(1, 6) ** a * F(7 - (b + 1), 6)


def difference_at_least(t: int) -> F:
    """P(X − Y ≥ t) for two d6! (t ≥ 1): Y = 6q + r (r in 1..5) with (1/6)^(q+1), and
    P(X ≥ 6q + c) = (1/6)^q · P(X ≥ c), so the q-sum is geometric with ratio 1/36."""
    return F(1, 6) * F(36, 35) * sum(at_least(r + t) for r in range(1, 6))


def test_the_closed_form_of_the_oracle_is_the_known_swerve_figure():
    assert difference_at_least(2) == F(11, 35)


@pytest.mark.parametrize("text, want", [
    ("10 - 1d6! > 0", 1 - at_least(10)),
    ("-1d6! <= -7", at_least(7)),
    ("3 - 2 * 1d6! >= -10", 1 - at_least(7)),
    ("min(20 - 1d6!, 5) >= 5", 1 - at_least(16)),
])
def test_a_number_less_a_cut_value_decides_its_comparisons(text, want):
    odds = dice.odds(text)
    assert odds.truncated == 0, text
    assert odds.probability(True) == want, text


SWERVE = """
ruleset: swerve
name: Swerve
version: "1"
source: tests
checks:
  one_term:
    roll: 1d6! - 1d6!
    result: roll
    outcomes:
      - {name: hit, when: "result >= 2", success: true}
      - {name: miss, success: false}
  two_rolls:
    rolls:
      pos: 1d6!
      neg: 1d6!
    result: pos - neg
    outcomes:
      - {name: hit, when: "result >= 2", success: true}
      - {name: miss, success: false}
  two_rolls_read_apart:
    rolls:
      pos: 1d6!
      neg: 1d6!
    result: pos - neg
    outcomes:
      - {name: hit, when: "result >= 2 and pos >= 1", success: true}
      - {name: miss, success: false}
"""


@pytest.fixture(scope="module")
def rs():
    return loads(SWERVE, "swerve.yaml")


def test_a_difference_of_two_exploding_dice_in_a_check_has_every_outcome_exact(rs):
    odds = rs.check("one_term").odds({})
    assert odds.truncated == 0
    assert odds.outcomes == {"hit": difference_at_least(2), "miss": 1 - difference_at_least(2)}


def test_two_exploding_rolls_read_only_through_their_difference_are_exact(rs):
    """Worked out as the one roll ``(1d6!) - (1d6!)`` (tests/run/test_fused_rolls.py)."""
    odds = rs.check("two_rolls").odds({})
    assert odds.truncated == 0
    assert odds.outcomes == {"hit": difference_at_least(2), "miss": 1 - difference_at_least(2)}


def test_a_difference_of_two_exploding_rolls_read_apart_too_leaves_only_the_paths_that_cut_both(rs):
    """One roll is also read alone (``pos >= 1``), so the two are joined value by value.
    Depth 10: a die is cut with (1/6)^11 (at least 66). What stays truncated: both cut,
    (1/6)^22, and one cut while the other shows 65 (at least 1, which ``>= 2`` can't tell),
    (1/6)^11 · (1/6)^11; the outcomes are within that of the closed form."""
    odds = rs.check("two_rolls_read_apart").odds({})
    assert 0 < odds.truncated <= 2 * F(1, 6) ** 22
    assert odds.outcomes["hit"] <= difference_at_least(2) <= odds.outcomes["hit"] + odds.truncated
    assert odds.outcomes["miss"] <= 1 - difference_at_least(2) <= odds.outcomes["miss"] + odds.truncated
