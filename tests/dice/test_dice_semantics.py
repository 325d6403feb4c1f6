"""Every operator of the dice language against textbook brute force.

Each test states a rule of docs/dice-language.md and checks the exact odds (and, through
the replay oracle, the roller) against an enumeration written out plainly here.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction as F

import pytest

from oracle import exact, product_dist, replay_dist
from rulesengine import dice
from rulesengine.dice.values import DicePool
from rulesengine.limits import DEFAULT_LIMITS

D6 = range(1, 7)
D10 = range(1, 11)
D20 = range(1, 21)


def odds_of(text, env=None):
    o = dice.odds(text, env)
    assert o.truncated == 0
    return o.distribution


def agrees_with_roller(text, env=None, limits=DEFAULT_LIMITS):
    """The exact driver and every path of the rolling driver give the same distribution."""
    got, got_cut = exact(text, env, limits)
    want, want_cut = replay_dist(text, env, limits)
    assert got == want
    assert got_cut == want_cut


# ---- dice ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n,sides", [(1, 6), (2, 6), (3, 6), (2, 10), (1, 20), (4, 4)])
def test_ndm_is_the_sum_of_n_independent_dice(n, sides):
    want = product_dist([range(1, sides + 1)] * n, lambda *f: sum(f))
    assert odds_of(f"{n}d{sides}") == want


def test_dm_without_a_count_is_one_die():
    assert odds_of("d8") == {v: F(1, 8) for v in range(1, 9)}


def test_percentile_die_is_1_to_100():
    assert odds_of("d%") == {v: F(1, 100) for v in range(1, 101)}


def test_fate_dice_show_minus_one_zero_plus_one():
    assert odds_of("4dF") == product_dist([(-1, 0, 1)] * 4, lambda *f: sum(f))


def test_custom_faces_repeat_with_their_weight():
    assert odds_of("2d{1,1,2,3}") == product_dist([(1, 1, 2, 3)] * 2, lambda *f: sum(f))
    assert odds_of("d{-1,0,0,1}") == {-1: F(1, 4), 0: F(1, 2), 1: F(1, 4)}


def test_uppercase_d_is_accepted():
    assert odds_of("2D6") == odds_of("2d6")


def test_zero_dice_roll_zero():
    assert odds_of("0d6") == {0: F(1)}


def test_dice_count_may_be_an_expression():
    want = product_dist([range(1, 5)] + [D6] * 4, lambda n, *f: sum(f[:n]))
    assert odds_of("(1d4)d6") == want
    assert odds_of("(n)d6", {"n": 2}) == odds_of("2d6")


# ---- keep and drop ------------------------------------------------------------------------


@pytest.mark.parametrize("text,fn", [
    ("4d6kh3", lambda *f: sum(sorted(f)[1:])),
    ("4d6dl1", lambda *f: sum(sorted(f)[1:])),
    ("4d6kl2", lambda *f: sum(sorted(f)[:2])),
    ("4d6dh1", lambda *f: sum(sorted(f)[:3])),
    ("4d6kh", lambda *f: max(f)),
    ("5d6dh1dl1", lambda *f: sum(sorted(f)[1:4])),
    ("4d6kh3kl2", lambda *f: sum(sorted(f)[1:3])),
    ("3d6kh5", lambda *f: sum(f)),
])
def test_keep_and_drop_select_by_rank(text, fn):
    n = int(text.split("d")[0])
    assert odds_of(text) == product_dist([D6] * n, fn)


def test_advantage_and_disadvantage():
    assert odds_of("2d20kh1") == product_dist([D20] * 2, max)
    assert odds_of("2d20kl1") == product_dist([D20] * 2, min)


def test_keep_highest_over_a_large_pool_matches_the_closed_form():
    # P(max of 20d6 <= k) = (k/6)^20: checks the dynamic programme on a pool far too big
    # to enumerate.
    o = dice.odds("20d6kh1")
    for k in range(1, 7):
        assert o.at_most(k) == F(k, 6) ** 20


# ---- rerolls ------------------------------------------------------------------------------


def test_reroll_once_replaces_a_matching_face_with_a_second_roll():
    def once(a, b):
        return b if a <= 2 else a

    assert odds_of("d6ro<=2") == product_dist([D6, D6], once)
    assert odds_of("2d6ro1") == product_dist([D6] * 4, lambda a, b, c, d: (b if a == 1 else a) + (d if c == 1 else c))


def test_reroll_until_is_uniform_over_the_kept_faces_and_exact():
    assert odds_of("d6r<=2") == {v: F(1, 4) for v in range(3, 7)}
    assert odds_of("d6r1r6") == {v: F(1, 4) for v in range(2, 6)}


def test_reroll_until_rolls_agree_with_its_odds_at_the_depth_limit():
    # With reroll_depth 3, the third reroll draws among kept faces: same distribution.
    limits = dataclasses.replace(DEFAULT_LIMITS, reroll_depth=3)
    agrees_with_roller("d6r<=4", limits=limits)


# ---- explosions ---------------------------------------------------------------------------


def _explode_oracle(sides, depth, on, kind):
    """Distribution of one exploding die's total, paths deeper than ``depth`` cut."""
    out, cut = {}, F(0)

    def walk(total, p, level, penalty):
        nonlocal cut
        for face in range(1, sides + 1):
            q = p / sides
            value = total + face - penalty
            if face in on:
                if level == depth:
                    cut += q
                else:
                    walk(value, q, level + 1, 1 if kind == "penetrate" else 0)
            else:
                out[value] = out.get(value, 0) + q

    walk(0, F(1), 0, 0)
    return out, cut


