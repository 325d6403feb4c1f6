"""``pow(b, e)``, the bounded power (issue #34): ``b`` multiplied by itself ``e`` times, ``e``
from 0 to 64, its size limited by ``max_magnitude`` before it is worked out; rolled and in
exact odds by the one evaluator."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulesengine import dice, loads
from rulesengine.errors import LimitError, RulesEngineError
from rulesengine.limits import Limits
from rulesengine.validate import validate_text


def by_hand(base: int, exponent: int) -> int:
    """The power as repeated multiplication, independently of the engine."""
    out = 1
    for _ in range(exponent):
        out *= base
    return out


def test_pow_of_rolled_dice_has_the_odds_of_every_throw_enumerated():
    odds = dice.odds("pow(1d3, 1d4 - 1) - pow(2, 1d2)")
    throws = list(itertools.product(range(1, 4), range(1, 5), range(1, 3)))
    tally = Counter(by_hand(a, b - 1) - by_hand(2, c) for a, b, c in throws)
    assert odds.distribution == {v: Fraction(n, len(throws)) for v, n in tally.items()}


@pytest.mark.parametrize("faces", [(1, 1), (3, 4), (2, 1)])
def test_rolling_pow_multiplies_the_base_by_itself_the_exponent_times(faces):
    rolled = dice.roll("pow(1d3, 1d4 - 1)", faces=list(faces))
    assert rolled.total == by_hand(faces[0], faces[1] - 1)


@pytest.mark.parametrize("base", [-3, -1, 0, 1, 7])
def test_pow_of_anything_to_the_zeroth_is_one_and_a_negative_base_keeps_its_sign_rule(base):
    assert dice.roll(f"pow({base}, 0)").total == 1
    assert dice.roll(f"pow({base}, 3)").total == base * base * base


@pytest.mark.parametrize("exponent", [-1, 65])
def test_an_exponent_outside_0_to_64_is_an_error_of_the_rules(exponent):
    with pytest.raises(RulesEngineError) as caught:
        dice.roll(f"pow(2, {exponent})")
    assert caught.value.code == "E201" and "exponent from 0 to 64" in caught.value.message
    assert "pow(2, max(0, min(n, 10)))" in (caught.value.hint or "")


def test_a_power_past_max_magnitude_is_a_limit_error():
    limits = Limits(max_magnitude=1000)
    assert dice.roll("pow(10, 3)", limits=limits).total == 1000
    with pytest.raises(LimitError) as caught:
        dice.roll("pow(10, 4)", limits=limits)
    assert caught.value.limit == "max_magnitude"


def test_a_power_sure_to_pass_the_limit_is_refused_before_it_is_worked_out():
    # 1000**64 has 192 digits: refused from the sizes alone (the message shows no digits of it)
    with pytest.raises(LimitError) as caught:
        dice.roll("pow(1000, 64)")
    assert caught.value.message == "pow(1000, 64) is too large"


RULESET = """\
ruleset: powers
name: Powers
version: "1"
source: tests
checks:
  c:
    inputs:
      n: {type: integer, default: 2, min: %d, max: 5}
    roll: 1d6
    result: pow(2, n) + roll
    outcomes:
      - {name: any, success: true}
"""


def test_validate_finds_an_exponent_an_input_allows_below_zero():
    report = validate_text(RULESET % -1, "powers.yaml")
    found = [(d.code, d.location.line) for d in report.diagnostics if d.severity == "error"]
    assert ("E201", 10) in found


def test_an_exponent_from_an_input_has_the_odds_of_the_power_of_each_value():
    odds = loads(RULESET % 0).check("c").odds({"n": 3})
    assert dict(odds.result_distribution) == {by_hand(2, 3) + f: Fraction(1, 6) for f in range(1, 7)}


STRESS = """\
ruleset: stress-die
name: A stress die
version: "1"
source: tests
checks:
  stress:
    inputs:
      ability: {type: integer, default: 6, min: -10, max: 30}
      ease: {type: integer, default: 9, min: 0, max: 60}
    rolls:
      die: 1d10!1
      botch: if(count(initial(die), 10) == 1, 1d10, 0)
    let:
      ones: count(die, 1)
      zero_first: count(initial(die), 10) == 1
    result: "if(zero_first, 0, pow(2, ones) * (die - ones)) + ability"
    outcomes:
      - {name: botch, when: "count(botch, 10) >= 1", success: false}
      - {name: success, when: "result >= ease", success: true}
      - {name: failure, success: false}
"""


def test_the_stress_die_botches_and_fails_as_its_first_throws_enumerated_say():
    # The first die, the die after it (the botch die after a 0, the next of the chain after a 1)
    # and one more: a chain of two 1s or more is worth at least 2 * 2 * 2 - enough for ease 9.
    botch = failure = Fraction(0)
    for first, second, third in itertools.product(range(1, 11), repeat=3):
        p = Fraction(1, 1000)
        if first == 10:
            botch += p if second == 10 else 0
            failure += p if second != 10 and 0 + 6 < 9 else 0
        elif first == 1:
            value = 2 * second if second != 1 else 4 * third if third != 1 else 8  # 8: at least
            failure += p if value + 6 < 9 else 0
        else:
            failure += p if first + 6 < 9 else 0
    odds = loads(STRESS).check("stress").odds({})
    assert (odds.outcomes["botch"], odds.outcomes["failure"]) == (botch, failure) == (Fraction(1, 100),
                                                                                      Fraction(19, 100))
