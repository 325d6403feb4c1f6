"""A roll made after seeing another, read with it only through one sum, is added up as it is
made (issue 33, "a second roll that reads the first"): a push of the 6s read as
``count(pool_dice, 5, 6) + again`` keeps one joint value per sum, not one per pair, and gives
the same odds.

Oracles: every face of both throws listed (``product_dist``-style loops here) with the rules
applied by hand, for plain dice; for exploding dice, the pairs joined one by one (the path
every other check takes, the fusion switched off) and a hand convolution. The checks that must
not be added up (the second roll read alone, the first read otherwise, two different parts,
the second's dice read) are checked against the same oracles, so a wrong fusion would show.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest

from rulesengine.ruleset import loads
from rulesengine.run import pushed, shared_rolls
from rulesengine.run.pushed import pushed_sum


def ruleset(checks: str):
    return loads(f'ruleset: pushed\nname: Pushed\nversion: "1"\nsource: tests\nchecks:\n{checks}', "pushed.yaml")


def push(result: str = "count(pool_dice, 5, 6) + again", again: str = "(count(pool_dice, 6))d6cs>=5",
         extra: str = "") -> str:
    return f"""\
  push:
    inputs:
      pool: {{type: integer, default: 3, min: 1, max: 40}}
    rolls:
      pool_dice: (pool)d6
      again: "{again}"
    result: {result}
    outcomes:
      - {{name: great, when: "result >= 3", success: true}}
      - {{name: success, when: "result >= 1", success: true}}
      - {{name: failure, success: false}}
{extra}"""


def outcome_of(result: int) -> str:
    return "great" if result >= 3 else "success" if result >= 1 else "failure"


def brute(pool: int, rule) -> dict[str, F]:
    """Every throw of the pool, then every throw of the dice it re-rolls (its 6s), by hand."""
    found: Counter = Counter()
    for first in product(range(1, 7), repeat=pool):
        k = first.count(6)
        share = F(1, 6 ** pool) / 6 ** k
        for second in product(range(1, 7), repeat=k):
            found[outcome_of(rule(first, second))] += share
    return {name: found[name] for name in ("great", "success", "failure")}


def successes(first, second) -> int:
    return sum(f >= 5 for f in first) + sum(s >= 5 for s in second)


def unfused(monkeypatch, text: str, check: str, inputs: dict):
    """The odds with the pairs joined one by one, as before the fusion."""
    monkeypatch.setattr(pushed, "pushed_sum", lambda *a, **k: None)  # imported where asked
    return ruleset(text).check(check).odds(inputs)


def _plan_of(rs, check: str):
    runner = rs.check(check).runner
    return pushed_sum(runner.check, (), frozenset(), runner.limits, runner.runtime.functions)


@pytest.mark.parametrize("pool", [1, 2, 3, 4])
def test_a_push_of_the_sixes_read_as_one_sum_has_every_throws_odds(pool):
    rs = ruleset(push())
    assert _plan_of(rs, "push") is not None
    assert rs.check("push").odds({"pool": pool}).outcomes == brute(pool, successes)


def test_a_push_of_exploding_sixes_gives_what_the_pairs_joined_one_by_one_give(monkeypatch):
    text = push(again="(count(pool_dice, 6))d6!cs>=5")
    assert _plan_of(ruleset(text), "push") is not None
    # 20 dice: each count of 6s pushed met with a score of the first throw's parts
    fused = {n: ruleset(text).check("push").odds({"pool": n}) for n in (1, 5, 12, 20)}
    for n, odds in fused.items():
        before = unfused(monkeypatch, text, "push", {"pool": n})
        assert odds.to_dict() == before.to_dict(), n  # outcomes, results, what is cut, means


def test_the_sum_read_as_a_multiple_or_turned_round_is_the_same_sum(monkeypatch):
    for result in ("2 * (count(pool_dice, 5, 6) + again) - 3", "again + count(pool_dice, 5, 6)",
                   "-(count(pool_dice, 5, 6) + again) + 4"):
        text = push(result=result)
        assert _plan_of(ruleset(text), "push") is not None, result
        for n in (2, 3):
            odds = ruleset(text).check("push").odds({"pool": n})
            assert odds.to_dict() == unfused(monkeypatch, text, "push", {"pool": n}).to_dict(), (result, n)
            monkeypatch.undo()


@pytest.mark.parametrize("result, extra, rule", [
    # the second roll read alone too: a tag on it
    ("count(pool_dice, 5, 6) + again", '    tags:\n      - {name: rerolled, when: "again >= 1"}\n',
     successes),
    # the first roll read otherwise too: a botch on its 1s
    ("count(pool_dice, 5, 6) + again - count(pool_dice, 1)", "",
     lambda a, b: successes(a, b) - a.count(1)),
    # two different parts of the first beside the second
    ("if(count(pool_dice, 1) >= 2, 0, count(pool_dice, 5, 6) + again)", "",
     lambda a, b: 0 if a.count(1) >= 2 else successes(a, b)),
])
def test_rolls_read_any_other_way_are_joined_pair_by_pair(result, extra, rule):
    text = push(result=result, extra=extra)
    rs = ruleset(text)
    assert _plan_of(rs, "push") is None, result
    assert rs.check("push").odds({"pool": 3}).outcomes == brute(3, rule)


def test_a_second_roll_whose_dice_are_read_is_joined_pair_by_pair(monkeypatch):
    text = push(result="count(pool_dice, 5, 6) + count(again, 1)", again="(count(pool_dice, 6))d6")
    assert _plan_of(ruleset(text), "push") is None
    rule = lambda a, b: sum(f >= 5 for f in a) + b.count(1)  # noqa: E731
    assert ruleset(text).check("push").odds({"pool": 3}).outcomes == brute(3, rule)


def test_a_condition_reading_the_second_roll_alone_is_answered_pair_by_pair():
    rs = ruleset(push())
    odds = rs.check("push").odds({"pool": 3}, given="again >= 1")
    found: Counter = Counter()
    for first in product(range(1, 7), repeat=3):
        k = first.count(6)
        for second in product(range(1, 7), repeat=k):
            if sum(s >= 5 for s in second) >= 1:
                found[outcome_of(successes(first, second))] += F(1, 6 ** 3) / 6 ** k
    total = sum(found.values())
    assert odds.outcomes == {name: found[name] / total for name in ("great", "success", "failure")}


def test_a_sweep_shares_the_added_up_joint_values_and_groups_them_the_second_time():
    """Inside a sweep (``sharing_rolls``) the joint values are kept for the inputs that give
    them alike, and grouped when asked for again: the sums still give every throw's odds."""
    rs = ruleset(push())
    with shared_rolls.sharing_rolls():
        for _ in range(2):
            for n in (2, 3, 4):
                rs.check("push").runner.forget_odds()
                assert rs.check("push").odds({"pool": n}).outcomes == brute(n, successes), n