@pytest.mark.parametrize("text,sides,on,kind", [
    ("d6!", 6, {6}, "explode"),
    ("d6!!", 6, {6}, "compound"),
    ("d6!p", 6, {6}, "penetrate"),
    ("d6!>=5", 6, {5, 6}, "explode"),
    ("d4!=1", 4, {1}, "explode"),
])
def test_one_exploding_die_totals_its_chain(text, sides, on, kind):
    limits = dataclasses.replace(DEFAULT_LIMITS, explode_depth=3)
    o = dice.Expression(text, limits).odds()
    want, cut = _explode_oracle(sides, 3, on, kind)
    assert o.distribution == want
    assert o.truncated == cut
    assert sum(o.distribution.values()) + o.truncated == 1


def test_explosion_depth_is_a_parameter_and_truncation_is_reported():
    shallow = dice.odds("d6!", explode_depth=1)
    assert shallow.truncated == F(1, 36)
    assert max(shallow.distribution) == 11
    assert dice.odds("d6!", explode_depth=0).truncated == F(1, 6)


@pytest.mark.parametrize("text", [
    "2d6!", "2d4!!", "2d4!p", "3d4!kh2", "3d4!kl1", "3d4!dl1", "2d4!>=3cs>=4",
    "3d4!!kh2", "2d4!min2", "2d4!p>=3kh1",
])
def test_explosions_roll_the_way_their_odds_say(text):
    """Every throw to the explode depth, walked one face at a time, against the exact odds at
    that depth: the same, but where the odds know what a cut throw comes to whatever more
    dice come (the highest kept of dice whose cut chains already hold the top faces kept,
    ``3d4!kh2``): there they count it, so each value has at least the walk's chance, at most
    that and what the walk cut, and nothing is lost. (A compounding die cut keeps a bound:
    ``3d4!!kh2``'s cut throws stay cut in the distribution, decided only by comparisons.)"""
    limits = dataclasses.replace(DEFAULT_LIMITS, explode_depth=2)
    got, got_cut = exact(text, None, limits)
    want, want_cut = replay_dist(text, None, limits)
    assert got_cut <= want_cut
    assert sum(got.values()) + got_cut == sum(want.values()) + want_cut == 1
    for v in set(got) | set(want):
        assert want.get(v, 0) <= got.get(v, 0) <= want.get(v, 0) + (want_cut - got_cut), v
    if text in ("3d4!kh2", "3d4!kl1"):
        assert got_cut == 0 < want_cut  # every chain followed for ever by what it gives the kept dice
    else:
        assert (got, got_cut) == (want, want_cut)  # nothing a cut throw comes to is known there


