"""A push read as one sum over its first roll's dice is added up die by die (issue 33, item 2:
the push of the 6s): ``pool_dice: (pool)d6``, ``again: (count(pool_dice, 6))d10!`` read only as
``count(pool_dice, 5, 6) + again`` is the sum over the pool's dice of each die's share (1 for
a 5 or 6, and a die of ``again`` for a 6), so no reading of the first throw is worked out.

Oracles: the pairs joined one by one and added up per sum (the path before, ``per_die``
switched off: itself checked against every throw in tests/run/test_pushed_sums.py), and for
a pool that path refused, a convolution written here, each exploding die followed by hand.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rulesengine.ruleset import loads
from rulesengine.run import pushed
from rulesengine.run.pushed import per_die, pushed_sum


def ruleset(again: str, part: str = "count(pool_dice, 5, 6)", first: str = "(pool)d6"):
    return loads(f"""\
ruleset: per-die
name: Per die
version: "1"
source: tests
checks:
  push:
    inputs:
      pool: {{type: integer, default: 3, min: 0, max: 40}}
    rolls:
      pool_dice: {first}
      again: "{again}"
    result: {part} + again
    outcomes:
      - {{name: great, when: "result >= 8", success: true}}
      - {{name: success, when: "result >= 3", success: true}}
      - {{name: failure, success: false}}
""", "per-die.yaml")


def plan_of(rs):
    runner = rs.check("push").runner
    plan = pushed_sum(runner.check, (), frozenset(), runner.limits, runner.runtime.functions)
    return None if plan is None else per_die(runner.check, plan, runner.limits, runner.runtime.functions)


AGAIN = ["(count(pool_dice, 6))d6!cs>=5", "(count(pool_dice, 6))d6cs>=5cf1", "(count(pool_dice, 5, 6))d6!p",
         "(count(pool_dice, 6))d6!!", "(count(pool_dice, 1))d4"]


@pytest.mark.parametrize("again", AGAIN)
def test_a_push_added_up_die_by_die_gives_what_the_pairs_give(monkeypatch, again):
    rs = ruleset(again)
    assert plan_of(rs) is not None
    summed = {n: rs.check("push").odds({"pool": n}).to_dict() for n in (0, 1, 2, 5, 12)}
    monkeypatch.setattr(pushed, "per_die", lambda *a, **k: None)  # the pairs, added up per sum
    for n, odds in summed.items():
        assert odds == ruleset(again).check("push").odds({"pool": n}).to_dict(), n  # every figure


@pytest.mark.parametrize("again, part, first", [
    ("(count(pool_dice, 6))d6!", "count(pool_dice, 5, 6)", "(pool)d6!"),  # the first roll explodes
    ("(count(pool_dice, 6) + 1)d6", "count(pool_dice, 5, 6)", "(pool)d6"),  # not a count alone
    ("(count(pool_dice, 6))d6kh1", "count(pool_dice, 5, 6)", "(pool)d6"),  # the second keeps a die
    ("(count(pool_dice, 6))d6", "2 * count(pool_dice, 5, 6) - count(pool_dice, 5, 6)", "(pool)d6"),  # no one part
])
def test_a_push_not_a_sum_over_the_first_rolls_dice_is_not_added_up_so(again, part, first):
    assert plan_of(ruleset(again, part, first)) is None


def exploding_d10(depth: int = 10) -> dict[int, F]:
    """One d10 that rolls again on a 10 and adds, followed ``depth`` extra dice deep: its
    totals; a chain still going at the depth is at least 10 · (depth + 1), kept as that."""
    out: dict[int, F] = {}
    for extra in range(depth + 1):
        for face in range(1, 10):
            out[10 * extra + face] = out.get(10 * extra + face, F(0)) + F(1, 10 ** (extra + 1))
    out[10 * (depth + 1)] = F(1, 10 ** (depth + 1))
    return out


def test_a_push_the_pairs_refused_is_worked_out_and_exact():
    """20 dice whose 6s each roll an exploding d10: refused pair by pair ("too big to work
    out exactly"); every outcome exact (what the depth cuts is at least 110: great)."""
    share: dict[int, F] = {}
    for face in range(1, 7):
        if face == 6:
            for total, p in exploding_d10().items():
                share[min(1 + total, 8)] = share.get(min(1 + total, 8), F(0)) + p / 6
        else:
            share[int(face == 5)] = share.get(int(face == 5), F(0)) + F(1, 6)
    pool = {0: F(1)}
    for _ in range(20):  # the sum, capped at 8 (the rules ask no more of it)
        nxt: dict[int, F] = {}
        for a, pa in pool.items():
            for b, pb in share.items():
                nxt[min(a + b, 8)] = nxt.get(min(a + b, 8), F(0)) + pa * pb
        pool = nxt
    expected = {"great": pool[8], "success": sum((p for v, p in pool.items() if 3 <= v < 8), F(0)),
                "failure": sum((p for v, p in pool.items() if v < 3), F(0))}
    rs = ruleset("(count(pool_dice, 6))d10!")
    assert plan_of(rs) is not None
    odds = rs.check("push").odds({"pool": 20})
    assert odds.truncated == 0
    assert odds.outcomes == expected


def test_a_push_too_big_to_add_up_is_refused_at_its_second_roll():
    with pytest.raises(Exception) as found:
        ruleset("(count(pool_dice, 6))d10!").check("push").odds({"pool": 40})
    assert found.value.code == "E210" and "'again' added up over 40 dice of 'pool_dice'" in str(found.value)
