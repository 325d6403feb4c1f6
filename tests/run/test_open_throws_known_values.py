"""A throw whose outcome explosions past the depth leave open still has the values the depth
does not reach: a target worked out from the inputs is that target on it too, and a result
read through a let is still at least a number though another let is open (outside authors:
an L5R target of ``tn + 5 * raises`` read 9801/10000 "of the mass worked out" at depth 1;
an Earthdawn result written through a let lost its ``result_cut_from`` where a reported
value's ``if()`` was open)."""

from __future__ import annotations

from fractions import Fraction

from rulesengine import loads
from rulesengine.limits import Limits

RULESET = """\
ruleset: open-throws
name: Open throws
version: "1"
source: tests
checks:
  test:
    inputs:
      tn: {type: integer, min: 1, max: 30}
    roll: 1d6!
    let:
      total: roll + 1
      extra: if(roll >= 21, 1, 0)
      target: tn * 2
    result: total
    outcomes:
      - {name: great, when: "roll >= 21", success: true}
      - {name: fine, when: "total >= target", success: true}
      - {name: poor, success: false}
    report: [extra, target, total]
  tagged:
    roll: 1d6!
    result: roll
    outcomes:
      - {name: great, when: "roll >= 21", success: true}
      - {name: other, success: false}
    tags:
      - {name: one, when: "count(initial(roll), 1) > 0"}
      - {name: first_six, when: "count(initial(roll), 6) > 0"}
  tagged_open:
    roll: 1d6!
    result: roll
    outcomes:
      - {name: great, when: "roll >= 21", success: true}
      - {name: other, success: false}
    tags:
      - {name: one, when: "count(initial(roll), 1) > 0"}
      - {name: twenty, when: "roll == 20"}
"""

DEPTH = 2  # a 6 rolls one more die, twice; a third 6 would roll past the depth


def _chains(depth: int) -> tuple[dict[int, Fraction], Fraction]:
    """1d6! followed ``depth`` explosions: each total with its chance, and the mass cut."""
    totals: dict[int, Fraction] = {}
    for sixes in range(depth + 1):
        for last in range(1, 6):
            totals[6 * sixes + last] = Fraction(1, 6 ** (sixes + 1))
    return totals, Fraction(1, 6 ** (depth + 1))


def test_a_target_from_the_inputs_is_exact_on_throws_the_depth_leaves_open():
    d = loads(RULESET, limits=Limits(explode_depth=DEPTH)).check("test").odds({"tn": 10}).to_dict()
    totals, cut = _chains(DEPTH)
    assert Fraction(d["truncated"]) == cut  # the great rule is open on a cut chain (19, 20 or 21 and more)
    target = d["values"]["target"]
    assert [(r["value"], Fraction(r["exact"])) for r in target] == [(20, Fraction(1))]
    assert d["stats"]["values"]["target"]["mean_kind"] == "exact"
    # the result, total = roll + 1, is 20 or more on every cut chain (18 + at least 1, + 1):
    # a bound at or below that is given (the roll's total so far, 18, + 1), and every row
    # below it is exact
    cut_from = d["result_cut_from"]
    assert cut_from is not None and 2 < cut_from <= 20
    rows = {r["value"]: Fraction(r["exact"]) for r in d["result"]}
    assert all(rows[t + 1] == p for t, p in totals.items() if t + 1 < cut_from)
    # total reported: a bound on the cut chains too, so it has its own cut_from
    assert d["values_cut_from"]["total"] == cut_from
    # extra (is the roll 21 or more?) is open on the cut chains: their mass is cut from it
    extra = {r["value"]: Fraction(r["exact"]) for r in d["values"]["extra"]}
    assert extra == {0: 1 - cut}
    assert d["stats"]["values"]["extra"]["mass_left_out"] == str(cut)


def test_tags_read_on_the_first_throw_are_exact_where_the_outcome_is_open():
    """A glitch read on ``initial()`` is decided on every throw, the cut ones too (an outside
    author's Feng Shui boxcars read 1/36 less 2e-17): the tags count them, ``tags_truncated``
    0. A tag that reads what the depth cuts leaves the tags cut by that mass, as before."""
    rs = loads(RULESET, limits=Limits(explode_depth=DEPTH))
    d = rs.check("tagged").odds().to_dict()
    _, cut = _chains(DEPTH)
    assert Fraction(d["truncated"]) == cut  # great: 19, 20 or 21 and more on a cut chain
    tags = {t["name"]: Fraction(t["exact"]) for t in d["tags"]}
    assert tags == {"one": Fraction(1, 6), "first_six": Fraction(1, 6)}  # the first face alone
    assert Fraction(d["tags_truncated"]) == 0
    d = rs.check("tagged_open").odds().to_dict()
    assert Fraction(d.get("tags_truncated", d["truncated"])) == cut  # 20 or not, on a cut chain: open
    totals, _ = _chains(DEPTH)
    tags = {t["name"]: Fraction(t["exact"]) for t in d["tags"]}
    assert tags["one"] == Fraction(1, 6) and tags["twenty"] == totals.get(20, 0)


HITS = """\
ruleset: hits
name: Hits on exploding sixes
version: "1"
source: tests
checks:
  test:
    inputs:
      pool: {type: integer, min: 1, max: 30}
    roll: (pool)d6!
    let:
      hits: count(roll, 5, 6)
    result: hits
    outcomes:
      - {name: hit, when: "hits >= 1", success: true}
      - {name: miss, success: false}
    report: [hits]
"""


def test_a_reported_count_of_exploding_dice_has_its_mean_and_variance_followed_for_ever():
    """A Shadowrun pool with Edge (an outside author: "hits mean 2.4 (of the mass worked
    out)", the closed form being 2/5 a die): a die's hits X = [5 or 6] + [6]·X' (a 6 rolls
    again), so E[X] = 1/3 + E[X]/6 = 2/5 and E[X²] = 1/3 + 2·(1/6)·(2/5) + E[X²]/6 = 14/25,
    each die's variance 2/5; the dice are independent."""
    for pool in (1, 6, 20):
        d = loads(HITS).check("test").odds({"pool": pool}).to_dict()
        hits = d["stats"]["values"]["hits"]
        assert hits["mean_kind"] == "exact" and Fraction(hits["mean_exact"]) == Fraction(2, 5) * pool
        assert hits["variance_kind"] == "exact" and Fraction(hits["variance_exact"]) == Fraction(2, 5) * pool
        assert d["stats"]["result"]["mean_exact"] == hits["mean_exact"]  # the same expression, as the result
