"""A check's ``if()``s and ``and``/``or``s that its inputs decide are taken before exact odds
read what the rules need of the rolls (rules/taken.py, run/taken_checks.py): a chance die
or a pool, a rote or none (an outside author's Chronicles of Darkness rote pool of 15 dice
took 1.1 s, its re-rolls joined to 164,494 readings of the first throw; taken, they are
added up as one sum).

Oracles: every throw of both rolls listed with the rules applied by hand (plain dice), and
the same check written with the branches taken by hand (exploding dice, where a push that
reads a cut first throw is added up at its bound); the answers are the same as before, the
work counted in joint values."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest

from rulesengine.errors import RulesEngineError
from rulesengine.limits import Limits
from rulesengine.ruleset import loads
from rulesengine.run import pushed

HEAD = 'ruleset: cofd\nname: CofD\nversion: "1"\nsource: tests\nchecks:\n'

SWITCHED = HEAD + """\
  action:
    inputs:
      pool: {type: integer, default: 3, min: 0, max: 30}
      rote: {type: boolean, default: false}
    rolls:
      first: "if(pool == 0, 1d10, (pool)d10DIE)"
      rerolls: "if(rote and pool > 0, (count(initial(first), 1, 7))d10DIE, 0)"
    let:
      successes: "if(pool == 0, if(first == 10, 1, 0), first + rerolls)"
    result: successes
    outcomes:
      - {name: dramatic_failure, when: "pool == 0 and first == 1", success: false}
      - {name: failure, when: "successes == 0", success: false}
      - {name: exceptional, when: "successes >= 5", success: true}
      - {name: success, success: true}
"""

TAKEN_BY_HAND = HEAD + """\
  action:
    inputs:
      pool: {type: integer, default: 3, min: 0, max: 30}
      rote: {type: boolean, default: false}
    rolls:
      first: "(pool)d10DIE"
      rerolls: "ROTE"
    let:
      successes: "first + rerolls"
    result: successes
    outcomes:
      - {name: dramatic_failure, when: "false", success: false}
      - {name: failure, when: "successes == 0", success: false}
      - {name: exceptional, when: "successes >= 5", success: true}
      - {name: success, success: true}
