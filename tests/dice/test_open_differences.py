"""Sums and differences of open-ended dice followed forever (issue #34): where dice are both
added and taken away (`2d6! - 1d6!`, `1d6! + 1d8! - 1d10!`, `1d6! > 1d8!`), every
comparison with a number is exact (nothing truncated), and so is each value's probability
in a distribution (the values beyond the depth are `truncated`, kept as bounds).

The oracle here works apart from the engine. A plain `dS!` ends on q·S + r (0 < r < S) with
probability (1/S)^(q+1), so a sum's probability of each value below any cap is a finite
convolution (:func:`pmf`). P(X − Y + R ≥ t) = Σ_y P(Y = y) P(X + R ≥ y + t) is an infinite
series; the oracle (oracle.open_sum_at_least) lists many of its terms exactly, finds the
shortest linear recurrence they satisfy by Berlekamp–Massey (its own, not the engine's
formula for it), checks it on enough terms to be sure, and sums the series from it (a
rational function at 1). It is also checked here against the series cut at a depth, within
the mass that cut leaves out, and against the worked figures of one die minus another."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from oracle import OpenSum, open_sum_at_least
from rulesengine import dice
from rulesengine.limits import DEFAULT_LIMITS
from rulesengine.ruleset import loads


def die_pmf(s: int, cap: int) -> list[F]:
    """P(one dS! = v) for v < cap: (1/S)^(v div S + 1) unless S divides v."""
    return [F(0) if v == 0 or v % s == 0 else F(1, s) ** (v // s + 1) for v in range(cap)]


def convolve(a: list[F], b: list[F], cap: int) -> list[F]:
    out = [F(0)] * cap
    for i, x in enumerate(a[:cap]):
        if x:
            for j, y in enumerate(b[:cap - i]):
                out[i + j] += x * y
    return out


def pmf(sizes: list[int], cap: int) -> list[F]:
    """P(sum of one dS! per size = v) for v < cap (exact: every die adds 1 or more)."""
    out = [F(1)] + [F(0)] * (cap - 1)
    for s in sizes:
        out = convolve(out, die_pmf(s, cap), cap)
    return out


def at_least(plus: list[int], minus: list[int], t: int, rest: dict[int, F] | None = None) -> F:
    """P(X − Y + R ≥ t): X one dS! per size in ``plus``, Y in ``minus``, R ``rest`` (value ->
    chance; 0 by default), all independent (oracle.open_sum_at_least)."""
    known = tuple(sorted((rest or {0: F(1)}).items()))
    return open_sum_at_least(OpenSum(kinds(plus), kinds(minus), known), t)


def kinds(dice: list) -> tuple:
    """Each die as the oracle's (S, faces it explodes on): a size alone is a dS! (on S)."""
    return tuple(sorted(d if isinstance(d, tuple) else (d, (d,)) for d in dice))


def test_the_oracles_series_sum_agrees_with_the_hand_sum_of_one_die_minus_another():
    """The oracle's own check: for 1d6! − 1d6! it gives the worked figure 11/35 (≥ 2) and the
    tie 1/7 (1/(N + 1) for two dN!)."""
    assert at_least([6], [6], 2) == F(11, 35)
    assert at_least([6], [6], 0) - at_least([6], [6], 1) == F(1, 7)


def cut_at_depth(plus: list[int], minus: list[int], t: int, cap: int) -> tuple[F, F]:
    """The series cut where either sum reaches ``cap``: its sum, and the mass left out."""
    px, py = pmf(plus, cap), pmf(minus, cap)
    inside = sum((py[y] * sum(px[y + t:cap] if y + t >= 0 else px[:cap], F(0)) for y in range(cap)), F(0))
    left_out = 1 - sum(px, F(0)) * sum(py, F(0))
    return inside, left_out


@pytest.mark.parametrize("plus, minus, t", [([6, 6], [6], 2), ([6, 8], [10], 0), ([4], [6, 6], -3)])
def test_the_oracle_agrees_with_the_series_cut_at_a_depth_within_what_the_cut_leaves_out(plus, minus, t):
    inside, left_out = cut_at_depth(plus, minus, t, 150)
    assert 0 < left_out < F(1, 10 ** 9)
    assert 0 <= at_least(plus, minus, t) - inside <= left_out


