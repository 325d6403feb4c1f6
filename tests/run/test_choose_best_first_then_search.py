"""Exact odds choose by the values that add up first, then search the ways tied in them
(run/choosing.py, ``DieByDie`` not ``whole``): the step dice of the docs, ``order: [total,
effect]`` with ``total: sum(chosen)`` and ``effect`` read from the dice left. The ways best
in ``total`` are the dice of the highest faces, those above the k-th and any of those alike
with it; the search's first best is one of them. Every other value must fail on every way or
on none (run/fails_alike.py), since a roll works out every way and fails with any of them.

The oracle is the search of every way (choosing die by die turned off; it is checked against
every throw in tests/run/test_choose_best_way.py). A hypothesis property draws a first value
that adds up and others that read the dice left or the values before, some that may fail on
one way and not another (a divisor a way changes, a die left showing 5 or more), and compares
every figure, or the error both give."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from fuzz_support import fuzz_settings
from rulesengine import loads
from rulesengine.dice.parser import parse
from rulesengine.errors import RulesEngineError
from rulesengine.run import choosing
from rulesengine.run.choosing import DieByDie
from rulesengine.run.fails_alike import fails_alike
from test_choose_die_by_die import HEAD as DIE_BY_DIE_HEAD

HEAD = DIE_BY_DIE_HEAD  # the same check, its values, order and roll filled in

ROLLS = {"plain": "4d6", "mixed": "pool", "kept": "(pool)p1"}
FIRST = ["sum(chosen)", "count(chosen, 4, 8)", "2 * count(chosen, 6) + sum(chosen)", "sum(chosen) + bonus"]
OTHERS = [
    # fail alike on every way (or never)
    "if(count(rest) > 0, max(4, largest_die(rest)), 4)", "count(rest, 6)", "highest(rest)", "lowest(chosen)",
    "largest_die(rest)", "sum(rest) - v0", "max(highest(chosen), bonus)", "v0 * 2 - count(rest)",
    "floor(sum(rest) / 2)", "if(v0 > 8, sum(rest), count(rest, 1))", "v0 / (count(rest) + bonus)",
    # may fail on one way and not another: the search must be kept
    "v0 / count(rest, 5, 8)", "if(count(rest, 1) > 0, highest(rest), largest_die(rest, 5, 8))",
    "largest_die(rest, 5, 8)", "floor(sum(chosen) / count(rest, 4))", "sum(rest) % count(chosen, 5, 8)",
    # ...failing on ways that choose low dice, not on the best: a roll fails, so must exact odds
    "v0 / count(chosen, 5, 8)", "largest_die(chosen, 5, 8) - count(rest)", "sum(rest) / count(rest, 1, 4)",
    "v0 / (highest(chosen) - highest(rest) + 5)",  # 0 only choosing a 1 and leaving a 6: never the best
]


@st.composite
def checks(draw):
    kind = draw(st.sampled_from(sorted(ROLLS)))
    values = [draw(st.sampled_from(FIRST))] + draw(st.lists(st.sampled_from(OTHERS), min_size=1, max_size=2))
    n = len(values)
    rest = list(range(1, n))
    order = [0] + draw(st.permutations(rest).map(lambda p: p[:draw(st.integers(0, len(rest)))]))
    text = HEAD.format(
        roll=ROLLS[kind], pick=draw(st.integers(1, 3)),
        values="\n".join(f"        v{i}: \"{v}\"" for i, v in enumerate(values)),
        order=", ".join(f"v{i}" for i in order), result="v0",
        report=", ".join(f"v{i}" for i in range(1, n)))
    return text, draw(st.integers(-3, 3)), draw(st.sampled_from(["d8/d6/d6/d4", "d10/d10/d4", "d6/d6/d6"]))


def odds_or_error(text, inputs):
    try:
        return loads(text, "t.yaml").check("c").odds(inputs).to_dict()
    except RulesEngineError as exc:
        return exc.diagnostic().to_dict()


def odds_both_ways(text, inputs, monkeypatch):
    fast = odds_or_error(text, inputs)
    with monkeypatch.context() as m:
        m.setattr(choosing.DieByDie, "of", staticmethod(lambda spec: None))
        searched = odds_or_error(text, inputs)
    return fast, searched


@fuzz_settings(60, 600)
@given(checks())
def test_choosing_by_the_values_that_add_up_then_searching_gives_the_odds_of_trying_every_way(monkeypatch, case):
    text, bonus, pool = case
    fast, searched = odds_both_ways(text, {"bonus": bonus, "pool": pool}, monkeypatch)
    assert fast == searched


STEP = HEAD.format(roll="(pool)p1", pick=2,
                   values="        total: sum(chosen)\n"
                          "        effect: \"if(count(rest) > 0, max(4, largest_die(rest)), 4)\"",
                   order="total, effect", result="total", report="effect")


@pytest.mark.parametrize("pool", ["d12/d10/d8/d6", "d8/d8/d6/d4/d4", "d6/d6/d6"])
def test_the_step_dice_of_the_docs_choose_the_best_total_then_search_the_ties_for_the_effect(monkeypatch, pool):
    """The docs' step dice: the total adds up, the effect reads the dice left and fails alike
    on every way (guarded by count(rest) > 0), so exact odds search only the ways best in the
    total: the same odds as trying every way."""
    spec = loads(STEP, "t.yaml").check("c").model.choose
    by_die = DieByDie.of(spec)
    assert by_die is not None and not by_die.whole
    fast, searched = odds_both_ways(STEP, {"pool": pool}, monkeypatch)
    assert fast == searched
    assert len(fast["values"]["effect"]) > 1


def test_a_value_that_may_fail_on_one_way_alone_keeps_the_search():
    """``largest_die(rest, 5, 8)`` fails where no die left shows 5 to 8: on some ways and not
    others, so exact odds must try every way (and fail where a roll would)."""
    text = STEP.replace("if(count(rest) > 0, max(4, largest_die(rest)), 4)", "largest_die(rest, 5, 8)")
    assert DieByDie.of(loads(text, "t.yaml").check("c").model.choose) is None


@pytest.mark.parametrize("value", ["v0 / (highest(chosen) - highest(rest) + 5)", "v0 / count(chosen, 4, 6)"])
def test_a_value_failing_only_on_ways_not_best_fails_exact_odds_as_it_fails_a_roll(monkeypatch, value):
    """Never 0 for the best way (the highest dice chosen), 0 for a way choosing the 1s and
    leaving a 6: a roll of 6, 3, 1, 1 fails (every way is worked out), so exact odds fail too."""
    text = HEAD.format(roll="4d6", pick=2, values=f'        v0: "sum(chosen)"\n        v1: "{value}"',
                       order="v0, v1", result="v0", report="v1")
    with pytest.raises(RulesEngineError, match="division by zero"):
        loads(text, "t.yaml").check("c").roll({}, faces=[6, 3, 1, 1])
    fast, searched = odds_both_ways(text, {}, monkeypatch)
    assert fast == searched and fast["code"] == "E202"


@pytest.mark.parametrize("effect", ["if(count(rest) > 0, max(4, largest_die(rest)), 4)", "2 * count(chosen, 4)"])
def test_no_dice_left_to_choose_is_one_way_of_none(monkeypatch, effect):
    """A keep by face may set every die aside (two d4s showing 1, ``p1``): one way, of none,
    whether every value adds up or only the first (it was an internal error)."""
    text = STEP.replace("pick: 2", "pick: 1").replace("if(count(rest) > 0, max(4, largest_die(rest)), 4)", effect)
    assert DieByDie.of(loads(text, "t.yaml").check("c").model.choose).whole is ("count(rest)" not in effect)
    fast, searched = odds_both_ways(text, {"pool": "d4/d4"}, monkeypatch)
    assert fast == searched
    # the total: the higher die not showing 1, or 0 (none left), over the 16 throws
    throws = [max([f for f in (a, b) if f > 1], default=0) for a in range(1, 5) for b in range(1, 5)]
    assert {r["value"]: Fraction(r["exact"]) for r in fast["result"]} == \
        {v: Fraction(throws.count(v), 16) for v in set(throws)}


@pytest.mark.parametrize(("text", "alike"), [
    ("if(count(rest) > 0, max(4, largest_die(rest)), 4)", True),  # the guard is the same on every way
    ("largest_die(rest)", True),  # fails where no die is left: on every way alike
    ("highest(rest) + lowest(chosen) - count(rest, 6)", True),
    ("v0 / (count(rest) + bonus)", True),  # a divisor every way shares
    ("floor(sum(rest) / 2)", True),
    ("3 * sum(rest)", True),
    ("table(bonus)", True),  # reads nothing a way changes
    ("if(v0 > 8, sum(rest), 4)", True),  # neither branch can fail
    ("largest_die(rest, 5, 8)", False),  # fails where none left shows 5 to 8
    ("v0 / count(rest, 6)", False),  # a divisor a way changes
    ("floor(sum(chosen) / count(rest, 4))", False),
    ("if(v0 > 8, highest(rest), 4)", False),  # a branch that may fail, taken on some ways
    ("count(rest, 6) > 0 and largest_die(rest, 6) > 4", False),
    ("table(sum(rest))", False),  # a table's key past its rows fails
    ("pow(sum(rest), 3)", False),
    ("v0 * sum(rest)", False),  # a product past max_magnitude on some ways
    ("2 * v0", False),  # a product of a value made, whose size is not known here
    ("1000 * (sum(rest) + bonus)", False),  # an input as large as its bound allows: near max_magnitude
])
def test_what_fails_on_every_way_or_on_none(text, alike):
    assert fails_alike(parse(text), {"v0", "v1"}) is alike