def test_exploding_dice_join_the_pool_before_keeping():
    # 2d4!kh1 at depth 1: the pool is both dice plus any extra die; keep the best one.
    limits = dataclasses.replace(DEFAULT_LIMITS, explode_depth=1)
    r = dice.Expression("2d4!kh1", limits).roll(faces=[4, 1, 3])
    assert [d.value for d in r.dice] == [4, 1, 3]
    assert r.total == 4
    assert [d.kept for d in r.dice] == [True, False, False]


# ---- counting -----------------------------------------------------------------------------


def test_counting_successes_is_binomial():
    o = odds_of("10d10cs>=8")
    from math import comb

    for k in range(11):
        assert o[k] == comb(10, k) * F(3, 10) ** k * F(7, 10) ** (10 - k)


def test_failures_subtract_from_successes():
    want = product_dist([D10] * 4, lambda *f: sum(x >= 8 for x in f) - sum(x == 1 for x in f))
    assert odds_of("4d10cs>=8cf=1") == want


def test_counting_applies_to_kept_dice_only():
    want = product_dist([D6] * 4, lambda *f: sum(x >= 5 for x in sorted(f)[1:]))
    assert odds_of("4d6kh3cs>=5") == want


def test_exploding_tens_count_again():
    limits = dataclasses.replace(DEFAULT_LIMITS, explode_depth=2)
    agrees_with_roller("2d10!cs>=8", limits=limits)


# ---- clamps -------------------------------------------------------------------------------


def test_min_and_max_clamp_each_die():
    assert odds_of("4d6min3") == product_dist([D6] * 4, lambda *f: sum(max(3, x) for x in f))
    assert odds_of("2d6max4") == product_dist([D6] * 2, lambda *f: sum(min(4, x) for x in f))
    assert odds_of("3d6min2max5kh2") == product_dist(
        [D6] * 3, lambda *f: sum(sorted(min(5, max(2, x)) for x in f)[1:]))


# ---- arithmetic ---------------------------------------------------------------------------


@pytest.mark.parametrize("text,value", [
    ("7/2", 3), ("-7/2", -4), ("7/-2", -4), ("ceil(7/2)", 4), ("ceil(-7/2)", -3),
    ("round(7/2)", 4), ("round(5/2)", 3), ("round(-7/2)", -3), ("round(10/4)", 3), ("round(9/4)", 2),
    ("floor(7/2)", 3), ("ceil((7)/(2))", 4), ("2+3*4", 14), ("(2+3)*4", 20), ("10-2-3", 5),
    ("-3", -3), ("--3", 3), ("+3", 3), ("2*-3", -6), ("min(4, 2, 9)", 2), ("max(4, 2, 9)", 9),
    ("abs(-5)", 5), ("ceil(5)", 5), ("12/3/2", 2),
])
def test_arithmetic_is_on_whole_numbers_and_division_rounds_down(text, value):
    assert odds_of(text) == {value: F(1)}
    assert dice.roll(text, seed=0).total == value


