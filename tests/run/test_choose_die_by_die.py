"""Exact odds choose die by die where every value of ``choose`` adds up over the dice chosen
and nothing is preferred (run/choosing.py, ``DieByDie``): Legend of the Five Rings' "keep as
many dice as the ring, the most successes", ``order: [successes]`` with ``successes:
symbols(chosen, 'success', …)``. A way's rank is then the sum of its dice's ranks, so the
dice of the highest ranks are the best way, and among ways ranked alike the search of every
way takes the dice that come first.

The oracle is the search itself: the same odds with choosing die by die turned off, which
tries every way (tests/run/test_choose_best_way.py checks that search against every throw).
A hypothesis property draws the values (sums, differences, written-out multiples of
``count``, ``symbols``, ``sum`` and ``chosen``, and of the inputs), the order, how many dice
are picked and the dice (plain, a pool of mixed sizes, symbol dice), and compares every
figure; it also draws values that don't add up, which must keep the search."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from fuzz_support import fuzz_settings
from rulesengine import loads
from rulesengine.run import choosing
from rulesengine.run.choosing import DieByDie, _adds_up

HEAD = """\
ruleset: die-by-die
name: Choosing die by die
version: "1"
source: tests
dice:
  glyph:
    faces: [[], [hit], [hit, hit], [spark], [hit, spark], [burst]]
checks:
  c:
    inputs:
      bonus: {{type: integer, min: -3, max: 3, default: 1}}
      pool: {{type: dice_pool, default: d8/d6/d6/d4}}
    roll: {roll}
    choose:
      from: roll
      pick: {pick}
      values:
{values}
      order: [{order}]
    result: {result}
    report: [{report}]
    outcomes:
      - {{name: high, when: "result >= 3", success: true}}
      - {{name: low, success: false}}
"""

ROLLS = {
    "plain": ("4d6", ["count(chosen, 5, 6)", "count(chosen, 1)", "sum(chosen)", "chosen", "count(chosen)"]),
    "mixed": ("pool", ["count(chosen, 4, 8)", "count(chosen, 1)", "sum(chosen)", "chosen", "count(chosen, 6)"]),
    "symbols": ("3d{glyph} + 1d6", ["symbols(chosen, 'hit')", "symbols(chosen, 'spark', 'burst')",
                                    "count(chosen, 1)", "sum(chosen)", "count(chosen)"]),
}
NOT_SUMS = ["highest(chosen)", "lowest(chosen)", "count(rest)", "max(sum(chosen), 3)", "sum(chosen) * sum(chosen)",
            "floor(sum(chosen) / 2)"]


@st.composite
def terms(draw, kind):
    """An expression that adds up over the chosen dice (or, now and then, one that does not)."""
    pieces = ROLLS[kind][1]
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        piece = draw(st.sampled_from(pieces))
        factor = draw(st.sampled_from(["", "2 * ", "-1 * ", "3 * "]))
        parts.append(f"{factor}{piece}")
    text = parts[0] + "".join(f" {draw(st.sampled_from(['+', '-']))} {p}" for p in parts[1:])
    if draw(st.booleans()):
        text += draw(st.sampled_from([" + bonus", " - 2", " + bonus * 2"]))
    if draw(st.integers(0, 5)) == 0:
        text += " + " + draw(st.sampled_from(NOT_SUMS))
    return text


@st.composite
def checks(draw):
    kind = draw(st.sampled_from(sorted(ROLLS)))
    n = draw(st.integers(1, 3))
    values = [draw(terms(kind)) for _ in range(n)]
    order = draw(st.permutations(range(n)).map(lambda p: p[:draw(st.integers(0, n))]))
    text = HEAD.format(
        roll=ROLLS[kind][0], pick=draw(st.integers(1, 3)),
        values="\n".join(f"        v{i}: \"{v}\"" for i, v in enumerate(values)),
        order=", ".join(f"v{i}" for i in order), result="v0", report=", ".join(f"v{i}" for i in range(n)))
    return text, draw(st.integers(-3, 3)), draw(st.sampled_from(["d8/d6/d6/d4", "d10/d10/d4", "d6/d6/d6"]))


def odds_both_ways(text, inputs, monkeypatch):
    fast = loads(text, "t.yaml").check("c").odds(inputs).to_dict()
    with monkeypatch.context() as m:
        m.setattr(choosing.DieByDie, "of", staticmethod(lambda spec: None))
        searched = loads(text, "t.yaml").check("c").odds(inputs).to_dict()
    return fast, searched


@fuzz_settings(60, 600)
@given(checks())
def test_choosing_die_by_die_gives_the_odds_of_trying_every_way(monkeypatch, case):
    text, bonus, pool = case
    fast, searched = odds_both_ways(text, {"bonus": bonus, "pool": pool}, monkeypatch)
    assert fast == searched


L5R = HEAD.format(roll="3d{glyph} + 2d6", pick=2,
                  values="        successes: \"symbols(chosen, 'hit', 'burst')\"\n"
                         "        sparks: \"symbols(chosen, 'spark')\"\n        faces: sum(chosen)",
                  order="successes", result="successes + sparks", report="faces")


def test_keeping_the_most_successes_is_chosen_die_by_die(monkeypatch):
    """The L5R shape: the spec is taken die by die, and ties on successes keep the dice that
    come first (highest face first), as the search does: the sparks and faces kept agree."""
    spec = loads(L5R, "t.yaml").check("c").model.choose
    assert DieByDie.of(spec) is not None
    fast, searched = odds_both_ways(L5R, {}, monkeypatch)
    assert fast == searched
    assert len(fast["values"]["faces"]) > 3


@pytest.mark.parametrize(("text", "adds"), [
    ("symbols(chosen, 'hit') + 2 * count(chosen, 6) - sum(chosen)", True),
    ("chosen + bonus * 7", True),
    ("3 * (count(chosen, 6) + 1)", True),
    ("bonus * count(chosen, 6)", False),  # a factor that is not written out
    ("2 * (count(chosen, 6) + bonus)", False),  # inside a product, only numbers written out
    ("2000 * count(chosen, 6)", False),  # past MOST_FACTOR
    ("2 * 3 * count(chosen, 6)", False),  # a product inside a product
    ("count(rest, 6)", False),
    ("highest(chosen)", False),
    ("count(chosen, v0)", False),  # reads another value of the choice
])
def test_what_adds_up_over_the_dice_chosen(text, adds):
    from rulesengine.dice.parser import parse

    assert _adds_up(parse(text), {"v0"}) is adds


def test_a_roll_tells_which_symbol_die_was_chosen():
    """Chosen dice of two kinds of symbol dice are told by the symbols they show beside their
    faces (JSON ``symbols``, the trace's ``success+strife (6)``): a face place alone can't
    tell a ring die's 6 from a skill die's."""
    check = loads(L5R, "t.yaml").check("c")
    # 3d{glyph} showing 6 (a burst) and two blanks, then 2d6 showing 6 and 2: the burst is
    # the one success; of the dice tied with none, a 6 comes first, the plain d6's
    rolled = check.roll({}, faces=[6, 1, 1, 6, 2])
    chosen = rolled.to_dict()["chosen"]
    assert chosen["faces"] == [6, 6]
    assert sorted(map(tuple, chosen["symbols"])) == [(), ("burst",)]  # a glyph's burst, and a plain d6
    assert all(len(c.get("symbols", [])) == len(c["faces"]) for c in rolled.to_dict()["choices"])
    assert "burst (6)" in rolled.trace and "blank (6)" in rolled.trace