def text(plus: list[int], minus: list[int], constant: int = 0) -> str:
    out = " + ".join(f"1d{s}!" for s in plus)
    out += "".join(f" - 1d{s}!" for s in minus)
    return out + (f" + {constant}" if constant > 0 else f" - {-constant}" if constant < 0 else "")


@pytest.mark.parametrize("plus, minus", [([6, 6], [6]), ([6], [6, 6]), ([6, 8], [10]), ([4, 4], [4, 4]), ([2], [4])])
@pytest.mark.parametrize("t", [-7, 0, 2, 9])
def test_a_difference_of_sums_of_exploding_dice_against_a_number_is_exact(plus, minus, t):
    """`1d6! + 1d6! - 1d6! >= t` and the like: nothing truncated, the series' sum."""
    odds = dice.odds(f"{text(plus, minus)} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == at_least(plus, minus, t)


def test_two_exploding_dice_of_one_kind_written_as_2d6_are_the_sum_of_two():
    odds = dice.odds("2d6! - 1d6! >= 2")
    assert odds.truncated == 0 and odds.probability(True) == at_least([6, 6], [6], 2)


@pytest.mark.parametrize("expression, plus, minus, t", [
    ("1d6! > 1d8!", [6], [8], 1),
    ("1d6! >= 1d6!", [6], [6], 0),
    ("1d6! + 1d6! <= 1d10! + 3", [10], [6, 6], -3),
    ("1d8! < 1d6! + 1d4!", [6, 4], [8], 1),
])
def test_exploding_terms_compared_with_each_other_are_exact(expression, plus, minus, t):
    """`a op b` of exploding terms asks `a - b op 0`: nothing truncated."""
    odds = dice.odds(expression)
    assert odds.truncated == 0
    assert odds.probability(True) == at_least(plus, minus, t)


def test_a_plain_die_and_a_number_added_in_are_exact_too():
    """`1d6! - 1d6! + 1d4 - 2 >= 1`: the plain die and the number are a known part, R."""
    rest = {r - 2: F(1, 4) for r in range(1, 5)}
    odds = dice.odds("1d6! - 1d6! + 1d4 - 2 >= 1")
    assert odds.truncated == 0 and odds.probability(True) == at_least([6], [6], 1, rest)
    odds = dice.odds("2d6! - 1d8! + 3 == 5")
    three = {3: F(1)}
    assert odds.truncated == 0
    assert odds.probability(True) == at_least([6, 6], [8], 5, three) - at_least([6, 6], [8], 6, three)


def test_each_value_of_a_difference_of_sums_has_its_exact_probability():
    """`2d6! - 1d6!` as a distribution: every value the depth reached has the series' chance;
    what lies beyond is the truncated mass, above as a lower bound and below as an upper one."""
    odds = dice.odds("2d6! - 1d6!")
    low, high = min(odds.distribution), max(odds.distribution)
    for v in (low, -5, -1, 0, 1, 2, 7, 12, 30, high):
        assert odds.probability(v) == at_least([6, 6], [6], v) - at_least([6, 6], [6], v + 1), v
    assert odds.truncated == (1 - at_least([6, 6], [6], low)) + at_least([6, 6], [6], high + 1)
    assert dice.odds(f"2d6! - 1d6! >= {high + 5}").truncated == 0


def test_negating_a_difference_mirrors_it():
    odds = dice.odds("-(1d6! - 1d8!) >= 2")
    assert odds.truncated == 0 and odds.probability(True) == at_least([8], [6], 2)


CHECK = """
ruleset: swerve
name: A swerve read by a check's outcomes
version: "1"
source: tests
checks:
  swerve:
    inputs:
      edge: {type: integer, default: 0, min: -10, max: 10}
    roll: 2d6! - 1d6! + edge
    outcomes:
      - {name: ahead, when: "roll >= 3", success: true}
      - {name: behind, success: false}
"""


@pytest.mark.parametrize("edge", [-10, 0, 4])
def test_a_check_whose_roll_is_a_difference_of_sums_has_exact_outcomes(edge):
    """One roll `2d6! - 1d6! + edge`: its values are the closed form's, so a comparison of
    it with a number is decided on every value, cut ones included."""
    odds = loads(CHECK, "swerve.yaml").check("swerve").odds({"edge": edge})
    assert odds.truncated == 0
    assert odds.outcomes["ahead"] == at_least([6, 6], [6], 3 - edge)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from([2, 4, 6, 8]), min_size=1, max_size=2),
       st.lists(st.sampled_from([2, 4, 6, 8]), min_size=1, max_size=2),
       st.integers(-12, 12), st.integers(-3, 3))