def test_division_of_a_roll_rounds_each_outcome():
    assert odds_of("d6/2") == product_dist([D6], lambda a: a // 2)
    assert odds_of("ceil(d6/2)") == product_dist([D6], lambda a: -(-a // 2))


def test_arithmetic_between_rolls_is_independent():
    assert odds_of("1d6 - 1d6") == product_dist([D6, D6], lambda a, b: a - b)
    assert odds_of("1d4 * 1d4") == product_dist([range(1, 5)] * 2, lambda a, b: a * b)
    assert odds_of("max(1d6, 1d8)") == product_dist([D6, range(1, 9)], max)


# ---- comparisons and logic ----------------------------------------------------------------


def test_a_comparison_is_a_yes_no_not_a_success_count():
    assert odds_of("3d6 >= 10") == {False: F(3, 8), True: F(5, 8)}


@pytest.mark.parametrize("op,fn", [
    ("<", lambda a, b: a < b), ("<=", lambda a, b: a <= b), (">", lambda a, b: a > b),
    (">=", lambda a, b: a >= b), ("==", lambda a, b: a == b), ("!=", lambda a, b: a != b),
])
def test_comparison_operators(op, fn):
    assert odds_of(f"1d6 {op} 1d6") == product_dist([D6, D6], fn)


def test_roll_versus_roll():
    want = product_dist([D6] * 6, lambda a, b, c, d, e, f: a + b + c > d + e + f)
    assert odds_of("3d6 > 3d6") == want


def test_advantage_plus_modifier_against_a_target():
    want = product_dist([D20, D20], lambda a, b: max(a, b) + 5 >= 15)
    assert odds_of("2d20kh1 + 5 >= 15") == want


def test_and_or_not():
    want = product_dist([D6, D6], lambda a, b: (a >= 4 and b >= 4) or not a != 1)
    assert odds_of("(1d6 >= 4 and 1d6 >= 4) or not 1d6 != 1") != want  # three dice, not two
    want3 = product_dist([D6] * 3, lambda a, b, c: (a >= 4 and b >= 4) or not c != 1)
    assert odds_of("(1d6 >= 4 and 1d6 >= 4) or not 1d6 != 1") == want3
    assert odds_of("true and not false") == {True: F(1)}


def test_names_come_from_the_environment():
    assert odds_of("3d6 <= skill", {"skill": 12}) == product_dist([D6] * 3, lambda *f: sum(f) <= 12)
    assert odds_of("defense or 1d6 >= 6", {"defense": True}) == {True: F(1)}


def test_labels_change_nothing_but_the_trace():
    assert odds_of("1d20[attack] + 5[strength]") == odds_of("1d20 + 5")
    assert "attack" in dice.roll("1d20[attack] + 5", seed=1).trace


# ---- the odds object ----------------------------------------------------------------------


def test_mean_at_least_and_at_most_views():
    o = dice.odds("2d6")
    assert o.mean == 7
    assert o.at_least(7) == F(21, 36)
    assert o.at_most(7) == F(21, 36)
    assert o.probability(13) == 0
    rows = o.rows()
    assert rows[0] == {"value": 2, "probability": F(1, 36), "at_least": F(1), "at_most": F(1, 36)}


def test_odds_to_dict_gives_exact_fractions_as_text():
    d = dice.odds("1d4").to_dict()
    assert d["distribution"][0] == {"value": 1, "probability": 0.25, "exact": "1/4",
                                   "at_least": 1.0, "at_most": 0.25}
    assert d["truncated"] == "0/1"
    assert d["mean"] == 2.5


# ---- lazy logic ---------------------------------------------------------------------------


@pytest.mark.parametrize("text,value", [
    ("false and 1/0 == 1", False), ("true or 1/0 == 1", True),
    ("if(true, 1, 1/0)", 1), ("if(false, 1/0, 2)", 2),
])
def test_and_or_and_if_skip_an_operand_that_rolls_no_dice(text, value):
    assert dice.odds(text).distribution == {value: F(1)}
    assert dice.roll(text, seed=1).total == value


def test_an_operand_with_dice_is_always_rolled():
    # Every die of an expression is rolled once, so reading faces stays predictable.
    r = dice.roll("false and 1d6 > 3", faces=[4])
    assert r.total is False and len(r.dice) == 1
    assert odds_of("if(1d6 > 3, 2, 0)") == {0: F(1, 2), 2: F(1, 2)}


# ---- the compiler covers every node kind ---------------------------------------------------


def test_every_node_kind_compiles_to_the_same_odds_in_both_readings():
    """The evaluator compiles each kind of syntax-tree node through one table (node type →
    compiling method): an expression using every kind rolls and works out exactly, and the
    two readings agree."""
    import typing

    from rulesengine.dice import ast

    texts = ['-(1d4[atk] + bonus) * 3 / 2 + max(1, d(2)) - floor(1d3 / 2)',
             '"a" == "a" and not (1d2 > 1) or if(true, 1d3 >= 3, false)',
             '(1d3, 2, 1d2 + 1)kh2 > 3',
             'if((pool)p1 == (pool)k>=(2), 1d4, 1d6)']
    kinds = {type(n) for t in texts for n in ast.walk(dice.parse(t).tree)}
    assert kinds == set(typing.get_args(ast.Node))
    for text in texts:
        agrees_with_roller(text, {"bonus": 2, "pool": DicePool.parse("d8/d6")})