def test_parts_written_alike_but_for_spaces_are_one_part_and_texts_inside_them_count():
    """``count(pool_dice,5,6)`` and ``count(pool_dice, 5, 6)`` are one part; two parts that
    differ only inside a text (a label with a space, one without) are two, never fused."""
    spaced = push(result="count(pool_dice,5,6) + again",
                  extra='    tags:\n      - {name: many, when: "count(pool_dice, 5, 6) + again >= 4"}\n')
    assert _plan_of(ruleset(spaced), "push") is not None
    texts = push(result="if('a b' == 'ab', count(pool_dice, 6), count(pool_dice, 5, 6)) + again",
                 extra='    tags:\n      - {name: many, when: "if(\'ab\' == \'ab\', count(pool_dice, 6), '
                       'count(pool_dice, 5, 6)) + again >= 4"}\n')
    assert _plan_of(ruleset(texts), "push") is None


def test_a_value_worked_out_from_the_sum_and_reported_has_the_same_odds(monkeypatch):
    """A ``let`` holding the sum, read by the result and reported: its distribution in the
    odds is the one the pairs give."""
    text = push(result="successes", again="(count(pool_dice, 6))d6!cs>=5",
                extra="    let:\n      successes: count(pool_dice, 5, 6) + again\n    report: [successes]\n")
    assert _plan_of(ruleset(text), "push") is not None
    for n in (2, 6):
        odds = ruleset(text).check("push").odds({"pool": n})
        assert odds.values["successes"]
        assert odds.to_dict() == unfused(monkeypatch, text, "push", {"pool": n}).to_dict(), n
        monkeypatch.undo()