def test_any_difference_of_one_to_four_exploding_dice_against_a_number_is_exact(plus, minus, t, constant):
    odds = dice.odds(f"{text(plus, minus, constant)} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == at_least(plus, minus, t - constant)


# ---- dice that explode on other faces than their top -----------------------------------
#
# One die exploding on a set E of its faces ends on n with [z^n] of A(z)/(1 − B(z)), A the
# faces that end it and B those that explode: sums and differences of such chains are
# followed forever the same way. The oracle works each chain out die by die (exact below
# its cap) and sums the series by its own shortest recurrence, as above.

@pytest.mark.parametrize("expression, plus, minus, t", [
    ("1d6!>=5 - 1d6! >= 2", [(6, (5, 6))], [6], 2),
    ("1d6!>=5 - 1d6!>=5 == 0", [(6, (5, 6))], [(6, (5, 6))], 0),
    ("1d6!=3 - 1d6! >= 0", [(6, (3,))], [6], 0),
    ("1d8!1 - 1d6! > 1", [(8, (1,))], [6], 2),
    ("1d10!>=9 > 1d10!", [(10, (9, 10))], [10], 1),
    ("1d6!!>=5 - 1d4! + 2 >= 5", [(6, (5, 6))], [4], 3),
    ("1d4!=2!=4 + 1d4! - 1d6!>=6 < 3", [(4, (2, 4)), 4], [6], 3),
])
def test_dice_exploding_on_other_faces_than_their_top_are_followed_forever_too(expression, plus, minus, t):
    """`1d6!>=5 - 1d6! >= 2`, a chain exploding on 3 (its last faces end it after the
    exploding one), on a 1 (a stress die's `!1`), compounding: nothing truncated. Where the
    comparison is `==`, `>` or `<`, the figure is the oracle's P(≥ t) read the same way."""
    odds = dice.odds(expression)
    assert odds.truncated == 0, expression
    if "==" in expression:
        want = at_least(plus, minus, t) - at_least(plus, minus, t + 1)
    elif " < " in expression:
        want = 1 - at_least(plus, minus, t)
    else:
        want = at_least(plus, minus, t)
    assert odds.probability(True) == want


def test_the_oracles_chains_agree_with_the_series_cut_at_a_depth():
    """The oracle's sum for a die exploding on 5 and 6 minus a d6!, against the same series
    cut where the sums reach 200: within the mass the cut leaves out."""
    from oracle import chain_sums
    cap = 200
    px, py = chain_sums(((6, (5, 6)),), cap), chain_sums(((6, (6,)),), cap)
    inside = sum((py[y] * sum(px[y + 2:cap], F(0)) for y in range(cap)), F(0))
    left_out = 1 - sum(px, F(0)) * sum(py, F(0))
    assert 0 < left_out < F(1, 10 ** 6)
    assert 0 <= at_least([(6, (5, 6))], [6], 2) - inside <= left_out


def test_each_value_of_a_difference_of_chains_exploding_on_a_range_is_exact():
    odds = dice.odds("1d6!>=5 - 1d6!")
    law = ([(6, (5, 6))], [6])
    for v in (min(odds.distribution), -3, 0, 1, 4, max(odds.distribution)):
        assert odds.probability(v) == at_least(*law, v) - at_least(*law, v + 1), v


def test_a_big_die_exploding_on_several_faces_keeps_the_depths_answer_within_the_budget():
    """A d20 exploding on 10 and 20 less a d20!: its recurrence (400 terms, from power sums)
    would take more than half the budget, so the depth's answer stands; with room, exact."""
    assert dice.odds("1d20!=10!=20 - 1d20! >= 3").truncated > 0
    roomy = dice.odds("1d20!=10!=20 - 1d20! >= 3", limits=replace(DEFAULT_LIMITS, max_states=100_000_000))
    assert roomy.truncated == 0
    assert roomy.probability(True) == at_least([(20, (10, 20))], [20], 3)


_FACES = st.sampled_from([4, 6]).flatmap(
    lambda s: st.tuples(st.just(s), st.sets(st.integers(1, s), min_size=1, max_size=s - 1)))


@settings(max_examples=15, deadline=None)
@given(_FACES, _FACES, st.integers(-8, 8))
def test_any_two_dice_exploding_on_any_faces_compared_are_exact(a, b, t):
    """A die exploding on any set of its faces less another, against any number."""
    def written(kind):
        s, faces = kind
        return f"1d{s}" + "".join(f"!={f}" for f in sorted(faces))

    odds = dice.odds(f"{written(a)} - {written(b)} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == at_least([(a[0], tuple(sorted(a[1])))], [(b[0], tuple(sorted(b[1])))], t)


SWERVE = """
ruleset: swerve
name: The cookbook's swerve
version: "1"
source: tests
checks:
  swerve:
    inputs:
      edge: {type: integer, default: 0, min: -5, max: 5}
      trained: {type: boolean, default: false}
    roll: if(trained, 1d6!>=5, 1d6!) - 1d6! + edge
    outcomes:
      - {name: triumph, when: "roll >= 4", success: true}
      - {name: success, when: "roll >= 1", success: true}
      - {name: setback, success: false}
"""


@pytest.mark.parametrize("trained", [False, True])
@pytest.mark.parametrize("edge", [-2, 0, 3])
def test_the_cookbooks_swerve_has_the_series_outcomes(trained, edge):
    """docs/cookbook.md, "A swerve": a triumph is 4 or more, a success 1 to 3, each exact
    (at edge 0 untrained: 11/70 and 19/70, the setback 4/7)."""
    good = [(6, (5, 6))] if trained else [6]
    odds = loads(SWERVE, "swerve.yaml").check("swerve").odds({"edge": edge, "trained": trained})
    assert odds.truncated == 0
    assert odds.outcomes["triumph"] == at_least(good, [6], 4 - edge)
    assert odds.outcomes["success"] == at_least(good, [6], 1 - edge) - at_least(good, [6], 4 - edge)
    if (trained, edge) == (False, 0):
        assert (odds.outcomes["triumph"], odds.outcomes["success"], odds.outcomes["setback"]) == \
            (F(11, 70), F(19, 70), F(4, 7))


# ---- a multiple of exploding dice (issue 34: "multiplication by a constant") ------------------


@pytest.mark.parametrize("expression, plus, minus", [
    ("2 * 1d6! - 1d6!", ((6, (6,), 2),), ((6, (6,)),)),
    ("1d6! * 2 - 1d6!", ((6, (6,), 2),), ((6, (6,)),)),
    ("1d6! - 3 * 1d4!", ((6, (6,)),), ((4, (4,), 3),)),
    ("-2 * 1d6! + 1d8!", ((8, (8,)),), ((6, (6,), 2),)),
    ("2 * (1d6! - 1d4!)", ((6, (6,), 2),), ((4, (4,), 2),)),
    ("2 * 1d6!>=5 - 1d6!", ((6, (5, 6), 2),), ((6, (6,)),)),
])
@pytest.mark.parametrize("t", [-4, 0, 1, 5])
def test_a_multiple_of_exploding_dice_in_a_difference_is_exact(expression, plus, minus, t):
    """The oracle takes each die's total k times (its chain's values spread: v becomes k·v)
    and finds the series' recurrence itself."""
    odds = dice.odds(f"{expression} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == open_sum_at_least(OpenSum(plus, minus), t)


def test_each_value_of_a_multiple_in_a_difference_has_its_exact_probability():
    law = OpenSum(((6, (6,), 2),), ((6, (6,)),))
    odds = dice.odds("2 * 1d6! - 1d6!")
    for v in (-5, -1, 0, 1, 2, 7):
        assert odds.probability(v) == open_sum_at_least(law, v) - open_sum_at_least(law, v + 1), v
    assert sum(odds.distribution.values()) + odds.truncated == 1


def test_the_oracles_multiple_is_the_series_cut_at_a_depth():
    """2·X − Y ≥ 3 summed by hand over X, Y ≤ 200 (each dS! pmf is a closed form) is within
    the mass beyond of the oracle's figure."""
    cap = 200
    x, y = die_pmf(6, cap), die_pmf(6, cap)
    hand = sum((x[a] * y[b] for a in range(cap) for b in range(cap) if 2 * a - b >= 3), F(0))
    oracle = open_sum_at_least(OpenSum(((6, (6,), 2),), ((6, (6,)),)), 3)
    left = 1 - sum(x) * sum(y)
    assert hand <= oracle <= hand + left


def test_a_product_of_two_exploding_terms_is_no_multiple():
    """``1d6! * (1d6! + 2)``: the second factor rolls dice, so the first is not taken a known
    number of times (a bug once read it as 2 * 1d6! and called 24/43 exact). Its figure is cut,
    and lies within the sum of every face to 60 on each die and what that leaves out."""
    odds = dice.odds("1d6! * (1d6! + 2) - 1d6! >= 3")
    assert odds.truncated > 0
    cap = 60
    x = die_pmf(6, cap)
    hand = sum((x[a] * x[b] * x[c] for a in range(cap) for b in range(cap) if x[a] and x[b]
                for c in range(cap) if a * (b + 2) - c >= 3), F(0))
    left = 1 - sum(x) ** 3
    p = odds.probability(True)
    assert p <= hand + left and hand <= p + odds.truncated


def test_a_large_multiple_keeps_the_depths_rows_without_listing_every_value_between():
    """1000000 * 1d6! - 1d6! spreads its values over tens of millions: its rows are the depth's
    (what is cut reported), not each whole number between worked out in closed form; counted by
    the rows it gives, not by a clock."""
    odds = dice.odds("1000000 * 1d6! - 1d6!")
    assert 0 < len(odds.distribution) <= 66 * 66 and odds.truncated > 0


# ---- penetrating and rerolled dice: the same series, each die's chain its own -------------

PENETRATING = (6, (6,), 1, 1)  # the oracle's d6!p: each die the explosions add worth one less


@pytest.mark.parametrize("expression, plus, minus", [
    ("1d6!p - 1d6!", (PENETRATING,), ((6, (6,)),)),
    ("1d6! - 1d6!p", ((6, (6,)),), (PENETRATING,)),
    ("2d6!p - 1d6!p", (PENETRATING, PENETRATING), (PENETRATING,)),
    ("1d6!p>=5 - 1d8!", ((6, (5, 6), 1, 1),), ((8, (8,)),)),
    ("1d4!p - 1d6!!", ((4, (4,), 1, 1),), ((6, (6,)),)),
    ("2 * 1d6!p - 1d6!", ((6, (6,), 2, 1),), ((6, (6,)),)),
])
@pytest.mark.parametrize("t", [-3, 0, 2, 6])
def test_penetrating_dice_in_a_difference_are_exact(expression, plus, minus, t):
    """``!p``: a die that explodes adds a die worth one less, which explodes on its own face
    (its generating function is the plain chain's with each explosion a step shorter); the
    oracle enumerates the chain die by die and finds the series' recurrence itself."""
    odds = dice.odds(f"{expression} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == open_sum_at_least(OpenSum(plus, minus), t)


@pytest.mark.parametrize("expression, plus, minus", [
    ("1d6r1! - 1d6!", ((6, (6,), 1, 0, (0, 1, 1, 1, 1, 1)),), ((6, (6,)),)),
    ("1d6ro1! - 1d6!", ((6, (6,), 1, 0, (1, 7, 7, 7, 7, 7)),), ((6, (6,)),)),
    ("1d6! - 1d8ro<3!>=7", ((6, (6,)),), ((8, (7, 8), 1, 0, (2, 2, 10, 10, 10, 10, 10, 10)),)),
    ("1d6r1!p - 1d6!", ((6, (6,), 1, 1, (0, 1, 1, 1, 1, 1)),), ((6, (6,)),)),
])
@pytest.mark.parametrize("t", [-2, 1, 4])
def test_rerolled_exploding_dice_in_a_difference_are_exact(expression, plus, minus, t):
    """Rerolls weigh a die's faces (until: the faces kept alike; once: a face rerolled is
    rolled again), every die of its chain alike; the oracle takes the faces' weights as
    written here by hand (``ro1`` on a d6: 1/36 for a 1, 7/36 for each other face)."""
    odds = dice.odds(f"{expression} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == open_sum_at_least(OpenSum(plus, minus), t)


def _chain_pmf(faces: dict[int, F], explodes: set[int], penalty: int, cap: int) -> list[F]:
    """P(one chain = v) for v < cap, by listing every sequence of dice (the added ones worth
    ``penalty`` less) up to ``cap`` dice: a third way, sharing no code with the oracle."""
    out = [F(0)] * cap
    paths = [(0, F(1), 0)]  # value so far, chance, what this die loses
    for _ in range(cap):
        nxt = []
        for v, p, lose in paths:
            for f, q in faces.items():
                w = v + f - lose
                if w >= cap or not q:
                    continue
                if f in explodes:
                    nxt.append((w, p * q, penalty))
                else:
                    out[w] += p * q
        paths = nxt
    return out


def test_the_oracles_penetrating_and_rerolled_chains_are_their_dice_listed_one_by_one():
    """d6!p − d6! ≥ 2 and d6r1! − d6! ≥ 2 summed by hand over every sequence of dice up to
    values of 60: the oracle's figure lies within what that leaves out."""
    cap = 60
    d6 = {f: F(1, 6) for f in range(1, 7)}
    plain = _chain_pmf(d6, {6}, 0, cap)
    for x, kind in ((_chain_pmf(d6, {6}, 1, cap), PENETRATING),
                    (_chain_pmf({f: F(1, 5) for f in range(2, 7)}, {6}, 0, cap), (6, (6,), 1, 0, (0, 1, 1, 1, 1, 1)))):
        hand = sum((x[a] * plain[b] for a in range(cap) for b in range(cap) if a - b >= 2), F(0))
        left = 1 - sum(x) * sum(plain)
        assert 0 < left < F(1, 10 ** 6)
        assert hand <= open_sum_at_least(OpenSum((kind,), ((6, (6,)),)), 2) <= hand + left


def test_each_value_of_a_penetrating_difference_has_its_exact_probability():
    law = OpenSum((PENETRATING,), ((6, (6,)),))
    odds = dice.odds("1d6!p - 1d6!")
    for v in (-6, -1, 0, 1, 5, 9):
        assert odds.probability(v) == open_sum_at_least(law, v) - open_sum_at_least(law, v + 1), v
    assert sum(odds.distribution.values()) + odds.truncated == 1


# ---- properties over random penetrating and rerolled dice -----------------------------------

def _reroll_weights(s: int, rerolled: frozenset[int], once: bool) -> tuple[int, ...]:
    """Each face's whole-number weight after rerolling ``rerolled`` (once, or until a face
    not rerolled shows), written from the rule: once, a rerolled face is rolled again and
    kept, S·S in all; until, the faces kept alike."""
    if once:
        return tuple((0 if f in rerolled else s) + len(rerolled) for f in range(1, s + 1))
    return tuple(0 if f in rerolled else 1 for f in range(1, s + 1))


_SPUN = st.sampled_from([4, 6]).flatmap(lambda s: st.tuples(
    st.just(s),
    st.sets(st.integers(2, s), min_size=1, max_size=s - 2),      # faces it explodes on (2 or more)
    st.sampled_from(["!", "!p"]),
    st.sets(st.integers(1, 2), max_size=1),                     # a face rerolled, or none
    st.booleans()))                                             # rerolled once or until


def _written(die) -> str:
    s, faces, mark, rerolled, once = die
    reroll = (f"r{'o' if once else ''}{min(rerolled)}" if rerolled else "")
    return f"1d{s}{reroll}" + "".join(f"{mark}={f}" if mark == "!" else f"!p={f}" for f in sorted(faces))


def _kind(die):
    s, faces, mark, rerolled, once = die
    kept = [f for f in faces if f not in rerolled or once]
    return (s, tuple(sorted(kept)), 1, 1 if mark == "!p" else 0, _reroll_weights(s, frozenset(rerolled), once))


@settings(max_examples=15, deadline=None)
@given(_SPUN, _SPUN, st.integers(-8, 8))
def test_any_difference_of_penetrating_or_rerolled_dice_is_exact(a, b, t):
    """A die exploding (``!`` or ``!p``) on any faces of 2 or more, a face rerolled once or
    until, less another such die, against any number: nothing truncated, the oracle's figure
    (its chains worked out die by die from the faces' weights written here from the rule)."""
    if any(not [f for f in range(1, d[0] + 1) if f not in d[1] and (f not in d[3] or d[4])] for d in (a, b)):
        return  # every face that can show explodes: no chain ends
    odds = dice.odds(f"{_written(a)} - {_written(b)} >= {t}")
    assert odds.truncated == 0
    assert odds.probability(True) == open_sum_at_least(OpenSum((_kind(a),), (_kind(b),)), t)
