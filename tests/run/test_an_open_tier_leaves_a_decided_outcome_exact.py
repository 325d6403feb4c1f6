"""Explosions past the depth that leave a tier or a tag open, where the outcome is decided,
leave the outcome exact and cut the tiers (the tags) on their own (an outside author: three
exploding d6 counting 4+ against 8 printed success 5225341/17414258688 with a "cut off" row,
where every cut throw has 11 successes or more: success is 7/23328 exactly, and only whether
a margin of 4 is reached was open).

Oracle: each die's successes by its generating function, written here: a throw of 1–3 ends
with none, 4–5 ends with one, a 6 counts one and rolls again: G(x) = (1/2 + x/3) / (1 − x/6)."""

from __future__ import annotations

from fractions import Fraction as F

from rulesengine.ruleset import loads

TEXT = """\
ruleset: bw
name: BW
version: "1"
source: tests
tables:
  margin_tiers:
    tiers:
      - {label: fine, min: 0}
      - {label: great, min: 4}
checks:
  bw:
    inputs:
      exponent: {type: integer, min: 1, max: 10}
      ob: {type: integer, min: 1, max: 12}
    roll: (exponent)d6!cs>=4
    result: roll - ob
    tiers: margin_tiers
    tags:
      - {name: huge, when: "roll >= 14"}
    outcomes:
      - {name: success, when: "roll >= ob", success: true}
      - {name: failure, success: false}
"""


def successes(dice: int, terms: int = 80) -> list[F]:
    """P(S = k) for k < ``terms``: the series of G(x)^dice."""
    one = [F(1, 2)] + [F(0)] * (terms - 1)  # numerator 1/2 + x/3
    one[1] = F(1, 3)
    series = [F(0)] * terms  # (1/2 + x/3) · Σ (x/6)^j
    for j in range(terms):
        for i, c in enumerate(one[:2]):
            if i + j < terms:
                series[i + j] += c * F(1, 6) ** j
    out = [F(1)] + [F(0)] * (terms - 1)
    for _ in range(dice):
        out = [sum((out[i] * series[k - i] for i in range(k + 1)), F(0)) for k in range(terms)]
    return out


def test_an_open_tier_leaves_the_outcome_exact_and_bounds_the_tiers():
    odds = loads(TEXT, "bw.yaml").check("bw").odds({"exponent": 3, "ob": 8})
    p = successes(3)
    at_least = lambda k: 1 - sum(p[:k], F(0))  # noqa: E731
    assert odds.truncated == 0
    assert odds.outcomes == {"success": at_least(8), "failure": 1 - at_least(8)}
    assert odds.tiers_truncated > 0 and odds.tags_truncated > 0
    for name, truth in (("fine", at_least(8) - at_least(12)), ("great", at_least(12))):
        assert odds.tiers[name] <= truth <= odds.tiers[name] + odds.tiers_truncated, name
    assert odds.tags["huge"] <= at_least(14) <= odds.tags["huge"] + odds.tags_truncated
    data = odds.to_dict()
    assert data["truncated"] == "0/1" and "tiers_truncated" in data and "tags_truncated" in data


GLITCH = """\
ruleset: sr
name: SR
version: "1"
source: tests
checks:
  test:
    inputs:
      dice: {type: integer, default: 1, min: 1, max: 20}
    roll: (dice)d6!
    let:
      hits: count(roll, 5, 6)
      ones: count(roll, 1)
    result: hits
    outcomes:
      - {name: critical_glitch, when: "ones * 2 > count(roll) and hits == 0", success: false}
      - {name: success, when: "hits >= 1", success: true}
      - {name: failure, success: false}
"""


def test_false_and_an_open_side_is_false():
    """One exploding d6: a chain the depth cuts has eleven 6s (hits, and how many dice, open
    past it), so ``ones * 2 > count(roll)`` is open there, but ``hits == 0`` is false, and so
    is the critical glitch: the odds are exact, 1/6 a glitch (a 1), 1/3 a hit (a first 5 or 6)."""
    odds = loads(GLITCH, "sr.yaml").check("test").odds({"dice": 1})
    assert odds.truncated == 0
    assert odds.outcomes == {"critical_glitch": F(1, 6), "success": F(1, 3), "failure": F(1, 2)}


def test_a_let_the_depth_leaves_open_does_not_open_a_rule_it_does_not_decide():
    """The same glitch held by a let (``glitch: ones * 2 > count(roll)``, open on a cut throw)
    and read as ``glitch and hits == 0``: false where there are hits, so still exact; read
    alone, as a tag, it is cut on its own."""
    text = GLITCH.replace('      ones: count(roll, 1)\n', '      ones: count(roll, 1)\n      glitch: ones * 2 > count(roll)\n')
    text = text.replace('"ones * 2 > count(roll) and hits == 0"', '"glitch and hits == 0"')
    text += "    tags:\n      - {name: glitch, when: glitch}\n"
    odds = loads(text, "sr.yaml").check("test").odds({"dice": 1})
    assert odds.truncated == 0
    assert odds.outcomes == {"critical_glitch": F(1, 6), "success": F(1, 3), "failure": F(1, 2)}
    assert odds.tags_truncated > 0 and odds.tags["glitch"] <= F(1, 6) <= odds.tags["glitch"] + odds.tags_truncated


def test_odds_given_a_condition_read_what_the_depth_leaves_open_as_the_checks_own_do():
    """At depth 1, given a 6 on the first throw: success against 2 is decided on every cut
    throw (the tags and tiers are not), so it is exact: by every first throw of three dice, a
    lone success that is a 6 adds one more with 1/2 (its next die shows 4 or more)."""
    from itertools import product

    from rulesengine.limits import Limits

    odds = loads(TEXT, "bw.yaml", Limits(explode_depth=1)).check("bw").odds(
        {"exponent": 3, "ob": 2}, given="count(initial(roll), 6) >= 1")
    held = won = F(0)
    for throw in product(range(1, 7), repeat=3):
        if 6 not in throw:
            continue
        held += 1
        hits = sum(f >= 4 for f in throw)
        won += 1 if hits >= 2 else F(1, 2)
    assert odds.truncated == 0 and odds.outcomes["success"] == won / held