"""

PLAIN, EXPLODING = "cs>=8", "!>=10cs>=8"


def switched(die: str, depth: int = 10):
    return loads(SWITCHED.replace("DIE", die), "cofd.yaml", Limits(explode_depth=depth)).check("action")


def by_hand(die: str, rote: bool, depth: int = 10):
    rerolls = f"(count(initial(first), 1, 7))d10{die}" if rote else "0"
    text = TAKEN_BY_HAND.replace("ROTE", rerolls).replace("DIE", die)
    return loads(text, "cofd.yaml", Limits(explode_depth=depth)).check("action")


def every_throw(pool: int, rote: bool) -> dict[str, F]:
    """Plain d10s, 8+ a success: every first throw, then every throw of its re-rolled dice."""
    found: Counter = Counter()
    if pool == 0:
        for face in range(1, 11):
            found["dramatic_failure" if face == 1 else "success" if face == 10 else "failure"] += F(1, 10)
        return dict(found)
    for first in product(range(1, 11), repeat=pool):
        again = sum(f <= 7 for f in first) if rote else 0
        share = F(1, 10 ** pool) / 10 ** again
        for second in product(range(1, 11), repeat=again):
            s = sum(f >= 8 for f in first) + sum(f >= 8 for f in second)
            found["failure" if s == 0 else "exceptional" if s >= 5 else "success"] += share
    return dict(found)


@pytest.mark.parametrize("pool, rote", [(0, False), (0, True), (1, True), (2, False), (2, True), (3, True)])
def test_a_check_switched_by_its_inputs_has_every_throws_odds(pool, rote):
    odds = switched(PLAIN).odds({"pool": pool, "rote": rote})
    expected = every_throw(pool, rote)
    assert {k: v for k, v in odds.outcomes.items() if v} == expected


@pytest.mark.parametrize("depth", [1, 2, 10])
@pytest.mark.parametrize("pool", [1, 3, 6])
def test_exploding_and_switched_it_answers_as_the_check_written_with_the_branches_taken(pool, depth, monkeypatch):
    """Down to the fraction and the mass cut, the result's rows and means; a first throw the
    depth cuts, pushed, is added up at its bound as the written check's pairs resolve it
    joined one by one (the sum's fusion switched off there)."""
    got = switched(EXPLODING, depth).odds({"pool": pool, "rote": True}).to_dict()
    monkeypatch.setattr(pushed, "pushed_sum", lambda *a, **k: None)  # imported where asked
    want = by_hand(EXPLODING, True, depth).odds({"pool": pool, "rote": True}).to_dict()
    assert got == want


def test_a_rote_pool_of_fifteen_is_added_up_as_one_sum():
    """Counted, not timed: the joint values the rules are resolved for."""
    check = switched(EXPLODING)
    values = check.coerce_inputs({"pool": 15, "rote": True})
    taken = check.runner._taken.enumerator(values)
    assert taken is not check.runner.enumerator
    joint = taken.joint_rolls(values, None, True)[2]
    written = check.runner.enumerator.joint_rolls(values, None, True)[2]
    assert len(joint) < 2_000 < 100_000 < len(written)


def test_a_condition_the_inputs_decide_with_a_mistake_is_said_where_the_rules_read_it():
    text = HEAD + """\
  c:
    inputs:
      n: {type: integer, default: 0, min: 0, max: 3}
    roll: 1d6
    result: "if(6 / n > 2, roll, 0)"
    outcomes:
      - {name: hit, when: "result >= 4", success: true}
      - {name: miss, success: false}
"""
    check = loads(text, "t.yaml").check("c")
    with pytest.raises(RulesEngineError) as info:
        check.odds({"n": 0})
    assert info.value.code == "E202" and info.value.location.line == 10
    assert check.odds({"n": 1}).outcomes["hit"] == F(1, 2)


EDGE = HEAD.replace("cofd", "sr").replace("CofD", "SR") + """\
  test:
    inputs:
      pool: {type: integer, min: 1, max: 20, default: 6}
      limit: {type: integer, min: 1, max: 10, default: 4}
      edge: {type: boolean, default: false}
    roll: "if(edge, (pool)d6!cs>=5, (pool)d6cs>=5)"
    result: "if(edge or roll <= limit, roll, limit)"
    outcomes:
      - {name: success, when: "result >= 2", success: true}
      - {name: failure, success: false}
"""


def test_a_condition_its_inputs_decide_once_its_parts_are_taken_is_taken_too():
    """``edge or roll <= limit`` with edge: true, so the result is the exploding pool itself,
    whose mean and variance have their closed form (per die of d6! counting 5s and 6s, a 6
    rolling again: E = (1/3) / (5/6) = 2/5, Var = 2/5; an outside author's Shadowrun had the
    variance "of the mass worked out")."""
    summary = loads(EDGE, "sr.yaml").check("test").odds({"pool": 6, "edge": True}).to_dict()["stats"]["result"]
    assert (summary["mean_kind"], F(summary["mean_exact"])) == ("exact", F(12, 5))
    assert (summary["variance_kind"], F(summary["variance_exact"])) == ("exact", F(12, 5))


@pytest.mark.parametrize("pool, limit", [(1, 1), (3, 1), (3, 2)])
def test_without_edge_the_limit_caps_the_hits_on_every_throw(pool, limit):
    odds = loads(EDGE, "sr.yaml").check("test").odds({"pool": pool, "limit": limit, "edge": False})
    throws = list(product(range(1, 7), repeat=pool))
    hits = Counter(min(sum(f >= 5 for f in t), limit) for t in throws)
    assert dict(odds.result_distribution) == {h: F(n, len(throws)) for h, n in sorted(hits.items())}
